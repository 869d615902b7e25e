//! `histogram_bin_edges(a, bins=10, range=none, weights=none)`: the edges
//! `histogram` would use. An int or explicit edges are histogram's own; a
//! string names one of NumPy's width estimators (auto fd sturges doane
//! scott stone rice sqrt), computed on the host in float64 from the data
//! (read once: the bin count depends on the values), and the count is then
//! handed to histogram so the edges are NumPy's linspace in a's dtype.

use super::super::nparr::{call, data, items, value_err};
use super::super::stat_args::float;
use crate::error::{Error, Result};
use crate::interp::{Args, Interp};
use crate::value::Value;

const ESTIMATORS: [&str; 8] = [
    "auto", "fd", "sturges", "doane", "scott", "stone", "rice", "sqrt",
];

pub(crate) fn histogram_bin_edges(i: &mut Interp, mut a: Args) -> Result<Value> {
    let span = a.span;
    let name = "histogram_bin_edges";
    let x = data(i, a.req("a")?, name, "a")?;
    let bins = a.opt("bins")?.unwrap_or(Value::Int(10));
    let range = a.opt("range")?.unwrap_or(Value::None);
    let weights = a.opt("weights")?.unwrap_or(Value::None);
    a.finish_with(&["bins", "range", "weights"])?;
    let bins = match bins {
        Value::Str(s) => {
            if !ESTIMATORS.contains(&&*s) {
                return Err(value_err(
                    name,
                    format!("'{s}' is not a valid estimator for `bins`"),
                    "give an int, edges, or one of auto fd sturges doane scott stone rice sqrt",
                ));
            }
            if !matches!(weights, Value::None) {
                return Err(Error::type_(format!(
                    "{name}: Automated estimation of the number of bins is not supported for weighted data"
                ))
                .with_op(name)
                .with_help("give an int bin count with weights"));
            }
            Value::Int(estimated_bins(&x, &s, &range, name)? as i64)
        }
        b => b,
    };
    let kw = vec![("bins", bins), ("range", range), ("weights", weights)];
    let out = call(i, span, "histogram", vec![x.into()], kw)?;
    items(out, name)?
        .into_iter()
        .nth(1)
        .ok_or_else(|| Error::internal("histogram gave no edges"))
}

/// NumPy's `_get_bin_edges` for a string: the number of equal bins.
fn estimated_bins(x: &crate::array::Array, est: &str, range: &Value, name: &str) -> Result<usize> {
    let int_data = !x.dtype().is_float();
    let mut v = x.to_vec::<f64>()?;
    let (first, last) = match range {
        Value::None => {
            if v.is_empty() {
                (0.0, 1.0)
            } else {
                let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
                let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                if !lo.is_finite() || !hi.is_finite() || v.iter().any(|e| e.is_nan()) {
                    return Err(value_err(
                        name,
                        format!("autodetected range of [{lo}, {hi}] is not finite"),
                        "remove NaN and inf first, or give range=(lo, hi)",
                    ));
                }
                (lo, hi)
            }
        }
        r => {
            let t = r.seq_items().filter(|t| t.len() == 2).ok_or_else(|| {
                value_err(
                    name,
                    "range must be a pair (lo, hi)".into(),
                    "give range=(lo, hi)",
                )
            })?;
            let (lo, hi) = (float(&t[0], "range", name)?, float(&t[1], "range", name)?);
            if lo > hi {
                return Err(value_err(
                    name,
                    "max must be larger than min in range parameter.".into(),
                    "give range=(lo, hi) with lo <= hi",
                ));
            }
            v.retain(|&e| e >= lo && e <= hi);
            (lo, hi)
        }
    };
    let (first, last) = if first == last {
        (first - 0.5, last + 0.5)
    } else {
        (first, last)
    };
    if v.is_empty() {
        return Ok(1);
    }
    let mut width = width_of(est, &v, (first, last));
    if width != 0.0 && !width.is_nan() {
        if int_data && width < 1.0 {
            width = 1.0;
        }
        let n = ((last - first) / width).ceil();
        if !(n.is_finite() && n < 1e9) {
            return Err(value_err(
                name,
                format!("the estimator '{est}' asks for {n} bins"),
                "give an int bin count",
            ));
        }
        Ok((n as usize).max(1))
    } else {
        Ok(1)
    }
}

fn ptp(x: &[f64]) -> f64 {
    let lo = x.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    hi - lo
}

fn mean(x: &[f64]) -> f64 {
    x.iter().sum::<f64>() / x.len() as f64
}

fn std(x: &[f64]) -> f64 {
    let m = mean(x);
    (x.iter().map(|e| (e - m) * (e - m)).sum::<f64>() / x.len() as f64).sqrt()
}

/// NumPy's percentile (method "linear") of sorted data.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    let vi = q / 100.0 * (n as f64 - 1.0);
    let lo = vi.floor().clamp(0.0, n as f64 - 1.0) as usize;
    let hi = (lo + 1).min(n - 1);
    let t = vi - lo as f64;
    let (a, b) = (sorted[lo], sorted[hi]);
    let d = b - a;
    if t >= 0.5 {
        b - d * (1.0 - t)
    } else {
        a + d * t
    }
}

/// The estimators by name (a table: "sqrt" is also an op's name).
#[derive(Clone, Copy)]
enum Est {
    Auto,
    Fd,
    Sturges,
    Doane,
    Scott,
    Stone,
    Rice,
    Sqrt,
}

const BY_NAME: [(&str, Est); 8] = [
    ("auto", Est::Auto),
    ("fd", Est::Fd),
    ("sturges", Est::Sturges),
    ("doane", Est::Doane),
    ("scott", Est::Scott),
    ("stone", Est::Stone),
    ("rice", Est::Rice),
    ("sqrt", Est::Sqrt),
];

fn width_of(est: &str, x: &[f64], range: (f64, f64)) -> f64 {
    let est = BY_NAME
        .iter()
        .find(|(n, _)| *n == est)
        .map_or(Est::Auto, |(_, e)| *e);
    let n = x.len() as f64;
    let sturges = || ptp(x) / (n.log2() + 1.0);
    let sqrt = || ptp(x) / n.sqrt();
    let fd = || {
        let mut s = x.to_vec();
        s.sort_by(f64::total_cmp);
        let iqr = percentile(&s, 75.0) - percentile(&s, 25.0);
        2.0 * iqr * n.powf(-1.0 / 3.0)
    };
    match est {
        Est::Sqrt => sqrt(),
        Est::Sturges => sturges(),
        Est::Rice => ptp(x) / (2.0 * n.powf(1.0 / 3.0)),
        Est::Scott => (24.0 * std::f64::consts::PI.powf(0.5) / n).powf(1.0 / 3.0) * std(x),
        Est::Fd => fd(),
        Est::Auto => fd().max(sqrt() / 2.0).min(sturges()),
        Est::Doane => {
            if x.len() > 2 {
                let sg1 = (6.0 * (n - 2.0) / ((n + 1.0) * (n + 3.0))).sqrt();
                let sigma = std(x);
                if sigma > 0.0 {
                    let m = mean(x);
                    let g1 = mean(
                        &x.iter()
                            .map(|e| ((e - m) / sigma).powi(3))
                            .collect::<Vec<_>>(),
                    );
                    return ptp(x) / (1.0 + n.log2() + (1.0 + g1.abs() / sg1).log2());
                }
            }
            0.0
        }
        Est::Stone => stone(x, range),
    }
}

/// Stone's rule: the bin count in 1..=max(100, sqrt(n)) minimising the
/// estimated L2 risk of the histogram (NumPy's `_hist_bin_stone`).
fn stone(x: &[f64], (lo, hi): (f64, f64)) -> f64 {
    let n = x.len();
    let p = ptp(x);
    if n <= 1 || p == 0.0 {
        return 0.0;
    }
    let upper = 100usize.max((n as f64).sqrt() as usize);
    let mut best = (f64::INFINITY, 1);
    for nbins in 1..=upper {
        let hh = p / nbins as f64;
        let mut counts = vec![0usize; nbins];
        let w = (hi - lo) / nbins as f64;
        for &e in x {
            if e < lo || e > hi {
                continue;
            }
            let k = (((e - lo) / w) as usize).min(nbins - 1);
            counts[k] += 1;
        }
        let pk2: f64 = counts.iter().map(|&c| (c as f64 / n as f64).powi(2)).sum();
        let j = (2.0 - (n as f64 + 1.0) * pk2) / hh;
        if j < best.0 {
            best = (j, nbins);
        }
    }
    p / best.1 as f64
}
