//! A fast "has the side in check any legal reply" test, used by the check generator (to judge
//! pawn drops), the mate in one and the mate search.

use super::bitboard::{tables, MASK};
use super::position::Position;
use super::types::PieceKind;

/// True if the side to move, assumed in check, has at least one legal move. Exact (same answer
/// as [`Position::has_legal_move`]) but stops at the first reply found.
pub fn has_evasion(p: &Position) -> bool {
    let t = tables();
    let us = p.side;
    let them = us.flip();
    let ui = us.index();
    let ksq = p.king[ui] as usize;
    if ksq >= 81 {
        return p.has_legal_move();
    }
    let occ = p.occ();
    let own = p.by_color[ui];
    let occ_wo_king = occ ^ (1u128 << ksq);
    let mut tg = t.king[ksq] & !own & MASK;
    while tg != 0 {
        let to = tg.trailing_zeros() as usize;
        tg &= tg - 1;
        if !p.is_attacked(to, them, occ_wo_king) {
            return true;
        }
    }
    let checkers = p.attackers_occ(ksq, them, occ);
    if checkers == 0 {
        return p.has_legal_move();
    }
    if checkers & (checkers - 1) != 0 {
        return false;
    }
    let c = checkers.trailing_zeros() as usize;
    let between = t.between(ksq, c);
    let pinned = p.pinned(us, ksq);
    let king_bb = p.bb(PieceKind::King);
    // Board moves onto the checker or a square between.
    let mut targets = between | checkers;
    while targets != 0 {
        let s = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        let mut movers = p.attackers_occ(s, us, occ) & !king_bb;
        while movers != 0 {
            let f = movers.trailing_zeros() as usize;
            movers &= movers - 1;
            if pinned >> f & 1 == 0 || t.line(ksq, f) >> s & 1 != 0 {
                // Any piece that reaches `s` has a legal form of the move (promotion is
                // available wherever a piece would otherwise be dead).
                return true;
            }
        }
    }
    // Drops between.
    if between != 0 {
        let hand = p.hands[ui];
        if hand.is_empty() {
            return false;
        }
        for k in 3..7 {
            if hand.get(k) != 0 {
                return true;
            }
        }
        if hand.get(1) != 0 && between & !t.last1[ui] != 0 {
            return true;
        }
        if hand.get(2) != 0 && between & !t.last2[ui] != 0 {
            return true;
        }
        if hand.get(0) != 0 {
            let mut tg = between & !t.last1[ui];
            let own_pawns = p.bb(PieceKind::Pawn) & own;
            for f in t.file.iter() {
                if own_pawns & f != 0 {
                    tg &= !f;
                }
            }
            if tg != 0 {
                // A pawn interposition right in front of the attacker's king could be an
                // illegal pawn-drop mate: let the full generator judge that rare case.
                let theirk = p.king[them.index()] as usize;
                let front = if theirk < 81 {
                    t.pawn[them.index()][theirk]
                } else {
                    0
                };
                if tg & !front != 0 {
                    return true;
                }
                return p.has_legal_move();
            }
        }
    }
    false
}
