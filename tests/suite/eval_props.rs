#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
#![allow(clippy::mutable_key_type)]
//! Properties of the evaluator: tabling changes nothing but speed; quantifiers, aggregates,
//! comprehensions and closures agree with plain Rust computations.

use okite::check::load::load_str;
use okite::diagnostics::render;
use okite::eval::Evaluator;
use okite::ir::Value;
use okite::natives::Natives;
use okite::syntax::parse_expr;
use proptest::prelude::*;
use std::collections::{BTreeMap, BTreeSet};

fn eval_with(src: &str, query: &str, memo: bool) -> Result<Value, String> {
    let mut prog = load_str("p.rule", src, &Natives::standard())
        .map_err(|(s, d)| render(&d, &s, 80, false))?;
    let fid = prog.sources.add("<q>", None, query.to_string());
    let e = parse_expr(query, fid).map_err(|d| format!("{d:?}"))?;
    let q = prog
        .compile_query(&e, &[])
        .map_err(|d| render(&d, &prog.sources, 80, false))?;
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    ev.memoize = memo;
    ev.eval_query(&q)
        .map_err(|e| render(&[*e.diag], &prog.sources, 80, false))
}

fn eval(src: &str, query: &str) -> Value {
    eval_with(src, query, true).unwrap_or_else(|e| panic!("{e}"))
}

fn set_lit(v: &[i64]) -> String {
    let items: Vec<String> = v.iter().map(|i| i.to_string()).collect();
    format!("{{{}}}", items.join(", "))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, .. ProptestConfig::default() })]

    /// Random mutually recursive definitions over small integers, with and without tabling.
    #[test]
    fn memoised_and_plain_evaluation_agree(
        a in -3i64..4, b in -3i64..4, c in 0i64..5, d in 1i64..7, k in -2i64..3, n in 0i64..12,
        ops in prop::collection::vec(0u8..4, 3)
    ) {
        let op = |i: usize| ["+", "-", "*", "mod"][ops[i] as usize];
        let src = format!(
            "def f(n: Int) -> Int = if n <= 0 then {c} else (({a} * g(n - 1)) {} (h(n - 1) + {k})) mod 1000\n\
             def g(n: Int) -> Int = if n <= 1 then {d} else (f(n - 2) {} g(n - 1)) mod 997\n\
             def h(n: Int) -> Int = if n <= 0 then 1 else (f(n - 1) {} {b} + (count i in 0..n: g(i) > 3))\n",
            op(0), op(1), op(2).replace("mod", "+"),
        );
        let q = format!("[f(i) | i in 0..{n}] ++ [g({n}), h({n})]");
        let with = eval_with(&src, &q, true);
        let without = eval_with(&src, &q, false);
        // errors (a division by zero in `mod`) must agree too
        prop_assert_eq!(with.map_err(|_| ()), without.map_err(|_| ()));
    }

    #[test]
    fn quantifiers_and_aggregates(s in prop::collection::btree_set(-20i64..20, 0..12), t in -20i64..20) {
        let v: Vec<i64> = s.iter().copied().collect();
        let src = format!("def S = {}\n", set_lit(&v));
        prop_assert_eq!(eval(&src, &format!("all x in S: x < {t}")), Value::Bool(v.iter().all(|x| *x < t)));
        prop_assert_eq!(eval(&src, &format!("any x in S: x > {t}")), Value::Bool(v.iter().any(|x| *x > t)));
        prop_assert_eq!(eval(&src, "count x in S: x mod 3 == 0"), Value::Int(v.iter().filter(|x| x.rem_euclid(3) == 0).count() as i64));
        prop_assert_eq!(eval(&src, "sum x in S: x * x"), Value::Int(v.iter().map(|x| x * x).sum()));
        prop_assert_eq!(eval(&src, "all x, y in S: x + y == y + x"), Value::Bool(true));
        prop_assert_eq!(eval(&src, &format!("count x in S, y in S: x < y and y - x <= {}", t.abs())),
            Value::Int(v.iter().flat_map(|x| v.iter().map(move |y| (x, y))).filter(|(x, y)| x < y && **y - **x <= t.abs()).count() as i64));
        if !v.is_empty() {
            prop_assert_eq!(eval(&src, "min x in S: x"), Value::Int(*v.iter().min().unwrap()));
            prop_assert_eq!(eval(&src, "max x in S: 0 - x"), Value::Int(v.iter().map(|x| -x).max().unwrap()));
        }
    }

    #[test]
    fn comprehensions(s in prop::collection::btree_set(-20i64..20, 0..12), t in -20i64..20) {
        let v: Vec<i64> = s.iter().copied().collect();
        let src = format!("def S = {}\n", set_lit(&v));
        let want: BTreeSet<Value> = v.iter().filter(|x| **x > t).map(|x| Value::Int(x * 2)).collect();
        prop_assert_eq!(eval(&src, &format!("{{ x * 2 | x in S, x > {t} }}")), Value::set(want));
        let want: BTreeSet<Value> = v.iter().filter(|x| **x <= t).map(|x| Value::Int(*x)).collect();
        prop_assert_eq!(eval(&src, &format!("{{ x in S | x <= {t} }}")), Value::set(want));
        let want: Vec<Value> = v.iter().map(|x| Value::Int(x.rem_euclid(5))).collect();
        prop_assert_eq!(eval(&src, "[x mod 5 | x in seq(S)]"), Value::seq(want));
        let want: BTreeMap<Value, Value> = v.iter().map(|x| (Value::Int(*x), Value::Int(x.abs()))).collect();
        prop_assert_eq!(eval(&src, "{ x: abs(x) | x in S }"), Value::map(want));
    }

    #[test]
    fn closure_is_reachability(edges in prop::collection::vec((0i64..10, 0i64..10), 0..25), start in 0i64..10) {
        let mut m: BTreeMap<i64, BTreeSet<i64>> = (0..10).map(|i| (i, BTreeSet::new())).collect();
        for (a, b) in &edges {
            m.get_mut(a).unwrap().insert(*b);
        }
        let lit: Vec<String> = m.iter().map(|(k, s)| {
            let v: Vec<i64> = s.iter().copied().collect();
            format!("{k}: {}", set_lit(&v))
        }).collect();
        let src = format!("def M = {{{}}}\ndef r(s: Set<Int>) -> Set<Int> = closure s by (x -> M(x))\nnative r2 = core.reachable\ndef r2(s: Set<Int>, g: Map<Int, Set<Int>>) -> Set<Int> = closure s by (x -> g(x))\n", lit.join(", "));
        // plain breadth-first search
        let mut seen = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(x) = todo.pop() {
            for y in &m[&x] {
                if seen.insert(*y) {
                    todo.push(*y);
                }
            }
        }
        let want = Value::set(seen.iter().map(|x| Value::Int(*x)).collect());
        prop_assert_eq!(eval(&src, &format!("r({{{start}}})")), want.clone());
        prop_assert_eq!(eval(&src, &format!("r2({{{start}}}, M)")), want);
    }
}

#[test]
fn readings_override_and_call_base() {
    let src = "def f(n: Int) -> Int = n + 1\n\
               def g(n: Int) -> Int = f(n) * 10\n\
               reading double { override def f(n) = base.f(n) * 2 }\n\
               reading triple extends double { override def f(n) = base.f(n) + 100 }\n\
               example \"base\" { assert g(1) == 20 }\n\
               example \"double\" reading double { assert g(1) == 40 }\n\
               example \"triple\" reading triple { assert g(1) == 1040 }\n";
    let prog = load_str("r.rule", src, &Natives::standard())
        .unwrap_or_else(|(s, d)| panic!("{}", render(&d, &s, 80, false)));
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    let outcomes = okite::eval::run::run_all(&mut ev, None);
    for o in &outcomes {
        assert!(
            o.passed(),
            "{} failed: {:?}",
            o.name,
            o.failure.as_ref().map(|d| &d.message)
        );
    }
    assert_eq!(outcomes.len(), 3);
}

#[test]
fn one_evaluator_keeps_tables_per_reading() {
    // (aggregates keep these definitions tabled: the smallest ones are evaluated directly; `k`
    // names f a second time, so that f's table is not left to g's as one only g asks)
    let src = "def f(n: Int) -> Int = count i in 0..n: true\ndef g(n: Int) -> Int = f(n) + 1\ndef h(n: Int) -> Int = sum i in 1..n: 2\ndef k(n: Int) -> Int = f(n + 1)\n\
               reading other { override def f(n) = (count i in 0..n: true) + 10 }\n";
    let mut prog = load_str("r.rule", src, &Natives::standard()).ok().unwrap();
    let fid = prog.sources.add("<q>", None, "g(1) + h(1)".into());
    let e = parse_expr("g(1) + h(1)", fid).unwrap();
    let q = prog.compile_query(&e, &[]).ok().unwrap();
    let other = prog.reading_id("other").unwrap();
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    assert_eq!(ev.eval_query(&q).unwrap(), Value::Int(5));
    ev.set_reading(other);
    assert_eq!(ev.eval_query(&q).unwrap(), Value::Int(15));
    // h does not depend on f: its entry is shared with base (2 entries for g, 1 for f each, 1 for h)
    assert_eq!(ev.memo_len(), 5);
}

const ONE: &str = "def one = 1\n";

/// Quantifiers and generators walk a range or the keys of a map where they are: the same
/// elements in the same order as the set they stand for, and a range too large to build is
/// still walked (until the quantifier is decided).
#[test]
fn ranges_and_keys_are_walked_in_order() {
    assert_eq!(
        eval(ONE, "[i | i in 3..6]"),
        eval(ONE, "[i | i in seq(3..6)]")
    );
    assert_eq!(
        eval(ONE, "[i | i in 6..3]"),
        eval(ONE, "[i | i in seq(6..3)]")
    );
    assert_eq!(
        eval(ONE, "[k | k in keys({3: 1, 1: 2, 2: 3})]"),
        eval(ONE, "[1, 2, 3]")
    );
    assert_eq!(
        eval(ONE, "any i in 1..1000000000000: i > 5"),
        Value::Bool(true)
    );
    assert_eq!(
        eval(ONE, "count x in keys({1: 1, 2: 2}): x > 1"),
        Value::Int(1)
    );
}

/// Incremental checking: a program extended input by input (as the REPL extends its program
/// with what is typed) against a fresh check of the same text.
mod incremental {
    use super::*;
    use okite::check::Program;
    use okite::syntax::parser::parse_file;

    /// Enums, readings that override and add names, an example: what the new definitions call
    /// and the readings' tables must follow.
    const BASE_ITEMS: &[(&str, &str)] = &[
        ("Colour", "enum Colour { Red, Blue }"),
        (
            "weight",
            "def weight(c: Colour) -> Int = match c { Red => 1, Blue => 2 }",
        ),
        ("scale", "def scale = 3"),
        ("twice", "def twice(n) = 2 * n"),
        (
            "deep",
            "def deep(n) = if n <= 0 then scale else deep(n - 1) + weight(Blue)",
        ),
        ("spread", "def spread(n) = count x in {1, 2, 3}: x <= n"),
        (
            "heavy",
            "reading heavy {\n    override def scale = 5\n    def extra = 7\n}",
        ),
        (
            "lighter",
            "reading lighter extends heavy {\n    override def weight(c: Colour) -> Int = 0\n}",
        ),
        ("base", "example \"base\" { assert twice(3) == 6 }"),
    ];

    /// One input of a session, as text: definitions (one or two, the second maybe calling the
    /// first back), an example, a definition given again, or one with an error.
    #[derive(Clone, Debug)]
    enum Input {
        Const(Vec<u8>),
        Fun(Vec<u8>, bool),
        Pair(u8),
        Example(u8),
        Again(u8),
        Wrong(u8),
        Enum(u8),
        Type(u8),
        Reading(u8),
    }

    fn input() -> impl Strategy<Value = Input> {
        prop_oneof![
            4 => prop::collection::vec(any::<u8>(), 0..4).prop_map(Input::Const),
            4 => (prop::collection::vec(any::<u8>(), 0..4), any::<bool>()).prop_map(|(b, c)| Input::Fun(b, c)),
            1 => any::<u8>().prop_map(Input::Pair),
            1 => any::<u8>().prop_map(Input::Example),
            1 => any::<u8>().prop_map(Input::Again),
            1 => any::<u8>().prop_map(Input::Wrong),
            1 => any::<u8>().prop_map(Input::Enum),
            1 => any::<u8>().prop_map(Input::Type),
            2 => any::<u8>().prop_map(Input::Reading),
        ]
    }

    /// A term calling what is defined so far (`names`: constants and one-parameter functions).
    fn term(pick: u8, consts: &[String], funs: &[String], arg: &str) -> String {
        let olds = [
            "scale",
            "twice(ARG)",
            "weight(Red)",
            "deep(ARG)",
            "spread(ARG)",
        ];
        match pick % 4 {
            0 if !consts.is_empty() => consts[pick as usize / 4 % consts.len()].clone(),
            1 if !funs.is_empty() => format!("{}({arg})", funs[pick as usize / 4 % funs.len()]),
            2 => olds[pick as usize / 4 % olds.len()].replace("ARG", arg),
            _ => format!("{}", pick % 7),
        }
    }

    /// The text of each input, named in order (`c3`, `f4`, ...); the names each defines.
    fn texts(inputs: &[Input]) -> Vec<(String, Vec<String>)> {
        let (mut consts, mut funs): (Vec<String>, Vec<String>) = (vec![], vec![]);
        // the enums and types declared so far, which a type may name
        let mut types: Vec<String> = vec!["Colour".into()];
        let mut readings: Vec<String> = vec![];
        let mut out = vec![];
        for (i, inp) in inputs.iter().enumerate() {
            let sum = |picks: &[u8], consts: &[String], funs: &[String], arg: &str| {
                let mut t: Vec<String> =
                    picks.iter().map(|&p| term(p, consts, funs, arg)).collect();
                t.push("1".into());
                t.join(" + ")
            };
            let (text, names) = match inp {
                Input::Const(picks) => {
                    let n = format!("c{i}");
                    let body = sum(picks, &consts, &funs, "1");
                    consts.push(n.clone());
                    (format!("def {n} = {body}"), vec![n])
                }
                Input::Fun(picks, rec) => {
                    let n = format!("f{i}");
                    let arg = if picks.len() % 2 == 0 { "n" } else { "n - 1" };
                    let body = sum(picks, &consts, &funs, arg);
                    let rec = if *rec {
                        format!(" + {n}(n - 1)")
                    } else {
                        String::new()
                    };
                    funs.push(n.clone());
                    (
                        format!("def {n}(n) = if n <= 0 then 0 else {body}{rec}"),
                        vec![n],
                    )
                }
                Input::Pair(p) => {
                    let (a, b) = (format!("g{i}"), format!("h{i}"));
                    let t = term(*p, &consts, &funs, "n");
                    let text = format!(
                        "def {a}(n) = if n <= 0 then 1 else {b}(n - 1) + {t}\ndef {b}(n) = if n <= 0 then 2 else {a}(n - 1)"
                    );
                    funs.push(a.clone());
                    funs.push(b.clone());
                    (text, vec![a, b])
                }
                Input::Example(p) => {
                    let t = term(*p, &consts, &funs, "2");
                    (format!("example \"x{i}\" {{ assert {t} == {t} }}"), vec![])
                }
                Input::Again(p) => {
                    // a constant, a function (maybe one of the base) given a new body, which
                    // may call what was defined after it, or be of another type
                    let t = term(p / 8, &consts, &funs, "n");
                    match p % 8 {
                        0 | 1 if !consts.is_empty() => {
                            let n = consts[*p as usize / 8 % consts.len()].clone();
                            (format!("def {n} = {}", p % 5), vec![n])
                        }
                        2 | 3 if !funs.is_empty() => {
                            let n = funs[*p as usize / 8 % funs.len()].clone();
                            let body = format!("if n <= 0 then {} else {t}", p % 3);
                            (format!("def {n}(n) = {body}"), vec![n])
                        }
                        4 => ("def scale = 4".to_string(), vec!["scale".to_string()]),
                        5 => (
                            format!(
                                "def deep(n) = if n <= 1 then 2 else deep(n - 2) + {}",
                                p % 4
                            ),
                            vec!["deep".to_string()],
                        ),
                        6 if !consts.is_empty() => {
                            let n = consts[*p as usize / 8 % consts.len()].clone();
                            (format!("def {n} = 1 == 1"), vec![n])
                        }
                        _ => (
                            "def twice(n) = n + n".to_string(),
                            vec!["twice".to_string()],
                        ),
                    }
                }
                Input::Enum(p) => {
                    let e = format!("E{i}");
                    types.push(e.clone());
                    match p % 4 {
                        0 => (format!("enum {e} {{ A{i}, B{i}(Int) }}"), vec![e]),
                        // a constant named as a parameter of the base, or as a definition
                        1 => (format!("enum {e} {{ n, A{i} }}"), vec![e]),
                        2 => (format!("enum {e} {{ scale }}"), vec![e]),
                        _ => {
                            let f = format!("e{i}");
                            let text = format!(
                                "enum {e} {{ A{i}, B{i} as b{i} }}\ndef {f}(n) = match (if n > 1 then A{i} else b{i}) {{ A{i} => {}, B{i} => 1 }}",
                                p % 7
                            );
                            funs.push(f.clone());
                            (text, vec![e, f])
                        }
                    }
                }
                Input::Type(p) => {
                    let t = format!("T{i}");
                    let before = types[*p as usize / 8 % types.len()].clone();
                    types.push(t.clone());
                    match p % 4 {
                        0 => (format!("type {t} = (Int, {before})"), vec![t]),
                        1 => (format!("type {t}"), vec![t]),
                        2 => (format!("type {t} = Nope{i}"), vec![t]),
                        _ => {
                            // a function of the type, shown by its name
                            let u = format!("u{i}");
                            let text =
                                format!("type {t} = Set<{before}>\ndef {u}(x: {t}) -> {t} = x");
                            (text, vec![t, u])
                        }
                    }
                }
                Input::Reading(p) => {
                    let r = format!("R{i}");
                    let last = readings.last().cloned().unwrap_or("nowhere".into());
                    let parent = match p / 16 % 5 {
                        0 => String::new(),
                        1 => " extends heavy".into(),
                        2 => " extends lighter".into(),
                        // the last reading typed, if any (else one that is not there)
                        3 => format!(" extends {last}"),
                        // two that may both override scale (an ambiguity)
                        _ => format!(" extends heavy, {last}"),
                    };
                    readings.push(r.clone());
                    let t = term(p / 4, &consts, &funs, "n");
                    let body = match p % 8 {
                        0 => format!("override def scale = {}", p % 9),
                        // a cycle through deep, which calls scale
                        1 => "override def scale = deep(1)".to_string(),
                        2 => format!("override def twice(n) = if n <= 0 then 1 else {t}"),
                        3 => format!("def only{i} = {}\n    override def scale = only{i} + 1", p % 5),
                        4 => "override def weight(c: Colour) -> Int = match c { Red => 3, Blue => scale }".to_string(),
                        5 if !funs.is_empty() => {
                            let f = &funs[*p as usize / 8 % funs.len()];
                            format!("override def {f}(n) = base.{f}(n) + 1")
                        }
                        6 => "override def scale = 1 == 1".to_string(),
                        _ => "override def nothing_here = 1".to_string(),
                    };
                    (format!("reading {r}{parent} {{\n    {body}\n}}"), vec![r])
                }
                Input::Wrong(p) => match p % 3 {
                    0 => (format!("def w{i} = no_such_name"), vec![]),
                    1 => (format!("def w{i} = 1 + (1 == 1)"), vec![]),
                    _ => (format!("def w{i}(n) = twice(n, n)"), vec![]),
                },
            };
            out.push((text, names));
        }
        out
    }

    /// What a program says of each of its names: its type, and per definition (named by reading
    /// and name) its fingerprint, its tabling and whether each reading shares it with base.
    fn summary(p: &Program) -> (BTreeMap<String, String>, BTreeMap<(String, String), String>) {
        let types = p
            .key_names
            .iter()
            .map(|(n, &k)| (n.clone(), p.signature(k)))
            .collect();
        let mut defs = BTreeMap::new();
        for (i, d) in p.defs.iter().enumerate() {
            let shares: Vec<bool> = (0..p.readings.len())
                .map(okite::ir::ReadingId::at)
                .map(|r| p.shares_base(r, okite::ir::DefId(i as u32)))
                .collect();
            defs.insert(
                (p.readings[d.reading.index()].name.clone(), d.name.clone()),
                format!(
                    "{:x} light {} recursive {} shadowed {} shares {shares:?}",
                    p.fingerprint[i], p.light[i], p.recursive[i], p.shadowed[i]
                ),
            );
        }
        (types, defs)
    }

    /// The value of `query` under each reading, or its error's text.
    fn values(p: &mut Program, query: &str) -> Vec<String> {
        let fid = p.sources.add("<q>", None, query.to_string());
        let e = parse_expr(query, fid).expect("the query parses");
        let q = match p.compile_query(&e, &[]) {
            Ok(q) => q,
            Err(ds) => {
                return vec![format!(
                    "{:?}",
                    ds.iter().map(|d| &d.message).collect::<Vec<_>>()
                )]
            }
        };
        let binder = okite::bindings::Sound::standard();
        (0..p.readings.len())
            .map(okite::ir::ReadingId::at)
            .map(|r| {
                let mut ev = Evaluator::new(p, &binder);
                ev.set_reading(r);
                match ev.eval_query(&q) {
                    Ok(v) => format!("{v}"),
                    Err(e) => e.diag.message.clone(),
                }
            })
            .collect()
    }

    /// The base's items with the inputs' in place of same-named ones (as the REPL has them),
    /// checked afresh.
    fn fresh(items: &[(String, String)]) -> Result<Program, Vec<String>> {
        let mut text = String::new();
        for (name, t) in BASE_ITEMS {
            if !items.iter().any(|(n, _)| n == name) {
                text.push_str(t);
                text.push('\n');
            }
        }
        for (_, t) in items {
            text.push_str(t);
            text.push('\n');
        }
        load_str("all.rule", &text, &Natives::standard()).map_err(|(_, ds)| {
            ds.iter()
                .filter(|d| d.is_error())
                .map(|d| d.message.clone())
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, .. ProptestConfig::default() })]
        #[test]
        fn an_extended_program_is_the_fresh_check_of_its_text(inputs in prop::collection::vec(input(), 1..14)) {
            let mut inc = fresh(&[]).expect("the base checks");
            // the accepted inputs by the name they define first (given again, one replaces it)
            let mut accepted: Vec<(String, String)> = vec![];
            let mut extended = 0;
            for (i, (text, names)) in texts(&inputs).into_iter().enumerate() {
                // each definition of the input is an item of its own (a pair is two lines)
                let items: Vec<(String, String)> = if names.len() > 1 {
                    names.iter().cloned().zip(text.lines().map(String::from)).collect()
                } else {
                    let key = names.first().cloned().unwrap_or_else(|| format!("input {i}"));
                    vec![(key, text.clone())]
                };
                let mut next = accepted.clone();
                next.retain(|(k, _)| !items.iter().any(|(n, _)| n == k));
                next.extend(items);
                let whole = fresh(&next);
                let fid = inc.sources.add(format!("<input {i}>"), None, text.clone());
                let file = parse_file(&text, fid).expect("the input parses");
                if inc.changes_in_place(&file.items) {
                    extended += 1;
                    match (inc.change_in_place(&file), &whole) {
                        (Ok(_), Ok(_)) => {}
                        (Err(ds), Err(want)) => {
                            // the REPL then shows the fresh check's errors; the in-place check
                            // stops at the first stage that fails (a fresh one types the rest too)
                            let got: Vec<String> = ds.iter().filter(|d| d.is_error()).map(|d| d.message.clone()).collect();
                            prop_assert!(!got.is_empty() && got.iter().all(|g| want.contains(g)), "the errors of {}: {:?} against {:?}", text, got, want);
                            inc = fresh(&accepted).expect("what was accepted checks");
                            continue;
                        }
                        (got, want) => prop_assert!(false, "{text}: extended {:?}, fresh {:?}", got.is_ok(), want.as_ref().err()),
                    }
                } else {
                    match whole {
                        Ok(p) => inc = p,
                        Err(_) => continue,
                    }
                }
                accepted = next;
                let mut whole = fresh(&accepted).expect("checked above");
                prop_assert_eq!(summary(&inc), summary(&whole), "after {}", text);
                let notes = |p: &Program| {
                    let mut n: Vec<String> = p.notes.iter().map(|d| d.message.clone()).collect();
                    n.sort();
                    n
                };
                prop_assert_eq!(notes(&inc), notes(&whole));
                let ex = |p: &Program| p.examples.iter().map(|e| e.name.clone()).collect::<BTreeSet<_>>();
                prop_assert_eq!(ex(&inc), ex(&whole));
                // the names the readings override, under every reading
                let q = "scale + twice(2) + weight(Blue) + deep(2) + spread(2)";
                prop_assert_eq!(values(&mut inc, q), values(&mut whole, q), "{}", q);
                for n in &names {
                    let q = if n.starts_with('c') { n.clone() } else { format!("{n}(3)") };
                    prop_assert_eq!(values(&mut inc, &q), values(&mut whole, &q), "{}", q);
                }
            }
            // a first input that adds and is right is always an extension
            let refused = match inputs[0] {
                Input::Again(_) | Input::Wrong(_) => true,
                Input::Enum(p) => p % 4 == 1 || p % 4 == 2,
                Input::Type(p) => p % 4 == 2,
                Input::Reading(p) => p / 16 % 5 >= 3 || p % 8 >= 6 || p % 8 == 5,
                _ => false,
            };
            prop_assert!(extended > 0 || refused);
        }
    }
}

/// A chain of small definitions each calling the one before twice answers in steps linear in its
/// length (past a bound of cost its links are tabled), not in two to the length.
#[test]
fn chains_of_small_definitions_answer_in_linear_steps() {
    let mut src = String::from("def p0(x) = x + 1\n");
    for i in 1..200 {
        src.push_str(&format!(
            "def p{i}(x) = p{}(x) + p{}(x) - p{}(x)\n",
            i - 1,
            i - 1,
            i / 2
        ));
    }
    let mut prog =
        load_str("p.rule", &src, &Natives::standard()).unwrap_or_else(|_| panic!("checks"));
    let fid = prog.sources.add("<q>", None, "p199(1)".to_string());
    let e = parse_expr("p199(1)", fid).unwrap();
    let q = prog.compile_query(&e, &[]).unwrap();
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    ev.budget.max_steps = 200_000;
    let v = ev
        .eval_query(&q)
        .unwrap_or_else(|e| panic!("{}", e.diag.message));
    // p_i(1) = p_{i-1}(1) + p_{i-1}(1) - p_{i/2}(1), computed here alike
    let mut p = vec![2i64];
    for i in 1..200usize {
        p.push(p[i - 1].wrapping_add(p[i - 1]).wrapping_sub(p[i / 2]));
    }
    assert_eq!(format!("{v}"), p[199].to_string());
}

/// The slow tests (more than about 5 s each), run by .ci/run after the test command of
/// README.md: `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// A definition outside any recursion whose table is never asked again stops being tabled after
    /// its trial (the table holds what it held then), a recursive one always is, and the values
    /// are the same either way.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn tables_that_never_answer_are_given_up() {
        let src = "def sq(x: Int) -> Int = sum i in 1..x: x\n\
                   def fib(n: Int) -> Int = if n < 2 then n else fib(n - 1) + fib(n - 2)\n\
                   def total(n: Int) -> Int = sum x in 1..n: sq(x)\n";
        let binder = okite::bindings::Sound::standard();
        let run = |query: &str, memo: bool| {
            let mut prog2 =
                load_str("p.rule", src, &Natives::standard()).unwrap_or_else(|_| panic!("loads"));
            let fid = prog2.sources.add("<q>", None, query.to_string());
            let e = parse_expr(query, fid).unwrap();
            let q = prog2.compile_query(&e, &[]).unwrap();
            let mut ev = Evaluator::new(&prog2, &binder);
            ev.memoize = memo;
            let v = ev.eval_query(&q).unwrap();
            (v, ev.memo_len())
        };
        // 20,000 distinct calls of `sq`: without giving up, the table would hold every one of them
        let (v, entries) = run("total(20000)", true);
        let (v2, _) = run("total(20000)", false);
        assert_eq!(v, v2);
        let n: i64 = (1..=20000i64).map(|x| x * x).sum();
        assert_eq!(v, Value::Int(n));
        assert!(entries < 10_000, "{entries} memo entries");
        // a recursive definition keeps its table: fib(60) by the definition needs it
        let (f, _) = run("fib(60)", true);
        assert_eq!(f, Value::Int(1_548_008_755_920));
    }
}
