#!/usr/bin/env bash
# Run the example campaign on the embedded defaults (SQLite store, Maildir mail).
# Reports are written under demo-out/ (or the directory given as the first argument).
set -euo pipefail
cd "$(dirname "$0")/.."
# Map pictures need the Cairo library (present on most machines).
if ! ldconfig -p | grep -q libcairo.so.2; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends libcairo2 >/dev/null
fi
PBEM_EXTRAS=test bash scripts/setup.sh
OUT=${1:-demo-out}
.venv/bin/pbem demo --out "$OUT"
.venv/bin/pbem verify ratio-demo --home "$OUT/home"
