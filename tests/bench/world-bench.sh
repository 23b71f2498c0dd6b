#!/bin/sh
# world-bench.sh [SIZE:TILE...]: worlds of tiles baked through Ninja
# (issue 30; tests/bench/results/world-bench.md).  Each world is a shared map
# tiled with mirroring to SIZE x SIZE cells in tiles of TILE
# (tests/bench/world-gen.py writes the tile maps and the manifest, as a game's
# chunks would be), planned with navbake world plan --ninja and baked from
# nothing with ninja -j1 (up to 8192 cells a side) and -j2; the two bakes'
# files must be byte-identical.  Every action runs under /usr/bin/time, for
# its peak memory.  Then, on each world of 16384 cells or more, edits of 1 x 1,
# 10 x 10 and 100 x 100 cells inside one tile, each rebaked by ninja -j2: its
# wall time against the full bake's, the files it rewrote and the actions
# Ninja ran (the edited tile's strips and tile actions and the link, when
# the edit is farther than the halo from the tile's edges).
# Default: 4096:512 4096:1024 16384:1024 32768:1024.  Run from a built tree:
#   make bench-world    (or sh tests/bench/world-bench.sh 4096:512)
# NB_WORLD_MAP chooses the map (default dao/brc202d of the shared maps);
# NB_WORLD_CROP=X0,Y0,W,H tiles that rectangle of it (world-gen.py --crop:
# copies that join, so that a query can cross the world);
# the 32768^2 world takes about 3 GB of disk in $TMPDIR.  NB_WORLD_KEEP=1
# keeps the worlds (their folder is printed) to measure an action again.
# NB_WORLD_SLURM=1 also bakes each world on Slurm: a one-node cluster
# started here by tests/cluster/one-node.sh (its daemons stopped at exit),
# the world planned with --slurm and submitted; its time is from the
# submission to the end of the link job (scontrol asked every 0.2 s), and
# its tile bundles, borders and world bundle must be those of ninja -j2,
# byte for byte.  Needs slurm-wlm, munge and root (as check-cluster).
# NB_WORLD_SLURM_PARAMS=P sets that cluster's SchedulerParameters to P
# (e.g. batch_sched_delay=0), by scontrol reconfigure once it has started.
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
shared=${NB_SHARED:-$top/../shared}
map=${NB_WORLD_MAP:-$shared/maps/dao/brc202d.map}
navbake=$(cd "${NB_TOOLS:-tools}" && pwd)/navbake
[ -f "$map" ] || { echo "world-bench.sh: $map: no such map" >&2; exit 2; }
command -v ninja >/dev/null || { echo "world-bench.sh: ninja is not installed" >&2; exit 2; }
slurm=${NB_WORLD_SLURM:-0}
one_node=$top/tests/cluster/one-node.sh
dir=$(mktemp -d "${TMPDIR:-/tmp}/world-bench.XXXXXX")
[ "${NB_WORLD_KEEP:-0}" = 1 ] && echo "worlds kept in $dir" >&2
# At any exit: the cluster's daemons stopped (one-node.sh stop: by the ids
# it kept of those it started), the worlds removed unless kept.
cleanup() {
  [ ! -d "$dir/cluster/pids" ] || sh "$one_node" stop "$dir/cluster"
  [ "${NB_WORLD_KEEP:-0}" = 1 ] || rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
sizes=${*:-4096:512 4096:1024 16384:1024 32768:1024}

# The actions run through this, which logs each one's peak RSS (KiB),
# wall seconds and command line.
cat >"$dir/nb" <<WRAP
#!/bin/sh
exec /usr/bin/time -a -o "\$NB_ACTIONS_LOG" -f "%M %e %C" "$navbake" "\$@"
WRAP
chmod +x "$dir/nb"

now() { date +%s.%N; }
secs() { echo "$1 $2" | awk '{ printf "%.2f", $2 - $1 }'; }
# peak KIND LOG: the largest peak RSS in MiB of the actions of KIND (tile or link).
peak() { awk -v k="world $1" 'index($0, k) { if ($1 > m) m = $1 } END { printf "%.0f", m / 1024 }' "$2"; }
# bake W J OUT: ninja -jJ from nothing into OUT (its plan in W/OUT.ninja); prints seconds.
bake() {
  rm -rf "$1/$3"
  "$navbake" world plan "$1/world.yaml" -o "$1/$3" --ninja "$1/$3.ninja" --navbake "$dir/nb" -q
  t0=$(now)
  NB_ACTIONS_LOG="$1/$3.log" ninja -f "$1/$3.ninja" -j "$2" >"$1/$3.out"
  secs "$t0" "$(now)"
}
# job JOB FIELD: the values of scontrol's FIELD for JOB's tasks, one a line.
job() { scontrol show job -o "$1" | sed -n "s/.* $2=\\([^ ]*\\).*/\\1/p"; }
# epoch TIME...: scontrol's times (second resolution) as seconds, sorted.
epoch() { for t; do date -d "$t" +%s; done | sort -n; }
# slurm_bake W: W's world planned for Slurm into W/slurm (its actions
# logged in W/slurm.log) and submitted; waits for the link job's end and
# prints seconds from the submission to it.  Fails if the link does not
# complete (a tile action that failed cancels it), naming the logs.
slurm_bake() {
  rm -rf "$1/slurm"
  "$navbake" world plan "$1/world.yaml" -o "$1/slurm" --slurm "$1/slurm.sh" --navbake "$dir/nb" -q
  t0=$(now)
  NB_ACTIONS_LOG="$1/slurm.log" sh "$1/slurm.sh" --job-name=world-bench >"$1/slurm.ids"
  link=$(sed -n 's/^link //p' "$1/slurm.ids")
  while :; do
    case $(job "$link" JobState) in
      COMPLETED) break ;;
      PENDING | CONFIGURING | RUNNING | COMPLETING | "") sleep 0.2 ;;
      *) echo "world-bench.sh: the link job $link ended $(job "$link" JobState) (logs: $1/slurm/slurm; NB_WORLD_KEEP=1 keeps them)" >&2; return 1 ;;
    esac
  done
  secs "$t0" "$(now)"
}
# bundles W OUT: the tile bundles, borders and world bundle of W/OUT, one path a line.
bundles() { (cd "$1/$2" && find . -name '*.nbb' -o -name '*.border' -o -name '*.nbw' | sort); }
# same W A B: W/A and W/B hold the same bundles, byte for byte (cmp).
same() {
  [ "$(bundles "$1" "$2")" = "$(bundles "$1" "$3")" ] || return 1
  for f in $(bundles "$1" "$2"); do cmp -s "$1/$2/$f" "$1/$3/$f" || return 1; done
}
# wall KINDS LOG: the wall seconds of the actions of KINDS (tile, or tile|strips), summed.
wall() { awk -v k="world ($1) " '$0 ~ k { s += $2 } END { printf "%.1f", s }' "$2"; }
# slurm_row W J2 SL: the row of the Slurm table for W's bake (J2 and SL
# seconds), asked of scontrol at once: it forgets an ended job after
# MinJobAge (600 s in one-node.sh's cluster).
slurm_row() {
  side=$(awk '/^width/ { print $2 }' "$1/world.yaml") tile=$(awk '/^tile/ { print $2 }' "$1/world.yaml")
  ids=$(sed -n 's/^tiles //p' "$1/slurm.ids") link=$(sed -n 's/^link //p' "$1/slurm.ids")
  submit=$(epoch $(for i in $ids; do job "$i" SubmitTime; done) | head -n 1)
  first=$(epoch $(for i in $ids; do job "$i" StartTime; done) | head -n 1)
  last=$(epoch $(for i in $ids; do job "$i" EndTime; done) | tail -n 1)
  lstart=$(epoch "$(job "$link" StartTime)") lend=$(epoch "$(job "$link" EndTime)")
  # The times (to 0.1 s) at which slurmctld's log says its main or its backfill
  # scheduler started some of these jobs.
  rounds=$(for i in $ids $link; do grep -E "(sched: Allocate|_start_job: Started) JobId=$i[^0-9]" "$dir/cluster/log/slurmctld.log"; done |
    sed 's/^\[\([^]]*\)[0-9][0-9]\].*/\1/' | sort -u | wc -l | tr -d ' ')
  echo "| $side^2 | $tile | $2 s | $3 s | $((first - submit)) s | $((lstart - last)) s | $((lend - lstart)) s | $(wall tile "$1/slurm.log") s | $(wall 'tile|strips' "$1/two.log") s | $(peak tile "$1/slurm.log") MiB | $rounds | $(bundles "$1" slurm | wc -l | tr -d ' ') |"
}

echo "machine: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) CPUs, $(awk '/MemTotal/ { printf "%.0f GB", $2 / 1048576 }' /proc/meminfo), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "map: $map${NB_WORLD_CROP:+, cropped to $NB_WORLD_CROP}"
if [ "$slurm" = 1 ]; then
  SLURM_CONF=$(sh "$one_node" start "$dir/cluster") ||
    { echo "world-bench.sh: the one-node Slurm cluster did not start" >&2; exit 1; }
  export SLURM_CONF
  if [ -n "${NB_WORLD_SLURM_PARAMS-}" ]; then
    echo "SchedulerParameters=$NB_WORLD_SLURM_PARAMS" >>"$SLURM_CONF"
    scontrol reconfigure
    i=0
    until scontrol show config | grep -q "^SchedulerParameters *= *$NB_WORLD_SLURM_PARAMS\$"; do
      [ $i -lt 50 ] || { echo "world-bench.sh: slurmctld did not take SchedulerParameters=$NB_WORLD_SLURM_PARAMS" >&2; exit 1; }
      sleep 0.2; i=$((i + 1))
    done
  fi
  echo "slurm: a one-node cluster, $(sinfo -h -N -o '%c CPUs, %T'), $(sbatch --version)${NB_WORLD_SLURM_PARAMS:+, SchedulerParameters=$NB_WORLD_SLURM_PARAMS}"
fi
echo
echo "| world | tile | tiles | ninja -j1 | ninja -j2 | Slurm | tile action peak | link | link peak | tile bundles | bytes a cell | world bundle |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
edits=
for st in $sizes; do
  side=${st%:*} tile=${st#*:}
  w=$dir/w$side-$tile
  python3 "$top/tests/bench/world-gen.py" ${NB_WORLD_CROP:+--crop "$NB_WORLD_CROP"} "$map" "$side" "$tile" "$w"
  j1=-
  if [ "$side" -le 8192 ]; then j1=$(bake "$w" 1 one); fi
  j2=$(bake "$w" 2 two)
  if [ "$j1" != - ] && ! diff -r -x '.ninja_*' -x link.cache "$w/one" "$w/two" >/dev/null; then
    echo "world-bench.sh: ninja -j1 and -j2 baked different bytes for $side:$tile" >&2; exit 1
  fi
  sl=-
  if [ "$slurm" = 1 ]; then
    sl=$(slurm_bake "$w")
    same "$w" two slurm ||
      { echo "world-bench.sh: Slurm and ninja -j2 baked different bytes for $side:$tile" >&2; exit 1; }
    slurm_row "$w" "$j2" "$sl" >>"$dir/slurm.rows"
  fi
  link=$(awk '/world link/ { print $2 }' "$w/two.log")
  tiles=$(ls "$w/two/tiles" | grep -c '\.nbb$')
  bytes=$(cat "$w"/two/tiles/*.nbb | wc -c)
  echo "| $side^2 | $tile | $tiles | $j1 s | $j2 s | $sl s | $(peak tile "$w/two.log") MiB | $link s | $(peak link "$w/two.log") MiB | $(echo "$bytes" | awk '{ printf "%.0f MiB", $1 / 1048576 }') | $(echo "$bytes $side" | awk '{ printf "%.2f", $1 / ($2 * $2) }') | $(wc -c <"$w/two/world.nbw" | awk '{ printf "%.1f KiB", $1 / 1024 }') |"
  [ "$side" -ge 16384 ] && edits="$edits $w:$j2"
done

if [ "$slurm" = 1 ]; then
  echo
  echo "Slurm against ninja -j2 (scontrol's times, to the second; the tile actions' wall times summed from /usr/bin/time; every Slurm bundle byte-identical to ninja -j2's):"
  echo
  echo "| world | tile | ninja -j2 | Slurm | submission to the first tile's start | last tile's end to the link's start | link | tile actions, Slurm | tile actions + strips, ninja -j2 | tile action peak, Slurm | scheduling rounds | files compared |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  cat "$dir/slurm.rows"
fi
echo
echo "Edits, each rebaked with ninja -j2 over the world baked before it (inside tile (3, 5), away from its edges):"
echo
echo "| world | tile | edit | rebake | of the full bake | tile maps edited | files rewritten | actions run |"
echo "|---|---:|---|---:|---:|---:|---:|---|"
for e in $edits; do
  w=${e%:*} full=${e##*:}
  side=$(awk '/^width/ { print $2 }' "$w/world.yaml") tile=$(awk '/^tile/ { print $2 }' "$w/world.yaml")
  for k in 1 10 100; do
    x0=$((3 * tile + tile / 2)) y0=$((5 * tile + tile / 2))
    maps=$(python3 "$top/tests/bench/world-gen.py" --edit "$w" "$x0" "$y0" "$k" "$k" | wc -l)
    t0=$(now)
    NB_ACTIONS_LOG="$w/edit.log" ninja -f "$w/two.ninja" -j 2 >"$w/edit.out"
    t=$(secs "$t0" "$(now)")
    rewrote=$(grep -c '^wrote ' "$w/edit.out" || true)
    actions=$(sed -n 's/^\[[0-9]*\/[0-9]*\] //p' "$w/edit.out" | tr '\n' ',' | sed 's/,$//; s/,/, /g')
    echo "| $side^2 | $tile | $k x $k | $t s | $(echo "$t $full" | awk '{ printf "%.2f%%", 100 * $1 / $2 }') | $maps | $rewrote | $actions |"
  done
done
echo
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
