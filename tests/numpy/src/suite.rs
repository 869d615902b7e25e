//! The differential suites as the tests run them, with their settings from
//! the environment, so the CPU and GPU tests (and anyone reproducing a
//! failure) share one way to say what to run:
//!   GCALC_DIFF_CASES=N        indexing cases per seed (default: the test's)
//!   GCALC_DIFF_FN_CASES=N     cases per function-table row (default: the test's)
//!   GCALC_DIFF_SEED=S[,S..]   seeds (default 1), or `random` (printed)
//!   GCALC_DIFF_CASE=I         only case I of the seed (a reproduction)
//!   GCALC_DIFF_KINDS=ci|all|k1,k2,..  which indexing kinds (default ci:
//!                             every kind but index::CI_OFF)
//!   GCALC_DIFF_TRY=F7[,F12]   also run the kinds CI leaves off for these
//!                             findings (tests/numpy/FINDINGS.md): a fixer's
//!                             check before deleting their CI_OFF lines
//!   GCALC_DIFF_FN=name[,..]   only these function rows

use crate::driver::{Report, check};
use crate::index::{self, Feature, Features, IndexCase, Kinds};
use crate::ops::{self, FnCase, FnSpec};
use crate::oracle::Oracle;
use crate::outcome::Outcome;
use crate::rng::{Rng, case_seed};

/// What to run, read from the environment.
#[derive(Clone, Debug)]
pub struct Settings {
    pub cases: usize,
    pub fn_cases: usize,
    pub seeds: Vec<u64>,
    pub only: Option<usize>,
    pub kinds: Kinds,
    pub functions: Option<Vec<String>>,
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|s| !s.trim().is_empty())
}

fn parse_num<T: std::str::FromStr>(name: &str, s: &str) -> T {
    s.trim()
        .parse()
        .unwrap_or_else(|_| panic!("{name}={s:?} is not a number"))
}

impl Settings {
    /// Defaults `cases` indexing cases per seed and `fn_cases` per function
    /// row, overridden by the environment (bad values panic with the reason).
    pub fn from_env(cases: usize, fn_cases: usize) -> Settings {
        Settings::from_env_off(cases, fn_cases, &[])
    }

    /// `from_env`, with more combinations of kinds left off by default (a
    /// device's own findings) besides `index::CI_OFF`.
    pub fn from_env_off(
        cases: usize,
        fn_cases: usize,
        extra_off: &[(&[Feature], &'static str)],
    ) -> Settings {
        let seeds = match env("GCALC_DIFF_SEED").as_deref() {
            None => vec![1],
            Some("random") => {
                let t = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                vec![Rng::seeded(t).next_u64() % 1_000_000_000]
            }
            Some(s) => s
                .split(',')
                .map(|x| parse_num("GCALC_DIFF_SEED", x))
                .collect(),
        };
        let mut kinds = match env("GCALC_DIFF_KINDS").as_deref() {
            None | Some("ci") => {
                let mut k = Kinds::ci();
                k.off
                    .extend(extra_off.iter().map(|(fs, why)| (Features::of(fs), *why)));
                k
            }
            Some(s) => Kinds {
                on: Features::parse(s).unwrap_or_else(|e| panic!("GCALC_DIFF_KINDS: {e}")),
                off: vec![],
            },
        };
        if let Some(tags) = env("GCALC_DIFF_TRY") {
            for tag in tags.split(',').map(str::trim) {
                let tag = format!("({tag})");
                let before = kinds.off.len();
                kinds.off.retain(|(_, why)| !why.contains(&tag));
                if kinds.off.len() == before {
                    panic!("GCALC_DIFF_TRY: no kind left off for {tag}");
                }
            }
        }
        Settings {
            cases: env("GCALC_DIFF_CASES").map_or(cases, |s| parse_num("GCALC_DIFF_CASES", &s)),
            fn_cases: env("GCALC_DIFF_FN_CASES")
                .map_or(fn_cases, |s| parse_num("GCALC_DIFF_FN_CASES", &s)),
            seeds,
            only: env("GCALC_DIFF_CASE").map(|s| parse_num("GCALC_DIFF_CASE", &s)),
            kinds,
            functions: env("GCALC_DIFF_FN")
                .map(|s| s.split(',').map(|x| x.trim().into()).collect()),
        }
    }

    fn range(&self, n: usize) -> std::ops::Range<usize> {
        match self.only {
            Some(i) => i..i + 1,
            None => 0..n,
        }
    }

    /// The command that reruns case `{index}` of `seed` in `test`.
    fn rerun(&self, seed: u64, test: &str) -> String {
        let kinds = if self.kinds.off.is_empty() {
            format!(
                " GCALC_DIFF_KINDS={}",
                self.kinds.on.names().replace('+', ",")
            )
        } else {
            String::new()
        };
        format!("GCALC_DIFF_SEED={seed} GCALC_DIFF_CASE={{index}}{kinds} {test}")
    }
}

/// The indexing cases `range` of `seed`, with their numbers.
pub fn index_cases(
    seed: u64,
    range: std::ops::Range<usize>,
    kinds: &Kinds,
) -> Vec<(usize, IndexCase)> {
    range
        .map(|i| {
            let c = index::generate(&mut Rng::seeded(case_seed(seed, i as u64)), kinds);
            (i, c)
        })
        .collect()
}

/// Run the indexing suite for every seed; prints each report's summary.
/// `name` names the device; `test` is the command that runs this test.
pub fn run_index(
    name: &str,
    test: &str,
    s: &Settings,
    oracle: &Oracle,
    gcalc: &mut dyn FnMut(&str) -> Outcome,
) -> Vec<Report<IndexCase>> {
    let mut reports = Vec::new();
    let off = s.kinds.describe_off();
    println!("{name}: kinds left off:\n{off}");
    for &seed in &s.seeds {
        let r = s.range(s.cases);
        let cases = index_cases(seed, r, &s.kinds);
        let rep = check(name, seed, cases, gcalc, oracle, &s.rerun(seed, test))
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        println!("{}", rep.render().lines().next().unwrap_or(""));
        reports.push(rep);
    }
    reports
}

/// A row's own seed: cases of a row stay the same when rows are added.
fn row_seed(seed: u64, spec: &FnSpec) -> u64 {
    spec.name
        .bytes()
        .fold(seed ^ 0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        })
}

/// Run `fn_cases` cases of every row of `table` for every seed.
pub fn run_functions(
    name: &str,
    test: &str,
    s: &Settings,
    table: &'static [FnSpec],
    oracle: &Oracle,
    gcalc: &mut dyn FnMut(&str) -> Outcome,
) -> Vec<Report<FnCase>> {
    let mut reports = Vec::new();
    for &seed in &s.seeds {
        let mut cases = Vec::new();
        for spec in table {
            if s.functions
                .as_ref()
                .is_some_and(|f| !f.iter().any(|n| n == spec.name))
            {
                continue;
            }
            let rs = row_seed(seed, spec);
            for i in s.range(s.fn_cases) {
                let c = ops::generate_for(&mut Rng::seeded(case_seed(rs, i as u64)), spec);
                cases.push((i, c));
            }
        }
        let rerun = format!(
            "GCALC_DIFF_SEED={seed} GCALC_DIFF_FN=<the function> GCALC_DIFF_CASE={{index}} {test}"
        );
        let rep = check(name, seed, cases, gcalc, oracle, &rerun)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        println!("{}", rep.render().lines().next().unwrap_or(""));
        reports.push(rep);
    }
    reports
}
