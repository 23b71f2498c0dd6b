# slurm-standins.sh: stand-ins for Slurm's sbatch and scontrol that run
# each job here at once, in the order submitted (source it; needs $tmp).
# slurm_standins MAX writes them into ./bin (put it first in PATH): sbatch
# records its options in $tmp/sbatch.log and the batch script of its n-th
# job in $tmp/jobN, runs that script (each array task with its
# SLURM_ARRAY_TASK_ID and NAVBAKE_FIRST_TILE, as Slurm would), its output
# appended to $tmp/job.log, and prints the id 100 + n; scontrol says that
# arrays hold MAX tasks at most.  They ignore dependencies: the order
# submitted is the order the world's script needs (tests/cluster checks
# the dependencies on a real cluster).
slurm_standins() {
  max=$1
  mkdir -p bin
  cat >bin/scontrol <<SH
#!/bin/sh
[ "\$*" = "show config" ] && echo "MaxArraySize            = $max"
SH
cat >bin/sbatch <<'SH'
#!/bin/sh
# Records its options; runs the batch script from standard input, its
# output to a log as Slurm's would be.
n=$(($(cat "$tmp/jobs" 2>/dev/null || echo 0) + 1)); echo $n >"$tmp/jobs"
cat >"$tmp/job$n"
echo "$*" >>"$tmp/sbatch.log"
array= chdir= first=
for a; do
  case $a in
    --array=*) array=${a#--array=}; array=${array%%%*} ;;
    --chdir=*) chdir=${a#--chdir=} ;;
    --export=ALL,NAVBAKE_FIRST_TILE=*) first=${a#*NAVBAKE_FIRST_TILE=} ;;
  esac
done
cd "$chdir" || exit 1
if [ -n "$array" ]; then
  for i in $(seq ${array%-*} ${array#*-}); do
    SLURM_ARRAY_TASK_ID=$i NAVBAKE_FIRST_TILE=$first sh "$tmp/job$n" >>"$tmp/job.log" 2>&1 || exit 1
  done
else
  sh "$tmp/job$n" >>"$tmp/job.log" 2>&1 || exit 1
fi
echo "$((n + 100));stand-in"
SH
  chmod +x bin/sbatch bin/scontrol
  export tmp
}
