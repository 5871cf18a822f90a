//! Mate in one and a plain exhaustive mate search for small depths (the reference for the
//! faster routines).
//!
//! Conventions: the attacker is the side to move; every attacker move must give check; the
//! defender tries every legal move (futile interpositions included), so lengths are strict.
//! A pawn drop that mates is illegal (打ち歩詰め) and is never part of an answer; the legal
//! move generator already excludes it.

use super::bitboard::{tables, MASK};
pub use super::evasion::has_evasion;
use super::position::Position;
use super::types::{Color, Move, PieceKind};

/// The legal checking moves of the side to move (see [`super::checks::generate_checks`]).
pub(super) fn checks(p: &Position) -> Vec<Move> {
    let mut l = super::movegen::MoveList::new();
    super::checks::generate_checks(p, &mut l);
    l.as_slice().to_vec()
}

/// A mate in one for the side to move: a legal move after which the opponent is in check and
/// has no legal move. Works when the side to move is itself in check (the move must then
/// evade and mate at once). Never returns a pawn-drop mate (illegal).
pub fn mate_in_1(pos: &Position) -> Option<Move> {
    let mut p = pos.clone();
    let mut buf = Vec::with_capacity(128);
    mate_in_1_with(&mut p, &mut buf)
}

/// [`mate_in_1`] on a position the caller lends (it is left as it was) with a buffer for the
/// checks.
///
/// Most checks are rejected without playing them: a square next to the king that is free of
/// the king's own pieces, not attacked before the move, not attacked by the moved piece from its
/// new square, and not on a line through the square the piece leaves (where a slider could be
/// uncovered), stays a flight square, so the check does not mate.
pub(super) fn mate_in_1_with(p: &mut Position, buf: &mut Vec<Move>) -> Option<Move> {
    use super::checks::{generate_with, setup, Parts};
    let t = tables();
    let us = p.side;
    let them = us.flip();
    let k = p.king[them.index()] as usize;
    if k >= 81 {
        return None;
    }
    // Drops first (cheap to list, and often the mate), then board moves. Pawn drops are skipped:
    // no need to judge them.
    let setup = setup(p);
    buf.clear();
    generate_with(p, &setup, buf, false, Parts::Drops);
    let occ_wo_king = p.occ() ^ (1u128 << k);
    let mut flights = Flights {
        around: t.king[k] & !p.by_color[them.index()] & MASK,
        judged: 0,
        free: 0,
        occ_wo_king,
    };
    if let Some(m) = first_mate(p, buf, k, &mut flights) {
        return Some(m);
    }
    buf.clear();
    generate_with(p, &setup, buf, false, Parts::Board);
    first_mate(p, buf, k, &mut flights)
}

/// The squares next to the opponent's king that are free before the move: empty of its own
/// pieces and not attacked by the side to move. Each square is judged when a check first asks
/// about it, at most once.
struct Flights {
    /// The squares next to the king not holding one of its own pieces.
    around: u128,
    /// The squares of `around` judged so far, and those of them found free.
    judged: u128,
    free: u128,
    /// The occupancy without the king (whose own square must not block an attack).
    occ_wo_king: u128,
}

impl Flights {
    /// The free squares among `cand` (a subset of `around`).
    #[inline]
    fn free_among(&mut self, p: &Position, cand: u128) -> u128 {
        let mut todo = cand & !self.judged;
        while todo != 0 {
            let s = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            if !p.is_attacked(s, p.side, self.occ_wo_king) {
                self.free |= 1u128 << s;
            }
        }
        self.judged |= cand;
        self.free & cand
    }
}

/// The first of the checks `moves` that mates. A check is rejected without being played when a
/// square next to the king that was free before the move (see [`Flights`]) stays free: not
/// attacked by the moved piece from its new square and not on a line through the square it
/// leaves (where a slider could be uncovered); or when the checker stands next to the king and
/// no other piece defends it.
fn first_mate(p: &mut Position, moves: &[Move], k: usize, flights: &mut Flights) -> Option<Move> {
    let t = tables();
    let us = p.side;
    let occ_wo_king = flights.occ_wo_king;
    for &m in moves {
        if m.drop_kind() == Some(PieceKind::Pawn) {
            continue; // a pawn drop left in the list is legal, hence not a mate
        }
        let to = m.to().index();
        let (kind, occ_after, from) = match m.from() {
            None => (
                m.drop_kind().unwrap_or(PieceKind::Pawn),
                occ_wo_king | (1u128 << to),
                None,
            ),
            Some(f) => {
                let f = f.index();
                let kind = PieceKind::ALL[((p.board[f] & 15).max(1) - 1) as usize];
                let kind = if m.is_promotion() {
                    kind.promoted().unwrap_or(kind)
                } else {
                    kind
                };
                (kind, (occ_wo_king & !(1u128 << f)) | (1u128 << to), Some(f))
            }
        };
        let mut cand = flights.around & !t.attacks(kind, us, to, occ_after);
        if let Some(f) = from {
            let mut c = cand;
            while c != 0 {
                let s = c.trailing_zeros() as usize;
                c &= c - 1;
                if (t.rook_empty[s] | t.bishop_empty[s]) >> f & 1 != 0 {
                    cand &= !(1u128 << s);
                }
            }
        }
        if cand != 0 && flights.free_among(p, cand) != 0 {
            continue;
        }
        // A piece next to the king that no other piece defends is taken by the king.
        if t.king[k] >> to & 1 != 0 {
            let from_bit = from.map_or(0, |f| 1u128 << f);
            if p.attackers_occ(to, us, occ_after) & !from_bit == 0 {
                continue;
            }
        }
        let u = p.do_move(m);
        let mated = !has_evasion(p);
        p.undo_move(m, u);
        if mated {
            return Some(m);
        }
    }
    None
}

/// Shortest mate of at most `plies` plies (odd counts are meaningful) by plain exhaustive
/// search: every attacker move must give check, every legal defence is tried. Returns the
/// line: the attacker's first move, then the defence that holds out longest, and so on.
pub fn mate_in_n_exhaustive(pos: &Position, plies: u32) -> Option<Vec<Move>> {
    let them = pos.side_to_move().flip();
    pos.king_square(them)?;
    let mut p = pos.clone();
    let mut n = 1;
    while n <= plies {
        if let Some(pv) = attack(&mut p, n) {
            return Some(pv);
        }
        n += 2;
    }
    None
}

/// A mate within exactly `n` or fewer plies, preferring the first checking move that works.
fn attack(p: &mut Position, n: u32) -> Option<Vec<Move>> {
    if n == 0 {
        return None;
    }
    for m in checks(p) {
        let u = p.do_move(m);
        let r = defend(p, n - 1);
        p.undo_move(m, u);
        if let Some(mut rest) = r {
            rest.insert(0, m);
            return Some(rest);
        }
    }
    None
}

/// Every defence is mated within `n` plies; returns the longest of the shortest lines.
fn defend(p: &mut Position, n: u32) -> Option<Vec<Move>> {
    let list = p.legal_moves();
    if list.is_empty() {
        return Some(Vec::new());
    }
    if n < 2 {
        return None;
    }
    let mut best: Option<Vec<Move>> = None;
    for &d in list.iter() {
        let u = p.do_move(d);
        // Shortest mate after this defence.
        let mut found = None;
        let mut k = 1;
        while k < n {
            if let Some(pv) = attack(p, k) {
                found = Some(pv);
                break;
            }
            k += 2;
        }
        p.undo_move(d, u);
        let mut line = found?;
        line.insert(0, d);
        if best.as_ref().is_none_or(|b| line.len() > b.len()) {
            best = Some(line);
        }
    }
    best
}

/// True if `line` is a legal mating line from `pos`: every move legal, the attacker's moves
/// all give check, and the defender has no legal move at the end.
pub fn is_mating_line(pos: &Position, line: &[Move]) -> bool {
    if line.len().is_multiple_of(2) {
        return false;
    }
    let attacker: Color = pos.side_to_move();
    let mut p = pos.clone();
    for &m in line {
        if !p.is_legal(m) {
            return false;
        }
        let by_attacker = p.side_to_move() == attacker;
        p.do_move(m);
        if by_attacker && !p.in_check() {
            return false;
        }
    }
    p.is_checkmate()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::checks::{discoverers, gives_check_fast};
    use crate::shogi::test_data::positions;

    #[test]
    fn evasion_test_matches_generator() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in positions("no-mate-1-ply.sfen")
            .into_iter()
            .chain(positions("mate-1-ply.sfen"))
        {
            if p.in_check() {
                assert_eq!(has_evasion(&p), p.has_legal_move(), "{p}");
            }
            for m in p.legal_moves().iter().copied() {
                if p.gives_check(m) {
                    let q = p.after(m);
                    assert_eq!(has_evasion(&q), q.has_legal_move(), "{q}");
                }
            }
        }
    }

    #[test]
    fn mate_1_ply_set() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in positions("mate-1-ply.sfen") {
            let m = mate_in_1(&p).unwrap_or_else(|| panic!("no mate found: {p}"));
            assert!(p.is_legal(m), "{p} {m}");
            let q = p.after(m);
            assert!(q.in_check() && !q.has_legal_move(), "{p} {m}");
        }
    }

    #[test]
    fn no_mate_1_ply_set() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in positions("no-mate-1-ply.sfen") {
            assert_eq!(mate_in_1(&p), None, "{p}");
            // The filter in mate_in_1 must not hide a mate: compare with the plain search.
            assert!(mate_in_n_exhaustive(&p, 1).is_none(), "{p}");
        }
    }

    #[test]
    fn filter_agrees_with_plain_search() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in positions("mate-1-ply.sfen").into_iter().take(200) {
            let a = mate_in_1(&p).is_some();
            let b = mate_in_n_exhaustive(&p, 1).is_some();
            assert_eq!(a, b, "{p}");
        }
    }

    #[test]
    fn pawn_drop_mate_is_not_an_answer() {
        let p = Position::from_sfen("7nk/9/7G1/9/9/9/9/9/4K4 b P 1").unwrap();
        assert_eq!(mate_in_1(&p), None);
        assert!(mate_in_n_exhaustive(&p, 1).is_none());
        // A pushed pawn mate is fine.
        let p = Position::from_sfen("7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1").unwrap();
        assert!(mate_in_1(&p).is_some());
    }

    #[test]
    fn attacker_in_check_must_evade() {
        // 先手 in check by the rook on 5e... the mating gold drop does not evade, so no mate.
        let p = Position::from_sfen("4k4/9/4P4/9/4r4/9/9/9/4K4 b G 1").unwrap();
        assert!(p.in_check());
        assert_eq!(mate_in_1(&p), None);
        // Capturing the checker while mating is fine.
        let p = Position::from_sfen("3gkg3/9/4+R4/9/4r4/9/9/9/4K4 b - 1").unwrap();
        let _ = mate_in_1(&p);
    }

    #[test]
    fn fast_check_test_is_exact() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in positions("mate-1-ply.sfen")
            .into_iter()
            .chain(positions("no-mate-1-ply.sfen"))
        {
            let Some(k) = p.king_square(p.side_to_move().flip()) else {
                continue;
            };
            let disc = discoverers(&p, k.index());
            for m in p.legal_moves().iter().copied() {
                assert_eq!(
                    gives_check_fast(&p, m, k.index(), disc),
                    p.gives_check(m),
                    "{p} {m}"
                );
            }
        }
    }

    #[test]
    fn check_generator_matches() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for p in positions("mate-1-ply.sfen")
            .into_iter()
            .chain(positions("no-mate-1-ply.sfen"))
        {
            let mut a: Vec<String> = checks(&p).iter().map(|m| m.to_usi()).collect();
            let mut b: Vec<String> = p.legal_checks().iter().map(|m| m.to_usi()).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{p}");
        }
    }

    #[test]
    fn exhaustive_small() {
        let p = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let pv = mate_in_n_exhaustive(&p, 3).unwrap();
        assert_eq!(pv.len(), 1);
        assert!(is_mating_line(&p, &pv));
    }
}

#[cfg(test)]
mod bench {
    use super::*;
    use crate::shogi::test_data::positions;

    /// Time per position of [`mate_in_1`] over both nshogi sets
    /// (`cargo test --release bench_mate1 -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn bench_mate1() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let only = std::env::var("MATE1_SET").ok();
        for name in ["mate-1-ply.sfen", "no-mate-1-ply.sfen"] {
            if only.as_deref().is_some_and(|o| o != name) {
                continue;
            }
            let ps = positions(name);
            let rounds = std::env::var("MATE1_ROUNDS")
                .ok()
                .and_then(|r| r.parse().ok())
                .unwrap_or(50);
            // The best of five runs: the machine is shared, and the best run is the one least
            // disturbed.
            let mut best = f64::MAX;
            let mut found = 0;
            for _ in 0..5 {
                found = 0;
                let t0 = std::time::Instant::now();
                for _ in 0..rounds {
                    for p in &ps {
                        found += mate_in_1(std::hint::black_box(p)).is_some() as usize;
                    }
                }
                let ns = t0.elapsed().as_nanos() as f64 / (rounds * ps.len()) as f64;
                best = best.min(ns);
            }
            println!(
                "{name}: {best:.0} ns per position ({} mates)",
                found / rounds
            );
        }
    }
}

#[cfg(test)]
mod bench_parts {
    use super::*;

    #[test]
    #[ignore]
    fn bench_mate1_parts() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let ps: Vec<Position> = crate::shogi::test_data::text("mate-1-ply.sfen")
            .lines()
            .map(|l| Position::from_sfen(l.trim()).unwrap())
            .collect();
        let rounds = 200;
        let mut buf = Vec::with_capacity(128);
        let t0 = std::time::Instant::now();
        let mut n = 0;
        for _ in 0..rounds {
            for p in &ps {
                buf.clear();
                super::super::checks::generate_checks(std::hint::black_box(p), &mut buf);
                n += buf.len();
            }
        }
        let ns = t0.elapsed().as_nanos() as f64 / (rounds * ps.len()) as f64;
        println!(
            "generate_checks: {ns:.0} ns per position, {:.1} checks",
            n as f64 / (rounds * ps.len()) as f64
        );
        let t0 = std::time::Instant::now();
        for _ in 0..rounds {
            for p in &ps {
                std::hint::black_box(p.clone());
            }
        }
        let ns = t0.elapsed().as_nanos() as f64 / (rounds * ps.len()) as f64;
        println!("clone: {ns:.0} ns per position");
        let mut tested = 0usize;
        let mut before = 0usize;
        for p in &ps {
            let m = mate_in_1(p).unwrap();
            let cs = checks(p);
            before += cs.iter().position(|&c| c == m).unwrap() + 1;
            tested += cs.len();
        }
        println!(
            "checks per position {:.1}, index of the mate {:.1}",
            tested as f64 / ps.len() as f64,
            before as f64 / ps.len() as f64
        );
    }
}
