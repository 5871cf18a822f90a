#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! Variant rules reach every command: each command that can answer a question about a variant
//! gives the variant's answer (natively where the changed definitions allow, by the rules where
//! they do not, or a refusal with the reason), never the standard answer; and says which in one
//! line on stderr. Compared with the rules alone (`--engine rules`) on small cases.

use crate::common;
use common::usi_session;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn okite_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("run okite")
}

fn okite(args: &[&str]) -> Output {
    okite_in(Path::new(env!("CARGO_MANIFEST_DIR")), args)
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

/// A copy of the shipped rules with one file's text edited, in a folder of its own: tests run in
/// parallel, and a folder shared between two of them would be read by one while the other
/// rewrites it.
fn edited_copy(tag: &str, file: &str, from: &str, to: &str) -> PathBuf {
    static COPIES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COPIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("okite-variants-{}-{tag}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            // rules/variants/: the board variants, programs of their own
            continue;
        }
        let name = p.file_name().unwrap().to_owned();
        let mut text = std::fs::read_to_string(&p).unwrap();
        if name == file {
            assert!(text.contains(from), "{file} has no `{from}`");
            text = text.replace(from, to);
        }
        std::fs::write(dir.join(name), text).unwrap();
    }
    dir
}

const UCHIFUZUME: &str = "def uchifuzume(g: Game, i: Int) -> Bool = i >= 2 and dropped_pawn(g[i - 1], g[i]) and mate(g, i)";
const NEVER: &str = "def uchifuzume(g: Game, i: Int) -> Bool = false";
/// 先手 can mate only by dropping the pawn on 1b.
const P0: &str = "7nk/9/7G1/9/9/9/9/9/4K4 b P 1";
/// 先手 mates in one, the pawn promoting with check: 1c1b+.
const MATE_IN_ONE: &str = "7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1";

fn no_uchifuzume() -> PathBuf {
    edited_copy("nouchi", "shogi_mate.rule", UCHIFUZUME, NEVER)
}

#[test]
fn edited_copy_mate_in_follows_the_edit() {
    let dir = no_uchifuzume();
    let d = dir.to_str().unwrap();
    let native = okite(&["eval", "--rules", d, "--sfen", P0, "mate_in(g, i, 1)"]);
    let rules = okite(&[
        "eval",
        "--rules",
        d,
        "--engine",
        "rules",
        "--sfen",
        P0,
        "mate_in(g, i, 1)",
    ]);
    assert_eq!(out(&native), "true", "{}", err(&native));
    assert_eq!(out(&rules), "true", "{}", err(&rules));
    // and the shipped rules say false
    let shipped = okite(&["eval", "--sfen", P0, "mate_in(g, i, 1)"]);
    assert_eq!(out(&shipped), "false");
    // the evaluator says which binding it found off
    assert!(err(&native).contains("shogi.mate_in"), "{}", err(&native));
}

#[test]
fn edited_copy_test_fails_the_example_the_edit_breaks() {
    let dir = no_uchifuzume();
    let o = okite(&[
        "test",
        dir.to_str().unwrap(),
        "--filter",
        "a dropped one may not",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    assert!(out(&o).contains("0 passed, 1 failed"), "{}", out(&o));
}

#[test]
fn edited_copy_perft_counts_the_mating_drop() {
    let dir = no_uchifuzume();
    let d = dir.to_str().unwrap();
    for reading in [None, Some("narrow"), Some("narrow-check")] {
        let mut args = vec!["perft", "--rules", d, "--sfen", P0, "--depth", "1"];
        if let Some(r) = reading {
            args.extend(["--reading", r]);
        }
        let o = okite(&args);
        assert_eq!(out(&o), "81", "{reading:?}: {}", err(&o));
        assert!(err(&o).contains("by the rules"), "{}", err(&o));
        assert!(
            err(&o).contains("`uchifuzume` changed"),
            "the notice names the change: {}",
            err(&o)
        );
    }
    // the mate search says in its JSON which engine answered and as which reading
    let o = okite(&[
        "mate",
        "--sfen",
        "7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1",
        "--json",
    ]);
    assert!(
        out(&o).contains("\"engine\": {\"definition\": \"mate_in\", \"reading\": \"narrow-check\", \"native\": true"),
        "{}",
        out(&o)
    );
    // perft and legal carry the same in their JSON
    let o = okite(&[
        "perft", "--rules", d, "--sfen", P0, "--depth", "1", "--json",
    ]);
    assert!(
        out(&o).starts_with("{\"count\": 81, \"engine\": {"),
        "{}",
        out(&o)
    );
    assert!(
        out(&o).contains("\"by_the_rules\": [\"uchifuzume\"]"),
        "{}",
        out(&o)
    );
    let o = okite(&["legal", "--rules", d, "--sfen", P0, "--json"]);
    assert!(out(&o).contains("\"P*1b\""), "{}", out(&o));
    assert!(out(&o).contains("\"native\": false"), "{}", out(&o));
    // the shipped rules: 80, natively
    let o = okite(&["perft", "--sfen", P0, "--depth", "1"]);
    assert_eq!(out(&o), "80");
    assert!(err(&o).contains("native"), "{}", err(&o));
    // a copy with the shipped text is the shipped rules: native
    let same = edited_copy("same", "shogi_mate.rule", UCHIFUZUME, UCHIFUZUME);
    let o = okite(&[
        "perft",
        "--rules",
        same.to_str().unwrap(),
        "--sfen",
        P0,
        "--depth",
        "1",
    ]);
    assert_eq!(out(&o), "80");
    assert!(err(&o).contains(": native"), "{}", err(&o));
}

#[test]
fn edited_copy_legal_lists_the_mating_drop() {
    let dir = no_uchifuzume();
    let o = okite(&["legal", "--rules", dir.to_str().unwrap(), "--sfen", P0]);
    assert!(out(&o).split(' ').any(|m| m == "P*1b"), "{}", out(&o));
    let o = okite(&["legal", "--sfen", P0]);
    assert!(!out(&o).split(' ').any(|m| m == "P*1b"), "{}", out(&o));
}

/// `--threads` and the USI option `Threads` under a variant: the search asks the rules through one
/// evaluator, so it runs on one thread, says so (a notice, `"threads": 1` in the JSON) and gives
/// the variant's answer, never the standard search's on two threads.
#[test]
fn threads_under_a_variant_run_on_one_and_say_so() {
    let dir = no_uchifuzume();
    let d = dir.to_str().unwrap();
    let o = okite(&[
        "mate",
        "--rules",
        d,
        "--sfen",
        P0,
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("\"pv\": [\"P*1b\"]"), "{}", out(&o));
    assert!(out(&o).contains("\"threads\": 1"), "{}", out(&o));
    assert!(
        err(&o).contains("runs on one thread (--threads 2 asked)"),
        "{}",
        err(&o)
    );
    // one thread asked: nothing to say
    let o = okite(&["mate", "--rules", d, "--sfen", P0, "--threads", "1"]);
    assert_eq!(out(&o), "mate in 1: P*1b", "{}", err(&o));
    assert!(!err(&o).contains("one thread"), "{}", err(&o));
    let text = usi_session(&format!(
        "usi\nsetoption name Threads value 2\nsetoption name Rules value {d}\nposition sfen {P0}\ngo mate 1000\nquit\n"
    ));
    assert!(text.contains("checkmate P*1b"), "{text}");
    assert!(
        text.contains("info string the search under a variant runs on one thread (Threads 2)"),
        "{text}"
    );
}

#[test]
fn edited_copy_mate_and_usi_follow_the_edit() {
    let dir = no_uchifuzume();
    let d = dir.to_str().unwrap();
    // the mate search keeps its native parts and asks the rules for the changed one
    let o = okite(&["mate", "--rules", d, "--sfen", P0]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "mate in 1: P*1b", "{}", err(&o));
    assert!(err(&o).contains("by the rules: uchifuzume"), "{}", err(&o));
    let o = okite(&["mate", "--rules", d, "--sfen", P0, "--json"]);
    assert!(out(&o).contains("\"native\": false"), "{}", out(&o));
    assert!(
        out(&o).contains("\"by_the_rules\": [\"uchifuzume\"]"),
        "{}",
        out(&o)
    );
    // a variant that changes the moves themselves leaves the search nothing native: refused
    let o = okite(&[
        "mate",
        "--rules",
        "tests/variants/short_lance.rule",
        "--reading",
        "short-lance",
        "--sfen",
        P0,
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(
        out(&o).is_empty(),
        "no answer under other rules: {}",
        out(&o)
    );
    assert!(err(&o).contains("`succ` changed"), "{}", err(&o));
    // the USI engine starts under them (their moves are read by the rules), says why it will
    // not search, and answers nothing of the standard rules (with no input: no answer at all)
    let o = okite(&[
        "usi",
        "--rules",
        "tests/variants/short_lance.rule",
        "--reading",
        "short-lance",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        err(&o).contains("E0607") && err(&o).contains("`succ` changed"),
        "{}",
        err(&o)
    );
    assert!(!out(&o).contains("checkmate"), "{}", out(&o));
    // the USI option Rules: go mate follows the edited rules (the pawn drop mates), then a
    // reading that does not exist is refused, never answered under other rules
    let text = usi_session(&format!(
        "usi\nsetoption name Rules value {d}\nposition sfen {P0}\ngo mate 1000\nsetoption name Rules value <empty>\nsetoption name Reading value no-such-reading\ngo mate 1000\nsetoption name Reading value narrow-check\nposition sfen 7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1\ngo mate 1000\nquit\n"
    ));
    let answers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(
        answers,
        vec![
            "checkmate P*1b",
            "checkmate notimplemented",
            "checkmate 1c1b+"
        ],
        "{text}"
    );
    assert!(text.contains("info string error"), "{text}");
}

#[test]
fn edited_copy_natives_lists_the_binding_off() {
    let dir = no_uchifuzume();
    let o = okite(&["natives", "--rules", dir.to_str().unwrap(), "--json"]);
    let j = out(&o);
    assert!(
        j.contains("\"definition\": \"mate_in\", \"native\": \"shogi.mate_in\", \"on\": false"),
        "{j}"
    );
    assert!(
        j.contains("\"definition\": \"succ\", \"native\": \"shogi.successors\", \"on\": true"),
        "{j}"
    );
    let o = okite(&["natives", "--rules", dir.to_str().unwrap()]);
    assert!(
        out(&o).contains("off  mate_in = shogi.mate_in: `uchifuzume` changed"),
        "{}",
        out(&o)
    );
    assert!(
        out(&o).contains("shogi_mate.rule:"),
        "the place: {}",
        out(&o)
    );
    // the shipped rules: every binding on, and every engine (go solve follows base as well as
    // area and the other readings of its own)
    let o = okite(&["natives"]);
    let text = out(&o);
    let bindings = text.split("engines of the commands").next().unwrap();
    assert!(!bindings.contains(" off "), "{text}");
    let off: Vec<&str> = text.lines().filter(|l| l.starts_with("  off")).collect();
    assert!(off.is_empty(), "{text}");
    assert!(text.contains("go solve"), "{text}");
    // under area the one binding off is the winner, whose native function counts stones only
    let o = okite(&["natives", "--reading", "area"]);
    let text = out(&o);
    let bindings = text.split("engines of the commands").next().unwrap();
    let off: Vec<&str> = bindings.lines().filter(|l| l.contains(" off ")).collect();
    assert_eq!(off.len(), 1, "{text}");
    assert!(off[0].contains("winner = go.winner"), "{text}");
    assert!(off[0].contains("`point_owner` changed"), "{text}");
}

#[test]
fn edited_go_copy_with_suicide_follows_the_rules() {
    let dir = edited_copy(
        "gosuicide",
        "go.rule",
        "def place(G: Graph, c: Config, v: Vertex, s: Int) -> Config =\n    c with { v: s } with { u: 0 | u in V(G), c(u) == -s, liberties(G, c, u) == {v} }",
        "def capture(G: Graph, c: Config, v: Vertex, s: Int) -> Config =\n    c with { v: s } with { u: 0 | u in V(G), c(u) == -s, liberties(G, c, u) == {v} }\ndef place(G: Graph, c: Config, v: Vertex, s: Int) -> Config =\n    let d = capture(G, c, v, s) in\n    d with { u: 0 | u in V(G), d(u) == s, liberties(G, d, u) == {} }",
    );
    let d = dir.to_str().unwrap();
    // white on 1 of the path 1 - 2: white at 2 is suicide (allowed by the edit), black at 2
    // captures
    let q = "size(next_boards(path(2), {1: 1, 2: 0}))";
    let native = okite(&["eval", "--rules", d, q]);
    let rules = okite(&["eval", "--rules", d, "--engine", "rules", q]);
    let shipped = okite(&["eval", q]);
    assert_eq!(out(&native), out(&rules), "{}", err(&native));
    assert_ne!(out(&native), out(&shipped), "the edit changes the answer");
    // the go commands follow the edit too
    for args in [
        vec!["go", "sequences", "--graph", "path:3"],
        vec!["go", "classes", "--graph", "path:2", "--json"],
    ] {
        let mut a = args.clone();
        a.extend(["--rules", d]);
        let o = okite(&a);
        assert_eq!(o.status.code(), Some(0), "{a:?}: {}", err(&o));
        assert!(err(&o).contains("by the rules"), "{a:?}: {}", err(&o));
        let mut r = a.clone();
        r.extend(["--engine", "rules"]);
        // the answers, without the `engine` field that says which engine gave them
        let answer = |t: String| t.split(", \"engine\"").next().unwrap_or("").to_string();
        assert_eq!(answer(out(&o)), answer(out(&okite(&r))), "{a:?}");
    }
}

/// Every variant file checks, and its reading's answers from each command equal the rules'.
#[test]
fn variant_files_agree_with_the_rules_on_every_command() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "uchifuzume_allowed.rule",
            "uchifuzume-allowed",
            &[P0, "7nk/9/6B1L/9/9/9/9/9/4K4 b P 1"],
        ),
        (
            "nifu_allowed.rule",
            "nifu-allowed",
            &["4k4/9/9/9/4P4/9/9/9/4K4 b P 1"],
        ),
        (
            "every_drop_mate.rule",
            "every-drop-mate",
            &["6G1k/9/7G1/9/9/9/9/9/4K4 b L 1"],
        ),
        (
            "short_lance.rule",
            "short-lance",
            &["4k4/9/9/9/9/9/9/9/L3K4 b - 1"],
        ),
        (
            "mate_needs_check.rule",
            "mate-needs-check-too",
            &["8k/6G2/9/9/9/9/9/9/4K4 b P 1"],
        ),
    ];
    for (file, reading, positions) in cases {
        let path = format!("tests/variants/{file}");
        let o = okite(&["check", &path]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", err(&o));
        for sfen in *positions {
            for depth in ["1", "2"] {
                let a = okite(&[
                    "perft",
                    "--rules",
                    &path,
                    "--reading",
                    reading,
                    "--sfen",
                    sfen,
                    "--depth",
                    depth,
                ]);
                let b = okite(&[
                    "perft",
                    "--rules",
                    &path,
                    "--reading",
                    reading,
                    "--sfen",
                    sfen,
                    "--depth",
                    depth,
                    "--engine",
                    "rules",
                ]);
                assert_eq!(a.status.code(), Some(0), "{file} {sfen}: {}", err(&a));
                assert_eq!(out(&a), out(&b), "perft {file} {sfen} depth {depth}");
            }
            let a = okite(&[
                "legal",
                "--rules",
                &path,
                "--reading",
                reading,
                "--sfen",
                sfen,
            ]);
            let b = okite(&[
                "legal",
                "--rules",
                &path,
                "--reading",
                reading,
                "--sfen",
                sfen,
                "--engine",
                "rules",
            ]);
            let sorted = |o: &Output| {
                let mut v: Vec<String> = out(o).split(' ').map(|s| s.to_string()).collect();
                v.sort();
                v
            };
            assert_eq!(sorted(&a), sorted(&b), "legal {file} {sfen}");
        }
    }
    // the variant changes the answer somewhere: pawn-drop mate and two pawns allowed
    let allowed = okite(&[
        "legal",
        "--rules",
        "tests/variants/uchifuzume_allowed.rule",
        "--reading",
        "uchifuzume-allowed",
        "--sfen",
        P0,
    ]);
    assert!(out(&allowed).split(' ').any(|m| m == "P*1b"));
    let nifu = okite(&[
        "legal",
        "--rules",
        "tests/variants/nifu_allowed.rule",
        "--reading",
        "nifu-allowed",
        "--sfen",
        "4k4/9/9/9/4P4/9/9/9/4K4 b P 1",
    ]);
    assert!(out(&nifu).split(' ').any(|m| m == "P*5g"), "{}", out(&nifu));
    // a restated shipped reading runs natively, as the shipped one
    let o = okite(&[
        "perft",
        "--rules",
        "tests/variants/mate_needs_check.rule",
        "--reading",
        "mate-needs-check-too",
        "--sfen",
        "8k/6G2/9/9/9/9/9/9/4K4 b P 1",
        "--depth",
        "2",
    ]);
    assert!(
        err(&o).contains("native") && err(&o).contains("narrow-check"),
        "{}",
        err(&o)
    );
}

#[test]
fn go_variant_files_agree_with_the_rules() {
    let path = "tests/variants/go_suicide.rule";
    for graph in ["path:2", "path:3", "cycle:3"] {
        let a = okite(&[
            "go",
            "sequences",
            "--graph",
            graph,
            "--rules",
            path,
            "--reading",
            "suicide-simple",
        ]);
        let b = okite(&[
            "go",
            "sequences",
            "--graph",
            graph,
            "--rules",
            path,
            "--reading",
            "suicide-simple",
            "--engine",
            "rules",
        ]);
        assert_eq!(a.status.code(), Some(0), "{}", err(&a));
        assert_eq!(out(&a), out(&b), "{graph}");
        // the restated reading means what the shipped `suicide` does
        let c = okite(&["go", "sequences", "--graph", graph, "--reading", "suicide"]);
        assert_eq!(out(&a), out(&c), "{graph}");
    }
    for (file, reading, shipped) in [
        ("go_simple_ko.rule", "simple-ko-too", "simple-ko"),
        ("go_situational.rule", "situational-too", "situational"),
    ] {
        let path = format!("tests/variants/{file}");
        let o = okite(&["check", &path]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", err(&o));
        // area scoring with the variant's repetition rule, by the rules, on the smallest strips
        let v = okite(&[
            "eval",
            "--rules",
            &path,
            "--reading",
            reading,
            "solve(path(2))",
        ]);
        assert_eq!(v.status.code(), Some(0), "{file}: {}", err(&v));
        let area = okite(&[
            "eval",
            "--rules",
            &path,
            "--reading",
            "area",
            "solve(path(2))",
        ]);
        let s = okite(&["eval", "--reading", shipped, "solve(path(2))"]);
        assert_eq!(s.status.code(), Some(0));
        assert_eq!(area.status.code(), Some(0));
    }
}

#[test]
fn unknown_readings_and_broken_rules_are_refused_everywhere() {
    let broken =
        std::env::temp_dir().join(format!("okite-variants-broken-{}.rule", std::process::id()));
    std::fs::write(&broken, "def x = y\n").unwrap();
    let b = broken.to_str().unwrap();
    for args in [
        vec!["perft", "--depth", "1"],
        vec!["legal"],
        vec!["mate", "--sfen", P0],
        vec!["game", "--usi", "7g7f"],
        vec!["natives"],
        vec!["go", "count", "--graph", "path:2"],
        vec!["go", "sequences", "--graph", "path:2"],
        vec!["go", "classes", "--graph", "path:2"],
        vec!["usi"],
    ] {
        let mut a = args.clone();
        let reading_flag = if args[0] == "game" {
            "--readings"
        } else {
            "--reading"
        };
        a.extend([reading_flag, "no-such-reading"]);
        let o = okite(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", err(&o));
        assert!(out(&o).is_empty(), "{a:?} printed {}", out(&o));
        let mut a = args.clone();
        a.extend(["--rules", b]);
        let o = okite(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", err(&o));
        assert!(out(&o).is_empty(), "{a:?} printed {}", out(&o));
    }
}

#[test]
fn shipped_rules_work_from_any_folder() {
    let dir = std::env::temp_dir().join(format!("okite-variants-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let o = okite_in(&dir, &["check"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("OK: 11 files"), "{}", out(&o));
    let o = okite_in(&dir, &["eval", "size(succ(start))"]);
    assert_eq!(out(&o), "30");
    let o = okite_in(&dir, &["rules", "export", "mine"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = okite_in(&dir, &["check", "mine"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = okite_in(&dir, &["perft", "--rules", "mine", "--depth", "2"]);
    assert_eq!(out(&o), "900");
    assert!(err(&o).contains(": native"), "{}", err(&o));
}

/// In the REPL, a definition typed at the prompt turns the bindings that reach it off: `mate_in`
/// and `:legal` agree with the new definition.
#[test]
fn repl_definition_reaches_the_native_bindings() {
    let script = format!(
        ":sfen {P0}\nmate_in(g, i, 1)\ndef uchifuzume(g: Game, i: Int) -> Bool = false\nmate_in(g, i, 1)\n:legal\n"
    );
    let o = repl_with(&[], &script);
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    let values: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| *l == "true" || *l == "false")
        .collect();
    assert_eq!(values, vec!["false", "true"], "{text}");
    assert!(
        lines.iter().any(|l| l.split(' ').any(|m| m == "P*1b")),
        "{text}"
    );
    assert!(text.contains("81 legal moves"), "{text}");
    // and says, once, which binding it found off and why
    let notes = String::from_utf8_lossy(&o.stderr);
    assert_eq!(
        notes.matches("shogi.mate_in under base off").count(),
        1,
        "{notes}"
    );
    assert!(notes.contains("`uchifuzume` changed"), "{notes}");
}

/// `go solve` follows any reading of the rules: natively under the definitions of a shipped
/// reading the solver plays (area, base, situational, simple-ko, suicide), by the rules otherwise
/// (small graphs), with a notice; the value is the rules' own.
#[test]
fn go_solve_follows_every_reading() {
    for (reading, graph, rules_graph) in [
        ("situational", "path:2", "path(2)"),
        ("base", "path:3", "path(3)"),
        ("suicide", "path:2", "path(2)"),
        ("simple-ko", "path:2", "path(2)"),
    ] {
        let o = okite(&["go", "solve", "--graph", graph, "--reading", reading]);
        assert_eq!(o.status.code(), Some(0), "{reading}: {}", err(&o));
        assert!(err(&o).contains("native"), "{}", err(&o));
        let e = okite(&[
            "eval",
            "--reading",
            reading,
            &format!("solve({rules_graph})"),
        ]);
        assert_eq!(
            out(&o).lines().last(),
            out(&e).lines().last(),
            "{reading} {graph}"
        );
    }
    // a reading of one's own that changes the repetition rule: by the rules
    let path = "tests/variants/go_situational.rule";
    let o = okite(&[
        "go",
        "solve",
        "--graph",
        "path:2",
        "--rules",
        path,
        "--reading",
        "situational-too",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("by the rules"), "{}", err(&o));
    let e = okite(&[
        "eval",
        "--rules",
        path,
        "--reading",
        "situational-too",
        "solve(path(2))",
    ]);
    assert_eq!(out(&o), out(&e));
    // by the rules, a graph past their bound is refused with the bound and the native readings
    let o = okite(&[
        "go",
        "solve",
        "--graph",
        "path:7",
        "--rules",
        path,
        "--reading",
        "situational-too",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("E0604"), "{}", err(&o));
    assert!(
        err(&o).contains("the rules solve graphs of at most 6 vertices; this graph has 7"),
        "{}",
        err(&o)
    );
    // restated area scoring in a user's file runs natively
    let o = okite(&[
        "go",
        "solve",
        "--graph",
        "path:3",
        "--reading",
        "area",
        "--json",
    ]);
    assert!(out(&o).contains("\"native\": true"), "{}", out(&o));
    let o = okite(&["go", "solve", "--graph", "path:3", "--reading", "seed"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Under a variant, `--length any` finds a mate no shorter than the shortest one, and says
/// `"shortest": true` only where that is proved (the same length as `--length shortest`).
#[test]
fn variant_any_mates_claim_shortest_only_when_proved() {
    if !common::oracles::present() {
        return;
    }
    let set = std::fs::read_to_string(common::oracles::path("mate-5-ply.sfen")).unwrap();
    let all: Vec<&str> = set
        .lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    // the first 40, and two where a dropped pawn mates sooner under the variant (1 and 3 plies)
    let mut problems: Vec<&str> = all[..40].to_vec();
    problems.extend([all[448], all[483]]);
    let batch =
        std::env::temp_dir().join(format!("okite-variants-any-{}.sfen", std::process::id()));
    std::fs::write(&batch, problems.join("\n")).unwrap();
    let run = |length: &str| -> Vec<(String, u64, bool)> {
        let o = okite(&[
            "mate",
            "--rules",
            "tests/variants/uchifuzume_allowed.rule",
            "--reading",
            "uchifuzume-allowed",
            "--batch",
            batch.to_str().unwrap(),
            "--length",
            length,
            "--json",
            "--time-ms",
            "20000",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        out(&o)
            .lines()
            .map(|l| {
                let field = |k: &str| {
                    l.split(&format!("\"{k}\": "))
                        .nth(1)
                        .and_then(|r| r.split([',', '}']).next())
                        .unwrap_or("")
                        .trim_matches('"')
                        .to_string()
                };
                (
                    field("result"),
                    field("plies").parse().unwrap_or(0),
                    field("shortest") == "true",
                )
            })
            .collect()
    };
    let any = run("any");
    let shortest = run("shortest");
    assert_eq!(any.len(), problems.len());
    let mut claimed = 0;
    for (i, ((ra, pa, sa), (rs, ps, ss))) in any.iter().zip(&shortest).enumerate() {
        assert_eq!(ra, rs, "problem {i}: {ra} under any, {rs} under shortest");
        if ra != "mate" {
            continue;
        }
        assert!(ss, "problem {i}: --length shortest proves its length");
        assert!(pa >= ps, "problem {i}: {pa} plies under any, {ps} shortest");
        if *sa {
            claimed += 1;
            assert_eq!(
                pa, ps,
                "problem {i} claims shortest with {pa} plies, not {ps}"
            );
        }
    }
    // the 1-ply mate is found under the bound 1, the 3-ply one under the bound 7 after the
    // bound 1 was disproved: both are proved shortest
    assert!(
        claimed >= 2,
        "{claimed} mates under any were proved shortest"
    );
}

/// `legal` itself edited (a checking move is no longer legal): the native parts are assembled
/// as the shipped `legal` assembles them, so no command keeps them; each follows the edit by the
/// rules or refuses with the reason, never the standard answer.
#[test]
fn an_edited_legal_is_followed_or_refused_by_every_command() {
    const LEGAL: &str = "not forbidden(g[1..i] ++ [s], i + 1) }";
    let dir = edited_copy(
        "legal",
        "shogi_mate.rule",
        LEGAL,
        "not forbidden(g[1..i] ++ [s], i + 1), not in_check(s, turn(s)) }",
    );
    let d = dir.to_str().unwrap();
    // the rook's checks along the first rank are gone: 17 moves where the shipped rules have 19
    const ROOK: &str = "4k4/9/9/9/9/9/9/9/4K3R b - 1";
    let shipped = okite(&["perft", "--depth", "1", "--sfen", ROOK]);
    assert_eq!(out(&shipped), "19", "{}", err(&shipped));
    let by_rules = okite(&[
        "perft", "--depth", "1", "--sfen", ROOK, "--rules", d, "--engine", "rules",
    ]);
    assert_eq!(out(&by_rules), "17", "{}", err(&by_rules));
    let o = okite(&["perft", "--depth", "1", "--sfen", ROOK, "--rules", d]);
    assert_eq!(out(&o), "17", "{}", err(&o));
    assert!(err(&o).contains("`legal` itself changed"), "{}", err(&o));
    let o = okite(&["legal", "--sfen", ROOK, "--rules", d]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = out(&o);
    let moves: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(moves.len(), 17, "{moves:?}");
    assert!(
        !moves.contains(&"1i1a+") && !moves.contains(&"1i1a"),
        "{moves:?}"
    );
    // no mate can be given when a check is not a move: the search refuses, it does not
    // answer the standard mate in one
    let shipped = okite(&["mate", "--sfen", MATE_IN_ONE]);
    assert!(out(&shipped).contains("1c1b+"), "{}", out(&shipped));
    let o = okite(&["mate", "--sfen", MATE_IN_ONE, "--rules", d]);
    assert!(!out(&o).contains("1c1b+"), "{}", out(&o));
    assert_eq!(o.status.code(), Some(2), "{}{}", out(&o), err(&o));
    assert!(
        err(&o).contains("E0607") && err(&o).contains("`legal` itself"),
        "{}",
        err(&o)
    );
    // nor does the USI engine answer the standard mate under the edited rules
    let text = usi_session(&format!(
        "usi\nsetoption name Rules value {d}\nposition sfen {MATE_IN_ONE}\ngo mate 1000\nquit\n"
    ));
    let answers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("checkmate"))
        .collect();
    assert_eq!(answers.len(), 1, "{text}");
    assert!(!answers[0].contains("1c1b"), "{text}");
}

/// A variant whose pawns also step back: `legal` lists the variant's own moves, named from the
/// successors the rules give, as perft counts them.
#[test]
fn legal_names_the_moves_of_a_variant() {
    let dir = edited_copy(
        "pawnback",
        "shogi.rule",
        "(歩, 不成) => steps({(0, d)}),",
        "(歩, 不成) => steps({(0, d), (0, -d)}),",
    );
    let d = dir.to_str().unwrap();
    let perft = okite(&["perft", "--depth", "1", "--rules", d]);
    assert_eq!(out(&perft), "37", "{}", err(&perft));
    for engine in ["native", "rules"] {
        let o = okite(&["legal", "--rules", d, "--engine", engine]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let text = out(&o);
        let moves: Vec<&str> = text.split_whitespace().collect();
        assert_eq!(moves.len(), 37, "{engine}: {moves:?}");
        for back in ["1g1h", "5g5h", "7g7h", "9g9h"] {
            assert!(moves.contains(&back), "{engine}: {back} missing: {moves:?}");
        }
    }
}

/// A search's stop and time limit bind while the rules answer for it: a changed `nifu` that
/// counts to five billion before it answers (minutes of evaluation, past the evaluator's own
/// step budget) is ended by `stop` in the USI engine and by `--time-ms` in `okite mate`, which
/// report the limit, not a failure of the rules.
#[test]
fn stop_and_time_limits_end_a_rule_evaluation_of_a_search() {
    use std::io::Write;
    let dir = edited_copy(
        "slownifu",
        "shogi_mate.rule",
        "def nifu(s: State, o: Turn) -> Bool =\n",
        "def nifu(s: State, o: Turn) -> Bool =\n    (count x in 1..5000000000: x < 0) == 0 and\n",
    );
    let d = dir.to_str().unwrap();
    let o = okite(&[
        "mate",
        "--rules",
        d,
        "--sfen",
        MATE_IN_ONE,
        "--time-ms",
        "500",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).starts_with("unknown (limits reached"),
        "{}",
        out(&o)
    );
    assert!(!err(&o).contains("E0608"), "{}", err(&o));
    let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(["usi", "--rules", d])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run okite usi");
    let mut input = child.stdin.take().expect("its input");
    write!(
        input,
        "usi\nisready\nposition sfen {MATE_IN_ONE}\ngo mate infinite\n"
    )
    .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    write!(input, "stop\nisready\nquit\n").unwrap();
    drop(input);
    let o = child.wait_with_output().expect("its output");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("checkmate timeout"), "{text}");
    assert!(!text.contains("budget"), "{text}");
    assert_eq!(text.matches("readyok").count(), 2, "{text}");
}

/// A variant that cannot hold the position asked (a reading with a 5 x 5 board and 12 pieces,
/// asked from the 9 x 9 start) is refused with the mismatch named, never counted as 0.
#[test]
fn perft_refuses_a_position_the_rules_cannot_hold() {
    let o = okite(&[
        "perft",
        "--rules",
        "tests/variants/minishogi_reading.rule",
        "--reading",
        "minishogi",
        "--depth",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let e = err(&o);
    assert!(e.contains("E0404"), "{e}");
    assert!(e.contains("`Pieces`"), "{e}");
    assert!(e.contains("`on_the_board`"), "{e}");
    assert!(out(&o).is_empty(), "{}", out(&o));
}

/// The board variants through the command line: perft's count as the last line, the JSON of
/// `mate`, a variant's own moves played by `--moves`, a position that does not fit the variant's
/// board refused, and the USI engine's `UCI_Variant`.
#[test]
fn board_variants_through_the_commands() {
    let o = okite(&["perft", "--variant", "minishogi", "--depth", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).lines().last(), Some("2512"));
    assert!(
        err(&o).contains("the engine compiled from its tables"),
        "{}",
        err(&o)
    );
    // `okite mate --variant minishogi --json` on a position, with more flags: its exit and JSON
    let mate = |sfen: &str, more: &[&str]| -> serde_json::Value {
        let mut args = vec!["mate", "--variant", "minishogi", "--sfen", sfen, "--json"];
        args.extend_from_slice(more);
        let o = okite(&args);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        serde_json::from_str(&out(&o)).unwrap()
    };
    let v = mate("3k1/5/2G2/1R3/K4 b S 1", &[]);
    assert_eq!(v["result"], "mate");
    assert_eq!(v["plies"], 3);
    // two silver drops mate in 3 (Fairy-Stockfish's pv begins S@c4, our S*3b)
    assert!(v["pv"][0] == "S*3b" || v["pv"][0] == "S*2b", "{v}");
    assert_eq!(v["shortest"], true);
    assert_eq!(v["lower_bound"], 3);
    assert_eq!(v["engine"]["variant"], "minishogi");
    // the first mate the search proves, with the length it proves
    let v = mate("5/5/2k2/5/2K2 b 2GS 1", &["--length", "any"]);
    assert_eq!(v["result"], "mate", "{v}");
    assert!(v["plies"].as_u64().unwrap() >= 5, "{v}");
    // no mate within a budget below the shortest: no claim of a bound
    let v = mate("5/5/2k2/5/2K2 b 2GS 1", &["--max-plies", "3"]);
    assert_eq!(v["result"], "nomate", "{v}");
    assert_eq!(v["lower_bound"], 0, "{v}");
    // kyoto shogi's flip written with `+` and `-`, played by --moves
    let o = okite(&["legal", "--variant", "kyotoshogi", "--moves", "1e1d+ 5a5b+"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // a 9 x 9 SFEN under minishogi
    let o = okite(&[
        "perft",
        "--variant",
        "minishogi",
        "--sfen",
        "startpos",
        "--depth",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let o = okite(&[
        "perft",
        "--variant",
        "minishogi",
        "--sfen",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "--depth",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("E0401"), "{}", err(&o));
    // the rules of the variant on its position: the core's `legal` and `perft` by the rules
    let o = okite(&["eval", "--variant", "minishogi", "size(legal(s))"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "14");
    let o = okite(&[
        "eval",
        "--variant",
        "kyotoshogi",
        "--moves",
        "1e1d+",
        "perft(s, 2)",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let n = okite(&[
        "perft",
        "--variant",
        "kyotoshogi",
        "--moves",
        "1e1d+",
        "--depth",
        "2",
    ]);
    assert_eq!(out(&o), out(&n).lines().last().unwrap_or(""), "{}", err(&o));
    // a name that is no variant
    let o = okite(&["perft", "--variant", "nosuch", "--depth", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("E0406"), "{}", err(&o));
    // the USI engine under UCI_Variant
    let s = usi_session(
        "usi\nsetoption name UCI_Variant value minishogi\nposition sfen 3k1/5/2G2/1R3/K4 b S 1\ngo mate 10000\n\
         setoption name UCI_Variant value dobutsu\nposition startpos moves 2c2b\ngo mate 1000\nquit\n",
    );
    assert!(
        s.contains("option name UCI_Variant type combo default shogi var shogi var minishogi"),
        "{s}"
    );
    assert!(
        s.contains("checkmate S*3b 2a1a 4d1d") || s.contains("checkmate S*2b 2a1b 4d1d"),
        "{s}"
    );
    // and an answer for the dobutsu position too (the chick has taken the chick)
    assert_eq!(s.matches("checkmate ").count(), 2, "{s}");
    // a `position` line that is not UTF-8 leaves no position to search, under a variant too
    let mate = "position sfen 3k1/5/2G2/1R3/K4 b S 1\ngo mate 10000\n";
    let mut script = format!("setoption name UCI_Variant value minishogi\n{mate}").into_bytes();
    script.extend(b"position sfen 3k1/5/5/5/K4 b - 1 \xff\ngo mate 10000\n");
    script.extend(format!("{mate}quit\n").bytes());
    let s = common::usi_session_bytes(&script);
    let answers: Vec<&str> = s.lines().filter(|l| l.starts_with("checkmate")).collect();
    assert_eq!(answers.len(), 3, "{s}");
    assert_eq!(answers[1], "checkmate timeout", "{s}");
    assert_eq!(answers[0], answers[2], "{s}");
    assert!(s.contains("no position to search"), "{s}");
}

/// A movement variant's own moves are played everywhere a move is read: `--moves` of legal,
/// perft, eval and compare, `game --moves` (and `--usi`), and the REPL's `:moves`; and the
/// REPL's `:legal` lists the moves of the rules in force, as `size(legal(g, i))` counts them.
#[test]
fn a_movement_variants_own_moves_are_played_everywhere() {
    let rules = "tests/variants/sideways_silver.rule";
    let sfen = "4k4/9/9/9/4S4/9/9/9/4K4 b - 1";
    let r = ["--rules", rules, "--reading", "sideways-silver"];
    // the variant's legal moves include the sideways steps
    let o = okite(&[&["legal", "--sfen", sfen][..], &r[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let legal: Vec<String> = out(&o).split_whitespace().map(String::from).collect();
    assert!(
        legal.contains(&"5e4e".to_string()) && legal.contains(&"5e6e".to_string()),
        "{legal:?}"
    );
    assert_eq!(legal.len(), 12, "{legal:?}");
    // played by --moves: after 5e4e the silver stands on 4e, the king to move
    let o = okite(&[&["legal", "--sfen", sfen, "--moves", "5e4e"][..], &r[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = okite(
        &[
            &[
                "perft",
                "--sfen",
                sfen,
                "--moves",
                "5e4e 5a5b",
                "--depth",
                "1",
            ][..],
            &r[..],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).lines().last(), Some("12"), "{}", out(&o));
    let o = okite(
        &[
            &["eval", "--sfen", sfen, "--moves", "5e4e", "sfen(g[i])"][..],
            &r[..],
        ]
        .concat(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("4k4/9/9/9/5S3/9/9/9/4K4 w"), "{}", out(&o));
    let o = okite(&[
        "compare",
        "--rules",
        rules,
        "--readings",
        "sideways-silver,narrow",
        "--sfen",
        sfen,
        "--moves",
        "5e4e",
        "size(legal(g, i))",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    for spelling in ["--moves", "--usi"] {
        let o = okite(&[
            "game",
            "--rules",
            rules,
            "--readings",
            "sideways-silver",
            "--sfen",
            sfen,
            spelling,
            "5e4e 5a5b 4e5e",
        ]);
        assert_eq!(o.status.code(), Some(0), "{spelling}: {}", err(&o));
        assert!(out(&o).starts_with("3 moves"), "{spelling}: {}", out(&o));
    }
    // a move neither the shipped generator nor the rules make is still refused
    let o = okite(&[&["legal", "--sfen", sfen, "--moves", "5e3e"][..], &r[..]].concat());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("E0402") && err(&o).contains("succ(s)"),
        "{}",
        err(&o)
    );
    // a variant that takes moves away: the silver's step back is no move of its rules
    let back = [
        "--rules",
        "tests/variants/forward_silver.rule",
        "--reading",
        "forward-silver",
    ];
    let o = okite(&[&["legal", "--sfen", sfen, "--moves", "5e4f"][..], &back[..]].concat());
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(err(&o).contains("E0402"), "{}", err(&o));
    let o = okite(&[&["legal", "--sfen", sfen, "--moves", "5e4d"][..], &back[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = okite(&["legal", "--sfen", sfen, "--moves", "5e4f"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // USI `position`, under --rules and under the option Rules: the rules' moves are played
    // (the engine starts, with a warning), and `go mate` says why it does not search them
    let script = format!(
        "position sfen {sfen} moves 5e4e 5a5b 4e5e\ngo mate 1000\nposition sfen {sfen} moves 5e3e\ngo mate 1000\nquit\n"
    );
    let answers = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("checkmate"))
            .map(String::from)
            .collect()
    };
    let o = {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(["usi", "--rules", rules, "--reading", "sideways-silver"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        input
            .write_all(format!("usi\n{script}").as_bytes())
            .unwrap();
        drop(input);
        child.wait_with_output().unwrap()
    };
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("E0607"), "{}", err(&o));
    let text = out(&o);
    assert!(
        text.starts_with("id name"),
        "nothing before `usi`'s answer: {text}"
    );
    assert_eq!(
        answers(&text),
        ["checkmate notimplemented", "checkmate timeout"],
        "{text}"
    );
    assert_eq!(text.matches("bad position").count(), 1, "{text}");
    assert!(
        text.contains("`5e3e` is not a move of this position by the rules"),
        "{text}"
    );
    let s = usi_session(&format!(
        "usi\nsetoption name Rules value {rules}\nsetoption name Reading value sideways-silver\n{script}"
    ));
    assert_eq!(
        answers(&s),
        ["checkmate notimplemented", "checkmate timeout"],
        "{s}"
    );
    assert_eq!(s.matches("bad position").count(), 1, "{s}");
    // under the shipped rules, 5e4e is no move
    let s = usi_session(&format!("usi\n{script}"));
    assert_eq!(
        answers(&s),
        ["checkmate timeout", "checkmate timeout"],
        "{s}"
    );
    assert!(s.contains("`5e4e`"), "{s}");
    // the REPL: :moves plays it, and :legal lists what legal(g, i) holds
    let script = format!(
        ":reading sideways-silver\n:sfen {sfen}\n:legal\nsize(legal(g, i))\n:moves 5e4e\n:board\n"
    );
    let o = repl_with(&[rules], &script);
    let text = out(&o);
    assert!(
        text.contains("12 legal moves under the reading sideways-silver"),
        "{text}"
    );
    assert!(text.lines().any(|l| l.trim() == "12"), "{text}");
    assert!(text.contains("game of 2 positions"), "{text}\n{}", err(&o));
}

/// `okite repl ARGS` with `script` on its standard input.
fn repl_with(args: &[&str], script: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
        .arg("repl")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .env(
            "OKITE_HISTORY",
            std::env::temp_dir().join("okite-variants-history"),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The REPL's :legal agrees with `size(legal(g, i))` under every shipped reading and each test
/// variant, on a position where pawn drops and the history matter.
#[test]
fn repl_legal_is_legal_of_the_rules_in_force() {
    let sfen = "7nk/9/6B1L/9/9/9/9/9/4K4 b P 1";
    for (files, readings) in [
        (
            vec![],
            vec!["base", "narrow", "broad", "narrow-check", "broad-check"],
        ),
        (
            vec!["tests/variants/uchifuzume_allowed.rule"],
            vec!["uchifuzume-allowed"],
        ),
        (
            vec!["tests/variants/sideways_silver.rule"],
            vec!["sideways-silver"],
        ),
    ] {
        for reading in readings {
            let script = format!(":reading {reading}\n:sfen {sfen}\n:legal\nsize(legal(g, i))\n");
            let o = repl_with(&files, &script);
            let text = out(&o);
            let listed = text
                .lines()
                .find_map(|l| l.strip_suffix(&format!(" legal moves under the reading {reading}")))
                .unwrap_or_else(|| panic!("{reading}: {text}\n{}", err(&o)));
            let counted = text.lines().last().unwrap_or("").trim();
            assert_eq!(listed, counted, "{reading}: {text}");
        }
    }
}

/// `:load` of a file that `use`s the built-in rules by a path on disk loads them once.
#[test]
fn repl_load_of_a_file_using_the_rules_by_another_path() {
    let o = repl_with(
        &[],
        ":load tests/variants/uchifuzume_allowed.rule\n:reading uchifuzume-allowed\n1 + 1\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(!err(&o).contains("defined twice"), "{}", err(&o));
    assert!(out(&o).trim_end().ends_with('2'), "{}", out(&o));
}

/// `okite tsume` and `okite mate --batch` under a board variant. The positions are
/// nyashiki/erweitern_55's tests/test_checkmate.py cases (whether the side to move mates by
/// checks within 7 plies; hands as written there): the checker finds the shortest line and
/// judges it under each convention; a capture-rule variant and records are refused; a batch
/// answers each line, an unreadable one with its line number, exit 2.
#[test]
fn tsume_and_batches_under_a_variant() {
    let tsume = |sfen: &str, more: &[&str]| -> (Option<i32>, serde_json::Value, String) {
        let mut args = vec!["tsume", "--variant", "minishogi", "--sfen", sfen, "--json"];
        args.extend_from_slice(more);
        let o = okite(&args);
        let v = serde_json::from_str(&out(&o)).unwrap_or(serde_json::Value::Null);
        (o.status.code(), v, err(&o))
    };
    // test_checkmate1: a gold drop mates at once, nothing left over
    let (code, v, e) = tsume("2k2/5/2P2/5/2K2 b G 1", &[]);
    assert_eq!(code, Some(0), "{e}");
    assert_eq!(v["plies"], 1, "{v}");
    assert_eq!(v["solution"], "searched");
    assert!(
        v["verdicts"]
            .as_array()
            .unwrap()
            .iter()
            .all(|x| x["sound"] == true),
        "{v}"
    );
    // test_checkmate4: a mate in 3 with another first move that mates as well (余詰)
    let (code, v, e) = tsume("4k/4p/5/5/K4 b BG 1", &["--conventions", "strict"]);
    assert_eq!(code, Some(0), "{e}");
    assert_eq!(v["plies"], 3, "{v}");
    assert_eq!(v["verdicts"][0]["sound"], false, "{v}");
    assert_eq!(v["alternatives"][0]["ply"], 1, "{v}");
    // a stated solution that is not a mate, and one with an illegal move
    let (code, v, e) = tsume("2k2/5/2P2/5/2K2 b G 1", &["--solution", "G*2b"]);
    assert_eq!(code, Some(0), "{e}");
    assert_eq!(v["solution"], "given");
    assert_eq!(v["verdicts"][0]["sound"], false, "{v}");
    let (code, _, e) = tsume("2k2/5/2P2/5/2K2 b G 1", &["--solution", "G*9b"]);
    assert_eq!(code, Some(2), "{e}");
    assert!(e.contains("E0613"), "{e}");
    // dobutsu's royal piece is captured, not mated
    let o = okite(&["tsume", "--variant", "dobutsu", "--sfen", "startpos"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("E0406"), "{}", err(&o));
    // a batch: two mates, an unreadable line, a position without mate
    let dir = std::env::temp_dir().join(format!("okite-vbatch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let batch = dir.join("mini.sfen");
    std::fs::write(
        &batch,
        "# minishogi\n2k2/5/2P2/5/2K2 b G 1\n\n4k/5/4B/5/2K1R b - 1\nnot a position\n5/5/2k2/5/2K2 b 2G 1\n",
    )
    .unwrap();
    let b = batch.to_str().unwrap();
    let o = okite(&["mate", "--variant", "minishogi", "--batch", b, "--json"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let rows: Vec<serde_json::Value> = out(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let results: Vec<&str> = rows.iter().map(|r| r["result"].as_str().unwrap()).collect();
    assert_eq!(results, ["mate", "mate", "error", "nomate"], "{}", out(&o));
    assert_eq!(rows[2]["line"], 5);
    assert_eq!(rows[2]["code"], "E0401");
    let o = okite(&["mate", "--variant", "minishogi", "--batch", b]);
    assert!(err(&o).contains("mini.sfen line 5"), "{}", err(&o));
    // tsume --batch: each line's report is `tsume --sfen`'s (but its time), with 1 and 2 jobs;
    // the unreadable line and the position without mate are error objects in their places
    for jobs in ["1", "2"] {
        let o = okite(&[
            "tsume",
            "--variant",
            "minishogi",
            "--batch",
            b,
            "--json",
            "--jobs",
            jobs,
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", err(&o));
        let rows: Vec<serde_json::Value> = out(&o)
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(rows.len(), 4, "{}", out(&o));
        for (row, sfen) in [(0, "2k2/5/2P2/5/2K2 b G 1"), (1, "4k/5/4B/5/2K1R b - 1")] {
            let (code, mut alone, e) = tsume(sfen, &[]);
            assert_eq!(code, Some(0), "{e}");
            let mut got = rows[row].clone();
            alone["ms"] = 0.into();
            got["ms"] = 0.into();
            assert_eq!(got, alone, "{sfen}");
        }
        assert_eq!(rows[2]["line"], 5);
        assert_eq!(rows[2]["code"], "E0401");
        assert_eq!(rows[3]["code"], "E0614", "{}", rows[3]);
    }
}

/// `okite explain` and `okite compare` under a board variant: `s` is the position in the
/// variant's geometry, the variant's reading the default; the count by the rules is the
/// engine's (14 legal moves from minishogi's start, 28 with a gold in hand on the sparse board).
#[test]
fn explain_and_compare_under_a_variant() {
    let o = okite(&[
        "explain",
        "--variant",
        "minishogi",
        "--depth",
        "1",
        "--json",
        "size(legal(s))",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["value"], 14, "{v}");
    let o = okite(&[
        "legal",
        "--variant",
        "minishogi",
        "--sfen",
        "2k2/5/2P2/5/2K2 b G 1",
    ]);
    let engine = out(&o).split_whitespace().count();
    let o = okite(&[
        "compare",
        "--variant",
        "minishogi",
        "--readings",
        "minishogi",
        "--sfen",
        "2k2/5/2P2/5/2K2 b G 1",
        "--json",
        "size(legal(s))",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["readings"][0]["value"], engine as u64, "{v}");
    assert_eq!(engine, 28);
    // a position that does not fit the variant's board
    let o = okite(&[
        "explain",
        "--variant",
        "minishogi",
        "--sfen",
        "startpos 9",
        "size(legal(s))",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

/// `okite game` under a variant ends a game by its repetition rule: minishogi's kings stepping
/// back and forth make the start position occur a fourth time at ply 12, a loss for 先手
/// (minishogi's rule); a move after it is refused.
#[test]
fn a_repetition_ends_a_variant_game() {
    let four = "5e5d 1a1b 5d5e 1b1a";
    let moves = [four, four, four].join(" ");
    let args = |moves: &str| {
        okite(&[
            "game",
            "--variant",
            "minishogi",
            "--sfen",
            "4k/5/5/5/K4 b - 1",
            "--moves",
            moves,
            "--json",
        ])
    };
    let o = args(&moves);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["over"], true, "{v}");
    assert_eq!(v["winner"], "w", "{v}");
    // one ply short of it: the game goes on
    let short: Vec<&str> = moves.split_whitespace().take(11).collect();
    let o = args(&short.join(" "));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["over"], false, "{v}");
    let o = args(&format!("{moves} 5e5d"));
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("ended by repetition at move 12"),
        "{}",
        err(&o)
    );
    // judkins shogi: a rook checking back and forth, a perpetual check lost by 先手
    let rook = format!("5f5a{}", " 1a1b 5a5b 1b1a 5b5a".repeat(3));
    let o = okite(&[
        "game",
        "--variant",
        "judkins",
        "--sfen",
        "5k/6/6/6/6/KR4 b - 1",
        "--moves",
        &rook,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["winner"], "w", "{v}");
    assert!(
        v["reason"].as_str().unwrap().contains("perpetual check"),
        "{v}"
    );
}

/// The REPL under a board variant: `okite repl --variant NAME` (and rule files that state a
/// variant, under its reading) reads `:sfen` in the variant's geometry, plays `:moves` in its
/// notation, shows `:board`, lists `:legal` by the compiled engine, and binds `s`, so that the
/// rules' count of the legal moves is the engine's, as `okite legal --variant` gives them.
#[test]
fn the_repl_plays_a_board_variant() {
    for (args, name) in [
        (vec!["--variant", "minishogi"], "minishogi"),
        (
            vec!["rules/variants/kyotoshogi.rule", "--reading", "kyotoshogi"],
            "kyotoshogi",
        ),
        (vec!["--variant", "dobutsu"], "dobutsu"),
    ] {
        let cli = okite(&["legal", "--variant", name]);
        let first = out(&cli).split_whitespace().next().unwrap().to_string();
        let o = okite(&["legal", "--variant", name, "--moves", &first]);
        let after: Vec<String> = out(&o).split_whitespace().map(str::to_string).collect();
        let script = format!(
            ":sfen startpos\n:legal\n:moves {first}\n:board\n:legal\nsize(legal(s))\n:moves\n"
        );
        let o = repl_with(&args, &script);
        let text = out(&o);
        assert!(o.status.success(), "{name}: {text}\n{}", err(&o));
        assert!(
            text.contains("game of 1 position, now sfen"),
            "{name}: {text}"
        );
        assert!(text.contains("game of 2 positions"), "{name}: {text}");
        // :legal after the move lists the engine's moves, and the rules count as many
        let lines: Vec<&str> = text.lines().collect();
        let summaries: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].contains(" legal moves of "))
            .collect();
        assert_eq!(summaries.len(), 2, "{name}: {text}");
        let mut listed: Vec<&str> = lines[summaries[1] - 1].split_whitespace().collect();
        listed.sort();
        let mut want: Vec<&str> = after.iter().map(String::as_str).collect();
        want.sort();
        assert_eq!(listed, want, "{name}: {text}");
        assert!(
            lines[summaries[1]].starts_with(&format!(
                "{} legal moves of {name} under the reading {name}",
                after.len()
            )),
            "{name}: {text}"
        );
        let counted: usize = text
            .lines()
            .rev()
            .nth(1)
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or_else(|| panic!("{name}: {text}"));
        assert_eq!(counted, after.len(), "{name}: {text}");
        // :moves without moves lists the game's
        assert_eq!(text.lines().last().unwrap().trim(), first, "{name}: {text}");
    }
    // a move the variant does not allow, and an SFEN that does not fit its board, are refused
    // with their place; a record of standard shogi is not read under a variant
    let o = repl_with(
        &["--variant", "minishogi"],
        ":sfen startpos 5e5a\n:sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n:kif tests/data/records/nifu.kif\n",
    );
    let e = err(&o);
    assert!(e.contains("E0402"), "{e}");
    assert!(e.contains("E0401"), "{e}");
    assert!(
        e.contains("`手合割：平手` names no start position of minishogi"),
        "{e}"
    );
    // an unknown variant is refused before the session starts
    let o = repl_with(&["--variant", "chess"], "1 + 1\n");
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("no shipped variant `chess`"),
        "{}",
        err(&o)
    );
}

/// A minishogi game as lishogi writes its KIF (shogiops, src/notation/kif.ts): `手合割：5五将棋`,
/// numbered moves with their origins, `同　`, a drop, the ending word and the summary.
const MINI_KIF: &str = "開始日時：2024/01/01 10:00:00
手合割：5五将棋
先手：A
後手：B
手数----指手---------消費時間--
   1 ２四銀(35)   ( 0:01/00:00:01)
   2 ４二銀(31)   ( 0:01/00:00:01)
   3 ２三銀(24)   ( 0:01/00:00:02)
   4 同　角(41)   ( 0:01/00:00:02)
   5 １二飛(15)   ( 0:01/00:00:03)
   6 同　玉(11)   ( 0:01/00:00:03)
   7 ３二歩打   ( 0:01/00:00:03)
   8 投了
まで7手で先手の勝ち
";
const MINI_USI: &str = "3e2d 3a4b 2d2c 4a2c 1e1b 1a1b P*3b";

/// A minishogi problem as a board diagram with hands, and its solution.
const MINI_PROBLEM: &str = "手合割：5五将棋
後手の持駒：なし
  ５ ４ ３ ２ １
+---------------+
| ・ ・ ・ ・v玉|一
| ・ ・ ・ ・ ・|二
| ・ ・ ・ 金 ・|三
| ・ ・ ・ ・ ・|四
| 玉 ・ ・ ・ ・|五
+---------------+
先手の持駒：金
手数----指手---------消費時間--
   1 １二金打
まで1手で先手の勝ち
";

/// Kyoto shogi: every move turns the piece over; the third move is written without its `成`.
const KYOTO_KIF: &str = "手合割：京都将棋
手数----指手---------消費時間--
   1 １四歩成(15)
   2 ５二歩成(51)
   3 １一飛(14)
   4 ４二金成(41)
   5 ２三と打
";
const KYOTO_USI: &str = "1e1d+ 5a5b+ 1d1a- 4a4b- +L*2c";

/// KIF records of the variants whose KIF is defined (minishogi and kyoto shogi, as lishogi
/// writes them) are read by `game`, `game --records`, `tsume` and the REPL's `:kif` as the
/// same games given in USI; CSA, and KIF of a variant without a dialect, are refused.
#[test]
fn kif_records_of_a_variant_through_the_commands() {
    let dir = std::env::temp_dir().join(format!("okite-variant-kif-{}", std::process::id()));
    let recs = dir.join("records");
    std::fs::create_dir_all(&recs).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let mini = write("mini.kif", MINI_KIF);
    let problem = write("problem.kif", MINI_PROBLEM);
    let kyoto = write("kyoto.kif", KYOTO_KIF);
    for (variant, kif, usi) in [
        ("minishogi", &mini, MINI_USI),
        ("kyotoshogi", &kyoto, KYOTO_USI),
    ] {
        let by_kif = okite(&["game", "--variant", variant, "--kif", kif, "--json"]);
        let by_usi = okite(&["game", "--variant", variant, "--usi", usi, "--json"]);
        assert!(by_kif.status.success(), "{variant}: {}", err(&by_kif));
        assert_eq!(out(&by_kif), out(&by_usi), "{variant}");
        assert!(out(&by_kif).contains(&format!(
            "\"moves\": [\"{}\"",
            usi.split(' ').next().unwrap()
        )));
    }
    // a problem drawn as a diagram: its start is the diagram's, its move the solution
    let o = okite(&[
        "game",
        "--variant",
        "minishogi",
        "--kif",
        &problem,
        "--json",
    ]);
    assert!(
        out(&o).contains("\"winner\": \"b\", \"reason\": \"mate\""),
        "{}",
        out(&o)
    );
    let o = okite(&["tsume", "--variant", "minishogi", "--kif", &problem]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(
        out(&o).contains("main line (1 ply, as given): G*1b"),
        "{}",
        out(&o)
    );
    let o = okite(&[
        "tsume",
        "--variant",
        "minishogi",
        "--sfen",
        "4k/5/3G1/5/K4 b G 1",
    ]);
    assert!(
        out(&o).contains("G*1b") || out(&o).contains("G*2b"),
        "{}",
        out(&o)
    );
    // a folder of records: each its game, in order; a CSA record is an error object in its place
    std::fs::copy(&mini, recs.join("a.kif")).unwrap();
    std::fs::copy(&problem, recs.join("b.kif")).unwrap();
    std::fs::write(recs.join("c.csa"), "PI\n+\n").unwrap();
    let r = recs.display().to_string();
    let o = okite(&[
        "game",
        "--variant",
        "minishogi",
        "--records",
        &r,
        "--json",
        "--jobs",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let lines: Vec<String> = out(&o).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{}", out(&o));
    let one = out(&okite(&[
        "game",
        "--variant",
        "minishogi",
        "--kif",
        &mini,
        "--json",
    ]));
    assert_eq!(
        lines[0],
        format!(
            "{{\"record\": {:?}, {}",
            recs.join("a.kif").display().to_string(),
            &one[1..]
        )
    );
    assert!(lines[1].contains("\"reason\": \"mate\""), "{}", lines[1]);
    assert!(lines[2].contains("\"code\": \"E0406\""), "{}", lines[2]);
    // refusals, each naming what does not fit
    let refused = |args: &[&str], code: &str, said: &str| {
        let o = okite(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", out(&o));
        assert!(
            err(&o).contains(code) && err(&o).contains(said),
            "{args:?}: {}",
            err(&o)
        );
    };
    refused(
        &["game", "--variant", "dobutsu", "--kif", &mini],
        "E0403",
        "no form of KIF is defined for dobutsu",
    );
    refused(
        &[
            "game",
            "--variant",
            "minishogi",
            "--csa",
            "tests/data/shogi/impasse-27-27.csa",
        ],
        "E0406",
        "the CSA format defines the 9 x 9 board only",
    );
    refused(
        &[
            "tsume",
            "--variant",
            "minishogi",
            "--csa",
            "tests/data/shogi/impasse-27-27.csa",
        ],
        "E0406",
        "the CSA format defines the 9 x 9 board only",
    );
    refused(
        &["game", "--variant", "kyotoshogi", "--kif", &mini],
        "E0403",
        "`手合割：5五将棋` names no start position of kyotoshogi",
    );
    let wide = write(
        "wide.kif",
        &MINI_PROBLEM.replace("| ・ ・ ・ ・ ・|二", "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二"),
    );
    refused(
        &["game", "--variant", "minishogi", "--kif", &wide],
        "E0403",
        "the row has 9 cells, not 5",
    );
    let short = write(
        "short.kif",
        &MINI_PROBLEM.replace("| ・ ・ ・ ・ ・|四\n", ""),
    );
    refused(
        &["game", "--variant", "minishogi", "--kif", &short],
        "E0403",
        "the board diagram has 4 rows; minishogi's board has 5",
    );
    let named = write("named.kif", &MINI_KIF.replace("２四銀(35)", "２四金(35)"));
    refused(
        &["game", "--variant", "minishogi", "--kif", &named],
        "E0403",
        "the piece on 3e is 銀, not 金",
    );
    let illegal = write("illegal.kif", &MINI_KIF.replace("３二歩打", "１一歩打"));
    refused(
        &["game", "--variant", "minishogi", "--kif", &illegal],
        "E0403",
        "move 7 `１一歩打`",
    );
    // the REPL: :kif sets the variant's game, and the rules count its moves as the engine does
    let end = out(&okite(&[
        "game",
        "--variant",
        "kyotoshogi",
        "--usi",
        KYOTO_USI,
        "--json",
    ]));
    let sfen = end
        .split("\"sfen\": \"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_string();
    let legal = out(&okite(&[
        "legal",
        "--variant",
        "kyotoshogi",
        "--sfen",
        &sfen,
    ]));
    let o = repl_with(
        &["--variant", "kyotoshogi"],
        &format!(":kif {kyoto}\nsize(legal(s))\n:csa {kyoto}\n"),
    );
    let text = out(&o);
    assert!(
        text.contains(&format!("kyotoshogi game of 6 positions, now sfen {sfen}")),
        "{text}"
    );
    assert_eq!(
        text.lines().last().unwrap().trim(),
        legal.split_whitespace().count().to_string(),
        "{text}"
    );
    assert!(
        err(&o).contains(":csa reads 9 x 9 records only"),
        "{}",
        err(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The slow searches, run by .ci/run after the test command of README.md:
/// `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// The moves of a Go command are played under the rules loaded and the reading: a variant that
    /// captures nothing makes `B 4` of `W 3, B 2, B 4` on the 5-path a stone without liberties, which
    /// the shipped rules would have played as a capture; the reading `suicide` plays the suicide that
    /// the base forbids.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn go_moves_are_played_under_the_variant_and_the_reading() {
        let dir = edited_copy(
            "nocapture",
            "go.rule",
            "    c with { v: s } with { u: 0 | u in V(G), c(u) == -s, liberties(G, c, u) == {v} }\n",
            "    c with { v: s }\n",
        );
        let d = dir.to_str().unwrap();
        let shipped = okite(&[
            "go",
            "score",
            "--graph",
            "path:5",
            "--moves",
            "W 3, B 2, B 4",
        ]);
        assert_eq!(shipped.status.code(), Some(0), "{}", err(&shipped));
        for command in ["sequences", "score"] {
            let o = okite(&[
                "go",
                command,
                "--graph",
                "path:5",
                "--moves",
                "W 3, B 2, B 4",
                "--rules",
                d,
            ]);
            assert_ne!(o.status.code(), Some(0), "{command}: {}", out(&o));
            assert!(
                err(&o).contains("not a legal move"),
                "{command}: {}",
                err(&o)
            );
            // the move refused is pointed at, after the rules' reason
            assert!(
                err(&o).contains("the rules loaded refuse the move `B 4`"),
                "{command}: {}",
                err(&o)
            );
            // the moves are played one at a time: the notice of the natives off is said once
            let notices = err(&o)
                .lines()
                .filter(|l| l.contains("natives are off"))
                .count();
            assert_eq!(notices, 1, "{command}: {}", err(&o));
        }
        // an SGF record is replayed natively: refused where the variant places stones otherwise
        let sgf = dir.join("two.sgf");
        std::fs::write(&sgf, "(;GM[1]FF[4]SZ[3];B[aa];W[bb])").unwrap();
        let o = okite(&[
            "go",
            "classes",
            "--sgf",
            sgf.to_str().unwrap(),
            "--rules",
            d,
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", out(&o));
        assert!(
            err(&o).contains("E0607") && err(&o).contains("--moves"),
            "{}",
            err(&o)
        );
        let shipped = okite(&["go", "classes", "--sgf", sgf.to_str().unwrap()]);
        assert_eq!(shipped.status.code(), Some(0), "{}", err(&shipped));
        // a prefix the variant allows: the count follows it, as the rules alone count it
        let o = okite(&[
            "go",
            "sequences",
            "--graph",
            "path:5",
            "--moves",
            "W 3, B 2",
            "--rules",
            d,
        ]);
        let by_rules = okite(&[
            "go",
            "sequences",
            "--graph",
            "path:5",
            "--moves",
            "W 3, B 2",
            "--rules",
            d,
            "--engine",
            "rules",
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert_eq!(out(&o), out(&by_rules));
        // a suicide of two stones, legal under the reading `suicide` alone
        let moves = ["--graph", "path:4", "--moves", "B 1, W 3, B 2"];
        let base = okite(&[&["go", "solve"][..], &moves[..]].concat());
        assert_ne!(base.status.code(), Some(0), "{}", out(&base));
        assert!(err(&base).contains("suicide"), "{}", err(&base));
        for command in ["solve", "classes"] {
            let o = okite(
                &[
                    &["go", command][..],
                    &moves[..],
                    &["--reading", "suicide"][..],
                ]
                .concat(),
            );
            assert_eq!(o.status.code(), Some(0), "{command}: {}", err(&o));
        }
        // the two black stones are gone: White's stone stands alone on 3
        let o = okite(
            &[
                &["go", "classes"][..],
                &moves[..],
                &["--reading", "suicide"][..],
            ]
            .concat(),
        );
        let points: Vec<String> = out(&o)
            .lines()
            .map(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" "))
            .collect();
        assert_eq!(points, ["1 .", "2 .", "3 O", "4 ."], "{}", out(&o));
    }

    /// The mate search under a variant solves the first problems of the mate-5 set, and each line
    /// it gives replays as a mate under the variant, every move legal, by the rules.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn variant_mate_lines_replay_as_mates_by_the_rules() {
        if !common::oracles::present() {
            return;
        }
        let set = std::fs::read_to_string(common::oracles::path("mate-5-ply.sfen")).unwrap();
        let problems: Vec<&str> = set
            .lines()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .take(40)
            .collect();
        let batch =
            std::env::temp_dir().join(format!("okite-variants-mate5-{}.sfen", std::process::id()));
        std::fs::write(&batch, problems.join("\n")).unwrap();
        for (file, reading) in [
            (
                "tests/variants/uchifuzume_allowed.rule",
                "uchifuzume-allowed",
            ),
            ("tests/variants/nifu_allowed.rule", "nifu-allowed"),
        ] {
            let o = okite(&[
                "mate",
                "--rules",
                file,
                "--reading",
                reading,
                "--batch",
                batch.to_str().unwrap(),
                "--length",
                "any",
                "--json",
                "--time-ms",
                "20000",
            ]);
            assert_eq!(o.status.code(), Some(0), "{}", err(&o));
            let lines: Vec<String> = out(&o).lines().map(|l| l.to_string()).collect();
            assert_eq!(lines.len(), problems.len());
            let mut mates = 0;
            for (sfen, line) in problems.iter().zip(&lines) {
                if !line.starts_with("{\"result\": \"mate\"") {
                    continue;
                }
                mates += 1;
                let pv = line
                    .split("\"pv\": [")
                    .nth(1)
                    .and_then(|r| r.split(']').next())
                    .unwrap()
                    .replace(['"', ','], "");
                // every move legal, every attacking move a check, and mate at the end
                let check = okite(&[
                    "eval", "--rules", file, "--reading", reading, "--engine", "rules", "--sfen",
                    sfen, "--moves", &pv,
                    "(all j in 2..i: not forbidden(g[1..j], j)) and mate(g, i) and (all j in 1..i - 1: j mod 2 == 0 or in_check(g[j + 1], turn(g[j + 1])))",
                ]);
                assert_eq!(
                    out(&check),
                    "true",
                    "{reading} {sfen} {pv}: {}",
                    err(&check)
                );
            }
            assert!(
                mates + 2 >= problems.len(),
                "{reading}: {mates} mates of {}",
                problems.len()
            );
        }
    }
}
