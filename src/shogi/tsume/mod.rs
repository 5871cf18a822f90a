//! Mate problems (詰将棋) under a composer's convention: the checker of `tsume_within`,
//! `mated_within` and `futile` of rules/shogi_tsume.rule, and the soundness report of a problem
//! (`report`).
//!
//! The attacker is the side to move at the root; every one of its moves checks; the defender
//! answers with any legal move (narrow reading: a pawn drop that mates is illegal). The two ways
//! of counting interpositions:
//! - **strict** (seed 003's reading, `mate_in` of rules/shogi_mate.rule): every legal answer
//!   counts, futile interpositions included.
//! - **common**: an interposition is *futile* (無駄合) when the checking piece can take the
//!   interposed piece and the attacker, without that piece (it goes back to the defender's hand),
//!   still mates within the same number of plies as before the interposition; a futile
//!   interposition is not an answer, so a check whose only answers are futile interpositions
//!   mates.
//!
//! Every search is bounded by a node count and a deadline, and ends in [`Stop`].

mod board;
pub mod report;

pub use board::{Board, Interposition};
use rustc_hash::FxHashMap;
use std::time::Instant;

/// How interpositions are counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Futility {
    /// Every legal answer counts (futile interpositions included).
    Strict,
    /// Futile interpositions are not answers.
    Common,
}

/// A convention: how interpositions count, and whether another mating last move is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Convention {
    /// The reading of rules/shogi_tsume.rule that states it.
    pub name: &'static str,
    pub futility: Futility,
    /// A different mating move at the last ply (最終手余詰) is not a flaw.
    pub last_move_alternatives: bool,
    /// Another mate of the attacker in a variation of the line's length with no piece left over
    /// (変化別詰, in a 変同) is not a flaw.
    pub variation_alternatives: bool,
}

/// The conventions of rules/shogi_tsume.rule, by their readings' names.
pub const CONVENTIONS: [Convention; 5] = [
    Convention {
        name: "common",
        futility: Futility::Common,
        last_move_alternatives: true,
        variation_alternatives: true,
    },
    Convention {
        name: "common-unique-last",
        futility: Futility::Common,
        last_move_alternatives: false,
        variation_alternatives: true,
    },
    Convention {
        name: "common-unique-variations",
        futility: Futility::Common,
        last_move_alternatives: false,
        variation_alternatives: false,
    },
    Convention {
        name: "strict",
        futility: Futility::Strict,
        last_move_alternatives: true,
        variation_alternatives: true,
    },
    Convention {
        name: "strict-unique-last",
        futility: Futility::Strict,
        last_move_alternatives: false,
        variation_alternatives: true,
    },
];

/// The convention of that name.
pub fn convention(name: &str) -> Option<Convention> {
    CONVENTIONS.iter().copied().find(|c| c.name == name)
}

/// Why a search stopped before its answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Nodes(u64),
    Time(u64),
    /// More variations of the line's length than a report examines.
    Variations(usize),
}

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stop::Nodes(n) => write!(f, "the node limit of {n} was reached"),
            Stop::Time(ms) => write!(f, "the time limit of {ms} ms was reached"),
            Stop::Variations(n) => write!(
                f,
                "more than {n} variations of the line's length with no piece left over"
            ),
        }
    }
}

/// Entries of the memo before it is emptied (a cache: answers are recomputed).
const MEMO_LIMIT: usize = 4_000_000;

/// The checker: a depth-limited AND/OR search with a memo, bounded by nodes and time.
pub struct Checker {
    memo: FxHashMap<(u64, u32, u8), bool>,
    /// Positions visited so far.
    pub nodes: u64,
    max_nodes: u64,
    start: Instant,
    max_ms: u64,
}

/// Whether the defender's move `m` at `p` (in check) interposes (see [`Board::interposition`]).
pub fn interposition<B: Board>(p: &B, m: B::Move) -> Option<Interposition<B::Square>> {
    p.interposition(m)
}

impl Checker {
    /// A checker stopping after `max_nodes` positions (0: no limit) or `max_ms` milliseconds
    /// (0: no limit).
    pub fn new(max_nodes: u64, max_ms: u64) -> Checker {
        Checker {
            memo: FxHashMap::default(),
            nodes: 0,
            max_nodes,
            start: Instant::now(),
            max_ms,
        }
    }

    /// Milliseconds since the checker was made.
    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    fn tick(&mut self) -> Result<(), Stop> {
        self.nodes += 1;
        if self.max_nodes > 0 && self.nodes > self.max_nodes {
            return Err(Stop::Nodes(self.max_nodes));
        }
        if self.max_ms > 0 && self.nodes.is_multiple_of(1024) && self.elapsed_ms() > self.max_ms {
            return Err(Stop::Time(self.max_ms));
        }
        Ok(())
    }

    fn remember(&mut self, key: (u64, u32, u8), v: bool) -> bool {
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        self.memo.insert(key, v);
        v
    }

    /// `tsume_within`: the side to move at `p` mates within `n` plies, every move a check.
    pub fn tsume_within<B: Board>(&mut self, p: &B, n: u32, f: Futility) -> Result<bool, Stop> {
        if n == 0 {
            return Ok(false);
        }
        let key = (p.key(), n, 2 * (f == Futility::Common) as u8);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        self.tick()?;
        for m in p.legal_checks() {
            if self.mated_within(&p.after(m), n - 1, f)? {
                return Ok(self.remember(key, true));
            }
        }
        Ok(self.remember(key, false))
    }

    /// `mated_within`: the side to move at `p` is in check and every answer that counts leads to
    /// a mate within `d - 1` more plies (with `d` = 0 or 1: no answer may count).
    pub fn mated_within<B: Board>(&mut self, p: &B, d: u32, f: Futility) -> Result<bool, Stop> {
        if !p.in_check() {
            return Ok(false);
        }
        let key = (p.key(), d, 1 + 2 * (f == Futility::Common) as u8);
        if let Some(&v) = self.memo.get(&key) {
            return Ok(v);
        }
        self.tick()?;
        let (plain, inter): (Vec<B::Move>, Vec<B::Move>) = p
            .legal_moves()
            .into_iter()
            .partition(|&m| p.interposition(m).is_none());
        // the answers that are not interpositions count whatever the convention: first
        for &m in &plain {
            if d < 2 || !self.tsume_within(&p.after(m), d - 1, f)? {
                return Ok(self.remember(key, false));
            }
        }
        let counted = match f {
            Futility::Strict => inter,
            Futility::Common => self.counted_interpositions(p, &inter, !plain.is_empty(), d)?,
        };
        for m in counted {
            if d < 2 || !self.tsume_within(&p.after(m), d - 1, f)? {
                return Ok(self.remember(key, false));
            }
        }
        Ok(self.remember(key, true))
    }

    /// The interpositions `inter` at `p` that count under the common convention, `d` plies left:
    /// those that are not futile, where some answer counts; where every answer is futile, none
    /// if every one is futile with no plies left (the check mates as it stands), else all (the
    /// interpositions then change the result: the mate is no longer what it was without them).
    fn counted_interpositions<B: Board>(
        &mut self,
        p: &B,
        inter: &[B::Move],
        others: bool,
        d: u32,
    ) -> Result<Vec<B::Move>, Stop> {
        let mut kept = vec![];
        for &m in inter {
            if !self.futile(p, m, d)? {
                kept.push(m);
            }
        }
        if others || !kept.is_empty() || d == 0 {
            return Ok(kept);
        }
        for &m in inter {
            if !self.futile(p, m, 0)? {
                return Ok(inter.to_vec());
            }
        }
        Ok(vec![])
    }

    /// The answers at `p` (in check, `d` plies left counting the answer) that count under `f`.
    pub fn answers<B: Board>(&mut self, p: &B, d: u32, f: Futility) -> Result<Vec<B::Move>, Stop> {
        let (mut plain, inter): (Vec<B::Move>, Vec<B::Move>) = p
            .legal_moves()
            .into_iter()
            .partition(|&m| p.interposition(m).is_none());
        let counted = match f {
            Futility::Strict => inter,
            Futility::Common => self.counted_interpositions(p, &inter, !plain.is_empty(), d)?,
        };
        plain.extend(counted);
        Ok(plain)
    }

    /// `futile`: the defender's move `m` at `p` (in check, `d` plies left counting it) is an
    /// interposition, and the checking piece can take the interposed piece so that, with the
    /// taken piece given back to the defender's hand, the defender is mated within `d` plies under
    /// the common convention.
    pub fn futile<B: Board>(&mut self, p: &B, m: B::Move, d: u32) -> Result<bool, Stop> {
        let Some(ip) = p.interposition(m) else {
            return Ok(false);
        };
        let q = p.after(m);
        let Some(kind) = q.kind_at(ip.square) else {
            return Ok(false);
        };
        let attacker = q.side();
        let defender = 1 - attacker;
        for c in q.legal_moves() {
            if !B::steps(c, ip.checker, ip.square) {
                continue;
            }
            let mut t = q.after(c);
            t.give_back(attacker, defender, kind);
            if self.mated_within(&t, d, Futility::Common)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The shortest mate from `p` (attacker to move) of at most `max` plies, under `f`.
    pub fn shortest<B: Board>(
        &mut self,
        p: &B,
        max: u32,
        f: Futility,
    ) -> Result<Option<u32>, Stop> {
        let mut n = 1;
        while n <= max {
            if self.tsume_within(p, n, f)? {
                return Ok(Some(n));
            }
            n += 2;
        }
        Ok(None)
    }

    /// A line of the shortest mate from `p` under `f` of at most `max` plies: the attacker's first
    /// check that mates in the fewest plies, the defender's first answer that counts and lasts
    /// longest. `None` if there is no mate within `max`.
    pub fn line<B: Board>(
        &mut self,
        p: &B,
        max: u32,
        f: Futility,
    ) -> Result<Option<Vec<B::Move>>, Stop> {
        let Some(mut n) = self.shortest(p, max, f)? else {
            return Ok(None);
        };
        let mut pos = p.clone();
        let mut line = vec![];
        loop {
            let mut next = None;
            for m in pos.legal_checks() {
                if self.mated_within(&pos.after(m), n - 1, f)? {
                    next = Some(m);
                    break;
                }
            }
            let Some(m) = next else {
                return Ok(None);
            };
            line.push(m);
            pos = pos.after(m);
            if n == 1 {
                return Ok(Some(line));
            }
            let mut best: Option<(u32, B::Move)> = None;
            for a in self.answers(&pos, n - 1, f)? {
                let Some(len) = self.shortest(&pos.after(a), n - 2, f)? else {
                    return Ok(None);
                };
                if best.is_none_or(|(b, _)| len > b) {
                    best = Some((len, a));
                }
            }
            let Some((len, a)) = best else {
                return Ok(Some(line));
            };
            line.push(a);
            pos = pos.after(a);
            n = len;
        }
    }
}

#[cfg(test)]
mod tests;
