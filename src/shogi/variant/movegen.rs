//! Moves of a board variant from its tables: pseudo-legal moves (a piece along its rays, with or
//! without a change of face; a drop), legality under the variant's royal rule, the end of a
//! game, and perft.

use super::bits::Bits;
use super::position::{cell, piece_of, VMove, VPos};
use super::spec::{Promotion, RoyalRule};

/// How a drop that gives mate with a kind whose drop mate is forbidden (打ち歩詰め) is treated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DropMate {
    /// It is not a legal move (the seeds' rule: seed 001's 打ち歩詰め is a forbidden move).
    #[default]
    Illegal,
    /// It is a move, after which the game is over with a loss for the side that dropped
    /// (Fairy-Stockfish's convention, under which its published perft counts are taken).
    Loses,
}

/// How the game stands before a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Over {
    /// The side to move has a royal piece neither on the board nor in hand.
    RoyalLost(usize),
    /// A side's royal piece stands unattacked on its flag rows (dobutsu's try).
    Try(usize),
    /// Both sides' royal pieces stand so: a draw (Fairy-Stockfish's reading of the try).
    BothTries,
}

/// What is known of the candidate moves' legality without making them.
enum Safe {
    /// Nothing: every move is looked at.
    None,
    /// Under the check rule: moves of pieces off `screens` (and not the royal piece) cannot
    /// leave the royal piece attacked, nor can drops; in check, the candidates are only those
    /// that answer the one check (or move the royal piece), so the same holds.
    Screened { royal: usize, screens: Bits },
}

/// Store `m` if `keep` accepts it.
#[inline(always)]
fn push_if(out: &mut Vec<VMove>, keep: &impl Fn(&VMove) -> bool, m: VMove) {
    if keep(&m) {
        out.push(m);
    }
}

impl VPos {
    /// Is `sq` attacked by a piece of `by`?
    pub fn attacked(&self, sq: usize, by: usize) -> bool {
        let t = &*self.t;
        // only the pieces standing where some face of `by` could reach `sq` from
        self.occ[by]
            .and(t.reach_any[by * t.n + sq])
            .iter()
            .any(|from| self.reaches(from, piece_of(self.board[from]).0, by, sq))
    }

    /// Does a piece of face `f` and side `side` at `from` reach `sq` along one of its rays, over
    /// the pieces of the board?
    #[inline]
    pub(super) fn reaches(&self, from: usize, f: usize, side: usize, sq: usize) -> bool {
        let t = &*self.t;
        let at = t.at(f, side, from);
        if !t.overlap[f * 2 + side] {
            // the one ray that reaches `sq`, and the squares before it on that ray
            return t
                .ray_before(at, sq)
                .is_some_and(|before| before.iter().all(|&x| self.board[x as usize] == 0));
        }
        if !t.scope[at].has(sq) {
            return false;
        }
        for ray in t.piece_rays(f, side, from) {
            for &x in ray {
                if x as usize == sq {
                    return true;
                }
                if self.board[x as usize] != 0 {
                    break;
                }
            }
        }
        false
    }

    /// Is `side`'s royal piece attacked?
    pub fn in_check(&self, side: usize) -> bool {
        match self.royal_square(side) {
            Some(k) => self.attacked(k, side ^ 1),
            None => false,
        }
    }

    /// Has the game ended before the side to move moves? Only under the capture rule (dobutsu):
    /// under the check rule a game ends when the side to move has no legal move.
    pub fn over(&self) -> Option<Over> {
        let t = &*self.t;
        if t.spec.royal != RoyalRule::Capture {
            return None;
        }
        for s in [self.side ^ 1, self.side] {
            let in_hand: u32 = t
                .spec
                .kinds
                .iter()
                .enumerate()
                .filter(|(_, k)| k.royal)
                .map(|(i, _)| self.hands[s][i])
                .sum();
            let any_royal = t.spec.kinds.iter().any(|k| k.royal);
            if any_royal && self.royals[s] == 0 && in_hand == 0 {
                return Some(Over::RoyalLost(s));
            }
        }
        if t.spec.flag.is_some() {
            return match (self.flag_safe(0), self.flag_safe(1)) {
                (true, true) => Some(Over::BothTries),
                (true, false) => Some(Over::Try(0)),
                (false, true) => Some(Over::Try(1)),
                (false, false) => None,
            };
        }
        None
    }

    /// Does `side`'s royal piece stand on its flag rows, unattacked?
    fn flag_safe(&self, side: usize) -> bool {
        let t = &*self.t;
        self.occ[side].iter().any(|sq| {
            t.flag[side].has(sq)
                && t.royal_face[piece_of(self.board[sq]).0]
                && !self.attacked(sq, side ^ 1)
        })
    }

    /// Every pseudo-legal move of the side to move: the one-step transition of the tables, before
    /// the royal rule and the drop rules that look ahead.
    pub fn pseudo_moves(&self, out: &mut Vec<VMove>) {
        self.pseudo_moves_where(out, Bits::ALL, |_| true);
    }

    /// The pseudo-legal moves `keep` accepts, drops only to the squares of `drop_to`, tested
    /// before they are stored (a check or an evasion generator asks only for the moves that can
    /// be one).
    #[inline]
    pub fn pseudo_moves_where(
        &self,
        out: &mut Vec<VMove>,
        drop_to: Bits,
        keep: impl Fn(&VMove) -> bool,
    ) {
        self.pseudo_moves_to(out, Bits::ALL, |_, _| Bits::ALL, drop_to, keep);
    }

    /// As [`VPos::pseudo_moves_where`], for the pieces on `pieces` only, where
    /// `targets(from, face)` bounds the squares a piece may move to: a piece whose reach on an
    /// empty board misses them is not looked at.
    #[inline]
    pub(super) fn pseudo_moves_to(
        &self,
        out: &mut Vec<VMove>,
        pieces: Bits,
        targets: impl Fn(usize, usize) -> Bits,
        drop_to: Bits,
        keep: impl Fn(&VMove) -> bool,
    ) {
        let t = &*self.t;
        let spec = &t.spec;
        let us = self.side;
        let check_rule = spec.royal == RoyalRule::Check;
        let forced = spec.promotion == Promotion::Forced;
        for from in self.occ[us].and(pieces).iter() {
            let (f, _) = piece_of(self.board[from]);
            let tg = targets(from, f);
            if !t.scope[t.at(f, us, from)].meets(&tg) {
                continue;
            }
            let promo = spec.faces[f].promotes_to;
            let from_zone = t.zone[us].has(from);
            let stuck = if spec.immobility_illegal {
                t.stuck[f * 2 + us]
            } else {
                Bits::default()
            };
            // two rays may reach one square (a king's step and a ray along it): one move
            let overlap = t.overlap[f * 2 + us];
            let mut seen = Bits::default();
            for ray in t.piece_rays(f, us, from) {
                for &to in ray {
                    let to_u = to as usize;
                    let c = self.board[to_u];
                    if !tg.has(to_u) || (overlap && seen.has(to_u)) {
                        if c != 0 {
                            break;
                        }
                        continue;
                    }
                    if overlap {
                        seen.set(to_u);
                    }
                    if c != 0 {
                        let (cf, cs) = piece_of(c);
                        if cs == us || (check_rule && t.royal_face[cf]) {
                            break;
                        }
                    }
                    let may_stay = !stuck.has(to_u);
                    let step = |face: usize, flip: bool| VMove {
                        from: from as u8,
                        to,
                        face: face as u8,
                        flip,
                    };
                    let promotes = promo.filter(|_| from_zone || t.zone[us].has(to_u));
                    if let Some(p) = promotes {
                        push_if(out, &keep, step(p, true));
                    }
                    if may_stay && !(forced && promotes.is_some()) {
                        push_if(out, &keep, step(f, false));
                    }
                    if c != 0 {
                        break;
                    }
                }
            }
        }
        self.drops(out, drop_to, &keep);
    }

    fn drops(&self, out: &mut Vec<VMove>, drop_to: Bits, keep: &impl Fn(&VMove) -> bool) {
        let t = &*self.t;
        let spec = &t.spec;
        let us = self.side;
        let w = spec.width;
        let mut empty = drop_to;
        for (i, word) in empty.0.iter_mut().enumerate() {
            *word &= !(self.occ[0].0[i] | self.occ[1].0[i]);
        }
        if empty.is_empty() {
            return;
        }
        // few squares to drop on (an evasion, a check): each file is counted when first asked
        let few = empty.iter().nth(w).is_none();
        for (k, kind) in spec.kinds.iter().enumerate() {
            if self.hands[us][k] == 0 || !kind.droppable {
                continue;
            }
            // each file's pieces of the kind's base face, for its limit (u32::MAX: not counted)
            let mut per_file = [u32::MAX; super::spec::MAX_SIDE];
            let ours = cell(kind.base, us);
            if kind.max_per_file.is_some() && !few {
                per_file = [0; super::spec::MAX_SIDE];
                for sq in self.occ[us].iter() {
                    if self.board[sq] == ours {
                        per_file[sq % w] += 1;
                    }
                }
            }
            for to in empty.iter() {
                if to >= t.n {
                    break;
                }
                if let Some(max) = kind.max_per_file {
                    let file = to % w;
                    if per_file[file] == u32::MAX {
                        per_file[file] = (file..t.n)
                            .step_by(w)
                            .filter(|&sq| self.board[sq] == ours)
                            .count() as u32;
                    }
                    if per_file[file] >= max {
                        continue;
                    }
                }
                for &face in std::iter::once(&kind.base).chain(&kind.also_dropped_as) {
                    if spec.immobility_illegal && t.immobile(face, us, to) {
                        continue;
                    }
                    push_if(
                        out,
                        keep,
                        VMove {
                            from: VMove::DROP,
                            to: to as u8,
                            face: face as u8,
                            flip: false,
                        },
                    );
                }
            }
        }
    }

    /// Is a pseudo-legal move legal under the royal rule (the mover's royal piece not left
    /// attacked) and the drop-mate rule?
    pub fn is_legal(&mut self, m: VMove, drop_mate: DropMate) -> bool {
        if self.t.spec.royal == RoyalRule::Capture {
            return true;
        }
        let us = self.side;
        let u = self.do_move(m);
        let mut ok = !self.in_check(us);
        if ok && drop_mate == DropMate::Illegal && m.is_drop() {
            let k = self.t.kind_of[m.face as usize] as usize;
            if self.t.spec.kinds[k].drop_mate_forbidden
                && self.in_check(us ^ 1)
                && !self.has_legal_move()
            {
                ok = false;
            }
        }
        self.undo_move(m, u);
        ok
    }

    /// Has the side to move a legal move (drops that would be forbidden drop mates judged as
    /// such)? Moves of the board first, then drops of kinds with no drop-mate rule, then the
    /// rest: the look-ahead of a forbidden drop recurses only through further such drops, and the
    /// pieces in hand decrease along it.
    pub fn has_legal_move(&mut self) -> bool {
        if self.over().is_some() {
            return false;
        }
        let mut moves = Vec::with_capacity(128);
        let safe = self.candidates(&mut moves);
        moves.sort_by_key(|m| {
            (
                m.is_drop()
                    && self.t.spec.kinds[self.t.kind_of[m.face as usize] as usize]
                        .drop_mate_forbidden,
                m.is_drop(),
            )
        });
        moves
            .into_iter()
            .any(|m| self.legal_given(m, DropMate::Illegal, &safe))
    }

    /// Every legal move of the side to move (none once the game is over).
    pub fn legal_moves(&mut self, drop_mate: DropMate) -> Vec<VMove> {
        let mut moves = Vec::with_capacity(128);
        self.legal_moves_into(drop_mate, &mut moves);
        moves
    }

    /// The legal moves into `moves` (cleared first): [`VPos::legal_moves`] without an
    /// allocation of its own.
    pub fn legal_moves_into(&mut self, drop_mate: DropMate, moves: &mut Vec<VMove>) {
        moves.clear();
        if self.over().is_some() {
            return;
        }
        let safe = self.candidates(moves);
        moves.retain(|&m| self.legal_given(m, drop_mate, &safe));
    }

    /// The pseudo-legal moves that may be legal, and what makes some of them legal without a
    /// look: under the check rule, in check, a move answers it only by moving the royal piece,
    /// taking its one attacker or standing between them; in check or not, a piece that is not
    /// royal and stands on no line from an enemy piece to the royal piece cannot expose it.
    fn candidates(&self, moves: &mut Vec<VMove>) -> Safe {
        let us = self.side;
        let royal = match self.royal_square(us) {
            Some(k) if self.t.spec.royal == RoyalRule::Check => k,
            _ => {
                self.pseudo_moves(moves);
                return Safe::None;
            }
        };
        if let Some(answer) = self.answer_squares(royal, us) {
            // the royal piece, and the pieces that could reach an answering square
            let mut pieces = Bits::default();
            pieces.set(royal);
            for sq in answer.iter() {
                pieces = pieces.or(self.t.reach_any[us * self.t.n + sq]);
            }
            self.pseudo_moves_to(
                moves,
                pieces,
                |from, _| if from == royal { Bits::ALL } else { answer },
                answer,
                |m| m.from as usize == royal || answer.has(m.to as usize),
            );
        } else {
            self.pseudo_moves(moves);
        }
        // (looked for only when a piece other than the royal one moves)
        let screens = if moves
            .iter()
            .any(|m| !m.is_drop() && m.from as usize != royal)
        {
            self.screens(royal, us ^ 1)
        } else {
            Bits::default()
        };
        Safe::Screened { royal, screens }
    }

    /// Is the candidate `m` legal, given what [`VPos::candidates`] found?
    #[inline]
    fn legal_given(&mut self, m: VMove, drop_mate: DropMate, safe: &Safe) -> bool {
        if let Safe::Screened { royal, screens } = safe {
            if m.is_drop() {
                let kind = self.t.kind_of[m.face as usize] as usize;
                if drop_mate == DropMate::Loses || !self.t.spec.kinds[kind].drop_mate_forbidden {
                    return true;
                }
            } else if m.from as usize != *royal && !screens.has(m.from as usize) {
                return true;
            } else if m.from as usize == *royal {
                return self.royal_safe_at(*royal, m.to as usize);
            }
        }
        self.is_legal(m, drop_mate)
    }

    /// Would the side to move's royal piece at `royal` stand unattacked on `to` (its own
    /// piece's square excepted)? The board is changed only for the look: the royal piece off
    /// its square, a piece it takes off `to`.
    fn royal_safe_at(&mut self, royal: usize, to: usize) -> bool {
        let them = self.side ^ 1;
        let saved_royal = std::mem::take(&mut self.board[royal]);
        let saved_to = std::mem::take(&mut self.board[to]);
        let took = saved_to != 0;
        if took {
            self.occ[them].clear(to);
        }
        let safe = !self.attacked(to, them);
        if took {
            self.occ[them].set(to);
        }
        self.board[to] = saved_to;
        self.board[royal] = saved_royal;
        safe
    }

    /// The number of move sequences of `depth` legal moves.
    pub fn perft(&mut self, depth: u32, drop_mate: DropMate) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves(drop_mate);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            let u = self.do_move(m);
            n += self.perft(depth - 1, drop_mate);
            self.undo_move(m, u);
        }
        n
    }

    /// perft for each legal move, in the order generated.
    pub fn perft_divide(&mut self, depth: u32, drop_mate: DropMate) -> Vec<(VMove, u64)> {
        let moves = self.legal_moves(drop_mate);
        moves
            .into_iter()
            .map(|m| {
                let u = self.do_move(m);
                let n = self.perft(depth.saturating_sub(1), drop_mate);
                self.undo_move(m, u);
                (m, n)
            })
            .collect()
    }
}
