//! Perfect-play values of small boards.
//!
//! Game: Black first, colours alternate, a pass is a move and two consecutive passes end the
//! game; positional superko (a stone move may not recreate any earlier board; a pass repeats
//! the board and is always allowed); suicide as in the rules (normally forbidden). The final
//! board is scored by the rules' scoring (area for the "area" preset).
//!
//! The value is from Black's view: **Black's score minus White's, minus komi** (komi is added
//! to White). Values are kept in half points internally so that half-integer komi is exact.
//!
//! Search: negamax with alpha-beta over the path history (needed for superko).
//!
//! Transposition table and the history problem: the result of a position depends on the
//! earlier boards only through the boards the search of its subtree tried to reach (a move to
//! an earlier board is forbidden). For every subtree the search keeps a cheap summary that
//! contains every board it tried: the stones common to all of them and their range of stone
//! counts. An entry is stored only if no earlier board on the current path (other than the
//! position's own board) fits the summary, and it is used only if the same holds for the path
//! at the time of use. Then neither path forbids any board the stored search tried, so the
//! stored search is exactly the search that would be made now, and reusing it is sound.

use super::board::{Board, Color};
use super::error::{GoError, GoResult};
use super::graph::Graph;
use super::rules::{Move, Passes, Repetition, Rules, Scoring, Suicide};
use super::small::{SmallBoard, SmallGraph};
use std::collections::{HashMap, HashSet};

/// Outcome of [`solve`].
#[derive(Clone, Debug, PartialEq)]
pub struct SolveResult {
    /// Black minus White minus komi, in half points (exact when `complete`).
    pub value_half_points: i64,
    /// The same value in points.
    pub value: f64,
    /// A principal variation: a game in which both sides play perfectly (ends with two
    /// passes when complete).
    pub pv: Vec<(Color, Move)>,
    /// Positions visited (including the principal-variation extraction).
    pub nodes: u64,
    /// False when the node limit stopped the search (the value is then meaningless).
    pub complete: bool,
    /// Transposition-table results reused.
    pub tt_hits: u64,
    /// Results stored in the table.
    pub tt_stores: u64,
    /// Results not stored because an earlier board on the path might matter.
    pub tt_history_dependent: u64,
}

/// Over-approximation of the set of boards a search tried: all contain the stones
/// `black`/`white`, and their stone counts lie in `min..=max`.
#[derive(Clone, Copy, Debug)]
struct Summary {
    black: u64,
    white: u64,
    min: u32,
    max: u32,
}

impl Summary {
    const NONE: Summary = Summary {
        black: u64::MAX,
        white: u64::MAX,
        min: u32::MAX,
        max: 0,
    };

    fn add_board(&mut self, b: SmallBoard) {
        self.black &= b.0;
        self.white &= b.1;
        let c = (b.0 | b.1).count_ones();
        self.min = self.min.min(c);
        self.max = self.max.max(c);
    }

    fn merge(&mut self, o: &Summary) {
        self.black &= o.black;
        self.white &= o.white;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    fn may_contain(&self, b: SmallBoard) -> bool {
        let c = (b.0 | b.1).count_ones();
        b.0 & self.black == self.black
            && b.1 & self.white == self.white
            && c >= self.min
            && c <= self.max
    }
}

#[derive(Clone, Copy)]
struct Entry {
    lo: i64,
    hi: i64,
    summary: Summary,
    best: u8,
}

type Key = (u64, u64, u8);

struct Search<'a> {
    sg: &'a SmallGraph,
    scoring: Scoring,
    allow_suicide: bool,
    komi_half: i64,
    path: Vec<SmallBoard>,
    on_path: HashSet<SmallBoard>,
    nodes: u64,
    limit: u64,
    aborted: bool,
    order: Vec<usize>,
    tt: HashMap<Key, Entry>,
    hints: HashMap<Key, u8>,
    tt_capacity: usize,
    stats: [u64; 3],
}

const INF: i64 = i64::MAX / 4;
const PASS: u8 = u8::MAX;

impl Search<'_> {
    /// Final score from Black's view in half points.
    fn final_value(&self, b: SmallBoard) -> i64 {
        let d = match self.scoring {
            Scoring::Area => self.sg.area_black_minus_white(b),
            Scoring::Pure => b.0.count_ones() as i64 - b.1.count_ones() as i64,
        };
        2 * d - self.komi_half
    }

    /// Exact value from the view of `c` by null-window tests (the maximum first, then
    /// bisection over the possible scores).
    fn root_value(&mut self, b: SmallBoard, c: Color) -> i64 {
        let sign = if c == Color::Black { 1 } else { -1 };
        let n = self.sg.n as i64;
        let mut values: Vec<i64> = (-n..=n).map(|d| sign * (2 * d - self.komi_half)).collect();
        values.sort_unstable();
        // Whether the value is at least values[i].
        let at_least = |s: &mut Self, i: usize| -> bool {
            let t = values[i];
            let (v, _) = s.negamax(b, c, false, t - 1, t);
            v >= t
        };
        let (mut lo, mut hi) = (0usize, values.len() - 1);
        if at_least(self, hi) {
            return values[hi];
        }
        hi -= 1;
        while lo < hi && !self.aborted {
            let mid = (lo + hi).div_ceil(2);
            if at_least(self, mid) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        values[lo]
    }

    /// Whether an earlier board on the path (before the current one) may be among the boards
    /// a search with this summary tried.
    fn path_conflicts(&self, s: &Summary) -> bool {
        let n = self.path.len();
        self.path[..n.saturating_sub(1)]
            .iter()
            .any(|&x| s.may_contain(x))
    }

    fn key(b: SmallBoard, c: Color, prev_pass: bool) -> Key {
        (b.0, b.1, (c == Color::White) as u8 | (prev_pass as u8) << 1)
    }

    /// Negamax value from the view of `c` (half points), and the summary of the boards tried.
    fn negamax(
        &mut self,
        b: SmallBoard,
        c: Color,
        prev_pass: bool,
        alpha: i64,
        beta: i64,
    ) -> (i64, Summary) {
        self.nodes += 1;
        if self.nodes > self.limit {
            self.aborted = true;
            return (0, Summary::NONE);
        }
        let sign = if c == Color::Black { 1 } else { -1 };
        let best_possible = 2 * self.sg.n as i64 - sign * self.komi_half;
        if alpha >= best_possible {
            return (best_possible, Summary::NONE);
        }
        let beta = beta.min(best_possible);
        let key = Self::key(b, c, prev_pass);
        let mut hint = self.hints.get(&key).copied();
        if let Some(e) = self.tt.get(&key).copied() {
            if (e.lo == e.hi || e.lo >= beta || e.hi <= alpha) && !self.path_conflicts(&e.summary) {
                let v = if e.lo >= beta { e.lo } else { e.hi };
                self.stats[0] += 1;
                return (v, e.summary);
            }
            hint = Some(e.best);
        }
        let mut summary = Summary::NONE;
        let mut children: Vec<(SmallBoard, u8, u32)> = Vec::with_capacity(self.order.len());
        for &v in &self.order {
            if let Some(nb) = self.sg.play(b, v, c, self.allow_suicide) {
                summary.add_board(nb);
                if !self.on_path.contains(&nb) {
                    let captured = (b.0 | b.1).count_ones() + 1 - (nb.0 | nb.1).count_ones();
                    let bonus = if hint == Some(v as u8) { 1000 } else { 0 };
                    children.push((nb, v as u8, bonus + captured));
                }
            }
        }
        children.sort_by_key(|&(_, _, p)| std::cmp::Reverse(p));
        let mut best = -INF;
        let mut best_move = PASS;
        let mut a = alpha;
        let pass_first = hint == Some(PASS);
        let mut tried_pass = false;
        let total = children.len() + 1;
        let mut ci = 0;
        for step in 0..total {
            let do_pass = if pass_first {
                step == 0
            } else {
                step == total - 1
            };
            let (val, s) = if do_pass {
                tried_pass = true;
                if prev_pass {
                    (sign * self.final_value(b), Summary::NONE)
                } else {
                    let (v, s) = self.negamax(b, c.opponent(), true, -beta, -a);
                    (-v, s)
                }
            } else {
                let (nb, _, _) = children[ci];
                ci += 1;
                self.path.push(nb);
                self.on_path.insert(nb);
                let (v, s) = self.negamax(nb, c.opponent(), false, -beta, -a);
                self.on_path.remove(&nb);
                self.path.pop();
                (-v, s)
            };
            if self.aborted {
                return (0, Summary::NONE);
            }
            summary.merge(&s);
            if val > best {
                best = val;
                best_move = if do_pass { PASS } else { children[ci - 1].1 };
                if best > a {
                    a = best;
                }
                if best >= beta {
                    break;
                }
            }
        }
        let _ = tried_pass;
        if self.tt_capacity > 0 {
            self.hints.insert(key, best_move);
        }
        let conflict = self.tt_capacity > 0 && self.path_conflicts(&summary);
        if conflict {
            self.stats[2] += 1;
        }
        if self.tt_capacity > 0 && !conflict {
            self.stats[1] += 1;
            if self.tt.len() >= self.tt_capacity {
                self.tt.clear();
            }
            let mut e = self.tt.get(&key).copied().unwrap_or(Entry {
                lo: -INF,
                hi: INF,
                summary,
                best: best_move,
            });
            // A new result replaces an old one (their summaries may differ).
            e.lo = -INF;
            e.hi = INF;
            if best <= alpha {
                e.hi = best;
            } else if best >= beta {
                e.lo = best;
            } else {
                e.lo = best;
                e.hi = best;
            }
            e.summary = summary;
            e.best = best_move;
            self.tt.insert(key, e);
        }
        if self.tt_capacity > 0 && self.hints.len() >= self.tt_capacity {
            self.hints.clear();
        }
        (best, summary)
    }
}

/// Solves the game on a small graph (at most 64 vertices) under `rules`, which must have
/// explicit passes and positional superko. Stops after `node_limit` positions.
pub fn solve(g: &Graph, rules: &Rules, node_limit: u64) -> GoResult<SolveResult> {
    solve_with(g, rules, node_limit, true)
}

/// As [`solve`]; `transposition_table = false` searches the plain game tree (slow; used to
/// check the table).
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
/// with the current one (no repeated boards; a single board for a fresh start). `to_move`
/// plays next; the value is still Black minus White minus komi.
pub fn solve_position(
    g: &Graph,
    rules: &Rules,
    history: &[Board],
    to_move: Color,
    node_limit: u64,
    transposition_table: bool,
) -> GoResult<SolveResult> {
    if rules.passes != Passes::Explicit || rules.repetition != Repetition::PositionalSuperko {
        return Err(GoError::new(
            "the solver needs explicit passes and positional superko",
            "use the \"area\" preset (optionally with another komi or scoring)",
        ));
    }
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
    let Some(&start) = boards.last() else {
        return Err(GoError::new(
            "empty history",
            "the history must contain at least the current board",
        ));
    };
    if boards.iter().collect::<HashSet<_>>().len() != boards.len() {
        return Err(GoError::new(
            "the history repeats a board",
            "under positional superko earlier boards are pairwise distinct",
        ));
    }
    // Static order: vertices of high degree first (centre before edges before corners).
    let mut order: Vec<usize> = (0..sg.n).collect();
    order.sort_by_key(|&v| std::cmp::Reverse(sg.adj[v].count_ones()));
    let mut s = Search {
        sg: &sg,
        scoring: rules.scoring,
        allow_suicide: rules.suicide == Suicide::Allowed,
        komi_half: rules.komi_half_points,
        path: Vec::new(),
        on_path: HashSet::new(),
        nodes: 0,
        limit: node_limit,
        aborted: false,
        order,
        tt: HashMap::new(),
        hints: HashMap::new(),
        tt_capacity: if transposition_table { 1 << 22 } else { 0 },
        stats: [0; 3],
    };
    for &b in &boards {
        s.path.push(b);
        s.on_path.insert(b);
    }
    let v = s.root_value(start, to_move);
    // From Black's view.
    let v = if to_move == Color::Black { v } else { -v };
    let mut pv = Vec::new();
    if !s.aborted {
        pv = principal_variation(&mut s, start, to_move, v);
    }
    Ok(SolveResult {
        value_half_points: v,
        value: v as f64 / 2.0,
        pv,
        nodes: s.nodes,
        complete: !s.aborted,
        tt_hits: s.stats[0],
        tt_stores: s.stats[1],
        tt_history_dependent: s.stats[2],
    })
}

/// Follows moves that keep the value: at each position the first move whose exact value
/// equals the position's value.
fn principal_variation(
    s: &mut Search<'_>,
    start: SmallBoard,
    to_move: Color,
    black_value: i64,
) -> Vec<(Color, Move)> {
    let mut pv = Vec::new();
    let mut b = start;
    let mut c = to_move;
    let mut prev_pass = false;
    // Value from the view of the player to move.
    let mut value = if to_move == Color::Black {
        black_value
    } else {
        -black_value
    };
    for _ in 0..1000 {
        let sign = if c == Color::Black { 1 } else { -1 };
        if prev_pass && sign * s.final_value(b) == value {
            pv.push((c, Move::Pass));
            return pv;
        }
        let mut found = None;
        let mut cands: Vec<Option<usize>> = s.order.iter().map(|&v| Some(v)).collect();
        cands.push(None);
        for m in cands {
            match m {
                Some(v) => {
                    let Some(nb) = s.sg.play(b, v, c, s.allow_suicide) else {
                        continue;
                    };
                    if s.on_path.contains(&nb) {
                        continue;
                    }
                    s.path.push(nb);
                    s.on_path.insert(nb);
                    let (w, _) = s.negamax(nb, c.opponent(), false, -value - 1, -value + 1);
                    if -w == value {
                        found = Some((Move::Place(v), nb));
                        break;
                    }
                    s.on_path.remove(&nb);
                    s.path.pop();
                }
                None => {
                    if prev_pass {
                        continue;
                    }
                    let (w, _) = s.negamax(b, c.opponent(), true, -value - 1, -value + 1);
                    if -w == value {
                        found = Some((Move::Pass, b));
                        break;
                    }
                }
            }
            if s.aborted {
                return pv;
            }
        }
        let Some((m, nb)) = found else {
            return pv;
        };
        pv.push((c, m));
        prev_pass = m == Move::Pass;
        b = nb;
        c = c.opponent();
        value = -value;
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
