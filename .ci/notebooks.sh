#!/usr/bin/env bash
# Executes notebooks/*.ipynb headlessly on results ddlsim produces here, and fails if any cell
# fails or an executed notebook holds no image output (.ci/nb-images.py: a notebook that runs
# but draws nothing passes a cells-only check). policy-comparison runs twice: on 3 seeds and on
# 1 seed (no confidence interval). Installs Debian's Jupyter, pandas, matplotlib and scipy when
# missing. The notebooks in the repository keep their outputs cleared; executed copies go to a
# temp dir and are discarded.
#
# Run from anywhere: bash .ci/notebooks.sh
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/ddlsim-notebooks.XXXXXX)
trap 'rm -rf "$work"' EXIT

if ! command -v jupyter-nbconvert >/dev/null || ! /usr/bin/python3 -c 'import pandas, matplotlib, scipy, ipykernel' 2>/dev/null; then
  echo "== notebooks: installing jupyter-nbconvert, pandas, matplotlib, scipy, ipykernel"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >/dev/null
  apt-get install -y -q --no-install-recommends jupyter-nbconvert python3-pandas python3-matplotlib python3-scipy python3-ipykernel >/dev/null
fi

cd "$repo"
# Debian's Jupyter runs /usr/bin/python3; a python3 earlier on PATH (pyenv) lacks its packages.
echo "== notebooks: producing results with ddlsim"
go build -o "$work/ddlsim" ./cmd/ddlsim
"$work/ddlsim" compare scenarios/sweeps/tiny.yaml --policies fullscan,lazy,indexed --seeds 3 --out "$work/compare" >/dev/null
"$work/ddlsim" compare scenarios/sweeps/tiny.yaml --policies fullscan,indexed --seeds 1 --out "$work/compare-1seed" >/dev/null
"$work/ddlsim" sweep scenarios/sweeps/ci-small.yaml --shard 0/1 --out "$work/sweep" >/dev/null

# The notebooks choose their own backend (%matplotlib inline); none is forced here.
unset MPLBACKEND
status=0
for nb in notebooks/*.ipynb; do
  # The committed notebooks must have their outputs cleared.
  if /usr/bin/python3 - "$nb" <<'PY'
import json, sys
nb = json.load(open(sys.argv[1]))
sys.exit(any(c.get("outputs") or c.get("execution_count") for c in nb["cells"] if c["cell_type"] == "code"))
PY
  then :; else echo "== notebooks: FAIL: $nb has outputs; clear them before committing" >&2; status=1; fi
done

# execute NAME NOTEBOOK VAR=VALUE...: runs the notebook with the environment given.
execute() {
  local name=$1 nb=$2; shift 2
  local start=$SECONDS
  if env "$@" jupyter-nbconvert --to notebook --execute --ExecutePreprocessor.timeout=300 \
      --output-dir "$work/executed" --output "$name" "$nb" >"$work/log" 2>&1; then
    echo "== notebooks: ran  $nb ($name, $((SECONDS - start)) s)"
  else
    echo "== notebooks: FAIL $nb ($name)" >&2
    tail -40 "$work/log" >&2
    status=1
  fi
}
execute policy-comparison       notebooks/policy-comparison.ipynb DDLSIM_COMPARE_DIR="$work/compare"
execute policy-comparison-1seed notebooks/policy-comparison.ipynb DDLSIM_COMPARE_DIR="$work/compare-1seed"
execute sweep-analysis          notebooks/sweep-analysis.ipynb    DDLSIM_SWEEP_DIR="$work/sweep"
for nb in notebooks/*.ipynb; do
  case " policy-comparison sweep-analysis " in
    *" $(basename "$nb" .ipynb) "*) ;;
    *) execute "$(basename "$nb" .ipynb)" "$nb" DDLSIM_COMPARE_DIR="$work/compare" DDLSIM_SWEEP_DIR="$work/sweep" ;;
  esac
done

# Every executed notebook must hold a figure.
/usr/bin/python3 .ci/nb-images.py "$work"/executed/*.ipynb || status=1
exit $status
