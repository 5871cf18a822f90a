//! Proof-number search for the outcome classes under the reconstruction's table and the reading
//! `p-to-chooser`.
//!
//! The class of r is the table applied to two questions: does Black moving first get v, does
//! White? Write G_c(r) for "c moving first after r gets v". Under both tables a class is c's own
//! exactly when G_c holds and G_c' (c' the opponent) does not, and 𝓟 when neither holds. So an
//! option d gets v for c when:
//!
//! - `p-to-chooser` (its class is c's own or 𝓟): not G_c'(d). Then "c moving first gets v" is a
//!   game of two players taking turns: c wins at r when some option of c is a sequence at which
//!   the opponent moving first loses.
//! - the reconstruction (its class is c's own, or 𝓟 with c's stone on v): not G_c'(d), and, when
//!   v holds no stone of c at d, also G_c(d): c moving first again at d (passes are implicit)
//!   gets v. An option is then an AND of two games, and c's question an OR of those.
//!
//! On an ultimate board the owner of v wins (neither, for an empty 𝓟 point); a player without a
//! new board to move to loses.
//!
//! The depth-first search of the parent module decides the options one after another, and on a
//! board like 2 x 3 a poor first option sends it into long capture and recapture sequences that
//! it must settle completely before it looks at the next option. Depth-first proof-number search
//! (df-pn, as the mate search of okite) always extends the sequence whose result would settle the
//! question at the least cost, estimated by proof and disproof numbers.
//!
//! The history problem. Resolved results are kept as the parent's tracked results are, by the
//! answers to the boards the proof or disproof asked about: a win asks whether its winning option
//! is new, and what that option's result asked; a loss asks whether the options the history
//! forbids are still forbidden, and what each other option's result asked. So a result found
//! under one history serves every history that answers those questions alike. The proof and
//! disproof numbers of unresolved sequences only steer the search, but they are kept by the last
//! board *and* the set of boards: numbers shared between histories made the search go round in
//! circles (the empty triangle passed 40 million visits; keyed by the set, it takes 342).

use super::estimates::Estimates;
use super::{board_keys, stone_of, Class, Classifier, Path, Table, Tested, TrackKey, TrackedMemo};
use crate::go::benson::safe;
use crate::go::board::Color;
use crate::go::error::GoResult;
use crate::go::small::{sides, SmallBoard};

/// The bound of the estimates' table unless the classifier is given one (its slots take 16
/// bytes each): 64 MiB. A larger table is not better: the empty 3 x 5 board took 40.0 million
/// visits and 106 s with 1 GiB, 37.2 million and 84 s with 64 MiB, 35.6 million and 89 s with
/// 16 MiB, 64.0 million and 124 s with 2 MiB (the numbers kept longest are those of the
/// sequences searched longest; many light ones, left from thresholds long passed, only
/// mislead).
pub const ESTIMATE_BYTES: usize = 64 << 20;

/// Infinity of the proof and disproof numbers; unresolved sums stop one below it.
const INF: u32 = u32::MAX / 4;

/// The tables of the search.
pub(super) struct Tables {
    /// Resolved: whether the colour (the tag of the key: 0 Black, 1 White) moving first gets
    /// the vertex.
    pub(super) exact: TrackedMemo<bool>,
    /// Unresolved: the last (proof, disproof) numbers of a sequence (keyed by a hash of its last
    /// board, the vertex, the colour to move and the set key of its boards), in a bounded table.
    pub(super) estimate: Estimates,
}

/// The key of a sequence's estimate: its last board, vertex and colour ([`TrackKey`]) and the
/// set key of its boards, hashed to 64 bits.
fn estimate_key(key: TrackKey, set: (u64, u64)) -> u64 {
    let (a, b) = board_keys(key.0);
    let tag = (key.1 as u64) << 8 | key.2 as u64;
    let x = a ^ set.0 ^ tag.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x ^ (b ^ set.1).rotate_left(23)).wrapping_mul(0xD6E8_FEB8_6659_FD93) ^ (x >> 29)
}

impl Tables {
    pub(super) fn new() -> Self {
        Tables {
            exact: TrackedMemo::new(),
            estimate: Estimates::new(ESTIMATE_BYTES),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.exact.len()
    }

    /// The bytes the tables may take when they next grow, within `inserts` insertions each.
    pub(super) fn growth(&self, inserts: usize) -> usize {
        self.estimate.growth(inserts) + self.exact.growth(inserts)
    }

    pub(super) fn clear(&mut self) {
        self.exact.clear();
        self.estimate.clear();
    }
}

/// What one call of [`Classifier::mid`] found.
enum Mid {
    /// Resolved: whether the colour to move wins, and the boards the result asked about.
    Done(bool, Tested),
    /// Unresolved: proof and disproof numbers (for the colour to move).
    Open(u32, u32),
}

/// One game at an option d: the player to move there (the opponent, or the chooser moving again)
/// moving first gets v. Its proof and disproof numbers are for that player; once resolved, its
/// result and the boards it asked about.
struct Part {
    phi: u32,
    delta: u32,
    done: Option<(bool, Tested)>,
}

impl Part {
    fn resolved(wins: bool, asked: Tested) -> Part {
        let (phi, delta) = if wins { (0, INF) } else { (INF, 0) };
        Part {
            phi,
            delta,
            done: Some((wins, asked)),
        }
    }

    fn update(&mut self, r: Mid) {
        match r {
            Mid::Done(w, t) => *self = Part::resolved(w, t),
            Mid::Open(p, q) => (self.phi, self.delta) = (p, q),
        }
    }
}

/// An option d of the colour c to move, and whether choosing it gets v for c: the opponent
/// moving first at d must not get v (`opp`) and, under the reconstruction's table when v holds
/// no stone of c at d, c moving first at d must get it (`again`): the option's class is then
/// c's own, where without `again` it may also be 𝓟.
struct Branch {
    d: SmallBoard,
    di: usize,
    opp: Part,
    again: Option<Part>,
}

/// The sum of two proof numbers: infinite when one is, below infinity otherwise.
fn plus(a: u32, b: u32) -> u32 {
    if a >= INF || b >= INF {
        INF
    } else {
        (a as u64 + b as u64).min(INF as u64 - 1) as u32
    }
}

impl Branch {
    /// The proof and disproof numbers of "choosing d gets v for c".
    fn numbers(&self) -> (u32, u32) {
        let (pn, dn) = (self.opp.delta, self.opp.phi);
        match &self.again {
            Some(a) => (plus(pn, a.phi), dn.min(a.delta)),
            None => (pn, dn),
        }
    }

    /// The boards a proof asked about (the option proved to get v).
    #[expect(
        clippy::expect_used,
        reason = "the search asks only of the children it opened or resolved"
    )]
    fn proof(&self) -> Tested {
        let mut asked = self.opp.done.as_ref().expect("resolved").1.clone();
        if let Some(a) = &self.again {
            asked.join(&a.done.as_ref().expect("resolved").1);
        }
        asked.add(self.di);
        asked
    }

    /// The boards a disproof asked about (the option proved not to get v).
    fn disproof(&self) -> &Tested {
        match (&self.opp.done, &self.again) {
            (Some((true, t)), _) => t,
            (
                _,
                Some(Part {
                    done: Some((false, t)),
                    ..
                }),
            ) => t,
            _ => unreachable!("a disproved option has a disproved part"),
        }
    }
}

fn tag(c: Color) -> u8 {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Classifier {
    /// Whether `c` moving first after the sequence `path` (ending on `last`) gets `v`.
    pub(super) fn gets_pn(
        &mut self,
        last: SmallBoard,
        v: usize,
        c: Color,
        path: &mut Path,
        budget: &mut u64,
    ) -> GoResult<bool> {
        if let Some((w, _)) = self.pn_known(last, v, c, path, None) {
            return Ok(w);
        }
        self.root_len = path.boards.len();
        // told until the search first sums them there: the numbers last kept, or the first
        let key = estimate_key((last, v as u8, tag(c)), path.set_key(None));
        self.at.numbers = Some(
            self.pn
                .estimate
                .get(key)
                .unwrap_or_else(|| self.first_estimate(last, v, c, path.boards.len())),
        );
        loop {
            // With infinite thresholds a call returns only once the question is resolved (each
            // call spends budget, so this ends with a limit error at worst).
            if let Mid::Done(w, _) = self.mid(last, v, c, path, INF, INF, budget)? {
                return Ok(w);
            }
        }
    }

    /// Whether the option `d` of `c` gets `v` only if `c` moving first again there gets it too:
    /// under the reconstruction's table, unless `d` holds `c`'s stone on `v` (an option of
    /// class 𝓟 gets it then).
    fn needs_again(&self, d: SmallBoard, v: usize, c: Color) -> bool {
        self.table == Table::Reconstruction && !stone_of(d, v, c)
    }

    /// A play of `c` after `path` (ending on `last`) that gets `v` for `c` by the results at
    /// hand, once the search has found that `c` moving first gets it: the first move of the
    /// proof (the vertex played). The opponent moving first there must not get `v` and, under
    /// the reconstruction's table unless the play is on `v`, `c` moving first again must.
    pub(super) fn winning_play(
        &mut self,
        last: SmallBoard,
        v: usize,
        c: Color,
        path: &Path,
    ) -> Option<usize> {
        // asked of the tables only: the counters stay those of the search
        let stats = self.stats;
        let opp = c.opponent();
        let mut by = None;
        for (d, _) in self.new_plays(last, v, c, path).0 {
            if !matches!(self.pn_known(d, v, opp, path, Some(d)), Some((false, _))) {
                continue;
            }
            let again = !self.needs_again(d, v, c)
                || matches!(self.pn_known(d, v, c, path, Some(d)), Some((true, _)));
            if again {
                let (now, before) = (sides(d, c).0, sides(last, c).0);
                by = Some((now & !before).trailing_zeros() as usize);
                break;
            }
        }
        self.stats = stats;
        by
    }

    /// A result known for `c` moving first after `path` (+ `extra`) ending on `d`: an ultimate
    /// board, or a resolved entry.
    fn pn_known(
        &mut self,
        d: SmallBoard,
        v: usize,
        c: Color,
        path: &Path,
        extra: Option<SmallBoard>,
    ) -> Option<(bool, Tested)> {
        if self.is_ultimate(d) {
            return Some((self.ultimate_class(d, v) == Class::own(c), self.nothing()));
        }
        if self.opponent_keeps(d, v, c) {
            self.stats.static_results += 1;
            return Some((false, self.nothing()));
        }
        let r = self.pn.exact.get((d, v as u8, tag(c)), path, extra);
        self.stats.hits += r.is_some() as u64;
        r
    }

    /// Whether v is safe for the opponent of `c` on `d` by Benson's rule (a stone of an
    /// unconditionally alive chain, or an eye of such chains), so that `c` moving first does
    /// not get v, whatever the sequence before `d` (under the reconstruction's table).
    ///
    /// Why: c gets v at d only through an option e of c's that gets v, which under the
    /// reconstruction's table needs c's stone on v at e (never: c cannot capture the chain, nor
    /// play in the eye) or c moving first again at e getting v. So a proof that c gets v is a
    /// sequence of c's stones alone, with the opponent passing, ending on an ultimate board
    /// whose v is c's. Benson's chains stay on the board through any sequence of the
    /// opponent's stones, and their eyes stay empty and bordered by them alone: v is the
    /// opponent's on every ultimate board so reached. (Under `p-to-chooser` an option of class
    /// 𝓟 is a gain without c moving again, the opponent then moves, and may spoil its own life
    /// by filling an eye: the rule is not used there.)
    fn opponent_keeps(&self, d: SmallBoard, v: usize, c: Color) -> bool {
        if !self.static_knowledge || self.table != Table::Reconstruction {
            return false;
        }
        let bit = 1u64 << v;
        let (own, opp) = sides(d, c);
        // only a stone of the opponent's, or an empty point all of whose neighbours are
        // the opponent's stones, can be safe for it
        let empty = (d.0 | d.1) & bit == 0;
        let nbr = self.sg.adj[v];
        if opp & bit == 0 && !(empty && nbr != 0 && nbr & !opp == 0) {
            return false;
        }
        safe(&self.sg, opp, own, false).points() & bit != 0
    }

    /// Keeps a resolved result of `path` (ending on `last`) and returns it.
    fn pn_done(
        &mut self,
        last: SmallBoard,
        v: usize,
        c: Color,
        path: &Path,
        wins: bool,
        mut asked: Tested,
    ) -> Mid {
        asked.tidy(self.index(last));
        self.pn
            .exact
            .insert((last, v as u8, tag(c)), &asked, path, wins);
        self.pn
            .estimate
            .remove(estimate_key((last, v as u8, tag(c)), path.set_key(None)));
        Mid::Done(wins, asked)
    }

    /// One df-pn visit of the (non-ultimate) sequence `path` ending on `last`, `c` to move:
    /// searches until the proof number reaches `th_phi` or the disproof number `th_delta`, or
    /// the question is resolved.
    #[allow(clippy::too_many_arguments)]
    #[expect(
        clippy::expect_used,
        reason = "the search asks only of the children it opened or resolved"
    )]
    fn mid(
        &mut self,
        last: SmallBoard,
        v: usize,
        c: Color,
        path: &mut Path,
        th_phi: u32,
        th_delta: u32,
        budget: &mut u64,
    ) -> GoResult<Mid> {
        if let Some((w, t)) = self.pn.exact.get((last, v as u8, tag(c)), path, None) {
            self.stats.hits += 1;
            return Ok(Mid::Done(w, t));
        }
        self.spend(budget)?;
        let opp = c.opponent();
        // The options the history forbids: a loss depends on their staying forbidden.
        let (new, lost) = self.new_plays(last, v, c, path);
        // the estimate keys of each option's two games (the opponent's, c's again); the numbers
        // are read below, each from a bucket of its own: read here first in a row, their waits
        // for memory overlap
        let keys: Vec<[u64; 2]> = new
            .iter()
            .map(|&(d, _)| {
                let set = path.set_key(Some(d));
                [opp, c].map(|who| estimate_key((d, v as u8, tag(who)), set))
            })
            .collect();
        let touched = keys
            .iter()
            .flatten()
            .fold(0u64, |t, &k| t.wrapping_add(self.pn.estimate.touch(k)));
        std::hint::black_box(touched);
        let mut options: Vec<Branch> = Vec::with_capacity(new.len());
        for ((d, di), [opp_key, again_key]) in new.into_iter().zip(keys) {
            let opp_part = self.part(d, v, opp, path, opp_key);
            // (an option the opponent gets is lost whatever c would get there)
            let again = (self.needs_again(d, v, c) && !matches!(opp_part.done, Some((true, _))))
                .then(|| self.part(d, v, c, path, again_key));
            let b = Branch {
                d,
                di,
                opp: opp_part,
                again,
            };
            if b.numbers().0 == 0 {
                let asked = b.proof();
                return Ok(self.pn_done(last, v, c, path, true, asked));
            }
            options.push(b);
        }
        loop {
            // phi (to prove c wins) is the least proof number of an option; delta (to
            // disprove) the sum of their disproof numbers, or with weak numbers the largest
            // plus one for each other one still open.
            let mut phi = INF;
            let mut second = INF;
            let mut best = None;
            let (mut delta, mut max_dn, mut open) = (0u64, 0u64, 0u64);
            for (i, o) in options.iter().enumerate() {
                let (pn, dn) = o.numbers();
                delta += dn as u64;
                max_dn = max_dn.max(dn as u64);
                open += (dn > 0) as u64;
                if pn < phi {
                    second = phi;
                    phi = pn;
                    best = Some(i);
                } else if pn < second {
                    second = pn;
                }
            }
            let Some(b) = best else {
                // No option gets v (or there is none): a loss.
                let mut asked = lost;
                for o in &options {
                    asked.join(o.disproof());
                }
                return Ok(self.pn_done(last, v, c, path, false, asked));
            };
            if self.weak_numbers {
                // the largest, and one for each other option still open
                delta = max_dn + open.saturating_sub(1);
            }
            let delta = delta.min(INF as u64 - 1) as u32;
            if path.boards.len() == self.root_len {
                self.at.numbers = Some((phi, delta));
            }
            if phi >= th_phi || delta >= th_delta {
                let key = estimate_key((last, v as u8, tag(c)), path.set_key(None));
                self.pn.estimate.insert(key, phi, delta);
                return Ok(Mid::Open(phi, delta));
            }
            // The chosen option's thresholds, then those of its part most likely to disprove it
            // (an option that needs two games is proved by both). The proof threshold passes the
            // second-best option's number by a quarter (the 1 + epsilon trick of Pawlewicz and
            // Lew, 2007), so that the search switches less often between close options: 54,371
            // visits for the empty 3 x 3 board where one more than the second best took 72,514.
            let o = &options[b];
            let (d, di) = (o.d, o.di);
            let (pn, dn) = o.numbers();
            let th_pn = th_phi.min(second.saturating_add(1 + second / 4));
            let th_dn = if self.weak_numbers {
                // the option's number may grow until, the largest, it makes delta reach the
                // threshold (below it, delta < th_delta leaves dn below this)
                th_delta.saturating_sub(open.saturating_sub(1).min(INF as u64) as u32)
            } else {
                (th_delta as u64 - delta as u64 + dn as u64).min(INF as u64) as u32
            };
            let opp_open = o.opp.done.is_none();
            let again_open = o.again.as_ref().is_some_and(|a| a.done.is_none());
            let again_dn = o.again.as_ref().map_or(INF, |a| a.delta);
            let take_again = again_open && (!opp_open || again_dn < o.opp.phi);
            let (part_pn, other_dn) = if take_again {
                (o.again.as_ref().expect("open").phi, o.opp.phi)
            } else {
                (o.opp.delta, again_dn)
            };
            let child_dn = th_dn.min(other_dn.saturating_add(1));
            let child_pn = (th_pn as u64 - pn as u64 + part_pn as u64).min(INF as u64) as u32;
            path.enter(d, di);
            let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                if take_again {
                    self.mid(d, v, c, path, child_pn, child_dn, budget)
                } else {
                    self.mid(d, v, opp, path, child_dn, child_pn, budget)
                }
            });
            path.leave(d, di);
            let o = &mut options[b];
            if take_again {
                o.again.as_mut().expect("open").update(r?);
            } else {
                o.opp.update(r?);
            }
            let o = &options[b];
            if o.numbers().0 == 0 {
                let asked = o.proof();
                return Ok(self.pn_done(last, v, c, path, true, asked));
            }
        }
    }

    /// The numbers of a sequence of `len` boards not searched yet, ending on `d` with `c` to
    /// move: to get an opponent's stone on v, c must take its chain's liberties (as many proofs
    /// to find); otherwise one each. (The empty 3 x 3 board: 27,445 visits, 54,371 with one
    /// each everywhere; 2 x 5 131,037 and 156,032; path:11 8.5 and 8.9 million.) With a length
    /// step k ([`Classifier::set_length_step`]) the disproof number is raised by len / k.
    fn first_estimate(&self, d: SmallBoard, v: usize, c: Color, len: usize) -> (u32, u32) {
        let (phi, delta) = self.first_numbers(d, v, c);
        match self.length_step {
            0 => (phi, delta),
            k => (
                phi,
                delta.saturating_add((len / k as usize).min(INF as usize / 2) as u32),
            ),
        }
    }

    fn first_numbers(&self, d: SmallBoard, v: usize, c: Color) -> (u32, u32) {
        let bit = 1u64 << v;
        let opp = sides(d, c).1;
        if opp & bit == 0 {
            return (1, 1);
        }
        let empty = self.sg.full & !(d.0 | d.1);
        let chain = self.sg.flood(bit, opp);
        ((self.sg.nbr(chain) & empty).count_ones().max(1), 1)
    }

    /// The game at option `d` (not yet entered in `path`) with `c` moving first: its result if
    /// known, else its last numbers (kept under `key`, its [`estimate_key`]).
    fn part(&mut self, d: SmallBoard, v: usize, c: Color, path: &Path, key: u64) -> Part {
        if let Some((w, t)) = self.pn_known(d, v, c, path, Some(d)) {
            return Part::resolved(w, t);
        }
        let (phi, delta) = self
            .pn
            .estimate
            .get(key)
            .unwrap_or_else(|| self.first_estimate(d, v, c, path.boards.len() + 1));
        Part {
            phi,
            delta,
            done: None,
        }
    }
}
