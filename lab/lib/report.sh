#!/usr/bin/env bash
# lab/lib/report.sh RESULTS_DIR...: markdown tables of the tidy CSVs (runs.csv, ddl.csv), as
# pasted into lab/results/README.md.
set -euo pipefail
for res in "$@"; do
  echo "### $(basename "$res")"
  echo
  awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["kind"] == "baseline" {
      if (!hdr++) {
        print "| run | role | pool | data (MiB) | TPS mean | TPS cv | QPS | lat p95 ms | lat p99 ms | hit ratio | misses/s | pages read/s | pages written/s | dirty pages | cpu_util | mysqld cpu |"
        print "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
      }
      printf "| %s | %s | %d MiB | %.0f | %.0f | %.3f | %.0f | %s | %s | %.5f | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f |\n",
        $c["run"], $c["role"], $c["pool_bytes"] / 1048576, $c["data_bytes"] / 1048576, $c["tps_mean"], $c["tps_cv"],
        $c["qps_mean"], $c["lat_p95_ms"], $c["lat_p99_ms"], $c["hit_ratio"], $c["misses_per_s_mean"],
        $c["pages_read_per_s_mean"], $c["pages_written_per_s_mean"], $c["dirty_pages_mean"], $c["cpu_util_mean"], $c["mysqld_cpu_util_mean"]
    }' "$res/runs.csv"
  echo
  [ -s "$res/ddl.csv" ] && [ "$(wc -l <"$res/ddl.csv")" -gt 1 ] || continue
  awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
      if (!hdr++) {
        print "| run | op | pool | duration s | failed | baseline TPS | mean TPS during | min TPS | s below half | TPS after | max p95 ms during | pages read during | pages written during |"
        print "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
      }
      printf "| %s | %s | %d MiB | %.2f | %s | %.0f | %.0f | %.0f | %d | %.0f | %s | %.0f | %.0f |\n",
        $c["run"], $c["op"], $c["pool_bytes"] / 1048576, $c["duration_s"], $c["failed"], $c["baseline_tps"],
        $c["mean_tps"], $c["min_tps"], $c["below_half_s"], $c["after_tps"], $c["max_lat_p95_ms"],
        $c["pages_read_during"], $c["pages_written_during"]
    }' "$res/ddl.csv"
  echo
  # per (op, pool): mean and range of the repetitions
  awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    {
      k = $c["op"] SUBSEP $c["pool_bytes"]
      if (!(k in n)) { order[++m] = k; lo[k] = 1e18; hi[k] = -1 }
      n[k]++; d = $c["duration_s"]; s[k] += d; if (d < lo[k]) lo[k] = d; if (d > hi[k]) hi[k] = d
      b[k] += $c["baseline_tps"]; du[k] += $c["mean_tps"]; a[k] += $c["after_tps"]
    }
    END {
      if (m < 2) exit
      print "| op | pool | n | duration s mean (min-max) | baseline TPS | mean TPS during | during/baseline | TPS after |"
      print "|---|---|---|---|---|---|---|---|"
      for (i = 1; i <= m; i++) {
        k = order[i]; split(k, f, SUBSEP)
        printf "| %s | %d MiB | %d | %.2f (%.2f-%.2f) | %.0f | %.0f | %.2f | %.0f |\n", f[1], f[2] / 1048576, n[k],
          s[k] / n[k], lo[k], hi[k], b[k] / n[k], du[k] / n[k], du[k] / b[k], a[k] / n[k]
      }
    }' "$res/ddl.csv"
  echo
done
