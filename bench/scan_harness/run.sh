#!/usr/bin/env bash
# Build and run the scan harness on the GPU host (nvcc, no Rust), for
# kernels/src/cuda/scan.cu and, when given, a second scan.cu to compare with
# (same hashes = bit-identical results), then torch's and CuPy's cumsum of
# 10M float32 in the same run. Usage: bash bench/scan_harness/run.sh [other_scan.cu]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
build() { nvcc -O3 -std=c++17 -arch=sm_90 -DSCAN_FILE="\"$1\"" "$here/harness.cu" -o "$2"; }
build "$root/kernels/src/cuda/scan.cu" "$tmp/main"
echo "== kernels/src/cuda/scan.cu"; "$tmp/main"
if [ $# -ge 1 ]; then
  build "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" "$tmp/other"
  echo "== $1"; "$tmp/other"
fi
python3 - <<'PY' || echo "(torch/cupy not available)"
import torch, cupy as cp
x = torch.rand(10_000_000, device="cuda")
def t(f):
    for _ in range(5): f()
    torch.cuda.synchronize()
    s = torch.cuda.Event(enable_timing=True); e = torch.cuda.Event(enable_timing=True); r = []
    for _ in range(50):
        s.record(); f(); e.record(); e.synchronize(); r.append(s.elapsed_time(e) * 1000)
    r.sort(); return r[25], r[0]
print("torch cumsum 10M f32 median/min us", t(lambda: torch.cumsum(x, 0)))
y = cp.asarray(x)
print("cupy cumsum 10M f32 median/min us", t(lambda: cp.cumsum(y)))
PY
