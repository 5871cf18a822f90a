//! Perfect-play values of small boards.
//!
//! Game: Black first, colours alternate, a pass is a move and two consecutive passes end the
//! game. The rules' repetition rule: positional superko (a stone may not recreate any earlier
//! board), situational superko (nor an earlier board with the same player to move), or simple
//! ko (nor the board before the opponent's last move; a move or a pass that brings back an
//! earlier situation, board and player to move, ends the game with an even score, as
//! rules/go_play.rule states); a pass is always allowed. Suicide as in the rules (normally
//! forbidden). The final board is scored by the rules' scoring: area (stones and the empty
//! regions bordered by one colour) or stones only.
//!
//! The value is from Black's view: **Black's score minus White's, minus komi** (komi is added
//! to White). Values are kept in half points internally so that half-integer komi is exact.
//!
//! Search ([`search`]): the value is found by tests "is the value at least t?" that bisect the
//! possible values; each test searches deeper and deeper (1, 25, 49, ... plies: see
//! [`DEPTH_STEP`]) until the answer is proved, so that a proof is found before a long line is
//! followed to its end (a game under superko can be very long). A position past the depth, or one whose static
//! bounds do not decide the test, is unknown; a proved answer carries a bound. Static bounds
//! come from Benson's unconditional life ([`super::benson`]): whatever the history, each side
//! can pass to the end of the game and keep its unconditionally alive stones and their eyes. A
//! transposition table ([`table`]) keyed by the least image of a position under the graph's
//! symmetries ([`super::symmetry`]) keeps proved bounds, the depth an answer stayed unknown
//! at, and the move that proved (or was tried first); moves are ordered by the table's move,
//! captures, killer moves and a history of the moves that proved.
//!
//! The history problem (a position's value depends on the boards before it, which the repetition
//! rule forbids): a bound is stored with a summary of the boards its proof chose for the prover
//! and only when the proof used no board of the position's history; it is reused only where no
//! board of the path fits the summary. [`table`] states why that is sound.

mod search;
mod table;

use super::board::{Board, Color};
use super::error::{GoError, GoResult};
use super::graph::Graph;
use super::rules::{Move, Passes, Repetition, Rules, Scoring, Suicide};
use super::small::{SmallBoard, SmallGraph};
use super::symmetry::{symmetries, Symmetry};
use search::{Child, Game, Node, Rep, Res, Search, NO_BOARD};
use std::collections::HashSet;
use std::time::{Duration, Instant};
use table::{Table, PASS};

/// Why a search stopped before it proved the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The node budget was spent.
    Nodes,
    /// The time budget was spent.
    Time,
}

/// What a running search reports now and then.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Positions visited so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The value proved so far lies in `lower..=upper` (Black's view, half points; beyond
    /// `i64::MAX / 8` in size: nothing proved yet on that side).
    pub lower_half_points: i64,
    pub upper_half_points: i64,
    /// The running test: is the value at least this (for the player to move at the root; for
    /// White, at most its negative)?
    pub testing_half_points: i64,
    /// The depth of the running iteration of that test.
    pub depth: u32,
    /// Positions in the transposition table.
    pub table_entries: usize,
}

/// How a search runs: its budgets and which of its parts are on.
#[derive(Clone, Copy, Debug)]
pub struct SolveOptions {
    /// Positions the search may visit.
    pub node_limit: u64,
    /// Time the search may take.
    pub time_limit: Option<Duration>,
    /// Bytes of the transposition table (0: none).
    pub table_bytes: usize,
    /// Positions stored once for all their images under the graph's symmetries.
    pub symmetry: bool,
    /// Benson's bounds.
    pub static_bounds: bool,
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            node_limit: u64::MAX,
            time_limit: None,
            table_bytes: 32 << 20,
            symmetry: true,
            static_bounds: true,
        }
    }
}

impl SolveOptions {
    /// The plain game tree: no table, no symmetry, no static bounds (slow; it checks the rest).
    pub fn plain(node_limit: u64) -> SolveOptions {
        SolveOptions {
            node_limit,
            table_bytes: 0,
            symmetry: false,
            static_bounds: false,
            ..SolveOptions::default()
        }
    }
}

/// Outcome of [`solve`].
#[derive(Clone, Debug, PartialEq)]
pub struct SolveResult {
    /// Black minus White minus komi, in half points (exact when `complete`).
    pub value_half_points: i64,
    /// The same value in points.
    pub value: f64,
    /// A principal variation: a game in which both sides play perfectly (ends with two
    /// passes, or with a recurring situation under simple ko, when complete).
    pub pv: Vec<(Color, Move)>,
    /// Positions visited (including the principal-variation extraction).
    pub nodes: u64,
    /// False when a budget stopped the search before it proved the value (the value is then
    /// meaningless; `lower_half_points..=upper_half_points` is what was proved).
    pub complete: bool,
    /// Transposition-table results reused.
    pub tt_hits: u64,
    /// Results stored in the table.
    pub tt_stores: u64,
    /// Results not stored because their proof used a board of the position's history.
    pub tt_history_dependent: u64,
    /// Stored results not reused because a board of the path might change their proof.
    pub tt_conflicts: u64,
    /// The budget that stopped the search, if one did.
    pub stopped: Option<Stop>,
    /// What was proved about the value (Black's view, half points): exact when complete.
    pub lower_half_points: i64,
    pub upper_half_points: i64,
    /// Time of the whole solve, principal variation included.
    pub elapsed: Duration,
    /// Symmetries of the graph the table folds.
    pub symmetries: usize,
    /// Positions in the table at the end, and its size in bytes.
    pub table_entries: usize,
    pub table_bytes: usize,
}

/// Solves the game on a small graph (at most 64 vertices) under `rules`, which must have
/// explicit passes. Stops after `node_limit` positions.
pub fn solve(g: &Graph, rules: &Rules, node_limit: u64) -> GoResult<SolveResult> {
    solve_with(g, rules, node_limit, true)
}

/// As [`solve`]; `transposition_table = false` searches the plain game tree (no table, no
/// symmetry, no static bounds: slow; used to check the rest).
pub fn solve_with(
    g: &Graph,
    rules: &Rules,
    node_limit: u64,
    transposition_table: bool,
) -> GoResult<SolveResult> {
    solve_position(
        g,
        rules,
        &[Board::empty()],
        Color::Black,
        node_limit,
        transposition_table,
    )
}

/// Solves from a position given by its history: `history` lists the earlier boards and ends
/// with the current one (a single board for a fresh start; under positional superko no board
/// repeats). `to_move` plays next; the players alternated before. The value is still Black minus
/// White minus komi.
pub fn solve_position(
    g: &Graph,
    rules: &Rules,
    history: &[Board],
    to_move: Color,
    node_limit: u64,
    transposition_table: bool,
) -> GoResult<SolveResult> {
    let opts = if transposition_table {
        SolveOptions {
            node_limit,
            ..SolveOptions::default()
        }
    } else {
        SolveOptions::plain(node_limit)
    };
    solve_from(g, rules, history, to_move, &opts, &mut |_| {})
}

/// The rules of a shipped reading of rules/go_play.rule's `solve` (and go.rule's `suicide`), with
/// komi 0: `area` (area scoring, positional superko), `base` (stones only, positional superko),
/// `situational`, `simple-ko` and `suicide` (stones only, as base but for the one rule each
/// changes); two passes end the game in all of them.
pub fn rules_of_reading(name: &str) -> Option<Rules> {
    let base = Rules {
        passes: Passes::Explicit,
        ..Rules::seed()
    };
    Some(match name {
        "area" => Rules::area(),
        "base" => base,
        "situational" => Rules {
            repetition: Repetition::SituationalSuperko,
            ..base
        },
        "simple-ko" => Rules {
            repetition: Repetition::SimpleKo,
            ..base
        },
        "suicide" => Rules {
            suicide: Suicide::Allowed,
            ..base
        },
        _ => return None,
    })
}

/// The search's game for `rules`, or why the solver does not play it.
fn game_of(rules: &Rules, static_bounds: bool) -> GoResult<Game> {
    if rules.passes != Passes::Explicit {
        return Err(GoError::new(
            "the solver plays with alternating turns and explicit passes (two end the game)",
            "use the \"area\" preset or rules with explicit passes",
        ));
    }
    let rep = match rules.repetition {
        Repetition::PositionalSuperko => Rep::Positional,
        Repetition::SituationalSuperko => Rep::Situational,
        Repetition::SimpleKo => Rep::SimpleKo,
        Repetition::None => {
            return Err(GoError::new(
                "without a repetition rule a game can go on for ever, and the solver has no value for it",
                "use positional or situational superko, or simple ko (whose cycles end the game)",
            ))
        }
    };
    if rules.komi_half_points.abs() > 1 << 30 {
        return Err(GoError::new(
            "the komi is too large for the solver",
            "give a komi of at most 500 million points either way",
        ));
    }
    Ok(Game {
        area: rules.scoring == Scoring::Area,
        rep,
        allow_suicide: rules.suicide == Suicide::Allowed,
        komi_half: rules.komi_half_points,
        static_bounds,
    })
}

/// As [`solve_position`] with the budgets and parts of `opts`, and `progress` called about four
/// times a second while the search runs.
pub fn solve_from(
    g: &Graph,
    rules: &Rules,
    history: &[Board],
    to_move: Color,
    opts: &SolveOptions,
    progress: &mut dyn FnMut(&Progress),
) -> GoResult<SolveResult> {
    let start = Instant::now();
    let game = game_of(rules, opts.static_bounds)?;
    let sg = SmallGraph::new(g)?;
    let boards: Vec<SmallBoard> = history.iter().map(SmallGraph::from_board).collect();
    for &b in &boards {
        if b.0 & b.1 != 0 || (b.0 | b.1) & !sg.full != 0 || !sg.is_board(b) {
            return Err(GoError::new(
                "a history configuration is not a board of the graph",
                "give configurations where every chain has a liberty",
            ));
        }
    }
    let Some(&current) = boards.last() else {
        return Err(GoError::new(
            "empty history",
            "the history must contain at least the current board",
        ));
    };
    if game.rep == Rep::Positional && boards.iter().collect::<HashSet<_>>().len() != boards.len() {
        return Err(GoError::new(
            "the history repeats a board",
            "under positional superko earlier boards are pairwise distinct",
        ));
    }
    let table = Table::new(opts.table_bytes).map_err(|m| {
        GoError::new(
            m,
            "give the table less memory (okite go solve --hash-mb), or free some",
        )
    })?;
    let syms: Vec<Symmetry> = if opts.symmetry && !table.is_empty() {
        symmetries(&sg)
    } else {
        vec![Symmetry::new((0..sg.n).collect())]
    };
    let nsyms = syms.len();
    let mut s = Search::new(&sg, game, syms, table, progress);
    s.node_limit = opts.node_limit;
    s.deadline = opts.time_limit.map(|d| start + d);
    // the players alternated before: the last board has `to_move` to play
    let white_last = to_move == Color::White;
    let len = boards.len();
    for (i, &b) in boards.iter().enumerate() {
        let white = white_last ^ ((len - 1 - i) % 2 == 1);
        s.push(b, white);
    }
    let root = Node {
        b: current,
        white: white_last,
        prev_pass: false,
        ko: if game.rep == Rep::SimpleKo && len >= 2 {
            boards[len - 2]
        } else {
            NO_BOARD
        },
    };
    let value = root_value(&mut s, &root);
    let complete = s.stop.is_none();
    let mut pv = Vec::new();
    if complete {
        pv = principal_variation(&mut s, &root, value);
    }
    let (lower, upper) = if white_last {
        (-s.root_hi, -s.root_lo)
    } else {
        (s.root_lo, s.root_hi)
    };
    let value_black = if to_move == Color::Black {
        value
    } else {
        -value
    };
    Ok(SolveResult {
        value_half_points: value_black,
        value: value_black as f64 / 2.0,
        pv,
        nodes: s.nodes,
        complete,
        tt_hits: s.stats.hits,
        tt_stores: s.stats.stores,
        tt_history_dependent: s.stats.dependent,
        tt_conflicts: s.stats.conflicts,
        stopped: s.stop,
        lower_half_points: lower,
        upper_half_points: upper,
        elapsed: start.elapsed(),
        symmetries: nsyms,
        table_entries: s.table.used,
        table_bytes: s.table.bytes(),
    })
}

/// The depths of the iterations: 1, then 24 plies more each time. A test is cheap at a depth
/// where its proof fits (the proofs cut the search) and far dearer a few plies short of it
/// (nearly every answer unknown, nothing cut), and dearer again well past it (a poor first
/// move is followed further); steps of one ply pay for every depth short of the proof. On the
/// boards measured (docs/PERFORMANCE.md) the tests of the empty 4 x 4 board are decided at 21
/// to 25 plies; 3 x 3, 3 x 4, 2 x 5 and 2 x 6 within 25 too.
pub const FIRST_DEPTH: u32 = 1;
pub const DEPTH_STEP: u32 = 24;

/// Answers a test by searching deeper and deeper (see [`DEPTH_STEP`]) until one depth decides;
/// `None` when a budget stops it.
fn deepen(s: &mut Search<'_>, mut test: impl FnMut(&mut Search<'_>, u32) -> Res) -> Option<Res> {
    let mut d = FIRST_DEPTH;
    loop {
        s.depth = d;
        let r = test(s, d);
        if s.stop.is_some() {
            return None;
        }
        if !matches!(r, Res::Unknown) {
            return Some(r);
        }
        d += DEPTH_STEP;
    }
}

/// Whether the value of `nd` (the last situation of the path) for the player to move is at
/// least `t`, with the bound proved.
fn prove(s: &mut Search<'_>, nd: &Node, t: i64) -> Option<Res> {
    deepen(s, |s, d| s.dls(nd, t, d))
}

/// The exact value of the root for the player to move, by tests ("is the value at least t?")
/// that bisect the possible values; `s.root_lo`/`root_hi` keep what is proved (in the root
/// player's view while it runs).
fn root_value(s: &mut Search<'_>, root: &Node) -> i64 {
    let n = s.sg.n as i64;
    let k = s.game.komi_half;
    let sign = if root.white { -1 } else { 1 };
    let mut values: Vec<i64> = (-n..=n).map(|d| sign * (2 * d - k)).collect();
    values.sort_unstable();
    let (lo_b, hi_b) = s.static_bounds_black(root.b);
    let (lo_s, hi_s) = if root.white {
        (-hi_b, -lo_b)
    } else {
        (lo_b, hi_b)
    };
    s.root_lo = lo_s.max(values[0]);
    s.root_hi = hi_s.min(values[values.len() - 1]);
    s.root_white = root.white;
    loop {
        let (lo, hi) = (s.root_lo, s.root_hi);
        let inside: Vec<i64> = values
            .iter()
            .copied()
            .filter(|&v| v >= lo && v <= hi)
            .collect();
        if inside.len() <= 1 {
            break;
        }
        // the upper middle: a test of "at least t" for some t above what is proved
        let t = inside[inside.len() / 2];
        s.testing = t;
        let r = prove(s, root, t);
        match r {
            None => break,
            Some(Res::Yes(v, _)) => s.root_lo = v.max(t),
            Some(Res::No(v, _)) => s.root_hi = v.min(t - 1),
            Some(Res::Unknown) => break,
        }
    }
    let v = values
        .iter()
        .copied()
        .find(|&v| v >= s.root_lo && v <= s.root_hi)
        .unwrap_or(s.root_lo);
    if s.stop.is_none() {
        s.root_lo = v;
        s.root_hi = v;
    }
    v
}

/// Whether a move at `nd` keeps the value `value` of `nd` for the player to move there: its
/// value is at least `value` (and so equal to it, the position's value being the best of its
/// moves').
fn keeps(s: &mut Search<'_>, nd: &Node, ch: &Child, value: i64) -> Option<bool> {
    match deepen(s, |s, d| s.child_res(nd, ch, value, d))? {
        Res::Yes(..) => Some(true),
        _ => Some(false),
    }
}

/// Follows moves that keep the value: at each position the first move (in the search's order)
/// whose exact value equals the position's value, to the end of the game.
fn principal_variation(s: &mut Search<'_>, root: &Node, value: i64) -> Vec<(Color, Move)> {
    let mut pv = Vec::new();
    let mut nd = *root;
    let mut value = value;
    let mut pushed = 0;
    let mut kids: Vec<Child> = Vec::new();
    'line: for _ in 0..10_000 {
        let color = if nd.white { Color::White } else { Color::Black };
        let hint = s.hint(&nd);
        s.children(&nd, hint, &mut kids);
        if nd.prev_pass {
            kids.insert(
                0,
                Child {
                    mv: PASS,
                    nb: nd.b,
                    score: 0,
                    cycle: u32::MAX,
                },
            );
        }
        let mut found = None;
        for ch in kids.iter() {
            match keeps(s, &nd, ch, value) {
                None => break 'line,
                Some(true) => {
                    found = Some(*ch);
                    break;
                }
                Some(false) => {}
            }
        }
        let Some(ch) = found else {
            break;
        };
        let mv = if ch.mv == PASS {
            Move::Pass
        } else {
            Move::Place(ch.mv as usize)
        };
        pv.push((color, mv));
        let ends = (ch.mv == PASS && nd.prev_pass) || ch.cycle != u32::MAX;
        if ends {
            break;
        }
        s.push(ch.nb, !nd.white);
        pushed += 1;
        nd = Node {
            b: ch.nb,
            white: !nd.white,
            prev_pass: ch.mv == PASS,
            ko: nd.b,
        };
        value = -value;
    }
    for _ in 0..pushed {
        s.pop();
    }
    pv
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(spec: &str) -> f64 {
        let g = Graph::parse(spec).unwrap();
        let r = solve(&g, &Rules::area(), 50_000_000).unwrap();
        assert!(r.complete);
        r.value
    }

    #[test]
    fn published_values() {
        assert_eq!(value("grid:1x1"), 0.0);
        assert_eq!(value("grid:1x2"), 0.0);
        assert_eq!(value("grid:1x3"), 3.0);
        assert_eq!(value("grid:2x2"), 1.0);
    }

    #[test]
    fn linear_go_exercises() {
        // Positional linear Go on 1x5, X to move, values for X. For `x.o..` a published answer
        // gives 0 (X4 O2 X1 O2); here White answers X4 with O5, capturing: X cannot retake
        // (superko) nor play 2 (suicide), and White then fills 4 and wins every point.
        let g = Graph::grid(1, 5).unwrap();
        for (pos, want) in [
            ("x.o..", -5.0),
            ("o.x..", 5.0),
            ("x..o.", -5.0),
            ("o..x.", 5.0),
            ("o....", 5.0),
            (".o...", 0.0),
            ("..o..", 0.0),
        ] {
            let vals: Vec<i8> = pos
                .chars()
                .map(|ch| match ch {
                    'x' => -1,
                    'o' => 1,
                    _ => 0,
                })
                .collect();
            let b = Board::from_values(&vals);
            let r =
                solve_position(&g, &Rules::area(), &[b], Color::Black, 10_000_000, true).unwrap();
            assert!(r.complete);
            assert_eq!(r.value, want, "{pos}");
        }
    }

    #[test]
    fn table_matches_plain_search() {
        for spec in ["grid:1x4", "complete:3", "star:3", "path:3", "cycle:3"] {
            let g = Graph::parse(spec).unwrap();
            for komi in [-1.5, 0.0, 0.5, 2.0] {
                let rules = Rules::area().with_komi(komi).unwrap();
                let a = solve_with(&g, &rules, u64::MAX, true).unwrap();
                let b = solve_with(&g, &rules, u64::MAX, false).unwrap();
                assert_eq!(a.value, b.value, "{spec} komi {komi}");
            }
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn table_matches_plain_search_release() {
        for spec in ["grid:2x2", "cycle:4", "star:4"] {
            let g = Graph::parse(spec).unwrap();
            let a = solve_with(&g, &Rules::area(), u64::MAX, true).unwrap();
            let b = solve_with(&g, &Rules::area(), u64::MAX, false).unwrap();
            assert_eq!(a.value, b.value, "{spec}");
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn table_matches_plain_search_random_graphs() {
        // Random connected graphs on up to 5 vertices; cases where the plain search exceeds
        // its node budget are skipped.
        let mut seed = 99u64;
        let mut compared = 0;
        for _ in 0..60 {
            let mut next = || super::super::board::splitmix64(&mut seed);
            let n = 2 + (next() % 4) as usize;
            let mut edges = Vec::new();
            for v in 1..n {
                edges.push(((next() % v as u64) as usize, v));
            }
            for _ in 0..(next() % 3) {
                let (a, b) = ((next() % n as u64) as usize, (next() % n as u64) as usize);
                if a != b {
                    edges.push((a, b));
                }
            }
            let komi = (next() % 7) as f64 - 3.0 + if next() % 2 == 0 { 0.5 } else { 0.0 };
            let g = Graph::from_edges((0..n).map(|i| i.to_string()).collect(), &edges).unwrap();
            let rules = Rules::area().with_komi(komi).unwrap();
            let plain = solve_with(&g, &rules, 2_000_000, false).unwrap();
            if !plain.complete {
                continue;
            }
            let fast = solve_with(&g, &rules, u64::MAX, true).unwrap();
            assert_eq!(fast.value, plain.value, "{edges:?} komi {komi}");
            compared += 1;
        }
        assert!(compared > 20, "{compared}");
    }

    #[test]
    fn komi_and_limits() {
        let g = Graph::parse("grid:1x3").unwrap();
        let r = solve(&g, &Rules::area().with_komi(2.5).unwrap(), 1_000_000).unwrap();
        assert_eq!(r.value, 0.5);
        assert_eq!(r.pv.last().map(|m| m.1), Some(Move::Pass));
        let r = solve(&Graph::grid(3, 3).unwrap(), &Rules::area(), 10).unwrap();
        assert!(!r.complete);
        assert!(solve(&g, &Rules::seed(), 10).is_err());
    }
}
