"""The pieces of the logreg step in NumPy, timed like bench/logreg_ops.gcalc
(best of 7 runs of 300 calls, microseconds), for bench/logreg_ops.sh."""
import timeit

import numpy as np

rng = np.random.default_rng(0)
A = rng.standard_normal((400, 784), dtype=np.float32)
w = rng.standard_normal(784, dtype=np.float32) * np.float32(0.01)
d = rng.standard_normal(400, dtype=np.float32)
a = rng.random(400, dtype=np.float32) * np.float32(0.98) + np.float32(0.01)
b2 = rng.standard_normal(400, dtype=np.float32)
D1 = rng.integers(0, 2, 400).astype(np.float32)


def cost():
    p1 = 1.0 / (1.0 + np.exp(-(A @ w)))
    xent = -D1 * np.log(p1) - (1 - D1) * np.log(1 - p1)
    return xent.mean() + np.float32(0.01) * (w**2).sum()


def step():
    p1 = 1.0 / (1.0 + np.exp(-(A @ w)))
    g = p1 - D1
    return A.T @ g * np.float32(1.0 / 400) + np.float32(0.02) * w, g.mean()


CASES = {
    "A @ w": lambda: A @ w,
    "A.T @ d": lambda: A.T @ d,
    "w ** 2": lambda: w**2,
    "w * w": lambda: w * w,
    "sigmoid(a + b2)": lambda: 1.0 / (1.0 + np.exp(-(a + b2))),
    "exp(a)": lambda: np.exp(a),
    "log(abs(a))": lambda: np.log(np.abs(a)),
    "xent": lambda: -a * np.log(np.abs(a)) - (1 - a) * np.log(np.abs(1 - a)),
    "cost(w, 0.0)": cost,
    "step(w, 0.0)": step,
}
for name, f in CASES.items():
    t = min(timeit.repeat(f, number=300, repeat=7)) / 300
    print(f"{name:16s} {t * 1e6:.2f}")
