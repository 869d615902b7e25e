//! Heap allocations per training step of examples/logreg.gcalc (the CPU
//! speed work of issue 7): a counting global allocator around the system one,
//! the program's set-up run once, then `steps` steps counted.
//!
//! Usage: alloc_count [steps]  — prints allocations and bytes per step.
//! `ALLOC_COUNT_BODY=<code>` counts another loop body instead of the step;
//! `ALLOC_COUNT_TRACE=<frames>` also prints where one step's allocations come
//! from (the innermost `<frames>` gcalc functions of each, most frequent first).

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

static TRACE: AtomicBool = AtomicBool::new(false);
static DEPTH: AtomicUsize = AtomicUsize::new(4);
static SITES: Mutex<Option<HashMap<String, u64>>> = Mutex::new(None);

thread_local! {
    static IN_HOOK: Cell<bool> = const { Cell::new(false) };
}

/// Record the caller of an allocation (allocations made while recording are not traced).
fn trace() {
    if !TRACE.load(Relaxed) || IN_HOOK.with(|h| h.replace(true)) {
        return;
    }
    let bt = std::backtrace::Backtrace::force_capture().to_string();
    let skip = [
        "alloc::",
        "core::",
        "std::",
        "__rust",
        "alloc_count::",
        "hashbrown::",
        "<alloc::",
        "<core::",
        "<std::",
        "<hashbrown::",
    ];
    let frames: Vec<&str> = bt
        .lines()
        .filter_map(|l| l.trim().split_once(": ").map(|(_, f)| f))
        .filter(|f| !f.starts_with("0x") && !skip.iter().any(|s| f.starts_with(s)))
        .map(|f| f.trim_start_matches("gcalc_runtime::"))
        .take(DEPTH.load(Relaxed))
        .collect();
    let key = frames.join("  <  ");
    if let Ok(mut m) = SITES.lock() {
        *m.get_or_insert_with(HashMap::new).entry(key).or_default() += 1;
    }
    IN_HOOK.with(|h| h.set(false));
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        trace();
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(l.size() as u64, Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.alloc(l) }
    }
    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        trace();
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(l.size() as u64, Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.alloc_zeroed(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        trace();
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(n as u64, Relaxed);
        // SAFETY: forwarded as is.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

const SETUP: &str = "N = 400; feats = 784
seed(0)
D0 = randn((N, feats)); D1 = randint(0, 2, N).astype(floatX)
w = randn(feats) * 0.01; b = 0.0
fn cost(w, b) {
    p1 = sigmoid(D0 @ w + b)
    xent = -D1 * log(p1) - (1 - D1) * log(1 - p1)
    mean(xent) + 0.01 * sum(w ** 2)
}
step = grad(cost, (0, 1))";

const STEP: &str = "gw, gb = step(w, b)
    w -= 0.1 * gw
    b -= 0.1 * gb";

fn main() {
    let steps: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1000);
    let body = std::env::var("ALLOC_COUNT_BODY").unwrap_or_else(|_| STEP.to_string());
    let mut s = Session::new(Flags::default(), Box::new(Captured::default()));
    if let Some(e) = s.execute(SETUP, "setup").error {
        panic!("setup: {}", e.evalue());
    }
    let run = |s: &mut Session, n: usize| {
        let code = format!("for i in range({n}) {{\n    {body}\n}}");
        if let Some(e) = s.execute(&code, "steps").error {
            panic!("steps: {}", e.evalue());
        }
    };
    // Warm up (caches, pools), then count `steps` steps minus a 1-step run
    // (the loop's own set-up).
    run(&mut s, 10);
    let count = |s: &mut Session, n: usize| {
        let (a0, b0) = (ALLOCS.load(Relaxed), BYTES.load(Relaxed));
        run(s, n);
        (ALLOCS.load(Relaxed) - a0, BYTES.load(Relaxed) - b0)
    };
    let (a1, b1) = count(&mut s, 1);
    let (an, bn) = count(&mut s, steps + 1);
    let per = |x: u64, y: u64| (x - y) as f64 / steps as f64;
    println!(
        "allocations/step {:.1}  bytes/step {:.0}",
        per(an, a1),
        per(bn, b1)
    );
    if let Some(d) = std::env::var("ALLOC_COUNT_TRACE")
        .ok()
        .and_then(|d| d.parse().ok())
    {
        DEPTH.store(d, Relaxed);
        TRACE.store(true, Relaxed);
        run(&mut s, 1);
        TRACE.store(false, Relaxed);
        let mut sites: Vec<(String, u64)> = SITES
            .lock()
            .ok()
            .and_then(|mut m| m.take())
            .unwrap_or_default()
            .into_iter()
            .collect();
        sites.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        for (k, n) in sites {
            println!("{n:5}  {k}");
        }
    }
}
