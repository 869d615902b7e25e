//! Writing figures to files: to a path the user names (by the rule of
//! `crate::safe_write`: a regular file is replaced atomically, a symlink is
//! written through), and numbered files (`figure-1.png`, ...) that never
//! overwrite an existing one.

use crate::error::{Error, Result};
use crate::safe_write;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Write `bytes` to `path` so that readers see the old file or the whole new one.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    if path.is_dir() {
        return Err(Error::io(format!(
            "cannot write the figure to {}: it is a folder",
            path.display()
        ))
        .with_help("give a file name ending in .png or .svg"));
    }
    safe_write::write_file(path, "savefig", &|| false, |w| w.write_all(bytes))
}

/// Write `bytes` to the first `figure-N.<ext>` (N = 1, 2, ...) that does not
/// exist in `dir`; give the path written.
pub fn write_numbered(dir: &Path, ext: &str, bytes: &[u8]) -> Result<PathBuf> {
    safe_write::write_new_numbered(dir, |n| format!("figure-{n}.{ext}"), bytes, "savefig")
}
