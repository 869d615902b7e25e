//! `gcalc jupyter install`: writes the kernelspec (kernel.json with the
//! absolute path of this binary, message-mode interrupts, logos) and the
//! JupyterLab extension that highlights gcalc into the user's, the active
//! environment's or a given prefix's Jupyter data dir, then installs the
//! Pygments lexer (for nbconvert) into the Python that runs Jupyter.

use serde_json::json;
use std::path::{Path, PathBuf};

/// Where the kernelspec goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Dest {
    User,
    SysPrefix,
    Prefix(String),
}

const LOGO_32: &[u8] = include_bytes!("../../assets/logo-32x32.png");
const LOGO_64: &[u8] = include_bytes!("../../assets/logo-64x64.png");
const LOGO_SVG: &[u8] = include_bytes!("../../assets/logo-svg.svg");

/// The Jupyter data directory of a destination.
fn data_dir(dest: &Dest) -> Result<PathBuf, String> {
    match dest {
        Dest::Prefix(p) => Ok(PathBuf::from(p).join("share").join("jupyter")),
        Dest::SysPrefix => std::env::var_os("VIRTUAL_ENV")
            .or_else(|| std::env::var_os("CONDA_PREFIX"))
            .map(|p| PathBuf::from(p).join("share").join("jupyter"))
            .ok_or_else(|| {
                "--sys-prefix needs an active virtual environment (VIRTUAL_ENV or CONDA_PREFIX); use --prefix DIR".to_string()
            }),
        Dest::User => jupyter_zmq_client::user_data_dir().map_err(|e| e.to_string()),
    }
}

/// The kernel.json text for a binary at `exe`.
pub fn kernel_json(exe: &Path) -> String {
    let spec = json!({
        "argv": [exe.to_string_lossy(), "jupyter", "kernel", "{connection_file}"],
        "display_name": "gcalc",
        "language": "gcalc",
        "interrupt_mode": "message",
        "metadata": {"debugger": false},
    });
    serde_json::to_string_pretty(&spec).unwrap_or_default()
}

/// Install the kernelspec, the JupyterLab extension and the Pygments lexer
/// (`python`: where the lexer goes, see `pygments::find_python`); the exit
/// status. The lexer is optional: when it cannot be installed, a warning says
/// how to do it and the status stays 0.
pub fn run(dest: &Dest, python: Option<&str>) -> u8 {
    let dir = match install(dest) {
        Ok(dir) => dir,
        Err(e) => {
            eprintln!("gcalc jupyter install: {e}");
            return 1;
        }
    };
    println!("installed the gcalc kernelspec in {}", dir.display());
    match data_dir(dest).and_then(|d| super::labext::install(&d)) {
        Ok(ext) => println!(
            "installed the JupyterLab extension (gcalc highlighting) in {}",
            ext.display()
        ),
        Err(e) => {
            eprintln!("gcalc jupyter install: the JupyterLab extension: {e}");
            return 1;
        }
    }
    match super::pygments::find_python(dest, python) {
        Some(py) => match super::pygments::install(&py, dest) {
            Ok(msg) => println!("{msg}"),
            Err(e) => eprintln!(
                "gcalc jupyter install: warning: {e}\n  (only nbconvert's exports lack gcalc highlighting; retry with --python PATH)"
            ),
        },
        None => eprintln!(
            "gcalc jupyter install: note: no Python found for the Pygments lexer (nbconvert's exports of gcalc notebooks will not be highlighted); pass --python PATH"
        ),
    }
    0
}

fn install(dest: &Dest) -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| format!("cannot find this binary's path: {e}"))?;
    let dir = data_dir(dest)?.join("kernels").join("gcalc");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let spec = kernel_json(&exe);
    let files: [(&str, &[u8]); 4] = [
        ("kernel.json", spec.as_bytes()),
        ("logo-32x32.png", LOGO_32),
        ("logo-64x64.png", LOGO_64),
        ("logo-svg.svg", LOGO_SVG),
    ];
    for (name, bytes) in files {
        let p = dir.join(name);
        std::fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    #[test]
    fn kernel_json_has_connection_file_and_message_interrupts() {
        let v: serde_json::Value =
            serde_json::from_str(&super::kernel_json(std::path::Path::new("/opt/gcalc")))
                .unwrap_or_default();
        assert_eq!(v["argv"][0], "/opt/gcalc");
        assert_eq!(v["argv"][3], "{connection_file}");
        assert_eq!(v["interrupt_mode"], "message");
        assert_eq!(v["language"], "gcalc");
    }
}
