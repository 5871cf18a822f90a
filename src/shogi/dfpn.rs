//! Mate search by df-pn (depth-first proof-number search) for longer mates.
//!
//! - The attacker is the side to move at the root (either colour; the attacker may be in check
//!   at the root and must then evade with a check). Every attacker move must give check; the
//!   defender tries every legal move, futile interpositions (無駄合) included, so lengths are
//!   strict. A pawn drop that mates is illegal and never generated.
//! - Transposition table: a fixed number of entries (set by the hash size), buckets with
//!   replacement of the entry with the least work. Entries are keyed by board and side; the
//!   hands are stored beside and compared by dominance: a proof holds for any position with
//!   the same board where the attacker holds at least as much and the defender at most as
//!   much; a disproof the other way round.
//! - Repetition: a position that repeats one on the current path is a failure for the
//!   attacker there. A disproof that depends on such a repetition depends on the path, so it is
//!   never stored in the table (only kept by the parent while it searches).
//! - Lengths: every entry carries the ply budget it was searched with; proofs carry their
//!   length and hold for any budget at least that long, disproofs hold for any smaller budget.
//!   After a first proof the shortest mate is sought with shrinking budgets (option
//!   [`MateLength::Shortest`]).

use super::bitboard::tables;
use super::mate1::{has_evasion, mate_in_1};
use super::position::Position;
use super::types::{Color, Hand, Move};
use std::time::Instant;

const INF: u32 = u32::MAX / 2;
/// Ply budget meaning "no limit".
const NO_LIMIT: u32 = 60_000;
/// Budgets tried one by one before an unlimited search when the shortest mate is wanted.
const SHORT_DEPTHS: u32 = 15;
const FIRST_STEPS: u32 = 5;

/// Outcome of a mate search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateStatus {
    /// A forced mate was found.
    Mate,
    /// No forced mate exists (within the ply limit, if one was given).
    NoMate,
    /// The node or time limit was reached first.
    Unknown,
}

/// Which mate to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLength {
    /// The shortest mate (strict length).
    Shortest,
    /// The first mate found.
    Any,
}

/// Search options.
#[derive(Clone, Debug)]
pub struct MateOptions {
    /// Node limit (0: none).
    pub max_nodes: u64,
    /// Time limit in milliseconds (0: none).
    pub max_ms: u64,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Shortest or any mate.
    pub length: MateLength,
    /// Longest mate looked for, in plies (0: no limit).
    pub max_plies: u32,
}

impl Default for MateOptions {
    fn default() -> Self {
        MateOptions {
            max_nodes: 0,
            max_ms: 0,
            hash_mb: 64,
            length: MateLength::Shortest,
            max_plies: 0,
        }
    }
}

/// Result of [`solve`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateResult {
    /// Mate, no mate or unknown.
    pub result: MateStatus,
    /// Length of the mate in plies (0 unless `result` is `Mate`).
    pub plies: u32,
    /// The mating line (attacker's moves and the defender's longest resistance).
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub ms: u64,
    /// True when the length is known to be the shortest.
    pub shortest: bool,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    ha: u64,
    hd: u64,
    pn: u32,
    dn: u32,
    len: u16,
    budget: u16,
    work: u32,
}

const HI: u64 = 0x8080_8080_8080_8080;

/// `a` holds at least as much of every kind as `b` (hands packed a byte per kind).
#[inline]
fn superior(a: u64, b: u64) -> bool {
    ((a | HI) - b) & HI == HI
}

fn pack(h: &Hand) -> u64 {
    let mut v = 0u64;
    for k in 0..7 {
        v |= (h.get(k) as u64 & 0x7f) << (8 * k);
    }
    v
}

const BUCKET: usize = 4;

struct Table {
    entries: Vec<Entry>,
    mask: usize,
}

impl Table {
    fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<Entry>()).max(BUCKET * 2);
        let mut buckets = 1usize;
        while buckets * 2 * BUCKET <= n {
            buckets *= 2;
        }
        // Halve the table until the memory can be had.
        loop {
            let mut entries: Vec<Entry> = Vec::new();
            if entries.try_reserve_exact(buckets * BUCKET).is_ok() || buckets == 1 {
                entries.resize(buckets * BUCKET, Entry::default());
                return Table {
                    entries,
                    mask: buckets - 1,
                };
            }
            buckets /= 2;
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key >> 20) as usize & self.mask) * BUCKET
    }

    /// (pn, dn, len) for the position, or `None` if nothing usable is stored.
    fn probe(&self, key: u64, ha: u64, hd: u64, budget: u32) -> Option<(u32, u32, u32)> {
        let b = self.bucket(key);
        let mut found = None;
        for e in &self.entries[b..b + BUCKET] {
            if e.key != key {
                continue;
            }
            if e.pn == 0 {
                if (e.len as u32) <= budget && superior(ha, e.ha) && superior(e.hd, hd) {
                    return Some((0, INF, e.len as u32));
                }
            } else if e.dn == 0 {
                if (e.budget as u32) >= budget && superior(e.ha, ha) && superior(hd, e.hd) {
                    return Some((INF, 0, 0));
                }
            } else if e.ha == ha && e.hd == hd && e.budget as u32 == budget {
                found = Some((e.pn, e.dn, 0));
            }
        }
        found
    }

    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        key: u64,
        ha: u64,
        hd: u64,
        budget: u32,
        pn: u32,
        dn: u32,
        len: u32,
        work: u32,
    ) {
        let b = self.bucket(key);
        let mut victim = b;
        let mut least = u32::MAX;
        for i in b..b + BUCKET {
            let e = &self.entries[i];
            if e.key == key
                && e.ha == ha
                && e.hd == hd
                && (e.budget as u32 == budget || pn == 0 || dn == 0)
            {
                victim = i;
                break;
            }
            let w = if e.key == 0 { 0 } else { e.work };
            if w < least {
                least = w;
                victim = i;
            }
        }
        self.entries[victim] = Entry {
            key,
            ha,
            hd,
            pn,
            dn,
            len: len.min(u16::MAX as u32) as u16,
            budget: budget.min(u16::MAX as u32) as u16,
            work,
        };
    }
}

/// The keys of the positions on the current path, with a counting filter so that most
/// lookups of deep paths need no scan.
#[derive(Default)]
struct Path {
    keys: Vec<u64>,
    filter: Vec<u16>,
}

impl Path {
    const BITS: usize = 4096;

    fn push(&mut self, k: u64) {
        if self.filter.is_empty() {
            self.filter = vec![0; Self::BITS];
        }
        self.keys.push(k);
        self.filter[k as usize % Self::BITS] += 1;
    }

    fn pop(&mut self) {
        if let Some(k) = self.keys.pop() {
            self.filter[k as usize % Self::BITS] -= 1;
        }
    }

    fn contains(&self, k: &u64) -> bool {
        !self.filter.is_empty()
            && self.filter[*k as usize % Self::BITS] != 0
            && self.keys.contains(k)
    }

    fn clear(&mut self) {
        while !self.keys.is_empty() {
            self.pop();
        }
    }
}

struct Child {
    m: Move,
    pn: u32,
    dn: u32,
    len: u32,
    rep: bool,
}

struct Solver {
    tt: Table,
    attacker: Color,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: bool,
    next_check: u64,
    path: Path,
}

/// Key of the board and side (hands removed from the position key).
fn board_key(p: &Position) -> u64 {
    let t = tables();
    let mut k = p.key();
    for c in 0..2 {
        for h in 0..7 {
            k ^= t.z_hand[c][h][(p.hands[c].get(h) as usize).min(18)];
        }
    }
    k | 1 // never 0 (empty slot)
}

impl Solver {
    fn hands(&self, p: &Position) -> (u64, u64) {
        (
            pack(&p.hands[self.attacker.index()]),
            pack(&p.hands[self.attacker.flip().index()]),
        )
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stop {
            return true;
        }
        if self.max_nodes != 0 && self.nodes >= self.max_nodes {
            self.stop = true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stop = true;
                }
            }
        }
        self.stop
    }

    /// Values of the position `p` (already played) as a child: repetition, table, or the
    /// initial estimate.
    fn child_values(&self, p: &Position, budget: u32) -> (u32, u32, u32, bool) {
        if self.path.contains(&p.key()) {
            return (INF, 0, 0, true);
        }
        let (ha, hd) = self.hands(p);
        match self.tt.probe(board_key(p), ha, hd, budget) {
            Some((pn, dn, len)) => (pn, dn, len, false),
            None => {
                if p.side_to_move() != self.attacker {
                    // After a check: the fewer the defences, the easier the proof (df-pn+).
                    let n = p.count_legal() as u32;
                    if n == 0 {
                        (0, INF, 0, false)
                    } else {
                        (n.min(8), 1, 0, false)
                    }
                } else {
                    (1, 1, 0, false)
                }
            }
        }
    }

    /// Multiple iterative deepening at `p`; returns (pn, dn, proof length, path-dependent).
    fn mid(
        &mut self,
        p: &mut Position,
        thpn: u32,
        thdn: u32,
        budget: u32,
    ) -> (u32, u32, u32, bool) {
        self.nodes += 1;
        let or_node = p.side_to_move() == self.attacker;
        let key = board_key(p);
        let (ha, hd) = self.hands(p);
        let start_nodes = self.nodes;
        // Terminal tests.
        if or_node && budget == 0 {
            self.tt.store(key, ha, hd, budget, INF, 0, 0, 1);
            return (INF, 0, 0, false);
        }
        let moves: Vec<Move> = if or_node {
            super::mate1::checks(p)
        } else {
            p.legal_moves().as_slice().to_vec()
        };
        if moves.is_empty() {
            if or_node {
                self.tt.store(key, ha, hd, budget, INF, 0, 0, 1);
                return (INF, 0, 0, false);
            }
            self.tt.store(key, ha, hd, budget, 0, INF, 0, 1);
            return (0, INF, 0, false);
        }
        if or_node && budget < 3 {
            // Only a mate in one fits.
            for &m in &moves {
                let u = p.do_move(m);
                let mated = !has_evasion(p);
                p.undo_move(m, u);
                if mated {
                    self.tt.store(key, ha, hd, budget, 0, INF, 1, 1);
                    return (0, INF, 1, false);
                }
            }
            self.tt.store(key, ha, hd, budget, INF, 0, 0, 1);
            return (INF, 0, 0, false);
        }
        if !or_node && budget < 2 {
            self.tt.store(key, ha, hd, budget, INF, 0, 0, 1);
            return (INF, 0, 0, false);
        }
        let cb = if budget >= NO_LIMIT {
            budget
        } else {
            budget - 1
        };
        self.path.push(p.key());
        let mut children: Vec<Child> = Vec::with_capacity(moves.len());
        for &m in &moves {
            let u = p.do_move(m);
            let (pn, dn, len, rep) = self.child_values(p, cb);
            p.undo_move(m, u);
            if or_node && pn == 0 && len == 0 {
                // A mate in one.
                self.path.pop();
                self.tt.store(key, ha, hd, budget, 0, INF, 1, 1);
                return (0, INF, 1, false);
            }
            children.push(Child {
                m,
                pn,
                dn,
                len,
                rep,
            });
        }
        let (mut pn, mut dn, mut len, mut rep);
        loop {
            // Aggregate.
            (pn, dn, len, rep) = aggregate(&children, or_node);
            if pn >= thpn || dn >= thdn || pn == 0 || dn == 0 || self.out_of_budget() {
                break;
            }
            // Select.
            let (best, second) = select(&children, or_node);
            let c = &children[best];
            let (cthpn, cthdn) = if or_node {
                let cap = second.saturating_add(second / 4 + 1).min(INF);
                (thpn.min(cap), sub_th(thdn, dn, c.dn))
            } else {
                let cap = second.saturating_add(second / 4 + 1).min(INF);
                (sub_th(thpn, pn, c.pn), thdn.min(cap))
            };
            let m = c.m;
            let u = p.do_move(m);
            let r = self.mid(p, cthpn, cthdn, cb);
            p.undo_move(m, u);
            let c = &mut children[best];
            c.pn = r.0;
            c.dn = r.1;
            c.len = r.2;
            c.rep = r.3;
        }
        self.path.pop();
        let work = (self.nodes - start_nodes).min(u32::MAX as u64) as u32;
        if !(dn == 0 && rep) {
            self.tt.store(key, ha, hd, budget, pn, dn, len, work.max(1));
        }
        (pn, dn, len, dn == 0 && rep)
    }
}

/// `th - total + child`, the child's threshold under a sum rule.
#[inline]
fn sub_th(th: u32, total: u32, child: u32) -> u32 {
    let v = th as u64 + child as u64;
    v.saturating_sub(total as u64).min(INF as u64) as u32
}

/// Node values from the children: OR node pn = min, dn = sum; AND node the other way round.
fn aggregate(children: &[Child], or_node: bool) -> (u32, u32, u32, bool) {
    if or_node {
        let mut pn = INF;
        let mut dn: u64 = 0;
        let mut len = u32::MAX;
        let mut rep = false;
        for c in children {
            pn = pn.min(c.pn);
            dn += c.dn as u64;
            if c.pn == 0 {
                len = len.min(c.len + 1);
            }
            rep |= c.rep;
        }
        let dn = dn.min(INF as u64) as u32;
        (pn, dn, if pn == 0 { len } else { 0 }, dn == 0 && rep)
    } else {
        let mut pn: u64 = 0;
        let mut dn = INF;
        let mut len = 0;
        let mut rep = false;
        for c in children {
            pn += c.pn as u64;
            if c.dn < dn {
                dn = c.dn;
            }
            if c.dn == 0 && c.rep {
                rep = true;
            }
            len = len.max(c.len + 1);
        }
        let pn = pn.min(INF as u64) as u32;
        // A disproof is path-dependent only if no path-independent disproved child exists.
        if dn == 0 && children.iter().any(|c| c.dn == 0 && !c.rep) {
            rep = false;
        }
        (pn, dn, if pn == 0 { len } else { 0 }, rep)
    }
}

/// Index of the most promising child and the second-best value.
fn select(children: &[Child], or_node: bool) -> (usize, u32) {
    let mut best = 0;
    let mut v1 = u32::MAX;
    let mut v2 = u32::MAX;
    for (i, c) in children.iter().enumerate() {
        let v = if or_node { c.pn } else { c.dn };
        if v < v1 {
            v2 = v1;
            v1 = v;
            best = i;
        } else if v < v2 {
            v2 = v;
        }
    }
    (best, v2.min(INF))
}

/// Searches for a mate for the side to move.
pub fn solve(pos: &Position, opts: &MateOptions) -> MateResult {
    let t0 = Instant::now();
    let pos = pos.clone();
    let opts = opts.clone();
    // Deep mates need a deep recursion: run on a thread with a large stack.
    let r = std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(512 << 20)
            .spawn_scoped(s, || solve_inner(&pos, &opts, t0))
            .ok()
            .and_then(|h| h.join().ok())
    });
    r.unwrap_or(MateResult {
        result: MateStatus::Unknown,
        plies: 0,
        pv: Vec::new(),
        nodes: 0,
        ms: t0.elapsed().as_millis() as u64,
        shortest: false,
    })
}

fn solve_inner(pos: &Position, opts: &MateOptions, t0: Instant) -> MateResult {
    let attacker = pos.side_to_move();
    let mut s = Solver {
        tt: Table::new(opts.hash_mb),
        attacker,
        nodes: 0,
        max_nodes: opts.max_nodes,
        deadline: if opts.max_ms > 0 {
            Some(t0 + std::time::Duration::from_millis(opts.max_ms))
        } else {
            None
        },
        stop: false,
        next_check: 0,
        path: Path::default(),
    };
    let done = |s: &Solver, result, plies, pv, shortest| MateResult {
        result,
        plies,
        pv,
        nodes: s.nodes,
        ms: t0.elapsed().as_millis() as u64,
        shortest,
    };
    if pos.king_square(attacker.flip()).is_none() {
        return done(&s, MateStatus::NoMate, 0, Vec::new(), false);
    }
    let limit = if opts.max_plies == 0 {
        NO_LIMIT
    } else {
        opts.max_plies.min(NO_LIMIT)
    };
    let mut p = pos.clone();
    // Budgets known to hold no mate (odd budgets up to this one).
    let mut no_mate_upto = 0u32;
    let mut proven = None;
    if opts.length == MateLength::Shortest {
        // Short mates first: budgets 1, 3, .., FIRST_STEPS, then SHORT_DEPTHS; a proof is
        // then shortened while budgets two plies shorter still hold a mate.
        let cap = limit.min(SHORT_DEPTHS);
        let mut b = 1;
        while b <= cap {
            let (pn, dn, len, _) = s.mid(&mut p, INF - 1, INF - 1, b);
            if pn == 0 {
                proven = Some(len);
                break;
            }
            if dn != 0 {
                return done(&s, MateStatus::Unknown, 0, Vec::new(), false);
            }
            no_mate_upto = b;
            b = if b < FIRST_STEPS.min(cap) {
                b + 2
            } else if b < cap {
                cap
            } else {
                break;
            };
        }
        if proven.is_none() && no_mate_upto >= limit {
            return done(&s, MateStatus::NoMate, 0, Vec::new(), false);
        }
    }
    let mut best = match proven {
        Some(len) => len,
        None => {
            let (pn, dn, len, _) = s.mid(&mut p, INF - 1, INF - 1, limit);
            if pn != 0 {
                let st = if dn == 0 {
                    MateStatus::NoMate
                } else {
                    MateStatus::Unknown
                };
                return done(&s, st, 0, Vec::new(), false);
            }
            len
        }
    };
    let mut shortest = best <= no_mate_upto + 2;
    if opts.length == MateLength::Shortest {
        while !shortest {
            let (pn, dn, len, _) = s.mid(&mut p, INF - 1, INF - 1, best - 2);
            if pn == 0 {
                best = len;
                shortest = best <= no_mate_upto + 2;
            } else {
                if dn == 0 {
                    shortest = true;
                }
                break;
            }
        }
    }
    s.stop = false;
    s.max_nodes = 0;
    s.deadline = None;
    let tight = opts.length == MateLength::Shortest && shortest;
    let pv = s.pv(&mut p, if tight { best } else { NO_LIMIT }, tight);
    if !tight && !pv.is_empty() {
        best = pv.len() as u32;
    }
    done(&s, MateStatus::Mate, best, pv, shortest)
}

impl Solver {
    /// Values of the child reached by `m`, searched again if the table has no final value.
    fn child_solved(&mut self, p: &mut Position, m: Move, budget: u32) -> (u32, u32, u32) {
        let u = p.do_move(m);
        let mut v = self.child_values(p, budget);
        if v.0 != 0 && v.1 != 0 && !v.3 {
            let saved = std::mem::take(&mut self.path);
            let r = self.mid(p, INF - 1, INF - 1, budget);
            self.path = saved;
            v = r;
        }
        p.undo_move(m, u);
        (v.0, v.1, v.2)
    }

    /// The main line of the proof: the attacker's move, the defender's longest resistance.
    /// With `tight`, `budget` is the exact length of the shortest mate: a defence is longest
    /// when its mate does not fit in two plies less (shown by a disproof).
    fn pv(&mut self, p: &mut Position, budget: u32, tight: bool) -> Vec<Move> {
        let mut line = Vec::new();
        let mut undo = Vec::new();
        let mut budget = budget;
        self.path.clear();
        while budget > 0 && !self.stop {
            let or_node = p.side_to_move() == self.attacker;
            let moves: Vec<Move> = if or_node {
                super::mate1::checks(p)
            } else {
                p.legal_moves().as_slice().to_vec()
            };
            if moves.is_empty() {
                break;
            }
            if or_node && budget >= 1 {
                if let Some(m) = mate_in_1(p) {
                    line.push(m);
                    break;
                }
            }
            let child_budget = if budget >= NO_LIMIT {
                budget
            } else {
                budget - 1
            };
            let mut pick: Option<(Move, u32)> = None;
            for &m in &moves {
                if or_node {
                    let (pn, _, len) = self.child_solved(p, m, child_budget);
                    if pn == 0 && pick.is_none_or(|(_, l)| len < l) {
                        pick = Some((m, len));
                    }
                } else if tight && budget >= 3 {
                    let (pn, dn, len) = self.child_solved(p, m, budget - 3);
                    if dn == 0 {
                        pick = Some((m, budget - 1));
                        break;
                    }
                    if pn == 0 && pick.is_none_or(|(_, l)| len > l) {
                        pick = Some((m, len));
                    }
                } else {
                    let (pn, _, len) = self.child_solved(p, m, child_budget);
                    if pn == 0 && pick.is_none_or(|(_, l)| len > l) {
                        pick = Some((m, len));
                    }
                }
            }
            let Some((m, l)) = pick else { break };
            self.path.push(p.key());
            line.push(m);
            undo.push((m, p.do_move(m)));
            budget = if tight {
                budget - 1
            } else {
                l.min(child_budget)
            };
        }
        while let Some((m, u)) = undo.pop() {
            p.undo_move(m, u);
        }
        self.path.clear();
        line
    }
}

#[cfg(test)]
mod tests {
    use super::super::mate1::{is_mating_line, mate_in_n_exhaustive};
    use super::*;

    fn sfens(name: &str) -> Vec<String> {
        let path = format!("{}/tests/data/shogi/{name}", env!("CARGO_MANIFEST_DIR"));
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim().to_string())
            .collect()
    }

    fn run_set(name: &str, expect: u32, take: usize) -> Vec<(String, u32)> {
        let mut odd = Vec::new();
        for s in sfens(name).into_iter().take(take) {
            let p = Position::from_sfen(&s).unwrap();
            let opts = MateOptions {
                hash_mb: 16,
                ..Default::default()
            };
            let r = solve(&p, &opts);
            assert_eq!(r.result, MateStatus::Mate, "{s}");
            assert!(r.shortest, "{s}");
            assert!(is_mating_line(&p, &r.pv), "{s} {:?}", r.pv);
            assert_eq!(r.pv.len() as u32, r.plies, "{s} {:?}", r.pv);
            if r.plies != expect {
                assert!(r.plies < expect, "{s}: {} > {expect}", r.plies);
                odd.push((s, r.plies));
            }
        }
        odd
    }

    #[test]
    fn small_sets_quick() {
        run_set("mate-3-ply.sfen", 3, 30);
        run_set("mate-5-ply.sfen", 5, 10);
    }

    #[test]
    fn odd_positions_do_not_panic() {
        for sfen in [
            "4k4/9/4R4/9/9/9/9/9/4K4 b - 1",
            "4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
            "9/9/9/9/9/9/9/9/4K4 b R 1",
            "4k4/4P4/4K4/9/9/9/9/9/9 w - 1",
        ] {
            let p = Position::from_sfen(sfen).unwrap();
            let opts = MateOptions {
                hash_mb: 1,
                max_nodes: 20_000,
                ..Default::default()
            };
            let _ = solve(&p, &opts);
            let _ = mate_in_n_exhaustive(&p, 1);
            let _ = super::super::mate3::mate_in_3(&p);
        }
    }

    #[test]
    fn white_attacker() {
        // 後手 to move mates with a gold drop (G*5h).
        let p = Position::from_sfen("4k4/9/9/9/9/9/4p4/9/4K4 w g 1").unwrap();
        let r = solve(&p, &MateOptions::default());
        assert_eq!(r.result, MateStatus::Mate);
        assert_eq!(r.plies, 1);
        assert!(is_mating_line(&p, &r.pv));
    }

    #[test]
    fn pawn_drop_mate_is_no_mate() {
        let p = Position::from_sfen("7nk/9/7G1/9/9/9/9/9/4K4 b P 1").unwrap();
        let r = solve(
            &p,
            &MateOptions {
                max_plies: 1,
                ..Default::default()
            },
        );
        assert_eq!(r.result, MateStatus::NoMate);
    }

    const SETS: [(&str, u32); 5] = [
        ("mate-3-ply.sfen", 3),
        ("mate-5-ply.sfen", 5),
        ("mate-7-ply.sfen", 7),
        ("mate-9-ply.sfen", 9),
        ("mate-11-ply.sfen", 11),
    ];

    /// Positions of the nshogi sets whose label is longer than the shortest mate, with the
    /// shortest length (checked by the exhaustive search below).
    const SHORTER: [(&str, usize, u32); 5] = [
        ("mate-5-ply.sfen", 286, 3),
        ("mate-7-ply.sfen", 118, 5),
        ("mate-7-ply.sfen", 163, 5),
        ("mate-9-ply.sfen", 103, 7),
        ("mate-9-ply.sfen", 423, 7),
    ];

    /// The 3, 5 and 7 sets in full, the first 100 of the 9 and 11 sets.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn nshogi_sets_sample() {
        for (name, n) in SETS {
            let take = if n <= 7 { usize::MAX } else { 100 };
            for (s, l) in run_set(name, n, take) {
                println!("{name}: shorter mate {l}: {s}");
            }
        }
    }

    /// All 2,500 positions (about 2 minutes in release on one core):
    /// `cargo test --release nshogi_sets_full -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn nshogi_sets_full() {
        for (name, n) in SETS {
            for (s, l) in run_set(name, n, usize::MAX) {
                println!("{name}: shorter mate {l}: {s}");
            }
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn shorter_than_label() {
        for (name, idx, len) in SHORTER {
            let s = &sfens(name)[idx];
            let p = Position::from_sfen(s).unwrap();
            let pv = mate_in_n_exhaustive(&p, len).unwrap_or_else(|| panic!("{s}"));
            println!("{name} {idx}: {len} plies by exhaustive search: {pv:?}");
            assert_eq!(pv.len() as u32, len);
            assert!(is_mating_line(&p, &pv));
            if len >= 3 {
                assert!(mate_in_n_exhaustive(&p, len - 2).is_none());
            }
        }
    }

    /// Rows of curated.tsv: (id, sfen, expect).
    fn curated() -> Vec<(String, String, String)> {
        let path = format!(
            "{}/tests/data/shogi/curated.tsv",
            env!("CARGO_MANIFEST_DIR")
        );
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                (f.len() >= 3).then(|| (f[0].to_string(), f[1].to_string(), f[2].to_string()))
            })
            .collect()
    }

    /// Rows of antma/tsumeshogi-check stating the tsume-convention length, in which futile
    /// interpositions are not counted; the strict length found here is longer.
    const TSUME_CONVENTION: [&str; 8] = [
        "tsc-tsume1-3",
        "tsc-tsume1-5",
        "tsc-tsume1_futile_drops-1",
        "tsc-tsume1_futile_drops-2",
        "tsc-tsume1_futile_drops-3",
        "tsc-tsume3-19",
        "tsc-tsume5-3",
        "tsc-tsume5-6",
    ];

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn curated_rows() {
        let mut convention = Vec::new();
        for (id, sfen, expect) in curated() {
            if id == "kh-microcosmos" {
                continue;
            }
            let p = Position::from_sfen(&sfen).unwrap();
            let opts = MateOptions {
                hash_mb: 16,
                max_nodes: 20_000_000,
                ..Default::default()
            };
            if let Some(n) = expect.strip_prefix("mate:") {
                let n: u32 = n.parse().unwrap();
                let r = solve(&p, &opts);
                assert_eq!(r.result, MateStatus::Mate, "{id}");
                assert!(is_mating_line(&p, &r.pv), "{id}");
                if TSUME_CONVENTION.contains(&id.as_str()) {
                    assert!(r.plies > n, "{id}: {} plies", r.plies);
                    convention.push((id, n, r.plies));
                } else {
                    assert_eq!(r.plies, n, "{id}");
                    assert!(r.shortest, "{id}");
                }
            } else if expect == "mate" {
                let r = solve(&p, &opts);
                assert_eq!(r.result, MateStatus::Mate, "{id}");
                assert!(is_mating_line(&p, &r.pv), "{id}");
            } else if let Some(n) = expect.strip_prefix("nomate-le:") {
                let n: u32 = n.parse().unwrap();
                let r = solve(
                    &p,
                    &MateOptions {
                        max_plies: n,
                        ..opts.clone()
                    },
                );
                assert_eq!(r.result, MateStatus::NoMate, "{id}");
            } else if expect == "nomate" {
                let r = solve(&p, &opts);
                assert_eq!(r.result, MateStatus::NoMate, "{id}");
            } else if expect == "mated" {
                assert!(p.is_checkmate(), "{id}");
                assert_eq!(solve(&p, &opts).result, MateStatus::NoMate, "{id}");
            }
        }
        for (id, n, l) in &convention {
            println!("{id}: label {n} (tsume convention), strict {l}");
        }
    }
}

#[cfg(test)]
mod bench {
    use super::*;

    /// Per-position report over a set (`MATE_SET=mate-7-ply.sfen cargo test --release
    /// bench_set -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn bench_set() {
        let name = std::env::var("MATE_SET").unwrap_or_else(|_| "mate-7-ply.sfen".into());
        let limit: u64 = std::env::var("MATE_NODES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2_000_000);
        let path = format!("{}/tests/data/shogi/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap();
        let t0 = Instant::now();
        let mut total = 0u64;
        for (i, l) in text.lines().enumerate() {
            let p = Position::from_sfen(l.trim()).unwrap();
            let opts = MateOptions {
                hash_mb: 16,
                max_nodes: limit,
                ..Default::default()
            };
            let r = solve(&p, &opts);
            total += r.nodes;
            if r.ms > 200 || r.result != MateStatus::Mate || !r.shortest {
                println!(
                    "{i}: {:?} {} plies, {} nodes, {} ms, shortest {}: {}",
                    r.result, r.plies, r.nodes, r.ms, r.shortest, l
                );
            }
        }
        println!("{name}: total {total} nodes, {:?}", t0.elapsed());
    }
}

#[cfg(test)]
mod curated_report {
    use super::*;

    /// One line per curated row: id, expectation, result, length, nodes, time
    /// (`cargo test --release curated_report -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn curated_report() {
        let path = format!(
            "{}/tests/data/shogi/curated.tsv",
            env!("CARGO_MANIFEST_DIR")
        );
        for l in std::fs::read_to_string(path).unwrap().lines() {
            let f: Vec<&str> = l.split('\t').collect();
            if l.starts_with('#') || f.len() < 3 || f[0] == "kh-microcosmos" {
                continue;
            }
            let p = Position::from_sfen(f[1]).unwrap();
            let opts = MateOptions {
                hash_mb: 16,
                max_nodes: 20_000_000,
                ..Default::default()
            };
            let r = solve(&p, &opts);
            println!(
                "{}\t{}\t{:?}\t{}\t{}\t{}ms\tshortest={}",
                f[0], f[2], r.result, r.plies, r.nodes, r.ms, r.shortest
            );
        }
    }
}

#[cfg(test)]
mod microcosmos {
    use super::super::mate1::is_mating_line;
    use super::*;

    fn problem() -> (Position, Vec<Move>) {
        let dir = format!("{}/tests/data/shogi", env!("CARGO_MANIFEST_DIR"));
        let tsv = std::fs::read_to_string(format!("{dir}/curated.tsv")).unwrap();
        let row = tsv
            .lines()
            .find(|l| l.starts_with("kh-microcosmos\t"))
            .unwrap();
        let p = Position::from_sfen(row.split('\t').nth(1).unwrap()).unwrap();
        let text = std::fs::read_to_string(format!("{dir}/microcosmos-1525.usi")).unwrap();
        let mut q = p.clone();
        let mut moves = Vec::new();
        for w in text.split_whitespace() {
            let m = q.parse_usi_move(w).unwrap();
            moves.push(m);
            q.do_move(m);
        }
        (p, moves)
    }

    /// The published 1,525-ply solution is a legal mating line.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn published_solution_mates() {
        let (p, moves) = problem();
        assert_eq!(moves.len(), 1525);
        assert!(is_mating_line(&p, &moves));
    }

    /// `MICRO_MS=120000 MICRO_MB=4096 cargo test --release microcosmos_solve -- --ignored
    /// --nocapture`
    #[test]
    #[ignore]
    fn microcosmos_solve() {
        let (p, _) = problem();
        let env = |k: &str, d: u64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let opts = MateOptions {
            max_ms: env("MICRO_MS", 120_000),
            hash_mb: env("MICRO_MB", 2048) as usize,
            length: MateLength::Any,
            ..Default::default()
        };
        let r = solve(&p, &opts);
        println!(
            "microcosmos: {:?}, {} plies, {} nodes, {} ms",
            r.result, r.plies, r.nodes, r.ms
        );
        if r.result == MateStatus::Mate {
            assert!(is_mating_line(&p, &r.pv));
        }
    }
}
