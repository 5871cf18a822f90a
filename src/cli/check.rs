#![forbid(unsafe_code)]
//! `okite check` and `okite test`: the rule files checked, their examples and theorems run.

use super::args::*;
use super::common::*;
use crate::diagnostics::{Diag, Level};
use crate::eval::run::{run_all, summary};
use crate::eval::Evaluator;
use std::time::Instant;

/// `okite check`.
pub(super) fn check(args: CheckArgs) -> i32 {
    let CheckArgs { paths, notes, out } = args;
    let printer = Printer::new(&out);
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
    println!(
        "OK: {} file{}, {} definitions, {} readings, {} examples, {} theorems{}",
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
        }
    );
    0
}

/// `okite test`.
pub(super) fn test(args: TestArgs) -> i32 {
    let TestArgs {
        paths,
        filter,
        verbose,
        run,
        out,
    } = args;
    let printer = Printer::new(&out);
    let (prog, _) = match load_or_report(&paths, &printer) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let binder = crate::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    run.apply(&mut ev);
    let t0 = Instant::now();
    let outcomes = run_all(&mut ev, filter.as_deref());
    for o in &outcomes {
        let (l, c) = prog.sources.line_col(o.span.file, o.span.start);
        let file = prog
            .sources
            .get(o.span.file)
            .map(|f| f.name.as_str())
            .unwrap_or("?");
        match &o.failure {
            None => {
                if verbose {
                    let cases = if o.kind == "theorem" {
                        format!(" ({} cases)", o.cases)
                    } else {
                        String::new()
                    };
                    println!(
                        "ok    {} \"{}\" [{}] {file}:{l}:{c}{cases}",
                        o.kind, o.name, o.reading
                    );
                }
            }
            Some(d) => {
                println!(
                    "FAIL  {} \"{}\" [{}] {file}:{l}:{c}: {}",
                    o.kind, o.name, o.reading, d.message
                );
                printer.diags(std::slice::from_ref(d), &prog.sources);
            }
        }
    }
    let (p, f) = summary(&outcomes);
    eprintln!("ran in {:.2?}", t0.elapsed());
    println!("{p} passed, {f} failed");
    if f == 0 {
        0
    } else {
        1
    }
}
