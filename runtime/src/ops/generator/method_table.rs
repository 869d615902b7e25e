//! The table of a `Generator`'s methods (NumPy's names, argument names
//! and order): entries outside the op table (their names are the
//! builtins'), each calling `methods::method`; `help(g.normal)` shows them.

use super::methods::{How, method};
use crate::ops::creation::op;
use crate::ops::{OpDef, OpKind};

macro_rules! m {
    ($name:expr, $sig:expr, $doc:expr) => {
        op!($name, $sig, $doc, false, |i, a| method(i, a, How::Forward))
    };
    ($name:expr, $sig:expr, $doc:expr, $how:expr) => {
        op!($name, $sig, $doc, false, |i, a| method(i, a, $how))
    };
}

/// The methods, in NumPy's documentation order. Not in the op table (their
/// names are the builtins'); `help(g.normal)` shows these entries.
pub static METHODS: &[OpDef] = &[
    m!(
        "random",
        "Generator.random(size=none, dtype=floatX, device=none)",
        "Uniform numbers in [0, 1); without size, one Python float."
    ),
    m!(
        "integers",
        "Generator.integers(low, high=none, size=none, dtype=int64, endpoint=false, device=none)",
        "Integers in [low, high) ([0, low) without high; high included with endpoint=true)."
    ),
    m!(
        "choice",
        "Generator.choice(a, size=none, replace=true, p=none, axis=0, shuffle=true, device=none)",
        "Elements of a (an array: slices along axis) or of range(a) (an int), with or without replacement, uniformly or with probabilities p (shuffle is accepted; samples without replacement always come in random order).",
        How::Choice
    ),
    m!(
        "shuffle",
        "Generator.shuffle(x, axis=0)",
        "Shuffle the slices of the array x along axis in place (gives none).",
        How::AlongAxis
    ),
    m!(
        "permutation",
        "Generator.permutation(x, axis=0)",
        "A shuffled range(x) (an int), or a copy of the array x with its slices along axis shuffled.",
        How::AlongAxis
    ),
    m!(
        "permuted",
        "Generator.permuted(x, axis=none, out=none)",
        "A copy of x with each slice along axis shuffled independently (axis=none: all elements shuffled); out= receives it in place.",
        How::Permuted
    ),
    m!(
        "standard_normal",
        "Generator.standard_normal(size=none, dtype=floatX, device=none)",
        "Standard normal numbers; without size, one Python float."
    ),
    m!(
        "normal",
        "Generator.normal(loc=0.0, scale=1.0, size=none, dtype=floatX, device=none)",
        "Normal numbers of mean loc and standard deviation scale >= 0 (numbers or arrays that broadcast); without size and with numbers, one Python float.",
        How::Normal
    ),
    m!(
        "uniform",
        "Generator.uniform(low=0.0, high=1.0, size=none, dtype=floatX, device=none)",
        "Uniform numbers in [low, high) (numbers or arrays that broadcast); without size and with numbers, one Python float.",
        How::Uniform
    ),
    m!(
        "exponential",
        "Generator.exponential(scale=1.0, size=none, dtype=floatX, device=none)",
        "Exponential numbers of mean scale >= 0."
    ),
    m!(
        "standard_exponential",
        "Generator.standard_exponential(size=none, dtype=floatX, device=none)",
        "Exponential numbers of mean 1."
    ),
    m!(
        "gamma",
        "Generator.gamma(shape, scale=1.0, size=none, dtype=floatX, device=none)",
        "Gamma numbers of shape >= 0 and scale >= 0 (mean shape * scale).",
        How::Gamma
    ),
    m!(
        "standard_gamma",
        "Generator.standard_gamma(shape, size=none, dtype=floatX, device=none)",
        "Gamma numbers of shape >= 0 and scale 1."
    ),
    m!(
        "beta",
        "Generator.beta(a, b, size=none, dtype=floatX, device=none)",
        "Beta numbers in [0, 1] with a > 0 and b > 0."
    ),
    m!(
        "poisson",
        "Generator.poisson(lam=1.0, size=none, dtype=int64, device=none)",
        "Poisson counts of mean lam >= 0."
    ),
    m!(
        "binomial",
        "Generator.binomial(n, p, size=none, dtype=int64, device=none)",
        "Binomial counts: successes in n >= 0 trials of probability p in [0, 1]."
    ),
    m!(
        "negative_binomial",
        "Generator.negative_binomial(n, p, size=none, dtype=int64, device=none)",
        "Negative binomial counts: failures before n > 0 successes of probability p in (0, 1]."
    ),
    m!(
        "geometric",
        "Generator.geometric(p, size=none, dtype=int64, device=none)",
        "Geometric counts: trials up to the first success of probability p in (0, 1]."
    ),
    m!(
        "hypergeometric",
        "Generator.hypergeometric(ngood, nbad, nsample, size=none, dtype=int64, device=none)",
        "Hypergeometric counts: good items among nsample drawn without replacement from ngood good and nbad bad ones."
    ),
    m!(
        "logseries",
        "Generator.logseries(p, size=none, dtype=int64, device=none)",
        "Logarithmic series counts (>= 1) of parameter p in [0, 1)."
    ),
    m!(
        "zipf",
        "Generator.zipf(a, size=none, dtype=int64, device=none)",
        "Zipf counts (>= 1) of exponent a > 1."
    ),
    m!(
        "multinomial",
        "Generator.multinomial(n, pvals, size=none, dtype=int64, device=none)",
        "Multinomial counts of n trials among len(pvals) outcomes; shape size + (k,)."
    ),
    m!(
        "multivariate_normal",
        "Generator.multivariate_normal(mean, cov, size=none, check_valid=\"warn\", tol=1e-8, dtype=floatX, device=none)",
        "Normal vectors of mean mean (1-d, k) and covariance cov (k x k, symmetric positive semi-definite); shape size + (k,)."
    ),
    m!(
        "dirichlet",
        "Generator.dirichlet(alpha, size=none, dtype=floatX, device=none)",
        "Dirichlet vectors of concentrations alpha >= 0; shape size + (k,)."
    ),
    m!(
        "laplace",
        "Generator.laplace(loc=0.0, scale=1.0, size=none, dtype=floatX, device=none)",
        "Laplace numbers of mean loc and scale >= 0."
    ),
    m!(
        "logistic",
        "Generator.logistic(loc=0.0, scale=1.0, size=none, dtype=floatX, device=none)",
        "Logistic numbers of mean loc and scale >= 0."
    ),
    m!(
        "lognormal",
        "Generator.lognormal(mean=0.0, sigma=1.0, size=none, dtype=floatX, device=none)",
        "exp of normal numbers of the given mean and sigma >= 0."
    ),
    m!(
        "gumbel",
        "Generator.gumbel(loc=0.0, scale=1.0, size=none, dtype=floatX, device=none)",
        "Gumbel numbers of mode loc and scale >= 0."
    ),
    m!(
        "rayleigh",
        "Generator.rayleigh(scale=1.0, size=none, dtype=floatX, device=none)",
        "Rayleigh numbers of scale >= 0."
    ),
    m!(
        "weibull",
        "Generator.weibull(a, size=none, dtype=floatX, device=none)",
        "Weibull numbers of shape a >= 0."
    ),
    m!(
        "pareto",
        "Generator.pareto(a, size=none, dtype=floatX, device=none)",
        "Pareto II (Lomax) numbers of shape a > 0."
    ),
    m!(
        "chisquare",
        "Generator.chisquare(df, size=none, dtype=floatX, device=none)",
        "Chi-square numbers of df > 0 degrees of freedom."
    ),
    m!(
        "noncentral_chisquare",
        "Generator.noncentral_chisquare(df, nonc, size=none, dtype=floatX, device=none)",
        "Noncentral chi-square numbers: df > 0 degrees of freedom, noncentrality nonc >= 0."
    ),
    m!(
        "f",
        "Generator.f(dfnum, dfden, size=none, dtype=floatX, device=none)",
        "F (Fisher-Snedecor) numbers of dfnum > 0 and dfden > 0 degrees of freedom."
    ),
    m!(
        "noncentral_f",
        "Generator.noncentral_f(dfnum, dfden, nonc, size=none, dtype=floatX, device=none)",
        "Noncentral F numbers: dfnum > 0, dfden > 0, nonc >= 0."
    ),
    m!(
        "standard_t",
        "Generator.standard_t(df, size=none, dtype=floatX, device=none)",
        "Student's t numbers of df > 0 degrees of freedom."
    ),
    m!(
        "standard_cauchy",
        "Generator.standard_cauchy(size=none, dtype=floatX, device=none)",
        "Standard Cauchy (Lorentz) numbers."
    ),
    m!(
        "triangular",
        "Generator.triangular(left, mode, right, size=none, dtype=floatX, device=none)",
        "Triangular numbers on [left, right] with mode mode (left <= mode <= right, left < right)."
    ),
    m!(
        "vonmises",
        "Generator.vonmises(mu, kappa, size=none, dtype=floatX, device=none)",
        "von Mises numbers in [-pi, pi) of mode mu and concentration kappa >= 0."
    ),
    m!(
        "wald",
        "Generator.wald(mean, scale, size=none, dtype=floatX, device=none)",
        "Wald (inverse Gaussian) numbers of mean > 0 and scale > 0."
    ),
    m!(
        "bernoulli",
        "Generator.bernoulli(p=0.5, size=none, dtype=floatX, device=none)",
        "1 with probability p, else 0 (gcalc's and PyTorch's; not a NumPy method)."
    ),
];

/// `RandomState`'s legacy names (NumPy's np.random.RandomState), looked up
/// before `METHODS`; each runs the builtin of its name on the receiver's state.
pub static LEGACY: &[OpDef] = &[
    m!(
        "rand",
        "RandomState.rand(d0, d1, ..., dtype=floatX, device=none)",
        "Uniform numbers in [0, 1) of shape (d0, d1, ...); without dimensions, one Python float."
    ),
    m!(
        "randn",
        "RandomState.randn(d0, d1, ..., dtype=floatX, device=none)",
        "Standard normal numbers of shape (d0, d1, ...); without dimensions, one Python float."
    ),
    m!(
        "randint",
        "RandomState.randint(low, high=none, size=none, dtype=int64, device=none)",
        "Integers in [low, high), or [0, low) without high; without size, one Python int."
    ),
    m!(
        "random_sample",
        "RandomState.random_sample(size=none, dtype=floatX, device=none)",
        "Uniform numbers in [0, 1); without size, one Python float."
    ),
    m!(
        "seed",
        "RandomState.seed(seed=none)",
        "Restart this generator's stream from seed (none: fresh entropy); the session's own stream is untouched.",
        How::Seed
    ),
];
