#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The command line: exit codes and the shape of outputs.

use crate::common;
use common::{json_ok, okite, text, usi_session};
use std::path::PathBuf;
use std::process::Output;

/// The classes of a `go classes --json` run (its other fields, such as the counts of the
/// questions answered, vary with the run).
fn classes_of(o: &Output) -> serde_json::Value {
    let out = String::from_utf8_lossy(&o.stdout);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    v["classes"].clone()
}

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("okite-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn check_rules_folder_is_clean() {
    let o = okite(&["check", "rules/"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("OK:"));
}

#[test]
fn test_rules_folder_passes_with_closing_line() {
    let o = okite(&["test", "rules/"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let last = out.lines().last().unwrap();
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

#[test]
fn test_reports_failures_with_exit_1() {
    let p = tmp(
        "failing.rule",
        b"def f = 1\nexample \"wrong\" { assert f == 2 }\nexample \"right\" { assert f == 1 }\n",
    );
    let o = okite(&["test", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("FAIL  example \"wrong\""), "{out}");
    assert_eq!(out.lines().last().unwrap(), "1 passed, 1 failed");
}

#[test]
fn eval_prints_a_value() {
    let o = okite(&["eval", "--rules", "rules/", "size(boards(path(3)))"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "15");
}

#[test]
fn eval_json() {
    let o = okite(&["eval", "--rules", "rules/", "--json", "path(2)"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        r#"{"value": [[1, [2]], [2, [1]]], "type": "Graph"}"#
    );
}

#[test]
fn compare_readings_side_by_side() {
    let o = okite(&[
        "compare",
        "--rules",
        "rules/",
        "--readings",
        "base,suicide",
        "forbidden_point(path(2), {1: 1, 2: 0}, 2, 1)",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("base     true"), "{out}");
    assert!(out.contains("suicide  false"), "{out}");
    assert!(out.contains("why"), "{out}");
}

#[test]
fn explain_shows_the_witness() {
    let o = okite(&[
        "explain",
        "--rules",
        "rules/",
        "connected({1: {2}, 2: {1}, 3: {}})",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("= false"), "{out}");
    assert!(out.contains("connected("), "{out}");
}

#[test]
fn verify_agrees_on_the_rules() {
    let o = okite(&["test", "rules/", "--verify"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// The rules' `mate_in` (tsume by the definitions of seed 001) and the df-pn search it is bound
/// to agree on the first positions of the published mate-in-one and no-mate-in-one sets, with
/// `--verify` running both.
#[test]
fn mate_in_verified_on_the_oracle_sets() {
    if !common::oracles::present() {
        return;
    }
    for (file, expect) in [("mate-1-ply.sfen", "true"), ("no-mate-1-ply.sfen", "false")] {
        let text_all = std::fs::read_to_string(common::oracles::path(file)).unwrap();
        for sfen in text_all.lines().take(4) {
            let o = okite(&["eval", "--verify", "--sfen", sfen, "mate_in(g, 1, 1)"]);
            assert_eq!(o.status.code(), Some(0), "{sfen}: {}", text(&o));
            assert_eq!(last_line(&o), expect, "{sfen}");
        }
    }
}

#[test]
fn missing_file_is_exit_2() {
    let o = okite(&["check", "no/such/file.rule"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("no such file or folder"), "{}", text(&o));
}

#[test]
fn binary_file_is_exit_2() {
    let p = tmp(
        "binary.rule",
        &[0x7f, b'E', b'L', b'F', 0, 1, 2, 0xff, 0xfe],
    );
    let o = okite(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("not a text file"), "{}", text(&o));
}

#[test]
fn invalid_utf8_is_exit_2() {
    let p = tmp("latin1.rule", b"def caf\xe9 = 1\n");
    let o = okite(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("not valid UTF-8"), "{}", text(&o));
}

#[test]
fn empty_file_is_exit_2() {
    let p = tmp("empty.rule", b"");
    let o = okite(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn nested_parentheses_are_exit_2() {
    let src = format!("def f = {}1{}\n", "(".repeat(200_000), ")".repeat(200_000));
    let p = tmp("nested.rule", src.as_bytes());
    let o = okite(&["check", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("nested more than"),
        "{}",
        &text(&o)[..200.min(text(&o).len())]
    );
}

#[test]
fn bad_query_is_exit_2() {
    let o = okite(&["eval", "--rules", "rules/", "1 +"]);
    assert_eq!(o.status.code(), Some(2));
    let o = okite(&["eval", "--rules", "rules/", "pathh(3)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("did you mean `path`?"), "{}", text(&o));
}

#[test]
fn unknown_reading_is_exit_2() {
    let o = okite(&["eval", "--rules", "rules/", "--reading", "suicid", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("did you mean `suicide`?"), "{}", text(&o));
}

#[test]
fn usage_error_is_exit_2() {
    let o = okite(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    let o = okite(&["eval", "--engine", "fast", "1"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn runaway_query_ends_with_a_budget() {
    let o = okite(&[
        "eval",
        "--rules",
        "rules/",
        "--max-steps",
        "10000",
        "size(configs(grid(3, 3)))",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("budget"), "{}", text(&o));
}

fn last_line(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .last()
        .unwrap_or("")
        .to_string()
}

#[test]
fn perft_start_position_depth_3() {
    // published count (YaneuraOu, Qiita ak11 and others; see ../shared/shogi-oracles/README.md)
    let o = okite(&["perft", "--sfen", "startpos", "--depth", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(last_line(&o), "25470");
}

#[test]
fn legal_excludes_pawn_drop_mate() {
    let o = okite(&["legal", "--sfen", "7nk/9/6B1L/9/9/9/9/9/4K4 b P 1"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(!out.split_whitespace().any(|m| m == "P*1b"), "{out}");
    // 後手 is already in check from the bishop: every pawn drop leaves it mated (a pawn-drop
    // mate), except P*2b, which blocks the bishop's line
    assert!(out.split_whitespace().any(|m| m == "5i4h"), "{out}");
    let drops: Vec<&str> = out
        .split_whitespace()
        .filter(|m| m.starts_with("P*"))
        .collect();
    assert_eq!(drops, ["P*2b"], "{out}");
}

#[test]
fn bad_sfen_and_bad_moves_are_exit_2() {
    let o = okite(&[
        "legal",
        "--sfen",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNX b - 1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("bad SFEN"), "{}", text(&o));
    let o = okite(&["perft", "--depth", "1", "--moves", "7g7f 7f7e"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("bad move `7f7e`"), "{}", text(&o));
    let o = okite(&["show", "--moves", "7g7f zz"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn go_counts_and_values() {
    // Tromp and Farnebäck; OEIS A094777 and A102620
    assert_eq!(
        last_line(&okite(&["go", "count", "--graph", "grid:3x3"])),
        "12675"
    );
    assert_eq!(
        last_line(&okite(&["go", "count", "--graph", "path:5"])),
        "113"
    );
    assert_eq!(
        last_line(&okite(&["go", "count", "--graph", "grid:5x5"])),
        "414295148741"
    );
    assert_eq!(
        last_line(&okite(&["go", "sequences", "--graph", "path:3"])),
        "907"
    );
    assert_eq!(
        last_line(&okite(&["go", "solve", "--graph", "path:3"])),
        "3"
    );
    let o = okite(&["go", "solve", "--graph", "grid:2x2", "--json"]);
    assert!(
        last_line(&o).starts_with("{\"value\": 1, \"pv\": ["),
        "{}",
        text(&o)
    );
}

#[test]
fn bad_graphs_are_exit_2() {
    for spec in ["grid:0x3", "grid:ax3", "torus:3", "edges:/no/such/file"] {
        let o = okite(&["go", "count", "--graph", spec]);
        assert_eq!(o.status.code(), Some(2), "{spec}: {}", text(&o));
    }
}

#[test]
fn perft_by_the_rules_engine_matches_published_counts() {
    // depth 2: start position 900; the pawn-drop-mate and knight-promotion positions of the
    // published perft tables (../shared/shogi-oracles/perft/perft-published.tsv): 639 and 2606
    for (sfen, want) in [
        ("startpos", "900"),
        ("7lk/9/8S/9/9/9/9/7L1/8K b P 1", "639"),
        ("7k1/9/9/9/l2s5/6snb/9/9/8K b 2G 1", "2606"),
    ] {
        let o = okite(&["perft", "--engine", "rules", "--sfen", sfen, "--depth", "2"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        assert_eq!(last_line(&o), want, "{sfen}");
    }
}

#[test]
fn legal_moves_verified_under_each_reading_for_spec_positions() {
    for (sfen, moves) in [
        ("7nk/9/6B1L/9/9/9/9/9/4K4 b P 1", ""),
        ("8k/6G2/9/9/9/9/9/9/4K4 b P 1", ""),
        ("7nk/9/8L/9/9/9/9/9/4K4 b P 1", "P*1b"),
    ] {
        for r in ["narrow", "broad", "narrow-check", "broad-check"] {
            let o = okite(&[
                "legal",
                "--verify",
                "--reading",
                r,
                "--sfen",
                sfen,
                "--moves",
                moves,
            ]);
            assert_eq!(o.status.code(), Some(0), "{sfen} {r}: {}", text(&o));
        }
    }
}

#[test]
fn game_reports_the_perpetual_check_per_reading() {
    let o = okite(&[
        "game",
        "--sfen",
        "8k/9/9/9/8R/9/9/9/4K4 w - 1",
        "--usi",
        "1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("narrow        no forbidden move"), "{out}");
    assert!(
        out.contains("broad         move 12 (2e1e) is forbidden"),
        "{out}"
    );
}

#[test]
fn mate_json_and_batch() {
    if !common::oracles::present() {
        return;
    }
    let o = okite(&[
        "mate",
        "--sfen",
        "7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1",
        "--json",
        "--hash-mb",
        "16",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = last_line(&o);
    assert!(
        out.starts_with(r#"{"result": "mate", "plies": 1, "pv": ["1c1b"#),
        "{out}"
    );
    // the first three problems of the published mate-in-5 set (../shared/shogi-oracles)
    let set5 = common::oracles::path("mate-5-ply.sfen");
    let o = okite(&[
        "mate",
        "--batch",
        set5.to_str().unwrap(),
        "--json",
        "--hash-mb",
        "16",
        "--nodes",
        "2000000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 500);
    assert!(
        lines[..3]
            .iter()
            .all(|l| l.contains(r#""result": "mate", "plies": 5"#)),
        "{out}"
    );
}

/// `--threads 2`: the first problems of the mate-9 set at their shortest, the same lengths as one
/// thread's; 0 and 33 threads refused with the option's code.
#[test]
fn mate_threads() {
    if !common::oracles::present() {
        return;
    }
    let set = std::fs::read_to_string(common::oracles::path("mate-9-ply.sfen")).unwrap();
    for sfen in set.lines().take(6) {
        let run = |t: &str| {
            let v = json_ok(&[
                "mate",
                "--sfen",
                sfen,
                "--json",
                "--hash-mb",
                "16",
                "--threads",
                t,
            ]);
            (
                v["result"].clone(),
                v["plies"].clone(),
                v["shortest"].clone(),
            )
        };
        let two = run("2");
        assert_eq!(two, run("1"), "{sfen}");
        assert_eq!(two.0, "mate", "{sfen}");
        assert_eq!(two.2, true, "{sfen}");
    }
    for bad in ["0", "33"] {
        let o = okite(&["mate", "--sfen", "startpos", "--threads", bad]);
        assert_ne!(o.status.code(), Some(0));
        assert!(text(&o).contains("E0602"), "{}", text(&o));
        assert!(text(&o).contains("--threads"), "{}", text(&o));
    }
}

#[test]
fn usi_engine_answers_go_mate() {
    let out = usi_session(
        "usi\nisready\nposition sfen 7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1\ngo mate 2000\nquit\n",
    );
    assert!(out.contains("usiok") && out.contains("readyok"), "{out}");
    assert!(
        out.lines().any(|l| l.starts_with("checkmate 1c1b")),
        "{out}"
    );
}

#[test]
fn perft_under_readings() {
    // the perft convention agrees with every reading at small depths of these positions
    for (sfen, depth, want) in [
        ("startpos", "3", "25470"),
        ("7lk/9/8S/9/9/9/9/7L1/8K b P 1", "3", "10786"),
    ] {
        for r in ["narrow", "broad", "narrow-check", "broad-check"] {
            let o = okite(&["perft", "--reading", r, "--sfen", sfen, "--depth", depth]);
            assert_eq!(o.status.code(), Some(0), "{}", text(&o));
            assert_eq!(last_line(&o), want, "{sfen} {r}");
        }
    }
}

/// Errors of the commands themselves (options, files, limits of the engines) are rendered
/// diagnostics with a code, never a bare `error:` line, and exit with status 2.
#[test]
fn command_errors_are_diagnostics_with_codes() {
    for (args, code) in [
        (&["perft", "--depth", "13"][..], "E0602"),
        (
            &["go", "solve", "--graph", "path:2", "--komi", "0.3"],
            "E0602",
        ),
        (
            &["go", "score", "--graph", "path:2", "--komi", "0.3"],
            "E0602",
        ),
        (&["mate", "--sfen", "startpos", "--length", "all"], "E0602"),
        (&["mate"], "E0602"),
        (&["mate", "--batch", "no/such/file"], "E0010"),
        (
            &["go", "show", "--graph", "grid:3x3", "--sgf", "no/such.sgf"],
            "E0010",
        ),
        (
            &["go", "count", "--graph", "path:17", "--engine", "rules"],
            "E0604",
        ),
        (&["go", "ultimate", "--graph", "path:17"], "E0604"),
        (
            &["go", "solve", "--graph", "grid:2x2", "--nodes", "1"],
            "E0605",
        ),
        (
            &["go", "show", "--graph", "grid:2x2", "--moves", "B A1, W A1"],
            "E0502",
        ),
    ] {
        let o = okite(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(o.stdout.is_empty(), "{args:?}: {}", text(&o));
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(&format!("okite::{code}")), "{args:?}: {e}");
        assert!(!e.lines().any(|l| l.starts_with("error:")), "{args:?}: {e}");
    }
}

/// `okite completions SHELL` writes a completion script that knows the commands; `okite man` a
/// manual page; an unknown shell is a usage error (exit 2).
#[test]
fn completions_and_the_manual_page() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(args)
            .output()
            .unwrap()
    };
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = run(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}");
        let text = String::from_utf8_lossy(&o.stdout);
        for cmd in ["perft", "mate", "natives", "completions"] {
            assert!(text.contains(cmd), "{shell} completions lack {cmd}");
        }
    }
    assert_eq!(run(&["completions", "tcsh"]).status.code(), Some(2));
    let man = run(&["man"]);
    assert_eq!(man.status.code(), Some(0));
    let page = String::from_utf8_lossy(&man.stdout);
    assert!(
        page.contains(".TH okite 1") && page.contains("perft"),
        "{page}"
    );
}

/// A reader that stops early (`okite mate --batch ... | head -1`) ends okite quietly: no panic,
/// no error message, killed by the closed pipe as any command of a pipeline is.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly() {
    if !common::oracles::present() {
        return;
    }
    use std::io::BufRead;
    use std::os::unix::process::ExitStatusExt;
    let set5 = common::oracles::path("mate-5-ply.sfen");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(["mate", "--batch", set5.to_str().unwrap(), "--length", "any"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(first.starts_with("mate in"), "{first}");
    assert!(!err.contains("panicked") && !err.contains("error"), "{err}");
    assert!(
        o.status.signal() == Some(libc::SIGPIPE) || o.status.success(),
        "{:?}",
        o.status
    );
}

/// A batch goes on past a bad line: every problem has its answer in order (under `--json` a
/// `"result": "error"` object with the line's number in the file, counting blank and comment
/// lines), the diagnostic names the file and the line, and the exit status is 2. So under a
/// variant, with a line of a megabyte and with a line that is not UTF-8.
#[test]
fn a_batch_reports_bad_lines_in_place() {
    let good = "7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1";
    let long = "x".repeat(1 << 20);
    let batch = tmp(
        "batch-bad-lines.sfen",
        &[
            format!("# a comment\n\n{good}\nbad sfen here\n{good}\n{long}\n{good}\n").as_bytes(),
            b"\x81\xff not text\n",
            good.as_bytes(),
        ]
        .concat(),
    );
    for variant in [
        vec![],
        vec![
            "--rules",
            "tests/variants/uchifuzume_allowed.rule",
            "--reading",
            "uchifuzume-allowed",
        ],
    ] {
        let mut args = vec!["mate", "--batch", batch.to_str().unwrap(), "--json"];
        args.extend(variant.iter().copied());
        let o = okite(&args);
        assert_eq!(o.status.code(), Some(2));
        let out = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        assert!(lines[0].starts_with("{\"result\": \"mate\""), "{out}");
        assert!(
            lines[1].starts_with("{\"result\": \"error\", \"line\": 4, \"code\": \"E0401\""),
            "{out}"
        );
        assert!(
            lines[3].starts_with("{\"result\": \"error\", \"line\": 6,"),
            "{out}"
        );
        assert!(lines[4].starts_with("{\"result\": \"mate\""), "{out}");
        // a line that is not UTF-8 is a bad line of its own, named with its first invalid byte
        assert!(
            lines[5].starts_with("{\"result\": \"error\", \"line\": 8, \"code\": \"E0006\""),
            "{out}"
        );
        assert!(lines[5].contains("offset 0 of the line"), "{out}");
        assert!(lines[6].starts_with("{\"result\": \"mate\""), "{out}");
        assert!(err.contains("batch-bad-lines.sfen line 4"), "{err}");
        assert!(
            err.contains("batch-bad-lines.sfen` line 8 is not UTF-8"),
            "{err}"
        );
        assert!(err.len() < 200_000, "{} bytes on stderr", err.len());
    }
}

/// A start where a side has pieces with nowhere to go is refused alike by every engine command,
/// with the reason: the side to move with two pawns on a file (under the rules it has no move);
/// the side not to move with a knight on 9h (after any first move the rules leave it no move, so
/// that `G*6i` mates, while the move generator counted 615 leaves at depth 2 against the rules'
/// 0, and `mate` said no mate). The rules' own questions take them. A start where the side not to
/// move is in check gets the rules' count from perft natively (the move generator counted the
/// rook's capture of the king, 113 moves against the rules' 111, and in the second position the
/// drop `P*2b`, which the rules take for a pawn-drop mate: 90 against 89).
#[test]
fn forbidden_starts_are_refused_by_every_engine() {
    for (sfen, why) in [
        (
            "PPPPPPPPP/9/9/9/4k4/9/9/9/4K4 b - 1",
            "先手, to move, has two pawns",
        ),
        (
            "K8/4P4/9/9/9/9/9/n2k5/9 b G 1",
            "後手, not to move, has two pawns",
        ),
    ] {
        for cmd in [
            vec!["perft", "--sfen", sfen, "--depth", "1"],
            vec!["legal", "--sfen", sfen],
            vec!["mate", "--sfen", sfen],
            vec!["perft", "--sfen", sfen, "--depth", "1", "--engine", "rules"],
        ] {
            let o = okite(&cmd);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{cmd:?}: {err}");
            assert!(err.contains("E0405") && err.contains(why), "{cmd:?}: {err}");
            assert!(o.stdout.is_empty(), "{cmd:?}");
        }
        let o = okite(&["eval", "--sfen", sfen, "len(legal(g, 1)) >= 0"]);
        assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "true", "{sfen}");
    }
    for (checked, depth, count) in [
        ("4k4/4R4/9/9/9/9/9/9/4K4 b G 1", "1", "111"),
        ("4k4/4R4/9/9/9/9/9/9/4K4 b G 1", "3", "16058"),
        ("9/9/7+r1/8K/9/7k1/9/9/9 w 2P3p 1", "1", "89"),
        ("9/9/7+r1/8K/9/7k1/9/9/9 w 2P3p 1", "2", "786"),
    ] {
        let native = okite(&["perft", "--sfen", checked, "--depth", depth]);
        let rules = okite(&[
            "perft", "--sfen", checked, "--depth", depth, "--engine", "rules",
        ]);
        assert_eq!(native.status.code(), Some(0));
        assert_eq!(
            String::from_utf8_lossy(&native.stdout).trim(),
            count,
            "{checked}"
        );
        assert_eq!(native.stdout, rules.stdout, "{checked}");
    }
}

/// `go count`, `go sequences` and `go ultimate` take `--json`: the count with the engine that
/// answered, natively or by the rules, the same count either way.
#[test]
fn go_counts_in_json_carry_the_engine() {
    for (cmd, graph, count) in [
        ("count", "grid:2x2", 57),
        ("sequences", "path:2", 9),
        ("ultimate", "path:3", 6),
    ] {
        for engine in ["native", "rules"] {
            let o = okite(&["go", cmd, "--graph", graph, "--engine", engine, "--json"]);
            let out = String::from_utf8_lossy(&o.stdout);
            assert_eq!(o.status.code(), Some(0), "{cmd} {engine}: {out}");
            assert!(
                out.starts_with(&format!("{{\"count\": {count}, \"engine\": {{")),
                "{cmd} {engine}: {out}"
            );
            let native = engine == "native";
            assert!(
                out.contains(&format!("\"native\": {native}")),
                "{cmd} {engine}: {out}"
            );
        }
    }
}

/// `--json` on the commands that show a position or report a game: one JSON object, the fields
/// the help names.
#[test]
fn show_game_and_go_show_print_json() {
    let o = okite(&["show", "--moves", "7g7f 3c3d", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        r#"{"sfen": "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3", "turn": "b", "in_check": false, "ply": 2}"#
    );
    let o = okite(&[
        "show",
        "--sfen",
        "8k/9/9/9/9/9/9/9/+P3K4 b 2Pr 1",
        "--json",
        "--pieces",
    ]);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(
            r#""pieces": {"1a": "k", "9i": "+P", "5i": "K"}, "hands": {"b": {"P": 2}, "w": {"R": 1}}"#
        ),
        "{}",
        text(&o)
    );
    // a perpetual check: the fourth occurrence, then the checking side's next check
    let r = "1e2e 2a1a 2e1e 1a2a";
    let moves = format!("{r} {r} {r} 1e2e");
    let o = okite(&[
        "game",
        "--sfen",
        "7k1/9/9/9/8R/9/9/9/4K4 b - 1",
        "--usi",
        &moves,
        "--readings",
        "narrow,broad",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.starts_with(r#"{"moves": ["1e2e", "2a1a","#), "{out}");
    assert!(
        out.contains(r#"{"reading": "narrow", "first_forbidden": null, "repetitions": [12, 13], "perpetual_checks": [13]"#),
        "{out}"
    );
    assert!(
        out.contains(
            r#"{"reading": "broad", "first_forbidden": {"move": 13, "usi": "1e2e", "why": "#
        ),
        "{out}"
    );
    let o = okite(&[
        "go",
        "show",
        "--graph",
        "grid:2x2",
        "--moves",
        "B A1, W B2",
        "--json",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        r#"{"graph": "grid:2x2", "board": ".OX.", "vertices": [{"name": "A2", "stone": null, "sgf": "aa", "neighbours": ["B2", "A1"]}, {"name": "B2", "stone": "W", "sgf": "ba", "neighbours": ["A2", "B1"]}, {"name": "A1", "stone": "B", "sgf": "ab", "neighbours": ["A2", "B1"]}, {"name": "B1", "stone": null, "sgf": "bb", "neighbours": ["B2", "A1"]}]}"#
    );
}

/// An SGF record where `go classes` and `go score` take a sequence: the graph from its SZ, passes
/// left out; the same answers as the moves typed out.
#[test]
fn go_classes_and_score_read_sgf() {
    let sgf = tmp(
        "three.sgf",
        b"(;GM[1]FF[4]SZ[3];B[bb];W[ab];B[ba];W[];B[bc])",
    );
    let p = sgf.to_str().unwrap();
    let moves = "B B2, W A2, B B3, B B1";
    for cmd in ["classes", "score"] {
        let from_sgf = okite(&["go", cmd, "--sgf", p, "--json"]);
        assert_eq!(from_sgf.status.code(), Some(0), "{}", text(&from_sgf));
        let typed = okite(&["go", cmd, "--graph", "grid:3x3", "--moves", moves, "--json"]);
        assert_eq!(from_sgf.stdout, typed.stdout, "{cmd}: {}", text(&from_sgf));
    }
    // go show too takes its graph from the record
    let o = okite(&["go", "show", "--sgf", p, "--json"]);
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .starts_with(r#"{"graph": "grid:3x3", "board": ".X.OX..X.""#),
        "{}",
        text(&o)
    );
    let o = okite(&["go", "classes", "--sgf", p, "--graph", "grid:2x2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("the record is for a board of 9 points"),
        "{}",
        text(&o)
    );
    let o = okite(&["go", "classes"]);
    assert_eq!(o.status.code(), Some(2), "--graph or --sgf is needed");
}

/// `go sequences` and `go solve` from a position (--moves, or an SGF record): the count of the
/// sequences that extend it agrees with the rules' `regular_count(G, r)`, and the value after the
/// first move of the principal variation is the value of the empty board (minimax).
#[test]
fn go_sequences_and_solve_from_a_position() {
    let count = |engine: &str| {
        let o = okite(&[
            "go",
            "sequences",
            "--graph",
            "path:3",
            "--moves",
            "B 2",
            "--engine",
            engine,
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        String::from_utf8_lossy(&o.stdout)
            .trim()
            .parse::<u64>()
            .unwrap()
    };
    let native = count("native");
    assert_eq!(native, count("rules"));
    assert!(native > 1 && native < 907, "{native}");
    let value = |moves: &str| {
        let o = okite(&[
            "go", "solve", "--graph", "grid:2x2", "--moves", moves, "--json",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        let pv_first = out
            .split("\"pv\": [\"")
            .nth(1)
            .and_then(|r| r.split('"').next())
            .unwrap_or("")
            .to_string();
        let v = out
            .split("\"value\": ")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .unwrap()
            .to_string();
        (v, pv_first)
    };
    let (v0, first) = value("");
    let first = first.replace("Black ", "B ").replace("White ", "W ");
    assert_eq!(value(&first).0, v0, "after {first}");
    // the rules solve from the empty board only: refused, not answered from it (a reading of
    // one's own, which the native solver does not follow)
    let o = okite(&[
        "go",
        "solve",
        "--graph",
        "grid:2x2",
        "--moves",
        "B A2",
        "--rules",
        "tests/variants/go_situational.rule",
        "--reading",
        "situational-too",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("from the empty board only"),
        "{}",
        text(&o)
    );
}

/// `--json` on check, test and compare: one object a tool can read, the same exit statuses.
#[test]
fn check_test_and_compare_print_json() {
    let o = okite(&["check", "rules/", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(r#"{"ok": true, "files": 11, "definitions": "#),
        "{out}"
    );
    let bad = tmp("bad-type.rule", b"def f(x: Int) -> Bool = x\n");
    let o = okite(&["check", bad.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains(r#""code": "E0200", "level": "error", "message": "type mismatch: expected Bool, found Int""#),
        "{out}"
    );
    assert!(out.contains(r#""line": 1, "column": 25"#), "{out}");
    let p = tmp(
        "json-tests.rule",
        b"def f = 1\nexample \"wrong\" { assert f == 2 }\nexample \"right\" { assert f == 1 }\n",
    );
    let o = okite(&["test", p.to_str().unwrap(), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(r#"{"passed": 1, "failed": 1, "results": ["#),
        "{out}"
    );
    assert!(
        out.contains(r#""name": "wrong", "reading": "base""#),
        "{out}"
    );
    assert!(
        out.contains(r#""ok": false"#) && out.contains(r#""ok": true"#),
        "{out}"
    );
    let o = okite(&[
        "compare",
        "--readings",
        "narrow,broad",
        "--sfen",
        "8k/1b7/9/2g3g2/4+B4/4KP3/3PPL3/9/9 w P 1",
        "--json",
        "1 + 1",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        r#"{"expr": "1 + 1", "readings": [{"reading": "narrow", "value": 2}, {"reading": "broad", "value": 2}], "agree": true}"#,
        "{}",
        text(&o)
    );
}

/// A shogi state in `compare --json` is its SFEN, as in `eval --json`; `--pieces` gives the
/// rules' own form of it.
#[test]
fn compare_json_writes_states_as_sfen() {
    let args = |extra: &[&str]| {
        let mut a = vec![
            "compare",
            "--readings",
            "narrow,broad",
            "--sfen",
            "startpos",
            "--moves",
            "7g7f",
            "--json",
            "g[i]",
        ];
        a.extend_from_slice(extra);
        okite(&a)
    };
    let o = args(&[]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1"; // a state of the rules has no move number
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(
        out.trim(),
        format!(
            r#"{{"expr": "g[i]", "readings": [{{"reading": "narrow", "value": {{"sfen": "{sfen}"}}}}, {{"reading": "broad", "value": {{"sfen": "{sfen}"}}}}], "agree": true}}"#
        ),
        "{}",
        text(&o)
    );
    let o = args(&["--pieces"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        !out.contains("sfen") && out.contains(r#"["歩", 1]"#),
        "{out}"
    );
}

/// A shogi state in `eval --json` is its SFEN; `--pieces` gives the rules' own form of it.
#[test]
fn eval_json_writes_states_as_sfen() {
    let o = okite(&[
        "eval",
        "--sfen",
        "startpos",
        "--moves",
        "7g7f",
        "--json",
        "(g[2], i)",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout).trim(),
        r#"{"value": [{"sfen": "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 1"}, 2], "type": "(State, Int)"}"#,
        "{}",
        text(&o)
    );
    let o = okite(&["eval", "--sfen", "startpos", "--json", "--pieces", "g[1]"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.starts_with(r#"{"value": [[[["歩", 1], ["盤(1, 7, 不成)", "先手"]]"#),
        "{out}"
    );
    assert!(out.trim_end().ends_with(r#""type": "State"}"#), "{out}");
}

/// `explain --json`: the value and the proof tree, each step with its place in the rules.
#[test]
fn explain_prints_json() {
    let o = okite(&[
        "explain",
        "--sfen",
        "7nk/9/6B1L/9/9/9/9/9/4K4 b P 1",
        "--move",
        "P*1b",
        "--depth",
        "2",
        "--json",
        "uchifuzume(g, i)",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(
        out.starts_with(
            r#"{"expr": "uchifuzume(g, i)", "value": true, "tree": [{"text": "uchifuzume("#
        ),
        "{out}"
    );
    assert!(
        out.contains(r#""place": "rules/shogi_mate.rule:75:5""#),
        "{out}"
    );
    assert!(out.contains(r#""deeper": true"#), "{out}");
}

/// The type variables of a signature are rigid: a body may not make one of them a particular
/// type, nor two of them one type; a body that works for any type checks.
#[test]
fn signature_type_variables_are_rigid() {
    for (src, err) in [
        (
            "def bad(x: a) -> b = x\n",
            Some("`a` and `b` of `bad` are written as two"),
        ),
        (
            "def worse(x: a) -> Int = x + 1\n",
            Some("`a` of `worse` stands for any type, but its body makes it Int"),
        ),
        (
            "def ok(s: Seq<a>) -> a = first(s)\ndef pair(x: a, y: b) -> (a, b) = (x, y)\n",
            None,
        ),
    ] {
        let p = tmp("rigid.rule", src.as_bytes());
        let o = okite(&["check", p.to_str().unwrap()]);
        match err {
            Some(e) => {
                assert_eq!(o.status.code(), Some(2), "{src}");
                assert!(
                    text(&o).contains("E0204") && text(&o).contains(e),
                    "{}",
                    text(&o)
                );
            }
            None => assert_eq!(o.status.code(), Some(0), "{src}: {}", text(&o)),
        }
    }
}

/// The native classification keeps --max-resident-mb: the empty 3 x 5 board, which takes
/// hundreds of MiB to classify, ends with a diagnostic under a 40 MiB bound (when it occupies
/// more, or when a table about to double would take it past the bound).
/// `--vertex` classifies the vertices named alone: each asked class is the one of the whole
/// classification, the vertices neither asked nor given by a symmetry are null, by the native
/// search and by the rules; a name that is not a vertex is refused.
#[test]
fn go_classes_of_chosen_vertices() {
    let classes = |args: &[&str]| -> Vec<Option<String>> {
        let o = okite(&[&["go", "classes", "--json"][..], args].concat());
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        let at = out.find("\"classes\": [").expect("classes") + 12;
        let end = at + out[at..].find(']').expect("end");
        out[at..end]
            .split(", ")
            .map(|c| (c != "null").then(|| c.trim_matches('"').to_string()))
            .collect()
    };
    let position = ["--graph", "grid:3x3", "--moves", "B B2, W A2"];
    let whole = classes(&position);
    assert!(whole.iter().all(Option::is_some), "{whole:?}");
    let names = ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"];
    for (i, name) in names.iter().enumerate() {
        let one = classes(&[&position[..], &["--vertex", name]].concat());
        assert_eq!(one[i], whole[i], "{name}");
        let shown = one.iter().filter(|k| k.is_some()).count();
        // the position is symmetric about the middle row only: at most an orbit of two
        assert!((1..=2).contains(&shown), "{name}: {one:?}");
        for (k, w) in one.iter().zip(&whole) {
            assert!(k.is_none() || k == w, "{name}: {one:?} against {whole:?}");
        }
    }
    let two = classes(&[&position[..], &["--vertex", "A1,C3"]].concat());
    assert_eq!(
        (two[0].clone(), two[8].clone()),
        (whole[0].clone(), whole[8].clone())
    );
    // by the rules, one vertex alone
    let path = ["--graph", "path:3", "--moves", "B 2"];
    let by_rules = classes(&[&path[..], &["--vertex", "1", "--engine", "rules"]].concat());
    assert_eq!(by_rules, vec![classes(&path)[0].clone(), None, None]);
    let o = okite(&["go", "classes", "--graph", "path:3", "--vertex", "9"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("`9` is not a vertex of the graph"),
        "{}",
        text(&o)
    );
    // rules whose outcome is not a class are refused, with the value
    let ex = tmp(
        "outcome_int.rule",
        b"type Graph = Map<Int, Set<Int>>\ntype Config = Map<Int, Int>\ndef outcome(G: Graph, r: Seq<Config>, v: Int) -> Int = 1\n",
    );
    let ex = ex.to_str().unwrap();
    let o = okite(&[
        "go", "classes", "--graph", "path:2", "--rules", ex, "--engine", "rules", "--vertex", "1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("E0606") && text(&o).contains("gave 1, not a class"),
        "{}",
        text(&o)
    );
}

/// `go classes --vertex-nodes N`: the vertices whose searches pass N visits are shown `?` (null
/// and named in "unfinished" in the JSON, a field absent when every vertex is classified), the
/// others classified; the command ends with E0605.
/// On the empty 9-path the end vertices take about 57,000 visits, the others up to 23,000.
#[test]
fn go_classes_leaves_a_vertex_past_its_bound() {
    let shape = regex::Regex::new(
        r#""classes": \[null, ((null|"N"), ){7}null\], "unfinished": \["1", ("[2-8]", )*"9"\]"#,
    )
    .unwrap();
    let path9 =
        |extra: &[&str]| okite(&[&["go", "classes", "--graph", "path:9"][..], extra].concat());
    for threads in ["1", "2"] {
        let o = path9(&[
            "--vertex-nodes",
            "35000",
            "--nodes",
            "10000000",
            "--threads",
            threads,
            "--json",
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        // the end vertices are sure to pass the bound; an inner vertex may too, after others
        // (their estimates share one bounded table), and is then null and named
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(shape.is_match(&out), "{}", text(&o));
        let (classes, left) = out.split_once(r#""unfinished""#).unwrap();
        let left = left.split_once(']').unwrap().0;
        assert_eq!(
            classes.matches("null").count(),
            left.matches('"').count() / 2,
            "as many nulls as unfinished vertices: {out}"
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("E0605") && err.contains("vertices 1, "),
            "{}",
            text(&o)
        );
    }
    // the diagram shows `?`; a bound every vertex keeps changes nothing
    let o = path9(&["--vertex-nodes", "35000"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("1 . ? : 2\n2 . "), "{out}");
    let o = path9(&["--vertex-nodes", "100000", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .starts_with(r#"{"classes": ["N", "N", "N", "N", "N", "N", "N", "N", "N"], "#),
        "{}",
        text(&o)
    );
    // the rules have no such bound, and say so
    rules_classify_and_say(
        &["--vertex-nodes", "5"],
        "--vertex-nodes bounds the native search",
    );
}

/// `go classes --engine rules` on the 3-path with `extra` options: the classes, and `says` on
/// stderr about an option the rules do not follow.
fn rules_classify_and_say(extra: &[&str], says: &str) {
    let args = [
        &["go", "classes", "--graph", "path:3", "--engine", "rules"][..],
        extra,
    ]
    .concat();
    let o = okite(&args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains(says), "{}", text(&o));
}

/// A memory bound larger than any machine's is no bound, not a bound of its lowest bits (2^44
/// MiB once wrapped to 0 bytes and stopped the search at its first check).
#[test]
fn go_classes_takes_a_memory_bound_past_the_machine() {
    // (path:9 visits more than 65,536 sequences: the memory is checked)
    let o = okite(&[
        "go",
        "classes",
        "--graph",
        "path:9",
        "--max-resident-mb",
        "17592186044416",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains(r#""classes": ["N", "N", "N""#),
        "{}",
        text(&o)
    );
    // and a vertex far below the first is refused, not wrapped around
    let o = okite(&[
        "eval",
        "outcome(path(3), from_empty(path(3)), 0 - 9223372036854775807 - 1)",
    ]);
    assert_ne!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("is not a vertex"), "{}", text(&o));
}

#[test]
fn go_classes_on_threads() {
    // the classes, and the questions answered (in any order; their counts are each thread's)
    let json = |args: &[&str]| -> (serde_json::Value, Vec<String>) {
        let o = okite(&[&["go", "classes", "--json"][..], args].concat());
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let v: serde_json::Value =
            serde_json::from_str(&String::from_utf8_lossy(&o.stdout)).unwrap();
        let mut asked: Vec<String> = v["answers"]
            .as_array()
            .expect("answers")
            .iter()
            .map(|a| format!("{} {} {}", a["vertex"], a["colour"], a["gets"]))
            .collect();
        asked.sort();
        (v["classes"].clone(), asked)
    };
    for position in [
        &["--graph", "grid:2x4"][..],
        &["--graph", "grid:3x3", "--moves", "B B2, W A2"],
        &["--graph", "path:8", "--vertex", "1,2,3"],
    ] {
        let one = json(position);
        let two = json(&[position, &["--threads", "2"]].concat());
        assert_eq!(one, two, "{position:?}");
    }
    // out of range
    for n in ["0", "33"] {
        let o = okite(&["go", "classes", "--graph", "path:3", "--threads", n]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(text(&o).contains("E0602"), "{}", text(&o));
    }
    // the rules classify on one thread, and say so
    rules_classify_and_say(&["--threads", "2"], "the rules classify on one thread");
    // the node bound holds for the threads together
    let o = okite(&[
        "go",
        "classes",
        "--graph",
        "grid:3x4",
        "--threads",
        "2",
        "--nodes",
        "50000",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("more than 50000 sequences"),
        "{}",
        text(&o)
    );
}

/// The classes `go classes` prints on `graph` with `args`, and its line of the count of visits.
fn classes_and_visits(graph: &str, args: &[&str]) -> (String, String) {
    let o = okite(&[&["go", "classes", "--graph", graph][..], args].concat());
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    let visits = text(&o)
        .lines()
        .find(|l| l.contains("sequences searched"))
        .unwrap_or_default()
        .to_string();
    (out, visits)
}

/// `go classes --length-step K` steers the proof-number search: the same classes, another
/// count of visits; the rules, which evaluate every option, say they take no step.
#[test]
fn go_classes_with_a_length_step() {
    let (plain, plain_visits) = classes_and_visits("path:8", &[]);
    let (stepped, stepped_visits) = classes_and_visits("path:8", &["--length-step", "2"]);
    assert!(plain.contains(". N"), "{plain}");
    // the classes (stdout) are the same; the counts (stderr) differ
    assert_eq!(plain, stepped);
    assert_ne!(plain_visits, stepped_visits);
    rules_classify_and_say(
        &["--length-step", "4"],
        "--length-step steers the native search",
    );
}

/// `go classes --weak-numbers` steers the proof-number search: the same classes, another count
/// of visits; the rules, which evaluate every option, say they take no such numbers.
#[test]
fn go_classes_with_weak_numbers() {
    let (plain, plain_visits) = classes_and_visits("path:8", &[]);
    let (weak, weak_visits) = classes_and_visits("path:8", &["--weak-numbers"]);
    assert!(plain.contains(". N"), "{plain}");
    assert_eq!(plain, weak);
    assert_ne!(plain_visits, weak_visits);
    rules_classify_and_say(
        &["--weak-numbers"],
        "--weak-numbers steers the native search",
    );
}

/// `go classes --estimate-mb N` sizes the table of the proof-number search's estimates: the
/// same classes from a table that forgets (1 MiB) as from the default one; a size of nothing or
/// past half the memory bound is refused; the rules, which have no such table, say so.
#[test]
fn go_classes_with_a_table_of_estimates_of_its_size() {
    let (plain, plain_visits) = classes_and_visits("path:10", &[]);
    let (small, small_visits) = classes_and_visits("path:10", &["--estimate-mb", "1"]);
    assert!(plain.contains(". N"), "{plain}");
    assert_eq!(plain, small);
    // a table of 65,536 slots forgets numbers the default one keeps: another count
    assert_ne!(plain_visits, small_visits);
    // nothing, past half the bound, past three quarters of any machine's memory
    for (mb, bound) in [
        ("0", "4096"),
        ("2049", "4096"),
        ("2", "3"),
        ("99999999999", "999999999999999"),
    ] {
        let o = okite(&[
            "go",
            "classes",
            "--graph",
            "path:5",
            "--estimate-mb",
            mb,
            "--max-resident-mb",
            bound,
        ]);
        assert_eq!(o.status.code(), Some(2), "{mb} {bound}: {}", text(&o));
        assert!(
            text(&o).contains("E0602") && text(&o).contains("--estimate-mb"),
            "{}",
            text(&o)
        );
    }
    rules_classify_and_say(
        &["--estimate-mb", "8"],
        "--estimate-mb sizes a table of the native search",
    );
}

/// `go classes --json` lists the questions the native search answered, each "yes" with the
/// move that gets the vertex; played, that move leaves the vertex the mover's (its class asked
/// again through the command). The rules engine answers no such questions: no field.
#[test]
fn go_classes_names_the_move_of_each_yes() {
    let v = json_ok(&[
        "go", "classes", "--graph", "path:9", "--moves", "B 2", "--vertex", "1", "--json",
    ]);
    assert_eq!(v["classes"][0], "B", "{v}");
    let answers = v["answers"].as_array().expect("answers");
    assert_eq!(answers.len(), 2, "{v}");
    let (black, white) = (&answers[0], &answers[1]);
    assert_eq!(black["vertex"], "1");
    assert_eq!(black["colour"], "Black");
    assert_eq!(black["gets"], true);
    assert!(black["sequences"].as_u64().is_some(), "{v}");
    assert_eq!(white["colour"], "White");
    assert_eq!(white["gets"], false);
    assert!(white["by"].is_null(), "{v}");
    let by = black["by"].as_str().expect("a move");
    let moves = format!("B 2, B {by}");
    let after = json_ok(&[
        "go", "classes", "--graph", "path:9", "--moves", &moves, "--vertex", "1", "--json",
    ]);
    let k = after["classes"][0].as_str().expect("a class");
    assert!(k == "B" || (k == "P" && by == "1"), "{moves}: {after}");
    let rules = json_ok(&[
        "go", "classes", "--graph", "path:3", "--engine", "rules", "--json",
    ]);
    assert!(rules.get("answers").is_none(), "{rules}");
}

/// `go classes --ask COLOUR` asks one question of each asked vertex, and gives the answers the
/// whole classification gives for that colour: the class is the mover's own or 𝓝 exactly where
/// the mover moving first gets the vertex. Its classes are null; on a terminal's stdout the
/// answers are a line each. Where the proof-number search does not answer (the rules, the
/// depth-first search, the cautious table), `--ask` is refused with E0602.
#[test]
fn go_classes_asks_one_question() {
    for moves in ["B 2", "B 2, W 4", "W 3"] {
        let whole = json_ok(&[
            "go", "classes", "--graph", "path:7", "--moves", moves, "--json",
        ]);
        for (colour, own) in [("black", "B"), ("white", "W")] {
            let v = json_ok(&[
                "go", "classes", "--graph", "path:7", "--moves", moves, "--ask", colour, "--json",
            ]);
            let classes = v["classes"].as_array().expect("classes");
            assert!(classes.iter().all(|k| k.is_null()), "{v}");
            let answers = v["answers"].as_array().expect("answers");
            assert_eq!(answers.len(), 7, "{moves} {colour}: {v}");
            for (i, a) in answers.iter().enumerate() {
                assert_eq!(a["vertex"], (i + 1).to_string(), "{v}");
                assert_eq!(a["colour"].as_str().unwrap().to_lowercase(), colour, "{v}");
                let k = whole["classes"][i].as_str().expect("a class");
                let gets = k == own || k == "N";
                assert_eq!(a["gets"], gets, "{moves} {colour} vertex {}: {k}", i + 1);
            }
        }
    }
    let o = okite(&[
        "go", "classes", "--graph", "path:9", "--moves", "B 2", "--vertex", "1", "--ask", "white",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "vertex 1: White moving first does not get it\n"
    );
    for extra in [
        &["--engine", "rules"][..],
        &["--engine", "verify"],
        &["--search", "depth-first"],
        &["--reading", "cautious"],
    ] {
        let args = [
            &["go", "classes", "--graph", "path:5", "--ask", "black"][..],
            extra,
        ]
        .concat();
        let o = okite(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o));
        assert!(
            text(&o).contains("E0602") && text(&o).contains("--ask"),
            "{extra:?}: {}",
            text(&o)
        );
    }
}

/// Where stderr is no terminal (a log), `go classes` says each answer on a line of its own as
/// it comes, with its move; `--quiet` says none.
#[test]
fn go_classes_says_its_answers_in_a_log() {
    let args = [
        "go", "classes", "--graph", "path:9", "--moves", "B 2", "--vertex", "1",
    ];
    let o = okite(&args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    let black = err
        .lines()
        .find(|l| l.starts_with("okite: vertex 1: Black moving first gets it by B "))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(black.ends_with(" sequences)"), "{black}");
    assert!(
        err.contains("okite: vertex 1: White moving first does not get it ("),
        "{err}"
    );
    let quiet = okite(&[&args[..], &["--quiet"]].concat());
    assert!(!String::from_utf8_lossy(&quiet.stderr).contains("moving first"));
}

#[test]
fn go_classes_keeps_its_memory_bound() {
    let o = okite(&[
        "go",
        "classes",
        "--graph",
        "grid:3x5",
        "--max-resident-mb",
        "40",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    // the memory bound, not a budget of visits
    assert!(t.contains("E0611") && t.contains("more than 40 MiB"), "{t}");
    assert!(!t.contains("E0605"), "{t}");
}

/// A mate whose length is not proved shortest within the limits carries a lower bound that is
/// one: no mate exists below it (asked again with a ply limit just under it), it is at most the
/// length found, and it is the length itself once proved shortest.
#[test]
fn mate_lower_bound_is_proved() {
    if !common::oracles::present() {
        return;
    }
    let field = |out: &str, name: &str| -> u32 {
        let at = out
            .find(&format!("\"{name}\": "))
            .unwrap_or_else(|| panic!("{name} in {out}"));
        out[at + name.len() + 4..]
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect::<String>()
            .parse()
            .unwrap()
    };
    let set = std::fs::read_to_string(common::oracles::path("mate-9-ply.sfen")).unwrap();
    let mut cut_short = 0;
    for sfen in set.lines().filter(|l| !l.trim().is_empty()).take(12) {
        let sfen = sfen.trim();
        let full = okite(&["mate", "--sfen", sfen, "--json"]);
        let out = String::from_utf8_lossy(&full.stdout).to_string();
        assert!(out.contains(r#""shortest": true"#), "{out}");
        assert_eq!(field(&out, "lower_bound"), field(&out, "plies"), "{out}");
        for nodes in ["300", "1500"] {
            let o = okite(&["mate", "--sfen", sfen, "--nodes", nodes, "--json"]);
            let out = String::from_utf8_lossy(&o.stdout).to_string();
            if !out.contains(r#""result": "mate""#) {
                continue;
            }
            let (plies, lower) = (field(&out, "plies"), field(&out, "lower_bound"));
            assert!(lower >= 1 && lower <= plies, "{out}");
            if out.contains(r#""shortest": true"#) {
                assert_eq!(lower, plies, "{out}");
                continue;
            }
            cut_short += 1;
            if lower >= 3 {
                let below = (lower - 2).to_string();
                let o = okite(&["mate", "--sfen", sfen, "--max-plies", &below, "--json"]);
                let out2 = String::from_utf8_lossy(&o.stdout).to_string();
                assert!(out2.contains(r#""result": "nomate""#), "{out} / {out2}");
            }
        }
    }
    assert!(
        cut_short > 0,
        "some search was stopped before proving its length shortest"
    );
}

/// A start where the side not to move is in check (it could take the king) is searched as the
/// rules define it: the mate the search finds is one the rules prove, of the same length, and
/// the rules find none shorter.
#[test]
fn mate_where_the_side_not_to_move_is_in_check_follows_the_rules() {
    let sfen = "4k4/4R4/9/9/9/9/9/9/4K4 b G 1";
    let o = okite(&["mate", "--sfen", sfen, "--json"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        out.contains(r#""result": "mate", "plies": 3"#),
        "{}",
        text(&o)
    );
    assert!(out.contains(r#""shortest": true"#), "{out}");
    for (n, want) in [("1", "false"), ("3", "true")] {
        let e = format!("mate_in(g, i, {n})");
        let o = okite(&["eval", "--engine", "rules", "--sfen", sfen, &e]);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).trim(),
            want,
            "{}",
            text(&o)
        );
    }
}

/// Ctrl-C during `go classes --results FILE` stops the search at its next check and keeps what
/// it found (a second Ctrl-C would end it at once): the status is 130, and the file is read by
/// the next run.
#[cfg(unix)]
#[test]
fn go_classes_keeps_its_results_when_interrupted() {
    let dir = std::env::temp_dir().join(format!("okite-interrupt-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("path11.res");
    let f = file.to_str().unwrap();
    // path:11's end vertex takes about 14 seconds: the wait is a fifth of it
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_okite"))
        .args([
            "go",
            "classes",
            "--graph",
            "path:11",
            "--vertex",
            "1",
            "--results",
            f,
        ])
        .env("NO_COLOR", "1")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run okite");
    std::thread::sleep(std::time::Duration::from_secs(3));
    // SAFETY: a signal to the child just spawned, which has not been waited for
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", text(&o));
    assert!(text(&o).contains("interrupted"), "{}", text(&o));
    assert!(text(&o).contains("results kept in"), "{}", text(&o));
    let again = okite(&[
        "go",
        "classes",
        "--graph",
        "path:11",
        "--vertex",
        "1",
        "--read-results",
        f,
        "--nodes",
        "1000",
    ]);
    let t = text(&again);
    let read: usize = t
        .lines()
        .find_map(|l| {
            l.strip_prefix("okite: ")?
                .split(" results read")
                .next()?
                .parse()
                .ok()
        })
        .expect("the results read");
    assert!(read > 0, "{t}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `go classes --results FILE`: a classification stopped by its bound keeps what it found, and
/// the next run reads it and goes on; a run whose questions were answered before searches
/// nothing; `--read-results` reads a file without writing it; a file that does not fit, or a
/// search that keeps no such results, is refused (E0615).
#[test]
fn go_classes_keeps_its_results_in_a_file() {
    let dir = std::env::temp_dir().join(format!("okite-results-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("path10.res");
    let f = file.to_str().unwrap();
    let run = |extra: &[&str]| {
        okite(
            &[
                &[
                    "go", "classes", "--graph", "path:10", "--vertex", "1", "--json",
                ][..],
                extra,
            ]
            .concat(),
        )
    };
    let visits = |o: &std::process::Output| -> u64 {
        let t = text(o);
        let at = t
            .find(" sequences searched")
            .expect("the count of sequences");
        let digits: String = t[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        digits.chars().rev().collect::<String>().parse().unwrap()
    };
    let fresh = run(&[]);
    assert_eq!(fresh.status.code(), Some(0), "{}", text(&fresh));
    // stopped by its bound near its end (the fresh run takes about 400,000): the results
    // found are kept
    let stopped = run(&["--results", f, "--nodes", "300000"]);
    assert_eq!(stopped.status.code(), Some(2), "{}", text(&stopped));
    assert!(text(&stopped).contains("E0605"), "{}", text(&stopped));
    assert!(
        text(&stopped).contains("results kept in"),
        "{}",
        text(&stopped)
    );
    // resumed: the same classes as a fresh run, fewer sequences
    let resumed = run(&["--results", f]);
    assert_eq!(resumed.status.code(), Some(0), "{}", text(&resumed));
    assert!(
        text(&resumed).contains("results read from"),
        "{}",
        text(&resumed)
    );
    assert_eq!(classes_of(&resumed), classes_of(&fresh));
    assert!(visits(&resumed) < visits(&fresh));
    // answered before: nothing searched
    let again = run(&["--read-results", f]);
    assert_eq!(classes_of(&again), classes_of(&fresh));
    assert_eq!(visits(&again), 0, "{}", text(&again));
    // the results read name the move of each yes as a search does
    let v: serde_json::Value = serde_json::from_slice(&again.stdout).unwrap();
    for a in v["answers"].as_array().expect("answers") {
        assert_eq!(a["gets"] == true, a["by"].is_string(), "{v}");
    }
    assert!(!text(&again).contains("results kept"), "{}", text(&again));
    // one writer: while a run keeps its results in the file (a classification of every vertex,
    // some seconds), a second is refused at once
    let mut first = std::process::Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(["go", "classes", "--graph", "path:10", "--results", f])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // it holds the lock once it has read the file, and says so
    let mut told = std::io::BufReader::new(first.stderr.take().unwrap());
    let mut line = String::new();
    while std::io::BufRead::read_line(&mut told, &mut line).unwrap() > 0
        && !line.contains("results read from")
    {
        line.clear();
    }
    let second = run(&["--results", f]);
    let _ = first.kill();
    let _ = first.wait();
    assert!(dir.join("path10.res.lock").exists());
    assert_eq!(second.status.code(), Some(2), "{}", text(&second));
    assert!(
        text(&second).contains("E0615") && text(&second).contains("another process"),
        "{}",
        text(&second)
    );
    // refused: another graph, a file that is no results file, no proof-number search here
    let other = okite(&["go", "classes", "--graph", "path:9", "--results", f]);
    assert_eq!(other.status.code(), Some(2), "{}", text(&other));
    assert!(text(&other).contains("E0615") && text(&other).contains("another graph"));
    let rule = dir.join("ex.rule");
    std::fs::write(&rule, "def f = 1\n").unwrap();
    let o = okite(&[
        "go",
        "classes",
        "--graph",
        "path:10",
        "--results",
        rule.to_str().unwrap(),
    ]);
    assert!(text(&o).contains("E0615"), "{}", text(&o));
    assert_eq!(
        std::fs::read(&rule).unwrap(),
        b"def f = 1\n",
        "a refused file was written"
    );
    for extra in [
        &["--threads", "2"][..],
        &["--engine", "rules"],
        &["--search", "depth-first"],
        &["--reading", "cautious"],
    ] {
        let o = okite(
            &[
                &["go", "classes", "--graph", "path:3", "--results", f][..],
                extra,
            ]
            .concat(),
        );
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", text(&o));
        assert!(text(&o).contains("E0615"), "{extra:?}: {}", text(&o));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `perft --jobs N` splits the count by first moves over N threads: the count and `--divide`'s
/// lines (in their order) are one job's, for the standard engine from the start and from a
/// played position, and for a board variant's compiled engine; `--jobs 0` is refused.
#[test]
fn perft_jobs_count_as_one_job_does() {
    let run = |args: &[&str]| -> String {
        let o = okite(args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    for (extra, depth, want) in [
        (vec!["--sfen", "startpos"], "4", Some("719731")),
        (vec!["--moves", "7g7f 3c3d 8h2b+"], "4", None),
        (vec!["--variant", "minishogi"], "5", Some("533203")),
        (vec!["--variant", "kyotoshogi"], "4", None),
    ] {
        let mut one: Vec<&str> = vec!["perft", "--depth", depth, "--jobs", "1"];
        one.extend(&extra);
        let single = run(&one);
        if let Some(w) = want {
            assert_eq!(single.trim(), w, "{extra:?}");
        }
        let mut div_one = one.clone();
        div_one.push("--divide");
        let divided = run(&div_one);
        for jobs in ["2", "3", "64"] {
            let mut many: Vec<&str> = vec!["perft", "--depth", depth, "--jobs", jobs];
            many.extend(&extra);
            assert_eq!(run(&many), single, "{extra:?} --jobs {jobs}");
            many.push("--divide");
            assert_eq!(run(&many), divided, "{extra:?} --jobs {jobs} --divide");
        }
    }
    let o = okite(&["perft", "--depth", "3", "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("E0602"));
}

/// `mate --batch --jobs N` searches problems side by side and prints what one job prints, in
/// the order of the file: on nshogi's mate-7 set (the first 200 problems), 1, 2 and 7 jobs give
/// the same shortest mates, line for line; with the first mate found, the same results.
/// `--jobs 0` is refused.
#[test]
fn jobs_answer_as_one_job_does() {
    if !common::oracles::present() {
        return;
    }
    let set7 = std::fs::read_to_string(common::oracles::path("mate-7-ply.sfen")).unwrap();
    let some: String = set7.lines().take(200).map(|l| format!("{l}\n")).collect();
    let batch = tmp("jobs-mate-7.sfen", some.as_bytes());
    for length in ["shortest", "any"] {
        let answers = |jobs: &str| -> Vec<(String, u64, Vec<String>)> {
            let o = okite(&[
                "mate",
                "--batch",
                batch.to_str().unwrap(),
                "--length",
                length,
                "--json",
                "--jobs",
                jobs,
            ]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&o.stderr)
            );
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .map(|l| {
                    let v: serde_json::Value = serde_json::from_str(l).unwrap();
                    (
                        v["result"].as_str().unwrap().to_string(),
                        v["plies"].as_u64().unwrap(),
                        v["pv"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|m| m.as_str().unwrap().to_string())
                            .collect(),
                    )
                })
                .collect()
        };
        let one = answers("1");
        assert_eq!(one.len(), 200);
        assert!(one.iter().all(|(r, _, _)| r == "mate"), "{one:?}");
        for jobs in ["2", "7"] {
            let got = answers(jobs);
            if length == "shortest" {
                assert_eq!(got, one, "--jobs {jobs}");
            } else {
                // the first mate found may be another one (each job has its share of the
                // table): never another result
                assert_eq!(got.len(), one.len(), "--jobs {jobs}");
                assert!(
                    got.iter()
                        .all(|(r, p, pv)| r == "mate" && pv.len() == *p as usize),
                    "--jobs {jobs}: {got:?}"
                );
            }
        }
    }
    let o = okite(&["mate", "--batch", batch.to_str().unwrap(), "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--jobs 0 is out of range"));
}

/// A count by the rules that is no natural number (a rule file whose `regular_count` gives
/// -1) is refused with a diagnostic naming the query and the value, as `perft` refuses one:
/// never printed as a count, never `null` in `--json`.
#[test]
fn go_count_by_the_rules_refuses_a_value_that_is_no_count() {
    let go = std::fs::read_to_string("rules/go.rule").unwrap();
    let body = "1 + (sum d in next_boards(G, last(r))";
    assert!(go.contains(body), "go.rule's regular_count changed");
    let bad = go.replacen(body, "0 - 1 + 0 * (sum d in next_boards(G, last(r))", 1);
    let p = tmp("negative_count.rule", bad.as_bytes());
    for json in [false, true] {
        let mut args = vec![
            "go",
            "sequences",
            "--graph",
            "path:2",
            "--rules",
            p.to_str().unwrap(),
        ];
        if json {
            args.push("--json");
        }
        let o = okite(&args);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
        assert!(o.stdout.is_empty(), "{}", text(&o));
        assert!(text(&o).contains("gave -1, not a count"), "{}", text(&o));
    }
}
