#!/usr/bin/env bash
# The logreg target program (examples/logreg.gcalc: N=400, feats=784, 10,000
# steps) with gcalc's grad against NumPy with a hand-written gradient, in the
# same run; prints both loop times and the ratio (gcalc / NumPy; <= 1 is the target).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p gcalc >&2
python3 -c 'import numpy' 2>/dev/null || python3 -m pip install -q numpy >&2
# The loop timed inside gcalc with `time {}`, as NumPy's loop is timed inside
# Python (setup and start-up excluded on both sides); the whole process too.
prog=$(mktemp)
sed -e '/^for i in range(10000) {/,/^}$/ { s/^for i in range(10000) {/t = time { for i in range(10000) {/; s/^}$/} }\nprint("loop", t)/ }' \
  examples/logreg.gcalc >"$prog"
np_out=$(python3 bench/logreg_numpy.py)
t0=$(date +%s.%N)
gc_out=$(target/release/gcalc "$prog")
t1=$(date +%s.%N)
rm -f "$prog"
whole=$(python3 -c "print(f'{$t1 - $t0:.3f}')")
gc=$(echo "$gc_out" | awk '/^loop/ {printf "%.3f", $2}')
acc=$(echo "$gc_out" | grep '^training accuracy')
np_t=$(echo "$np_out" | awk '{print $2}')
echo "$np_out"
echo "gcalc  $gc s  $acc (the loop; whole process $whole s)"
python3 -c "print(f'ratio gcalc/numpy {$gc / $np_t:.2f}')"
