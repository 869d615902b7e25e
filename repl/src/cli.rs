//! Command-line parsing and dispatch to the script runner, the REPL or the
//! Jupyter kernel.

use crate::{script, terminal};
use gcalc_runtime::Flags;
use std::io::IsTerminal;

pub const USAGE: &str = "usage:
  gcalc                         interactive prompt (reads a script from standard input when it is not a terminal)
  gcalc FILE.gcalc [ARGS...]    run a script; args() gives ARGS
  gcalc -e CODE [-e CODE...] [ARGS...]
                                run CODE and show the value of its last expression;
                                several -e are the lines of one program; args() gives ARGS
  gcalc -                       run standard input as a script
  gcalc jupyter install [--user | --sys-prefix | --prefix DIR] [--python PY]
                                install the Jupyter kernelspec and gcalc highlighting
                                (JupyterLab extension; Pygments lexer for nbconvert,
                                installed with PY's pip; default --user)
  gcalc jupyter kernel CONNECTION_FILE
                                run the Jupyter kernel (Jupyter starts this)
options:
  --flags name=value,...        session flags (device, floatX, allow_gc, launch_blocking, profile, loop_graphs, host_memory)
  -h, --help                    this text
  -V, --version                 the version";

pub enum Command {
    Help,
    Version,
    Repl,
    Script {
        path: String,
        args: Vec<String>,
    },
    Eval {
        code: String,
        args: Vec<String>,
    },
    Stdin,
    JupyterInstall {
        dest: crate::jupyter::install::Dest,
        python: Option<String>,
    },
    JupyterKernel(String),
}

/// `gcalc jupyter ...` after the word `jupyter`.
fn parse_jupyter(rest: &[String]) -> Result<Command, String> {
    use crate::jupyter::install::Dest;
    match rest.first().map(String::as_str) {
        Some("install") => {
            let mut dest = Dest::User;
            let mut python = None;
            let mut i = 1;
            while i < rest.len() {
                match rest[i].as_str() {
                    "--user" => dest = Dest::User,
                    "--sys-prefix" => dest = Dest::SysPrefix,
                    "--prefix" => {
                        let d = rest.get(i + 1).ok_or("--prefix needs a directory")?;
                        dest = Dest::Prefix(d.clone());
                        i += 1;
                    }
                    a if a.starts_with("--prefix=") => {
                        dest = Dest::Prefix(a["--prefix=".len()..].to_string())
                    }
                    "--python" => {
                        let p = rest
                            .get(i + 1)
                            .ok_or("--python needs a Python executable")?;
                        python = Some(p.clone());
                        i += 1;
                    }
                    a if a.starts_with("--python=") => {
                        python = Some(a["--python=".len()..].to_string())
                    }
                    a => return Err(format!("jupyter install: unknown option `{a}`")),
                }
                i += 1;
            }
            Ok(Command::JupyterInstall { dest, python })
        }
        Some("kernel") => match rest.get(1..) {
            Some([file]) => Ok(Command::JupyterKernel(file.clone())),
            _ => Err("jupyter kernel needs exactly one CONNECTION_FILE".into()),
        },
        _ => Err("jupyter needs `install` or `kernel`".into()),
    }
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
                // Several `-e` are the lines of one program, in order (as
                // Perl's and Ruby's); what follows is the program's args().
                let mut lines = Vec::new();
                while args.get(i).map(String::as_str) == Some("-e") {
                    let code = args.get(i + 1).ok_or("-e needs the code to run")?;
                    lines.push(code.clone());
                    i += 2;
                }
                let rest = args[i..].to_vec();
                if let Some(opt) = rest.iter().find(|a| a.starts_with("--flags")) {
                    return Err(format!(
                        "`{opt}` after -e would be one of the program's args(); put it before -e"
                    ));
                }
                return Ok(Cmd {
                    command: Command::Eval {
                        code: lines.join("\n"),
                        args: rest,
                    },
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
            "jupyter" => {
                return Ok(Cmd {
                    command: parse_jupyter(&args[i + 1..])?,
                    flags,
                });
            }
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
    use crate::signals::{Ending, install};
    match cmd.command {
        Command::Script { .. } | Command::Eval { .. } | Command::Stdin => {
            install(Ending::AlsoInterrupt)
        }
        Command::Repl | Command::JupyterKernel(_) => install(Ending::TermAndHup),
        Command::Help | Command::Version | Command::JupyterInstall { .. } => {}
    }
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
        Command::Eval { code, args } => script::run_eval(flags, &code, args),
        Command::Repl => terminal::run(flags),
        Command::Stdin => script::run_stdin(flags),
        Command::JupyterInstall { dest, python } => {
            crate::jupyter::install::run(&dest, python.as_deref())
        }
        Command::JupyterKernel(file) => crate::jupyter::run_kernel(&file, flags),
    }
}
