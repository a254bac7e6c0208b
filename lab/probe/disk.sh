#!/usr/bin/env bash
# lab/probe/disk.sh OUTDIR: the virtual disk under the lab's datadir, measured with fio (Debian's
# fio package; lib/install.sh installs it). All I/O is O_DIRECT on a 4 GiB file in
# ${LAB_TMPDIR:-/var/tmp} (the filesystem the lab's MariaDB datadir lives on), 16 KiB = one InnoDB
# page. Each test is bounded by --runtime and a timeout. Writes OUTDIR/fio-<test>.json and, via
# lab/probe/fiosum, OUTDIR/disk.tsv (one row per test and quantile).
set -euo pipefail
OUT=${1:?usage: disk.sh OUTDIR}
mkdir -p "$OUT"
DIR=$(mktemp -d "${LAB_TMPDIR:-/var/tmp}/ddlsim-fio.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
F="$DIR/fio.dat"
PCT=1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99
: "${FIO_RUNTIME:=30}"
: "${FIO_SHORT:=15}"

common=(--filename="$F" --size=4g --direct=1 --group_reporting --output-format=json
  --lat_percentiles=1 --percentile_list="$PCT" --time_based --randrepeat=0)

run() {
  local name=$1 secs=$2
  shift 2
  echo "fio $name ($secs s)" >&2
  timeout $((secs + 300)) fio --name="$name" "${common[@]}" --runtime="$secs" "$@" >"$OUT/fio-$name.json"
}

# lay the file out once (written, not sparse)
timeout 600 fio --name=layout --filename="$F" --size=4g --rw=write --bs=1m --direct=1 \
  --output-format=terse >/dev/null
run randread-qd1 "$FIO_RUNTIME" --rw=randread --bs=16k --ioengine=psync --iodepth=1
run randwrite-qd1 "$FIO_RUNTIME" --rw=randwrite --bs=16k --ioengine=psync --iodepth=1
# one 16 KiB O_DIRECT write, then fsync, repeated: the "sync" latency is the fsync's alone
run randwrite-fsync "$FIO_RUNTIME" --rw=randwrite --bs=16k --ioengine=psync --iodepth=1 --fsync=1
# redo-log-like: sequential 16 KiB writes, each followed by fdatasync
run seqwrite-fdatasync "$FIO_SHORT" --rw=write --bs=16k --ioengine=psync --iodepth=1 --fdatasync=1
for qd in 4 16 32; do
  run "randread-qd$qd" "$FIO_SHORT" --rw=randread --bs=16k --ioengine=libaio --iodepth="$qd"
done
run randwrite-qd16 "$FIO_SHORT" --rw=randwrite --bs=16k --ioengine=libaio --iodepth=16
run seqread-1m "$FIO_SHORT" --rw=read --bs=1m --ioengine=libaio --iodepth=8
run seqwrite-1m "$FIO_SHORT" --rw=write --bs=1m --ioengine=libaio --iodepth=8
