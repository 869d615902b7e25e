//! The shape and assembly family (issue 17) on the CPU: every function
//! against NumPy through the differential rows of
//! `gcalc_difftest::ops_assemble` (100 cases a row), and what the rows
//! cannot say: views share the buffer, `put_along_axis` writes through,
//! errors name the function and the fix and the session goes on, literals
//! go to the default device, large arrays take the parallel paths.

use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_difftest::ops_assemble::ASSEMBLE;
use gcalc_runtime::flags::DeviceFlag;

#[test]
fn assembly_matches_numpy() {
    let s = Settings::from_env(0, 100);
    let rerun = "cargo test -p gcalc-runtime --test core assembly_matches_numpy -- --nocapture";
    for r in assert_fn_suite(
        "assembly_matches_numpy",
        rerun,
        &s,
        ASSEMBLE,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}

use gcalc_runtime::output::Captured;
use gcalc_runtime::{Flags, Session};

fn session() -> Session {
    Session::new(Flags::default(), Box::new(Captured::default()))
}

/// The value's text; panics with the rendered error.
fn run(s: &mut Session, code: &str) -> String {
    let r = s.execute(code, "test.gcalc");
    if let Some(e) = r.error {
        panic!("{code}\n{}", e.rendered);
    }
    r.value.map(|v| v.text).unwrap_or_default()
}

/// The rendered error of `code` (which must fail).
fn fails(s: &mut Session, code: &str) -> String {
    match s.execute(code, "test.gcalc").error {
        Some(e) => e.rendered,
        None => panic!("{code}: no error"),
    }
}

#[test]
fn views_share_the_buffer_and_copies_do_not() {
    let mut s = session();
    run(&mut s, "x = arange(24.0).reshape(2, 3, 4)");
    // Each view written through at one position: the write shows in x.
    for (view, pos, at) in [
        ("flip(x, 0)", "0, 0, 0", "x[1, 0, 0]"),
        ("flip(x)", "0, 0, 0", "x[1, 2, 3]"),
        ("fliplr(x)", "0, 0, 0", "x[0, 2, 0]"),
        ("flipud(x)", "0, 0, 0", "x[1, 0, 0]"),
        ("rot90(x)", "0, 0, 0", "x[0, 2, 0]"),
        ("swapaxes(x, 0, 2)", "3, 0, 0", "x[0, 0, 3]"),
        ("moveaxis(x, 0, -1)", "1, 2, 1", "x[1, 1, 2]"),
        ("diagonal(x, 1, 1, 2)", "1, 0", "x[1, 0, 1]"),
        ("atleast_3d(x[0, 0])", "0, 2, 0", "x[0, 0, 2]"),
        ("split(x, 2, axis=2)[1]", "0, 1, 0", "x[0, 1, 2]"),
        ("array_split(x, 3, axis=1)[2]", "1, 0, 3", "x[1, 2, 3]"),
        ("diag(x[1])", "2", "x[1, 2, 2]"),
    ] {
        run(&mut s, &format!("v = {view}; v[{pos}] = -1.0"));
        assert_eq!(run(&mut s, &format!("{at}.item()")), "-1.0", "{view}");
        run(&mut s, "x = arange(24.0).reshape(2, 3, 4)");
    }
    // Copies do not write back.
    for copy in [
        "roll(x, 1)",
        "tile(x, 1)",
        "repeat(x, 1)",
        "pad(x, 0)",
        "triu(x)",
        "take(x, [0])",
        "hstack([x])",
        "meshgrid(x[0, 0])[0]",
    ] {
        run(&mut s, &format!("c = {copy}; c.reshape(-1)[0] = 99.0"));
        assert_eq!(run(&mut s, "x[0, 0, 0].item()"), "0.0", "{copy}");
    }
    // meshgrid(copy=false) gives broadcast views of the inputs.
    run(
        &mut s,
        "a = arange(3.0); g = meshgrid(a, arange(2.0), copy=false)[0]",
    );
    run(&mut s, "a[1] = 50.0");
    assert_eq!(run(&mut s, "(g.shape, g[1, 1].item())"), "((2, 3), 50.0)");
}

#[test]
fn put_along_axis_writes_in_place() {
    let mut s = session();
    run(
        &mut s,
        "x = zeros((3, 4)); i = array([[1], [3], [0]]); \
         put_along_axis(x, i, array([[5.0], [6.0], [7.0]]), axis=1)",
    );
    assert_eq!(
        run(&mut s, "x.tolist()"),
        "[[0.0, 5.0, 0.0, 0.0], [0.0, 0.0, 0.0, 6.0], [7.0, 0.0, 0.0, 0.0]]"
    );
    // Into a view: the base changes; a repeated target keeps the last value.
    run(
        &mut s,
        "b = zeros((2, 5)); v = b[:, ::2]; put_along_axis(v, array([[2, 2], [0, 1]]), array([[1.0, 2.0], [3.0, 4.0]]), axis=1)",
    );
    assert_eq!(
        run(&mut s, "b.tolist()"),
        "[[0.0, 0.0, 0.0, 0.0, 2.0], [3.0, 0.0, 4.0, 0.0, 0.0]]"
    );
    // axis=none on a strided view writes through the flat positions.
    run(
        &mut s,
        "c = zeros((3, 3)); put_along_axis(c.T, array([1, 5]), 9.0, axis=none)",
    );
    assert_eq!(
        run(&mut s, "c.tolist()"),
        "[[0.0, 0.0, 0.0], [9.0, 0.0, 0.0], [0.0, 9.0, 0.0]]"
    );
}

#[test]
fn bad_input_is_a_clear_error_and_the_session_goes_on() {
    let mut s = session();
    run(&mut s, "x = arange(12.0).reshape(3, 4)");
    for (code, words) in [
        (
            "split(x, 3, axis=1)",
            &["split", "3 equal parts", "array_split"][..],
        ),
        ("split(x, 0)", &["split", "larger than 0"]),
        ("roll(x, 1, axis=2)", &["roll", "axis 2", "out of bounds"]),
        (
            "roll(x, (1, 2, 3), axis=(0, 1))",
            &["roll", "3 shifts and 2 axes"],
        ),
        ("tile(x, -1)", &["tile", "not be negative"]),
        (
            "repeat(x, [1, 2], axis=0)",
            &["repeat", "2 counts", "length 3"],
        ),
        ("repeat(x, -2)", &["repeat", "not be negative"]),
        ("pad(x, -1)", &["pad", "not be negative"]),
        (
            "pad(x, ((1, 2), (3, 4), (5, 6)))",
            &["pad", "pad_width", "(3, 2)"],
        ),
        (
            "pad(x, 1, mode=\"mean\")",
            &["pad", "\"mean\"", "\"reflect\""],
        ),
        (
            "pad(x, 1, mode=\"edge\", constant_values=3)",
            &["constant_values", "mode=\"constant\""],
        ),
        (
            "pad(zeros((0, 2)), 1, mode=\"edge\")",
            &["pad", "empty axis 0"],
        ),
        ("take(x, 12)", &["take", "index 12", "size 12"]),
        ("take(x, [1.5])", &["take", "integers", "astype"]),
        ("take(x, [0], mode=\"loop\")", &["take", "mode", "\"clip\""]),
        (
            "take_along_axis(x, array([1, 2]), axis=0)",
            &["take_along_axis", "1 dimensions", "keepdims"],
        ),
        (
            "take_along_axis(x, array([[4]]), axis=0)",
            &["take_along_axis", "index 4"],
        ),
        (
            "take_along_axis(x, ones((2, 2), dtype=int64), axis=0)",
            &["take_along_axis", "broadcast"],
        ),
        (
            "put_along_axis(x, array([[0]]), 1.0 + x[:1, :1].astype(int32), axis=7)",
            &["put_along_axis", "axis 7"],
        ),
        (
            "y = x.astype(int32); put_along_axis(y, array([[0]]), 3000000000, axis=0)",
            &["3000000000", "int32"],
        ),
        ("fliplr(arange(3))", &["fliplr", "at least 2 dimensions"]),
        ("flip(x, (0, 0))", &["flip", "repeated axis"]),
        ("rot90(x, axes=(0, 0))", &["rot90", "different"]),
        ("moveaxis(x, (0, 1), 0)", &["moveaxis", "same number"]),
        ("swapaxes(x, 0, 3)", &["swapaxes", "axis 3"]),
        ("diagonal(x, 0, 1, 1)", &["diagonal", "same axis"]),
        ("diagonal(arange(3))", &["diagonal", "two dimensions"]),
        ("trace(arange(3))", &["trace", "two dimensions"]),
        ("triu(array(1.0))", &["triu", "0-d"]),
        ("diag(zeros((2, 2, 2)))", &["diag", "1-d or 2-d"]),
        ("hstack([x, ones(5)])", &["hstack", "(3, 4)", "(5,)"]),
        ("vstack([])", &["vstack", "at least one array"]),
        ("hstack(x)", &["hstack", "list or tuple"]),
        (
            "meshgrid(x, indexing=\"yx\")",
            &["meshgrid", "\"xy\"", "\"ij\""],
        ),
        ("concatenate([x, x], axis=2)", &["concatenate", "axis 2"]),
    ] {
        let e = fails(&mut s, code);
        for w in words {
            assert!(e.contains(w), "{code}: {w:?} not in\n{e}");
        }
    }
    // The session goes on, x unchanged.
    assert_eq!(run(&mut s, "x.sum().item()"), "66.0");
}

#[test]
fn literals_go_to_the_default_device_and_edge_values_move_unchanged() {
    let mut s = session();
    // Lists and numbers are arrays like array(...) makes them.
    assert_eq!(run(&mut s, "hstack([[1, 2], [3]]).tolist()"), "[1, 2, 3]");
    assert_eq!(run(&mut s, "pad([1.5], 1).dtype"), "float32");
    assert_eq!(run(&mut s, "tile(2, 3).tolist()"), "[2, 2, 2]");
    // nan, inf, -0.0 and the extremes of each dtype are moved bit for bit.
    run(
        &mut s,
        "f = array([0.0, 1.0, -1.0, -0.0, 1.5], dtype=float32) / array([0.0, 0.0, 0.0, 1.0, 1.0], dtype=float32); \
         i = array([-9223372036854775807 - 1, 9223372036854775807])",
    );
    for (code, want) in [
        ("roll(f, 2)", "[-0.0, 1.5, nan, inf, -inf]"),
        (
            "pad(f, 1, mode=\"reflect\")",
            "[inf, nan, inf, -inf, -0.0, 1.5, -0.0]",
        ),
        ("take(f, [3, 0])", "[-0.0, nan]"),
        ("flip(f)", "[1.5, -0.0, -inf, inf, nan]"),
        (
            "repeat(i, 2)",
            "[-9223372036854775808, -9223372036854775808, 9223372036854775807, 9223372036854775807]",
        ),
        (
            "pad(i, (0, 1), constant_values=-1)",
            "[-9223372036854775808, 9223372036854775807, -1]",
        ),
    ] {
        assert_eq!(run(&mut s, &format!("{code}.tolist()")), want, "{code}");
    }
}

#[test]
fn large_arrays_take_the_parallel_paths_and_match_a_reference() {
    // 2,000 x 1,500: many rayon tasks of the remap; checked against
    // indexing (a different code path) element for element.
    let mut s = session();
    run(&mut s, "seed(4); x = randn((2000, 1500))");
    for (call, reference) in [
        (
            "roll(x, (3, -7), axis=(0, 1))",
            "x[(arange(2000) - 3) % 2000][:, (arange(1500) + 7) % 1500]",
        ),
        ("tile(x, (1, 2))", "x[:, arange(3000) % 1500]"),
        ("repeat(x, 2, axis=0)", "x[arange(4000) // 2]"),
        (
            "pad(x, ((2, 1), (0, 3)), mode=\"edge\")",
            "x[clip(arange(2003) - 2, 0, 1999)][:, clip(arange(1503), 0, 1499)]",
        ),
        ("take(x, arange(1499, -1, -2), axis=1)", "x[:, ::-2]"),
        (
            "triu(x, 1)",
            "where(arange(1500) - arange(2000)[:, none] >= 1, x, 0.0)",
        ),
    ] {
        assert_eq!(
            run(
                &mut s,
                &format!("a = {call}; b = {reference}; (a.shape == b.shape, sum(a != b).item())")
            ),
            "(true, 0)",
            "{call}"
        );
    }
}
