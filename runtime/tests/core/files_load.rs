//! `load` is bounded: non-regular files fail fast, headers are checked (64
//! dimensions at most, sizes whose product fits, no more data than the file
//! holds) before anything is read, a zip bomb is refused at its header under
//! a memory limit, and a member costs one copy of its data. The tests that
//! need a memory limit or a clean peak run in a child process (this binary
//! again, one ignored test) that limits itself with setrlimit.

use gcalc_runtime::npy::{self, Loaded};
use gcalc_runtime::{Array, ErrorKind};
use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

/// A `.npy` header for `descr` and the shape text `shape`, padded to 64.
fn header(descr: &str, shape: &str) -> Vec<u8> {
    let mut dict = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
    let unpadded = 10 + dict.len() + 1;
    dict.push_str(&" ".repeat(unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

fn load_err(p: &Path) -> gcalc_runtime::Error {
    let t = Instant::now();
    let e = npy::load(p).err().expect("loaded");
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "took {:?}",
        t.elapsed()
    );
    e
}

#[test]
fn non_regular_files_fail_fast() {
    for (p, what) in [("/dev/zero", "character device"), ("/tmp", "folder")] {
        let e = load_err(Path::new(p));
        assert_eq!(e.kind, ErrorKind::Io);
        assert!(e.message.contains(what), "{}", e.message);
    }
}

#[test]
fn absurd_headers_are_refused_before_reading() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.npy");
    let check = |bytes: &[u8], want: &str| {
        std::fs::write(&p, bytes).unwrap();
        let e = load_err(&p);
        assert!(e.message.contains(want), "{want}: {}", e.message);
    };
    // 200,000 dimensions (a 600 KB header) and 65: more than NumPy's 64.
    let mut many = b"\x93NUMPY\x02\x00".to_vec();
    let dict = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({}), }}\n",
        "1, ".repeat(200_000)
    );
    many.extend_from_slice(&(dict.len() as u32).to_le_bytes());
    many.extend_from_slice(dict.as_bytes());
    check(&many, "header");
    check(
        &header("<f4", &format!("({})", "1, ".repeat(65))),
        "at most 64",
    );
    // 64 dimensions load.
    let mut ok = header("<f4", &format!("({})", "1, ".repeat(64)));
    ok.extend_from_slice(&1.5f32.to_le_bytes());
    std::fs::write(&p, &ok).unwrap();
    let Loaded::Array(a) = npy::load(&p).unwrap() else {
        panic!()
    };
    assert_eq!((a.ndim(), a.to_f64_vec().unwrap()), (64, vec![1.5]));
    // A product of sizes that overflows, and more data than the file holds.
    check(&header("<f8", "(4294967296, 4294967296, 16)"), "too large");
    check(&header("<f4", "(1000000000000,)"), "truncated");
    check(&header("<f4", "(3,)"), "truncated");
}

#[test]
fn an_npz_member_that_declares_more_than_it_holds_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("lie.npz");
    let mut member = header("<f8", "(100000000,)");
    member.extend_from_slice(&[0u8; 64]);
    std::fs::write(&p, zip_one("a.npy", 0, &member, member.len() as u64, 0)).unwrap();
    let e = load_err(&p);
    assert!(e.message.contains("truncated"), "{}", e.message);
}

/// A zip with one member `name` (method 8 = deflate, 0 = stored) of `data`
/// (already compressed for deflate), `size` bytes uncompressed with `crc`.
fn zip_one(name: &str, method: u16, data: &[u8], size: u64, crc: u32) -> Vec<u8> {
    let (csize, size) = (data.len() as u32, u32::try_from(size).unwrap());
    let n = name.len() as u16;
    let mut z = Vec::new();
    let fields = |z: &mut Vec<u8>| {
        z.extend_from_slice(&20u16.to_le_bytes()); // version needed
        z.extend_from_slice(&0u16.to_le_bytes()); // flags
        z.extend_from_slice(&method.to_le_bytes());
        z.extend_from_slice(&0u16.to_le_bytes()); // time
        z.extend_from_slice(&0x21u16.to_le_bytes()); // date 1980-01-01
        z.extend_from_slice(&crc.to_le_bytes());
        z.extend_from_slice(&csize.to_le_bytes());
        z.extend_from_slice(&size.to_le_bytes());
        z.extend_from_slice(&n.to_le_bytes());
        z.extend_from_slice(&0u16.to_le_bytes()); // extra
    };
    z.extend_from_slice(&0x04034b50u32.to_le_bytes());
    fields(&mut z);
    z.extend_from_slice(name.as_bytes());
    z.extend_from_slice(data);
    let cd = z.len() as u32;
    z.extend_from_slice(&0x02014b50u32.to_le_bytes());
    z.extend_from_slice(&20u16.to_le_bytes()); // made by
    fields(&mut z);
    z.extend_from_slice(&[0u8; 10]); // comment, disk, attributes
    z.extend_from_slice(&0u32.to_le_bytes()); // local header offset
    z.extend_from_slice(name.as_bytes());
    let cd_len = z.len() as u32 - cd;
    z.extend_from_slice(&0x06054b50u32.to_le_bytes());
    z.extend_from_slice(&[0, 0, 0, 0, 1, 0, 1, 0]);
    z.extend_from_slice(&cd_len.to_le_bytes());
    z.extend_from_slice(&cd.to_le_bytes());
    z.extend_from_slice(&0u16.to_le_bytes());
    z
}

/// Deflate `bytes` into `out` and flush to a byte boundary (a full flush:
/// later blocks do not refer back), or finish the stream.
fn deflate(
    c: &mut flate2::Compress,
    mut bytes: &[u8],
    flush: flate2::FlushCompress,
    out: &mut Vec<u8>,
) {
    loop {
        out.reserve(1 << 16);
        let before = c.total_in();
        c.compress_vec(bytes, out, flush).unwrap();
        bytes = &bytes[(c.total_in() - before) as usize..];
        if bytes.is_empty() && out.len() < out.capacity() {
            return;
        }
    }
}

/// An `.npz` whose one member is a float32 array of `mib` MiB of zeros,
/// deflated to about a thousandth of that: one full-flushed block of 1 MiB
/// of zeros repeated (a zip bomb when `mib` is large).
fn zeros_npz(path: &Path, mib: u64) {
    let n = mib << 18;
    let head = header("<f4", &format!("({n},)"));
    let mut c = flate2::Compress::new(flate2::Compression::default(), false);
    let mut data = Vec::new();
    deflate(&mut c, &head, flate2::FlushCompress::Full, &mut data);
    let mib_zeros = vec![0u8; 1 << 20];
    let mut block = Vec::new();
    deflate(&mut c, &mib_zeros, flate2::FlushCompress::Full, &mut block);
    let mut crc = flate2::Crc::new();
    crc.update(&head);
    for _ in 0..mib {
        data.extend_from_slice(&block);
        crc.update(&mib_zeros);
    }
    deflate(&mut c, &[], flate2::FlushCompress::Finish, &mut data);
    let size = head.len() as u64 + (mib << 20);
    std::fs::write(path, zip_one("zeros.npy", 8, &data, size, crc.sum())).unwrap();
}

/// This binary's ignored test `name` in a child process with `arg`; its stdout.
fn child(name: &str, arg: &Path) -> String {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            name,
            "--exact",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("GCALC_TEST_CHILD", arg)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "child {name} failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// Kilobytes on the line `key` of /proc/self/status.
fn status_kb(key: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = s.lines().find(|l| l.starts_with(key)).unwrap();
    line[key.len()..]
        .split_whitespace()
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_zip_bomb_is_refused_at_its_header_under_a_memory_limit() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bomb.npz");
    zeros_npz(&p, 3800); // 3.7 GiB of zeros in about 4 MB
    assert!(std::fs::metadata(&p).unwrap().len() < 8 << 20);
    let out = child("files_load::bomb_child", &p);
    assert!(out.contains("REFUSED out of memory"), "{out}");
}

#[test]
#[ignore = "run as a child by a_zip_bomb_is_refused_at_its_header_under_a_memory_limit"]
fn bomb_child() {
    let Some(p) = std::env::var_os("GCALC_TEST_CHILD") else {
        return;
    };
    // At most 1 GiB more address space than now.
    let lim = status_kb("VmSize:") * 1024 + (1 << 30);
    let r = libc::rlimit {
        rlim_cur: lim,
        rlim_max: lim,
    };
    // SAFETY: setrlimit with a valid struct, on this child process only.
    assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &r) }, 0);
    let t = Instant::now();
    let e = npy::load(Path::new(&p)).err().expect("the bomb loaded");
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "took {:?}",
        t.elapsed()
    );
    assert!(
        e.message.contains("zeros.npy") && e.message.contains("available"),
        "{}",
        e.message
    );
    println!("REFUSED {}", e.kind.name());
}

#[test]
fn a_member_or_file_costs_one_copy_of_its_data() {
    let dir = tempfile::tempdir().unwrap();
    let npz = dir.path().join("m.npz");
    zeros_npz(&npz, 256);
    // A sparse .npy of 256 MiB of zeros (no disk used).
    let npy_path = dir.path().join("m.npy");
    let mut f = std::fs::File::create(&npy_path).unwrap();
    let head = header("<f4", &format!("({},)", 256u64 << 18));
    f.write_all(&head).unwrap();
    f.set_len(head.len() as u64 + (256 << 20)).unwrap();
    drop(f);
    for p in [&npz, &npy_path] {
        let out = child("files_load::peak_child", p);
        let grew: u64 = out
            .lines()
            .find_map(|l| l.split("PEAK_GREW_KB ").nth(1))
            .unwrap_or_else(|| panic!("{out}"))
            .trim()
            .parse()
            .unwrap();
        // One copy is 256 MiB; three (the old read) were 768 MiB.
        assert!(grew < 330 << 10, "{}: peak grew by {grew} kB", p.display());
        assert!(grew > 200 << 10, "{}: peak grew by {grew} kB", p.display());
    }
}

#[test]
#[ignore = "run as a child by a_member_or_file_costs_one_copy_of_its_data"]
fn peak_child() {
    let Some(p) = std::env::var_os("GCALC_TEST_CHILD") else {
        return;
    };
    let before = status_kb("VmHWM:");
    let a = match npy::load(Path::new(&p)).unwrap() {
        Loaded::Array(a) => a,
        Loaded::Archive(mut v) => v.remove(0).1,
    };
    let grew = status_kb("VmHWM:") - before;
    assert_eq!(a.size(), 256 << 18);
    let host: Array = a.to_host().unwrap();
    assert_eq!(host.to_vec::<f32>().unwrap()[12345], 0.0);
    println!("PEAK_GREW_KB {grew}");
}
