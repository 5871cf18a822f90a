#![forbid(unsafe_code)]
//! `okite game --records PATH --jobs N`: the report of each record of a folder or of a list,
//! judged side by side on N threads (each with its own program), printed in the order of the
//! records as one job prints them.

use super::args::GameArgs;
use super::common::*;
use super::records::{answer_all, records_of, Answer};
use crate::diagnostics::Diag;
use crate::front::RecordFormat;
use std::path::Path;

/// The format of a record by its name: CSA for `.csa`, else KIF (KIF, KIFU and KI2 are read
/// alike).
fn format_of(path: &Path) -> RecordFormat {
    let csa = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("csa"));
    if csa {
        RecordFormat::Csa
    } else {
        RecordFormat::Kif
    }
}

/// The report of the record `path` under the program of the job, rendered as the command
/// renders it.
fn answer(a: &GameArgs, prog: &mut crate::check::Program, path: &Path) -> Answer {
    let printer = Printer::new(&a.out).capturing();
    let mut text = String::new();
    let (status, first) = match crate::front::read_record(path, format_of(path)) {
        Ok((record, _, _)) => {
            let c = super::shogi::judge_record(
                prog,
                &record,
                &a.rulesets,
                &a.readings,
                &printer,
                a.json,
                &mut text,
            );
            (c, None)
        }
        Err((sources, ds)) => {
            let first = ds.first().map(|d| (d.code.to_string(), d.message.clone()));
            (printer.fail_all(&ds, &sources), first)
        }
    };
    Answer {
        text,
        status,
        errors: printer.captured(),
        first,
    }
}

/// `okite game --records`: the exit status is that of the last record without a report, else 0.
pub(super) fn run(a: &GameArgs, path: &Path) -> i32 {
    let printer = Printer::new(&a.out);
    if let Err(d) = super::bounds::jobs_in_range(a.jobs) {
        return printer.fail(d);
    }
    if a.variant.variant.is_some() {
        return printer.fail(
            Diag::error(
                crate::variants::BAD_VARIANT,
                "records (KIF, CSA) are not read under a board variant yet",
            )
            .help("give the game as --sfen and --usi moves"),
        );
    }
    let records = match records_of(path, &["kif", "kifu", "ki2", "csa"]) {
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
        // each job checks its own program (a program is not shared between threads)
        || {
            let quiet = Printer::new(&a.out).capturing();
            load_or_report(&a.rules, &quiet).ok().map(|(p, _)| p)
        },
        |prog, r| answer(a, prog, r),
    )
}
