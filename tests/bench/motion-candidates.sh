#!/bin/sh
# motion-candidates.sh: the obstacle-aware heuristics tried for the
# paper's Tables 2 and 3 (tests/bench/results/motion-bench.md), one bench_motion_maps run
# each on the same maps, pairs and settings, printed as one markdown table.
#   NB_SHARED=../shared tests/bench/motion-candidates.sh [BENCH_OPTION]...
# Extra options go to every run (e.g. --map arena --pairs 50 to explore).
bench=${BENCH:-tests/bench/bench_motion_maps}
[ -x "$bench" ] || { echo "motion-candidates: build $bench first (make $bench)" >&2; exit 2; }
echo "| candidate | segments | truncation | humanoid median / 90th / 99th | tank | vehicle |" \
     "obstacle-aware search, cells or states per step (h / t / v) | time per step against the perimeter column (h / t / v) |"
echo "|---|---|---|---|---|---|---|---|"
run() {
    label=$1
    shift
    "$bench" --max-expansions 100000 --columns perimeter,ours --row "$label" "$@" 2>/dev/null | grep '^|' || {
        echo "motion-candidates: $label failed" >&2
        exit 1
    }
}
run "extended+grid (before)" --ours extended+grid "$@"
run "extended+heading, one heading a class" --ours extended+heading --per-class 1 "$@"
run "extended+heading, default classes (4 / 4 / 1 headings)" --ours extended+heading "$@"
run "extended+heading, 2 headings a class" --ours extended+heading --per-class 2 "$@"
run "extended+heading, 4 headings a class" --ours extended+heading --per-class 4 "$@"
run "perimeter+heading (admissible)" --ours perimeter+heading --per-class 1 "$@"
run "heading alone (no table)" --ours heading --per-class 1 "$@"
run "extended+heading, truncated searches aimed at their whole box" --ours extended+heading --per-class 1 --box --truncation yes "$@"
