#![forbid(unsafe_code)]
//! The shogi commands that run the move generator or replay a game (perft, legal, game), natively,
//! by the rules, or assembled from both under a variant.

use super::args::*;
use super::common::*;
use super::query::*;
use super::variant_asked::{shogi_program, Asked, Play};
use crate::check::Program;
use crate::commands::game::{Judged, Judges};
use crate::commands::perft::{self, HISTORY_DEPTH};
use crate::commands::report::{Count, Moves, PositionReport, ReadingVerdict};
use crate::commands::{Notice, Plan, SHOGI_READINGS};
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::front::{positions_of, pseudo_game, record_of, shogi_game, QueryOpts, RunOpts};
use crate::ir::Value;
use crate::natives::Engine;
use std::io::IsTerminal;
use std::time::Instant;

/// Moves a line of `okite game` lists where a reading finds repetitions or perpetual checks.
const LISTED_MOVES: usize = 20;

pub(super) fn perft_by_rules(
    prog: &mut Program,
    reading: crate::ir::ReadingId,
    history: &[crate::shogi::position::Position],
    depth: u32,
    engine: Engine,
    printer: &Printer,
) -> Result<u128, i32> {
    let names = state_names(prog)?;
    // with no history before the position, `perft(s, d)` (keyed by states, so transpositions
    // are shared); with one, `perft_game(g, i, d)`, which keeps each line's history
    let (text, bound) = if history.len() <= 1 {
        (
            "perft(s, d)",
            vec![
                (
                    "s".to_string(),
                    names.state(&history[0]),
                    "State".to_string(),
                ),
                ("d".to_string(), Value::Int(depth as i64), "Int".to_string()),
            ],
        )
    } else {
        let states: Vec<Value> = history.iter().map(|p| names.state(p)).collect();
        let n = states.len() as i64;
        (
            "perft_game(g, i, d)",
            vec![
                ("g".to_string(), Value::seq(states), "Game".to_string()),
                ("i".to_string(), Value::Int(n), "Int".to_string()),
                ("d".to_string(), Value::Int(depth as i64), "Int".to_string()),
            ],
        )
    };
    let v = eval_under(prog, reading, text, bound, engine, printer)?;
    match v {
        Value::Int(n) if n >= 0 => Ok(n as u128),
        v => Err(printer.fail(unexpected(text, &v, "a count"))),
    }
}

/// `text` evaluated under `reading`, with the names of `bound` given their values.
fn eval_under(
    prog: &mut Program,
    reading: crate::ir::ReadingId,
    text: &str,
    bound: Vec<(String, Value, String)>,
    engine: Engine,
    printer: &Printer,
) -> Result<Value, i32> {
    let rname = prog.readings[reading.index()].name.clone();
    eval_with_bound(prog, text, bound, engine, Some(&rname), printer, None)
}

/// Refuse a position that the loaded rules cannot hold under the reading (a variant that
/// declares fewer pieces or a smaller board than the 9 x 9 state given): its count would be a
/// silent wrong answer. Rules without the shogi state's vocabulary are left to the later checks.
pub(super) fn fits_the_rules(
    prog: &mut Program,
    reading: crate::ir::ReadingId,
    start: &crate::shogi::position::Position,
    printer: &Printer,
) -> Result<(), i32> {
    if ["post", "Pieces", "on_the_board"]
        .iter()
        .any(|n| prog.key_of(n).is_none())
    {
        return Ok(());
    }
    let names = state_names(prog)?;
    let bound = vec![("s".to_string(), names.state(start), "State".to_string())];
    let text = "(size({ p | p in keys(post(s)), p not in Pieces }), \
                size({ p | p in keys(post(s)), let (on_board(c, r, _), _) = post(s)(p), not on_the_board((c, r)) }))";
    let v = eval_under(prog, reading, text, bound, Engine::Native, printer)?;
    let counts = match &v {
        Value::Tuple(t) => match &t[..] {
            [Value::Int(a), Value::Int(b)] => (*a, *b),
            _ => return Ok(()),
        },
        _ => return Ok(()),
    };
    if counts == (0, 0) {
        return Ok(());
    }
    let mut why = vec![];
    if counts.0 > 0 {
        why.push(format!(
            "{} of its pieces are not among the rules' `Pieces`",
            counts.0
        ));
    }
    if counts.1 > 0 {
        why.push(format!(
            "{} of its pieces stand on squares off the rules' board (`on_the_board`)",
            counts.1
        ));
    }
    Err(printer.fail(
        Diag::error(
            code::RULES_WITHOUT_SHOGI,
            format!(
                "the position cannot be a state of the rules loaded under {}: {}",
                prog.readings[reading.index()].name,
                why.join("; ")
            ),
        )
        .help("give a position of the variant with --sfen; a board variant written as a reading of rules/variants/board.rule runs on its own geometry (`okite perft --rules FILE`)"),
    ))
}

#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
pub(super) fn legal_by_rules(
    prog: &mut Program,
    reading: crate::ir::ReadingId,
    history: &[crate::shogi::position::Position],
    printer: &Printer,
) -> Result<Vec<String>, i32> {
    let names = state_names(prog)?;
    let states: Vec<Value> = history.iter().map(|p| names.state(p)).collect();
    let n = states.len() as i64;
    let bound = vec![
        ("g".to_string(), Value::seq(states), "Game".to_string()),
        ("i".to_string(), Value::Int(n), "Int".to_string()),
    ];
    let v = eval_under(prog, reading, "legal(g, i)", bound, Engine::Native, printer)?;
    let Value::Set(legal) = v else {
        return Err(printer.fail(unexpected("legal(g, i)", &v, "a set of states")));
    };
    let last = history.last().expect("a game has a position");
    // each successor the rules give, named by the move that makes it: the standard moves in
    // the generator's order, then those of a variant's own (a pawn stepping back)
    let standard = last.pseudo_legal_moves();
    let mut moves = match names.moves_to(last, legal.iter()) {
        Ok(ms) => ms,
        Err(m) => {
            return Err(printer.fail(
                Diag::error(code::UNEXPECTED_VALUE, format!("`legal(g, i)`: {m}"))
                .help("`okite legal` lists moves in USI; `okite eval --sfen ... 'legal(g, i)'` shows the rules' successors as states"),
            ));
        }
    };
    let rank =
        |m: &crate::shogi::types::Move| standard.iter().position(|x| x == m).unwrap_or(usize::MAX);
    moves.sort_by_key(|m| (rank(m), m.to_usi()));
    moves.dedup();
    Ok(moves.into_iter().map(|m| m.to_usi()).collect())
}

pub(super) fn perft_hybrid(
    prog: &Program,
    reading: crate::ir::ReadingId,
    v: &crate::hybrid::ShogiVariant,
    history: &mut Vec<crate::shogi::position::Position>,
    depth: u32,
) -> Result<u64, String> {
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn rec(
        hy: &mut crate::shogi::legality::Hybrid,
        h: &mut Vec<crate::shogi::position::Position>,
        d: u32,
    ) -> Result<u64, String> {
        if d == 0 {
            return Ok(1);
        }
        let ms = hy.legal_moves(h)?;
        if d == 1 {
            return Ok(ms.len() as u64);
        }
        let mut n = 0;
        for m in ms {
            let next = h.last().expect("a position").after(m);
            h.push(next);
            n += rec(hy, h, d - 1)?;
            h.pop();
        }
        Ok(n)
    }
    let binder = crate::bindings::Sound::standard();
    let mut oracle = crate::hybrid::RulesOracle::new(prog, &binder, reading)?;
    let mut hy = crate::shogi::legality::Hybrid::new(v.mate_needs_check, v.asked, &mut oracle);
    rec(&mut hy, history, depth)
}

pub(super) fn legal_hybrid(
    prog: &Program,
    reading: crate::ir::ReadingId,
    v: &crate::hybrid::ShogiVariant,
    history: &[crate::shogi::position::Position],
) -> Result<Vec<String>, String> {
    let binder = crate::bindings::Sound::standard();
    let mut oracle = crate::hybrid::RulesOracle::new(prog, &binder, reading)?;
    let mut hy = crate::shogi::legality::Hybrid::new(v.mate_needs_check, v.asked, &mut oracle);
    Ok(hy
        .legal_moves(&mut history.to_vec())?
        .iter()
        .map(|m| m.to_usi())
        .collect())
}

/// `okite game` on one game under the readings: the report of [`crate::commands::game::judge`],
/// as text or JSON, written into `out`; the exit status. A reading that fails leaves the lines of
/// those judged before it, then its error.
pub(super) fn report_game(
    judges: &mut Judges,
    positions: &[crate::shogi::position::Position],
    record: Option<&crate::shogi::record::Record>,
    readings: &[String],
    printer: &Printer,
    json: bool,
    out: &mut String,
) -> i32 {
    use std::fmt::Write as _;
    let judged = crate::commands::game::judge(judges, positions, record, readings, &mut tell);
    let none = crate::diagnostics::SourceMap::default();
    let fail = |judges: &Judges, ds: &[Diag]| {
        printer.fail_all(ds, judges.program().map_or(&none, |p| &p.sources))
    };
    let Judged { report, failed } = match judged {
        Ok(j) => j,
        Err(ds) => return fail(judges, &ds),
    };
    if json {
        if let Some(ds) = failed {
            return fail(judges, &ds);
        }
        let _ = writeln!(out, "{}", crate::json::text(&report));
        return 0;
    }
    let _ = writeln!(out, "{}", plural(report.moves.len(), "move"));
    if let Some(e) = &report.record_illegal_move {
        let _ = writeln!(
            out,
            "the record ends with an illegal move: move {} `{}` (line {}): {}",
            e.number, e.written, e.line, e.why
        );
    }
    if let Some(r) = &report.record_result {
        let _ = writeln!(
            out,
            "record result: {}, {} after {} moves (`{}`, line {})",
            r.outcome, r.ending, r.ply, r.stated, r.line
        );
    }
    for row in &report.readings {
        let _ = writeln!(out, "{}", verdict_line(row));
    }
    match failed {
        Some(ds) => fail(judges, &ds),
        None => 0,
    }
}

/// The line of `okite game` for one reading's verdict.
fn verdict_line(v: &ReadingVerdict) -> String {
    let first = match &v.first_forbidden {
        Some(f) => format!("move {} ({}) is forbidden: {}", f.number, f.usi, f.why),
        None => "no forbidden move".to_string(),
    };
    // a long record repeats thousands of times: the line names the first moves and the count
    // (--json lists them all)
    let list = |v: &[usize]| {
        let shown: Vec<String> = v.iter().take(LISTED_MOVES).map(|i| i.to_string()).collect();
        if v.len() > LISTED_MOVES {
            format!("{}, ... ({} in all)", shown.join(", "), v.len())
        } else {
            shown.join(", ")
        }
    };
    let at = |v: &[usize], what: &str, none: &str| match v.len() {
        0 => none.to_string(),
        1 => format!("{what} at move {}", list(v)),
        _ => format!("{what}s at moves {}", list(v)),
    };
    format!(
        "{:<13} {first}; {}; {}; final position {}",
        v.reading,
        at(
            &v.repetitions,
            "fourfold repetition",
            "no fourfold repetition"
        ),
        at(&v.perpetual_checks, "perpetual check", "no perpetual check"),
        if v.final_mate {
            "is mate"
        } else {
            "is not mate"
        }
    )
}

/// `okite perft`.
pub(super) fn perft(args: PerftArgs) -> i32 {
    let PerftArgs {
        pos,
        depth,
        divide,
        engine,
        rules,
        reading,
        json,
        jobs,
        variant,
    } = args;
    let printer = Printer::new(&pos.out);
    if let Err(d) = super::bounds::jobs_in_range(jobs) {
        return printer.fail(d);
    }
    let jobs = super::bounds::jobs_or_cores(jobs);
    if depth > 12 {
        return printer.fail(
            Diag::error(
                code::BAD_OPTION,
                format!("perft to depth {depth} would not finish (depth 7 from the start position already has 15 billion leaves)"),
            )
            .help("ask for a depth of at most 12"),
        );
    }
    // the built-in rules under one of their readings: the plan is known without checking them
    let asked = reading.as_deref().unwrap_or("narrow-check");
    if let (Engine::Native, Some(Plan::Native(native))) = (
        engine,
        crate::commands::shipped_plan(&rules, variant.variant.as_deref(), "legal", asked),
    ) {
        let engine_name = "the move generator";
        let history = match pseudo_game(&pos.sfen, &pos.moves, None) {
            Ok(h) => h,
            Err((sources, ds)) => return printer.fail_all(&ds, &sources),
        };
        if let Err(d) = crate::front::engine_start(&history) {
            return printer.fail(d);
        }
        // said once the position is known good, as the checked path says it
        let ej = Notice::native("legal", asked, engine_name, native);
        errln!("{}", ej.line());
        return perft_native(native, &history, depth, divide, jobs, json, &ej, &printer);
    }
    let loaded = match super::variant_asked::request(&variant, &rules, reading.as_deref(), &printer)
    {
        Ok(Play::Board(v, dm)) => {
            return super::variant::perft(
                v, &pos.sfen, &pos.moves, depth, divide, dm, json, jobs, &printer,
            );
        }
        Ok(Play::Shogi(p)) => p,
        Err(c) => return c,
    };
    let mut prog = match shogi_program(loaded, &printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    // without --reading: narrow-check (mate presupposes check, as the usual perft
    // convention counts a pawn-drop mate), with no history before the position
    let rname = reading.clone().unwrap_or_else(|| {
        if prog.reading_id("narrow-check").is_some() {
            "narrow-check".into()
        } else {
            "base".into()
        }
    });
    let r = match prog.reading_or_error(&rname) {
        Ok(r) => r,
        Err(d) => {
            return printer.fail_in(d, &prog.sources);
        }
    };
    let moves_of_rules = &mut crate::front::MovesOfRules::new(&prog, r);
    let mut history = match pseudo_game(&pos.sfen, &pos.moves, Some(moves_of_rules)) {
        Ok(h) => h,
        Err((sources, ds)) => {
            return printer.fail_all(&ds, &sources);
        }
    };
    if let Err(d) = crate::front::engine_start(&history) {
        return printer.fail(d);
    }
    let plan = match engine {
        Engine::Native => crate::commands::plan(&prog, r, "legal", &SHOGI_READINGS),
        _ => Plan::rules_asked(),
    };
    let (hybrid, ej) = move_generator(&prog, r, &plan, engine);
    let native = match plan {
        Plan::Native(n) => n,
        Plan::Rules(_) => {
            let _spinner = Spinner::new(format!("perft to depth {depth}"));
            let emit = |n: u128| print_count(n, json, &ej);
            if let Err(c) = fits_the_rules(&mut prog, r, &history[0], &printer) {
                return c;
            }
            if let Some(v) = hybrid {
                if depth > HISTORY_DEPTH {
                    return printer.fail(perft::too_deep_with_history(depth, "a variant"));
                }
                return match perft_hybrid(&prog, r, &v, &mut history, depth) {
                    Ok(n) => {
                        emit(n as u128);
                        0
                    }
                    Err(m) => printer.fail(rules_failed(&m)),
                };
            }
            return match perft_by_rules(&mut prog, r, &history, depth, engine, &printer) {
                Ok(n) => {
                    emit(n);
                    0
                }
                Err(c) => c,
            };
        }
    };
    perft_native(native, &history, depth, divide, jobs, json, &ej, &printer)
}

/// Prints a perft count: the number alone, or with `--json` beside the engine `ej`.
fn print_count(n: u128, json: bool, ej: &Notice) {
    if json {
        let report = Count {
            count: n,
            engine: ej.clone(),
        };
        outln!("{}", crate::json::text(&report));
    } else {
        outln!("{n}");
    }
}

/// Perft by the native engine following the shipped reading `native`, from the last position
/// of `history`; the count printed (with `--json`, beside the engine `ej`), and with `divide`
/// each first move's before it.
#[allow(clippy::too_many_arguments)]
#[expect(
    clippy::expect_used,
    reason = "the shogi engines' readings are the named ones"
)]
fn perft_native(
    native: &str,
    history: &[crate::shogi::position::Position],
    depth: u32,
    divide: bool,
    jobs: usize,
    json: bool,
    ej: &Notice,
    printer: &Printer,
) -> i32 {
    let _spinner = Spinner::new(format!("perft to depth {depth}"));
    let reading = crate::shogi::readings::Reading::named(native)
        .expect("the shogi engines' readings are named");
    let t0 = Instant::now();
    let found = crate::commands::perft::native(&crate::commands::perft::PerftAsk {
        history,
        reading,
        depth,
        divide,
        jobs,
    });
    let found = match found {
        Ok(f) => f,
        Err(d) => return printer.fail(d),
    };
    for (m, c) in &found.divided {
        outln!("{} {c}", m.to_usi());
    }
    if native == "narrow-check" && std::io::stderr().is_terminal() {
        let secs = t0.elapsed().as_secs_f64();
        errln!(
            "{:.3} s, {:.1} M leaves/s",
            secs,
            found.count as f64 / secs / 1e6
        );
    }
    print_count(found.count as u128, json, ej);
    0
}

/// The legal moves of the game's last position by the native generator under the shipped
/// reading `n`, as USI text.
#[expect(
    clippy::expect_used,
    reason = "the shogi engines' readings are the named ones"
)]
fn native_legal(history: &[crate::shogi::position::Position], n: &str) -> Vec<String> {
    let rd =
        crate::shogi::readings::Reading::named(n).expect("the shogi engines' readings are named");
    crate::shogi::readings::legal_moves(history, rd)
        .iter()
        .map(|m| m.to_usi())
        .collect()
}

/// `okite legal`.
#[expect(
    clippy::expect_used,
    reason = "the arm's guard checked that there is one"
)]
pub(super) fn legal(args: LegalArgs) -> i32 {
    let LegalArgs {
        pos,
        reading,
        engine,
        verify,
        rules,
        json,
        variant,
    } = args;
    let printer = Printer::new(&pos.out);
    let print = |ms: Vec<String>, ej: &Notice| {
        if json {
            let report = Moves {
                moves: ms,
                engine: ej.clone(),
            };
            outln!("{}", crate::json::text(&report));
        } else {
            outln!("{}", ms.join(" "));
        }
        0
    };
    // the built-in rules under one of their readings: the plan is known without checking
    // them. A position that does not read takes the checked path, which says what is wrong.
    let named = reading.as_deref().unwrap_or("base");
    if let (Engine::Native, false, Some(Plan::Native(native))) = (
        engine,
        verify,
        crate::commands::shipped_plan(&rules, variant.variant.as_deref(), "legal", named),
    ) {
        let history = pseudo_game(&pos.sfen, &pos.moves, None).ok();
        if let Some(history) = history.filter(|h| crate::front::engine_start(h).is_ok()) {
            let engine_name = "the move generator";
            let ej = Notice::native("legal", named, engine_name, native);
            errln!("{}", ej.line());
            return print(native_legal(&history, native), &ej);
        }
    }
    // without `--reading`: base (the rules as written, for shogi seed 001's narrow reading, as
    // the evaluator and the REPL); under a variant, the variant's own reading
    let asked = reading.as_deref();
    let loaded = match super::variant_asked::request(&variant, &rules, asked, &printer) {
        Ok(Play::Board(v, dm)) => {
            return super::variant::legal(v, &pos.sfen, &pos.moves, dm, json, &printer);
        }
        Ok(Play::Shogi(p)) => p,
        Err(c) => return c,
    };
    let prog = match shogi_program(loaded, &printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let r = match crate::commands::reading(&prog, reading.as_deref()) {
        Ok(r) => r,
        Err(d) => {
            return printer.fail_in(d, &prog.sources);
        }
    };
    let moves_of_rules = &mut crate::front::MovesOfRules::new(&prog, r);
    let history = match pseudo_game(&pos.sfen, &pos.moves, Some(moves_of_rules)) {
        Ok(h) => h,
        Err((sources, ds)) => {
            return printer.fail_all(&ds, &sources);
        }
    };
    if let Err(d) = crate::front::engine_start(&history) {
        return printer.fail(d);
    }
    let engine = if verify { Engine::Verify } else { engine };
    let plan = match engine {
        Engine::Rules => Plan::rules_asked(),
        _ => crate::commands::plan(&prog, r, "legal", &SHOGI_READINGS),
    };
    let (hybrid, ej) = move_generator(&prog, r, &plan, engine);
    let native = |n: &str| native_legal(&history, n);
    let print = |ms: Vec<String>| print(ms, &ej);
    let mut prog = prog;
    match (engine, plan) {
        (Engine::Native, Plan::Native(n)) => print(native(n)),
        (Engine::Verify, Plan::Native(n)) => {
            let mut a = native(n);
            let mut b = match legal_by_rules(&mut prog, r, &history, &printer) {
                Ok(b) => b,
                Err(c) => return c,
            };
            a.sort();
            b.sort();
            if a == b {
                print(a)
            } else {
                let only_native: Vec<&String> = a.iter().filter(|m| !b.contains(m)).collect();
                let only_rules: Vec<&String> = b.iter().filter(|m| !a.contains(m)).collect();
                printer.fail(
                    Diag::error(
                        ENGINES_DISAGREE,
                        format!("the native engine and the rules disagree under `{}`: only native: {only_native:?}; only rules: {only_rules:?}", prog.readings[r.index()].name),
                    )
                    .help("this is a bug of the native move generator or of the bindings: please report it with the position"),
                )
            }
        }
        (Engine::Native, Plan::Rules(_)) if hybrid.is_some() => {
            let v = hybrid.expect("checked");
            match legal_hybrid(&prog, r, &v, &history) {
                Ok(ms) => print(ms),
                Err(m) => printer.fail(rules_failed(&m)),
            }
        }
        _ => match legal_by_rules(&mut prog, r, &history, &printer) {
            Ok(ms) => print(ms),
            Err(c) => c,
        },
    }
}

/// `okite game`.
pub(super) fn game(args: GameArgs) -> i32 {
    let GameArgs {
        kif,
        csa,
        usi,
        sfen,
        readings,
        rulesets,
        rules,
        json,
        out,
        variant,
        ..
    } = args;
    let printer = Printer::new(&out);
    let asked = (readings.len() == 1).then(|| readings[0].as_str());
    let loaded = match super::variant_asked::request(&variant, &rules, asked, &printer) {
        Ok(Play::Board(v, dm)) => {
            if csa.is_some() {
                return super::variant::no_csa(&printer);
            }
            let (sfen, moves) = match &kif {
                Some(path) => match super::variant::kif_record(&v, path, dm) {
                    Ok(r) => r,
                    Err((sources, ds)) => return printer.fail_all(&ds, &sources),
                },
                None => (sfen, usi.unwrap_or_default()),
            };
            return super::variant::game(&v, &sfen, &moves, dm, json, &printer);
        }
        Ok(Play::Shogi(p)) => p,
        Err(c) => return c,
    };
    let q = QueryOpts {
        rules: vec![],
        sfen: Some(sfen),
        moves: usi,
        kif,
        csa,
        reading: None,
        run: RunOpts::parse_default(),
        out,
    };
    // the built-in rules, the native replay under each reading asked: the plan is known without
    // checking them. A record or moves that do not read take the checked path, which says what
    // is wrong.
    let shipped = rulesets
        .is_empty()
        .then(|| Judges::shipped(&rules, variant.variant.as_deref(), &readings))
        .flatten();
    if let Some(mut judges) = shipped {
        let mut report = |positions: &[crate::shogi::position::Position], record| {
            printed(|out| {
                report_game(
                    &mut judges,
                    positions,
                    record,
                    &readings,
                    &printer,
                    json,
                    out,
                )
            })
        };
        match record_of(&q) {
            Some(Ok((record, _, _))) => return report(&record.game.positions, Some(&record)),
            Some(Err(_)) => {}
            None => {
                if let Ok(Some(positions)) = positions_of(&q, None) {
                    return report(&positions, None);
                }
            }
        }
    }
    let loaded = match loaded {
        Some(p) => Some(p),
        None if !rules.is_empty() => match load_or_report(&rules, &printer) {
            Ok((p, _)) => Some(p),
            Err(c) => return c,
        },
        None => None,
    };
    let mut prog = match shogi_program(loaded, &printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    // a record is read to its end: its moves as written, the result it states, a last move
    // that cannot be played
    if let Some(read) = record_of(&q) {
        return match read {
            Ok((record, _, _)) => printed(|out| {
                judge_record(
                    &mut prog, &record, &rulesets, &readings, &printer, json, out,
                )
            }),
            Err((sources, ds)) => printer.fail_all(&ds, &sources),
        };
    }
    // a variant's own moves are played by its rules, under the first reading asked that they
    // define (the moves of a piece are the same under each of the shipped readings)
    let moves_reading = readings
        .iter()
        .find_map(|r| prog.reading_id(r))
        .unwrap_or(crate::check::BASE);
    let moves_of_rules = &mut crate::front::MovesOfRules::new(&prog, moves_reading);
    let positions = match positions_of(&q, Some(moves_of_rules)) {
        Ok(Some(p)) => p,
        Ok(None) => unreachable!(),
        Err((sources, ds)) => {
            return printer.fail_all(&ds, &sources);
        }
    };
    if !rulesets.is_empty() {
        return printed(|out| {
            super::rulesets::report(&mut prog, &positions, None, &rulesets, &printer, json, out)
        });
    }
    printed(|out| {
        report_game(
            &mut Judges::Checked(&mut prog),
            &positions,
            None,
            &readings,
            &printer,
            json,
            out,
        )
    })
}

/// Runs a report that writes into a text, then prints what it wrote (all of it, when the
/// report stops at an error); the report's exit status.
fn printed(report: impl FnOnce(&mut String) -> i32) -> i32 {
    let mut out = String::new();
    let c = report(&mut out);
    out!("{out}");
    c
}

/// The report of a record read to its end: under the rule sets asked (a row each), else under
/// the readings; written into `out`, the exit status returned.
pub(super) fn judge_record(
    prog: &mut Program,
    record: &crate::shogi::record::Record,
    rulesets: &[String],
    readings: &[String],
    printer: &Printer,
    json: bool,
    out: &mut String,
) -> i32 {
    let positions = &record.game.positions;
    if !rulesets.is_empty() {
        return super::rulesets::report(
            prog,
            positions,
            Some(record),
            rulesets,
            printer,
            json,
            out,
        );
    }
    report_game(
        &mut Judges::Checked(prog),
        positions,
        Some(record),
        readings,
        printer,
        json,
        out,
    )
}

/// `okite show`.
pub(super) fn show(args: ShowArgs) -> i32 {
    let ShowArgs {
        pos,
        json,
        pieces,
        rules,
        reading,
        variant,
    } = args;
    let printer = Printer::new(&pos.out);
    match super::variant_asked::requested(
        variant.variant.as_deref(),
        &rules,
        reading.as_deref(),
        &printer,
    ) {
        Ok(Asked::Board(v)) => {
            return super::variant::show(v, &pos.sfen, &pos.moves, json, &printer)
        }
        Ok(Asked::Shogi(_)) => {}
        Err(c) => return c,
    }
    match shogi_game(&pos.sfen, &pos.moves) {
        Ok(g) if json => {
            let p = g.last();
            let sfen = p.to_sfen();
            let turn = match p.side_to_move() {
                crate::shogi::types::Color::Black => "b",
                crate::shogi::types::Color::White => "w",
            };
            let report = PositionReport {
                sfen,
                turn,
                in_check: p.in_check(),
                ply: g.moves.len(),
                pieces: None,
                hands: None,
            };
            let report = if pieces { report.with_pieces() } else { report };
            outln!("{}", crate::json::text(&report));
            0
        }
        Ok(g) => {
            out!("{}", g.last().diagram());
            outln!("sfen {}", g.last().to_sfen());
            0
        }
        Err((sources, ds)) => printer.fail_all(&ds, &sources),
    }
}

/// The engine of `perft` and `legal` (the move generator, natively, assembled under a variant,
/// or the rules): said on stderr, and its notice for the report.
fn move_generator(
    prog: &Program,
    r: crate::ir::ReadingId,
    plan: &Plan,
    engine: Engine,
) -> (Option<crate::hybrid::ShogiVariant>, Notice) {
    announce(prog, r, "legal", "the move generator", plan, engine)
}

#[cfg(test)]
mod tests {
    use crate::shogi::position::Position;
    use crate::shogi::readings::{Judge, Reading};

    /// Under narrow-check the history changes no count, which lets `perft --moves` count from
    /// the last position with the move generator: the judge that walks the history counts as
    /// the generator does from the last position, along random games (a seeded generator) and
    /// after a perpetual check repeated three times, where under broad-check it does not.
    #[test]
    fn under_narrow_check_the_history_changes_no_count() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let narrow = Reading::named("narrow-check").unwrap();
        let count = |history: &[Position], reading: Reading, depth: u32| {
            let mut judge = Judge::new(history, reading);
            crate::commands::perft::perft_reading(&mut judge, depth)
        };
        for game in 0..30 {
            let mut history = vec![Position::startpos()];
            for _ in 0..1 + next(30) {
                let moves = crate::shogi::readings::legal_moves(&history, narrow);
                if moves.is_empty() {
                    break;
                }
                let m = moves[next(moves.len())];
                let after = history.last().unwrap().after(m);
                history.push(after);
            }
            for depth in 1..=2u32 {
                let mut p = history.last().unwrap().clone();
                let alone = crate::shogi::perft::perft(&mut p, depth);
                assert_eq!(
                    count(&history, narrow, depth),
                    alone,
                    "game {game}, depth {depth}"
                );
            }
        }
        // the rook checks from 3a and 3b, the king steps between 1a and 1b; after three rounds
        // 3b3a would complete a fourfold repetition by perpetual check
        let mut history = vec![Position::from_sfen("8k/6R2/9/9/9/9/9/9/4K4 b - 1").unwrap()];
        for u in "3b3a 1a1b 3a3b 1b1a ".repeat(3).split_whitespace() {
            let m = history.last().unwrap().parse_usi_move(u).unwrap();
            let after = history.last().unwrap().after(m);
            history.push(after);
        }
        let mut p = history.last().unwrap().clone();
        let alone = crate::shogi::perft::perft(&mut p, 2);
        assert_eq!(count(&history, narrow, 2), alone);
        let broad = Reading::named("broad-check").unwrap();
        assert!(count(&history, broad, 2) < alone);
    }
}
