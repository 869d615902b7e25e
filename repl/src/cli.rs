//! Command-line parsing and dispatch to the script runner, the REPL or the
//! Jupyter kernel.

use crate::{script, terminal};
use gcalc_runtime::Flags;
use std::io::IsTerminal;

pub const USAGE: &str = "usage:
  gcalc                         interactive prompt (reads a script from standard input when it is not a terminal)
  gcalc FILE.gcalc [ARGS...]    run a script; args() gives ARGS
  gcalc -e CODE                 run CODE and show the value of its last expression
  gcalc -                       run standard input as a script
options:
  --flags name=value,...        session flags (device, floatX, allow_gc, launch_blocking, profile)
  -h, --help                    this text
  -V, --version                 the version";

pub enum Command {
    Help,
    Version,
    Repl,
    Script { path: String, args: Vec<String> },
    Eval(String),
    Stdin,
}

pub struct Cmd {
    pub command: Command,
    pub flags: Option<String>,
}

pub fn parse(args: &[String]) -> Result<Cmd, String> {
    let mut flags = None;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        match a {
            "-h" | "--help" => {
                return Ok(Cmd {
                    command: Command::Help,
                    flags,
                });
            }
            "-V" | "--version" => {
                return Ok(Cmd {
                    command: Command::Version,
                    flags,
                });
            }
            "--flags" => {
                let v = args
                    .get(i + 1)
                    .ok_or("--flags needs a value like device=cpu,floatX=float64")?;
                flags = Some(v.clone());
                i += 2;
            }
            _ if a.starts_with("--flags=") => {
                flags = Some(a["--flags=".len()..].to_string());
                i += 1;
            }
            "-e" => {
                let code = args.get(i + 1).ok_or("-e needs the code to run")?;
                return Ok(Cmd {
                    command: Command::Eval(code.clone()),
                    flags,
                });
            }
            "-" => {
                return Ok(Cmd {
                    command: Command::Stdin,
                    flags,
                });
            }
            _ if a.starts_with('-') && a.len() > 1 => return Err(format!("unknown option `{a}`")),
            _ => {
                return Ok(Cmd {
                    command: Command::Script {
                        path: a.to_string(),
                        args: args[i + 1..].to_vec(),
                    },
                    flags,
                });
            }
        }
    }
    let command = if std::io::stdin().is_terminal() {
        Command::Repl
    } else {
        Command::Stdin
    };
    Ok(Cmd { command, flags })
}

/// Run a command; the process exit status.
pub fn run(cmd: Cmd) -> u8 {
    let flags = match Flags::from_environment(cmd.flags.as_deref()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("gcalc: {e}");
            return 2;
        }
    };
    match cmd.command {
        Command::Help => {
            println!("{USAGE}");
            0
        }
        Command::Version => {
            println!("gcalc {}", env!("CARGO_PKG_VERSION"));
            0
        }
        Command::Script { path, args } => script::run_file(flags, &path, args),
        Command::Eval(code) => script::run_code(flags, &code, "<-e>", true),
        Command::Repl => terminal::run(flags),
        Command::Stdin => script::run_stdin(flags),
    }
}
