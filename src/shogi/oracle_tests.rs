//! Tests against external data in `../shared/shogi-oracles/` (see the README there).

use super::perft::perft;
use super::position::Position;
use super::types::{Move, PieceKind};
use std::collections::{BTreeSet, HashSet};

fn read(name: &str) -> String {
    super::test_data::text(name)
}

/// The SFENs of the curated edge cases.
fn curated_sfens() -> Vec<String> {
    read("curated.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split('\t').nth(1).map(str::to_string))
        .collect()
}

/// `(name, sfen, depth, nodes)` rows of the published perft table.
fn perft_rows() -> Vec<(String, String, u32, u64)> {
    read("perft-published.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (
                f[0].to_string(),
                f[1].to_string(),
                f[2].parse().unwrap(),
                f[3].parse().unwrap(),
            )
        })
        .collect()
}

fn check_perft(max_nodes: u64, min_nodes: u64) {
    let mut done = 0;
    for (name, sfen, depth, nodes) in perft_rows() {
        if nodes > max_nodes || nodes < min_nodes {
            continue;
        }
        let mut p = Position::from_sfen(&sfen).unwrap();
        assert_eq!(perft(&mut p, depth), nodes, "{name} depth {depth}");
        done += 1;
    }
    assert!(done > 0);
}

#[test]
fn perft_published_small() {
    if !crate::shogi::test_data::present() {
        return;
    }
    check_perft(1_000_000, 0);
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn perft_published_up_to_20m() {
    if !crate::shogi::test_data::present() {
        return;
    }
    check_perft(20_000_000, 1_000_001);
}

/// The nshogi "LEGAL" convention: no unpromoted pawn, bishop or rook move when the
/// promotion is legal, no unpromoted lance move to the second rank.
fn nshogi_filter(pos: &Position, moves: &[Move]) -> BTreeSet<String> {
    let set: HashSet<Move> = moves.iter().copied().collect();
    moves
        .iter()
        .filter(|m| {
            let Some(from) = m.from() else { return true };
            if m.is_promotion() {
                return true;
            }
            let kind = pos.piece_at(from).map(|p| p.kind);
            match kind {
                Some(PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook) => {
                    !set.contains(&Move::board(from, m.to(), true))
                }
                Some(PieceKind::Lance) => m.to().relative_row(pos.side_to_move()) != 2,
                _ => true,
            }
        })
        .map(|m| m.to_usi())
        .collect()
}

fn errata() -> HashSet<(String, usize, String)> {
    read("nshogi-errata-uchifuzume.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].parse().unwrap(), f[3].to_string())
        })
        .collect()
}

fn check_nshogi(file: &str, checks_only: bool) {
    let text = read(file);
    let errata = errata();
    let lines: Vec<&str> = text.lines().collect();
    let mut records = 0;
    for (rec, pair) in lines.chunks(2).enumerate() {
        let record_no = rec + 1;
        let pos = Position::from_sfen(pair[0]).unwrap_or_else(|e| panic!("{}: {e}", pair[0]));
        let mut fields = pair[1].split_whitespace();
        let count: usize = fields.next().unwrap().parse().unwrap();
        let mut expected: BTreeSet<String> = fields.map(str::to_string).collect();
        assert_eq!(expected.len(), count, "record {record_no}");
        expected.retain(|m| !errata.contains(&(file.to_string(), record_no, m.clone())));
        let moves: Vec<Move> = if checks_only {
            pos.legal_checks()
        } else {
            pos.legal_moves().as_slice().to_vec()
        };
        let got = nshogi_filter(&pos, &moves);
        if got != expected {
            let extra: Vec<_> = got.difference(&expected).collect();
            let missing: Vec<_> = expected.difference(&got).collect();
            panic!(
                "{file} record {record_no} {}: extra {extra:?} missing {missing:?}",
                pair[0]
            );
        }
        records += 1;
    }
    assert_eq!(records, 2500);
}

#[test]
fn nshogi_legal_moves() {
    if !crate::shogi::test_data::present() {
        return;
    }
    check_nshogi("nshogi-legal-move-examples.txt", false);
}

#[test]
fn nshogi_legal_checks() {
    if !crate::shogi::test_data::present() {
        return;
    }
    check_nshogi("nshogi-legal-check-examples.txt", true);
}

/// Every legal move is pseudo-legal; do/undo restores the position; the incremental key
/// matches a recomputation; `gives_check` agrees with playing the move.
#[test]
fn consistency_on_nshogi_positions() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let text = read("nshogi-legal-move-examples.txt");
    let mut sfens: Vec<String> = text
        .lines()
        .step_by(2)
        .take(600)
        .map(str::to_string)
        .collect();
    sfens.extend(curated_sfens());
    sfens.extend(
        read("mate-1-ply.sfen")
            .lines()
            .take(200)
            .map(str::to_string),
    );
    sfens.extend(
        read("no-mate-1-ply.sfen")
            .lines()
            .take(200)
            .map(str::to_string),
    );
    for line in sfens.iter().map(String::as_str) {
        let mut pos = Position::from_sfen(line).unwrap();
        let orig = pos.clone();
        assert_eq!(orig.count_legal(), orig.legal_moves().len(), "{line}");
        let pseudo: HashSet<Move> = pos.pseudo_legal_moves().into_iter().collect();
        for &m in orig.legal_moves().iter() {
            assert!(pseudo.contains(&m), "{line} {m}");
            let u = pos.do_move(m);
            assert_eq!(pos.key(), pos.compute_key());
            assert!(!pos.is_king_attacked(orig.side_to_move()), "{line} {m}");
            assert_eq!(pos.in_check(), orig.gives_check(m), "{line} {m}");
            pos.undo_move(m, u);
            assert_eq!(pos, orig);
        }
        // Pseudo-legal moves that are not legal leave the king attacked, or are dead,
        // two-pawn or pawn-drop-mate moves.
        let legal: HashSet<Move> = orig.legal_moves().iter().copied().collect();
        for &m in pseudo.iter() {
            if legal.contains(&m) {
                continue;
            }
            let after = orig.after(m);
            let us = orig.side_to_move();
            let self_check = after.is_king_attacked(us);
            let strict = after.validate_strict();
            let dead_or_nifu = strict.iter().any(|v| {
                matches!(v, super::sfen::StrictViolation::DeadPiece(_, p) if p.color == us)
                    || matches!(v, super::sfen::StrictViolation::DoublePawn(c, _) if *c == us)
            });
            let uchifuzume = m.drop_kind() == Some(PieceKind::Pawn)
                && after.in_check()
                && !after.has_legal_move();
            assert!(self_check || dead_or_nifu || uchifuzume, "{line} {m}");
        }
    }
}

/// `count_legal` agrees with the length of the generated list.
#[test]
fn count_matches_generation() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let text = read("nshogi-legal-move-examples.txt");
    for line in text.lines().step_by(2) {
        let pos = Position::from_sfen(line).unwrap();
        assert_eq!(pos.count_legal(), pos.legal_moves().len(), "{line}");
    }
    for (_, sfen, _, _) in perft_rows() {
        let pos = Position::from_sfen(&sfen).unwrap();
        assert_eq!(pos.count_legal(), pos.legal_moves().len(), "{sfen}");
    }
}

/// `count_legal` in check (counted from the squares a reply must reach, as at every position
/// after a check in the mate search) agrees with the generated list on every position one check
/// away from the tsume sets.
#[test]
fn count_in_check_matches_generation() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let mut in_check = 0;
    for name in ["mate-3-ply.sfen", "mate-9-ply.sfen", "no-mate-1-ply.sfen"] {
        for line in read(name).lines().filter(|l| !l.trim().is_empty()) {
            let pos = Position::from_sfen(line.trim()).unwrap();
            assert_eq!(pos.count_legal(), pos.legal_moves().len(), "{line}");
            for &m in pos.legal_checks().iter() {
                let q = pos.after(m);
                assert_eq!(q.count_legal(), q.legal_moves().len(), "{line} {m}");
                in_check += 1;
            }
        }
    }
    assert!(in_check > 10_000, "{in_check}");
}

/// Start position depth 6 (547,581,517 leaves); run with
/// `cargo test --release -- --ignored perft6 --nocapture`.
#[test]
#[ignore]
fn perft6_startpos() {
    let mut p = Position::startpos();
    let t = std::time::Instant::now();
    assert_eq!(perft(&mut p, 6), 547_581_517);
    println!("perft(6) startpos: {:.3} s", t.elapsed().as_secs_f64());
}

/// Every published count above 20 million leaves and below a billion (start position depth 6,
/// matsuri depth 4, the 593-move position depth 3); run with
/// `cargo test --release -- --ignored perft_large --nocapture`.
#[test]
#[ignore]
fn perft_large_published() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let mut n = 0;
    for (name, sfen, depth, nodes) in perft_rows() {
        if nodes <= 20_000_000 || nodes > 1_000_000_000 {
            continue;
        }
        let mut p = Position::from_sfen(&sfen).unwrap();
        let t = std::time::Instant::now();
        assert_eq!(perft(&mut p, depth), nodes, "{name} depth {depth}");
        println!(
            "{name} depth {depth}: {nodes} leaves in {:.3} s",
            t.elapsed().as_secs_f64()
        );
        n += 1;
    }
    assert_eq!(n, 3);
}

fn has_mate_in_one(pos: &Position) -> bool {
    pos.legal_moves().iter().any(|&m| {
        let after = pos.after(m);
        after.in_check() && !after.has_legal_move()
    })
}

#[test]
fn nshogi_mate_in_one() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let text = read("mate-1-ply.sfen");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let pos = Position::from_sfen(line).unwrap();
        assert!(has_mate_in_one(&pos), "{line}");
        n += 1;
    }
    assert_eq!(n, 800);
    let text = read("no-mate-1-ply.sfen");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let pos = Position::from_sfen(line).unwrap();
        assert!(!has_mate_in_one(&pos), "{line}");
        n += 1;
    }
    assert_eq!(n, 800);
}

/// Every curated position parses; the `mated` ones are checkmates.
#[test]
fn curated_positions() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let text = read("curated.tsv");
    let mut mated = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split('\t').collect();
        let pos = Position::from_sfen(f[1]).unwrap_or_else(|e| panic!("{}: {e}", f[0]));
        assert_eq!(Position::from_sfen(&pos.to_sfen()).unwrap(), pos);
        if f[2] == "mated" {
            assert!(pos.is_checkmate(), "{}", f[0]);
            mated += 1;
        }
    }
    assert!(mated > 0);
}

/// The 1,525-ply solution of Microcosmos is a legal line ending in checkmate, with every
/// attacking move a check.
#[test]
fn microcosmos_solution_is_legal() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let text = read("curated.tsv");
    let sfen = text
        .lines()
        .find(|l| l.starts_with("kh-microcosmos\t"))
        .and_then(|l| l.split('\t').nth(1))
        .unwrap();
    let pos = Position::from_sfen(sfen).unwrap();
    let moves_text = read("microcosmos-1525.usi");
    let moves: Vec<&str> = moves_text.split_whitespace().collect();
    assert_eq!(moves.len(), 1525);
    let game = pos.play_usi_moves(&moves).unwrap_or_else(|e| panic!("{e}"));
    for (i, p) in game.positions.iter().enumerate().skip(1) {
        if i % 2 == 1 {
            assert!(p.in_check(), "attacking move {i} gives no check");
        }
    }
    assert!(game.last().is_checkmate());
}

/// The move table of the definition, written out for 先手 (後手 negates every displacement).
fn spec_rays(kind: PieceKind) -> Vec<Vec<(i8, i8)>> {
    let ray = |dc: i8, dr: i8| (1..=8).map(|i| (dc * i, dr * i)).collect::<Vec<_>>();
    let steps = |v: &[(i8, i8)]| v.iter().map(|&d| vec![d]).collect::<Vec<_>>();
    let gold = steps(&[(1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (0, 1)]);
    let diag = vec![ray(1, 1), ray(1, -1), ray(-1, 1), ray(-1, -1)];
    let orth = vec![ray(1, 0), ray(-1, 0), ray(0, 1), ray(0, -1)];
    match kind {
        PieceKind::Pawn => steps(&[(0, -1)]),
        PieceKind::Lance => vec![ray(0, -1)],
        PieceKind::Knight => steps(&[(-1, -2), (1, -2)]),
        PieceKind::Silver => steps(&[(1, -1), (0, -1), (-1, -1), (-1, 1), (1, 1)]),
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => gold,
        PieceKind::Bishop => diag,
        PieceKind::Rook => orth,
        PieceKind::Horse => [diag, steps(&[(-1, 0), (1, 0), (0, -1), (0, 1)])].concat(),
        PieceKind::Dragon => [orth, steps(&[(-1, -1), (-1, 1), (1, 1), (1, -1)])].concat(),
        PieceKind::King => steps(&[
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
            (0, 1),
            (1, 1),
            (-1, 1),
        ]),
    }
}

/// Squares a piece on `from` attacks, by walking the rays of the definition.
fn spec_attacks(pos: &Position, from: super::types::Square) -> Vec<super::types::Square> {
    use super::types::{Color, Square};
    let Some(p) = pos.piece_at(from) else {
        return Vec::new();
    };
    let sign = if p.color == Color::Black { 1 } else { -1 };
    let mut out = Vec::new();
    for ray in spec_rays(p.kind) {
        for (dc, dr) in ray {
            let c = from.column() as i8 + dc * sign;
            let r = from.row() as i8 + dr * sign;
            if !(1..=9).contains(&c) || !(1..=9).contains(&r) {
                break;
            }
            let sq = Square::new(c as u8, r as u8).unwrap();
            out.push(sq);
            if pos.piece_at(sq).is_some() {
                break;
            }
        }
    }
    out
}

/// The one-step transition of the definition, enumerated naively.
fn spec_successor_moves(pos: &Position) -> BTreeSet<String> {
    use super::types::Square;
    let us = pos.side_to_move();
    let mut out = BTreeSet::new();
    for (from, p) in pos.pieces() {
        if p.color != us {
            continue;
        }
        for to in spec_attacks(pos, from) {
            match pos.piece_at(to) {
                Some(q) if q.color == us || q.kind == PieceKind::King => continue,
                _ => {}
            }
            out.insert(Move::board(from, to, false).to_usi());
            if p.kind.can_promote() && (from.in_zone(us) || to.in_zone(us)) {
                out.insert(Move::board(from, to, true).to_usi());
            }
        }
    }
    for kind in PieceKind::HAND {
        if pos.hand(us).count(kind) > 0 {
            for to in Square::all().filter(|&s| pos.piece_at(s).is_none()) {
                out.insert(Move::drop(kind, to).to_usi());
            }
        }
    }
    out
}

/// Pseudo-legal moves and attack sets agree with a direct reading of the definition.
#[test]
fn pseudo_legal_matches_definition() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let mut texts = read("nshogi-legal-move-examples.txt");
    texts.push_str(&read("nshogi-legal-check-examples.txt"));
    let mut n = 0;
    for line in texts.lines().step_by(2) {
        let pos = Position::from_sfen(line).unwrap();
        let got: BTreeSet<String> = pos
            .pseudo_legal_moves()
            .iter()
            .map(|m| m.to_usi())
            .collect();
        assert_eq!(
            got.len(),
            pos.pseudo_legal_moves().len(),
            "duplicates in {line}"
        );
        assert_eq!(got, spec_successor_moves(&pos), "{line}");
        for sq in super::types::Square::all() {
            let mut want = spec_attacks(&pos, sq);
            want.sort();
            let have: Vec<_> = pos.attacks_from(sq).squares().collect();
            assert_eq!(have, want, "{line} {sq}");
        }
        n += 1;
    }
    assert_eq!(n, 5000);
}
