//! The shortest mate after the first proof.
//!
//! A proof gives a mate, rarely the shortest. Three kinds of step shorten it, each bounded in
//! nodes, all sharing the table, and the shortest line proved so far is kept at every moment,
//! so that a search stopped at any time returns it:
//! - **Along the line**: at each attacker node of the current main line, deepest first, a mate
//!   two plies shorter than the line's rest is looked for there (the positions above it on the
//!   path, as the root search would have them). A shorter mate of a part of the line shortens
//!   the whole when that part is the longest defence; the length the proofs in the table give
//!   is then read again from the root, each attacker node taking its shortest known proof.
//! - **At the root**: a search for a mate two plies shorter than the best length known, which
//!   the table makes cheaper each time (its proofs and disproofs hold for every budget they
//!   fit). Its disproof proves the best length the shortest.
//! - **The lower bound**: a search with the smallest budget not yet disproved, whose disproof
//!   raises the proved lower bound by two plies (mates have odd lengths) and whose proof is a
//!   mate of at most that length. The bound is proved by disproofs only.
//!
//! The root's step comes first in each round, in a slice twice the work so far; the other two
//! only when that slice ends first, and never for mates of at most `SHORT` plies.

use super::parallel::Crew;
use super::path::{board_key, path_key};
use super::search::Search;
use super::val::INF;
use crate::shogi::position::Position;
use crate::shogi::types::Move;
use rustc_hash::FxHashMap;

/// Mates of at most this many plies are shortened at the root alone.
const SHORT: u32 = 15;

/// The path key of the root, as [`Search::root`] starts it.
const ROOT_PK: u64 = 0x5EED;

/// What the shortening leaves.
pub(super) struct Shortened {
    /// The shortest mate proved, in plies.
    pub(super) plies: u32,
    /// The main line of a mate of `line_plies` plies, when one could be read in time.
    pub(super) line: Option<Vec<Move>>,
    /// Budgets up to this one hold no mate (proved by disproofs).
    pub(super) no_mate_upto: u32,
    /// `plies` is proved the shortest.
    pub(super) shortest: bool,
}

impl Search<'_> {
    /// Whether the search must end: the caller's node or time limit, or its stop flag.
    fn must_end(&mut self, global_nodes: u64) -> bool {
        if global_nodes != 0 && self.nodes >= global_nodes {
            return true;
        }
        if let Some(d) = self.deadline {
            if std::time::Instant::now() >= d {
                return true;
            }
        }
        if let Some(f) = &self.stop_flag {
            if f.load(std::sync::atomic::Ordering::Relaxed) {
                return true;
            }
        }
        false
    }

    /// Runs `f` with at most `slice` more nodes; a stop that only the slice caused is cleared.
    fn sliced<R>(&mut self, slice: u64, f: impl FnOnce(&mut Self) -> R) -> R {
        let global = self.max_nodes;
        let end = self.nodes.saturating_add(slice.max(1));
        self.max_nodes = if global == 0 { end } else { end.min(global) };
        let r = f(self);
        self.max_nodes = global;
        if self.stopped && !self.must_end(global) {
            self.stopped = false;
        }
        r
    }

    /// The length of the mate the table's proofs give from the root (each attacker node its
    /// shortest known proof, each defender node its longest defence) and its main line.
    fn table_line(&mut self, p: &mut Position) -> Option<(u32, Vec<Move>)> {
        if self.stopped {
            return None;
        }
        let mut memo = FxHashMap::default();
        self.path.clear();
        self.rep_table.clear();
        let f = self.tree_len(p, ROOT_PK, &mut memo);
        self.path.clear();
        let f = f?;
        let line = self.tree_line(p, &memo);
        (line.len() as u32 == f).then_some((f, line))
    }

    /// Looks for shorter mates at the attacker nodes of `line` (a mate of `plies` plies whose
    /// values fall by one a ply), deepest first, `slice` nodes each.
    #[expect(
        clippy::expect_used,
        reason = "the line undone has one move per ply played"
    )]
    fn shorten_along(&mut self, p: &mut Position, line: &[Move], plies: u32, slice: u64) {
        let mut undo = Vec::with_capacity(line.len());
        let mut pks = Vec::with_capacity(line.len());
        let mut pk = ROOT_PK;
        self.path.clear();
        self.rep_table.clear();
        for &m in line {
            pks.push(pk);
            if self.broad {
                self.history.push(p);
            }
            let (ha, hd) = self.hands(p);
            self.path.push(board_key(p), ha, hd);
            let u = p.do_move(m);
            pk = path_key(pk, p.key());
            undo.push((m, u));
        }
        let capped = self.capped;
        for i in (0..line.len()).rev() {
            let (m, u) = undo.pop().expect("a move per ply");
            self.path.pop();
            if self.broad {
                self.history.pop();
            }
            p.undo_move(m, u);
            let rest = plies - i as u32;
            if i == 0 || i % 2 == 1 || rest < 5 || self.stopped {
                continue;
            }
            self.sliced(slice, |s| s.mid(p, INF, INF, rest - 2, pks[i], 0));
        }
        self.capped = capped;
        self.path.clear();
    }

    /// Shortens the mate of `first` plies just proved at the root (see the module
    /// documentation), within the search's limits; `no_mate_upto` is the largest budget known to
    /// hold no mate.
    pub(super) fn shorten(
        &mut self,
        crew: &mut Crew,
        p: &mut Position,
        first: u32,
        no_mate_upto: u32,
    ) -> Shortened {
        let global = self.max_nodes;
        let mut out = Shortened {
            plies: first,
            line: None,
            no_mate_upto,
            shortest: first <= no_mate_upto + 2,
        };
        // The line in hand and its length (at least `out.plies`).
        let mut held: Option<(u32, Vec<Move>)> = self.table_line(p);
        if let Some((f, _)) = &held {
            out.plies = out.plies.min(*f);
        }
        let mut round: u64 = 0;
        // The length of the line last shortened along.
        let mut walked = u32::MAX;
        while !out.shortest && !self.stopped {
            round += 1;
            let spent = self.nodes.max(1_000);
            // At the root, in a slice twice as large as all the work so far: most mates are
            // shortened there before the slice ends. A short mate is searched there alone, to
            // the end (the steps below restart the root's search, which costs more than they
            // gain on short mates).
            let capped = self.capped;
            self.capped = false;
            let slice = if out.plies <= SHORT {
                u64::MAX
            } else {
                2 * spent
            };
            let v = self.sliced(slice, |s| crew.root(s, p, out.plies - 2));
            let resolved = v.pn == 0 || v.dn == 0;
            if v.pn == 0 {
                out.plies = out.plies.min(v.len);
                let got = self.table_line(p);
                take(&mut out, got, &mut held);
            } else if v.dn == 0 && !self.capped {
                out.no_mate_upto = out.plies - 2;
                out.shortest = true;
            }
            self.capped |= capped;
            if resolved || self.stopped {
                continue;
            }
            // The root's slice ended first: along the line, again while that shortens it.
            for _ in 0..8 {
                let Some((h, line)) = held.clone() else { break };
                if h >= walked || self.stopped {
                    break;
                }
                walked = h;
                let attacker_nodes = (h as u64 / 2).max(1);
                self.shorten_along(p, &line, h, (spent / 8 / attacker_nodes).max(200));
                let got = self.table_line(p);
                let before = out.plies;
                take(&mut out, got, &mut held);
                if out.plies >= before {
                    break;
                }
            }
            // And from below, with a smaller share.
            let b = out.no_mate_upto + 2;
            if b + 2 < out.plies && !self.stopped {
                let capped = self.capped;
                self.capped = false;
                let v = self.sliced(spent / 16 + 1_000 * round, |s| crew.root(s, p, b));
                if v.dn == 0 && !self.capped {
                    out.no_mate_upto = b;
                } else if v.pn == 0 {
                    out.plies = out.plies.min(v.len);
                    let got = self.table_line(p);
                    take(&mut out, got, &mut held);
                }
                self.capped |= capped;
            }
            if out.plies <= out.no_mate_upto + 2 {
                out.shortest = true;
            }
        }
        self.max_nodes = global;
        if let Some((h, line)) = held {
            if h == out.plies {
                out.line = Some(line);
            } else if !out.shortest {
                // The line in hand is longer than a proof found since, whose line could not be
                // read in time: the line in hand is what is reported.
                out.plies = h;
                out.line = Some(line);
            }
        }
        out
    }
}

/// Keeps `got` when it is shorter than the line in hand.
fn take(out: &mut Shortened, got: Option<(u32, Vec<Move>)>, held: &mut Option<(u32, Vec<Move>)>) {
    if let Some((f, l)) = got {
        if held.as_ref().is_none_or(|(h, _)| f < *h) {
            out.plies = out.plies.min(f);
            *held = Some((f, l));
        }
    }
}
