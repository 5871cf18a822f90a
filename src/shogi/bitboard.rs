//! 81-square bitboards and precomputed attack tables.
//!
//! Bit `i` is the square with index `i` (`(column - 1) * 9 + (row - 1)`), so each column is nine
//! consecutive bits. Every one of the eight directions changes the index monotonically, which
//! lets a sliding attack be computed from a ray table and the first blocker (lowest set bit for
//! directions that increase the index, highest for those that decrease it).

use super::types::{Color, PieceKind, Square};
use std::sync::OnceLock;

/// The 81 board bits.
pub const MASK: u128 = (1u128 << 81) - 1;

/// A set of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bitboard(pub u128);

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const ALL: Bitboard = Bitboard(MASK);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    /// True if `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// True if the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Number of squares in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The squares in index order.
    pub fn squares(self) -> SquareIter {
        SquareIter(self.0)
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = SquareIter;
    fn into_iter(self) -> SquareIter {
        SquareIter(self.0)
    }
}

/// Iterator over the squares of a bitboard.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter(u128);

impl Iterator for SquareIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::new_unchecked(i))
    }
}

macro_rules! bitop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl std::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl std::ops::$tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bitop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bitop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bitop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & MASK)
    }
}

/// Direction deltas `(d_column, d_row)`. 0..4 increase the index, 4..8 decrease it.
pub(super) const DIRS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (0, -1),
    (-1, 0),
    (-1, -1),
    (-1, 1),
];
pub(super) const DIR_S: usize = 0; // row + 1
pub(super) const DIR_N: usize = 4; // row - 1

/// Precomputed tables shared by all positions.
pub(super) struct Tables {
    /// Step attacks per color: pawn, knight, silver, gold.
    pub pawn: [[u128; 81]; 2],
    pub knight: [[u128; 81]; 2],
    pub silver: [[u128; 81]; 2],
    pub gold: [[u128; 81]; 2],
    pub king: [u128; 81],
    /// Rays (excluding the origin) per direction.
    pub rays: [[u128; 81]; 8],
    /// Rook / bishop attacks on an empty board.
    pub rook_empty: [u128; 81],
    pub bishop_empty: [u128; 81],
    /// Squares strictly between two aligned squares (0 otherwise), `a * 81 + b`.
    pub between: Vec<u128>,
    /// The whole line through two aligned squares (0 otherwise), `a * 81 + b`.
    pub line: Vec<u128>,
    /// Column masks, index `column - 1`.
    pub file: [u128; 9],
    /// Per color: rows where a pawn/lance is dead (last rank), where a knight is dead
    /// (last two ranks), and the promotion zone.
    pub last1: [u128; 2],
    pub last2: [u128; 2],
    pub zone: [u128; 2],
    /// Zobrist keys: piece code (0..32) x square, hand [color][kind][count 0..=18], side.
    pub z_piece: Vec<u64>,
    pub z_hand: [[[u64; 19]; 7]; 2],
    pub z_side: u64,
}

fn step(sq: usize, dc: i8, dr: i8) -> Option<usize> {
    let c = (sq / 9) as i8 + dc;
    let r = (sq % 9) as i8 + dr;
    if (0..9).contains(&c) && (0..9).contains(&r) {
        Some(c as usize * 9 + r as usize)
    } else {
        None
    }
}

fn steps(sq: usize, color: Color, deltas: &[(i8, i8)]) -> u128 {
    let mut b = 0u128;
    for &(dc, dr) in deltas {
        // Deltas are written for Black; White mirrors the row direction.
        let dr = if color == Color::Black { dr } else { -dr };
        let dc = if color == Color::Black { dc } else { -dc };
        if let Some(t) = step(sq, dc, dr) {
            b |= 1u128 << t;
        }
    }
    b
}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn build() -> Tables {
    const PAWN: [(i8, i8); 1] = [(0, -1)];
    const KNIGHT: [(i8, i8); 2] = [(-1, -2), (1, -2)];
    const SILVER: [(i8, i8); 5] = [(1, -1), (0, -1), (-1, -1), (-1, 1), (1, 1)];
    const GOLD: [(i8, i8); 6] = [(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)];
    const KING: [(i8, i8); 8] = [
        (1, 0),
        (1, -1),
        (0, -1),
        (-1, -1),
        (-1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
    ];
    let mut t = Tables {
        pawn: [[0; 81]; 2],
        knight: [[0; 81]; 2],
        silver: [[0; 81]; 2],
        gold: [[0; 81]; 2],
        king: [0; 81],
        rays: [[0; 81]; 8],
        rook_empty: [0; 81],
        bishop_empty: [0; 81],
        between: vec![0; 81 * 81],
        line: vec![0; 81 * 81],
        file: [0; 9],
        last1: [0; 2],
        last2: [0; 2],
        zone: [0; 2],
        z_piece: vec![0; 32 * 81],
        z_hand: [[[0; 19]; 7]; 2],
        z_side: 0,
    };
    for sq in 0..81 {
        for c in Color::ALL {
            let ci = c.index();
            t.pawn[ci][sq] = steps(sq, c, &PAWN);
            t.knight[ci][sq] = steps(sq, c, &KNIGHT);
            t.silver[ci][sq] = steps(sq, c, &SILVER);
            t.gold[ci][sq] = steps(sq, c, &GOLD);
        }
        t.king[sq] = steps(sq, Color::Black, &KING);
        for (d, &(dc, dr)) in DIRS.iter().enumerate() {
            let mut b = 0u128;
            let mut cur = sq;
            while let Some(n) = step(cur, dc, dr) {
                b |= 1u128 << n;
                cur = n;
            }
            t.rays[d][sq] = b;
        }
        t.rook_empty[sq] = t.rays[0][sq] | t.rays[1][sq] | t.rays[4][sq] | t.rays[5][sq];
        t.bishop_empty[sq] = t.rays[2][sq] | t.rays[3][sq] | t.rays[6][sq] | t.rays[7][sq];
    }
    for a in 0..81 {
        for (d, &(dc, dr)) in DIRS.iter().enumerate() {
            let mut between = 0u128;
            let mut cur = a;
            while let Some(n) = step(cur, dc, dr) {
                t.between[a * 81 + n] = between;
                let opposite = (d + 4) % 8;
                t.line[a * 81 + n] = t.rays[d][a] | t.rays[opposite][a] | (1u128 << a);
                between |= 1u128 << n;
                cur = n;
            }
        }
    }
    for (c, f) in t.file.iter_mut().enumerate() {
        *f = 0x1FFu128 << (9 * c);
    }
    for sq in 0..81usize {
        let s = Square::new_unchecked(sq);
        for c in Color::ALL {
            let rr = s.relative_row(c);
            if rr == 1 {
                t.last1[c.index()] |= 1u128 << sq;
            }
            if rr <= 2 {
                t.last2[c.index()] |= 1u128 << sq;
            }
            if rr <= 3 {
                t.zone[c.index()] |= 1u128 << sq;
            }
        }
    }
    let mut state = 0x6B69_7465_5F73_686Fu64;
    for k in t.z_piece.iter_mut() {
        *k = splitmix(&mut state);
    }
    for c in 0..2 {
        for k in 0..7 {
            for n in 1..19 {
                t.z_hand[c][k][n] = splitmix(&mut state);
            }
        }
    }
    t.z_side = splitmix(&mut state);
    t
}

static TABLES: OnceLock<Tables> = OnceLock::new();

#[inline]
pub(super) fn tables() -> &'static Tables {
    TABLES.get_or_init(build)
}

impl Tables {
    #[inline(always)]
    fn slide_pos(&self, d: usize, sq: usize, occ: u128) -> u128 {
        let ray = self.rays[d][sq];
        let b = ray & occ;
        if b == 0 {
            ray
        } else {
            ray ^ self.rays[d][b.trailing_zeros() as usize]
        }
    }

    #[inline(always)]
    fn slide_neg(&self, d: usize, sq: usize, occ: u128) -> u128 {
        let ray = self.rays[d][sq];
        let b = ray & occ;
        if b == 0 {
            ray
        } else {
            ray ^ self.rays[d][127 - b.leading_zeros() as usize]
        }
    }

    #[inline(always)]
    pub fn rook(&self, sq: usize, occ: u128) -> u128 {
        self.slide_pos(0, sq, occ)
            | self.slide_pos(1, sq, occ)
            | self.slide_neg(4, sq, occ)
            | self.slide_neg(5, sq, occ)
    }

    #[inline(always)]
    pub fn bishop(&self, sq: usize, occ: u128) -> u128 {
        self.slide_pos(2, sq, occ)
            | self.slide_pos(3, sq, occ)
            | self.slide_neg(6, sq, occ)
            | self.slide_neg(7, sq, occ)
    }

    #[inline(always)]
    pub fn lance(&self, c: Color, sq: usize, occ: u128) -> u128 {
        match c {
            Color::Black => self.slide_neg(DIR_N, sq, occ),
            Color::White => self.slide_pos(DIR_S, sq, occ),
        }
    }

    /// The lance ray on an empty board.
    #[inline(always)]
    pub fn lance_empty(&self, c: Color, sq: usize) -> u128 {
        match c {
            Color::Black => self.rays[DIR_N][sq],
            Color::White => self.rays[DIR_S][sq],
        }
    }

    #[inline(always)]
    pub fn between(&self, a: usize, b: usize) -> u128 {
        self.between[a * 81 + b]
    }

    #[inline(always)]
    pub fn line(&self, a: usize, b: usize) -> u128 {
        self.line[a * 81 + b]
    }

    /// Squares attacked by a piece of `kind` and `color` on `sq` with occupancy `occ`.
    #[inline(always)]
    pub fn attacks(&self, kind: PieceKind, color: Color, sq: usize, occ: u128) -> u128 {
        let c = color.index();
        match kind {
            PieceKind::Pawn => self.pawn[c][sq],
            PieceKind::Lance => self.lance(color, sq, occ),
            PieceKind::Knight => self.knight[c][sq],
            PieceKind::Silver => self.silver[c][sq],
            PieceKind::Gold
            | PieceKind::ProPawn
            | PieceKind::ProLance
            | PieceKind::ProKnight
            | PieceKind::ProSilver => self.gold[c][sq],
            PieceKind::Bishop => self.bishop(sq, occ),
            PieceKind::Rook => self.rook(sq, occ),
            PieceKind::King => self.king[sq],
            PieceKind::Horse => self.bishop(sq, occ) | self.king[sq],
            PieceKind::Dragon => self.rook(sq, occ) | self.king[sq],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(c: u8, r: u8) -> usize {
        Square::new(c, r).unwrap().index()
    }

    #[test]
    fn step_tables() {
        let t = tables();
        // Black pawn on 7g attacks 7f.
        assert_eq!(t.pawn[0][sq(7, 7)], 1u128 << sq(7, 6));
        assert_eq!(t.pawn[1][sq(3, 3)], 1u128 << sq(3, 4));
        assert_eq!(t.knight[0][sq(8, 9)].count_ones(), 2);
        assert_eq!(t.knight[0][sq(9, 9)], 1u128 << sq(8, 7));
        assert_eq!(t.gold[0][sq(5, 5)].count_ones(), 6);
        assert_eq!(t.king[sq(1, 1)].count_ones(), 3);
    }

    #[test]
    fn sliders() {
        let t = tables();
        assert_eq!(t.rook(sq(5, 5), 0).count_ones(), 16);
        assert_eq!(t.bishop(sq(5, 5), 0).count_ones(), 16);
        let occ = 1u128 << sq(5, 3) | 1u128 << sq(3, 5);
        let r = t.rook(sq(5, 5), occ);
        assert!(r >> sq(5, 3) & 1 == 1);
        assert!(r >> sq(5, 2) & 1 == 0);
        assert!(r >> sq(3, 5) & 1 == 1);
        assert!(r >> sq(2, 5) & 1 == 0);
        assert_eq!(t.lance(Color::Black, sq(1, 9), 0).count_ones(), 8);
        assert_eq!(t.between(sq(1, 1), sq(9, 9)).count_ones(), 7);
        assert_eq!(t.line(sq(1, 1), sq(3, 3)).count_ones(), 9);
        assert_eq!(t.between(sq(1, 1), sq(2, 3)), 0);
    }
}
