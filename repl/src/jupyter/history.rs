//! Input history for `history_request` (tail, range, search with a glob,
//! unique, n): kept in memory and appended to a small JSON-lines file in the
//! data directory so that earlier sessions can be searched too.

use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;

/// Entries kept from earlier sessions.
const KEEP_FROM_FILE: usize = 10_000;

#[derive(Clone)]
struct Entry {
    session: i64,
    line: i64,
    input: String,
    output: Option<String>,
}

pub struct History {
    loaded: bool,
    session: i64,
    entries: Vec<Entry>,
    path: Option<PathBuf>,
}

/// `$XDG_DATA_HOME/gcalc/jupyter_history.jsonl` (or `~/.local/share/...`);
/// `GCALC_HISTORY=off` keeps history in memory only.
fn history_path() -> Option<PathBuf> {
    if std::env::var("GCALC_HISTORY").is_ok_and(|v| v == "off") {
        return None;
    }
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))?;
    Some(base.join("gcalc").join("jupyter_history.jsonl"))
}

impl History {
    pub fn new() -> History {
        History {
            loaded: false,
            session: 1,
            entries: Vec::new(),
            path: history_path(),
        }
    }

    /// Read earlier sessions on first use (not at start: start-up stays fast).
    fn load(&mut self) {
        if self.loaded {
            return;
        }
        self.loaded = true;
        let Some(path) = &self.path else { return };
        let Ok(text) = std::fs::read_to_string(path) else {
            return;
        };
        let mut old: Vec<Entry> = text
            .lines()
            .filter_map(|l| serde_json::from_str::<Value>(l).ok())
            .filter_map(|v| {
                Some(Entry {
                    session: v.get("session")?.as_i64()?,
                    line: v.get("line")?.as_i64()?,
                    input: v.get("input")?.as_str()?.to_string(),
                    output: v.get("output").and_then(Value::as_str).map(String::from),
                })
            })
            .collect();
        if old.len() > KEEP_FROM_FILE {
            old.drain(..old.len() - KEEP_FROM_FILE);
        }
        let max = old.iter().map(|e| e.session).max().unwrap_or(0);
        self.session = max + 1;
        // Entries of this session recorded before the load move to the new number.
        for e in &mut self.entries {
            e.session = self.session;
        }
        old.append(&mut self.entries);
        self.entries = old;
    }

    pub fn record(&mut self, line: i64, input: &str, output: Option<String>) {
        self.load();
        let e = Entry {
            session: self.session,
            line,
            input: input.to_string(),
            output,
        };
        if let Some(path) = &self.path {
            let rec =
                json!({"session": e.session, "line": e.line, "input": e.input, "output": e.output});
            let _ = path.parent().map(std::fs::create_dir_all);
            if let Ok(mut f) = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
            {
                let _ = writeln!(f, "{rec}");
            }
        }
        self.entries.push(e);
    }

    /// The `history` list of a `history_reply` for a request's content.
    pub fn query(&mut self, req: &Value) -> Vec<Value> {
        self.load();
        let output = req.get("output").and_then(Value::as_bool).unwrap_or(false);
        let kind = req
            .get("hist_access_type")
            .and_then(Value::as_str)
            .unwrap_or("tail");
        let n = req.get("n").and_then(Value::as_i64);
        let unique = req.get("unique").and_then(Value::as_bool).unwrap_or(false);
        let mut picked: Vec<&Entry> = match kind {
            "range" => {
                let s = req.get("session").and_then(Value::as_i64).unwrap_or(0);
                let session = if s <= 0 { self.session + s } else { s };
                let start = req.get("start").and_then(Value::as_i64).unwrap_or(0);
                let stop = req.get("stop").and_then(Value::as_i64);
                self.entries
                    .iter()
                    .filter(|e| {
                        e.session == session && e.line >= start && stop.is_none_or(|s| e.line < s)
                    })
                    .collect()
            }
            "search" => {
                let pattern = req.get("pattern").and_then(Value::as_str).unwrap_or("*");
                let p: Vec<char> = pattern.chars().collect();
                self.entries
                    .iter()
                    .filter(|e| glob(&p, &e.input.chars().collect::<Vec<_>>()))
                    .collect()
            }
            _ => self.entries.iter().collect(),
        };
        if unique {
            // Keep the latest of each input, in order.
            let mut seen = std::collections::HashSet::new();
            let mut rev: Vec<&Entry> = picked
                .into_iter()
                .rev()
                .filter(|e| seen.insert(e.input.as_str()))
                .collect();
            rev.reverse();
            picked = rev;
        }
        if kind != "range"
            && let Some(n) = n
        {
            let n = n.max(0) as usize;
            if picked.len() > n {
                picked.drain(..picked.len() - n);
            }
        }
        picked
            .into_iter()
            .map(|e| {
                if output {
                    json!([e.session, e.line, [e.input, e.output]])
                } else {
                    json!([e.session, e.line, e.input])
                }
            })
            .collect()
    }
}

/// Glob match of the whole text: `*` any run, `?` one character, `[abc]` a set.
fn glob(p: &[char], t: &[char]) -> bool {
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some((pi, ti));
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                '[' => {
                    if let Some(close) = p[pi + 1..].iter().position(|&c| c == ']') {
                        let set = &p[pi + 1..pi + 1 + close];
                        if set.contains(&t[ti]) {
                            pi += close + 2;
                            ti += 1;
                            continue;
                        }
                    } else if t[ti] == '[' {
                        pi += 1;
                        ti += 1;
                        continue;
                    }
                }
                c if c == t[ti] => {
                    pi += 1;
                    ti += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, st)) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(p: &str, t: &str) -> bool {
        glob(
            &p.chars().collect::<Vec<_>>(),
            &t.chars().collect::<Vec<_>>(),
        )
    }

    #[test]
    fn glob_patterns() {
        assert!(g("*", "anything"));
        assert!(g("6*", "67"));
        assert!(!g("6*", "76"));
        assert!(g("a?c", "abc"));
        assert!(g("*[xy]", "ax"));
        assert!(!g("abc", "abcd"));
    }

    #[test]
    fn tail_range_search() {
        let mut h = History {
            loaded: true,
            session: 3,
            entries: Vec::new(),
            path: None,
        };
        h.record(1, "a = 1", None);
        h.record(2, "print(a)", None);
        h.record(3, "a = 1", Some("x".into()));
        assert_eq!(
            h.query(&json!({"hist_access_type": "tail", "n": 2})).len(),
            2
        );
        let r = h.query(&json!({"hist_access_type": "range", "session": 0, "start": 2, "stop": 3}));
        assert_eq!(r, vec![json!([3, 2, "print(a)"])]);
        let s = h.query(&json!({"hist_access_type": "search", "pattern": "a =*", "unique": true}));
        assert_eq!(s.len(), 1);
        let o = h.query(&json!({"hist_access_type": "tail", "n": 1, "output": true}));
        assert_eq!(o, vec![json!([3, 3, ["a = 1", "x"]])]);
    }
}
