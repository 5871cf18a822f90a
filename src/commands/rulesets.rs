#![forbid(unsafe_code)]
//! `okite game --rulesets`: a game judged by rule sets (rules/shogi_rulesets.rule), a result
//! each with the move it falls at and the reason, beside the record's own result. Nothing here
//! prints: the bindings an evaluation found off are told.

use crate::check::Program;
use crate::commands::eval::{evaluate_telling, state_names, unexpected, Query};
use crate::commands::report::{self, RulesetResult, RulesetsReport};
use crate::commands::told::Told;
use crate::diagnostics::Diag;
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

/// The name of a record's outcome, as [`result_name`] names a rule set's.
pub fn outcome_name(o: Outcome) -> &'static str {
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

/// The game of `positions` (from a `record`, when there is one) judged by each of `rulesets`,
/// readings of `prog`: every rule set is known before anything runs; each one's `verdict(g, e)`
/// (`e` the record's end as the rule sets take it), then a last move the pieces cannot make
/// lost by its mover unless the game ended before; each result beside the record's.
pub fn judge_by_rulesets(
    prog: &mut Program,
    positions: &[Position],
    record: Option<&Record>,
    rulesets: &[String],
    tell: &mut dyn FnMut(Told),
) -> Result<RulesetsReport, Vec<Diag>> {
    for name in rulesets {
        prog.reading_or_error(name).map_err(|d| vec![d])?;
    }
    let names = state_names(prog).map_err(|d| vec![d])?;
    let moves: Vec<String> = positions
        .windows(2)
        .map(|w| {
            w[0].pseudo_legal_moves()
                .into_iter()
                .find(|m| w[0].after(*m) == w[1])
                .map(|m| m.to_usi())
                .unwrap_or_default()
        })
        .collect();
    let states: Vec<Value> = positions.iter().map(|p| names.state(p)).collect();
    let ending = ending_word(record);
    let stated = record.and_then(|r| r.result.as_ref());
    let foul = record.and_then(|r| r.illegal_end.as_ref());
    let mut results = vec![];
    for name in rulesets {
        let bound = vec![
            (
                "g".to_string(),
                Value::seq(states.clone()),
                "Game".to_string(),
            ),
            ("e".to_string(), Value::str(ending), "Str".to_string()),
        ];
        let v = evaluate_telling(
            prog,
            Query {
                text: "verdict(g, e)",
                bound,
                engine: Engine::Native,
                reading: Some(name),
                resident_mb: None,
                timeout: None,
            },
            tell,
        )?;
        let (mut result, mut ply, mut reason) = match &v {
            Value::Tuple(t) if t.len() == 3 => match (result_name(&t[0]), &t[1], &t[2]) {
                (Some(r), Value::Int(i), Value::Str(s)) if *i >= 0 => {
                    (r, usize::try_from(*i).unwrap_or(usize::MAX), s.to_string())
                }
                _ => return Err(vec![bad_verdict(&v)]),
            },
            _ => return Err(vec![bad_verdict(&v)]),
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
        let not_shown = stated.and_then(|r| not_shown(r, result));
        let agrees = stated
            .filter(|_| not_shown.is_none())
            .map(|r| same_result(r.outcome, result));
        results.push(RulesetResult {
            ruleset: name.clone(),
            result,
            ply,
            reason,
            agrees,
            not_shown: not_shown.map(String::from),
        });
    }
    Ok(RulesetsReport {
        moves,
        results,
        record_result: stated.map(|r| report::RecordResult {
            outcome: outcome_name(r.outcome),
            ending: r.ending.name(),
            ply: r.ply,
            stated: r.stated.clone(),
            line: r.line,
        }),
    })
}

fn bad_verdict(v: &Value) -> crate::diagnostics::Diag {
    unexpected(
        "verdict(g, e)",
        v,
        "a tuple of a Result, the move it falls at and a reason",
    )
}

#[cfg(test)]
mod tests {
    use super::judge_by_rulesets;
    use crate::shogi::position::Position;

    /// Both rooks shuffled three times, the start standing for the fourth time after move 12:
    /// the association's rules replay the game (指し直し), the computer-shogi association's
    /// score it a draw, both at move 12 and by the same repetition; a rule set the rules do not
    /// define is refused before any is run.
    #[test]
    fn a_fourfold_repetition_by_the_rule_sets() {
        let mut prog = crate::check::load::load_shipped(&crate::natives::Natives::standard())
            .program
            .unwrap();
        let mut positions = vec![Position::startpos()];
        for w in "2h1h 8b9b 1h2h 9b8b ".repeat(3).split_whitespace() {
            let last = positions.last().unwrap();
            let m = last.parse_usi_move(w).unwrap();
            positions.push(last.after(m));
        }
        let sets = ["jsa", "csa"].map(String::from);
        let r = judge_by_rulesets(&mut prog, &positions, None, &sets, &mut |_| {}).unwrap();
        assert_eq!(r.moves.len(), 12);
        assert_eq!(r.moves[0], "2h1h");
        let got: Vec<(&str, &str, usize)> = r
            .results
            .iter()
            .map(|x| (x.ruleset.as_str(), x.result, x.ply))
            .collect();
        assert_eq!(got, [("jsa", "replay", 12), ("csa", "draw", 12)]);
        assert!(r.results.iter().all(|x| x.agrees.is_none()));
        assert!(r.record_result.is_none());
        let unknown = ["jsa", "no-such-set"].map(String::from);
        let ds = judge_by_rulesets(&mut prog, &positions, None, &unknown, &mut |_| {}).unwrap_err();
        assert!(ds[0].message.contains("no-such-set"), "{}", ds[0].message);
    }
}
