# The inputs of `ddlsim calibrate` (docs/calibrate.md) from the private instance, under a mix
# other than the lab profile's fit (oltp_read_write): two full SHOW GLOBAL STATUS snapshots
# taken under load, CAL_SECONDS apart, and mariadbd's utime+stime (/proc/PID/stat fields 14
# and 15) read at the same two moments, just before each snapshot. Also at both moments: the
# machine's /proc/stat busy ticks, sysbench's own utime+stime and the load average, so the
# rest of the machine's CPU (other_cores) is known: other work on this VM inflates the CPU per
# statement by contention (caches, the run queue), which calibrate cannot separate.
#
#   lab/run.sh plans/calibrate.sh lab/results/calibrate-ro      # ~8 min with the load
#   CAL_MIX=oltp_point_select lab/run.sh plans/calibrate.sh DIR  # another sysbench test
#
# Writes DIR/status_begin.tsv, status_end.tsv (mariadb -B -N -e 'SHOW GLOBAL STATUS'),
# cpu.tsv (the counters at both moments), sysbench.log and calibrate.txt (the interval, the
# server CPU seconds to give --server-cpu, sysbench's and the rest of the machine's share).
# lab-timeout: 1800
. "$LAB_DIR/lib/cell.sh"
: "${CAL_MIX:=oltp_read_only}" "${CAL_TABLES:=4}" "${CAL_ROWS:=250000}" "${CAL_POOL:=512M}"
: "${CAL_THREADS:=8}" "${CAL_SETTLE:=60}" "${CAL_SECONDS:=90}"
RAND_TYPE=${RAND_TYPE:-special}

load_data "$CAL_TABLES" "$CAL_ROWS" # 4 x 250k rows: ~240 MB, held by the 512M pool
pool_start "$CAL_POOL"
sql_named "SHOW GLOBAL VARIABLES" >"$RESULTS/variables.tsv"

# cal_snap NAME: the CPU counters, then the full status, at one moment.
cal_snap() {
  local name=$1 sbpid=$2 cpu u n s idle iow irq sirq st rest
  read -r cpu u n s idle iow irq sirq st rest </proc/stat
  {
    printf '%s\tt\t%s\n' "$name" "$EPOCHREALTIME"
    printf '%s\tmachine_busy_ticks\t%s\n' "$name" $((u + n + s + irq + sirq))
    printf '%s\tmachine_all_ticks\t%s\n' "$name" $((u + n + s + idle + iow + irq + sirq + st))
    printf '%s\tmysqld_ticks\t%s\n' "$name" "$(awk '{ print $14 + $15 }' "/proc/$SERVER_PID/stat")"
    printf '%s\tsysbench_ticks\t%s\n' "$name" "$(awk '{ print $14 + $15 }' "/proc/$sbpid/stat")"
    printf '%s\tloadavg_1m\t%s\n' "$name" "$(cut -d' ' -f1 /proc/loadavg)"
  } >>"$RESULTS/cpu.tsv"
  sql "SHOW GLOBAL STATUS" >"$RESULTS/status_$name.tsv"
}

lab_log "calibrate: $CAL_MIX, $CAL_THREADS threads, $CAL_SETTLE s settle, $CAL_SECONDS s measured"
sb_common
printf 'clk_tck\t%s\n' "$CLK_TCK" >"$RESULTS/cpu.tsv"
total=$((CAL_SETTLE + CAL_SECONDS + 10))
cmd=(sysbench "$CAL_MIX" "${SB_ARGS[@]}" --tables="$LOAD_TABLES" --table-size="$LOAD_ROWS"
  --threads="$CAL_THREADS" --rand-type="$RAND_TYPE" --time="$total" --report-interval=10 run)
printf '%s\n' "${cmd[*]}" >"$RESULTS/sysbench.cmd"
timeout --kill-after=10 $((total + 60)) "${cmd[@]}" >"$RESULTS/sysbench.log" 2>&1 &
sb=$!
lab_track "$sb"
sbpid=
for ((i = 0; i < 40; i++)); do
  sbpid=$(pgrep -P "$sb" 2>/dev/null | head -1 || true)
  [ -n "$sbpid" ] && break
  sleep 0.05
done
[ -n "$sbpid" ] || lab_die "sysbench did not start"
sleep "$CAL_SETTLE"
cal_snap begin "$sbpid"
sleep "$CAL_SECONDS"
cal_snap end "$sbpid"
wait "$sb" || lab_die "sysbench $CAL_MIX failed: $(tail -3 "$RESULTS/sysbench.log")"

awk -F'\t' -v mix="$CAL_MIX" -v pool="$CAL_POOL" -v thr="$CAL_THREADS" '
  FILENAME ~ /cpu.tsv$/ { if ($1 == "clk_tck") tck = $2; else v[$1, $2] = $3; next }
  FILENAME ~ /status_begin/ { b[$1] = $2; next }
  FILENAME ~ /status_end/ { e[$1] = $2; next }
  END {
    dt = v["end", "t"] - v["begin", "t"]; up = e["Uptime"] - b["Uptime"]
    q = e["Questions"] - b["Questions"]
    my = (v["end", "mysqld_ticks"] - v["begin", "mysqld_ticks"]) / tck
    sbc = (v["end", "sysbench_ticks"] - v["begin", "sysbench_ticks"]) / tck
    busy = (v["end", "machine_busy_ticks"] - v["begin", "machine_busy_ticks"]) / tck
    all = (v["end", "machine_all_ticks"] - v["begin", "machine_all_ticks"]) / tck
    printf "mix\t%s\npool\t%s\nthreads\t%s\n", mix, pool, thr
    printf "interval_s\t%.3f\nuptime_interval_s\t%d\nstatements\t%d\nstatements_per_s\t%.1f\n", dt, up, q, q / up
    printf "server_cpu_s\t%.2f\nserver_cpu_us_per_statement\t%.2f\n", my, my / q * 1e6
    printf "sysbench_cpu_s\t%.2f\nsysbench_cpu_us_per_statement\t%.2f\n", sbc, sbc / q * 1e6
    printf "machine_cores\t%.2f\nmysqld_cores\t%.3f\nsysbench_cores\t%.3f\nother_cores\t%.3f\n", all / dt, my / dt, sbc / dt, (busy - my - sbc) / dt
    printf "loadavg_1m_begin\t%s\nloadavg_1m_end\t%s\n", v["begin", "loadavg_1m"], v["end", "loadavg_1m"]
    printf "page_reads\t%d\n", e["Innodb_buffer_pool_reads"] - b["Innodb_buffer_pool_reads"]
  }' "$RESULTS/cpu.tsv" "$RESULTS/status_begin.tsv" "$RESULTS/status_end.tsv" >"$RESULTS/calibrate.txt"
lab_log "calibrate: $(tr '\n' ' ' <"$RESULTS/calibrate.txt")"
