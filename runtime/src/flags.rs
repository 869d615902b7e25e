//! Session flags (`device floatX allow_gc launch_blocking profile loop_graphs host_memory`) and their
//! sources, later winning: default < ~/.gcalcrc < GCALC_FLAGS < --flags < `set`.

use crate::device::Device;
use crate::dtype::DType;
use crate::error::{Error, Result, did_you_mean};

/// Where new arrays go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceFlag {
    Auto,
    Cpu,
    Gpu(u32),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Flags {
    pub device: DeviceFlag,
    pub float_x: DType,
    pub allow_gc: bool,
    pub launch_blocking: bool,
    pub profile: bool,
    /// Replay `for` loops whose GPU work repeats as CUDA graphs (`interp/loop_graph.rs`).
    pub loop_graphs: bool,
    pub host_memory: crate::host_limits::Budget,
}

impl Default for Flags {
    fn default() -> Flags {
        Flags {
            device: DeviceFlag::Auto,
            float_x: DType::Float32,
            allow_gc: true,
            launch_blocking: false,
            profile: false,
            // On since its tests and the training loops ran on an H100
            // (bench/NOTES.md, twelfth session). Its tests set it either way.
            loop_graphs: true,
            host_memory: crate::host_limits::Budget::Auto,
        }
    }
}

/// Name, accepted values, and meaning of each flag (for `set`, help and completion).
pub const FLAG_DOCS: &[(&str, &str, &str)] = &[
    (
        "device",
        "auto cpu gpu gpu(N)",
        "where new arrays live; auto = first GPU if one is usable, else the CPU",
    ),
    (
        "floatX",
        "float16 float32 float64",
        "dtype of float literals and of creation functions when no dtype is given",
    ),
    (
        "allow_gc",
        "true false",
        "true: a GPU buffer is released as soon as nothing uses it; false: freed buffers stay pooled",
    ),
    (
        "launch_blocking",
        "true false",
        "every GPU launch waits for completion; errors point at the exact statement",
    ),
    (
        "profile",
        "true false",
        "record every operation; profile() prints the summary tables",
    ),
    (
        "loop_graphs",
        "true false",
        "a `for` loop whose GPU work repeats runs as a CUDA graph after a few iterations (same results, one launch per iteration)",
    ),
    (
        "host_memory",
        "auto unlimited SIZE (e.g. 64GB)",
        "host memory gcalc may use for arrays: auto = what the host has available; a size = that much for the whole process; unlimited = only the process's limits (ulimit -v, cgroup)",
    ),
];

pub fn flag_names() -> impl Iterator<Item = &'static str> {
    FLAG_DOCS.iter().map(|f| f.0)
}

fn unknown_flag(name: &str) -> Error {
    let mut e = Error::flag(format!("unknown flag `{name}`"));
    e.help = Some(match did_you_mean(name, flag_names()) {
        Some(s) => format!(
            "{s} valid flags: {}",
            flag_names().collect::<Vec<_>>().join(", ")
        ),
        None => format!(
            "valid flags: {}",
            flag_names().collect::<Vec<_>>().join(", ")
        ),
    });
    e
}

fn bad_value(name: &str, value: &str) -> Error {
    let valid = FLAG_DOCS.iter().find(|f| f.0 == name).map_or("", |f| f.1);
    Error::flag(format!("bad value `{value}` for flag `{name}`"))
        .with_help(format!("valid values: {valid}"))
}

fn parse_bool(name: &str, v: &str) -> Result<bool> {
    match v {
        "true" | "True" | "1" | "yes" | "on" => Ok(true),
        "false" | "False" | "0" | "no" | "off" => Ok(false),
        _ => Err(bad_value(name, v)),
    }
}

/// Parse `cpu`, `gpu`, `gpu0`, `gpu(1)`, `cuda:1`, `auto`.
pub fn parse_device(v: &str) -> Option<DeviceFlag> {
    let v = v.trim();
    match v {
        "auto" => return Some(DeviceFlag::Auto),
        "cpu" | "cpu()" | "cpu(0)" => return Some(DeviceFlag::Cpu),
        "gpu" | "gpu()" | "cuda" => return Some(DeviceFlag::Gpu(0)),
        _ => {}
    }
    let rest = v
        .strip_prefix("gpu")
        .or_else(|| v.strip_prefix("cuda:"))
        .or_else(|| v.strip_prefix("cuda"))?;
    let rest = rest.trim();
    let n = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(rest);
    n.trim().parse().ok().map(DeviceFlag::Gpu)
}

impl Flags {
    /// Set one flag from its text value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<()> {
        let value = value.trim();
        match name {
            "device" => self.device = parse_device(value).ok_or_else(|| bad_value(name, value))?,
            "floatX" | "floatx" => {
                self.float_x = DType::from_name(value)
                    .filter(|d| d.is_float())
                    .ok_or_else(|| bad_value("floatX", value))?
            }
            "allow_gc" => self.allow_gc = parse_bool(name, value)?,
            "launch_blocking" => self.launch_blocking = parse_bool(name, value)?,
            "profile" => self.profile = parse_bool(name, value)?,
            "loop_graphs" => self.loop_graphs = parse_bool(name, value)?,
            "host_memory" => {
                self.host_memory = crate::host_limits::Budget::parse(value)
                    .ok_or_else(|| bad_value(name, value))?
            }
            _ => return Err(unknown_flag(name)),
        }
        Ok(())
    }

    /// The text value of a flag, as `set` lists it.
    pub fn get(&self, name: &str) -> Option<String> {
        Some(match name {
            "device" => match self.device {
                DeviceFlag::Auto => "auto".into(),
                DeviceFlag::Cpu => "cpu".into(),
                DeviceFlag::Gpu(i) => format!("gpu({i})"),
            },
            "floatX" => self.float_x.name().into(),
            "allow_gc" => self.allow_gc.to_string(),
            "launch_blocking" => self.launch_blocking.to_string(),
            "profile" => self.profile.to_string(),
            "loop_graphs" => self.loop_graphs.to_string(),
            "host_memory" => self.host_memory.text(),
            _ => return None,
        })
    }

    /// Apply `name=value,name=value` (GCALC_FLAGS and `--flags`); `source` names it in errors.
    pub fn apply_list(&mut self, list: &str, source: &str) -> Result<()> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item.split_once('=').ok_or_else(|| {
                Error::flag(format!("{source}: `{item}` is not `name=value`"))
                    .with_help("example: device=cpu,floatX=float64")
            })?;
            self.set(k.trim(), v).map_err(|mut e| {
                e.message = format!("{source}: {}", e.message);
                e
            })?;
        }
        Ok(())
    }

    /// Apply a `.gcalcrc` file: a `[global]` section of `name = value` lines, `#`/`;` comments.
    pub fn apply_rc(&mut self, text: &str, source: &str) -> Result<()> {
        let mut in_global = true;
        for (n, line) in text.lines().enumerate() {
            let line = line.split(['#', ';']).next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            if line.starts_with('[') {
                in_global = line == "[global]";
                continue;
            }
            if !in_global {
                continue;
            }
            let (k, v) = line.split_once('=').ok_or_else(|| {
                Error::flag(format!(
                    "{source}:{}: `{line}` is not `name = value`",
                    n + 1
                ))
            })?;
            self.set(k.trim(), v).map_err(|mut e| {
                e.message = format!("{source}:{}: {}", n + 1, e.message);
                e
            })?;
        }
        Ok(())
    }

    /// Flags from the built-in defaults, `~/.gcalcrc` and `GCALC_FLAGS`, then `cli` (`--flags`).
    pub fn from_environment(cli: Option<&str>) -> Result<Flags> {
        let mut f = Flags::default();
        if let Some(home) = std::env::var_os("HOME") {
            let path = std::path::Path::new(&home).join(".gcalcrc");
            if let Ok(text) = std::fs::read_to_string(&path) {
                f.apply_rc(&text, &path.display().to_string())?;
            }
        }
        if let Ok(env) = std::env::var("GCALC_FLAGS") {
            f.apply_list(&env, "GCALC_FLAGS")?;
        }
        if let Some(cli) = cli {
            f.apply_list(cli, "--flags")?;
        }
        Ok(f)
    }

    /// The device new arrays go to (`auto` resolved).
    pub fn resolved_device(&self) -> Device {
        match self.device {
            DeviceFlag::Cpu => Device::Cpu,
            DeviceFlag::Gpu(i) => Device::Gpu(i),
            DeviceFlag::Auto => crate::backend::devices::auto(),
        }
    }

    /// The settings the backends obey, as plain values.
    pub fn backend_config(&self) -> crate::backend::devices::Config {
        crate::backend::devices::Config {
            allow_gc: self.allow_gc,
            launch_blocking: self.launch_blocking,
        }
    }

    /// The `set` listing.
    /// One line per flag, `name = value  # values: what it does`, the
    /// comment wrapped at whole words under itself to fit `width` columns.
    pub fn listing(&self, width: usize) -> String {
        let mut s = String::new();
        for (name, values, doc) in FLAG_DOCS {
            let v = self.get(name).unwrap_or_default();
            let head = format!("{name:<16} = {v:<8}  # ");
            let hang = " ".repeat(head.len());
            let opts = textwrap::Options::new(width.max(head.len() + 20))
                .initial_indent(&head)
                .subsequent_indent(&hang)
                .break_words(false);
            s.push_str(&textwrap::fill(&format!("{values}: {doc}"), opts));
            s.push('\n');
        }
        s
    }
}
