//! Files through the real binary: a read-only file is a permission error
//! (run as another user when the tests run as root, who may write it), a
//! signal that ends a script during a save leaves no temporary file, and
//! scripts are bounded (`gcalc /dev/zero` fails at once) and may start with
//! a UTF-8 byte order mark.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn gcalc(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gcalc"));
    c.current_dir(dir)
        .env("HOME", dir)
        .env("NO_COLOR", "1")
        .env("GCALC_FLAGS", "device=cpu");
    c
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

#[test]
fn a_read_only_file_is_a_permission_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).unwrap();
    std::fs::write(d.join("ro.npy"), b"old").unwrap();
    std::fs::set_permissions(d.join("ro.npy"), std::fs::Permissions::from_mode(0o444)).unwrap();
    let mut c = gcalc(d);
    if is_root() {
        // root may write any file; NumPy's PermissionError is for users.
        c.uid(65534).gid(65534);
    }
    let out = c
        .args(["-e", "save(\"ro.npy\", ones(3))"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("permission denied"), "{err}");
    assert_eq!(std::fs::read(d.join("ro.npy")).unwrap(), b"old");
    let left: Vec<_> = std::fs::read_dir(d)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
}

/// Names in `dir` that look like temporary files of `big.npy`.
fn temps(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".big.npy.") && n.ends_with(".tmp"))
        .collect()
}

#[test]
fn a_signal_during_a_save_leaves_no_temporary_file() {
    for (sig, name) in [(15, "TERM"), (2, "INT"), (1, "HUP")] {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::write(
            d.join("saver.gcalc"),
            "x = ones(16000000)\nfor i in range(100000) { save(\"big.npy\", x) }\n",
        )
        .unwrap();
        let mut child = gcalc(d)
            .arg("saver.gcalc")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        // Wait until a save is under way (its temporary file exists).
        let t = Instant::now();
        while temps(d).is_empty() {
            assert!(t.elapsed() < Duration::from_secs(60), "no save started");
            std::thread::sleep(Duration::from_millis(2));
        }
        let kill = Command::new("kill")
            .args([format!("-{name}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(sig), "SIG{name}: {status:?}");
        assert!(temps(d).is_empty(), "SIG{name} left {:?}", temps(d));
    }
}

#[test]
fn scripts_are_bounded_and_may_start_with_a_bom() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let t = Instant::now();
    let out = gcalc(d).arg("/dev/zero").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("/dev/zero") && err.contains("device"), "{err}");
    // Standard input that never ends stops at the size limit.
    let out = gcalc(d)
        .arg("-")
        .stdin(std::fs::File::open("/dev/zero").unwrap())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("too long for a script"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());

    std::fs::write(d.join("bom.gcalc"), "\u{feff}x = 1 + 1\nprint(x)\n").unwrap();
    let out = gcalc(d).arg("bom.gcalc").output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "2\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = gcalc(d)
        .arg("-")
        .stdin(std::fs::File::open(d.join("bom.gcalc")).unwrap())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n");
    // An error on the first line still points at the right column.
    std::fs::write(d.join("bad.gcalc"), "\u{feff}x = y\n").unwrap();
    let out = gcalc(d).arg("bad.gcalc").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("bad.gcalc:1:5"), "{err}");
}
