//! What the tsume checker asks of a position: its moves and checks, whether the side to move is
//! in check, which answers interpose, and the taken piece given back to the defender's hand. The
//! standard 9 x 9 position answers it, and so does a board variant's position under the check
//! rule (`crate::shogi::variant`), so that one checker judges problems of either.

use crate::shogi::position::Position;
use crate::shogi::types::{Color, Move, PieceKind, Square};

/// An interposition: the defender's move puts a piece between the checking piece and the royal
/// piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interposition<S> {
    /// Where the checking piece stands.
    pub checker: S,
    /// Where the interposed piece stands.
    pub square: S,
}

/// A position the tsume checker can judge.
pub trait Board: Clone {
    /// A move.
    type Move: Copy + Eq + std::fmt::Debug;
    /// A square.
    type Square: Copy + Eq + std::fmt::Debug;
    /// A kind of piece as a hand holds it.
    type Kind: Copy;

    /// The position's key (board, hands, side to move).
    fn key(&self) -> u64;
    /// The position after a legal move.
    fn after(&self, m: Self::Move) -> Self;
    /// The legal moves of the side to move.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// The legal moves that check.
    fn legal_checks(&self) -> Vec<Self::Move>;
    /// Is the side to move in check?
    fn in_check(&self) -> bool;
    /// The side to move, 0 or 1.
    fn side(&self) -> usize;
    /// Whether the defender's move `m` (in check) interposes: the royal piece stays where it is,
    /// a piece that gave check is still on its square and no longer attacks it, and the square
    /// the move reached holds the interposed piece.
    fn interposition(&self, m: Self::Move) -> Option<Interposition<Self::Square>>;
    /// The kind of the piece on `sq`, as it goes to a hand.
    fn kind_at(&self, sq: Self::Square) -> Option<Self::Kind>;
    /// Is `m` a move from `from` to `to`?
    fn steps(m: Self::Move, from: Self::Square, to: Self::Square) -> bool;
    /// Move one piece of `kind` from the hand of `from` to that of `to` (none if it holds none).
    fn give_back(&mut self, from: usize, to: usize, kind: Self::Kind);
    /// The pieces `side` holds, in SFEN letters (`2P`, `G`).
    fn hand_letters(&self, side: usize) -> Vec<String>;
    /// A move as USI text.
    fn text(&self, m: Self::Move) -> String;
    /// Is `m` `main` with the other face: the same piece from the same square to the same one?
    fn other_face(m: Self::Move, main: Self::Move) -> bool;
}

fn color(side: usize) -> Color {
    if side == 0 {
        Color::Black
    } else {
        Color::White
    }
}

impl Board for Position {
    type Move = Move;
    type Square = Square;
    type Kind = PieceKind;

    fn key(&self) -> u64 {
        Position::key(self)
    }
    fn after(&self, m: Move) -> Position {
        Position::after(self, m)
    }
    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self).iter().copied().collect()
    }
    fn legal_checks(&self) -> Vec<Move> {
        Position::legal_checks(self)
    }
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    fn side(&self) -> usize {
        usize::from(self.side_to_move() != Color::Black)
    }
    fn interposition(&self, m: Move) -> Option<Interposition<Square>> {
        let us = self.side_to_move();
        let k = self.king_square(us)?;
        let checkers = self.checkers();
        if checkers.is_empty() {
            return None;
        }
        let q = Position::after(self, m);
        if q.king_square(us) != Some(k) {
            return None;
        }
        checkers
            .squares()
            .find(|&c| {
                q.piece_at(c).is_some_and(|x| x.color != us) && !q.attacks_from(c).contains(k)
            })
            .map(|c| Interposition {
                checker: c,
                square: m.to(),
            })
    }
    fn kind_at(&self, sq: Square) -> Option<PieceKind> {
        self.piece_at(sq).map(|p| p.kind.unpromoted())
    }
    fn steps(m: Move, from: Square, to: Square) -> bool {
        m.from() == Some(from) && m.to() == to
    }
    fn give_back(&mut self, from: usize, to: usize, kind: PieceKind) {
        let (from, to) = (color(from), color(to));
        let a = self.hand(from).count(kind);
        if a == 0 {
            return;
        }
        let b = self.hand(to).count(kind);
        self.set_hand_count(from, kind, a - 1);
        self.set_hand_count(to, kind, b + 1);
    }
    fn hand_letters(&self, side: usize) -> Vec<String> {
        self.hand(color(side))
            .iter()
            .map(|(k, n)| {
                let letter = k.usi_letter().to_string();
                if n > 1 {
                    format!("{n}{letter}")
                } else {
                    letter
                }
            })
            .collect()
    }
    fn text(&self, m: Move) -> String {
        m.to_usi()
    }
    fn other_face(m: Move, main: Move) -> bool {
        m != main && !m.is_drop() && m.from() == main.from() && m.to() == main.to()
    }
}
