#!/usr/bin/env bash
# lab/ci.sh: the short plan (lab/plans/short.sh, < 10 min) as a CI check. Installs the lab's
# Debian packages if missing, runs the plan into a temporary results directory and checks the
# tidy CSVs: both baselines measured (TPS > 0, hit ratio in (0, 1]), both DDL statements done
# under load, per-second rows for every run, no process of the run left behind.
set -euo pipefail
LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "${1:-}" = --check ]; then
  # lab/ci.sh --check DIR: only the checks, on the results of an earlier short-plan run
  out=${2:?usage: lab/ci.sh [--check RESULTS_DIR]}
else
  out=$(mktemp -d "${LAB_TMPDIR:-/var/tmp}/ddlsim-lab-ci.XXXXXX")
  trap 'rm -rf "$out"' EXIT
  bash "$LAB_DIR/lib/install.sh" >/dev/null
  "$LAB_DIR/run.sh" plans/short.sh "$out"
fi

col() { head -1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1; }
fails=0
check() {
  if eval "$2"; then echo "ok   $1"; else echo "FAIL $1"; fails=$((fails + 1)); fi
}
runs=$out/runs.csv ddl=$out/ddl.csv series=$out/series.csv
t=$(col "$runs" tps_mean) h=$(col "$runs" hit_ratio) k=$(col "$runs" kind)
check "two baselines with tps > 0 and 0 < hit_ratio <= 1" \
  "[ \$(awk -F, -v t=$t -v h=$h -v k=$k 'NR>1 && \$k==\"baseline\" && \$t>0 && \$h>0 && \$h<=1' '$runs' | wc -l) = 2 ]"
f=$(col "$ddl" failed) d=$(col "$ddl" duration_s)
check "two DDL statements under load, none failed" \
  "[ \$(awk -F, -v f=$f -v d=$d 'NR>1 && \$f==\"false\" && \$d>0' '$ddl' | wc -l) = 2 ]"
# baselines: 60 s; DDL runs: 20 s + the statement + 20 s
check "per-second rows for all four runs (>= 38 each)" \
  "[ \$(awk -F, 'NR>1 { n[\$2]++ } END { c = 0; for (r in n) if (n[r] >= 38) c++; print c }' '$series') = 4 ]"
check "no mariadbd or sysbench left from the run" "! pgrep -f ddlsim-lab\\. >/dev/null"
echo "lab short plan: $((4 - fails)) passed, $fails failed"
[ "$fails" = 0 ]
