#![forbid(unsafe_code)]
//! `okite tsume --batch FILE --jobs N`: the report of each problem of a file, checked side by
//! side on N threads (each with the search's large stack), printed in the order of the file as
//! one job prints them.

use super::args::TsumeArgs;
use super::common::*;
use super::problems::{bad_line, batch_of, Problem};
use super::tsume::{finish, prepare, report_problem, search_line, Asked};
use crate::diagnostics::code;
use crate::diagnostics::{Diag, SourceMap};

/// What a problem of the batch gives: its report, or why it has none (with the sources of
/// its diagnostics).
type Answer = Result<String, (SourceMap, Vec<Diag>)>;

/// The report of the problem `p`: its position read and checked as an engine's start, then its
/// soundness under each convention asked, on a thread with the search's stack.
fn answer(a: &TsumeArgs, p: &Problem, batch: &std::path::Path, asked: &[Asked]) -> Answer {
    let none = SourceMap::default;
    if let Some(d) = p.unreadable(Some(batch)) {
        return Err((none(), vec![d]));
    }
    let game = crate::front::shogi_game(&p.text, "")?;
    let Some(start) = game.positions.last().cloned() else {
        return Err((none(), vec![Diag::error(code::BAD_SFEN, "no position")]));
    };
    crate::front::engine_start(std::slice::from_ref(&start)).map_err(|d| (none(), vec![d]))?;
    match crate::shogi::dfpn::with_stack(super::output::carried(|| {
        report_problem(a, &start, None, asked, || search_line(a, &start))
    })) {
        Some(Ok(text)) => Ok(text),
        Some(Err(d)) => Err((none(), vec![d])),
        None => Err((none(), vec![super::tsume::no_stack()])),
    }
}

/// Prints the answer of `p`: under `--json` its report on a line (or an error object in its
/// place), else a heading naming its line and position, then its report. The exit status.
fn print(
    a: &TsumeArgs,
    batch: &std::path::Path,
    p: &Problem,
    ans: Answer,
    printer: &Printer,
) -> i32 {
    match ans {
        Ok(text) => {
            if !a.json {
                outln!("== line {}: {}", p.line.unwrap_or(1), p.text);
            }
            finish(Some(Ok(text)), printer)
        }
        Err((sources, ds)) => bad_line(Some(batch), a.json, p, sources, &ds, printer),
    }
}

/// `okite tsume --batch` under a board variant: each line an SFEN of its board, judged as
/// `okite tsume --variant ... --sfen` judges it; each job reads the variant's rules again (a
/// program is not shared between threads).
fn variant_batch(
    a: &TsumeArgs,
    batch: &std::path::Path,
    v: &crate::variants::LoadedVariant,
    asked: &[Asked],
    printer: &Printer,
) -> i32 {
    let dm = match super::variant_asked::drop_mate(a.variant.drop_mate.as_deref(), printer) {
        Ok(d) => d,
        Err(c) => return c,
    };
    let problems = match batch_of(batch, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    super::variant_asked::announce(v);
    let jobs = super::bounds::jobs_or_cores(a.jobs).clamp(1, problems.len().max(1));
    let mut status = 0;
    super::side_by_side::in_order(
        &problems,
        jobs,
        || {
            let quiet = Printer::new(&crate::front::OutOpts {
                color: "never".into(),
            })
            .capturing();
            prepare(a, &quiet).ok().and_then(|(v, _)| v)
        },
        |v, p| {
            if let Some(d) = p.unreadable(Some(batch)) {
                return Err((SourceMap::default(), vec![d]));
            }
            super::tsume::variant_report(a, v, asked, &p.text, None, dm, || {})
                .map_err(|d| (SourceMap::default(), vec![d]))
        },
        |i, ans| {
            let c = print(a, batch, &problems[i], ans, printer);
            if c != 0 {
                status = c;
            }
        },
    );
    status
}

/// `okite tsume --batch`: the exit status is that of the last problem without a report, else 0.
pub(super) fn run(a: &TsumeArgs, batch: &std::path::Path) -> i32 {
    let printer = &Printer::new(&crate::front::OutOpts {
        color: "auto".into(),
    });
    if let Err(d) = super::bounds::jobs_in_range(a.jobs) {
        return printer.fail(d);
    }
    let asked = match prepare(a, printer) {
        Ok((None, asked)) => asked,
        Ok((Some(v), asked)) => return variant_batch(a, batch, &v, &asked, printer),
        Err(c) => return c,
    };
    let asked = &asked[..];
    let problems = match batch_of(batch, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let jobs = super::bounds::jobs_or_cores(a.jobs).clamp(1, problems.len().max(1));
    let mut status = 0;
    super::side_by_side::in_order(
        &problems,
        jobs,
        || Some(()),
        |_, p| answer(a, p, batch, asked),
        |i, ans| {
            let c = print(a, batch, &problems[i], ans, printer);
            if c != 0 {
                status = c;
            }
        },
    );
    status
}
