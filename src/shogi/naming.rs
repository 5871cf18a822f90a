//! Naming a change of position as a USI move, whatever moves the rules allow: a variant's
//! successor (a pawn stepping back, a piece with new steps) is written as the move that makes
//! it, from the two positions alone.

use super::position::Position;
use super::types::{Color, Move, PieceKind, Square};

/// The move that takes `before` to `after`: one piece of the side to move leaves its square for
/// another (capturing what stood there, promoting or not, the captured piece going to the
/// mover's hand), or comes from the hand to an empty square; and the turn passes. `None` for any
/// other change (two pieces moved, a piece changed without moving, the turn kept, a hand changed
/// otherwise than the move changes it): the move named makes exactly `after` from `before`.
pub fn move_between(before: &Position, after: &Position) -> Option<Move> {
    let m = candidate(before, after)?;
    let made = before.after(m);
    let same = (0..81)
        .filter_map(Square::from_index)
        .all(|sq| made.piece_at(sq) == after.piece_at(sq))
        && made.side_to_move() == after.side_to_move()
        && [Color::Black, Color::White]
            .into_iter()
            .all(|c| made.hand(c) == after.hand(c));
    same.then_some(m)
}

/// The move that the changed squares of `before` and `after` name, before the hands are read.
fn candidate(before: &Position, after: &Position) -> Option<Move> {
    let mover = before.side_to_move();
    if after.side_to_move() != mover.flip() {
        return None;
    }
    let changed: Vec<Square> = (0..81)
        .filter_map(Square::from_index)
        .filter(|&sq| before.piece_at(sq) != after.piece_at(sq))
        .collect();
    match changed[..] {
        // a drop: the square was empty, the mover's unpromoted piece stands there, and one of
        // its kind left the hand
        [to] => {
            let p = after.piece_at(to)?;
            let ok = before.piece_at(to).is_none()
                && p.color == mover
                && !p.kind.is_promoted()
                && p.kind != PieceKind::King
                && before.hand(mover).count(p.kind) == after.hand(mover).count(p.kind) + 1;
            ok.then(|| Move::drop(p.kind, to))
        }
        // a board move: the piece left one of the two squares and stands on the other
        [a, b] => {
            let (from, to) = if after.piece_at(a).is_none() {
                (a, b)
            } else {
                (b, a)
            };
            let (was, now) = (before.piece_at(from)?, after.piece_at(to)?);
            if after.piece_at(from).is_some() || was.color != mover || now.color != mover {
                return None;
            }
            if before.piece_at(to).is_some_and(|c| c.color == mover) {
                return None;
            }
            let promote = if now.kind == was.kind {
                false
            } else if was.kind.promoted() == Some(now.kind) {
                true
            } else {
                return None;
            };
            Some(Move::board(from, to, promote))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    /// Every legal move of a few positions is named back from the position it makes.
    #[test]
    fn every_legal_move_is_named_back() {
        for sfen in [
            "startpos",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
            "8k/6S2/7G1/9/+RP7/9/9/9/4K4 b 2Pr 1",
            "4k4/9/4P4/9/9/9/9/1b7/4K4 w GSNLPr 1",
        ] {
            let p = pos(sfen);
            for &m in p.legal_moves().iter() {
                assert_eq!(
                    move_between(&p, &p.after(m)),
                    Some(m),
                    "{sfen}: {}",
                    m.to_usi()
                );
            }
        }
    }

    /// A move no standard piece makes (a pawn stepping back) is named as the squares say.
    #[test]
    fn a_move_of_a_variant_is_named() {
        let before = pos("4k4/9/9/9/9/9/4P4/9/4K4 b - 1");
        let after = pos("4k4/9/9/9/9/9/9/4P4/4K4 w - 2");
        assert_eq!(move_between(&before, &after).unwrap().to_usi(), "5g5h");
        // two pieces moved, or the turn kept: no move
        let two = pos("4k4/9/9/9/9/9/9/4P4/3K5 w - 2");
        assert_eq!(move_between(&before, &two), None);
        let kept = pos("4k4/9/9/9/9/9/9/4P4/4K4 b - 2");
        assert_eq!(move_between(&before, &kept), None);
    }

    /// A change of a hand that the move does not make is no move: a step that also gives a
    /// pawn to a hand, a capture whose piece does not go to the mover's hand, a drop that also
    /// takes another piece from the hand.
    #[test]
    fn a_hand_the_move_does_not_make_is_no_move() {
        let before = pos("4k4/9/9/9/9/9/4P4/9/4K4 b - 1");
        for after in [
            "4k4/9/9/9/9/9/9/4P4/4K4 w P 2",
            "4k4/9/9/9/9/9/9/4P4/4K4 w p 2",
        ] {
            assert_eq!(move_between(&before, &pos(after)), None, "{after}");
        }
        // the pawn takes the silver in front of it: the silver goes to Black's hand
        let taking = pos("4k4/9/9/9/9/4s4/4P4/9/4K4 b - 1");
        let taken = pos("4k4/9/9/9/9/4P4/9/9/4K4 w S 2");
        assert_eq!(move_between(&taking, &taken).unwrap().to_usi(), "5g5f");
        let lost = pos("4k4/9/9/9/9/4P4/9/9/4K4 w - 2");
        assert_eq!(move_between(&taking, &lost), None);
        let to_white = pos("4k4/9/9/9/9/4P4/9/9/4K4 w s 2");
        assert_eq!(move_between(&taking, &to_white), None);
        // a drop of a gold that also spends a silver
        let hand = pos("4k4/9/9/9/9/9/9/9/4K4 b GS 1");
        let both = pos("4k4/9/9/9/4G4/9/9/9/4K4 w - 2");
        assert_eq!(move_between(&hand, &both), None);
        let gold = pos("4k4/9/9/9/4G4/9/9/9/4K4 w S 2");
        assert_eq!(move_between(&hand, &gold).unwrap().to_usi(), "G*5e");
    }
}
