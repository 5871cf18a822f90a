//! The mate search under a variant: df-pn over the moves that [`Hybrid`] legality allows.
//!
//! `mate_in(g, i, n)` of rules/shogi_mate.rule: the side to move forces mate within n plies,
//! each of its moves giving check, every legal answer tried. The move generation and check are
//! native; legality and mate are assembled by [`Hybrid`] (native parts, the changed ones asked of
//! the rules). The search deepens the length bound n = 1, 3, 5, ... and proves or disproves each
//! bound completely (df-pn with a table keyed by position and remaining plies), so the first
//! mate found is the shortest, and a bound with no mate is a proof that there is none that
//! short. Repeated positions are searched as the definition says (it bounds the length, not the
//! repetitions). When any mate will do, the bounds are 1 and then 7 (one search covers the mates
//! of 3, 5 and 7 plies, and the disproofs of the shorter bounds, most of the work of deepening one
//! by one, are not needed), and past them a search without a bound looks for a longer mate; there
//! a repeated position counts as no mate, and the table keeps disproofs that rest on the path, so
//! it may miss a mate (it never makes one): its failure is reported as unknown, never as no mate.
//! A mate found so is reported shortest only where the bound disproved before it leaves no
//! shorter one. (Searching without a bound from the start was tried and is many times slower on
//! the mate-7 set: it follows long chases of checks. Against bounds 1, 3, 5, ..., 11 the bounds 1
//! and 7 search 2.5 times fewer nodes on the mate-7 set under two pawns allowed, the same mates
//! found; docs/PERFORMANCE.md.)
//!
//! The table and the lists of legal moves are keyed by position: exact where legality depends
//! on the position and the move that led to it, as every history-free reading's does (the caller
//! refuses variants whose changed definitions read the rest of the game).

use super::dfpn::{MateResult, MateStatus};
use super::legality::Hybrid;
use super::position::Position;
use super::types::{Color, Move};
use rustc_hash::FxHashMap;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

const INF: u32 = u32::MAX / 4;
/// The remaining plies of a search without a length bound.
const UNBOUNDED: u32 = u32::MAX;
/// Bounds of the caches (moves listed, table entries) when no size is given: about 400 and 800
/// MB.
const MAX_LISTED: usize = 25_000_000;
const MAX_TABLE: usize = 20_000_000;
/// Bytes a table entry takes (key, numbers and the hash table's share), and a move listed.
const ENTRY_BYTES: usize = 40;
const LISTED_BYTES: usize = 16;
/// How often (in nodes) the clock, the stop flag and the resident memory are read.
const READ_NODES: u64 = 256;
/// The bounds searched before a search for any mate goes on without a bound.
const ANY_BOUNDS: [u32; 3] = [1, 7, 11];
/// The longest line read out of the table.
const MAX_LINE: usize = 10_000;

/// Limits of a search under a variant.
#[derive(Clone, Debug, Default)]
pub struct HybridOptions {
    /// Nodes (0: none).
    pub max_nodes: u64,
    /// Milliseconds (0: none).
    pub max_ms: u64,
    /// The longest mate looked for, in plies (0: until a limit).
    pub max_plies: u32,
    /// Stop at the first mate found (no length bound, not proved shortest).
    pub any: bool,
    pub stop: Option<Arc<AtomicBool>>,
    /// The moment the rules' evaluations end (the one their evaluator watches): an evaluation
    /// ended at it is the time limit's, however the search's own clock reads `max_ms`.
    pub deadline: Option<Instant>,
    /// The memory of the search's table and lists of moves, in MiB (0: their default bounds);
    /// half for each.
    pub table_mb: usize,
    /// The resident memory of the process the search may reach, in bytes (0: none): past nine
    /// tenths of it the caches (the search's and the oracle's) are dropped, and past it the
    /// search ends as a budget ends it.
    pub max_resident_bytes: usize,
}

impl HybridOptions {
    /// The most table entries and listed moves kept.
    fn cache_bounds(&self) -> (usize, usize) {
        if self.table_mb == 0 {
            return (MAX_TABLE, MAX_LISTED);
        }
        let half = self.table_mb.saturating_mul(1 << 19);
        (
            (half / ENTRY_BYTES).clamp(1024, MAX_TABLE),
            (half / LISTED_BYTES).clamp(1024, MAX_LISTED),
        )
    }
}

#[derive(Clone, Copy)]
struct Entry {
    pn: u32,
    dn: u32,
    /// Plies to mate (proven entries).
    len: u32,
}

struct Search<'a, 'o> {
    hy: &'a mut Hybrid<'o>,
    tt: FxHashMap<(u64, u32), Entry>,
    checks: FxHashMap<u64, Rc<[(Move, u64)]>>,
    replies: FxHashMap<u64, Rc<[(Move, u64)]>>,
    /// Moves held in `checks` and `replies`, to bound their memory.
    listed: usize,
    /// Keys of the positions on the current path (unbounded search only).
    path: FxHashMap<u64, u32>,
    mated: FxHashMap<u64, bool>,
    history: Vec<Position>,
    attacker: Color,
    nodes: u64,
    /// The node count at which the clock, the stop flag and the memory are read next.
    next_read: u64,
    start: Instant,
    opts: &'a HybridOptions,
    err: Option<String>,
    out_of_budget: bool,
    /// A rule evaluation was ended by the stop or the time limit: the answer it gave is no
    /// answer, and nothing built on it may be kept or concluded.
    interrupted: bool,
}

/// The numbers of a node whose search the stop or the time limit ended before its moves or its
/// mate were known: open, and kept nowhere.
const OPEN: Entry = Entry {
    pn: 1,
    dn: 1,
    len: 0,
};

impl Search<'_, '_> {
    fn budget_gone(&mut self) -> bool {
        if self.out_of_budget || self.err.is_some() {
            return true;
        }
        if self.opts.max_nodes > 0 && self.nodes >= self.opts.max_nodes {
            self.out_of_budget = true;
        }
        if self.nodes < self.next_read {
            return self.out_of_budget;
        }
        // the clock, the stop flag and the memory are read by the nodes passed since they were
        // last read (this is not called at every node)
        self.next_read = self.nodes + READ_NODES;
        if self.opts.max_ms > 0 && self.start.elapsed().as_millis() as u64 >= self.opts.max_ms {
            self.out_of_budget = true;
        }
        if let Some(s) = &self.opts.stop {
            if s.load(Ordering::Relaxed) {
                self.out_of_budget = true;
            }
        }
        if self.opts.max_resident_bytes > 0 {
            if let Some(r) = crate::memory::resident_bytes() {
                if r > self.opts.max_resident_bytes {
                    self.out_of_budget = true;
                } else if r > self.opts.max_resident_bytes / 10 * 9 {
                    self.drop_caches();
                    self.hy.oracle.shrink();
                }
            }
        }
        self.out_of_budget
    }

    fn fail<T: Default>(&mut self, r: Result<T, String>) -> T {
        match r {
            Ok(v) => v,
            Err(e) => {
                // a rule evaluation ended by the search's stop or time limit is the limit's,
                // not a failure of the rules
                if self.stopped_or_late() {
                    self.out_of_budget = true;
                    self.interrupted = true;
                } else if self.err.is_none() {
                    self.err = Some(e);
                }
                T::default()
            }
        }
    }

    fn stopped_or_late(&self) -> bool {
        self.opts
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || (self.opts.max_ms > 0 && self.start.elapsed().as_millis() as u64 >= self.opts.max_ms)
            || self.opts.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The attacker's legal moves that give check, or the defender's legal moves.
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn children(&mut self, or: bool) -> Rc<[(Move, u64)]> {
        let p = self.history.last().expect("a position").clone();
        let key = p.key();
        let cached = if or {
            self.checks.get(&key)
        } else {
            self.replies.get(&key)
        };
        if let Some(c) = cached {
            return c.clone();
        }
        let r = if or {
            self.hy
                .legal_moves_where(&mut self.history, |p, m| p.gives_check(m))
        } else {
            self.hy.legal_moves_where(&mut self.history, |_, _| true)
        };
        let moves = self.fail(r);
        let kids: Rc<[(Move, u64)]> = moves.into();
        if self.listed > self.opts.cache_bounds().1 {
            // the caches are only caches: emptied when full, at the cost of time
            self.checks.clear();
            self.replies.clear();
            self.mated.clear();
            self.listed = 0;
        }
        self.listed += kids.len() + 1;
        if self.err.is_none() && !self.interrupted {
            if or {
                self.checks.insert(key, kids.clone());
            } else {
                self.replies.insert(key, kids.clone());
            }
        }
        kids
    }

    /// Keeps a node's numbers; a full table is emptied first (it is only a cache, and its
    /// bound is the one the options give).
    fn store(&mut self, key: u64, rem: u32, e: Entry) {
        if self.tt.len() >= self.opts.cache_bounds().0 {
            self.tt.clear();
        }
        self.tt.insert((key, rem), e);
    }

    /// Empties the table and the lists of moves, and gives their memory back.
    fn drop_caches(&mut self) {
        self.tt = FxHashMap::default();
        self.checks = FxHashMap::default();
        self.replies = FxHashMap::default();
        self.mated = FxHashMap::default();
        self.listed = 0;
    }

    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn is_mate(&mut self) -> bool {
        let key = self.history.last().expect("a position").key();
        if let Some(&m) = self.mated.get(&key) {
            return m;
        }
        if !self.hy.asked.mate {
            // mate as shipped: (in check, where the reading asks it, and) no legal move; the
            // replies, once listed, say it
            if let Some(kids) = self.replies.get(&key) {
                let p = self.history.last().expect("a position");
                let m = (!self.hy.mate_needs_check || p.in_check()) && kids.is_empty();
                self.mated.insert(key, m);
                return m;
            }
        }
        let r = self.hy.mate(&mut self.history);
        let m = self.fail(r);
        if self.err.is_none() && !self.interrupted {
            self.mated.insert(key, m);
        }
        m
    }

    fn value(&self, key: u64, rem: u32) -> Entry {
        self.tt.get(&(key, rem)).copied().unwrap_or(Entry {
            pn: 1,
            dn: 1,
            len: 0,
        })
    }

    /// Search the current position with `rem` plies left until its numbers pass the thresholds.
    /// One node of the search, a level deeper on a grown stack (the search runs on the
    /// caller's thread; its path can be thousands of plies).
    fn mid(&mut self, rem: u32, th_pn: u32, th_dn: u32) -> Entry {
        stacker::maybe_grow(256 << 10, 16 << 20, || self.mid_here(rem, th_pn, th_dn))
    }

    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn mid_here(&mut self, rem: u32, th_pn: u32, th_dn: u32) -> Entry {
        self.nodes += 1;
        let key = self.history.last().expect("a position").key();
        let or = self.history.last().expect("a position").side_to_move() == self.attacker;
        let proof = |len| Entry {
            pn: 0,
            dn: INF,
            len,
        };
        let disproof = Entry {
            pn: INF,
            dn: 0,
            len: 0,
        };
        // mate_in(n): n >= 1 and a checking move s with mate(s), or n >= 3 and every reply ...
        let mated = !or && self.is_mate();
        if self.interrupted {
            return OPEN;
        }
        let leaf = if or {
            if rem == 0 {
                Some(disproof)
            } else {
                None
            }
        } else if mated {
            Some(proof(0))
        } else if rem < 2 {
            Some(disproof)
        } else {
            None
        };
        if let Some(e) = leaf {
            self.store(key, rem, e);
            return e;
        }
        let kids = self.children(or);
        if self.interrupted {
            return OPEN;
        }
        let crem = if rem == UNBOUNDED { rem } else { rem - 1 };
        if rem == UNBOUNDED {
            *self.path.entry(key).or_insert(0) += 1;
        }
        let e = self.mid_loop(rem, crem, or, key, &kids, th_pn, th_dn);
        if rem == UNBOUNDED {
            if let Some(c) = self.path.get_mut(&key) {
                *c -= 1;
                if *c == 0 {
                    self.path.remove(&key);
                }
            }
        }
        e
    }

    /// A child's numbers: from the table, or (unbounded) a disproof where the child repeats a
    /// position of the path (a mate that needs a cycle is not a mate).
    fn child_value(&self, c: u64, crem: u32) -> Entry {
        if crem == UNBOUNDED && self.path.contains_key(&c) {
            return Entry {
                pn: INF,
                dn: 0,
                len: 0,
            };
        }
        self.value(c, crem)
    }

    #[allow(clippy::too_many_arguments)]
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn mid_loop(
        &mut self,
        rem: u32,
        crem: u32,
        or: bool,
        key: u64,
        kids: &[(Move, u64)],
        th_pn: u32,
        th_dn: u32,
    ) -> Entry {
        loop {
            // the numbers of the node from its children's
            let (mut pn, mut dn, mut len) = if or { (INF, 0u32, INF) } else { (0u32, INF, 0) };
            let mut best = usize::MAX;
            let (mut b1, mut b2) = (INF + 1, INF + 1);
            for (i, &(_, c)) in kids.iter().enumerate() {
                let e = self.child_value(c, crem);
                let score = if or { e.pn } else { e.dn };
                if score < b1 {
                    b2 = b1;
                    b1 = score;
                    best = i;
                } else if score < b2 {
                    b2 = score;
                }
                if or {
                    pn = pn.min(e.pn);
                    dn = dn.saturating_add(e.dn).min(INF);
                    if e.pn == 0 {
                        len = len.min(e.len + 1);
                    }
                } else {
                    pn = pn.saturating_add(e.pn).min(INF);
                    dn = dn.min(e.dn);
                    len = len.max(e.len + 1);
                }
            }
            let e = Entry { pn, dn, len };
            if pn == 0 || dn == 0 || pn >= th_pn || dn >= th_dn || best == usize::MAX {
                // under the unbounded search a disproof may rest on the path's repetitions and
                // then hide a mate from another path (never make one): the unbounded search only
                // looks for a mate, and "no mate" is left to the bounded search
                self.store(key, rem, e);
                return e;
            }
            if self.budget_gone() {
                return e;
            }
            let (m, ck) = kids[best];
            let ce = self.child_value(ck, crem);
            let (c_pn, c_dn) = if or {
                (
                    th_pn.min(b2.saturating_add(1)),
                    (th_dn - dn).saturating_add(ce.dn).min(INF),
                )
            } else {
                (
                    (th_pn - pn).saturating_add(ce.pn).min(INF),
                    th_dn.min(b2.saturating_add(1)),
                )
            };
            let child = self.history.last().expect("a position").after(m);
            self.history.push(child);
            self.mid(crem, c_pn, c_dn);
            self.history.pop();
            if self.err.is_some() || self.interrupted {
                return e;
            }
        }
    }

    /// The result of a search that a limit ended before it knew the answer and its line.
    fn unknown(&self) -> MateResult {
        MateResult {
            result: MateStatus::Unknown,
            plies: 0,
            pv: vec![],
            nodes: self.nodes,
            ms: self.start.elapsed().as_millis() as u64,
            shortest: false,
            max_depth: 0,
            lower_bound: 0,
        }
    }

    /// The proven line from the current position with `rem` plies left: the attacker's shortest
    /// mate, the defender's longest resistance.
    fn line(&mut self, rem: u32, out: &mut Vec<Move>) {
        stacker::maybe_grow(256 << 10, 16 << 20, || self.line_here(rem, out))
    }

    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn line_here(&mut self, rem: u32, out: &mut Vec<Move>) {
        let or = self.history.last().expect("a position").side_to_move() == self.attacker;
        if !or && self.is_mate() {
            return;
        }
        if rem == 0 {
            return;
        }
        let kids = self.children(or);
        let parent = self.history.last().expect("a position").clone();
        let crem = if rem == UNBOUNDED { rem } else { rem - 1 };
        let mut pick: Option<(Move, Position, u32)> = None;
        for &(m, ck) in kids.iter() {
            let e = self.value(ck, crem);
            if e.pn != 0 {
                continue;
            }
            let better = match &pick {
                None => true,
                Some((_, _, l)) => {
                    if or {
                        e.len < *l
                    } else {
                        e.len > *l
                    }
                }
            };
            if better {
                pick = Some((m, parent.after(m), e.len));
            }
        }
        if let Some((m, c, _)) = pick {
            if out.len() >= MAX_LINE {
                return;
            }
            out.push(m);
            self.history.push(c);
            self.line(crem, out);
            self.history.pop();
        }
    }
}

/// Search for the shortest mate from the last position of `history` (the side to move attacks).
pub fn solve(
    history: &[Position],
    hy: &mut Hybrid,
    opts: &HybridOptions,
) -> Result<MateResult, String> {
    let root = history.last().ok_or("no position")?.clone();
    let mut s = Search {
        attacker: root.side_to_move(),
        hy,
        tt: FxHashMap::default(),
        checks: FxHashMap::default(),
        replies: FxHashMap::default(),
        mated: FxHashMap::default(),
        listed: 0,
        path: FxHashMap::default(),
        history: history.to_vec(),
        nodes: 0,
        next_read: 0,
        start: Instant::now(),
        opts,
        err: None,
        out_of_budget: false,
        interrupted: false,
    };
    let cap = if opts.max_plies == 0 {
        u32::MAX - 2
    } else {
        opts.max_plies
    };
    // for the shortest mate the bounds are 1, 3, 5, ... one by one (the first mate found is the
    // shortest, and each bound without one is disproved); for any mate, ANY_BOUNDS and then a
    // search without a bound
    let any = opts.any && opts.max_plies == 0;
    let id_cap = if any {
        ANY_BOUNDS[ANY_BOUNDS.len() - 1]
    } else {
        cap
    };
    // the longest bound disproved so far: a mate of at most two plies more is the shortest
    let mut disproved = 0;
    let mut n = 1;
    while n <= id_cap {
        let e = s.mid(n, INF, INF);
        if let Some(err) = s.err.take() {
            return Err(err);
        }
        if e.pn == 0 {
            let mut pv = vec![];
            s.line(n, &mut pv);
            if s.interrupted {
                return Ok(s.unknown());
            }
            let plies = pv.len() as u32;
            let shortest = plies <= disproved + 2;
            return Ok(MateResult {
                result: MateStatus::Mate,
                plies,
                pv,
                nodes: s.nodes,
                ms: s.start.elapsed().as_millis() as u64,
                shortest,
                max_depth: n,
                lower_bound: crate::shogi::dfpn::lower_bound(plies, shortest, disproved),
            });
        }
        if e.dn != 0 {
            // the bound was neither proved nor disproved: a limit was reached
            break;
        }
        if s.checks.get(&root.key()).is_some_and(|c| c.is_empty()) {
            // no checking move at all: no mate of any length
            n = cap;
        }
        disproved = n;
        n = match ANY_BOUNDS.iter().find(|&&b| b > n) {
            Some(&b) if any => b,
            _ => n.saturating_add(2),
        };
    }
    if any && n > id_cap && !s.out_of_budget {
        let e = s.mid(UNBOUNDED, INF, INF);
        if let Some(err) = s.err.take() {
            return Err(err);
        }
        if e.pn == 0 {
            let mut pv = vec![];
            s.line(UNBOUNDED, &mut pv);
            if s.interrupted {
                return Ok(s.unknown());
            }
            let plies = pv.len() as u32;
            return Ok(MateResult {
                result: MateStatus::Mate,
                plies,
                pv,
                nodes: s.nodes,
                ms: s.start.elapsed().as_millis() as u64,
                shortest: plies == 1,
                max_depth: plies,
                lower_bound: crate::shogi::dfpn::lower_bound(plies, plies == 1, disproved),
            });
        }
        // a disproof here may rest on repetitions: "no mate" is left to the bounded search
        if s.out_of_budget {
            return Ok(s.unknown());
        }
    }
    let complete = !s.out_of_budget && (opts.max_plies > 0 || n >= cap);
    Ok(MateResult {
        result: if complete {
            MateStatus::NoMate
        } else {
            MateStatus::Unknown
        },
        plies: 0,
        pv: vec![],
        nodes: s.nodes,
        ms: s.start.elapsed().as_millis() as u64,
        shortest: false,
        max_depth: n.min(cap),
        lower_bound: 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::legality::{nifu, Asked, Oracle};

    /// An oracle that answers `nifu` as the shipped rules do until it has answered `left` times,
    /// and then sets the search's stop flag and fails, as an evaluation that the stop ended.
    struct Stopping {
        left: usize,
        stop: Arc<AtomicBool>,
    }

    impl Oracle for Stopping {
        fn nifu(&mut self, h: &[Position], o: Color) -> Result<bool, String> {
            if self.left == 0 {
                self.stop.store(true, Ordering::Relaxed);
                return Err("interrupted: the search was stopped".into());
            }
            self.left -= 1;
            Ok(nifu(h.last().expect("a position"), o))
        }
        fn dead_piece(&mut self, _: &[Position], _: Color) -> Result<bool, String> {
            Err("not asked".into())
        }
        fn dying(&mut self, _: &[Position]) -> Result<bool, String> {
            Err("not asked".into())
        }
        fn uchifuzume(&mut self, _: &[Position]) -> Result<bool, String> {
            Err("not asked".into())
        }
        fn mate(&mut self, _: &[Position]) -> Result<bool, String> {
            Err("not asked".into())
        }
        fn forbidden(&mut self, _: &[Position]) -> Result<bool, String> {
            Err("not asked".into())
        }
    }

    /// A stop that ends the rules' answer anywhere in the search (while the attacker's checks,
    /// a defender's mate or a defender's replies are listed) leaves the result unknown: never a
    /// mate where there is none, never "no mate".
    #[test]
    fn a_stop_inside_the_rules_never_makes_a_result() {
        // a gold in hand against a bare king: checks, and no mate
        let root = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b G 1").expect("sfen");
        let mut statuses = vec![];
        for left in (0..300).chain([usize::MAX]) {
            for any in [false, true] {
                let stop = Arc::new(AtomicBool::new(false));
                let mut o = Stopping {
                    left,
                    stop: stop.clone(),
                };
                let mut hy = Hybrid::new(
                    false,
                    Asked {
                        nifu: true,
                        ..Asked::default()
                    },
                    &mut o,
                );
                let opts = HybridOptions {
                    max_plies: 5,
                    any,
                    stop: Some(stop.clone()),
                    ..Default::default()
                };
                let r = solve(std::slice::from_ref(&root), &mut hy, &opts)
                    .expect("the stop is no failure");
                assert!(
                    matches!(r.result, MateStatus::Unknown | MateStatus::NoMate),
                    "after {left} answers: {:?}",
                    r.result
                );
                if r.result == MateStatus::NoMate {
                    assert!(
                        !stop.load(Ordering::Relaxed),
                        "{left}: no mate after a stop"
                    );
                }
                statuses.push(r.result);
            }
        }
        // the stop came at every stage, and the search ran to its end once the oracle had
        // answered enough
        assert!(statuses.contains(&MateStatus::Unknown));
        assert!(statuses.contains(&MateStatus::NoMate));
    }

    /// A stop anywhere in the search of a position with a mate leaves either the whole line of
    /// the shortest mate or an unknown result: never a line cut short. (Where the line is read
    /// out the lists it needs are kept from the search; were they emptied, being full, and the
    /// stop came while they were listed again, the result is unknown.)
    #[test]
    fn a_stop_never_cuts_a_mate_short() {
        let root = Position::from_sfen(
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        )
        .expect("sfen");
        let mut mates = 0;
        for left in (0..400).chain([usize::MAX]) {
            let stop = Arc::new(AtomicBool::new(false));
            let mut o = Stopping {
                left,
                stop: stop.clone(),
            };
            let mut hy = Hybrid::new(
                false,
                Asked {
                    nifu: true,
                    ..Asked::default()
                },
                &mut o,
            );
            let opts = HybridOptions {
                max_plies: 3,
                stop: Some(stop.clone()),
                ..Default::default()
            };
            let r =
                solve(std::slice::from_ref(&root), &mut hy, &opts).expect("the stop is no failure");
            match r.result {
                MateStatus::Mate => {
                    mates += 1;
                    assert_eq!(r.plies, 3, "after {left} answers");
                    assert_eq!(r.pv.len(), 3, "after {left} answers");
                    let mut p = root.clone();
                    for &m in &r.pv {
                        assert!(p.legal_moves().contains(m), "after {left} answers");
                        p = p.after(m);
                    }
                    assert!(
                        p.in_check() && p.legal_moves().is_empty(),
                        "after {left} answers"
                    );
                }
                MateStatus::Unknown => {}
                other => panic!("after {left} answers: {other:?}"),
            }
        }
        assert!(mates > 0);
    }
}
