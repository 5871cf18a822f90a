#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! `okite game --rulesets`: games judged by the rule sets of rules/shogi_rulesets.rule (jsa,
//! amateur, csa, try-rule) and by the seeds' readings, each result checked per rule set; and the
//! verdicts by the rules alone against the verdicts with the native bindings.

use crate::common;
use common::json_ok;
use okite::shogi::position::Position;
use okite::shogi::types::{Color, PieceKind, Square};
use std::collections::HashMap;

/// (ruleset, result, ply, reason) of each row of `--json`.
fn results(args: &[&str]) -> Vec<(String, String, u64, String)> {
    let mut a = vec!["game", "--json"];
    a.extend(args);
    let v = json_ok(&a);
    v["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["ruleset"].as_str().unwrap().to_string(),
                r["result"].as_str().unwrap().to_string(),
                r["ply"].as_u64().unwrap(),
                r["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn usi(sfen: &str, moves: &str, sets: &str) -> Vec<(String, String, u64, String)> {
    results(&["--rulesets", sets, "--sfen", sfen, "--usi", moves])
}

fn expect(rows: &[(String, String, u64, String)], want: &[(&str, &str, u64)]) {
    let got: Vec<(&str, &str, u64)> = rows
        .iter()
        .map(|(n, r, p, _)| (n.as_str(), r.as_str(), *p))
        .collect();
    assert_eq!(got, want, "{rows:?}");
}

const ALL: &str = "jsa,amateur,csa,try-rule,narrow,broad";

#[test]
fn fourfold_repetition_without_check() {
    let rows = usi(
        "startpos",
        "5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a",
        ALL,
    );
    expect(
        &rows,
        &[
            ("jsa", "replay", 12),
            ("amateur", "replay", 12),
            ("csa", "draw", 12),
            ("try-rule", "replay", 12),
            ("narrow", "replay", 12),
            ("broad", "replay", 12),
        ],
    );
    // one move short: no result yet
    let rows = usi(
        "startpos",
        "5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i",
        "jsa,csa",
    );
    expect(&rows, &[("jsa", "none", 11), ("csa", "none", 11)]);
}

#[test]
fn perpetual_check_completed_by_the_checking_side() {
    // 先手's rook checks; its twelfth move completes the repetition
    let rows = usi(
        "8k/9/9/9/8R/9/9/9/4K4 w - 1",
        "1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e",
        ALL,
    );
    expect(
        &rows,
        &[
            ("jsa", "gote", 12),
            ("amateur", "gote", 12),
            ("csa", "gote", 12),
            ("try-rule", "gote", 12),
            ("narrow", "replay", 12),
            ("broad", "gote", 12),
        ],
    );
    assert!(rows[0].3.contains("perpetual check"), "{rows:?}");
}

#[test]
fn perpetual_check_completed_by_the_checked_side() {
    // 後手's king move completes it: the checking side loses under the rule sets all the same;
    // the broad reading forbids only the checking side's completing move
    let rows = usi(
        "7k1/9/9/9/8R/9/9/9/4K4 b - 1",
        "1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a",
        ALL,
    );
    expect(
        &rows,
        &[
            ("jsa", "gote", 12),
            ("amateur", "gote", 12),
            ("csa", "gote", 12),
            ("try-rule", "gote", 12),
            ("narrow", "replay", 12),
            ("broad", "replay", 12),
        ],
    );
}

#[test]
fn two_pawns_and_pawn_drop_mate_lose_at_once() {
    let rows = usi("4k4/9/9/9/9/4P4/9/9/4K4 b P 1", "P*5e", "jsa,amateur,csa");
    expect(
        &rows,
        &[
            ("jsa", "gote", 1),
            ("amateur", "gote", 1),
            ("csa", "gote", 1),
        ],
    );
    assert!(rows[0].3.contains("二歩"), "{rows:?}");
    let rows = usi("7nk/9/6B1L/9/9/9/9/9/4K4 b P 1", "P*1b", "jsa,csa,narrow");
    expect(
        &rows,
        &[
            ("jsa", "gote", 1),
            ("csa", "gote", 1),
            ("narrow", "gote", 1),
        ],
    );
    assert!(rows[0].3.contains("打ち歩詰め"), "{rows:?}");
    // a pushed pawn mates: 先手 wins
    let rows = usi("7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1", "1c1b+", "jsa");
    expect(&rows, &[("jsa", "sente", 1)]);
}

fn csa_name(k: PieceKind) -> &'static str {
    use PieceKind::*;
    match k {
        Pawn => "FU",
        Lance => "KY",
        Knight => "KE",
        Silver => "GI",
        Gold => "KI",
        Bishop => "KA",
        Rook => "HI",
        King => "OU",
        ProPawn => "TO",
        ProLance => "NY",
        ProKnight => "NK",
        ProSilver => "NG",
        Horse => "UM",
        Dragon => "RY",
    }
}

/// A CSA record of a position with no moves, ending with `end` (`%KACHI`, `%JISHOGI`).
fn csa_record(sfen: &str, end: &str) -> std::path::PathBuf {
    let p = Position::from_sfen(sfen).unwrap();
    let mut t = String::from("V2.2\nN+sente\nN-gote\n");
    for row in 1..=9u8 {
        t.push_str(&format!("P{row}"));
        for col in (1..=9u8).rev() {
            match p.piece_at(Square::new(col, row).unwrap()) {
                None => t.push_str(" * "),
                Some(pc) => t.push_str(&format!(
                    "{}{}",
                    if pc.color == Color::Black { '+' } else { '-' },
                    csa_name(pc.kind)
                )),
            }
        }
        t.push('\n');
    }
    for (c, sign) in [(Color::Black, '+'), (Color::White, '-')] {
        for (k, n) in p.hand(c).iter() {
            for _ in 0..n {
                t.push_str(&format!("P{sign}00{}\n", csa_name(k)));
            }
        }
    }
    t.push_str(if p.side_to_move() == Color::Black {
        "+\n"
    } else {
        "-\n"
    });
    t.push_str(end);
    t.push('\n');
    let name = format!(
        "okite-rulesets-{}-{:x}.csa",
        std::process::id(),
        t.bytes()
            .fold(0u64, |h, b| h.wrapping_mul(31).wrapping_add(b as u64))
    );
    let path = std::env::temp_dir().join(name);
    std::fs::write(&path, t).unwrap();
    path
}

fn by_record(sfen: &str, end: &str, sets: &str) -> Vec<(String, String, u64, String)> {
    let path = csa_record(sfen, end);
    let rows = results(&["--rulesets", sets, "--csa", path.to_str().unwrap()]);
    let _ = std::fs::remove_file(path);
    rows
}

/// 先手's king on 5b with ten pieces in the camp (18 points there) and `hand`.
fn camp(hand: &str) -> String {
    format!("9/RB2K4/+P+P+P+P+P+P+P+P1/9/9/9/9/9/4k4 b {hand} 1")
}

#[test]
fn declarations_at_23_24_27_28_and_31_points() {
    let sets = "jsa,amateur,csa";
    // 23 points: the declarer loses everywhere
    expect(
        &by_record(&camp("R"), "%KACHI", sets),
        &[
            ("jsa", "gote", 0),
            ("amateur", "gote", 0),
            ("csa", "gote", 0),
        ],
    );
    // 24 points: 持将棋 for jsa, a loss for the 28-point rules
    expect(
        &by_record(&camp("RP"), "%KACHI", sets),
        &[
            ("jsa", "replay", 0),
            ("amateur", "gote", 0),
            ("csa", "gote", 0),
        ],
    );
    // 27 points: 先手 needs 28
    expect(
        &by_record(&camp("R4P"), "%KACHI", sets),
        &[
            ("jsa", "replay", 0),
            ("amateur", "gote", 0),
            ("csa", "gote", 0),
        ],
    );
    // 28 points
    expect(
        &by_record(&camp("RB"), "%KACHI", sets),
        &[
            ("jsa", "replay", 0),
            ("amateur", "sente", 0),
            ("csa", "sente", 0),
        ],
    );
    // 31 points
    expect(
        &by_record(&camp("RB3P"), "%KACHI", sets),
        &[
            ("jsa", "sente", 0),
            ("amateur", "sente", 0),
            ("csa", "sente", 0),
        ],
    );
    // 後手 declares with 27 points and wins under the 27-point rules
    expect(
        &by_record(
            "4K4/9/9/9/9/9/1+p+p+p+p+p+p+p+p/4k2br/9 w r4p 1",
            "%KACHI",
            sets,
        ),
        &[
            ("jsa", "replay", 0),
            ("amateur", "gote", 0),
            ("csa", "gote", 0),
        ],
    );
    // nine pieces in the camp: the declarer loses
    expect(
        &by_record(
            "9/RB2K4/+P+P+P+P+P+P+P2/9/9/9/9/9/4k4 b RB2P 1",
            "%KACHI",
            sets,
        ),
        &[
            ("jsa", "gote", 0),
            ("amateur", "gote", 0),
            ("csa", "gote", 0),
        ],
    );
}

#[test]
fn the_impasse_count_24_against_27() {
    let sets = "jsa,amateur";
    let count = |s: u32, hand: &str| -> Vec<(String, String, u64, String)> {
        let _ = s;
        by_record(
            &format!("4k4/9/9/9/9/9/9/9/4K4 b {hand} 1"),
            "%JISHOGI",
            sets,
        )
    };
    // 先手 23, 後手 31
    expect(
        &count(23, "RB4G4S5Prb4n4l13p"),
        &[("jsa", "gote", 0), ("amateur", "gote", 0)],
    );
    // 先手 24, 後手 30
    expect(
        &count(24, "RB4G4S6Prb4n4l12p"),
        &[("jsa", "replay", 0), ("amateur", "gote", 0)],
    );
    // 27 each: 後手 wins the tie
    expect(
        &count(27, "RB4G4S9Prb4n4l9p"),
        &[("jsa", "replay", 0), ("amateur", "gote", 0)],
    );
    // 先手 28, 後手 26
    expect(
        &count(28, "RB4G4S10Prb4n4l8p"),
        &[("jsa", "replay", 0), ("amateur", "sente", 0)],
    );
}

/// A walk of the two kings alone that brings no position about a fourth time, `plies` moves long.
fn kings_walk(plies: usize) -> String {
    let start = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
    kings_walk_where(&start, plies, |_, _, _| true).1.join(" ")
}

#[test]
fn the_move_limit() {
    let sfen = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    let rows = usi(sfen, &kings_walk(330), "csa,jsa,amateur");
    expect(
        &rows,
        &[
            ("csa", "draw", 320),
            ("jsa", "none", 330),
            ("amateur", "none", 330),
        ],
    );
    assert_eq!(rows[0].3, "move limit");
    let rows = usi(sfen, &kings_walk(319), "csa");
    expect(&rows, &[("csa", "none", 319)]);
}

#[test]
fn the_try_rule() {
    // 先手's king walks to 5a
    let rows = usi(
        "9/9/4K4/9/9/9/9/9/k8 b - 1",
        "5c5b 9i9h 5b5a",
        "try-rule,jsa",
    );
    expect(&rows, &[("try-rule", "sente", 3), ("jsa", "none", 3)]);
}

/// The verdicts of short games by the rules alone (every definition evaluated as written)
/// against those with the native bindings (succ, in_check, targets, the point counts).
#[test]
fn verdicts_by_the_rules_agree_with_the_native_bindings() {
    use okite::check::load::load;
    use okite::eval::Evaluator;
    use okite::natives::{Engine, Natives};
    use okite::syntax::parse_expr;
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    let mut prog = load(&[dir], &Natives::standard())
        .program
        .unwrap_or_else(|_| panic!("rules/ does not check"));
    let games = [
        (
            "startpos",
            "5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a 5i5h 5a5b 5h5i 5b5a",
            "",
        ),
        (
            "8k/9/9/9/8R/9/9/9/4K4 w - 1",
            "1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e",
            "",
        ),
        (
            "7k1/9/9/9/8R/9/9/9/4K4 b - 1",
            "1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a",
            "",
        ),
        ("4k4/9/9/9/9/4P4/9/9/4K4 b P 1", "P*5e", ""),
        ("7nk/9/6B1L/9/9/9/9/9/4K4 b P 1", "P*1b", ""),
        (
            "9/RB2K4/+P+P+P+P+P+P+P+P1/9/9/9/9/9/4k4 b RB 1",
            "",
            "declaration",
        ),
        (
            "9/RB2K4/+P+P+P+P+P+P+P+P1/9/9/9/9/9/4k4 b RP 1",
            "",
            "declaration",
        ),
        ("4k4/9/9/9/9/9/9/9/4K4 b RB4G4S9Prb4n4l9p 1", "", "impasse"),
        ("9/9/4K4/9/9/9/9/9/k8 b - 1", "5c5b 9i9h 5b5a", ""),
    ];
    let mut distinct = std::collections::HashSet::new();
    for set in ["jsa", "amateur", "csa", "try-rule"] {
        for (sfen, moves, end) in games {
            let text = format!("verdict(game({sfen:?}, {moves:?}), {end:?})");
            let mut answers = vec![];
            for engine in [Engine::Rules, Engine::Native] {
                let fid = prog.sources.add("<q>", None, text.clone());
                let e = parse_expr(&text, fid).unwrap();
                let q = prog
                    .compile_query(&e, &[])
                    .unwrap_or_else(|_| panic!("{text}"));
                let r = prog.reading_id(set).unwrap();
                let binder = okite::bindings::Sound::standard();
                let mut ev = Evaluator::new(&prog, &binder);
                ev.engine = engine;
                ev.set_reading(r);
                answers.push(
                    ev.eval_query(&q)
                        .unwrap_or_else(|e| panic!("{}", e.diag.message))
                        .to_string(),
                );
            }
            assert_eq!(answers[0], answers[1], "{set}: {text}");
            distinct.insert(answers[0].clone());
        }
    }
    assert!(distinct.len() >= 8, "{distinct:?}");
}

/// In a 駒落ち game the JSA counts the pieces 上手 took off as 上手's (docs/RULES.md): a 角落ち
/// game stopped for the count at once is 27 to 22 on the board and in hand, 27 to 27 with the
/// bishop taken off, so both have 24 and it is replayed; 八枚落ち, 27 to 11 on the board, is
/// 27 to 27 too. The 27-point rules count 先手's alone (27: 後手 wins).
#[test]
fn a_handicap_games_count_gives_the_pieces_taken_off_to_uwate() {
    for handicap in ["角落ち", "八枚落ち"] {
        let text = format!("手合割：{handicap}\n手数----指手---------消費時間--\n   1 持将棋\n");
        let path = std::env::temp_dir().join(format!(
            "okite-rulesets-{}-{handicap}.kif",
            std::process::id()
        ));
        std::fs::write(&path, text).unwrap();
        let rows = results(&["--rulesets", "jsa,amateur", "--kif", path.to_str().unwrap()]);
        let _ = std::fs::remove_file(&path);
        expect(&rows, &[("jsa", "replay", 0), ("amateur", "gote", 0)]);
        assert_eq!(rows[0].3, "impasse count: both 24 or more", "{handicap}");
    }
}

/// The "Last Judgment" under the professional rules, read both ways (seed 001: the official
/// rules leave it open). Under `jsa` the interposed pawn is a pawn-drop mate: its only answer
/// would complete 先手's own perpetual check. Under `jsa-escape-counts` that answer still
/// escapes, the pawn is legal, and the answer then loses for 先手 as a perpetual check.
#[test]
fn the_last_judgment_read_both_ways() {
    let t = "8k/1b7/9/2g3g2/4+B4/4KP3/3PPL3/9/9 w P 1";
    let r = "1a2a P*2b 2a1a 2b2a+ 1a2a 5e6e 2a1a 6e6f P*5e 6f5e";
    let drop = format!("{r} {r} 1a2a P*2b 2a1a 2b2a+ 1a2a 5e6e 2a1a 6e6f P*5e");
    let sets = "jsa,jsa-escape-counts";
    let rows = usi(t, &drop, sets);
    expect(
        &rows,
        &[("jsa", "sente", 29), ("jsa-escape-counts", "none", 29)],
    );
    assert!(rows[0].3.contains("打ち歩詰め"), "{rows:?}");
    let rows = usi(t, &format!("{drop} 6f5e"), "jsa-escape-counts");
    expect(&rows, &[("jsa-escape-counts", "gote", 30)]);
    assert!(rows[0].3.contains("perpetual check"), "{rows:?}");
}

/// The rule sets judge a move, the seeds' readings a position (seed 001): a start that already
/// has two of 先手's pawns on a file (a composed 九歩 problem) makes every later position
/// forbidden under `narrow`, a foul at 先手's first move; under the rule sets no move made it,
/// and the game goes on. A pawn dropped on the file of another is a foul everywhere.
#[test]
fn two_pawns_on_a_file_is_a_foul_of_the_move_that_makes_it() {
    let sets = "jsa,amateur,csa,narrow";
    let doubled = "4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1";
    expect(
        &usi(doubled, "5i4i 5a4a", sets),
        &[
            ("jsa", "none", 2),
            ("amateur", "none", 2),
            ("csa", "none", 2),
            ("narrow", "gote", 1),
        ],
    );
    let rows = usi("4k4/9/9/9/4P4/9/9/9/4K4 b P 1", "P*5g", sets);
    expect(
        &rows,
        &[
            ("jsa", "gote", 1),
            ("amateur", "gote", 1),
            ("csa", "gote", 1),
            ("narrow", "gote", 1),
        ],
    );
    assert!(rows.iter().all(|r| r.3.contains("二歩")), "{rows:?}");
}

/// The record's result compared with each rule set's. A 千日手 the JSA replays is the game the
/// CSA scores a draw: both agree with the record's `%SENNICHITE`. A result no move shows (a loss
/// on time, a foul the server never recorded, a winner alone) is neither agreement nor
/// disagreement when the rule set finds the game undecided at the end of the moves: the row says
/// why (`not_shown`), and says nothing of agreement.
#[test]
fn results_the_moves_cannot_show() {
    let dir = std::env::temp_dir().join(format!("okite-not-shown-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let run = |name: &str, text: &str| -> serde_json::Value {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        let flag = if name.ends_with(".kif") {
            "--kif"
        } else {
            "--csa"
        };
        json_ok(&[
            "game",
            "--json",
            "--rulesets",
            "jsa,csa",
            flag,
            p.to_str().unwrap(),
        ])
    };
    let fields = |v: &serde_json::Value| -> Vec<(String, Option<bool>, Option<String>)> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["result"].as_str().unwrap().to_string(),
                    r["agrees"].as_bool(),
                    r["not_shown"].as_str().map(str::to_string),
                )
            })
            .collect()
    };
    let shuffle = "+5958OU\n-5152OU\n+5859OU\n-5251OU\n".repeat(3);
    // fourfold repetition: replay (jsa) and draw (csa) both agree with %SENNICHITE
    let v = run(
        "sennichite.csa",
        &format!("V2.2\nPI\n+\n{shuffle}%SENNICHITE\n"),
    );
    assert_eq!(
        fields(&v),
        [
            ("replay".to_string(), Some(true), None),
            ("draw".to_string(), Some(true), None)
        ]
    );
    // a loss on time after two moves: not shown by the moves
    let v = run("time.csa", "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TIME_UP\n");
    for (result, agrees, why) in fields(&v) {
        assert_eq!(result, "none");
        assert_eq!(agrees, None);
        assert!(why.unwrap().contains("on time"));
    }
    // a foul the server never recorded (the last move is legal)
    let v = run("foul.csa", "V2.2\nPI\n+\n+7776FU\n-3334FU\n%ILLEGAL_MOVE\n");
    for (_, agrees, why) in fields(&v) {
        assert_eq!(agrees, None);
        assert!(why.unwrap().contains("foul"));
    }
    // a winner alone (KIF's summary line, no ending move)
    let v = run(
        "winner.kif",
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で先手の勝ち\n",
    );
    for (_, agrees, why) in fields(&v) {
        assert_eq!(agrees, None);
        assert!(why.unwrap().contains("winner"), "{v}");
    }
    // a resignation is compared: the rule sets take it from the record
    let v = run("toryo.csa", "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n");
    for (result, agrees, why) in fields(&v) {
        assert_eq!((result.as_str(), agrees, why), ("gote", Some(true), None));
    }
    // a result the moves decide otherwise is a disagreement: the game ended in 千日手 at the
    // twelfth move, the record says 先手 lost on time after it
    let v = run(
        "late.csa",
        &format!("V2.2\nPI\n+\n{shuffle}+5958OU\n%TIME_UP\n"),
    );
    assert_eq!(
        fields(&v),
        [
            ("replay".to_string(), Some(false), None),
            ("draw".to_string(), Some(false), None)
        ]
    );
    std::fs::remove_dir_all(&dir).ok();
}

/// `plies` king moves from `start`, each to a square (file, rank from 1) that `ok` allows the
/// mover, never a position a fourth time; the last position and the moves.
fn kings_walk_where(
    start: &Position,
    plies: usize,
    ok: impl Fn(Color, u8, u8) -> bool,
) -> (Position, Vec<String>) {
    let mut p = start.clone();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut moves = vec![];
    let key = |p: &Position| {
        let s = p.to_sfen();
        s.rsplit_once(' ').map_or(s.clone(), |(a, _)| a.to_string())
    };
    let mut x: u64 = 11;
    for _ in 0..plies {
        let mover = p.side_to_move();
        let ms: Vec<_> = p
            .legal_moves()
            .iter()
            .copied()
            .filter(|m| {
                let u = m.to_usi();
                let b = u.as_bytes();
                b[1] != b'*'
                    && p.piece_at(Square::new(b[0] - b'0', b[1] - b'a' + 1).unwrap())
                        .is_some_and(|pc| pc.kind == PieceKind::King)
                    && ok(mover, b[2] - b'0', b[3] - b'a' + 1)
            })
            .collect();
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let start = (x >> 33) as usize % ms.len();
        // the move to the position seen least often, the first from a random start
        let m = (0..ms.len())
            .map(|k| ms[(start + k) % ms.len()])
            .min_by_key(|m| seen.get(&key(&p.after(*m))).copied().unwrap_or(0))
            .unwrap();
        p = p.after(m);
        *seen.entry(key(&p)).or_default() += 1;
        moves.push(m.to_usi());
    }
    assert!(
        seen.values().all(|&n| n < 4),
        "the walk repeats a position four times"
    );
    (p, moves)
}

/// The JSA's 500-move rule (対局規定 as revised on 2019-10-01, as the Asahi report of 2019-10-07
/// and Wikipedia's 入玉 article give it): at 500 moves the game is 持将棋 whatever the points, but
/// not when neither king has entered; a position in check after the 500th move plays on while
/// the checks go on, and is 持将棋 when they stop.
#[test]
fn the_jsa_move_limit_asks_for_an_entered_king() {
    let pos = |s: &str| Position::from_sfen(s).unwrap();
    let bare = "4k4/9/9/9/9/9/9/9/4K4 b - 1";
    // neither king enters (先手's stays off ranks 1-3, 後手's off ranks 7-9): no limit
    let (_, ms) = kings_walk_where(&pos(bare), 510, |c, _, r| {
        if c == Color::Black {
            r >= 4
        } else {
            r <= 6
        }
    });
    let rows = usi(bare, &ms.join(" "), "jsa,csa");
    expect(&rows, &[("jsa", "none", 510), ("csa", "draw", 320)]);
    // 先手's king in 後手's camp (ranks 1-3, files 1-4) the whole game, 後手's at home (ranks
    // 1-4, files 6-9): 持将棋 at the 500th move
    let camp = |c: Color, f: u8, r: u8| {
        if c == Color::Black {
            r <= 3 && f <= 4
        } else {
            r <= 4 && f >= 6
        }
    };
    let entered = "k8/9/8K/9/9/9/9/9/9 b - 1";
    let (_, ms) = kings_walk_where(&pos(entered), 510, camp);
    let rows = usi(entered, &ms.join(" "), "jsa");
    expect(&rows, &[("jsa", "replay", 500)]);
    assert_eq!(rows[0].3, "move limit");
    // the same with 後手's rook on 9e, which checks at the 500th move: play goes on while the
    // checks go on; 先手's king steps aside (501), 後手's king moves without a check (502), and
    // the game is 持将棋 there
    let rook = "k8/9/8K/9/r8/9/9/9/9 b - 1";
    let (mut p, mut ms) = kings_walk_where(&pos(rook), 499, camp);
    let file = (1..=4u8)
        .find(|&f| {
            (1..=3u8).any(|r| {
                p.piece_at(Square::new(f, r).unwrap())
                    .is_some_and(|pc| pc.kind == PieceKind::King)
            })
        })
        .unwrap();
    let check = format!("9e{file}e");
    let m = p
        .legal_moves()
        .iter()
        .copied()
        .find(|m| m.to_usi() == check)
        .unwrap();
    p = p.after(m);
    assert!(p.in_check());
    ms.push(check);
    for n in [500, 501] {
        let rows = usi(rook, &ms.join(" "), "jsa");
        expect(&rows, &[("jsa", "none", n)]);
        let (q, next) = kings_walk_where(&p, 1, |_, _, _| true);
        p = q;
        ms.extend(next);
    }
    assert!(!p.in_check());
    let rows = usi(rook, &ms.join(" "), "jsa");
    expect(&rows, &[("jsa", "replay", 502)]);
    assert_eq!(rows[0].3, "move limit");
}
