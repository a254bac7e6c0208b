# shellcheck shell=bash
# Measurement runs: a no-DDL baseline (run_baseline) and one DDL statement under the same
# sysbench load (run_ddl). Each run writes one directory $RESULTS/runs/<name>/ with:
#   meta.env         what the run was (plan, kind, role fit|predict, pool, data, threads, times)
#   server_args.txt  mariadbd's command line; variables.tsv SHOW GLOBAL VARIABLES
#   status_begin.tsv / status_end.tsv  the full SHOW GLOBAL STATUS around the run
#   sysbench.log     sysbench's output, each line prefixed with its arrival time (unix s)
#   samples.tsv      the per-second sampler (lib/sample.sh); os.tsv /proc/stat + mariadbd CPU
#   ddl.tsv          (DDL runs) statement, start, end, exit code, client output
# lab/tidy turns these into the plan's CSVs.

: "${THREADS:=8}"

# stamp: prefix each line with its arrival time.
stamp() {
  local l
  while IFS= read -r l; do printf '%s\t%s\n' "$EPOCHREALTIME" "$l"; done
}

# sb_start DIR SECONDS OUT: sysbench oltp_read_write on sbtest1..$LOAD_TABLES in the
# background, stamped into DIR/OUT. SB_PID is the bounded sysbench process.
sb_start() {
  local dir=$1 secs=$2 out=$3
  sb_common
  rm -f "$dir/$out.fifo"
  mkfifo "$dir/$out.fifo"
  stamp <"$dir/$out.fifo" >"$dir/$out" &
  SB_STAMP_PID=$!
  lab_track "$SB_STAMP_PID"
  printf '%s\n' "${LAB_PRIO[@]}" sysbench oltp_read_write "${SB_ARGS[@]}" --tables="$LOAD_TABLES" --table-size="$LOAD_ROWS" \
    --threads="$THREADS" --rand-type="$RAND_TYPE" --time="$secs" --report-interval=1 --histogram=on \
    --percentile=95 run >"$dir/$out.cmd"
  timeout --kill-after=10 $((secs + 60)) "${LAB_PRIO[@]}" stdbuf -oL sysbench oltp_read_write "${SB_ARGS[@]}" \
    --tables="$LOAD_TABLES" --table-size="$LOAD_ROWS" --threads="$THREADS" --rand-type="$RAND_TYPE" \
    --time="$secs" --report-interval=1 --histogram=on --percentile=95 run >"$dir/$out.fifo" 2>&1 &
  SB_PID=$!
  lab_track "$SB_PID"
  # sysbench's own PID (timeout's child) for the sampler's CPU accounting
  rm -f "$dir/sysbench.pid"
  local i p
  for ((i = 0; i < 40; i++)); do
    p=$(pgrep -P "$SB_PID" 2>/dev/null | head -1 || true)
    if [ -n "$p" ]; then
      echo "$p" >"$dir/sysbench.pid"
      break
    fi
    sleep 0.05
  done
}

sb_wait() {
  local rc=0
  wait "$SB_PID" || rc=$?
  wait "$SB_STAMP_PID" 2>/dev/null || true
  rm -f "$1"/*.fifo
  return $rc
}

sb_kill() {
  lab_kill_tree "$SB_PID"
  wait "$SB_PID" 2>/dev/null || true
  wait "$SB_STAMP_PID" 2>/dev/null || true
  rm -f "$1"/*.fifo
}

RUN_LOADAVG0=
run_meta() {
  local dir=$1
  shift
  {
    printf 'plan=%s\n' "$PLAN"
    printf 'run=%s\n' "$(basename "$dir")"
    printf 'pool=%s\n' "$CUR_POOL"
    printf 'pool_bytes=%s\n' "$(to_bytes "$CUR_POOL")"
    printf 'tables=%s\nrows_per_table=%s\nspare_tables=%s\n' "$LOAD_TABLES" "$LOAD_ROWS" "$LOAD_SPARE"
    printf 'data_bytes=%s\n' "$LOADED_BYTES"
    printf 'threads=%s\nrand_type=%s\n' "$THREADS" "$RAND_TYPE"
    printf 'lab_nice=%s\n' "$LAB_NICE"
    printf 'loadavg_begin=%s\nloadavg_end=%s\n' "$RUN_LOADAVG0" "$(loadavg)"
    local kv
    for kv in "$@"; do printf '%s\n' "$kv"; done
  } >"$dir/meta.env"
}

# pool_start POOL: (re)start the server with that pool size; runs after it use it.
pool_start() {
  CUR_POOL=$1
  server_restart "$1"
}

# warmup SECONDS: sysbench load whose results are kept but not measured.
warmup() {
  local secs=$1 dir="$RESULTS/warmups/$CUR_POOL-$((++WARMUP_SEQ))"
  mkdir -p "$dir"
  lab_log "warm-up $secs s (pool $CUR_POOL)"
  sb_start "$dir" "$secs" sysbench.log
  sb_wait "$dir" || lab_log "warm-up sysbench exit $?"
}

# run_baseline NAME ROLE SECONDS: a no-DDL measurement. ROLE is fit or predict.
run_baseline() {
  local name=$1 role=$2 secs=$3 dir="$RESULTS/runs/$1"
  mkdir -p "$dir"
  lab_log "run $name: baseline $secs s, pool $CUR_POOL, role $role"
  RUN_LOADAVG0=$(loadavg)
  server_record "$dir"
  sql_named "SHOW GLOBAL STATUS" >"$dir/status_begin.tsv"
  sampler_start "$dir" $((secs + 5))
  sleep 1
  local t0=$EPOCHREALTIME
  sb_start "$dir" "$secs" sysbench.log
  local rc=0
  sb_wait "$dir" || rc=$?
  local t1=$EPOCHREALTIME
  sampler_stop
  sql_named "SHOW GLOBAL STATUS" >"$dir/status_end.tsv"
  run_meta "$dir" kind=baseline "role=$role" "seconds=$secs" "sb_start=$t0" "sb_end=$t1" "sb_rc=$rc"
  [ "$rc" = 0 ] || lab_die "sysbench failed in $name (exit $rc): $(tail -3 "$dir/sysbench.log")"
}

# run_ddl NAME ROLE OP TABLE PRE POST MAXDDL STATEMENT: sysbench for PRE seconds, then the
# statement (bounded by MAXDDL seconds) on its own connection, then POST more seconds of load.
run_ddl() { _run_ddl "${@:1:8}" _ddl_sql "$8"; }

# run_ddl_cmd NAME ROLE OP TABLE PRE POST MAXDDL CMD [ARG...]: the same with a client program as
# the DDL (pt-online-schema-change), run under LAB_PRIO and bounded by MAXDDL seconds; each line
# of its output (stdout and stderr) is stamped with its arrival time in ddl.out.
run_ddl_cmd() { _run_ddl "${@:1:7}" "${*:8}" _ddl_cmd "${@:8}"; }

_ddl_sql() { SQL_TIMEOUT=$DDL_MAX sql_named "$1" >"$DDL_DIR/ddl.out" 2>&1; }
_ddl_cmd() {
  timeout --kill-after=10 "$DDL_MAX" "${LAB_PRIO[@]}" "$@" 2>&1 | stamp >"$DDL_DIR/ddl.out"
  return "${PIPESTATUS[0]}"
}

# _run_ddl NAME ROLE OP TABLE PRE POST MAXDDL STATEMENT EXEC [ARG...]: EXEC ARG... runs the DDL.
_run_ddl() {
  local name=$1 role=$2 op=$3 table=$4 pre=$5 post=$6 maxddl=$7 stmt=$8 dir="$RESULTS/runs/$1"
  shift 8
  mkdir -p "$dir"
  lab_log "run $name: $op $table under load (pre $pre s, post $post s), pool $CUR_POOL"
  RUN_LOADAVG0=$(loadavg)
  server_record "$dir"
  sql_named "SHOW GLOBAL STATUS" >"$dir/status_begin.tsv"
  local total=$((pre + maxddl + post))
  sampler_start "$dir" $((total + 5))
  sleep 1
  local t0=$EPOCHREALTIME
  sb_start "$dir" "$total" sysbench.log
  sleep_until "$(awk -v t="$t0" -v p="$pre" 'BEGIN { printf "%.6f", t + p }')"
  local ds=$EPOCHREALTIME drc=0
  DDL_DIR=$dir DDL_MAX=$maxddl "$@" || drc=$?
  local de=$EPOCHREALTIME
  lab_log "  $op took $(awk -v a="$ds" -v b="$de" 'BEGIN { printf "%.2f", b - a }') s (exit $drc)"
  sleep "$post"
  local t1=$EPOCHREALTIME
  if kill -0 "$SB_PID" 2>/dev/null; then sb_kill "$dir"; else sb_wait "$dir" || true; fi
  sampler_stop
  sql_named "SHOW GLOBAL STATUS" >"$dir/status_end.tsv"
  {
    printf 'op\ttable\tstart_unix\tend_unix\texit\tstatement\n'
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$op" "$table" "$ds" "$de" "$drc" "$(echo "$stmt" | tr '\n\t' '  ')"
  } >"$dir/ddl.tsv"
  run_meta "$dir" kind=ddl "role=$role" "op=$op" "ddl_table=$table" "pre_s=$pre" "post_s=$post" \
    "sb_start=$t0" "sb_end=$t1"
}
