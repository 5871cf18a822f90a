#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! Faithful to the letter: where a rule file departs from a seed's text, a reading gives the
//! text, and the commands show both; the seeds' win conditions and the conditions under which
//! they define a value hold natively as by the rules.

use crate::common;
use common::okite;
use std::process::Output;

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// Seed 001 (5): "t側の連続王手" names the checked side where rules/shogi_mate.rule names the
/// checking one; `okite compare` shows the verdicts flip at indices 13 and 14.
#[test]
fn perpetual_check_as_written_flips_the_verdicts() {
    let r = "1e2e 2a1a 2e1e 1a2a";
    let moves = format!("{r} {r} {r} 1e2e");
    let o = okite(&[
        "compare",
        "--readings",
        "broad,literal-perpetual",
        "--sfen",
        "7k1/9/9/9/8R/9/9/9/4K4 b - 1",
        "--moves",
        &moves,
        "(forbidden(g, 13), forbidden(g, 14))",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    let rows: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(
        rows[1].split_whitespace().collect::<Vec<_>>(),
        ["broad", "(false,", "true)"]
    );
    assert_eq!(
        rows[2].split_whitespace().collect::<Vec<_>>(),
        ["literal-perpetual", "(true,", "false)"]
    );
}

/// Seed 004: a 𝓟 point is left as it stands and counts for the owner of its stone. On path:3
/// after these moves (the board `O . .`) every option of either player leads to 𝓟 everywhere;
/// the white stone on 1 is White's under the default table, and 𝓝 under the first
/// reconstruction (`p-to-chooser`), natively and by the rules alike.
#[test]
fn a_p_stone_counts_for_its_owner() {
    let moves = "B 2, B 1, W 3, B 1, W 2, B 1, B 3, W 2, W 1, B 3, B 2, W 1";
    for (reading, want) in [
        ("base", r#"["W", "P", "N"]"#),
        ("p-to-chooser", r#"["N", "N", "N"]"#),
    ] {
        for engine in ["native", "rules"] {
            let o = okite(&[
                "go",
                "classes",
                "--graph",
                "path:3",
                "--moves",
                moves,
                "--reading",
                reading,
                "--engine",
                engine,
                "--json",
            ]);
            assert_eq!(o.status.code(), Some(0), "{}", err(&o));
            assert!(
                out(&o).starts_with(&format!("{{\"classes\": {want}")),
                "{reading} {engine}: {}",
                out(&o)
            );
        }
    }
    // the default reading runs natively; the old table runs natively too
    for reading in ["base", "p-to-chooser"] {
        let o = okite(&[
            "go",
            "classes",
            "--graph",
            "path:3",
            "--moves",
            moves,
            "--reading",
            reading,
            "--json",
        ]);
        assert!(
            out(&o).contains("\"native\": true"),
            "{reading}: {}",
            out(&o)
        );
    }
}

/// A sequence that is not ultimate and has no options: 𝓟 everywhere by the convention, or
/// refused under `stuck-is-error`, with the reason.
#[test]
fn a_sequence_without_options() {
    let moves = "B 2, B 1, W 3, W 1";
    for engine in ["native", "rules"] {
        let o = okite(&[
            "go", "classes", "--graph", "path:3", "--moves", moves, "--engine", engine, "--json",
        ]);
        assert!(
            out(&o).starts_with(r#"{"classes": ["P", "P", "P"]"#),
            "{engine}: {}",
            out(&o)
        );
    }
    let o = okite(&[
        "go",
        "classes",
        "--graph",
        "path:3",
        "--moves",
        moves,
        "--reading",
        "stuck-is-error",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(out(&o).is_empty(), "{}", out(&o));
    assert!(err(&o).contains("has no options"), "{}", err(&o));
    assert!(err(&o).contains("`stuck_class` changed"), "{}", err(&o));
}

/// Seeds 002 and 004: White wins when the score is at least h, the komi as the seeds write it
/// (the negative of the komi given to White). The winners come from the rule definitions and
/// agree with the native ones (--verify compares every bound call with its definition).
#[test]
fn who_wins_by_the_rules_and_natively() {
    // path:2 after B 1: pure score -1, Chinese score -2 (Black's stone and its eye)
    for (komi, pure, chinese) in [
        ("0", "Black", "Black"),
        ("1", "White", "Black"),
        ("2", "White", "White"),
        ("-0.5", "Black", "Black"),
    ] {
        let mut answers = vec![];
        for engine in ["native", "rules", "verify"] {
            let o = okite(&[
                "go", "score", "--graph", "path:2", "--moves", "B 1", "--komi", komi, "--engine",
                engine, "--json",
            ]);
            assert_eq!(o.status.code(), Some(0), "{engine}: {}", err(&o));
            answers.push(out(&o));
        }
        assert_eq!(answers[0], answers[1]);
        assert_eq!(answers[0], answers[2]);
        assert!(answers[0].starts_with(r#"{"pure": -1, "chinese": -2, "terminable": true"#));
        assert!(
            answers[0].contains(&format!(
                r#""winner": {{"pure": "{pure}", "chinese": "{chinese}"}}"#
            )),
            "komi {komi}: {}",
            answers[0]
        );
    }
}

/// The Chinese score is defined for Chinese-terminable sequences only: `go score` says so (exit
/// status 1 when it was the score asked for), and the rule definition refuses, as the native
/// one does.
#[test]
fn no_chinese_score_where_the_seed_defines_none() {
    let o = okite(&["go", "score", "--graph", "path:2"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    let text = out(&o);
    assert!(text.contains("Chinese score: not defined"), "{text}");
    assert_eq!(text.lines().last(), Some("undefined"));
    let o = okite(&["go", "score", "--graph", "path:2", "--reading", "pure"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(out(&o).lines().last(), Some("0"));
    for engine in ["native", "rules"] {
        let o = okite(&[
            "eval",
            "--engine",
            engine,
            "chinese_winner(path(2), from_empty(path(2)), 0)",
        ]);
        assert_eq!(o.status.code(), Some(2), "{engine}: {}", out(&o));
        assert!(
            err(&o).contains("Chinese-terminable"),
            "{engine}: {}",
            err(&o)
        );
    }
}

/// Graphs and sequences the seeds do not define classes for are refused by the rules as by the
/// native engine: a cycle of fewer than three vertices, a graph with a loop or in two parts, a
/// sequence whose boards are not one move apart or repeat.
#[test]
fn graphs_and_sequences_outside_the_seeds_are_refused_alike() {
    for (expr, why) in [
        ("cycle(1)", "at least 3 vertices"),
        ("cycle(2)", "at least 3 vertices"),
        (
            "classes({1: {1, 2}, 2: {1}}, [{1: 0, 2: 0}])",
            "own neighbour",
        ),
        ("classes({1: {2}, 2: {}}, [{1: 0, 2: 0}])", "neighbour"),
        ("classes({1: {}, 2: {}}, [{1: 0, 2: 0}])", "connected"),
        (
            "classes(path(3), [empty_board(path(3)), {1: -1, 2: 0, 3: -1}])",
            "one move after",
        ),
        (
            // a capture and a recapture back to the board of two plies before
            "classes(path(2), [empty_board(path(2)), {1: -1, 2: 0}, {1: 0, 2: 1}, {1: -1, 2: 0}])",
            "repeat",
        ),
    ] {
        for engine in ["native", "rules"] {
            let o = okite(&["eval", "--engine", engine, expr]);
            assert_eq!(o.status.code(), Some(2), "{expr} {engine}: {}", out(&o));
            assert!(out(&o).is_empty(), "{expr} {engine}: {}", out(&o));
            assert!(err(&o).contains(why), "{expr} {engine}: {}", err(&o));
        }
    }
}
