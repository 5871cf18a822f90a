//! The mating line read off a proof: the length of the mate the tables' proofs give and its main
//! line, or the shortest mate's line move by move (the attacker's shortest, the defender's longest
//! resistance).

use super::path::{board_key, path_key};
use super::search::{Search, MAX_DEPTH};
use super::val::{Val, INF, NO_LIMIT};
use crate::shogi::checks::generate_checks;
use crate::shogi::position::Position;
use crate::shogi::types::{Move, PieceKind};
use rustc_hash::FxHashMap;

impl Search<'_> {
    /// Whether the attacker is to move at `p`, and the moves the line considers there: the
    /// attacker's checks or the defender's replies, under the reading's repetition rule.
    fn line_moves(&mut self, p: &mut Position) -> (bool, Vec<Move>) {
        let or = p.side_to_move() == self.attacker;
        if or {
            self.scratch.clear();
            generate_checks(p, &mut *self.scratch);
        } else {
            self.gen_defences(p);
        }
        self.broad_filter(p);
        (or, self.scratch.as_slice().to_vec())
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

    /// The shortest proof the table holds for `p` (whose proof of `len` plies was found): the
    /// table may keep proofs of several lengths for one position, for different hands, and a
    /// probe returns the first that fits.
    fn shortest_known(&self, p: &Position, mut len: u32) -> u32 {
        if self.broad && self.history.twice != 0 {
            return len;
        }
        let key = board_key(p);
        let (ha, hd) = self.hands(p);
        while len > 0 {
            match self.tt.probe(key, ha, hd, len - 1) {
                Some(v) if v.pn == 0 && v.len < len => len = v.len,
                _ => break,
            }
        }
        len
    }

    /// The length of a mate from `p` (proven) that follows the proofs the tables hold: at the
    /// attacker's nodes the check with the shortest known proof, at the defender's the longest of
    /// all defences. Every value is the exact length of a strategy (values fall by at least one
    /// along every move), so the root's value is a true upper bound on the shortest mate and the
    /// main line read off `memo` has exactly that length. Children the tables have lost are
    /// searched again. `None` if `p` cannot be proven here (a repetition of the path).
    pub(super) fn tree_len(
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
        let (or, moves) = self.line_moves(p);
        if moves.is_empty() {
            if or {
                return None;
            }
            memo.insert(
                key,
                (
                    0,
                    Move::drop(
                        PieceKind::Pawn,
                        crate::shogi::types::Square::new_unchecked(0),
                    ),
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
                    let len = if v.pn == 0 {
                        self.shortest_known(p, v.len)
                    } else {
                        0
                    };
                    p.undo_move(m, u);
                    if v.pn == 0 {
                        proven.push((len, m));
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
    pub(super) fn tree_line(
        &self,
        p: &mut Position,
        memo: &FxHashMap<u64, (u32, Move)>,
    ) -> Vec<Move> {
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
    /// resistance. With `tight`, `budget` is the exact length of the shortest mate. `known` is a
    /// mate of `budget` plies read from the table when it was proved, if any: where the line
    /// follows it and the table no longer knows a mate (a later search took the entries' place),
    /// its check is searched first, alone, before the node is searched again.
    pub(super) fn pv(
        &mut self,
        p: &mut Position,
        budget: u32,
        tight: bool,
        known: Option<&[Move]>,
    ) -> Vec<Move> {
        let mut line = Vec::new();
        let mut undo = Vec::new();
        let mut budget = budget;
        let mut pk: u64 = 0x5EED;
        self.path.clear();
        self.rep_table.clear();
        while budget > 0 && !self.stopped && line.len() < MAX_DEPTH as usize {
            let (or, moves) = self.line_moves(p);
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
                    if pick.is_none() && attempt == 0 {
                        pick = self.known_check(p, known, &line, &moves, cb, pk);
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

    /// The check `known` plays after `line`, when `line` follows it, it is among `moves` and a
    /// search of it alone proves a mate within `cb` plies.
    fn known_check(
        &mut self,
        p: &mut Position,
        known: Option<&[Move]>,
        line: &[Move],
        moves: &[Move],
        cb: u32,
        pk: u64,
    ) -> Option<(Move, u32)> {
        let k = known?;
        let m = *k.get(line.len())?;
        if !k.starts_with(line) || !moves.contains(&m) {
            return None;
        }
        let v = self.child_solved(p, m, cb, pk);
        (v.pn == 0 && v.len <= cb).then_some((m, v.len))
    }
}
