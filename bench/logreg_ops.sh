#!/usr/bin/env bash
# The pieces of the logreg step (bench/logreg_ops.gcalc) against the same ops in
# NumPy, in the same run: microseconds per call and the ratio gcalc/NumPy. The
# NumPy "step" is the hand-written gradient, gcalc's is grad(cost, (0, 1)).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p gcalc >&2
python3 -c 'import numpy' 2>/dev/null || python3 -m pip install -q numpy >&2
gc=$(target/release/gcalc bench/logreg_ops.gcalc)
np_out=$(python3 bench/logreg_ops.py)
printf '%-16s %10s %10s %8s\n' case gcalc_us numpy_us ratio
paste <(echo "$gc" | awk '{print $NF}') <(echo "$np_out" | awk '{print $NF}') \
    <(echo "$np_out" | cut -c1-16) |
    awk -F'\t' '{printf "%-16s %10.2f %10.2f %8.2f\n", $3, $1, $2, $1 / $2}'
