# shellcheck shell=bash
# One measured sysbench run ("cell") with its CPU accounting, for the grid plan (plans/grid.sh)
# and the client-CPU probe (probe/clientcpu/probe.sh). Sourced by those plans (lab/run.sh loads
# common.sh, server.sh, load.sh first). A cell is one bounded sysbench run in the foreground;
# around it the plan takes two snapshots (cell_snap) of
#   - the machine's /proc/stat cpu line (busy = user+nice+system+irq+softirq, ticks),
#   - mariadbd's utime and stime (/proc/PID/stat fields 14 and 15, ticks),
#   - SHOW GLOBAL STATUS counters (pages written, LSN, read requests, reads, fsyncs, commits,
#     questions),
# and sysbench's own user and system CPU comes from the shell's `times` (RUSAGE_CHILDREN of a
# subshell whose only child is the bounded sysbench), i.e. the whole sysbench process,
# connection set-up and statement preparation included.

CELL_STATUS_VARS="'Innodb_pages_written','Innodb_lsn_current','Innodb_buffer_pool_read_requests',
 'Innodb_buffer_pool_reads','Innodb_data_fsyncs','Com_commit','Questions','Innodb_buffer_pool_pages_dirty',
 'Innodb_os_log_written','Innodb_data_written'"
CLK_TCK=$(getconf CLK_TCK)

# cell_snap FILE: one snapshot as "key<TAB>value" lines.
cell_snap() {
  local f=$1 cpu u n s idle iow irq sirq st rest
  {
    printf 't\t%s\n' "$EPOCHREALTIME"
    read -r cpu u n s idle iow irq sirq st rest </proc/stat
    printf 'machine_busy_ticks\t%s\n' $((u + n + s + irq + sirq))
    printf 'machine_all_ticks\t%s\n' $((u + n + s + idle + iow + irq + sirq + st))
    printf 'mysqld_utime\t%s\nmysqld_stime\t%s\n' $(cut -d' ' -f14,15 "/proc/$SERVER_PID/stat")
    sql "SHOW GLOBAL STATUS WHERE Variable_name IN ($CELL_STATUS_VARS)"
  } >"$f"
}

# cell_run DIR NAME SCRIPT THREADS SECS [sysbench options...]: sysbench SCRIPT run on
# sbtest1..$LOAD_TABLES for SECS seconds; DIR/NAME.log its output, DIR/NAME.times sysbench's
# user and system seconds, DIR/NAME.begin / .end the snapshots. Fails if sysbench fails.
cell_run() {
  local dir=$1 name=$2 script=$3 threads=$4 secs=$5
  shift 5
  sb_common
  local cmd=(sysbench "$script" "${SB_ARGS[@]}" --tables="$LOAD_TABLES" --table-size="$LOAD_ROWS"
    --threads="$threads" --rand-type="$RAND_TYPE" --time="$secs" --histogram=off --percentile=95 "$@" run)
  printf '%s\n' "${cmd[*]}" >"$dir/$name.cmd"
  cell_snap "$dir/$name.begin"
  local out rc=0
  out=$({ timeout --kill-after=10 $((secs + 60)) "${cmd[@]}" >"$dir/$name.log" 2>&1; echo "rc $?"; times; })
  cell_snap "$dir/$name.end"
  # times: line 1 the subshell's own user/sys, line 2 its children's (sysbench) as 0m1.234s
  printf '%s\n' "$out" | awk 'NR == 1 { print "sb_rc\t" $2 } NR == 3 {
      split($1, a, "m"); split($2, b, "m")
      printf "sb_user_s\t%.3f\nsb_sys_s\t%.3f\n", a[1] * 60 + a[2], b[1] * 60 + b[2] }' >"$dir/$name.times"
  rc=$(awk -F'\t' '$1 == "sb_rc" { print $2 }' "$dir/$name.times")
  [ "$rc" = 0 ] || lab_die "sysbench $script failed in $name (exit $rc): $(tail -3 "$dir/$name.log")"
}

# cell_settle SCRIPT THREADS SECS [options]: an unmeasured sysbench run (the cell's settle).
cell_settle() {
  local script=$1 threads=$2 secs=$3
  shift 3
  sb_common
  [ "$secs" -gt 0 ] || return 0
  timeout --kill-after=10 $((secs + 60)) sysbench "$script" "${SB_ARGS[@]}" --tables="$LOAD_TABLES" \
    --table-size="$LOAD_ROWS" --threads="$threads" --rand-type="$RAND_TYPE" --time="$secs" "$@" run \
    >/dev/null 2>&1 || lab_log "settle sysbench $script exit $?"
}

# cell_prewarm: read every table under load in full through the pool (the clustered index by a
# scan of pad, the k index by a covering scan), so a pool that holds the data starts warm.
cell_prewarm() {
  local t
  lab_log "prewarm: full scans of sbtest1..$LOAD_TABLES (clustered and k index)"
  for ((t = 1; t <= LOAD_TABLES; t++)); do
    SQL_TIMEOUT=900 sql "SELECT SUM(LENGTH(pad)) FROM sbtest.sbtest$t;
      SELECT SUM(k) FROM sbtest.sbtest$t FORCE INDEX (k_$t)" >/dev/null
  done
}

# cell_row DIR NAME: the cell's per-run figures as "key<TAB>value" lines on stdout, from its
# snapshots, times and sysbench summary. Per-transaction CPU is in microseconds.
cell_row() {
  local dir=$1 name=$2
  awk -F'\t' -v tck="$CLK_TCK" '
    FILENAME ~ /\.begin$/ { b[$1] = $2; next }
    FILENAME ~ /\.end$/ { e[$1] = $2; next }
    FILENAME ~ /\.times$/ { tm[$1] = $2; next }
    {
      line = $0
      if (line ~ /^ *transactions:/) { n = split(line, w, " "); txn = w[2]; sub(/\(/, "", w[3]); tps = w[3] }
      if (line ~ /^ *queries:/) { n = split(line, w, " "); q = w[2]; sub(/\(/, "", w[3]); qps = w[3] }
      if (line ~ /^ *ignored errors:/) { n = split(line, w, " "); sub(/\(/, "", w[4]); eps = w[4] }
      if (line ~ /^ *95th percentile:/) { n = split(line, w, " "); p95 = w[3] }
      if (line ~ /^ *avg:/ && avg == "") { n = split(line, w, " "); avg = w[2] }
    }
    END {
      dt = e["t"] - b["t"]
      mu = (e["mysqld_utime"] - b["mysqld_utime"]) / tck
      ms = (e["mysqld_stime"] - b["mysqld_stime"]) / tck
      su = tm["sb_user_s"]; ss = tm["sb_sys_s"]
      busy = (e["machine_busy_ticks"] - b["machine_busy_ticks"]) / tck
      all = (e["machine_all_ticks"] - b["machine_all_ticks"]) / tck
      cores = 2
      if (all > 0 && dt > 0) cores = all / dt
      other = busy - mu - ms - su - ss
      d = txn > 0 ? txn : 1
      printf "elapsed_s\t%.3f\n", dt
      printf "transactions\t%d\nqueries\t%d\n", txn, q
      printf "tps\t%s\nqps\t%s\nerrors_per_s\t%s\n", tps, qps, eps
      printf "lat_avg_ms\t%s\nlat_p95_ms\t%s\n", avg, p95
      printf "mysqld_user_us_per_txn\t%.1f\nmysqld_sys_us_per_txn\t%.1f\nmysqld_cpu_us_per_txn\t%.1f\n", mu / d * 1e6, ms / d * 1e6, (mu + ms) / d * 1e6
      printf "sysbench_user_us_per_txn\t%.1f\nsysbench_sys_us_per_txn\t%.1f\nsysbench_cpu_us_per_txn\t%.1f\n", su / d * 1e6, ss / d * 1e6, (su + ss) / d * 1e6
      printf "pages_written_per_s\t%.1f\n", (e["Innodb_pages_written"] - b["Innodb_pages_written"]) / dt
      printf "redo_bytes_per_s\t%.0f\n", (e["Innodb_lsn_current"] - b["Innodb_lsn_current"]) / dt
      printf "read_requests_per_txn\t%.2f\n", (e["Innodb_buffer_pool_read_requests"] - b["Innodb_buffer_pool_read_requests"]) / d
      printf "misses_per_s\t%.1f\n", (e["Innodb_buffer_pool_reads"] - b["Innodb_buffer_pool_reads"]) / dt
      printf "fsyncs_per_s\t%.1f\n", (e["Innodb_data_fsyncs"] - b["Innodb_data_fsyncs"]) / dt
      printf "dirty_pages_end\t%s\n", e["Innodb_buffer_pool_pages_dirty"]
      printf "mysqld_cores\t%.3f\nsysbench_cores\t%.3f\nother_cores\t%.3f\nmachine_cores\t%.2f\n", (mu + ms) / dt, (su + ss) / dt, other / dt, cores
    }' "$dir/$name.begin" "$dir/$name.end" "$dir/$name.times" "$dir/$name.log"
}

# cell_append FILE DIR NAME key=value...: one TSV row (header written with the first row):
# the given keys, then cell_row's figures, then noisy (1 when the rest of the machine used more
# than $NOISY_CORES cores during the cell: others' compiles, not the lab).
: "${NOISY_CORES:=0.25}"
cell_append() {
  local file=$1 dir=$2 name=$3
  shift 3
  local keys=() vals=() kv k v
  for kv in "$@"; do keys+=("${kv%%=*}"); vals+=("${kv#*=}"); done
  while IFS=$'\t' read -r k v; do keys+=("$k"); vals+=("$v"); done < <(cell_row "$dir" "$name")
  local other=${vals[${#vals[@]} - 2]}
  keys+=(noisy)
  vals+=("$(awk -v o="$other" -v t="$NOISY_CORES" 'BEGIN { print (o > t) ? 1 : 0 }')")
  if [ ! -s "$file" ]; then (IFS=$'\t'; echo "${keys[*]}") >"$file"; fi
  (IFS=$'\t'; echo "${vals[*]}") >>"$file"
}
