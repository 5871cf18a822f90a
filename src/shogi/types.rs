//! Basic value types: colors, piece kinds, pieces, squares, moves and hands.

use std::fmt;

/// The owner of a piece, and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// 先手 (SFEN `b`, upper-case pieces). Moves towards row 1.
    Black = 0,
    /// 後手 (SFEN `w`, lower-case pieces). Moves towards row 9.
    White = 1,
}

impl Color {
    /// Both colors, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other color.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The SFEN side character, `b` or `w`.
    pub const fn sfen_char(self) -> char {
        match self {
            Color::Black => 'b',
            Color::White => 'w',
        }
    }

    /// 先手 or 後手.
    pub const fn kanji(self) -> &'static str {
        match self {
            Color::Black => "先手",
            Color::White => "後手",
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.flip()
    }
}

/// A piece kind including its face: the 8 unpromoted kinds and the 6 promoted ones.
///
/// The first seven (`Pawn` ..= `Rook`) are the kinds that can be held in hand; their
/// discriminants are the hand indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 歩
    Pawn = 0,
    /// 香
    Lance = 1,
    /// 桂
    Knight = 2,
    /// 銀
    Silver = 3,
    /// 金
    Gold = 4,
    /// 角
    Bishop = 5,
    /// 飛
    Rook = 6,
    /// 玉 / 王
    King = 7,
    /// と
    ProPawn = 8,
    /// 杏 (成香)
    ProLance = 9,
    /// 圭 (成桂)
    ProKnight = 10,
    /// 全 (成銀)
    ProSilver = 11,
    /// 馬
    Horse = 12,
    /// 龍
    Dragon = 13,
}

impl PieceKind {
    /// All 14 kinds in discriminant order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];

    /// The seven kinds that can be held in hand, in hand-index order.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];

    /// The discriminant, 0..14.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with discriminant `i`, if `i < 14`.
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 {
            Some(Self::ALL[i])
        } else {
            None
        }
    }

    /// True for the six promoted kinds.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// True for the kinds that may promote (歩香桂銀角飛).
    #[inline]
    pub const fn can_promote(self) -> bool {
        matches!(
            self,
            PieceKind::Pawn
                | PieceKind::Lance
                | PieceKind::Knight
                | PieceKind::Silver
                | PieceKind::Bishop
                | PieceKind::Rook
        )
    }

    /// The promoted form; `None` for gold, king and promoted kinds.
    #[inline]
    pub const fn promoted(self) -> Option<PieceKind> {
        match self {
            PieceKind::Pawn => Some(PieceKind::ProPawn),
            PieceKind::Lance => Some(PieceKind::ProLance),
            PieceKind::Knight => Some(PieceKind::ProKnight),
            PieceKind::Silver => Some(PieceKind::ProSilver),
            PieceKind::Bishop => Some(PieceKind::Horse),
            PieceKind::Rook => Some(PieceKind::Dragon),
            _ => None,
        }
    }

    /// The unpromoted face (the kind a captured piece becomes in hand).
    #[inline]
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }

    /// The upper-case USI/SFEN letter of the unpromoted face (`P L N S G B R K`).
    pub const fn usi_letter(self) -> char {
        match self.unpromoted() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }

    /// The kind (unpromoted) named by a USI/SFEN letter, either case.
    pub const fn from_usi_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'G' => Some(PieceKind::Gold),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }

    /// One kanji as used in KIF diagrams (歩香桂銀金角飛玉と杏圭全馬龍).
    pub const fn kanji(self) -> char {
        match self {
            PieceKind::Pawn => '歩',
            PieceKind::Lance => '香',
            PieceKind::Knight => '桂',
            PieceKind::Silver => '銀',
            PieceKind::Gold => '金',
            PieceKind::Bishop => '角',
            PieceKind::Rook => '飛',
            PieceKind::King => '玉',
            PieceKind::ProPawn => 'と',
            PieceKind::ProLance => '杏',
            PieceKind::ProKnight => '圭',
            PieceKind::ProSilver => '全',
            PieceKind::Horse => '馬',
            PieceKind::Dragon => '龍',
        }
    }

    /// How many pieces of this (unpromoted) kind exist in a full set: 18, 4, 4, 4, 4, 2, 2, 2.
    pub const fn total_count(self) -> u8 {
        match self.unpromoted() {
            PieceKind::Pawn => 18,
            PieceKind::Lance | PieceKind::Knight | PieceKind::Silver | PieceKind::Gold => 4,
            _ => 2,
        }
    }
}

/// A piece on the board: owner and kind (the kind carries the face).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Kind with face.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// Compact code: 0 is reserved for "empty"; otherwise `kind + 1 + 16 * color`.
    #[inline]
    pub(super) const fn code(self) -> u8 {
        (self.kind as u8 + 1) | ((self.color as u8) << 4)
    }

    /// Inverse of [`Piece::code`]; `None` for 0 (empty) or an invalid code.
    #[inline]
    pub(super) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let color = if code & 16 != 0 {
            Color::White
        } else {
            Color::Black
        };
        match PieceKind::from_index(((code & 15) - 1) as usize) {
            Some(kind) => Some(Piece { color, kind }),
            None => None,
        }
    }

    /// SFEN text: `+` for promoted kinds, upper case for Black, lower case for White.
    pub fn sfen(self) -> String {
        let mut s = String::new();
        if self.kind.is_promoted() {
            s.push('+');
        }
        let c = self.kind.usi_letter();
        s.push(match self.color {
            Color::Black => c,
            Color::White => c.to_ascii_lowercase(),
        });
        s
    }
}

/// A square, index 0..81: `(column - 1) * 9 + (row - 1)`.
///
/// Column 1..9 is the file number as printed on a shogi board (right to left seen from 先手);
/// row 1..9 is the rank, row 1 being 後手's back rank. USI text is the column digit and the row
/// letter: column 7, row 6 is `7f`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with the given index, if `index < 81`.
    #[inline]
    pub const fn from_index(index: usize) -> Option<Square> {
        if index < 81 {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// Index without a range check; the caller guarantees `index < 81`.
    #[inline]
    pub(super) const fn new_unchecked(index: usize) -> Square {
        Square(index as u8)
    }

    /// The square at `column`, `row` (both 1..9).
    #[inline]
    pub const fn new(column: u8, row: u8) -> Option<Square> {
        if column >= 1 && column <= 9 && row >= 1 && row <= 9 {
            Some(Square((column - 1) * 9 + (row - 1)))
        } else {
            None
        }
    }

    /// The index 0..81.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column (file) 1..9.
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Row (rank) 1..9.
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 % 9 + 1
    }

    /// Row counted from `color`'s side: 1 is the far rank for that color.
    #[inline]
    pub const fn relative_row(self, color: Color) -> u8 {
        match color {
            Color::Black => self.row(),
            Color::White => 10 - self.row(),
        }
    }

    /// True if the square is in `color`'s promotion zone (rows 1-3 for Black, 7-9 for White).
    #[inline]
    pub const fn in_zone(self, color: Color) -> bool {
        self.relative_row(color) <= 3
    }

    /// All 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// Parses USI text such as `7f`.
    pub fn from_usi(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let col = b[0].wrapping_sub(b'0');
        let row = b[1].wrapping_sub(b'a').wrapping_add(1);
        Square::new(col, row)
    }

    /// USI text such as `7f`.
    pub fn to_usi(self) -> String {
        let mut s = String::with_capacity(2);
        s.push((b'0' + self.column()) as char);
        s.push((b'a' + self.row() - 1) as char);
        s
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

/// A move, 16 bits: a board move (from, to, promote) or a drop (kind, to).
///
/// Bits 0-6: destination; bits 7-13: origin square, or `81 + hand index` for a drop;
/// bit 14: promotion.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u16);

impl Move {
    /// A board move.
    #[inline]
    pub const fn board(from: Square, to: Square, promote: bool) -> Move {
        Move((to.0 as u16) | ((from.0 as u16) << 7) | ((promote as u16) << 14))
    }

    /// A drop of `kind` (must be one of the seven hand kinds; other kinds are treated by their
    /// unpromoted face, and a king as a pawn).
    #[inline]
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        let k = kind.unpromoted() as u16;
        let k = if k > 6 { 0 } else { k };
        Move((to.0 as u16) | ((81 + k) << 7))
    }

    /// Destination square.
    #[inline]
    pub const fn to(self) -> Square {
        Square((self.0 & 127) as u8)
    }

    /// Origin square of a board move; `None` for a drop.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        let f = (self.0 >> 7) & 127;
        if f < 81 {
            Some(Square(f as u8))
        } else {
            None
        }
    }

    #[inline]
    pub(super) const fn origin_raw(self) -> usize {
        ((self.0 >> 7) & 127) as usize
    }

    /// True for a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        ((self.0 >> 7) & 127) >= 81
    }

    /// The dropped kind, for a drop.
    #[inline]
    pub const fn drop_kind(self) -> Option<PieceKind> {
        let f = ((self.0 >> 7) & 127) as usize;
        if f >= 81 {
            PieceKind::from_index(f - 81)
        } else {
            None
        }
    }

    /// True for a promoting board move.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.0 & (1 << 14) != 0
    }

    /// The raw 16-bit encoding.
    #[inline]
    pub const fn to_bits(self) -> u16 {
        self.0
    }

    /// USI text: `7g7f`, `8h2b+`, `P*5e`.
    pub fn to_usi(self) -> String {
        match self.drop_kind() {
            Some(k) => format!("{}*{}", k.usi_letter(), self.to()),
            None => {
                let from = Square(self.origin_raw() as u8);
                let mut s = format!("{}{}", from, self.to());
                if self.is_promotion() {
                    s.push('+');
                }
                s
            }
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({})", self.to_usi())
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

/// The pieces one side holds in hand: a count per hand kind (pawn, lance, knight, silver,
/// gold, bishop, rook).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand {
    counts: [u8; 7],
}

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand { counts: [0; 7] };

    /// The count of `kind` (by its unpromoted face; 0 for a king).
    #[inline]
    pub const fn count(&self, kind: PieceKind) -> u8 {
        let i = kind.unpromoted() as usize;
        if i < 7 {
            self.counts[i]
        } else {
            0
        }
    }

    /// Sets the count of `kind` (by its unpromoted face; a king is ignored).
    #[inline]
    pub fn set(&mut self, kind: PieceKind, n: u8) {
        let i = kind.unpromoted() as usize;
        if i < 7 {
            self.counts[i] = n;
        }
    }

    #[inline]
    pub(super) fn add(&mut self, i: usize) {
        self.counts[i] += 1;
    }

    #[inline]
    pub(super) fn sub(&mut self, i: usize) {
        self.counts[i] -= 1;
    }

    #[inline]
    pub(super) fn get(&self, i: usize) -> u8 {
        self.counts[i]
    }

    /// True if no piece is held.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// `(kind, count)` for each kind with a nonzero count, from rook down to pawn.
    pub fn iter(&self) -> impl Iterator<Item = (PieceKind, u8)> + '_ {
        (0..7)
            .rev()
            .filter(|&i| self.counts[i] > 0)
            .map(|i| (PieceKind::HAND[i], self.counts[i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_usi_roundtrip() {
        let s = Square::from_usi("7f").unwrap();
        assert_eq!((s.column(), s.row()), (7, 6));
        assert_eq!(s.to_usi(), "7f");
        for sq in Square::all() {
            assert_eq!(Square::from_usi(&sq.to_usi()), Some(sq));
        }
        assert_eq!(Square::from_usi("0a"), None);
        assert_eq!(Square::from_usi("1j"), None);
        assert_eq!(Square::from_usi("é"), None);
    }

    #[test]
    fn move_encoding() {
        let m = Move::board(Square::new(8, 8).unwrap(), Square::new(2, 2).unwrap(), true);
        assert_eq!(m.to_usi(), "8h2b+");
        assert!(!m.is_drop());
        let d = Move::drop(PieceKind::Pawn, Square::new(5, 5).unwrap());
        assert_eq!(d.to_usi(), "P*5e");
        assert_eq!(d.drop_kind(), Some(PieceKind::Pawn));
        assert_eq!(d.from(), None);
    }

    #[test]
    fn piece_codes() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                let p = Piece::new(c, k);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
    }
}
