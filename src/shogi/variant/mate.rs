//! Mate search on a board variant, the reference: the shortest forced win by checks (詰将棋's
//! convention: every move of the attacker checks or wins at once; every legal defence is
//! answered, futile interpositions included), found by iterative deepening over odd lengths with
//! a table of the lengths a position is known not to be won within. It expands every check at
//! every length, so it is slow past a few plies; the df-pn search (`dfpn`) is the one the
//! commands run, and is tested against this one.
//!
//! Under the check rule the attacker wins when the defender, in check, has no legal move; under
//! the capture rule (dobutsu) when the defender's royal piece is captured or the attacker's
//! stands unattacked on its try rows. A check there is an attack on the royal piece.

use super::movegen::{DropMate, Over};
use super::position::{VMove, VPos};
use super::spec::RoyalRule;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

/// How a search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A shortest forced win: its moves (the defender's longest resistance).
    Mate(Vec<VMove>),
    /// No forced win within the length asked.
    NoMate,
    /// The node budget ran out before the question was settled.
    Unknown,
}

/// The bounds of a search.
#[derive(Clone, Debug)]
pub struct MateLimits {
    /// The longest win looked for, in plies.
    pub max_plies: u32,
    /// Positions visited at most.
    pub max_nodes: u64,
    /// Entries of the table at most (a memory bound).
    pub max_entries: usize,
    /// The drop-mate convention.
    pub drop_mate: DropMate,
    /// When to stop, if ever.
    pub deadline: Option<std::time::Instant>,
    /// Set from outside to stop the search (a USI `stop`).
    pub stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Default for MateLimits {
    fn default() -> Self {
        MateLimits {
            max_plies: 31,
            max_nodes: 50_000_000,
            max_entries: 4_000_000,
            drop_mate: DropMate::Illegal,
            deadline: None,
            stop: None,
        }
    }
}

impl MateLimits {
    /// Has a search that has visited `nodes` positions reached its bounds? (The clock and the
    /// stop flag are read every 1,024 positions.)
    pub(super) fn exceeded(&self, nodes: u64) -> bool {
        nodes > self.max_nodes
            || (nodes.is_multiple_of(1024)
                && (self
                    .deadline
                    .is_some_and(|d| std::time::Instant::now() >= d)
                    || self
                        .stop
                        .as_ref()
                        .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))))
    }
}

/// A search's result with its cost.
#[derive(Clone, Debug)]
pub struct MateResult {
    pub outcome: MateOutcome,
    pub nodes: u64,
    /// The win found is proved the shortest.
    pub shortest: bool,
    /// For a win, no win has fewer plies (its length when `shortest`); 0 when none was found.
    pub lower_bound: u32,
}

struct Search {
    limits: MateLimits,
    nodes: u64,
    /// position key -> the most plies within which it is known not to be won
    no_win: HashMap<u64, u32>,
    attacker: usize,
    out_of_budget: bool,
}

/// The key of a position in the search's tables: board, hands and side to move.
pub(super) fn key(p: &VPos) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    p.hands.hash(&mut h);
    p.side.hash(&mut h);
    h.finish() ^ p.board_key
}

impl VPos {
    /// Does the side that just moved threaten the side to move's royal piece (check)?
    pub(super) fn threatened(&self) -> bool {
        self.in_check(self.side)
    }

    /// Is `m` a drop of a kind whose drop mate is forbidden? Such a drop that mates wins
    /// nothing: it is no move (the seeds' rule, where it is not generated) or it loses
    /// (Fairy-Stockfish's convention).
    pub(super) fn forbidden_mate_drop(&self, m: VMove) -> bool {
        m.is_drop()
            && self.t.spec.kinds[self.t.kind_of[m.face as usize] as usize].drop_mate_forbidden
    }

    /// The game is over and `winner` won it.
    pub(super) fn won_by(&self, winner: usize) -> Option<bool> {
        match self.over() {
            Some(Over::RoyalLost(s)) => Some(s != winner),
            Some(Over::Try(s)) => Some(s == winner),
            Some(Over::BothTries) => Some(false),
            None => None,
        }
    }

    /// The shortest forced win of the side to move by checks, within the limits, by the
    /// reference search.
    pub fn mate_search_reference(&mut self, limits: MateLimits) -> MateResult {
        let max_plies = limits.max_plies;
        let mut s = Search {
            limits,
            nodes: 0,
            no_win: HashMap::default(),
            attacker: self.side,
            out_of_budget: false,
        };
        let mut n = 1;
        while n <= max_plies {
            if let Some(line) = s.or_node(self, n) {
                return MateResult {
                    outcome: MateOutcome::Mate(line),
                    nodes: s.nodes,
                    shortest: true,
                    lower_bound: n,
                };
            }
            if s.out_of_budget {
                return MateResult {
                    outcome: MateOutcome::Unknown,
                    nodes: s.nodes,
                    shortest: false,
                    lower_bound: 0,
                };
            }
            n += 2;
        }
        MateResult {
            outcome: MateOutcome::NoMate,
            nodes: s.nodes,
            shortest: false,
            lower_bound: 0,
        }
    }
}

impl Search {
    fn spend(&mut self) -> bool {
        self.nodes += 1;
        if self.limits.exceeded(self.nodes) {
            self.out_of_budget = true;
        }
        !self.out_of_budget
    }

    /// Has the attacker won, with the defender to move?
    fn attacker_won(&self, p: &mut VPos) -> bool {
        if let Some(w) = p.won_by(self.attacker) {
            return w;
        }
        p.t.spec.royal == RoyalRule::Check && p.threatened() && !p.has_legal_move()
    }

    /// The attacker to move, `n` plies left (odd): a winning line, if there is one.
    fn or_node(&mut self, p: &mut VPos, n: u32) -> Option<Vec<VMove>> {
        if !self.spend() || p.over().is_some() {
            return None;
        }
        let k = key(p);
        if self.no_win.get(&k).is_some_and(|&m| m >= n) {
            return None;
        }
        let moves = p.legal_moves(self.limits.drop_mate);
        // immediate wins first, then every check
        for m in &moves {
            let u = p.do_move(*m);
            let won = self.attacker_won(p) && !p.forbidden_mate_drop(*m);
            p.undo_move(*m, u);
            if won {
                return Some(vec![*m]);
            }
        }
        if n >= 3 {
            for m in moves {
                let u = p.do_move(m);
                let line = if p.threatened() && p.over().is_none() {
                    self.and_node(p, n - 1)
                } else {
                    None
                };
                p.undo_move(m, u);
                if let Some(mut rest) = line {
                    rest.insert(0, m);
                    return Some(rest);
                }
                if self.out_of_budget {
                    return None;
                }
            }
        }
        if !self.out_of_budget && self.no_win.len() < self.limits.max_entries {
            let e = self.no_win.entry(k).or_insert(0);
            *e = (*e).max(n);
        }
        None
    }

    /// The defender to move, `n` plies left (even, at least 2), not yet lost: the longest
    /// resistance, if every defence loses.
    fn and_node(&mut self, p: &mut VPos, n: u32) -> Option<Vec<VMove>> {
        if !self.spend() {
            return None;
        }
        let moves = p.legal_moves(self.limits.drop_mate);
        if moves.is_empty() {
            return None;
        }
        let mut longest: Option<(VMove, Vec<VMove>)> = None;
        for d in moves {
            let u = p.do_move(d);
            let r = match p.won_by(self.attacker) {
                Some(false) => None,
                Some(true) => Some(vec![]),
                None => self.or_node(p, n - 1),
            };
            p.undo_move(d, u);
            match r {
                None => return None,
                Some(line) => {
                    if longest.as_ref().is_none_or(|(_, l)| line.len() > l.len()) {
                        longest = Some((d, line));
                    }
                }
            }
        }
        longest.map(|(d, mut line)| {
            line.insert(0, d);
            line
        })
    }
}
