#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! Every `okite` code block of docs/LANGUAGE.md is a rule file that checks and whose examples and
//! theorems pass.

use okite::check::load::load_str;
use okite::diagnostics::render;
use okite::eval::run::run_all;
use okite::eval::Evaluator;
use okite::natives::Natives;

fn blocks(doc: &str) -> Vec<(usize, String)> {
    let mut out = vec![];
    let mut cur: Option<(usize, String)> = None;
    for (i, line) in doc.lines().enumerate() {
        match &mut cur {
            None if line.trim() == "```okite" => cur = Some((i + 2, String::new())),
            Some((start, text)) if line.trim() == "```" => {
                out.push((*start, std::mem::take(text)));
                cur = None;
            }
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    out
}

#[test]
fn language_reference_examples_run() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/LANGUAGE.md")).unwrap();
    let bs = blocks(&doc);
    assert!(bs.len() >= 12, "only {} blocks", bs.len());
    let mut ran = 0;
    for (line, text) in bs {
        let prog = match load_str(&format!("LANGUAGE.md:{line}"), &text, &Natives::standard()) {
            Ok(p) => p,
            Err((s, d)) => panic!(
                "block at line {line} does not check:\n{}",
                render(&d, &s, 100, false)
            ),
        };
        let binder = okite::bindings::Sound::standard();
        let mut ev = Evaluator::new(&prog, &binder);
        let outcomes = run_all(&mut ev, None);
        assert!(
            !outcomes.is_empty(),
            "block at line {line} has no example or theorem"
        );
        for o in outcomes {
            if let Some(d) = &o.failure {
                panic!(
                    "block at line {line}: {} \"{}\" fails:\n{}",
                    o.kind,
                    o.name,
                    render(std::slice::from_ref(d), &prog.sources, 100, false)
                );
            }
            ran += 1;
        }
    }
    assert!(ran >= 15, "only {ran} examples and theorems ran");
}
