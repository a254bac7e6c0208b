# shellcheck shell=bash
# sysbench tables: load (sysbench oltp_read_write prepare), with an optional pristine copy of the
# loaded datadir kept in $LAB_CACHE (outside the repository) so a later plan with the same
# tables and rows starts from a copy instead of a new prepare. The copy is made after a clean
# shutdown, so it is a consistent datadir.

: "${THREADS:=8}"
: "${RAND_TYPE:=special}"
: "${LAB_CACHE:=}"

sb_common() {
  SB_ARGS=(--db-driver=mysql --mysql-socket="$LAB_TMP/sock" --mysql-user=root --mysql-db=sbtest
    --mysql-ignore-errors=1213,1020,1205,1180)
}

# load_data TABLES ROWS [SPARE]: sbtest1..TABLES+SPARE with ROWS rows each; the load of the plan
# then runs on sbtest1..TABLES and the spare tables are for DROP/TRUNCATE under load. The server
# must be running (it is restarted around a cache copy).
load_data() {
  local tables=$1 rows=$2 spare=${3:-0}
  local total=$((tables + spare))
  local key="data-${total}x${rows}"
  LOAD_TABLES=$tables LOAD_ROWS=$rows LOAD_SPARE=$spare
  local pool=${LOAD_POOL:-1G}
  if [ -n "$LAB_CACHE" ] && [ -f "$LAB_CACHE/$key/.complete" ]; then
    lab_log "load: copying cached datadir $LAB_CACHE/$key"
    server_stop
    rm -rf "$LAB_TMP/data"
    timeout 1800 cp -a "$LAB_CACHE/$key/data" "$LAB_TMP/data"
    server_start "$pool"
  else
    sb_common
    lab_log "load: sysbench prepare $total tables x $rows rows"
    local t0=$EPOCHREALTIME
    timeout "${LOAD_TIMEOUT:-3600}" sysbench oltp_read_write "${SB_ARGS[@]}" --tables="$total" \
      --table-size="$rows" --threads=2 prepare >"$RESULTS/load.log" 2>&1 ||
      { tail -20 "$RESULTS/load.log" >&2; lab_die "sysbench prepare failed"; }
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "load_seconds\t%.1f\n", b - a }' >>"$RESULTS/load.log"
    if [ -n "$LAB_CACHE" ]; then
      server_stop
      lab_log "load: keeping a copy in $LAB_CACHE/$key"
      rm -rf "${LAB_CACHE:?}/$key"
      mkdir -p "$LAB_CACHE/$key"
      timeout 1800 cp -a "$LAB_TMP/data" "$LAB_CACHE/$key/data" && touch "$LAB_CACHE/$key/.complete"
      server_start "$pool"
    fi
  fi
  data_record "$RESULTS/data.tsv"
}

# data_record FILE: the tables' sizes as InnoDB reports them and on disk.
data_record() {
  sql_named "SELECT table_name, table_rows, data_length, index_length, data_free
             FROM information_schema.TABLES WHERE table_schema='sbtest' ORDER BY table_name" >"$1"
  {
    printf 'on_disk_bytes\t'
    du -sb "$LAB_TMP/data/sbtest" | cut -f1
  } >>"$1"
  DATA_BYTES=$(du -sb "$LAB_TMP/data/sbtest" | cut -f1)
  local tbl
  tbl=$(awk -F'\t' -v n="$LOAD_TABLES" 'NR > 1 && $1 ~ /^sbtest[0-9]+$/ { i = substr($1, 7) + 0; if (i <= n) s += $3 + $4 } END { print s + 0 }' "$1")
  LOADED_BYTES=$tbl # data+index of the tables under load, InnoDB's count
  lab_log "data: sbtest on disk $DATA_BYTES bytes; tables under load $LOADED_BYTES bytes (data+index)"
}

# restore_spare TABLE: recreate a spare table as a copy of sbtest1 (same rows, same indexes).
restore_spare() {
  local t=$1
  lab_log "restore $t from sbtest1"
  SQL_TIMEOUT=1800 sql "DROP TABLE IF EXISTS sbtest.$t; CREATE TABLE sbtest.$t LIKE sbtest.sbtest1;
    INSERT INTO sbtest.$t SELECT * FROM sbtest.sbtest1"
}
