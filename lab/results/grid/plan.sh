# The lab grid (issue 21 item 4; docs/cpu-model.md section 9.3): data set A (8 x 1M rows, as
# plans/baseline.sh loads it), each cell one measured sysbench run of
#   MIX      oltp_read_write oltp_read_only oltp_write_only oltp_point_select
#   AHI      innodb_adaptive_hash_index OFF / ON       (SET GLOBAL, no restart)
#   IO       innodb_io_capacity 200 / 2000             (SET GLOBAL; io_capacity_max stays 2000)
#   POOL     4G (holds the ~1.9 GB of data, prewarmed by full scans) / 512M (does not)
#   THREADS  8 / 32
# The server restarts only when the pool size changes (cold, then prewarmed). Each cell: the
# settings, an unmeasured settle of GRID_SETTLE s of the cell's own load, then GRID_SECONDS s
# measured (lib/cell.sh: sysbench's summary; mariadbd's utime/stime and the machine's /proc/stat
# around the run; sysbench's own CPU from RUSAGE_CHILDREN). Results: cells.tsv, one row per cell
# (lab/results/README.md "grid"). The cells run in the order given; dirty pages left by a write
# cell carry into the next one, as on a server whose workload changes.
#
#   GRID_CELLS="MIX:AHI:IO:POOL:THREADS ..."   default: all 64, grouped by pool and threads
#   GRID_SETTLE=10 GRID_SECONDS=30              seconds per cell
#   GRID_CLIENTCPU=1                            also run probe/clientcpu/probe.sh (at the 4G
#                                               pool, after the first 4G group)
# The full 64 cells take about 64 x (settle + measured + ~4 s) plus the load: set LAB_TIMEOUT.
# lab-timeout: 5400

: "${GRID_SETTLE:=10}"
: "${GRID_SECONDS:=30}"
: "${GRID_CLIENTCPU:=0}"
. "$LAB_DIR/lib/cell.sh"

if [ -z "${GRID_CELLS:-}" ]; then
  GRID_CELLS=
  for pool in 4G 512M; do
    for th in 8 32; do
      for mix in oltp_point_select oltp_read_only oltp_read_write oltp_write_only; do
        for ahi in OFF ON; do
          for io in 200 2000; do GRID_CELLS+="$mix:$ahi:$io:$pool:$th "; done
        done
      done
    done
  done
fi

# check every cell before loading anything
for c in $GRID_CELLS; do
  IFS=: read -r mix ahi io pool th <<<"$c"
  case "$mix" in oltp_read_write | oltp_read_only | oltp_write_only | oltp_point_select) ;; *) lab_die "grid cell $c: mix $mix" ;; esac
  case "$ahi" in ON | OFF) ;; *) lab_die "grid cell $c: AHI $ahi (ON or OFF)" ;; esac
  case "$io" in '' | *[!0-9]*) lab_die "grid cell $c: io_capacity $io" ;; esac
  case "$th" in '' | *[!0-9]*) lab_die "grid cell $c: threads $th" ;; esac
  [ -n "$pool" ] || lab_die "grid cell $c: no pool"
done

load_data 8 "${GRID_ROWS:-1000000}"
GRID_RAW="$RESULTS/raw"
mkdir -p "$GRID_RAW"
rm -f "$RESULTS/cells.tsv"
grid_started=
clientcpu_done=0
for c in $GRID_CELLS; do
  IFS=: read -r mix ahi io pool th <<<"$c"
  if [ "$GRID_CLIENTCPU" = 1 ] && [ "$clientcpu_done" = 0 ] && [ -n "$grid_started" ] &&
    { [ "$pool" != "$CUR_POOL" ] || [ "$th" != "$prev_th" ]; } && [ "$CUR_POOL" = 4G ]; then
    . "$LAB_DIR/probe/clientcpu/probe.sh"
    clientcpu_done=1
  fi
  if [ "$pool" != "$CUR_POOL" ] || [ -z "$grid_started" ]; then
    pool_start "$pool"
    cell_prewarm
    server_record "$GRID_RAW" # variables.tsv of the last pool
  fi
  grid_started=1
  prev_th=$th
  name="${mix#oltp_}-ahi${ahi}-io$io-$pool-t$th"
  sql "SET GLOBAL innodb_adaptive_hash_index=$ahi; SET GLOBAL innodb_io_capacity=$io"
  got=$(sql "SELECT CONCAT(@@innodb_adaptive_hash_index, ':', @@innodb_io_capacity)")
  [ "$got" = "$ahi:$io" ] || lab_die "cell $name: settings are $got"
  lab_log "cell $name: settle $GRID_SETTLE s, measure $GRID_SECONDS s"
  cell_settle "$mix" "$th" "$GRID_SETTLE"
  cell_run "$GRID_RAW" "$name" "$mix" "$th" "$GRID_SECONDS"
  role=predict
  [ "$mix:$ahi:$io:$pool:$th" = "oltp_read_write:OFF:200:4G:8" ] && role=fit
  cell_append "$RESULTS/cells.tsv" "$GRID_RAW" "$name" "cell=$name" "role=$role" "mix=$mix" \
    "ahi=$ahi" "io_capacity=$io" "pool=$pool" "pool_bytes=$(to_bytes "$pool")" "threads=$th" \
    "settle_s=$GRID_SETTLE" "seconds=$GRID_SECONDS"
  tail -1 "$RESULTS/cells.tsv" | cut -f1,11-16 >&2
done
if [ "$GRID_CLIENTCPU" = 1 ] && [ "$clientcpu_done" = 0 ] && [ "$CUR_POOL" = 4G ]; then
  . "$LAB_DIR/probe/clientcpu/probe.sh"
fi
