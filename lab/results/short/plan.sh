# Short plan (CI): small data, two pool sizes, a 60 s no-DDL baseline at each, one ADD INDEX
# and one TRUNCATE under load. About 6-7 minutes on the 2-core VM.
# lab-timeout: 900
# Sourced by lab/run.sh with lib/*.sh loaded; see lab/README.md for the functions.

THREADS=8
load_data 4 250000           # sbtest1..4, 250k rows each (~240 MB with the k index)

for pool in 128M 512M; do    # smaller than the data / holds it all
  pool_start "$pool"
  warmup 20
  run_baseline "base-$pool" predict 60   # CI check: not a fit point
done

# DDL under load at the small pool (the server is still at 512M: go back).
pool_start 128M
warmup 20
run_ddl "add_index-128M" predict add_index sbtest1 20 20 300 \
  "ALTER TABLE sbtest.sbtest1 ADD INDEX c_idx (c)"
restore_spare sbtest5
warmup 10
run_ddl "truncate-128M" predict truncate sbtest5 20 20 300 "TRUNCATE TABLE sbtest.sbtest5"
