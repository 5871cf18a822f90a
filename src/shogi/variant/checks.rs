//! Checks and evasions of a board variant under the check rule: the moves that attack the
//! opponent's royal piece (the attacker's moves of a mate search), and the squares where a drop
//! can answer a check. Both filter the pseudo-legal moves by the tables before any move is made,
//! so that the legality test (make, look, unmake) runs on the few moves that can pass it.

use super::bits::Bits;
use super::movegen::DropMate;
use super::position::{piece_of, VMove, VPos};

impl VPos {
    /// The squares of pieces standing between `side`'s pieces that could reach `k` along a ray
    /// and `k`: a move from one of them may uncover an attack on `k`.
    pub(super) fn screens(&self, k: usize, side: usize) -> Bits {
        let t = &*self.t;
        let mut d = Bits::default();
        for from in self.occ[side].and(t.reach_any[side * t.n + k]).iter() {
            let (f, _) = piece_of(self.board[from]);
            if !t.scope[t.at(f, side, from)].has(k) {
                continue;
            }
            for ray in t.piece_rays(f, side, from) {
                if !ray.contains(&(k as u8)) {
                    continue;
                }
                for &x in ray {
                    if x as usize == k {
                        break;
                    }
                    if self.board[x as usize] != 0 {
                        d.set(x as usize);
                    }
                }
            }
        }
        d
    }

    /// Is `side`'s royal piece at `k` in check, and if so where may a piece go to answer it
    /// (other than by moving the royal piece): the square of its one attacker and the empty
    /// squares between them along a ray; nowhere when two pieces attack it. `None`: no check.
    pub(super) fn answer_squares(&self, k: usize, side: usize) -> Option<Bits> {
        let t = &*self.t;
        let by = side ^ 1;
        let mut answer = Bits::default();
        let mut attackers = 0;
        for from in self.occ[by].and(t.reach_any[by * t.n + k]).iter() {
            let (f, _) = piece_of(self.board[from]);
            if !t.overlap[f * 2 + by] {
                // the one ray that reaches `k`: a check when the squares before it are empty
                let Some(before) = t.ray_before(t.at(f, by, from), k) else {
                    continue;
                };
                if before.iter().any(|&x| self.board[x as usize] != 0) {
                    continue;
                }
                attackers += 1;
                answer = Bits::default();
                for &x in before {
                    answer.set(x as usize);
                }
                answer.set(from);
                continue;
            }
            if !t.scope[t.at(f, by, from)].has(k) {
                continue;
            }
            // the squares every ray of this piece that reaches `k` passes (two rays may reach it)
            let mut common: Option<Bits> = None;
            for ray in t.piece_rays(f, by, from) {
                let mut between = Bits::default();
                for &x in ray {
                    if x as usize == k {
                        common = Some(match common {
                            None => between,
                            Some(c) => c.and(between),
                        });
                        break;
                    }
                    if self.board[x as usize] != 0 {
                        break;
                    }
                    between.set(x as usize);
                }
            }
            if let Some(mut c) = common {
                attackers += 1;
                c.set(from);
                answer = c;
            }
        }
        match attackers {
            0 => None,
            1 => Some(answer),
            _ => Some(Bits::default()),
        }
    }

    /// Would the piece that `m` moves (or drops) reach `k` from its new square, with its face
    /// after the move? The board is changed only for the look.
    fn reaches_after(&mut self, m: VMove, k: usize) -> bool {
        let (from, to) = (m.from as usize, m.to as usize);
        let us = self.side;
        let saved_to = self.board[to];
        self.board[to] = super::position::cell(m.face as usize, us);
        let saved_from = if m.is_drop() {
            0
        } else {
            std::mem::take(&mut self.board[from])
        };
        let r = self.reaches(to, m.face as usize, us, k);
        if !m.is_drop() {
            self.board[from] = saved_from;
        }
        self.board[to] = saved_to;
        r
    }

    /// Every legal move of the side to move that attacks the opponent's royal piece (a check),
    /// in the order the moves are generated.
    pub fn legal_checks(&mut self, drop_mate: DropMate) -> Vec<VMove> {
        let us = self.side;
        let them = us ^ 1;
        let mut moves = Vec::with_capacity(128);
        let Some(k) = self.royal_square(them) else {
            return moves;
        };
        if self.over().is_some() {
            return moves;
        }
        let screens = self.screens(k, us);
        let t = self.t.clone();
        // where a piece of each face checks from: a piece off the screens moves there (with or
        // without its promotion), a drop is made there
        let checks_from = |f: usize| {
            let r = t.reach[t.at(f, us, k)];
            match t.spec.faces[f].promotes_to {
                Some(p) => r.or(t.reach[t.at(p, us, k)]),
                None => r,
            }
        };
        let mut drop_to = Bits::default();
        for (kind, spec) in t.spec.kinds.iter().enumerate() {
            if self.hands[us][kind] > 0 && spec.droppable {
                for &f in std::iter::once(&spec.base).chain(&spec.also_dropped_as) {
                    drop_to = drop_to.or(t.reach[t.at(f, us, k)]);
                }
            }
        }
        self.pseudo_moves_to(
            &mut moves,
            Bits::ALL,
            |from, f| {
                if screens.has(from) {
                    Bits::ALL
                } else {
                    checks_from(f)
                }
            },
            drop_to,
            |m| {
                (!m.is_drop() && screens.has(m.from as usize))
                    || t.scope[t.at(m.face as usize, us, m.to as usize)].has(k)
            },
        );
        // our own royal piece and what screens it: a move of another piece cannot expose it
        // (in check, every move is looked at)
        let own = self.royal_square(us);
        let in_check = self.in_check(us);
        let exposed = match own {
            Some(r) if !in_check => self.screens(r, them),
            _ => Bits::ALL,
        };
        moves.retain(|&m| {
            let (from, to) = (m.from as usize, m.to as usize);
            let safe = !in_check && (m.is_drop() || (Some(from) != own && !exposed.has(from)));
            let forbidden = drop_mate == DropMate::Illegal && self.forbidden_mate_drop(m);
            if safe && !forbidden && (m.is_drop() || !screens.has(from)) {
                // legal, and a check only by the piece moved: looked at without making the move
                return self.reaches_after(m, k);
            }
            let u = self.do_move(m);
            // a direct check by the piece moved, else one it uncovered
            let check = self.reaches(to, m.face as usize, us, k)
                || (!m.is_drop() && screens.has(from) && self.attacked(k, us));
            let mut keep = check && (safe || !self.in_check(us));
            if keep && forbidden {
                // a check by a drop of a kind whose drop mate is forbidden: not if it mates
                keep = self.has_legal_move();
            }
            self.undo_move(m, u);
            keep
        });
        moves
    }
}
