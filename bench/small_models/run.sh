#!/usr/bin/env bash
# Issue 21's small training loops (MLP 784-256-10 batch 128, softmax regression
# 784->10 batch 400; 1,000 SGD steps with `grad`, float32) in gcalc against
# NumPy on the host CPU (hand-written gradient), JAX (whole step jitted) and
# PyTorch eager, taken in turn for ROUNDS rounds; prints each run and the
# medians with ratios (gcalc time / reference time; < 1 means gcalc is faster).
#   bash bench/small_models/run.sh [cpu|gpu] [ROUNDS]
# GCALC=path/to/gcalc picks the binary (default target/release/gcalc, or the
# GPU bundle's bin/gcalc when run from it); cpu compares with NumPy only.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dev=${1:-cpu}; rounds=${2:-3}
gcalc=${GCALC:-$here/../../target/release/gcalc}
[ -x "$gcalc" ] || gcalc="$here/../../bin/gcalc"
libs="numpy"; [ "$dev" = gpu ] && libs="numpy jax torch"
# PYTHON: an interpreter with NumPy (and JAX, PyTorch on the GPU host); here
# `PYTHON=$(bash tests/venv.sh)` gives the tests' venv.
py=${PYTHON:-python3}
log=$(mktemp)
for model in mlp softmax_reg; do
  prog=$(mktemp)
  { echo "set device = $dev"; cat "$here/$model.gcalc"; } >"$prog"
  # On the GPU also with `loop_graphs` off (statement by statement; on by
  # default, the loop is replayed as a CUDA graph).
  progg=$(mktemp)
  { echo "set device = $dev"; echo "set loop_graphs = false"; cat "$here/$model.gcalc"; } >"$progg"
  for _ in $(seq "$rounds"); do
    "$gcalc" "$prog" 2>&1 | sed -e "s/^loss/LOSS gcalc $model/" | grep -E '^(GCALC|LOSS)' >>"$log" || echo "gcalc $model failed" >&2
    if [ "$dev" = gpu ]; then
      "$gcalc" "$progg" 2>&1 | sed -e "s/^loss/LOSS gcalc_no_graphs $model/" -e "s/^GCALC/GCALC_NO_GRAPHS/" \
        | grep -E '^(GCALC|LOSS)' >>"$log" || echo "gcalc (loop_graphs = false) $model failed" >&2
    fi
    for lib in $libs; do
      PYTHONUNBUFFERED=1 "$py" "$here/ref.py" "$model" "$lib" 2>/dev/null | grep -E '^(REF|LOSS)' >>"$log" || true
    done
  done
  rm -f "$prog" "$progg"
done
"$py" - "$log" "$dev" <<'P'
import sys
runs, losses = {}, {}
for line in open(sys.argv[1]):
    p = line.split()
    if p[0] in ("GCALC", "GCALC_NO_GRAPHS"):
        runs.setdefault((p[1], p[0].lower()), []).append(float(p[2]))
    elif p[0] == "REF" and p[2] != "error" and len(p) >= 4:
        runs.setdefault((p[2], p[1]), []).append(float(p[3]))
    elif p[0] == "REF":
        print("reference failed:", line.strip())
    elif p[0] == "LOSS":
        losses.setdefault((p[2], p[1]), p[3])
med = lambda v: sorted(v)[len(v) // 2]
print("device %s; wall time of 1,000 steps after 20 warm-up steps, ms (each round, then the median)" % sys.argv[2])
for model in ("mlp_1k_steps", "softmax_reg_1k_steps"):
    g = runs.get((model, "gcalc"))
    for lib in ("gcalc", "gcalc_no_graphs", "numpy", "jax", "torch"):
        v = runs.get((model, lib))
        if not v:
            continue
        gg = runs.get((model, "gcalc_no_graphs"))
        ratio = "  gcalc/%s %.2fx" % (lib, med(g) / med(v)) if g and not lib.startswith("gcalc") else ""
        if gg and not lib.startswith("gcalc"):
            ratio += "  no_graphs/%s %.2fx" % (lib, med(gg) / med(v))
        loss = losses.get((model.replace("_1k_steps", ""), lib), "-")
        print("%-22s %-12s %s  median %8.2f%s  (final loss %s)" % (model, lib, " ".join("%8.2f" % (x / 1e3) for x in v), med(v) / 1e3, ratio, loss))
P
rm -f "$log"
