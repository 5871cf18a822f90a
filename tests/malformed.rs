//! Malformed input for every command: a short error naming the problem, exit status 2, no panic,
//! and no file written. (Each command returning at all shows it does not hang.)

use std::process::Command;

fn dir() -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("okite-malformed-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_command_refuses_malformed_input() {
    let d = dir();
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
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
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
    let o = Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(["check", wide.to_str().unwrap()])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("E0200") && err.contains("wide.rule:1:70013"),
        "{err}"
    );
    assert!(err.len() < 4_000, "{} bytes", err.len());

    let sfen = "x".repeat(100_000);
    let o = Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(["legal", "--sfen", &sfen])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2));
    assert!(err.contains("E0401"), "{}", &err[..err.len().min(2000)]);
    assert!(err.contains("more diagnostics"));
    assert!(err.len() < 200_000, "{} bytes", err.len());
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
        let f = d.join(format!("{name}.rule"));
        std::fs::write(&f, text).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(["check", f.to_str().unwrap()])
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("E0007"), "{name}: {err}");
    }
    let ok = d.join("ok.rule");
    std::fs::write(&ok, format!("def x = {}", vec!["1"; 1_500].join(" + "))).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(["eval", "--rules", ok.to_str().unwrap(), "x"])
        .output()
        .unwrap();
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
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(["eval", "--rules", f.to_str().unwrap(), query])
            .output()
            .unwrap();
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
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(&args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
    }
}
