#![forbid(unsafe_code)]
//! `okite game --rulesets`: a game judged by rule sets (rules/shogi_rulesets.rule), one row per
//! rule set with the result, the move it falls at, the reason, and the record's own result.

use super::common::*;
use super::query::*;
use crate::check::Program;
use crate::commands::report::{self, RulesetResult, RulesetsReport};
use crate::ir::Value;
use crate::natives::Engine;
use crate::shogi::ending::{Ending, Outcome, RecordResult};
use crate::shogi::position::Position;
use crate::shogi::record::Record;
use crate::shogi::types::Color;

/// The name of a result in the output: `sente`, `gote`, `draw`, `replay`, `none`.
fn result_name(v: &Value) -> Option<&'static str> {
    let Value::Enum(e) = v else { return None };
    Some(match &*e.name {
        "先手勝ち" | "sente_wins" => "sente",
        "後手勝ち" | "gote_wins" => "gote",
        "引き分け" | "draw" => "draw",
        "指し直し" | "replay" => "replay",
        "未決" | "undecided" => "none",
        _ => return None,
    })
}

fn outcome_name(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Color::Black) => "sente",
        Outcome::Win(Color::White) => "gote",
        Outcome::Draw => "draw",
        Outcome::Replay => "replay",
        Outcome::None => "none",
    }
}

/// The record's end as the rule sets' `verdict` takes it.
fn ending_word(record: Option<&Record>) -> &'static str {
    match record.and_then(|r| r.result.as_ref()).map(|r| r.ending) {
        Some(Ending::Declaration) => "declaration",
        Some(Ending::Impasse) => "impasse",
        Some(Ending::Resignation) => "resign",
        _ => "",
    }
}

/// Whether a rule set's result is the record's: the same winner, or no winner where both end
/// the game without one (a 千日手 or 持将棋 the JSA replays and the CSA scores a draw).
fn same_result(stated: Outcome, result: &str) -> bool {
    let name = outcome_name(stated);
    name == result || (matches!(name, "draw" | "replay") && matches!(result, "draw" | "replay"))
}

/// Why a record's result is not shown by the moves, when the rule set finds the game undecided
/// at the end of the moves and the record ends it in a way no move shows: a loss on time, a
/// foul off the board or not recorded, a game not played, a winner alone, the event's own
/// limit of moves.
fn not_shown(stated: &RecordResult, result: &str) -> Option<&'static str> {
    if result != "none" || stated.outcome == Outcome::None {
        return None;
    }
    Some(match stated.ending {
        Ending::TimeUp => "a loss on time, as the record states",
        Ending::Foul => "a foul the recorded moves do not show, as the record states",
        Ending::IllegalAction => "a foul other than a move, as the record states",
        Ending::Default => "a game won without play, as the record states",
        Ending::Stated => "a winner the record states without the move that ends the game",
        Ending::Error => "an error the record states",
        Ending::MaxMoves => "the event's own limit of moves, as the record states",
        _ => return None,
    })
}

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
    // every rule set is known before anything runs
    for name in rulesets {
        if let Err(d) = prog.reading_or_error(name) {
            return printer.fail_in(d, &prog.sources);
        }
    }
    let names = match state_names(prog) {
        Ok(n) => n,
        Err(c) => return c,
    };
    let mut moves = vec![];
    for w in positions.windows(2) {
        let m = w[0]
            .pseudo_legal_moves()
            .into_iter()
            .find(|m| w[0].after(*m) == w[1]);
        moves.push(m.map(|m| m.to_usi()).unwrap_or_default());
    }
    let states: Vec<Value> = positions.iter().map(|p| names.state(p)).collect();
    let ending = ending_word(record);
    let stated = record.and_then(|r| r.result.as_ref());
    let foul = record.and_then(|r| r.illegal_end.as_ref());
    let mut rows = vec![];
    for name in rulesets {
        let bound = vec![
            (
                "g".to_string(),
                Value::seq(states.clone()),
                "Game".to_string(),
            ),
            ("e".to_string(), Value::str(ending), "Str".to_string()),
        ];
        let v = match eval_with_bound(
            prog,
            "verdict(g, e)",
            bound,
            Engine::Native,
            Some(name),
            printer,
            None,
        ) {
            Ok(v) => v,
            Err(c) => return c,
        };
        let (mut result, mut ply, mut reason) = match &v {
            Value::Tuple(t) if t.len() == 3 => match (result_name(&t[0]), &t[1], &t[2]) {
                (Some(r), Value::Int(i), Value::Str(s)) => (r, *i as usize, s.to_string()),
                _ => return printer.fail(bad_verdict(&v)),
            },
            _ => return printer.fail(bad_verdict(&v)),
        };
        // a last move the pieces cannot make loses for its mover, unless the game ended before
        if let Some(e) = foul {
            if result == "none" || ply >= e.ply {
                let mover = positions.last().map_or(Color::Black, |p| p.side_to_move());
                result = if mover == Color::Black {
                    "gote"
                } else {
                    "sente"
                };
                ply = e.ply;
                reason = format!("foul: an illegal move ({})", e.why);
            }
        }
        let hidden = stated.and_then(|r| not_shown(r, result));
        let agrees = stated
            .filter(|_| hidden.is_none())
            .map(|r| same_result(r.outcome, result));
        rows.push((name.clone(), result, ply, reason, agrees, hidden));
    }
    if json {
        let report = RulesetsReport {
            moves: moves.to_vec(),
            results: rows
                .iter()
                .map(|(n, r, p, why, agrees, hidden)| RulesetResult {
                    ruleset: n.clone(),
                    result: r,
                    ply: *p,
                    reason: why.clone(),
                    agrees: *agrees,
                    not_shown: hidden.map(String::from),
                })
                .collect(),
            record_result: stated.map(|r| report::RecordResult {
                outcome: outcome_name(r.outcome),
                ending: r.ending.name(),
                ply: r.ply,
                stated: r.stated.clone(),
                line: r.line,
            }),
        };
        let _ = writeln!(out, "{}", crate::json::text(&report));
        return 0;
    }
    let _ = writeln!(out, "{}", super::common::plural(moves.len(), "move"));
    if let Some(r) = stated {
        let _ = writeln!(
            out,
            "record result: {}, {} after {} moves (`{}`, line {})",
            outcome_name(r.outcome),
            r.ending.name(),
            r.ply,
            r.stated,
            r.line
        );
    }
    // the names in a column as wide as the longest (9 at least, as the shipped ones print)
    let w = crate::front::column_width(rows.iter().map(|r| r.0.as_str()), 9);
    for (n, r, p, why, agrees, hidden) in &rows {
        let flag = match (agrees, hidden) {
            (Some(false), _) => "   (the record says otherwise)".to_string(),
            (_, Some(h)) => format!("   (the record's result is not shown by the moves: {h})"),
            _ => String::new(),
        };
        let _ = writeln!(out, "{n:<w$} {r:<7} move {p:<4} {why}{flag}");
    }
    0
}

fn bad_verdict(v: &Value) -> crate::diagnostics::Diag {
    unexpected(
        "verdict(g, e)",
        v,
        "a tuple of a Result, the move it falls at and a reason",
    )
}
