//! Fuzz target for the parser: any UTF-8 input must parse without a panic,
//! give spans inside the input on char boundaries, render its diagnostics,
//! print as S-expressions, and get an `is_complete` answer consistent with
//! the parse.
#![no_main]

use gcalc_lang::{Completeness, Span, is_complete, parse, render, sexpr};
use libfuzzer_sys::fuzz_target;

fn check_span(src: &str, s: Span) {
    assert!(s.start <= s.end, "reversed span {s:?}");
    assert!(
        (s.end as usize) <= src.len(),
        "span {s:?} past the end ({})",
        src.len()
    );
    assert!(
        src.is_char_boundary(s.start as usize) && src.is_char_boundary(s.end as usize),
        "span {s:?} splits a char"
    );
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let r = parse(src);
    for s in &r.program.stmts {
        check_span(src, s.span);
    }
    for d in &r.diagnostics {
        if let Some(s) = d.span {
            check_span(src, s);
        }
        let _ = render(d, "fuzz.gcalc", src, Default::default());
    }
    let _ = sexpr::program(&r.program);
    let c = is_complete(src);
    if r.diagnostics.is_empty() {
        assert!(
            !matches!(c, Completeness::Invalid),
            "clean parse but Invalid"
        );
    }
});
