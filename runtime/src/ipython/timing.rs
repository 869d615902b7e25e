//! `%time` and `%timeit` as IPython runs and reports them, waiting for the
//! devices around what is timed.

use crate::error::Result;
use crate::interp::Interp;
use crate::value::Value;
use std::time::Instant;

/// `1.23 ms`, `190 µs` as IPython's `%timeit` writes times (`%.3g`).
pub fn format_time(s: f64) -> String {
    let units = ["s", "ms", "µs", "ns"];
    let order = if s > 0.0 {
        (-(s.log10().floor() as i64).div_euclid(3)).clamp(0, 3) as usize
    } else {
        3
    };
    format!("{} {}", g3(s * 1000f64.powi(order as i32)), units[order])
}

/// Python's `"%.3g" % v`.
fn g3(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let rounded: f64 = format!("{v:.2e}").parse().unwrap_or(v);
    let exp = rounded.abs().log10().floor() as i32;
    let strip = |t: String| {
        if t.contains('.') {
            t.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            t
        }
    };
    if !(-4..3).contains(&exp) {
        let m = strip(format!("{:.2}", rounded / 10f64.powi(exp)));
        format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    } else {
        strip(format!("{rounded:.*}", (2 - exp).max(0) as usize))
    }
}

/// Run the program `loops` times between device syncs; the last value and
/// the seconds it all took.
fn synced(
    i: &mut Interp,
    loops: u64,
    prog: &gcalc_lang::Program,
    name: &str,
    text: &str,
) -> Result<(Option<Value>, f64)> {
    crate::builtins::device::sync_all()?;
    let t0 = Instant::now();
    let mut v = None;
    for _ in 0..loops {
        v = i.run(prog, name, text)?;
    }
    crate::builtins::device::sync_all()?;
    Ok((v, t0.elapsed().as_secs_f64()))
}

/// `%time`: run once between device syncs; say the wall time; give the value.
pub(super) fn time(
    i: &mut Interp,
    prog: &gcalc_lang::Program,
    name: &str,
    text: &str,
) -> Result<Option<Value>> {
    let (v, dt) = synced(i, 1, prog, name, text)?;
    i.out.stdout(&format!("Wall time: {}\n", format_time(dt)));
    Ok(v)
}

/// `%timeit`: as IPython: loops per run grown (1, 2, 5, 10, 20, ...) until a
/// run takes 0.2 s, then 7 runs; the mean and standard deviation per loop.
pub(super) fn timeit(
    i: &mut Interp,
    prog: &gcalc_lang::Program,
    name: &str,
    text: &str,
) -> Result<Option<Value>> {
    let run = |loops: u64, i: &mut Interp| synced(i, loops, prog, name, text).map(|r| r.1);
    let mut loops = 1u64;
    'grow: for base in (0..).map(|e| 10u64.pow(e)) {
        for m in [1, 2, 5] {
            loops = base * m;
            if run(loops, i)? >= 0.2 {
                break 'grow;
            }
        }
    }
    const RUNS: usize = 7;
    let per: Vec<f64> = (0..RUNS)
        .map(|_| run(loops, i).map(|t| t / loops as f64))
        .collect::<Result<_>>()?;
    let mean = per.iter().sum::<f64>() / RUNS as f64;
    let std = (per.iter().map(|t| (t - mean).powi(2)).sum::<f64>() / RUNS as f64).sqrt();
    i.out.stdout(&format!(
        "{} ± {} per loop (mean ± std. dev. of {RUNS} runs, {loops} loop{} each)\n",
        format_time(mean),
        format_time(std),
        if loops == 1 { "" } else { "s" }
    ));
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::format_time;

    #[test]
    fn times_as_ipython_writes_them() {
        // What IPython's _format_time gives for the same numbers.
        assert_eq!(format_time(1.9e-4), "190 µs");
        assert_eq!(format_time(1.234e-3), "1.23 ms");
        assert_eq!(format_time(0.5), "500 ms");
        assert_eq!(format_time(2.0), "2 s");
        assert_eq!(format_time(12.3e-6), "12.3 µs");
        assert_eq!(format_time(45e-9), "45 ns");
        assert_eq!(format_time(999.7e-6), "1e+03 µs");
    }
}
