#!/bin/sh
# world-slurm.sh (make check-cluster): a world baked on Slurm.  A one-node
# cluster is started here (one-node.sh); the world of world-plan.sh is
# planned for Slurm and submitted with the plan's script; its jobs end well
# and leave every tile bundle, border and the world bundle byte for byte
# those ninja bakes.  A tile action that fails keeps the link from running
# (afterok): the link job is cancelled and writes nothing.  A world of a
# repeated chunk is baked with twins (formats/world.md "Repeated tiles"),
# the twins' arrays after the tiles', byte for byte a bake of every tile.  A cluster that
# does not start fails the test, with the daemons' log tails.
. "$top_srcdir/tests/support/lib.sh"
. "$top_srcdir/tests/support/sample-world.sh"
cd "$tmp" || exit 1
cluster="$tmp/cluster"
one_node="$top_srcdir/tests/cluster/one-node.sh"
# The daemons are stopped however the test ends (a signal too).
trap 'sh "$one_node" stop "$cluster"; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM HUP PIPE

# job_id KIND: the id the script printed for KIND (tiles, link), from $tmp/.out.
job_id() { sed -n "s/^$1 //p" "$tmp/.out"; }
# wait_jobs ID...: until no task of the jobs is pending or running (at
# most 300 s); then the states of their tasks, one a line, sorted.
wait_jobs() {
  i=0
  while [ $i -lt 300 ]; do
    states=$(for id; do scontrol show job -o "$id"; done | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort)
    echo "$states" | grep -qE '^(PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED)$' || break
    # A node drained or down runs nothing more.
    sinfo -h -N -o %T | grep -qE '^(drain|drained|draining|down)' && break
    sleep 1; i=$((i + 1))
  done
  echo "$states"
}
# count WORD TEXT: lines of TEXT that are WORD.
count() { echo "$2" | grep -c "^$1\$"; }
# diag_cluster: what a failure needs to be understood.
diag_cluster() {
  { squeue 2>&1; sinfo 2>&1; for l in "$cluster"/log/*.log; do echo "---- $l"; tail -n 15 "$l"; done; } |
    sed 's/^/#   /'
}

status sh "$one_node" start "$cluster"
is "the one-node cluster starts" "$rc" 0
if [ "$rc" -ne 0 ]; then
  printf '%s\n' "$err" | sed 's/^/#   /'
  finish
  exit 1
fi
SLURM_CONF=$out
export SLURM_CONF
like "its node is idle" "$(sinfo -h -N -o '%N %T %c')" " idle $(nproc)"

ok "cut the world" sample_world w
ok "plan it for Ninja" navbake world plan w/world.yaml -o ninja --ninja b.ninja
ok "bake it with ninja -j2" ninja -f b.ninja -j2
ok "plan it for Slurm" navbake world plan w/world.yaml -o baked --slurm submit.sh --mem 500 \
   --time 10 --throttle 2
ok "submit it" sh submit.sh --job-name=navbake-test
tiles=$(job_id tiles) link=$(job_id link)
is "it printed the array's job id and the link's" "$(echo "$tiles $link" | grep -cE '^[0-9]+ [0-9]+$')" 1
states=$(wait_jobs "$tiles" "$link")
is "the 16 tile actions completed" "$(count COMPLETED "$(scontrol show job -o "$tiles" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')")" 16
is "then the link" "$(scontrol show job -o "$link" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')" COMPLETED
[ "$(count COMPLETED "$states")" -eq 17 ] || diag_cluster
# (Slurm forgets a dependency once it is met: the times tell.)
last_end=$(scontrol show job -o "$tiles" | sed -n 's/.* EndTime=\([^ ]*\).*/\1/p' | sort | tail -n 1)
link_start=$(scontrol show job -o "$link" | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p')
is "the link started once the last tile action had ended" \
   "$(printf '%s\n' "$last_end" "$link_start" | sort | tail -n 1)" "$link_start"
is "the tile actions' logs are in the output folder" "$(ls baked/slurm | grep -c '^tiles-')" 16
is "16 tile bundles, 16 borders and the world bundle" "$(world_outputs baked | wc -l | tr -d ' ')" 33
is "byte for byte those ninja baked" "$(world_outputs baked)" "$(world_outputs ninja)"

# A world of a repeated chunk (world-twins.sh's): 9 tiles baked, then the
# 16 twins updated from them by arrays that wait for the tiles' arrays.
ok "cut a world of a repeated chunk" chunk_world c
ok "bake it with ninja, every tile whole" navbake world plan c/world.yaml -o cwhole --ninja c.ninja --no-twins
ok "(ninja)" ninja -f c.ninja -j2
ok "plan it for Slurm with twins" navbake world plan c/world.yaml -o ctwins --slurm twins.sh
ok "submit it" sh twins.sh
tiles=$(job_id tiles) twins=$(job_id twins) link=$(job_id link)
states=$(wait_jobs $tiles $twins $link)
is "9 tile actions, 16 twins and the link completed" \
   "$(count COMPLETED "$states") $(echo "$states" | wc -l | tr -d ' ')" "26 26"
[ "$(count COMPLETED "$states")" -eq 26 ] || diag_cluster
last_end=$(scontrol show job -o "$tiles" | sed -n 's/.* EndTime=\([^ ]*\).*/\1/p' | sort | tail -n 1)
first_twin=$(scontrol show job -o "$twins" | sed -n 's/.* StartTime=\([^ ]*\).*/\1/p' | sort | head -n 1)
is "the first twin started once the last tile action had ended" \
   "$(printf '%s\n' "$last_end" "$first_twin" | sort | tail -n 1)" "$first_twin"
is "byte for byte the bake of every tile whole" "$(world_outputs ctwins)" "$(world_outputs cwhole)"

# A tile action that fails: the link is never run.
cat >failing <<SH
#!/bin/sh
case "\$*" in *"--index 5 "*) echo "a planted failure of tile 5" >&2; exit 1 ;; esac
exec "$top_builddir/tools/navbake" "\$@"
SH
chmod +x failing
ok "plan it with a navbake that fails on tile 5" \
   navbake world plan w/world.yaml -o failed --slurm fail.sh --navbake ./failing
ok "submit it" sh fail.sh
tiles=$(job_id tiles) link=$(job_id link)
states=$(wait_jobs "$tiles" "$link")
is "one tile action failed, 15 completed" \
   "$(count FAILED "$states") $(count COMPLETED "$states")" "1 15"
is "the link was cancelled, not run" "$(scontrol show job -o "$link" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')" CANCELLED
is "and wrote nothing" "$(ls failed/world.nbw 2>/dev/null)" ""
like "the failed action's log says why" "$(cat failed/slurm/tiles-*_5.out)" "a planted failure of tile 5"
finish
