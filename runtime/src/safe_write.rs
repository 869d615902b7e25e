//! Writing a file the user named (`save`, `savez`, figures, `profile(file=)`)
//! the way NumPy's `open(path, "wb")` treats what is at the path, but without
//! ever leaving a torn file or a stray temporary one where it can avoid it.
//!
//! The rule, decided by what the path holds when the write starts:
//! - nothing, or a regular file with one link, owned by this user and group,
//!   that this process may open for writing: the bytes go to a new temporary
//!   file beside it (a random name, created exclusively: an existing file or
//!   a planted symlink at that name is never opened), flushed, then renamed
//!   over the path with the old file's permissions. Readers see the old file
//!   or the whole new one; a failed or interrupted write leaves the old one.
//! - a symbolic link: followed to its final target (created if missing), and
//!   the rule applies to the target; the link stays a link.
//! - a regular file with other hard links, or owned by another user or group:
//!   truncated and written in place, so the links and the owner stay (a
//!   failure part way leaves it torn, as with NumPy).
//! - a file this process may not open for writing (a read-only file): a
//!   permission error, the file untouched.
//! - a device or a FIFO (`/dev/null`): written in place, never replaced; a
//!   FIFO without a reader is an error rather than a wait.
//! - a folder: an error.
//!
//! Temporary files are listed while they exist: a front-end's handler for a
//! terminating signal calls `end_writes` before the process ends, so a kill
//! during a save leaves no `.tmp` file behind.

use crate::error::{Error, Result};
use std::ffi::OsStr;
use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, Seek, SeekFrom, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// Bytes written between two looks at the interrupt flag.
const CHECK_EVERY: usize = 4 << 20;
/// Symbolic links followed before giving up (Linux's own limit).
const MAX_LINKS: usize = 40;
/// Random characters in a temporary file's name.
const RAND_CHARS: usize = 12;

/// Paths of the temporary files that exist now (see `end_writes`).
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remove the temporary files of every write in progress and hold back every
/// later write of this process for good. For a handler of a terminating
/// signal (or a forced exit) to call right before the process ends.
pub fn end_writes() {
    let list = pending();
    for p in list.iter() {
        let _ = std::fs::remove_file(p);
    }
    // Keep the lock: a write still running cannot rename its file into place
    // (or make a new one) between this cleanup and the end of the process.
    std::mem::forget(list);
}

/// A temporary file that is removed (and unlisted) unless renamed into place.
struct Temp {
    file: Option<tempfile::NamedTempFile>,
}

impl Temp {
    /// A new file `.NAME.<random>.tmp` in `dir`, created exclusively
    /// (`O_CREAT|O_EXCL`: never an existing file, never through a symlink).
    fn create(dir: &Path, name: &OsStr, rand: usize, mode: u32) -> io::Result<Temp> {
        let mut list = pending();
        let mut prefix = std::ffi::OsString::from(".");
        prefix.push(name);
        prefix.push(".");
        let file = tempfile::Builder::new()
            .prefix(&prefix)
            .suffix(".tmp")
            .rand_bytes(rand)
            .permissions(Permissions::from_mode(mode))
            .tempfile_in(dir)?;
        list.push(file.path().to_path_buf());
        Ok(Temp { file: Some(file) })
    }

    fn path(&self) -> &Path {
        self.file.as_ref().map_or(Path::new(""), |f| f.path())
    }

    fn file(&self) -> &File {
        self.file.as_ref().expect("a live temporary file").as_file()
    }

    /// Rename over `dest`; on failure the temporary file is removed.
    fn persist(mut self, dest: &Path) -> io::Result<()> {
        let mut list = pending();
        let Some(f) = self.file.take() else {
            return Ok(());
        };
        let path = f.path().to_path_buf();
        // A failed rename gives the file back inside the error, whose drop removes it.
        let r = f.persist(dest).map(drop).map_err(|e| e.error);
        list.retain(|p| *p != path);
        r
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if let Some(f) = self.file.take() {
            let mut list = pending();
            let path = f.path().to_path_buf();
            drop(f);
            list.retain(|p| *p != path);
        }
    }
}

/// The writer a write's body gets: splits large writes and stops with an
/// `Interrupted` marker when the interrupt flag is seen.
pub struct Checked<'a, W> {
    inner: W,
    interrupted: &'a dyn Fn() -> bool,
    since_check: usize,
}

/// The io error that carries an interrupt out of a body.
#[derive(Debug)]
struct Stopped;

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted")
    }
}
impl std::error::Error for Stopped {}

impl<W: Write> Write for Checked<'_, W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            if (self.interrupted)() {
                return Err(io::Error::other(Stopped));
            }
        }
        let n = self
            .inner
            .write(&buf[..buf.len().min(CHECK_EVERY - self.since_check)])?;
        self.since_check += n;
        Ok(n)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

impl<W: Seek> Seek for Checked<'_, W> {
    fn seek(&mut self, pos: SeekFrom) -> io::Result<u64> {
        self.inner.seek(pos)
    }
}

/// Where the bytes go.
enum Target {
    /// A temporary file, renamed over `dest` (the path or its link's target)
    /// once written.
    Temp { temp: Temp, dest: PathBuf },
    /// The file itself, in place (a device, a FIFO, a file with other links
    /// or another owner).
    InPlace(File),
}

/// The final target of `path` after following symbolic links (which may not
/// exist yet: a dangling link is written through, creating its target).
fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let t = std::fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if t.is_relative() => dir.join(t),
                    _ => t,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

fn folder_of(p: &Path) -> PathBuf {
    p.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .map_or(PathBuf::from("."), Path::to_path_buf)
}

/// Open an existing `dest` for writing (never creating it); a read-only file
/// or a FIFO without a reader are errors that say so.
fn open_existing(dest: &Path, fifo: bool, op: &str, shown: &str) -> Result<File> {
    let mut opts = OpenOptions::new();
    opts.write(true);
    if fifo {
        // A FIFO with no reader would block the session: ENXIO instead.
        opts.custom_flags(libc::O_NONBLOCK);
    }
    let file = opts.open(dest).map_err(|e| match e.kind() {
        io::ErrorKind::PermissionDenied => Error::io(format!(
            "{op}: cannot write {shown}: permission denied (the file is read-only for you)"
        ))
        .with_help("make it writable (chmod u+w) or write to another name"),
        _ if e.raw_os_error() == Some(libc::ENXIO) => Error::io(format!(
            "{op}: cannot write {shown}: it is a FIFO that no process is reading"
        ))
        .with_help("start the reader first, or write to a regular file"),
        _ => cannot_write(op, shown, &e),
    })?;
    if fifo {
        set_blocking(&file).map_err(|e| cannot_write(op, shown, &e))?;
    }
    Ok(file)
}

/// Decide where the bytes for `path` go, by the module's rule.
fn target(path: &Path, op: &str, shown: &str) -> Result<Target> {
    use std::os::unix::fs::FileTypeExt;
    let fail = |e: io::Error| cannot_write(op, shown, &e);
    let dest = resolve(path).map_err(fail)?;
    let dir = folder_of(&dest);
    let name = dest.file_name().unwrap_or(OsStr::new("file")).to_owned();
    let meta = match std::fs::metadata(&dest) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            let temp = Temp::create(&dir, &name, RAND_CHARS, 0o666).map_err(fail)?;
            return Ok(Target::Temp { temp, dest });
        }
        Err(e) => return Err(fail(e)),
    };
    let ft = meta.file_type();
    if ft.is_dir() {
        return Err(
            Error::io(format!("{op}: cannot write {shown}: it is a folder"))
                .with_help("give a file name inside the folder"),
        );
    }
    let file = open_existing(&dest, ft.is_fifo(), op, shown)?;
    if !ft.is_file() || meta.nlink() > 1 {
        return Ok(Target::InPlace(file));
    }
    let temp = match Temp::create(&dir, &name, RAND_CHARS, 0o666) {
        Ok(t) => t,
        // A writable file in a folder we may not write: in place.
        Err(e) if e.kind() == io::ErrorKind::PermissionDenied => {
            return Ok(Target::InPlace(file));
        }
        Err(e) => return Err(fail(e)),
    };
    let mine = temp.file().metadata().map_err(fail)?;
    if (meta.uid(), meta.gid()) != (mine.uid(), mine.gid()) {
        // A rename would give the file our owner and group: in place.
        return Ok(Target::InPlace(file));
    }
    temp.file()
        .set_permissions(Permissions::from_mode(meta.permissions().mode() & 0o7777))
        .map_err(fail)?;
    Ok(Target::Temp { temp, dest })
}

fn set_blocking(f: &File) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let fd = f.as_raw_fd();
    // SAFETY: fcntl on a descriptor that `f` owns.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

fn cannot_write(op: &str, shown: &str, e: &io::Error) -> Error {
    if e.get_ref().is_some_and(|i| i.is::<Stopped>()) {
        return Error::interrupted();
    }
    Error::io(format!("{op}: cannot write {shown}: {e}"))
        .with_help("check that the folder exists and is writable, and that the disk has room")
}

/// The writer a body writes to.
pub type Writer<'a, 'f> = Checked<'a, io::BufWriter<&'f File>>;

/// Write `path` by the module's rule: `body` writes the bytes to what it is
/// given; `interrupted` is asked every few MiB (true stops the write with an
/// interrupted error). `op` names the operation in errors.
pub fn write_file(
    path: &Path,
    op: &str,
    interrupted: &dyn Fn() -> bool,
    body: impl FnOnce(&mut Writer<'_, '_>) -> io::Result<()>,
) -> Result<()> {
    let shown = path.display().to_string();
    if path.file_name().is_none() {
        return Err(Error::io(format!("{op}: {shown} is not a file name"))
            .with_help("give a file name, e.g. \"out.npy\""));
    }
    match target(path, op, &shown)? {
        Target::InPlace(file) => {
            let regular = file.metadata().is_ok_and(|m| m.is_file());
            let r = (|| {
                if regular {
                    file.set_len(0)?;
                }
                fill(&file, interrupted, body)
            })();
            r.map_err(|e| {
                let err = cannot_write(op, &shown, &e);
                let message = if regular {
                    format!(
                        "{} ({shown} was being written in place: it is incomplete)",
                        err.message
                    )
                } else {
                    err.message.clone()
                };
                Error { message, ..err }
            })
        }
        Target::Temp { temp, dest } => {
            let r = (|| {
                fill(temp.file(), interrupted, body)?;
                temp.file().sync_all()?;
                temp.persist(&dest)?;
                if let Ok(d) = File::open(folder_of(&dest)) {
                    let _ = d.sync_all();
                }
                Ok(())
            })();
            r.map_err(|e| cannot_write(op, &shown, &e))
        }
    }
}

fn fill(
    file: &File,
    interrupted: &dyn Fn() -> bool,
    body: impl FnOnce(&mut Writer<'_, '_>) -> io::Result<()>,
) -> io::Result<()> {
    let mut w = Checked {
        inner: io::BufWriter::with_capacity(1 << 16, file),
        interrupted,
        since_check: 0,
    };
    body(&mut w)?;
    w.flush()
}

/// Write `bytes` to a new file in `dir` named by `name(n)` for the first
/// `n = 1, 2, ...` that is free, never replacing a file (the temporary file
/// is hard-linked to the name, which fails if the name is taken); the path.
pub fn write_new_numbered(
    dir: &Path,
    name: impl Fn(u32) -> String,
    bytes: &[u8],
    op: &str,
) -> Result<PathBuf> {
    let first = dir.join(name(1));
    let shown = first.display().to_string();
    let fail = |e: io::Error| cannot_write(op, &shown, &e);
    let temp = Temp::create(dir, OsStr::new(&name(0)), RAND_CHARS, 0o666).map_err(fail)?;
    fill(temp.file(), &|| false, |w| w.write_all(bytes)).map_err(fail)?;
    temp.file().sync_all().map_err(fail)?;
    for n in 1..=100_000u32 {
        let path = if dir.as_os_str().is_empty() || dir == Path::new(".") {
            PathBuf::from(name(n))
        } else {
            dir.join(name(n))
        };
        if std::fs::symlink_metadata(&path).is_ok() {
            continue;
        }
        match std::fs::hard_link(temp.path(), &path) {
            Ok(()) => return Ok(path),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            // A file system without hard links: the name was free a moment ago.
            Err(_) => {
                temp.persist(&path)
                    .map_err(|e| cannot_write(op, &path.display().to_string(), &e))?;
                return Ok(path);
            }
        }
    }
    Err(Error::io(format!("{op}: no free file name like {shown}"))
        .with_help("remove or move old files, or give a file name"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planted_link_at_the_temporary_name_is_never_opened() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, b"precious").unwrap();
        // With no random characters the temporary name is predictable:
        // `.out.npy..tmp`. A link planted there makes the creation fail.
        std::os::unix::fs::symlink(&victim, dir.path().join(".out.npy..tmp")).unwrap();
        let r = Temp::create(dir.path(), OsStr::new("out.npy"), 0, 0o666);
        assert_eq!(r.err().unwrap().kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&victim).unwrap(), b"precious");
        assert!(!pending().iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn temporary_files_are_listed_while_they_exist() {
        let dir = tempfile::tempdir().unwrap();
        let t = Temp::create(dir.path(), OsStr::new("a"), RAND_CHARS, 0o666).unwrap();
        let p = t.path().to_path_buf();
        assert!(pending().contains(&p) && p.exists());
        drop(t);
        assert!(!pending().contains(&p) && !p.exists());
        let t = Temp::create(dir.path(), OsStr::new("b"), RAND_CHARS, 0o666).unwrap();
        let p = t.path().to_path_buf();
        t.persist(&dir.path().join("b")).unwrap();
        assert!(!pending().contains(&p) && dir.path().join("b").exists());
    }
}
