#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! Rendered diagnostics, as snapshots at a fixed width (80 columns, no colour).

use okite::check::load::load_str;
use okite::check::Program;
use okite::diagnostics::render;
use okite::eval::Evaluator;
use okite::natives::Natives;
use okite::syntax::parse_expr;

/// Check a source text and render its diagnostics.
fn check(src: &str) -> String {
    match load_str("test.rule", src, &Natives::standard()) {
        Ok(_) => "OK".to_string(),
        Err((sources, diags)) => render(&diags, &sources, 80, false),
    }
}

/// Check, then evaluate a query and render its error.
fn run(src: &str, query: &str, tweak: impl FnOnce(&mut Evaluator)) -> String {
    let mut prog: Program = load_str("test.rule", src, &Natives::standard())
        .unwrap_or_else(|(s, d)| panic!("{}", render(&d, &s, 80, false)));
    let fid = prog.sources.add("<query>", None, query.to_string());
    let e = parse_expr(query, fid).unwrap();
    let q = prog.compile_query(&e, &[]).unwrap();
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    tweak(&mut ev);
    match ev.eval_query(&q) {
        Ok(v) => format!("value {v}"),
        Err(e) => render(&[*e.diag], &prog.sources, 80, false),
    }
}

#[test]
fn syntax_error() {
    insta::assert_snapshot!(check("def f(x) = x +\ndef g = 1\n"));
}

#[test]
fn syntax_error_in_enum() {
    insta::assert_snapshot!(check("enum Turn { 先手 as sente 後手 }\n"));
}

#[test]
fn unknown_name_with_suggestion() {
    insta::assert_snapshot!(check(
        "def opposite(t: Int) -> Int = 0 - t\ndef g = opposit(1)\n"
    ));
}

#[test]
fn arity() {
    insta::assert_snapshot!(check(
        "def add(a: Int, b: Int) -> Int = a + b\ndef g = add(1)\n"
    ));
}

#[test]
fn type_mismatch() {
    insta::assert_snapshot!(check("def f(n: Int) -> Bool = n + 1\n"));
}

#[test]
fn duplicate_definition() {
    insta::assert_snapshot!(check("def f = 1\ndef f = 2\n"));
}

#[test]
fn unknown_reading() {
    insta::assert_snapshot!(check(
        "def f = 1\nreading broad extends narow { override def f = 2 }\n"
    ));
}

/// Each operator that wants one type of both operands says why, whichever side is wrong.
#[test]
fn operators_report_a_wrong_operand_on_either_side() {
    for (src, why) in [
        ("def f = true + 1", "arithmetic takes integers"),
        ("def f = 1 + true", "arithmetic takes integers"),
        ("def f = 1 and true", "logical operators take truth values"),
        ("def f = true or 2", "logical operators take truth values"),
        ("def f = 1 .. true", "a range goes between integers"),
        ("def f = {1} union 2", "set operations take sets"),
        ("def f = 2 inter {1}", "set operations take sets"),
        ("def f = 1 subset {1}", "`subset` compares sets"),
        ("def f = [1] ++ 2", "`++` joins sequences"),
        (
            "def f = \"a\" ++ 2",
            "`++` joins two strings or two sequences",
        ),
    ] {
        let out = check(&format!("{src}\n"));
        assert!(out.contains("type mismatch"), "{src}: {out}");
        assert!(out.contains(why), "{src}: {out}");
    }
    assert_eq!(check("def f = 1 + 2 * 3\ndef g = {1} union {2}\n"), "OK");
}

/// An example and a theorem that name a reading the files lack are each refused at the name.
#[test]
fn unknown_reading_of_an_example_and_a_theorem() {
    let out = check(
        "def f = 1\nreading broad { override def f = 2 }\n\
         example \"e\" reading brod { assert f == 2 }\n\
         theorem \"t\" reading bruad: f == 2\n",
    );
    for name in ["brod", "bruad"] {
        assert!(
            out.contains(&format!("there is no reading named `{name}`")),
            "{out}"
        );
    }
    assert_eq!(out.matches("unknown reading").count(), 2, "{out}");
    // the readings that exist load as before
    assert_eq!(
        check(
            "def f = 1\nreading broad { override def f = 2 }\n\
             example \"e\" reading broad { assert f == 2 }\n\
             theorem \"t\" reading broad: f == 2\n"
        ),
        "OK"
    );
}

#[test]
fn override_of_missing_definition() {
    insta::assert_snapshot!(check(
        "def mate = true\nreading broad { override def mat = false }\n"
    ));
}

#[test]
fn all_errors_of_a_file_at_once() {
    let out = check("def f = g\ndef h(x: Int) -> Int = x + true\ndef k = f(1, 2)\n");
    assert!(out.contains("unknown name `g`"), "{out}");
    assert!(out.contains("type mismatch"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn cycle_prints_the_chain() {
    let src = "def even(n: Int) -> Bool = if n == 0 then true else odd(n - 1)\n\
               def odd(n: Int) -> Bool = if n == 0 then false else even(n + 1)\n";
    let out = run(src, "even(2)", |_| {});
    assert!(out.contains("E0320"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn step_budget() {
    let src = "def count_to(n: Int) -> Int = sum i in 1..n: i\n";
    let out = run(src, "count_to(100000)", |ev| ev.budget.max_steps = 1000);
    insta::assert_snapshot!(out);
}

/// A range too large for the resident bound is refused before it is built (a quantifier walks a
/// range without building it; `size` builds it).
#[test]
#[cfg(target_os = "linux")]
fn resident_memory_budget() {
    let src = "def count_to(n: Int) -> Int = size(1..n)\n";
    let out = run(src, "count_to(3000000)", |ev| {
        ev.budget.max_resident_bytes = 1 << 20
    });
    insta::assert_snapshot!(out);
}

#[test]
fn depth_budget() {
    let src = "def down(n: Int) -> Int = if n == 0 then 0 else down(n - 1) + 1\n";
    let out = run(src, "down(1000000)", |ev| ev.budget.max_depth = 5000);
    insta::assert_snapshot!(out);
}

#[test]
fn runtime_index_error() {
    let out = run("def s = [10, 20, 30]\n", "s[4]", |_| {});
    insta::assert_snapshot!(out);
}

#[test]
fn deep_recursion_does_not_overflow() {
    // 200,000 nested calls run on a stack grown on the heap
    let src = "def down(n: Int) -> Int = if n == 0 then 0 else down(n - 1) + 1\n";
    let out = run(src, "down(200000)", |ev| ev.budget.max_depth = 300_000);
    assert_eq!(out, "value 200000");
}

#[test]
fn deeply_nested_parentheses_are_refused() {
    let src = format!("def f = {}1{}\n", "(".repeat(200_000), ")".repeat(200_000));
    let out = check(&src);
    assert!(out.contains("E0007"), "{}", &out[..out.len().min(400)]);
}

#[test]
fn deeply_nested_lets_are_refused() {
    let src = format!("def f = {}0\n", "let a = 1 in ".repeat(100_000));
    let out = check(&src);
    assert!(out.contains("E0007"), "{}", &out[..out.len().min(400)]);
}

#[test]
fn moderately_nested_expression_parses() {
    let src = format!("def f = {}1{}\n", "(".repeat(1500), ")".repeat(1500));
    assert_eq!(check(&src), "OK");
}

#[test]
fn empty_file() {
    insta::assert_snapshot!(check(""));
}
