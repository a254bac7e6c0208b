# shellcheck shell=bash
# Common helpers of the real-server lab: logging, bounded waits, process bookkeeping, cleanup.
# Sourced by lab/run.sh; every other lib file relies on these.

lab_log() { printf '%s lab: %s\n' "$(date -u +%H:%M:%S)" "$*" >&2; }
lab_die() { lab_log "ERROR: $*"; exit 1; }

# now_s: wall-clock seconds with microseconds (bash's EPOCHREALTIME, no fork).
now_s() { printf '%s\n' "$EPOCHREALTIME"; }

# LAB_NICE=N (e.g. -15): mariadbd, sysbench and a DDL tool run under `nice -n N` and, as root,
# `ionice -c1 -n0` (the real-time I/O class), so other work on a shared VM (compiles) takes less
# from the measurement. Empty (the default): no change. Each run's meta.env records it and the
# load average at its start and end.
: "${LAB_NICE:=}"
LAB_PRIO=()
if [ -n "$LAB_NICE" ]; then
  LAB_PRIO=(nice -n "$LAB_NICE")
  [ "$(id -u)" = 0 ] && LAB_PRIO+=(ionice -c1 -n0)
fi

# loadavg: the 1-, 5- and 15-minute load averages, space-separated.
loadavg() { local a b c rest; read -r a b c rest </proc/loadavg; echo "$a $b $c"; }

# Child processes this run started (sysbench, samplers). lab_cleanup kills them by PID.
LAB_CHILD_PIDS=()
lab_track() { LAB_CHILD_PIDS+=("$1"); }

# lab_descendants PID: the process's descendants, deepest last.
lab_descendants() {
  local k
  for k in $(pgrep -P "$1" 2>/dev/null || true); do
    echo "$k"
    lab_descendants "$k"
  done
}

# lab_kill_tree PID: TERM the process and all its descendants, then KILL what is left.
lab_kill_tree() {
  local pid=$1 kids i
  kill -0 "$pid" 2>/dev/null || return 0
  kids=$(lab_descendants "$pid")
  # shellcheck disable=SC2086
  kill -TERM "$pid" $kids 2>/dev/null || true
  for ((i = 0; i < 50; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  # shellcheck disable=SC2086
  kill -KILL "$pid" $kids 2>/dev/null || true
}

lab_kill_children() {
  local pid
  for pid in "${LAB_CHILD_PIDS[@]}"; do lab_kill_tree "$pid"; done
  LAB_CHILD_PIDS=()
}

# free_port: a TCP port on 127.0.0.1 nobody listens on (bounded: 50 tries).
free_port() {
  local p i
  for ((i = 0; i < 50; i++)); do
    p=$((20000 + RANDOM % 20000))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  return 1
}

# to_bytes 512M|1G|1048576 -> bytes
to_bytes() {
  local v=$1
  case "$v" in
    *K | *k) echo $((${v%?} * 1024)) ;;
    *M | *m) echo $((${v%?} * 1024 * 1024)) ;;
    *G | *g) echo $((${v%?} * 1024 * 1024 * 1024)) ;;
    *) echo "$v" ;;
  esac
}

# sleep_until T: sleep to wall-clock time T (seconds, fractional), at most 3600 s.
sleep_until() {
  local d
  d=$(awk -v t="$1" -v n="$EPOCHREALTIME" 'BEGIN { d = t - n; if (d < 0) d = 0; if (d > 3600) d = 3600; printf "%.3f", d }')
  sleep "$d"
}
