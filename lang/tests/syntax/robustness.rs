//! Robustness without a fuzzer: tens of thousands of random and mutated
//! inputs built from grammar tokens must parse without panicking, give
//! spans inside the input on char boundaries, and render.

use gcalc_lang::{Completeness, Span, is_complete, parse, render, sexpr};

const TOKENS: &[&str] = &[
    "x",
    "y",
    "f",
    "time",
    "fn",
    "if",
    "else",
    "for",
    "in",
    "while",
    "return",
    "break",
    "continue",
    "set",
    "and",
    "or",
    "not",
    "true",
    "false",
    "none",
    "is",
    "1",
    "2.5",
    ".5",
    "1e-3",
    "1.",
    "99999999999999999999",
    "\"s\"",
    "\"\"\"a\nb\"\"\"",
    "\"",
    "\"\"\"",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ",",
    ":",
    ";",
    "\n",
    " ",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "@",
    "**",
    "+=",
    "-=",
    "**=",
    ".",
    "#c\n",
    "\\",
    "é",
    "日本",
    "'",
    "$",
    "\t",
    "&",
    "|",
    "^",
    "~",
    "<<",
    ">>",
    "&=",
    ">>=",
    "f\"",
    "f\"{x}\"",
    "f\"{",
    "}\"",
    "!r",
    ":.3f",
    "...",
    "None",
    "True",
    "{\"a\": 1}",
    "'q'",
    "'''",
    "f'{x}'",
    "lambda",
    "lambda x:",
    "def",
];

/// A small xorshift generator: deterministic, no dependencies.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn check_span(src: &str, s: Span, what: &str) {
    assert!(
        s.start <= s.end && (s.end as usize) <= src.len(),
        "{what} span {s:?} out of {src:?}"
    );
    assert!(
        src.is_char_boundary(s.start as usize) && src.is_char_boundary(s.end as usize),
        "{what} span {s:?} splits a char in {src:?}"
    );
}

pub fn check(src: &str) {
    let r = parse(src);
    for s in &r.program.stmts {
        check_span(src, s.span, "stmt");
    }
    for d in &r.diagnostics {
        if let Some(s) = d.span {
            check_span(src, s, "diagnostic");
        }
        let _ = render(d, "fuzz", src, Default::default());
    }
    let _ = sexpr::program(&r.program);
    let c = is_complete(src);
    if r.diagnostics.is_empty() {
        assert!(
            !matches!(c, Completeness::Invalid),
            "clean parse but Invalid: {src:?}"
        );
    }
}

const SEEDS: &[&str] = &[
    "x = f(a, b=2)[1:3, ::2].sum(axis=0) ** -2",
    "fn cost(w, b) {\n p = sigmoid(D0 @ w + b)\n mean(p) + 0.01 * sum(w ** 2)\n}",
    "for i, j in zip(a, b) { if i < j { break } else { continue } }",
    "t = time { for i in range(10) { r = exp(x) } }\nset floatX = float64",
    "m = cuda_module(\"\"\"\nextern \"C\" __global__ void k() {}\n\"\"\")",
    "y = if not a == b { [1, 2,] } else { (3,) }; g = fn(x) = x * 2",
    "print(f\"loss {l:.4f} {d[\"w\"]!r:>{w}} {{x}}\")",
    "d = {k: [x * y for x in xs if x in ys for y in k] for k in ks}; m = (a > 1) & ~b",
    "z = x[..., None] if a not in b else {\"w\": w, 1: (2,)}",
];

#[test]
fn random_token_soup() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..12_000 {
        let n = rng.below(40);
        let src: String = (0..n)
            .map(|_| TOKENS[rng.below(TOKENS.len())])
            .collect::<Vec<_>>()
            .join(if rng.below(2) == 0 { "" } else { " " });
        check(&src);
    }
}

#[test]
fn mutated_programs() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for _ in 0..10_000 {
        let mut src = SEEDS[rng.below(SEEDS.len())].to_string();
        for _ in 0..1 + rng.below(4) {
            let cut = (0..=src.len())
                .filter(|&i| src.is_char_boundary(i))
                .collect::<Vec<_>>();
            let a = cut[rng.below(cut.len())];
            let b = cut[rng.below(cut.len())];
            let (a, b) = (a.min(b), a.max(b));
            match rng.below(3) {
                0 => src.replace_range(a..b, ""),
                1 => src.insert_str(a, TOKENS[rng.below(TOKENS.len())]),
                _ => src.replace_range(a..b, TOKENS[rng.below(TOKENS.len())]),
            }
        }
        check(&src);
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for open in [
        "(",
        "[",
        "-",
        "not ",
        "f(",
        "if x {",
        "fn() = ",
        "x[",
        "2 ** ",
        "{",
        "f\"{",
        "~",
        "[x for x in ",
        "{1: ",
        "a if b else ",
        "f\"{x:{",
        "lambda: ",
        "f'{",
    ] {
        let src = open.repeat(5_000);
        check(&src);
        assert!(!parse(&src).diagnostics.is_empty());
    }
    let long = "1 + ".repeat(2_000) + "1";
    check(&long);
}
