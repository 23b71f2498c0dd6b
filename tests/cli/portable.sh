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

# The allocator rule (HACKING.md, "Memory"): the runtime allocates through
# core/alloc.c only, with the bundle's allocator; nothing else calls the C
# library's allocator or what allocates behind it (glibc's qsort does).
# test_api sees the calls a run makes; this sees every call written.
# c_calls FILE...: the lines of code (comments left out) that call them.
c_calls() {
  for f in "$@"; do
    sed -e 's|/\*.*\*/||g' -e 's|^[[:space:]]*/\*.*||' -e 's|^[[:space:]]*\*\([[:space:]/].*\)\{0,1\}$||' "$f" |
      grep -nE '(^|[^>.[:alnum:]_])(malloc|calloc|realloc|reallocarray|free|strdup|strndup|aligned_alloc|posix_memalign|qsort)[[:space:]]*\(' |
      sed "s|^|$f:|"
  done
}
status c_calls $(find lib/runtime -name '*.[ch]' ! -path lib/runtime/core/alloc.c | sort)
is "the runtime allocates through core/alloc.c only (no malloc, free, strdup or qsort)" "$out" ""
printf '%s\n' 'static void f(char *p, char **q)' '{' '    /* free (p) in a comment */' '     * free (p) as well' \
  '    nbi_free(a, p); a->free(a, p); sqlite3_free(p);' '    free (p);' '    *q = malloc(8);' '}' \
  >"$tmp/planted.c"
status c_calls "$tmp/planted.c"
is "planted calls of free and malloc are found, and nothing else" "$out" "$tmp/planted.c:6:    free (p);
$tmp/planted.c:7:    *q = malloc(8);"
finish
