#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! rules/go.rule and rules/go_play.rule against the native Go engine: the same boards, the same
//! moves and captures, the same regular sequences and the same values, on small graphs of every
//! family and on random connected graphs; and the counting of rules/go_rulesets.rule (the dame
//! filled at the confirmation, the surrounded points) on random boards of grids.

use crate::common;

use common::rules;
use okite::check::Program;
use okite::eval::Evaluator;
use okite::go::graph::Graph;
use okite::ir::Value;
use okite::natives::go::graph_value;
use okite::natives::Engine;
use okite::syntax::parse_expr;
use proptest::prelude::*;

fn eval(
    prog: &mut Program,
    text: &str,
    g: &Graph,
    extra: Vec<(String, Value, String)>,
    reading: &str,
    engine: Engine,
) -> Value {
    let fid = prog.sources.add("<q>", None, text.to_string());
    let e = parse_expr(text, fid).unwrap();
    let mut bound = vec![("G".to_string(), graph_value(g), "Graph".to_string())];
    bound.extend(extra);
    let q = prog
        .compile_query(&e, &bound)
        .unwrap_or_else(|_| panic!("{text}"));
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(prog, &binder);
    ev.engine = engine;
    ev.set_reading(prog.reading_id(reading).unwrap());
    ev.eval_query(&q)
        .unwrap_or_else(|e| panic!("{}", e.diag.message))
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
        "complete:4",
        "star:3",
        "grid:2x2",
        "grid:2x3",
    ]
    .iter()
    .map(|s| Graph::parse(s).unwrap())
    .collect()
}

/// The number of boards of each graph, by rules/go.rule alone and by the engine, is the same.
fn same_boards(graphs: Vec<Graph>) {
    let mut prog = rules();
    for g in graphs {
        let by_rules = eval(
            &mut prog,
            "size(boards(G))",
            &g,
            vec![],
            "base",
            Engine::Rules,
        );
        let native = okite::go::count::count_boards(&g).unwrap().to_string();
        assert_eq!(by_rules.to_string(), native, "{:?}", g.names);
    }
}

#[test]
fn the_same_boards() {
    same_boards(small_graphs());
}

#[test]
fn the_same_regular_sequences() {
    let mut prog = rules();
    for spec in ["path:1", "path:2", "path:3", "cycle:3", "star:2"] {
        let g = Graph::parse(spec).unwrap();
        let by_rules = eval(
            &mut prog,
            "regular_count(G, [empty_board(G)])",
            &g,
            vec![],
            "base",
            Engine::Rules,
        );
        let native = okite::go::sequences::count_regular_sequences(&g, u128::MAX).unwrap();
        assert_eq!(by_rules, Value::Int(native as i64), "{spec}");
    }
}

#[test]
fn the_same_values_with_area_scoring() {
    let mut prog = rules();
    for spec in ["path:1", "path:2", "path:3", "star:2"] {
        let g = Graph::parse(spec).unwrap();
        let by_rules = eval(&mut prog, "solve(G)", &g, vec![], "area", Engine::Native);
        let rules = okite::go::rules::Rules::preset("area").unwrap();
        let native = okite::go::solve::solve(&g, &rules, 10_000_000).unwrap();
        assert!(native.complete);
        assert_eq!(by_rules, Value::Int(native.value_half_points / 2), "{spec}");
    }
}

/// Under every reading the native solver follows, its value is the rules' `solve` on the small
/// graphs the rules finish (simple ko only on the smallest: its cycles make the rules' recursion
/// over histories far larger; on path:3 it passes any memory this machine has).
#[test]
fn the_same_values_under_every_reading() {
    let mut prog = rules();
    for reading in okite::commands::GO_SOLVE_READINGS {
        let graphs: &[&str] = match reading {
            "simple-ko" => &["path:1", "path:2"],
            _ => &["path:1", "path:2", "path:3", "star:2"],
        };
        for spec in graphs {
            let g = Graph::parse(spec).unwrap();
            let by_rules = eval(&mut prog, "solve(G)", &g, vec![], reading, Engine::Rules);
            let rules = okite::go::solve::rules_of_reading(reading).unwrap();
            let native = okite::go::solve::solve(&g, &rules, 10_000_000).unwrap();
            assert!(native.complete);
            assert_eq!(
                by_rules,
                Value::Int(native.value_half_points / 2),
                "{reading} {spec}"
            );
        }
    }
}

/// A random connected graph: a random tree plus random extra edges.
fn graph_strategy() -> impl Strategy<Value = Graph> {
    (
        2usize..7,
        prop::collection::vec(0usize..100, 7),
        prop::collection::vec((0usize..7, 0usize..7), 0..4),
    )
        .prop_map(|(n, parents, extra)| {
            let mut edges = vec![];
            for (v, p) in parents.iter().enumerate().take(n).skip(1) {
                edges.push((p % v, v));
            }
            for (a, b) in extra {
                if a < n && b < n && a != b {
                    edges.push((a.min(b), a.max(b)));
                }
            }
            edges.sort();
            edges.dedup();
            Graph::from_edges((1..=n).map(|i| i.to_string()).collect(), &edges).unwrap()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    /// Same boards, same moves and captures: the rule bodies and the native engine agree on
    /// is_board and on the boards one move away, for random configurations.
    #[test]
    fn moves_and_captures_agree(g in graph_strategy(), seed in prop::collection::vec(-1i64..=1, 7)) {
        let mut prog = rules();
        let c = Value::map((0..g.n).map(|i| (Value::Int(i as i64 + 1), Value::Int(seed[i]))).collect());
        let extra = vec![("c".to_string(), c, "Config".to_string())];
        let r1 = eval(&mut prog, "is_board(G, c)", &g, extra.clone(), "base", Engine::Rules);
        let n1 = eval(&mut prog, "is_board(G, c)", &g, extra.clone(), "base", Engine::Native);
        prop_assert_eq!(&r1, &n1);
        if r1 == Value::Bool(true) {
            let r2 = eval(&mut prog, "next_boards(G, c)", &g, extra.clone(), "base", Engine::Rules);
            let n2 = eval(&mut prog, "next_boards(G, c)", &g, extra, "base", Engine::Native);
            prop_assert_eq!(r2, n2);
        }
    }
}

/// A random board of a grid of 2 to 4 rows and 2 to 5 columns: each vertex black, white or
/// empty, the stones without a liberty taken off (so that it is a board).
fn grid_board_strategy() -> impl Strategy<Value = (Graph, Vec<i64>)> {
    (2usize..=4, 2usize..=5, prop::collection::vec(-1i8..=1, 20)).prop_map(|(r, c, seed)| {
        let g = Graph::grid(r, c).unwrap();
        let b = okite::go::board::Board::from_values(&seed[..g.n]);
        let dead = b
            .dead_stones(&g, okite::go::board::Color::Black)
            .or(&b.dead_stones(&g, okite::go::board::Color::White));
        let values = (0..g.n)
            .map(|v| if dead.contains(v) { 0 } else { b.get(v) as i64 })
            .collect();
        (g, values)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, .. ProptestConfig::default() })]

    /// The confirmation stage's fill and the count of the surrounded points it gives, by the
    /// rules and by the natives, on random boards.
    #[test]
    fn dame_filled_and_counted_alike((g, values) in grid_board_strategy()) {
        let mut prog = rules();
        let c = Value::map(values.iter().enumerate().map(|(i, &x)| (Value::Int(i as i64 + 1), Value::Int(x))).collect());
        let extra = vec![("c".to_string(), c, "Config".to_string())];
        for q in [
            "dame_filled(G, c)",
            "empty_points(G, c, dame_filled(G, c), false)",
            "empty_points(G, c, c, false)",
            "empty_points(G, c, c, true)",
        ] {
            let r = eval(&mut prog, q, &g, extra.clone(), "base", Engine::Rules);
            let n = eval(&mut prog, q, &g, extra.clone(), "base", Engine::Native);
            prop_assert_eq!(r, n, "{}", q);
        }
    }
}

#[test]
fn the_same_ultimate_boards() {
    let mut prog = rules();
    for g in small_graphs() {
        let by_rules = eval(
            &mut prog,
            "size({ c | c in boards(G), ultimate(G, c) })",
            &g,
            vec![],
            "base",
            Engine::Rules,
        );
        let native = okite::go::ultimate::count_ultimate(&g).unwrap();
        assert_eq!(by_rules, Value::Int(native as i64), "{:?}", g.names);
    }
}

#[test]
fn outcome_classes_from_the_command_line() {
    let run = |args: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        // the classes, without the fields that say which engine answered and how (`answers`,
        // the questions the native search answered; `engine`)
        let out = String::from_utf8_lossy(&o.stdout).trim().to_string();
        let end = out
            .find(", \"answers\": ")
            .or_else(|| out.find(", \"engine\": "));
        match end {
            Some(k) => format!("{}}}", &out[..k]),
            None => out,
        }
    };
    assert_eq!(
        run(&["go", "classes", "--graph", "path:2", "--json"]),
        r#"{"classes": ["N", "N"]}"#
    );
    assert_eq!(
        run(&["go", "classes", "--graph", "path:2", "--moves", "B 1", "--json"]),
        r#"{"classes": ["B", "B"]}"#
    );
    assert_eq!(
        run(&[
            "go",
            "classes",
            "--graph",
            "path:2",
            "--reading",
            "cautious",
            "--json"
        ]),
        r#"{"classes": ["P", "P"]}"#
    );
    assert!(run(&["go", "score", "--graph", "path:2", "--moves", "B 1"]).ends_with("-2"));
    // The two native searches from the command line, on a position both reach.
    let moves = ["--moves", "B 1, B 3, B 4, B 5"];
    let by = |search: &str| {
        run(&[
            "go", "classes", "--graph", "path:5", moves[0], moves[1], "--search", search, "--json",
        ])
    };
    assert_eq!(
        by("proof-numbers"),
        r#"{"classes": ["W", "W", "W", "P", "P"]}"#
    );
    assert_eq!(by("depth-first"), by("proof-numbers"));
}

/// `winner` refuses what its native refuses, by the rules alone too: a graph that is not
/// connected, a board with a colour outside -1, 0, 1 or without every vertex. Before, the rules
/// answered where the native refused, and `--verify` found nothing to compare.
#[test]
fn winner_refuses_by_the_rules_what_the_native_refuses() {
    let cases = [
        (
            "winner({1: {2}, 2: {1}, 3: {4}, 4: {3}}, {1: 0, 2: 0, 3: 0, 4: 0}, 0)",
            "connected",
        ),
        (
            "winner(path(2), {1: 5, 2: 0}, 0)",
            "-1 (black), 0 (empty) or 1",
        ),
        (
            "winner(path(3), {1: 1, 2: 0}, 0)",
            "-1 (black), 0 (empty) or 1",
        ),
    ];
    for (expr, said) in cases {
        for engine in ["rules", "native"] {
            let o = common::okite(&["eval", "--engine", engine, expr]);
            let err = String::from_utf8_lossy(&o.stderr).to_string();
            assert_eq!(o.status.code(), Some(2), "{engine} {expr}: {err}");
            if engine == "rules" {
                assert!(err.contains(said), "{expr}: {err}");
            }
        }
    }
    // a board the seed plays is answered alike
    for engine in ["rules", "native"] {
        let o = common::okite(&[
            "eval",
            "--engine",
            engine,
            "winner(path(2), {1: 1, 2: 0}, 0)",
        ]);
        assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "1", "{engine}");
    }
}

/// The slow tests (more than about 5 s each), run by .ci/run after the test command of
/// README.md: `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// Graphs of up to 9 vertices, counted by rules/go.rule alone (a few seconds each) and natively:
    /// every family from 6 to 9 vertices, the 3 x 3 grid and random connected graphs of 9 vertices.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn the_same_boards_up_to_nine_vertices() {
        let mut graphs: Vec<Graph> = [
            "grid:3x3",
            "grid:2x4",
            "path:6",
            "path:7",
            "path:8",
            "path:9",
            "cycle:6",
            "cycle:7",
            "cycle:8",
            "cycle:9",
            "star:5",
            "star:6",
            "star:7",
            "star:8",
            "complete:5",
            "complete:6",
            "complete:7",
            "complete:8",
            "complete:9",
        ]
        .iter()
        .map(|s| Graph::parse(s).unwrap())
        .collect();
        // Random connected graphs on 9 vertices: a random spanning tree plus random extra edges.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for extra in [0, 2, 5, 9] {
            let mut edges: Vec<(usize, usize)> =
                (1..9).map(|v| (next(v as u64) as usize, v)).collect();
            for _ in 0..extra {
                let (a, b) = (next(9) as usize, next(9) as usize);
                if a != b && !edges.contains(&(a, b)) && !edges.contains(&(b, a)) {
                    edges.push((a, b));
                }
            }
            let names = (1..=9).map(|v| v.to_string()).collect();
            graphs.push(Graph::from_edges(names, &edges).unwrap());
        }
        same_boards(graphs);
    }
}
