#![forbid(unsafe_code)]
//! `okite mate --batch FILE --jobs N`: the problems of a batch searched side by side, one search
//! per job with its share of the table (`--hash-mb` is the total), the answers printed in the
//! order of the file, as one job prints them.

use super::args::MateArgs;
use super::common::*;
use super::mate_report::{print_mate, MateReport};
use super::problems::{bad_problem, read_problem, Problem};
use crate::diagnostics::{Diag, SourceMap};
use crate::shogi::dfpn::{MateLength, MateOptions, MateSolver};
use crate::shogi::position::Position;
use crate::shogi::readings::Reading;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

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
    problems: &[Problem],
    jobs: usize,
    length: MateLength,
    reading: Reading,
    engine_json: &str,
    printer: &Printer,
) -> i32 {
    let read: Vec<Read> = problems.iter().map(|p| read_problem(a, p)).collect();
    let hash_mb = (a.hash_mb / jobs).max(1);
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, MateReport)>();
    let mut code = 0;
    let mut started = 0;
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (read, next) = (&read, &next);
            let job = move || {
                let mut solver = MateSolver::new(hash_mb);
                solver.set_threads(a.threads);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(r) = read.get(i) else { break };
                    let Ok(positions) = r else { continue };
                    let opts = MateOptions {
                        max_nodes: a.nodes,
                        max_ms: a.time_ms,
                        hash_mb,
                        length,
                        max_plies: a.max_plies,
                        reading,
                        stop: None,
                        progress: None,
                    };
                    let found = solver.solve_history(positions, &opts);
                    if tx.send((i, MateReport::from(&found))).is_err() {
                        break;
                    }
                }
            };
            // the search recurses deeply: each job has the stack the one-job search has
            if std::thread::Builder::new()
                .stack_size(1 << 30)
                .spawn_scoped(s, job)
                .is_ok()
            {
                started += 1;
            }
        }
        drop(tx);
        if started == 0 {
            return;
        }
        // the answers in the order of the file: each printed once those before it are
        let mut done: BTreeMap<usize, MateReport> = BTreeMap::new();
        let mut shown = 0;
        let mut show = |done: &mut BTreeMap<usize, MateReport>| {
            while let Some(r) = read.get(shown) {
                match r {
                    Err((sources, ds)) => {
                        code = bad_problem(a, &problems[shown], sources.clone(), ds, printer);
                    }
                    Ok(_) => match done.remove(&shown) {
                        Some(report) => {
                            print_mate(&report, a, engine_json, length == MateLength::Any)
                        }
                        None => return,
                    },
                }
                shown += 1;
            }
        };
        show(&mut done);
        for (i, report) in rx {
            done.insert(i, report);
            show(&mut done);
        }
    });
    if started == 0 {
        return printer.fail(
            Diag::error(
                "E0610",
                "the mate search could not run (no thread for its stack)",
            )
            .help("the system refused a thread: free memory or raise the limit of threads, or give --jobs 1"),
        );
    }
    code
}
