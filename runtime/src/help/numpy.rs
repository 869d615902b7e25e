//! What a builtin is called where gcalc's users come from: NumPy for array
//! ops (`np.<name>` unless listed), then Python, PyTorch, JAX, IPython,
//! matplotlib and the CUDA tools for the rest.

use super::{first_form, required};
use crate::ops::OpDef;
use crate::ops::family::Family;

/// (op, where, equivalent) for ops NumPy does not call `np.<op>(...)`.
const OTHERS: &[(&str, &str, &str)] = &[
    ("concat", "NumPy", "np.concatenate(arrays, axis=0)"),
    ("add_at", "NumPy", "np.add.at(x, idx, v)"),
    ("subtract_at", "NumPy", "np.subtract.at(x, idx, v)"),
    ("multiply_at", "NumPy", "np.multiply.at(x, idx, v)"),
    ("maximum_at", "NumPy", "np.maximum.at(x, idx, v)"),
    ("minimum_at", "NumPy", "np.minimum.at(x, idx, v)"),
    ("sigmoid", "SciPy", "scipy.special.expit(x)"),
    ("relu", "NumPy", "np.maximum(x, 0)"),
    ("rsqrt", "NumPy", "1 / np.sqrt(x)"),
    ("softplus", "NumPy", "np.logaddexp(0, x)"),
    ("cummax", "NumPy", "np.maximum.accumulate(x, axis)"),
    ("cummin", "NumPy", "np.minimum.accumulate(x, axis)"),
    ("softmax", "SciPy", "scipy.special.softmax(x, axis)"),
    ("log_softmax", "SciPy", "scipy.special.log_softmax(x, axis)"),
    ("logsumexp", "SciPy", "scipy.special.logsumexp(x, axis)"),
    ("item", "NumPy", "x.item()"),
    (
        "topk",
        "NumPy",
        "np.sort(x)[..., ::-1][..., :k] and its positions (PyTorch: torch.topk(x, k))",
    ),
    ("tolist", "NumPy", "x.tolist()"),
    ("astype", "NumPy", "x.astype(dtype)"),
    ("copy", "NumPy", "x.copy()"),
    ("flatten", "NumPy", "x.flatten()"),
    ("rand", "NumPy", "np.random.rand(*shape)"),
    ("randn", "NumPy", "np.random.randn(*shape)"),
    ("randint", "NumPy", "np.random.randint(lo, hi, size=shape)"),
    ("uniform", "NumPy", "np.random.uniform(lo, hi, size=shape)"),
    ("normal", "NumPy", "np.random.normal(mu, sigma, size=shape)"),
    ("seed", "NumPy", "np.random.seed(n)"),
    (
        "exponential",
        "NumPy",
        "np.random.exponential(scale, size=shape)",
    ),
    ("poisson", "NumPy", "np.random.poisson(lam, size=shape)"),
    ("binomial", "NumPy", "np.random.binomial(n, p, size=shape)"),
    (
        "bernoulli",
        "NumPy",
        "np.random.binomial(1, p, size=shape) (PyTorch: torch.bernoulli(p))",
    ),
    ("gamma", "NumPy", "np.random.gamma(k, theta, size=shape)"),
    ("beta", "NumPy", "np.random.beta(a, b, size=shape)"),
    (
        "choice",
        "NumPy",
        "np.random.default_rng().choice(a, size=shape, replace=True, p=None)",
    ),
    ("permutation", "NumPy", "np.random.permutation(x)"),
    ("shuffle", "NumPy", "np.random.shuffle(x)"),
    // The further draws (ops/nparr/draws.rs): NumPy Generator's methods.
    (
        "random",
        "NumPy",
        "np.random.default_rng().random(size=shape)",
    ),
    (
        "standard_normal",
        "NumPy",
        "np.random.default_rng().standard_normal(size=shape)",
    ),
    (
        "integers",
        "NumPy",
        "np.random.default_rng().integers(low, high, size=shape, endpoint=False)",
    ),
    (
        "laplace",
        "NumPy",
        "np.random.laplace(loc, scale, size=shape)",
    ),
    (
        "lognormal",
        "NumPy",
        "np.random.lognormal(mean, sigma, size=shape)",
    ),
    (
        "logistic",
        "NumPy",
        "np.random.logistic(loc, scale, size=shape)",
    ),
    (
        "gumbel",
        "NumPy",
        "np.random.gumbel(loc, scale, size=shape)",
    ),
    ("geometric", "NumPy", "np.random.geometric(p, size=shape)"),
    ("chisquare", "NumPy", "np.random.chisquare(df, size=shape)"),
    (
        "standard_t",
        "NumPy",
        "np.random.standard_t(df, size=shape)",
    ),
    ("weibull", "NumPy", "np.random.weibull(a, size=shape)"),
    ("pareto", "NumPy", "np.random.pareto(a, size=shape)"),
    ("rayleigh", "NumPy", "np.random.rayleigh(scale, size=shape)"),
    (
        "multinomial",
        "NumPy",
        "np.random.multinomial(n, pvals, size=shape)",
    ),
    (
        "dirichlet",
        "NumPy",
        "np.random.dirichlet(alpha, size=shape)",
    ),
    ("erf", "SciPy", "scipy.special.erf(x)"),
    ("erfc", "SciPy", "scipy.special.erfc(x)"),
    ("allclose", "NumPy", "np.allclose(a, b)"),
    ("solve", "NumPy", "np.linalg.solve(a, b)"),
    ("fft", "NumPy", "np.fft.fft(a, n, axis, norm)"),
    ("ifft", "NumPy", "np.fft.ifft(a, n, axis, norm)"),
    ("rfft", "NumPy", "np.fft.rfft(a, n, axis, norm)"),
    ("irfft", "NumPy", "np.fft.irfft(a, n, axis, norm)"),
    ("fft2", "NumPy", "np.fft.fft2(a, s, axes, norm)"),
    ("ifft2", "NumPy", "np.fft.ifft2(a, s, axes, norm)"),
    ("rfft2", "NumPy", "np.fft.rfft2(a, s, axes, norm)"),
    ("irfft2", "NumPy", "np.fft.irfft2(a, s, axes, norm)"),
    ("fftn", "NumPy", "np.fft.fftn(a, s, axes, norm)"),
    ("ifftn", "NumPy", "np.fft.ifftn(a, s, axes, norm)"),
    ("rfftn", "NumPy", "np.fft.rfftn(a, s, axes, norm)"),
    ("irfftn", "NumPy", "np.fft.irfftn(a, s, axes, norm)"),
    ("fftfreq", "NumPy", "np.fft.fftfreq(n, d)"),
    ("rfftfreq", "NumPy", "np.fft.rfftfreq(n, d)"),
    ("fftshift", "NumPy", "np.fft.fftshift(x, axes)"),
    ("ifftshift", "NumPy", "np.fft.ifftshift(x, axes)"),
    (
        "complex",
        "Python",
        "complex(real, imag) (NumPy: real + 1j * imag)",
    ),
    ("inv", "NumPy", "np.linalg.inv(a)"),
    ("det", "NumPy", "np.linalg.det(a)"),
    ("slogdet", "NumPy", "np.linalg.slogdet(a)"),
    ("cholesky", "NumPy", "np.linalg.cholesky(a, upper=False)"),
    ("qr", "NumPy", "np.linalg.qr(a, mode=\"reduced\")"),
    (
        "svd",
        "NumPy",
        "np.linalg.svd(a, full_matrices=True, compute_uv=True)",
    ),
    ("svdvals", "NumPy", "np.linalg.svdvals(x)"),
    ("eigh", "NumPy", "np.linalg.eigh(a, UPLO=\"L\")"),
    ("eigvalsh", "NumPy", "np.linalg.eigvalsh(a, UPLO=\"L\")"),
    (
        "norm",
        "NumPy",
        "np.linalg.norm(x, ord=None, axis=None, keepdims=False)",
    ),
    ("cond", "NumPy", "np.linalg.cond(x, p=None)"),
    ("multi_dot", "NumPy", "np.linalg.multi_dot(arrays)"),
    (
        "vector_norm",
        "NumPy",
        "np.linalg.vector_norm(x, axis=None, keepdims=False, ord=2)",
    ),
    (
        "matrix_norm",
        "NumPy",
        "np.linalg.matrix_norm(x, keepdims=False, ord=\"fro\")",
    ),
    ("matrix_rank", "NumPy", "np.linalg.matrix_rank(A, tol=None)"),
    ("lstsq", "NumPy", "np.linalg.lstsq(a, b, rcond=None)"),
    ("pinv", "NumPy", "np.linalg.pinv(a, rcond=None)"),
    ("matrix_power", "NumPy", "np.linalg.matrix_power(a, n)"),
    ("save", "NumPy", "np.save(path, x)"),
    ("load", "NumPy", "np.load(path)"),
    ("savez", "NumPy", "np.savez(path, a, b, name=c)"),
    ("print", "Python", "print(...)"),
    ("eprint", "Python", "print(..., file=sys.stderr)"),
    ("len", "Python", "len(x)"),
    ("range", "Python", "range(start, stop, step)"),
    ("enumerate", "Python", "enumerate(xs)"),
    ("zip", "Python", "zip(xs, ys)"),
    ("float", "Python", "float(x)"),
    ("int", "Python", "int(x)"),
    ("str", "Python", "str(x)"),
    ("type", "Python", "type(x)"),
    ("input", "Python", "input(prompt)"),
    ("args", "Python", "sys.argv[1:]"),
    ("help", "Python", "help(name)"),
    ("list", "Python", "list(xs)"),
    ("tuple", "Python", "tuple(xs)"),
    ("dict", "Python", "dict(pairs, key=value)"),
    ("sorted", "Python", "sorted(xs, key=None, reverse=False)"),
    ("repr", "Python", "repr(x)"),
    ("format", "Python", "format(x, spec)"),
    ("timeit", "IPython", "%timeit f() (here also: %timeit expr)"),
    ("progress", "tqdm", "tqdm(xs)"),
    ("display", "IPython", "IPython.display.display(x)"),
    (
        "clear_output",
        "IPython",
        "IPython.display.clear_output(wait=False)",
    ),
    ("plot", "matplotlib", "plt.plot(x, y)"),
    ("scatter", "matplotlib", "plt.scatter(x, y)"),
    ("hist", "matplotlib", "plt.hist(x, bins=10)"),
    ("imshow", "matplotlib", "plt.imshow(m)"),
    ("bar", "matplotlib", "plt.bar(labels, values)"),
    ("savefig", "matplotlib", "fig.savefig(path)"),
    ("grad", "JAX", "jax.grad(f, argnums=0)"),
    ("value_and_grad", "JAX", "jax.value_and_grad(f, argnums=0)"),
    ("cpu", "PyTorch", "torch.device(\"cpu\")"),
    ("gpu", "PyTorch", "torch.device(\"cuda\", i)"),
    ("devices", "shell", "nvidia-smi"),
    ("sync", "PyTorch", "torch.cuda.synchronize()"),
    ("to", "PyTorch", "x.to(device)"),
    ("copyto", "MXNet", "x.copyto(ctx)"),
    (
        "mem",
        "PyTorch",
        "torch.cuda.memory_allocated(), torch.cuda.mem_get_info()",
    ),
    ("cuda_module", "PyCUDA", "pycuda.compiler.SourceModule(src)"),
    (
        "profile",
        "Theano",
        "ProfileMode's summary (PyTorch: torch.profiler)",
    ),
];

/// (`NumPy`, `np.exp(x)`) and the like, or `None` when nothing corresponds.
pub fn equivalent(d: &OpDef, fam: Option<Family>) -> Option<(&'static str, String)> {
    if let Some((_, label, eq)) = OTHERS.iter().find(|o| o.0 == d.name) {
        return Some((label, eq.to_string()));
    }
    if !fam?.is_array_math() {
        return None;
    }
    let form = first_form(d.sig);
    if form.starts_with("x.") {
        return Some(("NumPy", form.to_string()));
    }
    let args = required(form)?.join(", ");
    Some(("NumPy", format!("np.{}({args})", d.name)))
}
