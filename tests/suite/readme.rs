#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The README's tour is true: every `$ okite ...` line of its code blocks runs (from the
//! repository's folder, with the variables the tour sets before it), exits 0, and prints what the
//! README shows under it. In a shown line, `...` or `…` stands for any text, and a line `...`
//! alone for any number of lines. Lines that cannot run as written (`--moves ...`), that wait for
//! a person (`okite repl`, `okite usi`) or that take about a minute (Microcosmos) are named in
//! `skipped` and only counted.

use std::process::Command;

/// One command of the tour with the lines shown under it.
struct Step {
    line: usize,
    command: String,
    shown: Vec<String>,
}

fn steps(readme: &str) -> (Vec<Step>, Vec<(usize, String)>) {
    let mut out: Vec<Step> = vec![];
    let mut vars: Vec<(usize, String)> = vec![];
    let mut in_block = false;
    let mut current: Option<Step> = None;
    for (i, l) in readme.lines().enumerate() {
        if l.starts_with("```") {
            in_block = !in_block;
            if let Some(s) = current.take() {
                out.push(s);
            }
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(cmd) = l.strip_prefix("$ ") {
            if let Some(s) = current.take() {
                out.push(s);
            }
            // a trailing comment is the README's, not the shell's
            let cmd = match cmd.find("  #") {
                Some(k) => cmd[..k].trim_end(),
                None => cmd.trim_end(),
            };
            let first = cmd.split_whitespace().next().unwrap_or("");
            if first.contains('=') && !first.starts_with("okite") {
                vars.push((i + 1, cmd.to_string()));
            } else if first == "okite" || first == "cat" {
                current = Some(Step {
                    line: i + 1,
                    command: cmd.to_string(),
                    shown: vec![],
                });
            }
        } else if let Some(s) = current.as_mut() {
            s.shown.push(l.to_string());
        }
    }
    // blank lines that end what a command shows only separate it from the next command
    for s in out.iter_mut() {
        while s.shown.last().is_some_and(|l| l.trim().is_empty()) {
            s.shown.pop();
        }
    }
    (out, vars)
}

/// Whether `actual` shows what `shown` does (`...`/`…` for any text, a lone `...` line for any
/// lines).
fn shows(shown: &[String], actual: &[&str]) -> bool {
    fn line_matches(pat: &str, line: &str) -> bool {
        let parts: Vec<&str> = pat.split(['…']).flat_map(|p| p.split("...")).collect();
        if parts.len() == 1 {
            return pat == line;
        }
        let mut rest = line;
        for (k, p) in parts.iter().enumerate() {
            if k == 0 {
                match rest.strip_prefix(p) {
                    Some(r) => rest = r,
                    None => return false,
                }
            } else if k == parts.len() - 1 {
                return rest.ends_with(p);
            } else {
                match rest.find(p) {
                    Some(j) => rest = &rest[j + p.len()..],
                    None => return false,
                }
            }
        }
        true
    }
    fn go(shown: &[String], actual: &[&str]) -> bool {
        match shown.split_first() {
            None => actual.is_empty(),
            Some((s, rest)) if s.trim() == "..." => {
                (0..=actual.len()).any(|k| go(rest, &actual[k..]))
            }
            Some((s, rest)) => {
                !actual.is_empty() && line_matches(s, actual[0]) && go(rest, &actual[1..])
            }
        }
    }
    go(shown, actual)
}

/// Runs every step of the tour in `dir`; returns the number run and the failures.
fn run_tour(dir: &std::path::Path) -> (usize, Vec<String>) {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).unwrap();
    let (steps, vars) = steps(&readme);
    let skipped = |c: &str| {
        c.contains("...") || c == "okite repl" || c == "okite usi" || c.contains("\"$S\"")
    };
    let bin = env!("CARGO_BIN_EXE_okite");
    let mut ran = 0;
    let mut failures = vec![];
    for s in &steps {
        if skipped(&s.command) {
            continue;
        }
        // the variables the tour set before this line, and `okite` the binary under test
        let mut script = format!("okite() {{ '{bin}' \"$@\"; }}\n");
        for (line, v) in &vars {
            if *line < s.line {
                script.push_str(v);
                script.push('\n');
            }
        }
        script.push_str(&s.command);
        let o = Command::new("bash")
            .arg("-c")
            .arg(&script)
            .current_dir(dir)
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100")
            .output()
            .unwrap();
        ran += 1;
        let out = String::from_utf8_lossy(&o.stdout).to_string();
        let err = String::from_utf8_lossy(&o.stderr).to_string();
        let out_lines: Vec<&str> = out.lines().collect();
        let all = format!("{err}{out}");
        let all_lines: Vec<&str> = all.lines().collect();
        if !o.status.success() {
            failures.push(format!(
                "README.md:{}: `{}` exited with {:?}: {err}",
                s.line, s.command, o.status
            ));
        } else if !s.shown.is_empty()
            && !shows(&s.shown, &out_lines)
            && !shows(&s.shown, &all_lines)
        {
            failures.push(format!(
                "README.md:{}: `{}` shows\n{}\nbut prints\n{out}{err}",
                s.line,
                s.command,
                s.shown.join("\n")
            ));
        }
    }
    (ran, failures)
}

#[test]
fn the_matcher_sees_differences() {
    let shown = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(shows(&shown(&["900"]), &["900"]));
    assert!(!shows(&shown(&["900"]), &["901"]));
    assert!(shows(
        &shown(&["{\"a\": 1, ...}"]),
        &["{\"a\": 1, \"b\": 2}"]
    ));
    assert!(!shows(
        &shown(&["{\"a\": 1, ...}"]),
        &["{\"a\": 2, \"b\": 2}"]
    ));
    assert!(shows(
        &shown(&["ok a", "...", "68 passed"]),
        &["ok a", "x", "y", "68 passed"]
    ));
    assert!(!shows(
        &shown(&["ok a", "...", "68 passed"]),
        &["ok a", "x", "67 passed"]
    ));
}

/// The slow tests (more than about 5 s each), run by .ci/run after the test command of
/// README.md: `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn the_readme_tour_is_true() {
        let (ran, failures) = run_tour(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
        assert!(ran >= 25, "only {ran} commands of the tour ran");
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    /// The tour from an empty folder, as a user of an installed okite runs it: the rule files come
    /// from `okite rules export rules` (the binary's own copy), the test data the tour names (files
    /// under `tests/`) is put beside them; nothing else of the repository is there.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn the_readme_tour_is_true_from_an_empty_folder() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = std::env::temp_dir().join(format!("okite-readme-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args(["rules", "export", "rules"])
            .current_dir(&dir)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // the files under tests/ and examples/ that the tour's commands and variables name, and
        // the files of the folders it names
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let copy = |word: &str| {
            let to = dir.join(word);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(root.join(word), &to).unwrap();
        };
        for word in readme.split_whitespace() {
            let word = word.trim_matches(|c: char| "\"'()$`".contains(c));
            if !(word.starts_with("tests/") || word.starts_with("examples/")) {
                continue;
            }
            if root.join(word).is_file() {
                copy(word);
            } else if root.join(word).is_dir() {
                for e in std::fs::read_dir(root.join(word)).unwrap() {
                    let name = e.unwrap().file_name();
                    let inner =
                        format!("{}/{}", word.trim_end_matches('/'), name.to_string_lossy());
                    if root.join(&inner).is_file() {
                        copy(&inner);
                    }
                }
            }
        }
        let (ran, failures) = run_tour(&dir);
        assert!(ran >= 25, "only {ran} commands of the tour ran");
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
