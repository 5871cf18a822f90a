//! The solver (src/go/solve.rs) against an exhaustive minimax written here from the definition
//! of `value` in rules/go_play.rule (alpha-beta over the whole game tree, no table, no static
//! knowledge), under every reading the solver follows, from the empty board and from random
//! positions with a history; and the published values of small boards with their principal
//! variations replayed by the game record of src/go/rules.rs.

use okite::go::board::{splitmix64, Board, Color};
use okite::go::graph::Graph;
use okite::go::rules::{Game, Move, Repetition, Rules, Scoring, Suicide};
use okite::go::small::{SmallBoard, SmallGraph};
use okite::go::solve::{rules_of_reading, solve, solve_from, solve_position, SolveOptions};

/// The game of rules/go_play.rule: a history of situations (board, White to move), the last one
/// current.
struct Reference<'a> {
    sg: &'a SmallGraph,
    rules: Rules,
    h: Vec<(SmallBoard, bool)>,
    nodes: u64,
    limit: u64,
}

impl Reference<'_> {
    fn score(&self, c: SmallBoard) -> i64 {
        match self.rules.scoring {
            Scoring::Area => self.sg.area_black_minus_white(c),
            Scoring::Pure => c.0.count_ones() as i64 - c.1.count_ones() as i64,
        }
    }

    /// `repeats(h, d, s)`: a stone to d is forbidden.
    fn repeats(&self, d: SmallBoard, white: bool) -> bool {
        match self.rules.repetition {
            Repetition::PositionalSuperko => self.h.iter().any(|x| x.0 == d),
            Repetition::SituationalSuperko => self.h.contains(&(d, !white)),
            Repetition::SimpleKo => self.h.len() >= 2 && self.h[self.h.len() - 2].0 == d,
            Repetition::None => false,
        }
    }

    /// `cycles(h, d, s)`: the game ends even.
    fn cycles(&self, d: SmallBoard, white: bool) -> bool {
        self.rules.repetition == Repetition::SimpleKo && self.h.contains(&(d, !white))
    }

    /// Black's score minus White's, komi left out; alpha-beta (Black maximises).
    fn value(&mut self, passes: u32, mut alpha: i64, mut beta: i64) -> Option<i64> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        let (c, white) = *self.h.last().unwrap();
        if passes >= 2 {
            return Some(self.score(c));
        }
        let color = if white { Color::White } else { Color::Black };
        let mut best = if white { i64::MAX } else { i64::MIN };
        let mut options: Vec<(SmallBoard, u32)> = (0..self.sg.n)
            .filter_map(|v| {
                self.sg
                    .play(c, v, color, self.rules.suicide == Suicide::Allowed)
            })
            .filter(|&d| !self.repeats(d, white))
            .map(|d| (d, 0))
            .collect();
        options.push((c, passes + 1));
        for (d, p) in options {
            let v = if p < 2 && self.cycles(d, white) {
                0
            } else {
                self.h.push((d, !white));
                let v = self.value(p, alpha, beta);
                self.h.pop();
                v?
            };
            if white {
                best = best.min(v);
                beta = beta.min(v);
            } else {
                best = best.max(v);
                alpha = alpha.max(v);
            }
            if alpha >= beta {
                break;
            }
        }
        Some(best)
    }
}

/// The reference value in half points (Black minus White minus komi) from a history of boards
/// with alternating players, `to_move` to play at the last; `None` past `limit` positions.
fn reference(
    g: &Graph,
    rules: Rules,
    history: &[Board],
    to_move: Color,
    limit: u64,
) -> Option<i64> {
    let sg = SmallGraph::new(g).unwrap();
    let len = history.len();
    let h = history
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let white = (to_move == Color::White) ^ ((len - 1 - i) % 2 == 1);
            (SmallGraph::from_board(b), white)
        })
        .collect();
    let mut r = Reference {
        sg: &sg,
        rules,
        h,
        nodes: 0,
        limit,
    };
    let v = r.value(0, i64::MIN, i64::MAX)?;
    Some(2 * v - rules.komi_half_points)
}

/// A random history: up to `moves` random legal stones (alternating, from the empty board)
/// under the rules; the boards and the player to move.
fn random_history(g: &Graph, rules: Rules, moves: usize, seed: &mut u64) -> (Vec<Board>, Color) {
    let mut game = Game::new(g.clone(), rules);
    let mut to_move = Color::Black;
    for _ in 0..moves {
        let legal = game.legal_moves(to_move);
        if legal.is_empty() {
            break;
        }
        let v = legal[(splitmix64(seed) % legal.len() as u64) as usize];
        game.play(to_move, Move::Place(v)).unwrap();
        to_move = to_move.opponent();
    }
    (game.boards.clone(), to_move)
}

fn readings() -> Vec<(&'static str, Rules)> {
    let mut out: Vec<(&'static str, Rules)> =
        ["area", "base", "situational", "simple-ko", "suicide"]
            .iter()
            .map(|r| (*r, rules_of_reading(r).unwrap()))
            .collect();
    // combinations no shipped reading names, which the solver plays as well
    let area = Rules::area();
    out.push((
        "area + situational",
        Rules {
            repetition: Repetition::SituationalSuperko,
            ..area
        },
    ));
    out.push((
        "area + simple ko",
        Rules {
            repetition: Repetition::SimpleKo,
            ..area
        },
    ));
    out.push((
        "area + suicide",
        Rules {
            suicide: Suicide::Allowed,
            ..area
        },
    ));
    out
}

/// Every reading, small graphs of each family and random graphs, komi 0, 0.5 and -1.5, from the
/// empty board and from random positions: the solver's value is the reference's wherever the
/// reference finishes within its budget.
#[test]
fn the_solver_agrees_with_exhaustive_minimax() {
    let limit = if cfg!(debug_assertions) {
        200_000
    } else {
        3_000_000
    };
    let mut graphs: Vec<Graph> = [
        "path:1",
        "path:2",
        "path:3",
        "path:4",
        "path:5",
        "cycle:3",
        "cycle:4",
        "star:3",
        "complete:3",
        "complete:4",
        "grid:2x2",
    ]
    .iter()
    .map(|s| Graph::parse(s).unwrap())
    .collect();
    let mut seed = 0x5EED_2024u64;
    for _ in 0..6 {
        let n = 3 + (splitmix64(&mut seed) % 3) as usize;
        let mut edges: Vec<(usize, usize)> = (1..n)
            .map(|v| ((splitmix64(&mut seed) % v as u64) as usize, v))
            .collect();
        let (a, b) = (
            (splitmix64(&mut seed) % n as u64) as usize,
            (splitmix64(&mut seed) % n as u64) as usize,
        );
        if a != b && !edges.contains(&(a, b)) && !edges.contains(&(b, a)) {
            edges.push((a, b));
        }
        graphs.push(Graph::from_edges((0..n).map(|i| i.to_string()).collect(), &edges).unwrap());
    }
    let mut compared = 0;
    let mut skipped = 0;
    for (name, rules) in readings() {
        for g in &graphs {
            for (i, komi) in [0.0, 0.5, -1.5].into_iter().enumerate() {
                let rules = rules.with_komi(komi).unwrap();
                let moves = [0, 2, 4][i];
                let (history, to_move) = random_history(g, rules, moves, &mut seed);
                let Some(want) = reference(g, rules, &history, to_move, limit) else {
                    skipped += 1;
                    continue;
                };
                let got = solve_position(g, &rules, &history, to_move, u64::MAX, true).unwrap();
                assert!(got.complete);
                assert_eq!(
                    got.value_half_points,
                    want,
                    "{name}, {:?}, komi {komi}, history {:?}",
                    g.names,
                    history.iter().map(|b| b.values(g.n)).collect::<Vec<_>>()
                );
                // and without the table, symmetry and static bounds
                let plain = solve_from(
                    g,
                    &rules,
                    &history,
                    to_move,
                    &SolveOptions::plain(u64::MAX),
                    &mut |_| {},
                )
                .unwrap();
                assert_eq!(plain.value_half_points, want, "{name} plain");
                compared += 1;
            }
        }
    }
    eprintln!("{compared} positions compared, {skipped} past the reference's budget");
    assert!(compared > 150, "{compared} compared, {skipped} skipped");
}

/// Replays a principal variation under positional superko and area scoring: every move is
/// legal, the game ends with two passes, and the final area score is the value.
fn replay(g: &Graph, pv: &[(Color, Move)], value_half_points: i64) {
    let mut game = Game::new(g.clone(), Rules::area());
    for &(c, m) in pv {
        game.play(c, m).unwrap();
    }
    assert!(game.is_over(), "the line ends with two passes");
    assert_eq!(-2 * game.score(), value_half_points);
}

/// Area scoring, positional superko, komi 0: the published values of 1 x 1, 1 x 2, 1 x 3 and
/// 2 x 2 (spec/go.md section 4) and of 3 x 3 (+9: van der Werf, van den Herik and Uiterwijk,
/// "Solving Go on small boards", ICGA Journal 26(2), 2003), and the values okite's first solver
/// proved on 1 x 4, 1 x 5, 1 x 6 and 2 x 3 (docs/PERFORMANCE.md), which stay the same.
#[test]
fn published_values_of_small_boards() {
    for (spec, want) in [
        ("grid:1x1", 0.0),
        ("grid:1x2", 0.0),
        ("grid:1x3", 3.0),
        ("grid:1x4", 4.0),
        ("grid:1x5", 0.0),
        ("grid:1x6", 1.0),
        ("grid:2x2", 1.0),
        ("grid:2x3", 0.0),
        ("grid:3x3", 9.0),
    ] {
        let g = Graph::parse(spec).unwrap();
        let r = solve(&g, &Rules::area(), 50_000_000).unwrap();
        assert!(r.complete, "{spec}");
        assert_eq!(r.value, want, "{spec}");
        replay(&g, &r.pv, r.value_half_points);
    }
}

/// 4 x 4 = +2 (published by the same paper), with its principal variation replayed; about 2 s
/// and 0.3 GB in a release build (docs/PERFORMANCE.md, scripts/bench.sh).
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn four_by_four() {
    let g = Graph::parse("grid:4x4").unwrap();
    let opts = SolveOptions {
        table_bytes: 1 << 30,
        ..SolveOptions::default()
    };
    let r = solve_from(
        &g,
        &Rules::area(),
        &[Board::empty()],
        Color::Black,
        &opts,
        &mut |_| {},
    )
    .unwrap();
    assert!(r.complete);
    assert_eq!(r.value, 2.0);
    replay(&g, &r.pv, r.value_half_points);
}

fn okite(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

/// The command: `--json` gives the value, the principal variation and the positions searched;
/// every reading `--help` lists runs natively; the budgets of time and of the table's memory end
/// with a diagnostic that says what was proved.
#[test]
fn the_command_reports_and_keeps_its_budgets() {
    let o = okite(&["go", "solve", "--graph", "grid:3x3", "--json"]);
    assert_eq!(o.status.code(), Some(0));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        out.starts_with("{\"value\": 9, \"pv\": [\"Black B2\", "),
        "{out}"
    );
    let nodes: u64 = out
        .split("\"nodes\": ")
        .nth(1)
        .and_then(|r| r.split(',').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(nodes > 100, "{out}");
    let help = okite(&["go", "solve", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout).to_string();
    for reading in okite::front::GO_SOLVE_READINGS {
        assert!(help.contains(reading), "{reading} not in --help");
        let o = okite(&["go", "solve", "--graph", "grid:2x2", "--reading", reading]);
        assert_eq!(o.status.code(), Some(0), "{reading}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("under {reading}: native")), "{err}");
    }
    // a time budget too small for 4 x 4
    let o = okite(&["go", "solve", "--graph", "grid:4x4", "--time-ms", "1"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("E0605") && err.contains("time budget"),
        "{err}"
    );
    // more table than the solver takes
    let o = okite(&["go", "solve", "--graph", "grid:2x2", "--hash-mb", "70000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("E0602"));
    // no table at all still solves
    let o = okite(&["go", "solve", "--graph", "grid:2x2", "--hash-mb", "0"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().last(), Some("1"));
}
