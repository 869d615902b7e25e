//! .npy/.npz files: round trips, malformed files, atomic saves, and files
//! checked by NumPy in both directions (the tests' Python, GCALC_TEST_PYTHON;
//! skipped visibly without NumPy, failing with GCALC_REQUIRE_NUMPY=1).

use gcalc_runtime::npy::{self, Loaded};
use gcalc_runtime::{Array, DType, ErrorKind};
use half::f16;
use std::process::Command;

/// A fresh directory, removed with everything in it when dropped.
fn tmpdir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("gcalc-npy-{name}-"))
        .tempdir()
        .unwrap()
}

fn samples() -> Vec<(&'static str, Array)> {
    vec![
        ("b", Array::from_vec(vec![true, false, true], vec![3])),
        (
            "i4",
            Array::from_vec(vec![1i32, -2, 3, 4, 5, 6], vec![2, 3]),
        ),
        ("i8", Array::from_vec(vec![i64::MIN, 0, i64::MAX], vec![3])),
        (
            "f2",
            Array::from_vec(vec![f16::from_f64(0.5), f16::from_f64(-2.0)], vec![2, 1]),
        ),
        (
            "f4",
            Array::from_vec((0..24).map(|i| i as f32 / 3.0).collect(), vec![2, 3, 4]),
        ),
        ("f8", Array::scalar(std::f64::consts::PI)),
    ]
}

fn same(a: &Array, b: &Array) -> bool {
    a.dtype() == b.dtype()
        && a.shape() == b.shape()
        && a.to_f64_vec().unwrap() == b.to_f64_vec().unwrap()
}

#[test]
fn round_trips() {
    let dir = tmpdir("rt");
    let d = dir.path();
    for (name, a) in samples() {
        let p = d.join(format!("{name}.npy"));
        npy::save(&p, &a).unwrap();
        let Loaded::Array(b) = npy::load(&p).unwrap() else {
            panic!("not an array")
        };
        assert!(same(&a, &b), "{name}");
        // A transposed (non-contiguous) view is saved in C order.
        let t = a.t();
        npy::save(&p, &t).unwrap();
        let Loaded::Array(b) = npy::load(&p).unwrap() else {
            panic!()
        };
        assert!(same(&t, &b), "{name}.T");
    }
    let z = d.join("all.npz");
    let named: Vec<(String, Array)> = samples()
        .into_iter()
        .map(|(n, a)| (n.to_string(), a))
        .collect();
    npy::savez(&z, &named).unwrap();
    let Loaded::Archive(items) = npy::load(&z).unwrap() else {
        panic!("not an archive")
    };
    assert_eq!(items.len(), named.len());
    for ((n1, a), (n2, b)) in named.iter().zip(&items) {
        assert_eq!(n1, n2);
        assert!(same(a, b));
    }
    assert!(
        std::fs::read_dir(d).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains(".tmp"))
    );
}

#[test]
fn bad_files_are_errors_not_panics() {
    let dir = tmpdir("bad");
    let d = dir.path();
    let p = d.join("x.npy");
    npy::save(&p, &Array::from_vec(vec![1.0f64; 10], vec![10])).unwrap();
    let full = std::fs::read(&p).unwrap();
    for cut in [0, 5, 9, 20, full.len() - 1] {
        std::fs::write(&p, &full[..cut]).unwrap();
        let e = npy::load(&p).err().expect("truncated file loaded");
        assert_eq!(e.kind, ErrorKind::Io);
        assert!(e.message.contains("x.npy"), "{}", e.message);
    }
    let mut u1 = full.clone();
    let at = full.windows(3).position(|w| w == b"<f8").unwrap();
    u1[at + 1..at + 3].copy_from_slice(b"u2");
    std::fs::write(&p, &u1).unwrap();
    assert!(npy::load(&p).err().unwrap().message.contains("'u2'"));
    assert!(
        npy::load(&d.join("missing.npy"))
            .err()
            .unwrap()
            .message
            .contains("missing.npy")
    );
    std::fs::write(&p, b"PK\x03\x04garbage").unwrap();
    assert_eq!(npy::load(&p).err().unwrap().kind, ErrorKind::Io);
    // Failed save: the old file survives and no temp file is left.
    npy::save(&p, &Array::scalar(1i64)).unwrap();
    assert!(npy::save(&d.join("no/such/dir/y.npy"), &Array::scalar(1i64)).is_err());
    let dirpath = d.join("adir");
    std::fs::create_dir(&dirpath).unwrap();
    std::fs::write(dirpath.join("keep"), b"k").unwrap();
    assert!(npy::save(&dirpath, &Array::scalar(1i64)).is_err());
    assert!(dirpath.join("keep").exists());
    assert!(
        std::fs::read_dir(d).unwrap().all(|e| !e
            .unwrap()
            .file_name()
            .to_string_lossy()
            .contains(".tmp"))
    );
}

#[test]
fn numpy_reads_ours_and_we_read_numpys() {
    // The tests' Python with NumPy (tests/run's venv), as the differential tests use it.
    let Some(oracle) = gcalc_difftest::Oracle::for_test("numpy_reads_ours_and_we_read_numpys")
    else {
        return;
    };
    let dir = tmpdir("np");
    let d = dir.path();
    for (name, a) in samples() {
        npy::save(&d.join(format!("{name}.npy")), &a).unwrap();
    }
    let named: Vec<(String, Array)> = samples()
        .into_iter()
        .map(|(n, a)| (n.to_string(), a))
        .collect();
    npy::savez(&d.join("all.npz"), &named).unwrap();
    let script = r#"
import numpy as np, sys, os
d = sys.argv[1]
exp = {
 'b': np.array([True, False, True]),
 'i4': np.array([[1, -2, 3], [4, 5, 6]], dtype=np.int32),
 'i8': np.array([np.iinfo(np.int64).min, 0, np.iinfo(np.int64).max]),
 'f2': np.array([[0.5], [-2.0]], dtype=np.float16),
 'f4': (np.arange(24, dtype=np.float32) / np.float32(3)).reshape(2, 3, 4),
 'f8': np.array(np.pi),
}
z = np.load(os.path.join(d, 'all.npz'))
for k, v in exp.items():
    a = np.load(os.path.join(d, k + '.npy'))
    assert a.dtype == v.dtype and a.shape == v.shape and (a == v).all(), k
    assert z[k].dtype == v.dtype and (z[k] == v).all(), k
# Files for gcalc to read: Fortran order, big-endian, version 2 and 3 headers, compressed npz.
f = np.asfortranarray(np.arange(6, dtype=np.float64).reshape(2, 3))
np.save(os.path.join(d, 'fortran.npy'), f)
np.save(os.path.join(d, 'big.npy'), np.arange(4, dtype='>i4'))
np.lib.format.write_array(open(os.path.join(d, 'v2.npy'), 'wb'), np.arange(3, dtype=np.float32), version=(2, 0))
np.lib.format.write_array(open(os.path.join(d, 'v3.npy'), 'wb'), np.arange(3, dtype=np.int64), version=(3, 0))
np.savez_compressed(os.path.join(d, 'c.npz'), np.ones(3), w=np.zeros((2, 2), dtype=np.float16))
np.save(os.path.join(d, 'u8.npy'), np.arange(3, dtype=np.uint8))
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
        "numpy check failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let arr = |f: &str| match npy::load(&d.join(f)).unwrap() {
        Loaded::Array(a) => a,
        _ => panic!("{f} is not an array"),
    };
    let f = arr("fortran.npy");
    assert_eq!(
        (f.shape(), f.to_f64_vec().unwrap()),
        (&[2usize, 3][..], vec![0., 1., 2., 3., 4., 5.])
    );
    assert_eq!(arr("big.npy").to_vec::<i32>().unwrap(), vec![0, 1, 2, 3]);
    assert_eq!(arr("v2.npy").dtype(), DType::Float32);
    assert_eq!(arr("v3.npy").to_vec::<i64>().unwrap(), vec![0, 1, 2]);
    let Loaded::Archive(items) = npy::load(&d.join("c.npz")).unwrap() else {
        panic!()
    };
    assert_eq!(
        items.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(),
        vec!["w", "arr_0"]
    ); // NumPy writes keywords first
    assert_eq!(items[0].1.dtype(), DType::Float16);
    let e = npy::load(&d.join("u8.npy")).err().unwrap();
    assert!(e.message.contains("'u1'"), "{}", e.message);
}
