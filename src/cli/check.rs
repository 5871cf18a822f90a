#![forbid(unsafe_code)]
//! `okite check` and `okite test`: the rule files checked, their examples and theorems run.

use super::args::*;
use super::common::*;
use crate::commands::report::check::{CheckReport, DiagReport, TestOutcome, TestReport};
use crate::diagnostics::{Diag, Level};
use crate::eval::run::{run_all, summary};
use crate::eval::Evaluator;
use std::time::Instant;

/// `okite check`.
pub(super) fn check(args: CheckArgs) -> i32 {
    let CheckArgs {
        paths,
        notes,
        json,
        out,
    } = args;
    let printer = Printer::new(&out);
    if json {
        return check_json(&paths, notes);
    }
    crate::front::note_default_rules(&paths);
    let (prog, files) = match load_or_report(&paths, &printer) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let shown: Vec<Diag> = prog
        .notes
        .iter()
        .filter(|d| notes || d.level != Level::Info)
        .cloned()
        .collect();
    printer.diags(&shown, &prog.sources);
    let infos = prog.notes.iter().filter(|d| d.level == Level::Info).count();
    outln!(
        "OK: {} file{}, {} definitions, {} readings, {} examples, {} theorems{}{}",
        files.len(),
        if files.len() == 1 { "" } else { "s" },
        prog.keys.len(),
        prog.readings.len(),
        prog.examples.len(),
        prog.theorems.len(),
        if infos > 0 && !notes {
            format!(" ({infos} notes; --notes shows them)")
        } else {
            String::new()
        },
        built_in(&paths)
    );
    0
}

/// `okite test`.
pub(super) fn test(args: TestArgs) -> i32 {
    let TestArgs {
        paths,
        filter,
        verbose,
        json,
        run,
        out,
    } = args;
    let printer = Printer::new(&out);
    crate::front::note_default_rules(&paths);
    let (prog, _) = match load_or_report(&paths, &printer) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let binder = crate::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    run.apply(&mut ev);
    let t0 = Instant::now();
    let outcomes = run_all(&mut ev, filter.as_deref());
    if json {
        let (p, f) = summary(&outcomes);
        let results = outcomes
            .iter()
            .map(|o| {
                let (file, line, column) = place(&prog.sources, o.span);
                TestOutcome {
                    kind: o.kind,
                    name: o.name.clone(),
                    reading: o.reading.clone(),
                    file: file.to_string(),
                    line,
                    column,
                    ok: o.failure.is_none(),
                    cases: o.cases,
                    message: o.failure.as_ref().map(|d| d.message.clone()),
                }
            })
            .collect();
        let report = TestReport {
            passed: p,
            failed: f,
            results,
        };
        outln!("{}", crate::json::text(&report));
        return if f == 0 { 0 } else { 1 };
    }
    for o in &outcomes {
        let (file, l, c) = place(&prog.sources, o.span);
        match &o.failure {
            None => {
                if verbose {
                    let cases = if o.kind == "theorem" {
                        format!(" ({} cases)", o.cases)
                    } else {
                        String::new()
                    };
                    outln!(
                        "ok    {} \"{}\" [{}] {file}:{l}:{c}{cases}",
                        o.kind,
                        o.name,
                        o.reading
                    );
                }
            }
            Some(d) => {
                outln!(
                    "FAIL  {} \"{}\" [{}] {file}:{l}:{c}: {}",
                    o.kind,
                    o.name,
                    o.reading,
                    d.message
                );
                printer.diags(std::slice::from_ref(d), &prog.sources);
            }
        }
    }
    let (p, f) = summary(&outcomes);
    errln!("ran in {:.2?}", t0.elapsed());
    outln!("{p} passed, {f} failed{}", built_in(&paths));
    if f == 0 {
        0
    } else {
        1
    }
}

/// A diagnostic as a report: its code, level, message, the place of its first label and its
/// help.
fn diag_json(d: &Diag, sources: &crate::diagnostics::SourceMap) -> DiagReport {
    let (file, line, column) = match d.labels.first() {
        Some((sp, _)) => {
            let (file, l, c) = place(sources, *sp);
            (Some(file.to_string()), Some(l), Some(c))
        }
        None => (None, None, None),
    };
    DiagReport {
        code: d.code,
        level: match d.level {
            Level::Error => "error",
            Level::Warning => "warning",
            Level::Info => "note",
        },
        message: d.message.clone(),
        file,
        line,
        column,
        help: d.help.clone(),
    }
}

/// `okite check --json`: one object, whether the rules check or not (exit 2 when they do not).
fn check_json(paths: &[std::path::PathBuf], notes: bool) -> i32 {
    match crate::front::load_rules(paths) {
        Ok((prog, files)) => {
            let report = CheckReport {
                ok: true,
                files: Some(files.len()),
                definitions: Some(prog.keys.len()),
                readings: Some(prog.readings.len()),
                examples: Some(prog.examples.len()),
                theorems: Some(prog.theorems.len()),
                diagnostics: prog
                    .notes
                    .iter()
                    .filter(|d| notes || d.level != Level::Info)
                    .map(|d| diag_json(d, &prog.sources))
                    .collect(),
            };
            outln!("{}", crate::json::text(&report));
            0
        }
        Err((sources, ds)) => {
            let report = CheckReport {
                ok: false,
                files: None,
                definitions: None,
                readings: None,
                examples: None,
                theorems: None,
                diagnostics: ds.iter().map(|d| diag_json(d, &sources)).collect(),
            };
            outln!("{}", crate::json::text(&report));
            ds.iter()
                .filter(|d| d.is_error())
                .map(exit_status)
                .max()
                .unwrap_or(2)
        }
    }
}

/// The file, line and column where a span starts.
fn place(
    sources: &crate::diagnostics::SourceMap,
    sp: crate::diagnostics::Span,
) -> (&str, usize, usize) {
    let (l, c) = sources.line_col(sp.file, sp.start);
    let file = sources.get(sp.file).map(|f| f.name.as_str()).unwrap_or("?");
    (file, l, c)
}

/// What a summary adds when the built-in rules were read (no rule files named).
fn built_in(paths: &[std::path::PathBuf]) -> &'static str {
    if paths.is_empty() {
        " (the built-in rules)"
    } else {
        ""
    }
}
