#!/usr/bin/env python3
"""gcalc's CPU ops against NumPy on this machine: one command, one table.

Runs the release example runtime/examples/bench_ops.rs (the op layer's Rust
API) and NumPy (timeit, best of several) on the same sizes, and prints
`op | gcalc | numpy | ratio` (ratio = gcalc time / numpy time; for matmul the
GFLOP/s are shown and the ratio is gcalc/numpy GFLOP/s).

Usage: python3 bench/cpu_vs_numpy.py   (CARGO_TARGET_DIR is honoured)
"""
import os
import subprocess
import sys
import timeit

try:
    import numpy as np
except ImportError:
    subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "numpy"])
    import numpy as np

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = subprocess.run(
    ["cargo", "run", "-q", "--release", "-p", "gcalc-runtime", "--example", "bench_ops"],
    cwd=root, check=True, capture_output=True, text=True,
).stdout
g = {k: float(v) for k, v in (line.split() for line in out.strip().splitlines())}


def best(stmt, number, repeat=7):
    return min(timeit.repeat(stmt, number=number, repeat=repeat)) / number


rng = np.random.default_rng(0)
n = 10_000_000
x = rng.random(n, dtype=np.float32)
y = rng.random(n, dtype=np.float32)
a = rng.random((1024, 1024), dtype=np.float32)
b = rng.random((1024, 1024), dtype=np.float32)
s = rng.random(1024, dtype=np.float32)

npt = {
    "exp_10M_f32": best(lambda: np.exp(x), 3),
    "sum_10M_f32": best(lambda: x.sum(), 3),
    "matmul_1024_f32": best(lambda: a @ b, 3),
    "fused_exp_z2_y_10M_f32": best(lambda: np.exp(x + 2) * y, 3),
    "small_exp_1024_f32": best(lambda: np.exp(s), 20000),
}

flop = 2 * 1024**3
rows = [
    ("exp 10M f32", "exp_10M_f32", "<= 1.0"),
    ("sum 10M f32", "sum_10M_f32", "<= 1.0"),
    ("matmul 1024 f32 (GFLOP/s)", "matmul_1024_f32", ">= 0.8"),
    ("exp(z + 2) * y 10M f32", "fused_exp_z2_y_10M_f32", "<= 0.5"),
    ("r = exp(s) 1024 f32 /iter", "small_exp_1024_f32", "<= 2 us"),
]


def fmt(t):
    return f"{t * 1e6:.2f} us" if t < 1e-3 else f"{t * 1e3:.3f} ms"


print(f"{'op':<28} | {'gcalc':>12} | {'numpy':>12} | {'ratio':>6} | target")
print("-" * 76)
for label, key, target in rows:
    gt, nt = g[key], npt[key]
    if key.startswith("matmul"):
        gg, ng = flop / gt / 1e9, flop / nt / 1e9
        print(f"{label:<28} | {gg:>12.1f} | {ng:>12.1f} | {gg / ng:>6.2f} | {target}")
    else:
        print(f"{label:<28} | {fmt(gt):>12} | {fmt(nt):>12} | {gt / nt:>6.2f} | {target}")
print(f"(numpy {np.__version__}, {os.cpu_count()} cpus; ratio = gcalc/numpy time, GFLOP/s for matmul)")
