#!/usr/bin/env python3
"""Linear algebra, gcalc vs NumPy on this machine, same run (issue 18's CPU
workloads): prints times and ratios (target: each <= 1.0x NumPy's time).

gcalc's side is a program run by the real binary that times its own loop
with `time { ... }` after a warm-up (best of REPS); NumPy's is timeit on the
same float64 data sizes. NumPy's BLAS/LAPACK build is printed (OpenBLAS or
MKL decides what "NumPy's time" means)."""
import subprocess
import sys
import timeit

import numpy as np

GCALC = sys.argv[1] if len(sys.argv) > 1 else "target/release/gcalc"
REPS = 3


def gcalc_time(setup, stmt, n):
    code = f"""
set device = cpu
set floatX = float64
{setup}
for i in range(1) {{ {stmt} }}
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


def numpy_time(env, stmt, n):
    stmt(env)
    return min(timeit.repeat(lambda: stmt(env), number=n, repeat=REPS)) / n


def blas_name():
    try:
        cfg = np.show_config(mode="dicts")
        b = cfg["Build Dependencies"]["blas"]
        return f"{b.get('name')} {b.get('version')}"
    except Exception:
        return "unknown"


def main():
    rng = np.random.default_rng(0)
    L = np.linalg
    cases = [
        # name, gcalc setup, gcalc stmt, numpy env, numpy stmt, iterations
        ("solve 2048", "seed(1); a = randn((2048, 2048)) + 50 * eye(2048); b = randn((2048, 1))", "r = solve(a, b)",
         {"a": rng.standard_normal((2048, 2048)) + 50 * np.eye(2048), "b": rng.standard_normal((2048, 1))},
         lambda e: L.solve(e["a"], e["b"]), 2),
        ("inv 1024", "seed(1); a = randn((1024, 1024)) + 30 * eye(1024)", "r = inv(a)",
         {"a": rng.standard_normal((1024, 1024)) + 30 * np.eye(1024)}, lambda e: L.inv(e["a"]), 3),
        ("svd 1024", "seed(1); a = randn((1024, 1024))", "u, s, vh = svd(a)",
         {"a": rng.standard_normal((1024, 1024))}, lambda e: L.svd(e["a"]), 1),
        ("eigh 1024", "seed(1); b = randn((1024, 1024)); a = b + b.T", "w, v = eigh(a)",
         {"a": (lambda b: b + b.T)(rng.standard_normal((1024, 1024)))}, lambda e: L.eigh(e["a"]), 1),
        ("cholesky 4096", "seed(1); b = randn((4096, 4096)); a = b @ b.T + 4096 * eye(4096)", "r = cholesky(a)",
         {"a": (lambda b: b @ b.T + 4096 * np.eye(4096))(rng.standard_normal((4096, 4096)))},
         lambda e: L.cholesky(e["a"]), 1),
        ("lstsq 4096x256", "seed(1); a = randn((4096, 256)); b = randn(4096)", "r = lstsq(a, b)",
         {"a": rng.standard_normal((4096, 256)), "b": rng.standard_normal(4096)},
         lambda e: L.lstsq(e["a"], e["b"]), 3),
        ("einsum bij,bjk->bik 64x256x256", "seed(1); a = randn((64, 256, 256)); b = randn((64, 256, 256))",
         "r = einsum(\"bij,bjk->bik\", a, b)",
         {"a": rng.standard_normal((64, 256, 256)), "b": rng.standard_normal((64, 256, 256))},
         lambda e: np.einsum("bij,bjk->bik", e["a"], e["b"], optimize=True), 3),
    ]
    print(f"NumPy {np.__version__} with {blas_name()}; float64; target: gcalc/numpy <= 1.0x")
    print(f"{'case':<34} {'gcalc':>11} {'numpy':>11} {'gcalc/numpy':>12}")
    for name, gs, gst, env, nst, n in cases:
        g = gcalc_time(gs, gst, n)
        p = numpy_time(env, nst, n)
        print(f"{name:<34} {g * 1e3:>8.1f} ms {p * 1e3:>8.1f} ms {g / p:>11.2f}x", flush=True)


if __name__ == "__main__":
    main()
