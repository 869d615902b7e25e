//! The JupyterLab 4 extension that highlights gcalc (a CodeMirror 6 language,
//! source in jupyter/labextension): its prebuilt files are embedded in this
//! binary and written to `<data dir>/labextensions/@gcalc/jupyterlab-gcalc`,
//! where JupyterLab finds prebuilt extensions, with `gcalc-names.json` (the
//! keywords and this binary's builtins) beside the bundle, so highlighting
//! knows exactly the names this gcalc has.

use include_dir::{Dir, include_dir};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The built extension (jupyter/labextension/build.sh writes it).
static BUILT: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/assets/labextension");

/// The extension's npm name: its folder under `labextensions/`.
pub const PACKAGE: &str = "@gcalc/jupyterlab-gcalc";

/// What the CodeMirror language reads at load time (also the Pygments lexer's names).
pub struct Names {
    pub keywords: Vec<&'static str>,
    pub constants: Vec<&'static str>,
    pub builtins: Vec<&'static str>,
}

impl Names {
    pub fn of_this_gcalc() -> Names {
        // Python's spellings of the constants are the same literals.
        let constants = vec!["true", "false", "none", "True", "False", "None"];
        Names {
            keywords: gcalc_lang::KEYWORDS.to_vec(),
            constants,
            builtins: gcalc_runtime::complete::builtin_names(),
        }
    }

    pub fn to_json(&self) -> String {
        let v = json!({
            "keywords": self.keywords,
            "constants": self.constants,
            "builtins": self.builtins,
        });
        serde_json::to_string_pretty(&v).unwrap_or_default()
    }
}

/// Write the extension under `data_dir` (a Jupyter data directory); its folder.
pub fn install(data_dir: &Path) -> Result<PathBuf, String> {
    let dir = PACKAGE
        .split('/')
        .fold(data_dir.join("labextensions"), |d, part| d.join(part));
    // Older builds have other hashed file names: start clean.
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write_dir(&BUILT, &dir)?;
    let names = dir.join("static").join("gcalc-names.json");
    std::fs::write(&names, Names::of_this_gcalc().to_json())
        .map_err(|e| format!("{}: {e}", names.display()))?;
    Ok(dir)
}

fn write_dir(d: &Dir<'_>, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("{}: {e}", to.display()))?;
    for f in d.files() {
        let name = f.path().file_name().unwrap_or_default();
        if name == "SOURCES.sha256" {
            continue;
        }
        let p = to.join(name);
        std::fs::write(&p, f.contents()).map_err(|e| format!("{}: {e}", p.display()))?;
    }
    for sub in d.dirs() {
        let name = sub.path().file_name().unwrap_or_default();
        write_dir(sub, &to.join(name))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// The committed build was made from the committed sources: each source's
    /// sha256 matches what build.sh recorded (else: run jupyter/labextension/build.sh).
    #[test]
    fn labextension_build_is_current() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../jupyter/labextension");
        let recorded = BUILT
            .get_file("SOURCES.sha256")
            .and_then(|f| f.contents_utf8())
            .expect("assets/labextension/SOURCES.sha256");
        let mut n = 0;
        for line in recorded.lines() {
            let (hash, file) = line.split_once("  ").expect("sha256sum format");
            let bytes = std::fs::read(src.join(file)).expect("a recorded source file");
            let now: String = Sha256::digest(&bytes)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect();
            assert_eq!(
                now, hash,
                "{file} changed since the extension was built: run jupyter/labextension/build.sh"
            );
            n += 1;
        }
        assert!(n >= 4, "too few sources recorded: {recorded}");
    }

    #[test]
    fn install_writes_the_bundle_the_package_json_loads() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let dir = install(tmp.path()).expect("install");
        let pkg: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("package.json")).expect("package.json"),
        )
        .expect("json");
        assert_eq!(pkg["name"], PACKAGE);
        let load = pkg["jupyterlab"]["_build"]["load"].as_str().expect("load");
        assert!(dir.join(load).is_file(), "{load} missing");
        assert!(!dir.join("SOURCES.sha256").exists());
        let names: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join("static/gcalc-names.json")).expect("names"),
        )
        .expect("json");
        let builtins = names["builtins"].as_array().expect("builtins");
        for b in ["exp", "sum", "zeros", "print", "float32"] {
            assert!(builtins.iter().any(|v| v == b), "{b} missing");
        }
        assert!(
            names["keywords"]
                .as_array()
                .expect("kw")
                .iter()
                .any(|v| v == "fn")
        );
    }
}
