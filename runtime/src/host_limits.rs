//! How much memory this process can still get from the host, before it asks:
//! the kernel's estimate of available memory (`MemAvailable`), the room left
//! under the process's own limits (`RLIMIT_AS` against its address space,
//! `RLIMIT_DATA` against its data) and under its cgroup's `memory.max`.
//! Reads that size a buffer from a file's header (`load`) check it here
//! first, so a lying or huge header is an error instead of a death; every
//! array-sized host buffer asks here too (`array::alloc`). The session's
//! `host_memory` setting replaces the host's estimate (`auto`) by a fixed
//! budget or by none (`unlimited`); the process's limits always hold.

use crate::error::{Error, ErrorKind, Result};
use std::sync::atomic::{AtomicU64, Ordering};

/// The `host_memory` setting: the host's estimate, a fixed budget of bytes
/// for the whole process, or only the process's hard limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    Auto,
    Bytes(u64),
    Unlimited,
}

/// The budget in force (`Budget` packed: 0 auto, `u64::MAX` unlimited, else bytes).
static BUDGET: AtomicU64 = AtomicU64::new(0);

/// Make `b` the budget of every later request (the session's `host_memory`).
pub fn set_budget(b: Budget) {
    let v = match b {
        Budget::Auto => 0,
        Budget::Unlimited => u64::MAX,
        Budget::Bytes(n) => n.clamp(1, u64::MAX - 1),
    };
    BUDGET.store(v, Ordering::Relaxed);
}

fn budget() -> Budget {
    match BUDGET.load(Ordering::Relaxed) {
        0 => Budget::Auto,
        u64::MAX => Budget::Unlimited,
        n => Budget::Bytes(n),
    }
}

impl Budget {
    /// Parse `auto`, `unlimited`, or a size: `8GB`, `512MiB`, `1.5G`, bytes.
    pub fn parse(v: &str) -> Option<Budget> {
        let v = v.trim().trim_matches(|c| c == '"' || c == '\'');
        match v {
            "auto" => return Some(Budget::Auto),
            "unlimited" | "none" => return Some(Budget::Unlimited),
            _ => {}
        }
        let split = v
            .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '_'))
            .unwrap_or(v.len());
        let num: f64 = v[..split].replace('_', "").parse().ok()?;
        let unit: f64 = match v[split..].trim().to_ascii_lowercase().as_str() {
            "" | "b" => 1.0,
            "k" | "kb" | "kib" => 1024.0,
            "m" | "mb" | "mib" => 1024.0 * 1024.0,
            "g" | "gb" | "gib" => 1024.0 * 1024.0 * 1024.0,
            "t" | "tb" | "tib" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
            _ => return None,
        };
        let bytes = num * unit;
        (1.0..1.8e19)
            .contains(&bytes)
            .then_some(Budget::Bytes(bytes as u64))
    }

    /// How `set` lists it.
    pub fn text(&self) -> String {
        match self {
            Budget::Auto => "auto".into(),
            Budget::Unlimited => "unlimited".into(),
            Budget::Bytes(n) if n % (1 << 30) == 0 => format!("{}GB", n >> 30),
            Budget::Bytes(n) if n % (1 << 20) == 0 => format!("{}MB", n >> 20),
            Budget::Bytes(n) => n.to_string(),
        }
    }
}

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
    room().map(|r| r.0)
}

/// `available()` and the limit that sets it, in words for messages.
pub fn room() -> Option<(u64, &'static str)> {
    let status = std::fs::read_to_string("/proc/self/status").ok();
    let used = |key: &str| {
        status
            .as_deref()
            .and_then(|s| field_kb(s, key))
            .map(|k| k * 1024)
    };
    let host = match budget() {
        Budget::Auto => std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|m| field_kb(&m, "MemAvailable:"))
            .map(|k| (k * 1024, "memory available on the host")),
        Budget::Bytes(b) => Some((
            b.saturating_sub(used("VmRSS:").unwrap_or(0)),
            "the host_memory setting",
        )),
        Budget::Unlimited => None,
    };
    [
        host,
        limit(libc::RLIMIT_AS).map(|l| {
            let room = l.saturating_sub(used("VmSize:").unwrap_or(0));
            (room, "the address-space limit (ulimit -v)")
        }),
        limit(libc::RLIMIT_DATA).map(|l| {
            let room = l.saturating_sub(used("VmData:").unwrap_or(0));
            (room, "the data-size limit (ulimit -d)")
        }),
        cgroup_room().map(|r| (r, "the cgroup's memory.max")),
    ]
    .into_iter()
    .flatten()
    .min_by_key(|r| r.0)
}

/// How to get out of a host out-of-memory error.
pub const RAISE_HELP: &str = "free large variables (x = none), use smaller arrays, or raise the budget (`set host_memory = 64GB`; `ulimit -v` sets the process's limit)";

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
        .with_help(RAISE_HELP)),
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
