//! The binary under an address-space limit (setrlimit in the child): a
//! statement that asks for too much memory ends with the out-of-memory
//! error and exit status 1, never an abort (SIGABRT) or the OOM killer.

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::Command;

#[test]
fn out_of_memory_is_an_error_not_an_abort() {
    for code in [
        "ones((10**5, 1)) + ones((1, 10**5))",
        "outer(ones(10**5), ones(10**5))",
        "randn(10**5, 10**5)",
        "x = ones(3 * 10**8); y = x.astype(\"float64\")",
        "ones((10**5, 1)) @ ones((1, 10**5))",
        "x = ones(2 * 10**8); y = x.tolist()",
        "\"ab\" * 10**12",
        "[1] * 10**12",
    ] {
        let mut c = Command::new(env!("CARGO_BIN_EXE_gcalc"));
        c.args(["-e", code])
            .env("NO_COLOR", "1")
            .env("GCALC_FLAGS", "device=cpu");
        // SAFETY: setrlimit only, in the child between fork and exec.
        unsafe {
            c.pre_exec(|| {
                let lim = 3 << 30;
                let r = libc::rlimit {
                    rlim_cur: lim,
                    rlim_max: lim,
                };
                if libc::setrlimit(libc::RLIMIT_AS, &r) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let out = c.output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            out.status.signal(),
            None,
            "{code}: killed by a signal\n{err}"
        );
        assert_eq!(out.status.code(), Some(1), "{code}\n{err}");
        assert!(
            err.contains("the host (cpu) is out of memory: this statement asked for"),
            "{code}\n{err}"
        );
    }
}
