//! Golden tests: array printing against text produced by NumPy 2.4.6 (gen: runtime/tests/gen_print.py).

use gcalc_runtime::Array;
use gcalc_runtime::array::print::{format_array, format_html, repr, trailer};
use half::f16;

fn arange_f32(n: usize, d: f32) -> Array {
    Array::from_vec((0..n).map(|i| i as f32 / d).collect(), vec![n])
}
fn arange_f64(n: usize, d: f64) -> Array {
    Array::from_vec((0..n).map(|i| i as f64 / d).collect(), vec![n])
}

#[test]
fn rand_f32_3x4() {
    let a = Array::from_vec(
        vec![
            f32::from_bits(0x3f0c7f0b),
            f32::from_bits(0x3f3716a6),
            f32::from_bits(0x3f1a4eb3),
            f32::from_bits(0x3f0b7d77),
            f32::from_bits(0x3ed8e948),
            f32::from_bits(0x3f255951),
            f32::from_bits(0x3ee00b6e),
            f32::from_bits(0x3f644b3c),
            f32::from_bits(0x3f76b29a),
            f32::from_bits(0x3ec45272),
            f32::from_bits(0x3f4aae7e),
            f32::from_bits(0x3f0765a8),
        ],
        vec![3, 4],
    );
    assert_eq!(
        format_array(&a).unwrap(),
        "[[0.5488135  0.71518934 0.60276335 0.5448832 ]\n [0.4236548  0.6458941  0.4375872  0.891773  ]\n [0.96366274 0.3834415  0.79172504 0.5288949 ]]"
    );
}

#[test]
fn ints_1d() {
    let a = Array::from_vec(vec![1i64, -20, 300, 4], vec![4]);
    assert_eq!(format_array(&a).unwrap(), "[  1 -20 300   4]");
}

#[test]
fn large_2000() {
    let a = arange_f32(2000, 7.0);
    assert_eq!(
        format_array(&a).unwrap(),
        "[0.0000000e+00 1.4285715e-01 2.8571430e-01 ... 2.8528571e+02 2.8542856e+02\n 2.8557144e+02]"
    );
}

#[test]
fn large_2d() {
    let a = arange_f64(2000, 3.0).reshape(&[40, 50]).unwrap();
    assert_eq!(
        format_array(&a).unwrap(),
        "[[0.00000000e+00 3.33333333e-01 6.66666667e-01 ... 1.56666667e+01\n  1.60000000e+01 1.63333333e+01]\n [1.66666667e+01 1.70000000e+01 1.73333333e+01 ... 3.23333333e+01\n  3.26666667e+01 3.30000000e+01]\n [3.33333333e+01 3.36666667e+01 3.40000000e+01 ... 4.90000000e+01\n  4.93333333e+01 4.96666667e+01]\n ...\n [6.16666667e+02 6.17000000e+02 6.17333333e+02 ... 6.32333333e+02\n  6.32666667e+02 6.33000000e+02]\n [6.33333333e+02 6.33666667e+02 6.34000000e+02 ... 6.49000000e+02\n  6.49333333e+02 6.49666667e+02]\n [6.50000000e+02 6.50333333e+02 6.50666667e+02 ... 6.65666667e+02\n  6.66000000e+02 6.66333333e+02]]"
    );
}

#[test]
fn large_3d() {
    let a = Array::from_vec((0..2400i64).collect(), vec![10, 12, 20]);
    assert_eq!(
        format_array(&a).unwrap(),
        "[[[   0    1    2 ...   17   18   19]\n  [  20   21   22 ...   37   38   39]\n  [  40   41   42 ...   57   58   59]\n  ...\n  [ 180  181  182 ...  197  198  199]\n  [ 200  201  202 ...  217  218  219]\n  [ 220  221  222 ...  237  238  239]]\n\n [[ 240  241  242 ...  257  258  259]\n  [ 260  261  262 ...  277  278  279]\n  [ 280  281  282 ...  297  298  299]\n  ...\n  [ 420  421  422 ...  437  438  439]\n  [ 440  441  442 ...  457  458  459]\n  [ 460  461  462 ...  477  478  479]]\n\n [[ 480  481  482 ...  497  498  499]\n  [ 500  501  502 ...  517  518  519]\n  [ 520  521  522 ...  537  538  539]\n  ...\n  [ 660  661  662 ...  677  678  679]\n  [ 680  681  682 ...  697  698  699]\n  [ 700  701  702 ...  717  718  719]]\n\n ...\n\n [[1680 1681 1682 ... 1697 1698 1699]\n  [1700 1701 1702 ... 1717 1718 1719]\n  [1720 1721 1722 ... 1737 1738 1739]\n  ...\n  [1860 1861 1862 ... 1877 1878 1879]\n  [1880 1881 1882 ... 1897 1898 1899]\n  [1900 1901 1902 ... 1917 1918 1919]]\n\n [[1920 1921 1922 ... 1937 1938 1939]\n  [1940 1941 1942 ... 1957 1958 1959]\n  [1960 1961 1962 ... 1977 1978 1979]\n  ...\n  [2100 2101 2102 ... 2117 2118 2119]\n  [2120 2121 2122 ... 2137 2138 2139]\n  [2140 2141 2142 ... 2157 2158 2159]]\n\n [[2160 2161 2162 ... 2177 2178 2179]\n  [2180 2181 2182 ... 2197 2198 2199]\n  [2200 2201 2202 ... 2217 2218 2219]\n  ...\n  [2340 2341 2342 ... 2357 2358 2359]\n  [2360 2361 2362 ... 2377 2378 2379]\n  [2380 2381 2382 ... 2397 2398 2399]]]"
    );
}

#[test]
fn three_d() {
    let a = Array::from_vec((0..24i64).collect(), vec![2, 3, 4]);
    assert_eq!(
        format_array(&a).unwrap(),
        "[[[ 0  1  2  3]\n  [ 4  5  6  7]\n  [ 8  9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]"
    );
}

#[test]
fn nan_inf() {
    let a = Array::from_vec(
        vec![f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1.5, -2.25],
        vec![5],
    );
    assert_eq!(format_array(&a).unwrap(), "[  nan   inf  -inf  1.5  -2.25]");
}

#[test]
fn tiny_huge() {
    let a = Array::from_vec(vec![1e-10f64, 1.0, 1e10], vec![3]);
    assert_eq!(format_array(&a).unwrap(), "[1.e-10 1.e+00 1.e+10]");
}

#[test]
fn huge_f32() {
    let a = Array::from_vec(vec![1.5e8f32, 2.0], vec![2]);
    assert_eq!(format_array(&a).unwrap(), "[1.5e+08 2.0e+00]");
}

#[test]
fn sci_prec() {
    let a = Array::from_vec(vec![1.23456789123e-7f64, 3.0], vec![2]);
    assert_eq!(format_array(&a).unwrap(), "[1.23456789e-07 3.00000000e+00]");
}

#[test]
fn neg_zero() {
    let a = Array::from_vec(vec![-0.0f64, 1.0, 2.5], vec![3]);
    assert_eq!(format_array(&a).unwrap(), "[-0.   1.   2.5]");
}

#[test]
fn float64_thirds() {
    let a = Array::from_vec(vec![1.0f64 / 3.0, 2.0 / 3.0, 10.0], vec![3]);
    assert_eq!(
        format_array(&a).unwrap(),
        "[ 0.33333333  0.66666667 10.        ]"
    );
}

#[test]
fn f16() {
    let a = Array::from_vec(
        vec![
            f16::from_f64(0.1),
            f16::from_f64(0.2),
            f16::from_f64(1000.5),
            f16::from_f64(-3.0),
        ],
        vec![4],
    );
    assert_eq!(
        format_array(&a).unwrap(),
        "[ 9.9976e-02  1.9995e-01  1.0005e+03 -3.0000e+00]"
    );
}

#[test]
fn wrap_long() {
    let a = Array::from_vec(
        (0..30).map(|i| i as f64 * 1.1).collect::<Vec<f64>>(),
        vec![30],
    );
    assert_eq!(
        format_array(&a).unwrap(),
        "[ 0.   1.1  2.2  3.3  4.4  5.5  6.6  7.7  8.8  9.9 11.  12.1 13.2 14.3\n 15.4 16.5 17.6 18.7 19.8 20.9 22.  23.1 24.2 25.3 26.4 27.5 28.6 29.7\n 30.8 31.9]"
    );
}

#[test]
fn ints_wrap() {
    let a = Array::from_vec((0..40).map(|i| i * 1000).collect::<Vec<i32>>(), vec![40]);
    assert_eq!(
        format_array(&a).unwrap(),
        "[    0  1000  2000  3000  4000  5000  6000  7000  8000  9000 10000 11000\n 12000 13000 14000 15000 16000 17000 18000 19000 20000 21000 22000 23000\n 24000 25000 26000 27000 28000 29000 30000 31000 32000 33000 34000 35000\n 36000 37000 38000 39000]"
    );
}

#[test]
fn empty() {
    let a = Array::from_vec(Vec::<f64>::new(), vec![2, 0]);
    assert_eq!(format_array(&a).unwrap(), "[]");
}

#[test]
fn small_frac() {
    let a = Array::from_vec(vec![0.000123456789f64], vec![1]);
    assert_eq!(format_array(&a).unwrap(), "[0.00012346]");
}

#[test]
fn big_exp() {
    let a = Array::from_vec(vec![1e100f64, 1.0], vec![2]);
    assert_eq!(format_array(&a).unwrap(), "[1.e+100 1.e+000]");
}

#[test]
fn all_nan() {
    let a = Array::from_vec(vec![f64::NAN, f64::NEG_INFINITY], vec![2]);
    assert_eq!(format_array(&a).unwrap(), "[ nan -inf]");
}

#[test]
fn integers_as_float() {
    let a = Array::from_vec(vec![1.0f32, 2.0, 300.0], vec![3]);
    assert_eq!(format_array(&a).unwrap(), "[  1.   2. 300.]");
}

#[test]
fn bools() {
    let a = Array::from_vec(vec![true, false, false, true], vec![2, 2]);
    assert_eq!(format_array(&a).unwrap(), "[[ true false]\n [false  true]]");
}

#[test]
fn scalar_f32() {
    let a = Array::scalar(0.1f32);
    assert_eq!(format_array(&a).unwrap(), "0.1");
}

#[test]
fn scalar_f64_one() {
    let a = Array::scalar(1.0f64);
    assert_eq!(format_array(&a).unwrap(), "1.0");
}

#[test]
fn scalar_small() {
    let a = Array::scalar(1e-5f64);
    assert_eq!(format_array(&a).unwrap(), "1e-05");
}

#[test]
fn scalar_big() {
    let a = Array::scalar(1.5e16f64);
    assert_eq!(format_array(&a).unwrap(), "1.5e+16");
}

#[test]
fn scalar_int() {
    let a = Array::scalar(-7i64);
    assert_eq!(format_array(&a).unwrap(), "-7");
}

#[test]
fn trailer_and_repr() {
    let a = Array::from_vec(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], vec![3, 2]);
    assert_eq!(trailer(&a), "<3x2 float32 @cpu(0)>");
    assert_eq!(
        repr(&a),
        "[[1. 2.]\n [3. 4.]\n [5. 6.]]\n<3x2 float32 @cpu(0)>"
    );
    let s = Array::scalar(1.5f32);
    assert_eq!(repr(&s), "1.5 <scalar float32 @cpu(0)>");
}

/// Jupyter's HTML is one layout for every rank: the REPL's text in a `<pre>`,
/// then the trailer on a line of its own that does not wrap.
#[test]
fn html_is_the_text_with_a_one_line_caption() {
    let layout = |a: &Array| {
        let h = format_html(a).unwrap();
        let text = repr(a);
        let (body, trailer_line) = text.rsplit_once('\n').unwrap_or((&text, ""));
        let esc = |s: &str| {
            s.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        };
        let want = format!(
            "<div class=\"gcalc-array\"><pre style=\"margin:0\">{}</pre><div class=\"gcalc-caption\" style=\"white-space:nowrap;",
            esc(body)
        );
        assert!(h.starts_with(&want), "{h}");
        assert!(
            h.ends_with(&format!("\">{}</div></div>", esc(trailer_line))),
            "{h}"
        );
    };
    layout(&arange_f64(3, 1.0));
    layout(&Array::from_vec(
        vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0],
        vec![2, 3],
    ));
    layout(&arange_f64(24, 1.0).reshape(&[2, 3, 4]).unwrap());
    layout(&arange_f64(2000, 3.0).reshape(&[40, 50]).unwrap());
    let h = format_html(&Array::scalar(1.5f32)).unwrap();
    assert!(
        h.contains("<pre style=\"margin:0\">1.5</pre>")
            && h.contains("&lt;scalar float32 @cpu(0)&gt;"),
        "{h}"
    );
}
