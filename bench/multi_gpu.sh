#!/usr/bin/env bash
# The multi-GPU benchmark (issue 22), gcalc and PyTorch side by side in one
# run on a multi-GPU host: all_reduce bus bandwidth and peer copy bandwidth
# (docs/SCALE.md), then the data-parallel example's steps/s on 1, 2, 4, 8 GPUs.
# Usage: bash bench/multi_gpu.sh [path/to/gcalc] (python3 with torch for the reference).
set -euo pipefail
cd "$(dirname "$0")/.."
export NCCL_NVLS_ENABLE=0
GCALC=${1:-target/release/gcalc}
"$GCALC" bench/multi_gpu.gcalc
python3 bench/multi_gpu_torch.py || echo "TORCH: not run (python3 with torch needed)"
"$GCALC" examples/data_parallel.gcalc
