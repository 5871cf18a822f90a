//! The position: board, hands, side to move, move number; make/unmake and attack queries.

use super::bitboard::{tables, Bitboard, MASK};
use super::types::{Color, Hand, Move, Piece, PieceKind, Square};
use std::hash::{Hash, Hasher};

/// No king marker in `Position::king`.
pub(super) const NO_SQ: u8 = 81;

/// A shogi position.
///
/// Equality and hashing use the board, both hands and the side to move; the move number
/// (`ply`) is not part of them.
#[derive(Clone)]
pub struct Position {
    /// Piece codes per square (0 = empty), see `Piece::code`.
    pub(super) board: [u8; 81],
    pub(super) by_color: [u128; 2],
    pub(super) by_kind: [u128; 14],
    pub(super) hands: [Hand; 2],
    pub(super) side: Color,
    pub(super) ply: u64,
    pub(super) key: u64,
    /// The part of `key` that comes from the hands (so that `key ^ hand_key` keys the board).
    pub(super) hand_key: u64,
    pub(super) king: [u8; 2],
}

/// What `do_move` needs to remember for `undo_move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    captured: u8,
    key: u64,
    hand_key: u64,
}

impl PartialEq for Position {
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({:?})", self.to_sfen())
    }
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

impl Hash for Position {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.key);
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::startpos()
    }
}

/// The SFEN of the even-game start position.
pub const STARTPOS_SFEN: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

impl Position {
    /// An empty board, empty hands, Black to move, move number 1.
    pub fn empty() -> Position {
        Position {
            board: [0; 81],
            by_color: [0; 2],
            by_kind: [0; 14],
            hands: [Hand::EMPTY; 2],
            side: Color::Black,
            ply: 1,
            key: 0,
            hand_key: 0,
            king: [NO_SQ; 2],
        }
    }

    /// The even-game start position.
    pub fn startpos() -> Position {
        match Position::from_sfen(STARTPOS_SFEN) {
            Ok(p) => p,
            Err(_) => unreachable!("the start position SFEN is valid"),
        }
    }

    /// Puts `piece` on the empty square `sq` (used while building positions).
    pub(super) fn put(&mut self, sq: Square, piece: Piece) {
        let i = sq.index();
        let t = tables();
        let code = piece.code();
        self.board[i] = code;
        self.by_color[piece.color.index()] |= 1u128 << i;
        self.by_kind[piece.kind.index()] |= 1u128 << i;
        self.key ^= t.z_piece[code as usize * 81 + i];
        if piece.kind == PieceKind::King {
            self.king[piece.color.index()] = i as u8;
        }
    }

    /// Sets or clears the piece on `sq`, keeping bitboards, king squares and key in step.
    /// A second king of one color replaces the first one's king-square record; see
    /// [`Position::material_problems`].
    pub fn set_piece(&mut self, sq: Square, piece: Option<Piece>) {
        let i = sq.index();
        let old = self.board[i];
        if old != 0 {
            let bit = 1u128 << i;
            let ck = ((old & 15) - 1) as usize;
            let color = (old >> 4) as usize;
            self.by_color[color] &= !bit;
            self.by_kind[ck] &= !bit;
            self.key ^= tables().z_piece[old as usize * 81 + i];
            self.board[i] = 0;
            if ck == PieceKind::King.index() && self.king[color] == i as u8 {
                self.king[color] = NO_SQ;
            }
        }
        if let Some(p) = piece {
            self.put(sq, p);
        }
    }

    /// Sets the number of `kind` (a hand kind, by its unpromoted face) that `color` holds;
    /// counts above 18 are stored as 18. A king is ignored.
    pub fn set_hand_count(&mut self, color: Color, kind: PieceKind, n: u8) {
        if kind.unpromoted() != PieceKind::King {
            self.set_hand(color, kind.unpromoted(), n.min(18));
        }
    }

    /// Sets the side to move.
    pub fn set_side_to_move(&mut self, color: Color) {
        self.set_side(color);
    }

    /// Why the material is impossible, one sentence each: more pieces of a kind than
    /// exist (board and hands), or more than one king of a color. Empty when possible.
    pub fn material_problems(&self) -> Vec<String> {
        let mut counts = [0u32; 8];
        let mut kings = [0u32; 2];
        for (_, p) in self.pieces() {
            counts[p.kind.unpromoted().index()] += 1;
            if p.kind == PieceKind::King {
                kings[p.color.index()] += 1;
            }
        }
        for c in Color::ALL {
            for k in PieceKind::HAND {
                counts[k.index()] += self.hands[c.index()].count(k) as u32;
            }
        }
        let mut out = Vec::new();
        for k in PieceKind::HAND {
            let n = counts[k.index()];
            if n > k.total_count() as u32 {
                out.push(format!(
                    "there are {n} pieces of kind {} ({}), but only {} exist",
                    k.usi_letter(),
                    k.kanji(),
                    k.total_count()
                ));
            }
        }
        for c in Color::ALL {
            if kings[c.index()] > 1 {
                out.push(format!("{} has more than one king", c.kanji()));
            }
        }
        out
    }

    /// Sets a hand count (used while building positions).
    pub(super) fn set_hand(&mut self, color: Color, kind: PieceKind, n: u8) {
        let t = tables();
        let k = kind.index();
        let old = self.hands[color.index()].get(k) as usize;
        let d = t.z_hand[color.index()][k][old.min(18)]
            ^ t.z_hand[color.index()][k][(n as usize).min(18)];
        self.hands[color.index()].set(kind, n);
        self.key ^= d;
        self.hand_key ^= d;
    }

    pub(super) fn set_side(&mut self, side: Color) {
        if side != self.side {
            self.key ^= tables().z_side;
            self.side = side;
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The move number as in SFEN (starts at 1, increases by one per move).
    #[inline]
    pub fn ply(&self) -> u64 {
        self.ply
    }

    /// Sets the move number.
    pub fn set_ply(&mut self, ply: u64) {
        self.ply = ply;
    }

    /// The Zobrist key of board, hands and side to move.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// The hand of `color`.
    #[inline]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// The square of `color`'s king, if it is on the board.
    #[inline]
    pub fn king_square(&self, color: Color) -> Option<Square> {
        let k = self.king[color.index()];
        if k == NO_SQ {
            None
        } else {
            Some(Square::new_unchecked(k as usize))
        }
    }

    /// All pieces on the board as `(square, piece)`, in square index order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(move |sq| self.piece_at(sq).map(|p| (sq, p)))
    }

    /// All pieces on the board as `(square, color, unpromoted kind, promoted)`.
    pub fn board_pieces(&self) -> impl Iterator<Item = (Square, Color, PieceKind, bool)> + '_ {
        self.pieces()
            .map(|(sq, p)| (sq, p.color, p.kind.unpromoted(), p.kind.is_promoted()))
    }

    /// The piece that `m` moves (for a drop, the dropped piece), before any promotion.
    pub fn moved_piece(&self, m: Move) -> Option<Piece> {
        match m.drop_kind() {
            Some(k) => Some(Piece::new(self.side, k)),
            None => m.from().and_then(|f| self.piece_at(f)),
        }
    }

    /// The piece that `m` captures, if any.
    pub fn captured_piece(&self, m: Move) -> Option<Piece> {
        if m.is_drop() {
            None
        } else {
            self.piece_at(m.to())
        }
    }

    /// Squares occupied by `color`.
    pub fn color_bb(&self, color: Color) -> Bitboard {
        Bitboard(self.by_color[color.index()])
    }

    /// Squares holding a piece of `kind` (either color).
    pub fn kind_bb(&self, kind: PieceKind) -> Bitboard {
        Bitboard(self.by_kind[kind.index()])
    }

    /// All occupied squares.
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.occ())
    }

    #[inline(always)]
    pub(super) fn occ(&self) -> u128 {
        self.by_color[0] | self.by_color[1]
    }

    #[inline(always)]
    pub(super) fn golds(&self) -> u128 {
        self.by_kind[PieceKind::Gold.index()]
            | self.by_kind[PieceKind::ProPawn.index()]
            | self.by_kind[PieceKind::ProLance.index()]
            | self.by_kind[PieceKind::ProKnight.index()]
            | self.by_kind[PieceKind::ProSilver.index()]
    }

    #[inline(always)]
    pub(super) fn bb(&self, kind: PieceKind) -> u128 {
        self.by_kind[kind.index()]
    }

    /// Pieces of `color` attacking `sq` given occupancy `occ`.
    #[inline]
    pub(super) fn attackers_occ(&self, sq: usize, color: Color, occ: u128) -> u128 {
        let t = tables();
        let them = color.flip().index();
        let k = &self.by_kind;
        let ours = self.by_color[color.index()];
        let mut a = ((t.pawn[them][sq] & k[PieceKind::Pawn.index()])
            | (t.knight[them][sq] & k[PieceKind::Knight.index()])
            | (t.silver[them][sq] & k[PieceKind::Silver.index()])
            | (t.gold[them][sq] & self.golds())
            | (t.king[sq]
                & (k[PieceKind::King.index()]
                    | k[PieceKind::Horse.index()]
                    | k[PieceKind::Dragon.index()])))
            & ours;
        let rooks = (k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()]) & ours;
        if rooks & t.rook_empty[sq] != 0 {
            a |= t.rook(sq, occ) & rooks;
        }
        let bishops = (k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()]) & ours;
        if bishops & t.bishop_empty[sq] != 0 {
            a |= t.bishop(sq, occ) & bishops;
        }
        let lances = k[PieceKind::Lance.index()] & ours;
        if lances & t.lance_empty(color.flip(), sq) != 0 {
            a |= t.lance(color.flip(), sq, occ) & lances;
        }
        a
    }

    /// True if some piece of `color` attacks `sq` given occupancy `occ`.
    #[inline]
    pub(super) fn is_attacked(&self, sq: usize, color: Color, occ: u128) -> bool {
        let t = tables();
        let them = color.flip().index();
        let k = &self.by_kind;
        let ours = self.by_color[color.index()];
        if (t.pawn[them][sq] & k[PieceKind::Pawn.index()]
            | t.knight[them][sq] & k[PieceKind::Knight.index()]
            | t.silver[them][sq] & k[PieceKind::Silver.index()]
            | t.gold[them][sq] & self.golds()
            | t.king[sq]
                & (k[PieceKind::King.index()]
                    | k[PieceKind::Horse.index()]
                    | k[PieceKind::Dragon.index()]))
            & ours
            != 0
        {
            return true;
        }
        let rooks = (k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()]) & ours;
        if rooks & t.rook_empty[sq] != 0 && t.rook(sq, occ) & rooks != 0 {
            return true;
        }
        let bishops = (k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()]) & ours;
        if bishops & t.bishop_empty[sq] != 0 && t.bishop(sq, occ) & bishops != 0 {
            return true;
        }
        let lances = k[PieceKind::Lance.index()] & ours;
        lances & t.lance_empty(color.flip(), sq) != 0
            && t.lance(color.flip(), sq, occ) & lances != 0
    }

    /// Pieces of `color` that attack `sq` (利き; the occupant of `sq` does not matter).
    pub fn attackers_to(&self, sq: Square, color: Color) -> Bitboard {
        Bitboard(self.attackers_occ(sq.index(), color, self.occ()))
    }

    /// Squares attacked by the piece on `sq` (empty set for an empty square).
    pub fn attacks_from(&self, sq: Square) -> Bitboard {
        match self.piece_at(sq) {
            Some(p) => Bitboard(tables().attacks(p.kind, p.color, sq.index(), self.occ()) & MASK),
            None => Bitboard::EMPTY,
        }
    }

    /// Pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        match self.king_square(self.side) {
            Some(k) => self.attackers_to(k, self.side.flip()),
            None => Bitboard::EMPTY,
        }
    }

    /// True if the side to move is in check.
    pub fn in_check(&self) -> bool {
        !self.checkers().is_empty()
    }

    /// True if the king of `color` is attacked.
    pub fn is_king_attacked(&self, color: Color) -> bool {
        match self.king_square(color) {
            Some(k) => self.attackers_occ(k.index(), color.flip(), self.occ()) != 0,
            None => false,
        }
    }

    /// Pieces of `us` pinned to `us`'s king on `ksq`.
    #[inline]
    pub(super) fn pinned(&self, us: Color, ksq: usize) -> u128 {
        let t = tables();
        let them = us.flip();
        let enemy = self.by_color[them.index()];
        let k = &self.by_kind;
        let snipers = ((t.rook_empty[ksq]
            & (k[PieceKind::Rook.index()] | k[PieceKind::Dragon.index()]))
            | (t.bishop_empty[ksq] & (k[PieceKind::Bishop.index()] | k[PieceKind::Horse.index()]))
            | (t.lance_empty(us, ksq) & k[PieceKind::Lance.index()]))
            & enemy;
        let occ = self.occ();
        let own = self.by_color[us.index()];
        let mut pinned = 0u128;
        let mut s = snipers;
        while s != 0 {
            let sq = s.trailing_zeros() as usize;
            s &= s - 1;
            let b = t.between(ksq, sq) & occ;
            if b != 0 && b & (b - 1) == 0 && b & own != 0 {
                pinned |= b;
            }
        }
        pinned
    }

    /// Pieces of `color` pinned against `color`'s own king (empty without a king).
    pub fn pinned_pieces(&self, color: Color) -> Bitboard {
        match self.king_square(color) {
            Some(k) => Bitboard(self.pinned(color, k.index())),
            None => Bitboard::EMPTY,
        }
    }

    /// Plays `m` (assumed at least pseudo-legal for the side to move) and returns what
    /// [`Position::undo_move`] needs.
    pub fn do_move(&mut self, m: Move) -> Undo {
        let t = tables();
        let us = self.side;
        let ui = us.index();
        let to = m.to().index();
        let to_bit = 1u128 << to;
        let old_key = self.key;
        let old_hand_key = self.hand_key;
        let mut key = self.key ^ t.z_side;
        let mut hkey = self.hand_key;
        let mut captured = 0u8;
        let f = m.origin_raw();
        if f >= 81 {
            let k = f - 81;
            let n = self.hands[ui].get(k) as usize;
            let d = t.z_hand[ui][k][n] ^ t.z_hand[ui][k][n.saturating_sub(1)];
            key ^= d;
            hkey ^= d;
            self.hands[ui].sub(k);
            let code = (k as u8 + 1) | ((ui as u8) << 4);
            self.board[to] = code;
            self.by_color[ui] |= to_bit;
            self.by_kind[k] |= to_bit;
            key ^= t.z_piece[code as usize * 81 + to];
        } else {
            let from_bit = 1u128 << f;
            let code = self.board[f];
            let kind = ((code & 15) - 1) as usize;
            let cap = self.board[to];
            if cap != 0 {
                captured = cap;
                let ck = ((cap & 15) - 1) as usize;
                let them = ui ^ 1;
                self.by_color[them] ^= to_bit;
                self.by_kind[ck] ^= to_bit;
                key ^= t.z_piece[cap as usize * 81 + to];
                if ck == PieceKind::King.index() {
                    self.king[them] = NO_SQ;
                } else {
                    let hk = PieceKind::ALL[ck].unpromoted().index();
                    let n = self.hands[ui].get(hk) as usize;
                    let d = t.z_hand[ui][hk][n.min(18)] ^ t.z_hand[ui][hk][(n + 1).min(18)];
                    key ^= d;
                    hkey ^= d;
                    self.hands[ui].add(hk);
                }
            }
            let new_kind = if m.is_promotion() {
                match PieceKind::ALL[kind].promoted() {
                    Some(p) => p.index(),
                    None => kind,
                }
            } else {
                kind
            };
            let new_code = (new_kind as u8 + 1) | ((ui as u8) << 4);
            self.board[f] = 0;
            self.board[to] = new_code;
            self.by_color[ui] ^= from_bit | to_bit;
            self.by_kind[kind] ^= from_bit;
            self.by_kind[new_kind] ^= to_bit;
            key ^= t.z_piece[code as usize * 81 + f] ^ t.z_piece[new_code as usize * 81 + to];
            if kind == PieceKind::King.index() {
                self.king[ui] = to as u8;
            }
        }
        self.key = key;
        self.hand_key = hkey;
        self.side = us.flip();
        self.ply += 1;
        Undo {
            captured,
            key: old_key,
            hand_key: old_hand_key,
        }
    }

    /// Takes back `m`, which must be the last move played with [`Position::do_move`].
    pub fn undo_move(&mut self, m: Move, undo: Undo) {
        let them_now = self.side;
        let us = them_now.flip();
        let ui = us.index();
        let to = m.to().index();
        let to_bit = 1u128 << to;
        let f = m.origin_raw();
        if f >= 81 {
            let k = f - 81;
            self.hands[ui].add(k);
            self.board[to] = 0;
            self.by_color[ui] ^= to_bit;
            self.by_kind[k] ^= to_bit;
        } else {
            let from_bit = 1u128 << f;
            let new_code = self.board[to];
            let new_kind = ((new_code & 15) - 1) as usize;
            let kind = if m.is_promotion() {
                PieceKind::ALL[new_kind].unpromoted().index()
            } else {
                new_kind
            };
            self.board[f] = (kind as u8 + 1) | ((ui as u8) << 4);
            self.by_color[ui] ^= from_bit | to_bit;
            self.by_kind[new_kind] ^= to_bit;
            self.by_kind[kind] ^= from_bit;
            if kind == PieceKind::King.index() {
                self.king[ui] = f as u8;
            }
            let cap = undo.captured;
            self.board[to] = cap;
            if cap != 0 {
                let ck = ((cap & 15) - 1) as usize;
                let them = ui ^ 1;
                self.by_color[them] |= to_bit;
                self.by_kind[ck] |= to_bit;
                if ck == PieceKind::King.index() {
                    self.king[them] = to as u8;
                } else {
                    self.hands[ui].sub(PieceKind::ALL[ck].unpromoted().index());
                }
            }
        }
        self.side = us;
        self.ply -= 1;
        self.key = undo.key;
        self.hand_key = undo.hand_key;
    }

    /// The position after `m` (copy-make).
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.do_move(m);
        p
    }

    /// The Zobrist key of the board and side alone (the hands left out): positions that differ
    /// only in their hands share it.
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.key ^ self.hand_key
    }

    /// [`Position::board_key`] of the position after `m` (assumed pseudo-legal), without playing
    /// it.
    #[inline]
    pub fn board_key_after(&self, m: Move) -> u64 {
        let t = tables();
        let ui = self.side.index();
        let to = m.to().index();
        let mut k = self.key ^ self.hand_key ^ t.z_side;
        let f = m.origin_raw();
        if f >= 81 {
            let code = ((f - 81) as u8 + 1) | ((ui as u8) << 4);
            k ^= t.z_piece[code as usize * 81 + to];
        } else {
            let code = self.board[f];
            let kind = ((code & 15).max(1) - 1) as usize;
            let new_kind = if m.is_promotion() {
                PieceKind::ALL[kind].promoted().map_or(kind, |p| p.index())
            } else {
                kind
            };
            let new_code = (new_kind as u8 + 1) | ((ui as u8) << 4);
            k ^= t.z_piece[code as usize * 81 + f] ^ t.z_piece[new_code as usize * 81 + to];
            let cap = self.board[to];
            if cap != 0 {
                k ^= t.z_piece[cap as usize * 81 + to];
            }
        }
        k
    }

    /// Recomputes the Zobrist key from the board, hands and side (for checks).
    pub fn compute_key(&self) -> u64 {
        let t = tables();
        let mut key = 0u64;
        for (i, &c) in self.board.iter().enumerate() {
            if c != 0 {
                key ^= t.z_piece[c as usize * 81 + i];
            }
        }
        for c in 0..2 {
            for k in 0..7 {
                key ^= t.z_hand[c][k][(self.hands[c].get(k) as usize).min(18)];
            }
        }
        if self.side == Color::White {
            key ^= t.z_side;
        }
        key
    }

    /// A KIF-style kanji diagram: 後手's hand, the 9x9 grid (後手's pieces prefixed by `v`),
    /// 先手's hand and the side to move (`先手番` / `後手番`).
    pub fn diagram(&self) -> String {
        const COLS: &str = "  ９ ８ ７ ６ ５ ４ ３ ２ １";
        const ROWS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
        let mut s = String::new();
        s.push_str(&format!("後手の持駒：{}\n", hand_kanji(&self.hands[1])));
        s.push_str(COLS);
        s.push('\n');
        s.push_str("+---------------------------+\n");
        for row in 1..=9u8 {
            s.push('|');
            for col in (1..=9u8).rev() {
                let sq = Square::new_unchecked((col as usize - 1) * 9 + row as usize - 1);
                match self.piece_at(sq) {
                    None => s.push_str(" ・"),
                    Some(p) => {
                        s.push(if p.color == Color::White { 'v' } else { ' ' });
                        s.push(p.kind.kanji());
                    }
                }
            }
            s.push('|');
            s.push(ROWS[row as usize - 1]);
            s.push('\n');
        }
        s.push_str("+---------------------------+\n");
        s.push_str(&format!("先手の持駒：{}\n", hand_kanji(&self.hands[0])));
        s.push_str(&format!("{}番\n", self.side.kanji()));
        s
    }
}

/// Kanji numerals used for hand counts in KIF (1..18).
pub(super) const KANJI_NUM: [&str; 19] = [
    "", "", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二", "十三", "十四",
    "十五", "十六", "十七", "十八",
];

fn hand_kanji(h: &Hand) -> String {
    if h.is_empty() {
        return "なし".to_string();
    }
    let mut parts = Vec::new();
    for (k, n) in h.iter() {
        let mut p = String::new();
        p.push(k.kanji());
        p.push_str(KANJI_NUM.get(n as usize).copied().unwrap_or("十八"));
        parts.push(p);
    }
    parts.join("　")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_startpos() {
        let d = Position::startpos().diagram();
        let lines: Vec<&str> = d.lines().collect();
        assert_eq!(lines[0], "後手の持駒：なし");
        assert_eq!(lines[3], "|v香v桂v銀v金v玉v金v銀v桂v香|一");
        assert_eq!(lines[4], "| ・v飛 ・ ・ ・ ・ ・v角 ・|二");
        assert_eq!(lines[11], "| 香 桂 銀 金 玉 金 銀 桂 香|九");
        assert_eq!(lines[13], "先手の持駒：なし");
        assert_eq!(lines[14], "先手番");
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w 2R12Pb 1").unwrap();
        let d = p.diagram();
        assert!(d.contains("先手の持駒：飛二　歩十二"), "{d}");
        assert!(d.contains("後手の持駒：角"), "{d}");
        assert!(d.ends_with("後手番\n"));
    }

    #[test]
    fn building_positions() {
        let sq = |s: &str| Square::from_usi(s).unwrap();
        let mut p = Position::empty();
        p.set_piece(sq("5a"), Some(Piece::new(Color::White, PieceKind::King)));
        p.set_piece(sq("5i"), Some(Piece::new(Color::Black, PieceKind::King)));
        p.set_piece(sq("5e"), Some(Piece::new(Color::Black, PieceKind::Gold)));
        p.set_piece(sq("5e"), Some(Piece::new(Color::Black, PieceKind::Dragon)));
        p.set_hand_count(Color::White, PieceKind::Pawn, 3);
        p.set_side_to_move(Color::White);
        assert_eq!(p.to_sfen(), "4k4/9/9/9/4+R4/9/9/9/4K4 w 3p 1");
        assert_eq!(p.key(), p.compute_key());
        assert_eq!(
            p,
            Position::from_sfen("4k4/9/9/9/4+R4/9/9/9/4K4 w 3p 1").unwrap()
        );
        assert!(p.material_problems().is_empty());
        p.set_piece(sq("5a"), None);
        assert_eq!(p.king_square(Color::White), None);
        p.set_hand_count(Color::Black, PieceKind::Rook, 2);
        assert_eq!(p.material_problems().len(), 1);
        assert_eq!(p.key(), p.compute_key());
    }

    #[test]
    fn eq_and_hash_ignore_ply() {
        use std::collections::HashSet;
        let a = Position::startpos();
        let mut b = a.clone();
        b.set_ply(99);
        assert_eq!(a, b);
        let set: HashSet<Position> = [a, b].into_iter().collect();
        assert_eq!(set.len(), 1);
    }

    #[test]
    fn attacks_queries() {
        let p = Position::startpos();
        let sq = |s: &str| Square::from_usi(s).unwrap();
        // Rook on 2h: 1h, 3h..8h (8h holds the own bishop), 2g, 2i.
        assert_eq!(p.attacks_from(sq("2h")).count(), 9);
        assert_eq!(p.attackers_to(sq("7f"), Color::Black).count(), 1);
        assert!(p.attacks_from(sq("5e")).is_empty());
        assert!(!p.in_check());
    }
}
