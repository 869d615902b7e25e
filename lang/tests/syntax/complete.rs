//! Unit tests of `is_complete`, the check a prompt runs before it decides
//! to execute an input or ask for another line.

use gcalc_lang::{Completeness, is_complete};

fn incomplete(depth: usize) -> Completeness {
    Completeness::Incomplete {
        indent: "    ".repeat(depth),
    }
}

#[test]
fn complete_inputs() {
    for src in [
        "",
        "   ",
        "\n",
        "# just a comment",
        "x = 1",
        "f(a,\n b)",
        "fn f() {\n 1\n}",
        "s = \"\"\"a\nb\"\"\"",
        "x = \"(\" # (",
        "f\"{x:#x} {d[\"(\"]} {{\"",
        "d = {\"w\": 1,\n \"b\": 2}",
        "[x for x in xs\n if x]",
    ] {
        assert_eq!(is_complete(src), Completeness::Complete, "{src:?}");
    }
}

#[test]
fn open_brackets_are_incomplete() {
    assert_eq!(is_complete("f(1,"), incomplete(1));
    assert_eq!(is_complete("fn f(x) {"), incomplete(1));
    assert_eq!(is_complete("x = [1, 2"), incomplete(1));
    assert_eq!(is_complete("for i in range(3) {\n  if i {"), incomplete(2));
    assert_eq!(is_complete("f([{"), incomplete(3));
    assert_eq!(is_complete("x = (1 +* 2"), incomplete(1));
    assert_eq!(is_complete("d = {\"w\": 1,"), incomplete(1));
    assert_eq!(is_complete("s = f\"\"\"{x}\n"), incomplete(0));
}

#[test]
fn open_triple_string_is_incomplete() {
    assert_eq!(is_complete("src = \"\"\"\nextern"), incomplete(0));
    assert_eq!(is_complete("m = cuda_module(\"\"\"\nint x;"), incomplete(1));
}

#[test]
fn brackets_in_strings_and_comments_do_not_count() {
    assert_eq!(is_complete("x = \"(\""), Completeness::Complete);
    assert_eq!(is_complete("x = 1 # ("), Completeness::Complete);
    assert_eq!(is_complete("x = \"\"\" ( \"\"\""), Completeness::Complete);
    assert_eq!(is_complete("f(\"#\""), incomplete(1));
}

#[test]
fn errors_more_input_cannot_fix_are_invalid() {
    for src in [
        ")",
        "x = 1)",
        "f(]",
        "{)",
        "1 +* 2",
        "x = 1 +",
        "x = \"abc",
        "a < f(b) < c",
        "1 = x",
        "x = 1\n)",
    ] {
        assert_eq!(is_complete(src), Completeness::Invalid, "{src:?}");
    }
}
