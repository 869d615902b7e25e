//! NumPy's second names and dtype introspection (`ops/np_alias.rs
//! np_dtype.rs np_complex.rs`, `builtins/np_types.rs`) on the CPU: the
//! NumPy-differential rows (`tests/numpy/src/ops_np_names.rs`), the aliases'
//! gradients against finite differences, dtype names and the errors for
//! NumPy dtypes gcalc lacks, finfo/iinfo values and printing, the abstract
//! kinds, help and completion.

use crate::grad_util::{Rng, check, run, session};
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::{Session, Value};

#[test]
fn np_names_match_numpy() {
    let s = Settings::from_env(0, 100);
    let rerun = "cargo test -p gcalc-runtime --test core np_names_match_numpy -- --nocapture";
    for r in assert_fn_suite(
        "np_names_match_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_np_names::NP_NAMES,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
    for r in assert_fn_suite(
        "np_names_complex_match_numpy",
        rerun,
        &s,
        gcalc_difftest::ops_np_names::NP_NAMES_COMPLEX,
        DeviceFlag::Cpu,
    ) {
        r.assert_clean();
    }
}

/// (ops covered, body of `f(x, y)`, x's shape, y's shape, argnums);
/// `grad_ops`'s walk reads it for `row_stack`, whose rule is vstack's.
pub const CASES: &[(&[&str], &str, &[usize], &[usize], &[usize])] = &[
    (
        &["row_stack", "true_divide"],
        "sum(sin(row_stack([x, true_divide(x, y)])))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["acos", "asin", "atanh"],
        "sum(acos(x * 0.3) * y + asin(x * 0.2) + atanh(x * 0.25))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
    (
        &["atan", "atan2", "acosh", "asinh"],
        "sum(atan(x) + atan2(x, y) + acosh(y + 1.5) + asinh(x * y))",
        &[3, 4],
        &[4],
        &[0, 1],
    ),
];

#[test]
fn alias_gradients_match_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0x616c_6961_7300_0001);
    for (_, body, xs, ys, argnums) in CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, 0.5, 2.0)),
        ];
        check(&mut s, body, &args, argnums, 1e-6, 1e-6);
    }
}

fn sess() -> Session {
    session("float64").0
}

/// `out = code`, then `show(out)`'s text: the value as the prompt shows it.
fn text(s: &mut Session, code: &str) -> String {
    let out = s.execute(&format!("out = {code}\nprint(out)"), "<test>");
    if let Some(e) = out.error {
        panic!("{code}: {}", e.evalue());
    }
    match s.get("out") {
        Some(v) => gcalc_runtime::display::repr(&v),
        None => panic!("{code}: no out"),
    }
}

fn err(s: &mut Session, code: &str) -> String {
    match run(s, code) {
        Ok(()) => panic!("{code}: expected an error"),
        Err(e) => e,
    }
}

#[test]
fn dtype_names_are_the_dtypes() {
    let mut s = sess();
    for (name, d) in [
        ("double", "float64"),
        ("single", "float32"),
        ("half", "float16"),
        ("int_", "int64"),
        ("intp", "int64"),
        ("long", "int64"),
        ("longlong", "int64"),
        ("intc", "int32"),
        ("bool_", "bool"),
        ("cdouble", "complex128"),
        ("csingle", "complex64"),
    ] {
        for code in [
            format!("{name} == {d}"),
            format!("zeros(2, dtype={name}).dtype == {d}"),
            format!("array([1.5, 2.0]).astype({name}).dtype == {d}"),
            format!("array([1, 2], dtype=\"{name}\").dtype == {d}"),
        ] {
            assert_eq!(text(&mut s, &code), "true", "{code}");
        }
    }
    assert_eq!(text(&mut s, "double(3)"), text(&mut s, "float64(3)"));
    assert_eq!(text(&mut s, "single(3).dtype"), "float32");
    assert_eq!(text(&mut s, "intc(3.7)"), text(&mut s, "int32(3.7)"));
    assert_eq!(text(&mut s, "bool_(3)"), text(&mut s, "bool(3)"));
    // As float32 is, double is a dtype, not a type, for isinstance.
    assert!(err(&mut s, "isinstance(1.0, double)").contains("dtype, not a type"));
}

#[test]
fn missing_dtypes_name_the_nearest() {
    let mut s = sess();
    for (name, near) in [
        ("int8", "int32"),
        ("int16", "int32"),
        ("uint8", "int32"),
        ("uint16", "int32"),
        ("uint32", "int64"),
        ("uint64", "int64"),
        ("float128", "float64"),
        ("longdouble", "float64"),
        ("complex256", "complex128"),
    ] {
        for code in [
            format!("x = zeros(3, dtype={name})"),
            format!("x = array([1, 2]).astype(\"{name}\")"),
        ] {
            let e = err(&mut s, &code);
            assert!(
                e.contains(&format!("no dtype {name}"))
                    && e.contains(&format!("nearest dtype gcalc has is {near}")),
                "{code}: {e}"
            );
            assert!(!e.contains("unknown name"), "{code}: {e}");
        }
    }
    // The session goes on.
    assert_eq!(text(&mut s, "1 + 1"), "2");
}

#[test]
fn finfo_and_iinfo_have_numpys_values() {
    let mut s = sess();
    let f = |s: &mut Session, code: &str| -> f64 {
        run(s, &format!("out = {code}")).unwrap_or_else(|e| panic!("{code}: {e}"));
        match s.get("out") {
            Some(Value::Array(a)) => a.to_f64_vec().unwrap()[0],
            Some(Value::Int(i)) => i as f64,
            other => panic!("{code}: {:?}", other.map(|v| v.type_name())),
        }
    };
    assert_eq!(f(&mut s, "finfo(float32).eps"), f32::EPSILON as f64);
    assert_eq!(f(&mut s, "finfo(float64).eps"), f64::EPSILON);
    assert_eq!(f(&mut s, "finfo(\"float32\").max"), f32::MAX as f64);
    assert_eq!(f(&mut s, "finfo(double).min"), f64::MIN);
    assert_eq!(f(&mut s, "finfo(float64).tiny"), f64::MIN_POSITIVE);
    assert_eq!(
        f(&mut s, "finfo(float32).smallest_normal"),
        f32::MIN_POSITIVE as f64
    );
    assert_eq!(f(&mut s, "finfo(half).eps"), 2f64.powi(-10));
    assert_eq!(f(&mut s, "finfo(float16).max"), 65504.0);
    assert_eq!(f(&mut s, "finfo(float16).tiny"), 2f64.powi(-14));
    assert_eq!(f(&mut s, "finfo(float16).precision"), 3.0);
    assert_eq!(f(&mut s, "finfo(float32).precision"), 6.0);
    assert_eq!(f(&mut s, "finfo(float64).bits"), 64.0);
    assert_eq!(f(&mut s, "finfo(float32).resolution"), 1e-6f32 as f64);
    assert_eq!(f(&mut s, "finfo(complex64).eps"), f32::EPSILON as f64);
    assert_eq!(
        f(&mut s, "finfo(ones(3, dtype=float32)).eps"),
        f32::EPSILON as f64
    );
    assert_eq!(f(&mut s, "finfo(1.0).eps"), f64::EPSILON);
    assert_eq!(text(&mut s, "finfo(float32).eps.dtype"), "float32");
    assert_eq!(text(&mut s, "finfo(complex128).dtype"), "float64");
    assert_eq!(f(&mut s, "iinfo(int32).max"), i32::MAX as f64);
    assert_eq!(f(&mut s, "iinfo(\"int32\").min"), i32::MIN as f64);
    assert_eq!(f(&mut s, "iinfo(intc).bits"), 32.0);
    assert_eq!(text(&mut s, "iinfo(int64).max"), i64::MAX.to_string());
    assert_eq!(
        text(&mut s, "iinfo(array([1, 2])).min"),
        i64::MIN.to_string()
    );
    assert_eq!(
        text(&mut s, "finfo(float32)"),
        "finfo(resolution=1e-06, min=-3.4028235e+38, max=3.4028235e+38, dtype=float32)"
    );
    assert_eq!(
        text(&mut s, "finfo(float64)"),
        "finfo(resolution=1e-15, min=-1.7976931348623157e+308, max=1.7976931348623157e+308, dtype=float64)"
    );
    assert_eq!(
        text(&mut s, "iinfo(int32)"),
        "iinfo(min=-2147483648, max=2147483647, dtype=int32)"
    );
    assert!(err(&mut s, "finfo(int64)").contains("not inexact"));
    assert!(err(&mut s, "iinfo(float32)").contains("invalid integer data type"));
    assert!(err(&mut s, "finfo(float32).nope").contains("nope"));
}

#[test]
fn promotion_queries() {
    let mut s = sess();
    for (code, want) in [
        ("result_type(int32, float32)", "float64"),
        ("result_type(ones(2, dtype=float32), 1.0)", "float32"),
        ("result_type(ones(2, dtype=int32), 1)", "int32"),
        ("result_type(ones(2, dtype=bool), 1)", "int64"),
        ("result_type(float16, complex64)", "complex64"),
        ("promote_types(int64, float16)", "float64"),
        ("promote_types(\"bool\", int32)", "int32"),
        ("common_type(ones(2, dtype=int32))", "float64"),
        (
            "common_type(ones(2, dtype=float16), ones(2, dtype=float32))",
            "float32",
        ),
        (
            "common_type(ones(2, dtype=float64), ones(2, dtype=complex64))",
            "complex128",
        ),
        ("min_scalar_type(10)", "int32"),
        ("min_scalar_type(2**40)", "int64"),
        ("min_scalar_type(1.5)", "float16"),
        ("min_scalar_type(1e5)", "float32"),
        ("min_scalar_type(1e300)", "float64"),
        ("min_scalar_type(true)", "bool"),
    ] {
        assert_eq!(text(&mut s, code), want, "{code}");
    }
    for (code, want) in [
        ("can_cast(int64, float64)", "true"),
        ("can_cast(int32, float32)", "false"),
        ("can_cast(float64, float32)", "false"),
        ("can_cast(float64, float32, casting=\"same_kind\")", "true"),
        ("can_cast(float64, int64, casting=\"same_kind\")", "false"),
        ("can_cast(float64, int64, \"unsafe\")", "true"),
        ("can_cast(int32, int32, \"no\")", "true"),
        ("can_cast(float16, complex64)", "true"),
        ("issubdtype(float32, floating)", "true"),
        ("issubdtype(float32, float64)", "false"),
        ("issubdtype(int32, integer)", "true"),
        ("issubdtype(int32, unsignedinteger)", "false"),
        ("issubdtype(complex64, inexact)", "true"),
        ("issubdtype(floating, number)", "true"),
        ("issubdtype(number, floating)", "false"),
        ("issubdtype(bool, number)", "false"),
        ("issubdtype(bool, generic)", "true"),
        ("issubdtype(array([1.0]).dtype, float)", "true"),
        ("isdtype(float32, \"real floating\")", "true"),
        ("isdtype(int64, (\"bool\", \"integral\"))", "true"),
        ("isdtype(bool, \"numeric\")", "false"),
        ("isdtype(complex64, complex64)", "true"),
        ("isinstance(array([1.0, 2.0]).sum(), floating)", "true"),
        ("isinstance(array([1, 2]).sum(), floating)", "false"),
        ("isinstance(1.0, floating)", "false"),
    ] {
        assert_eq!(text(&mut s, code), want, "{code}");
    }
    assert!(err(&mut s, "can_cast(1, float32)").contains("does not support Python ints"));
    assert!(err(&mut s, "can_cast(int32, float32, \"bogus\")").contains("casting must be one of"));
    assert!(err(&mut s, "isdtype(ones(2), \"numeric\")").contains("must be a dtype"));
    assert!(err(&mut s, "isdtype(int32, \"real\")").contains("not a known kind name"));
    assert!(err(&mut s, "common_type(ones(2, dtype=bool))").contains("non-numeric"));
    assert!(err(&mut s, "result_type()").contains("at least one"));
}

#[test]
fn complex_tests_and_aliases_on_complex() {
    let mut s = sess();
    assert_eq!(text(&mut s, "iscomplexobj(1j)"), "true");
    assert_eq!(text(&mut s, "iscomplexobj(array([1.0]))"), "false");
    assert_eq!(text(&mut s, "isrealobj(array([1.0]) + 0j)"), "false");
    assert_eq!(
        text(&mut s, "iscomplex(array([1 + 2j, 3 + 0j])).tolist()"),
        "[true, false]"
    );
    assert_eq!(
        text(&mut s, "isreal(array([1 + 2j, 3 + 0j])).tolist()"),
        "[false, true]"
    );
    assert_eq!(
        text(&mut s, "iscomplex(array([1.0, 2.0])).tolist()"),
        "[false, false]"
    );
    assert_eq!(text(&mut s, "isreal(2j)"), "false");
    assert_eq!(
        text(&mut s, "real_if_close(array([2.5 + 1e-20j])).dtype"),
        "float64"
    );
    assert_eq!(
        text(&mut s, "real_if_close(array([2.5 + 1e-3j])).dtype"),
        "complex128"
    );
    assert_eq!(
        text(
            &mut s,
            "real_if_close(array([2.5 + 1e-3j]), tol=0.01).dtype"
        ),
        "float64"
    );
    assert_eq!(
        text(&mut s, "true_divide(array([1 + 2j]), 2j).tolist()"),
        text(&mut s, "divide(array([1 + 2j]), 2j).tolist()")
    );
    assert_eq!(text(&mut s, "absolute(array([3 + 4j])).tolist()"), "[5.0]");
    assert_eq!(text(&mut s, "euler_gamma"), "0.5772156649015329");
}

#[test]
fn names_have_help_and_completion() {
    let mut s = sess();
    for name in [
        "acos",
        "atan2",
        "bitwise_invert",
        "true_divide",
        "row_stack",
    ] {
        let def = gcalc_runtime::ops::lookup(name).expect(name);
        assert!(def.doc.starts_with("Alias of "), "{name}: {}", def.doc);
    }
    for name in [
        "finfo",
        "iinfo",
        "result_type",
        "issubdtype",
        "isdtype",
        "iscomplex",
        "real_if_close",
    ] {
        assert!(gcalc_runtime::ops::lookup(name).is_some(), "{name}");
    }
    let names = gcalc_runtime::complete::builtin_names();
    for n in [
        "double",
        "intc",
        "floating",
        "acos",
        "row_stack",
        "finfo",
        "euler_gamma",
    ] {
        if n != "euler_gamma" {
            assert!(names.contains(&n), "{n} not among the builtin names");
        }
        let c = s.complete(n, n.len());
        assert!(c.matches.iter().any(|m| m == n), "{n}: {:?}", c.matches);
    }
    run(&mut s, "help(\"double\")").expect("help double");
    run(&mut s, "help(\"floating\")").expect("help floating");
    assert!(err(&mut s, "help(\"nosuch\")").contains("nosuch"));
}

#[test]
fn array_helpers() {
    let mut s = sess();
    run(&mut s, "x = arange(12.0).reshape((3, 4))").unwrap();
    for (code, want) in [
        ("shares_memory(x, x[1])", "true"),
        ("shares_memory(x[0], x[1])", "false"),
        ("shares_memory(x.ravel()[::2], x.ravel()[1::2])", "false"),
        ("may_share_memory(x.ravel()[::2], x.ravel()[1::2])", "true"),
        ("may_share_memory(x[0], x[1])", "false"),
        ("may_share_memory(x, x.copy())", "false"),
        ("may_share_memory(x, [1, 2])", "false"),
        ("iterable([1, 2])", "true"),
        ("iterable(x)", "true"),
        ("iterable(x.sum())", "false"),
        ("iterable(3)", "false"),
        ("ascontiguousarray(array(5.0)).shape", "(1,)"),
        ("asfortranarray(x).tolist() == x.tolist()", "true"),
        ("require(x, float32, [\"F\", \"A\"]).dtype", "float32"),
        ("asanyarray([1, 2]).dtype", "int64"),
        ("asarray_chkfinite([1.0, 2.0]).tolist()", "[1.0, 2.0]"),
        (
            "bool(spacing(array([1.0, -1.0, 0.0]))[0] == 2.0**-52)",
            "true",
        ),
        (
            "bool(spacing(array([1.0, -1.0]))[1] == -(2.0**-52))",
            "true",
        ),
        (
            "bool(spacing(array([1.0], dtype=float32))[0] == 2.0**-23)",
            "true",
        ),
        ("bool(isnan(spacing(array([inf])))[0])", "true"),
    ] {
        assert_eq!(text(&mut s, code), want, "{code}");
    }
    let strides = |s: &mut Session, code: &str| -> Vec<isize> {
        run(s, &format!("out = {code}")).unwrap_or_else(|e| panic!("{code}: {e}"));
        match s.get("out") {
            Some(Value::Array(a)) => a.strides().to_vec(),
            _ => panic!("{code}: not an array"),
        }
    };
    assert_eq!(strides(&mut s, "ascontiguousarray(x.T)"), vec![3, 1]);
    assert_eq!(strides(&mut s, "asfortranarray(x)"), vec![1, 3]);
    assert_eq!(
        strides(&mut s, "require(x.T, requirements=\"C\")"),
        vec![3, 1]
    );
    assert_eq!(
        strides(&mut s, "require(x, requirements=[\"F\"])"),
        vec![1, 3]
    );
    let e = err(&mut s, "asarray_chkfinite(array([1.0, nan]))");
    assert!(e.contains("array must not contain infs or NaNs"), "{e}");
    assert!(err(&mut s, "require(x, requirements=\"Q\")").contains("unknown requirement"));
}

#[test]
fn complex_sorting_and_division() {
    let mut s = sess();
    assert_eq!(
        text(
            &mut s,
            "sort_complex(array([2 + 1j, 1 + 3j, 1 + 2j, nan + 0j])).tolist()"
        ),
        text(&mut s, "[1 + 2j, 1 + 3j, 2 + 1j, nan + 0j]")
    );
    assert_eq!(
        text(&mut s, "sort_complex(array([3, 1, 2], dtype=int32)).dtype"),
        "complex128"
    );
    assert_eq!(
        text(
            &mut s,
            "sort_complex(array([3.0, 1.0], dtype=float32)).dtype"
        ),
        "complex128"
    );
    assert_eq!(
        text(
            &mut s,
            "sort_complex(array([3.0 + 1j], dtype=complex64)).dtype"
        ),
        "complex64"
    );
    // NumPy's complex division by zero: the parts divided by 0.0, no error.
    run(
        &mut s,
        "q = array([1 + 1j, 1 + 0j, -2 + 0j]) / array([0j, 0j, 0j])",
    )
    .unwrap();
    match s.get("q") {
        Some(Value::Array(q)) => {
            let v = q.to_vec::<num_complex::Complex<f64>>().unwrap();
            assert!(
                v[0].re == f64::INFINITY && v[0].im == f64::INFINITY,
                "{v:?}"
            );
            assert!(v[1].re == f64::INFINITY && v[1].im.is_nan(), "{v:?}");
            assert!(v[2].re == f64::NEG_INFINITY && v[2].im.is_nan(), "{v:?}");
        }
        _ => panic!("q"),
    }
}
