//! `resolve::unresolved`: names read that nothing binds, found before running.

use gcalc_lang::resolve::{Scope, unresolved};

fn names(src: &str, scope: Scope) -> Vec<(String, usize, Option<String>)> {
    let r = gcalc_lang::parse(src);
    assert!(r.is_ok(), "{src}: {:?}", r.diagnostics);
    let known = |n: &str| matches!(n, "print" | "range" | "len" | "sum");
    unresolved(&r.program, &known, scope)
        .into_iter()
        .map(|u| (u.name, u.reads, u.dotted))
        .collect()
}

fn plain(src: &str, scope: Scope) -> Vec<String> {
    names(src, scope).into_iter().map(|n| n.0).collect()
}

#[test]
fn a_misspelled_name_is_found_with_its_first_read() {
    let src = "total = 0\nfor i in range(10000) {\n  total += i\n}\nprint(totl, totl)\n";
    let r = gcalc_lang::parse(src);
    let u = unresolved(&r.program, &|n| n == "print" || n == "range", Scope::Cell);
    assert_eq!(u.len(), 1);
    assert_eq!(u[0].name, "totl");
    assert_eq!(u[0].reads, 2);
    assert_eq!(&src[u[0].span.range()], "totl");
    assert_eq!(
        gcalc_lang::span::line_col(src, u[0].span.start as usize).0,
        5
    );
}

#[test]
fn names_bound_anywhere_are_fine() {
    // In a branch, in a loop, as a parameter, a function, a comprehension variable.
    let src = "if len(a) { b = 1 }\nprint(b)\nfn f(p, q=p) = p + q + r\nr = [k for k in range(3) if k]\nfor (u, v) in w { print(u, v) }\nw = 1";
    assert_eq!(plain(src, Scope::WholeProgram), vec!["a"]);
}

#[test]
fn an_augmented_assignment_does_not_bind() {
    assert_eq!(plain("n += 1", Scope::Cell), vec!["n"]);
    assert!(plain("n = 0\nn += 1", Scope::Cell).is_empty());
}

#[test]
fn function_bodies_are_checked_in_whole_programs_only() {
    let src = "fn f(x) { y = x + later\n y }\ng = fn(a) = a * other";
    assert!(plain(src, Scope::Cell).is_empty());
    assert_eq!(plain(src, Scope::WholeProgram), vec!["later", "other"]);
}

#[test]
fn attribute_chains_are_kept_for_hints() {
    let n = names("y = np.linalg.norm(x) + np.exp(x)\nx = 1", Scope::Cell);
    assert_eq!(
        n,
        vec![("np".to_string(), 2, Some("np.linalg.norm".to_string()))]
    );
}

#[test]
fn fstrings_comprehensions_dicts_and_ternaries_are_walked() {
    let src = "d = {\"a\": aa, bb: 1}\ns = f\"{cc:{dd}} {d}\"\nt = [ee for z in ff if gg]\nu = hh if ii else jj";
    assert_eq!(
        plain(src, Scope::Cell),
        vec!["aa", "bb", "cc", "dd", "ff", "gg", "ee", "hh", "ii", "jj"]
    );
}
