//! Shared by the GPU tests: whether a GPU is usable, skipping visibly when
//! not, and failing instead when GCALC_REQUIRE_GPU=1 (the GPU host's runner);
//! deterministic random test data and the comparison of a GPU result with
//! the CPU's.

use gcalc_runtime::{Array, DType, Device, backend, cuda};

/// The GPU the tests use.
#[allow(dead_code)]
pub const G: Device = Device::Gpu(0);

pub fn have_gpu() -> bool {
    if cuda::gpu_count() > 0 && cuda::gpu(0).is_ok() {
        return true;
    }
    if std::env::var("GCALC_REQUIRE_GPU").as_deref() == Ok("1") {
        panic!(
            "GCALC_REQUIRE_GPU=1 but no GPU is usable: {}",
            cuda::why_no_gpu().message
        );
    }
    println!("SKIPPED: no GPU ({})", cuda::why_no_gpu().message);
    false
}

/// Deterministic pseudo-random values in [lo, hi) (an LCG seeded by `seed`).
#[allow(dead_code)]
pub fn data(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            lo + (hi - lo) * ((s >> 11) as f64 / (1u64 << 53) as f64)
        })
        .collect()
}

/// A host array of dtype `d` and `shape` from random values: floats in
/// [-3, 3), ints in [-4, 5) (many ties), bools about half true.
#[allow(dead_code)]
pub fn host(d: DType, shape: &[usize], seed: u64) -> Array {
    let n: usize = shape.iter().product();
    let v = data(n, seed, -3.0, 3.0);
    gcalc_runtime::with_dtype!(d, T => Array::from_vec(
        v.iter().map(|&x| match d {
            DType::Bool => <T as gcalc_runtime::Element>::from_f64((x > 0.0) as u8 as f64),
            d if d.is_float() => <T as gcalc_runtime::Element>::from_f64(x),
            _ => <T as gcalc_runtime::Element>::from_f64((x * 1.5).floor()),
        }).collect::<Vec<T>>(),
        shape.to_vec(),
    ))
}

/// The host array and the same values on gpu(0).
#[allow(dead_code)]
pub fn pair(d: DType, shape: &[usize], seed: u64) -> (Array, Array) {
    let h = host(d, shape, seed);
    let g = backend::to_device(&h, G).unwrap();
    (h, g)
}

/// Equal values (NaN equals NaN), floats within `tol` relative.
#[allow(dead_code)]
pub fn assert_same(got: &Array, want: &Array, tol: f64, what: &str) {
    assert_eq!(got.device(), G, "{what}: the result left the GPU");
    assert_eq!(got.dtype(), want.dtype(), "{what}: dtype");
    assert_eq!(got.shape(), want.shape(), "{what}: shape");
    let (gv, wv) = (got.to_f64_vec().unwrap(), want.to_f64_vec().unwrap());
    for (i, (a, b)) in gv.iter().zip(&wv).enumerate() {
        let ok = (a.is_nan() && b.is_nan()) || a == b || (a - b).abs() <= tol * b.abs().max(1.0);
        assert!(ok, "{what}: element {i}: GPU {a}, CPU {b}");
    }
}

/// Run the ignored test `name` of this binary in a child process with
/// `GCALC_HIDE_LIBS=lib` (a library hidden to test its missing-library
/// message on a machine that has it); fails with the child's output unless
/// it passed.
#[allow(dead_code)]
pub fn run_with_hidden_lib(name: &str, lib: &str) {
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = std::process::Command::new(exe)
        .args(["--ignored", "--exact", "--nocapture", name])
        .env("GCALC_HIDE_LIBS", lib)
        .output()
        .expect("run the child test process");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success() && text.contains("1 passed"),
        "child:\n{text}"
    );
}

/// A session on `device` ("cpu", "gpu") with floatX float64.
#[allow(dead_code)]
pub fn session_f64(device: &str) -> gcalc_runtime::Session {
    let mut flags = gcalc_runtime::Flags::default();
    flags.set("device", device).expect("device flag");
    flags.set("floatX", "float64").expect("floatX flag");
    gcalc_runtime::Session::new(flags, Box::new(gcalc_runtime::output::Captured::default()))
}
