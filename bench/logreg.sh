#!/usr/bin/env bash
# The logreg target program (examples/logreg.gcalc: N=400, feats=784, 10,000
# steps) with gcalc's grad against NumPy with a hand-written gradient, in the
# same run; prints both loop times and the ratio (gcalc / NumPy; <= 1 is the target).
set -euo pipefail
cd "$(dirname "$0")/.."
# GCALC=path/to/gcalc uses that binary (e.g. the GPU bundle's, on a host
# without cargo); PIN="taskset -c 0,1" pins both sides to the same cores.
gcalc=${GCALC:-target/release/gcalc}
[ -n "${GCALC:-}" ] || cargo build --release -p gcalc >&2
pin=${PIN:-}
python3 -c 'import numpy' 2>/dev/null || python3 -m pip install -q numpy >&2
# The loop timed inside gcalc with `time {}`, as NumPy's loop is timed inside
# Python (setup and start-up excluded on both sides); the whole process too.
prog=$(mktemp)
sed -e '/^for i in range(10000) {/,/^}$/ { s/^for i in range(10000) {/t = time { for i in range(10000) {/; s/^}$/} }\nprint("loop", t)/ }' \
  examples/logreg.gcalc >"$prog"
np_out=$($pin python3 bench/logreg_numpy.py)
t0=$(date +%s.%N)
gc_out=$($pin "$gcalc" "$prog")
t1=$(date +%s.%N)
rm -f "$prog"
whole=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
gc=$(echo "$gc_out" | awk '/^loop/ {printf "%.3f", $2}')
acc=$(echo "$gc_out" | grep '^training accuracy')
np_t=$(echo "$np_out" | awk '$1 == "numpy" {print $2}')
np_tight=$(echo "$np_out" | awk '$1 == "numpy-tight" {print $2}')
echo "$np_out"
echo "gcalc  $gc s  $acc (the loop; whole process $whole s)"
python3 -c "print(f'ratio gcalc/numpy {$gc / $np_t:.2f}   gcalc/numpy-tight {$gc / $np_tight:.2f} (target <= 0.8)')"
