#!/bin/sh
# fuzz-merge.sh CORPUS 'TARGET...' NAME:MAXLEN... (make fuzz-merge): adds
# to CORPUS/TARGET (tests/fuzz/corpus in the source tree: on purpose) the
# inputs of _fuzz/TARGET that reach code the corpus does not (libFuzzer's
# -merge=1 with _fuzz/fuzz_TARGET, inputs cut at the MAXLEN of the pair
# NAME:MAXLEN whose NAME is TARGET), for each of the TARGETs (make's
# FUZZ_TARGETS).  Targets never fuzzed here (no _fuzz/TARGET) are passed
# over.
[ $# -ge 2 ] || { echo "usage: fuzz-merge.sh CORPUS 'TARGET...' NAME:MAXLEN..." >&2; exit 2; }
corpus=$1 targets=$2
shift 2
for t in $targets; do
  test -d "_fuzz/$t" || continue
  len=
  for pair; do
    [ "${pair%%:*}" = "$t" ] && len=${pair#*:}
  done
  [ -n "$len" ] || { echo "fuzz-merge.sh: no MAXLEN for $t" >&2; exit 2; }
  before=$(ls "$corpus/$t" | wc -l)
  echo "_fuzz/fuzz_$t -merge=1 -max_len=$len $corpus/$t _fuzz/$t"
  "_fuzz/fuzz_$t" -merge=1 -max_len="$len" "$corpus/$t" "_fuzz/$t" 2>"_fuzz/merge-$t.log" ||
    { cat "_fuzz/merge-$t.log"; exit 1; }
  echo "  $corpus/$t: $before files, now $(ls "$corpus/$t" | wc -l)"
done
