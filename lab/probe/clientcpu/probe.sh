# shellcheck shell=bash
# The client's (sysbench's) CPU per statement kind, and mariadbd's, against a server that
# answers from its pool (docs/cpu-model.md sections 4 and 5; issue 21 item 2). Sourced by a plan
# with lib/cell.sh loaded and the data under load in a pool that holds it (plans/clientcpu.sh,
# or plans/grid.sh with GRID_CLIENTCPU=1). For each KIND of clientcpu.lua one cell of
# CLIENTCPU_SECONDS (default 15) at CLIENTCPU_THREADS (default 8), AHI off, after a short
# settle; the figures go to $RESULTS/clientcpu.tsv: per event and per statement, sysbench's
# and mariadbd's user and system CPU in microseconds, and net of the empty event (sysbench's
# loop) and of BEGIN+COMMIT.

: "${CLIENTCPU_SECONDS:=15}"
: "${CLIENTCPU_THREADS:=8}"
: "${CLIENTCPU_N:=10}"
CLIENTCPU_KINDS=${CLIENTCPU_KINDS:-"empty begin_commit point_select simple_range sum_range order_range distinct_range index_update non_index_update delete_insert"}
cc_dir="$RESULTS/raw-clientcpu"
mkdir -p "$cc_dir"
cc_lua="$LAB_DIR/probe/clientcpu/clientcpu.lua"
cc_opts=(--point_selects="$CLIENTCPU_N" --simple_ranges="$CLIENTCPU_N" --sum_ranges="$CLIENTCPU_N"
  --order_ranges="$CLIENTCPU_N" --distinct_ranges="$CLIENTCPU_N" --index_updates="$CLIENTCPU_N"
  --non_index_updates="$CLIENTCPU_N" --delete_inserts=$((CLIENTCPU_N / 2)))
sql "SET GLOBAL innodb_adaptive_hash_index=OFF; SET GLOBAL innodb_io_capacity=200"
rm -f "$cc_dir/cells.tsv"
for kind in $CLIENTCPU_KINDS; do
  lab_log "clientcpu: $kind ($CLIENTCPU_SECONDS s, $CLIENTCPU_THREADS threads)"
  KIND=$kind cell_settle "$cc_lua" "$CLIENTCPU_THREADS" 3 "${cc_opts[@]}"
  KIND=$kind cell_run "$cc_dir" "$kind" "$cc_lua" "$CLIENTCPU_THREADS" "$CLIENTCPU_SECONDS" "${cc_opts[@]}"
  case "$kind" in empty | begin_commit) n=0 ;; *) n=$CLIENTCPU_N ;; esac
  cell_append "$cc_dir/cells.tsv" "$cc_dir" "$kind" "kind=$kind" "statements_per_event=$n" \
    "threads=$CLIENTCPU_THREADS" "pool=$CUR_POOL" "seconds=$CLIENTCPU_SECONDS"
done
# per statement, net of the empty event and of BEGIN+COMMIT (both measured above)
awk -F'\t' -v OFS='\t' '
  NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
  { k = $c["kind"]; kinds[++nk] = k; n[k] = $c["statements_per_event"]; ev[k] = $c["tps"]
    su[k] = $c["sysbench_user_us_per_txn"]; ss[k] = $c["sysbench_sys_us_per_txn"]
    mu[k] = $c["mysqld_user_us_per_txn"]; ms[k] = $c["mysqld_sys_us_per_txn"]; oth[k] = $c["other_cores"]; noisy[k] = $c["noisy"] }
  END {
    print "kind", "statements_per_event", "events_per_s", "sysbench_user_us_per_event", "sysbench_sys_us_per_event",
      "mysqld_user_us_per_event", "mysqld_sys_us_per_event", "sysbench_us_per_stmt", "sysbench_user_us_per_stmt",
      "sysbench_sys_us_per_stmt", "mysqld_us_per_stmt", "mysqld_user_us_per_stmt", "mysqld_sys_us_per_stmt", "other_cores", "noisy"
    for (i = 1; i <= nk; i++) {
      k = kinds[i]
      if (k == "empty") { bu = 0; bs = 0; bmu = 0; bms = 0; d = 1 }
      else if (k == "begin_commit") { bu = su["empty"]; bs = ss["empty"]; bmu = 0; bms = 0; d = 1 }
      else { bu = su["begin_commit"]; bs = ss["begin_commit"]; bmu = mu["begin_commit"]; bms = ms["begin_commit"]; d = n[k] }
      a = (su[k] - bu) / d; b = (ss[k] - bs) / d; x = (mu[k] - bmu) / d; y = (ms[k] - bms) / d
      printf "%s\t%d\t%.1f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%s\t%s\n", k, n[k], ev[k],
        su[k], ss[k], mu[k], ms[k], a + b, a, b, x + y, x, y, oth[k], noisy[k]
    }
  }' "$cc_dir/cells.tsv" >"$RESULTS/clientcpu.tsv"
cp "$cc_dir/cells.tsv" "$RESULTS/clientcpu-cells.tsv"
lab_log "clientcpu: $RESULTS/clientcpu.tsv"
