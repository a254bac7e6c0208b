#!/usr/bin/env bash
# Executes notebooks/*.ipynb headlessly on results ddlsim produces here, and fails if any cell
# fails. Installs Debian's Jupyter, pandas and matplotlib when missing. The notebooks in the
# repository keep their outputs cleared; executed copies go to a temp dir and are discarded.
#
# Run from anywhere: bash .ci/notebooks.sh
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/ddlsim-notebooks.XXXXXX)
trap 'rm -rf "$work"' EXIT

if ! command -v jupyter-nbconvert >/dev/null || ! /usr/bin/python3 -c 'import pandas, matplotlib, ipykernel' 2>/dev/null; then
  echo "== notebooks: installing jupyter-nbconvert, pandas, matplotlib, ipykernel"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends jupyter-nbconvert python3-pandas python3-matplotlib python3-ipykernel >/dev/null
fi

cd "$repo"
# Debian's Jupyter runs /usr/bin/python3; a python3 earlier on PATH (pyenv) lacks its packages.
echo "== notebooks: producing results with ddlsim"
go build -o "$work/ddlsim" ./cmd/ddlsim
"$work/ddlsim" compare scenarios/sweeps/tiny.yaml --policies fullscan,lazy,indexed --seeds 3 --out "$work/compare" >/dev/null
"$work/ddlsim" sweep scenarios/sweeps/ci-small.yaml --shard 0/1 --out "$work/sweep" >/dev/null

export DDLSIM_COMPARE_DIR=$work/compare DDLSIM_SWEEP_DIR=$work/sweep MPLBACKEND=Agg
status=0
for nb in notebooks/*.ipynb; do
  # The committed notebooks must have their outputs cleared.
  if /usr/bin/python3 - "$nb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
sys.exit(any(c.get("outputs") or c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"))
PY
  then :; else echo "== notebooks: FAIL: $nb has outputs; clear them before committing" >&2; status=1; fi
  if jupyter-nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 \
      --output-dir "$work/executed" "$nb" >"$work/log" 2>&1; then
    echo "== notebooks: ok   $nb"
  else
    echo "== notebooks: FAIL $nb" >&2
    tail -40 "$work/log" >&2
    status=1
  fi
done
exit $status
