#!/usr/bin/env bash
# The one fit made on the lab (docs/validation.md "The lab"): the foreground CPU constants the
# lab-2c profile took from 8c-64g (page_hit 250ns, row 400ns, statement 96us, commit 10us) are
# scaled by one factor s so that the model's server CPU per transaction matches mariadbd's at
# the role=fit baselines where the pool holds the working set, data set A at 1 GiB and 4 GiB
# (lab/results/baseline/runs.csv: mysqld_cpu_util_mean x 2 cores / tps_mean). CPU per
# transaction, not TPS: the lab's TPS was CPU-starved by other work on the VM, its CPU time per
# transaction much less so. The 256 MiB fit point is left out of the fit on purpose: its extra
# CPU is the I/O path's, whose costs are measured (page_read_cpu, page_write_cpu,
# context_switch), so it checks them instead (the validation table's cpu row).
#
#   bash scenarios/lab/fit.sh [DDLSIM]      # ~1 min; prints s and the constants
#
# The model's CPU per transaction is affine in s; two runs per point give the line, and s is
# the least-squares solution of (a_i + b_i s) / m_i = 1 over the two points.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-}
if [ -z "$bin" ]; then bin=$(mktemp -d)/ddlsim; go build -o "$bin" ./cmd/ddlsim; fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
measured() { # run name -> mariadbd CPU microseconds per transaction
  awk -F, -v run="$1" 'NR==1{for(i=1;i<=NF;i++)c[$i]=i; next}
    $c["run"]==run {printf "%.6f\n", $c["mysqld_cpu_util_mean"]*2e6/$c["tps_mean"]}' lab/results/baseline/runs.csv
}
simulated() { # scale pool -> server CPU microseconds per transaction
  local s=$1 pool=$2 d="$out/$1-$2"
  "$bin" run --quiet --out "$d" scenarios/lab/baseline-a.yaml --set mysql.innodb_buffer_pool_size="$pool" \
    --set hardware.costs.page_hit="$(awk -v s="$s" 'BEGIN{printf "%.3fns", 250*s}')" \
    --set hardware.costs.row="$(awk -v s="$s" 'BEGIN{printf "%.3fns", 400*s}')" \
    --set hardware.costs.statement="$(awk -v s="$s" 'BEGIN{printf "%.3fns", 96000*s}')" \
    --set hardware.costs.commit="$(awk -v s="$s" 'BEGIN{printf "%.3fns", 10000*s}')" > /dev/null
  awk -F, 'NR==1{for(i=1;i<=NF;i++)c[$i]=i; next} {t+=$c["tps"]; u+=$c["server_cpu_util"]; n++}
    END{printf "%.6f\n", u/n*2e6/(t/n)}' "$d/series.csv"
}
s0=0.28 s1=0.34
num=0 den=0
for p in "1GiB d8x1M-1G" "4GiB d8x1M-4G"; do
  set -- $p
  m=$(measured "$2"); y0=$(simulated $s0 "$1"); y1=$(simulated $s1 "$1")
  b=$(awk -v y0="$y0" -v y1="$y1" -v s0=$s0 -v s1=$s1 'BEGIN{print (y1-y0)/(s1-s0)}')
  a=$(awk -v y0="$y0" -v b="$b" -v s0=$s0 'BEGIN{print y0-b*s0}')
  echo "$2: measured $m us/txn; model $y0 at s=$s0, $y1 at s=$s1"
  num=$(awk -v n="$num" -v a="$a" -v b="$b" -v m="$m" 'BEGIN{print n + (b/m)*(1-a/m)}')
  den=$(awk -v d="$den" -v b="$b" -v m="$m" 'BEGIN{print d + (b/m)^2}')
done
awk -v n="$num" -v d="$den" 'BEGIN{s=n/d; printf "s = %.4f: page_hit %.0fns, row %.0fns, statement %.1fus, commit %.2fus\n", s, 250*s, 400*s, 96*s, 10*s}'
