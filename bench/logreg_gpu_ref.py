"""The logreg target program (N=400, feats=784, 10,000 steps, float32, lr 0.1)
on the GPU in PyTorch eager with autograd and in JAX with a jit-compiled step:
the anchors for gcalc's `grad` on gpu(0). Prints `REF <lib> logreg_10k_steps_gpu <us>`
(whole loop, wall time after a warm-up, ending with a device sync)."""
import sys
import time

N, FEATS = 400, 784
STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
# Which references to run (default both): `python3 logreg_gpu_ref.py 10000 jax`.
ONLY = set(sys.argv[2:])


def torch_logreg():
    import torch
    g = torch.Generator(device="cuda").manual_seed(0)
    D0 = torch.randn(N, FEATS, device="cuda", generator=g)
    D1 = torch.randint(0, 2, (N,), device="cuda", generator=g).float()
    w = (torch.randn(FEATS, device="cuda", generator=g) * 0.01).requires_grad_()
    b = torch.zeros((), device="cuda", requires_grad=True)

    def step():
        p1 = torch.sigmoid(D0 @ w + b)
        xent = -D1 * torch.log(p1) - (1 - D1) * torch.log(1 - p1)
        cost = xent.mean() + 0.01 * (w ** 2).sum()
        gw, gb = torch.autograd.grad(cost, (w, b))
        with torch.no_grad():
            w.sub_(0.1 * gw)
            b.sub_(0.1 * gb)

    for _ in range(20):
        step()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(STEPS):
        step()
    torch.cuda.synchronize()
    print("REF torch logreg_10k_steps_gpu %.0f" % ((time.perf_counter() - t0) * 1e6 * 10000 / STEPS))


def jax_logreg():
    import jax
    import jax.numpy as jnp
    k0, k1, k2 = jax.random.split(jax.random.PRNGKey(0), 3)
    D0 = jax.random.normal(k0, (N, FEATS), dtype=jnp.float32)
    D1 = jax.random.randint(k1, (N,), 0, 2).astype(jnp.float32)
    w = jax.random.normal(k2, (FEATS,), dtype=jnp.float32) * 0.01
    b = jnp.float32(0.0)

    def cost(w, b):
        p1 = jax.nn.sigmoid(D0 @ w + b)
        xent = -D1 * jnp.log(p1) - (1 - D1) * jnp.log(1 - p1)
        return xent.mean() + 0.01 * jnp.sum(w ** 2)

    @jax.jit
    def step(w, b):
        gw, gb = jax.grad(cost, (0, 1))(w, b)
        return w - 0.1 * gw, b - 0.1 * gb

    for _ in range(20):
        w, b = step(w, b)
    w.block_until_ready()
    t0 = time.perf_counter()
    for _ in range(STEPS):
        w, b = step(w, b)
    w.block_until_ready()
    print("REF jax logreg_10k_steps_gpu %.0f" % ((time.perf_counter() - t0) * 1e6 * 10000 / STEPS))


for name, fn in (("torch", torch_logreg), ("jax", jax_logreg)):
    if ONLY and name not in ONLY:
        continue
    try:
        fn()
    except Exception as e:  # a missing library must not stop the other
        print("REF %s error %s" % (name, str(e).splitlines()[0] if str(e) else type(e).__name__))
