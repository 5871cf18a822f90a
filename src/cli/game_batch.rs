#![forbid(unsafe_code)]
//! `okite game --records PATH --jobs N`: the report of each record of a folder or of a list,
//! judged side by side on N threads (each with its own program), printed in the order of the
//! records as one job prints them.

use super::args::GameArgs;
use super::common::*;
use super::records::{answer_all, records_of, Answer};
use super::variant_asked::Asked;
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

/// The game of the record `path` under a board variant, rendered as `okite game --variant`
/// renders it.
fn variant_answer(
    a: &GameArgs,
    v: &mut crate::variants::LoadedVariant,
    path: &Path,
    dm: crate::shogi::variant::DropMate,
) -> Answer {
    let kept = super::output::capture(|| {
        // inside the capture, the printer's diagnostics are kept with their codes
        let printer = Printer::new(&a.out);
        if format_of(path) == RecordFormat::Csa {
            return super::variant::no_csa(&printer);
        }
        match super::variant::kif_record(v, path, dm) {
            Ok((sfen, moves)) => super::variant::game(v, &sfen, &moves, dm, a.json, &printer),
            Err((sources, ds)) => printer.fail_all(&ds, &sources),
        }
    });
    Answer {
        text: kept.stdout,
        status: kept.status,
        errors: kept.diagnostics,
        first: kept
            .codes
            .first()
            .cloned()
            .zip(kept.messages.first().cloned()),
    }
}

/// `okite game --records`: the exit status is that of the last record without a report, else 0.
pub(super) fn run(a: &GameArgs, path: &Path) -> i32 {
    let printer = Printer::new(&a.out);
    if let Err(d) = super::bounds::jobs_in_range(a.jobs) {
        return printer.fail(d);
    }
    let records = match records_of(path, &["kif", "kifu", "ki2", "csa"]) {
        Ok(r) => r,
        Err(d) => return printer.fail(d),
    };
    // under a board variant, each record is its game (KIF where the variant defines it)
    let asked = (a.readings.len() == 1).then(|| a.readings[0].as_str());
    let board = |p: &Printer| {
        super::variant_asked::requested(a.variant.variant.as_deref(), &a.rules, asked, p)
    };
    if a.variant.variant.is_some() || !a.rules.is_empty() {
        match board(&printer) {
            Ok(Asked::Board(_)) => {
                let dm =
                    match super::variant_asked::drop_mate(a.variant.drop_mate.as_deref(), &printer)
                    {
                        Ok(d) => d,
                        Err(c) => return c,
                    };
                return answer_all(
                    a.json,
                    &records,
                    a.jobs,
                    || match board(&Printer::new(&a.out).capturing()) {
                        Ok(Asked::Board(v)) => Some(v),
                        _ => None,
                    },
                    |v, r| variant_answer(a, v, r, dm),
                );
            }
            // the rules were checked just now, once before the jobs start
            Ok(Asked::Shogi(_)) => {}
            Err(c) => return c,
        }
    } else if let Err(c) = load_or_report(&a.rules, &printer) {
        // the rules are checked once before the jobs start, so that an error in them is said
        // once
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
