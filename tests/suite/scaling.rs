#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! How checking grows with the number of definitions: near-linearly, for a chain (each
//! definition calls the one before), a ring (one group of mutually recursive definitions) and a
//! fan (every definition calls the first). Quadratic steps (a walk of every definition from each
//! one, a scan of all definitions per group of keys) made 100,000 definitions take 50 s.
//!
//! Evaluating a recursion over a list of enum cells grows linearly too: each call's argument
//! is a memo key, whose hash is computed once per cell (it was the whole list's at every call:
//! 40,000 cells took 35 s).
//!
//! Ignored: they time themselves (`cargo test --release --test suite scaling -- --ignored --nocapture`).

use okite::check::load::load_str;
use okite::natives::Natives;
use std::time::{Duration, Instant};

fn chain(n: usize) -> String {
    let mut s = String::from("def d0 = 0\n");
    for i in 1..n {
        s.push_str(&format!("def d{i} = d{}\n", i - 1));
    }
    s
}

fn ring(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "def r{i}(x: Int) -> Int = if x == 0 then 0 else r{}(x - 1)\n",
                (i + 1) % n
            )
        })
        .collect()
}

fn fan(n: usize) -> String {
    let mut s = String::from("def s0 = 0\n");
    for i in 1..n {
        s.push_str(&format!("def s{i} = s0 + {i}\n"));
    }
    s
}

/// The best of three checks of `text`, which must check.
fn time_check(text: &str) -> Duration {
    let natives = Natives::standard();
    (0..3)
        .map(|_| {
            let t = Instant::now();
            assert!(load_str("scale.rule", text, &natives).is_ok());
            t.elapsed()
        })
        .min()
        .unwrap()
}

#[test]
#[ignore]
fn checking_is_near_linear_in_the_number_of_definitions() {
    for (name, make) in [
        ("chain", chain as fn(usize) -> String),
        ("ring", ring),
        ("fan", fan),
    ] {
        let small = time_check(&make(20_000));
        let large = time_check(&make(80_000));
        let ratio = large.as_secs_f64() / small.as_secs_f64();
        println!("{name}: 20,000 definitions {small:.2?}, 80,000 {large:.2?} (x{ratio:.1})");
        // four times the definitions: about four times the time when linear, sixteen when
        // quadratic
        assert!(
            ratio < 8.0,
            "{name}: x{ratio:.1} for four times the definitions"
        );
    }
}

#[test]
#[ignore]
fn a_recursion_over_a_list_is_near_linear_in_its_length() {
    use okite::eval::Evaluator;
    let rules = "enum L { nil, cons(Int, L) }\n\
                 def build(n: Int) -> L = if n == 0 then nil else cons(n, build(n - 1))\n\
                 def depth(l: L) -> Int = match l { nil => 0, cons(_, t) => 1 + depth(t) }\n";
    let time = |n: usize| {
        let mut prog =
            load_str("list.rule", rules, &Natives::standard()).unwrap_or_else(|_| panic!("checks"));
        let text = format!("depth(build({n}))");
        let fid = prog.sources.add("<query>", None, text.clone());
        let e = okite::syntax::parse_expr(&text, fid).unwrap();
        let q = prog
            .compile_query(&e, &[])
            .unwrap_or_else(|_| panic!("compiles"));
        let binder = okite::bindings::Sound::standard();
        let mut ev = Evaluator::new(&prog, &binder);
        let t = Instant::now();
        assert_eq!(ev.eval_query(&q).unwrap(), okite::ir::Value::Int(n as i64));
        t.elapsed()
    };
    let small = time(10_000);
    let large = time(40_000);
    let ratio = large.as_secs_f64() / small.as_secs_f64();
    println!("depth(build(n)): 10,000 {small:.2?}, 40,000 {large:.2?} (x{ratio:.1})");
    assert!(ratio < 8.0, "x{ratio:.1} for a list four times as long");
}
