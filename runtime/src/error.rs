//! Errors as data: a kind, the op it came from, a message, a fix, and the span
//! of the source that caused it. Rendering happens in one place
//! (`gcalc_lang::diagnostic::render`), via `Error::to_diagnostic`.

use gcalc_lang::{Diagnostic, Span};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    Syntax,
    /// Unknown variable or function.
    Name,
    /// A value of the wrong type for an operation.
    Type,
    /// Shapes that do not fit an operation.
    Shape,
    /// Dtypes that do not fit an operation.
    DType,
    /// Bad argument values (wrong count, unknown keyword, out of domain).
    Value,
    Index,
    /// A dict has no such key.
    Key,
    ZeroDivision,
    /// An integer result that does not fit in 64 bits (weak Python-style
    /// integers never wrap).
    Overflow,
    Io,
    /// Operands on different devices, a missing GPU, a CUDA failure.
    Device,
    OutOfMemory,
    Flag,
    /// Ctrl-C / a Jupyter interrupt stopped the statement.
    Interrupted,
    /// A custom kernel failed to compile or launch.
    Kernel,
    /// A bug in gcalc: reported, never a panic.
    Internal,
    /// An `assert` whose condition is false.
    Assertion,
    /// `next(it)` at the end of an iterator.
    StopIteration,
    /// `exit()`/`quit()`: not a failure; the front-end ends (`ExecOutcome::exit`).
    Exit,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "syntax error",
            ErrorKind::Name => "name error",
            ErrorKind::Type => "type error",
            ErrorKind::Shape => "shape error",
            ErrorKind::DType => "dtype error",
            ErrorKind::Value => "value error",
            ErrorKind::Index => "index error",
            ErrorKind::Key => "key error",
            ErrorKind::ZeroDivision => "division by zero",
            ErrorKind::Overflow => "overflow error",
            ErrorKind::Io => "i/o error",
            ErrorKind::Device => "device error",
            ErrorKind::OutOfMemory => "out of memory",
            ErrorKind::Flag => "flag error",
            ErrorKind::Interrupted => "interrupted",
            ErrorKind::Kernel => "kernel error",
            ErrorKind::Internal => "internal error",
            ErrorKind::Assertion => "assertion failed",
            ErrorKind::StopIteration => "stop iteration",
            ErrorKind::Exit => "exit",
        }
    }
    /// The name Jupyter shows as `ename`.
    pub fn class_name(self) -> &'static str {
        match self {
            ErrorKind::Syntax => "SyntaxError",
            ErrorKind::Name => "NameError",
            ErrorKind::Type => "TypeError",
            ErrorKind::Shape => "ShapeError",
            ErrorKind::DType => "DTypeError",
            ErrorKind::Value => "ValueError",
            ErrorKind::Index => "IndexError",
            ErrorKind::Key => "KeyError",
            ErrorKind::ZeroDivision => "ZeroDivisionError",
            ErrorKind::Overflow => "OverflowError",
            ErrorKind::Io => "IOError",
            ErrorKind::Device => "DeviceError",
            ErrorKind::OutOfMemory => "OutOfMemoryError",
            ErrorKind::Flag => "FlagError",
            ErrorKind::Interrupted => "KeyboardInterrupt",
            ErrorKind::Kernel => "KernelError",
            ErrorKind::Internal => "InternalError",
            ErrorKind::Assertion => "AssertionError",
            ErrorKind::StopIteration => "StopIteration",
            ErrorKind::Exit => "SystemExit",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    pub kind: ErrorKind,
    /// The operation that failed (`add`, `matmul`, `save`...), when there is one.
    pub op: Option<String>,
    pub message: String,
    pub help: Option<String>,
    pub span: Option<Span>,
    /// Further notes (e.g. "queued by line 3: y = exp(x)").
    pub notes: Vec<String>,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Error {
        Error {
            kind,
            op: None,
            message: message.into(),
            help: None,
            span: None,
            notes: Vec::new(),
        }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Error {
        self.help = Some(help.into());
        self
    }
    pub fn with_op(mut self, op: impl Into<String>) -> Error {
        self.op = Some(op.into());
        self
    }
    /// Attach a span if the error has none yet (the innermost span wins).
    pub fn at(mut self, span: Span) -> Error {
        if self.span.is_none() {
            self.span = Some(span);
        }
        self
    }
    pub fn with_note(mut self, note: impl Into<String>) -> Error {
        self.notes.push(note.into());
        self
    }

    pub fn name(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Name, msg)
    }
    pub fn type_(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Type, msg)
    }
    pub fn value(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Value, msg)
    }
    pub fn index(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Index, msg)
    }
    pub fn dtype(op: &str, msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::DType, msg).with_op(op)
    }
    pub fn shape(op: &str, msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Shape, msg).with_op(op)
    }
    pub fn io(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Io, msg)
    }
    pub fn device(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Device, msg)
    }
    /// Operands of `op` on two devices: the one error every op gives, naming
    /// both devices and the fix (nothing is moved implicitly).
    pub fn device_mismatch(op: &str, a: crate::Device, b: crate::Device) -> Error {
        Error::device(format!("operands on {a} and {b}"))
            .with_op(op)
            .with_help(format!(
                "move one operand first: the one on {a} with .to({b}), or the one on {b} with .to({a}); nothing is copied behind your back"
            ))
    }
    pub fn flag(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Flag, msg)
    }
    pub fn interrupted() -> Error {
        Error::new(
            ErrorKind::Interrupted,
            "the statement was interrupted; every variable keeps its value",
        )
    }
    pub fn internal(msg: impl Into<String>) -> Error {
        Error::new(ErrorKind::Internal, msg).with_help("this is a bug in gcalc; please report it")
    }

    /// The message with the op in front, as shown to users.
    pub fn full_message(&self) -> String {
        match &self.op {
            Some(op) if !self.message.starts_with(op.as_str()) => format!("{op}: {}", self.message),
            _ => self.message.clone(),
        }
    }

    pub fn to_diagnostic(&self) -> Diagnostic {
        let mut msg = self.full_message();
        for n in &self.notes {
            msg.push_str("\n  note: ");
            msg.push_str(n);
        }
        let mut d = Diagnostic::new(self.kind.name(), msg, self.span);
        d.help = self.help.clone();
        d
    }

    /// Render with the source line and a caret (the one rendering path).
    pub fn render(&self, source_name: &str, source: &str, color: bool) -> String {
        gcalc_lang::render(
            &self.to_diagnostic(),
            source_name,
            source,
            gcalc_lang::RenderOptions { color },
        )
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.name(), self.full_message())?;
        if let Some(h) = &self.help {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::io(e.to_string())
    }
}

/// `noun` with its indefinite article, for messages: "an int64", "an array",
/// "a float32", "a uint8" (said "you-int"). The one place messages choose
/// between "a" and "an".
pub fn with_article(noun: &str) -> String {
    let lower = noun.to_ascii_lowercase();
    let vowel_sound = match lower.as_bytes().first() {
        Some(b'a' | b'e' | b'i' | b'o') => true,
        Some(b'u') => {
            !(lower.starts_with("uint") || lower.starts_with("uni") || lower.starts_with("use"))
        }
        _ => false,
    };
    format!("{} {noun}", if vowel_sound { "an" } else { "a" })
}

/// "did you mean `foo`?" for a name among candidates (see `spelling` for
/// what is close enough).
pub fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    let c: Vec<&str> = candidates.into_iter().collect();
    spelling(name, &c).map(|c| format!("did you mean `{c}`?"))
}

/// The closest of `candidates` to `name` by edit distance (transpositions
/// count one), if close enough: at most one edit per three characters of
/// the name, so names of one or two characters get no suggestion (an
/// unknown `x` does not suggest `b`) unless only their case differs. Ties go
/// to the candidate with the same first letter, then the nearer length.
pub fn spelling<'a>(name: &str, candidates: &[&'a str]) -> Option<&'a str> {
    closest(name, candidates).map(|(c, _)| c)
}

/// `spelling`'s choice and its edit distance.
pub fn closest<'a>(name: &str, candidates: &[&'a str]) -> Option<(&'a str, usize)> {
    let n = name.chars().count();
    let limit = n / 3;
    let first = name.chars().next();
    let mut best: Option<(usize, bool, usize, &str)> = None;
    for &c in candidates {
        if c == name {
            continue;
        }
        let d = if c.eq_ignore_ascii_case(name) {
            0
        } else {
            edit_distance(name, c)
        };
        if d > limit && !c.eq_ignore_ascii_case(name) {
            continue;
        }
        let key = (
            d,
            c.chars().next() != first,
            c.chars().count().abs_diff(n),
            c,
        );
        if best.is_none_or(|b| key < b) {
            best = Some(key);
        }
    }
    best.map(|b| (b.3, b.0))
}

/// Edit distance with adjacent transpositions counting one edit
/// (optimal string alignment): `valeu` is one edit from `value`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        prev2 = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}
