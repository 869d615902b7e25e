#!/usr/bin/env bash
# GPU benchmark: gcalc against PyTorch, CuPy and JAX in the same run, printed
# as one table with ratios (gcalc time / reference time; < 1 means gcalc is faster).
# Run from the bundle (bash .gpu/run) or with GCALC_BIN_DIR pointing at the binaries.
here="$(cd "$(dirname "$0")" && pwd)"
bin="${GCALC_BIN_DIR:-$here/../bin}"
[ -f "$here/../unpack.sh" ] && . "$here/../unpack.sh" "$bin"
log=$(mktemp)
GCALC_BENCH=1 "$bin/gpu" gpu_bench:: --nocapture --test-threads=1 2>&1 | grep '^GCALC' >>"$log"
# Statement-level figures through the gcalc binary (when the op table is merged).
cat >"$log.prog" <<'G'
seed(1)
n = 10000000
z = rand(n, device=gpu()); y = rand(n, device=gpu())
r = exp(z + 2) * y
sync()
t = time { for i in range(200) { r = exp(z + 2) * y } }
print("GCALC stmt_fused_exp_z2_y_10M_f32", t / 200 * 1e6)
s = rand(1024, device=gpu())
r = exp(s)
for k in range(5) {
    t = time { for i in range(20000) { r = exp(s) } }
    print("GCALC stmt_exp_1024_loop", t / 20000 * 1e6)
}
# Sorting (issue 17): unique syncs once (its size), time {} syncs at its end.
a = rand(n, device=gpu()); u = randint(0, 1000000, n, device=gpu())
r = sort(a); r = argsort(a); r = unique(u)
t = time { for i in range(20) { r = sort(a) } }
print("GCALC sort_10M_f32", t / 20 * 1e6)
t = time { for i in range(20) { r = argsort(a) } }
print("GCALC argsort_10M_f32", t / 20 * 1e6)
t = time { for i in range(20) { r = unique(u) } }
print("GCALC unique_10M_i64", t / 20 * 1e6)
# Statistics and scans (issue 17): each after one warm-up call.
r = cumsum(a); r = median(a); r = histogram(a, 100)
t = time { for i in range(20) { r = cumsum(a) } }
print("GCALC cumsum_10M_f32", t / 20 * 1e6)
t = time { for i in range(20) { r = median(a) } }
print("GCALC median_10M_f32", t / 20 * 1e6)
t = time { for i in range(20) { r = histogram(a, 100) } }
print("GCALC histogram_10M_100_f32", t / 20 * 1e6)
m = rand((4096, 4096), device=gpu())
r = softmax(m, axis=1)
t = time { for i in range(20) { r = softmax(m, axis=1) } }
print("GCALC softmax_rows_4096_f32", t / 20 * 1e6)
G
"$bin/gcalc" "$log.prog" 2>&1 | grep '^GCALC' >>"$log" || true
# check1: GPU vs CPU.
for dev in gpu cpu; do
  cat >"$log.c1" <<G
set device = $dev
vlen = 10 * 30 * 768
iters = 1000
seed(22)
x = rand(vlen)
t = time { for i in range(iters) { r = exp(x) } }
print("GCALC check1_$dev", t * 1e6)
G
  "$bin/gcalc" "$log.c1" 2>&1 | grep '^GCALC' >>"$log" || true
done
# Linear algebra (issue 18), float32 on gpu(0): each statement timed by
# `time {}` (which syncs) after one warm-up call.
cat >"$log.la" <<'G'
set device = gpu
seed(1)
fn la(name, f, n) {
    r = f(); sync()
    t = time { for i in range(n) { r = f() } }
    print("GCALC " + name, t / n * 1e6)
}
a = randn((2048, 2048)) + 50 * eye(2048); b = randn((2048, 1))
la("la_solve_2048_f32", fn() = solve(a, b), 10)
a = randn((1024, 1024)) + 30 * eye(1024)
la("la_inv_1024_f32", fn() = inv(a), 10)
la("la_svd_1024_f32", fn() = svd(a), 5)
s = a + a.T
la("la_eigh_1024_f32", fn() = eigh(s), 5)
c = randn((4096, 4096)); c = c @ c.T + 4096 * eye(4096)
la("la_cholesky_4096_f32", fn() = cholesky(c), 5)
t4 = randn((4096, 256)); b4 = randn(4096)
la("la_lstsq_4096x256_f32", fn() = lstsq(t4, b4), 5)
e1 = randn((64, 256, 256)); e2 = randn((64, 256, 256))
la("la_einsum_bij_bjk_64x256x256_f32", fn() = einsum("bij,bjk->bik", e1, e2), 20)
G
"$bin/gcalc" "$log.la" 2>&1 | grep '^GCALC' >>"$log" || true
# First GPU statement in a fresh process with a warm kernel cache.
echo 'x = rand(1000, device=gpu()); y = exp(x); y.sync()' >"$log.first"
"$bin/gcalc" "$log.first" >/dev/null 2>&1 || true
t0=$(date +%s%N); "$bin/gcalc" "$log.first" >/dev/null 2>&1; t1=$(date +%s%N)
echo "GCALC fresh_process_first_gpu_stmt_warm_cache $(( (t1 - t0) / 1000 ))" >>"$log"
# The logreg target program on gpu(0): 20 warm-up steps (kernel compiles), then
# 10,000 steps timed with `time {}` (it syncs), as the references are timed.
sed -e 's/^seed(0)/set device = gpu\nseed(0)/' \
    -e '/^for i in range(10000) {/,/^}$/ { s/^for i in range(10000) {/for i in range(20) { gw, gb = step(w, b); w -= 0.1 * gw; b -= 0.1 * gb }\nt = time { for i in range(10000) {/; s/^}$/} }\nprint("GCALC logreg_10k_steps_gpu", t * 1e6)/ }' \
    "$here/logreg.gcalc" >"$log.lr"
# The same statement by statement (`loop_graphs` off; on by default, the
# loop is replayed as a CUDA graph).
sed -e 's/^set device = gpu/set device = gpu\nset loop_graphs = false/' \
    -e 's/logreg_10k_steps_gpu/logreg_10k_steps_gpu_no_graphs/' "$log.lr" >"$log.lrg"
# Three rounds of gcalc and JAX taken in turn (the host's speed drifts between
# runs; the table shows the medians), then torch once (about 10 s a run).
for _ in 1 2 3; do
  "$bin/gcalc" "$log.lr" 2>&1 | grep '^GCALC' >>"$log" || true
  "$bin/gcalc" "$log.lrg" 2>&1 | grep '^GCALC' >>"$log" || true
  PYTHONUNBUFFERED=1 python3 "$here/logreg_gpu_ref.py" 10000 jax 2>/dev/null | grep '^REF' >>"$log"
done
PYTHONUNBUFFERED=1 python3 "$here/gpu_bench.py" 2>/dev/null | grep '^REF' >>"$log"
PYTHONUNBUFFERED=1 python3 "$here/logreg_gpu_ref.py" 10000 torch 2>/dev/null | grep '^REF' >>"$log"
python3 - "$log" <<'P'
import sys
g, ref, runs = {}, {}, {}
for line in open(sys.argv[1]):
    p = line.split()
    if p[0] == "GCALC" and len(p) >= 3:
        try: runs.setdefault(p[1], []).append(float(p[2]))
        except ValueError: pass
    elif p[0] == "REF" and len(p) >= 4:
        try: ref.setdefault(p[2], {}).setdefault(p[1], []).append(float(p[3]))
        except ValueError: pass
for k, libs in ref.items():
    for lib, v in list(libs.items()):
        if len(v) > 1:
            print("%s %s: %s (median %.2f)" % (lib, k, " ".join("%.2f" % x for x in v), sorted(v)[len(v) // 2]))
        libs[lib] = sorted(v)[len(v) // 2]
for k, v in runs.items():
    g[k] = sorted(v)[len(v) // 2]  # median of repeated measurements
    if len(v) > 1:
        print("%s: %s (median %.2f)" % (k, " ".join("%.2f" % x for x in v), g[k]))
print("%-44s %12s %10s %10s %10s  %s" % ("benchmark (us)", "gcalc", "torch", "cupy", "jax", "ratio gcalc/torch"))
names = sorted(set(g) | set(ref))
alias = {"exp_1024_loop_api": "exp_1024_loop", "stmt_exp_1024_loop": "exp_1024_loop", "stmt_fused_exp_z2_y_10M_f32": "fused_exp_z2_y_10M_f32"}
for k in names:
    r = ref.get(alias.get(k, k), {})
    gv = g.get(k)
    t = r.get("torch")
    fmt = lambda v: "%10.2f" % v if v is not None else "%10s" % "-"
    ratio = ("%.2fx" % (gv / t)) if (gv and t) else ""
    print("%-44s %12s %s %s %s  %s" % (k, "%.2f" % gv if gv is not None else "-", fmt(t), fmt(r.get("cupy")), fmt(r.get("jax")), ratio))
lr, lj = g.get("logreg_10k_steps_gpu"), ref.get("logreg_10k_steps_gpu", {}).get("jax")
if lr and lj:
    print("logreg 10k steps: gcalc %.3f s, JAX jit %.3f s (medians), gcalc/JAX = %.2fx (target <= 1)" % (lr / 1e6, lj / 1e6, lr / lj))
lg = g.get("logreg_10k_steps_gpu_no_graphs")
if lg and lj:
    print("logreg 10k steps, loop_graphs = false: gcalc %.3f s, JAX jit %.3f s, gcalc/JAX = %.2fx" % (lg / 1e6, lj / 1e6, lg / lj))
if "check1_gpu" in g and "check1_cpu" in g:
    print("check1: GPU %.1f ms, CPU %.1f ms, CPU/GPU = %.1fx" % (g["check1_gpu"] / 1e3, g["check1_cpu"] / 1e3, g["check1_cpu"] / g["check1_gpu"]))
P
rm -f "$log" "$log.prog" "$log.c1" "$log.first" "$log.lr" "$log.lrg" "$log.la"
# Issue 21's MLP and softmax regression loops against NumPy on the host CPU,
# JAX (whole step jitted) and PyTorch eager, three rounds taken in turn.
[ "${GCALC_SKIP_SMALL_MODELS:-0}" = 1 ] || GCALC="$bin/gcalc" bash "$here/small_models/run.sh" gpu 3
