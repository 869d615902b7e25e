//! The REPL's `:commands` (`:help :vars :flags :devices :mem :load :reset
//! :quit`), which act on the session rather than run gcalc code.

use super::show_outcome;
use gcalc_runtime::{Session, VarInfo};

/// What the prompt loop does after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum After {
    Continue,
    Quit,
}

pub const COMMANDS: &[(&str, &str)] = &[
    (":help", "this text"),
    (
        ":vars",
        "the variables: name, type, shape, dtype, device, bytes",
    ),
    (
        ":flags",
        "the session flags (change one with `set name = value`)",
    ),
    (":devices", "the devices gcalc can use"),
    (":mem", "GPU memory in use, pooled and free"),
    (":load FILE", "run a .gcalc file in this session"),
    (":reset", "forget every variable (flags stay)"),
    (":quit", "leave (also Ctrl-D)"),
];

fn help_text() -> String {
    let mut s = String::from("Commands:\n");
    for (name, what) in COMMANDS {
        s.push_str(&format!("  {name:<12} {what}\n"));
    }
    s.push_str(
        "Keys:\n  \
         Tab          complete names, methods after `.`, flags after `set`, paths in strings\n  \
         Up/Down      history (multi-line entries come back whole); Ctrl-R searches it\n  \
         Ctrl-C       clear the line; while running, stop the statement (variables keep their values)\n  \
         Ctrl-D       quit\n\
         An open bracket or `\"\"\"` continues the input on a `... ` line.\n\
         help(name) describes a builtin; `set` lists the flags.\n",
    );
    s
}

/// Run the command line `line` (starting with `:`).
pub fn run(session: &mut Session, line: &str, color: bool) -> After {
    let line = line.trim();
    let (cmd, arg) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let arg = arg.trim().trim_matches('"');
    match cmd {
        ":help" | ":h" | ":?" => print!("{}", help_text()),
        ":vars" => print!("{}", vars_table(&session.vars())),
        ":flags" => print!("{}", session.flags().listing(session.line_width())),
        ":devices" => run_code(session, "devices()", "<:devices>", false, color),
        ":mem" => run_code(session, "mem()", "<:mem>", true, color),
        ":reset" => {
            session.reset();
            println!("every variable is forgotten (flags stay)");
        }
        ":quit" | ":q" | ":exit" => return After::Quit,
        ":load" if arg.is_empty() => eprintln!("usage: :load FILE.gcalc"),
        ":load" => match std::fs::read_to_string(arg) {
            Ok(code) => run_code(session, &code, arg, false, color),
            Err(e) => eprintln!("cannot read {arg}: {e}"),
        },
        _ => {
            let names: Vec<&str> = COMMANDS
                .iter()
                .map(|(n, _)| n.split(' ').next().unwrap_or(n))
                .collect();
            eprintln!(
                "unknown command `{cmd}`; the commands are {}",
                names.join(" ")
            );
        }
    }
    After::Continue
}

fn run_code(session: &mut Session, code: &str, name: &str, show_value: bool, color: bool) {
    let outcome = session.execute(code, name);
    let outcome = if show_value {
        outcome
    } else {
        gcalc_runtime::ExecOutcome {
            value: None,
            ..outcome
        }
    };
    show_outcome(outcome, color);
}

fn fmt_shape(s: &[usize]) -> String {
    match s {
        [n] => format!("({n},)"),
        _ => format!(
            "({})",
            s.iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `:vars` as an aligned table.
pub fn vars_table(vars: &[VarInfo]) -> String {
    if vars.is_empty() {
        return "no variables\n".into();
    }
    let dash = || "-".to_string();
    let mut rows = vec![["name", "type", "shape", "dtype", "device", "bytes"].map(String::from)];
    for v in vars {
        rows.push([
            v.name.clone(),
            v.type_name.clone(),
            v.shape.as_deref().map_or_else(dash, fmt_shape),
            v.dtype.clone().unwrap_or_else(dash),
            v.device.clone().unwrap_or_else(dash),
            v.bytes.map_or_else(dash, |b| b.to_string()),
        ]);
    }
    let mut widths = [0usize; 6];
    for r in &rows {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut s = String::new();
    for r in &rows {
        let mut line = String::new();
        for (i, (c, w)) in r.iter().zip(widths).enumerate() {
            if i == 5 {
                line.push_str(&format!("{c:>w$}"));
            } else {
                line.push_str(&format!("{c:<w$}  "));
            }
        }
        s.push_str(line.trim_end());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_lines_up() {
        let v = vec![
            VarInfo {
                name: "x".into(),
                type_name: "array".into(),
                shape: Some(vec![3]),
                dtype: Some("float32".into()),
                device: Some("cpu(0)".into()),
                bytes: Some(12),
            },
            VarInfo {
                name: "greeting".into(),
                type_name: "string".into(),
                shape: None,
                dtype: None,
                device: None,
                bytes: None,
            },
        ];
        let t = vars_table(&v);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[0], "name      type    shape  dtype    device  bytes");
        assert_eq!(lines[1], "x         array   (3,)   float32  cpu(0)     12");
        assert_eq!(lines[2], "greeting  string  -      -        -           -");
        assert_eq!(vars_table(&[]), "no variables\n");
        assert_eq!(fmt_shape(&[2, 3]), "(2, 3)");
        assert_eq!(fmt_shape(&[]), "()");
    }

    #[test]
    fn unknown_and_quit() {
        let mut s = Session::new(
            gcalc_runtime::Flags::default(),
            Box::new(gcalc_runtime::output::Captured::default()),
        );
        assert_eq!(run(&mut s, ":quit", false), After::Quit);
        assert_eq!(run(&mut s, ":nosuch", false), After::Continue);
        assert_eq!(run(&mut s, ":reset", false), After::Continue);
    }
}
