#!/bin/sh
# fuzz-run.sh CORPUS SECONDS TARGET MAXLEN [OPTION...]: fuzzes
# _fuzz/fuzz_TARGET (built by make fuzz-build) for SECONDS, inputs cut at
# MAXLEN bytes, from _fuzz/TARGET (fuzz-prepare.sh made it), with the
# libFuzzer OPTIONs added (make's FUZZ_ARGS); then says where the findings
# are and how to keep them in CORPUS (the committed corpus).  New inputs
# go to _fuzz/TARGET, crashes, leaks and timeouts to _fuzz/TARGET-*.
# Exits with the fuzzer's status.
[ $# -ge 4 ] || { echo "usage: fuzz-run.sh CORPUS SECONDS TARGET MAXLEN [OPTION...]" >&2; exit 2; }
corpus=$1 seconds=$2 t=$3 len=$4
shift 4
# The structure-aware targets count edges, not how often each is taken:
# their mutants take new counts all the time, and the corpus would grow by
# hundreds of large inputs a minute.
case $t in queries | tools | sqlite | work) counters=-use_counters=0 ;; *) counters= ;; esac
echo "_fuzz/fuzz_$t -max_total_time=$seconds -max_len=$len $counters $* -artifact_prefix=_fuzz/$t- _fuzz/$t"
rc=0
_fuzz/fuzz_$t -max_total_time="$seconds" -max_len="$len" $counters "$@" \
  -artifact_prefix="_fuzz/$t-" "_fuzz/$t" || rc=$?
echo "fuzz_$t: new inputs are in _fuzz/$t/; crashes, leaks and timeouts in _fuzz/$t-*"
for f in "_fuzz/$t"-*; do test -f "$f" && echo "  found: $f"; done
echo "  to keep a finding as a regression test (make check replays it): cp _fuzz/$t-crash-... $corpus/$t/"
echo "  to add the new coverage to the committed corpus: make fuzz-merge"
exit $rc
