#!/usr/bin/env bash
# Set up this checkout: a virtual environment in .venv with pbem and what its tests need.
# Used by scripts/demo.sh and scripts/test.sh; safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
log=$(mktemp)
if ! .venv/bin/python -m pip install --quiet -e ".[${PBEM_EXTRAS:-test}]" >"$log" 2>&1; then
    grep -v "is ignored" "$log" >&2
    echo "setup: pip install failed" >&2
    exit 1
fi
rm -f "$log"
