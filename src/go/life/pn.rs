//! Proof-number search for the outcome classes under the reconstruction's table.
//!
//! With that table a black option d gets v for Black exactly when White moving first at d does
//! not get it (the class of d is 𝓑 or 𝓟, that is "White gets v" is false there), and
//! symmetrically for White. So "colour c moving first after r gets v" is a game of two players
//! taking turns: c wins at r when some option of c is a sequence at which the opponent moving
//! first loses; on an ultimate board the owner of v wins (neither, for 𝓟); a player without a
//! new board to move to loses. The class is the table applied to the two answers.
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

use super::{Class, Classifier, Path, Tested, TrackKey, TrackedMemo};
use crate::go::board::Color;
use crate::go::error::GoResult;
use crate::go::small::SmallBoard;
use rustc_hash::FxHashMap;

/// Infinity of the proof and disproof numbers; unresolved sums stop one below it.
const INF: u32 = u32::MAX / 4;

/// The tables of the search.
pub(super) struct Tables {
    /// Resolved: whether the colour (the tag of the key: 0 Black, 1 White) moving first gets
    /// the vertex.
    exact: TrackedMemo<bool>,
    /// Unresolved: the last (proof, disproof) numbers of a sequence (its last board, the vertex,
    /// the colour to move and the set key of its boards).
    estimate: FxHashMap<(TrackKey, u64, u64), (u32, u32)>,
}

impl Tables {
    pub(super) fn new() -> Self {
        Tables {
            exact: TrackedMemo::new(),
            estimate: FxHashMap::default(),
        }
    }

    pub(super) fn len(&self) -> usize {
        self.exact.len()
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

/// An option of the colour to move: the board, its index, the numbers of the opponent moving
/// first there, and its result once known (whether the opponent wins, and what it asked).
struct Branch {
    d: SmallBoard,
    di: usize,
    phi: u32,
    delta: u32,
    done: Option<Tested>,
}

fn tag(c: Color) -> u8 {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn own(c: Color) -> Class {
    match c {
        Color::Black => Class::B,
        Color::White => Class::W,
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
        loop {
            // With infinite thresholds a call returns only once the question is resolved (each
            // call spends budget, so this ends with a limit error at worst).
            if let Mid::Done(w, _) = self.mid(last, v, c, path, INF, INF, budget)? {
                return Ok(w);
            }
        }
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
            return Some((self.ultimate_class(d, v) == own(c), self.nothing()));
        }
        let r = self.pn.exact.get((d, v as u8, tag(c)), path, extra);
        self.stats.hits += r.is_some() as u64;
        r
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
        let (k1, k2) = path.set_key(None);
        self.pn.estimate.remove(&((last, v as u8, tag(c)), k1, k2));
        Mid::Done(wins, asked)
    }

    /// One df-pn visit of the (non-ultimate) sequence `path` ending on `last`, `c` to move:
    /// searches until the proof number reaches `th_phi` or the disproof number `th_delta`, or
    /// the question is resolved.
    #[allow(clippy::too_many_arguments)]
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
        if *budget == 0 {
            return Err(self.limit_error());
        }
        *budget -= 1;
        self.stats.nodes += 1;
        let opp = c.opponent();
        // The options the history forbids: a loss depends on their staying forbidden.
        let (new, lost) = self.new_plays(last, v, c, path);
        let mut options: Vec<Branch> = Vec::with_capacity(new.len());
        for (d, di) in new {
            match self.pn_known(d, v, opp, path, Some(d)) {
                Some((false, t)) => {
                    let mut asked = t;
                    asked.add(di);
                    return Ok(self.pn_done(last, v, c, path, true, asked));
                }
                Some((true, t)) => options.push(Branch {
                    d,
                    di,
                    phi: 0,
                    delta: INF,
                    done: Some(t),
                }),
                None => {
                    let (k1, k2) = path.set_key(Some(d));
                    let (phi, delta) = self
                        .pn
                        .estimate
                        .get(&((d, v as u8, tag(opp)), k1, k2))
                        .copied()
                        .unwrap_or((1, 1));
                    options.push(Branch {
                        d,
                        di,
                        phi,
                        delta,
                        done: None,
                    });
                }
            }
        }
        loop {
            // phi (to prove c wins) is the least disproof number of an option; delta (to
            // disprove) the sum of their proof numbers.
            let mut phi = INF;
            let mut second = INF;
            let mut best = None;
            let mut delta = 0u64;
            for (i, o) in options.iter().enumerate() {
                delta += o.phi as u64;
                if o.delta < phi {
                    second = phi;
                    phi = o.delta;
                    best = Some(i);
                } else if o.delta < second {
                    second = o.delta;
                }
            }
            let Some(b) = best else {
                // Every option is a win of the opponent (or there is none): a loss.
                let mut asked = lost;
                for o in &options {
                    asked.join(o.done.as_ref().expect("resolved"));
                }
                return Ok(self.pn_done(last, v, c, path, false, asked));
            };
            let delta = delta.min(INF as u64 - 1) as u32;
            if phi >= th_phi || delta >= th_delta {
                let (k1, k2) = path.set_key(None);
                self.pn
                    .estimate
                    .insert(((last, v as u8, tag(c)), k1, k2), (phi, delta));
                return Ok(Mid::Open(phi, delta));
            }
            let o = &options[b];
            let (d, di) = (o.d, o.di);
            let child_phi = (th_delta as u64 - delta as u64 + o.phi as u64).min(INF as u64) as u32;
            let child_delta = th_phi.min(second.saturating_add(1));
            path.enter(d, di);
            let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                self.mid(d, v, opp, path, child_phi, child_delta, budget)
            });
            path.leave(d, di);
            match r? {
                Mid::Done(false, t) => {
                    let mut asked = t;
                    asked.add(di);
                    return Ok(self.pn_done(last, v, c, path, true, asked));
                }
                Mid::Done(true, t) => {
                    let o = &mut options[b];
                    (o.phi, o.delta, o.done) = (0, INF, Some(t));
                }
                Mid::Open(p, q) => {
                    let o = &mut options[b];
                    (o.phi, o.delta) = (p, q);
                }
            }
        }
    }
}
