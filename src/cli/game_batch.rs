#![forbid(unsafe_code)]
//! `okite game --records PATH --jobs N`: the report of each record of a folder or of a list,
//! judged side by side on N threads (each with its own program), printed in the order of the
//! records as one job prints them.

use super::args::GameArgs;
use super::common::*;
use crate::diagnostics::Diag;
use crate::front::{json_str, RecordFormat};
use std::path::{Path, PathBuf};

/// The most records a list may name (a line a record).
const MAX_LIST_BYTES: usize = 64 << 20;

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

/// The records `path` names: a folder's records (by their extension, in the order of their
/// names), or the paths a list file gives one a line (blank lines and `#` comments skipped;
/// relative paths from the list's folder).
fn records_of(path: &Path) -> Result<Vec<PathBuf>, Diag> {
    if path.is_dir() {
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| Diag::error("E0011", format!("`{}` cannot be read: {e}", path.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                    ["kif", "kifu", "ki2", "csa"]
                        .iter()
                        .any(|x| e.eq_ignore_ascii_case(x))
                })
            })
            .collect();
        found.sort();
        if found.is_empty() {
            return Err(Diag::error(
                "E0011",
                format!("the folder `{}` holds no records", path.display()),
            )
            .help("records end in .kif, .kifu, .ki2 or .csa"));
        }
        return Ok(found);
    }
    let text = crate::check::load::read_text_limited(
        path,
        MAX_LIST_BYTES,
        ("a list of records", "lists of records"),
    )?;
    let base = path.parent().unwrap_or(Path::new("."));
    Ok(text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| base.join(l))
        .collect())
}

/// What a record gives: its report, or why it has none (its exit status; its diagnostics
/// rendered, and the first's code and message for the JSON object in its place).
struct Answer {
    text: String,
    status: i32,
    errors: String,
    first: Option<(&'static str, String)>,
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
            let first = ds.first().map(|d| (d.code, d.message.clone()));
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

/// Prints the answer of the record `path`: under `--json` its report with its "record" first
/// (or an error object in its place), else a heading naming it, then its report; its
/// diagnostics on standard error.
fn print(a: &GameArgs, path: &Path, ans: &Answer) {
    eprint!("{}", ans.errors);
    let name = path.display().to_string();
    if !a.json {
        println!("== {name}");
        print!("{}", ans.text);
        return;
    }
    match ans.text.trim_end().strip_prefix('{') {
        Some(rest) if ans.status == 0 => println!("{{\"record\": {}, {rest}", json_str(&name)),
        _ => {
            let (code, message) = ans.first.clone().unwrap_or(("", String::new()));
            println!(
                "{{\"record\": {}, \"result\": \"error\", \"code\": {}, \"message\": {}}}",
                json_str(&name),
                json_str(code),
                json_str(&message)
            );
        }
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
    let records = match records_of(path) {
        Ok(r) => r,
        Err(d) => return printer.fail(d),
    };
    // the rules are checked once before the jobs start, so that an error in them is said once
    if let Err(c) = load_or_report(&a.rules, &printer) {
        return c;
    }
    let jobs = super::bounds::jobs_or_cores(a.jobs).clamp(1, records.len().max(1));
    let mut status = 0;
    super::side_by_side::in_order(
        &records,
        jobs,
        // each job checks its own program (a program is not shared between threads)
        || {
            let quiet = Printer::new(&a.out).capturing();
            load_or_report(&a.rules, &quiet).ok().map(|(p, _)| p)
        },
        |prog, r| answer(a, prog, r),
        |i, ans| {
            print(a, &records[i], &ans);
            if ans.status != 0 {
                status = ans.status;
            }
        },
    );
    status
}
