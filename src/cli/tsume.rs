#![forbid(unsafe_code)]
//! `okite tsume`: a composed mate problem's soundness under each convention of
//! rules/shogi_tsume.rule.

use super::args::TsumeArgs;
use super::common::*;
use crate::commands::report::tsume as shown;
use crate::commands::tsume::{TsumeAsk, Written};
use crate::diagnostics::Diag;
use crate::front::{OutOpts, RecordFormat};
use crate::shogi::position::Position;
use crate::shogi::tsume::report;
use crate::shogi::tsume::CONVENTIONS;
use crate::shogi::types::Move;

use crate::commands::{TSUME_DEFS, TSUME_READINGS};
use crate::diagnostics::code;

pub(super) use crate::commands::tsume::Asked;

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
    let stated = match a
        .solution
        .as_deref()
        .map(crate::commands::tsume::stated_line)
    {
        Some(Ok(line)) => Some(line),
        Some(Err(d)) => return printer.fail(d),
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
    use crate::commands::tsume::{variant_search_line, variant_stated_line};
    use crate::shogi::variant::TsumeBoard;
    let p = super::variant_asked::read_position(v, sfen, "", dm)?;
    let start = TsumeBoard::new(p, dm).map_err(|why| {
        Diag::error(crate::variants::BAD_VARIANT, why)
            .help("its wins are asked with `okite mate --variant ...`")
    })?;
    announce();
    let stated = match solution {
        Some(s) => Some(variant_stated_line(&start, s, dm)?),
        None => None,
    };
    crate::shogi::dfpn::with_stack(super::output::carried(move || {
        report_problem(a, &start, stated, asked, || {
            variant_search_line(&ask(a), &start, dm)
        })
    }))
    .unwrap_or_else(|| Err(no_stack()))
}

pub(super) use crate::commands::tsume::no_stack;

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

/// The limits of `a`, for the commands layer.
fn ask(a: &TsumeArgs) -> TsumeAsk {
    TsumeAsk {
        nodes: a.nodes,
        time_ms: a.time_ms,
        max_plies: a.max_plies,
        threads: a.threads,
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
    let r = crate::commands::tsume::examine(&ask(a), start, stated, asked, search)?;
    Ok(if a.json {
        crate::json::text(&r)
    } else {
        text_report(&r)
    })
}

/// The shortest mate the df-pn search finds, every interposition counted.
pub(super) fn search_line(a: &TsumeArgs, start: &Position) -> Result<Vec<Move>, Diag> {
    crate::commands::tsume::search_line(&ask(a), start)
}

/// The report as text: the main line, what is left in hand, the futile interpositions, the
/// alternatives, then each convention's verdict and its flaws.
fn text_report(r: &shown::TsumeReport) -> String {
    let names = |ms: &[String]| ms.join(" ");
    let mut out = vec![format!(
        "main line ({}, {}): {}",
        report::plies(u32::try_from(r.plies).unwrap_or(u32::MAX)),
        if r.solution == "given" {
            "as given"
        } else {
            "the shortest the mate search finds"
        },
        names(&r.main_line)
    )];
    if !r.leftover.is_empty() {
        out.push(format!("left in hand: {}", r.leftover.join(" ")));
    }
    match &r.futile_interpositions {
        shown::Futile::Settled(f) => {
            for at in f {
                out.push(format!(
                    "futile interpositions at ply {}: {}",
                    at.ply,
                    names(&at.moves)
                ));
            }
        }
        shown::Futile::Unsettled(why) => {
            out.push(format!("futile interpositions: unknown ({why})"))
        }
    }
    for a in &r.alternatives {
        out.push(format!(
            "alternative mates at ply {}: {} ({})",
            a.ply,
            names(&a.moves),
            a.conventions.join(", ")
        ));
    }
    for v in &r.verdicts {
        let what = match v.sound {
            Some(true) => "sound",
            Some(false) => "not sound",
            None => "unknown",
        };
        out.push(format!("{}: {what}", v.convention));
        if let Some(o) = &v.main_line {
            out.push(format!(
                "  main line ({}): {}",
                report::plies(u32::try_from(o.len()).unwrap_or(u32::MAX)),
                names(o)
            ));
        }
        for why in &v.reasons {
            out.push(format!("  - {why}"));
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
        if v.variation_alternatives {
            for x in &v.variations {
                let played = (x.ply as usize)
                    .checked_sub(1)
                    .and_then(|i| x.line.get(i))
                    .map_or("?", String::as_str);
                for at in &x.alternatives {
                    out.push(format!(
                        "  - ply {} of the variation {played} at ply {}: other mates (変化別詰): {}",
                        at.ply,
                        x.ply,
                        names(&at.moves)
                    ));
                }
            }
        }
    }
    out.join("\n")
}
