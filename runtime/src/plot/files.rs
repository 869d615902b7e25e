//! Writing figures to files: atomically (a temporary file in the same folder,
//! then a rename), and numbered files (`figure-1.png`, ...) that never
//! overwrite an existing one.

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

fn unwritable(path: &Path, e: &std::io::Error) -> Error {
    Error::io(format!(
        "cannot write the figure to {}: {e}",
        path.display()
    ))
    .with_help(
        "check that the folder exists and is writable, or give another path (file= or savefig)",
    )
}

/// A temporary file beside `path`, holding `bytes`, flushed to disk.
fn write_temp(path: &Path, bytes: &[u8]) -> Result<PathBuf> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "figure".into());
    let tmp = dir.join(format!(
        ".{name}.{}-{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_file(&tmp);
        return Err(unwritable(path, &e));
    }
    Ok(tmp)
}

/// Write `bytes` to `path` so that readers see the old file or the whole new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if path.is_dir() {
        return Err(Error::io(format!(
            "cannot write the figure to {}: it is a folder",
            path.display()
        ))
        .with_help("give a file name ending in .png or .svg"));
    }
    let tmp = write_temp(path, bytes)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        unwritable(path, &e)
    })
}

/// Write `bytes` to the first `figure-N.<ext>` (N = 1, 2, ...) that does not
/// exist in `dir`; give the path written. Never overwrites: the temporary file
/// is hard-linked to its name, which fails if the name was taken meanwhile.
pub fn write_numbered(dir: &Path, ext: &str, bytes: &[u8]) -> Result<PathBuf> {
    let probe = dir.join(format!("figure-1.{ext}"));
    let tmp = write_temp(&probe, bytes)?;
    let mut result = Err(Error::io("no free figure file name"));
    for n in 1..=100_000u32 {
        let name = if dir.as_os_str().is_empty() || dir == Path::new(".") {
            PathBuf::from(format!("figure-{n}.{ext}"))
        } else {
            dir.join(format!("figure-{n}.{ext}"))
        };
        if name.exists() {
            continue;
        }
        match std::fs::hard_link(&tmp, &name) {
            Ok(()) => {
                result = Ok(name);
                break;
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            // A file system without hard links: the name was free a moment ago.
            Err(_) => {
                result = std::fs::rename(&tmp, &name)
                    .map(|()| name.clone())
                    .map_err(|e| unwritable(&name, &e));
                break;
            }
        }
    }
    let _ = std::fs::remove_file(&tmp);
    result
}
