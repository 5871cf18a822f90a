#![forbid(unsafe_code)]
//! `okite game` on a shogi game under readings, as a function of typed inputs: the game's
//! positions (and the record they were read from), the readings, and who judges them; the
//! [`GameReport`] it returns, with what was said as it ran handed to the face.

use crate::check::Program;
use crate::commands::report::{Forbidden, GameReport, ReadingVerdict, RecordFoul, RecordResult};
use crate::commands::told::Told;
use crate::commands::{Notice, Plan, REPLAY_DEFS, SHOGI_READINGS};
use crate::diagnostics::{code, Diag};
use crate::ir::{ReadingId, Value};
use crate::shogi::position::Position;
use crate::shogi::readings::Replay;
use crate::shogi::record::Record;
use crate::shogi::types::Move;

/// Who judges a game under the readings asked: the checked program (the native replay where it
/// may answer, else the rules), or the native replay under the shipped reading that the facts
/// of the built-in rules give for each reading asked, in order (no program checked).
pub enum Judges<'p> {
    /// The checked program.
    Checked(&'p mut Program),
    /// The shipped reading each reading asked is replayed as.
    Shipped(Vec<&'static str>),
}

impl Judges<'_> {
    /// The judges of `readings` on the built-in rules known without checking them (no rule
    /// files named, no variant), where the facts give each one's native replay.
    pub fn shipped(
        rules: &[std::path::PathBuf],
        variant: Option<&str>,
        readings: &[String],
    ) -> Option<Judges<'static>> {
        let natives = readings
            .iter()
            .map(
                |r| match crate::commands::shipped_replay_plan(rules, variant, r) {
                    Some(Plan::Native(n)) => Some(n),
                    _ => None,
                },
            )
            .collect::<Option<Vec<_>>>()?;
        Some(Judges::Shipped(natives))
    }

    /// The program judging, when it is one.
    pub fn program(&self) -> Option<&Program> {
        match self {
            Judges::Checked(prog) => Some(prog),
            Judges::Shipped(_) => None,
        }
    }
}

/// A game judged: the report, with the verdicts of the readings judged before one failed
/// (`failed`: its diagnostics, in the program's sources).
pub struct Judged {
    /// What was found.
    pub report: GameReport,
    /// Why a reading could not be judged, where one could not.
    pub failed: Option<Vec<Diag>>,
}

/// The game of `positions` (read from `record`, when it was) under each of `readings`; an
/// error, before any reading is judged, when the positions are no game or a reading is
/// unknown.
pub fn judge(
    judges: &mut Judges,
    positions: &[Position],
    record: Option<&Record>,
    readings: &[String],
    tell: &mut dyn FnMut(Told),
) -> Result<Judged, Vec<Diag>> {
    let moves = moves_of_game(positions).map_err(|d| vec![d])?;
    // every reading is known before anything runs
    let ids = match judges {
        Judges::Checked(prog) => readings
            .iter()
            .map(|name| prog.reading_or_error(name))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|d| vec![d])?,
        Judges::Shipped(_) => vec![],
    };
    let mut report = GameReport {
        moves: moves.iter().map(|m| m.to_usi()).collect(),
        readings: vec![],
        record_result: record
            .and_then(|r| r.result.as_ref())
            .map(|r| RecordResult {
                outcome: r.outcome.name(),
                ending: r.ending.name(),
                ply: r.ply,
                stated: r.stated.clone(),
                line: r.line,
            }),
        record_illegal_move: record
            .and_then(|r| r.illegal_end.as_ref())
            .map(|e| RecordFoul {
                number: e.ply,
                written: e.written.clone(),
                why: e.why.clone(),
                line: e.place.line,
            }),
    };
    let mut failed = None;
    match judges {
        Judges::Checked(prog) => {
            for (name, &r) in readings.iter().zip(&ids) {
                match checked_verdict(prog, name, r, positions, &moves, tell) {
                    Ok(row) => report.readings.push(row),
                    Err(ds) => {
                        failed = Some(ds);
                        break;
                    }
                }
            }
        }
        Judges::Shipped(natives) => {
            for (name, native) in readings.iter().zip(natives.iter()) {
                let engine = Notice::native("legal", name, "the native replay", native);
                tell(Told::Notice(&engine));
                let rep = native_replay(positions, &moves, native);
                report.readings.push(verdict(name, rep, &moves, engine));
            }
        }
    }
    Ok(Judged { report, failed })
}

/// The moves between consecutive positions of a game (a variant's own moves included).
pub fn moves_of_game(positions: &[Position]) -> Result<Vec<Move>, Diag> {
    let mut moves = vec![];
    for w in positions.windows(2) {
        match w[0]
            .pseudo_legal_moves()
            .into_iter()
            .find(|m| w[0].after(*m) == w[1])
            .or_else(|| crate::shogi::naming::move_between(&w[0], &w[1]))
        {
            Some(m) => moves.push(m),
            None => {
                return Err(Diag::error(
                    code::BAD_GAME_RECORD,
                    format!("bad game record: step {} is no move", moves.len() + 1),
                )
                .help("each position of a record follows from the one before by one move"));
            }
        }
    }
    Ok(moves)
}

/// The game under one reading of the checked program: by the native replay where it may answer,
/// else by the rules.
fn checked_verdict(
    prog: &mut Program,
    name: &str,
    r: ReadingId,
    positions: &[Position],
    moves: &[Move],
    tell: &mut dyn FnMut(Told),
) -> Result<ReadingVerdict, Vec<Diag>> {
    // the report reads legality, repetition and perpetual check: the native replay answers
    // when all three are the shipped definitions of one native reading
    let plan = crate::commands::plan_all(prog, r, &REPLAY_DEFS, &SHOGI_READINGS);
    let engine = Notice::of(prog, r, "legal", "the native replay", &plan);
    tell(Told::Notice(&engine));
    let rep = match plan {
        Plan::Native(n) => native_replay(positions, moves, n),
        Plan::Rules(_) => replay_by_rules(prog, r, positions, tell)?,
    };
    Ok(verdict(name, rep, moves, engine))
}

/// The native replay of a game under the shipped reading `native`.
#[expect(
    clippy::expect_used,
    reason = "the shogi engines' readings are the named ones"
)]
fn native_replay(positions: &[Position], moves: &[Move], native: &str) -> Replay {
    crate::shogi::readings::replay(
        positions,
        moves,
        crate::shogi::readings::Reading::named(native)
            .expect("the shogi engines' readings are named"),
    )
}

/// A reading's verdict on a game from what its replay found.
fn verdict(name: &str, rep: Replay, moves: &[Move], engine: Notice) -> ReadingVerdict {
    let Replay {
        first_forbidden,
        repetitions,
        perpetual_checks,
        final_mate,
    } = rep;
    ReadingVerdict {
        reading: name.to_string(),
        first_forbidden: first_forbidden.map(|(i, why)| Forbidden {
            number: i,
            usi: moves[i - 1].to_usi(),
            why,
        }),
        repetitions,
        perpetual_checks,
        final_mate,
        engine,
    }
}

/// What the native replay reports, asked of the rules: the forbidden moves, the fourfold
/// repetitions and those completed by perpetual check (moves counted from 1), and mate at the
/// end.
pub fn replay_by_rules(
    prog: &mut Program,
    reading: ReadingId,
    positions: &[Position],
    tell: &mut dyn FnMut(Told),
) -> Result<Replay, Vec<Diag>> {
    let names = crate::commands::eval::state_names(prog).map_err(|d| vec![d])?;
    let states: Vec<Value> = positions.iter().map(|p| names.state(p)).collect();
    let bound = vec![("g".to_string(), Value::seq(states), "Game".to_string())];
    let text = "([j - 1 | j in seq(2..len(g)), forbidden(g[1..j], j)], \
                [j - 1 | j in seq(2..len(g)), sennichite(g, j)], \
                [j - 1 | j in seq(2..len(g)), perpetual_forbidden(g, j)], \
                mate(g, len(g)))";
    let rname = prog.readings[reading.index()].name.clone();
    let answer = crate::commands::eval::evaluate(
        prog,
        crate::commands::eval::Query {
            text,
            bound,
            engine: crate::natives::Engine::Native,
            reading: Some(&rname),
            resident_mb: None,
            timeout: None,
        },
    );
    tell(Told::OffBindings(&answer.off_bindings));
    let ints = |v: &Value| -> Vec<usize> {
        match v {
            Value::Seq(xs) => xs
                .iter()
                .filter_map(|x| match x {
                    Value::Int(i) => Some(*i as usize),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        }
    };
    match answer.value? {
        Value::Tuple(t) if t.len() == 4 => Ok(Replay {
            first_forbidden: ints(&t[0])
                .first()
                .map(|&i| (i, "forbidden by the rules".to_string())),
            repetitions: ints(&t[1]),
            perpetual_checks: ints(&t[2]),
            final_mate: t[3] == Value::Bool(true),
        }),
        other => Err(vec![crate::commands::eval::unexpected(
            "(forbidden moves, repetitions, perpetual checks, mate)",
            &other,
            "a tuple of three sequences of move numbers and a truth value",
        )]),
    }
}

#[cfg(test)]
mod tests {
    use super::{judge, Judges};
    use crate::commands::told::Told;
    use crate::shogi::position::Position;

    /// The positions of the game of `usi` from the start.
    fn game(usi: &str) -> Vec<Position> {
        let mut positions = vec![Position::startpos()];
        for w in usi.split_whitespace() {
            let last = positions.last().unwrap();
            let m = last.parse_usi_move(w).unwrap();
            positions.push(last.after(m));
        }
        positions
    }

    /// Both rooks shuffled three times: the start stands for the fourth time after move 12,
    /// under each shipped reading, with no move forbidden; each reading's notice is told as it
    /// is judged, and is the verdict's engine.
    #[test]
    fn a_fourfold_repetition_is_found_under_each_reading() {
        let positions = game(&"2h1h 8b9b 1h2h 9b8b ".repeat(3));
        let readings: Vec<String> = ["narrow", "broad"].map(String::from).to_vec();
        let mut judges = Judges::shipped(&[], None, &readings).unwrap();
        let mut told = vec![];
        let judged = judge(&mut judges, &positions, None, &readings, &mut |t| {
            if let Told::Notice(n) = t {
                told.push(n.clone())
            }
        })
        .unwrap();
        assert!(judged.failed.is_none());
        let report = judged.report;
        assert_eq!(report.moves.len(), 12);
        assert_eq!(report.moves[0], "2h1h");
        assert_eq!(report.readings.len(), 2);
        for (row, name) in report.readings.iter().zip(&readings) {
            assert_eq!(&row.reading, name);
            assert_eq!(row.repetitions, [12]);
            assert!(row.perpetual_checks.is_empty());
            assert!(row.first_forbidden.is_none());
            assert!(!row.final_mate);
        }
        assert_eq!(
            told,
            report
                .readings
                .iter()
                .map(|r| r.engine.clone())
                .collect::<Vec<_>>()
        );
        // a reading the built-in rules do not have is no shipped judge
        assert!(Judges::shipped(&[], None, &["nope".to_string()]).is_none());
    }

    /// Positions that do not follow one from the other by a move are no game: refused before
    /// any reading is judged.
    #[test]
    fn positions_that_are_no_game_are_refused() {
        // two moves apart: 3c3d and 2g2f between the second and the third
        let mut positions = game("7g7f 3c3d 2g2f");
        positions.remove(2);
        let readings = vec!["narrow".to_string()];
        let mut judges = Judges::shipped(&[], None, &readings).unwrap();
        let mut said = 0;
        let ds = match judge(&mut judges, &positions, None, &readings, &mut |_| said += 1) {
            Err(ds) => ds,
            Ok(_) => panic!("a game"),
        };
        assert_eq!(ds[0].code, crate::diagnostics::code::BAD_GAME_RECORD);
        assert!(
            ds[0].message.contains("step 2 is no move"),
            "{}",
            ds[0].message
        );
        assert_eq!(said, 0);
    }
}
