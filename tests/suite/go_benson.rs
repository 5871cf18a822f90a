#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! Benson's unconditional life: the native code (src/go/benson.rs) against the rule definitions
//! (rules/go_benson.rule) on every board of small graphs; the claim the solver rests on (the
//! alive stones of a side that passes at every turn are never captured, its eyes never filled)
//! checked by following every move of the other side; and the static bounds against the values
//! of exhaustive search.

use crate::common;

use common::rules;
use okite::check::Program;
use okite::eval::Evaluator;
use okite::go::benson;
use okite::go::board::{Board, Color};
use okite::go::graph::Graph;
use okite::go::rules::Rules;
use okite::go::small::{SmallBoard, SmallGraph};
use okite::go::solve::{rules_of_reading, solve_from, SolveOptions};
use okite::ir::Value;
use okite::natives::go::{config_value, graph_value};
use okite::natives::Engine;
use okite::syntax::parse_expr;
use std::collections::{BTreeSet, HashSet};

fn eval(prog: &mut Program, text: &str, g: &Graph) -> Value {
    let fid = prog.sources.add("<q>", None, text.to_string());
    let e = parse_expr(text, fid).unwrap();
    let bound = vec![("G".to_string(), graph_value(g), "Graph".to_string())];
    let q = prog
        .compile_query(&e, &bound)
        .unwrap_or_else(|_| panic!("{text}"));
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(prog, &binder);
    ev.engine = Engine::Rules;
    ev.eval_query(&q)
        .unwrap_or_else(|e| panic!("{}", e.diag.message))
}

/// Every board of a graph (3^n configurations, those where every chain has a liberty).
fn boards(sg: &SmallGraph) -> Vec<SmallBoard> {
    let mut out = vec![];
    let total = 3u64.pow(sg.n as u32);
    for mut code in 0..total {
        let mut b = (0u64, 0u64);
        for v in 0..sg.n {
            match code % 3 {
                1 => b.0 |= 1 << v,
                2 => b.1 |= 1 << v,
                _ => {}
            }
            code /= 3;
        }
        if sg.is_board(b) {
            out.push(b);
        }
    }
    out
}

fn vertex_set(m: u64) -> Value {
    Value::set(
        (0..64)
            .filter(|v| m >> v & 1 != 0)
            .map(|v| Value::Int(v + 1))
            .collect::<BTreeSet<_>>(),
    )
}

fn small_graphs() -> Vec<Graph> {
    [
        "path:1",
        "path:2",
        "path:3",
        "path:4",
        "path:5",
        "cycle:3",
        "cycle:4",
        "cycle:5",
        "star:3",
        "complete:4",
        "grid:2x2",
        "grid:2x3",
    ]
    .iter()
    .map(|s| Graph::parse(s).unwrap())
    .collect()
}

/// The alive stones, the eyes and both kinds of bounds, for both colours, by the rules and
/// natively, on every board of each small graph.
#[test]
fn the_native_code_is_the_rules_definition() {
    let mut prog = rules();
    let q = |s: bool| {
        format!(
            "{{ c: (benson_alive(G, c, -1, {s}), benson_eyes(G, c, -1, {s}), benson_alive(G, c, 1, {s}), \
             benson_eyes(G, c, 1, {s}), area_bounds(G, c, {s}), stone_bounds(G, c, {s})) | c in boards(G) }}"
        )
    };
    let mut compared = 0;
    for g in small_graphs() {
        let sg = SmallGraph::new(&g).unwrap();
        for suicide in [false, true] {
            let by_rules = eval(&mut prog, &q(suicide), &g);
            let Value::Map(m) = by_rules else {
                panic!("not a map")
            };
            let all = boards(&sg);
            assert_eq!(m.inner.len(), all.len());
            for b in all {
                let (sb, sw) = benson::safe_both(&sg, b, suicide);
                let pair =
                    |(lo, hi): (i64, i64)| Value::tuple(vec![Value::Int(lo), Value::Int(hi)]);
                let native = Value::tuple(vec![
                    vertex_set(sb.alive),
                    vertex_set(sb.eyes),
                    vertex_set(sw.alive),
                    vertex_set(sw.eyes),
                    pair(benson::bounds(&sg, b, true, suicide)),
                    pair(benson::bounds(&sg, b, false, suicide)),
                ]);
                let key = config_value(&g, &SmallGraph::to_board(b));
                assert_eq!(
                    m.inner.get(&key),
                    Some(&native),
                    "{:?} {:?} suicide {suicide}",
                    g.names,
                    b
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

/// From every board (and a sample of the 3 x 3 grid's), with the owner passing at every turn and
/// the other side playing any stone, suicide forbidden or allowed (each with its own Benson) and
/// no repetition rule (which only takes moves away): no board reached lacks an alive stone or
/// has a stone on an eye. (Where suicide is allowed, the opponent can empty its own stones: the
/// board `O . X .` of path:4 is alive for Black under the first rule and not under the second.)
#[test]
fn alive_stones_survive_every_attack() {
    let mut graphs = small_graphs();
    for spec in ["path:6", "cycle:6", "grid:2x4", "grid:3x3"] {
        graphs.push(Graph::parse(spec).unwrap());
    }
    let mut checked = 0;
    for g in graphs {
        let sg = SmallGraph::new(&g).unwrap();
        let all = boards(&sg);
        let step = if g.n > 6 { 7 } else { 1 };
        for &b in all.iter().step_by(step) {
            for owner in [Color::Black, Color::White] {
                let (own, opp) = match owner {
                    Color::Black => (b.0, b.1),
                    Color::White => (b.1, b.0),
                };
                for suicide in [false, true] {
                    let safe = benson::safe(&sg, own, opp, suicide);
                    if safe.alive == 0 {
                        continue;
                    }
                    let mut seen: HashSet<SmallBoard> = HashSet::from([b]);
                    let mut todo = vec![b];
                    while let Some(x) = todo.pop() {
                        let mine = match owner {
                            Color::Black => x.0,
                            Color::White => x.1,
                        };
                        assert_eq!(
                            mine & safe.alive,
                            safe.alive,
                            "{:?} {b:?} -> {x:?}",
                            g.names
                        );
                        assert_eq!((x.0 | x.1) & safe.eyes, 0, "{:?} {b:?} -> {x:?}", g.names);
                        for v in 0..sg.n {
                            if let Some(y) = sg.play(x, v, owner.opponent(), suicide) {
                                if seen.insert(y) {
                                    todo.push(y);
                                }
                            }
                        }
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

/// On every board of small graphs, with either player to move and the board as the whole history,
/// the value by exhaustive search (the plain game tree: no table, no static bounds) lies within
/// the static bounds, under area and stones-only scoring and each repetition rule.
#[test]
fn the_bounds_hold_against_exhaustive_search() {
    let limit = if cfg!(debug_assertions) {
        20_000
    } else {
        400_000
    };
    let mut checked = 0;
    let mut informative = 0;
    for spec in [
        "path:3", "path:4", "path:5", "cycle:4", "star:3", "grid:2x2",
    ] {
        let g = Graph::parse(spec).unwrap();
        let sg = SmallGraph::new(&g).unwrap();
        for b in boards(&sg) {
            for reading in ["area", "base", "situational", "simple-ko", "suicide"] {
                let rules: Rules = rules_of_reading(reading).unwrap();
                let (lo, hi) = benson::bounds(&sg, b, reading == "area", reading == "suicide");
                for to_move in [Color::Black, Color::White] {
                    let r = solve_from(
                        &g,
                        &rules,
                        &[SmallGraph::to_board(b)],
                        to_move,
                        &SolveOptions::plain(limit),
                        &mut |_| {},
                    )
                    .unwrap();
                    if !r.complete {
                        continue;
                    }
                    let v = r.value_half_points;
                    let (lo, hi) = if reading == "simple-ko" {
                        (lo.min(0), hi.max(0))
                    } else {
                        (lo, hi)
                    };
                    assert!(
                        2 * lo <= v && v <= 2 * hi,
                        "{spec} {reading} {:?} {to_move:?}: {v} not in [{lo}, {hi}] (half points: {} .. {})",
                        SmallGraph::to_board(b).values(g.n),
                        2 * lo,
                        2 * hi
                    );
                    checked += 1;
                    if lo > -(g.n as i64) || hi < g.n as i64 {
                        informative += 1;
                    }
                }
            }
        }
    }
    assert!(
        checked > 2000 && informative > 300,
        "{checked} checked, {informative} with a bound inside the range"
    );
}

/// An empty board has no alive stones (the bounds are the whole range).
#[test]
fn nothing_is_alive_on_the_empty_board() {
    let g = Graph::parse("grid:3x3").unwrap();
    let sg = SmallGraph::new(&g).unwrap();
    assert_eq!(benson::bounds(&sg, (0, 0), true, false), (-9, 9));
    let _ = Board::empty();
}
