//! Hints for names gcalc does not know, drawing on what NumPy, PyTorch and
//! Python users mean by them: NumPy's and PyTorch's names for gcalc's
//! functions (`concatenate` and `torch.cat` are `concat`), NumPy functions
//! gcalc lacks ("gcalc has no `median` yet" rather than "did you mean
//! `mean`?"), module prefixes (`np.exp` is `exp`), and only then a spelling
//! suggestion among the names in scope, by edit distance.
//!
//! Whether gcalc has a function is read from the op table at the time of the
//! hint: when a missing function is added (NumPy's `median`), its name is no
//! longer unknown, `np.median` points at it, and nothing here changes.

use crate::error::{closest, spelling};

/// What a foreign name means in gcalc.
enum Meaning {
    /// gcalc's name for it.
    Is(&'static str),
    /// A NumPy/PyTorch/Python function gcalc may lack; how to do it meanwhile.
    Missing(&'static str),
    /// Advice in words.
    Say(&'static str),
}
use Meaning::*;

/// Module prefixes NumPy-style code uses; gcalc's functions have none.
const MODULES: &[&str] = &[
    "np", "numpy", "torch", "jnp", "jax", "cp", "cupy", "math", "F", "nn", "scipy", "special",
    "tf", "random",
];

#[rustfmt::skip]
static TABLE: &[(&str, Meaning)] = &[
    // NumPy's and PyTorch's names for what gcalc has.
    ("concatenate", Is("concat")), ("cat", Is("concat")), ("concat", Is("concat")),
    ("asanyarray", Is("array")), ("tensor", Is("array")),
    ("as_tensor", Is("array")), ("from_numpy", Is("array")), ("asnumpy", Is("array")),
    ("true_divide", Is("divide")), ("div", Is("divide")), ("remainder", Is("mod")),
    ("mul", Is("multiply")), ("sub", Is("subtract")), ("neg", Is("negative")),
    ("pow", Is("power")), ("product", Is("prod")), ("round_", Is("round")),
    ("rint", Is("round")), ("alltrue", Is("all")), ("sometrue", Is("any")),
    ("clamp", Is("clip")), ("clamp_", Is("clip")), ("mm", Is("matmul")), ("bmm", Is("matmul")),
    ("permute", Is("transpose")), ("unsqueeze", Is("expand_dims")),
    ("manual_seed", Is("seed")), ("eq", Is("equal")), ("ne", Is("not_equal")), ("lt", Is("less")),
    ("le", Is("less_equal")), ("gt", Is("greater")), ("ge", Is("greater_equal")),
    ("bitwise_invert", Is("invert")),
    ("bitwise_left_shift", Is("left_shift")), ("bitwise_right_shift", Is("right_shift")),
    ("random.rand", Is("rand")), ("random.randn", Is("randn")), ("random.random", Is("rand")),
    ("random.seed", Is("seed")), ("random.normal", Is("normal")), ("random.uniform", Is("uniform")),
    ("random.randint", Is("randint")), ("linalg.norm", Is("norm")), ("linalg.inv", Is("inv")),
    ("linalg.det", Is("det")), ("linalg.solve", Is("solve")), ("linalg.svd", Is("svd")),
    ("linalg.eig", Is("eig")), ("linalg.eigh", Is("eigh")), ("linalg.qr", Is("qr")),
    ("linalg.cholesky", Is("cholesky")), ("linalg.pinv", Is("pinv")), ("linalg.lstsq", Is("lstsq")),
    ("float_", Is("float64")), ("double", Is("float64")), ("half", Is("float16")),
    ("int_", Is("int64")), ("long", Is("int64")), ("bool_", Is("bool")),
    ("float32", Is("float32")), ("float64", Is("float64")), ("int32", Is("int32")),
    ("int64", Is("int64")), ("float16", Is("float16")),
    ("complex64", Is("complex64")), ("complex128", Is("complex128")), ("complex_", Is("complex128")),
    ("cdouble", Is("complex128")), ("csingle", Is("complex64")),
    ("numel", Say("the number of elements is the attribute `x.size`")),
    ("detach", Say("gcalc arrays need no detach: grad() tracks only what it differentiates")),
    ("cuda", Say("move an array with `x.to(gpu())`")),
    ("numpy", Say("a gcalc array is already an array; `x.tolist()` gives Python values")),
    ("type", Say("`type(x)` gives a value's type name; `x.astype(float32)` converts an array")),
    ("float", Say("convert a number with `float(x)`, an array with `x.astype(float32)`")),
    ("push", Is("append")), ("add", Is("append")),
    ("length", Is("len")), ("size", Say("len(xs) for a list; `x.size` is an array's element count")),
    ("isinstance", Say("`type(x)` gives the name of a value's type, e.g. type(x) == \"array\"")),
    ("pass", Say("an empty block is `{ }`: nothing stands in for it")),
    ("def", Say("functions are defined with `fn name(x) = ...` or `fn name(x) { ... }`")),
    ("null", Say("gcalc writes none (or None)")),
    ("nil", Say("gcalc writes none (or None)")),
    ("Inf", Is("inf")), ("NaN", Is("nan")), ("NAN", Is("nan")), ("PI", Is("pi")),
    // NumPy functions people reach for; gcalc says when it lacks one.
    ("median", Missing("")), ("percentile", Missing("")), ("quantile", Missing("")),
    ("sort", Missing("lists have xs.sort() and sorted(xs)")), ("argsort", Missing("")),
    ("cumsum", Missing("")), ("cumprod", Missing("")), ("diff", Missing("x[1:] - x[:-1]")),
    ("unique", Missing("")), ("bincount", Missing("")), ("histogram", Missing("hist(x) plots one")),
    ("cov", Missing("")), ("corrcoef", Missing("")), ("inv", Missing("")), ("det", Missing("")),
    ("solve", Missing("")), ("svd", Missing("")), ("eig", Missing("")), ("eigh", Missing("")),
    ("qr", Missing("")), ("cholesky", Missing("")), ("lstsq", Missing("")), ("pinv", Missing("")),
    ("norm", Missing("sqrt(sum(x ** 2)) is the 2-norm")), ("trace", Missing("")),
    ("diag", Missing("")), ("diagonal", Missing("")), ("triu", Missing("")), ("tril", Missing("")),
    ("log10", Missing("log(x) / log(10)")), ("exp2", Missing("2 ** x")), ("cbrt", Missing("")),
    ("square", Missing("x ** 2")), ("reciprocal", Missing("1 / x")), ("trunc", Missing("")),
    ("sinh", Missing("")), ("cosh", Missing("")), ("arcsin", Missing("")), ("arccos", Missing("")),
    ("arctan", Missing("")), ("arctan2", Missing("")), ("arcsinh", Missing("")),
    ("arccosh", Missing("")), ("arctanh", Missing("")), ("hypot", Missing("sqrt(x ** 2 + y ** 2)")),
    ("logaddexp", Missing("")), ("copysign", Missing("")), ("fmod", Missing("")),
    ("erf", Missing("")), ("erfc", Missing("")), ("isinf", Missing("")), ("isposinf", Missing("")),
    ("isneginf", Missing("")), ("signbit", Missing("")), ("nan_to_num", Missing("")),
    ("deg2rad", Missing("x * pi / 180")), ("rad2deg", Missing("x * 180 / pi")),
    ("heaviside", Missing("")), ("cummax", Missing("")), ("cummin", Missing("")),
    ("average", Missing("")), ("ptp", Missing("max(x) - min(x)")), ("count_nonzero", Missing("sum(x != 0)")),
    ("nansum", Missing("")), ("nanmean", Missing("")), ("nanmax", Missing("")), ("nanmin", Missing("")),
    ("nanstd", Missing("")), ("nanvar", Missing("")), ("nanargmax", Missing("")),
    ("nanargmin", Missing("")), ("logsumexp", Missing("")), ("softmax", Missing("")),
    ("log_softmax", Missing("")), ("digitize", Missing("")), ("partition", Missing("")),
    ("argpartition", Missing("")), ("topk", Missing("")), ("searchsorted", Missing("")),
    ("nonzero", Missing("")), ("argwhere", Missing("")), ("flatnonzero", Missing("")),
    ("isin", Missing("")), ("hstack", Missing("concat(xs, axis=1) for 2-D arrays")),
    ("vstack", Missing("concat(xs, axis=0) or stack(xs)")), ("dstack", Missing("")),
    ("column_stack", Missing("")), ("split", Missing("")), ("array_split", Missing("")),
    ("flip", Missing("x[::-1]")), ("fliplr", Missing("")), ("flipud", Missing("")),
    ("roll", Missing("")), ("rot90", Missing("")), ("tile", Missing("")), ("repeat", Missing("")),
    ("pad", Missing("")), ("meshgrid", Missing("")), ("swapaxes", Missing("transpose(x, axes)")),
    ("moveaxis", Missing("transpose(x, axes)")), ("atleast_1d", Missing("")), ("atleast_2d", Missing("")),
    ("take", Missing("x[indices]")), ("take_along_axis", Missing("")), ("put_along_axis", Missing("")),
    ("choice", Missing("")), ("permutation", Missing("")), ("shuffle", Missing("")),
    ("exponential", Missing("")), ("poisson", Missing("")), ("binomial", Missing("")),
    ("bernoulli", Missing("")), ("gamma", Missing("")), ("beta", Missing("")),
    ("einsum", Missing("")), ("kron", Missing("")), ("inner", Missing("dot(x, y)")),
    ("tensordot", Missing("")), ("vdot", Missing("")), ("cross", Missing("")),
    ("convolve", Missing("")), ("correlate", Missing("")), ("interp", Missing("")),
    ("isclose", Missing("allclose(a, b) for all elements")), ("array_equal", Missing("all(a == b)")),
    ("empty_like", Missing("zeros_like(x)")), ("logical_xor", Missing("a ^ b on bool arrays")),
    ("fmax", Missing("")), ("fmin", Missing("")), ("gcd", Missing("")), ("lcm", Missing("")),
    ("logspace", Missing("")), ("geomspace", Missing("")), ("gradient", Missing("")),
    ("trapz", Is("trapezoid")), ("polyfit", Missing("")), ("polyval", Missing("")),
    ("select", Missing("")), ("vectorize", Missing("")), ("apply_along_axis", Missing("")),
    ("savetxt", Missing("save(\"x.npy\", x)")), ("loadtxt", Missing("load(\"x.npy\")")),
    ("set_printoptions", Missing("")), ("reversed", Missing("xs[::-1] on a list, or xs.reverse()")),
    ("map", Missing("[f(x) for x in xs]")), ("filter", Missing("[x for x in xs if cond]")),
];

fn meaning(name: &str) -> Option<&'static Meaning> {
    TABLE.iter().find(|(n, _)| *n == name).map(|(_, m)| m)
}

/// Whether gcalc has something called `name` (a builtin, constant, dtype, `floatX`).
fn has(name: &str) -> bool {
    crate::ops::lookup(name).is_some()
        || crate::builtins::constants::lookup(name).is_some()
        || crate::dtype::DType::from_name(name).is_some()
        || name == "floatX"
}

/// "gcalc has no `median` yet", with a workaround when there is one.
fn missing(name: &str, workaround: &str) -> String {
    if workaround.is_empty() {
        format!("gcalc has no `{name}` yet")
    } else {
        format!("gcalc has no `{name}` yet; meanwhile: {workaround}")
    }
}

/// What a foreign name `name` (no module prefix) means here, if the table knows.
fn foreign(name: &str) -> Option<String> {
    let leaf = name.rsplit('.').next().unwrap_or(name);
    let m = meaning(name).or_else(|| meaning(leaf));
    match m {
        Some(Is(target)) if has(target) => Some(format!("gcalc calls it `{target}`")),
        Some(Is(target)) => Some(missing(target, "")),
        Some(Missing(_)) if has(leaf) => Some(format!("gcalc calls it `{leaf}`")),
        Some(Missing(w)) => Some(missing(leaf, w)),
        Some(Say(text)) => Some(text.to_string()),
        None if has(leaf) && leaf != name => Some(format!("gcalc calls it `{leaf}`")),
        None => None,
    }
}

/// The help for an unknown name: `dotted` is the attribute chain read from
/// it (`np.linalg.norm`), `candidates` the names in scope.
pub fn unknown_name(name: &str, dotted: Option<&str>, candidates: &[&str]) -> Option<String> {
    if MODULES.contains(&name) {
        let rest = dotted.and_then(|d| d.split_once('.')).map(|(_, r)| r);
        let leaf = rest.map(|r| r.rsplit('.').next().unwrap_or(r));
        let say = match (rest, leaf) {
            (Some(r), Some(l)) => match meaning(r).or_else(|| meaning(l)) {
                Some(Is(t)) if has(t) => format!("write `{t}`"),
                _ if has(l) => format!("write `{l}`"),
                Some(Missing(w)) => missing(l, w),
                Some(Is(t)) => missing(t, ""),
                Some(Say(text)) => text.to_string(),
                None => format!("gcalc has no `{l}`"),
            },
            _ => "e.g. `exp(x)` for `np.exp(x)`".to_string(),
        };
        return Some(format!(
            "gcalc's functions are builtins, with no `{name}.` prefix: {say}"
        ));
    }
    if let Some(h) = foreign(name) {
        return Some(h);
    }
    // A misspelled NumPy name (`medain`) is closer to it than to gcalc's names.
    let local = closest(name, candidates);
    let table: Vec<&str> = TABLE
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| !n.contains('.'))
        .collect();
    if let Some((f, fd)) = closest(name, &table)
        && local.is_none_or(|(_, ld)| fd < ld)
        && let Some(h) = foreign(f)
    {
        return Some(format!("did you mean `{f}`? {h}"));
    }
    local.map(|(c, _)| format!("did you mean `{c}`?"))
}

/// The help for `module.attr` where `module` is also a builtin (`random`,
/// NumPy's `np.random` module): the module-prefix hint of `unknown_name`.
pub fn module_attr(module: &str, attr: &str) -> Option<String> {
    MODULES
        .contains(&module)
        .then(|| unknown_name(module, Some(&format!("{module}.{attr}")), &[]))
        .flatten()
}

/// The help for an unknown attribute or method `name` (PyTorch's `x.view`,
/// `x.cuda()`...), before a spelling suggestion among `candidates`.
pub fn unknown_attr(name: &str, candidates: &[&str]) -> Option<String> {
    match meaning(name) {
        Some(Is(t)) if candidates.contains(t) => Some(format!("gcalc calls it `{t}`")),
        Some(Is(t)) if has(t) => Some(format!("gcalc has `{t}(x)`, a function")),
        Some(Say(text)) => Some(text.to_string()),
        _ => spelling(name, candidates).map(|c| format!("did you mean `{c}`?")),
    }
}
