#![forbid(unsafe_code)]
//! `okite tsume`: a composed mate problem's main line, given or searched, examined under each
//! convention asked (rules/shogi_tsume.rule), as a typed report. The faces read the problem and
//! render the report; nothing here prints.

use crate::commands::report::tsume as shown;
use crate::diagnostics::{code, Diag};
use crate::shogi::position::Position;
use crate::shogi::tsume::report::{self, AtPly, Verdict};
use crate::shogi::tsume::{Board, Checker, Convention, Futility};
use crate::shogi::types::Move;
use crate::shogi::variant::{DropMate, TsumeBoard};

/// A convention asked for: the name given and what the checker follows under it.
#[derive(Clone, Debug)]
pub struct Asked {
    /// The reading's name, as asked.
    pub name: String,
    /// What the checker follows.
    pub conv: Convention,
}

/// The limits of one problem's examination: the search for a main line (when none is given) and
/// the checker's, together.
#[derive(Clone, Copy, Debug)]
pub struct TsumeAsk {
    /// Nodes at most (0: no limit).
    pub nodes: u64,
    /// Milliseconds at most (0: no limit).
    pub time_ms: u64,
    /// The longest mate searched, in plies.
    pub max_plies: u32,
    /// Threads of the main line's search.
    pub threads: usize,
}

/// A position the report writes: its SFEN.
pub trait Written: Board {
    /// The position in SFEN.
    fn sfen(&self) -> String;
}

impl Written for Position {
    fn sfen(&self) -> String {
        self.to_sfen()
    }
}

impl Written for TsumeBoard {
    fn sfen(&self) -> String {
        self.p.to_sfen()
    }
}

/// A verdict under a convention by its name, with the line the convention read for itself.
type Named<M> = (String, Verdict<M>, Option<Vec<M>>);

/// The report of the problem `start`: its main line `stated`, or else the one `search` finds,
/// checked to be a line of checks, then judged under each convention of `asked`.
pub fn examine<B: Written>(
    ask: &TsumeAsk,
    start: &B,
    stated: Option<Vec<B::Move>>,
    asked: &[Asked],
    search: impl FnOnce() -> Result<Vec<B::Move>, Diag>,
) -> Result<shown::TsumeReport, Diag> {
    let t0 = std::time::Instant::now();
    let given = stated.is_some();
    let line = match stated {
        Some(l) => l,
        None => search()?,
    };
    if let Some(why) = report::line_problem(start, &line) {
        return Err(Diag::error(code::BAD_SOLUTION, format!("the solution is not a line of checks: {why}"))
            .help("every move must be legal, each of the attacker's a check, and the line end on the attacker's move"));
    }
    let spent = u64::try_from(t0.elapsed().as_millis()).unwrap_or(u64::MAX);
    let left_ms = ask.time_ms.saturating_sub(spent);
    let mut ck = Checker::new(ask.nodes, if ask.time_ms == 0 { 0 } else { left_ms.max(1) });
    let futile = report::futile_interpositions(&mut ck, start, &line);
    let mut verdicts: Vec<Named<B::Move>> = vec![];
    for c in asked {
        // without a stated solution, the common count reads its own line where the searched one
        // holds a futile interposition
        let mut own = None;
        if !given && c.conv.futility == Futility::Common {
            let in_line = match &futile {
                Ok(f) => f.iter().any(|at| {
                    (at.ply as usize)
                        .checked_sub(1)
                        .and_then(|i| line.get(i))
                        .is_some_and(|m| at.moves.contains(m))
                }),
                Err(_) => false,
            };
            if in_line {
                let plies = u32::try_from(line.len()).unwrap_or(u32::MAX);
                if let Ok(Some(l)) = ck.line(start, plies, Futility::Common) {
                    own = Some(l);
                }
            }
        }
        let v = report::verdict(&mut ck, start, own.as_ref().unwrap_or(&line), c.conv);
        verdicts.push((c.name.clone(), v, own));
    }
    let left = report::leftover(start, &line);
    let ms = u64::try_from(t0.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok(written(
        start, &line, given, left, &futile, &verdicts, ck.nodes, ms,
    ))
}

/// The shortest mate the df-pn search finds from `start`, every interposition counted (run on
/// a thread with the search's stack).
pub fn search_line(ask: &TsumeAsk, start: &Position) -> Result<Vec<Move>, Diag> {
    use crate::shogi::dfpn::{MateLength, MateOptions, MateSolver, MateStatus};
    let opts = MateOptions {
        max_nodes: ask.nodes,
        max_ms: ask.time_ms,
        hash_mb: 64,
        length: MateLength::Shortest,
        max_plies: ask.max_plies,
        reading: crate::shogi::readings::Reading::NARROW,
        ..Default::default()
    };
    let mut solver = MateSolver::new(opts.hash_mb);
    solver.set_threads(ask.threads);
    let r = solver.solve(start, &opts);
    match r.result {
        MateStatus::Mate => Ok(r.pv),
        MateStatus::NoMate => Err(no_mate_within(ask.max_plies)),
        MateStatus::Unknown => Err(search_ran_out(&format!("{} nodes, {} ms", r.nodes, r.ms))),
    }
}

/// The shortest mate a board variant's df-pn search finds from `start`.
pub fn variant_search_line(
    ask: &TsumeAsk,
    start: &TsumeBoard,
    dm: DropMate,
) -> Result<Vec<crate::shogi::variant::VMove>, Diag> {
    use crate::shogi::variant::{MateLimits, MateOutcome};
    let t0 = std::time::Instant::now();
    let limits = MateLimits {
        drop_mate: dm,
        max_plies: ask.max_plies,
        max_nodes: ask.nodes,
        deadline: (ask.time_ms > 0).then(|| t0 + std::time::Duration::from_millis(ask.time_ms)),
        ..MateLimits::default()
    };
    let r = start.p.clone().mate_search_for(limits, true);
    match r.outcome {
        MateOutcome::Mate(line) => Ok(line),
        MateOutcome::NoMate => Err(no_mate_within(ask.max_plies)),
        MateOutcome::Unknown => Err(search_ran_out(&format!("{} nodes", r.nodes))),
    }
}

/// A solution written in USI moves, read (E0613 at the first that is none).
pub fn stated_line(s: &str) -> Result<Vec<Move>, Diag> {
    s.split_whitespace()
        .map(|t| {
            Move::from_usi(t).ok_or_else(|| {
                Diag::error(
                    code::BAD_SOLUTION,
                    format!("the solution's move `{t}` is not a USI move"),
                )
                .help("write the solution in USI moves: `9e9a P*2a 9a2a`")
            })
        })
        .collect()
}

/// A board variant's solution, each move read in the position it is played in.
pub fn variant_stated_line(
    start: &TsumeBoard,
    s: &str,
    dm: DropMate,
) -> Result<Vec<crate::shogi::variant::VMove>, Diag> {
    let mut q = start.p.clone();
    let mut line = vec![];
    for (i, t) in s.split_whitespace().enumerate() {
        let m = q.parse_move(t, dm).map_err(|e| {
            Diag::error(
                code::BAD_SOLUTION,
                format!("the solution's move {} `{t}`: {}", i + 1, e.message),
            )
            .help(e.help.clone())
        })?;
        q.do_move(m);
        line.push(m);
    }
    Ok(line)
}

/// Why the tsume checker did not run: no thread could be made for its stack (E0610).
pub fn no_stack() -> Diag {
    Diag::error(
        code::NO_SEARCH_THREAD,
        "the tsume checker could not run (no thread for its stack)",
    )
    .help("the system refused a thread: free memory or raise the limit of threads")
}

/// E0614: no mate within `max_plies`, so no line to examine.
fn no_mate_within(max_plies: u32) -> Diag {
    Diag::error(
        code::NO_TSUME_LINE,
        format!("no mate within {max_plies} plies: the problem has no solution to examine"),
    )
    .help("give the intended solution with --solution, or a longer --max-plies")
}

/// E0614: the search stopped at its limits (`spent`) before a mate.
fn search_ran_out(spent: &str) -> Diag {
    Diag::error(
        code::NO_TSUME_LINE,
        format!("the mate search found no mate within its limits ({spent})"),
    )
    .help("give the intended solution with --solution, or raise --time-ms / --nodes")
}

fn usi_list<B: Board>(b: &B, ms: &[B::Move]) -> Vec<String> {
    ms.iter().map(|m| b.text(*m)).collect()
}

fn at_plies<B: Board>(b: &B, xs: &[AtPly<B::Move>]) -> Vec<shown::AtPly> {
    xs.iter()
        .map(|x| shown::AtPly {
            ply: x.ply,
            moves: usi_list(b, &x.moves),
        })
        .collect()
}

/// The alternatives of every convention, grouped by ply and by the conventions that find them.
#[allow(clippy::type_complexity)]
fn alternatives<M: Clone + PartialEq>(verdicts: &[Named<M>]) -> Vec<(u32, Vec<M>, Vec<String>)> {
    let mut out: Vec<(u32, Vec<M>, Vec<String>)> = vec![];
    for (name, v, own) in verdicts {
        if own.is_some() {
            continue;
        }
        for at in &v.alternatives {
            match out
                .iter_mut()
                .find(|(p, ms, _)| *p == at.ply && *ms == at.moves)
            {
                Some(e) => e.2.push(name.clone()),
                None => out.push((at.ply, at.moves.clone(), vec![name.clone()])),
            }
        }
    }
    out.sort_by_key(|e| e.0);
    out
}

/// The report, its moves written in the notation of `start`.
#[allow(clippy::too_many_arguments)]
fn written<B: Written>(
    start: &B,
    line: &[B::Move],
    given: bool,
    leftover: Vec<String>,
    futile: &Result<Vec<AtPly<B::Move>>, crate::shogi::tsume::Stop>,
    verdicts: &[Named<B::Move>],
    nodes: u64,
    ms: u64,
) -> shown::TsumeReport {
    let plies = u32::try_from(line.len()).unwrap_or(u32::MAX);
    let alternatives = alternatives(verdicts)
        .into_iter()
        .map(|(p, ms, cs)| shown::Alternative {
            ply: p,
            moves: usi_list(start, &ms),
            last_move: p == plies,
            conventions: cs,
        })
        .collect();
    let verdicts = verdicts
        .iter()
        .map(|(name, v, own)| shown::TsumeVerdict {
            convention: name.clone(),
            sound: v.sound,
            reasons: v.reasons.clone(),
            main_line: own.as_ref().map(|o| usi_list(start, o)),
            plies: own.as_ref().map(|o| o.len()),
            shortest: v.shortest,
            alternatives: at_plies(start, &v.alternatives),
            equal_length: at_plies(start, &v.equal_length),
            promotion_choices: at_plies(start, &v.promotion_choices),
            variations: v
                .variations
                .iter()
                .map(|x| shown::Variation {
                    ply: x.ply,
                    line: usi_list(start, &x.line),
                    alternatives: at_plies(start, &x.alternatives),
                })
                .collect(),
            variation_alternatives: v.convention.variation_alternatives,
        })
        .collect();
    shown::TsumeReport {
        sfen: start.sfen(),
        main_line: usi_list(start, line),
        plies: line.len(),
        solution: if given { "given" } else { "searched" },
        leftover,
        futile_interpositions: match &futile {
            Ok(f) => shown::Futile::Settled(at_plies(start, f)),
            Err(why) => shown::Futile::Unsettled(why.to_string()),
        },
        alternatives,
        verdicts,
        nodes,
        ms,
    }
}

#[cfg(test)]
mod tests {
    use super::{examine, search_line, stated_line, Asked, TsumeAsk};
    use crate::shogi::position::Position;
    use crate::shogi::tsume::CONVENTIONS;

    fn ask() -> TsumeAsk {
        TsumeAsk {
            nodes: 0,
            time_ms: 0,
            max_plies: 31,
            threads: 1,
        }
    }

    fn all() -> Vec<Asked> {
        CONVENTIONS
            .iter()
            .map(|c| Asked {
                name: c.name.to_string(),
                conv: *c,
            })
            .collect()
    }

    /// A gold dropped on 5b, guarded by the pawn on 5c, mates at once: the search's line is
    /// the report's main line, nothing is left in hand, and every convention finds it sound.
    /// Given as the solution, the same line is reported as given.
    #[test]
    fn a_mate_in_one_is_sound_under_every_convention() {
        let start = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let asked = all();
        let searched =
            examine(&ask(), &start, None, &asked, || search_line(&ask(), &start)).unwrap();
        assert_eq!(searched.main_line, ["G*5b"]);
        assert_eq!((searched.plies, searched.solution), (1, "searched"));
        assert!(searched.leftover.is_empty());
        assert_eq!(searched.verdicts.len(), asked.len());
        for v in &searched.verdicts {
            assert_eq!(v.sound, Some(true), "{}: {:?}", v.convention, v.reasons);
        }
        let line = stated_line("G*5b").unwrap();
        let given = examine(&ask(), &start, Some(line), &asked, || unreachable!()).unwrap();
        assert_eq!(
            (given.main_line, given.solution),
            (searched.main_line, "given")
        );
    }

    /// A stated line that is not a line of checks, and a move that is no USI move, are refused.
    #[test]
    fn a_solution_that_is_no_line_of_checks_is_refused() {
        let start = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
        let quiet = stated_line("G*9i").unwrap();
        let d = examine(&ask(), &start, Some(quiet), &all(), || unreachable!()).unwrap_err();
        assert_eq!(d.code, crate::diagnostics::code::BAD_SOLUTION);
        assert!(d.message.contains("not a line of checks"), "{}", d.message);
        let d = stated_line("G*5b x9").unwrap_err();
        assert!(d.message.contains("`x9`"), "{}", d.message);
    }
}
