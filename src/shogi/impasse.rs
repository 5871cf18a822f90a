//! Entering kings (入玉): the point count of 持将棋 and the declaration (入玉宣言).
//!
//! Points: 飛 and 角 (promoted or not) count 5, every other piece but the king 1, the kings
//! nothing. [`points`] counts a side's pieces on the board and in hand (the 持将棋 count of the
//! 24- and 27-point rules); [`declaration_points`] counts only those in hand and those on the
//! board in the enemy camp (the three farthest rows), as the declaration rules do;
//! [`camp_pieces`] is the number of the side's pieces other than the king in the enemy camp.

use super::position::Position;
use super::types::{Color, PieceKind};

/// The points of a piece kind: 5 for the rook and bishop (promoted or not), 0 for the king,
/// 1 for the others.
pub fn kind_points(kind: PieceKind) -> u32 {
    match kind.unpromoted() {
        PieceKind::Rook | PieceKind::Bishop => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}

fn hand_points(p: &Position, color: Color) -> u32 {
    p.hand(color)
        .iter()
        .map(|(k, n)| kind_points(k) * u32::from(n))
        .sum()
}

/// The points of `color`'s pieces on the board and in hand.
pub fn points(p: &Position, color: Color) -> u32 {
    let board: u32 = p
        .board_pieces()
        .filter(|&(_, c, _, _)| c == color)
        .map(|(_, _, k, _)| kind_points(k))
        .sum();
    board + hand_points(p, color)
}

/// The points of `color`'s pieces in hand and on the board in the enemy camp.
pub fn declaration_points(p: &Position, color: Color) -> u32 {
    let camp: u32 = p
        .board_pieces()
        .filter(|&(sq, c, _, _)| c == color && sq.in_zone(color))
        .map(|(_, _, k, _)| kind_points(k))
        .sum();
    camp + hand_points(p, color)
}

/// The number of `color`'s pieces other than the king on the board in the enemy camp.
pub fn camp_pieces(p: &Position, color: Color) -> u32 {
    p.board_pieces()
        .filter(|&(sq, c, k, _)| c == color && k != PieceKind::King && sq.in_zone(color))
        .count() as u32
}

/// `color`'s king stands in the enemy camp.
pub fn king_in_camp(p: &Position, color: Color) -> bool {
    p.king_square(color).is_some_and(|sq| sq.in_zone(color))
}

/// The conditions of the declaration other than the points, for the side to move: its king in
/// the enemy camp and not in check, and at least ten of its other pieces there.
pub fn may_declare(p: &Position) -> bool {
    let c = p.side_to_move();
    king_in_camp(p, c) && !p.is_king_attacked(c) && camp_pieces(p, c) >= 10
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_counts_27_each() {
        let p = Position::startpos();
        assert_eq!(points(&p, Color::Black), 27);
        assert_eq!(points(&p, Color::White), 27);
        assert_eq!(declaration_points(&p, Color::Black), 0);
        assert_eq!(camp_pieces(&p, Color::Black), 0);
        assert!(!may_declare(&p));
    }

    #[test]
    fn promoted_pieces_keep_their_points() {
        // a dragon, a horse and a tokin in 先手's camp... of 後手; a pawn in hand
        let p = Position::from_sfen("4k4/9/+R+B+P6/9/9/9/9/9/4K4 b P 1").unwrap();
        assert_eq!(declaration_points(&p, Color::Black), 12);
        assert_eq!(camp_pieces(&p, Color::Black), 3);
        assert_eq!(points(&p, Color::Black), 12);
    }
}
