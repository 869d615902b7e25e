"""Reference side of issue 21's small training loops (bench/small_models/*.gcalc):
the same MLP 784-256-10 (batch 128) and softmax regression 784->10 (batch 400),
float32, 1,000 SGD steps cycling over 10 mini-batches, written the way each
library's users write them:

- numpy: on the host CPU, with the hand-written gradient (the tightest loop a
  NumPy user would write: in-place updates, one softmax, masks as multiplies);
- jax: the whole step (gradient and update) under one `jax.jit`, batches
  pre-split on the device;
- torch: eager with autograd, updates under `no_grad`.

Usage: `python3 ref.py MODEL LIB...` with MODEL `mlp` or `softmax_reg` and LIB
among numpy, jax, torch. Prints `REF <lib> <model>_1k_steps <us>` (wall time of
the 1,000 timed steps after 20 warm-up steps, ending with a device sync) and
`LOSS <lib> <model> <mean loss over the data after training>`."""
import sys
import time

import numpy as np

STEPS, NB, D, C = 1000, 10, 784, 10
SHAPES = {"mlp": (128, 256), "softmax_reg": (400, None)}


def data(B):
    g = np.random.default_rng(0)
    X = g.standard_normal((B * NB, D), dtype=np.float32)
    lab = np.argmax(X @ g.standard_normal((D, C), dtype=np.float32), axis=1)
    Y = (lab[:, None] == np.arange(C)).astype(np.float32)
    return g, X, Y


def params(g, H):
    if H is None:
        return [g.standard_normal((D, C), dtype=np.float32) * np.float32(0.01), np.zeros(C, np.float32)]
    return [g.standard_normal((D, H), dtype=np.float32) * np.float32(0.05), np.zeros(H, np.float32),
            g.standard_normal((H, C), dtype=np.float32) * np.float32(0.05), np.zeros(C, np.float32)]


def timed(run, sync):
    run(20)
    sync()
    t0 = time.perf_counter()
    run(STEPS)
    sync()
    return (time.perf_counter() - t0) * 1e6


def numpy_ref(model):
    B, H = SHAPES[model]
    g, X, Y = data(B)
    P = params(g, H)
    xs = [X[j * B:(j + 1) * B] for j in range(NB)]
    ys = [Y[j * B:(j + 1) * B] for j in range(NB)]
    lr = np.float32(0.1)

    def dlogits(z, y):
        z -= z.max(axis=1, keepdims=True)
        np.exp(z, out=z)
        z /= z.sum(axis=1, keepdims=True)
        z -= y
        z /= np.float32(B)
        return z

    def run(n):
        for i in range(n):
            x, y = xs[i % NB], ys[i % NB]
            if H is None:
                W, b = P
                dz = dlogits(x @ W + b, y)
                W -= lr * (x.T @ dz)
                b -= lr * dz.sum(axis=0)
            else:
                W1, b1, W2, b2 = P
                h = x @ W1 + b1
                np.maximum(h, 0, out=h)
                dz = dlogits(h @ W2 + b2, y)
                dh = dz @ W2.T
                dh *= h > 0
                W2 -= lr * (h.T @ dz)
                b2 -= lr * dz.sum(axis=0)
                W1 -= lr * (x.T @ dh)
                b1 -= lr * dh.sum(axis=0)

    t = timed(run, lambda: None)
    z = X @ P[0] + P[1] if H is None else np.maximum(X @ P[0] + P[1], 0) @ P[2] + P[3]
    z = z - z.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return t, float(-(Y * logp).sum() / (B * NB))


def jax_ref(model):
    import jax
    import jax.numpy as jnp
    B, H = SHAPES[model]
    g, X, Y = data(B)
    P = tuple(jnp.asarray(p) for p in params(g, H))
    xs = [jnp.asarray(X[j * B:(j + 1) * B]) for j in range(NB)]
    ys = [jnp.asarray(Y[j * B:(j + 1) * B]) for j in range(NB)]

    def loss(P, x, y):
        if H is None:
            z = x @ P[0] + P[1]
        else:
            z = jax.nn.relu(x @ P[0] + P[1]) @ P[2] + P[3]
        return -jnp.sum(y * jax.nn.log_softmax(z, axis=1)) / B

    @jax.jit
    def step(P, x, y):
        gs = jax.grad(loss)(P, x, y)
        return tuple(p - 0.1 * gp for p, gp in zip(P, gs))

    state = [P]

    def run(n):
        for i in range(n):
            state[0] = step(state[0], xs[i % NB], ys[i % NB])

    t = timed(run, lambda: state[0][0].block_until_ready())
    return t, float(loss(state[0], jnp.asarray(X), jnp.asarray(Y)) / NB)


def torch_ref(model):
    import torch
    B, H = SHAPES[model]
    g, X, Y = data(B)
    P = [torch.tensor(p, device="cuda", requires_grad=True) for p in params(g, H)]
    Xd, Yd = torch.tensor(X, device="cuda"), torch.tensor(Y, device="cuda")

    def loss(x, y):
        if H is None:
            z = x @ P[0] + P[1]
        else:
            z = torch.relu(x @ P[0] + P[1]) @ P[2] + P[3]
        return -(y * torch.log_softmax(z, dim=1)).sum() / B

    def run(n):
        for i in range(n):
            j = i % NB
            gs = torch.autograd.grad(loss(Xd[j * B:(j + 1) * B], Yd[j * B:(j + 1) * B]), P)
            with torch.no_grad():
                for p, gp in zip(P, gs):
                    p.sub_(0.1 * gp)

    t = timed(run, torch.cuda.synchronize)
    with torch.no_grad():
        return t, float(loss(Xd, Yd) / NB)


if __name__ == "__main__":
    model = sys.argv[1]
    for lib in sys.argv[2:]:
        try:
            t, l = {"numpy": numpy_ref, "jax": jax_ref, "torch": torch_ref}[lib](model)
            print("REF %s %s_1k_steps %.0f" % (lib, model, t))
            print("LOSS %s %s %.4f" % (lib, model, l))
        except Exception as e:  # a missing library must not stop the others
            print("REF %s error %s" % (lib, str(e).splitlines()[0] if str(e) else type(e).__name__))
        sys.stdout.flush()
