#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark or an example, not the library: a failed unwrap stops it
//! Evaluator throughput on a recursive definition: counting monotone lattice paths in a grid by
//! tabled recursion. Prints calls per second, with and without tabling, in one run.
//!
//! cargo bench --bench eval

use okite::check::load::load_str;
use okite::eval::Evaluator;
use okite::natives::Natives;
use okite::syntax::parse_expr;
use std::time::Instant;

const SRC: &str = "\
def paths(r: Int, c: Int) -> Int = if r == 0 or c == 0 then 1 else (paths(r - 1, c) + paths(r, c - 1)) mod 1000000007
def fib(n: Int) -> Int = if n < 2 then n else fib(n - 1) + fib(n - 2)
";

fn run(query: &str, memo: bool) -> (f64, u64, String) {
    let mut prog = load_str("bench.rule", SRC, &Natives::standard()).expect("rules");
    let fid = prog.sources.add("<q>", None, query.to_string());
    let e = parse_expr(query, fid).expect("query");
    let q = prog.compile_query(&e, &[]).expect("compile");
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    ev.memoize = memo;
    let t = Instant::now();
    let v = ev.eval_query(&q).expect("value");
    let secs = t.elapsed().as_secs_f64();
    (secs, ev.stats.calls, v.to_string())
}

fn main() {
    println!(
        "{:<28} {:>10} {:>12} {:>14}",
        "query", "seconds", "calls", "calls/second"
    );
    for (query, memo) in [
        ("paths(300, 300)", true),
        ("fib(25)", false),
        ("fib(90)", true),
    ] {
        let (secs, calls, v) = run(query, memo);
        let label = format!("{query}{}", if memo { "" } else { " (no tabling)" });
        println!(
            "{label:<28} {secs:>10.3} {calls:>12} {:>14.0}   = {v}",
            calls as f64 / secs
        );
    }
}
