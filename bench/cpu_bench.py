#!/usr/bin/env python3
"""gcalc vs NumPy on this machine, same run: prints a table of times and ratios.

Each gcalc case is a program run by the real `gcalc` binary that times its own
loop with `time { ... }` after a warm-up and prints seconds per iteration; the
NumPy case is the same work timed with timeit. Targets (issue 2) are printed
beside the ratios; they are targets, not tests.
"""
import os
import subprocess
import sys
import timeit

import numpy as np

GCALC = sys.argv[1] if len(sys.argv) > 1 else "target/release/gcalc"
REPS = 5


def gcalc_time(setup, stmt, n):
    code = f"""
set device = cpu
{setup}
for i in range(3) {{ {stmt} }}
best = 1e9
for rep in range({REPS}) {{
    t = time {{ for i in range({n}) {{ {stmt} }} }}
    if t < best {{ best = t }}
}}
print(best / {n})
"""
    out = subprocess.run([GCALC, "-"], input=code, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return float(out.stdout.strip().splitlines()[-1])


def numpy_time(setup_fn, stmt_fn, n):
    env = setup_fn()
    stmt_fn(env)
    return min(timeit.repeat(lambda: stmt_fn(env), number=n, repeat=REPS)) / n


def main():
    N = 10_000_000
    rows = []

    def case(name, g_setup, g_stmt, np_setup, np_stmt, n, target, unit="s", flops=None):
        g = gcalc_time(g_setup, g_stmt, n)
        p = numpy_time(np_setup, np_stmt, n)
        rows.append((name, g, p, target, flops))

    rng = np.random.default_rng(0)
    case("exp 10M f32", "seed(1); a = rand(10000000)", "r = exp(a)",
         lambda: {"a": rng.random(N, dtype=np.float32)}, lambda e: np.exp(e["a"]), 10, "<= 1.0x")
    case("sum 10M f32", "seed(1); a = rand(10000000)", "r = sum(a)",
         lambda: {"a": rng.random(N, dtype=np.float32)}, lambda e: np.sum(e["a"]), 10, "<= 1.0x")
    case("exp(z + 2) * y 10M f32", "seed(1); z = rand(10000000); y = rand(10000000)", "r = exp(z + 2) * y",
         lambda: {"z": rng.random(N, dtype=np.float32), "y": rng.random(N, dtype=np.float32)},
         lambda e: np.exp(e["z"] + 2) * e["y"], 10, "<= 0.5x")
    case("matmul 1024 f32", "seed(1); a = rand((1024, 1024)); b = rand((1024, 1024))", "r = a @ b",
         lambda: {"a": rng.random((1024, 1024), dtype=np.float32), "b": rng.random((1024, 1024), dtype=np.float32)},
         lambda e: e["a"] @ e["b"], 10, ">= 0.8x GFLOP/s", flops=2 * 1024**3)
    case("r = exp(s), 1024 f32, per statement", "seed(1); s = rand(1024)", "r = exp(s)",
         lambda: {"s": rng.random(1024, dtype=np.float32)}, lambda e: np.exp(e["s"]), 20000, "<= 2 us")

    # Issue 17 (statistics and scans): each <= 1.0x NumPy's time.
    case("cumsum 10M f32", "seed(1); a = rand(10000000)", "r = cumsum(a)",
         lambda: {"a": rng.random(N, dtype=np.float32)}, lambda e: np.cumsum(e["a"]), 5, "<= 1.0x")
    case("median 10M f32", "seed(1); a = rand(10000000)", "r = median(a)",
         lambda: {"a": rng.random(N, dtype=np.float32)}, lambda e: np.median(e["a"]), 5, "<= 1.0x")
    case("histogram 10M f32, 100 bins", "seed(1); a = rand(10000000)", "r = histogram(a, bins=100)",
         lambda: {"a": rng.random(N, dtype=np.float32)}, lambda e: np.histogram(e["a"], bins=100), 5, "<= 1.0x")

    def np_softmax(x):
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    case("softmax rows of 4096x4096 f32", "seed(1); a = rand((4096, 4096))", "r = softmax(a, axis=1)",
         lambda: {"a": rng.random((4096, 4096), dtype=np.float32)}, lambda e: np_softmax(e["a"]), 5, "<= 1.0x")
    # Sorting and searching (issue 17): NumPy 2 sorts with x86-simd-sort (AVX-512).
    case("sort 10M f32", "seed(1); a = rand(10000000)", "r = sort(a)",
         lambda: {"a": rng.random(N, dtype=np.float32)}, lambda e: np.sort(e["a"]), 3, "<= 1.0x")
    case("argsort 10M f32", "seed(1); a = rand(10000000)", "r = argsort(a)",
         lambda: {"a": rng.random(N, dtype=np.float32)}, lambda e: np.argsort(e["a"]), 3, "<= 1.0x")
    case("unique 10M int64 (1M distinct)", "seed(1); a = randint(0, 1000000, 10000000)", "r = unique(a)",
         lambda: {"a": rng.integers(0, 1_000_000, N)}, lambda e: np.unique(e["a"]), 3, "<= 1.0x")

    start = subprocess.run(["python3", "-c", f"""
import subprocess, time
ts = []
for i in range(20):
    t = time.perf_counter(); subprocess.run([{GCALC!r}, '-e', '1+1'], capture_output=True); ts.append(time.perf_counter() - t)
ts.sort(); print(ts[len(ts)//2])
"""], capture_output=True, text=True)
    start_s = float(start.stdout.strip())

    print(f"{'case':<40} {'gcalc':>12} {'numpy':>12} {'gcalc/numpy':>12}   target")
    for name, g, p, target, flops in rows:
        if flops:
            print(f"{name:<40} {flops / g / 1e9:>8.1f} GF/s {flops / p / 1e9:>8.1f} GF/s {(flops / g) / (flops / p):>11.2f}x   {target}")
        else:
            print(f"{name:<40} {g * 1e3:>9.3f} ms {p * 1e3:>9.3f} ms {g / p:>11.2f}x   {target}")
    label = 'gcalc -e "1+1" start to exit'  # no backslash inside the f-string (Python < 3.12)
    print(f"{label:<40} {start_s * 1e3:>9.2f} ms {'':>12} {'':>12}   <= 20 ms")


if __name__ == "__main__":
    main()
