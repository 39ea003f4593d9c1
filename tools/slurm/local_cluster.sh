#!/bin/sh
# A single-node SLURM cluster on this machine, from Debian's packages, for tests/test_slurm.py (pytest -m slurm).
#
#   sh tools/slurm/local_cluster.sh          install (apt-get, as root), configure and start it
#   sh tools/slurm/local_cluster.sh start    configure and start it (packages already installed)
#   sh tools/slurm/local_cluster.sh stop     stop the daemons this script started
#   sh tools/slurm/local_cluster.sh status   sinfo and sacctmgr's view of it
#
# Debian 12 ships SLURM 22.05. The cluster has accounting (slurmdbd on a local MariaDB), because the executor
# plugin reads job states with `sacct` and checks accounts with `sacctmgr`, and two partitions on the one node:
# `cpu` (the default: conversions, figures, the report) and `gpu`, whose node announces one fake GPU (gres `gpu`
# backed by /dev/null) so that `sbatch --gpus=1` of a `resources: gpu=1` rule is accepted. No real GPU is there:
# this cluster runs the no-GPU workflow. The daemons are started directly (no systemd in containers), run as root,
# and log to /var/log/slurm/. It is a test cluster: the database password is written below in clear.
set -eu

CLUSTER=emogi
NODE=$(hostname -s)
CPUS=$(nproc)
MEM_MB=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
CONF=/etc/slurm
LOGS=/var/log/slurm
STATE=/var/lib/slurm
DB_PASS=slurm
APT_TIMEOUT=${APT_TIMEOUT:-600}

say() { echo "local_cluster: $*"; }

install_packages() {
  [ "$(id -u)" = 0 ] || { say "run as root (apt-get install)"; exit 1; }
  command -v apt-get >/dev/null || { say "no apt-get here (the cluster is built from Debian's packages)"; exit 1; }
  export DEBIAN_FRONTEND=noninteractive
  # A policy-rc.d that denies every start keeps the packages from starting their own services (this script starts
  # the daemons itself; there may be no init system); one is written for the install where none is there.
  policy=/usr/sbin/policy-rc.d
  if [ ! -e $policy ]; then
    printf '#!/bin/sh\nexit 101\n' >$policy && chmod +x $policy
    trap 'rm -f $policy' EXIT
  fi
  # Each apt-get step is bounded (APT_TIMEOUT seconds), so that an unreachable mirror fails instead of hanging.
  timeout "$APT_TIMEOUT" apt-get update -qq || { say "apt-get update failed or timed out (${APT_TIMEOUT}s)"; exit 1; }
  timeout "$APT_TIMEOUT" apt-get install -y -qq slurmctld slurmd slurmdbd slurm-client mariadb-server munge \
    >/dev/null || { say "apt-get install of SLURM, MariaDB and munge failed or timed out (${APT_TIMEOUT}s)"; exit 1; }
}

running() { pgrep -x "$1" >/dev/null 2>&1; }

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  secs=$1 what=$2
  shift 2
  i=0
  until "$@" >/dev/null 2>&1; do
    i=$((i + 1))
    if [ "$i" -ge "$secs" ]; then
      say "$what did not come up in ${secs}s"
      return 1
    fi
    sleep 1
  done
}

write_config() {
  mkdir -p "$CONF" "$LOGS" "$STATE/slurmctld" "$STATE/slurmd" /run/munge /run/mysqld
  cat >"$CONF/slurm.conf" <<EOF
# Written by tools/slurm/local_cluster.sh: a single-node test cluster.
ClusterName=$CLUSTER
SlurmctldHost=$NODE(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
StateSaveLocation=$STATE/slurmctld
SlurmdSpoolDir=$STATE/slurmd
SlurmctldLogFile=$LOGS/slurmctld.log
SlurmdLogFile=$LOGS/slurmd.log
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
GresTypes=gpu
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStorageEnforce=associations
AccountingStorageTRES=gres/gpu
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=30
MinJobAge=300
NodeName=$NODE NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM_MB Gres=gpu:1 State=UNKNOWN
PartitionName=cpu Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
PartitionName=gpu Nodes=$NODE MaxTime=INFINITE State=UP
EOF
  cat >"$CONF/gres.conf" <<EOF
# A fake GPU: lets sbatch --gpus=1 through; nothing on this node is a GPU.
AutoDetect=off
NodeName=$NODE Name=gpu File=/dev/null Count=1
EOF
  cat >"$CONF/slurmdbd.conf" <<EOF
AuthType=auth/munge
DbdHost=$NODE
DbdAddr=127.0.0.1
SlurmUser=root
PidFile=/run/slurmdbd.pid
LogFile=$LOGS/slurmdbd.log
StorageType=accounting_storage/mysql
StorageHost=localhost
StorageUser=slurm
StoragePass=$DB_PASS
StorageLoc=slurm_acct_db
EOF
  chmod 600 "$CONF/slurmdbd.conf"
  chown munge:munge /run/munge
  chown mysql:mysql /run/mysqld
  [ -s /etc/munge/munge.key ] || runuser -u munge -- mungekey --create
}

start() {
  write_config
  running munged || runuser -u munge -- /usr/sbin/munged
  wait_for 20 munge sh -c 'munge -n | unmunge'

  if ! running mariadbd && ! running mysqld; then
    [ -d /var/lib/mysql/mysql ] || mariadb-install-db --user=mysql >/dev/null
    # setsid: the server outlives this script's shell and any test runner that started it.
    setsid /usr/sbin/mariadbd --user=mysql >"$LOGS/mariadb.log" 2>&1 </dev/null &
  fi
  wait_for 60 MariaDB mariadb -e 'SELECT 1'
  mariadb -e "CREATE USER IF NOT EXISTS 'slurm'@'localhost' IDENTIFIED BY '$DB_PASS';
              GRANT ALL ON slurm_acct_db.* TO 'slurm'@'localhost'; FLUSH PRIVILEGES;"

  running slurmdbd || /usr/sbin/slurmdbd
  wait_for 60 slurmdbd sacctmgr -n list cluster
  sacctmgr -n list cluster format=cluster | grep -qw "$CLUSTER" || sacctmgr -i add cluster "$CLUSTER" >/dev/null

  running slurmctld || /usr/sbin/slurmctld
  wait_for 60 slurmctld scontrol ping
  running slurmd || /usr/sbin/slurmd
  wait_for 60 "node $NODE" sh -c "sinfo -h -N -o %t | grep -qE '^(idle|mix|alloc)'"

  # The plugin asks sacctmgr for the submitting user's account: give every login user of this test an account.
  sacctmgr -n list account format=account | grep -qw emogi || sacctmgr -i add account emogi Cluster="$CLUSTER" >/dev/null
  user=${SUDO_USER:-$(id -un)}
  for u in root "$user"; do
    sacctmgr -n list assoc user="$u" account=emogi format=user | grep -qw "$u" ||
      sacctmgr -i add user "$u" account=emogi DefaultAccount=emogi >/dev/null
  done
  say "up: $(sinfo -h -o '%P %a %D %t' | tr '\n' ';')"
}

stop() {
  # slurmd first, the database last; each is waited for, so that a `start` right after finds none running.
  for pidfile in /run/slurmd.pid /run/slurmctld.pid /run/slurmdbd.pid /run/mysqld/mysqld.pid /run/munge/munged.pid; do
    [ -s "$pidfile" ] || continue
    pid=$(cat "$pidfile")
    kill "$pid" 2>/dev/null || continue
    wait_for 60 "the end of pid $pid ($pidfile)" sh -c "! kill -0 $pid" || true
  done
  say "stopped"
}

case "${1:-up}" in
up)
  install_packages
  start
  ;;
start) start ;;
stop) stop ;;
status)
  sinfo
  sacctmgr -n list assoc format=cluster,account,user
  ;;
*)
  echo "usage: $0 [up|start|stop|status]" >&2
  exit 2
  ;;
esac
