#!/bin/sh
# fuzz-merge.sh CORPUS TARGET:MAXLEN... (make fuzz-merge): adds to
# CORPUS/TARGET (tests/fuzz/corpus in the source tree: on purpose) the
# inputs of _fuzz/TARGET, up to MAXLEN bytes, that reach code the corpus
# does not (libFuzzer's -merge=1 with _fuzz/fuzz_TARGET).  Targets never
# fuzzed here (no _fuzz/TARGET) are passed over.
[ $# -ge 2 ] || { echo "usage: fuzz-merge.sh CORPUS TARGET:MAXLEN..." >&2; exit 2; }
corpus=$1
shift
for pair; do
  t=${pair%%:*} len=${pair#*:}
  test -d "_fuzz/$t" || continue
  before=$(ls "$corpus/$t" | wc -l)
  echo "_fuzz/fuzz_$t -merge=1 -max_len=$len $corpus/$t _fuzz/$t"
  "_fuzz/fuzz_$t" -merge=1 -max_len="$len" "$corpus/$t" "_fuzz/$t" 2>"_fuzz/merge-$t.log" ||
    { cat "_fuzz/merge-$t.log"; exit 1; }
  echo "  $corpus/$t: $before files, now $(ls "$corpus/$t" | wc -l)"
done
