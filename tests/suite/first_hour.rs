#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! A new user's first hour: the defaults say which rules were read, `rules export` keeps a
//! user's edits, the REPL reads what a newcomer types (`let`, `exit`, a bracket closed by the
//! wrong kind, moves with their colours), one vocabulary of options with the old spellings kept,
//! messages that name what to do, a USI `go infinite` that waits for `stop`, and manual pages
//! and completions that hold what they point to.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn okite_in(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("OKITE_HISTORY", dir.join(".history"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run okite");
    {
        let mut input = child.stdin.take().unwrap();
        input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn fresh(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("okite-first-hour-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `okite rules export DIR` run again keeps the files edited there: nothing is written and the
/// edited files are named, unless `--force`.
#[test]
fn export_keeps_edited_files_unless_forced() {
    let d = fresh("export");
    let o = okite_in(&d, &["rules", "export", "mine"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let shogi = d.join("mine/shogi.rule");
    let shipped = std::fs::read_to_string(&shogi).unwrap();
    // again, nothing edited: the same files, status 0
    let o = okite_in(&d, &["rules", "export", "mine"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let edited = format!("{shipped}\n// my edit\n");
    std::fs::write(&shogi, &edited).unwrap();
    let o = okite_in(&d, &["rules", "export", "mine"], None);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(
        err(&o).contains("E0603") && err(&o).contains("shogi.rule"),
        "{}",
        err(&o)
    );
    assert!(err(&o).contains("--force"), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&shogi).unwrap(), edited);
    let o = okite_in(&d, &["rules", "export", "mine", "--force"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(std::fs::read_to_string(&shogi).unwrap(), shipped);
    // a FIFO where a file would be written is neither read (which would wait for a writer) nor
    // written over, forced or not
    #[cfg(unix)]
    {
        let fifo = d.join("mine/go.rule");
        std::fs::remove_file(&fifo).unwrap();
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if made.is_ok_and(|s| s.success()) {
            for force in [false, true] {
                let mut args = vec!["rules", "export", "mine"];
                if force {
                    args.push("--force");
                }
                let o = okite_in(&d, &args, None);
                assert_eq!(o.status.code(), Some(2), "{}", err(&o));
                assert!(err(&o).contains("not a regular file"), "{}", err(&o));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// Without rule files named, `check`, `test` and `repl` read the built-in rules and say so; a
/// `rules/` folder of the current directory is named on stderr as not read; named, it is read.
#[test]
fn defaults_say_which_rules_were_read() {
    let d = fresh("defaults");
    let o = okite_in(&d, &["check"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).trim_end().ends_with("(the built-in rules)"),
        "{}",
        out(&o)
    );
    assert!(err(&o).is_empty(), "{}", err(&o));
    // a rules/ folder here, edited so that an example fails
    let o = okite_in(&d, &["rules", "export", "rules"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    std::fs::write(
        d.join("rules/mine.rule"),
        "example \"an edit that fails\" { assert 1 == 2 }\n",
    )
    .unwrap();
    let o = okite_in(&d, &["test"], None);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(
        out(&o).contains("failed (the built-in rules)"),
        "{}",
        out(&o)
    );
    assert!(
        err(&o).contains("the folder rules/ here is not read"),
        "{}",
        err(&o)
    );
    let o = okite_in(&d, &["test", "rules"], None);
    assert_eq!(o.status.code(), Some(1), "{}", out(&o));
    assert!(out(&o).contains("an edit that fails"), "{}", out(&o));
    assert!(!err(&o).contains("is not read"), "{}", err(&o));
    let o = okite_in(&d, &["repl"], Some("1 + 1\n"));
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let _ = std::fs::remove_dir_all(&d);
}

/// What a newcomer types at the REPL: `let x = 3` defines `x`; a bracket closed by the wrong
/// kind is reported at once (the lines after it are read as they come); `:go` takes the moves
/// with their colours as the command line does; a definition shown as a value is named; `exit`
/// leaves.
#[test]
fn the_repl_reads_what_a_newcomer_types() {
    let script = "let x = 3\nx + 1\nsize([1, 2, 3)\n6 * 7\n:go grid:3x3 B B2, W A1\n:board\nsucc\n{1: succ}\nexit\n7 * 7\n";
    let o = okite_in(&repo(), &["repl"], Some(script));
    let text = out(&o);
    let e = err(&o);
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    assert!(lines.contains(&"4"), "{text}\n{e}");
    assert!(lines.contains(&"42"), "{text}\n{e}");
    assert!(e.contains("E0001") || text.contains("E0001"), "{text}\n{e}");
    assert!(text.contains("2 . X ."), "{text}");
    assert!(text.contains("1 O . ."), "{text}");
    assert!(text.contains("<definition succ>"), "{text}");
    // inside a collection too
    assert!(text.contains("{1: <definition succ>}"), "{text}");
    assert!(!text.contains("<definition #"), "{text}");
    assert!(!lines.contains(&"49"), "exit did not leave: {text}");
    // the REPL takes the options of the other commands
    let o = okite_in(
        &repo(),
        &[
            "repl",
            "--rules",
            "tests/variants/uchifuzume_allowed.rule",
            "--reading",
            "uchifuzume-allowed",
            "--max-resident-mb",
            "1024",
            "--timeout-ms",
            "5000",
        ],
        Some(":reading\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).starts_with("reading uchifuzume-allowed"),
        "{}",
        out(&o)
    );
}

/// One vocabulary of options, the older spellings kept: `game --moves` and `--reading`, `mate
/// --timeout-ms`; counts written in the singular where they are one; a query that names the
/// game without a position is told how to give one.
#[test]
fn one_vocabulary_and_plain_messages() {
    let r = repo();
    for args in [
        ["game", "--moves", "7g7f", "--reading", "narrow"],
        ["game", "--usi", "7g7f", "--readings", "narrow"],
    ] {
        let o = okite_in(&r, &args, None);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        let t = out(&o);
        assert!(t.starts_with("1 move\n"), "{args:?}: {t}");
        assert!(
            t.contains("no fourfold repetition; no perpetual check"),
            "{args:?}: {t}"
        );
    }
    let o = okite_in(
        &r,
        &[
            "mate",
            "--sfen",
            "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            "--timeout-ms",
            "5000",
        ],
        None,
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("mate in 1"), "{}", out(&o));
    // a search stopped by its time limit names it
    let o = okite_in(
        &r,
        &[
            "mate",
            "--sfen",
            "g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1",
            "--length",
            "any",
            "--time-ms",
            "300",
        ],
        None,
    );
    assert!(out(&o).contains("--time-ms 300"), "{}", out(&o));
    let o = okite_in(&r, &["eval", "uchifuzume(g, i)"], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("give --sfen"), "{}", err(&o));
}

/// A USI `go infinite` answers when `stop` comes, not before (an `isready` between is answered
/// at once).
#[test]
fn usi_go_infinite_waits_for_stop() {
    let o = okite_in(
        &repo(),
        &["usi"],
        Some("usi\nposition startpos\ngo infinite\nisready\nstop\nquit\n"),
    );
    let t = out(&o);
    let ready = t.find("readyok").expect("readyok");
    let best = t.find("bestmove").expect("bestmove");
    assert!(ready < best, "{t}");
    assert_eq!(t.matches("bestmove").count(), 1, "{t}");
}

/// `okite man` names pages that exist: `okite man perft` is okite-perft(1), and `--dir` writes
/// every page okite(1) lists. Completion offers no file names for options that take none.
#[test]
fn manual_pages_and_completions_hold() {
    let d = fresh("man");
    let o = okite_in(&d, &["man", "perft"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains(".TH okite-perft 1"), "{}", out(&o));
    let o = okite_in(&d, &["man", "--dir", "pages"], None);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let main = std::fs::read_to_string(d.join("pages/okite.1")).unwrap();
    let listed: Vec<String> = main
        .lines()
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|l| l.replace("\\-", "-"))
        .collect();
    assert!(listed.len() > 10, "{main}");
    for page in &listed {
        assert!(d.join(format!("pages/{page}.1")).is_file(), "{page}");
    }
    let o = okite_in(&d, &["man", "no-such-command"], None);
    assert_eq!(o.status.code(), Some(2));
    let o = okite_in(&d, &["completions", "bash"], None);
    let script = out(&o);
    assert!(
        script.contains("compgen -W \"native rules verify\""),
        "no engine values"
    );
    // the options that take a reading complete to no file name
    let reading_cases: Vec<&str> = script
        .split("--reading)")
        .skip(1)
        .map(|s| s.split(";;").next().unwrap_or(""))
        .collect();
    assert!(!reading_cases.is_empty());
    for case in reading_cases {
        assert!(!case.contains("compgen -f"), "{case}");
    }
    let _ = std::fs::remove_dir_all(&d);
}

/// The default readings, as README.md states them: `legal`, `eval`, `natives` and the REPL follow
/// base, the rules as written (seed 001's narrow reading), where every binding of the evaluator
/// stands; `perft`, `mate` and the USI engine follow narrow-check, the convention of published
/// perft counts and of tsume. Position D of the readings' tests tells them apart: the pawn drop
/// P*1c leaves the king no move without checking it, legal under narrow-check and not under
/// narrow.
#[test]
fn the_default_readings_are_as_documented() {
    let d = "8k/6G2/9/9/9/9/9/9/4K4 b P 1";
    let dir = repo();
    let words = |args: &[&str]| -> Vec<String> {
        let o = okite_in(&dir, args, None);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        out(&o).split_whitespace().map(String::from).collect()
    };
    let legal = words(&["legal", "--sfen", d]);
    assert!(!legal.contains(&"P*1c".to_string()), "{legal:?}");
    assert_eq!(legal, words(&["legal", "--sfen", d, "--reading", "base"]));
    assert_eq!(legal, words(&["legal", "--sfen", d, "--reading", "narrow"]));
    let check = words(&["legal", "--sfen", d, "--reading", "narrow-check"]);
    assert!(check.contains(&"P*1c".to_string()), "{check:?}");
    assert_eq!(legal.len() + 1, check.len());
    let n = legal.len().to_string();
    let counted = words(&["eval", "--sfen", d, "size(legal(g, i))"]);
    assert_eq!(counted, std::slice::from_ref(&n));
    let perft = words(&["perft", "--sfen", d, "--depth", "1"]);
    assert_eq!(perft.last(), Some(&check.len().to_string()));
    let o = okite_in(&dir, &["natives", "--json"], None);
    assert!(out(&o).starts_with(r#"{"reading": "base""#), "{}", out(&o));
    let o = okite_in(
        &dir,
        &[
            "mate",
            "--sfen",
            "7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1",
            "--json",
        ],
        None,
    );
    assert!(
        out(&o).contains(r#""reading": "narrow-check""#),
        "{}",
        out(&o)
    );
    // the REPL's :legal is `okite legal`'s, and a reading chosen is kept
    let o = okite_in(
        &dir,
        &["repl"],
        Some(&format!(
            ":sfen {d}\n:legal\n:reading narrow-check\n:legal\n"
        )),
    );
    let text = out(&o);
    assert!(
        text.contains(&format!("{n} legal moves under the reading base")),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "{} legal moves under the reading narrow-check",
            check.len()
        )),
        "{text}"
    );
}
