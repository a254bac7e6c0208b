#!/usr/bin/env bash
# Integration test of sweep sharding through a real Slurm: starts a private single-node Slurm
# (munged + slurmctld + slurmd, own config, key, ports and state under a temp dir), runs
# scenarios/sweeps/ci-small.yaml as a 2-task job array, merges the shards with `ddlsim merge`
# and compares the merged results byte for byte (after removing wall times and sorting) with
# the same sweep run unsharded. Exits non-zero on any mismatch or failure; always stops what
# it started and removes its files.
#
# Needs root (apt-get, daemons). Run from the repository root: bash .ci/slurm-test.sh
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
spec=$repo/scenarios/sweeps/ci-small.yaml
work=$(mktemp -d /tmp/ddlsim-slurm.XXXXXX)
chmod 755 "$work"
pids=()

cleanup() {
  set +e
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for f in "$work"/slurmd.pid "$work"/slurmctld.pid "$work"/munged.pid; do
    [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
  done
  sleep 1
  for f in "$work"/slurmd.pid "$work"/slurmctld.pid "$work"/munged.pid; do
    [ -f "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT

log() { printf '== slurm-test: %s\n' "$*"; }
fail() {
  printf '== slurm-test: FAIL: %s\n' "$*" >&2
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "--- $f"; tail -20 "$f"; } >&2; done
  exit 1
}

if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null || ! command -v sbatch >/dev/null; then
  log "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends slurm-wlm munge >/dev/null
fi

log "building ddlsim"
(cd "$repo" && go build -o "$work/ddlsim" ./cmd/ddlsim)

# --- munge: a private daemon with its own key and socket --------------------------------
dd if=/dev/urandom of="$work/munge.key" bs=1024 count=1 status=none
chmod 400 "$work/munge.key"
mkdir -p "$work/munge"
munged --force --key-file="$work/munge.key" --socket="$work/munge/munge.sock" \
  --pid-file="$work/munged.pid" --log-file="$work/munged.log" --seed-file="$work/munge/seed" \
  || fail "munged did not start"

# --- slurm: one node, this host, unusual ports so a real cluster's daemons are not disturbed -
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2/1024*0.8)}' /proc/meminfo)
mkdir -p "$work/state" "$work/spool"
cat >"$work/slurm.conf" <<EOF
ClusterName=ddlsimci
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=16817
SlurmdPort=16818
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$work/munge/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/slurmctld.log
SlurmdLogFile=$work/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdTimeout=60
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$work/slurm.conf

log "starting slurmctld and slurmd ($host, $cpus CPUs)"
slurmctld -i || fail "slurmctld did not start"
slurmd || fail "slurmd did not start"
for i in $(seq 1 60); do
  state=$(sinfo -h -n "$host" -o '%T' 2>/dev/null || true)
  case "$state" in idle*|mix*|alloc*) break ;; esac
  sleep 1
done
case "$state" in idle*|mix*|alloc*) log "node is $state" ;; *) fail "node never became idle (state '$state')" ;; esac

# --- the sweep as a 2-task array -----------------------------------------------------------
cat >"$work/sweep.sbatch" <<EOF
#!/bin/bash
#SBATCH --job-name=ddlsim-sweep
#SBATCH --array=0-1
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/task-%a.log
# ddlsim takes its shard from SLURM_ARRAY_TASK_ID / SLURM_ARRAY_TASK_COUNT.
exec "$work/ddlsim" sweep "$spec" --jobs 1 --out "$work/shards/\$SLURM_ARRAY_TASK_ID"
EOF
log "sbatch --array=0-1 --wait"
(cd "$work" && sbatch --wait "$work/sweep.sbatch") || fail "array job failed"
for t in 0 1; do
  grep -q "shard $t/2 (from slurm)" "$work/task-$t.log" || fail "task $t did not run shard $t/2"
done

log "merging the shards and running the sweep unsharded"
"$work/ddlsim" merge "$work/shards/0" "$work/shards/1" --out "$work/merged" >/dev/null || fail "merge failed"
env -u SLURM_CONF "$work/ddlsim" sweep "$spec" --out "$work/unsharded" --shard 0/1 >/dev/null || fail "unsharded sweep failed"

# wall_time_s is the last field of each JSONL row and the last CSV column: strip, then sort.
norm_jsonl() { sed -E 's/,"wall_time_s":[^}]*}$/}/' "$1" | LC_ALL=C sort; }
norm_csv() { sed -E 's/,[^,]*$//' "$1" | LC_ALL=C sort; }
ok=1
cmp -s <(norm_jsonl "$work/merged/results.jsonl") <(norm_jsonl "$work/unsharded/results.jsonl") || { ok=0; echo "results.jsonl differs" >&2; }
cmp -s <(norm_csv "$work/merged/results.csv") <(norm_csv "$work/unsharded/results.csv") || { ok=0; echo "results.csv differs" >&2; }
rows=$(wc -l <"$work/merged/results.jsonl")
[ "$ok" = 1 ] || fail "merged Slurm array results differ from the unsharded sweep"
log "PASS: 2-task Slurm array merged = unsharded sweep ($rows rows, byte for byte after sorting)"
