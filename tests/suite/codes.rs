#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The catalogue of diagnostic codes (`okite codes`): every code written in the sources is
//! catalogued and every catalogued code is written in the sources; every example produces its
//! code, and its rendered output is a snapshot; docs/DIAGNOSTICS.md is the catalogue.

use okite::diagnostics::catalogue::{lookup, markdown, Example, Trigger, CODES};
use okite::diagnostics::{render, Diag};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Codes no short command line produces; each is produced below through the library.
const BY_LIBRARY: &[&str] = &["E0005", "E0013", "E0115", "E0305", "E0330", "E0608"];
/// Codes no input produces: guards against states the checker rules out, a bug of an engine, a
/// failure of the system.
const GUARDS: &[&str] = &["E0002", "E0312", "E0609", "E0610"];

const CATALOGUE: &str = "src/diagnostics/catalogue/codes.rs";
const CONSTANTS: &str = "src/diagnostics/code.rs";

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().and_then(|x| x.to_str()) == Some("rs") {
            out.push(p);
        }
    }
}

/// The constants of src/diagnostics/code.rs: name -> code.
fn constants() -> BTreeMap<String, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join(CONSTANTS)).unwrap();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("pub const ") {
            let (name, value) = rest.split_once(": &str = \"").unwrap();
            out.insert(name.to_string(), value.trim_end_matches("\";").to_string());
        }
    }
    out
}

/// The files of src/ that report codes: all but the catalogue and the constants.
fn reporting_sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![];
    rust_files(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let rel = f
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&f).unwrap();
            (rel, text)
        })
        .filter(|(rel, _)| {
            rel != CATALOGUE && rel != "src/diagnostics/catalogue.rs" && rel != CONSTANTS
        })
        .collect()
}

/// Every code the sources name by its constant (`code::NAME`), outside the catalogue itself,
/// with the places it occurs; a name that is no constant is kept as it is written.
fn codes_in_sources() -> BTreeMap<String, Vec<String>> {
    let names = constants();
    let mut out: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (rel, text) in reporting_sources() {
        for (n, line) in text.lines().enumerate() {
            for (at, _) in line.match_indices("code::") {
                let before = line[..at].chars().next_back();
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                let name: String = line[at + 6..]
                    .chars()
                    .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                    .collect();
                if name.is_empty() {
                    continue;
                }
                let code = names.get(&name).cloned().unwrap_or(name);
                out.entry(code)
                    .or_default()
                    .push(format!("{rel}:{}", n + 1));
            }
        }
    }
    out
}

/// No source writes a code as a literal: each names its constant.
#[test]
fn codes_are_named_by_their_constants() {
    let mut found = vec![];
    for (rel, text) in reporting_sources() {
        for (n, line) in text.lines().enumerate() {
            let b = line.as_bytes();
            for i in 0..b.len().saturating_sub(6) {
                if b[i] == b'"'
                    && b[i + 1].is_ascii_uppercase()
                    && b[i + 2..i + 6].iter().all(u8::is_ascii_digit)
                    && b[i + 6] == b'"'
                {
                    found.push(format!("{} at {rel}:{}", &line[i + 1..i + 6], n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "codes written as literals: {found:?}");
}

/// The constants are the catalogue: one for each code, named as the catalogue names it.
#[test]
fn the_constants_are_the_catalogue() {
    let names = constants();
    let want: BTreeMap<String, String> = CODES
        .iter()
        .map(|c| (c.name.to_uppercase().replace('-', "_"), c.code.to_string()))
        .collect();
    assert_eq!(names, want);
    assert_eq!(okite::diagnostics::code::SYNTAX_ERROR, "E0001");
}

#[test]
fn every_code_in_the_sources_is_catalogued() {
    let missing: Vec<String> = codes_in_sources()
        .into_iter()
        .filter(|(c, _)| lookup(c).is_none())
        .map(|(c, at)| format!("{c} (at {})", at.join(", ")))
        .collect();
    assert!(
        missing.is_empty(),
        "codes not in {CATALOGUE}: {}",
        missing.join("; ")
    );
}

#[test]
fn every_catalogued_code_is_in_the_sources() {
    let found = codes_in_sources();
    let stale: Vec<&str> = CODES
        .iter()
        .map(|c| c.code)
        .filter(|c| !found.contains_key(*c))
        .collect();
    assert!(
        stale.is_empty(),
        "catalogued codes that no source reports: {stale:?}"
    );
}

#[test]
fn codes_and_names_are_unique_and_in_order() {
    let codes: Vec<&str> = CODES.iter().map(|c| c.code).collect();
    let mut sorted = codes.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(codes, sorted, "codes are listed once each, in order");
    let names: BTreeSet<&str> = CODES.iter().map(|c| c.name).collect();
    assert_eq!(names.len(), CODES.len(), "names are unique");
    for c in CODES {
        assert!(
            !c.meaning.ends_with('.'),
            "{}: the meaning is one line without a full stop",
            c.code
        );
        assert!(
            !c.meaning.contains('\n'),
            "{}: the meaning is one line",
            c.code
        );
        assert!(
            c.name
                .chars()
                .all(|x| x.is_ascii_lowercase() || x == '-' || x.is_ascii_digit()),
            "{}: names are kebab case",
            c.code
        );
    }
}

/// The codes without a command line are exactly the ones listed above.
#[test]
fn the_codes_without_a_command_line_are_few_and_listed() {
    let library: Vec<&str> = CODES
        .iter()
        .filter(|c| matches!(c.trigger, Trigger::Library(_)))
        .map(|c| c.code)
        .collect();
    let guards: Vec<&str> = CODES
        .iter()
        .filter(|c| matches!(c.trigger, Trigger::Guard(_)))
        .map(|c| c.code)
        .collect();
    assert_eq!(library, BY_LIBRARY);
    assert_eq!(guards, GUARDS);
}

/// Run an example in a folder of its own; the text shown in its snapshot.
fn run_example(code: &str, ex: &Example) -> (String, String) {
    let dir = std::env::temp_dir()
        .join(format!("okite-codes-{}", std::process::id()))
        .join(code);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    if let Some(text) = ex.file {
        std::fs::write(dir.join(ex.name), text).unwrap();
    }
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_okite"));
    cmd.args(ex.args)
        .current_dir(&dir)
        .env("COLUMNS", "80")
        .env("NO_COLOR", "1")
        .env("OKITE_HISTORY", dir.join("history"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("run okite");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(ex.stdin.unwrap_or("").as_bytes()).unwrap();
    }
    let o = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&o.stderr).into_owned();
    // what varies from run to run: the time `okite test` took, and where a query stood when its
    // time ran out
    let stderr: String = stderr
        .lines()
        .filter(|l| !l.starts_with("ran in "))
        .filter(|l| code != "E0302" || !(l.trim_start().starts_with('·') || l.contains("╭─[")))
        .map(|l| format!("{l}\n"))
        .collect();
    let shown = format!(
        "$ {}\nexit status: {}\n--- stdout\n{stdout}--- stderr\n{stderr}",
        ex.command_line(),
        o.status
            .code()
            .map_or("none".to_string(), |c| c.to_string()),
    );
    (shown, stderr)
}

#[test]
fn every_example_produces_its_code() {
    let mut wrong = vec![];
    for c in CODES {
        let Trigger::Cli(ex) = &c.trigger else {
            continue;
        };
        let (shown, stderr) = run_example(c.code, ex);
        if !stderr.contains(&format!("okite::{}", c.code)) {
            wrong.push(format!("{}:\n{shown}", c.code));
            continue;
        }
        insta::assert_snapshot!(format!("example_{}", c.code), shown);
    }
    assert!(
        wrong.is_empty(),
        "examples that do not produce their code:\n{}",
        wrong.join("\n")
    );
}

fn code_of(diags: &[Diag], code: &str) -> bool {
    diags.iter().any(|d| d.code == code)
}

/// E0005: a text over 16 MiB handed to the parser.
#[test]
fn library_e0005_source_too_large() {
    use okite::check::load::load_str;
    use okite::natives::Natives;
    // short lines, so that the rendered source stays short
    let line = format!("// {}\n", "x".repeat(76));
    let text = format!(
        "def f = 1\n{}",
        line.repeat(okite::syntax::parser::MAX_SOURCE_BYTES / line.len() + 1)
    );
    let Err((sources, diags)) = load_str("big.rule", &text, &Natives::standard()) else {
        panic!("a text over 16 MiB loads");
    };
    assert!(code_of(&diags, "E0005"));
    insta::assert_snapshot!("library_E0005", render(&diags, &sources, 80, false));
}

/// E0115: a chain of `extends` longer than the bound; the readings past it are refused, the
/// others are not, and none is taken for a cycle.
#[test]
fn library_e0115_too_many_ancestors() {
    use okite::check::load::load_str;
    use okite::natives::Natives;
    let mut text = String::from("def a = 1\nreading r0 {}\n");
    for i in 1..=10_001 {
        text.push_str(&format!("reading r{i} extends r{} {{}}\n", i - 1));
    }
    let Err((sources, diags)) = load_str("chain.rule", &text, &Natives::standard()) else {
        panic!("a chain of 10,002 readings loads");
    };
    assert!(code_of(&diags, "E0115") && !code_of(&diags, "E0109"));
    assert_eq!(diags.len(), 1, "only r10001 extends more than 10,000");
    insta::assert_snapshot!("library_E0115", render(&diags, &sources, 80, false));
}

/// E0013: a line of more than 16 MiB piped to the REPL is skipped, read to its end without
/// being kept, and the next line is answered.
#[test]
fn library_e0013_input_too_long() {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_okite"))
        .arg("repl")
        .env("NO_COLOR", "1")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'1'; 1 << 20];
        for _ in 0..17 {
            stdin.write_all(&chunk).unwrap();
        }
        stdin.write_all(b"\n6 * 7\n").unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("E0013"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "42");
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("library_E0013", err);
}

/// E0305: the interrupt flag raised while a query runs.
#[test]
fn library_e0305_interrupted() {
    use okite::check::load::load_str;
    use okite::eval::Evaluator;
    use okite::natives::Natives;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let mut prog = load_str(
        "ex.rule",
        "def count_to(n: Int) -> Int = sum i in 1..n: i\n",
        &Natives::standard(),
    )
    .unwrap_or_else(|_| panic!("checks"));
    let text = "count_to(100000)";
    let fid = prog.sources.add("<query>", None, text.into());
    let e = okite::syntax::parse_expr(text, fid).unwrap();
    let q = prog.compile_query(&e, &[]).unwrap();
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    ev.interrupt = Some(Arc::new(AtomicBool::new(true)));
    let err = ev.eval_query(&q).expect_err("interrupted");
    assert_eq!(err.diag.code, "E0305");
    insta::assert_snapshot!(
        "library_E0305",
        render(&[*err.diag], &prog.sources, 80, false)
    );
}

/// E0330: a native function that disagrees with its rule, under the verify engine.
#[test]
fn library_e0330_native_disagrees() {
    use okite::check::load::load_shipped;
    use okite::check::Program;
    use okite::eval::{Binder, Evaluator, Off};
    use okite::ir::{DefId, ReadingId, Value};
    use okite::natives::{Engine, Natives};
    /// The standard binder but for one wrong native function, trusted everywhere.
    struct Wrong(Natives);
    impl Binder for Wrong {
        fn natives(&self) -> &Natives {
            &self.0
        }
        fn verdict(&self, _: &Program, _: ReadingId, _: DefId) -> Result<(), Off> {
            Ok(())
        }
    }
    let mut natives = Natives::standard();
    natives.add("core.reachable", 2, "a wrong reachable", |_, _| {
        Ok(Value::set(Default::default()))
    });
    let binder = Wrong(natives);
    let mut prog = load_shipped(&Natives::standard())
        .program
        .unwrap_or_else(|_| panic!("the shipped rules check"));
    let text = "reach({1}, {1: {2}, 2: {}})";
    let fid = prog.sources.add("<query>", None, text.into());
    let e = okite::syntax::parse_expr(text, fid).unwrap();
    let q = prog.compile_query(&e, &[]).unwrap();
    let mut ev = Evaluator::new(&prog, &binder);
    ev.engine = Engine::Verify;
    let err = ev.eval_query(&q).expect_err("the two disagree");
    assert_eq!(err.diag.code, "E0330");
    insta::assert_snapshot!(
        "library_E0330",
        render(&[*err.diag], &prog.sources, 80, false)
    );
}

/// E0608: a variant of the shipped rules (read from the repository's rules/ folder) whose changed
/// `uchifuzume` fails, under `okite legal` where a pawn drop gives mate.
#[test]
fn library_e0608_rules_failed_in_search() {
    let dir = std::env::temp_dir()
        .join(format!("okite-codes-{}", std::process::id()))
        .join("E0608");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("rules/shogi_mate.rule");
    std::fs::write(
        dir.join("broken.rule"),
        format!(
            "use {:?}\n\nreading broken extends narrow-check {{\n    \
             override def uchifuzume(g, i) = error(\"no judgement of pawn-drop mates\")\n}}\n",
            rules.to_str().unwrap()
        ),
    )
    .unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_okite"))
        .args([
            "legal",
            "--rules",
            "broken.rule",
            "--reading",
            "broken",
            "--sfen",
            "7nk/9/7G1/9/9/9/9/9/4K4 b P 1",
        ])
        .current_dir(&dir)
        .env("COLUMNS", "80")
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(o.status.code(), Some(2));
    assert!(o.stdout.is_empty());
    let stderr = String::from_utf8(o.stderr).unwrap();
    assert!(stderr.contains("okite::E0608"), "{stderr}");
    insta::assert_snapshot!("library_E0608", stderr);
}

/// `okite codes`: the list, one entry, JSON, and an unknown code (exit status 2).
#[test]
fn the_codes_command() {
    let okite = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(args)
            .env("NO_COLOR", "1")
            .env("COLUMNS", "80")
            .output()
            .unwrap()
    };
    let list = okite(&["codes"]);
    assert_eq!(list.status.code(), Some(0));
    let list = String::from_utf8(list.stdout).unwrap();
    assert_eq!(list.lines().count(), CODES.len());
    assert!(list.contains("E0320  cycle"), "{list}");

    let one = okite(&["codes", "e0320"]);
    assert_eq!(one.status.code(), Some(0));
    let one = String::from_utf8(one.stdout).unwrap();
    assert!(one.starts_with("E0320 cycle (eval, error)"), "{one}");
    assert!(one.contains("$ okite eval 'f(1)' --rules ex.rule"), "{one}");

    let by_name = okite(&["codes", "cycle", "--json"]);
    assert_eq!(by_name.status.code(), Some(0));
    let j = String::from_utf8(by_name.stdout).unwrap();
    assert!(
        j.starts_with("{\"code\": \"E0320\", \"name\": \"cycle\""),
        "{j}"
    );

    let all = okite(&["codes", "--json"]);
    let all = String::from_utf8(all.stdout).unwrap();
    assert!(all.starts_with('[') && all.trim_end().ends_with(']'));
    assert_eq!(all.matches("{\"code\": ").count(), CODES.len());

    let unknown = okite(&["codes", "E320"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(unknown.stdout.is_empty());
    let e = String::from_utf8(unknown.stderr).unwrap();
    assert!(e.contains("okite::E0601"), "{e}");
    assert!(e.contains("did you mean `E0320`?"), "{e}");
}

/// docs/DIAGNOSTICS.md is the catalogue; `OKITE_BLESS=1` rewrites it.
#[test]
fn the_diagnostics_document_is_the_catalogue() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/DIAGNOSTICS.md");
    let want = markdown();
    if std::env::var_os("OKITE_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/DIAGNOSTICS.md differs from the catalogue; run \
         `OKITE_BLESS=1 cargo test --release --test suite codes` to rewrite it"
    );
}
