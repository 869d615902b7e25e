//! Complex dtypes and the FFT family on the CPU (issue 18): the
//! NumPy-differential rows of tests/numpy/src/ops_fft.rs, transforms against
//! a float64 direct DFT on random data, round trips and norms, NumPy 2
//! dtypes and promotion, printing as NumPy's, `.npy` files read and written
//! by NumPy, and the errors (each naming the function and the problem).

use crate::grad_util::{Rng, run, session};
use crate::numpy_side::assert_fn_suite;
use gcalc_difftest::Settings;
use gcalc_difftest::ops_fft::FFT;
use gcalc_runtime::flags::DeviceFlag;
use gcalc_runtime::{Array, DType, Session, Value};
use std::process::Command;

#[test]
fn fft_matches_numpy() {
    let s = Settings::from_env(0, 60);
    let rerun = "cargo test -p gcalc-runtime --test core fft_matches_numpy -- --nocapture";
    for r in assert_fn_suite("fft_matches_numpy", rerun, &s, FFT, DeviceFlag::Cpu) {
        r.assert_clean();
    }
}

fn arr(s: &Session, name: &str) -> Array {
    match s.get(name) {
        Some(Value::Array(a)) => a,
        other => panic!("{name} is {}", other.map_or("missing", |v| v.type_name())),
    }
}

/// The (re, im) parts of every element of a complex array.
fn parts(a: &Array) -> Vec<(f64, f64)> {
    a.to_vec::<gcalc_runtime::array::Cf64>()
        .unwrap()
        .into_iter()
        .map(|z| (z.re, z.im))
        .collect()
}

/// The direct DFT in float64 (sign -1 forward, unscaled).
fn dft(x: &[(f64, f64)], inverse: bool) -> Vec<(f64, f64)> {
    let n = x.len();
    let sign = if inverse { 1.0 } else { -1.0 };
    (0..n)
        .map(|k| {
            x.iter()
                .enumerate()
                .fold((0.0, 0.0), |acc, (t, &(re, im))| {
                    let ang = sign * 2.0 * std::f64::consts::PI * (k * t % n) as f64 / n as f64;
                    let (c, s) = (ang.cos(), ang.sin());
                    (acc.0 + re * c - im * s, acc.1 + re * s + im * c)
                })
        })
        .collect()
}

fn close(got: &[(f64, f64)], want: &[(f64, f64)], tol: f64) {
    assert_eq!(got.len(), want.len());
    let scale = want
        .iter()
        .map(|w| w.0.abs().max(w.1.abs()))
        .fold(1.0, f64::max);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g.0 - w.0).abs() <= tol * scale && (g.1 - w.1).abs() <= tol * scale,
            "element {i}: got {g:?}, want {w:?}"
        );
    }
}

fn rand_list(rng: &mut Rng, n: usize) -> String {
    let v: Vec<String> = (0..n)
        .map(|_| format!("{:.17}", rng.next() * 2.0 - 1.0))
        .collect();
    format!("[{}]", v.join(", "))
}

#[test]
fn fft_agrees_with_a_float64_dft_on_random_data() {
    let mut rng = Rng(0x5eed_f00d);
    // Powers of two, primes (Bluestein/Rader in rustfft) and mixed radices.
    for n in [1usize, 2, 5, 8, 12, 17, 64, 97, 210] {
        let (mut s, _) = session("float64");
        let (re, im) = (rand_list(&mut rng, n), rand_list(&mut rng, n));
        run(&mut s, &format!("x = array({re}) + 1j * array({im})\ny = fft(x)\nz = ifft(x)\nr = rfft(array({re}))\nb = irfft(r, n={n})\ny32 = fft(x.astype(complex64))")).unwrap();
        let x = parts(&arr(&s, "x"));
        close(&parts(&arr(&s, "y")), &dft(&x, false), 1e-12);
        let inv: Vec<(f64, f64)> = dft(&x, true)
            .into_iter()
            .map(|(a, b)| (a / n as f64, b / n as f64))
            .collect();
        close(&parts(&arr(&s, "z")), &inv, 1e-12);
        let xr: Vec<(f64, f64)> = x.iter().map(|p| (p.0, 0.0)).collect();
        close(&parts(&arr(&s, "r")), &dft(&xr, false)[..n / 2 + 1], 1e-12);
        close(&parts(&arr(&s, "b")), &xr, 1e-12);
        let y32 = arr(&s, "y32");
        assert_eq!(y32.dtype(), DType::Complex64);
        close(&parts(&y32), &dft(&x, false), 1e-5);
    }
}

#[test]
fn norms_scale_each_direction_and_nd_transforms_compose() {
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "x = reshape(arange(24.0) ** 1.5, (2, 3, 4))\n\
         a = ifft(fft(x, norm=\"ortho\"), norm=\"ortho\")\n\
         b = fft(x, norm=\"forward\") * 4 - fft(x)\n\
         c = fftn(x) - fft(fft(fft(x, axis=0), axis=1), axis=2)\n\
         d = irfftn(rfftn(x), s=x.shape) - x\n\
         e = fft2(x) - fftn(x, axes=(1, 2))\n\
         p = sum(abs(fft(x, norm=\"ortho\")) ** 2) - sum(x ** 2)",
    )
    .unwrap();
    close(&parts(&arr(&s, "a")), &parts(&arr(&s, "x")), 1e-12);
    for k in ["b", "c", "d", "e"] {
        let v = parts(&arr(&s, k));
        assert!(
            v.iter().all(|p| p.0.abs() < 1e-9 && p.1.abs() < 1e-9),
            "{k}: {v:?}"
        );
    }
    assert!(arr(&s, "p").to_f64_vec().unwrap()[0].abs() < 1e-8);
}

#[test]
fn dtypes_follow_numpy_2() {
    let (mut s, _) = session("float64");
    let cases = [
        ("fft(array([1.0, 2.0], dtype=float32))", "complex64"),
        ("fft(array([1.0, 2.0]))", "complex128"),
        ("fft(array([1, 2]))", "complex128"),
        ("rfft(array([1.0, 2.0], dtype=float32))", "complex64"),
        ("irfft(array([1.0, 2.0], dtype=float32) * 1j)", "float32"),
        ("irfft(array([1j, 2.0]))", "float64"),
        ("array([1.0], dtype=float32) * 1j", "complex64"),
        (
            "array([1.0], dtype=float32) + array([1j], dtype=complex64)",
            "complex64",
        ),
        ("array([1.0]) + array([1j], dtype=complex64)", "complex128"),
        ("array([1]) + array([1j], dtype=complex64)", "complex128"),
        ("array([1], dtype=int32) * 1j", "complex128"),
        ("array([true]) * 1j", "complex128"),
        ("array([1j], dtype=complex64) * 2.5", "complex64"),
        ("abs(array([1j], dtype=complex64))", "float32"),
        ("angle(array([1j]))", "float64"),
        ("real(array([1j], dtype=complex64))", "float32"),
        ("imag(array([1j]))", "float64"),
        ("array([1 + 2j, 3])", "complex128"),
        ("array([1.0, 2.0]).astype(complex64)", "complex64"),
        ("array([1.0, 2.0], dtype=complex128)", "complex128"),
        ("sum(array([1j, 2], dtype=complex64))", "complex64"),
        ("array([1j]) == 1j", "bool"),
        ("fftfreq(4)", "float64"),
        ("full((2,), 1j)", "complex128"),
        (
            "full((2,), array([1j], dtype=complex64)[0], dtype=complex64)",
            "complex64",
        ),
        ("zeros(3, dtype=complex64)", "complex64"),
        ("concatenate([array([1j]), array([1.0])])", "complex128"),
    ];
    for (code, want) in cases {
        run(&mut s, &format!("out = {code}")).unwrap_or_else(|e| panic!("{code}: {e}"));
        assert_eq!(arr(&s, "out").dtype().name(), want, "{code}");
    }
}

#[test]
fn python_complex_numbers_are_weak_scalars() {
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "a = (1 + 2j) * (3 - 1j)\nb = abs(3 + 4j)\nc = 2j ** 2\nd = complex(1, 2) == 1 + 2j\ne = (1 + 2j).imag\nf = 1J",
    )
    .unwrap();
    assert!(matches!(s.get("a"), Some(Value::Complex(re, im)) if re == 5.0 && im == 5.0));
    assert!(matches!(s.get("b"), Some(Value::Float(v)) if v == 5.0));
    assert!(matches!(s.get("c"), Some(Value::Complex(re, im)) if re == -4.0 && im == 0.0));
    assert!(matches!(s.get("d"), Some(Value::Bool(true))));
    assert!(matches!(s.get("e"), Some(Value::Float(v)) if v == 2.0));
    assert!(matches!(s.get("f"), Some(Value::Complex(re, im)) if re == 0.0 && im == 1.0));
}

#[test]
fn complex_arrays_print_as_numpy() {
    use gcalc_runtime::array::print::format_array;
    let (mut s, _) = session("float64");
    let cases = [
        ("array([1+2j, 3-4j, 0.5j])", "[1.+2.j  3.-4.j  0.+0.5j]"),
        ("array(1+2j)", "(1+2j)"),
        ("array(2j)", "2j"),
        ("array([1.5 - 0.25j], dtype=complex64)", "[1.5-0.25j]"),
        (
            "array([[1j, 2], [3, -4j]])",
            "[[ 0.+1.j  2.+0.j]\n [ 3.+0.j -0.-4.j]]",
        ),
        (
            "array([1e-5 + 1j, 1e5j])",
            "[1.e-05+1.e+00j 0.e+00+1.e+05j]",
        ),
    ];
    for (code, want) in cases {
        run(&mut s, &format!("out = {code}")).unwrap();
        assert_eq!(format_array(&arr(&s, "out")).unwrap(), want, "{code}");
    }
    run(&mut s, "t = array([1+2j, 3]).tolist()").unwrap();
    let Some(Value::List(l)) = s.get("t") else {
        panic!("tolist")
    };
    let items = l.snapshot();
    assert!(matches!(items[0], Value::Complex(re, im) if re == 1.0 && im == 2.0));
}

#[test]
fn complex_errors_name_the_function_and_dtype() {
    let (mut s, _) = session("float64");
    run(&mut s, "z = array([1 + 2j, 3 - 1j])").unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("z < z", &["less", "complex128"]),
        ("median(z)", &["median", "complex128"]),
        ("max(z)", &["max", "complex128"]),
        ("cumsum(z)", &["cumsum", "complex128"]),
        ("floor(z)", &["floor", "complex128"]),
        ("rfft(z)", &["rfft", "real"]),
        ("fft(array([1.0]), norm=\"bad\")", &["fft", "norm", "bad"]),
        ("fft(zeros((0,)))", &["fft", "0"]),
        ("fft(array([1.0]), n=0)", &["fft", "0"]),
        ("irfft(array([1j]))", &["irfft", "(0)"]),
        ("fft(array(1.0))", &["fft", "dimension"]),
        ("fft2(array([1.0, 2.0]))", &["fft2", "axes"]),
        ("fftn(ones((2, 2)), s=(2,), axes=(0, 1))", &["fftn", "s"]),
        ("fft(array([1.0]), axis=3)", &["axis"]),
    ];
    for (code, words) in cases {
        let e = run(&mut s, code).expect_err(code);
        for w in *words {
            assert!(e.contains(w), "{code}: {e}");
        }
    }
}

#[test]
fn fft_namespace_and_helpers() {
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "a = fft.fft(array([1.0, 0.0, 0.0, 0.0]))\nb = fft.fftfreq(5, d=0.5)\nc = fftshift(arange(6))\nd = ifftshift(fftshift(arange(7)))\ne = fftshift(reshape(arange(6), (2, 3)), axes=1)",
    )
    .unwrap();
    assert_eq!(parts(&arr(&s, "a")), vec![(1.0, 0.0); 4]);
    assert_eq!(
        arr(&s, "b").to_f64_vec().unwrap(),
        vec![0.0, 0.4, 0.8, -0.8, -0.4]
    );
    assert_eq!(
        arr(&s, "c").to_vec::<i64>().unwrap(),
        vec![3, 4, 5, 0, 1, 2]
    );
    assert_eq!(
        arr(&s, "d").to_vec::<i64>().unwrap(),
        (0..7).collect::<Vec<i64>>()
    );
    assert_eq!(
        arr(&s, "e").to_vec::<i64>().unwrap(),
        vec![2, 0, 1, 5, 3, 4]
    );
}

#[test]
fn complex_npy_files_round_trip_with_numpy() {
    use gcalc_runtime::npy::{self, Loaded};
    let dir = tempfile::Builder::new()
        .prefix("gcalc-cnpy-")
        .tempdir()
        .unwrap();
    let d = dir.path();
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "a = array([1 + 2j, -3.5j, 4])\nb = array([[0.5 - 1j, 2]], dtype=complex64)",
    )
    .unwrap();
    for k in ["a", "b"] {
        let x = arr(&s, k);
        npy::save(&d.join(format!("{k}.npy")), &x).unwrap();
        let Loaded::Array(y) = npy::load(&d.join(format!("{k}.npy"))).unwrap() else {
            panic!()
        };
        assert_eq!((y.dtype(), y.shape()), (x.dtype(), x.shape()));
        assert_eq!(parts(&y), parts(&x));
    }
    let Some(oracle) = gcalc_difftest::Oracle::for_test("complex_npy_files_round_trip_with_numpy")
    else {
        return;
    };
    let script = r#"
import numpy as np, sys, os
d = sys.argv[1]
a = np.load(os.path.join(d, 'a.npy')); b = np.load(os.path.join(d, 'b.npy'))
assert a.dtype == np.complex128 and (a == np.array([1 + 2j, -3.5j, 4])).all(), a
assert b.dtype == np.complex64 and b.shape == (1, 2) and (b == np.array([[0.5 - 1j, 2]], dtype=np.complex64)).all(), b
np.save(os.path.join(d, 'big.npy'), np.array([1 + 2j, 3 - 4j], dtype='>c16'))
np.save(os.path.join(d, 'f.npy'), np.asfortranarray(np.array([[1j, 2], [3, 4j]], dtype=np.complex64)))
print('ok')
"#;
    let out = Command::new(&oracle.python)
        .arg("-c")
        .arg(script)
        .arg(d)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let load = |f: &str| match npy::load(&d.join(f)).unwrap() {
        Loaded::Array(a) => a,
        _ => panic!(),
    };
    assert_eq!(parts(&load("big.npy")), vec![(1.0, 2.0), (3.0, -4.0)]);
    let f = load("f.npy");
    assert_eq!(f.dtype(), DType::Complex64);
    assert_eq!(
        parts(&f),
        vec![(0.0, 1.0), (2.0, 0.0), (3.0, 0.0), (0.0, 4.0)]
    );
}

/// Real-valued losses through the FFT family and complex ops, against
/// central differences in float64 on random data.
#[test]
fn gradients_through_the_fft_family_match_finite_differences() {
    let mut r = Rng(0xff7_9e11);
    let cases: &[(&str, &[usize])] = &[
        ("sum(abs(fft(x)) ** 2)", &[5]),
        ("sum(real(fft(x, norm=\"ortho\")) * w[:x.shape[0]])", &[6]),
        ("sum(imag(ifft(x * (1 + 2j), n=7)) * w[:7])", &[5]),
        ("sum(abs(rfft(x, n=5)))", &[4]),
        ("sum(abs(rfft(x, norm=\"forward\")) ** 2)", &[8]),
        (
            "sum(irfft(fft(x) * (0.5 - 1j)) * w[:2 * x.shape[0] - 2])",
            &[5],
        ),
        ("sum(irfft(rfft(x), n=6, norm=\"ortho\") * w[:6])", &[7]),
        ("sum(abs(fft2(x * 1j + x ** 2)) ** 2)", &[2, 3]),
        ("sum(real(ifftn(x, s=(3, 5))) * w[:5])", &[3, 4]),
        ("sum(irfft2(rfft2(x) * (1 + 1j), s=x.shape) ** 2)", &[4, 4]),
        (
            "sum(angle(fft(x) + 2) + abs(exp(0.1j * x)) * real(sqrt(x * 1j + 3)))",
            &[6],
        ),
        (
            "mean(abs(fft(x) * conj(fft(x * w[:x.shape[0]])) / (fft(x) + 5)))",
            &[5],
        ),
        (
            "sum(abs(fft(x)[array([1, 1, 2])] * 1j + reshape(fft(x), (2, 3)).T[1][0]) ** 2)",
            &[6],
        ),
        (
            "sum(abs(concatenate([fft(x), fft(x)[:2] * 2j])) ** 2)",
            &[4],
        ),
    ];
    for (body, shape) in cases {
        let (mut s, _) = session("float64");
        run(
            &mut s,
            &format!("w = array({})\nfn f(x) = {body}", rand_list(&mut r, 16)),
        )
        .unwrap();
        let x = r.array(shape, -2.0, 2.0);
        let worst = crate::grad_util::check(&mut s, body, &[Value::Array(x)], &[0], 1e-6, 1e-5);
        assert!(worst < 1e-5, "{body}: {worst}");
    }
}

#[test]
fn gradients_through_unsupported_complex_ops_are_errors_not_zeros() {
    let (mut s, _) = session("float64");
    run(&mut s, "x = array([1.0, 2.0, 3.0])\nfn f(x) = sum(abs(tanh(fft(x))))\nfn g(x) = sum(abs(complex(x, 1.0)))\nfn h(x) = sum(abs(fft(x) @ fft(x)))\nfn k(x) = sum(abs(roll(fft(x), 1)))").unwrap();
    for call in ["grad(f)(x)", "grad(g)(x)", "grad(h)(x)", "grad(k)(x)"] {
        let e = run(&mut s, call).expect_err(call);
        assert!(e.contains("complex"), "{call}: {e}");
    }
}

/// The FFT family's and the complex builtins' rules, walked by
/// `grad_ops::every_rule_in_the_table_is_walked`: (names, body of f(x, y),
/// shapes of x and y, arguments differentiated).
pub const CASES: &[(&[&str], &str, &[usize], &[usize], &[usize])] = &[
    (
        &["fft", "real", "imag"],
        "sum(real(fft(x, axis=0)) * y) + sum(imag(fft(x, n=4, axis=0)) ** 2)",
        &[3, 2],
        &[2],
        &[0, 1],
    ),
    (
        &["ifft", "conj", "angle"],
        "sum(angle(conj(ifft(x * (1 - 1j), norm=\"ortho\")) + 3) * y)",
        &[2, 5],
        &[5],
        &[0, 1],
    ),
    (
        &["rfft", "irfft", "conjugate"],
        "sum(irfft(conjugate(rfft(x)) * y, n=6) ** 2)",
        &[6],
        &[4],
        &[0, 1],
    ),
];

#[test]
fn fft_rules_match_finite_differences() {
    let (mut s, _) = session("float64");
    let mut r = Rng(0xf0f0_1234_5678_9abc);
    for (_, body, xs, ys, argnums) in CASES {
        run(&mut s, &format!("fn f(x, y) {{ {body} }}")).unwrap_or_else(|e| panic!("{body}: {e}"));
        let args = vec![
            Value::Array(r.array(xs, -2.0, 2.0)),
            Value::Array(r.array(ys, -2.0, 2.0)),
        ];
        let worst = crate::grad_util::check(&mut s, body, &args, argnums, 1e-6, 1e-5);
        assert!(worst < 1e-5, "{body}: {worst}");
    }
}

#[test]
fn zero_d_arrays_are_numbers_and_ints_in_fft_and_linalg_arguments() {
    // NumPy's scalars (here 0-d arrays: t[1] - t[0], sum(...)) are accepted
    // wherever a number, a length or an axis is.
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "t = linspace(0, 1, 11); x = arange(8.0); m = reshape(arange(6.0), (2, 3))
         a = fftfreq(10, d=t[1] - t[0]); a2 = fftfreq(10, 0.1)
         b = rfftfreq(4, d=array([0.5, 1.0])[0]); b2 = rfftfreq(4, 0.5)
         c = fft(x, n=sum(array([4]))); c2 = fft(x, n=4)
         d = fftfreq(array(4), 1.0); d2 = fftfreq(4, 1.0)
         e = tensordot(m, m.T, axes=sum(array([1]))); e2 = tensordot(m, m.T, axes=1)
         f = norm(m, axis=sum(array([1]))); f2 = norm(m, axis=1)
         g = fftshift(x, axes=sum(array([0]))); g2 = fftshift(x, axes=0)
         h = fftn(m, s=(sum(array([2])), 3), axes=(array(0), 1)); h2 = fftn(m, s=(2, 3), axes=(0, 1))
         k = fft(x, axis=sum(array([0]))); k2 = fft(x, axis=0)
         ok = bool(all(a == a2) and all(b == b2) and all(c == c2) and all(d == d2) and all(e == e2) and all(f == f2) and all(g == g2) and all(h == h2) and all(k == k2))",
    )
    .unwrap();
    assert!(matches!(s.get("ok"), Some(Value::Bool(true))));
    // A float or a 1-element 1-d array is still not a length.
    let out = s.execute("fft(arange(4.0), n=array([4]))", "<test>");
    assert!(
        out.error
            .is_some_and(|e| e.rendered.contains("n must be an int"))
    );
}

#[test]
fn fftn_over_no_axes_returns_the_input() {
    // NumPy: fftn(x, axes=()) is x itself (no transform, no complex cast).
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "x = arange(3.0); y = fftn(x, axes=()); z = ifft2(x, axes=())",
    )
    .unwrap();
    for n in ["y", "z"] {
        let a = arr(&s, n);
        assert_eq!(a.dtype(), DType::Float64, "{n}");
        assert_eq!(a.to_f64_vec().unwrap(), vec![0.0, 1.0, 2.0]);
    }
}

#[test]
fn complex_exp_and_hyperbolics_overflow_as_c99() {
    // C99 Annex G (glibc's cexp/csinh/ccosh/ctanh, which NumPy uses): no
    // inf * 0 = nan when exp(re) overflows.
    let (mut s, _) = session("float64");
    run(
        &mut s,
        "a = exp(array([1000+0j, 710+0j, 1000+1e-300j, -inf+0j]))
         b = cosh(array([1000+0j, -1000+0j])); c = sinh(array([1000+0j, -1000+0j]))
         d = tanh(array([1000+0j, -400+1j, 0.5+0.25j])); e = sin(array([1000j, 0.5+0.25j]))
         f = exp(array([1000+0j], dtype=complex64)); g = complex(1, -0.0); h = complex(1j, 1j)",
    )
    .unwrap();
    let inf = f64::INFINITY;
    let a = parts(&arr(&s, "a"));
    assert_eq!(&a[..2], &[(inf, 0.0), (inf, 0.0)]);
    assert_eq!(a[2].0, inf);
    assert!(
        (a[2].1 / 1.970071114017047e134 - 1.0).abs() < 1e-12,
        "{a:?}"
    );
    assert_eq!(a[3], (0.0, 0.0));
    assert_eq!(parts(&arr(&s, "b")), vec![(inf, 0.0), (inf, -0.0)]);
    assert_eq!(parts(&arr(&s, "c")), vec![(inf, 0.0), (-inf, 0.0)]);
    let d = parts(&arr(&s, "d"));
    assert_eq!(&d[..2], &[(1.0, 0.0), (-1.0, 0.0)]);
    // NumPy: tanh(0.5+0.25j) and sin(0.5+0.25j) (glibc's formulas, bit for bit).
    assert_eq!(d[2], (0.4854872810241353, 0.19805544995134955));
    let e = parts(&arr(&s, "e"));
    assert_eq!(e[0], (0.0, inf));
    assert_eq!(e[1], (0.494485780933195, 0.22168816414957482));
    assert_eq!(parts(&arr(&s, "f")), vec![(inf, 0.0)]);
    assert!(
        matches!(s.get("g"), Some(Value::Complex(re, im)) if re == 1.0 && im == 0.0 && im.is_sign_negative())
    );
    assert!(matches!(s.get("h"), Some(Value::Complex(re, im)) if re == -1.0 && im == 1.0));
}
