# DROP TABLE and TRUNCATE TABLE of a file-per-table table at 3 sizes, no load (issue 22 item
# 6, the no-load half): each table a copy of sbtest1 (CREATE TABLE LIKE + INSERT ... SELECT
# ... LIMIT), made fully written by FLUSH TABLES ... FOR EXPORT; UNLOCK TABLES, then the
# statement timed by the server (SET profiling=1 ... SHOW PROFILES: the statement's own
# duration, no client round trip). Two repetitions per size and statement. Results:
# $RESULTS/droptrunc.tsv (op, rows, rep, ibd_bytes before the statement, duration_s).
# Every value a prediction: nothing is fitted on it.
# lab-timeout: 2400
# Sourced by lab/run.sh with lib/*.sh loaded; see lab/README.md for the functions.

THREADS=8
load_data 1 1200000          # sbtest1: 1.2M rows (~280 MB with the k index)
pool_start 512M

out="$RESULTS/droptrunc.tsv"
printf 'op\trows\trep\tibd_bytes\tduration_s\n' >"$out"
for rows in 60000 300000 1200000; do
  for op in drop truncate; do
    for rep in 1 2; do
      SQL_TIMEOUT=1800 sql "DROP TABLE IF EXISTS sbtest.dt; CREATE TABLE sbtest.dt LIKE sbtest.sbtest1;
        INSERT INTO sbtest.dt SELECT * FROM sbtest.sbtest1 LIMIT $rows;
        FLUSH TABLES sbtest.dt FOR EXPORT; UNLOCK TABLES" >/dev/null
      sleep 5   # let the export's writes and the copy's purge settle
      bytes=$(stat -c %s "$LAB_TMP/data/sbtest/dt.ibd")
      if [ "$op" = drop ]; then stmt="DROP TABLE sbtest.dt"; else stmt="TRUNCATE TABLE sbtest.dt"; fi
      d=$(sql "SET profiling=1; $stmt; SHOW PROFILES" | tail -1 | cut -f2)
      lab_log "$op rows=$rows rep=$rep ibd=$bytes: $d s"
      printf '%s\t%s\t%s\t%s\t%s\n' "$op" "$rows" "$rep" "$bytes" "$d" >>"$out"
    done
  done
done
sql "DROP TABLE IF EXISTS sbtest.dt" >/dev/null
