//! The NumPy oracle: finds the tests' Python (`GCALC_TEST_PYTHON`, set by
//! `tests/run` to its virtual environment's; else `python3`), checks it has
//! NumPy 2, and evaluates a batch of cases in one process running
//! `tests/numpy/oracle.py` (JSON lines in, one result line per case out).
//! Without NumPy a test skips visibly, or fails when `GCALC_REQUIRE_NUMPY=1`.

use crate::outcome::{Outcome, Values};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The oracle script, built into the tests so the GPU host's bundle needs no file.
pub const SCRIPT: &str = include_str!("../oracle.py");

/// A Python with NumPy 2.
#[derive(Clone, Debug)]
pub struct Oracle {
    pub python: String,
    pub numpy_version: String,
}

impl Oracle {
    /// The tests' Python, if it has NumPy 2 (else why not).
    pub fn find() -> Result<Oracle, String> {
        let python = std::env::var("GCALC_TEST_PYTHON")
            .ok()
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "python3".into());
        let out = Command::new(&python)
            .args(["-c", "import numpy; print(numpy.__version__)"])
            .output()
            .map_err(|e| format!("cannot run {python}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "{python} has no NumPy ({})",
                String::from_utf8_lossy(&out.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            ));
        }
        let numpy_version = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !numpy_version.starts_with(|c: char| c.is_ascii_digit() && c >= '2') {
            return Err(format!(
                "{python} has NumPy {numpy_version}; the oracle needs NumPy 2"
            ));
        }
        Ok(Oracle {
            python,
            numpy_version,
        })
    }

    /// The oracle for test `test`, or `None` after printing why it skips;
    /// panics instead when `GCALC_REQUIRE_NUMPY=1` (set by `tests/run` and
    /// the GPU host's runner, so CI never passes by skipping).
    pub fn for_test(test: &str) -> Option<Oracle> {
        match Oracle::find() {
            Ok(o) => Some(o),
            Err(why) if std::env::var("GCALC_REQUIRE_NUMPY").as_deref() == Ok("1") => {
                panic!("GCALC_REQUIRE_NUMPY=1 but {why} (set GCALC_TEST_PYTHON)")
            }
            Err(why) => {
                println!(
                    "SKIPPED {test}: {why}; `bash tests/run` makes a venv with NumPy \
                     (or set GCALC_TEST_PYTHON)"
                );
                None
            }
        }
    }

    /// Start an oracle process (it serves batches until dropped).
    pub fn start(&self) -> Result<OracleProc, String> {
        let mut child = Command::new(&self.python)
            .args(["-c", SCRIPT])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", self.python))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(OracleProc {
            child,
            stdin: Some(stdin),
            stdout,
        })
    }

    /// NumPy's outcome of each program in a process of its own.
    pub fn run(&self, programs: &[String]) -> Result<Vec<Outcome>, String> {
        self.start()?.run(programs)
    }
}

/// A running oracle: `run` sends a batch and reads its answers.
pub struct OracleProc {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
}

impl OracleProc {
    /// NumPy's outcome of each program (its result in `out`), in order.
    pub fn run(&mut self, programs: &[String]) -> Result<Vec<Outcome>, String> {
        let stdin = self.stdin.as_mut().ok_or("the oracle's input is closed")?;
        let stdout = &mut self.stdout;
        let mut results: Vec<Option<Outcome>> = vec![None; programs.len()];
        // Write from a thread while reading here: a batch is larger than a pipe.
        let read = std::thread::scope(|s| {
            let writer = s.spawn(move || -> std::io::Result<()> {
                let mut buf = String::new();
                for (i, p) in programs.iter().enumerate() {
                    buf.push_str(&format!("{{\"id\": {i}, \"code\": {}}}\n", json_string(p)));
                }
                stdin.write_all(buf.as_bytes())?;
                stdin.flush()
            });
            let mut line = String::new();
            for _ in 0..programs.len() {
                line.clear();
                let n = stdout
                    .read_line(&mut line)
                    .map_err(|e| format!("reading the oracle: {e}"))?;
                if n == 0 {
                    return Err("the NumPy oracle stopped answering".to_string());
                }
                let (id, outcome) = parse_line(line.trim_end_matches('\n'))?;
                let slot = results
                    .get_mut(id)
                    .ok_or_else(|| format!("oracle answered unknown case {id}"))?;
                *slot = Some(outcome);
            }
            writer
                .join()
                .map_err(|_| "oracle writer panicked".to_string())?
                .map_err(|e| format!("writing to the oracle: {e}"))
        });
        if let Err(e) = read {
            self.stdin = None;
            let _ = self.child.wait();
            let mut err = String::new();
            if let Some(mut s) = self.child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut s, &mut err);
            }
            return Err(format!("{e}\n{err}"));
        }
        results
            .into_iter()
            .map(|r| r.ok_or_else(|| "the oracle skipped a case".to_string()))
            .collect()
    }
}

impl Drop for OracleProc {
    fn drop(&mut self) {
        self.stdin = None;
        let _ = self.child.wait();
    }
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            '\r' => o.push_str("\\r"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn parse_line(line: &str) -> Result<(usize, Outcome), String> {
    let bad = || format!("bad oracle line: {line:?}");
    let mut f = line.splitn(5, '\t');
    let id: usize = f.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
    let outcome = match f.next() {
        Some("ok") => {
            let dtype = f.next().ok_or_else(bad)?.to_string();
            let shape_s = f.next().ok_or_else(bad)?;
            let shape = if shape_s.is_empty() {
                vec![]
            } else {
                shape_s
                    .split(',')
                    .map(|d| d.parse().map_err(|_| bad()))
                    .collect::<Result<_, _>>()?
            };
            let bytes = hex(f.next().ok_or_else(bad)?).ok_or_else(bad)?;
            let values = decode(&dtype, &bytes).ok_or_else(|| {
                format!("the oracle returned dtype {dtype}, which the harness cannot read")
            })?;
            Outcome::Value {
                dtype,
                shape,
                values,
            }
        }
        Some("err") => Outcome::Error {
            category: f.next().ok_or_else(bad)?.to_string(),
            message: f
                .next()
                .unwrap_or("")
                .replace("\\n", "\n")
                .replace("\\\\", "\\"),
        },
        _ => return Err(bad()),
    };
    Ok((id, outcome))
}

fn hex(s: &str) -> Option<Vec<u8>> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(s.get(2 * i..2 * i + 2)?, 16).ok())
        .collect()
}

/// Little-endian bytes of a NumPy dtype as widened values.
pub fn decode(dtype: &str, b: &[u8]) -> Option<Values> {
    fn chunks<const N: usize>(b: &[u8]) -> impl Iterator<Item = [u8; N]> + '_ {
        b.chunks_exact(N)
            .map(|c| c.try_into().expect("exact chunk"))
    }
    Some(match dtype {
        "bool" => Values::Bool(b.iter().map(|&x| x != 0).collect()),
        "int8" => Values::Int(b.iter().map(|&x| x as i8 as i64).collect()),
        "uint8" => Values::Int(b.iter().map(|&x| x as i64).collect()),
        "int16" => Values::Int(
            chunks::<2>(b)
                .map(|c| i16::from_le_bytes(c) as i64)
                .collect(),
        ),
        "uint16" => Values::Int(
            chunks::<2>(b)
                .map(|c| u16::from_le_bytes(c) as i64)
                .collect(),
        ),
        "int32" => Values::Int(
            chunks::<4>(b)
                .map(|c| i32::from_le_bytes(c) as i64)
                .collect(),
        ),
        "uint32" => Values::Int(
            chunks::<4>(b)
                .map(|c| u32::from_le_bytes(c) as i64)
                .collect(),
        ),
        "int64" => Values::Int(chunks::<8>(b).map(i64::from_le_bytes).collect()),
        "float16" => Values::Float(
            chunks::<2>(b)
                .map(|c| f16_to_f64(u16::from_le_bytes(c)))
                .collect(),
        ),
        "float32" => Values::Float(
            chunks::<4>(b)
                .map(|c| f32::from_le_bytes(c) as f64)
                .collect(),
        ),
        "float64" => Values::Float(chunks::<8>(b).map(f64::from_le_bytes).collect()),
        _ => return None,
    })
}

fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let man = (h & 0x3ff) as f64;
    sign * match exp {
        0 => man * 2f64.powi(-24),
        31 if man == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        e => (1.0 + man / 1024.0) * 2f64.powi(e - 15),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_decode() {
        let (id, o) = parse_line("3\tok\tint32\t2\t01000000feffffff").unwrap();
        assert_eq!(id, 3);
        assert_eq!(
            o,
            Outcome::Value {
                dtype: "int32".into(),
                shape: vec![2],
                values: Values::Int(vec![1, -2])
            }
        );
        let (_, o) = parse_line("0\tok\tfloat16\t\t003c").unwrap();
        assert_eq!(
            o,
            Outcome::Value {
                dtype: "float16".into(),
                shape: vec![],
                values: Values::Float(vec![1.0])
            }
        );
        let (_, o) = parse_line("1\terr\tIndexError\tindex 5 is out\\nof bounds").unwrap();
        assert_eq!(
            o,
            Outcome::Error {
                category: "IndexError".into(),
                message: "index 5 is out\nof bounds".into()
            }
        );
        assert_eq!(json_string("a\"b\\\n"), "\"a\\\"b\\\\\\n\"");
    }
}
