#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The native engine and the rule definitions agree: the successors of random reachable
//! positions (rules/shogi.rule `succ` against the move generator), and the legal moves under each
//! reading, with the game's history (rules/shogi_mate.rule `legal` against shogi::readings).

use crate::common;

use common::rules;
use okite::check::Program;
use okite::eval::Evaluator;
use okite::ir::Value;
use okite::natives::shogi::{Lcg, Names};
use okite::natives::{Engine, NativeCtx};
use okite::shogi::position::Position;
use okite::shogi::readings::{legal_moves, Reading};
use okite::shogi::types::Move;
use okite::syntax::parse_expr;

fn eval(
    prog: &mut Program,
    text: &str,
    bound: Vec<(String, Value, String)>,
    reading: &str,
    engine: Engine,
) -> Value {
    let fid = prog.sources.add("<q>", None, text.to_string());
    let e = parse_expr(text, fid).unwrap();
    let q = prog
        .compile_query(&e, &bound)
        .unwrap_or_else(|_| panic!("{text}"));
    let r = prog.reading_id(reading).unwrap();
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(prog, &binder);
    ev.engine = engine;
    ev.set_reading(r);
    ev.eval_query(&q)
        .unwrap_or_else(|e| panic!("{}", e.diag.message))
}

/// Random games: legal playouts from the start position and from a few test positions, some of
/// them shuttling a piece back and forth so that positions repeat.
fn games(n: usize, seed: u64) -> Vec<Vec<Position>> {
    let starts = [
        "startpos",
        "7lk/9/8S/9/9/9/9/7L1/8K b P 1",
        "7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "8k/9/9/9/8R/9/9/9/4K4 w - 1",
    ];
    let mut rng = Lcg(seed);
    let mut out = vec![];
    for i in 0..n {
        let mut g = vec![Position::from_sfen(starts[i % starts.len()]).unwrap()];
        let plies = rng.below(30);
        for _ in 0..plies {
            let moves = g.last().unwrap().legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = *moves
                .iter()
                .nth(rng.below(moves.len() as u64) as usize)
                .unwrap();
            let next = g.last().unwrap().after(m);
            g.push(next);
            // now and then, undo the last two plies by repeating earlier positions' moves
            if g.len() >= 5 && rng.below(4) == 0 {
                let a = g[g.len() - 5].clone();
                let b = g[g.len() - 4].clone();
                let back: Option<Move> = g
                    .last()
                    .unwrap()
                    .legal_moves()
                    .iter()
                    .copied()
                    .find(|m| g.last().unwrap().after(*m) == g[g.len() - 3]);
                let _ = (a, b);
                if let Some(m) = back {
                    let p = g.last().unwrap().after(m);
                    g.push(p);
                }
            }
        }
        out.push(g);
    }
    out
}

#[test]
fn successors_agree_with_the_move_generator() {
    let mut prog = rules();
    let names = Names::new(&NativeCtx { enums: &prog }).unwrap();
    for g in games(12, 3) {
        let s = names.state(g.last().unwrap());
        let bound = vec![("s".to_string(), s, "State".to_string())];
        let by_rules = eval(&mut prog, "succ(s)", bound.clone(), "base", Engine::Rules);
        let native = eval(&mut prog, "succ(s)", bound, "base", Engine::Native);
        assert_eq!(by_rules, native, "{}", g.last().unwrap().to_sfen());
    }
}

#[test]
fn attacks_agree_with_the_engine() {
    let mut prog = rules();
    let names = Names::new(&NativeCtx { enums: &prog }).unwrap();
    for g in games(8, 5) {
        let p = g.last().unwrap();
        let s = names.state(p);
        for color in ["先手", "後手"] {
            let bound = vec![("s".to_string(), s.clone(), "State".to_string())];
            let v = eval(
                &mut prog,
                &format!("in_check(s, {color})"),
                bound,
                "base",
                Engine::Rules,
            );
            let c = if color == "先手" {
                okite::shogi::types::Color::Black
            } else {
                okite::shogi::types::Color::White
            };
            assert_eq!(
                v,
                Value::Bool(p.is_king_attacked(c)),
                "{} {color}",
                p.to_sfen()
            );
        }
    }
}

#[test]
fn legal_moves_agree_under_every_reading() {
    let mut prog = rules();
    let names = Names::new(&NativeCtx { enums: &prog }).unwrap();
    let mut checked = 0;
    for g in games(10, 11) {
        let last = g.last().unwrap().clone();
        let states: Vec<Value> = g.iter().map(|p| names.state(p)).collect();
        let n = states.len() as i64;
        for (name, reading) in [
            ("narrow", Reading::NARROW),
            ("broad", Reading::BROAD),
            ("narrow-check", Reading::NARROW_CHECK),
            ("broad-check", Reading::BROAD_CHECK),
        ] {
            let bound = vec![
                (
                    "g".to_string(),
                    Value::seq(states.clone()),
                    "Game".to_string(),
                ),
                ("i".to_string(), Value::Int(n), "Int".to_string()),
            ];
            let Value::Set(legal) = eval(&mut prog, "legal(g, i)", bound, name, Engine::Native)
            else {
                panic!("legal(g, i) is not a set");
            };
            let mut by_rules: Vec<String> = last
                .pseudo_legal_moves()
                .into_iter()
                .filter(|m| legal.contains(&names.state(&last.after(*m))))
                .map(|m| m.to_usi())
                .collect();
            let mut native: Vec<String> = legal_moves(&g, reading)
                .iter()
                .map(|m| m.to_usi())
                .collect();
            by_rules.sort();
            native.sort();
            assert_eq!(
                by_rules,
                native,
                "{name}: {} after {} plies",
                last.to_sfen(),
                g.len() - 1
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 40);
}

#[test]
fn perpetual_check_game_under_each_reading() {
    // the checking side's fourth repetition is forbidden under broad only, natively and by the rules
    let start = "8k/9/9/9/8R/9/9/9/4K4 w - 1";
    let moves = "1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a";
    let mut g = vec![Position::from_sfen(start).unwrap()];
    for t in moves.split_whitespace() {
        let m = Move::from_usi(t).unwrap();
        let p = g.last().unwrap().after(m);
        g.push(p);
    }
    let last_move = Move::from_usi("2e1e").unwrap();
    assert!(legal_moves(&g, Reading::NARROW).contains(&last_move));
    assert!(!legal_moves(&g, Reading::BROAD).contains(&last_move));
    assert!(legal_moves(&g, Reading::NARROW_CHECK).contains(&last_move));
    assert!(!legal_moves(&g, Reading::BROAD_CHECK).contains(&last_move));
}

#[test]
fn legal_moves_agree_on_oracle_positions() {
    if !common::oracles::present() {
        return;
    }
    // positions from the nshogi legal-move examples (../shared/shogi-oracles/README.md)
    let text =
        std::fs::read_to_string(common::oracles::path("nshogi-legal-move-examples.txt")).unwrap();
    let mut prog = rules();
    let names = Names::new(&NativeCtx { enums: &prog }).unwrap();
    for sfen in text.lines().step_by(2).step_by(97).take(26) {
        let p = Position::from_sfen(sfen).unwrap();
        for (name, reading) in [
            ("narrow", Reading::NARROW),
            ("broad-check", Reading::BROAD_CHECK),
        ] {
            let bound = vec![
                (
                    "g".to_string(),
                    Value::seq(vec![names.state(&p)]),
                    "Game".to_string(),
                ),
                ("i".to_string(), Value::Int(1), "Int".to_string()),
            ];
            let Value::Set(legal) = eval(&mut prog, "legal(g, i)", bound, name, Engine::Native)
            else {
                panic!("not a set");
            };
            let mut by_rules: Vec<String> = p
                .pseudo_legal_moves()
                .into_iter()
                .filter(|m| legal.contains(&names.state(&p.after(*m))))
                .map(|m| m.to_usi())
                .collect();
            let mut native: Vec<String> = legal_moves(std::slice::from_ref(&p), reading)
                .iter()
                .map(|m| m.to_usi())
                .collect();
            by_rules.sort();
            native.sort();
            assert_eq!(by_rules, native, "{name}: {sfen}");
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, .. proptest::prelude::ProptestConfig::default() })]
    #[test]
    fn random_games_agree_under_every_reading(seed in proptest::prelude::any::<u64>()) {
        let mut prog = rules();
        let names = Names::new(&NativeCtx { enums: &prog }).unwrap();
        for g in games(2, seed) {
            let last = g.last().unwrap().clone();
            let states: Vec<Value> = g.iter().map(|p| names.state(p)).collect();
            let n = states.len() as i64;
            for (name, reading) in [("narrow", Reading::NARROW), ("broad", Reading::BROAD), ("narrow-check", Reading::NARROW_CHECK), ("broad-check", Reading::BROAD_CHECK)] {
                let bound = vec![("g".to_string(), Value::seq(states.clone()), "Game".to_string()), ("i".to_string(), Value::Int(n), "Int".to_string())];
                let Value::Set(legal) = eval(&mut prog, "legal(g, i)", bound, name, Engine::Native) else { panic!() };
                let mut by_rules: Vec<String> = last.pseudo_legal_moves().into_iter().filter(|m| legal.contains(&names.state(&last.after(*m)))).map(|m| m.to_usi()).collect();
                let mut native: Vec<String> = legal_moves(&g, reading).iter().map(|m| m.to_usi()).collect();
                by_rules.sort();
                native.sort();
                proptest::prop_assert_eq!(by_rules, native, "{}: {}", name, last.to_sfen());
            }
        }
    }
}

/// The point counts of entering kings (rules/shogi_rulesets.rule `points`, `declaration_points`,
/// `camp_pieces`) by the rules against src/shogi/impasse.rs, on random positions and on
/// positions with kings in the enemy camp.
#[test]
fn point_counts_agree_with_the_engine() {
    use okite::shogi::impasse;
    use okite::shogi::types::Color;
    let mut prog = rules();
    let names = Names::new(&NativeCtx { enums: &prog }).unwrap();
    let mut positions: Vec<Position> = games(10, 11).into_iter().flatten().step_by(7).collect();
    for sfen in [
        "9/RB2K4/+P+P+P+P+P+P+P+P1/9/9/9/9/9/4k4 b RB 1",
        "9/RB2K4/+P+P+P+P+P+P+P2/9/9/9/9/9/4k4 b R4P 1",
        "4K4/9/9/9/9/9/1+p+p+p+p+p+p+p+p/4k2br/9 w r4p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RB4G4S5Prb4n4l13p 1",
        "l2+R1+Bsnl/1+P2K4/+S+N+Pg5/9/9/9/6+p+p1/4kg1+rb/9 b G3Pn2l 1",
    ] {
        positions.push(Position::from_sfen(sfen).unwrap());
    }
    let mut seen = 0;
    for p in &positions {
        let s = names.state(p);
        for (color, c) in [("先手", Color::Black), ("後手", Color::White)] {
            let text = format!(
                "(points(s, {color}), declaration_points(s, {color}), camp_pieces(s, {color}))"
            );
            let bound = vec![("s".to_string(), s.clone(), "State".to_string())];
            let by_rules = eval(&mut prog, &text, bound.clone(), "base", Engine::Rules);
            let native = eval(&mut prog, &text, bound, "base", Engine::Native);
            let engine = Value::Tuple(
                [
                    impasse::points(p, c),
                    impasse::declaration_points(p, c),
                    impasse::camp_pieces(p, c),
                ]
                .iter()
                .map(|&n| Value::Int(i64::from(n)))
                .collect(),
            );
            assert_eq!(by_rules, engine, "{} {color}", p.to_sfen());
            assert_eq!(native, engine, "{} {color}", p.to_sfen());
            if impasse::camp_pieces(p, c) > 0 {
                seen += 1;
            }
        }
    }
    assert!(
        seen >= 5,
        "too few positions with pieces in the camp: {seen}"
    );
}
