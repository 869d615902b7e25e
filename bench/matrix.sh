#!/usr/bin/env bash
# CPU benchmark matrix (issue 20): reductions x axis x layout x dtype x size and
# the matmul table, gcalc against NumPy (the tests' venv), ratios side by side.
# Arguments go to bench/cpu_matrix.py (e.g. --sizes 1e5 --ops sum,max).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p gcalc >&2
py="$(bash tests/venv.sh)"
"$py" bench/cpu_matrix.py --gcalc target/release/gcalc "$@"
