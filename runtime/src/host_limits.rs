//! How much memory this process can still get from the host, before it asks:
//! the kernel's estimate of available memory (`MemAvailable`), the room left
//! under the process's own limits (`RLIMIT_AS` against its address space,
//! `RLIMIT_DATA` against its data) and under its cgroup's `memory.max`.
//! Reads that size a buffer from a file's header (`load`) check it here
//! first, so a lying or huge header is an error instead of a death.

use crate::error::{Error, ErrorKind, Result};

/// The first number on the line of `/proc/...` text that starts with `key`, in kB.
fn field_kb(text: &str, key: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(key))?;
    line[key.len()..].split_whitespace().next()?.parse().ok()
}

/// The soft limit of `resource`, when finite.
fn limit(resource: libc::__rlimit_resource_t) -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes the struct it is given.
    let ok = unsafe { libc::getrlimit(resource, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur)
}

/// Room left in this process's cgroup (v2), when it has a limit.
fn cgroup_room() -> Option<u64> {
    let cg = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let rel = cg.lines().find_map(|l| l.strip_prefix("0::"))?;
    let dir = std::path::Path::new("/sys/fs/cgroup").join(rel.trim_start_matches('/'));
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    let max: u64 = read("memory.max")?.trim().parse().ok()?;
    let cur: u64 = read("memory.current")?.trim().parse().ok()?;
    Some(max.saturating_sub(cur))
}

/// Bytes this process can still allocate and touch, as far as the host
/// tells; `None` when it tells nothing (then nothing is refused up front).
pub fn available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let status = std::fs::read_to_string("/proc/self/status").ok();
    let used = |key: &str| {
        status
            .as_deref()
            .and_then(|s| field_kb(s, key))
            .map(|k| k * 1024)
    };
    [
        meminfo
            .as_deref()
            .and_then(|m| field_kb(m, "MemAvailable:"))
            .map(|k| k * 1024),
        limit(libc::RLIMIT_AS).map(|l| l.saturating_sub(used("VmSize:").unwrap_or(0))),
        limit(libc::RLIMIT_DATA).map(|l| l.saturating_sub(used("VmData:").unwrap_or(0))),
        cgroup_room(),
    ]
    .into_iter()
    .flatten()
    .min()
}

/// An out-of-memory error for `what` needing `need` bytes, when the host
/// says fewer are available (`Ok` when it fits or the host tells nothing).
pub fn check(need: u64, what: impl FnOnce() -> String) -> Result<()> {
    match available() {
        Some(have) if need > have => Err(Error::new(
            ErrorKind::OutOfMemory,
            format!(
                "{} needs {}, but only {} of memory is available to gcalc",
                what(),
                crate::device::fmt_bytes(need as usize),
                crate::device::fmt_bytes(have as usize)
            ),
        )
        .with_help("free large variables (x = none), or use a machine or limit (ulimit -v) with more memory")),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_host_tells_something_and_huge_requests_are_refused() {
        let have = super::available().expect("Linux reports MemAvailable");
        assert!(have > 0);
        let e = super::check(u64::MAX / 2, || "a test".into()).unwrap_err();
        assert!(e.message.starts_with("a test needs "), "{}", e.message);
        assert!(super::check(1, || "one byte".into()).is_ok());
    }
}
