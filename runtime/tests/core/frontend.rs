//! What front-ends show, driven through the Session: `progress(...)` totals
//! for every kind of iterable.

use gcalc_runtime::output::{DisplayData, Output, Progress};
use gcalc_runtime::{Flags, Session};
use std::sync::{Arc, Mutex};

/// An `Output` that keeps every progress update.
#[derive(Clone, Default)]
struct Bars(Arc<Mutex<Vec<Progress>>>);

impl Output for Bars {
    fn stdout(&mut self, _: &str) {}
    fn stderr(&mut self, _: &str) {}
    fn display(&mut self, _: &DisplayData) {}
    fn input(&mut self, _: &str) -> Option<String> {
        None
    }
    fn progress(&mut self, p: &Progress) {
        self.0
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(p.clone());
    }
}

/// Run `code` in a fresh session; the progress updates it made.
fn bars(code: &str) -> Vec<Progress> {
    let out = Bars::default();
    let mut s = Session::new(Flags::default(), Box::new(out.clone()));
    let r = s.execute(code, "In[1]");
    assert!(
        r.error.is_none(),
        "{code}: {:?}",
        r.error.map(|e| e.rendered)
    );
    std::mem::take(&mut *out.0.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Every update of a loop over `n` items says `n` as the total; the last is
/// finished with `n` done; none says more done than the total.
fn assert_totals(code: &str, n: u64) {
    let b = bars(code);
    assert!(b.len() >= 2, "{code}: too few updates {b:?}");
    for p in &b {
        assert_eq!(p.total, Some(n), "{code}: {p:?}");
        assert!(p.done <= n, "{code}: {p:?}");
    }
    let last = b.last().expect("an update");
    assert!(last.finished && last.done == n, "{code}: {last:?}");
    assert_eq!(b[0].done, 0, "{code}: the first update is before any item");
}

#[test]
fn progress_totals_are_the_whole_iterable() {
    // A range's total is its length, not what is left of it.
    assert_totals("s = 0; for i in progress(range(200)) { s += i }", 200);
    assert_totals("for i in progress(range(10, 70, 3)) { }", 20);
    assert_totals("for i in progress(range(5, -5, -2)) { }", 5);
    assert_totals("for x in progress([1, 2, 3, 4, 5, 6, 7]) { }", 7);
    assert_totals("for r in progress(ones((9, 2))) { }", 9);
    assert_totals("for i, x in progress(enumerate(arange(12))) { }", 12);
    assert_totals("for i, x in enumerate(progress(range(15))) { }", 15);
    assert_totals(
        "for a, b in progress(zip(range(30), ones((25, 3)))) { }",
        25,
    );
    assert_totals("for a, b in zip(progress([1, 2, 3]), range(8)) { }", 3);
}

#[test]
fn progress_ended_early_reports_where_it_stopped() {
    let b = bars("for i in progress(range(100)) { if i == 40 { break } }");
    let last = b.last().expect("an update");
    assert!(last.finished, "{last:?}");
    assert_eq!(last.total, Some(100));
    assert_eq!(last.done, 41, "{last:?}");
}

#[test]
fn progress_renders_one_bar_and_the_numbers() {
    let p = Progress {
        done: 50,
        total: Some(200),
        elapsed_s: 2.0,
        finished: false,
    };
    assert_eq!(
        p.render_line(8),
        "[##------] 50/200  25.0% 25.0 it/s ETA 6.0s"
    );
    assert_eq!(p.render_stats(), "50/200  25.0% 25.0 it/s ETA 6.0s");
    let q = Progress { total: None, ..p };
    assert_eq!(q.render_line(8), "50 it 25.0 it/s 2.0s");
}

/// The first error of running `code` in a fresh session, rendered.
fn error_of(code: &str) -> String {
    let mut s = Session::new(
        Flags::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    );
    s.execute(code, "In[1]")
        .error
        .unwrap_or_else(|| panic!("{code}: no error"))
        .rendered
}

#[test]
fn messages_say_an_before_vowels() {
    use gcalc_runtime::error::with_article;
    assert_eq!(with_article("int64"), "an int64");
    assert_eq!(with_article("array"), "an array");
    assert_eq!(with_article("float32"), "a float32");
    assert_eq!(with_article("uint8"), "a uint8");
    assert_eq!(with_article("object"), "an object");
    let cases = [
        ("len(1)", "an int has no length"),
        ("x = arange(3)\nx += 1.5", "into an int64 array"),
        ("f = 1\nf(2)", "an int is not callable"),
        ("for i in 1 { }", "an int cannot be iterated"),
        ("y = 1\ny.foo", "an int has no attribute `foo`"),
        ("array([1]) + \"s\"", "between an array and a string"),
        ("sum(arange(4), axis=1.5)", "got a float"),
        ("a, b = 1", "cannot unpack an int"),
        ("grad(1)", "got an int"),
    ];
    for (code, want) in cases {
        let e = error_of(code);
        assert!(e.contains(want), "{code}: {want:?} not in {e}");
    }
    // No "a" before a vowel anywhere in these messages.
    for (code, _) in cases {
        let e = error_of(code);
        for w in [" a a", " a e", " a i", " a o", " a int", " a array"] {
            assert!(!e.contains(w), "{code}: {w:?} in {e}");
        }
    }
}

fn session() -> Session {
    Session::new(
        Flags::default(),
        Box::new(gcalc_runtime::output::Captured::default()),
    )
}

/// The matches and their labels for `code` completed at its end.
fn complete(s: &Session, code: &str) -> Vec<(String, &'static str)> {
    let c = s.complete(code, code.len());
    assert_eq!(c.matches.len(), c.types.len());
    c.matches.into_iter().zip(c.types).collect()
}

#[test]
fn completion_after_calls_and_attribute_chains() {
    let mut s = session();
    assert!(
        s.execute("x = ones((2, 3))\nfn f(a) = a\nn = 3", "In[1]")
            .error
            .is_none()
    );
    let has = |m: &[(String, &str)], name: &str, kind: &str| {
        m.iter().any(|(n, k)| n == name && *k == kind)
    };
    // After a call of an op that makes arrays: array methods and attributes.
    let m = complete(&s, "zeros((2,2)).resh");
    assert_eq!(m, vec![("reshape".to_string(), "method")]);
    let m = complete(&s, "y = zeros((2, 2)).");
    assert!(
        has(&m, "sum", "method") && has(&m, "shape", "property") && has(&m, "T", "property"),
        "{m:?}"
    );
    // An attribute chain, a method call, indexing, arithmetic.
    assert_eq!(
        complete(&s, "x.T.sh"),
        vec![("shape".to_string(), "property")]
    );
    assert!(has(&complete(&s, "x.sum(axis=0).ite"), "item", "method"));
    assert!(has(&complete(&s, "x[0, 1:].resh"), "reshape", "method"));
    assert!(has(&complete(&s, "(x + 1).me"), "mean", "method"));
    assert!(has(&complete(&s, "exp(x * 2)[0].to"), "tolist", "method"));
    // Nothing is run: a user function's result is unknown; a huge array is
    // not made; a number being typed is not an attribute.
    assert!(complete(&s, "f(x).").is_empty());
    assert!(has(
        &complete(&s, "zeros((100000, 100000, 100000)).re"),
        "reshape",
        "method"
    ));
    assert!(complete(&s, "y = 1.").is_empty());
    assert!(complete(&s, "x.tolist().sh").is_empty());
    // Labels of top-level names.
    let m = complete(&s, "");
    for (name, kind) in [
        ("x", "array"),
        ("f", "function"),
        ("n", "int"),
        ("exp", "function"),
        ("fn", "keyword"),
        ("float32", "dtype"),
    ] {
        assert!(has(&m, name, kind), "{name} {kind}: {m:?}");
    }
    assert!(has(&complete(&s, "set floa"), "floatX", "flag"));
}
