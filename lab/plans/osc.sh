# pt-online-schema-change beside the native online ALTER (issue 26 item 4; results committed
# under lab/results/osc/). Data set A of plans/ddl.sh (8 tables x 1M rows, the load on
# sbtest1..8), the same sysbench load (oltp_read_write, special, 8 threads), one pool size,
# 512 MiB (a quarter of the data: the copy's second table competes with the hot set), so that
# scenarios/lab/ddl.yaml's setup is reused by scenarios/lab/osc.yaml. Every run is a prediction.
# After a cold start and OSC_WARMUP s of load, per run: OSC_PRE s of load, the DDL, OSC_POST s:
#   native        ALTER TABLE sbtest1 ADD INDEX c_idx (c), ALGORITHM=INPLACE, LOCK=NONE
#   ptosc         pt-online-schema-change --alter "ADD INDEX c_idx (c)" at its defaults
#                 (--chunk-time 0.5, --max-load Threads_running=25, --critical-load
#                 Threads_running=50, drop of the old table) with --recursion-method=none
#   ptosc-ct01    the same with --chunk-time 0.1 (the throttled setting)
# (c_idx is dropped, instantly, before each.) pt-osc runs with --print --statistics --progress
# time,1 and its output lines are stamped (ddl.out), so its phases (copy, swap, the old table's
# DROP) are timed to the millisecond: plan_after_tidy writes osc.csv, one row per run.
# Run with LAB_NICE=-15 on a shared VM (mariadbd, sysbench and pt-osc at high CPU and I/O
# priority); meta.env and osc.csv record the load average.
# lab-timeout: 1500

THREADS=8
: "${LAB_CACHE:=/var/tmp/ddlsim-lab-cache}"
: "${OSC_TABLES:=8}" "${OSC_ROWS:=1000000}" "${OSC_POOL:=512M}"
: "${OSC_WARMUP:=60}" "${OSC_PRE:=30}" "${OSC_POST:=30}" "${OSC_MAX:=420}"
: "${OSC_RUNS:=native ptosc ptosc-ct01}"

command -v pt-online-schema-change >/dev/null || lab_die "pt-online-schema-change not installed (apt-get install percona-toolkit)"
pt-online-schema-change --version >"$RESULTS/ptosc_version.txt" 2>&1 || true

osc_ptosc() { # osc_ptosc NAME [PT-OSC OPTION...]
  local name=$1
  shift
  run_ddl_cmd "$name" predict add_index sbtest1 "$OSC_PRE" "$OSC_POST" "$OSC_MAX" \
    pt-online-schema-change --alter "ADD INDEX c_idx (c)" "D=sbtest,t=sbtest1,S=$LAB_TMP/sock,u=root" \
    --recursion-method=none --execute --print --statistics --progress time,1 "$@"
  sql "SELECT COUNT(*) FROM sbtest.sbtest1" >"$RESULTS/runs/$name/rows.txt"
}

load_data "$OSC_TABLES" "$OSC_ROWS"
pool_start "$OSC_POOL"
warmup "$OSC_WARMUP"
for r in $OSC_RUNS; do
  sql "ALTER TABLE sbtest.sbtest1 DROP INDEX IF EXISTS c_idx"
  warmup 10
  case $r in
    native)
      run_ddl native predict add_index sbtest1 "$OSC_PRE" "$OSC_POST" "$OSC_MAX" \
        "ALTER TABLE sbtest.sbtest1 ADD INDEX c_idx (c), ALGORITHM=INPLACE, LOCK=NONE"
      sql "SELECT COUNT(*) FROM sbtest.sbtest1" >"$RESULTS/runs/native/rows.txt" ;;
    ptosc) osc_ptosc ptosc ;;
    ptosc-ct01) osc_ptosc ptosc-ct01 --chunk-time 0.1 ;;
    *) lab_die "unknown OSC_RUNS entry $r" ;;
  esac
done

# After lab/tidy: osc.csv, one row per run, from ddl.csv, series.csv and the stamped pt-osc
# output. Times on the run's sysbench clock; copy_s from "Copying approximately" to "Copied rows
# OK.", drop_s from "Dropping old table..." to "Dropped old table ... OK.", swap_s the RENAME.
plan_after_tidy() {
  local out="$RESULTS/osc.csv" d name
  echo "run,method,chunk_time_s,duration_s,copy_s,rows,rows_per_s,swap_s,drop_s,baseline_tps,tps_during,tps_copy,tps_drop,baseline_lat_p95_ms,lat_p95_during_ms,lat_p95_copy_ms,max_lat_p95_ms,other_cpu_during,loadavg_begin,loadavg_end,exit" >"$out"
  for d in "$RESULTS"/runs/*/; do
    name=$(basename "$d")
    [ -f "$d/ddl.tsv" ] || continue
    local ddlout="$d/ddl.out"
    [ -f "$ddlout" ] || ddlout="$d/ddl.out.gz"
    awk -F'\t' -v OFS=, -v name="$name" -v rows="$(cat "$d/rows.txt" 2>/dev/null)" \
      -v la0="$(sed -n 's/^loadavg_begin=//p' "$d/meta.env")" -v la1="$(sed -n 's/^loadavg_end=//p' "$d/meta.env")" '
      FILENAME ~ /ddl.tsv$/ { if (FNR == 2) { u0 = $3; u1 = $4; rc = $5; ct = ($6 ~ /chunk-time 0.1/) ? 0.1 : 0.5; m = ($6 ~ /^pt-online/) ? "pt-osc" : "native" } next }
      FILENAME ~ /ddl.csv$/ { n = split($0, f, ","); if (FNR == 1) { for (i = 1; i <= n; i++) c[f[i]] = i; next }
        if (f[c["run"]] == name) { s0 = f[c["start_s"]]; s1 = f[c["end_s"]]; bt = f[c["baseline_tps"]]; td = f[c["mean_tps"]]; bp = f[c["baseline_lat_p95_ms"]]; mp = f[c["max_lat_p95_ms"]] } next }
      FILENAME ~ /series.csv$/ { n = split($0, f, ","); if (FNR == 1) { for (i = 1; i <= n; i++) h[f[i]] = i; next }
        if (f[h["run"]] != name) next; ser_t[++ns] = f[h["time_s"]]; ser_tps[ns] = f[h["tps"]]; ser_p95[ns] = f[h["lat_p95_ms"]]; ser_oc[ns] = f[h["other_cpu_util"]]; next }
      { # the stamped pt-osc output: unix time TAB line
        if ($2 ~ /Copying approximately/) cu0 = $1; if ($2 ~ /Copied rows OK/) cu1 = $1
        if ($2 ~ /Swapping tables/) wu0 = $1; if ($2 ~ /Swapped original and new tables OK/) wu1 = $1
        if ($2 ~ /Dropping old table/) du0 = $1; if ($2 ~ /Dropped old table .* OK/) du1 = $1 }
      function clk(u) { return u == "" ? "" : s0 + (u - u0) }
      function meanover(a, b, arr,   k, n, s) { # the intervals (t-1, t] overlapping (a, b)
 n = 0; s = 0; if (a == "") return "";
        for (k = 1; k <= ns; k++) if (ser_t[k] > a && ser_t[k] - 1 < b) { s += arr[k]; n++ } return n ? s / n : "" }
      END {
        if (m == "native") { cs0 = s0; cs1 = s1 } else { cs0 = clk(cu0); cs1 = clk(cu1) }
        copy = (cs0 != "" && cs1 != "") ? cs1 - cs0 : ""
        rps = (copy > 0 && rows != "") ? rows / copy : ""
        swap = (wu0 != "" && wu1 != "") ? wu1 - wu0 : ""
        drop = (du0 != "" && du1 != "") ? du1 - du0 : ""
        n = 0; s = 0; for (k = 1; k <= ns; k++) if (ser_t[k] > 5 && ser_t[k] <= s0) { s += ser_p95[k]; n++ }
        bp95 = n ? s / n : bp
        print name, m, (m == "native" ? "" : ct), s1 - s0, copy, rows, rps, swap, drop, bt, td,
          meanover(cs0, cs1, ser_tps), (drop == "" ? "" : meanover(clk(du0), clk(du1), ser_tps)),
          bp95, meanover(s0, s1, ser_p95), meanover(cs0, cs1, ser_p95), mp, meanover(s0, s1, ser_oc), la0, la1, rc
      }' "$d/ddl.tsv" "$RESULTS/ddl.csv" "$RESULTS/series.csv" <(zcat -f "$ddlout") >>"$out"
  done
  column -s, -t "$out" >&2 || true
}
