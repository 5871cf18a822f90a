#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! Game records as read: the moves as written (those the rules forbid kept for the rules to
//! judge), KI2 and moves without their origin, the result a record states, Shift-JIS text, and
//! the refusal of records that are empty, cut short, or name moves the pieces cannot make.
//! The records are in tests/data/records.

use crate::common;
use common::okite;
use okite::shogi::record::{parse_csa, parse_kif};
use okite::shogi::{
    decode_record, read_csa, read_kif, Color, Ending, Move, Outcome, Record, RecordResult,
    TextEncoding,
};
use std::path::{Path, PathBuf};
use std::process::Output;

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/records")
        .join(name)
}

fn text_of(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

fn kif(name: &str) -> Record {
    read_kif(&text_of(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A stated result as the tests compare it: ending, outcome, ply, line and words.
fn stated(res: &RecordResult) -> (Ending, Outcome, usize, usize, &str) {
    (
        res.ending,
        res.outcome,
        res.ply,
        res.line,
        res.stated.as_str(),
    )
}

fn usi(r: &Record) -> Vec<String> {
    r.game.moves.iter().map(|m| m.to_usi()).collect()
}

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("okite-records-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn out(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn a_pawn_dropped_on_a_file_with_a_pawn_is_read_to_the_end() {
    let r = kif("nifu.kif");
    assert_eq!(r.game.moves.len(), 15);
    assert_eq!(usi(&r)[10], "P*7e");
    // the native engine, asked on its own, says the drop is forbidden
    let why = r.game.positions[10]
        .illegal_reason(Move::from_usi("P*7e").unwrap())
        .unwrap();
    assert!(why.contains("二歩"), "{why}");
    assert!(r.illegal_end.is_none());
    let res = r.result.unwrap();
    assert_eq!(
        (res.ending, res.outcome, res.ply, res.line),
        (Ending::Resignation, Outcome::Win(Color::White), 15, 22)
    );
    assert_eq!(r.places[10].line, 17);
}

#[test]
fn a_pawn_drop_that_mates_is_read_and_the_record_claims_the_mate() {
    let r = kif("uchifuzume.kif");
    // moves written without their origin after a board diagram: 23金, 94歩, 12歩 (a drop)
    assert_eq!(usi(&r), ["3d2c", "9c9d", "P*1b"]);
    let why = r.game.positions[2]
        .illegal_reason(Move::from_usi("P*1b").unwrap())
        .unwrap();
    assert!(why.contains("打ち歩詰め"), "{why}");
    assert!(r.game.last().is_checkmate());
    let res = r.result.unwrap();
    assert_eq!(
        (res.ending, res.outcome, res.ply),
        (Ending::Checkmate, Outcome::Win(Color::Black), 3)
    );
}

#[test]
fn ki2_moves_are_told_apart_by_their_words() {
    let r = kif("ambiguous.ki2");
    let m = usi(&r);
    assert_eq!(m.len(), 33);
    assert_eq!(m[10], "4i5h", "▲５八金右: the gold on 4九, not 6九");
    assert_eq!(m[15], "4a5b", "△５二金左: 後手's left is column 1");
    assert_eq!(m[16], "7i6h", "▲６八銀上: from 7九, not back from 5七");
    assert_eq!(
        m[17], "6a6b",
        "△６二金直: straight on, not sideways from 5二"
    );
    assert_eq!(
        m[24], "5h5i",
        "▲５九金引: back from 5八, not sideways from 6九"
    );
    assert_eq!(m[27], "2c2d", "△同　歩");
    assert_eq!(
        m[29], "P*2c",
        "△２三歩: no pawn on the board reaches it, so one is dropped"
    );
    assert_eq!(m[32], "5i5h", "▲５八金直");
    let res = r.result.unwrap();
    assert_eq!(
        (res.ending, res.outcome, res.ply),
        (Ending::Interrupted, Outcome::None, 33)
    );
}

#[test]
fn ki2_moves_that_name_no_piece_or_more_than_one_are_refused_with_their_line() {
    let t = text_of("ambiguous.ki2");
    for (from, to, says) in [
        ("▲５八金右", "▲５八金", "can all move"),
        ("▲６八銀上", "▲６八銀", "can all move"),
        ("▲６八銀上", "▲６八銀寄", "as written"),
        ("▲７七角", "▲１一角", "none is in hand"),
        ("△８二玉", "▲８二玉", "to move"),
    ] {
        let bad = t.replacen(from, to, 1);
        let e = read_kif(&bad).unwrap_err();
        let e = &e.0[0];
        assert!(e.message.contains(says), "{to}: {}", e.message);
        let line = bad[..e.offset].matches('\n').count() + 1;
        assert!(
            e.message.starts_with(&format!("line {line}:")),
            "{}",
            e.message
        );
        assert_eq!(&bad[e.offset..e.offset + e.len], to);
    }
}

#[test]
fn shift_jis_records_read_as_their_utf8_text() {
    let t = text_of("nifu.kif");
    let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(&t);
    assert!(!unmappable);
    assert!(
        std::str::from_utf8(&sjis).is_err(),
        "the bytes are not UTF-8"
    );
    let (decoded, enc) = decode_record(&sjis).unwrap();
    assert_eq!(enc, TextEncoding::ShiftJis);
    assert_eq!(read_kif(&decoded).unwrap(), kif("nifu.kif"));
    // with a byte order mark, UTF-8
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(t.as_bytes());
    let (decoded, enc) = decode_record(&bom).unwrap();
    assert_eq!((decoded.as_str(), enc), (t.as_str(), TextEncoding::Utf8));
    // the command line reads the Shift-JIS file as it reads the UTF-8 one
    let p = tmp("nifu-sjis.kif", &sjis);
    let a = okite(&["game", "--kif", p.to_str().unwrap(), "--json"]);
    let b = okite(&["game", "--kif", "tests/data/records/nifu.kif", "--json"]);
    assert_eq!(a.status.code(), Some(0), "{}", out(&a));
    assert_eq!(a.stdout, b.stdout);
}

#[test]
fn game_reports_the_record_result_beside_the_readings() {
    let o = okite(&[
        "game",
        "--kif",
        "tests/data/records/nifu.kif",
        "--readings",
        "narrow",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        s.contains(r#""first_forbidden": {"move": 11, "usi": "P*7e", "why": "two pawns on column 7 (二歩)"}"#),
        "{s}"
    );
    assert!(
        s.trim_end().ends_with(r#", "record_result": {"outcome": "white-wins", "ending": "resignation", "ply": 15, "stated": "投了", "line": 22}}"#),
        "{s}"
    );
    let o = okite(&["game", "--csa", "tests/data/records/resign.csa"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        s.contains("record result: black-wins, resignation after 7 moves (`%TORYO`, line 25)"),
        "{s}"
    );
    // USI moves state no result
    let o = okite(&["game", "--usi", "7g7f", "--json"]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("record_result"));
}

/// The nifu record cut after move 9, then `tail`.
fn cut_nifu(tail: &str) -> String {
    let t = text_of("nifu.kif");
    let at = t.find("  10 ").unwrap();
    format!("{}{tail}", &t[..at])
}

#[test]
fn a_last_move_the_pieces_cannot_make_is_the_record_s_foul() {
    // 後手 holds no bishop: the drop cannot be made
    let t = cut_nifu("  10 ５五角打\n  11 反則勝ち\nまで10手で先手の反則勝ち\n");
    let r = read_kif(&t).unwrap();
    assert_eq!(r.game.moves.len(), 9);
    let e = r.illegal_end.clone().unwrap();
    assert_eq!(
        (e.ply, e.written.as_str(), e.place.line),
        (10, "５五角打", 16)
    );
    assert!(e.why.contains("no 角 in hand"), "{}", e.why);
    let res = r.result.clone().unwrap();
    assert_eq!(
        (res.ending, res.outcome, res.ply),
        (Ending::Foul, Outcome::Win(Color::Black), 10)
    );
    // without the summary the ending word says the same: 先手, to move after the foul, wins
    let t2 = cut_nifu("  10 ５五角打\n  11 反則勝ち\n");
    assert_eq!(
        read_kif(&t2).unwrap().result.unwrap().outcome,
        Outcome::Win(Color::Black)
    );
    // the game needing every move refuses it
    let err = r.into_game().unwrap_err();
    assert!(err.0[0].message.contains("ends with move 10"), "{err}");
    // followed by a move, it makes the record unreadable
    let t3 = cut_nifu("  10 ５五角打\n  11 ２八飛(24)\n");
    let err = read_kif(&t3).unwrap_err();
    assert!(err.0[0].message.starts_with("line 16: move 10"), "{err}");
    // on the command line: game reports it, the rules' questions refuse the record
    let p = tmp("foul.kif", t.as_bytes());
    let o = okite(&["game", "--kif", p.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    assert!(
        s.contains(r#""record_illegal_move": {"move": 10, "written": "５五角打", "why": "後手 has no 角 in hand", "line": 16}"#),
        "{s}"
    );
    assert!(
        s.contains(r#""outcome": "black-wins", "ending": "foul""#),
        "{s}"
    );
    let o = okite(&["eval", "i", "--kif", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(out(&o).contains("E0403"), "{}", out(&o));
}

/// A CSA record of two moves, then `ending` (先手 to move).
fn csa_ending(ending: &str) -> Result<Record, String> {
    read_csa(&format!("V2.2\nPI\n+\n+7776FU\n-3334FU\n{ending}\n")).map_err(|e| e.to_string())
}

#[test]
fn every_csa_ending_is_read() {
    // CSA standard record format V3.0 (and V2.2 for %HIKIWAKE): "%TIME_UP 手番側が時間切れで負け",
    // "%ILLEGAL_MOVE 手番側の反則負け", "%+ILLEGAL_ACTION 先手(下手)の反則行為により、後手(上手)の
    // 勝ち", "%KACHI (入玉で)勝ちの宣言", ...; 先手 is to move here
    let b = Outcome::Win(Color::Black);
    let w = Outcome::Win(Color::White);
    for (word, ending, outcome) in [
        ("%TORYO", Ending::Resignation, w),
        ("%CHUDAN", Ending::Interrupted, Outcome::None),
        ("%SENNICHITE", Ending::Repetition, Outcome::Replay),
        ("%TIME_UP", Ending::TimeUp, w),
        ("%ILLEGAL_MOVE", Ending::Foul, w),
        ("%+ILLEGAL_ACTION", Ending::IllegalAction, w),
        ("%-ILLEGAL_ACTION", Ending::IllegalAction, b),
        ("%JISHOGI", Ending::Impasse, Outcome::Replay),
        ("%KACHI", Ending::Declaration, b),
        ("%HIKIWAKE", Ending::DrawDeclaration, Outcome::Draw),
        ("%MAX_MOVES", Ending::MaxMoves, Outcome::Draw),
        ("%TSUMI", Ending::Checkmate, w),
        ("%FUZUMI", Ending::NoMate, Outcome::None),
        ("%ERROR", Ending::Error, Outcome::None),
    ] {
        let r = csa_ending(word).unwrap();
        assert_eq!(
            stated(&r.result.unwrap()),
            (ending, outcome, 2, 6, word),
            "{word}"
        );
    }
    // with 後手 to move the side-to-move endings turn round
    let r = read_csa("PI\n+\n+7776FU\n%TORYO\n").unwrap();
    assert_eq!(r.result.unwrap().outcome, b);
    // a word that is no ending of the format
    assert!(csa_ending("%MATTA").unwrap_err().contains("not an ending"));
    // nothing after the ending is read
    let r = csa_ending("%TORYO\n+2726FU").unwrap();
    assert_eq!(r.game.moves.len(), 2);
}

#[test]
fn every_kif_ending_word_is_read() {
    // Kakinoki's KIF format: the ending is written as the move of the side to move (先手 here)
    let b = Outcome::Win(Color::Black);
    let w = Outcome::Win(Color::White);
    for (word, ending, outcome) in [
        ("投了", Ending::Resignation, w),
        ("中断", Ending::Interrupted, Outcome::None),
        ("千日手", Ending::Repetition, Outcome::Replay),
        ("詰み", Ending::Checkmate, w),
        ("持将棋", Ending::Impasse, Outcome::Replay),
        ("切れ負け", Ending::TimeUp, w),
        ("反則勝ち", Ending::Foul, b),
        ("反則負け", Ending::Foul, w),
        ("入玉勝ち", Ending::Declaration, b),
        ("不戦勝", Ending::Default, b),
        ("不戦敗", Ending::Default, w),
        ("不詰", Ending::NoMate, Outcome::None),
    ] {
        let t = format!(
            "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 {word}   ( 0:01/00:00:01)\n"
        );
        let res = read_kif(&t).unwrap().result.unwrap();
        assert_eq!(
            (res.ending, res.outcome, res.ply, res.line),
            (ending, outcome, 2, 4),
            "{word}"
        );
    }
    // the summary line alone, in KI2
    let r = read_kif("手合割：平手\n▲７六歩　△３四歩\nまで2手で後手の勝ち\n").unwrap();
    let res = r.result.unwrap();
    assert_eq!((res.ending, res.outcome, res.ply), (Ending::Stated, w, 2));
    // a record that states nothing
    assert!(read_kif("手合割：平手\n   1 ７六歩(77)\n")
        .unwrap()
        .result
        .is_none());
}

#[test]
fn empty_and_cut_records_are_refused() {
    for t in ["", "\n\n", "\u{feff}  \n"] {
        let e = read_kif(t).unwrap_err();
        assert!(e.0[0].message.contains("empty"), "{e}");
        let e = read_csa(t).unwrap_err();
        assert!(e.0[0].message.contains("empty"), "{e}");
    }
    let e = read_kif("これは棋譜ではない\n").unwrap_err();
    assert!(e.0[0].message.contains("no KIF"), "{e}");
    let e = read_csa("V2.2\nN+A\nN-B\n").unwrap_err();
    assert!(e.0[0].message.contains("no start position"), "{e}");
    // a board cut after four rows
    let rows = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI *  *  *  *  * -KA * \nP3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \n";
    let e = read_csa(rows).unwrap_err();
    assert!(e.0[0].message.contains("P5, P6, P7, P8, P9"), "{e}");
    // a row cut short
    let e = read_csa("P1-KY-KE-GI\n").unwrap_err();
    assert!(e.0[0].message.contains("cut short"), "{e}");
    // a move cut short
    let e = read_csa("PI\n+\n+7776FU\n-33\n").unwrap_err();
    assert!(e.0[0].message.starts_with("line 4:"), "{e}");
    // a move cut to its sign, a time line cut to its letter
    let e = read_csa("PI\n+\n+7776FU\n-\n").unwrap_err();
    assert!(e.0[0].message.starts_with("line 4:"), "{e}");
    let e = read_csa("PI\n+\n+7776FU\nT\n").unwrap_err();
    assert!(e.0[0].message.starts_with("line 4:"), "{e}");
    assert!(read_csa("PI\n+\n+7776FU\nT12\n-3334FU,T3.25\n").is_ok());
    // and on the command line
    let p = tmp("empty.kif", b"");
    let o = okite(&["game", "--kif", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(out(&o).contains("the KIF record is empty"), "{}", out(&o));
    let p = tmp("binary.csa", b"\x81\x20\xff\xfe\x00");
    let o = okite(&["game", "--csa", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(out(&o).contains("not text"), "{}", out(&o));
}

/// Every prefix of a valid CSA record is refused, or ends at a whole statement: a whole line of
/// the record, or a time line cut inside its seconds (`T12` cut to `T1` is a time line still).
#[test]
fn csa_records_cut_anywhere_are_refused_or_whole() {
    let text = "V2.2\nN+sente\nN-gote\n$EVENT:test\nPI\n+\n+7776FU\nT12\n-3334FU\nT3\n+8822UM\n-3122GI\n+0045KA\n%TORYO\n";
    let whole: Vec<&str> = text.lines().collect();
    let mut loaded = 0;
    for cut in 0..text.len() {
        let prefix = &text[..cut];
        if read_csa(prefix).is_err() {
            continue;
        }
        loaded += 1;
        let last = prefix.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
        let time = last.len() > 1 && last.starts_with('T');
        assert!(
            whole.contains(&last) || time,
            "the prefix of {cut} bytes loads, cut inside `{last}`"
        );
    }
    // the prefixes ending in the moves, each with its line end or without
    assert!(loaded >= 10, "{loaded}");
}

/// A CSA comment, name or information line is one statement to its end, commas included; other
/// lines may still hold several statements separated by commas.
#[test]
fn csa_comments_and_names_keep_their_commas() {
    let r = read_csa(
        "V2.2\nN+Sato, Amahiko\nN-Toyoshima, Masayuki\n$EVENT:a cup, round 1\nPI\n+\n'a comment, with a comma\n+7776FU,T3\n'another, one\n-3334FU,T5\n%TORYO\n",
    )
    .map_err(|e| e.to_string())
    .unwrap();
    assert_eq!(r.game.moves.len(), 2);
    assert!(r.result.is_some());
    // a statement that is neither is still refused with its line
    let e = read_csa("V2.2\nPI\n+\n+7776FU,X\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("line 4"), "{e}");
}

/// Every line end a record may have, `\n`, `\r\n` or a lone `\r` (older Macintosh files), reads
/// the same game, in KIF, KI2 and CSA; headers such as `開始日時` do not swallow the rest.
#[test]
fn records_read_the_same_with_any_line_end() {
    for (name, csa) in [
        ("uchifuzume.kif", false),
        ("nifu.kif", false),
        ("ambiguous.ki2", false),
        ("resign.csa", true),
    ] {
        let text = text_of(name).replace("\r\n", "\n");
        let with_date = if csa {
            text.clone()
        } else {
            format!("開始日時：2026/11/29 10:00:00\n{text}")
        };
        let parse = |t: &str| {
            if csa {
                parse_csa(t)
            } else {
                parse_kif(t)
            }
        };
        let want = parse(&with_date).unwrap();
        assert!(!want.moves.is_empty(), "{name}");
        for end in ["\r\n", "\r"] {
            let got = parse(&with_date.replace('\n', end)).unwrap();
            assert_eq!(got.moves, want.moves, "{name} {end:?}");
            assert_eq!(got.positions, want.positions, "{name} {end:?}");
        }
    }
}

/// A line that is none of a record's, beside lines that are, is refused with its number, not
/// skipped (a header and one such line read as a game of no moves).
#[test]
fn a_stray_line_in_a_record_is_refused() {
    for (t, line) in [
        ("手合割：平手\nこれはごみ\n", 2),
        ("手合割：平手\r1 ７六歩(77)\rgarbage\r", 3),
        ("これはごみ\n手合割：平手\n   1 ７六歩(77)\n", 1),
        ("▲７六歩　△３四歩\nno move here\n", 2),
    ] {
        let e = read_kif(t).unwrap_err();
        assert!(
            e.0[0].message.contains(&format!("line {line}: not a line")),
            "{t:?}: {e}"
        );
    }
    // the frame of a board diagram and the moves' heading are a record's lines
    let t = "手合割：平手\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    assert_eq!(parse_kif(t).unwrap().moves.len(), 1);
}

/// Dialects of real sites: a CSA record with no start position (将棋ウォーズ writes none: the
/// even game), 将棋倶楽部24's result on a line of its own (`先手 反則負け`), a 封じ手 that adjourns
/// the game (the record's end when nothing follows, a mark when the game goes on), and EUC-JP
/// text.
#[test]
fn dialects_of_real_sites_are_read() {
    // CSA without PI or P1-P9, with and without the side line
    for t in [
        "V2.2\nN+a\nN-b\n+\n+7776FU\n-3334FU\n%TORYO\n",
        "V2.2\nN+a\nN-b\n+7776FU,T3\n-3334FU,T2\n%TORYO\n",
        "+7776FU\n-3334FU\n%TORYO\n",
    ] {
        let r = read_csa(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(usi(&r), ["7g7f", "3c3d"], "{t}");
        assert_eq!(
            r.game.start().to_sfen(),
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        );
        let res = r.result.unwrap();
        assert_eq!(
            (res.ending, res.outcome),
            (Ending::Resignation, Outcome::Win(Color::White))
        );
    }
    // a move of 後手 first with no start position is still the side not to move
    assert!(read_csa("-3334FU\n").is_err());
    // 将棋倶楽部24: `先手 反則負け` after the moves, and the other sides and words
    let moves = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:01/00:00:01)\n   2 ３四歩(33)   ( 0:01/00:00:01)\n";
    for (line, ending, outcome) in [
        ("先手 反則負け", Ending::Foul, Outcome::Win(Color::White)),
        ("後手 反則負け", Ending::Foul, Outcome::Win(Color::Black)),
        ("後手の勝ち", Ending::Stated, Outcome::Win(Color::White)),
        ("先手　切れ負け", Ending::TimeUp, Outcome::Win(Color::White)),
    ] {
        let r = read_kif(&format!("{moves}{line}\n")).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(
            stated(&r.result.unwrap()),
            (ending, outcome, 2, 5, line),
            "{line}"
        );
    }
    // a line that names a side and says more is still no line of a record
    assert!(read_kif(&format!("{moves}先手 反則負けです\n")).is_err());
    // 封じ手 with nothing after it: the game is adjourned, no result
    let r = read_kif(&format!("{moves}   3 封じ手\n")).unwrap();
    assert_eq!(r.game.moves.len(), 2);
    let res = r.result.unwrap();
    assert_eq!(
        (res.ending, res.outcome, res.ply),
        (Ending::Sealed, Outcome::None, 2)
    );
    // 封じ手 and the sealed move played on: a mark, and the game goes on to its end
    let r = read_kif(&format!(
        "{moves}   3 封じ手\n   3 ２六歩(27)   ( 0:01/00:00:01)\n   4 投了\n"
    ))
    .unwrap();
    assert_eq!(usi(&r), ["7g7f", "3c3d", "2g2f"]);
    let res = r.result.unwrap();
    assert_eq!(
        (res.ending, res.outcome, res.ply),
        (Ending::Resignation, Outcome::Win(Color::Black), 3)
    );
    // EUC-JP text through the command
    let text = format!("{moves}   3 投了\n");
    let (euc, _, _) = encoding_rs::EUC_JP.encode(&text);
    let p = tmp("euc.kif", &euc);
    let o = okite(&["game", "--kif", p.to_str().unwrap(), "--rulesets", "jsa"]);
    assert!(o.status.success(), "{}", out(&o));
    assert!(out(&o).contains("resignation after 2 moves"), "{}", out(&o));
    let (t, e) = decode_record(&euc).unwrap();
    assert_eq!(e, TextEncoding::EucJp);
    assert!(t.starts_with("手合割：平手"));
}

/// `game --records PATH`: every record of a folder (in the order of their names) or of a list
/// (relative paths from the list's folder) judged, a report each in that order: under `--json`
/// one object a line, the record's `okite game --kif/--csa --json` with its "record" first, the
/// same with one job and with several, under the readings and under rule sets; a record that
/// cannot be read is an error object in its place, and the batch goes on (exit 2).
#[test]
fn many_records_are_judged_in_order() {
    let names = ["ambiguous.ki2", "nifu.kif", "resign.csa", "uchifuzume.kif"];
    for extra in [vec![], vec!["--rulesets", "jsa,csa"]] {
        let run = |jobs: &str| {
            let mut args = vec![
                "game",
                "--records",
                "tests/data/records",
                "--json",
                "--jobs",
                jobs,
            ];
            args.extend(&extra);
            okite(&args)
        };
        let one = run("1");
        let lines: Vec<String> = String::from_utf8_lossy(&one.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        assert_eq!(lines.len(), names.len(), "{}", out(&one));
        let mut failed = false;
        for (line, name) in lines.iter().zip(names) {
            let path = format!("tests/data/records/{name}");
            let flag = if name.ends_with(".csa") {
                "--csa"
            } else {
                "--kif"
            };
            let mut args = vec!["game", flag, path.as_str(), "--json"];
            args.extend(&extra);
            let alone = okite(&args);
            let head = format!("{{\"record\": \"{path}\", ");
            if alone.status.code() == Some(0) {
                let text = String::from_utf8_lossy(&alone.stdout);
                assert_eq!(line, &format!("{head}{}", &text.trim_end()[1..]), "{name}");
            } else {
                failed = true;
                assert!(
                    line.starts_with(&format!("{head}\"result\": \"error\"")),
                    "{line}"
                );
            }
        }
        assert_eq!(
            one.status.code(),
            Some(if failed { 2 } else { 0 }),
            "{}",
            out(&one)
        );
        for jobs in ["2", "4"] {
            assert_eq!(run(jobs).stdout, one.stdout, "--jobs {jobs} {extra:?}");
        }
    }
    let plain = okite(&[
        "game",
        "--records",
        "tests/data/records",
        "--readings",
        "narrow",
    ]);
    let text = String::from_utf8_lossy(&plain.stdout);
    assert!(text.contains("== tests/data/records/nifu.kif\n"), "{text}");
    // a list, with a record that is not there
    let dir = std::env::temp_dir().join(format!("okite-record-batches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let here = std::env::current_dir().unwrap().join("tests/data/records");
    let list = dir.join("list.txt");
    std::fs::write(
        &list,
        format!(
            "# two records and one missing\n{}\nmissing.kif\n{}\n",
            here.join("resign.csa").display(),
            here.join("nifu.kif").display()
        ),
    )
    .unwrap();
    let o = okite(&[
        "game",
        "--records",
        list.to_str().unwrap(),
        "--json",
        "--jobs",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    let lines: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[0].contains("\"moves\": [") && lines[2].contains("\"moves\": ["),
        "{lines:?}"
    );
    assert!(
        lines[1].contains("missing.kif\", \"result\": \"error\""),
        "{}",
        lines[1]
    );
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = okite(&["game", "--records", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(out(&o).contains("holds no records"), "{}", out(&o));
    let _ = std::fs::remove_dir_all(&dir);
}
