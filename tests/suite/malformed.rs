#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! Malformed input for every command: a short error naming the problem, exit status 2, no panic,
//! and no file written. (Each command returning at all shows it does not hang.)

use crate::common;

fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("okite-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_command_refuses_malformed_input() {
    // a folder of its own: the other tests of this file make theirs in dir() meanwhile
    let d = dir().join("refused");
    std::fs::create_dir_all(&d).unwrap();
    let bad_rule = d.join("bad.rule");
    std::fs::write(&bad_rule, "def f(x = 1\n").unwrap();
    let bad_kif = d.join("bad.kif");
    std::fs::write(&bad_kif, "手合割：平手\n   1 ７七歩(77)\n   2 ９九王(11)\n").unwrap();
    let bad_csa = d.join("bad.csa");
    std::fs::write(&bad_csa, "PI\n+\n+7776FU\n-1199OU\n").unwrap();
    let empty_kif = d.join("empty.kif");
    std::fs::write(&empty_kif, "").unwrap();
    let cut_csa = d.join("cut.csa");
    std::fs::write(&cut_csa, "PI\n+\n+7776FU\n-33").unwrap();
    let bad_sgf = d.join("bad.sgf");
    std::fs::write(&bad_sgf, "(;SZ[3];B[zz]").unwrap();
    let bad_edges = d.join("bad.edges");
    std::fs::write(&bad_edges, "a b\nc d\n").unwrap();
    let loop_edges = d.join("loop.edges");
    std::fs::write(&loop_edges, "a b\nb c\n  b b\n").unwrap();
    let before: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["check".into(), p(&bad_rule)], "syntax error"),
        (vec!["check".into(), "no/such/dir".into()], "no such file"),
        (vec!["test".into(), p(&bad_rule)], "syntax error"),
        (vec!["eval".into(), "1 + (".into()], "syntax error"),
        (vec!["eval".into(), "undefined_name".into()], "unknown name"),
        (vec!["eval".into(), "1 / 0".into()], "division by zero"),
        (
            vec![
                "eval".into(),
                "--sfen".into(),
                "not an sfen".into(),
                "g".into(),
            ],
            "bad SFEN",
        ),
        (
            vec![
                "explain".into(),
                "--reading".into(),
                "nowhere".into(),
                "true".into(),
            ],
            "no reading named",
        ),
        (
            vec![
                "compare".into(),
                "--readings".into(),
                "narrow,nowhere".into(),
                "true".into(),
            ],
            "no reading named",
        ),
        (
            vec![
                "perft".into(),
                "--sfen".into(),
                "9/9/9 b - 1".into(),
                "--depth".into(),
                "1".into(),
            ],
            "bad SFEN",
        ),
        (
            vec!["perft".into(), "--depth".into(), "99".into()],
            "would not finish",
        ),
        (
            vec![
                "perft".into(),
                "--depth".into(),
                "1".into(),
                "--moves".into(),
                "7g7f 7f7e".into(),
            ],
            "bad move",
        ),
        (
            vec!["legal".into(), "--moves".into(), "9z9y".into()],
            "bad move",
        ),
        (
            vec!["legal".into(), "--reading".into(), "mine".into()],
            "readings",
        ),
        (
            vec![
                "show".into(),
                "--sfen".into(),
                "lnsgkgsnl/9/9/9/9/9/9/9/LNSGKGSNLX b - 1".into(),
            ],
            "bad SFEN",
        ),
        (
            vec!["game".into(), "--kif".into(), p(&bad_kif)],
            "bad game record",
        ),
        (
            vec!["game".into(), "--csa".into(), p(&bad_csa)],
            "bad game record",
        ),
        (
            vec!["game".into(), "--kif".into(), p(&empty_kif)],
            "record is empty",
        ),
        (vec!["game".into(), "--csa".into(), p(&cut_csa)], "line 4"),
        (
            vec!["game".into(), "--usi".into(), "7g7f 7g7f".into()],
            "bad move",
        ),
        (
            vec![
                "go".into(),
                "count".into(),
                "--graph".into(),
                "grid:0x3".into(),
            ],
            "no vertices",
        ),
        (
            vec![
                "go".into(),
                "count".into(),
                "--graph".into(),
                format!("edges:{}", p(&bad_edges)),
            ],
            "connected",
        ),
        (
            vec![
                "go".into(),
                "count".into(),
                "--graph".into(),
                format!("edges:{}", p(&loop_edges)),
            ],
            "loop.edges:3:3: a self-loop `b b`",
        ),
        (
            vec![
                "go".into(),
                "sequences".into(),
                "--graph".into(),
                "hexagon:4".into(),
            ],
            "graph",
        ),
        (
            vec![
                "go".into(),
                "solve".into(),
                "--graph".into(),
                "path:3".into(),
                "--reading".into(),
                "nowhere".into(),
            ],
            "reading",
        ),
        (
            vec![
                "go".into(),
                "solve".into(),
                "--graph".into(),
                "path:3".into(),
                "--komi".into(),
                "0.3".into(),
            ],
            "komi",
        ),
        (
            vec![
                "go".into(),
                "solve".into(),
                "--graph".into(),
                "path:3".into(),
                "--komi=1e300".into(),
            ],
            "a whole or half number, not 1e300",
        ),
        (
            vec![
                "go".into(),
                "show".into(),
                "--graph".into(),
                "grid:3x3".into(),
                "--sgf".into(),
                p(&bad_sgf),
            ],
            "",
        ),
        (
            vec![
                "go".into(),
                "show".into(),
                "--graph".into(),
                "grid:3x3".into(),
                "--moves".into(),
                "B Z9".into(),
            ],
            "not a vertex",
        ),
        (vec!["frobnicate".into()], "unrecognized subcommand"),
    ];
    for (args, needle) in cases {
        let words: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = common::okite(&words);
        let text = common::text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {text}");
        assert!(!text.contains("panicked"), "{args:?}: {text}");
        assert!(
            text.contains(needle),
            "{args:?} should say `{needle}`: {text}"
        );
    }
    let after: Vec<_> = std::fs::read_dir(&d)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(before.len(), after.len(), "a command left a file behind");
}

/// What a diagnostic shows is bounded by its labels, not by its input: an error at column 70,000
/// of a one-line file (the renderer counts columns up to 65,535) and an input with an error at
/// every character are told in a few kilobytes, with exit status 2 and no panic.
#[test]
fn diagnostics_of_huge_inputs_stay_small() {
    // a folder of its own: the test above counts the files of dir()
    let d = std::env::temp_dir().join(format!("okite-huge-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let wide = d.join("wide.rule");
    std::fs::write(&wide, format!("def x = 1{} + true\n", " ".repeat(70_000))).unwrap();
    let o = common::okite(&["check", wide.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("E0200") && err.contains("wide.rule:1:70013"),
        "{err}"
    );
    assert!(err.len() < 4_000, "{} bytes", err.len());

    // a type of 500 parts, each named by 100,000 characters, in 20 mismatches (a file of 100
    // KB whose messages were 103 MB for one mismatch): names and types are cut by length
    let name = format!("T{}", "x".repeat(100_000));
    for (file, parts) in [("long_names", 500), ("long_names_wide", 20_000)] {
        let mut text = format!(
            "enum {name} {{ A }}\ndef t = ({})\n",
            vec!["A"; parts].join(", ")
        );
        for i in 0..20 {
            text += &format!("def bad{i} -> Int = t\n");
        }
        // and an alias of such a name, shown by its name
        text +=
            &format!("type {name}2 = Set<{name}>\ndef s -> {name}2 = {{A}}\ndef bad -> Int = s\n");
        let f = d.join(format!("{file}.rule"));
        std::fs::write(&f, text).unwrap();
        let o = common::okite(&["check", f.to_str().unwrap()]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{}", &err[..err.len().min(2000)]);
        assert!(
            err.contains("21 errors"),
            "{}",
            &err[err.len().saturating_sub(2000)..]
        );
        assert!(err.len() < 21 * 4_000, "{file}: {} bytes", err.len());
        assert!(err.contains(&format!("T{}…", "x".repeat(62))), "{file}");
    }

    let sfen = "x".repeat(100_000);
    let o = common::okite(&["legal", "--sfen", &sfen]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(err.contains("E0401"), "{}", &err[..err.len().min(2000)]);
    assert!(err.contains("more diagnostics"));
    assert!(err.len() < 200_000, "{} bytes", err.len());
    let _ = std::fs::remove_dir_all(&d);
}

/// `okite check` of `text` written to `name`.rule in `dir`: its exit status and its stderr.
fn check_file(dir: &std::path::Path, name: &str, text: String) -> (Option<i32>, String) {
    let f = dir.join(format!("{name}.rule"));
    std::fs::write(&f, text).unwrap();
    let o = common::okite(&["check", f.to_str().unwrap()]);
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

/// Flat chains nest as deeply as brackets do: 50,000 operators, prefixes or postfixes in one
/// expression are refused with E0007 (exit status 2) instead of overflowing the stack, and a
/// chain within the limit checks.
#[test]
fn long_chains_are_refused_not_aborted() {
    let d = std::env::temp_dir().join(format!("okite-chains-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let n = 50_000;
    let cases = [
        ("sum", format!("def x = {}", vec!["1"; n].join(" + "))),
        ("and", format!("def x = {}", vec!["true"; n].join(" and "))),
        ("not", format!("def x = {}true", "not ".repeat(n))),
        ("neg", format!("def x = {}1", "- ".repeat(n))),
        ("index", format!("def x = [1]{}", "[1]".repeat(n))),
        ("proj", format!("def x = (1,){}", ".1".repeat(n))),
        (
            "with",
            format!("def x = {{1: 2}}{}", " with {1: 3}".repeat(n)),
        ),
        (
            "call",
            format!(
                "def f(x: Int) -> Int = x\ndef x = {}1{}",
                "f(".repeat(n),
                ")".repeat(n)
            ),
        ),
    ];
    for (name, text) in cases {
        let (code, err) = check_file(&d, name, text);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(err.contains("E0007"), "{name}: {err}");
    }
    let ok = d.join("ok.rule");
    std::fs::write(&ok, format!("def x = {}", vec!["1"; 1_500].join(" + "))).unwrap();
    let o = common::okite(&["eval", "--rules", ok.to_str().unwrap(), "x"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "1500");
}

/// Values as deep as the rules build them (a list of 30,000 enum cells, a tree whose nodes hold
/// sequences) are compared, hashed as memo keys, printed and dropped without overflowing the
/// stack.
#[test]
fn deep_values_are_walked_without_overflow() {
    let d = std::env::temp_dir().join(format!("okite-deep-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("deep.rule");
    std::fs::write(
        &f,
        "enum L { nil, cons(Int, L) }\n\
         def build(n: Int) -> L = if n == 0 then nil else cons(n, build(n - 1))\n\
         def depth(l: L) -> Int = match l { nil => 0, cons(_, t) => 1 + depth(t) }\n\
         enum T { leaf, node(Seq<T>) }\n\
         def tree(n: Int) -> T = if n == 0 then leaf else node([tree(n - 1)])\n",
    )
    .unwrap();
    for (query, want) in [
        ("depth(build(15000))", "15000"),
        ("build(30000) == build(30000)", "true"),
        (
            "{build(20000), build(20001)} == {build(20001), build(20000)}",
            "true",
        ),
        ("tree(20000) == tree(20000)", "true"),
        ("len(str(build(20000))) > 100000", "true"),
    ] {
        let o = common::okite(&["eval", "--rules", f.to_str().unwrap(), query]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{query}: {err}");
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).trim(),
            want,
            "{query}: {err}"
        );
    }
}

/// Every file okite reads is read bounded: a device (`/dev/zero`) given as an edge list, an SGF
/// record or a game record is refused at once with a diagnostic, never read without end.
#[cfg(unix)]
#[test]
fn devices_are_refused_not_read() {
    for args in [
        vec!["go", "count", "--graph", "edges:/dev/zero"],
        vec!["go", "show", "--graph", "grid:3x3", "--sgf", "/dev/zero"],
        vec!["game", "--kif", "/dev/zero"],
        vec!["game", "--csa", "/dev/zero"],
        vec!["mate", "--batch", "/dev/zero"],
        vec!["check", "/dev/zero"],
    ] {
        let o = common::okite(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
}

/// The options of every command whose value is a file or a folder, found in the command line's
/// own definition (so that an option added later is tried too): (the subcommand's words, the
/// option's long name, or `None` for a positional argument).
fn path_options() -> Vec<(Vec<String>, Option<String>)> {
    use clap::CommandFactory;
    fn walk(c: &clap::Command, words: Vec<String>, out: &mut Vec<(Vec<String>, Option<String>)>) {
        for a in c.get_arguments() {
            if format!("{:?}", a.get_value_parser()).contains("path_buf") {
                out.push((words.clone(), a.get_long().map(str::to_string)));
            }
        }
        for s in c.get_subcommands() {
            let mut w = words.clone();
            w.push(s.get_name().to_string());
            walk(s, w, out);
        }
    }
    let mut out = vec![];
    walk(&okite::cli::Cli::command(), vec![], &mut out);
    out
}

/// The command line that gives `file` to the option `long` of the subcommand `words`, with
/// what else the command needs to get as far as opening it.
fn giving(words: &[String], long: Option<&str>, file: &str) -> Vec<String> {
    let mut args: Vec<String> = words.to_vec();
    match long {
        Some(l) => args.extend([format!("--{l}"), file.to_string()]),
        None => args.push(file.to_string()),
    }
    let w: Vec<&str> = words.iter().map(String::as_str).collect();
    let extra: &[&str] = match w.as_slice() {
        ["eval"] | ["explain"] => &["1"],
        ["compare"] => &["--readings", "base", "1"],
        ["perft"] => &["--depth", "1"],
        ["go", "sequences"] | ["go", "count"] | ["go", "ultimate"] => &["--graph", "path:2"],
        ["go", sub] if *sub != "result" || long != Some("sgf") => &["--graph", "path:2"],
        ["mate"] if long != Some("batch") => &["--sfen", "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"],
        _ => &[],
    };
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// A folder `name` of the tests' folder, holding a FIFO nobody writes and a sparse file of 2 GiB:
/// (the folder, the FIFO, the sparse file).
#[cfg(unix)]
fn no_regular_files(name: &str) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    let d = dir().join(name);
    std::fs::create_dir_all(&d).unwrap();
    let fifo = d.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let sparse = d.join("sparse");
    std::fs::File::create(&sparse)
        .unwrap()
        .set_len(2 << 30)
        .unwrap();
    (d, fifo, sparse)
}

/// Every file a command opens must be a regular file of bounded size, checked before a byte is
/// read or written: each option of every command that takes a file (found in the command line's
/// definition), given a FIFO nobody writes, a folder, `/dev/zero` and a sparse file of 2 GiB, is
/// refused at once with a diagnostic (exit 2), never read without end nor waited on. The
/// options that take a folder (`man --dir`, `rules export`) are given the others. The REPL
/// reports a failed load as it reports every failed input of a session, with exit 1.
#[cfg(unix)]
#[test]
fn every_file_option_refuses_what_is_no_regular_file() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let (d, fifo, sparse) = no_regular_files("file-options");
    let folder = d.join("folder");
    std::fs::create_dir_all(&folder).unwrap();
    let bad = [
        ("a FIFO", fifo.to_str().unwrap().to_string()),
        ("a folder", folder.to_str().unwrap().to_string()),
        ("/dev/zero", "/dev/zero".to_string()),
        (
            "a sparse file of 2 GiB",
            sparse.to_str().unwrap().to_string(),
        ),
    ];
    let options = path_options();
    assert!(options.len() >= 40, "{options:?}");
    let mut failures = vec![];
    for (words, long) in &options {
        let takes_folder = long.as_deref() == Some("dir") || words == &["rules", "export"];
        for (what, file) in &bad {
            if takes_folder && *what == "a folder" {
                continue;
            }
            let args = giving(words, long.as_deref(), file);
            let start = Instant::now();
            let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
                .args(&args)
                .env("NO_COLOR", "1")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let status = loop {
                if let Some(st) = child.try_wait().unwrap() {
                    break Some(st);
                }
                if start.elapsed() > Duration::from_secs(20) {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                std::thread::sleep(Duration::from_millis(10));
            };
            let mut err = String::new();
            use std::io::Read;
            let _ = child.stderr.take().unwrap().read_to_string(&mut err);
            let code = if words == &["repl"] { 1 } else { 2 };
            let ok = status.is_some_and(|st| st.code() == Some(code))
                && err.contains("E0")
                && !err.contains("Usage:");
            if !ok {
                failures.push(format!(
                    "okite {} ({what}): {status:?} after {:?}: {}",
                    args.join(" "),
                    start.elapsed(),
                    err.lines().take(3).collect::<Vec<_>>().join(" / ")
                ));
            }
        }
    }
    let _ = std::fs::remove_file(&fifo);
    let _ = std::fs::remove_file(&sparse);
    assert!(
        failures.is_empty(),
        "{} refused wrongly:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `man --dir` writes each page through the one writer: a FIFO where a page would go is
/// refused at once (exit 2), not waited on, and the pages are written in a folder that is.
#[cfg(unix)]
#[test]
fn manual_pages_are_not_written_into_a_fifo() {
    let (d, fifo, _) = no_regular_files("pages");
    let _ = std::fs::remove_file(d.join("sparse"));
    std::fs::rename(&fifo, d.join("okite.1")).unwrap();
    let o = common::okite(&["man", "--dir", d.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("okite.1: not a regular file"), "{err}");
    let _ = std::fs::remove_file(d.join("okite.1"));
    let o = common::okite(&["man", "--dir", d.to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(d.join("okite.1").is_file() && d.join("okite-perft.1").is_file());
}

/// The files named inside a command's value or a session, past the options: an edge list
/// (`--graph edges:FILE`) and the REPL's `:load`, `:kif` and `:csa`, each given a FIFO, a folder,
/// `/dev/zero` and a sparse file of 2 GiB, are refused at once, and the session goes on.
#[cfg(unix)]
#[test]
fn edge_lists_and_repl_files_refuse_what_is_no_regular_file() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let (d, fifo, sparse) = no_regular_files("inner-files");
    for file in [
        fifo.to_str().unwrap(),
        d.to_str().unwrap(),
        "/dev/zero",
        sparse.to_str().unwrap(),
    ] {
        let o = common::okite(&["go", "count", "--graph", &format!("edges:{file}")]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "edges:{file}: {err}");
        let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
            .arg("repl")
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let script = format!(":load {file}\n:kif {file}\n:csa {file}\n6 * 7\n");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(script.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        let (out, err) = (
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr),
        );
        assert_eq!(err.matches("E001").count(), 3, "{file}: {err}");
        assert!(out.contains("42"), "{file}: the session goes on: {out}");
    }
    let _ = std::fs::remove_file(&fifo);
    let _ = std::fs::remove_file(&sparse);
}

mod properties {
    //! Properties per class of hostile input, on generated inputs: nesting and flat chains of
    //! any shape and depth (class 1), lines piped to the REPL and batches of positions
    //! (classes 2 and 7). Each finding becomes a case of the tests above.
    use okite::check::load::load_str;
    use okite::eval::Evaluator;
    use okite::ir::Value;
    use okite::natives::Natives;
    use proptest::prelude::*;
    use std::process::Command;

    /// How an expression ends at its top: bracketed or atomic, a sum (`... + 1`), or an `if`
    /// (which reaches as far right as it can).
    #[derive(Clone, Copy, PartialEq)]
    enum Top {
        Atom,
        Sum,
        If,
    }

    /// One level of an integer expression around `e`, its value from the value of `e`, and its
    /// top. Where an operator would take only part of `e` (a minus before a sum, a sum after an
    /// `if`), `e` is bracketed; a `let` binds a bracketed value (`in` is an operator too); sums
    /// of sums stay flat chains.
    fn wrap(kind: u8, e: &str, v: i64, top: Top) -> (String, i64, Top) {
        let atom = if top == Top::Atom {
            e.to_string()
        } else {
            format!("({e})")
        };
        let summand = if top == Top::If {
            format!("({e})")
        } else {
            e.to_string()
        };
        match kind % 8 {
            0 => (format!("({e})"), v, Top::Atom),
            1 => (format!("(-{atom})"), -v, Top::Atom),
            2 => (format!("{summand} + 1"), v + 1, Top::Sum),
            3 => (format!("f({e})"), v, Top::Atom),
            4 => (format!("[{e}][1]"), v, Top::Atom),
            5 => (format!("({e},).1"), v, Top::Atom),
            6 => (format!("if true then {e} else 0"), v, Top::If),
            _ => (format!("(let y = ({e}) in y)"), v, Top::Atom),
        }
    }

    /// The expression of `kinds` (the innermost first) around 1, and its value.
    fn nest(kinds: &[u8]) -> (String, i64) {
        let (e, v, _) = kinds
            .iter()
            .fold(("1".to_string(), 1, Top::Atom), |(e, v, t), &k| {
                wrap(k, &e, v, t)
            });
        (e, v)
    }

    fn eval_def(src: &str) -> Result<Value, Vec<&'static str>> {
        let mut prog = load_str("p.rule", src, &Natives::standard())
            .map_err(|(_, ds)| ds.iter().map(|d| d.code).collect::<Vec<_>>())?;
        let fid = prog.sources.add("<q>", None, "x".to_string());
        let e = okite::syntax::parse_expr("x", fid).map_err(|_| vec!["parse"])?;
        let q = prog.compile_query(&e, &[]).map_err(|_| vec!["compile"])?;
        let binder = okite::bindings::Sound::standard();
        let mut ev = Evaluator::new(&prog, &binder);
        ev.eval_query(&q).map_err(|e| vec![e.diag.code])
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

        /// Nesting of any mix of brackets, prefixes, postfixes, operators, calls and binding
        /// forms: within 1,000 levels it checks and evaluates to its value; past 2,000 it is
        /// refused with E0007; in between either; never an abort.
        #[test]
        fn nesting_of_any_shape_checks_or_is_refused(
            kinds in proptest::collection::vec(any::<u8>(), 1..1000usize),
            deep in 0usize..4,
        ) {
            // the same shape repeated to reach past 3,000 levels in a quarter of the cases
            let kinds: Vec<u8> = kinds.iter().copied().cycle().take(kinds.len() * (1 + deep * 3)).collect();
            let (e, v) = nest(&kinds);
            let src = format!("def f(x: Int) -> Int = x\ndef x = {e}\n");
            match eval_def(&src) {
                Ok(got) => {
                    prop_assert!(kinds.len() <= 2000 || kinds.iter().all(|k| k % 8 == 2));
                    prop_assert_eq!(got, Value::Int(v));
                }
                Err(codes) => {
                    prop_assert!(kinds.len() > 1000, "{} levels: {:?}", kinds.len(), codes);
                    prop_assert!(codes.contains(&"E0007"), "{} levels: {:?}", kinds.len(), codes);
                }
            }
        }
    }

    /// Fragments of REPL input: definitions (some unfinished), queries, commands, junk.
    const REPL_PARTS: &[&str] = &[
        "def f(x: Int) -> Int = x + 1",
        "def g(x: Int) -> Int =",
        "    x * 2",
        "f(2)",
        "g(3)",
        "1 + (",
        ")",
        ":sfen startpos",
        ":sfen 9/9/9 b - 1",
        ":moves 7g7f 3c3d",
        ":moves 7g7f 7g7f",
        ":legal",
        ":board",
        ":type f",
        ":reading broad",
        ":reading nowhere",
        ":frobnicate",
        "example e { assert f(1) == 2 }",
        "theorem t { all i in 1..3: f(i) > i }",
        "size(powerset(1..21))",
        "{ x | x in 1..5 }",
        "",
        "enum E { a, b }",
        "\u{3000}",
        "def",
        "mate_in(g, i, 1)",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 16, .. ProptestConfig::default() })]

        /// Any sequence of lines piped to the REPL is answered line by line: exit status 0, or
        /// 1 when some line failed; never a panic; the session reaches the end of its input.
        #[test]
        fn any_repl_input_is_answered(picks in proptest::collection::vec(0..REPL_PARTS.len(), 0..40)) {
            let mut input: String = picks.iter().map(|&i| format!("{}\n", REPL_PARTS[i])).collect();
            // a blank line first ends a definition left waiting for its body, so that the last
            // line is always a query
            input.push_str("\n6 * 7\n");
            let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
                .arg("repl")
                .env("NO_COLOR", "1")
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            {
                use std::io::Write;
                let mut stdin = child.stdin.take().unwrap();
                stdin.write_all(input.as_bytes()).unwrap();
            }
            let o = child.wait_with_output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            let out = String::from_utf8_lossy(&o.stdout);
            prop_assert!(!err.contains("panicked"), "{input}\n{err}");
            prop_assert!(matches!(o.status.code(), Some(0) | Some(1)), "{input}\n{err}");
            // the last query is answered, unless an unfinished definition swallowed it
            prop_assert!(out.contains("42") || err.contains("error"), "{input}\n{out}\n{err}");
        }
    }

    /// Lines of a batch of positions: good ones, bad ones, comments.
    const BATCH_LINES: &[&str] = &[
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "startpos",
        "startpos moves 7g7f",
        "not an sfen",
        "4k4/9/9/9/9/9/9/9/4K3r w - 1",
        "P3k4/9/9/9/9/9/9/9/4K4 b - 1",
        "# a comment",
        "",
        "9/9/9/9/9/9/9/9/9 b - 1",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 7g7f",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

        /// A batch of any lines gets one JSON object per position line (an error object for a
        /// bad one, naming its line), exit status 2 when some line is bad, else 0; no panic.
        #[test]
        fn any_batch_gets_one_answer_a_line(picks in proptest::collection::vec(0..BATCH_LINES.len(), 1..12)) {
            let dir = std::env::temp_dir().join(format!("okite-batch-prop-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let f = dir.join("batch.txt");
            let lines: Vec<&str> = picks.iter().map(|&i| BATCH_LINES[i]).collect();
            std::fs::write(&f, lines.join("\n")).unwrap();
            let o = crate::common::okite(&[
                "mate",
                "--batch",
                f.to_str().unwrap(),
                "--json",
                "--time-ms",
                "200",
            ]);
            let out = String::from_utf8_lossy(&o.stdout);
            let err = String::from_utf8_lossy(&o.stderr);
            prop_assert!(!err.contains("panicked"), "{err}");
            let problems: Vec<usize> = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
                .map(|(i, _)| i + 1)
                .collect();
            let answers: Vec<&str> = out.lines().collect();
            prop_assert_eq!(answers.len(), problems.len(), "{:?}\n{}", lines, out);
            let errors: Vec<&&str> = answers.iter().filter(|a| a.contains("\"result\": \"error\"")).collect();
            for (a, line) in answers.iter().zip(&problems) {
                if a.contains("\"result\": \"error\"") {
                    let needle = format!("\"line\": {line},");
                    prop_assert!(a.contains(&needle), "{}", a);
                }
            }
            prop_assert_eq!(o.status.code(), Some(if errors.is_empty() { 0 } else { 2 }), "{}", err);
        }
    }
}

/// Positions that break the seeds' conditions (the side not to move in check, dead pieces, two
/// pawns on a file) get one answer from every command: `perft` natively and by the rules, and
/// `legal`, count the same moves, or all three refuse the position (E0405).
mod positions {
    use proptest::prelude::*;

    const PIECES: &[&str] = &[
        "P", "L", "N", "S", "G", "B", "R", "+P", "+R", "+B", "p", "l", "n", "s", "g", "b", "r",
        "+p", "+r", "+b",
    ];

    /// An SFEN with both kings on `kings`, `pieces` (a kind and a square each; a taken square is
    /// skipped), the side to move and a hand.
    fn sfen(kings: (u8, u8), pieces: &[(usize, u8)], black: bool, hand: &str) -> Option<String> {
        if kings.0 == kings.1 {
            return None;
        }
        let mut board: Vec<Option<&str>> = vec![None; 81];
        board[kings.0 as usize] = Some("K");
        board[kings.1 as usize] = Some("k");
        for &(k, sq) in pieces {
            if board[sq as usize].is_none() {
                board[sq as usize] = Some(PIECES[k]);
            }
        }
        let ranks: Vec<String> = board
            .chunks(9)
            .map(|rank| {
                let mut s = String::new();
                let mut empty = 0;
                for cell in rank {
                    match cell {
                        None => empty += 1,
                        Some(p) => {
                            if empty > 0 {
                                s += &empty.to_string();
                                empty = 0;
                            }
                            s += p;
                        }
                    }
                }
                if empty > 0 {
                    s += &empty.to_string();
                }
                s
            })
            .collect();
        Some(format!(
            "{} {} {} 1",
            ranks.join("/"),
            if black { "b" } else { "w" },
            hand
        ))
    }

    fn okite(args: &[&str]) -> (Option<i32>, String, String) {
        let o = crate::common::okite(args);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]

        #[test]
        fn any_position_gets_one_answer_from_every_command(
            kings in (0u8..81, 0u8..81),
            pieces in proptest::collection::vec((0..PIECES.len(), 0u8..81), 0..8),
            black in any::<bool>(),
            hand in prop::sample::select(vec!["-", "G", "P", "p", "RBr", "2P3p"]),
        ) {
            let Some(s) = sfen(kings, &pieces, black, hand) else { return Ok(()) };
            let native = okite(&["perft", "--depth", "1", "--sfen", &s]);
            let rules = okite(&["perft", "--depth", "1", "--engine", "rules", "--sfen", &s]);
            let legal = okite(&["legal", "--reading", "narrow-check", "--sfen", &s]);
            // what each says: a count, or the code of the refusal (E0405, or E0401 for more
            // pieces than a set holds)
            let verdict = |(code, _, err): &(Option<i32>, String, String)| -> Result<(), TestCaseError> {
                prop_assert!(!err.contains("panicked"), "{s}: {err}");
                prop_assert!(
                    *code == Some(0) || (*code == Some(2) && (err.contains("E0405") || err.contains("E0401"))),
                    "{s}: {err}"
                );
                Ok(())
            };
            verdict(&native)?;
            verdict(&rules)?;
            verdict(&legal)?;
            let code = |e: &str| ["E0401", "E0405"].into_iter().find(|c| e.contains(c));
            prop_assert_eq!(native.0, rules.0, "{}: {} / {}", s, native.2, rules.2);
            prop_assert_eq!(native.0, legal.0, "{}: {} / {}", s, native.2, legal.2);
            prop_assert_eq!(code(&native.2), code(&rules.2), "{}", s);
            prop_assert_eq!(code(&native.2), code(&legal.2), "{}", s);
            if native.0 == Some(0) {
                prop_assert_eq!(native.1.trim(), rules.1.trim(), "{}", s);
                let listed = legal.1.split_whitespace().count().to_string();
                prop_assert_eq!(native.1.trim(), listed.as_str(), "{}", s);
            }
        }
    }
}

/// The USI engine answers any session: every `isready` with `readyok`, every `usi` with `usiok`,
/// every `go` with one answer (a search ended by the commands after it, or by the end of the
/// input), however the commands fall during searches; options of any size are answered too.
mod usi_sessions {
    use proptest::prelude::*;

    const MICROCOSMOS: &str = "position sfen g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1";

    const COMMANDS: &[&str] = &[
        "usi",
        "isready",
        "stop",
        "usinewgame",
        "ponderhit",
        "gameover win",
        MICROCOSMOS,
        "position startpos moves 7g7f 3c3d",
        "position sfen 7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1",
        "position sfen 9/9/9 b - 1",
        "position startpos moves 7g7f 7g7f",
        "go mate infinite",
        "go mate 50",
        "go mate 99999999999999999999999",
        "go",
        "go infinite",
        "setoption name USI_Hash value 99999999999999999999",
        "setoption name USI_Hash value 1",
        "setoption name USI_Hash value -3",
        "setoption name Nonexistent value 1",
        "setoption",
        "",
        "\u{0}\u{7f} nonsense",
    ];

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, .. ProptestConfig::default() })]

        #[test]
        fn any_session_is_answered(picks in proptest::collection::vec(0..COMMANDS.len(), 0..24)) {
            let lines: Vec<&str> = picks.iter().map(|&i| COMMANDS[i]).collect();
            let input = lines.iter().map(|l| format!("{l}\n")).collect::<String>();
            let t0 = std::time::Instant::now();
            let mut out = Vec::new();
            okite::shogi::usi_engine::usi_loop(input.as_bytes(), &mut out).unwrap();
            let out = String::from_utf8(out).unwrap();
            let count = |word: &str| out.lines().filter(|l| l.split_whitespace().next() == Some(word)).count();
            let asked = |pred: &dyn Fn(&str) -> bool| lines.iter().filter(|l| pred(l)).count();
            prop_assert_eq!(count("readyok"), asked(&|l| l == "isready"), "{:?}\n{}", lines, out);
            prop_assert_eq!(count("usiok"), asked(&|l| l == "usi"), "{:?}\n{}", lines, out);
            prop_assert_eq!(
                count("checkmate") + count("bestmove"),
                asked(&|l| l.split_whitespace().next() == Some("go")),
                "{:?}\n{}", lines, out
            );
            // searches end when the next command needs them ended, or at the end of the input
            prop_assert!(t0.elapsed() < std::time::Duration::from_secs(20), "{:?}", lines);
        }
    }
}

/// Diagnostics stay small however large and however wrong the input: a rule file, an SFEN and an
/// edge list made of any mix of bad pieces, up to 100 KB, get at most 128 KiB of diagnostics
/// (a window around each error, a bounded number of errors, then a count), exit status 2 and
/// no panic.
mod diagnostic_sizes {
    use proptest::prelude::*;

    const RULE_PIECES: &[&str] = &[
        "def x = 1 + true\n",
        "def y = zz + qq\n",
        "def z(a: Int) -> Bool = a\n",
        "((((",
        "))",
        "def w = \"",
        "match { , }\n",
        " + ",
        "\u{3042}\u{3044}",
        "                                                                                ",
    ];
    const SFEN_PIECES: &[&str] = &["x", "/", "9", "k", "+", " ", "K", "10", "\u{3042}", "P*"];
    const EDGE_PIECES: &[&str] = &[
        "a b\n",
        "a a\n",
        "x\n",
        "a b c\n",
        "b a\n",
        "\u{3042} \u{3044}\n",
        "          ",
    ];

    fn text(pieces: &[&str], picks: &[usize], repeat: usize) -> String {
        let unit: String = picks.iter().map(|&i| pieces[i % pieces.len()]).collect();
        unit.repeat(repeat)
    }

    fn stderr_of(args: &[&str]) -> (Option<i32>, String) {
        let o = crate::common::okite(args);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    }

    /// A name defined again on each of many long lines: each diagnostic shows its two places
    /// with context, and a hundred of them once made 132 KB (found by the property below).
    /// The rendering stops at a byte budget and counts the rest.
    #[test]
    fn many_long_diagnostics_are_counted_past_a_budget() {
        let dir = std::env::temp_dir().join(format!("okite-diag-long-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let pad = " ".repeat(200);
        let unit = format!("{pad}def x = 1 + true\n{pad}");
        for repeat in [79, 400, 4000] {
            let file = dir.join("p.rule");
            std::fs::write(&file, unit.repeat(repeat)).unwrap();
            let (code, err) = stderr_of(&["check", file.to_str().unwrap()]);
            assert_eq!(code, Some(2), "{err}");
            assert!(err.len() <= 128 << 10, "{repeat}: {} bytes", err.len());
            assert!(err.contains("more diagnostics"), "{repeat}: {err}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

        #[test]
        fn diagnostics_stay_small(
            picks in proptest::collection::vec(0usize..64, 1..16),
            repeat in 1usize..4000,
        ) {
            let dir = std::env::temp_dir().join(format!("okite-diag-sizes-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let rules = text(RULE_PIECES, &picks, repeat);
            let rules = &rules[..rules.floor_char_boundary(100_000)];
            let rule_file = dir.join("p.rule");
            std::fs::write(&rule_file, rules).unwrap();
            let sfen = text(SFEN_PIECES, &picks, repeat);
            let sfen = &sfen[..sfen.floor_char_boundary(100_000)];
            let edges = text(EDGE_PIECES, &picks, repeat);
            let edges = &edges[..edges.floor_char_boundary(100_000)];
            let edge_file = dir.join("g.edges");
            std::fs::write(&edge_file, edges).unwrap();
            let graph = format!("edges:{}", edge_file.display());
            for args in [
                vec!["check", rule_file.to_str().unwrap()],
                vec!["legal", "--sfen", sfen],
                vec!["go", "count", "--graph", &graph],
            ] {
                let (code, err) = stderr_of(&args);
                prop_assert!(!err.contains("panicked"), "{}", err);
                prop_assert!(err.len() <= 128 << 10, "{:?}: {} bytes of diagnostics", &args[..1], err.len());
                if code != Some(0) {
                    prop_assert_eq!(code, Some(2), "{}", err);
                    prop_assert!(err.contains("okite::E"), "{}", err);
                }
            }
        }
    }
}

/// Type aliases are lowered each after those it names, in any order of writing: a chain written
/// backwards checks (its retries once took time in the cube of its length, and marked the types
/// unknown, so that a mismatch beside it went unseen); thousands of aliases of nested types are
/// not a nested expression (the nesting check once counted their brackets across lines); an
/// alias that doubles what it names is refused with E0205 before it is built.
#[test]
fn type_aliases_in_any_order_and_of_any_size() {
    let d = std::env::temp_dir().join(format!("okite-aliases-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let check = |name: &str, text: String| check_file(&d, name, text);
    let n = 3_000;
    let mut backwards: String = (0..n)
        .map(|i| format!("type T{i} = T{}\n", i + 1))
        .collect();
    backwards += &format!("type T{n} = Int\ndef f(x: T0) -> T0 = x + 1\n");
    assert_eq!(check("backwards", backwards).0, Some(0));
    let (code, err) = check(
        "mismatch",
        "type A = B\ntype B = Int\ndef f = 1 + true\n".to_string(),
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("E0200"), "{err}");
    let mut sets = String::from("type S0 = Int\n");
    // (each a copy of the one before: 2,500 of them hold 3.1 million nodes, within the bound)
    for i in 1..2_500 {
        sets += &format!("type S{i} = Set<S{}>\n", i - 1);
    }
    let (code, err) = check("sets", sets);
    assert_eq!(code, Some(0), "{err}");
    let mut doubling = String::from("type T0 = Int\n");
    for i in 1..40 {
        doubling += &format!("type T{i} = (T{}, T{})\n", i - 1, i - 1);
    }
    doubling += "def f(x: T39) -> T39 = x\n";
    let (code, err) = check("doubling", doubling);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("E0205") && err.contains("`T16` would have 131071 nodes"),
        "{err}"
    );
    let (code, err) = check("cycle", "type A = B\ntype B = A\n".to_string());
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("unknown type `B`") && err.contains("unknown type `A`"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Inferred types share their parts: `p_k = (p_{k-1}, p_{k-1})` has a type of 2^k written parts
/// made of k + 1 stored ones, and checking costs the stored ones (300 lines once took longer
/// than any wait, and 19 took 207 MB). A message shows such a type cut (`…`). A type nested
/// deeper than the checker's walks go is refused with E0205, where a chain of 1,000 nested set
/// definitions once took 22 s and 5,000 did not finish in 5 minutes.
#[test]
fn inferred_types_of_any_size_are_shared_and_bounded() {
    let d = std::env::temp_dir().join(format!("okite-inferred-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let check = |name: &str, text: String| check_file(&d, name, text);
    let mut doubling = String::from("def p0 = 1\n");
    for k in 1..=300 {
        doubling += &format!("def p{k} = (p{}, p{})\n", k - 1, k - 1);
    }
    doubling += "def q = {p300}\ndef r(x) = (x, p300)\ndef s = r(r(p300)).2.1.2\n";
    let (code, err) = check("doubling", doubling.clone());
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = check("mismatch", doubling + "def bad = p300 + 1\n");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("E0200") && err.contains('…'), "{err}");
    assert!(err.len() < 50_000, "{} bytes of message", err.len());
    let mut chain = String::from("def s0 = 1\n");
    for k in 1..1_200 {
        chain += &format!("def s{k} = {{s{}}}\n", k - 1);
    }
    let (code, err) = check("chain", chain);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("E0205") && err.contains("nested more than 1000 levels deep"),
        "{err}"
    );
    let mut chain = String::from("def s0 = 1\n");
    for k in 1..900 {
        chain += &format!("def s{k} = {{s{}}}\n", k - 1);
    }
    let (code, err) = check("shorter", chain);
    assert_eq!(code, Some(0), "{err}");
    let _ = std::fs::remove_dir_all(&d);
}

/// Values share their parts too: `p_k = (p_{k-1}, p_{k-1})` is 2^k written parts. Comparing two
/// such values built apart compares each pair of shared parts once, a tuple's hash takes in a
/// bounded number of its parts, a value's text is cut at `MAX_VALUE_TEXT` characters, and one
/// too long to write as JSON is refused with E0307 (each of these took longer than any wait).
#[test]
fn values_made_of_shared_parts_compare_hash_and_print_bounded() {
    let d = std::env::temp_dir().join(format!("okite-shared-values-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let mut rules = String::new();
    for (name, leaf, open, close) in [
        ("p", "1", "(", ")"),
        ("s", "1", "(", ")"),
        ("t", "2", "(", ")"),
        ("e", "[1]", "[", "]"),
        ("g", "[1]", "[", "]"),
    ] {
        rules += &format!("def {name}0 = {leaf}\n");
        for k in 1..=120 {
            rules += &format!(
                "def {name}{k} = {open}{name}{}, {name}{}{close}\n",
                k - 1,
                k - 1
            );
        }
    }
    rules += "def f(x) = (x, 1)\n";
    let f = d.join("shared.rule");
    std::fs::write(&f, rules).unwrap();
    let rules = f.to_str().unwrap();
    let eval = |expr: &str| {
        let o = common::okite(&["eval", "--rules", rules, expr]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{expr}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).trim_end().to_string()
    };
    assert_eq!(eval("p120 == s120"), "true");
    assert_eq!(eval("p120 == t120"), "false");
    assert_eq!(eval("t120 > s120"), "true");
    assert_eq!(eval("size({p120, s120, t120})"), "2");
    assert_eq!(eval("f(p120) == f(s120) and f(p120) != f(t120)"), "true");
    assert_eq!(eval("size({e120, g120}) == 1 and e120 == g120"), "true");
    let o = common::okite(&["eval", "--rules", rules, "--json", "p120"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("E0307") && o.stdout.is_empty(), "{err}");
    let text = eval("p120");
    assert!(text.ends_with('…'), "{}", &text[text.len() - 40..]);
    assert_eq!(
        text.chars().count(),
        okite::front::MAX_VALUE_TEXT + 1,
        "the text is cut at the bound"
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// The built-ins that copy, reverse, sort, join or compare whole collections keep to the step
/// budget and the time limit inside one call (they were charged one step each, and ran for
/// seconds past `--timeout-ms`); `functions` counts its maps exactly in its refusal.
#[test]
fn bulk_built_ins_keep_to_the_budget() {
    let big = "seq(1..3000000)";
    let cases = [
        format!("len({big})"),
        format!("len(rev({big}))"),
        format!("len(sort({big}))"),
        format!("{big} == {big}"),
        format!("len({big} ++ {big})"),
        format!("len(take({big}, 2999999))"),
        format!("len(zip({big}, {big}))"),
        "size(1..3000000)".to_string(),
        "size(set(1..3000000))".to_string(),
        "size((1..3000000) \\ {1})".to_string(),
        "size(keys({ i: i | i in 1..3000000 }))".to_string(),
    ];
    for e in &cases {
        // the steps: refused whatever the machine's speed
        let o = common::okite(&["eval", "--max-steps", "1000000", e]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{e}: {err}");
        assert!(err.contains("E0301"), "{e}: {err}");
    }
    // the time: ten times the size, refused within its limit rather than answered
    for e in ["len(seq(1..30000000))", "len(sort(seq(1..30000000)))"] {
        let o = common::okite(&["eval", "--timeout-ms", "50", e]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{e}: {err}");
        assert!(err.contains("E0302"), "{e}: {err}");
    }
    // and the answers within the budget are the same
    let o = common::okite(&["eval", "sort(rev(seq(1..200000))) == seq(1..200000)"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "true");
    let o = common::okite(&[
        "eval",
        "[3, 1, 2, 1] == sort([1, 3, 2, 1]) or sort([3, 1, 2, 1]) == [1, 1, 2, 3]",
    ]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "true");
    // E0303 writes the count of maps exactly: 7^25, and past the largest it can count
    for (e, count) in [
        (
            "size(functions(1..25, 1..7))",
            "there are 1341068619663964900807 functions (7^25)",
        ),
        (
            "size(functions(1..1000, 1..1000))",
            "more than 340282366920938463463374607431768211455 functions (1000^1000)",
        ),
    ] {
        let o = common::okite(&["eval", e]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("E0303") && err.contains(count), "{e}: {err}");
    }
}

/// `go solve --time-ms` binds the rules' evaluation as it binds the native solver: a reading of
/// the user's own is solved by the rules, for seconds on 6 vertices, and the limit ends it
/// (E0302) rather than being ignored.
#[test]
fn go_solve_by_the_rules_keeps_its_time_limit() {
    let d = std::env::temp_dir().join(format!("okite-solve-time-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    let f = d.join("mine.rule");
    std::fs::write(
        &f,
        "reading mine extends area {\n    override def cycle_value(G) = 1\n}\n",
    )
    .unwrap();
    let f = f.to_str().unwrap();
    let solve = |graph: &str, ms: &str| {
        common::okite(&[
            "go",
            "solve",
            "--rules",
            "rules",
            "--rules",
            f,
            "--reading",
            "mine",
            "--graph",
            graph,
            "--time-ms",
            ms,
        ])
    };
    let o = solve("path:6", "100");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("E0302"), "{err}");
    // and a small graph is answered within it
    let o = solve("path:2", "60000");
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&d);
}

/// Chains of definitions that double a value at each line, one for every operation that makes
/// a value: (what, the first definition, the step from `v{j}` to `v{k}`, the query of `v{n}`).
/// `{half}` is 2^(k-1), so that a set's new elements are new.
const DOUBLINGS: [(&str, &str, &str, &str); 14] = [
    ("text ++", "def v0 = \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"", "v{k} = v{j} ++ v{j}", "len(v{n})"),
    ("sequence ++", "def v0 = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]", "v{k} = v{j} ++ v{j}", "len(v{n})"),
    ("set union", "def v0 = {0}", "v{k} = v{j} union { x + {half} | x in v{j} }", "size(v{n})"),
    ("sequence comprehension", "def v0 = [1, 2, 3, 4]", "v{k} = [ y | x in v{j}, y in [x, x + 1] ]", "len(v{n})"),
    ("set comprehension", "def v0 = {0}", "v{k} = { 2 * x + b | x in v{j}, b in {0, 1} }", "size(v{n})"),
    ("map comprehension", "def v0 = {0: 0}", "v{k} = { 2 * x + b: b | x in keys(v{j}), b in {0, 1} }", "size(v{n})"),
    ("with", "def v0 = {0: 0}", "v{k} = v{j} with { x + {half}: 1 | x in keys(v{j}) }", "size(v{n})"),
    ("product", "def v0 = {0}", "v{k} = { p.1 * 2 + p.2 | p in product(v{j}, {0, 1}) }", "size(v{n})"),
    ("zip", "def v0 = [1, 2]", "v{k} = [ y | p in zip(v{j}, v{j}), y in [p.1, p.2] ]", "len(v{n})"),
    ("rev", "def v0 = [1, 2, 3]", "v{k} = rev(v{j}) ++ v{j}", "len(v{n})"),
    ("union_all", "def v0 = {0}", "v{k} = union_all({ v{j}, { x + {half} | x in v{j} } })", "size(v{n})"),
    ("str of shared parts", "def v0 = \"xxxxxxxx\"", "v{k} = (v{j}, v{j})", "len(str(v{n}))"),
    ("sort of keys", "def v0 = {0: 0}", "v{k} = { x: 0 | x in sort(seq(keys(v{j}))) ++ [ y + {half} | y in seq(keys(v{j})) ] }", "size(v{n})"),
    ("slices", "def v0 = [1, 2, 3, 4]", "v{k} = v{j}[1..len(v{j})] ++ take(v{j}, len(v{j}))", "len(v{n})"),
];

/// The rule file of the chain `chain` doubled `n` times, and its query.
fn doubling(chain: usize, n: usize) -> (String, String) {
    let (_, first, step, query) = DOUBLINGS[chain];
    let mut text = format!("{first}\n");
    for k in 1..=n {
        let line = step
            .replace("{k}", &k.to_string())
            .replace("{j}", &(k - 1).to_string())
            .replace("{half}", &(1u64 << (k - 1)).to_string());
        text += &format!("def {line}\n");
    }
    (text, query.replace("{n}", &n.to_string()))
}

/// `okite eval` of `query` over `text` under `--max-resident-mb bound` in a process whose
/// address space is limited to `space_mb` (`ulimit -v`): the exit code and standard error.
#[cfg(target_os = "linux")]
fn eval_limited(
    name: &str,
    text: &str,
    query: &str,
    bound: usize,
    space_mb: usize,
    json: bool,
) -> (Option<i32>, String) {
    let dir = dir().join("doubling");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.rule"));
    std::fs::write(&file, text).unwrap();
    let o = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {}; exec \"$0\" eval {} --max-resident-mb {bound} --rules \"$1\" \"$2\"",
            space_mb << 10,
            if json { "--json" } else { "" }
        ))
        .arg(env!("CARGO_BIN_EXE_okite"))
        .arg(&file)
        .arg(query)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        o.status.code(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    )
}

#[cfg(target_os = "linux")]
mod growth {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: std::env::var("OKITE_GROWTH_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(8), ..ProptestConfig::default() })]
        /// Any chain of doublings, of any length, under any tight bound and an address-space
        /// limit a little above it: an answer (exit 0) when the value fits, E0306 (exit 2)
        /// when it does not, never the allocator's abort (134) nor any other end.
        #[test]
        fn growth_answers_or_is_refused_never_aborts(
            chain in 0..DOUBLINGS.len(),
            n in 8usize..48,
            bound in 96usize..320,
            slack in 48usize..160,
        ) {
            let (text, query) = doubling(chain, n);
            let (code, err) = eval_limited(&format!("grow{chain}-{n}"), &text, &query, bound, bound + slack, false);
            prop_assert!(
                code == Some(0) || (code == Some(2) && err.contains("E0306")),
                "{} doubled {n} times under {bound} MiB, {} MiB of address space: {code:?} {err}",
                DOUBLINGS[chain].0,
                bound + slack
            );
        }
    }
}

/// The slow tests (more than about 5 s each), run by .ci/run after the test command of
/// README.md: `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// Values that double at each line, by every operation that makes a value (`++` on texts and
    /// sequences, `union`, the three comprehensions, `with`, `product`, `zip`, `rev`, `union_all`,
    /// `sort`, slices and `take`, the text `str` writes of shared parts), past any bound: under `--max-resident-mb 256`
    /// in a process whose address space is 352 MiB, each is refused with E0306 before the
    /// allocation that would pass a bound is asked for, never aborted by the allocator (a text of
    /// 1.6 GB made by `++` aborted the process: "memory allocation failed", exit 134). The JSON text
    /// of a value of shared parts is weighed before it is written too (E0307).
    #[cfg(target_os = "linux")]
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn doubling_values_are_refused_before_they_are_made() {
        for (i, (what, ..)) in DOUBLINGS.iter().enumerate() {
            let (text, query) = doubling(i, 40);
            let (code, err) = eval_limited(&format!("chain{i}"), &text, &query, 256, 352, false);
            assert_eq!(code, Some(2), "{what}: {err}");
            assert!(err.contains("E0306"), "{what}: {err}");
        }
        let (text, _) = doubling(11, 40);
        let (code, err) = eval_limited("json", &text, "v24", 256, 352, true);
        assert_eq!(code, Some(2), "JSON: {err}");
        assert!(err.contains("E0307"), "JSON: {err}");
    }
}
