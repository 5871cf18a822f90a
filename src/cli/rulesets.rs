#![forbid(unsafe_code)]
//! `okite game --rulesets`: the report of [`crate::commands::rulesets::judge_by_rulesets`],
//! written as JSON or as text (one row per rule set with the result, the move it falls at, the
//! reason, and the record's own result).

use super::common::*;
use crate::check::Program;
use crate::commands::report::RulesetsReport;
use crate::shogi::position::Position;
use crate::shogi::record::Record;

/// The game judged by the rule sets, written into `out`; the exit status.
pub(super) fn report(
    prog: &mut Program,
    positions: &[Position],
    record: Option<&Record>,
    rulesets: &[String],
    printer: &Printer,
    json: bool,
    out: &mut String,
) -> i32 {
    use std::fmt::Write as _;
    let report = match crate::commands::rulesets::judge_by_rulesets(
        prog, positions, record, rulesets, &mut tell,
    ) {
        Ok(r) => r,
        Err(ds) => return printer.fail_all(&ds, &prog.sources),
    };
    if json {
        let _ = writeln!(out, "{}", crate::json::text(&report));
    } else {
        out.push_str(&text(&report));
    }
    0
}

/// The report as text: the moves, the record's result, a row per rule set.
fn text(report: &RulesetsReport) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(out, "{}", plural(report.moves.len(), "move"));
    if let Some(r) = &report.record_result {
        let _ = writeln!(
            out,
            "record result: {}, {} after {} moves (`{}`, line {})",
            r.outcome, r.ending, r.ply, r.stated, r.line
        );
    }
    // the names in a column as wide as the longest (9 at least, as the shipped ones print)
    let w = crate::front::column_width(report.results.iter().map(|r| r.ruleset.as_str()), 9);
    for r in &report.results {
        let flag = match (r.agrees, &r.not_shown) {
            (Some(false), _) => "   (the record says otherwise)".to_string(),
            (_, Some(h)) => format!("   (the record's result is not shown by the moves: {h})"),
            _ => String::new(),
        };
        let _ = writeln!(
            out,
            "{:<w$} {:<7} move {:<4} {}{flag}",
            r.ruleset, r.result, r.ply, r.reason
        );
    }
    out
}
