//! Python integers never wrap silently: a scalar integer step past int64
//! (`2**64`, `10**100`, also inside a float or array expression) is an
//! OverflowError unless the wrapped result is still exact (`2**63 - 1`);
//! shapes whose element count cannot exist are clear errors.

use gcalc_runtime::output::Captured;
use gcalc_runtime::{ErrorKind, Flags, Session};

fn session() -> Session {
    let flags = Flags {
        device: gcalc_runtime::flags::DeviceFlag::Cpu,
        ..Flags::default()
    };
    Session::new(flags, Box::new(Captured::default()))
}

/// The error of `code`, which must be of `kind`.
fn error_of(s: &mut Session, code: &str, kind: ErrorKind) -> gcalc_runtime::ExecError {
    let e = s
        .execute(code, "In")
        .error
        .unwrap_or_else(|| panic!("{code}: no error"));
    assert_eq!(e.errors[0].kind, kind, "{code}: {}", e.rendered);
    e
}

#[test]
fn python_integer_overflow_is_an_error() {
    let mut s = session();
    for code in [
        "2**64",
        "2**63 - 1",
        "10**100",
        "2**63",
        "9223372036854775807 + 1",
        "-9223372036854775807 - 2",
        "3 * 10**18 * 4",
        "10**100 * 1.0",
        "sqrt(10**20)",
        "arange(3) * 2**64",
        "sum(arange(3.0) * 10**100)",
        "zeros(2**64)",
        "n = 2**62; n * 4",
    ] {
        let e = error_of(&mut s, code, ErrorKind::Overflow);
        assert_eq!(e.ename(), "OverflowError");
        assert!(e.rendered.contains("does not fit in"), "{}", e.rendered);
    }
    for (code, want) in [
        ("9223372036854775806 + 1", "9223372036854775807"),
        ("-9223372036854775807 - 1", "-9223372036854775808"),
        ("(10**18 + 1) - 10**18", "1"),
        (
            "(7 // 2, -7 // 2, 7 % -3, 2**62, 10**18)",
            "(3, -4, -2, 4611686018427387904, 1000000000000000000)",
        ),
        ("2.0**64", "1.8446744073709552e+19"),
        ("1e100 * 10", "1e+101"),
    ] {
        let r = s.execute(code, "In");
        let v = r
            .value
            .unwrap_or_else(|| panic!("{code}: {}", r.error.unwrap().rendered));
        assert_eq!(v.text, want, "{code}");
    }
    // Arrays of int64 wrap as NumPy's do (no Python integer went past int64).
    let v = s.execute("arange(3) * 2**62", "In").value.expect("value");
    assert!(v.text.contains("-9223372036854775808"), "{}", v.text);
}

/// NumPy 2: a Python int that does not fit the int32 array it meets is an
/// OverflowError in arithmetic (it used to wrap silently), and compares
/// exactly.
#[test]
fn python_ints_out_of_int32_range_do_not_wrap() {
    let mut s = session();
    for code in [
        "array([1, 2], dtype=int32) * 3000000000",
        "array([1], dtype=int32) + -3000000000",
        "maximum(array([1], dtype=int32), 2**40)",
        "x = array([1], dtype=int32); x += 3000000000",
    ] {
        let e = error_of(&mut s, code, ErrorKind::Overflow);
        assert!(
            e.rendered.contains("out of bounds for int32"),
            "{}",
            e.rendered
        );
    }
    for (code, want) in [
        (
            "(array([1, 2], dtype=int32) < 3000000000).tolist()",
            "[true, true]",
        ),
        (
            "(array([1], dtype=int32) == -3000000000).tolist()",
            "[false]",
        ),
        (
            "(array([1], dtype=int32) + 2147483646).tolist()",
            "[2147483647]",
        ),
    ] {
        let r = s.execute(code, "In");
        let v = r
            .value
            .unwrap_or_else(|| panic!("{code}: {}", r.error.unwrap().rendered));
        assert_eq!(v.text, want, "{code}");
    }
}

#[test]
fn shapes_that_cannot_exist_are_clear_errors() {
    let mut s = session();
    for code in [
        "zeros((2**40, 2**40))",
        "ones((2**62, 4))",
        "zeros((2**32, 2**32), dtype=\"bool\")",
    ] {
        let e = error_of(&mut s, code, ErrorKind::OutOfMemory);
        assert!(
            e.rendered.contains("too large to allocate"),
            "{}",
            e.rendered
        );
    }
}
