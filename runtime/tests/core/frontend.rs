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

/// A session whose output is kept, and a way to run prompt inputs in it.
struct Prompt {
    s: Session,
    out: Arc<Mutex<String>>,
    n: u64,
}

#[derive(Clone)]
struct Text(Arc<Mutex<String>>);

impl Output for Text {
    fn stdout(&mut self, t: &str) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).push_str(t);
    }
    fn stderr(&mut self, t: &str) {
        self.stdout(t);
    }
    fn display(&mut self, _: &DisplayData) {}
    fn input(&mut self, _: &str) -> Option<String> {
        None
    }
}

impl Prompt {
    fn new() -> Prompt {
        let out = Arc::new(Mutex::new(String::new()));
        let s = Session::new(Flags::default(), Box::new(Text(out.clone())));
        Prompt { s, out, n: 0 }
    }

    /// Run an input; (what it printed, the value shown, the error).
    fn run(&mut self, code: &str) -> (String, Option<String>, Option<String>) {
        self.n += 1;
        let r = self
            .s
            .execute_entry(code, &format!("In[{}]", self.n), self.n);
        let printed = std::mem::take(&mut *self.out.lock().unwrap_or_else(|e| e.into_inner()));
        (
            printed,
            r.value.map(|v| v.text),
            r.error.map(|e| e.rendered),
        )
    }

    fn value(&mut self, code: &str) -> String {
        let (_, v, e) = self.run(code);
        assert!(e.is_none(), "{code}: {e:?}");
        v.unwrap_or_else(|| panic!("{code}: no value"))
    }
}

#[test]
fn underscores_name_the_values_shown() {
    let mut p = Prompt::new();
    assert_eq!(p.value("40 + 2"), "42");
    p.run("x = 7"); // no value shown: not recorded
    assert_eq!(p.value("\"text\""), "\"text\"");
    assert_eq!(p.value("_"), "\"text\"");
    assert_eq!(p.value("__"), "\"text\""); // `_` itself was shown, so it moved up
    assert_eq!(p.value("_1 + 1"), "43");
    assert_eq!(p.value("___"), "\"text\"");
    assert_eq!(p.value("_6"), "43");
    assert_eq!(p.value("_5"), "\"text\"");
    let (_, _, e) = p.run("_99");
    let e = e.expect("an error");
    assert!(e.contains("`_99` holds no value yet"), "{e}");
    // An array stays the same array.
    p.run("a = arange(3)");
    p.value("a * 2");
    assert_eq!(p.value("_.sum()"), "6 <scalar int64 @cpu(0)>");
    // A variable named `_` hides them, as in IPython.
    p.run("for _ in range(3) { }");
    p.value("100");
    assert_eq!(p.value("_"), "2");
    // reset forgets them with the variables.
    p.s.reset();
    assert!(p.run("_3").2.is_some());
}

#[test]
fn question_marks_show_help_and_source() {
    let mut p = Prompt::new();
    let (out, v, e) = p.run("exp?");
    assert!(e.is_none() && v.is_none(), "{e:?}");
    for want in [
        "exp(x)",
        "dtypes:",
        "int32→float32",
        "devices:",
        "cpu, gpu",
        "NumPy:    np.exp(x)",
        "example:",
        ">>> exp(x)",
        "12.182494",
    ] {
        assert!(out.contains(want), "{want:?} not in {out}");
    }
    assert_eq!(p.run("?exp").0, out);
    p.run("fn sq(v) {\n    v * v\n}");
    let (out, _, _) = p.run("sq??");
    assert!(out.contains("fn sq(v) {\n    v * v\n}"), "{out}");
    assert!(!p.run("sq?").0.contains("v * v"));
    p.run("m = ones((2, 3))");
    let (out, _, _) = p.run("m?");
    assert!(
        out.contains("shape: (2, 3)") && out.contains("dtype: float32"),
        "{out}"
    );
    assert!(
        p.run("m.reshape?")
            .0
            .starts_with("reshape(x, shape, order=")
    );
    let (_, _, e) = p.run("exq?");
    let e = e.expect("an error");
    assert!(
        e.contains("unknown name `exq`") && e.contains("did you mean `exp`?"),
        "{e}"
    );
    // In a cell among other lines.
    let (out, v, _) = p.run("y = 2\nsum?\ny + 1");
    assert!(out.starts_with("sum(x, axis=none"), "{out}");
    assert_eq!(v.as_deref(), Some("3"));
}

#[test]
fn percent_time_and_timeit() {
    let mut p = Prompt::new();
    p.run("x = arange(1000) * 1.5");
    let (out, v, e) = p.run("%time x.sum()");
    assert!(e.is_none(), "{e:?}");
    assert!(
        out.starts_with("Wall time: ") && out.ends_with("s\n"),
        "{out}"
    );
    assert_eq!(v.as_deref(), Some("749250.0 <scalar float32 @cpu(0)>"));
    assert_eq!(p.value("_"), "749250.0 <scalar float32 @cpu(0)>");
    let (out, v, e) = p.run("%timeit x + 1");
    assert!(e.is_none() && v.is_none(), "{e:?}");
    let re = |s: &str| {
        let (mean, rest) = s.split_once(" ± ").expect("±");
        let (std, rest) = rest
            .split_once(" per loop (mean ± std. dev. of 7 runs, ")
            .expect("per loop");
        (mean.to_string(), std.to_string(), rest.to_string())
    };
    let (mean, std, rest) = re(out.trim_end());
    for t in [&mean, &std] {
        assert!(
            ["s", "ms", "µs", "ns"]
                .iter()
                .any(|u| t.ends_with(&format!(" {u}"))),
            "{out}"
        );
    }
    assert!(
        rest.ends_with(" loops each)") || rest == "1 loop each)",
        "{out}"
    );
    // A whole cell, and a block on several lines.
    let (out, v, _) = p.run("%%time\ny = x * 2\ny.max()");
    assert!(
        out.starts_with("Wall time: ") && v.as_deref() == Some("2997.0 <scalar float32 @cpu(0)>"),
        "{out} {v:?}"
    );
    let (out, _, e) = p.run("%time for i in range(2) {\n    print(i)\n}");
    assert!(
        e.is_none() && out.starts_with("0\n1\nWall time: "),
        "{out} {e:?}"
    );
    // An error inside points at the user's line.
    let (_, _, e) = p.run("%time nosuch + 1");
    let e = e.expect("an error");
    assert!(
        e.contains("1 | %time nosuch + 1") && e.contains("      ^^^^^^"),
        "{e}"
    );
    // Other magics and shell lines say what gcalc has.
    let e = p.run("%matplotlib inline").2.expect("an error");
    assert!(e.contains("IPython magic") && e.contains("inline"), "{e}");
    let e = p.run("%timit x").2.expect("an error");
    assert!(e.contains("did you mean `%timeit`?"), "{e}");
    assert!(p.run("!ls").2.expect("an error").contains("shell commands"));
}

#[test]
fn help_pages_of_every_builtin() {
    use gcalc_runtime::ops::family::family;
    let flags = Flags::default();
    let mut no_example = Vec::new();
    for d in gcalc_runtime::ops::all() {
        let f = family(d).unwrap_or_else(|| panic!("{} has no family", d.name));
        let page = gcalc_runtime::help::page(d, &flags);
        assert!(page.starts_with(d.sig) && page.contains(d.doc), "{page}");
        assert!(page.contains("devices:"), "{page}");
        if f.is_array_math() {
            assert!(page.contains("NumPy:") || page.contains("SciPy:"), "{page}");
            if !page.contains("example:\n  >>> ") {
                no_example.push(d.name);
            }
        }
    }
    // Every array op shows a worked example but seed (which gives no value;
    // an update in place such as shuffle shows its argument after it): a new
    // op whose parameters have no sample lands here.
    // set_state likewise gives no value (it restores get_state()'s dict).
    assert_eq!(no_example, vec!["seed", "set_state"]);
}
