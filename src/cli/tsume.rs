#![forbid(unsafe_code)]
//! `okite tsume`: a composed mate problem's soundness under each convention of
//! rules/shogi_tsume.rule.

use super::args::TsumeArgs;
use super::common::*;
use crate::commands::report::tsume as shown;
use crate::diagnostics::Diag;
use crate::front::{OutOpts, RecordFormat};
use crate::shogi::position::Position;
use crate::shogi::tsume::report::{self, AtPly, Verdict};
use crate::shogi::tsume::{Board, Checker, Convention, Futility, CONVENTIONS};
use crate::shogi::types::Move;

use crate::commands::{TSUME_DEFS, TSUME_READINGS};
use crate::diagnostics::code;

/// A convention asked for: the name given and what the checker follows.
pub(super) struct Asked {
    name: String,
    conv: Convention,
}

/// What every problem of a `tsume` command is judged by: the board variant asked (if any), and
/// the conventions, each one the checker follows; or the exit status of why not (its
/// diagnostic printed).
pub(super) type Prepared = (Option<crate::variants::LoadedVariant>, Vec<Asked>);

/// The rules, the board variant and the conventions of `a`, read and checked.
#[expect(clippy::expect_used, reason = "the conventions are the named ones")]
pub(super) fn prepare(a: &TsumeArgs, printer: &Printer) -> Result<Prepared, i32> {
    // a board variant's problem is judged under the shipped conventions (`None`: the shipped
    // rules, not checked yet)
    let (prog, board) = match super::variant_asked::requested(
        a.variant.variant.as_deref(),
        &a.rules,
        None,
        printer,
    ) {
        Ok(super::variant_asked::Asked::Board(v)) => (None, Some(v)),
        Ok(super::variant_asked::Asked::Shogi(p)) => (p, None),
        Err(c) => return Err(c),
    };
    let names: Vec<String> = match &a.conventions {
        Some(s) => s
            .split(',')
            .map(|x| x.trim().to_string())
            .filter(|x| !x.is_empty())
            .collect(),
        None => CONVENTIONS.iter().map(|c| c.name.to_string()).collect(),
    };
    if let Err(d) = super::bounds::threads_in_range(a.threads) {
        return Err(printer.fail(d));
    }
    if names.is_empty() {
        return Err(printer.fail(
            Diag::error(code::BAD_OPTION, "--conventions names no convention").help(format!(
                "name readings of rules/shogi_tsume.rule: {}",
                TSUME_READINGS.join(", ")
            )),
        ));
    }
    // on the built-in rules, the convention the checker follows under each shipped reading is
    // known without checking them; a name that is none of them is checked, and said wrong, below
    if prog.is_none() {
        let known: Option<Vec<Asked>> = names
            .iter()
            .map(|n| {
                let c = crate::shipped::tsume_convention(n)?;
                Some(Asked {
                    name: n.clone(),
                    conv: crate::shogi::tsume::convention(c)?,
                })
            })
            .collect();
        if let Some(asked) = known {
            return Ok((board, asked));
        }
    }
    let prog = super::variant_asked::shogi_program(prog, printer)?;
    let mut asked = vec![];
    for n in &names {
        let r = match prog.reading_or_error(n) {
            Ok(r) => r,
            Err(d) => return Err(printer.fail_in(d, &prog.sources)),
        };
        match crate::bindings::engine_reading(&prog, r, &TSUME_DEFS, &TSUME_READINGS) {
            Ok(c) => asked.push(Asked {
                name: n.clone(),
                conv: crate::shogi::tsume::convention(c).expect("the conventions are named"),
            }),
            Err(why) => {
                return Err(printer.fail(
                    Diag::error(
                        code::CONVENTION_CANNOT_FOLLOW,
                        format!("the tsume checker cannot follow the convention {n} with these rules: {why}"),
                    )
                    .help("the rules answer themselves, without a report: okite eval --rules ... --reading ... --sfen ... 'tsume_within(g, i, N, futile_uncounted)'"),
                ));
            }
        }
    }
    Ok((board, asked))
}

#[expect(clippy::expect_used, reason = "the arguments give one of the two")]
pub(super) fn run_tsume(a: TsumeArgs) -> i32 {
    let printer = Printer::new(&OutOpts {
        color: "auto".into(),
    });
    let (board, asked) = match prepare(&a, &printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some(v) = board {
        return variant_tsume(a, v, asked, &printer);
    }
    // the problem, and the solution a record gives
    let (start, record_line): (Position, Option<Vec<Move>>) = match (&a.sfen, &a.kif, &a.csa) {
        (Some(s), _, _) => match crate::front::shogi_game(s, "") {
            Ok(g) => (g.start().clone(), None),
            Err((sources, ds)) => return printer.fail_all(&ds, &sources),
        },
        (None, k, c) if k.is_some() || c.is_some() => {
            let (path, fmt) = match k {
                Some(p) => (p, RecordFormat::Kif),
                None => (c.as_ref().expect("one of them"), RecordFormat::Csa),
            };
            match crate::front::read_record(path, fmt) {
                Ok((r, sources, _)) => match r.into_game() {
                    Ok(g) => {
                        let line = (!g.moves.is_empty()).then(|| g.moves.clone());
                        (g.start().clone(), line)
                    }
                    Err(errs) => {
                        let ds: Vec<Diag> = errs
                            .0
                            .iter()
                            .map(|e| {
                                Diag::error(
                                    code::BAD_GAME_RECORD,
                                    format!("bad game record: {}", e.message),
                                )
                            })
                            .collect();
                        return printer.fail_all(&ds, &sources);
                    }
                },
                Err((sources, ds)) => return printer.fail_all(&ds, &sources),
            }
        }
        _ => {
            return printer
                .fail(Diag::error(code::BAD_OPTION, "no problem given").help(
                    "give the problem with --sfen, or with its solution with --kif or --csa",
                ))
        }
    };
    if let Err(d) = crate::front::engine_start(std::slice::from_ref(&start)) {
        return printer.fail(d);
    }
    let stated = match &a.solution {
        Some(s) => {
            let mut line = vec![];
            for t in s.split_whitespace() {
                match Move::from_usi(t) {
                    Some(m) => line.push(m),
                    None => {
                        return printer.fail(
                            Diag::error(
                                code::BAD_SOLUTION,
                                format!("the solution's move `{t}` is not a USI move"),
                            )
                            .help("write the solution in USI moves: `9e9a P*2a 9a2a`"),
                        )
                    }
                }
            }
            Some(line)
        }
        None => record_line,
    };
    let outcome = crate::shogi::dfpn::with_stack(super::output::carried(move || {
        report_problem(&a, &start, stated, &asked, || search_line(&a, &start))
    }));
    finish(outcome, &printer)
}

/// `okite tsume` under a board variant (the check rule): the problem by `--sfen` in its
/// geometry, its solution by `--solution` or the variant's df-pn search.
fn variant_tsume(
    a: TsumeArgs,
    v: crate::variants::LoadedVariant,
    asked: Vec<Asked>,
    printer: &Printer,
) -> i32 {
    if a.csa.is_some() {
        return super::variant::no_csa(printer);
    }
    let dm = match super::variant_asked::drop_mate(a.variant.drop_mate.as_deref(), printer) {
        Ok(d) => d,
        Err(c) => return c,
    };
    // the problem by --sfen, or by a KIF record whose moves are its stated solution
    let (sfen, record_line) = match (&a.kif, &a.sfen) {
        (Some(path), _) => match super::variant::kif_record(&v, path, dm) {
            Ok((s, m)) => (s, Some(m).filter(|m| !m.is_empty())),
            Err((sources, ds)) => return printer.fail_all(&ds, &sources),
        },
        (None, Some(s)) => (s.clone(), None),
        (None, None) => {
            return printer.fail(Diag::error(code::BAD_OPTION, "no problem given").help(
                "give the problem with --sfen, in the variant's geometry, or as a KIF record",
            ))
        }
    };
    let sfen = &sfen;
    let answered = variant_report(
        &a,
        &v,
        &asked,
        sfen,
        a.solution.as_deref().or(record_line.as_deref()),
        dm,
        || super::variant_asked::announce(&v),
    );
    match answered {
        Ok(text) => finish(Some(Ok(text)), printer),
        Err(d) => printer.fail(d),
    }
}

/// The report of a problem of a board variant (the check rule): its position by SFEN, its
/// solution as stated or found by the variant's df-pn search. `announce` runs once the
/// position is known good.
pub(super) fn variant_report(
    a: &TsumeArgs,
    v: &crate::variants::LoadedVariant,
    asked: &[Asked],
    sfen: &str,
    solution: Option<&str>,
    dm: crate::shogi::variant::DropMate,
    announce: impl FnOnce(),
) -> Result<String, Diag> {
    use crate::shogi::variant::{MateLimits, MateOutcome, TsumeBoard};
    let p = super::variant_asked::read_position(v, sfen, "", dm)?;
    let start = TsumeBoard::new(p, dm).map_err(|why| {
        Diag::error(crate::variants::BAD_VARIANT, why)
            .help("its wins are asked with `okite mate --variant ...`")
    })?;
    announce();
    let stated = match solution {
        Some(s) => {
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
            Some(line)
        }
        None => None,
    };
    let search = |a: &TsumeArgs, start: &TsumeBoard| {
        let t0 = std::time::Instant::now();
        let limits = MateLimits {
            drop_mate: dm,
            max_plies: a.max_plies,
            max_nodes: a.nodes,
            deadline: (a.time_ms > 0).then(|| t0 + std::time::Duration::from_millis(a.time_ms)),
            ..MateLimits::default()
        };
        let r = start.p.clone().mate_search_for(limits, true);
        match r.outcome {
            MateOutcome::Mate(line) => Ok(line),
            MateOutcome::NoMate => Err(no_mate_within(a.max_plies)),
            MateOutcome::Unknown => Err(search_ran_out(&format!("{} nodes", r.nodes))),
        }
    };
    crate::shogi::dfpn::with_stack(super::output::carried(move || {
        report_problem(a, &start, stated, asked, || search(a, &start))
    }))
    .unwrap_or_else(|| Err(no_stack()))
}

/// Why the tsume checker did not run: no thread could be made for its stack (E0610).
pub(super) fn no_stack() -> Diag {
    Diag::error(
        code::NO_SEARCH_THREAD,
        "the tsume checker could not run (no thread for its stack)",
    )
    .help("the system refused a thread: free memory or raise the limit of threads")
}

/// The report printed, or why there is none.
pub(super) fn finish(outcome: Option<Result<String, Diag>>, printer: &Printer) -> i32 {
    match outcome {
        Some(Ok(text)) => {
            outln!("{text}");
            0
        }
        Some(Err(d)) => printer.fail(d),
        None => printer.fail(no_stack()),
    }
}

/// The report, as text or JSON.
pub(super) fn report_problem<B: Written>(
    a: &TsumeArgs,
    start: &B,
    stated: Option<Vec<B::Move>>,
    asked: &[Asked],
    search: impl FnOnce() -> Result<Vec<B::Move>, Diag>,
) -> Result<String, Diag> {
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
    let left_ms = a.time_ms.saturating_sub(t0.elapsed().as_millis() as u64);
    let mut ck = Checker::new(a.nodes, if a.time_ms == 0 { 0 } else { left_ms.max(1) });
    let futile = report::futile_interpositions(&mut ck, start, &line);
    let mut verdicts: Vec<Named<B::Move>> = vec![];
    for c in asked {
        // without a stated solution, the common count reads its own line where the searched one
        // holds a futile interposition
        let mut own = None;
        if !given && c.conv.futility == Futility::Common {
            let in_line = match &futile {
                Ok(f) => f
                    .iter()
                    .any(|at| at.moves.contains(&line[at.ply as usize - 1])),
                Err(_) => false,
            };
            if in_line {
                if let Ok(Some(l)) = ck.line(start, line.len() as u32, Futility::Common) {
                    own = Some(l);
                }
            }
        }
        let v = report::verdict(&mut ck, start, own.as_ref().unwrap_or(&line), c.conv);
        verdicts.push((c.name.clone(), v, own));
    }
    let left = report::leftover(start, &line);
    let ms = t0.elapsed().as_millis() as u64;
    Ok(if a.json {
        json_report(start, &line, given, &left, &futile, &verdicts, ck.nodes, ms)
    } else {
        text_report(start, &line, given, &left, &futile, &verdicts)
    })
}

/// The shortest mate the df-pn search finds, every interposition counted.
pub(super) fn search_line(a: &TsumeArgs, start: &Position) -> Result<Vec<Move>, Diag> {
    use crate::shogi::dfpn::{MateLength, MateOptions, MateSolver, MateStatus};
    let opts = MateOptions {
        max_nodes: a.nodes,
        max_ms: a.time_ms,
        hash_mb: 64,
        length: MateLength::Shortest,
        max_plies: a.max_plies,
        reading: crate::shogi::readings::Reading::NARROW,
        ..Default::default()
    };
    // (the report runs on a thread with a large stack already)
    let mut solver = MateSolver::new(opts.hash_mb);
    solver.set_threads(a.threads);
    let r = solver.solve(start, &opts);
    match r.result {
        MateStatus::Mate => Ok(r.pv),
        MateStatus::NoMate => Err(no_mate_within(a.max_plies)),
        MateStatus::Unknown => Err(search_ran_out(&format!("{} nodes, {} ms", r.nodes, r.ms))),
    }
}

/// A verdict under a convention by its name, with the line the convention read for itself.
type Named<M> = (String, Verdict<M>, Option<Vec<M>>);

/// The position written for the report.
pub(super) trait Written: Board {
    fn sfen(&self) -> String;
}

impl Written for Position {
    fn sfen(&self) -> String {
        self.to_sfen()
    }
}

impl Written for crate::shogi::variant::TsumeBoard {
    fn sfen(&self) -> String {
        self.p.to_sfen()
    }
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

fn at_ply_json<B: Board>(b: &B, xs: &[AtPly<B::Move>]) -> Vec<shown::AtPly> {
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

#[allow(clippy::too_many_arguments)]
fn json_report<B: Written>(
    start: &B,
    line: &[B::Move],
    given: bool,
    left: &[String],
    futile: &Result<Vec<AtPly<B::Move>>, crate::shogi::tsume::Stop>,
    verdicts: &[Named<B::Move>],
    nodes: u64,
    ms: u64,
) -> String {
    let l = line.len() as u32;
    let alternatives = alternatives(verdicts)
        .into_iter()
        .map(|(p, ms, cs)| shown::Alternative {
            ply: p,
            moves: usi_list(start, &ms),
            last_move: p == l,
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
            alternatives: at_ply_json(start, &v.alternatives),
            equal_length: at_ply_json(start, &v.equal_length),
            promotion_choices: at_ply_json(start, &v.promotion_choices),
            variations: v
                .variations
                .iter()
                .map(|x| shown::Variation {
                    ply: x.ply,
                    line: usi_list(start, &x.line),
                    alternatives: at_ply_json(start, &x.alternatives),
                })
                .collect(),
        })
        .collect();
    crate::json::text(&shown::TsumeReport {
        sfen: start.sfen(),
        main_line: usi_list(start, line),
        plies: line.len(),
        solution: if given { "given" } else { "searched" },
        leftover: left.to_vec(),
        futile_interpositions: futile.as_ref().ok().map(|f| at_ply_json(start, f)),
        alternatives,
        verdicts,
        nodes,
        ms,
    })
}

fn text_report<B: Board>(
    start: &B,
    line: &[B::Move],
    given: bool,
    left: &[String],
    futile: &Result<Vec<AtPly<B::Move>>, crate::shogi::tsume::Stop>,
    verdicts: &[Named<B::Move>],
) -> String {
    let names = |ms: &[B::Move]| {
        ms.iter()
            .map(|m| start.text(*m))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut out = vec![format!(
        "main line ({}, {}): {}",
        report::plies(line.len() as u32),
        if given {
            "as given"
        } else {
            "the shortest the mate search finds"
        },
        names(line)
    )];
    if !left.is_empty() {
        out.push(format!("left in hand: {}", left.join(" ")));
    }
    match futile {
        Ok(f) => {
            for at in f {
                out.push(format!(
                    "futile interpositions at ply {}: {}",
                    at.ply,
                    names(&at.moves)
                ));
            }
        }
        Err(s) => out.push(format!("futile interpositions: unknown ({s})")),
    }
    for (p, ms, cs) in alternatives(verdicts) {
        out.push(format!(
            "alternative mates at ply {p}: {} ({})",
            names(&ms),
            cs.join(", ")
        ));
    }
    for (name, v, own) in verdicts {
        let what = match v.sound {
            Some(true) => "sound",
            Some(false) => "not sound",
            None => "unknown",
        };
        out.push(format!("{name}: {what}"));
        if let Some(o) = own {
            out.push(format!(
                "  main line ({}): {}",
                report::plies(o.len() as u32),
                names(o)
            ));
        }
        for r in &v.reasons {
            out.push(format!("  - {r}"));
        }
        for at in &v.promotion_choices {
            out.push(format!(
                "  - ply {}: the other face mates as well (成生非限定): {}",
                at.ply,
                names(&at.moves)
            ));
        }
        for at in &v.equal_length {
            out.push(format!(
                "  - ply {}: equally long defences (変同): {}",
                at.ply,
                names(&at.moves)
            ));
        }
        // (where they are flaws, the reasons above name them)
        if v.convention.variation_alternatives {
            for x in &v.variations {
                for at in &x.alternatives {
                    out.push(format!(
                        "  - ply {} of the variation {} at ply {}: other mates (変化別詰): {}",
                        at.ply,
                        start.text(x.line[x.ply as usize - 1]),
                        x.ply,
                        names(&at.moves)
                    ));
                }
            }
        }
    }
    out.join("\n")
}
