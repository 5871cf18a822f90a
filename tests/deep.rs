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

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, .. ProptestConfig::default() })]

    /// Depths from 1 to past the default budget, with the default budget and a raised one.
    #[test]
    fn any_depth_answers_or_is_refused(
        n in prop_oneof![1u64..2_000, 2_000u64..99_000, 99_990u64..100_010, 100_010u64..400_000],
        raised in any::<bool>(),
    ) {
        every_face(n, raised);
    }
}

/// The edges of the budget, each side.
#[test]
fn at_the_budget() {
    every_face(DEFAULT_DEPTH - 3, false);
    every_face(DEFAULT_DEPTH + 1, false);
}
