#![forbid(unsafe_code)]
//! The records of a batch (`game --records`, `go result --records`): named by a folder or by a
//! list, each answered as the command answers one record, printed in the order of the records
//! with the record's path first.

use crate::commands::report::batch::RecordError;
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use std::path::{Path, PathBuf};

/// The most a list of records may weigh (a line a record).
const MAX_LIST_BYTES: usize = 64 << 20;

/// The records `path` names: a folder's files whose extension is one of `extensions` (in the
/// order of their names), or the paths a list file gives one a line (blank lines and `#`
/// comments skipped; relative paths from the list's folder).
pub(super) fn records_of(path: &Path, extensions: &[&str]) -> Result<Vec<PathBuf>, Diag> {
    if path.is_dir() {
        let mut found: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| {
                Diag::error(
                    code::NO_RULE_FILES_IN_FOLDER,
                    format!("`{}` cannot be read: {e}", path.display()),
                )
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
            })
            .collect();
        found.sort();
        if found.is_empty() {
            let named: Vec<String> = extensions.iter().map(|e| format!(".{e}")).collect();
            return Err(Diag::error(
                code::NO_RULE_FILES_IN_FOLDER,
                format!("the folder `{}` holds no records", path.display()),
            )
            .help(format!("records end in {}", named.join(", "))));
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
pub(super) struct Answer {
    pub text: String,
    pub status: i32,
    pub errors: String,
    pub first: Option<(String, String)>,
}

/// Answers `records` on `--jobs` threads (never more than the records), each job with the state
/// `start` makes, and prints each answer in the order of the records: the exit status is that of
/// the last record without a report, else 0.
pub(super) fn answer_all<S>(
    json: bool,
    records: &[PathBuf],
    jobs: Option<usize>,
    start: impl Fn() -> Option<S> + Sync,
    answer: impl Fn(&mut S, &Path) -> Answer + Sync,
) -> i32 {
    let jobs = super::bounds::jobs_or_cores(jobs).clamp(1, records.len().max(1));
    let mut status = 0;
    super::side_by_side::in_order(
        records,
        jobs,
        start,
        |state, r| answer(state, r),
        |i, ans| {
            print(json, &records[i], &ans);
            if ans.status != 0 {
                status = ans.status;
            }
        },
    );
    status
}

/// Prints the answer of the record `path`: under `--json` its report with its "record" first
/// (or an error object in its place), else a heading naming it, then its report; its
/// diagnostics on standard error.
pub(super) fn print(json: bool, path: &Path, ans: &Answer) {
    err!("{}", ans.errors);
    let name = path.display().to_string();
    if !json {
        outln!("== {name}");
        out!("{}", ans.text);
        return;
    }
    // the record's report, with its file named first
    match ans.text.trim_end().strip_prefix('{') {
        Some(rest) if ans.status == 0 => {
            outln!("{{\"record\": {}, {rest}", crate::json::string(&name))
        }
        _ => {
            let (code, message) = ans.first.clone().unwrap_or_default();
            let report = RecordError {
                record: name,
                result: "error",
                code,
                message,
            };
            outln!("{}", crate::json::text(&report));
        }
    }
}
