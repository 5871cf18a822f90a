#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! Every walk over a deep recursion is bounded: a recursion `n` calls deep, for `n` from 1 to
//! past the call-depth budget, under `eval`, `explain`, `compare`, `test`, `--json` and the
//! REPL, with the default budget and with `--max-depth` raised to 10,000,000. Each ends with its
//! value (exit status 0) or with a diagnostic (2; the REPL goes on and ends with 1), never with
//! an abort: the calls nest on a grown stack, and the proof tree of the calls is built, walked,
//! printed and dropped without recursion.

use proptest::prelude::*;
use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The default call-depth budget (`--max-depth`).
const DEFAULT_DEPTH: u64 = 100_000;

/// `deep(n)` computes `n` by `n` nested calls; `d(n)` is a truth value `n` calls deep, whose
/// last call reads `base_case`, which the reading `flip` makes false.
const RULES: &str = "\
def deep(n: Int) -> Int = if n == 0 then 0 else deep(n - 1) + 1
def base_case -> Bool = true
def d(n: Int) -> Bool = if n == 0 then base_case else d(n - 1)
reading flip {
  override def base_case = false
}
";

fn run(args: &[String], stdin: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_okite"));
    c.args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("run okite");
    let mut input = child.stdin.take().unwrap();
    if let Some(s) = stdin {
        input.write_all(s.as_bytes()).unwrap();
    }
    drop(input);
    child.wait_with_output().unwrap()
}

/// The outcome of one command: its status is 0 or `refused` (2; 1 for `test`, whose examples
/// fail, and for the REPL, which goes on), never a signal; no panic or overflow is reported;
/// within the budget it answered, past it it was refused with the budget's diagnostic.
fn judge(args: &[String], o: &Output, within: bool, answer: &str, refused: i32) {
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    let code = o.status.code();
    let shown = format!(
        "{args:?}: status {code:?}\n{}\n{}",
        err.chars().take(2000).collect::<String>(),
        out.chars().take(500).collect::<String>()
    );
    assert!(!err.contains("overflow") || err.contains("E03"), "{shown}");
    assert!(!err.contains("panicked"), "{shown}");
    assert!(code == Some(0) || code == Some(refused), "{shown}");
    if within {
        assert_eq!(code, Some(0), "{shown}");
        assert!(out.contains(answer), "{shown}\nwanted {answer}");
    } else if code != Some(0) {
        let said = format!("{out}{err}");
        assert!(said.contains("E0304") || said.contains("E0306"), "{shown}");
    }
}

/// Every face, `n` calls deep. `raised`: `--max-depth 10000000` with a resident bound of
/// 384 MiB, so the nesting ends on memory (E0306) instead of the depth budget.
fn every_face(n: u64, raised: bool) {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("okite-deep-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("deep.rule");
    std::fs::write(
        &file,
        format!("{RULES}example \"down\" {{ assert deep({n}) == {n} }}\n"),
    )
    .unwrap();
    let file = file.to_str().unwrap().to_string();
    let budget: Vec<String> = if raised {
        ["--max-depth", "10000000", "--max-resident-mb", "384"]
            .map(String::from)
            .to_vec()
    } else {
        vec![]
    };
    // room for the query's own call and the example's; a raised budget is decided by memory,
    // so only a depth well inside what 384 MiB holds must answer
    let within = if raised {
        n < 20_000
    } else {
        n + 2 < DEFAULT_DEPTH
    };
    let beyond = !raised && n > DEFAULT_DEPTH;
    let s = |v: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = v.iter().map(|x| x.to_string()).collect();
        a.extend(budget.iter().cloned());
        a
    };
    let deep = format!("deep({n})");
    let d = format!("d({n})");
    let faces: Vec<(Vec<String>, String)> = vec![
        (s(&["eval", "--rules", &file, &deep]), n.to_string()),
        (
            s(&["eval", "--json", "--rules", &file, &deep]),
            n.to_string(),
        ),
        (
            s(&["explain", "--rules", &file, &format!("{deep} == {n}")]),
            format!("{deep} == {n} = true"),
        ),
        (
            s(&["explain", "--depth", "10000000", "--rules", &file, &d]),
            "base_case = true".into(),
        ),
        (
            s(&[
                "explain", "--json", "--depth", "10000000", "--rules", &file, &d,
            ]),
            "\"cut\": false".into(),
        ),
        (
            s(&["compare", "--readings", "base,flip", "--depth", "10000000"])
                .into_iter()
                .chain(["--rules".into(), file.clone(), d.clone()])
                .collect(),
            "[flip] base_case = false".into(),
        ),
        (
            s(&[
                "compare",
                "--json",
                "--readings",
                "base,flip",
                "--rules",
                &file,
                &d,
            ]),
            "\"agree\": false".into(),
        ),
        (s(&["test", &file]), "1 passed".into()),
    ];
    for (args, answer) in &faces {
        let o = run(args, None);
        // the explanation of `d(n)` is cut at its step limit past 100,000 steps shown
        let answer = if answer.contains("base_case") && n >= 99_999 {
            "… (the explanation is cut"
        } else {
            answer.as_str()
        };
        let refused = if args[0] == "test" { 1 } else { 2 };
        judge(args, &o, within, answer, refused);
        if beyond {
            assert_eq!(o.status.code(), Some(refused), "{args:?}");
        }
    }
    if !raised {
        let script = format!(
            "{deep}\n:explain --depth 10000000 {d}\n:compare --depth 10000000 base,flip {d}\n1 + 1\n"
        );
        let args = vec!["repl".to_string(), file.clone()];
        let o = run(&args, Some(&script));
        let out = String::from_utf8_lossy(&o.stdout);
        judge(&args, &o, within, &n.to_string(), 1);
        if beyond {
            assert_eq!(o.status.code(), Some(1), "{args:?}");
        }
        // the session goes on after a refusal
        assert!(out.trim_end().ends_with('2'), "{out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rule file in a folder of its own, then `okite ARGS` run with `{}` in ARGS replaced by its
/// path.
fn with_file(name: &str, text: &str, args: &[&str], stdin: Option<&str>) -> Output {
    static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let k = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("okite-wide-{}-{k}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let args: Vec<String> = args.iter().map(|a| a.replace("{}", file)).collect();
    let o = run(&args, stdin);
    let _ = std::fs::remove_dir_all(&dir);
    o
}

fn status_and_text(o: &Output) -> (Option<i32>, String) {
    (
        o.status.code(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

/// Chains that nest without brackets are refused before they are parsed: a run of prefix `-`
/// (each one level), a chain of function types or lambdas written with `->`. Each was read as
/// one level and overflowed the stack past it.
#[test]
fn chains_without_brackets_are_refused() {
    for (what, text) in [
        ("a run of -", format!("def f = {}1\n", "-".repeat(200_000))),
        (
            "a run of - with spaces",
            format!("def f = {}1\n", "- ".repeat(200_000)),
        ),
        (
            "a chain of function types",
            format!("def f(g: {}Int) = 1\n", "Int->".repeat(50_000)),
        ),
        (
            "a chain of lambdas",
            format!("def f = {}1\n", "x -> ".repeat(50_000)),
        ),
    ] {
        for args in [vec!["check", "{}"], vec!["eval", "--rules", "{}", "1"]] {
            let (code, text) = status_and_text(&with_file("chain.rule", &text, &args, None));
            assert_eq!(code, Some(2), "{what}: {}", &text[..text.len().min(2000)]);
            assert!(
                text.contains("E0007") || text.contains("E0001"),
                "{what}: {}",
                &text[..text.len().min(2000)]
            );
        }
    }
    // within the limit, a run of `-` still reads as it did
    let (code, text) = status_and_text(&with_file(
        "ok.rule",
        "def f = ---5\ndef g = - - -5\n",
        &["eval", "--rules", "{}", "(f, g)"],
        None,
    ));
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("(-5, -5)"), "{text}");
}

/// Width that the evaluator turns into depth: a comprehension of 200,000 guards, a quantifier
/// of 100,000 binders, a closure that captured a closure 300,000 times, a list of 300,000 cells
/// kept in the REPL's memo across a new definition. Each answers.
#[test]
fn width_turned_depth_answers() {
    let guards = format!("def x = {{1 | {}}}\n", vec!["true"; 200_000].join(", "));
    let (code, text) = status_and_text(&with_file(
        "g.rule",
        &guards,
        &["eval", "--rules", "{}", "size(x)"],
        None,
    ));
    assert_eq!((code, text.trim()), (Some(0), "1"), "{text}");
    let binders = format!(
        "def x = all {}: true\n",
        (0..100_000)
            .map(|i| format!("v{i} in {{1}}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let (code, text) = status_and_text(&with_file(
        "b.rule",
        &binders,
        &["eval", "--rules", "{}", "x"],
        None,
    ));
    assert_eq!((code, text.trim()), (Some(0), "true"), "{text}");
    let o = run(
        &[
            "eval".to_string(),
            "size(closure {(0, x -> x)} by (p -> if p.1 < 300000 then {(p.1 + 1, y -> p.2(y))} else {}))".to_string(),
        ],
        None,
    );
    let (code, text) = status_and_text(&o);
    assert_eq!((code, text.trim()), (Some(0), "300001"), "{text}");
    let list = "enum L { nil, cons(Int, L) }\n\
                def build(n: Int) -> L = the({p.2 | p in closure {(0, nil)} by (p -> if p.1 < n then {(p.1 + 1, cons(p.1, p.2))} else {}), p.1 == n})\n\
";
    let script = "build(300000) == build(300000)\ndef z = 1\nz + 1\n";
    let (code, text) = status_and_text(&with_file("l.rule", list, &["repl", "{}"], Some(script)));
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains("true") && text.trim_end().ends_with('2'),
        "{text}"
    );
}

/// A board variant's perft is refused past the depth any count could reach, before it
/// recurses.
#[test]
fn variant_perft_depth_is_bounded() {
    let o = run(
        &["perft", "--variant", "minishogi", "--depth", "1000000"].map(String::from),
        None,
    );
    let (code, text) = status_and_text(&o);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("E0602"), "{text}");
}

/// The slow tests (more than about 5 s each), run by .ci/run after the test command of
/// README.md: `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// The edges of the budget, each side.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn at_the_budget() {
        every_face(DEFAULT_DEPTH - 3, false);
        every_face(DEFAULT_DEPTH + 1, false);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 6, .. ProptestConfig::default() })]

        /// Depths from 1 to past the default budget, with the default budget and a raised one.
        #[test]
        #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
        fn any_depth_answers_or_is_refused(
            n in prop_oneof![1u64..2_000, 2_000u64..99_000, 99_990u64..100_010, 100_010u64..400_000],
            raised in any::<bool>(),
        ) {
            every_face(n, raised);
        }
    }
}
