#!/usr/bin/env bash
# Loop graphs on the GPU host (issue 21), the short check to run before the
# whole `bash .gpu/run`: the replay tests (`bin/gpu loop_graphs`), the replay
# decisions on the three training loops (GCALC_LOOP_GRAPHS_DEBUG=1, counted),
# then logreg (10,000 steps) with `loop_graphs` off and on against JAX's jitted
# step, ROUNDS rounds taken in turn, and the MLP / softmax regression loops
# (bench/small_models/run.sh, which runs gcalc with and without loop graphs).
#   bash .gpu/bench/loop_graphs.sh [ROUNDS]
here="$(cd "$(dirname "$0")" && pwd)"
bin="${GCALC_BIN_DIR:-$here/../bin}"
rounds=${1:-3}
[ -f "$here/../unpack.sh" ] && . "$here/../unpack.sh" "$bin"
[ -f "$here/../cuda-env.sh" ] && . "$here/../cuda-env.sh"
export GCALC_REQUIRE_GPU=1
fail=0
tmp=$(mktemp -d)
echo "== bin/gpu loop_graphs"
"$bin/gpu" loop_graphs --nocapture --test-threads=1 >"$tmp/tests" 2>&1 || { fail=1; echo "FAILED: loop_graphs tests"; }
tail -40 "$tmp/tests"
# logreg: 20 warm-up steps, then 10,000 timed with `time {}` (it syncs).
sed -e 's/^seed(0)/set device = gpu\nseed(0)/' \
    -e '/^for i in range(10000) {/,/^}$/ { s/^for i in range(10000) {/for i in range(20) { gw, gb = step(w, b); w -= 0.1 * gw; b -= 0.1 * gb }\nt = time { for i in range(10000) {/; s/^}$/} }\nprint("GCALC logreg_10k_steps_gpu", t * 1e6)/ }' \
    "$here/logreg.gcalc" >"$tmp/lr.gcalc"
sed -e 's/^set device = gpu/set device = gpu\nset loop_graphs = true/' \
    -e 's/logreg_10k_steps_gpu/logreg_10k_steps_gpu_graphs/' "$tmp/lr.gcalc" >"$tmp/lrg.gcalc"
sed -i -e 's/^set device = gpu/set device = gpu\nset loop_graphs = false/' "$tmp/lr.gcalc"
for m in mlp softmax_reg; do
  { echo "set device = gpu"; echo "set loop_graphs = true"; cat "$here/small_models/$m.gcalc"; } >"$tmp/$m.gcalc"
done
for p in lrg mlp softmax_reg; do
  echo "== replay decisions: $p (GCALC_LOOP_GRAPHS_DEBUG=1, counted)"
  GCALC_LOOP_GRAPHS_DEBUG=1 "$bin/gcalc" "$tmp/$p.gcalc" 2>&1 | sed -e 's/[0-9]\+/N/g' | sort | uniq -c | sort -rn | head -12
done
echo "== logreg 10k steps, ${rounds} rounds (us)"
for _ in $(seq "$rounds"); do
  "$bin/gcalc" "$tmp/lr.gcalc" 2>&1 | grep '^GCALC'
  "$bin/gcalc" "$tmp/lrg.gcalc" 2>&1 | grep '^GCALC'
  PYTHONUNBUFFERED=1 python3 "$here/logreg_gpu_ref.py" 10000 jax 2>/dev/null | grep '^REF'
done | tee "$tmp/log"
python3 - "$tmp/log" <<'P'
import sys
r = {}
for line in open(sys.argv[1]):
    p = line.split()
    r.setdefault(p[1] if p[0] == "GCALC" else p[1] + "_" + p[2], []).append(float(p[-1]))
med = lambda v: sorted(v)[len(v) // 2]
j = r.get("jax_logreg_10k_steps_gpu")
for k in ("logreg_10k_steps_gpu", "logreg_10k_steps_gpu_graphs"):
    if k in r and j:
        print("%-30s gcalc/JAX per round: %s  median %.2fx" % (k, " ".join("%.2f" % (a / b) for a, b in zip(r[k], j)), med(r[k]) / med(j)))
P
echo "== small models"
GCALC="$bin/gcalc" bash "$here/small_models/run.sh" gpu "$rounds" || fail=1
rm -rf "$tmp"
exit $fail
