//! Runs a batch of cases on both sides and reports: gcalc's outcomes from
//! the caller's closure (a `Session` in-process, on the CPU or a GPU), NumPy's
//! from one oracle process; mismatches grouped into classes (the case's label
//! and the kind of mismatch), the first of each class shrunk to a minimal
//! reproduction, everything printed with the seed that regenerates it.

use crate::oracle::{Oracle, OracleProc};
use crate::outcome::{Mismatch, Outcome, Tol, compare};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::time::{Duration, Instant};

/// A differential case: the same computation in gcalc and in NumPy, each
/// leaving its result in the variable `out`.
pub trait Case: Clone {
    fn gcalc(&self) -> String;
    fn numpy(&self) -> String;
    fn tol(&self) -> Tol;
    /// What kind of case it is, for grouping mismatches (`aug int_array`).
    fn label(&self) -> String;
    /// Smaller variants of this case, most promising first (may be empty).
    fn shrink(&self) -> Vec<Self>;
}

/// One case that disagrees, with both outcomes and its minimal form.
pub struct Failure<C> {
    pub index: usize,
    pub case: C,
    pub mismatch: Mismatch,
    pub gcalc: Outcome,
    pub numpy: Outcome,
    /// The smallest variant found that still shows the same kind of mismatch
    /// (the case itself when none is smaller; `None`: not shrunk, past
    /// `MAX_SHRUNK` classes).
    pub minimal: Option<(C, Outcome, Outcome)>,
}

/// The result of checking a batch.
pub struct Report<C> {
    pub name: String,
    pub seed: u64,
    pub total: usize,
    /// The first failure of each class, (mismatch, label of its minimal
    /// form) -> (count, failure).
    pub classes: BTreeMap<(Mismatch, String), (usize, Failure<C>)>,
    pub gcalc_time: Duration,
    pub numpy_time: Duration,
    /// How to run one case again; `{index}` stands for its number.
    pub rerun: String,
    pub numpy_version: String,
}

/// Rounds of shrinking per class, and classes shrunk at most per batch.
const SHRINK_ROUNDS: usize = 40;
const MAX_SHRUNK: usize = 400;

/// Check `cases` (each with its number, which regenerates it from the
/// seed): gcalc through `gcalc` (the program text in, the outcome of `out`
/// back), NumPy through `oracle`.
pub fn check<C: Case>(
    name: &str,
    seed: u64,
    cases: Vec<(usize, C)>,
    gcalc: &mut dyn FnMut(&str) -> Outcome,
    oracle: &Oracle,
    rerun: &str,
) -> Result<Report<C>, String> {
    let total = cases.len();
    let numpy_version = &oracle.numpy_version;
    let t = Instant::now();
    let g: Vec<Outcome> = cases.iter().map(|(_, c)| gcalc(&c.gcalc())).collect();
    let gcalc_time = t.elapsed();
    let t = Instant::now();
    let mut oracle = oracle.start()?;
    let n = oracle.run(&cases.iter().map(|(_, c)| c.numpy()).collect::<Vec<_>>())?;
    let numpy_time = t.elapsed();
    // Group by the kind of mismatch and the case's label; shrink the first
    // of each group; then regroup by the minimal case's label (a smaller,
    // truer name for the class).
    let mut groups: BTreeMap<(Mismatch, String), (usize, Failure<C>)> = BTreeMap::new();
    for (((index, case), g), n) in cases.into_iter().zip(g).zip(n) {
        let Some(m) = compare(&g, &n, case.tol()) else {
            continue;
        };
        let key = (m, case.label());
        if let Some((count, _)) = groups.get_mut(&key) {
            *count += 1;
            continue;
        }
        let f = Failure {
            index,
            case,
            mismatch: m,
            gcalc: g,
            numpy: n,
            minimal: None,
        };
        groups.insert(key, (1, f));
    }
    let mut classes: BTreeMap<(Mismatch, String), (usize, Failure<C>)> = BTreeMap::new();
    for (k, ((m, label), (count, mut f))) in groups.into_iter().enumerate() {
        if k < MAX_SHRUNK {
            // No smaller variant fails the same way: the case is minimal.
            f.minimal = shrink(&f.case, m, gcalc, &mut oracle)?
                .or_else(|| Some((f.case.clone(), f.gcalc.clone(), f.numpy.clone())));
        }
        let label = f.minimal.as_ref().map_or(label, |(c, _, _)| c.label());
        match classes.get_mut(&(m, label.clone())) {
            Some((n, _)) => *n += count,
            None => {
                classes.insert((m, label), (count, f));
            }
        }
    }
    Ok(Report {
        name: name.into(),
        seed,
        total,
        classes,
        gcalc_time,
        numpy_time,
        rerun: rerun.into(),
        numpy_version: numpy_version.clone(),
    })
}

/// Greedy shrinking: take the first smaller variant that still shows the same
/// kind of mismatch, until none does. Each round is one oracle batch.
fn shrink<C: Case>(
    case: &C,
    m: Mismatch,
    gcalc: &mut dyn FnMut(&str) -> Outcome,
    oracle: &mut OracleProc,
) -> Result<Option<(C, Outcome, Outcome)>, String> {
    let mut best: Option<(C, Outcome, Outcome)> = None;
    let mut cur = case.clone();
    for _ in 0..SHRINK_ROUNDS {
        let cands = cur.shrink();
        if cands.is_empty() {
            break;
        }
        let n = oracle.run(&cands.iter().map(|c| c.numpy()).collect::<Vec<_>>())?;
        let mut next = None;
        for (c, n) in cands.into_iter().zip(n) {
            let g = gcalc(&c.gcalc());
            if compare(&g, &n, c.tol()) == Some(m) {
                next = Some((c, g, n));
                break;
            }
        }
        let Some(found) = next else { break };
        cur = found.0.clone();
        best = Some(found);
    }
    Ok(best)
}

impl<C: Case> Report<C> {
    pub fn failures(&self) -> usize {
        self.classes.values().map(|(n, _)| n).sum()
    }

    /// Every class with its first case, both outcomes and the minimal reproduction.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}: {} cases, seed {}, {} mismatches in {} classes (gcalc {:.2}s, NumPy {} {:.2}s)",
            self.name,
            self.total,
            self.seed,
            self.failures(),
            self.classes.len(),
            self.gcalc_time.as_secs_f64(),
            self.numpy_version,
            self.numpy_time.as_secs_f64()
        );
        for ((m, label), (count, f)) in &self.classes {
            let _ = writeln!(
                s,
                "\n--- [{label}] {}: {count} case(s); first is case {} of seed {}",
                m.describe(),
                f.index,
                self.seed
            );
            write_case(&mut s, "", &f.case, &f.gcalc, &f.numpy);
            match &f.minimal {
                Some((c, g, n)) if c.gcalc() != f.case.gcalc() => {
                    let _ = writeln!(s, "  minimal reproduction:");
                    write_case(&mut s, "  ", c, g, n);
                }
                Some(_) => {
                    let _ = writeln!(s, "  (already minimal)");
                }
                None => {}
            }
            let _ = writeln!(
                s,
                "  rerun: {}",
                self.rerun.replace("{index}", &f.index.to_string())
            );
        }
        s
    }

    /// Panic with the report when any case disagrees.
    pub fn assert_clean(&self) {
        if !self.classes.is_empty() {
            panic!("{}", self.render());
        }
    }
}

fn write_case<C: Case>(s: &mut String, ind: &str, c: &C, g: &Outcome, n: &Outcome) {
    let one = |p: String| p.trim_end().replace('\n', "; ");
    let _ = writeln!(s, "{ind}  gcalc:  {}", one(c.gcalc()));
    let _ = writeln!(s, "{ind}  numpy:  {}", one(c.numpy()));
    let _ = writeln!(s, "{ind}  gcalc gives  {g}");
    let _ = writeln!(s, "{ind}  NumPy gives  {n}");
}
