#!/usr/bin/env bash
# lab/probe/fscost/run.sh [OUTDIR]: file-system call costs on the lab's filesystem (issue 22,
# docs/mariadb-write-path.md §5). Writes to OUTDIR (default lab/results/machine/):
#   fscost-raw.tsv   one row per timed call (test, size_mib, rep, call, wall_us, cpu_us, extents)
#   fscost.tsv       medians per (test, size, call) and the fixed + per-MiB fit (fscost -summary)
# Each measuring call runs under cpu-exclusive (nothing else computes meanwhile) and lasts at
# most a few minutes; FSCOST_DIR (default /var/tmp, the lab's LAB_TMPDIR) is the filesystem.
# The files it builds (up to 4 GiB, one at a time) are removed as it goes.
set -euo pipefail
DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$DIR/../../.." && pwd)
OUT=${1:-$REPO/lab/results/machine}
FSDIR=${FSCOST_DIR:-/var/tmp}
EXCL=${CPU_EXCLUSIVE:-/work/bin/cpu-exclusive}
[ -x "$EXCL" ] || EXCL=
mkdir -p "$OUT"
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
(cd "$REPO" && go build -o "$BIN/fscost" ./lab/probe/fscost)
RAW=$OUT/fscost-raw.tsv
{
  printf '# made by lab/probe/fscost/run.sh (fscost: each call timed alone; wall = monotonic clock,\n'
  printf '# cpu = the calling thread'"'"'s CLOCK_THREAD_CPUTIME_ID; files built as InnoDB builds a tablespace)\n'
  printf '# fscost on %s: %s\n' "$FSDIR" "$(findmnt -n -o SOURCE,FSTYPE,OPTIONS -T "$FSDIR" 2>/dev/null || echo unknown)"
  printf '# kernel %s; block device rotational=%s; %s\n' "$(uname -r)" \
    "$(cat /sys/block/vda/queue/rotational 2>/dev/null || echo '?')" "$(date -u +%FT%TZ)"
  printf 'test\tsize_mib\trep\tcall\twall_us\tcpu_us\textents\n'
} >"$RAW"
run() { timeout 600 $EXCL "$BIN/fscost" -dir "$FSDIR" "$@" >>"$RAW"; }
run -sizes 1,4,16,64,256,1024 -reps 5 unlink
run -sizes 2048,4096 -reps 5 unlink
run -sizes 1,4,16,64,256,1024 -reps 5 unlink-open
run -sizes 2048,4096 -reps 5 unlink-open
run -sizes 16,256,1024 -reps 10 extend-falloc extend-write
run -reps 10 create fsync-new rename
run -sizes 1,16,256,1024,4096 -reps 5 -fill=false unlink-open
"$BIN/fscost" -summary "$RAW" >"$OUT/fscost.tsv"
cat "$OUT/fscost.tsv"
