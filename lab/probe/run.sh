#!/usr/bin/env bash
# lab/probe/run.sh [OUTDIR]: measures this machine for the hardware profile
# scenarios/profiles/lab-2c.yaml. Writes to OUTDIR (default lab/results/machine/):
#   machine.txt        lscpu, free -b, lsblk, uname, versions
#   disk.tsv           fio: 16 KiB random read / write / fsync latency quantiles, IOPS at
#                      queue depths 1-32, sequential bandwidth (lab/probe/disk.sh, fiosum)
#   fio-*.json         fio's own output
#   cpucost.tsv        CPU cost of a cached / O_DIRECT 16 KiB pread and pwrite, a context
#                      switch (lab/probe/cpucost)
#   chase.txt          go test -bench DescriptorChase ./model/bufpool/ (list node cost)
#   writecpu.tsv       CPU of O_DIRECT 16 KiB page writes (synchronous, native AIO at queue
#                      depths 1-128), sequential writes and fdatasync/fsync (lab/probe/writecpu)
# Run it on a quiet machine: nothing else (no lab plan) at the same time.
set -euo pipefail
LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REPO=$(cd "$LAB_DIR/.." && pwd)
OUT=${1:-$LAB_DIR/results/machine}
mkdir -p "$OUT"
bash "$LAB_DIR/lib/install.sh" >/dev/null
bash "$LAB_DIR/lib/machine.sh" >"$OUT/machine.txt" 2>&1 || true
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
(cd "$REPO" && go build -o "$BIN/cpucost" ./lab/probe/cpucost && go build -o "$BIN/fiosum" ./lab/probe/fiosum &&
  go build -o "$BIN/writecpu" ./lab/probe/writecpu)

echo "== disk (fio)" >&2
bash "$LAB_DIR/probe/disk.sh" "$OUT"
"$BIN/fiosum" "$OUT"/fio-*.json >"$OUT/disk.tsv"

echo "== cpu costs" >&2
TMPD=${LAB_TMPDIR:-/var/tmp}
{
  printf 'test\tvalue\tunit\tdetail\n'
  timeout 300 "$BIN/cpucost" -dir "$TMPD" pread-cached pwrite-cached pread-direct pwrite-direct
  timeout 120 taskset -c 0 "$BIN/cpucost" ctxswitch | sed 's/^ctxswitch/ctxswitch-1cpu/'
  timeout 120 "$BIN/cpucost" ctxswitch | sed 's/^ctxswitch/ctxswitch-2cpu/'
} >"$OUT/cpucost.tsv"

echo "== write cpu" >&2
timeout 600 "$BIN/writecpu" -dir "$TMPD" -file-mb 1024 -seconds 2 -reps 5 all >"$OUT/writecpu.tsv"

echo "== list node (BenchmarkDescriptorChase)" >&2
(cd "$REPO" && timeout 900 go test -run '^$' -bench DescriptorChase -count 3 ./model/bufpool/) >"$OUT/chase.txt" 2>&1
cat "$OUT/cpucost.tsv"
grep -E 'Benchmark' "$OUT/chase.txt" || true
