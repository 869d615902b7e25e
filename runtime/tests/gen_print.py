import numpy as np
cases = []
def add(name, arr, rust):
    cases.append((name, str(arr), rust))
np.random.seed(0)
r = np.random.rand(3,4).astype(np.float32)
add("rand_f32_3x4", r, "Array::from_vec(vec![%s], vec![3, 4])" % ", ".join("f32::from_bits(0x%08x)" % v for v in r.view(np.uint32).ravel()))
add("ints_1d", np.array([1, -20, 300, 4]), "Array::from_vec(vec![1i64, -20, 300, 4], vec![4])")
add("large_2000", np.arange(2000, dtype=np.float32)/7, "arange_f32(2000, 7.0)")
add("large_2d", (np.arange(2000, dtype=np.float64)/3).reshape(40,50), "arange_f64(2000, 3.0).reshape(&[40, 50]).unwrap()")
add("large_3d", np.arange(2400, dtype=np.int64).reshape(10,12,20), "Array::from_vec((0..2400i64).collect(), vec![10, 12, 20])")
add("three_d", np.arange(24, dtype=np.int64).reshape(2,3,4), "Array::from_vec((0..24i64).collect(), vec![2, 3, 4])")
add("nan_inf", np.array([np.nan, np.inf, -np.inf, 1.5, -2.25]), "Array::from_vec(vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.5, -2.25], vec![5])")
add("tiny_huge", np.array([1e-10, 1.0, 1e10], dtype=np.float64), "Array::from_vec(vec![1e-10f64, 1.0, 1e10], vec![3])")
add("huge_f32", np.array([1.5e8, 2.0], dtype=np.float32), "Array::from_vec(vec![1.5e8f32, 2.0], vec![2])")
add("sci_prec", np.array([1.23456789123e-7, 3.0], dtype=np.float64), "Array::from_vec(vec![1.23456789123e-7f64, 3.0], vec![2])")
add("neg_zero", np.array([-0.0, 1.0, 2.5]), "Array::from_vec(vec![-0.0f64, 1.0, 2.5], vec![3])")
add("float64_thirds", np.array([1/3, 2/3, 10.0]), "Array::from_vec(vec![1.0f64 / 3.0, 2.0 / 3.0, 10.0], vec![3])")
add("f16", np.array([0.1, 0.2, 1000.5, -3], dtype=np.float16), "Array::from_vec(vec![f16::from_f64(0.1), f16::from_f64(0.2), f16::from_f64(1000.5), f16::from_f64(-3.0)], vec![4])")
add("wrap_long", np.arange(30, dtype=np.float64) * 1.1, "Array::from_vec((0..30).map(|i| i as f64 * 1.1).collect::<Vec<f64>>(), vec![30])")
add("ints_wrap", np.arange(40, dtype=np.int32) * 1000, "Array::from_vec((0..40).map(|i| i * 1000).collect::<Vec<i32>>(), vec![40])")
add("empty", np.zeros((2, 0)), "Array::from_vec(Vec::<f64>::new(), vec![2, 0])")
add("small_frac", np.array([0.000123456789]), "Array::from_vec(vec![0.000123456789f64], vec![1])")
add("big_exp", np.array([1e100, 1.0]), "Array::from_vec(vec![1e100f64, 1.0], vec![2])")
add("all_nan", np.array([np.nan, -np.inf]), "Array::from_vec(vec![f64::NAN, f64::NEG_INFINITY], vec![2])")
add("integers_as_float", np.array([1.0, 2.0, 300.0], dtype=np.float32), "Array::from_vec(vec![1.0f32, 2.0, 300.0], vec![3])")
bools = str(np.array([[True, False], [False, True]])).replace("True", "true").replace("False", "false")
cases.append(("bools", bools, "Array::from_vec(vec![true, false, false, true], vec![2, 2])"))
add("scalar_f32", np.array(np.float32(0.1)), "Array::scalar(0.1f32)")
add("scalar_f64_one", np.array(1.0), "Array::scalar(1.0f64)")
add("scalar_small", np.array(1e-5), "Array::scalar(1e-5f64)")
add("scalar_big", np.array(1.5e16), "Array::scalar(1.5e16f64)")
add("scalar_int", np.array(-7), "Array::scalar(-7i64)")
out = ["//! Golden tests: array printing against text produced by NumPy %s (gen: runtime/tests/gen_print.py)." % np.__version__,
"", "use gcalc_runtime::Array;", "use gcalc_runtime::array::print::{format_array, repr, trailer, format_html};", "use half::f16;", "",
"fn arange_f32(n: usize, d: f32) -> Array { Array::from_vec((0..n).map(|i| i as f32 / d).collect(), vec![n]) }",
"fn arange_f64(n: usize, d: f64) -> Array { Array::from_vec((0..n).map(|i| i as f64 / d).collect(), vec![n]) }", ""]
for name, text, rust in cases:
    out.append("#[test]\nfn %s() {\n    let a = %s;\n    assert_eq!(format_array(&a).unwrap(), %s);\n}\n" % (name, rust, '"' + text.encode('unicode_escape').decode().replace('"','\\"') + '"'))
out.append('''#[test]
fn trailer_and_repr() {
    let a = Array::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], vec![3, 2]);
    assert_eq!(trailer(&a), "<3x2 float32 @cpu(0)>");
    assert_eq!(repr(&a).unwrap(), "[[1. 2.]\\n [3. 4.]\\n [5. 6.]]\\n<3x2 float32 @cpu(0)>");
    let s = Array::scalar(1.5f32);
    assert_eq!(repr(&s).unwrap(), "1.5 <scalar float32 @cpu(0)>");
    let h = format_html(&a).unwrap();
    assert!(h.contains("<caption>&lt;3x2 float32 @cpu(0)&gt;</caption>") && h.contains("<td>6.</td>"), "{h}");
    let big = arange_f64(2000, 3.0).reshape(&[40, 50]).unwrap();
    let h = format_html(&big).unwrap();
    assert!(h.contains("&#8943;") && h.matches("<tr>").count() == 7, "{h}");
}
''')
open("/work/wt/arr/runtime/tests/array_print.rs", "w").write("\n".join(out))
