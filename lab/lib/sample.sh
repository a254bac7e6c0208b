# shellcheck shell=bash
# orzdba-like sampler: once a second, over one client connection, the server's clock,
# SHOW GLOBAL STATUS (the InnoDB, command and thread counters) and one row of
# information_schema.INNODB_BUFFER_POOL_STATS; beside it the machine's /proc/stat cpu line,
# mariadbd's and sysbench's own CPU time (utime stime, clock ticks). Bounded: COUNT samples, and a timeout on the client.

STATUS_WHERE="Variable_name LIKE 'Innodb%' OR Variable_name LIKE 'Com\\_%' OR Variable_name IN
  ('Questions','Queries','Threads_running','Threads_connected','Uptime','Handler_commit',
   'Handler_read_key','Handler_read_next','Handler_read_rnd_next','Handler_write',
   'Handler_update','Handler_delete','Created_tmp_tables','Created_tmp_disk_tables',
   'Select_range','Select_scan','Table_locks_waited','Slow_queries')"
BP_COLS="POOL_SIZE FREE_BUFFERS DATABASE_PAGES OLD_DATABASE_PAGES MODIFIED_DATABASE_PAGES
  PENDING_DECOMPRESS PENDING_READS PENDING_FLUSH_LRU PENDING_FLUSH_LIST PAGES_MADE_YOUNG
  PAGES_NOT_MADE_YOUNG PAGES_MADE_YOUNG_RATE PAGES_MADE_NOT_YOUNG_RATE NUMBER_PAGES_READ
  NUMBER_PAGES_CREATED NUMBER_PAGES_WRITTEN PAGES_READ_RATE PAGES_CREATE_RATE
  PAGES_WRITTEN_RATE NUMBER_PAGES_GET HIT_RATE YOUNG_MAKE_PER_THOUSAND_GETS
  NOT_YOUNG_MAKE_PER_THOUSAND_GETS NUMBER_PAGES_READ_AHEAD NUMBER_READ_AHEAD_EVICTED
  READ_AHEAD_RATE READ_AHEAD_EVICTED_RATE LRU_IO_TOTAL LRU_IO_CURRENT UNCOMPRESS_TOTAL
  UNCOMPRESS_CURRENT"

_sampler_feed() {
  local n=$1 os=$2 pid=$3 i next cpu rest st sbst dir
  dir=$(dirname "$os")
  local bp_sql
  bp_sql="SELECT 'BP', $(echo $BP_COLS | tr ' ' ',') FROM information_schema.INNODB_BUFFER_POOL_STATS;"
  echo "#BPCOLS $(echo $BP_COLS)" >"$os.bpcols"
  next=${EPOCHREALTIME}
  for ((i = 0; i < n; i++)); do
    echo "SELECT 'T', UNIX_TIMESTAMP(NOW(6)); SHOW GLOBAL STATUS WHERE $STATUS_WHERE; $bp_sql"
    read -r cpu rest </proc/stat
    st=$(cut -d' ' -f14,15 "/proc/$pid/stat" 2>/dev/null || echo "0 0")
    sbst="0 0"
    if [ -s "$dir/sysbench.pid" ]; then
      sbst=$(cut -d' ' -f14,15 "/proc/$(cat "$dir/sysbench.pid")/stat" 2>/dev/null || echo "0 0")
    fi
    printf '%s\t%s\t%s\t%s\n' "$EPOCHREALTIME" "$rest" "$st" "$sbst" >>"$os"
    next=$(awk -v t="$next" 'BEGIN { printf "%.6f", t + 1 }')
    sleep_until "$next"
  done
}

# sampler_start DIR COUNT: starts the sampler in the background; SAMPLER_PID is its pipeline.
sampler_start() {
  local dir=$1 n=$2
  : >"$dir/os.tsv"
  (_sampler_feed "$n" "$dir/os.tsv" "$SERVER_PID" |
    timeout $((n + 60)) "${MARIADB_CLIENT[@]}" -S "$LAB_TMP/sock" -B -N -n >"$dir/samples.tsv" 2>"$dir/samples.err") &
  SAMPLER_PID=$!
  lab_track "$SAMPLER_PID"
}

sampler_stop() {
  [ -n "${SAMPLER_PID:-}" ] || return 0
  sleep 1.2
  lab_kill_tree "$SAMPLER_PID"
  wait "$SAMPLER_PID" 2>/dev/null || true
  SAMPLER_PID=
}
