#!/bin/sh
# portable.sh: what keeps the runtime portable.  Compiler extensions are
# written in lib/port/port.h only (NBP_ names elsewhere), and the runtime
# reaches the operating system (POSIX or Windows headers, file and mapping
# calls) in lib/runtime/bundle/osfile.c only.  make check-windows builds
# and runs the result on Windows.
. "$top_srcdir/tests/support/lib.sh"
cd "$top_srcdir" || exit 1
files=$(find lib tools tests -name '*.[ch]' ! -path 'lib/port/port.h' ! -path '*/_*' | sort)
status grep -n '__attribute__\|__builtin_' $files
is "no __attribute__ or __builtin_ outside port.h" "$out" ""
runtime=$(find lib/runtime -name '*.[ch]' ! -path 'lib/runtime/bundle/osfile.c' | sort)
status grep -nE '#include <(unistd|fcntl|windows|io|direct)\.h>|#include <sys/' $runtime
is "the runtime includes no system header beyond ISO C's but in osfile.c" "$out" ""
status grep -nE '\b(mmap|munmap|open|fstat|pread|read|close|CreateFile[AW]?|MapViewOfFile)\(' $runtime
is "nor calls the system's file functions" "$out" ""
finish
