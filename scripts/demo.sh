#!/usr/bin/env bash
# Run the example campaign on the embedded defaults (SQLite store, Maildir mail).
# Reports are written under demo-out/ (or the directory given as the first argument).
set -euo pipefail
cd "$(dirname "$0")/.."
PBEM_EXTRAS=test bash scripts/setup.sh
OUT=${1:-demo-out}
.venv/bin/pbem demo --out "$OUT"
.venv/bin/pbem verify ratio-demo --home "$OUT/home"
