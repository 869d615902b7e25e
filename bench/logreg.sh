#!/usr/bin/env bash
# The logreg target program (examples/logreg.gcalc: N=400, feats=784, 10,000
# steps) with gcalc's grad against NumPy with a hand-written gradient, in the
# same run; prints both times and the ratio (gcalc / NumPy; <= 1 is the target).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p gcalc >&2
python3 -c 'import numpy' 2>/dev/null || python3 -m pip install -q numpy >&2
np_out=$(python3 bench/logreg_numpy.py)
t0=$(date +%s.%N)
gc_out=$(target/release/gcalc examples/logreg.gcalc)
t1=$(date +%s.%N)
gc=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
np_t=$(echo "$np_out" | awk '{print $2}')
echo "$np_out"
echo "gcalc  $gc s  $gc_out (whole program, startup included)"
python3 -c "print(f'ratio gcalc/numpy {$gc / $np_t:.2f}')"
