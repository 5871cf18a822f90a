//! Random-input tests: parsers never panic, and random games keep the position consistent.

use super::position::Position;
use super::record::{parse_csa, parse_kif, read_csa, read_kif, Record};
use super::types::Move;
use super::usi::parse_position_command;
use proptest::prelude::*;

fn sfen_like() -> impl Strategy<Value = String> {
    // Strings built from the SFEN alphabet (plus a few strangers) hit the parser's paths.
    proptest::collection::vec(
        proptest::sample::select("/ +-*19089pPkKgGrblnswxé歩".chars().collect::<Vec<char>>()),
        0..120,
    )
    .prop_map(|v| v.into_iter().collect())
}

fn record_like() -> impl Strategy<Value = String> {
    const PARTS: [&str; 58] = [
        "0",
        "1",
        "7",
        "9",
        " ",
        "+",
        "-",
        "P",
        "I",
        "T",
        "%",
        ",",
        "'",
        "FU",
        "KA",
        "OU",
        "AL",
        "HI",
        "\n",
        "７",
        "六",
        "歩",
        "同",
        "　",
        "成",
        "打",
        "不成",
        "(",
        ")",
        "投了",
        "手合割：",
        "平手",
        "|",
        "v",
        "・",
        "香",
        "後手番",
        "後手の持駒：",
        "二",
        "十",
        "▲",
        "△",
        "右",
        "左",
        "直",
        "上",
        "引",
        "寄",
        "まで",
        "手で",
        "先手",
        "の勝ち",
        "%TORYO",
        "%KACHI",
        "反則勝ち",
        "53",
        "金",
        "/",
    ];
    proptest::collection::vec(proptest::sample::select(PARTS.to_vec()), 0..60)
        .prop_map(|v| v.concat())
}

fn check_spans(s: &str, errs: &[super::sfen::ParseError]) {
    assert!(!errs.is_empty());
    for e in errs {
        assert!(e.offset + e.len <= s.len(), "{s:?} {e:?}");
        assert!(
            s.is_char_boundary(e.offset) && s.is_char_boundary(e.offset + e.len),
            "{s:?} {e:?}"
        );
    }
}

/// A record as read: each move a move of the pieces in its position, each place inside the text.
fn check_record(s: &str, r: &Record) {
    let g = &r.game;
    assert_eq!(g.positions.len(), g.moves.len() + 1);
    assert_eq!(r.places.len(), g.moves.len());
    for (i, m) in g.moves.iter().enumerate() {
        assert!(g.positions[i].pseudo_legal_moves().contains(m), "{s:?} {m}");
        assert_eq!(g.positions[i].after(*m), g.positions[i + 1]);
    }
    let places = r
        .places
        .iter()
        .chain(r.illegal_end.iter().map(|e| &e.place));
    for p in places {
        assert!(p.offset + p.len <= s.len(), "{s:?} {p:?}");
        assert!(s.is_char_boundary(p.offset) && s.is_char_boundary(p.offset + p.len));
    }
    if let Some(e) = &r.illegal_end {
        assert_eq!(e.ply, g.moves.len() + 1);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn sfen_never_panics(s in ".{0,100}") {
        match Position::from_sfen(&s) {
            Ok(p) => { let _ = p.to_sfen(); }
            Err(e) => check_spans(&s, &e.0),
        }
        let _ = Move::from_usi(&s);
        let _ = parse_position_command(&s);
    }

    #[test]
    fn records_never_panic(s in record_like()) {
        if let Err(e) = parse_kif(&s) { check_spans(&s, &e.0) }
        if let Err(e) = parse_csa(&s) { check_spans(&s, &e.0) }
        for r in [read_kif(&s), read_csa(&s)] {
            match r {
                Ok(r) => check_record(&s, &r),
                Err(e) => check_spans(&s, &e.0),
            }
        }
    }

    #[test]
    fn records_any_text_never_panic(s in "(.|\n){0,200}") {
        let _ = parse_kif(&s);
        let _ = parse_csa(&s);
    }

    #[test]
    fn sfen_alphabet_never_panics(s in sfen_like()) {
        match Position::from_sfen(&s) {
            Ok(p) => {
                // Whatever parses can be printed, reparsed, and searched.
                let q = Position::from_sfen(&p.to_sfen()).unwrap();
                prop_assert_eq!(&p, &q);
                let _ = p.legal_moves();
                let _ = p.pseudo_legal_moves();
                let _ = p.validate_strict();
                let _ = p.diagram();
            }
            Err(e) => check_spans(&s, &e.0),
        }
        let cmd = format!("position sfen {s} moves 7g7f");
        if let Err(e) = parse_position_command(&cmd) { check_spans(&cmd, &e.0) }
    }

    #[test]
    fn sfen_with_valid_board_variants(
        board in "[1-9pPlLnNsSgGbBrRkK+]{1,12}(/[1-9pPlLnNsSgGbBrRkK+]{1,12}){8}",
        side in "[bw]",
        hand in "-|([0-9]{0,2}[PLNSGBRplnsgbrK])+",
        num in "[0-9]{1,22}",
    ) {
        let s = format!("{board} {side} {hand} {num}");
        if let Ok((_, w)) = Position::from_sfen_with_warnings(&s) {
            for e in &w {
                prop_assert!(e.offset + e.len <= s.len() && e.len > 0);
            }
        }
        match Position::from_sfen(&s) {
            Ok(p) => {
                let q = Position::from_sfen(&p.to_sfen()).unwrap();
                prop_assert_eq!(&p, &q);
                let mut c = p.clone();
                for m in p.legal_moves().iter().copied() {
                    let u = c.do_move(m);
                    prop_assert_eq!(c.key(), c.compute_key());
                    c.undo_move(m, u);
                }
                for m in p.pseudo_legal_moves() {
                    let u = c.do_move(m);
                    prop_assert_eq!(c.key(), c.compute_key());
                    c.undo_move(m, u);
                    prop_assert_eq!(&c, &p);
                }
                prop_assert_eq!(p.count_legal(), p.legal_moves().len());
            }
            Err(e) => check_spans(&s, &e.0),
        }
    }
}

/// Random legal games from the start position: SFEN round trip, key, counts.
#[test]
fn random_games() {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..40 {
        let mut p = Position::startpos();
        for _ in 0..300 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            assert_eq!(p.count_legal(), moves.len(), "{}", p.to_sfen());
            let m = moves.as_slice()[(rnd() % moves.len() as u64) as usize];
            p.do_move(m);
            assert_eq!(p.key(), p.compute_key());
            let q = Position::from_sfen(&p.to_sfen()).unwrap();
            assert_eq!(p, q);
            assert!(p.validate_strict().is_empty(), "{}", p.to_sfen());
        }
    }
}
