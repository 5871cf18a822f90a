#![forbid(unsafe_code)]
//! `okite go result --records PATH --jobs N`: the result of each SGF record of a folder or of
//! a list under each rule set, judged side by side on N threads (each with its own program),
//! printed in the order of the records as one job prints them.

use super::args::GoResultArgs;
use super::common::*;
use super::records::{answer_all, records_of, Answer};
use std::path::Path;

/// The answer of one record: `go result --sgf RECORD` as one game's command answers it, its
/// output kept on the job's thread.
fn answer(a: &GoResultArgs, prog: &mut Option<crate::check::Program>, path: &Path) -> Answer {
    let one = GoResultArgs {
        sgf: Some(path.to_path_buf()),
        records: None,
        jobs: None,
        ..a.clone()
    };
    let c = super::output::capture(|| super::go_result::go_result_in(&one, prog));
    Answer {
        text: c.stdout,
        status: c.status,
        errors: c.stderr,
        first: c.codes.into_iter().zip(c.messages).next(),
    }
}

/// `okite go result --records`: the exit status is that of the last record without a report,
/// else 0.
pub(super) fn run(a: &GoResultArgs, path: &Path) -> i32 {
    let printer = Printer::auto();
    if let Err(d) = super::bounds::jobs_in_range(a.jobs) {
        return printer.fail(d);
    }
    let records = match records_of(path, &["sgf"]) {
        Ok(r) => r,
        Err(d) => return printer.fail(d),
    };
    // the rules are checked once before the jobs start, so that an error in them is said once
    if let Err(c) = load_or_report(&a.rules, &printer) {
        return c;
    }
    answer_all(
        a.json,
        &records,
        a.jobs,
        // each job checks its own program, at its first record (a program is not shared
        // between threads)
        || Some(None),
        |prog, r| answer(a, prog, r),
    )
}
