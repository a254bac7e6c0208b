#!/usr/bin/env bash
# lab/run.sh PLAN [RESULTS_DIR]
#
# Runs one measurement plan (a file under lab/plans/) against a private MariaDB instance and
# writes raw outputs plus tidy CSVs to RESULTS_DIR (default lab/results/<plan name>). The whole
# plan is bounded by the "# lab-timeout: SECONDS" line of the plan file; the server is shut down
# on every exit (normal, error, timeout, Ctrl-C) and a final check makes sure that none of the
# processes this run started is left.
set -euo pipefail
LAB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$LAB_DIR/.." && pwd)

[ $# -ge 1 ] || { echo "usage: lab/run.sh PLAN [RESULTS_DIR]" >&2; exit 2; }
PLAN_FILE=$1
[ -f "$PLAN_FILE" ] || PLAN_FILE="$LAB_DIR/$1"
[ -f "$PLAN_FILE" ] || { echo "no plan $1" >&2; exit 2; }
PLAN_FILE=$(cd "$(dirname "$PLAN_FILE")" && pwd)/$(basename "$PLAN_FILE")
PLAN=$(basename "$PLAN_FILE" .sh)
RESULTS=${2:-$LAB_DIR/results/$PLAN}

if [ -z "${LAB_INNER:-}" ]; then
  limit=$(sed -n 's/^# lab-timeout: *\([0-9][0-9]*\).*/\1/p' "$PLAN_FILE" | head -1)
  limit=${LAB_TIMEOUT:-${limit:-900}}
  LAB_TMP=$(mktemp -d "${LAB_TMPDIR:-/var/tmp}/ddlsim-lab.XXXXXX")
  export LAB_TMP LAB_INNER=1
  rc=0
  timeout --kill-after=400 "$limit" bash "${BASH_SOURCE[0]}" "$@" || rc=$?
  [ "$rc" = 124 ] && echo "lab: plan $PLAN hit its time limit of $limit s" >&2
  # Final sweep: the server started by this run, by its recorded PID, and anything still
  # running from this run's temporary directory.
  if [ -f "$LAB_TMP/server.pid" ]; then
    pid=$(cat "$LAB_TMP/server.pid")
    if kill -0 "$pid" 2>/dev/null; then
      echo "lab: mariadbd $pid still running after the plan: killing it" >&2
      kill -KILL "$pid" 2>/dev/null || true
    fi
  fi
  left=$(pgrep -f "$LAB_TMP" || true)
  if [ -n "$left" ]; then
    echo "lab: processes left from this run: $left" >&2
    [ "$rc" = 0 ] && rc=1
  fi
  [ -n "${LAB_KEEP_TMP:-}" ] || rm -rf "$LAB_TMP"
  exit "$rc"
fi

# shellcheck source=lib/common.sh
. "$LAB_DIR/lib/common.sh"
. "$LAB_DIR/lib/server.sh"
. "$LAB_DIR/lib/load.sh"
. "$LAB_DIR/lib/sample.sh"
. "$LAB_DIR/lib/measure.sh"

lab_cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  lab_kill_children
  server_stop || true
  exit "$rc"
}
trap lab_cleanup EXIT
trap 'lab_log "signal: stopping"; exit 143' INT TERM

bash "$LAB_DIR/lib/install.sh" >/dev/null
mkdir -p "$RESULTS"
rm -rf "$RESULTS/runs" "$RESULTS/warmups"
mkdir -p "$RESULTS/runs" "$RESULTS/warmups"
WARMUP_SEQ=0
lab_log "plan $PLAN -> $RESULTS (tmp $LAB_TMP)"
(cd "$REPO_DIR" && timeout 600 go build -o "$LAB_TMP/tidy" ./lab/tidy) || lab_die "building lab/tidy failed"
bash "$LAB_DIR/lib/machine.sh" >"$RESULTS/machine.txt" 2>&1 || true
cp "$PLAN_FILE" "$RESULTS/plan.sh"

PLAN_T0=$EPOCHREALTIME
server_init
CUR_POOL=${LOAD_POOL:-1G}
server_start "$CUR_POOL"
# shellcheck disable=SC1090
. "$PLAN_FILE"
server_stop
awk -v a="$PLAN_T0" -v b="$EPOCHREALTIME" 'BEGIN { printf "plan_seconds\t%.0f\n", b - a }' >"$RESULTS/plan_time.tsv"
if [ -n "$(ls -A "$RESULTS/runs")" ]; then
  "$LAB_TMP/tidy" "$RESULTS"
  # a plan may add its own files from the tidy CSVs (plans/osc.sh: osc.csv)
  if declare -F plan_after_tidy >/dev/null; then plan_after_tidy; fi
else
  lab_log "no sysbench runs: nothing to tidy (the plan wrote its own files)"
fi
# Raw files are kept compressed (lab/tidy reads them as they are); LAB_GZIP=0 keeps them plain.
if [ "${LAB_GZIP:-1}" = 1 ]; then
  find "$RESULTS/runs" "$RESULTS/warmups" -type f ! -name '*.gz' ! -name meta.env ! -name ddl.tsv \
    -size +8k -exec gzip -9 {} +
fi
lab_log "plan $PLAN done in $(cut -f2 "$RESULTS/plan_time.tsv") s"
