//! A 3-ply mate routine with an interposition (中合い) phase, after the scheme described in
//! `seeds/003_21644010c1e79a10.txt`: for each checking move, the defences that are not
//! interpositions (king moves, captures of the checker) are tried first; interpositions are
//! tried last, nearest the king first, and the work for them is cut down by first asking
//! whether the position with the checking slider removed has a mate in one.
//!
//! Omissions used (each is checked against the exhaustive search in the tests). They apply
//! once the defences other than interpositions, and the interpositions next to the king, are
//! all answered by a mate in one, and at least four interpositions away from the king remain:
//! - case "slider removed still mates" (seed 003, case a): after an interposition the mating
//!   move found without the slider is tried first; only when it fails is a full mate-in-one
//!   search run. The interposition is still refuted move by move, so this case is exact.
//! - case "slider removed does not mate" (seed 003, case b): a drop interposition on a square
//!   with support (a defender piece that can legally recapture there, judged after the drop,
//!   so a lance or rook behind the supporting piece's old square counts and pinned pieces do
//!   not) is taken as an escape without a mate-in-one search, provided the defender keeps
//!   another piece of that kind in hand. This shortcut is not proven; it agrees with the
//!   exhaustive search on every test position.
//! - Moving interpositions are always searched: moving a piece may open a line (seed 003's
//!   counterexample: the vacated square lets a defender slider reach the checking line).

use super::bitboard::tables;
use super::mate1::{has_evasion, mate_in_1};
use super::position::Position;
use super::types::{Move, PieceKind, Square};

/// When set, a supported drop is only taken as an escape if the defender keeps another piece
/// of that kind in hand.
const STRICT_HAND: bool = true;

/// The slider-removed test is made only when at least this many interpositions away from the
/// king remain.
const FAR_PHASE_MIN: usize = 4;

/// Counters of one run of the routine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mate3Stats {
    /// Full mate-in-one searches.
    pub mate1_calls: u64,
    /// Interpositions decided without a full mate-in-one search.
    pub skipped: u64,
    /// Times the phase of interpositions away from the king was reached.
    pub far_phase: u64,
}

/// Mate in at most 3 plies for the side to move (strict: every legal defence, futile
/// interpositions included). Returns the shortest line (1 or 3 moves).
pub fn mate_in_3(pos: &Position) -> Option<Vec<Move>> {
    mate_in_3_with(pos, true, &mut Mate3Stats::default())
}

/// [`mate_in_3`] with the omissions of the interposition phase switched on or off.
pub fn mate_in_3_with(pos: &Position, omissions: bool, st: &mut Mate3Stats) -> Option<Vec<Move>> {
    let them = pos.side_to_move().flip();
    pos.king_square(them)?;
    st.mate1_calls += 1;
    if let Some(m) = mate_in_1(pos) {
        return Some(vec![m]);
    }
    let mut p = pos.clone();
    for m in super::mate1::checks(pos) {
        let u = p.do_move(m);
        let r = refute_all(&p, omissions, st);
        p.undo_move(m, u);
        if let Some((d, r)) = r {
            return Some(vec![m, d, r]);
        }
    }
    None
}

/// Chebyshev distance between two squares.
fn dist(a: usize, b: usize) -> usize {
    let (ac, ar) = (a / 9, a % 9);
    let (bc, br) = (b / 9, b % 9);
    ac.abs_diff(bc).max(ar.abs_diff(br))
}

/// The defender (side to move in `q`, in check) has a legal move and every legal move is
/// answered by a mate in one. Returns one defence and its mating answer.
fn refute_all(q: &Position, omissions: bool, st: &mut Mate3Stats) -> Option<(Move, Move)> {
    let t = tables();
    let us = q.side;
    let ui = us.index();
    let ksq = q.king[ui] as usize;
    if ksq >= 81 {
        return None;
    }
    let list = q.legal_moves();
    if list.is_empty() {
        return None; // a mate in one, reported by the caller's first step
    }
    let checkers = q.attackers_occ(ksq, us.flip(), q.occ());
    let between = if checkers.count_ones() == 1 {
        t.between(ksq, checkers.trailing_zeros() as usize)
    } else {
        0
    };
    let mut inter: Vec<Move> = Vec::new();
    let mut witness = None;
    let mut r = q.clone();
    for &d in list.iter() {
        // Drops and moves of pieces other than the king onto a square between.
        let is_inter =
            between >> d.to().index() & 1 != 0 && d.from().is_none_or(|f| f.index() != ksq);
        if is_inter {
            inter.push(d);
            continue;
        }
        let u = r.do_move(d);
        st.mate1_calls += 1;
        let a = mate_in_1(&r);
        r.undo_move(d, u);
        match a {
            Some(a) => {
                witness.get_or_insert((d, a));
            }
            None => return None,
        }
    }
    if inter.is_empty() {
        return witness;
    }
    inter.sort_by_key(|d| dist(d.to().index(), ksq));
    if !omissions {
        answer_each(&mut r, &inter, st, &mut witness)?;
        return witness;
    }
    // Interpositions next to the king change the king's surroundings directly: full search.
    // (`inter` is sorted by the distance: the near ones come first)
    let (near, rest) = inter.split_at(inter.partition_point(|d| dist(d.to().index(), ksq) <= 1));
    answer_each(&mut r, near, st, &mut witness)?;
    if rest.len() < FAR_PHASE_MIN {
        // Too few to repay the extra mate-in-one search of the slider-removed position.
        answer_each(&mut r, rest, st, &mut witness)?;
        return witness;
    }
    st.far_phase += 1;
    // seed 003: remove the checking slider and ask for a mate in one.
    let checker = checkers.trailing_zeros() as usize;
    let mut p0 = q.clone();
    p0.set_piece(Square::new_unchecked(checker), None);
    p0.set_side_to_move(us.flip());
    st.mate1_calls += 1;
    let m0 = mate_in_1(&p0);
    match m0 {
        Some(m0) => {
            // Case a: the mate without the slider usually survives the interposition.
            for &d in rest {
                let u = r.do_move(d);
                let a = if mates_quick(&r, m0) {
                    st.skipped += 1;
                    Some(m0)
                } else {
                    st.mate1_calls += 1;
                    mate_in_1(&r)
                };
                r.undo_move(d, u);
                witness.get_or_insert((d, a?));
            }
        }
        None => {
            // Case b: a drop on a square with support blocks for good; try those first.
            let (mut first, mut later): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
            for &d in rest {
                let u = r.do_move(d);
                let sup = d.is_drop() && supported(&r, d.to().index());
                r.undo_move(d, u);
                if sup {
                    first.push(d);
                } else {
                    later.push(d);
                }
            }
            if let Some(&d) = first.first() {
                if !STRICT_HAND || !hand_matters(q, d) {
                    st.skipped += 1;
                    return None;
                }
            }
            answer_each(&mut r, &first, st, &mut witness)?;
            answer_each(&mut r, &later, st, &mut witness)?;
        }
    }
    witness
}

/// Answers each defence of `ds` with a mate in one (played on `r` and taken back), keeping the
/// first defence and its answer as the witness; `None` at the first defence without one.
fn answer_each(
    r: &mut Position,
    ds: &[Move],
    st: &mut Mate3Stats,
    witness: &mut Option<(Move, Move)>,
) -> Option<()> {
    for &d in ds {
        let u = r.do_move(d);
        st.mate1_calls += 1;
        let a = mate_in_1(r);
        r.undo_move(d, u);
        witness.get_or_insert((d, a?));
    }
    Some(())
}

/// True if dropping `d` empties the defender's hand of its kind (a later interposition
/// against the attacker's next check might then be missing). Conservative: any drop of the
/// last piece of a kind counts.
fn hand_matters(q: &Position, d: Move) -> bool {
    match d.drop_kind() {
        Some(k) => q.hand(q.side).count(k) <= 1,
        None => true,
    }
}

/// True if a piece of the side that just moved into `x` (now not to move in `r`) is defended
/// there: some other piece of that side can legally move to `x` if the piece on `x` is
/// captured. Attackers are judged in the position itself, so a lance or rook behind the
/// supporting piece's old square counts (seed 003, "a square with support"); pinned
/// supporters only count along their pin line. The king counts if `x` is next to it and the
/// opponent does not cover `x` otherwise.
pub fn supported(r: &Position, x: usize) -> bool {
    let t = tables();
    let def = r.side.flip();
    let di = def.index();
    let occ = r.occ();
    let ksq = r.king[di] as usize;
    let mut sup = r.attackers_occ(x, def, occ) & !(1u128 << x);
    let pinned = if ksq < 81 { r.pinned(def, ksq) } else { 0 };
    while sup != 0 {
        let s = sup.trailing_zeros() as usize;
        sup &= sup - 1;
        if s == ksq {
            // The king may recapture only if nothing else of the opponent covers `x`.
            let others = r.attackers_occ(x, r.side, occ);
            if others.count_ones() <= 1 {
                return true;
            }
            continue;
        }
        if pinned >> s & 1 == 0 || t.line(ksq, s) >> x & 1 != 0 {
            return true;
        }
    }
    false
}

/// Plays `m` in `r` if it is legal there and reports whether it mates. Cheap legality:
/// the moving piece or hand piece exists, the destination is reachable, the own king is not
/// left attacked; pawn drops are not tried (pawn-drop mate needs the full judgement).
fn mates_quick(r: &Position, m: Move) -> bool {
    let t = tables();
    let us = r.side;
    let ui = us.index();
    let to = m.to().index();
    let own = r.by_color[ui];
    if own >> to & 1 != 0 {
        return false;
    }
    let occ = r.occ();
    match m.from() {
        None => {
            let Some(k) = m.drop_kind() else { return false };
            if k == PieceKind::Pawn || r.hands[ui].count(k) == 0 || occ >> to & 1 != 0 {
                return false;
            }
            if (k == PieceKind::Lance && t.last1[ui] >> to & 1 != 0)
                || (k == PieceKind::Knight && t.last2[ui] >> to & 1 != 0)
            {
                return false;
            }
        }
        Some(f) => {
            let Some(pc) = r.piece_at(f) else {
                return false;
            };
            if pc.color != us || pc.kind == PieceKind::King {
                return false;
            }
            if t.attacks(pc.kind, us, f.index(), occ) >> to & 1 == 0 {
                return false;
            }
            let zone = t.zone[ui];
            if m.is_promotion()
                && (!pc.kind.can_promote() || (zone >> to & 1 == 0 && zone >> f.index() & 1 == 0))
            {
                return false;
            }
            if !m.is_promotion() {
                let dead = match pc.kind {
                    PieceKind::Pawn | PieceKind::Lance => t.last1[ui],
                    PieceKind::Knight => t.last2[ui],
                    _ => 0,
                };
                if dead >> to & 1 != 0 {
                    return false;
                }
            }
        }
    }
    let mut s = r.clone();
    s.do_move(m);
    if s.is_king_attacked(us) || !s.in_check() {
        return false;
    }
    !has_evasion(&s)
}

/// The square where the diagonal through `a` running one way (column and row change in the
/// same sense) meets the diagonal through `b` running the other way, if any. Two such
/// diagonals meet only when the squares have the same colour, i.e. the difference of their
/// indices is even (seed 003's parity test); the meeting point then follows from the
/// coordinates.
pub fn diagonal_meet(a: usize, b: usize) -> Option<usize> {
    if (a as isize - b as isize) & 1 != 0 {
        return None;
    }
    let (ac, ar) = ((a / 9) as isize, (a % 9) as isize);
    let (bc, br) = ((b / 9) as isize, (b % 9) as isize);
    // Through a: c - r = ac - ar. Through b: c + r = bc + br.
    let s = ac - ar;
    let u = bc + br;
    let c = (s + u) / 2;
    let r = (u - s) / 2;
    if (0..9).contains(&c) && (0..9).contains(&r) {
        Some((c * 9 + r) as usize)
    } else {
        None
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::mate1::{is_mating_line, mate_in_n_exhaustive};
    use super::super::types::Color;
    use super::*;
    use crate::shogi::test_data::positions;

    fn check_agree(p: &Position) {
        let ex = mate_in_n_exhaustive(p, 3);
        for om in [true, false] {
            let r = mate_in_3_with(p, om, &mut Mate3Stats::default());
            assert_eq!(r.is_some(), ex.is_some(), "omissions {om}: {p}");
            if let (Some(r), Some(e)) = (&r, &ex) {
                assert_eq!(r.len(), e.len(), "{p}");
                assert!(is_mating_line(p, r), "{p} {r:?}");
            }
        }
    }

    #[test]
    fn support_through_the_vacated_square() {
        // seed 003, "a square with support": 後手's pawn has just moved 5d-5e; nothing but the
        // lance on 5a, behind the pawn's old square, covers 5e.
        let sq = |s: &str| Square::from_usi(s).unwrap().index();
        let p = Position::from_sfen("k3l4/9/9/9/4p4/9/9/9/4R4 b - 1").unwrap();
        assert!(supported(&p, sq("5e")));
        // The same lance pinned along the first rank by the rook on 1a does not count.
        let p = Position::from_sfen("3kl3R/9/9/9/4p4/9/9/9/4R4 b - 1").unwrap();
        assert!(!supported(&p, sq("5e")));
    }

    /// For each legal defence of `q` (the defender to move, in check): whether a mate in one
    /// answers it.
    fn answered(q: &Position) -> Vec<(String, bool)> {
        q.legal_moves()
            .iter()
            .map(|&d| (d.to_usi(), mate_in_1(&q.after(d)).is_some()))
            .collect()
    }

    /// Seed 003's first example, built anew: after a rook drop checks along the king's rank, a
    /// gold that steps back to interpose four squares from the king opens the attacker's
    /// rook on the next rank onto the king's surroundings and is mated at once, while another
    /// gold interposing five squares away is not. So a mated interposition says nothing of
    /// those farther out, and the routine must find the refutation.
    #[test]
    fn a_mated_interposition_says_nothing_of_farther_ones() {
        let before = Position::from_sfen("ln4g2/k8/pp2g3R/1G7/9/9/9/9/K8 b R 1").unwrap();
        let q = before.after(before.parse_usi_move("R*1b").unwrap());
        let a = answered(&q);
        assert!(a.contains(&("5c5b".into(), true)), "{a:?}");
        assert!(a.contains(&("3a4b".into(), false)), "{a:?}");
        for om in [true, false] {
            assert_eq!(refute_all(&q, om, &mut Mate3Stats::default()), None);
        }
    }

    /// Seed 003's counterexample to omitting moving interpositions, built anew: the bishop
    /// checks from 3h; the only defence is the lance's step 5e-5f, and when the bishop takes
    /// it, the rook on 2e reaches 6e through the square the lance left, although no defender
    /// piece covered 6e when the check was given. No mate in 3; the shortest mate is the
    /// seed's line of 7 plies (the bishop takes again, the second rook recaptures, and a rook
    /// drop on 8b mates).
    #[test]
    fn a_moving_interposition_opens_a_line_to_the_check() {
        let p = Position::from_sfen("ln7/k1G6/p8/9/4l2rr/9/9/9/K4B3 b - 1").unwrap();
        let q = p.after(p.parse_usi_move("4i3h").unwrap());
        let sq = |s: &str| Square::from_usi(s).unwrap().index();
        assert_eq!(q.attackers_occ(sq("6e"), Color::White, q.occ()), 0);
        assert_eq!(answered(&q), vec![("5e5f".to_string(), false)]);
        check_agree(&p);
        assert_eq!(mate_in_3(&p), None);
        let line = mate_in_n_exhaustive(&p, 7).unwrap();
        let usi: Vec<String> = line.iter().map(|m| m.to_usi()).collect();
        assert_eq!(
            usi,
            ["4i3h", "5e5f", "3h5f", "2e6e", "5f6e", "1e6e", "R*8b"]
        );
    }

    #[test]
    fn parity_meet() {
        let sq = |s: &str| Square::from_usi(s).unwrap().index();
        assert_eq!(diagonal_meet(sq("6a"), sq("5a")), None);
        // Diagonals through 5e meet at 5e.
        assert_eq!(diagonal_meet(sq("5e"), sq("5e")), Some(sq("5e")));
        for a in 0..81 {
            for b in 0..81 {
                if let Some(m) = diagonal_meet(a, b) {
                    let (mc, mr) = ((m / 9) as isize, (m % 9) as isize);
                    assert_eq!(mc - mr, (a / 9) as isize - (a % 9) as isize);
                    assert_eq!(mc + mr, (b / 9 + b % 9) as isize);
                }
            }
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn mate_3_ply_set_agrees() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in positions("mate-3-ply.sfen") {
            let r = mate_in_3(&p).unwrap_or_else(|| panic!("{p}"));
            assert!(is_mating_line(&p, &r));
            check_agree(&p);
        }
    }

    #[test]
    fn some_3_ply() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in positions("mate-3-ply.sfen").into_iter().take(20) {
            check_agree(&p);
        }
    }

    /// Random playouts from the oracle positions; positions with a legal check kept.
    pub(crate) fn random_positions(n: usize, seed: u64) -> Vec<Position> {
        let mut s = seed;
        let mut rnd = move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        let mut base = positions("mate-3-ply.sfen");
        base.extend(positions("mate-5-ply.sfen"));
        base.extend(positions("no-mate-1-ply.sfen"));
        let mut out = Vec::new();
        let mut i = 0;
        while out.len() < n && i < n * 20 {
            i += 1;
            let mut p = base[(rnd() % base.len() as u64) as usize].clone();
            let len = rnd() % 8;
            for _ in 0..len {
                let l = p.legal_moves();
                if l.is_empty() {
                    break;
                }
                let m = l.as_slice()[(rnd() % l.len() as u64) as usize];
                p.do_move(m);
            }
            if p.king_square(p.side_to_move().flip()).is_some()
                && !super::super::mate1::checks(&p).is_empty()
            {
                out.push(p);
            }
        }
        out
    }

    /// Random one-king positions shaped like mate problems: the defender's king near its
    /// back rank with a few guards and pieces in hand, the attacker with sliders on the board
    /// and in hand, so that distant checks and interpositions are common.
    pub(crate) fn tsume_like_positions(n: usize, seed: u64) -> Vec<Position> {
        use super::super::types::{Color, Piece};
        fn rnd(s: &mut u64, m: u64) -> u64 {
            *s ^= *s << 13;
            *s ^= *s >> 7;
            *s ^= *s << 17;
            *s % m
        }
        fn place(
            s: &mut u64,
            p: &mut Position,
            used: &mut Vec<Square>,
            color: Color,
            kind: PieceKind,
            rows: (u8, u8),
        ) {
            let col = 1 + rnd(s, 9) as u8;
            let row = rows.0 + rnd(s, (rows.1 - rows.0 + 1) as u64) as u8;
            let Some(sq) = Square::new(col, row) else {
                return;
            };
            if used.contains(&sq) {
                return;
            }
            let rr = sq.relative_row(color);
            if (kind == PieceKind::Knight && rr <= 2) || (kind == PieceKind::Lance && rr == 1) {
                return; // no dead pieces
            }
            used.push(sq);
            p.set_piece(sq, Some(Piece::new(color, kind)));
        }
        let kinds = [
            PieceKind::Gold,
            PieceKind::Silver,
            PieceKind::Knight,
            PieceKind::Lance,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Dragon,
            PieceKind::Horse,
            PieceKind::ProPawn,
        ];
        let mut s = seed;
        let s = &mut s;
        let mut out = Vec::new();
        let mut tries = 0;
        while out.len() < n && tries < n * 200 {
            tries += 1;
            let mut p = Position::empty();
            let Some(ksq) = Square::new(1 + rnd(s, 9) as u8, 1 + rnd(s, 3) as u8) else {
                continue;
            };
            p.set_piece(ksq, Some(Piece::new(Color::White, PieceKind::King)));
            let mut used = vec![ksq];
            for _ in 0..rnd(s, 4) {
                let k = kinds[rnd(s, kinds.len() as u64) as usize];
                place(s, &mut p, &mut used, Color::White, k, (1, 4));
            }
            for _ in 0..1 + rnd(s, 3) {
                let k = kinds[rnd(s, kinds.len() as u64) as usize];
                place(s, &mut p, &mut used, Color::Black, k, (1, 9));
            }
            for k in [
                PieceKind::Rook,
                PieceKind::Bishop,
                PieceKind::Lance,
                PieceKind::Gold,
                PieceKind::Silver,
                PieceKind::Knight,
            ] {
                if rnd(s, 3) == 0 {
                    p.set_hand_count(Color::Black, k, 1);
                }
                if rnd(s, 3) == 0 {
                    p.set_hand_count(Color::White, k, 1 + rnd(s, 2) as u8);
                }
            }
            if rnd(s, 2) == 0 {
                p.set_hand_count(Color::White, PieceKind::Pawn, 1 + rnd(s, 3) as u8);
            }
            p.set_side_to_move(Color::Black);
            if p.is_king_attacked(Color::White) || !p.material_problems().is_empty() {
                continue;
            }
            if super::super::mate1::checks(&p).is_empty() {
                continue;
            }
            out.push(p);
        }
        out
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn tsume_like_positions_agree() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in tsume_like_positions(3000, 0x0dd_ba11_cafe_f00d) {
            check_agree(&p);
        }
    }

    /// Problem-like positions in which the phase of interpositions away from the king is
    /// reached (about 550 of 200,000).
    pub(crate) fn far_interposition_positions() -> Vec<Position> {
        tsume_like_positions(200_000, 0x5eed_0003)
            .into_iter()
            .filter(|p| {
                let mut st = Mate3Stats::default();
                mate_in_3_with(p, true, &mut st);
                st.far_phase > 0
            })
            .collect()
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn far_interpositions_agree() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let ps = far_interposition_positions();
        assert!(ps.len() > 100);
        for p in ps {
            check_agree(&p);
        }
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn random_positions_agree() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in random_positions(3000, 0x1234_5678_9abc_def1) {
            check_agree(&p);
        }
    }
}

#[cfg(test)]
mod bench {
    use super::tests::random_positions;
    use super::*;
    use crate::shogi::test_data::positions;

    /// Speed of the routine with and without omissions, one run each over the same
    /// positions (`cargo test --release -- --ignored bench_mate3 --nocapture`).
    #[test]
    #[ignore]
    fn bench_mate3() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let mut ps = positions("mate-3-ply.sfen");
        ps.extend(random_positions(3000, 0x1234_5678_9abc_def1));
        let ps2 = super::tests::tsume_like_positions(3000, 0x0dd_ba11_cafe_f00d);
        let far = super::tests::far_interposition_positions();
        for (label, ps) in [
            ("sets+playouts", &ps),
            ("problem-like", &ps2),
            ("far-interposition", &far),
        ] {
            println!("{label}:");
            run(ps);
        }
    }

    fn run(ps: &[Position]) {
        for om in [true, false, true, false] {
            let mut st = Mate3Stats::default();
            let t0 = std::time::Instant::now();
            let mut found = 0;
            for p in ps {
                if mate_in_3_with(p, om, &mut st).is_some() {
                    found += 1;
                }
            }
            let el = t0.elapsed();
            println!(
                "omissions={om}: {} positions, {found} mates, {:?} ({:.1} us/pos), {st:?}",
                ps.len(),
                el,
                el.as_secs_f64() * 1e6 / ps.len() as f64
            );
        }
    }
}
