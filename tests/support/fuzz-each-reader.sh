#!/bin/sh
# fuzz-each-reader.sh RUNS MAXLEN [OPTION...]: fuzzes _fuzz/fuzz_levels
# (make fuzz-levels-each builds it) per level reader, each run from
# the inputs of _fuzz/levels whose first byte picks that reader, for 1.5 x
# RUNS executions (mutants of the first byte go to the other readers),
# with the libFuzzer OPTIONs added; then sums the executions each reader
# got over all the runs (the fuzzer says them at exit; a reader short of
# RUNS is run again, eight times at most) and fails when one reader got
# fewer than RUNS or a run found something.  One mixed run gives most
# executions to the reader most of the corpus picks; issue 33 asks for a
# number per reader.
[ $# -ge 2 ] || { echo "usage: fuzz-each-reader.sh RUNS MAXLEN [OPTION...]" >&2; exit 2; }
runs=$1 len=$2 each=$(($1 + $1 / 2))
shift 2
[ -x _fuzz/fuzz_levels ] && [ -d _fuzz/levels ] ||
  { echo "fuzz-each-reader.sh: _fuzz/fuzz_levels or _fuzz/levels missing (make fuzz-levels-each)" >&2; exit 2; }
rm -rf _fuzz/each && mkdir -p _fuzz/each
for f in _fuzz/levels/*; do
  b=$(od -An -tu1 -N1 "$f" | tr -d ' ')
  [ -n "$b" ] || continue
  mkdir -p "_fuzz/each/r$((b % 6))" && cp "$f" "_fuzz/each/r$((b % 6))/"
done
# The executions reader $1 got over the runs so far.
got() {
  cat _fuzz/each/*.log 2>/dev/null |
    awk -v name="$1" '$0 ~ "^fuzz_levels: [0-9]+ executions of the " name " reader$" { n += $2 } END { print n + 0 }'
}
rc=0
for r in 0 1 2 3 4 5; do
  case $r in 0) name="Tiled XML" ;; 1) name="Tiled JSON" ;; 2) name=LDtk ;; 3) name=PNG ;;
    4) name="PNG heights" ;; 5) name=PGM ;; esac
  mkdir -p "_fuzz/each/r$r"
  # A reader with no input yet starts from one byte that picks it.
  [ -n "$(ls "_fuzz/each/r$r")" ] || printf "\\$(printf %03o "$r")" > "_fuzz/each/r$r/start"
  # Mutants of the first byte wander to the other readers, the more so
  # the fewer inputs pick this one: run again until it has its share.
  round=0
  while [ "$(got "$name")" -lt "$runs" ] && [ $round -lt 8 ]; do
    echo "_fuzz/fuzz_levels -runs=$each -max_len=$len $* -artifact_prefix=_fuzz/levels-each$r- _fuzz/each/r$r"
    _fuzz/fuzz_levels -runs="$each" -max_len="$len" "$@" -artifact_prefix="_fuzz/levels-each$r-" \
      "_fuzz/each/r$r" 2> "_fuzz/each/r$r.$round.log" || { rc=1; echo "  run $r failed: _fuzz/each/r$r.$round.log"; }
    round=$((round + 1))
  done
done
cat _fuzz/each/*.log | awk -v want="$runs" -v rc=$rc '
  /^fuzz_levels: [0-9]+ executions of the / {
    n = $2; $1 = ""; $2 = ""; $3 = ""; $4 = ""; $5 = ""; sub(/^ +/, ""); sub(/ reader$/, "")
    sum[$0] += n; if (!($0 in seen)) { seen[$0] = 1; order[++k] = $0 }
  }
  END {
    for (i = 1; i <= k; i++) {
      printf "%-12s %8d executions%s\n", order[i], sum[order[i]], sum[order[i]] < want ? "  (fewer than asked)" : ""
      if (sum[order[i]] < want) rc = 1
    }
    if (k != 6) { print "fuzz-each-reader.sh: the fuzzer did not say its executions for six readers"; rc = 1 }
    exit rc
  }'
