//! Move generation: fully legal moves, pseudo-legal moves (the one-step transition), checks.

use super::bitboard::{tables, Bitboard, Tables, MASK};
use super::position::Position;
use super::types::{Color, Move, PieceKind, Square};

/// Which pawn drops are forbidden as pawn-drop mate (打ち歩詰め).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PawnDropMate {
    /// A pawn drop that gives check and leaves the opponent without a legal move (the rule
    /// of shogi, and the perft convention).
    #[default]
    RequiresCheck,
    /// A pawn drop that leaves the opponent without a legal move, check or not (the reading
    /// in which mate does not presuppose check). The opponent's own pawn drops are judged by
    /// the same reading.
    NoMoveLeft,
}

/// Somewhere moves can be put: a [`MoveList`] or a vector.
/// The exclusions a move generator applies besides the king's safety (see
/// [`Position::safe_moves`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exclude {
    /// Unpromoted moves and drops that leave a piece with nowhere to go.
    pub dead: bool,
    /// Pawn drops on a file that holds an own unpromoted pawn.
    pub nifu: bool,
    /// Pawn drops that give check and leave no legal reply (打ち歩詰め, check required).
    pub pawn_mate: bool,
    /// Moves that capture the opponent's king (a position that allows one is forbidden already).
    pub king_captures: bool,
}

impl Exclude {
    /// The legal moves of the shipped rules.
    pub const LEGAL: Exclude = Exclude {
        dead: true,
        nifu: true,
        pawn_mate: true,
        king_captures: false,
    };
    /// Nothing but what the generator's caller asks (pseudo-legal drops).
    pub const NONE: Exclude = Exclude {
        dead: false,
        nifu: false,
        pawn_mate: false,
        king_captures: false,
    };
}

pub trait MoveSink {
    fn push_move(&mut self, m: Move);
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push_move(&mut self, m: Move) {
        self.push(m);
    }
}

impl MoveSink for Vec<Move> {
    #[inline(always)]
    fn push_move(&mut self, m: Move) {
        self.push(m);
    }
}

/// Capacity of a [`MoveList`]; more than the most legal moves any position can have (593).
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list of moves (no allocation).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::board(Square::new_unchecked(0), Square::new_unchecked(0), false);
                MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, m: Move) {
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `f` holds, in order.
    pub fn retain(&mut self, mut f: impl FnMut(Move) -> bool) {
        let mut w = 0;
        for r in 0..self.len {
            let m = self.moves[r];
            if f(m) {
                self.moves[w] = m;
                w += 1;
            }
        }
        self.len = w;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True if empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Iterator over the moves.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// True if `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[inline(always)]
fn sq(i: usize) -> Square {
    Square::new_unchecked(i)
}

/// Pushes the moves of a piece of `kind` from `from` to each square of `targets`, with
/// promotion choices: a promoting move when the kind can promote and `from` or `to` is in the
/// zone, a non-promoting one unless the piece would be dead (`legal_only`) .
#[inline(always)]
pub(super) fn push_piece_moves(
    t: &Tables,
    list: &mut impl MoveSink,
    us: Color,
    kind: PieceKind,
    from: usize,
    mut targets: u128,
    legal_only: bool,
) {
    let ui = us.index();
    let zone = t.zone[ui];
    let from_in_zone = zone >> from & 1 != 0;
    let dead = match kind {
        PieceKind::Pawn | PieceKind::Lance if legal_only => t.last1[ui],
        PieceKind::Knight if legal_only => t.last2[ui],
        _ => 0,
    };
    if kind.can_promote() {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            if from_in_zone || zone >> to & 1 != 0 {
                list.push_move(Move::board(sq(from), sq(to), true));
            }
            if dead >> to & 1 == 0 {
                list.push_move(Move::board(sq(from), sq(to), false));
            }
        }
    } else {
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            list.push_move(Move::board(sq(from), sq(to), false));
        }
    }
}

impl Position {
    /// Appends all legal moves to `list` (which is not cleared).
    ///
    /// Legal: unpromoted moves are included wherever the piece is not left dead; moves that
    /// leave the own king attacked, two unpromoted pawns on a column, and pawn drops that give
    /// check and leave the opponent without a legal move (打ち歩詰め) are excluded.
    pub fn generate_legal(&self, list: &mut MoveList) {
        self.generate_legal_with(list, PawnDropMate::RequiresCheck);
    }

    /// Like [`Position::generate_legal`], with a choice of the pawn-drop-mate reading.
    pub fn generate_legal_with(&self, list: &mut MoveList, rule: PawnDropMate) {
        if rule == PawnDropMate::RequiresCheck {
            self.generate_legal_into(list);
        } else {
            let before = list.len;
            self.generate_legal_into(list);
            // Re-judge the pawn drops: any that leaves the opponent without a move is out.
            let mut w = before;
            for r in before..list.len {
                let m = list.moves[r];
                let keep = m.drop_kind() != Some(PieceKind::Pawn) || {
                    let after = self.after(m);
                    after.has_legal_move_with(rule)
                };
                if keep {
                    list.moves[w] = m;
                    w += 1;
                }
            }
            list.len = w;
        }
    }

    /// The legal moves (as [`Position::generate_legal`]) put into any sink.
    #[inline(always)]
    pub(super) fn generate_legal_into(&self, list: &mut impl MoveSink) {
        self.generate_safe_into(list, Exclude::LEGAL);
    }

    /// The moves that leave the own king unattacked, without the moves `ex` excludes besides:
    /// the legal moves under [`Exclude::LEGAL`], and under a variant that changes some of the
    /// other conditions of legality, the candidates that only the changed conditions can still
    /// exclude (each then judged by the variant).
    pub fn safe_moves(&self, ex: Exclude) -> Vec<Move> {
        let mut list = MoveList::new();
        self.generate_safe_into(&mut list, ex);
        list.as_slice().to_vec()
    }

    #[inline(always)]
    fn generate_safe_into(&self, list: &mut impl MoveSink, ex: Exclude) {
        let t = tables();
        let us = self.side;
        let them = us.flip();
        let ui = us.index();
        let own = self.by_color[ui];
        let occ = self.occ();
        let ksq = self.king[ui] as usize;
        let has_king = ksq < 81;
        let (checkers, pinned) = if has_king {
            (self.attackers_occ(ksq, them, occ), self.pinned(us, ksq))
        } else {
            (0, 0)
        };
        if has_king {
            // King moves.
            let occ_wo_king = occ ^ (1u128 << ksq);
            let mut tg = t.king[ksq] & !own & MASK;
            while tg != 0 {
                let to = tg.trailing_zeros() as usize;
                tg &= tg - 1;
                if !self.is_attacked(to, them, occ_wo_king) {
                    list.push_move(Move::board(sq(ksq), sq(to), false));
                }
            }
        }
        if checkers & checkers.wrapping_sub(1) != 0 {
            return; // double check: only the king may move
        }
        let (mut board_target, drop_target) = if checkers != 0 {
            let c = checkers.trailing_zeros() as usize;
            let b = t.between(ksq, c);
            (b | checkers, b)
        } else {
            (!own & MASK, !occ & MASK)
        };
        if ex.king_captures {
            let theirk = self.king[them.index()] as usize;
            if theirk < 81 {
                board_target &= !(1u128 << theirk);
            }
        }
        let mut pieces = own & !self.bb(PieceKind::King);
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let code = self.board[from];
            let kind = PieceKind::ALL[((code & 15) - 1) as usize];
            let mut tg = t.attacks(kind, us, from, occ) & board_target;
            if pinned >> from & 1 != 0 {
                tg &= t.line(ksq, from);
            }
            push_piece_moves(t, list, us, kind, from, tg, ex.dead);
        }
        self.generate_drops(t, list, drop_target, ex);
    }

    /// True if the side to move has a legal move under the given pawn-drop-mate reading.
    pub fn has_legal_move_with(&self, rule: PawnDropMate) -> bool {
        match rule {
            PawnDropMate::RequiresCheck => self.has_legal_move(),
            PawnDropMate::NoMoveLeft => {
                let mut list = MoveList::new();
                self.generate_legal(&mut list);
                // Moves other than pawn drops are legal in both readings.
                if list.iter().any(|m| m.drop_kind() != Some(PieceKind::Pawn)) {
                    return true;
                }
                list.iter()
                    .any(|&m| self.after(m).has_legal_move_with(rule))
            }
        }
    }

    /// Legal moves under the given pawn-drop-mate reading.
    pub fn legal_moves_with(&self, rule: PawnDropMate) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal_with(&mut list, rule);
        list
    }

    /// Drops onto `target`; with `legal_only`, no dead drops, no two pawns and no pawn-drop
    /// mate.
    fn generate_drops(&self, t: &Tables, list: &mut impl MoveSink, target: u128, ex: Exclude) {
        let us = self.side;
        let ui = us.index();
        let hand = self.hands[ui];
        if hand.is_empty() || target == 0 {
            return;
        }
        for k in 0..7 {
            if hand.get(k) == 0 {
                continue;
            }
            let kind = PieceKind::HAND[k];
            let mut tg = target;
            match kind {
                PieceKind::Pawn => tg = self.pawn_drop_squares(t, tg, ex),
                PieceKind::Lance if ex.dead => tg &= !t.last1[ui],
                PieceKind::Knight if ex.dead => tg &= !t.last2[ui],
                _ => {}
            }
            while tg != 0 {
                let to = tg.trailing_zeros() as usize;
                tg &= tg - 1;
                list.push_move(Move::drop(kind, sq(to)));
            }
        }
    }

    /// The squares of `target` where the side to move may drop a pawn (it holds one), less those
    /// `ex` excludes: the last rank, a file with an own pawn, a square where the drop would mate.
    #[inline(always)]
    fn pawn_drop_squares(&self, t: &Tables, target: u128, ex: Exclude) -> u128 {
        let ui = self.side.index();
        let mut tg = target;
        if ex.dead {
            tg &= !t.last1[ui];
        }
        if ex.nifu {
            let pawns = self.bb(PieceKind::Pawn) & self.by_color[ui];
            for f in t.file.iter() {
                if pawns & f != 0 {
                    tg &= !f;
                }
            }
        }
        let theirk = self.king[ui ^ 1] as usize;
        if ex.pawn_mate && theirk < 81 {
            let front = t.pawn[ui ^ 1][theirk];
            if tg & front != 0 && self.is_pawn_drop_mate(front.trailing_zeros() as usize) {
                tg &= !front;
            }
        }
        tg
    }

    /// True if dropping a pawn on `to` (assumed otherwise legal) checks the opponent and
    /// leaves it with no legal move, decided by generating the opponent's legal moves.
    fn is_pawn_drop_mate(&self, to: usize) -> bool {
        let m = Move::drop(PieceKind::Pawn, sq(to));
        let mut p = self.clone();
        p.do_move(m);
        if !p.in_check() {
            return false;
        }
        !p.has_legal_move()
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_legal() > 0
    }

    /// True if the side to move is in check and has no legal move (詰み).
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// True if the side to move is not in check and has no legal move.
    pub fn is_stalemate(&self) -> bool {
        !self.in_check() && !self.has_legal_move()
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list
    }

    /// Number of legal moves, counted without listing them (same rules as
    /// [`Position::generate_legal`]).
    pub fn count_legal(&self) -> usize {
        self.count_legal_inline()
    }

    /// The legal replies to a single check by `checkers` other than king moves, counted from the
    /// squares a reply must reach: each piece that reaches the checker's square or a square
    /// between (`pinned` pieces only along their pin), then the drops between. Kept out of line:
    /// `count_legal` is inlined into the perft loop, where positions in check are few.
    #[inline(never)]
    fn count_check_replies(&self, ksq: usize, checkers: u128, pinned: u128) -> u32 {
        let t = tables();
        let us = self.side;
        let ui = us.index();
        let occ = self.occ();
        let mut n = 0u32;
        let between = t.between(ksq, checkers.trailing_zeros() as usize);
        let zone = t.zone[ui];
        let not_king = !self.bb(PieceKind::King);
        let mut targets = between | checkers;
        while targets != 0 {
            let to = targets.trailing_zeros() as usize;
            targets &= targets - 1;
            let mut movers = self.attackers_occ(to, us, occ) & not_king;
            while movers != 0 {
                let from = movers.trailing_zeros() as usize;
                movers &= movers - 1;
                if pinned >> from & 1 != 0 && t.line(ksq, from) >> to & 1 == 0 {
                    continue;
                }
                let kind = PieceKind::ALL[((self.board[from] & 15) - 1) as usize];
                let promotes = kind.can_promote() && (zone >> from | zone >> to) & 1 != 0;
                let dead = match kind {
                    PieceKind::Pawn | PieceKind::Lance => t.last1[ui],
                    PieceKind::Knight => t.last2[ui],
                    _ => 0,
                };
                n += if promotes && dead >> to & 1 == 0 {
                    2
                } else {
                    1
                };
            }
        }
        n + self.count_drops(between)
    }

    /// The legal drops of the side to move on the empty squares `target`: every kind held, less
    /// the dead squares, the files with an own pawn, and a pawn drop that would mate.
    #[inline(always)]
    fn count_drops(&self, target: u128) -> u32 {
        let hand = self.hands[self.side.index()];
        if target == 0 || hand.is_empty() {
            return 0;
        }
        let t = tables();
        let ui = self.side.index();
        let (last1, last2) = (t.last1[ui], t.last2[ui]);
        let mut n = 0;
        let all = target.count_ones();
        for k in 1..7 {
            if hand.get(k) != 0 {
                n += match k {
                    1 => (target & !last1).count_ones(),
                    2 => (target & !last2).count_ones(),
                    _ => all,
                };
            }
        }
        if hand.get(0) != 0 {
            n += self
                .pawn_drop_squares(t, target, Exclude::LEGAL)
                .count_ones();
        }
        n
    }

    /// The body of [`Position::count_legal`], inlined into callers (such as the perft loop
    /// compiled with hardware population count).
    #[inline(always)]
    pub(super) fn count_legal_inline(&self) -> usize {
        let t = tables();
        let us = self.side;
        let them = us.flip();
        let ui = us.index();
        let own = self.by_color[ui];
        let occ = self.occ();
        let ksq = self.king[ui] as usize;
        let has_king = ksq < 81;
        let mut n = 0u32;
        let (checkers, pinned) = if has_king {
            let occ_wo_king = occ ^ (1u128 << ksq);
            let mut tg = t.king[ksq] & !own & MASK;
            while tg != 0 {
                let to = tg.trailing_zeros() as usize;
                tg &= tg - 1;
                if !self.is_attacked(to, them, occ_wo_king) {
                    n += 1;
                }
            }
            (self.attackers_occ(ksq, them, occ), self.pinned(us, ksq))
        } else {
            (0, 0)
        };
        if checkers & checkers.wrapping_sub(1) != 0 {
            return n as usize;
        }
        if checkers != 0 {
            // In check the replies are counted from the few squares they must reach.
            return (n + self.count_check_replies(ksq, checkers, pinned)) as usize;
        }
        let (board_target, drop_target) = (!own & MASK, !occ & MASK);
        let zone = t.zone[ui];
        let last1 = t.last1[ui];
        let last2 = t.last2[ui];
        // Unpinned pawns in bulk: one step forward.
        let pawn_bb = self.bb(PieceKind::Pawn);
        let pawns = pawn_bb & own & !pinned;
        let pawn_to = match us {
            Color::Black => (pawns & !t.last1[0]) >> 1,
            Color::White => (pawns & !t.last1[1]) << 1,
        } & board_target;
        n += forward_moves(pawn_to, zone, last1);
        // Pinned pieces (rare): any kind, moves restricted to the pin line.
        let mut pieces = own & pinned & !self.bb(PieceKind::King);
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let kind = PieceKind::ALL[((self.board[from] & 15) - 1) as usize];
            let tg = t.attacks(kind, us, from, occ) & board_target & t.line(ksq, from);
            n += match kind {
                PieceKind::Pawn | PieceKind::Lance => forward_moves(tg, zone, last1),
                PieceKind::Knight => 0,
                PieceKind::Silver | PieceKind::Bishop | PieceKind::Rook => {
                    promotable_moves(tg, from, zone)
                }
                _ => tg.count_ones(),
            };
        }
        // Unpinned pieces, kind by kind.
        let free = own & !pinned;
        let ci = ui;
        let mut b = self.bb(PieceKind::Knight) & free;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            let tg = t.knight[ci][from] & board_target;
            n += forward_moves(tg, zone, last2);
        }
        let mut b = self.bb(PieceKind::Lance) & free;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            let tg = t.lance(us, from, occ) & board_target;
            n += forward_moves(tg, zone, last1);
        }
        let mut b = self.bb(PieceKind::Silver) & free;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            let tg = t.silver[ci][from] & board_target;
            n += promotable_moves(tg, from, zone);
        }
        let mut b = self.golds() & free;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            n += (t.gold[ci][from] & board_target).count_ones();
        }
        let mut b = self.bb(PieceKind::Bishop) & free;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            let tg = t.bishop(from, occ) & board_target;
            n += promotable_moves(tg, from, zone);
        }
        let mut b = self.bb(PieceKind::Rook) & free;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            let tg = t.rook(from, occ) & board_target;
            n += promotable_moves(tg, from, zone);
        }
        let mut b = self.bb(PieceKind::Horse) & free;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            n += ((t.bishop(from, occ) | t.king[from]) & board_target).count_ones();
        }
        let mut b = self.bb(PieceKind::Dragon) & free;
        while b != 0 {
            let from = b.trailing_zeros() as usize;
            b &= b - 1;
            n += ((t.rook(from, occ) | t.king[from]) & board_target).count_ones();
        }
        n += self.count_drops(drop_target);
        n as usize
    }

    /// All moves of the one-step transition →β1 for the side to move: every piece to every
    /// square it attacks that does not hold an own piece (captures included), with a
    /// promoting variant when the kind can promote and the origin or the destination is in
    /// the zone, and every drop of a held kind on every empty square. Two pawns, dead
    /// pieces, self-check and pawn-drop mate are not excluded.
    ///
    /// Moves that capture the opponent's king are left out (a position where that is
    /// possible is already forbidden for the side that moved into it); see
    /// [`Position::king_captures`].
    pub fn pseudo_legal_moves(&self) -> Vec<Move> {
        let t = tables();
        let us = self.side;
        let ui = us.index();
        let own = self.by_color[ui];
        let occ = self.occ();
        let their_king = match self.king_square(us.flip()) {
            Some(k) => 1u128 << k.index(),
            None => 0,
        };
        let mut list = MoveList::new();
        let mut out = Vec::new();
        let mut pieces = own;
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let kind = PieceKind::ALL[((self.board[from] & 15) - 1) as usize];
            let tg = t.attacks(kind, us, from, occ) & !own & !their_king & MASK;
            push_piece_moves(t, &mut list, us, kind, from, tg, false);
            if list.len() > MAX_MOVES / 2 {
                out.extend_from_slice(list.as_slice());
                list = MoveList::new();
            }
        }
        out.extend_from_slice(list.as_slice());
        let mut drops = MoveList::new();
        self.generate_drops(t, &mut drops, !occ & MASK, Exclude::NONE);
        out.extend_from_slice(drops.as_slice());
        out
    }

    /// Moves of the side to move that capture the opponent's king (non-promoting only).
    pub fn king_captures(&self) -> Vec<Move> {
        let Some(k) = self.king_square(self.side.flip()) else {
            return Vec::new();
        };
        self.attackers_to(k, self.side)
            .squares()
            .map(|from| Move::board(from, k, false))
            .collect()
    }

    /// True if `m` is a legal move in this position.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    /// True if `m` (assumed pseudo-legal) gives check to the opponent, directly or by
    /// discovery. False for a board move from an empty square.
    pub fn gives_check(&self, m: Move) -> bool {
        let t = tables();
        let us = self.side;
        let ui = us.index();
        let theirk = self.king[ui ^ 1] as usize;
        if theirk >= 81 {
            return false;
        }
        let to = m.to().index();
        let to_bit = 1u128 << to;
        let (kind, from_bit) = match m.drop_kind() {
            Some(k) => (k, 0u128),
            None => {
                let f = m.origin_raw();
                if self.board[f] == 0 {
                    return false;
                }
                let k = PieceKind::ALL[((self.board[f] & 15) - 1) as usize];
                let k = if m.is_promotion() {
                    k.promoted().unwrap_or(k)
                } else {
                    k
                };
                (k, 1u128 << f)
            }
        };
        let occ = (self.occ() & !from_bit) | to_bit;
        if t.attacks(kind, us, to, occ) >> theirk & 1 != 0 {
            return true;
        }
        if from_bit == 0 {
            return false;
        }
        let ours = self.by_color[ui] & !from_bit & !to_bit;
        let rooks = (self.bb(PieceKind::Rook) | self.bb(PieceKind::Dragon)) & ours;
        let bishops = (self.bb(PieceKind::Bishop) | self.bb(PieceKind::Horse)) & ours;
        let lances = self.bb(PieceKind::Lance) & ours;
        (t.rook(theirk, occ) & rooks) != 0
            || (t.bishop(theirk, occ) & bishops) != 0
            || (t.lance(us.flip(), theirk, occ) & lances) != 0
    }

    /// Legal moves that give check.
    pub fn legal_checks(&self) -> Vec<Move> {
        self.legal_moves()
            .iter()
            .copied()
            .filter(|&m| self.gives_check(m))
            .collect()
    }

    /// Squares attacked by all pieces of `color`.
    pub fn attacked_squares(&self, color: Color) -> Bitboard {
        let t = tables();
        let occ = self.occ();
        let mut b = 0u128;
        let mut pieces = self.by_color[color.index()];
        while pieces != 0 {
            let from = pieces.trailing_zeros() as usize;
            pieces &= pieces - 1;
            let kind = PieceKind::ALL[((self.board[from] & 15) - 1) as usize];
            b |= t.attacks(kind, color, from, occ);
        }
        Bitboard(b & MASK)
    }
}

/// The moves to the squares `tg` of a pawn, lance or knight: each once, again promoting in the
/// zone, and not unpromoted where the piece could not move on (`dead`: its last one or two
/// ranks).
#[inline(always)]
fn forward_moves(tg: u128, zone: u128, dead: u128) -> u32 {
    tg.count_ones() + (tg & zone).count_ones() - (tg & dead).count_ones()
}

/// The moves to the squares `tg` of a silver, bishop or rook on `from`: both ways from inside
/// the zone, and otherwise both ways into it.
#[inline(always)]
fn promotable_moves(tg: u128, from: usize, zone: u128) -> u32 {
    if zone >> from & 1 != 0 {
        2 * tg.count_ones()
    } else {
        tg.count_ones() + (tg & zone).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usi(moves: &[Move]) -> Vec<String> {
        let mut v: Vec<String> = moves.iter().map(|m| m.to_usi()).collect();
        v.sort();
        v
    }

    #[test]
    fn startpos_has_30() {
        assert_eq!(Position::startpos().count_legal(), 30);
    }

    #[test]
    fn spec_examples() {
        // A: pawn-drop mate is illegal.
        let a = Position::from_sfen("7nk/9/6B1L/9/9/9/9/9/4K4 b P 1").unwrap();
        assert!(!usi(a.legal_moves().as_slice()).contains(&"P*1b".to_string()));
        assert!(usi(&a.pseudo_legal_moves()).contains(&"P*1b".to_string()));
        // B: pushed pawn mate is legal.
        let b = Position::from_sfen("7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1").unwrap();
        let l = usi(b.legal_moves().as_slice());
        assert!(l.contains(&"1c1b".to_string()) && l.contains(&"1c1b+".to_string()));
        // C: pawn-drop check that is not mate is legal.
        let c = Position::from_sfen("7nk/9/8L/9/9/9/9/9/4K4 b P 1").unwrap();
        assert!(usi(c.legal_moves().as_slice()).contains(&"P*1b".to_string()));
        // D: pawn drop without check leaving no move is legal here (mate requires check).
        let d = Position::from_sfen("8k/6G2/9/9/9/9/9/9/4K4 b P 1").unwrap();
        assert!(usi(d.legal_moves().as_slice()).contains(&"P*1c".to_string()));
        // D under the reading where mate needs no check: forbidden.
        let nd = usi(d.legal_moves_with(PawnDropMate::NoMoveLeft).as_slice());
        assert!(!nd.contains(&"P*1c".to_string()));
        assert_eq!(nd.len() + 1, d.legal_moves().len());
        // A is forbidden in both readings; C is legal in both.
        assert!(
            !usi(a.legal_moves_with(PawnDropMate::NoMoveLeft).as_slice())
                .contains(&"P*1b".to_string())
        );
        assert!(usi(c.legal_moves_with(PawnDropMate::NoMoveLeft).as_slice())
            .contains(&"P*1b".to_string()));
    }

    #[test]
    fn pseudo_includes_dead_and_nifu() {
        let p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b P 1").unwrap();
        let ps = usi(&p.pseudo_legal_moves());
        assert!(ps.contains(&"5c5b".to_string()));
        assert!(ps.contains(&"P*5e".to_string()));
        assert!(ps.contains(&"P*1a".to_string()));
        let l = usi(p.legal_moves().as_slice());
        assert!(!l.contains(&"P*5e".to_string()));
        assert!(!l.contains(&"P*1a".to_string()));
        assert!(l.contains(&"5c5b".to_string()) && l.contains(&"5c5b+".to_string()));
    }

    #[test]
    fn do_undo_restores() {
        let mut p = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        )
        .unwrap();
        let orig = p.clone();
        for m in orig.legal_moves().iter().copied() {
            let before = p.board_key_after(m);
            let u = p.do_move(m);
            assert_eq!(p.key(), p.compute_key(), "{m}");
            assert_eq!(p.board_key(), before, "{m}");
            p.undo_move(m, u);
            assert_eq!(p, orig);
            assert_eq!(p.board, orig.board);
            assert_eq!(p.by_kind, orig.by_kind);
            assert_eq!(p.by_color, orig.by_color);
            assert_eq!(p.key(), orig.key());
        }
    }
}
