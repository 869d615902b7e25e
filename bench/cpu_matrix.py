#!/usr/bin/env python3
"""CPU benchmark matrix (issue 20): gcalc against NumPy on this machine, same run.

Reductions x axis (0, 1, -1, all, (0,2)) x layout (C, transposed, sliced)
x dtype (f32, f64, int64, bool) x size (1e3, 1e5, 1e7), then the matmul
table (square 256..4096 f32/f64, 4096x256 @ 256x4096, 400x784 @ 784).
Each gcalc group is one program run by the real `gcalc` binary that times
its own loops with `time { ... }` (best of REPS, after a warm-up); NumPy is
timed with timeit the same way. Prints gcalc, NumPy and gcalc/NumPy (times;
GFLOP/s for matmul, where the ratio is gcalc's rate over NumPy's).
Targets: ratio <= 1.0 at 1e5 and 1e7, <= 1.5 at 1e3; matmul >= 0.9.

Usage: python3 bench/cpu_matrix.py [--gcalc target/release/gcalc]
       [--ops sum,max] [--dtypes f32,bool] [--layouts C,T,sliced]
       [--axes 0,1,-1,all,02] [--sizes 1e3,1e5,1e7] [--no-reduce] [--no-matmul]
       [--mm-sizes 256,512,1024,2048,4096]
Run `bash bench/matrix.sh` to build the release binary and use the tests' venv.
"""
import argparse
import subprocess
import sys
import timeit

import numpy as np

REPS = 3
OPS = ["sum", "mean", "prod", "max", "min", "any", "all", "std", "var", "argmax", "argmin"]
DTYPES = {"f32": "float32", "f64": "float64", "int64": "int64", "bool": "bool"}
LAYOUTS = ["C", "T", "sliced"]
AXES = {"0": "0", "1": "1", "-1": "-1", "all": None, "02": "(0, 2)"}
SIZES = {"1e3": 1000, "1e5": 100_000, "1e7": 10_000_000}
SHAPES2 = {1000: (25, 40), 100_000: (250, 400), 10_000_000: (2500, 4000)}
SHAPES3 = {1000: (10, 10, 10), 100_000: (40, 50, 50), 10_000_000: (200, 250, 200)}


def iters(size):
    """Loop count per timing: about 0.02 s of work at 1 GB/s."""
    return max(1, 5_000_000 // size)


def run_gcalc(gcalc, code):
    out = subprocess.run([gcalc, "-"], input=code, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr + out.stdout)
    res = {}
    for line in out.stdout.splitlines():
        if line.startswith("@@ "):
            _, key, t = line.split()
            res[key] = float(t)
    return res


def gcalc_block(key, stmt, n):
    return f"""
for i in range(2) {{ {stmt} }}
best = 1e9
for rep in range({REPS}) {{
    t = time {{ for i in range({n}) {{ {stmt} }} }}
    if t < best {{ best = t }}
}}
print("@@ {key}", best / {n})
"""


def np_time(stmt, n):
    stmt()
    return min(timeit.repeat(stmt, number=n, repeat=REPS)) / n


def make_np(shape, dtype, layout, rng):
    base_shape = list(shape)
    if layout == "T":
        base_shape = base_shape[::-1]
    elif layout == "sliced":
        base_shape[-1] *= 2
    v = rng.random(tuple(base_shape), dtype=np.float32)
    if dtype == "int64":
        v = (v * 100).astype(np.int64)
    elif dtype == "bool":
        v = v > 0.3
    else:
        v = v.astype(dtype)
    if layout == "T":
        return v.T
    if layout == "sliced":
        return v[..., ::2]
    return v


def make_gcalc(shape, dtype, layout):
    base_shape = list(shape)
    if layout == "T":
        base_shape = base_shape[::-1]
    elif layout == "sliced":
        base_shape[-1] *= 2
    tup = "(" + ", ".join(map(str, base_shape)) + ")"
    src = f"rand({tup})"
    if dtype == "int64":
        src = f"({src} * 100).astype(int64)"
    elif dtype == "bool":
        src = f"{src} > 0.3"
    else:
        src = f"{src}.astype({dtype})"
    view = {"C": "v", "T": "v.T", "sliced": "v[" + ", ".join([":"] * (len(shape) - 1) + ["::2"]) + "]"}[layout]
    return f"v = {src}\nx = {view}\n"


def reduce_matrix(gcalc, sel):
    rng = np.random.default_rng(0)
    print(f"{'op':<7}{'axis':>6}{'layout':>8}{'dtype':>7}{'size':>6}{'gcalc':>12}{'numpy':>12}{'ratio':>8}")
    for size_name in sel.sizes:
        size = SIZES[size_name]
        n = iters(size)
        for dtype_name in sel.dtypes:
            dtype = DTYPES[dtype_name]
            for layout in sel.layouts:
                for three_d in (False, True):
                    axes = [a for a in sel.axes if (a == "02") == three_d]
                    if not axes:
                        continue
                    shape = (SHAPES3 if three_d else SHAPES2)[size]
                    x = make_np(shape, dtype, layout, rng)
                    code = "set device = cpu\nseed(1)\n" + make_gcalc(shape, dtype, layout)
                    cases = []
                    for op in sel.ops:
                        for ax in axes:
                            if op.startswith("arg") and ax == "02":
                                continue
                            arg = "" if AXES[ax] is None else f", axis={AXES[ax]}"
                            key = f"{op}:{ax}"
                            code += gcalc_block(key, f"r = {op}(x{arg})", n)
                            cases.append((op, ax, key))
                    g = run_gcalc(gcalc, code)
                    for op, ax, key in cases:
                        axis = None if AXES[ax] is None else eval(AXES[ax])
                        f = getattr(np, op)
                        p = np_time(lambda: f(x, axis=axis), n)
                        print(f"{op:<7}{ax:>6}{layout:>8}{dtype_name:>7}{size_name:>6}"
                              f"{g[key] * 1e3:>9.4f} ms{p * 1e3:>9.4f} ms{g[key] / p:>7.2f}x", flush=True)


def matmul_table(gcalc, sizes):
    rng = np.random.default_rng(0)
    cases = [(f"{s}x{s} @ {s}x{s}", (s, s), (s, s)) for s in sizes]
    cases += [("4096x256 @ 256x4096", (4096, 256), (256, 4096)), ("400x784 @ 784", (400, 784), (784,))]
    print(f"\n{'matmul':<24}{'dtype':>7}{'gcalc':>14}{'numpy':>14}{'ratio':>8}")
    for dtype in ("float32", "float64"):
        for name, sa, sb in cases:
            flops = 2 * np.prod(sa) * (sb[1] if len(sb) == 2 else 1)
            n = max(1, int(2e9 / flops))
            tup = lambda s: "(" + ", ".join(map(str, s)) + (",)" if len(s) == 1 else ")")
            code = (f"set device = cpu\nseed(1)\na = rand({tup(sa)}).astype({dtype})\n"
                    f"b = rand({tup(sb)}).astype({dtype})\n" + gcalc_block("mm", "r = a @ b", n))
            g = run_gcalc(gcalc, code)["mm"]
            a = rng.random(sa).astype(dtype)
            b = rng.random(sb).astype(dtype)
            p = np_time(lambda: a @ b, n)
            print(f"{name:<24}{dtype:>7}{flops / g / 1e9:>9.1f} GF/s{flops / p / 1e9:>9.1f} GF/s"
                  f"{p / g:>7.2f}x", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gcalc", default="target/release/gcalc")
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--dtypes", default=",".join(DTYPES))
    ap.add_argument("--layouts", default=",".join(LAYOUTS))
    ap.add_argument("--axes", default=",".join(AXES))
    ap.add_argument("--sizes", default=",".join(SIZES))
    ap.add_argument("--no-reduce", action="store_true")
    ap.add_argument("--no-matmul", action="store_true")
    ap.add_argument("--mm-sizes", default="256,512,1024,2048,4096", help="square matmul sizes")
    a = ap.parse_args()
    for field, allowed in (("ops", OPS), ("dtypes", DTYPES), ("layouts", LAYOUTS), ("axes", AXES), ("sizes", SIZES)):
        vals = getattr(a, field).split(",")
        bad = [v for v in vals if v not in allowed]
        if bad:
            sys.exit(f"--{field}: unknown {bad}; choose from {list(allowed)}")
        setattr(a, field, vals)
    print(f"NumPy {np.__version__}; gcalc {a.gcalc}; best of {REPS}")
    if not a.no_reduce:
        reduce_matrix(a.gcalc, a)
    if not a.no_matmul:
        matmul_table(a.gcalc, [int(v) for v in a.mm_sizes.split(",")])


if __name__ == "__main__":
    main()
