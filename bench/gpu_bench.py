"""GPU benchmark, reference side: PyTorch, CuPy and JAX on the same card and
in the same run as gcalc (bench/gpu_bench.sh prints the ratios). Times are
CUDA-event medians after warm-up, in microseconds; prints `REF <lib> <name> <us>`."""
import time

import numpy as _np

def med(v):
    v = sorted(v)
    return v[len(v) // 2]

def torch_bench():
    import torch
    n = 10_000_000
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    z = torch.rand(n, device="cuda")
    def t(f, reps=50):
        for _ in range(5):
            f()
        torch.cuda.synchronize()
        out = []
        for _ in range(reps):
            a = torch.cuda.Event(enable_timing=True); b = torch.cuda.Event(enable_timing=True)
            a.record(); f(); b.record(); b.synchronize()
            out.append(a.elapsed_time(b) * 1e3)
        return med(out)
    print("REF torch exp_10M_f32 %.2f" % t(lambda: torch.exp(x)))
    print("REF torch fused_exp_z2_y_10M_f32 %.2f" % t(lambda: torch.exp(z + 2) * y))
    print("REF torch sum_10M_f32 %.2f" % t(lambda: torch.sum(x)))
    u = torch.randint(0, 1_000_000, (n,), device="cuda")
    print("REF torch sort_10M_f32 %.2f" % t(lambda: torch.sort(x), 10))
    print("REF torch argsort_10M_f32 %.2f" % t(lambda: torch.argsort(x, stable=True), 10))
    print("REF torch unique_10M_i64 %.2f" % t(lambda: torch.unique(u), 10))
    print("REF torch cumsum_10M_f32 %.2f" % t(lambda: torch.cumsum(x, 0), 10))
    print("REF torch median_10M_f32 %.2f" % t(lambda: torch.median(x), 10))
    print("REF torch histogram_10M_100_f32 %.2f" % t(lambda: torch.histc(x, 100, float(x.min()), float(x.max())), 10))
    m = torch.rand(4096, 4096, device="cuda")
    print("REF torch softmax_rows_4096_f32 %.2f" % t(lambda: torch.softmax(m, 1), 10))
    torch.backends.cuda.matmul.allow_tf32 = False
    a = torch.rand(4096, 4096, device="cuda"); b = torch.rand(4096, 4096, device="cuda")
    tm = t(lambda: a @ b, 10)
    print("REF torch matmul_4096_f32 %.2f (%.1f TFLOP/s)" % (tm, 2 * 4096**3 / (tm * 1e-6) / 1e12))
    s = torch.rand(1024, device="cuda")
    for _ in range(100):
        r = torch.exp(s)
    torch.cuda.synchronize()
    it = 20000
    t0 = time.perf_counter()
    for _ in range(it):
        r = torch.exp(s)
    torch.cuda.synchronize()
    print("REF torch exp_1024_loop %.2f" % ((time.perf_counter() - t0) * 1e6 / it))
    mk = lambda v: torch.as_tensor(v, dtype=torch.float32, device="cuda")
    linalg_workloads("torch", mk, t, torch.linalg, torch.einsum)

def linalg_workloads(lib, mk, t, la, einsum):
    """Issue 18's linear-algebra workloads in float32 (`mk`: a NumPy array to
    the library's float32 device array; `la`: its linalg module)."""
    g = _np.random.default_rng(0).standard_normal
    a = mk(g((2048, 2048)) + 50 * _np.eye(2048)); b = mk(g((2048, 1)))
    print("REF %s la_solve_2048_f32 %.2f" % (lib, t(lambda: la.solve(a, b), 10)))
    a = mk(g((1024, 1024)) + 30 * _np.eye(1024))
    print("REF %s la_inv_1024_f32 %.2f" % (lib, t(lambda: la.inv(a), 10)))
    print("REF %s la_svd_1024_f32 %.2f" % (lib, t(lambda: la.svd(a), 5)))
    s = a + a.T
    print("REF %s la_eigh_1024_f32 %.2f" % (lib, t(lambda: la.eigh(s), 5)))
    c = g((4096, 4096)); c = mk(c @ c.T + 4096 * _np.eye(4096))
    print("REF %s la_cholesky_4096_f32 %.2f" % (lib, t(lambda: la.cholesky(c), 5)))
    t4 = mk(g((4096, 256))); b4 = mk(g((4096, 1)))
    print("REF %s la_lstsq_4096x256_f32 %.2f" % (lib, t(lambda: la.lstsq(t4, b4), 5)))
    e1 = mk(g((64, 256, 256))); e2 = mk(g((64, 256, 256)))
    print("REF %s la_einsum_bij_bjk_64x256x256_f32 %.2f" % (lib, t(lambda: einsum("bij,bjk->bik", e1, e2), 20)))


def cupy_bench():
    import cupy as cp
    n = 10_000_000
    x = cp.random.rand(n, dtype=cp.float32); y = cp.random.rand(n, dtype=cp.float32); z = cp.random.rand(n, dtype=cp.float32)
    @cp.fuse()
    def f(z, y):
        return cp.exp(z + 2) * y
    def t(fn, reps=50):
        for _ in range(5):
            fn()
        cp.cuda.Device().synchronize()
        out = []
        for _ in range(reps):
            a = cp.cuda.Event(); b = cp.cuda.Event()
            a.record(); fn(); b.record(); b.synchronize()
            out.append(cp.cuda.get_elapsed_time(a, b) * 1e3)
        return med(out)
    print("REF cupy exp_10M_f32 %.2f" % t(lambda: cp.exp(x)))
    print("REF cupy fused_exp_z2_y_10M_f32 %.2f" % t(lambda: f(z, y)))
    print("REF cupy sum_10M_f32 %.2f" % t(lambda: cp.sum(x)))
    u = cp.random.randint(0, 1_000_000, n, dtype=cp.int64)
    print("REF cupy sort_10M_f32 %.2f" % t(lambda: cp.sort(x), 10))
    print("REF cupy argsort_10M_f32 %.2f" % t(lambda: cp.argsort(x), 10))
    print("REF cupy unique_10M_i64 %.2f" % t(lambda: cp.unique(u), 10))
    print("REF cupy cumsum_10M_f32 %.2f" % t(lambda: cp.cumsum(x), 10))
    print("REF cupy median_10M_f32 %.2f" % t(lambda: cp.median(x), 10))
    print("REF cupy histogram_10M_100_f32 %.2f" % t(lambda: cp.histogram(x, 100), 10))
    m = cp.random.rand(4096, 4096, dtype=cp.float32)
    def cp_softmax(v):
        e = cp.exp(v - v.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    print("REF cupy softmax_rows_4096_f32 %.2f" % t(lambda: cp_softmax(m), 10))
    linalg_workloads("cupy", lambda v: cp.asarray(v, dtype=cp.float32), t, cp.linalg, cp.einsum)

def jax_bench():
    import jax, jax.numpy as jnp
    n = 10_000_000
    k = jax.random.PRNGKey(0)
    x = jax.random.uniform(k, (n,), dtype=jnp.float32); y = x + 1; z = x * 2
    fe = jax.jit(jnp.exp); ff = jax.jit(lambda z, y: jnp.exp(z + 2) * y); fs = jax.jit(jnp.sum)
    def t(fn, reps=50):
        for _ in range(5):
            fn().block_until_ready()
        out = []
        for _ in range(reps):
            t0 = time.perf_counter(); fn().block_until_ready(); out.append((time.perf_counter() - t0) * 1e6)
        return med(out)
    print("REF jax exp_10M_f32 %.2f" % t(lambda: fe(x)))
    print("REF jax fused_exp_z2_y_10M_f32 %.2f" % t(lambda: ff(z, y)))
    print("REF jax sum_10M_f32 %.2f" % t(lambda: fs(x)))

for name, fn in (("torch", torch_bench), ("cupy", cupy_bench), ("jax", jax_bench)):
    try:
        fn()
    except Exception as e:  # a missing library must not stop the others
        print("REF %s error %s" % (name, str(e).splitlines()[0] if str(e) else type(e).__name__))
