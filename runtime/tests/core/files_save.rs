//! What `save` does to what is at the path (docs/LANGUAGE-REFERENCE.md,
//! Files): a planted link at a temporary name is never followed, a symlink
//! is written through, hard links and owners are kept, a device is written
//! in place, the old file's mode is kept, and an interrupted save leaves the
//! old file and no temporary file. (A read-only file, which needs a user
//! other than root, is checked through the binary in repl/tests/cli/files.rs.)

use gcalc_runtime::npy::{self, Loaded};
use gcalc_runtime::{Array, ErrorKind};
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::Path;

fn arr(v: &[f64]) -> Array {
    Array::from_vec(v.to_vec(), vec![v.len()])
}

fn read(p: &Path) -> Vec<f64> {
    match npy::load(p).unwrap() {
        Loaded::Array(a) => a.to_f64_vec().unwrap(),
        Loaded::Archive(_) => panic!("an archive"),
    }
}

/// Names in `dir` that look like temporary files.
fn temps(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp"))
        .collect()
}

#[test]
fn a_planted_link_at_the_old_temporary_name_redirects_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let victim = d.join("victim");
    std::fs::write(&victim, b"precious").unwrap();
    // The name earlier versions used, predictable from the process id.
    let planted = d.join(format!(".out.npy.tmp-{}", std::process::id()));
    std::os::unix::fs::symlink(&victim, &planted).unwrap();
    npy::save(&d.join("out.npy"), &arr(&[1.0, 2.0])).unwrap();
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
    assert_eq!(read(&d.join("out.npy")), [1.0, 2.0]);
    assert!(std::fs::symlink_metadata(&planted).unwrap().is_symlink());
}

#[test]
fn a_symlink_is_written_through_and_stays_a_link() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("data")).unwrap();
    npy::save(&d.join("data/real.npy"), &arr(&[0.0])).unwrap();
    std::os::unix::fs::symlink("data/real.npy", d.join("link.npy")).unwrap();
    npy::save(&d.join("link.npy"), &arr(&[3.0, 4.0])).unwrap();
    assert!(
        std::fs::symlink_metadata(d.join("link.npy"))
            .unwrap()
            .is_symlink()
    );
    assert_eq!(read(&d.join("data/real.npy")), [3.0, 4.0]);
    // A dangling link creates its target; savez and figures follow links too.
    std::os::unix::fs::symlink("data/new.npz", d.join("dangling.npz")).unwrap();
    npy::savez(&d.join("dangling.npz"), &[("a".into(), arr(&[5.0]))]).unwrap();
    assert!(
        std::fs::symlink_metadata(d.join("dangling.npz"))
            .unwrap()
            .is_symlink()
    );
    assert!(
        matches!(npy::load(&d.join("data/new.npz")).unwrap(), Loaded::Archive(v) if v.len() == 1)
    );
    assert!(temps(d).is_empty() && temps(&d.join("data")).is_empty());
}

#[test]
fn hard_links_and_the_mode_are_kept() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (a, b) = (d.join("a.npy"), d.join("b.npy"));
    npy::save(&a, &arr(&[1.0])).unwrap();
    std::fs::hard_link(&a, &b).unwrap();
    let ino = std::fs::metadata(&a).unwrap().ino();
    npy::save(&a, &arr(&[7.0, 8.0, 9.0])).unwrap();
    assert_eq!(std::fs::metadata(&a).unwrap().ino(), ino);
    assert_eq!(read(&b), [7.0, 8.0, 9.0]);
    assert_eq!(std::fs::metadata(&b).unwrap().nlink(), 2);

    // A file with one link is replaced (a new inode) with its old mode.
    let c = d.join("c.npy");
    npy::save(&c, &arr(&[1.0])).unwrap();
    std::fs::set_permissions(&c, std::fs::Permissions::from_mode(0o640)).unwrap();
    npy::save(&c, &arr(&[2.0])).unwrap();
    assert_eq!(std::fs::metadata(&c).unwrap().mode() & 0o7777, 0o640);
    // A new file gets the mode any new file gets here (0666 less the umask).
    std::fs::write(d.join("plain"), b"").unwrap();
    let want = std::fs::metadata(d.join("plain")).unwrap().mode() & 0o777;
    npy::save(&d.join("new.npy"), &arr(&[1.0])).unwrap();
    assert_eq!(
        std::fs::metadata(d.join("new.npy")).unwrap().mode() & 0o777,
        want
    );
    assert!(temps(d).is_empty());
}

#[test]
fn a_file_of_another_owner_is_written_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = d.join("theirs.npy");
    npy::save(&p, &arr(&[1.0])).unwrap();
    if std::os::unix::fs::chown(&p, Some(65534), Some(65534)).is_err() {
        eprintln!("SKIPPED a_file_of_another_owner_is_written_in_place: needs root to chown");
        return;
    }
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o666)).unwrap();
    let ino = std::fs::metadata(&p).unwrap().ino();
    npy::save(&p, &arr(&[5.0, 6.0])).unwrap();
    let m = std::fs::metadata(&p).unwrap();
    assert_eq!((m.ino(), m.uid(), m.gid()), (ino, 65534, 65534));
    assert_eq!(read(&p), [5.0, 6.0]);
}

#[test]
fn a_device_is_written_not_replaced() {
    npy::save(Path::new("/dev/null"), &arr(&[1.0; 1000])).unwrap();
    npy::savez(Path::new("/dev/null"), &[("x".into(), arr(&[1.0]))]).unwrap();
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    // A FIFO nobody reads is an error, not a wait.
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.npy");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let e = npy::save(&fifo, &arr(&[1.0])).unwrap_err();
    assert!(e.message.contains("FIFO"), "{}", e.message);
}

#[test]
fn an_interrupted_save_keeps_the_old_file_and_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = d.join("x.npy");
    npy::save(&p, &arr(&[1.0, 2.0])).unwrap();
    let big = Array::from_vec(vec![0.5f32; 3 << 20], vec![3 << 20]); // 12 MiB
    let e = npy::save_checked(&p, &big, &|| true).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Interrupted);
    assert_eq!(read(&p), [1.0, 2.0]);
    assert!(temps(d).is_empty(), "{:?}", temps(d));
    let e = npy::savez_checked(&d.join("z.npz"), &[("b".into(), big.clone())], &|| true);
    assert_eq!(e.unwrap_err().kind, ErrorKind::Interrupted);
    assert!(temps(d).is_empty() && !d.join("z.npz").exists());
    // In place (a hard-linked file), the error says the file is incomplete.
    std::fs::hard_link(&p, d.join("x2.npy")).unwrap();
    let e = npy::save_checked(&p, &big, &|| true).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Interrupted);
    assert!(e.message.contains("incomplete"), "{}", e.message);
    // Not interrupted, the same save completes.
    npy::save_checked(&d.join("y.npy"), &big, &|| false).unwrap();
    assert_eq!(read(&d.join("y.npy")).len(), 3 << 20);
}
