# Full DDL-under-load plan (run by hand; results committed under lab/results/ddl/).
# Data set A of plans/baseline.sh (8 tables x 1M rows; the load runs on sbtest1..8), the same
# sysbench load (oltp_read_write, special, 8 threads), at pool sizes 512 MiB (a quarter of the
# data) and 4 GiB (all of it). Every DDL run is a prediction: nothing is fitted on them.
# Per repetition:
#   add_index  ALTER TABLE sbtest1 ADD INDEX c_idx (c)      (the index is dropped before, unloaded)
#   optimize   OPTIMIZE TABLE sbtest1                       (InnoDB: "recreate + analyze", i.e.
#              an online ALTER TABLE ... FORCE, then ANALYZE)
#   drop       DROP TABLE sbtest9       (a 1M-row copy of sbtest1 made just before, not under load)
#   truncate   TRUNCATE TABLE sbtest9   (same)
# Each: 30 s of load, the statement (at most 900 s), 30 s more.
# lab-timeout: 7000

THREADS=8
: "${LAB_CACHE:=/var/tmp/ddlsim-lab-cache}"
: "${REPS:=3}"

load_data 8 1000000
for pool in 512M 4G; do
  pool_start "$pool"
  warmup 60
  for ((rep = 1; rep <= REPS; rep++)); do
    sql "ALTER TABLE sbtest.sbtest1 DROP INDEX IF EXISTS c_idx"
    run_ddl "add_index-$pool-$rep" predict add_index sbtest1 30 30 900 \
      "ALTER TABLE sbtest.sbtest1 ADD INDEX c_idx (c)"
    sql "ALTER TABLE sbtest.sbtest1 DROP INDEX IF EXISTS c_idx"
    warmup 10
    run_ddl "optimize-$pool-$rep" predict optimize sbtest1 30 30 900 "OPTIMIZE TABLE sbtest.sbtest1"
    restore_spare sbtest9
    warmup 20
    run_ddl "drop-$pool-$rep" predict drop sbtest9 30 30 900 "DROP TABLE sbtest.sbtest9"
    restore_spare sbtest9
    warmup 20
    run_ddl "truncate-$pool-$rep" predict truncate sbtest9 30 30 900 "TRUNCATE TABLE sbtest.sbtest9"
    sql "DROP TABLE IF EXISTS sbtest.sbtest9"
  done
done
