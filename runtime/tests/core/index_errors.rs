//! Bad indices in a session (issue 16): each is a clear error naming the
//! problem (the axis and its size, how many indices, the item's type, the
//! mask's shape), with the source caret; the session goes on and a write
//! that fails has written nothing — not even the in-bounds part. And the
//! audit of write paths (ARCHITECTURE.md "Indexing: views, copies and every
//! write"): a write through a view reaches the array; one into a temporary
//! copy is an error saying the write would be lost.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};

fn session() -> Session {
    let mut flags = Flags::default();
    flags.set("floatX", "float64").expect("floatX flag");
    Session::new(flags, Box::new(Captured::default()))
}

fn shown(s: &mut Session, code: &str) -> String {
    let r = s.execute(code, "In[1]");
    if let Some(e) = r.error {
        panic!("{code}\n{}", e.rendered);
    }
    r.value.map(|v| v.text).unwrap_or_default()
}

/// (code, what the error must say).
const BAD: &[(&str, &[&str])] = &[
    (
        "x[1, 3]",
        &["index 3 is out of bounds for axis 1 with size 3"],
    ),
    (
        "x[-3]",
        &["index -3 is out of bounds for axis 0 with size 2"],
    ),
    (
        "x[0, 1, 2]",
        &["too many indices", "2-dimensional, but 3 were indexed"],
    ),
    ("x[1.5]", &["valid indices, not a float"]),
    (
        "x[array([1.0])]",
        &["must be of integer (or boolean) type, not float64"],
    ),
    (
        "x[array([true, false, true])]",
        &["boolean index did not match", "axis 0", "size of axis is 2"],
    ),
    ("x[::0]", &["slice step cannot be zero"]),
    (
        "x[array([0, 1]), array([0, 1, 2])]",
        &["could not be broadcast together with shapes (2,) (3,)"],
    ),
    // Writes and updates: an error, and nothing written.
    (
        "x[array([0, 5])] = 99.0",
        &["index 5 is out of bounds for axis 0 with size 2"],
    ),
    (
        "x[:, array([2, 0, 3])] += 99.0",
        &["index 3 is out of bounds for axis 1 with size 3"],
    ),
    (
        "x[x > 0, 0] = 99.0",
        &["too many indices", "a mask counts one per axis it covers"],
    ),
    (
        "x[0, array([true, false])] *= 2.0",
        &["boolean index did not match", "axis 1", "size of axis is 3"],
    ),
    (
        "add_at(x, (array([0, 1]), array([1, -4])), 99.0)",
        &["index -4 is out of bounds for axis 1 with size 3"],
    ),
    ("x[0] = ones(4)", &["could not broadcast", "(4,)", "(3,)"]),
];

#[test]
fn bad_indices_are_clear_errors_and_write_nothing() {
    let mut s = session();
    shown(&mut s, "x = arange(6.0).reshape((2, 3)); v = x[0]");
    let before = shown(&mut s, "x");
    for (code, says) in BAD {
        let e = s
            .execute(code, "In[2]")
            .error
            .unwrap_or_else(|| panic!("{code}: no error"));
        for want in *says {
            assert!(e.rendered.contains(want), "{code}:\n{}", e.rendered);
        }
        assert!(
            e.rendered.contains("In[2]:1:"),
            "{code}: no source line\n{}",
            e.rendered
        );
        // The session goes on with x (and the view of it) as they were.
        assert_eq!(shown(&mut s, "x"), before, "{code} changed x");
        assert_eq!(shown(&mut s, "v.tolist()"), "[0.0, 1.0, 2.0]", "{code}");
    }
    let after = shown(&mut s, "x[1, -1] + x[array([0]), 2][0]");
    assert!(after.starts_with("7.0 "), "{after}");
}

/// (code, x afterwards): writes through views reach x.
const THROUGH: &[(&str, &str)] = &[
    ("x[0][1] = 9.0", "[[0.0, 9.0, 2.0], [3.0, 4.0, 5.0]]"),
    ("x.T[0] = 9.0", "[[9.0, 1.0, 2.0], [9.0, 4.0, 5.0]]"),
    (
        "x[0][array([0, 0])] += 1.0",
        "[[1.0, 1.0, 2.0], [3.0, 4.0, 5.0]]",
    ),
    (
        "x.T[array([1])] -= 1.0",
        "[[0.0, 0.0, 2.0], [3.0, 3.0, 5.0]]",
    ),
    (
        "x.reshape((3, 2))[2] = 0.0",
        "[[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]]",
    ),
    ("x[1, ::-2] *= 2.0", "[[0.0, 1.0, 2.0], [6.0, 4.0, 10.0]]"),
    (
        "add_at(x[1], [0, 0], 1.0)",
        "[[0.0, 1.0, 2.0], [5.0, 4.0, 5.0]]",
    ),
    (
        "for r in x { r[0] = -1.0 }",
        "[[-1.0, 1.0, 2.0], [-1.0, 4.0, 5.0]]",
    ),
];

/// Writes into temporaries: (code, what the error says).
const LOST: &[(&str, &str)] = &[
    ("x[array([0])][0] = 9.0", "the write would be lost"),
    ("x[x > 2][0] += 9.0", "the write would be lost"),
    ("x.flatten()[0] = 9.0", "the write would be lost"),
    ("x[0, 1][()] = 9.0", "the write would be lost"),
    (
        "add_at(x[x > 2], 0, 9.0)",
        "add_at(x, ...) writes into a temporary",
    ),
    ("(x + 1.0)[0] = 9.0", "the write would be lost"),
    ("broadcast_to(x[0], (2, 3))[0] = 9.0", "read-only"),
];

#[test]
fn every_write_path_writes_through_or_says_why() {
    let mut s = session();
    for (code, want) in THROUGH {
        shown(&mut s, "x = arange(6.0).reshape((2, 3))");
        shown(&mut s, code);
        assert_eq!(shown(&mut s, "x.tolist()"), *want, "{code}");
    }
    shown(&mut s, "x = arange(6.0).reshape((2, 3))");
    let before = shown(&mut s, "x");
    for (code, says) in LOST {
        let e = s
            .execute(code, "In[2]")
            .error
            .unwrap_or_else(|| panic!("{code}: no error"));
        assert!(e.rendered.contains(says), "{code}:\n{}", e.rendered);
        assert_eq!(shown(&mut s, "x"), before, "{code} changed x");
    }
}
