#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark or an example, not the library: a failed unwrap stops it
//! The cost of deciding mate by the rules (rules/shogi_mate.rule, `mate(g, i)` under narrow-check)
//! against the native engine (no legal move under the same reading), on the positions reached by
//! the mating move of the first problems of the published mate-in-1 set. Both decide the same
//! positions in one run; the ratio is printed.
//!
//! cargo bench --bench mate_rules

use okite::check::load::load;
use okite::eval::Evaluator;
use okite::ir::Value;
use okite::natives::shogi::Names;
use okite::natives::{Engine, NativeCtx, Natives};
use okite::shogi::position::Position;
use okite::shogi::readings::{legal_moves, Reading};
use okite::syntax::parse_expr;
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let n: usize = std::env::var("MATE_RULES_N")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/shogi-oracles/tsume/nshogi/mate-1-ply.sfen"
    ))
    .expect("data");
    let mut games = vec![];
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(n) {
        let p = Position::from_sfen(line).expect("sfen");
        let Some(m) = okite::shogi::mate_in_1(&p) else {
            continue;
        };
        games.push(vec![p.clone(), p.after(m)]);
    }
    // native
    let t = Instant::now();
    let mut native = vec![];
    for g in &games {
        let last = g.last().unwrap();
        native.push(last.in_check() && legal_moves(g, Reading::NARROW_CHECK).is_empty());
    }
    let native_s = t.elapsed().as_secs_f64();
    // rules
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let Ok(mut prog) = load(&[dir], &Natives::standard()).program else {
        panic!("rules/ does not check")
    };
    let names = Names::new(&NativeCtx { enums: &prog }).expect("names");
    let bound_games: Vec<Value> = games
        .iter()
        .map(|g| Value::seq(g.iter().map(|p| names.state(p)).collect()))
        .collect();
    let mut queries = vec![];
    for g in &bound_games {
        let fid = prog.sources.add("<q>", None, "mate(g, 2)".into());
        let e = parse_expr("mate(g, 2)", fid).unwrap();
        queries.push(
            prog.compile_query(&e, &[("g".to_string(), g.clone(), "Game".to_string())])
                .unwrap_or_else(|_| panic!("the query does not check")),
        );
    }
    let reading = prog.reading_id("narrow-check").unwrap();
    let t = Instant::now();
    let mut by_rules = vec![];
    for q in &queries {
        let binder = okite::bindings::Sound::standard();
        let mut ev = Evaluator::new(&prog, &binder);
        ev.engine = Engine::Rules;
        ev.set_reading(reading);
        by_rules.push(ev.eval_query(q).ok() == Some(Value::Bool(true)));
    }
    let rules_s = t.elapsed().as_secs_f64();
    // the rule definitions with the successor relation, attacks and check bound to the engine
    let t = Instant::now();
    let mut hybrid = vec![];
    for q in &queries {
        let binder = okite::bindings::Sound::standard();
        let mut ev = Evaluator::new(&prog, &binder);
        ev.engine = Engine::Native;
        ev.set_reading(reading);
        hybrid.push(ev.eval_query(q).ok() == Some(Value::Bool(true)));
    }
    let hybrid_s = t.elapsed().as_secs_f64();
    assert_eq!(
        native, hybrid,
        "the rules with native natives and the engine disagree"
    );
    assert_eq!(native, by_rules, "the rules and the engine disagree");
    let mates = native.iter().filter(|b| **b).count();
    println!(
        "{} positions ({} mate): native {:.4} s; rules {:.3} s (x{:.0}); rules with native natives {:.3} s (x{:.0})",
        games.len(),
        mates,
        native_s,
        rules_s,
        rules_s / native_s,
        hybrid_s,
        hybrid_s / native_s
    );
}
