//! Generation of the legal checking moves (王手生成), the move generator of the attacker in
//! every mate search.
//!
//! Direct checks are generated from the squares from which a piece of each kind would attack
//! the opponent's king (the attack sets seen from the king with the colours exchanged),
//! intersected with what each piece reaches; discovered checks from the pieces that stand alone
//! between an own slider and the king; drops on the checking squares. A pawn drop that checks
//! and leaves no legal reply (打ち歩詰め) is left out. When the side to move is itself in check
//! the legal evasions are generated and the checking ones kept.

use super::bitboard::{tables, Tables, MASK};
use super::movegen::{push_piece_moves, MoveSink};
use super::position::Position;
use super::types::{Color, Move, PieceKind, Square};

#[inline(always)]
fn sq(i: usize) -> Square {
    Square::new_unchecked(i)
}

/// Where a piece must stand to give check by a move to a king on `k`: for the pieces that move
/// one step, the squares at most two steps from `k`; for a knight of colour `c`, the squares from
/// which it reaches a square next to `k` or a square from which a knight checks `k`.
fn near(c: Color, k: usize) -> (u128, u128) {
    static NEAR: std::sync::OnceLock<Vec<(u128, u128)>> = std::sync::OnceLock::new();
    NEAR.get_or_init(|| {
        let t = tables();
        let mut v = Vec::with_capacity(162);
        for c in Color::ALL {
            for k in 0..81usize {
                let mut step = 0u128;
                let mut knight = 0u128;
                let targets = t.king[k] | t.knight[c.flip().index()][k];
                for s in 0..81usize {
                    if (s / 9).abs_diff(k / 9) <= 2 && (s % 9).abs_diff(k % 9) <= 2 {
                        step |= 1u128 << s;
                    }
                    if t.knight[c.index()][s] & targets != 0 {
                        knight |= 1u128 << s;
                    }
                }
                v.push((step, knight));
            }
        }
        v
    })[c.index() * 81 + k]
}

/// Squares where a piece of `kind` and colour `us` must not stay unpromoted (it would have
/// nowhere to go).
#[inline(always)]
fn dead_squares(t: &Tables, us: Color, kind: PieceKind) -> u128 {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => t.last1[us.index()],
        PieceKind::Knight => t.last2[us.index()],
        _ => 0,
    }
}

/// Appends the legal checking moves of the side to move to `list`. Returns true when a pawn
/// drop that checks was left out because it would be a pawn-drop mate.
pub fn generate_checks(p: &Position, list: &mut impl MoveSink) -> bool {
    generate(p, list, true, Parts::All)
}

/// Which checks to generate.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Parts {
    All,
    /// Drops only (nothing when the side to move is in check).
    Drops,
    /// Board moves only (everything when the side to move is in check).
    Board,
}

/// [`generate_checks`] without the pawn-drop-mate test: a pawn drop that checks is listed even
/// when it would mate (the caller finds it mated and must not count it).
pub fn generate_checks_unjudged(p: &Position, list: &mut impl MoveSink) {
    generate(p, list, false, Parts::All);
}

fn generate(p: &Position, list: &mut impl MoveSink, judge_pawn: bool, parts: Parts) -> bool {
    generate_with(p, &setup(p), list, judge_pawn, parts)
}

/// What the checks of a position are generated from, computed once for several parts. It lives
/// on the stack for one call; boxing the large variant would cost an allocation per position.
#[allow(clippy::large_enum_variant)]
pub(super) enum Setup {
    /// The opponent has no king: there is no check.
    NoKing,
    /// The side to move is in check: its checks are the legal evasions that give check.
    InCheck { theirk: usize },
    /// The opponent is already in check (an impossible position, as in some rule examples).
    AlreadyGiven,
    /// The squares from which each kind attacks the opponent's king on `theirk`.
    Plain { chk: [u128; 14], theirk: usize },
}

/// The [`Setup`] of the checks of the side to move.
pub(super) fn setup(p: &Position) -> Setup {
    let t = tables();
    let us = p.side;
    let them = us.flip();
    let theirk = p.king[them.index()] as usize;
    if theirk >= 81 {
        return Setup::NoKing;
    }
    let occ = p.occ();
    let ksq = p.king[us.index()] as usize;
    if ksq < 81 && p.attackers_occ(ksq, them, occ) != 0 {
        return Setup::InCheck { theirk };
    }
    if p.attackers_occ(theirk, us, occ) != 0 {
        return Setup::AlreadyGiven;
    }
    let mut chk = [0u128; 14];
    let ks = t.king[theirk];
    chk[PieceKind::Pawn.index()] = t.pawn[them.index()][theirk];
    chk[PieceKind::Lance.index()] = t.lance(them, theirk, occ);
    chk[PieceKind::Knight.index()] = t.knight[them.index()][theirk];
    chk[PieceKind::Silver.index()] = t.silver[them.index()][theirk];
    let g = t.gold[them.index()][theirk];
    for k in [
        PieceKind::Gold,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
    ] {
        chk[k.index()] = g;
    }
    let b = t.bishop(theirk, occ);
    let r = t.rook(theirk, occ);
    chk[PieceKind::Bishop.index()] = b;
    chk[PieceKind::Rook.index()] = r;
    chk[PieceKind::Horse.index()] = b | ks;
    chk[PieceKind::Dragon.index()] = r | ks;
    Setup::Plain { chk, theirk }
}

/// The `parts` of the checks of `p`, whose [`setup`] is `setup`. Returns true when a pawn drop
/// that checks was left out because it would be a pawn-drop mate (only with `judge_pawn`; in
/// check, when one may have been).
pub(super) fn generate_with(
    p: &Position,
    setup: &Setup,
    list: &mut impl MoveSink,
    judge_pawn: bool,
    parts: Parts,
) -> bool {
    match setup {
        Setup::NoKing => false,
        Setup::InCheck { theirk } => parts != Parts::Drops && checks_in_check(p, list, *theirk),
        Setup::AlreadyGiven => parts != Parts::Drops && checks_already_given(p, list),
        Setup::Plain { chk, theirk } => {
            let excluded = parts != Parts::Board && drop_checks(p, list, chk, judge_pawn);
            if parts != Parts::Drops {
                board_checks(p, list, chk, *theirk);
            }
            excluded
        }
    }
}

/// The drops on the checking squares `chk` (see [`generate_checks`]).
fn drop_checks(p: &Position, list: &mut impl MoveSink, chk: &[u128; 14], judge_pawn: bool) -> bool {
    let t = tables();
    let ui = p.side.index();
    let hand = p.hands[ui];
    let empty = !p.occ() & MASK;
    let mut excluded = false;
    for k in (0..7).rev() {
        if hand.get(k) == 0 {
            continue;
        }
        let kind = PieceKind::HAND[k];
        let mut tg = chk[kind.index()] & empty;
        match kind {
            PieceKind::Pawn => {
                tg &= !t.last1[ui];
                let own_pawns = p.bb(PieceKind::Pawn) & p.by_color[ui];
                if tg != 0 && own_pawns & t.file[tg.trailing_zeros() as usize / 9] != 0 {
                    tg = 0;
                }
                if tg != 0 && judge_pawn {
                    let to = tg.trailing_zeros() as usize;
                    let m = Move::drop(kind, sq(to));
                    let mut q = p.clone();
                    q.do_move(m);
                    if !super::evasion::has_evasion(&q) {
                        excluded = true;
                        tg = 0;
                    }
                }
            }
            PieceKind::Lance => tg &= !t.last1[ui],
            PieceKind::Knight => tg &= !t.last2[ui],
            _ => {}
        }
        while tg != 0 {
            let to = tg.trailing_zeros() as usize;
            tg &= tg - 1;
            list.push_move(Move::drop(kind, sq(to)));
        }
    }
    excluded
}

/// The checking board moves (see [`generate_checks`]), `chk` the squares from which each kind
/// attacks the king on `theirk`.
fn board_checks(p: &Position, list: &mut impl MoveSink, chk: &[u128; 14], theirk: usize) {
    let t = tables();
    let us = p.side;
    let ui = us.index();
    let occ = p.occ();
    let ksq = p.king[ui] as usize;
    let own = p.by_color[ui];
    let zone = t.zone[ui];
    let pinned = if ksq < 81 { p.pinned(us, ksq) } else { 0 };
    let disc = discoverers(p, theirk);
    let ks = t.king[theirk];
    let (b, r) = (chk[PieceKind::Bishop.index()], chk[PieceKind::Rook.index()]);
    let them = us.flip();
    // Pieces that move one step (and knights) check directly only from near the king; sliders
    // from anywhere; and the pieces that uncover a check.
    let sliders = p.bb(PieceKind::Lance)
        | p.bb(PieceKind::Bishop)
        | p.bb(PieceKind::Rook)
        | p.bb(PieceKind::Horse)
        | p.bb(PieceKind::Dragon);
    let knights = p.bb(PieceKind::Knight);
    let (near_step, near_knight) = near(us, theirk);
    let steppers = !(sliders | knights | p.bb(PieceKind::King));
    // A slider far from every checking square of its kind, on an empty board, cannot check.
    let gold_chk = chk[PieceKind::Gold.index()];
    let mut far = 0u128;
    let mut sl = sliders & own & !disc;
    while sl != 0 {
        let from = sl.trailing_zeros() as usize;
        sl &= sl - 1;
        let reachable = match PieceKind::ALL[((p.board[from] & 15) - 1) as usize] {
            PieceKind::Lance => {
                t.lance_empty(us, from) & (chk[PieceKind::Lance.index()] | gold_chk)
            }
            PieceKind::Bishop => t.bishop_empty[from] & (b | ks),
            PieceKind::Rook => t.rook_empty[from] & (r | ks),
            PieceKind::Horse => (t.bishop_empty[from] | t.king[from]) & (b | ks),
            _ => (t.rook_empty[from] | t.king[from]) & (r | ks),
        };
        if reachable == 0 {
            far |= 1u128 << from;
        }
    }
    let mut pieces = own
        & ((steppers & near_step) | (knights & near_knight) | (sliders & !far) | disc)
        & !p.bb(PieceKind::King);
    while pieces != 0 {
        let from = pieces.trailing_zeros() as usize;
        pieces &= pieces - 1;
        let kind = PieceKind::ALL[((p.board[from] & 15) - 1) as usize];
        let mut reach = t.attacks(kind, us, from, occ) & !own & MASK;
        if pinned >> from & 1 != 0 {
            reach &= t.line(ksq, from);
        }
        if reach == 0 {
            continue;
        }
        let direct_from = if disc >> from & 1 != 0 {
            // Every move off the line to the king discovers a check.
            let line = t.line(theirk, from);
            push_piece_moves(t, list, us, kind, from, reach & !line, true);
            reach & line
        } else {
            reach
        };
        if direct_from == 0 {
            continue;
        }
        let chk_plain = chk[kind.index()];
        match kind.promoted() {
            Some(pk) => {
                let chk_prom = chk[pk.index()];
                let mut tg = direct_from & (chk_plain | chk_prom);
                let dead = dead_squares(t, us, kind);
                let from_in_zone = zone >> from & 1 != 0;
                while tg != 0 {
                    let to = tg.trailing_zeros() as usize;
                    tg &= tg - 1;
                    if chk_prom >> to & 1 != 0 && (from_in_zone || zone >> to & 1 != 0) {
                        list.push_move(Move::board(sq(from), sq(to), true));
                    }
                    if chk_plain >> to & 1 != 0 && dead >> to & 1 == 0 {
                        list.push_move(Move::board(sq(from), sq(to), false));
                    }
                }
            }
            None => {
                let mut tg = direct_from & chk_plain;
                while tg != 0 {
                    let to = tg.trailing_zeros() as usize;
                    tg &= tg - 1;
                    list.push_move(Move::board(sq(from), sq(to), false));
                }
            }
        }
    }
    // The king gives check only by discovery.
    if ksq < 81 && disc >> ksq & 1 != 0 {
        let occ_wo_king = occ ^ (1u128 << ksq);
        let mut tg = t.king[ksq] & !own & MASK & !t.line(theirk, ksq);
        while tg != 0 {
            let to = tg.trailing_zeros() as usize;
            tg &= tg - 1;
            if !p.is_attacked(to, them, occ_wo_king) {
                list.push_move(Move::board(sq(ksq), sq(to), false));
            }
        }
    }
}

/// An impossible position (the opponent is in check with us to move, as in some rule examples):
/// the legal moves after which the opponent is still, or again, in check.
fn checks_already_given(p: &Position, list: &mut impl MoveSink) -> bool {
    let them = p.side.flip();
    for &m in p.legal_moves().iter() {
        if p.after(m).is_king_attacked(them) {
            list.push_move(m);
        }
    }
    p.hands[p.side.index()].get(0) != 0
}

/// The checking moves when the side to move is in check: legal evasions that give check.
fn checks_in_check(p: &Position, list: &mut impl MoveSink, theirk: usize) -> bool {
    /// Passes on the moves that give check.
    struct Checking<'a, S> {
        p: &'a Position,
        theirk: usize,
        disc: u128,
        out: &'a mut S,
    }
    impl<S: MoveSink> MoveSink for Checking<'_, S> {
        #[inline(always)]
        fn push_move(&mut self, m: Move) {
            if gives_check_fast(self.p, m, self.theirk, self.disc) {
                self.out.push_move(m);
            }
        }
    }
    let disc = discoverers(p, theirk);
    p.generate_legal_into(&mut Checking {
        p,
        theirk,
        disc,
        out: list,
    });
    // Whether a pawn drop was left out is not tracked here: report that one may have been.
    p.hands[p.side.index()].get(0) != 0
}

/// Pieces of the side to move standing alone between the opponent's king (on `theirk`) and a
/// slider of the side to move: moving one off that line discovers a check.
pub(super) fn discoverers(p: &Position, theirk: usize) -> u128 {
    let t = tables();
    let us = p.side;
    let ours = p.by_color[us.index()];
    let snipers = ((t.rook_empty[theirk] & (p.bb(PieceKind::Rook) | p.bb(PieceKind::Dragon)))
        | (t.bishop_empty[theirk] & (p.bb(PieceKind::Bishop) | p.bb(PieceKind::Horse)))
        | (t.lance_empty(us.flip(), theirk) & p.bb(PieceKind::Lance)))
        & ours;
    let occ = p.occ();
    let mut out = 0u128;
    let mut s = snipers;
    while s != 0 {
        let sq = s.trailing_zeros() as usize;
        s &= s - 1;
        let b = t.between(theirk, sq) & occ;
        if b != 0 && b & (b - 1) == 0 && b & ours != 0 {
            out |= b;
        }
    }
    out
}

/// Exact check test for a legal move `m`, given the opponent's king square and the
/// discoverers of [`discoverers`].
#[inline]
pub(super) fn gives_check_fast(p: &Position, m: Move, theirk: usize, disc: u128) -> bool {
    let t = tables();
    let them = p.side.flip();
    let to = m.to().index();
    match m.from() {
        None => {
            let Some(k) = m.drop_kind() else { return false };
            t.attacks(k, them, theirk, p.occ()) >> to & 1 != 0
        }
        Some(f) => {
            let f = f.index();
            let code = p.board[f];
            if code == 0 {
                return false;
            }
            let kind = PieceKind::ALL[((code & 15) - 1) as usize];
            let kind = if m.is_promotion() {
                kind.promoted().unwrap_or(kind)
            } else {
                kind
            };
            let occ = p.occ() & !(1u128 << f);
            // Attack sets are symmetric when seen from the king with the other colour.
            if t.attacks(kind, them, theirk, occ) >> to & 1 != 0 {
                return true;
            }
            disc >> f & 1 != 0 && t.line(theirk, f) >> to & 1 == 0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::movegen::MoveList;
    use crate::shogi::test_data::positions;

    fn sorted(ms: &[Move]) -> Vec<String> {
        let mut v: Vec<String> = ms.iter().map(|m| m.to_usi()).collect();
        v.sort();
        v
    }

    /// The generator gives exactly the legal moves that check, on every position of the oracle
    /// sets and on the positions one legal move further.
    #[test]
    fn same_as_filtering_the_legal_moves() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let mut n = 0;
        for name in [
            "mate-1-ply.sfen",
            "no-mate-1-ply.sfen",
            "mate-3-ply.sfen",
            "mate-9-ply.sfen",
        ] {
            for p in positions(name) {
                let mut ps = vec![p.clone()];
                for &m in p.legal_moves().iter().take(6) {
                    ps.push(p.after(m));
                }
                for q in ps {
                    let mut l = MoveList::new();
                    generate_checks(&q, &mut l);
                    assert_eq!(sorted(l.as_slice()), sorted(&q.legal_checks()), "{q}");
                    n += 1;
                }
            }
        }
        assert!(n > 10_000);
    }

    #[test]
    fn pawn_drop_mate_is_left_out_and_reported() {
        // The gold on 2c defends the pawn: P*1b would mate.
        let p = Position::from_sfen("7nk/9/7G1/9/9/9/9/9/4K4 b P 1").unwrap();
        let mut l = MoveList::new();
        assert!(generate_checks(&p, &mut l));
        assert!(!sorted(l.as_slice()).contains(&"P*1b".to_string()));
        let mut l = MoveList::new();
        generate_checks_unjudged(&p, &mut l);
        assert!(sorted(l.as_slice()).contains(&"P*1b".to_string()));
        // Undefended, the pawn is taken: a legal check.
        let p = Position::from_sfen("7nk/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        let mut l = MoveList::new();
        assert!(!generate_checks(&p, &mut l));
        assert!(sorted(l.as_slice()).contains(&"P*1b".to_string()));
        // An impossible position where the king is already in check: the moves that keep it so.
        let p = Position::from_sfen("7nk/9/8L/9/9/9/9/9/4K4 b P 1").unwrap();
        let mut l = MoveList::new();
        generate_checks(&p, &mut l);
        for &m in l.as_slice() {
            assert!(p.after(m).is_king_attacked(Color::White), "{m}");
        }
        assert!(l.len() > 10);
    }
}
