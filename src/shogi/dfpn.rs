//! Mate search (詰将棋) by df-pn+: depth-first proof-number search with heuristic initial
//! values, for mates of any length.
//!
//! Conventions. The attacker is the side to move at the root (either colour; when it is in check
//! it must evade and check at once). Every attacker move gives check; the defender tries every
//! legal move, futile interpositions (無駄合) included, so lengths are strict. Legality follows the
//! reading in force (rules/shogi_mate.rule): a pawn drop that mates is illegal (with or without
//! check, as the reading says), and under the broad reading a move that completes a fourfold
//! repetition by perpetual check is illegal, with the game's history before the root counted.
//!
//! The search:
//! - **Transposition table** keyed by the board and side (hands removed), a bucket of entries
//!   per key; the hands are stored beside as bounds. A proof holds for any position with the same
//!   board where the attacker holds at least its *proof hand* and the defender at most its
//!   bound; a disproof the other way round (its *disproof hand*). Proof and disproof hands are
//!   computed as small as possible (large for disproofs) while the proof is built, so one entry
//!   serves many hands (優等局面).
//! - **Leaf tests**: a new child after a check that leaves no evasion is a mate; a new child
//!   after an evasion is first tried with the mate-in-one routine, in order, until one such
//!   child is unresolved: the defences after it wait for their own search (most positions after a
//!   check are given up before all their defences are searched, and the mate in one is the larger
//!   part of the cost of a new child).
//! - **Initial values** (df-pn+): a check is as hard to prove as the defender has evasions.
//! - **Delayed moves**: interpositions by drops on one square are expanded one kind after the
//!   other, and the non-promoting form of a pawn, lance, bishop or rook move after the promoting
//!   form, so that near-identical moves do not inflate the proof numbers.
//! - **Thresholds** with the 1+ε rule, so that the search does not flip between two children.
//! - **Ties**: of two children with the same number, the one with less work below it so far is
//!   searched first (the work is kept in the table with unresolved entries); a check that is new
//!   counts its defences as its work, so that of two checks whose capped proof numbers are equal
//!   the one with fewer defences goes first.
//! - **Repetition** (the graph-history problem): a position repeating one on the current path is a
//!   failure for the attacker there. A disproof that depends on such a repetition is kept only for
//!   that path (a table keyed by the path), never in the transposition table. Under the narrow
//!   readings the game does not depend on its history, so this is exact; under the broad reading
//!   results that looked at the history are kept for their path only, and the table is read only
//!   while no position has occurred twice.
//! - **Lengths**: every proof carries its length; a search may be limited to a ply budget, and a
//!   disproof records the largest budget it holds for. The shortest mate is found by searching
//!   again with budgets two plies shorter until none holds.

use super::bitboard::tables;
use super::checks::{generate_checks, generate_checks_unjudged};
use super::mate1::{has_evasion, mate_in_1_with};
use super::movegen::{MoveList, PawnDropMate};
use super::position::Position;
use super::readings::Reading;
use super::types::{Color, Hand, Move, PieceKind};
use rustc_hash::FxHashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Proof and disproof numbers: `INF` is proven (dn) or disproven (pn).
const INF: u32 = 1 << 30;
/// The largest value of an unresolved number.
const BIG: u32 = INF - 1;
/// Ply budget meaning "no limit"; as a disproof's validity, "for every budget".
const NO_LIMIT: u32 = 0xFFFF;
/// The deepest path searched; deeper lines are cut and the result is "unknown".
const MAX_DEPTH: u32 = 30_000;
/// No repetition is involved.
const NO_REP: u32 = u32::MAX;
/// New positions after a check with at most this many defences are looked at one ply further
/// (each defence in the table or with the mate-in-one routine). Measured on the oracle sets: a
/// deeper look finds proofs with fewer nodes but costs more time than it saves.
const LOOKAHEAD_MAX: usize = 1;
/// The first proof number of a new position after a check is its number of defences, at most
/// this. Measured on the published sets (nodes to the first proof, all 500 problems of each):
/// a cap of 20 gave 43,060 / 111,806 / 402,691 / 994,653 nodes on mate-5 / 7 / 9 / 11, a cap
/// of 3 gives 30,260 / 92,063 / 381,703 / 726,877 (6 and 2 lie between or above); these counts
/// predate the tie-break on work (see `select`), which brought them to 24,348 / 82,574 /
/// 375,919 / 705,841, and the defence count as the first work of a new check to 24,401 / 79,911
/// / 357,783 / 653,300.
const PN_CAP: u32 = 3;

/// Outcome of a mate search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateStatus {
    /// A forced mate was found.
    Mate,
    /// No forced mate exists (within the ply limit, if one was given).
    NoMate,
    /// The node or time limit was reached first, or the search was stopped.
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

/// What a progress callback sees.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub ms: u64,
    /// The root's proof and disproof numbers.
    pub pn: u32,
    pub dn: u32,
    /// The best mate length found so far (0: none yet).
    pub plies: u32,
}

/// A function called about every 100,000 nodes.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// Search options.
#[derive(Clone)]
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
    /// The reading whose legality the search follows.
    pub reading: Reading,
    /// Set from another thread to stop the search (the result is then `Unknown`, or the mate
    /// found so far when its length is not yet proven shortest).
    pub stop: Option<Arc<AtomicBool>>,
    /// Called now and then with the state of the search.
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for MateOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MateOptions")
            .field("max_nodes", &self.max_nodes)
            .field("max_ms", &self.max_ms)
            .field("hash_mb", &self.hash_mb)
            .field("length", &self.length)
            .field("max_plies", &self.max_plies)
            .field("reading", &self.reading)
            .finish_non_exhaustive()
    }
}

impl Default for MateOptions {
    fn default() -> Self {
        MateOptions {
            max_nodes: 0,
            max_ms: 0,
            hash_mb: 64,
            length: MateLength::Shortest,
            max_plies: 0,
            reading: Reading::NARROW,
            stop: None,
            progress: None,
        }
    }
}

/// Result of a search.
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
    /// The deepest path the search went down, in plies from the root.
    pub max_depth: u32,
}

// ------------------------------------------------------------------------------------------
// Hands packed in 32 bits, a field per kind with a guard bit above it, so that "holds at least
// as much of every kind" is one subtraction.

mod hand {
    use super::Hand;

    /// Bit offset and largest value of each kind's field (pawn, lance, knight, silver, gold,
    /// bishop, rook).
    const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 22, 25];
    const MAXV: [u32; 7] = [31, 7, 7, 7, 7, 3, 3];
    const GUARD: u32 =
        (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 24) | (1 << 27);
    /// Every field at its largest value: "as much as you like".
    pub const FULL: u32 = 31 | (7 << 6) | (7 << 10) | (7 << 14) | (7 << 18) | (3 << 22) | (3 << 25);

    /// The packed hand, assuming every count fits (see [`fits`]).
    #[inline]
    pub fn pack_unchecked(h: &Hand) -> u32 {
        (0..7).fold(0, |v, k| v | (h.get(k) as u32) << SHIFT[k])
    }

    /// The packed hand, or `None` if a count does not fit (more pieces than the game has).
    pub fn pack(h: &Hand) -> Option<u32> {
        let mut v = 0;
        for k in 0..7 {
            let n = h.get(k) as u32;
            if n > MAXV[k] {
                return None;
            }
            v |= n << SHIFT[k];
        }
        Some(v)
    }

    #[inline(always)]
    pub fn get(h: u32, k: usize) -> u32 {
        (h >> SHIFT[k]) & MAXV[k]
    }

    /// `a` holds at least as much of every kind as `b`.
    #[inline(always)]
    pub fn superior(a: u32, b: u32) -> bool {
        ((a | GUARD) - b) & GUARD == GUARD
    }

    /// One more of kind `k` (staying at the largest value).
    #[inline]
    pub fn add1(h: u32, k: usize) -> u32 {
        if get(h, k) < MAXV[k] {
            h + (1 << SHIFT[k])
        } else {
            h
        }
    }

    /// One less of kind `k` (staying at zero).
    #[inline]
    pub fn sub1(h: u32, k: usize) -> u32 {
        if get(h, k) > 0 {
            h - (1 << SHIFT[k])
        } else {
            h
        }
    }

    /// Kind `k` set to `n`.
    #[inline]
    pub fn set(h: u32, k: usize, n: u32) -> u32 {
        (h & !(MAXV[k] << SHIFT[k])) | (n.min(MAXV[k]) << SHIFT[k])
    }

    /// The larger count of each kind.
    pub fn max(a: u32, b: u32) -> u32 {
        (0..7).fold(0, |v, k| v | get(a, k).max(get(b, k)) << SHIFT[k])
    }

    /// The smaller count of each kind.
    pub fn min(a: u32, b: u32) -> u32 {
        (0..7).fold(0, |v, k| v | get(a, k).min(get(b, k)) << SHIFT[k])
    }
}

// ------------------------------------------------------------------------------------------
// Values of nodes.

/// The value of a node: unresolved numbers, or a proof or disproof with its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Val {
    pn: u32,
    dn: u32,
    /// Proof: its length in plies. Disproof: the largest ply budget it holds for.
    len: u32,
    /// Proof: the attacker's proof hand; disproof: the disproof hand.
    ha: u32,
    /// Proof: the most the defender may hold; disproof: the least.
    hd: u32,
    /// The bounds are the exact hands (a pawn-drop judgement depended on them).
    exact: bool,
    /// The result depends on the path above this depth (a repetition, or the history under the
    /// broad reading); `NO_REP` when it does not.
    rep: u32,
    /// Unresolved: the nodes searched below it so far (a tie-break between equal numbers).
    work: u32,
}

impl Val {
    const fn unknown(pn: u32, dn: u32) -> Val {
        Val {
            pn,
            dn,
            len: 0,
            ha: 0,
            hd: 0,
            exact: false,
            rep: NO_REP,
            work: 0,
        }
    }

    const fn proof(len: u32, ha: u32, hd: u32) -> Val {
        Val {
            pn: 0,
            dn: INF,
            len,
            ha,
            hd,
            exact: false,
            rep: NO_REP,
            work: 0,
        }
    }

    const fn disproof(valid: u32, ha: u32, hd: u32) -> Val {
        Val {
            pn: INF,
            dn: 0,
            len: valid,
            ha,
            hd,
            exact: false,
            rep: NO_REP,
            work: 0,
        }
    }

    /// A failure by repetition of the position at path depth `d`.
    const fn repetition(d: u32) -> Val {
        Val {
            pn: INF,
            dn: 0,
            len: NO_LIMIT,
            ha: hand::FULL,
            hd: 0,
            exact: false,
            rep: d,
            work: 0,
        }
    }

    #[inline]
    fn resolved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

// ------------------------------------------------------------------------------------------
// The transposition table.

/// An entry of the table. Its key carries the table's generation in its top byte, so that
/// entries of earlier searches read as empty without clearing the table.
#[derive(Clone, Copy, Default, bytemuck::Zeroable)]
struct Entry {
    key: u64,
    ha: u32,
    hd: u32,
    pn: u32,
    dn: u32,
    amount: u32,
    len: u16,
    exact: bool,
}

const BUCKET: usize = 4;

/// The entries of one bucket: two cache lines, fetched together.
#[derive(Clone, Copy, Default, bytemuck::Zeroable)]
#[repr(align(128))]
struct Bucket([Entry; BUCKET]);

/// The transposition table: buckets of four entries.
///
/// A search starts on a small part of the table (the first `FIRST_PART` buckets) and doubles the
/// part in use whenever it holds two stores per bucket, moving the entries whose bucket changes.
/// So a short search touches a few contiguous pages, and a batch of short problems reuses the
/// same ones instead of faulting in the whole table.
struct Table {
    buckets: super::memory::ZeroedArray<Bucket>,
    /// The whole table, and the part in use by this search (masks of bucket indices).
    mask: usize,
    active: usize,
    /// Stores made by this search.
    stored: u64,
    /// The largest part ever used: what must be cleared when the generations wrap.
    used: usize,
    gen: u8,
    huge: bool,
}

/// Buckets of the part of the table a search starts on (512 KiB).
const FIRST_PART: usize = 1 << 12;

/// Size of the part in use from which huge pages are asked for (fewer address-translation
/// misses on a table read at random; each is slow to fault in, so not for short searches).
const HUGE_FROM_BYTES: usize = 32 << 20;

impl Table {
    fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<Bucket>()).max(2);
        let mut count = 1usize;
        while count * 2 <= n {
            count *= 2;
        }
        // Halve the table until the memory can be had. The memory comes zeroed from the
        // system (an all-zero entry is empty) and is touched only where the search writes.
        loop {
            if let Some(buckets) = super::memory::ZeroedArray::new(count) {
                let first = (count.min(FIRST_PART)) - 1;
                return Table {
                    buckets,
                    mask: count - 1,
                    active: first,
                    stored: 0,
                    used: first,
                    gen: 1,
                    huge: false,
                };
            }
            assert!(count > 1, "no memory for a table of one bucket");
            count /= 2;
        }
    }

    /// Forgets every entry (in constant time: entries of older generations are ignored).
    fn new_search(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.buckets[..=self.used]
                .iter_mut()
                .for_each(|b| *b = Bucket::default());
            self.gen = 1;
        }
        self.active = self.mask.min(FIRST_PART - 1);
        self.stored = 0;
    }

    /// Doubles the part in use: an entry of this search in bucket `i` either stays or moves to
    /// bucket `i + old size`, which held nothing of this search.
    fn grow(&mut self) {
        let old = self.active + 1;
        self.active = self.active * 2 + 1;
        self.used = self.used.max(self.active);
        if !self.huge && (self.active + 1) * std::mem::size_of::<Bucket>() >= HUGE_FROM_BYTES {
            self.huge = true;
            self.buckets.advise_huge_pages();
        }
        let gen = self.gen as u64;
        for i in 0..old {
            let mut free = 0;
            for j in 0..BUCKET {
                let e = self.buckets[i].0[j];
                if e.key == 0 || e.key >> 56 != gen {
                    continue;
                }
                let b = self.bucket(e.key);
                if b != i {
                    // The slots of bucket `i + old` hold older generations only (it was out of
                    // this search's reach): they read as empty and may be overwritten.
                    self.buckets[b].0[free] = e;
                    free += 1;
                    self.buckets[i].0[j] = Entry::default();
                }
            }
        }
    }

    #[inline]
    fn tag(&self, key: u64) -> u64 {
        (key & !(0xFF << 56)) | ((self.gen as u64) << 56)
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key >> 20) as usize & self.active
    }

    /// Brings the bucket of `key` into the cache.
    #[inline]
    fn prefetch(&self, key: u64) {
        let b = &self.buckets[self.bucket(key)].0;
        super::memory::prefetch(&b[0]);
        super::memory::prefetch(&b[BUCKET / 2]);
    }

    /// What the table knows of the board `key` with hands `ha`, `hd`, searched with `budget`.
    fn probe(&self, key: u64, ha: u32, hd: u32, budget: u32) -> Option<Val> {
        let tag = self.tag(key);
        let mut found = None;
        for e in &self.buckets[self.bucket(key)].0 {
            if e.key != tag {
                continue;
            }
            if e.pn == 0 {
                let fits = if e.exact {
                    e.ha == ha && e.hd == hd
                } else {
                    hand::superior(ha, e.ha) && hand::superior(e.hd, hd)
                };
                if e.len as u32 <= budget && fits {
                    let mut v = Val::proof(e.len as u32, e.ha, e.hd);
                    v.exact = e.exact;
                    return Some(v);
                }
            } else if e.dn == 0 {
                let fits = if e.exact {
                    e.ha == ha && e.hd == hd
                } else {
                    hand::superior(e.ha, ha) && hand::superior(hd, e.hd)
                };
                if e.len as u32 >= budget && fits {
                    let mut v = Val::disproof(e.len as u32, e.ha, e.hd);
                    v.exact = e.exact;
                    return Some(v);
                }
            } else if e.ha == ha && e.hd == hd {
                let mut v = Val::unknown(e.pn, e.dn);
                v.work = e.amount;
                found = Some(v);
            }
        }
        found
    }

    /// Stores a value; unresolved values are stored for the exact hands.
    fn store(&mut self, key: u64, v: &Val, ha: u32, hd: u32, amount: u64) {
        let (eha, ehd) = if v.resolved() { (v.ha, v.hd) } else { (ha, hd) };
        if self.stored >= (self.active as u64 + 1) * 2 && self.active < self.mask {
            self.grow();
        }
        self.stored += 1;
        let b = self.bucket(key);
        let tag = self.tag(key);
        let gen_bits = (self.gen as u64) << 56;
        let mut victim = 0;
        let mut least = u64::MAX;
        for i in 0..BUCKET {
            let e = &self.buckets[b].0[i];
            let k = e.key;
            if k & (0xFF << 56) != gen_bits || k == 0 {
                victim = i;
                break;
            }
            if k == tag && e.ha == eha && e.hd == ehd {
                victim = i;
                break;
            }
            if k == tag && !v.resolved() && e.pn != 0 && e.dn != 0 && e.ha == ha && e.hd == hd {
                victim = i;
                break;
            }
            // Unresolved entries go first; then the ones that took least work.
            let w = e.amount as u64 * if e.pn == 0 || e.dn == 0 { 4 } else { 1 };
            if w < least {
                least = w;
                victim = i;
            }
        }
        self.buckets[b].0[victim] = Entry {
            key: tag,
            ha: eha,
            hd: ehd,
            pn: v.pn,
            dn: v.dn,
            len: v.len.min(NO_LIMIT) as u16,
            exact: v.exact,
            amount: amount.min(u32::MAX as u64) as u32,
        };
    }
}

// ------------------------------------------------------------------------------------------
// The search.

#[derive(Clone, Copy)]
struct Child {
    m: Move,
    v: Val,
    /// The full key of the position after the move.
    key: u64,
    /// The next move of a delayed chain (`u32::MAX`: none).
    next: u32,
    active: bool,
}

/// The positions on the current path (board key and both hands), with a counting filter on
/// the board keys so that most lookups of deep paths need no scan.
struct Path {
    entries: Vec<(u64, u32, u32)>,
    filter: Vec<u16>,
}

impl Path {
    const BITS: usize = 1 << 14;

    fn new() -> Path {
        Path {
            entries: Vec::new(),
            filter: vec![0; Self::BITS],
        }
    }

    fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    fn push(&mut self, bk: u64, ha: u32, hd: u32) {
        self.entries.push((bk, ha, hd));
        self.filter[(bk >> 7) as usize % Self::BITS] += 1;
    }

    #[inline]
    fn pop(&mut self) {
        if let Some((k, _, _)) = self.entries.pop() {
            self.filter[(k >> 7) as usize % Self::BITS] -= 1;
        }
    }

    /// The depth (1 = the root) of the deepest position on the path that has the board `bk`
    /// and is at least as good for the attacker as hands `ha`, `hd`: reaching it again (or
    /// something weaker) gains nothing, so the line fails there (a repetition, or an inferior
    /// one).
    #[inline]
    fn find_inferior(&self, bk: u64, ha: u32, hd: u32) -> Option<u32> {
        if self.filter[(bk >> 7) as usize % Self::BITS] == 0 {
            return None;
        }
        self.entries
            .iter()
            .rposition(|&(k, a, d)| k == bk && hand::superior(a, ha) && hand::superior(hd, d))
            .map(|i| i as u32 + 1)
    }

    fn clear(&mut self) {
        while !self.entries.is_empty() {
            self.pop();
        }
    }
}

/// The history under the broad reading: occurrences of each position and, per position, whether
/// the side to move was in check.
#[derive(Default)]
struct History {
    /// (full key, side to move, side to move in check), oldest first, the path included.
    seq: Vec<(u64, Color, bool)>,
    counts: FxHashMap<u64, u32>,
    /// Keys that occur at least twice / three times.
    twice: u32,
    thrice: u32,
}

impl History {
    fn push(&mut self, p: &Position) {
        let k = p.key();
        self.seq.push((k, p.side_to_move(), p.in_check()));
        let c = self.counts.entry(k).or_insert(0);
        *c += 1;
        if *c == 2 {
            self.twice += 1;
        }
        if *c == 3 {
            self.thrice += 1;
        }
    }

    fn pop(&mut self) {
        if let Some((k, _, _)) = self.seq.pop() {
            if let Some(c) = self.counts.get_mut(&k) {
                if *c == 2 {
                    self.twice -= 1;
                }
                if *c == 3 {
                    self.thrice -= 1;
                }
                *c -= 1;
                if *c == 0 {
                    self.counts.remove(&k);
                }
            }
        }
    }

    fn count(&self, k: u64) -> u32 {
        self.counts.get(&k).copied().unwrap_or(0)
    }

    /// Would the position `p`, reached by a move of the side not to move in `p`, complete a
    /// fourfold repetition by that side's perpetual check (and not by the other side's)? Only
    /// meaningful when `p` occurs three times already.
    fn perpetual_forbidden(&self, p: &Position) -> bool {
        let k = p.key();
        if self.count(k) < 3 {
            return false;
        }
        // The run starts at the first of the last three earlier occurrences.
        let mut seen = 0;
        let mut start = self.seq.len();
        for (i, &(x, _, _)) in self.seq.iter().enumerate().rev() {
            if x == k {
                seen += 1;
                if seen == 3 {
                    start = i;
                    break;
                }
            }
        }
        let to_move = p.side_to_move();
        let last_check = p.in_check();
        let checked_throughout = |s: Color, last: bool| {
            self.seq[start..]
                .iter()
                .filter(|&&(_, side, _)| side == s)
                .all(|&(_, _, chk)| chk)
                && (p.side_to_move() != s || last)
        };
        checked_throughout(to_move, last_check) && !checked_throughout(to_move.flip(), last_check)
    }
}

/// Key of the board and side (hands removed from the position key); never 0 (an empty slot).
#[inline]
fn board_key(p: &Position) -> u64 {
    p.board_key() | 1
}

#[inline]
fn path_key(pk: u64, child: u64) -> u64 {
    (pk.rotate_left(17) ^ child).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// `th - total + child`, the child's threshold under a sum rule.
#[inline]
fn sub_th(th: u32, total: u32, child: u32) -> u32 {
    (th as u64 + child as u64)
        .saturating_sub(total as u64)
        .min(INF as u64) as u32
}

/// The 1+ε threshold above the second-best child.
#[inline]
fn eps_th(second: u32) -> u32 {
    (second as u64 + second as u64 / 4 + 1).min(INF as u64) as u32
}

/// The hand index of the piece a move captures, if any.
#[inline]
fn captured_kind(p: &Position, m: Move) -> Option<usize> {
    if m.is_drop() {
        return None;
    }
    let c = p.board[m.to().index()];
    if c == 0 {
        return None;
    }
    let k = PieceKind::ALL[((c & 15) - 1) as usize].unpromoted().index();
    (k < 7).then_some(k)
}

struct Search<'a> {
    tt: &'a mut Table,
    attacker: Color,
    reading: Reading,
    broad: bool,
    nodes: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop_flag: Option<Arc<AtomicBool>>,
    stopped: bool,
    next_check: u64,
    next_report: u64,
    t0: Instant,
    progress: Option<ProgressFn>,
    best_plies: u32,
    path: Path,
    history: History,
    rep_table: &'a mut FxHashMap<u64, Val>,
    children: &'a mut Vec<Child>,
    scratch: &'a mut MoveList,
    capped: bool,
    max_depth: u32,
    mate_buf: &'a mut Vec<Move>,
    /// Set while a new set of defences is looked at once one of them is found unresolved: the
    /// defences after it are not tried with the mate-in-one routine (see `mid`).
    defer: bool,
}

/// The working memory of a search, kept by the solver from one problem to the next (a batch of
/// short problems would otherwise spend much of its time allocating and faulting it in).
struct Buffers {
    rep_table: FxHashMap<u64, Val>,
    children: Vec<Child>,
    scratch: Box<MoveList>,
    mate_buf: Vec<Move>,
}

impl Buffers {
    fn new() -> Buffers {
        Buffers {
            rep_table: FxHashMap::default(),
            children: Vec::with_capacity(4096),
            scratch: Box::new(MoveList::new()),
            mate_buf: Vec::with_capacity(128),
        }
    }
}

impl Search<'_> {
    #[inline]
    fn hands(&self, p: &Position) -> (u32, u32) {
        // The root's hands fit (checked before the search) and no more pieces appear.
        let a = self.attacker.index();
        (
            hand::pack_unchecked(&p.hands[a]),
            hand::pack_unchecked(&p.hands[a ^ 1]),
        )
    }

    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.max_nodes != 0 && self.nodes >= self.max_nodes {
            self.stopped = true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 4096;
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.stopped = true;
                }
            }
            if let Some(f) = &self.stop_flag {
                if f.load(Ordering::Relaxed) {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    fn report(&mut self, pn: u32, dn: u32) {
        if self.nodes < self.next_report {
            return;
        }
        self.next_report = self.nodes + 100_000;
        if let Some(f) = &self.progress {
            f(&Progress {
                nodes: self.nodes,
                ms: self.t0.elapsed().as_millis() as u64,
                pn,
                dn,
                plies: self.best_plies,
            });
        }
    }

    /// Does the table apply here? Under the broad reading only while no position has occurred
    /// twice (see the module documentation).
    #[inline]
    fn table_usable(&self) -> bool {
        !self.broad || self.history.twice == 0
    }

    /// The most the defender may hold for a proof at `p` (defender to move, in check) to stay a
    /// proof as far as this node's own moves go: when the check can be interposed, a kind the
    /// defender lacks would add drops.
    fn interposition_bound(&self, p: &Position, hd: u32) -> u32 {
        let t = tables();
        let us = p.side;
        let ksq = p.king[us.index()] as usize;
        if ksq >= 81 {
            return hand::FULL;
        }
        let checkers = p.attackers_occ(ksq, us.flip(), p.occ());
        if checkers == 0 || checkers & (checkers - 1) != 0 {
            return hand::FULL;
        }
        if t.between(ksq, checkers.trailing_zeros() as usize) == 0 {
            return hand::FULL;
        }
        let mut b = hand::FULL;
        for k in 0..7 {
            if hand::get(hd, k) == 0 {
                b = hand::set(b, k, 0);
            }
        }
        b
    }

    /// The defender's legal moves at `p` under the reading; true if the bounds must be exact
    /// (a pawn drop was judged by the attacker's hand).
    fn gen_defences(&mut self, p: &Position) -> bool {
        self.scratch.clear();
        p.generate_legal(self.scratch);
        let mut exact = false;
        if self.reading.pawn_drop_mate == PawnDropMate::NoMoveLeft
            && p.hands[p.side.index()].get(0) != 0
            && p.king[self.attacker.index()] < 81
        {
            self.scratch.retain(|m| {
                if m.drop_kind() != Some(PieceKind::Pawn) {
                    return true;
                }
                let keep = p.after(m).has_legal_move_with(PawnDropMate::NoMoveLeft);
                if !keep {
                    exact = true;
                }
                keep
            });
        }
        exact
    }

    /// Under the broad reading, with a position occurring three times: drop the moves that
    /// complete the mover's perpetual check, and the pawn drops all of whose answers do.
    /// Returns true if the history was looked at.
    fn broad_filter(&mut self, p: &mut Position) -> bool {
        if !self.broad || self.history.thrice == 0 {
            return false;
        }
        let moves: Vec<Move> = self.scratch.as_slice().to_vec();
        self.scratch.clear();
        for m in moves {
            let u = p.do_move(m);
            let mut keep = !self.history.perpetual_forbidden(p);
            if keep && m.drop_kind() == Some(PieceKind::Pawn) {
                // The answers to the pawn drop, judged with the history.
                let answers = p.legal_moves_with(self.reading.pawn_drop_mate);
                let could_mate = !self.reading.mate_needs_check() || p.in_check();
                if could_mate {
                    self.history.push(p);
                    let mut any = false;
                    for &a in answers.iter() {
                        let ua = p.do_move(a);
                        let ok = !self.history.perpetual_forbidden(p);
                        p.undo_move(a, ua);
                        if ok {
                            any = true;
                            break;
                        }
                    }
                    self.history.pop();
                    keep = any;
                }
            }
            p.undo_move(m, u);
            if keep {
                self.scratch.push(m);
            }
        }
        true
    }

    /// Are the defender's legal moves at `p` those of the standard rule (no pawn drop judged by the
    /// reading, no history looked at)?
    fn plain_defences(&self, p: &Position) -> bool {
        let pawn_rule = self.reading.pawn_drop_mate == PawnDropMate::NoMoveLeft
            && p.hands[p.side.index()].get(0) != 0
            && p.king[self.attacker.index()] < 81;
        !(pawn_rule || self.broad && self.history.thrice > 0)
    }

    /// Is the defender to move at `p` (in check) without a legal move under the reading?
    fn is_mated(&mut self, p: &mut Position) -> bool {
        if !has_evasion(p) {
            return true;
        }
        let pawn_rule = self.reading.pawn_drop_mate == PawnDropMate::NoMoveLeft
            && p.hands[p.side.index()].get(0) != 0
            && p.king[self.attacker.index()] < 81;
        if !(pawn_rule || self.broad && self.history.thrice > 0) {
            return false;
        }
        self.gen_defences(p);
        self.broad_filter(p);
        self.scratch.is_empty()
    }

    /// The first value of a child position `p` (already played): repetition, the tables, a
    /// leaf test, or the df-pn+ estimate.
    fn child_init(&mut self, p: &mut Position, budget: u32, pk: u64) -> Val {
        let ck = p.key();
        let key = board_key(p);
        let (ha, hd) = self.hands(p);
        if self.broad {
            if self.history.count(ck) >= 4 {
                // A fifth occurrence: the line ends without mate.
                return Val::repetition(0);
            }
        } else if let Some(d) = self.path.find_inferior(key, ha, hd) {
            return Val::repetition(d);
        }
        if let Some(v) = self.rep_table.get(&path_key(pk, ck)) {
            // Kept for this path; the budget must fit as in the table.
            if (v.dn == 0 && v.len >= budget) || (v.pn == 0 && v.len <= budget) {
                return *v;
            }
        }
        if self.table_usable() {
            if let Some(v) = self.tt.probe(key, ha, hd, budget) {
                return v;
            }
        }
        let simple = !self.broad || self.history.thrice == 0;
        if p.side != self.attacker {
            // After a check.
            let n = p.count_legal();
            // No legal move under the standard pawn-drop rule means none under any reading;
            // some moves may still all be forbidden under the others.
            if n == 0 || (!self.plain_defences(p) && self.is_mated(p)) {
                let v = Val::proof(0, 0, self.interposition_bound(p, hd));
                if self.table_usable() && simple {
                    self.tt.store(key, &v, ha, hd, 1);
                }
                return v;
            }
            if simple && self.table_usable() {
                if n <= LOOKAHEAD_MAX {
                    return self.and_lookahead(p, key, ha, hd, budget);
                }
                let mut v = Val::unknown((n as u32).min(PN_CAP), 1);
                self.tt.store(key, &v, ha, hd, 1);
                // The tie-break among checks of equal (capped) proof number: fewer defences
                // first. The table entry stored above counts 1; when this child is searched from
                // here, its work is counted on from the defences (`prior` of `mid`).
                v.work = n as u32;
                return v;
            }
            Val::unknown((n as u32).clamp(1, PN_CAP), 1)
        } else {
            // After an evasion.
            if self.defer {
                // Not tried yet; counted as one unit of work, like a defence that was tried,
                // so that the defences are searched in their order.
                let mut v = Val::unknown(1, 1);
                v.work = 1;
                return v;
            }
            if budget >= 1 && simple {
                if let Some(m) = mate_in_1_with(p, self.mate_buf) {
                    let ph = match m.drop_kind() {
                        Some(k) => hand::add1(0, k.index()),
                        None => 0,
                    };
                    let u = p.do_move(m);
                    let bound = self.interposition_bound(p, hd);
                    p.undo_move(m, u);
                    let v = Val::proof(1, ph, bound);
                    if self.table_usable() {
                        self.tt.store(key, &v, ha, hd, 1);
                    }
                    return v;
                }
                // Remembered, so that the mate-in-one test is not made again.
                if self.table_usable() {
                    self.tt.store(key, &Val::unknown(1, 1), ha, hd, 1);
                }
            }
            Val::unknown(1, 1)
        }
    }

    /// Reads the table buckets of the children from `base` on, so that the memory loads overlap
    /// (the probes that follow find them in the cache).
    fn warm(&self, p: &Position, base: usize) {
        if !self.table_usable() {
            return;
        }
        for c in &self.children[base..] {
            self.tt.prefetch(p.board_key_after(c.m) | 1);
        }
    }

    /// A new position after a check (`p`, defender to move, not mated): each defence is looked
    /// up in the table or tried with the mate-in-one routine. If every defence is answered, the
    /// position is proven (a mate in three from the check); otherwise its proof number is the
    /// number of defences left unanswered (a fixed-depth search at new nodes).
    fn and_lookahead(&mut self, p: &mut Position, key: u64, ha: u32, hd: u32, budget: u32) -> Val {
        let exact = self.gen_defences(p);
        let n = self.scratch.len();
        if n == 0 {
            let mut v = Val::proof(0, 0, self.interposition_bound(p, hd));
            v.exact = exact;
            self.tt.store(key, &v, ha, hd, 1);
            return v;
        }
        if n > LOOKAHEAD_MAX || budget < 2 {
            let v = Val::unknown((n as u32).min(PN_CAP), 1);
            self.tt.store(key, &v, ha, hd, 1);
            return v;
        }
        let mut moves = [Move::drop(PieceKind::Pawn, super::types::Square::new_unchecked(0)); 24];
        moves[..n].copy_from_slice(self.scratch.as_slice());
        for &m in &moves[..n] {
            self.tt.prefetch(p.board_key_after(m) | 1);
        }
        let cb = if budget >= NO_LIMIT {
            NO_LIMIT
        } else {
            budget - 1
        };
        let mut open = 0u32;
        let mut len = 0;
        let mut ph = 0;
        let mut bound = self.interposition_bound(p, hd);
        for &m in &moves[..n] {
            let u = p.do_move(m);
            let mut v = None;
            let ck = board_key(p);
            let (cha, chd) = self.hands(p);
            let repeated = if self.broad {
                self.history.count(p.key()) > 0
            } else {
                self.path.find_inferior(ck, cha, chd).is_some()
            };
            if !repeated {
                match self.tt.probe(ck, cha, chd, cb) {
                    Some(t) if t.pn == 0 => v = Some(t),
                    Some(t) if t.dn == 0 => {
                        p.undo_move(m, u);
                        // A defence that holds: the check fails.
                        let mut d = t;
                        let mut b = t.hd;
                        if let Some(k) = m.drop_kind() {
                            b = hand::add1(b, k.index());
                        } else if let Some(k) = captured_kind(p, m) {
                            b = hand::sub1(b, k);
                        }
                        d.len = if t.len >= NO_LIMIT {
                            NO_LIMIT
                        } else {
                            t.len + 1
                        };
                        d.ha = hand::max(t.ha, ha);
                        d.hd = hand::min(b, hd);
                        d.exact |= exact;
                        if d.exact {
                            d.ha = ha;
                            d.hd = hd;
                        }
                        self.tt.store(key, &d, ha, hd, 1);
                        return d;
                    }
                    _ => {
                        if cb >= 1 {
                            if let Some(mm) = mate_in_1_with(p, self.mate_buf) {
                                let mph = match mm.drop_kind() {
                                    Some(k) => hand::add1(0, k.index()),
                                    None => 0,
                                };
                                let u2 = p.do_move(mm);
                                let b2 = self.interposition_bound(p, chd);
                                p.undo_move(mm, u2);
                                let t = Val::proof(1, mph, b2);
                                self.tt.store(ck, &t, cha, chd, 1);
                                v = Some(t);
                            } else {
                                self.tt.store(ck, &Val::unknown(1, 1), cha, chd, 1);
                            }
                        }
                    }
                }
            }
            p.undo_move(m, u);
            match v {
                Some(t) => {
                    len = len.max(t.len + 1);
                    ph = hand::max(ph, t.ha);
                    let mut b = t.hd;
                    if let Some(k) = m.drop_kind() {
                        b = hand::add1(b, k.index());
                    } else if let Some(k) = captured_kind(p, m) {
                        b = hand::sub1(b, k);
                    }
                    bound = hand::min(bound, b);
                }
                None => open += 1,
            }
        }
        if open == 0 {
            let mut v = Val::proof(len, hand::min(ph, ha), hand::max(bound, hd));
            v.exact = exact;
            if v.exact {
                v.ha = ha;
                v.hd = hd;
            }
            self.tt.store(key, &v, ha, hd, 1);
            return v;
        }
        let v = Val::unknown(open.min(20), 1);
        self.tt.store(key, &v, ha, hd, 1);
        v
    }

    /// Links the delayed moves among the children `base..end` and activates the heads.
    fn link_delayed(&mut self, p: &Position, base: usize, end: usize, or: bool) {
        let mut last_drop = [u32::MAX; 81];
        for i in base..end {
            let m = self.children[i].m;
            let pred = if m.is_drop() {
                if or {
                    continue;
                }
                let to = m.to().index();
                let prev = last_drop[to];
                last_drop[to] = i as u32;
                prev
            } else if !m.is_promotion() && i > base {
                // The promoting form is generated just before the plain one.
                let prev = self.children[i - 1].m;
                let f = m.from().map(|s| s.index()).unwrap_or(81);
                let kind = PieceKind::ALL[((p.board[f.min(80)] & 15).max(1) - 1) as usize];
                let delay = matches!(
                    kind,
                    PieceKind::Pawn | PieceKind::Lance | PieceKind::Bishop | PieceKind::Rook
                );
                if delay && prev.is_promotion() && prev.from() == m.from() && prev.to() == m.to() {
                    (i - 1) as u32
                } else {
                    u32::MAX
                }
            } else {
                u32::MAX
            };
            if pred != u32::MAX {
                self.children[pred as usize].next = i as u32;
                self.children[i].active = false;
            }
        }
        // A head already resolved the expected way hands on to its successor.
        for i in base..end {
            if self.children[i].active {
                self.hand_on(i, or);
            }
        }
    }

    /// Activates the successors of child `i` while it is resolved the expected way (proven at
    /// an AND node, disproven at an OR node).
    fn hand_on(&mut self, mut i: usize, or: bool) {
        loop {
            let c = &self.children[i];
            let done = if or { c.v.dn == 0 } else { c.v.pn == 0 };
            if !done || c.next == u32::MAX {
                return;
            }
            let n = c.next as usize;
            self.children[n].active = true;
            i = n;
        }
    }

    /// (pn, dn) of the node from its children.
    fn aggregate(&self, base: usize, end: usize, or: bool) -> (u32, u32) {
        let cs = &self.children[base..end];
        if or {
            let mut pn = INF;
            let mut dn: u64 = 0;
            for c in cs {
                if c.v.pn == 0 {
                    return (0, INF);
                }
                if c.active {
                    pn = pn.min(c.v.pn);
                    dn += c.v.dn as u64;
                }
            }
            if dn == 0 {
                return (INF, 0);
            }
            (pn, dn.min(BIG as u64) as u32)
        } else {
            let mut pn: u64 = 0;
            let mut dn = INF;
            for c in cs {
                if c.v.dn == 0 {
                    return (INF, 0);
                }
                if c.active {
                    pn += c.v.pn as u64;
                    dn = dn.min(c.v.dn);
                }
            }
            if pn == 0 {
                return (0, INF);
            }
            (pn.min(BIG as u64) as u32, dn)
        }
    }

    /// The active child to search and the second-best value.
    fn select(&self, base: usize, end: usize, or: bool) -> (usize, u32) {
        let mut best = usize::MAX;
        let mut v1 = u32::MAX;
        let mut v2 = u32::MAX;
        let mut bv = u32::MAX;
        for (i, c) in self.children[base..end].iter().enumerate() {
            if !c.active {
                continue;
            }
            let v = if or { c.v.pn } else { c.v.dn };
            if v < v1 || (v == v1 && c.v.work < bv) {
                v2 = v1;
                v1 = v;
                bv = c.v.work;
                best = base + i;
            } else if v < v2 {
                v2 = v;
            }
        }
        (best, v2.min(INF))
    }

    /// Multiple iterative deepening at `p`, `budget` plies left, `pk` the path key.
    fn mid(
        &mut self,
        p: &mut Position,
        thpn: u32,
        thdn: u32,
        budget: u32,
        pk: u64,
        prior: u32,
    ) -> Val {
        self.nodes += 1;
        let depth = self.path.len() as u32 + 1;
        self.max_depth = self.max_depth.max(depth);
        let or = p.side == self.attacker;
        if or && budget == 0 {
            return Val::disproof(0, hand::FULL, 0);
        }
        if depth > MAX_DEPTH {
            self.capped = true;
            return Val::repetition(0);
        }
        let key = board_key(p);
        let (ha, hd) = self.hands(p);
        let start = self.nodes;
        // The moves.
        let mut exact = false;
        if or {
            // Pawn drops that mate are found mated below and left out then.
            self.scratch.clear();
            generate_checks_unjudged(p, &mut *self.scratch);
        } else {
            exact = self.gen_defences(p);
        }
        let mut node_rep = NO_REP;
        if self.broad_filter(p) {
            node_rep = 0;
        }
        if self.scratch.is_empty() {
            let mut v = if or {
                // No check: no mate, whatever more of the kinds already held.
                let mut d = hand::FULL;
                for k in 0..7 {
                    if hand::get(ha, k) == 0 {
                        d = hand::set(d, k, 0);
                    }
                }
                Val::disproof(NO_LIMIT, d, 0)
            } else {
                Val::proof(0, 0, self.interposition_bound(p, hd))
            };
            v.exact = exact;
            v.rep = node_rep;
            return self.finish_store(key, ha, hd, v, depth, pk, 1);
        }
        if !or && budget < 2 {
            return Val::disproof(budget, hand::FULL, 0);
        }
        let cb = if budget >= NO_LIMIT {
            NO_LIMIT
        } else {
            budget - 1
        };
        if self.broad {
            self.history.push(p);
        }
        self.path.push(key, ha, hd);
        let base = self.children.len();
        for &m in self.scratch.as_slice() {
            self.children.push(Child {
                m,
                v: Val::unknown(1, 1),
                key: 0,
                next: u32::MAX,
                active: true,
            });
        }
        self.warm(p, base);
        for i in base..self.children.len() {
            let m = self.children[i].m;
            let u = p.do_move(m);
            let ck = p.key();
            let mut v = self.child_init(p, cb, pk);
            p.undo_move(m, u);
            if or && v.pn == 0 && v.len == 0 && m.drop_kind() == Some(PieceKind::Pawn) {
                // A pawn drop that mates is illegal: a move that does not exist.
                v = Val::disproof(NO_LIMIT, hand::FULL, 0);
            }
            self.children[i].v = v;
            self.children[i].key = ck;
            if or && v.pn == 0 {
                self.children.truncate(i + 1);
                break; // a mate: no need to look further
            }
            // Once a defence is unresolved the node is not proven by this look, and the mate in
            // one of the defences after it is left to when they are searched: most positions
            // after a check are left (disproven or outgrown) before all their defences are.
            if !or && v.pn != 0 && v.dn != 0 {
                self.defer = true;
            }
        }
        self.defer = false;
        let end = self.children.len();
        self.link_delayed(p, base, end, or);
        let (mut pn, mut dn);
        loop {
            (pn, dn) = self.aggregate(base, end, or);
            if pn == 0 || dn == 0 || pn >= thpn || dn >= thdn || self.out_of_budget() {
                break;
            }
            if depth == 1 {
                self.report(pn, dn);
            }
            let (best, second) = self.select(base, end, or);
            if best == usize::MAX {
                break;
            }
            let c = self.children[best];
            let (cthpn, cthdn) = if or {
                (thpn.min(eps_th(second)), sub_th(thdn, dn, c.v.dn))
            } else {
                (sub_th(thpn, pn, c.v.pn), thdn.min(eps_th(second)))
            };
            let u = p.do_move(c.m);
            let r = self.mid(p, cthpn, cthdn, cb, path_key(pk, c.key), c.v.work);
            p.undo_move(c.m, u);
            self.children[best].v = r;
            self.hand_on(best, or);
        }
        self.path.pop();
        if self.broad {
            self.history.pop();
        }
        let amount = self.nodes - start + 1 + prior as u64;
        let mut v = if pn == 0 || dn == 0 {
            self.resolve(p, base, end, or, ha, hd, pn == 0)
        } else {
            let mut v = Val::unknown(pn, dn);
            v.work = amount.min(u32::MAX as u64) as u32;
            v
        };
        v.exact |= exact && v.resolved();
        if v.resolved() {
            v.rep = v.rep.min(node_rep);
        }
        self.children.truncate(base);
        self.finish_store(key, ha, hd, v, depth, pk, amount)
    }

    /// Stores a node's value where it belongs and returns it as its parent sees it.
    #[allow(clippy::too_many_arguments)]
    fn finish_store(
        &mut self,
        key: u64,
        ha: u32,
        hd: u32,
        mut v: Val,
        depth: u32,
        pk: u64,
        amount: u64,
    ) -> Val {
        if v.resolved() && v.rep < depth {
            if self.rep_table.len() > 4_000_000 {
                self.rep_table.clear();
            }
            self.rep_table.insert(pk, v);
            return v;
        }
        v.rep = NO_REP;
        if v.exact {
            v.ha = ha;
            v.hd = hd;
        }
        if self.table_usable() && !self.stopped_unresolved(&v) {
            self.tt.store(key, &v, ha, hd, amount);
        }
        v
    }

    /// An unresolved value left by a stopped search is not worth keeping.
    fn stopped_unresolved(&self, v: &Val) -> bool {
        self.stopped && !v.resolved()
    }

    /// The proof or disproof of a resolved node, with its bounds, from its children.
    #[allow(clippy::too_many_arguments)]
    fn resolve(
        &mut self,
        p: &Position,
        base: usize,
        end: usize,
        or: bool,
        ha: u32,
        hd: u32,
        proven: bool,
    ) -> Val {
        let cs = &self.children[base..end];
        match (or, proven) {
            (true, true) => {
                // The proven check with the shortest mate.
                let mut best: Option<&Child> = None;
                for c in cs {
                    if c.v.pn == 0 && best.is_none_or(|b| c.v.len < b.v.len) {
                        best = Some(c);
                    }
                }
                let c = best.expect("a proven child");
                let mut ph = c.v.ha;
                if let Some(k) = c.m.drop_kind() {
                    ph = hand::add1(ph, k.index());
                } else if let Some(k) = captured_kind(p, c.m) {
                    ph = hand::sub1(ph, k);
                }
                let mut v = Val::proof(c.v.len + 1, hand::min(ph, ha), c.v.hd);
                v.exact = c.v.exact;
                v.rep = c.v.rep;
                v
            }
            (false, true) => {
                let mut len = 0;
                let mut ph = 0;
                let mut bound = self.interposition_bound(p, hd);
                let mut exact = false;
                let mut rep = NO_REP;
                for c in cs {
                    len = len.max(c.v.len + 1);
                    ph = hand::max(ph, c.v.ha);
                    let mut b = c.v.hd;
                    if let Some(k) = c.m.drop_kind() {
                        b = hand::add1(b, k.index());
                    } else if let Some(k) = captured_kind(p, c.m) {
                        b = hand::sub1(b, k);
                    }
                    bound = hand::min(bound, b);
                    exact |= c.v.exact;
                    rep = rep.min(c.v.rep);
                }
                let mut v = Val::proof(len, hand::min(ph, ha), hand::max(bound, hd));
                v.exact = exact;
                v.rep = rep;
                v
            }
            (true, false) => {
                let mut d = hand::FULL;
                let mut bound = 0;
                let mut valid = NO_LIMIT;
                let mut exact = false;
                let mut rep = NO_REP;
                for c in cs {
                    let mut dc = c.v.ha;
                    if let Some(k) = c.m.drop_kind() {
                        dc = hand::add1(dc, k.index());
                    } else if let Some(k) = captured_kind(p, c.m) {
                        dc = hand::sub1(dc, k);
                    }
                    d = hand::min(d, dc);
                    bound = hand::max(bound, c.v.hd);
                    valid = valid.min(if c.v.len >= NO_LIMIT {
                        NO_LIMIT
                    } else {
                        c.v.len + 1
                    });
                    exact |= c.v.exact;
                    rep = rep.min(c.v.rep);
                }
                for k in 0..7 {
                    if hand::get(ha, k) == 0 {
                        d = hand::set(d, k, 0);
                    }
                }
                let mut v = Val::disproof(valid, hand::max(d, ha), hand::min(bound, hd));
                v.exact = exact;
                v.rep = rep;
                v
            }
            (false, false) => {
                // The disproving defence that depends least on the path, then holds longest.
                let mut best: Option<&Child> = None;
                for c in cs {
                    if c.v.dn != 0 {
                        continue;
                    }
                    let better = match best {
                        None => true,
                        Some(b) => {
                            let (cr, br) = (c.v.rep == NO_REP, b.v.rep == NO_REP);
                            (cr && !br) || (cr == br && (c.v.rep > b.v.rep || c.v.len > b.v.len))
                        }
                    };
                    if better {
                        best = Some(c);
                    }
                }
                let c = best.expect("a disproven child");
                let mut b = c.v.hd;
                if let Some(k) = c.m.drop_kind() {
                    b = hand::add1(b, k.index());
                } else if let Some(k) = captured_kind(p, c.m) {
                    b = hand::sub1(b, k);
                }
                let valid = if c.v.len >= NO_LIMIT {
                    NO_LIMIT
                } else {
                    c.v.len + 1
                };
                let mut v = Val::disproof(valid, hand::max(c.v.ha, ha), hand::min(b, hd));
                v.exact = c.v.exact;
                v.rep = c.v.rep;
                v
            }
        }
    }

    /// Searches the root to a result with `budget` plies.
    fn root(&mut self, p: &mut Position, budget: u32) -> Val {
        self.rep_table.clear();
        self.path.clear();
        let v = self.mid(p, INF, INF, budget, 0x5EED, 0);
        self.path.clear();
        v
    }

    /// Values of the child reached by `m`, searched to a result if the tables do not have one.
    fn child_solved(&mut self, p: &mut Position, m: Move, budget: u32, pk: u64) -> Val {
        let u = p.do_move(m);
        let ck = p.key();
        let mut v = self.child_init(p, budget, pk);
        if !v.resolved() {
            v = self.mid(p, INF, INF, budget, path_key(pk, ck), 0);
        }
        p.undo_move(m, u);
        v
    }

    /// The length of a mate from `p` (proven) that follows the proofs the tables hold: at the
    /// attacker's nodes the check with the shortest known proof, at the defender's the longest of
    /// all defences. Every value is the exact length of a strategy (values fall by at least one
    /// along every move), so the root's value is a true upper bound on the shortest mate and the
    /// main line read off `memo` has exactly that length. Children the tables have lost are
    /// searched again. `None` if `p` cannot be proven here (a repetition of the path).
    fn tree_len(
        &mut self,
        p: &mut Position,
        pk: u64,
        memo: &mut FxHashMap<u64, (u32, Move)>,
    ) -> Option<u32> {
        let key = p.key();
        if let Some(&(f, _)) = memo.get(&key) {
            return Some(f);
        }
        if self.stopped || self.path.len() as u32 >= MAX_DEPTH {
            return None;
        }
        let or = p.side_to_move() == self.attacker;
        if or {
            self.scratch.clear();
            generate_checks(p, &mut *self.scratch);
        } else {
            self.gen_defences(p);
        }
        self.broad_filter(p);
        let moves: Vec<Move> = self.scratch.as_slice().to_vec();
        if moves.is_empty() {
            if or {
                return None;
            }
            memo.insert(
                key,
                (
                    0,
                    Move::drop(PieceKind::Pawn, super::types::Square::new_unchecked(0)),
                ),
            );
            return Some(0);
        }
        let bk = board_key(p);
        let (ha, hd) = self.hands(p);
        let result = if or {
            let mut proven: Vec<(u32, Move)> = Vec::new();
            for attempt in 0..2 {
                if self.broad {
                    self.history.push(p);
                }
                self.path.push(bk, ha, hd);
                for &m in &moves {
                    let u = p.do_move(m);
                    let v = self.child_init(p, NO_LIMIT, pk);
                    p.undo_move(m, u);
                    if v.pn == 0 {
                        proven.push((v.len, m));
                    }
                }
                self.path.pop();
                if self.broad {
                    self.history.pop();
                }
                if !proven.is_empty() || attempt == 1 {
                    break;
                }
                // The tables lost this node's proof: search it again.
                let v = self.mid(p, INF, INF, NO_LIMIT, pk, 0);
                if v.pn != 0 {
                    break;
                }
            }
            proven.sort();
            let mut best = None;
            if self.broad {
                self.history.push(p);
            }
            self.path.push(bk, ha, hd);
            for (_, m) in proven {
                let u = p.do_move(m);
                let cpk = path_key(pk, p.key());
                let r = self.tree_len(p, cpk, memo);
                p.undo_move(m, u);
                if let Some(f) = r {
                    best = Some((f + 1, m));
                    break;
                }
            }
            self.path.pop();
            if self.broad {
                self.history.pop();
            }
            best
        } else {
            if self.broad {
                self.history.push(p);
            }
            self.path.push(bk, ha, hd);
            let mut best: Option<(u32, Move)> = Some((0, moves[0]));
            for &m in &moves {
                let u = p.do_move(m);
                let cpk = path_key(pk, p.key());
                let mut v = self.child_init(p, NO_LIMIT, pk);
                if v.pn != 0 && !v.resolved() {
                    v = self.mid(p, INF, INF, NO_LIMIT, cpk, 0);
                }
                let r = if v.pn == 0 {
                    self.tree_len(p, cpk, memo)
                } else {
                    None
                };
                p.undo_move(m, u);
                match (r, best) {
                    (Some(f), Some((b, _))) if f + 1 > b => best = Some((f + 1, m)),
                    (Some(_), _) => {}
                    (None, _) => {
                        best = None;
                        break;
                    }
                }
            }
            self.path.pop();
            if self.broad {
                self.history.pop();
            }
            best
        };
        let (f, m) = result?;
        memo.insert(key, (f, m));
        Some(f)
    }

    /// The main line read off the values of [`Search::tree_len`].
    fn tree_line(&self, p: &mut Position, memo: &FxHashMap<u64, (u32, Move)>) -> Vec<Move> {
        let mut line = Vec::new();
        let mut undo = Vec::new();
        while let Some(&(f, m)) = memo.get(&p.key()) {
            if f == 0 || line.len() > MAX_DEPTH as usize {
                break;
            }
            line.push(m);
            undo.push((m, p.do_move(m)));
        }
        while let Some((m, u)) = undo.pop() {
            p.undo_move(m, u);
        }
        line
    }

    /// The main line of the proof: the attacker's shortest mate, the defender's longest
    /// resistance. With `tight`, `budget` is the exact length of the shortest mate.
    fn pv(&mut self, p: &mut Position, budget: u32, tight: bool) -> Vec<Move> {
        let mut line = Vec::new();
        let mut undo = Vec::new();
        let mut budget = budget;
        let mut pk: u64 = 0x5EED;
        self.path.clear();
        self.rep_table.clear();
        while budget > 0 && !self.stopped && line.len() < MAX_DEPTH as usize {
            let or = p.side_to_move() == self.attacker;
            if or {
                self.scratch.clear();
                generate_checks(p, &mut *self.scratch);
            } else {
                self.gen_defences(p);
            }
            self.broad_filter(p);
            let moves: Vec<Move> = self.scratch.as_slice().to_vec();
            if moves.is_empty() {
                break;
            }
            if self.broad {
                self.history.push(p);
            }
            self.path
                .push(board_key(p), self.hands(p).0, self.hands(p).1);
            let cb = if budget >= NO_LIMIT {
                budget
            } else {
                budget - 1
            };
            let mut pick: Option<(Move, u32)> = None;
            if or {
                // A check whose mate the tables know; if none is known any more, the node is
                // searched again, and then each check is searched for its mate (the node's proof
                // may rest on a child's entry that a probe at this budget does not return).
                for attempt in 0..2 {
                    for &m in &moves {
                        let v = if attempt == 0 {
                            let u = p.do_move(m);
                            let v = self.child_init(p, cb, pk);
                            p.undo_move(m, u);
                            v
                        } else {
                            self.child_solved(p, m, cb, pk)
                        };
                        if v.pn == 0 && v.len <= cb && pick.is_none_or(|(_, l)| v.len < l) {
                            pick = Some((m, v.len));
                        }
                    }
                    if pick.is_some() || attempt == 1 {
                        break;
                    }
                    self.path.pop();
                    if self.broad {
                        self.history.pop();
                    }
                    let v = self.mid(p, INF, INF, budget, pk, 0);
                    if self.broad {
                        self.history.push(p);
                    }
                    self.path
                        .push(board_key(p), self.hands(p).0, self.hands(p).1);
                    if v.pn != 0 {
                        break;
                    }
                }
            } else {
                for &m in &moves {
                    if tight && budget >= 3 {
                        // The longest defence: one not mated within two plies less.
                        let v = self.child_solved(p, m, budget - 3, pk);
                        if v.dn == 0 {
                            pick = Some((m, budget - 1));
                            break;
                        }
                        if v.pn == 0 && pick.is_none_or(|(_, l)| v.len > l) {
                            pick = Some((m, v.len));
                        }
                    } else {
                        let v = self.child_solved(p, m, cb, pk);
                        if v.pn == 0 && pick.is_none_or(|(_, l)| v.len > l) {
                            pick = Some((m, v.len));
                        }
                    }
                }
            }
            let Some((m, l)) = pick else {
                self.path.pop();
                if self.broad {
                    self.history.pop();
                }
                break;
            };
            line.push(m);
            let u = p.do_move(m);
            pk = path_key(pk, p.key());
            undo.push((m, u));
            budget = if tight { budget - 1 } else { l.min(cb) };
        }
        while let Some((m, u)) = undo.pop() {
            p.undo_move(m, u);
            self.path.pop();
            if self.broad {
                self.history.pop();
            }
        }
        self.path.clear();
        line
    }
}

/// A reusable mate solver: its transposition table is allocated once and kept across problems
/// (entries of earlier problems are ignored).
pub struct MateSolver {
    tt: Table,
    buffers: Buffers,
    hash_mb: usize,
}

impl MateSolver {
    /// A solver with a table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> MateSolver {
        MateSolver {
            tt: Table::new(hash_mb),
            buffers: Buffers::new(),
            hash_mb,
        }
    }

    /// The table size asked for.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Searches for a mate for the side to move in the last position of `history` (the game
    /// so far, oldest first; under the narrow readings only the last position matters).
    /// Runs on the calling thread: deep searches need a large stack (see [`with_stack`]).
    pub fn solve_history(&mut self, history: &[Position], opts: &MateOptions) -> MateResult {
        let t0 = Instant::now();
        let Some(pos) = history.last() else {
            return MateResult {
                result: MateStatus::NoMate,
                plies: 0,
                pv: Vec::new(),
                nodes: 0,
                ms: 0,
                shortest: false,
                max_depth: 0,
            };
        };
        self.tt.new_search();
        let b = &mut self.buffers;
        b.rep_table.clear();
        b.children.clear();
        b.scratch.clear();
        b.mate_buf.clear();
        let attacker = pos.side_to_move();
        let mut s = Search {
            tt: &mut self.tt,
            attacker,
            reading: opts.reading,
            broad: opts.reading.perpetual_forbidden,
            nodes: 0,
            max_nodes: opts.max_nodes,
            deadline: (opts.max_ms > 0).then(|| t0 + std::time::Duration::from_millis(opts.max_ms)),
            stop_flag: opts.stop.clone(),
            stopped: false,
            next_check: 0,
            next_report: 100_000,
            t0,
            progress: opts.progress.clone(),
            best_plies: 0,
            path: Path::new(),
            history: History::default(),
            rep_table: &mut b.rep_table,
            children: &mut b.children,
            scratch: &mut b.scratch,
            capped: false,
            max_depth: 0,
            mate_buf: &mut b.mate_buf,
            defer: false,
        };
        if s.broad {
            for q in &history[..history.len() - 1] {
                s.history.push(q);
            }
        }
        let done = |s: &Search, result, plies, pv, shortest| MateResult {
            result,
            plies,
            pv,
            nodes: s.nodes,
            ms: t0.elapsed().as_millis() as u64,
            shortest,
            max_depth: s.max_depth,
        };
        // Every hand count must fit its field however the pieces move between the hands: true
        // when the material is possible (no more pieces of a kind than the game has).
        let hands_fit = hand::pack(&pos.hands[0]).is_some()
            && hand::pack(&pos.hands[1]).is_some()
            && pos.material_problems().is_empty();
        if pos.king_square(attacker.flip()).is_none() || !hands_fit {
            return done(&s, MateStatus::NoMate, 0, Vec::new(), false);
        }
        let limit = if opts.max_plies == 0 {
            NO_LIMIT
        } else {
            opts.max_plies.min(NO_LIMIT - 1)
        };
        let mut p = pos.clone();
        let shortest_wanted = opts.length == MateLength::Shortest;
        // Budgets known to hold no mate.
        let mut no_mate_upto = 0u32;
        let mut proven = None;
        if shortest_wanted {
            // The shortest mates are cheap to rule in or out first.
            let mut b = 1;
            while b <= limit.min(3) {
                let v = s.root(&mut p, b);
                if v.pn == 0 {
                    proven = Some(v.len);
                    break;
                }
                if v.dn != 0 {
                    return done(&s, MateStatus::Unknown, 0, Vec::new(), false);
                }
                no_mate_upto = b;
                b += 2;
            }
        }
        let mut best = match proven {
            Some(len) => len,
            None => {
                let v = s.root(&mut p, limit);
                if v.pn != 0 {
                    let st = if v.dn == 0 && !s.capped {
                        MateStatus::NoMate
                    } else {
                        MateStatus::Unknown
                    };
                    return done(&s, st, 0, Vec::new(), false);
                }
                v.len
            }
        };
        s.best_plies = best;
        let mut shortest = best <= no_mate_upto + 2;
        if shortest_wanted {
            while !shortest && !s.stopped {
                let v = s.root(&mut p, best - 2);
                if v.pn == 0 {
                    best = v.len;
                    s.best_plies = best;
                    shortest = best <= no_mate_upto + 2;
                } else {
                    if v.dn == 0 && !s.capped {
                        shortest = true;
                    }
                    break;
                }
            }
        }
        // The line is read off the tables, whatever the limits.
        let was_stopped = s.stopped;
        s.stopped = false;
        s.max_nodes = 0;
        s.deadline = None;
        s.stop_flag = None;
        let tight = shortest_wanted && shortest;
        let pv = if tight {
            s.pv(&mut p, best, true)
        } else {
            // The length of the mate the proof gives, and its main line.
            let mut memo = FxHashMap::default();
            s.path.clear();
            s.rep_table.clear();
            match s.tree_len(&mut p, 0x5EED, &mut memo) {
                Some(f) => {
                    best = f;
                    s.tree_line(&mut p, &memo)
                }
                None => {
                    let pv = s.pv(&mut p, best.max(1), false);
                    best = pv.len() as u32;
                    pv
                }
            }
        };
        let _ = was_stopped;
        done(&s, MateStatus::Mate, best, pv, shortest)
    }

    /// [`MateSolver::solve_history`] for a position without history.
    pub fn solve(&mut self, pos: &Position, opts: &MateOptions) -> MateResult {
        self.solve_history(std::slice::from_ref(pos), opts)
    }
}

/// Runs `f` on a thread with a stack large enough for the deepest searches.
pub fn with_stack<R: Send>(f: impl FnOnce() -> R + Send) -> Option<R> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, f)
            .ok()
            .and_then(|h| h.join().ok())
    })
}

/// Searches for a mate for the side to move (a new table of `opts.hash_mb` MiB, a thread with a
/// large stack).
pub fn solve(pos: &Position, opts: &MateOptions) -> MateResult {
    solve_history(std::slice::from_ref(pos), opts)
}

/// Searches for a mate for the side to move in the last position of `history`.
pub fn solve_history(history: &[Position], opts: &MateOptions) -> MateResult {
    let t0 = Instant::now();
    with_stack(|| MateSolver::new(opts.hash_mb).solve_history(history, opts)).unwrap_or(
        MateResult {
            result: MateStatus::Unknown,
            plies: 0,
            pv: Vec::new(),
            nodes: 0,
            ms: t0.elapsed().as_millis() as u64,
            shortest: false,
            max_depth: 0,
        },
    )
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

    /// Line 298 of the mate-9 set: the node after 5c4b 5a4b R*4a 4b4a is proved again when the
    /// line is read, but no probe of its checks at the remaining budget returned the proof; the
    /// line broke off after four plies while the length (9) was right. Each check is now
    /// searched for its mate.
    #[test]
    fn the_line_is_read_to_the_end() {
        let s = "1+P1gk2nl/2s2g1s1/n1pp+Bp1pp/4P1p2/lp5P1/5R3/2PPS1PsP/2G3+n2/1+p1K3NL b RBL3Pg 59";
        let p = Position::from_sfen(s).unwrap();
        let r = solve(
            &p,
            &MateOptions {
                hash_mb: 16,
                ..Default::default()
            },
        );
        assert_eq!((r.result, r.plies, r.shortest), (MateStatus::Mate, 9, true));
        assert_eq!(r.pv.len(), 9, "{:?}", r.pv);
        assert!(is_mating_line(&p, &r.pv), "{:?}", r.pv);
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

    /// Microcosmos (1,525 plies) is proved and its line replays as a mate. About a minute on
    /// one core (the 120-second target is measured by scripts/bench.sh); the 600-second budget
    /// here only keeps a slow machine from hanging. Release builds only.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn microcosmos_solve() {
        let (p, _) = problem();
        let env = |k: &str, d: u64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let opts = MateOptions {
            max_ms: env("MICRO_MS", 600_000),
            hash_mb: env("MICRO_MB", 1024) as usize,
            length: MateLength::Any,
            ..Default::default()
        };
        let r = solve(&p, &opts);
        println!(
            "microcosmos: {:?}, {} plies, {} nodes, {} ms",
            r.result, r.plies, r.nodes, r.ms
        );
        assert_eq!(r.result, MateStatus::Mate);
        // Futile interpositions only lengthen a strict mate: no proof is shorter than 1,525.
        assert!(r.plies >= 1525, "{}", r.plies);
        assert_eq!(r.pv.len() as u32, r.plies);
        assert!(is_mating_line(&p, &r.pv));
    }
}

#[cfg(test)]
mod microcosmos_tail {
    use super::super::mate1::is_mating_line;
    use super::*;

    /// The search from positions along the published solution of Microcosmos, `MICRO_FROM`
    /// plies in (comma-separated), each with a time limit: how much of the end the solver
    /// handles, a measure of progress
    /// (`MICRO_FROM=1400,1300 cargo test --release microcosmos_tail -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn microcosmos_tail() {
        let dir = format!("{}/tests/data/shogi", env!("CARGO_MANIFEST_DIR"));
        let tsv = std::fs::read_to_string(format!("{dir}/curated.tsv")).unwrap();
        let row = tsv
            .lines()
            .find(|l| l.starts_with("kh-microcosmos\t"))
            .unwrap();
        let start = Position::from_sfen(row.split('\t').nth(1).unwrap()).unwrap();
        let text = std::fs::read_to_string(format!("{dir}/microcosmos-1525.usi")).unwrap();
        let words: Vec<&str> = text.split_whitespace().collect();
        let froms = std::env::var("MICRO_FROM").unwrap_or_else(|_| "1500,1400".into());
        let ms: u64 = std::env::var("MICRO_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        let mb: usize = std::env::var("MICRO_MB")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1024);
        let mut solver = MateSolver::new(mb);
        for f in froms.split(',') {
            let k: usize = f.trim().parse().unwrap();
            let mut p = start.clone();
            for w in &words[..k] {
                let m = p.parse_usi_move(w).unwrap();
                p.do_move(m);
            }
            let opts = MateOptions {
                max_ms: ms,
                hash_mb: mb,
                length: MateLength::Any,
                ..Default::default()
            };
            let r = with_stack(|| solver.solve(&p, &opts)).unwrap();
            println!(
                "from ply {k} ({} left): {:?}, {} plies, {} nodes, {} ms",
                1525 - k,
                r.result,
                r.plies,
                r.nodes,
                r.ms
            );
            if r.result == MateStatus::Mate {
                assert!(is_mating_line(&p, &r.pv));
            }
        }
    }
}

#[cfg(test)]
mod exhaustive_check {
    use super::super::mate1::mate_in_n_exhaustive;
    use super::*;

    /// `EXH_SFEN=... EXH_PLIES=7 cargo test --release exhaustive_env -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn exhaustive_env() {
        let Ok(s) = std::env::var("EXH_SFEN") else {
            return;
        };
        let n: u32 = std::env::var("EXH_PLIES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(7);
        let mut p = Position::from_sfen(&s).unwrap();
        if let Ok(pv) = std::env::var("EXH_PV") {
            // At each defence of the line, the defences that are not mated in the plies left.
            let words: Vec<&str> = pv.split_whitespace().collect();
            for (i, w) in words.iter().enumerate() {
                let m = p.parse_usi_move(w).unwrap();
                if i % 2 == 1 {
                    let left = (words.len() - i - 1) as u32;
                    for &d in p.legal_moves().iter() {
                        let q = p.after(d);
                        if mate_in_n_exhaustive(&q, left).is_none() {
                            println!(
                                "ply {}: defence {d} escapes a mate in {left} ({})",
                                i + 1,
                                q.to_sfen()
                            );
                        }
                    }
                }
                p.do_move(m);
            }
            return;
        }
        println!("exhaustive {n}: {:?}", mate_in_n_exhaustive(&p, n));
    }
}
