//! Arguments of a builtin call: positional and keyword values, with helpers
//! that give clear errors for missing, extra or unknown arguments.

use crate::error::{Error, Result, did_you_mean};
use crate::value::Value;
use gcalc_lang::Span;

/// The spans of a call's positional arguments (inline up to 6: no allocation).
pub type Spans = smallvec::SmallVec<[Span; 6]>;

pub struct Args {
    /// The function's name, for messages.
    pub name: &'static str,
    pub pos: Vec<Value>,
    pub kw: Vec<(String, Value)>,
    /// Span of the whole call (errors about arguments point here).
    pub span: Span,
    /// Span of each positional argument.
    pub pos_spans: Spans,
    next: usize,
}

/// PyTorch's spellings of NumPy's keywords, accepted by every builtin as
/// PyTorch accepts NumPy's (`x.sum(dim=0, keepdim=true)` is
/// `x.sum(axis=0, keepdims=true)`). Given with NumPy's own, the PyTorch one
/// stays and is reported as an unexpected keyword.
const TORCH_KEYWORDS: [(&str, &str); 2] = [("dim", "axis"), ("keepdim", "keepdims")];

/// Builtins whose PyTorch namesake means something else with `dim=`: for
/// them `dim=` is refused with the difference named, never read as `axis=`.
const TORCH_DIFFERS: [(&str, &str); 9] = [
    ("max", VALUES_INDICES),
    ("min", VALUES_INDICES),
    ("median", VALUES_INDICES),
    ("nanmedian", VALUES_INDICES),
    ("sort", VALUES_INDICES),
    ("cummax", VALUES_INDICES),
    ("cummin", VALUES_INDICES),
    ("std", DDOF),
    ("var", DDOF),
];
const VALUES_INDICES: &str = "PyTorch's gives (values, indices), gcalc's the values as NumPy's: write axis= (and argmax/argsort for the indices)";
const DDOF: &str = "PyTorch's divides by n - 1 by default, gcalc's by n as NumPy's: write axis= (ddof=1 for PyTorch's)";

fn torch_keywords(name: &str, kw: &mut [(String, Value)]) {
    for (torch, numpy) in TORCH_KEYWORDS {
        if torch == "dim" && TORCH_DIFFERS.iter().any(|(n, _)| *n == name) {
            continue;
        }
        if let Some(k) = kw.iter().position(|(k, _)| k == torch)
            && !kw.iter().any(|(k, _)| k == numpy)
        {
            kw[k].0 = numpy.to_string();
        }
    }
}

impl Args {
    pub fn new(name: &'static str, pos: Vec<Value>, kw: Vec<(String, Value)>, span: Span) -> Args {
        let pos_spans = smallvec::smallvec![span; pos.len()];
        Args::with_spans(name, pos, kw, span, pos_spans)
    }

    /// Like `new`, with the span of each positional argument.
    pub fn with_spans(
        name: &'static str,
        pos: Vec<Value>,
        kw: Vec<(String, Value)>,
        span: Span,
        pos_spans: Spans,
    ) -> Args {
        let mut kw = kw;
        if !kw.is_empty() {
            torch_keywords(name, &mut kw);
        }
        Args {
            name,
            pos,
            kw,
            span,
            pos_spans,
            next: 0,
        }
    }

    /// The next positional argument, or the keyword `key`; an error if neither was given.
    ///
    /// Missing under its own name, a required argument is also taken by
    /// the name NumPy gives it (`cumsum(a=x)`, `full(s, fill_value=3)`,
    /// `eye(N=3)`), since such a call would otherwise only be an error.
    pub fn req(&mut self, key: &str) -> Result<Value> {
        if let Some(v) = self.opt(key)? {
            return Ok(v);
        }
        for alias in numpy_names(key) {
            if let Some(i) = self.kw.iter().position(|(k, _)| k == alias) {
                return Ok(self.kw.remove(i).1);
            }
        }
        let others: Vec<String> = self.kw.iter().map(|(k, _)| format!("`{k}`")).collect();
        let note = match others.len() {
            0 => String::new(),
            _ => format!(" (the call's other keywords: {})", others.join(", ")),
        };
        Err(Error::value(format!(
            "{}() missing required argument `{key}`{note}",
            self.name
        ))
        .at(self.span)
        .with_help(format!(
            "give `{key}` by position or as `{key}=...`; see help({})",
            self.name
        )))
    }

    /// The next positional argument, or the keyword `key`, if given. Giving both is an error.
    pub fn opt(&mut self, key: &str) -> Result<Option<Value>> {
        let kw = self
            .kw
            .iter()
            .position(|(k, _)| k == key)
            .map(|i| self.kw.remove(i).1);
        if self.next < self.pos.len() {
            let v = std::mem::replace(&mut self.pos[self.next], Value::None);
            self.next += 1;
            if kw.is_some() {
                return Err(Error::value(format!(
                    "{}() got `{key}` both by position and by keyword",
                    self.name
                ))
                .at(self.span));
            }
            return Ok(Some(v));
        }
        Ok(kw)
    }

    /// Only the keyword `key` (never positional).
    pub fn kw(&mut self, key: &str) -> Option<Value> {
        self.kw
            .iter()
            .position(|(k, _)| k == key)
            .map(|i| self.kw.remove(i).1)
    }

    /// Every remaining positional argument.
    pub fn rest(&mut self) -> Vec<Value> {
        let out = self.pos.drain(self.next..).collect();
        self.next = self.pos.len();
        out
    }

    /// Span of the positional argument at `i` (or the call's span).
    pub fn span_of(&self, i: usize) -> Span {
        self.pos_spans.get(i).copied().unwrap_or(self.span)
    }

    /// Error on anything not consumed: too many positional arguments or unknown keywords.
    pub fn finish(self) -> Result<()> {
        if self.next < self.pos.len() {
            return Err(Error::value(format!(
                "{}() takes {} positional argument{} but {} were given",
                self.name,
                self.next,
                if self.next == 1 { "" } else { "s" },
                self.pos.len()
            ))
            .at(self.pos_spans.get(self.next).copied().unwrap_or(self.span))
            .with_help(format!("see help({})", self.name)));
        }
        if let Some((k, _)) = self.kw.first() {
            let help = self
                .torch_help(k)
                .unwrap_or_else(|| format!("see help({})", self.name));
            return Err(Error::value(format!(
                "{}() got an unexpected keyword argument `{k}`",
                self.name
            ))
            .at(self.span)
            .with_help(help));
        }
        Ok(())
    }

    /// Why `dim=` is refused where PyTorch's function differs.
    fn torch_help(&self, k: &str) -> Option<String> {
        let (_, why) = TORCH_DIFFERS.iter().find(|(n, _)| *n == self.name)?;
        (k == "dim").then(|| {
            format!(
                "`dim=` is PyTorch's keyword and {}() differs there: {why}",
                self.name
            )
        })
    }

    /// Like `finish`, but suggesting among the accepted keywords.
    pub fn finish_with(self, accepted: &[&str]) -> Result<()> {
        if let Some((k, _)) = self.kw.first() {
            let mut e = Error::value(format!(
                "{}() got an unexpected keyword argument `{k}`",
                self.name
            ))
            .at(self.span);
            e.help = Some(
                self.torch_help(k)
                    .or_else(|| did_you_mean(k, accepted.iter().copied()))
                    .unwrap_or_else(|| format!("accepted keywords: {}", accepted.join(", "))),
            );
            return Err(e);
        }
        self.finish()
    }
}

/// NumPy's names for the parameters gcalc names `key` (its array-API or
/// shorter names), tried when a required argument is missing.
fn numpy_names(key: &str) -> &'static [&'static str] {
    match key {
        "x" => &[
            "a", "arr", "ary", "ar", "array", "object", "input", "m", "v", "A", "tup",
        ],
        "values" => &["object", "a"],
        "value" => &["fill_value"],
        "n" => &["N"],
        "m" => &["M"],
        _ => &[],
    }
}
