#![forbid(unsafe_code)]
//! `okite mate --batch FILE --jobs N`: the problems of a batch searched side by side, one search
//! per job with its share of the table (`--hash-mb` is the total), the answers printed in the
//! order of the file, as one job prints them.

use super::args::MateArgs;
use super::common::*;
use super::mate_report::print_mate;
use super::problems::{bad_problem, read_problem, Problem};
use crate::commands::Notice;
use crate::diagnostics::code;
use crate::diagnostics::{Diag, SourceMap};
use crate::shogi::dfpn::MateSolver;
use crate::shogi::position::Position;
use crate::shogi::readings::Reading;

/// The jobs a batch of `problems` runs on: `--jobs`, or one per core; never more than the
/// problems.
pub(super) fn jobs_for(asked: Option<usize>, problems: usize) -> usize {
    super::bounds::jobs_or_cores(asked).clamp(1, problems.max(1))
}

/// A problem of the batch, read: its game, or why it does not read.
type Read = Result<Vec<Position>, (SourceMap, Vec<Diag>)>;

/// Search the problems on `jobs` threads; the exit status (that of the last problem that did
/// not read, else 0), as the one-job loop gives it.
pub(super) fn run(
    a: &MateArgs,
    ask: &crate::commands::mate::MateAsk,
    problems: &[Problem],
    jobs: usize,
    reading: Reading,
    engine: &Notice,
    printer: &Printer,
) -> i32 {
    let read: Vec<Read> = problems.iter().map(|p| read_problem(a, p)).collect();
    // each job its share of the table
    let ask = crate::commands::mate::MateAsk {
        hash_mb: (ask.hash_mb / jobs).max(1),
        ..ask.clone()
    };
    let mut code = 0;
    // each job keeps its search (and its table) from problem to problem, on a thread with the
    // stack the one-job search has; a problem that does not read is answered where it stands
    let started = super::side_by_side::in_order_on(
        &read,
        jobs,
        Some(1 << 30),
        || {
            let mut solver = MateSolver::new(ask.hash_mb);
            solver.set_threads(a.threads);
            Some(solver)
        },
        |solver, r| {
            let positions = r.as_ref().ok()?;
            Some(crate::commands::mate::native(
                solver, positions, &ask, reading, None, engine,
            ))
        },
        |i, report| match (&read[i], report) {
            (Err((sources, ds)), _) => {
                code = bad_problem(a, &problems[i], sources.clone(), ds, printer);
            }
            (Ok(_), Some(report)) => print_mate(&report, a, ask.any()),
            (Ok(_), None) => {}
        },
    );
    if started == 0 {
        return printer.fail(
            Diag::error(
                code::NO_SEARCH_THREAD,
                "the mate search could not run (no thread for its stack)",
            )
            .help("the system refused a thread: free memory or raise the limit of threads, or give --jobs 1"),
        );
    }
    code
}
