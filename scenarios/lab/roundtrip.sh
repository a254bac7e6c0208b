#!/usr/bin/env bash
# The lab round trip of `ddlsim calibrate` (docs/calibrate.md, docs/validation.md "Calibrated
# on one baseline"), and the recipe of the lab's profile: calibrate lab-2c (the machine, its
# four foreground costs carried over from 8c-64g) on one no-DDL baseline — data set A at
# 1 GiB, its SHOW GLOBAL STATUS at the start and end of the measured 150 s
# (docs/examples/calibrate/, trimmed from lab/results/baseline/runs/d8x1M-1G/) and mariadbd's
# CPU over them from that run's os.tsv — with the command that wrote
# scenarios/profiles/lab-2c-calibrated.yaml, and fail if its fitted costs differ from the
# committed ones; then simulate every other lab baseline on the committed profile (the lab
# scenarios' hardware:) and print simulated / measured statements/s, server CPU per
# statement and page reads per statement (measured: lab/results/baseline/runs.csv, qps_mean,
# mysqld_cpu_util_mean x 2 / qps_mean, pages_read_per_s_mean / qps_mean).
#
#   bash scenarios/lab/roundtrip.sh [DDLSIM]      # ~3 min
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-}
if [ -z "$bin" ]; then bin=$(mktemp -d)/ddlsim; go build -o "$bin" ./cmd/ddlsim; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
d=lab/results/baseline/runs/d8x1M-1G
cpu=$(zcat "$d/os.tsv.gz" | awk -F'\t' 'NR==1{split($NF,a," "); first=a[1]+a[2]} {split($NF,b," "); last=b[1]+b[2]} END{printf "%.2f", (last-first)/100}')
echo "mariadbd CPU over the d8x1M-1G interval: $cpu s (os.tsv)"
# The command that made the committed profile, with --out scenarios/profiles/lab-2c-calibrated.yaml.
"$bin" calibrate scenarios/lab/baseline-a.yaml --set hardware=../profiles/lab-2c.yaml \
  --set mysql.innodb_buffer_pool_size=1GiB \
  --status docs/examples/calibrate/status_begin.tsv docs/examples/calibrate/status_end.tsv \
  --server-cpu "$cpu" --out "$out/lab-2c-calibrated.yaml"
costs() { sed -n '/^costs:/,/^provenance:/p' "$1"; }
if ! diff <(costs scenarios/profiles/lab-2c-calibrated.yaml) <(costs "$out/lab-2c-calibrated.yaml"); then
  echo "roundtrip.sh: the fitted costs differ from scenarios/profiles/lab-2c-calibrated.yaml's (< committed, > now): re-make it with the command above, --out scenarios/profiles/lab-2c-calibrated.yaml --force, and re-run the lab validation files" >&2
  exit 1
fi
echo "the fitted costs are scenarios/profiles/lab-2c-calibrated.yaml's"
echo
printf '%-14s %-7s %12s %12s %12s\n' run role "stmt/s" "cpu/stmt" "reads/stmt"
tail -n +2 lab/results/baseline/runs.csv | while IFS=, read -r plan run kind role op pool tables rows rest; do
  [ "$run" = d8x1M-1G ] && continue
  scen=scenarios/lab/baseline-a.yaml; [ "$rows" = 500000 ] && scen=scenarios/lab/baseline-b.yaml
  "$bin" run --quiet --out "$out/$run" "$scen" --set mysql.innodb_buffer_pool_size="$pool" > /dev/null
  awk -F, -v run="$run" -v role="$role" '
    FNR==1 {for (i=1;i<=NF;i++) c[FILENAME, $i]=i; next}
    FILENAME ~ /runs.csv$/ && $c[FILENAME,"run"]==run {q=$c[FILENAME,"qps_mean"]; mc=$c[FILENAME,"mysqld_cpu_util_mean"]*2/q; mr=$c[FILENAME,"pages_read_per_s_mean"]/q}
    FILENAME ~ /series.csv$/ {sq+=$c[FILENAME,"qps"]; su+=$c[FILENAME,"server_cpu_util"]; sr+=$c[FILENAME,"pages_read_per_s"]; n++}
    END {printf "%-14s %-7s %12.3f %12.3f %12.3f\n", run, role, (sq/n)/q, (su/n*2/(sq/n))/mc, (sr/n/(sq/n))/mr}' \
    lab/results/baseline/runs.csv "$out/$run/series.csv"
done
