//! The Session API every front-end drives: execute (values, errors, state
//! kept after errors), complete, inspect, is_complete, interrupt, help for
//! every builtin.

use gcalc_lang::Completeness;
use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session, ops};
use std::time::Duration;

fn session() -> Session {
    Session::new(Flags::default(), Box::new(Captured::default()))
}

#[test]
fn values_errors_and_state() {
    let mut s = session();
    assert!(
        s.execute("x = arange(6).reshape(2, 3)", "In[1]")
            .error
            .is_none()
    );
    let v = s.execute("x.sum(axis=0)", "In[2]").value.expect("a value");
    assert_eq!(v.text, "[3 5 7]\n<3 int64 @cpu(0)>");
    assert!(v.html.is_some());
    let e = s
        .execute("y = x + ones(4)", "In[3]")
        .error
        .expect("an error");
    assert!(
        e.rendered.contains("In[3]:1:5") && e.rendered.contains("(2, 3) and (4,)"),
        "{}",
        e.rendered
    );
    assert_eq!(e.ename(), "ShapeError");
    // The session goes on with every variable kept.
    assert!(s.get("x").is_some() && s.get("y").is_none());
    let vars = s.vars();
    assert_eq!(vars.len(), 1);
    assert_eq!(vars[0].shape, Some(vec![2, 3]));
    assert_eq!(vars[0].bytes, Some(48));
    // Several syntax errors are reported together.
    let e = s
        .execute("a = 1 +\nb = ]\n", "In[4]")
        .error
        .expect("errors");
    assert!(e.errors.len() >= 2, "{}", e.rendered);
}

#[test]
fn completion_and_inspection() {
    let mut s = session();
    s.execute("myvar = zeros((2, 3)); mystr = \"s\"", "In[1]");
    let c = s.complete("my", 2);
    assert_eq!(
        c.matches,
        vec!["myvar", "mystr"]
            .into_iter()
            .map(String::from)
            .collect::<Vec<_>>()
            .tap_sort()
    );
    let c = s.complete("myvar.res", 9);
    assert!(
        c.matches.contains(&"reshape".to_string()),
        "{:?}",
        c.matches
    );
    assert_eq!((c.start, c.end), (6, 9));
    assert!(
        s.complete("myvar.sh", 8)
            .matches
            .contains(&"shape".to_string())
    );
    assert!(
        s.complete("set flo", 7)
            .matches
            .contains(&"floatX".to_string())
    );
    assert!(
        s.complete("set floatX = float6", 19)
            .matches
            .contains(&"float64".to_string())
    );
    assert!(s.complete("ex", 2).matches.contains(&"exp".to_string()));
    let i = s.inspect("myvar", 2).expect("inspection");
    assert!(
        i.text.contains("shape: (2, 3)")
            && i.text.contains("float32")
            && i.text.contains("bytes: 24"),
        "{}",
        i.text
    );
    let i = s.inspect("exp(", 4).expect("help of the callee");
    assert!(i.text.contains("exp(x)"), "{}", i.text);
}

trait TapSort {
    fn tap_sort(self) -> Self;
}
impl TapSort for Vec<String> {
    fn tap_sort(mut self) -> Self {
        self.sort();
        self
    }
}

#[test]
fn is_complete_for_prompts() {
    let s = session();
    assert_eq!(s.is_complete("x = 1"), Completeness::Complete);
    assert!(matches!(
        s.is_complete("fn f(x) {"),
        Completeness::Incomplete { .. }
    ));
    assert!(matches!(
        s.is_complete("y = [1,"),
        Completeness::Incomplete { .. }
    ));
    assert_eq!(s.is_complete("x = )"), Completeness::Invalid);
}

#[test]
fn interrupt_stops_a_loop_and_keeps_variables() {
    let mut s = session();
    s.execute("k = 0; keep = 7", "In[1]");
    let h = s.interrupt_handle();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        h.interrupt();
    });
    let e = s
        .execute("while true { k += 1 }", "In[2]")
        .error
        .expect("interrupted");
    t.join().expect("join");
    assert_eq!(e.ename(), "KeyboardInterrupt");
    let v = s.execute("(k > 0, keep)", "In[3]").value.expect("value");
    assert_eq!(v.text, "(true, 7)");
}

#[test]
fn every_builtin_has_help() {
    let all = ops::all();
    assert!(all.len() > 80, "only {} builtins", all.len());
    for d in all {
        assert!(
            d.sig.contains(d.name),
            "signature of {} does not name it: {}",
            d.name,
            d.sig
        );
        assert!(d.doc.len() > 10, "{} has no doc", d.name);
        let mut s = session();
        let out = s.execute(&format!("help({})", d.name), "In[1]");
        assert!(out.error.is_none(), "help({}) failed", d.name);
    }
}

#[test]
fn tuples_lists_and_strings_take_an_int_or_a_slice() {
    let mut s = session();
    let value = |s: &mut Session, code: &str| {
        s.execute(code, "In")
            .value
            .unwrap_or_else(|| panic!("{code}: no value"))
            .text
    };
    assert_eq!(value(&mut s, "(1, 2, 3)[-1]"), "3");
    assert_eq!(value(&mut s, "[4, 5][0]"), "4");
    assert_eq!(value(&mut s, "\"héllo\"[1]"), value(&mut s, "\"é\""));
    assert_eq!(value(&mut s, "\"héllo\"[-1]"), value(&mut s, "\"o\""));
    assert_eq!(value(&mut s, "\"héllo\"[1:3]"), value(&mut s, "\"él\""));
    assert_eq!(value(&mut s, "[1, 2, 3, 4][::-2]"), "[4, 2]");
    assert_eq!(value(&mut s, "(1, 2, 3)[-2:]"), "(2, 3)");
    for (code, message) in [
        (
            "(1, 2)[2]",
            "index 2 is out of range for a tuple of length 2",
        ),
        (
            "[1, 2][-3]",
            "index -3 is out of range for a list of length 2",
        ),
        ("(1, 2)[1.5]", "a float cannot index a tuple"),
        (
            "(1, 2)[0, 1]",
            "tuples take one index: an int or a slice like 1:3",
        ),
        (
            "\"ab\"[2]",
            "index 2 is out of range for a string of length 2",
        ),
        ("\"ab\"[\"a\"]", "a string cannot index a string"),
        ("\"ab\"[0, 1]", "strings take one index"),
    ] {
        let e = s.execute(code, "In").error.expect(code);
        assert!(e.rendered.contains(message), "{code}: {}", e.rendered);
    }
}

#[test]
fn deeply_nested_lists_print_compare_and_drop() {
    // On the test thread's small stack (2 MiB): printing, comparing or
    // dropping 200,000 levels by recursion would overflow it (issue 24).
    let mut s = session();
    let run = |s: &mut Session, code: &str| {
        let r = s.execute(code, "In[1]");
        assert!(
            r.error.is_none(),
            "{code}: {:?}",
            r.error.map(|e| e.rendered)
        );
        r.value.map(|v| v.text).unwrap_or_default()
    };
    run(
        &mut s,
        "x = []; y = []; for i in range(200000) { x = [x]; y = [y] }",
    );
    let shown = run(&mut s, "x");
    assert_eq!(shown.len(), 400_002);
    assert!(shown.starts_with("[[[[") && shown.ends_with("]]]]"));
    assert_eq!(
        run(&mut s, "(x == y, x == [y], len(str(x)))"),
        "(true, false, 400002)"
    );
    let e = s.execute("array(x)", "In[2]").error.expect("an error");
    assert!(
        e.rendered.contains("at most 64 dimensions"),
        "{}",
        e.rendered
    );
    run(
        &mut s,
        "t = (); for i in range(200000) { t = (i, t) }; x = none; y = none; t = 0",
    );
    assert_eq!(run(&mut s, "1 + 1"), "2");
}
