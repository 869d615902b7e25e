//! Complex arrays and the FFT family where a GPU is present: they run on
//! the CPU for now (docs/LANGUAGE-REFERENCE.md, "Complex numbers and FFT"),
//! so moving a complex array to a GPU, making one there (`gpu_x * 1j`) or
//! transforming a GPU array is a clear error naming the device, never a
//! wrong result, and the session goes on. Skips visibly without a GPU;
//! fails instead when GCALC_REQUIRE_GPU=1.

use gcalc_runtime::Session;
use gcalc_runtime::output::Captured;

use crate::gpu_util::have_gpu;

fn err(s: &mut Session, code: &str) -> String {
    match s.execute(code, "test.gcalc").error {
        Some(e) => e.rendered,
        None => panic!("`{code}` should fail on a GPU"),
    }
}

#[test]
fn complex_and_fft_on_a_gpu_are_clear_errors() {
    if !have_gpu() {
        return;
    }
    let mut s = Session::new(Default::default(), Box::new(Captured::default()));
    assert!(
        s.execute(
            "set device = cpu\nz = array([1 + 2j, 3])\nx = array([1.0, 2.0, 3.0]).to(gpu())",
            "t"
        )
        .error
        .is_none()
    );
    let e = err(&mut s, "z.to(gpu())");
    assert!(e.contains("complex128") && e.contains("gpu(0)"), "{e}");
    let e = err(&mut s, "x * 1j");
    assert!(e.contains("gpu(0)") && e.contains("complex"), "{e}");
    let e = err(&mut s, "fft(x)");
    assert!(e.contains("gpu(0)") && e.contains("FFT"), "{e}");
    // The same work on the CPU, after the errors: the session goes on.
    let r = s.execute("y = fft(x.to(cpu()))", "t");
    assert!(r.error.is_none(), "{:?}", r.error.map(|e| e.rendered));
}
