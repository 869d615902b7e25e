"""The logreg target program (examples/logreg.gcalc) in NumPy with a
hand-written gradient: the baseline gcalc's grad must match or beat on the CPU.
Same sizes, dtype (float32, gcalc's floatX), learning rate and steps.
Prints two loops: `numpy` (the first hand-written loop) and `numpy-tight`
(issue 20's tightest loop a user would write: one fused-looking line per
quantity, in-place updates)."""
import sys
import time

import numpy as np

N, FEATS = 400, 784
STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 10000

rng = np.random.default_rng(0)
D0 = rng.standard_normal((N, FEATS), dtype=np.float32)
D1 = rng.integers(0, 2, N).astype(np.float32)
w = (rng.standard_normal(FEATS, dtype=np.float32) * np.float32(0.01)).astype(np.float32)
b = np.float32(0.0)

t0 = time.perf_counter()
for _ in range(STEPS):
    p1 = 1.0 / (1.0 + np.exp(-(D0 @ w + b)))
    d = p1 - D1
    gw = D0.T @ d * np.float32(1.0 / N) + np.float32(0.02) * w
    gb = d.mean()
    w -= np.float32(0.1) * gw
    b -= np.float32(0.1) * gb
t = time.perf_counter() - t0
acc = np.mean(((1.0 / (1.0 + np.exp(-(D0 @ w + b)))) > 0.5) == D1)
print(f"numpy  {t:.3f} s  training accuracy {acc}")

X, y = D0, D1
w = (rng.standard_normal(FEATS, dtype=np.float32) * np.float32(0.01)).astype(np.float32)
b = np.float32(0.0)
t0 = time.perf_counter()
for _ in range(STEPS):
    p = 1 / (1 + np.exp(-(X @ w + b)))
    g = (p - y) / N
    w -= np.float32(0.1) * (X.T @ g + np.float32(0.02) * w)
    b -= np.float32(0.1) * g.sum()
t = time.perf_counter() - t0
acc = np.mean(((1.0 / (1.0 + np.exp(-(X @ w + b)))) > 0.5) == y)
print(f"numpy-tight  {t:.3f} s  training accuracy {acc}")
