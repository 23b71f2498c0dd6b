#!/bin/sh
# one-node.sh: a Slurm cluster of one node on this machine, for tests
# (make check-cluster).  Everything is in a folder of its own: a munge key
# and munged (its own socket, pid and log), a slurm.conf (SLURM_CONF) with
# ports of its own, and slurmctld's and slurmd's state, spool and logs.
# Configured for a container: no cgroups (proctrack/linuxproc, task/none,
# no accounting).  Needs slurm-wlm and munge (bootstrap.sh installs them)
# and root, as the daemons run as the user that starts them.
#   one-node.sh start DIR  starts the cluster in DIR (made; must be empty
#                          or absent), waits until its node is idle and has
#                          run a job; prints the SLURM_CONF to use.  If it does not
#                          start: what it started is stopped, the daemons'
#                          log tails go to standard error, exit 1
#   one-node.sh stop DIR   stops the daemons started in DIR, by their ids
#   one-node.sh run COMMAND [ARG]...
#                          starts one in a temporary folder, runs COMMAND
#                          with SLURM_CONF set, stops it (on any exit)
set -u

# free_port: a TCP port nothing listens on now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# tails DIR: the end of each daemon's log, for a start that failed.
tails() {
  for log in "$1"/log/*.log; do
    [ -f "$log" ] || continue
    echo "---- tail of $log" >&2
    tail -n 25 "$log" >&2
  done
}

# alive DIR NAME: the daemon NAME started in DIR runs.
alive() {
  [ -f "$1/pids/$2" ] && kill -0 "$(cat "$1/pids/$2")" 2>/dev/null
}

# launch DIR NAME COMMAND...: COMMAND in the foreground of a background
# job, so that its process id is the daemon's; stderr to DIR/log/NAME.err.
launch() {
  d=$1 name=$2; shift 2
  "$@" </dev/null >>"$d/log/$name.err" 2>&1 &
  echo $! >"$d/pids/$name"
}

stop() {
  d=$1
  for name in slurmd slurmctld munged; do
    [ -f "$d/pids/$name" ] || continue
    pid=$(cat "$d/pids/$name")
    kill "$pid" 2>/dev/null
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    rm -f "$d/pids/$name"
  done
  return 0
}

# fail DIR MESSAGE: stops what started, says why with the logs, exit 1.
fail() {
  echo "one-node.sh: $2" >&2
  tails "$1"
  for e in "$1"/log/*.err; do [ -s "$e" ] && { echo "---- $e" >&2; tail -n 10 "$e" >&2; }; done
  stop "$1"
  exit 1
}

start() {
  d=$1
  [ ! -e "$d" ] || [ -z "$(ls -A "$d")" ] || { echo "one-node.sh: $d is not empty" >&2; exit 1; }
  for p in munged slurmctld slurmd sinfo sbatch python3; do
    command -v "$p" >/dev/null 2>&1 || [ -x "/usr/sbin/$p" ] ||
      { echo "one-node.sh: $p is missing (sh build-aux/bootstrap.sh installs it)" >&2; exit 1; }
  done
  PATH=$PATH:/usr/sbin
  mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log" "$d/pids" "$d/tmp" || exit 1
  chmod 700 "$d" "$d/munge"
  d=$(cd "$d" && pwd)
  # munged wants a key only its user reads.
  dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 400 "$d/munge/munge.key" ||
    fail "$d" "cannot make a munge key"
  launch "$d" munged munged --foreground --force --key-file="$d/munge/munge.key" \
    --socket="$d/munge/munge.socket" --pid-file="$d/munge/munged.pid" \
    --log-file="$d/log/munged.log" --seed-file="$d/munge/munged.seed"
  i=0
  while [ ! -S "$d/munge/munge.socket" ] && [ $i -lt 50 ]; do
    alive "$d" munged || break
    sleep 0.2; i=$((i + 1))
  done
  [ -S "$d/munge/munge.socket" ] || fail "$d" "munged did not start"

  host=$(hostname -s)
  cpus=$(nproc)
  # The memory slurmd finds (it drains a node that claims more).
  mem=$(slurmd -C 2>/dev/null | sed -n 's/.*RealMemory=\([0-9]*\).*/\1/p' | head -1)
  [ -n "$mem" ] || mem=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
  user=$(id -un)
  cat >"$d/slurm.conf" <<CONF
# A one-node cluster for navbake's tests (tests/cluster/one-node.sh).
ClusterName=navbake
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.socket
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
TmpFS=$d/tmp
# A container: no cgroups, no accounting.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
# Ended jobs stay visible to scontrol for a while (no accounting to ask).
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  SLURM_CONF=$d/slurm.conf
  export SLURM_CONF
  launch "$d" slurmctld slurmctld -D -c
  launch "$d" slurmd slurmd -D
  # The node idle: registered with the controller, which answers.
  i=0 state=
  while [ "$state" != idle ]; do
    [ $i -lt 150 ] || fail "$d" "the node is not idle after 30 s (sinfo: ${state:-no answer})"
    alive "$d" slurmctld || fail "$d" "slurmctld stopped"
    alive "$d" slurmd || fail "$d" "slurmd stopped"
    state=$(sinfo -h -N -o %T 2>/dev/null)
    sleep 0.2; i=$((i + 1))
  done
  # And a job runs to its end there (a node that cannot start one, for
  # want of cgroups say, is drained only then).
  # (Slurm says COMPLETED of a job it could not launch: the job leaves a
  # file, and the node stays up.)
  job=$(sbatch --parsable --job-name=one-node-smoke --output=/dev/null --wrap="touch '$d/ran'" 2>&1) ||
    fail "$d" "sbatch refused a job: $job"
  i=0 state=
  while :; do
    state=$(scontrol show job -o "$job" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case $state in
      COMPLETED)
        node=$(sinfo -h -N -o '%T %E' 2>/dev/null)
        [ -f "$d/ran" ] && [ "$node" = "idle none" ] ||
          fail "$d" "a test job did not run (node: ${node:-no answer})"
        echo "$SLURM_CONF"
        return 0
        ;;
      PENDING | CONFIGURING | RUNNING | COMPLETING | "") ;;
      *) fail "$d" "a test job ended $state (node: $(sinfo -h -N -o '%T %E' 2>/dev/null))" ;;
    esac
    [ $i -lt 300 ] || fail "$d" "a test job has not ended after 60 s (${state:-no state}; node: $(sinfo -h -N -o '%T %E' 2>/dev/null))"
    sleep 0.2; i=$((i + 1))
  done
}

case ${1-} in
  start) [ $# -eq 2 ] || { echo "usage: one-node.sh start DIR" >&2; exit 2; }; start "$2" ;;
  stop) [ $# -eq 2 ] || { echo "usage: one-node.sh stop DIR" >&2; exit 2; }; stop "$2" ;;
  run)
    [ $# -ge 2 ] || { echo "usage: one-node.sh run COMMAND [ARG]..." >&2; exit 2; }
    shift
    dir=$(mktemp -d /tmp/nbslurm.XXXXXX) || exit 1
    trap 'stop "$dir"; rm -rf "$dir"' EXIT
    trap 'exit 130' INT TERM HUP PIPE
    SLURM_CONF=$(start "$dir") || exit 1
    export SLURM_CONF
    "$@"
    rc=$?
    exit $rc
    ;;
  *) echo "usage: one-node.sh start DIR | stop DIR | run COMMAND [ARG]..." >&2; exit 2 ;;
esac
