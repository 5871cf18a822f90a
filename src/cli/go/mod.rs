#![forbid(unsafe_code)]
//! The Go commands (`okite go ...`).

mod classes;
mod show;
mod solve;

use super::args::*;
use super::common::*;
use crate::check::Program;
use crate::commands::report::go::{GoBoard, GoCount, GoVertex, Score};
use crate::commands::Notice;
use crate::commands::Plan;
use crate::diagnostics::code;
use crate::diagnostics::Span;
use crate::diagnostics::{Diag, SourceMap};
use crate::ir::Value;
use crate::natives::Engine;
use std::path::PathBuf;

use crate::commands::go::{sequence_value, GoQuery};

/// Evaluate a Go query of the rules with `G` bound to the graph.
pub(super) fn go_by_rules(
    prog: &mut Program,
    g: &crate::go::graph::Graph,
    text: &str,
    engine: Engine,
    reading: Option<&str>,
    json: Option<&Notice>,
    r: Option<Value>,
) -> i32 {
    let spinner = Spinner::new(format!("evaluating {text} by the rules"));
    let n = crate::commands::go::count_by_rules(
        prog,
        g,
        GoQuery {
            text,
            sequence: r,
            reading,
            engine,
            resident_mb: None,
        },
        &mut tell,
    );
    drop(spinner);
    match n {
        Ok(n) => {
            print_count(n, json);
            0
        }
        Err(ds) => Printer::auto().fail_all(&ds, &prog.sources),
    }
}

/// An answer of the proof-number search in words, the vertices by their names: "vertex 1: Black
/// moving first gets it by B 2".
fn answer_line(a: &crate::go::life::Answer, names: &[String]) -> String {
    let name_of = |v: usize| names.get(v).map_or("?", |n| n.as_str());
    let by = match a.by {
        Some(w) => format!(" by {} {}", a.colour.initial(), name_of(w)),
        None => String::new(),
    };
    format!(
        "vertex {}: {:?} moving first {} it{by}",
        name_of(a.vertex),
        a.colour,
        if a.gets { "gets" } else { "does not get" },
    )
}

/// Prints a count: the number alone, or with `--json` (the engine that answered given) an
/// object `{"count": n, "engine": ...}`.
fn print_count(n: impl std::fmt::Display, engine: Option<&Notice>) {
    match engine {
        Some(e) => {
            let report = GoCount {
                count: crate::json::raw(n.to_string()),
                engine: e.clone(),
            };
            outln!("{}", crate::json::text(&report))
        }
        None => outln!("{n}"),
    }
}

/// What a counting command counts: the definitions its native count stands for, the count's
/// name, and the query the rules answer with `G` bound to the graph.
pub(super) struct Counted<'a> {
    pub(super) defs: &'a [&'a str],
    pub(super) engine_name: &'a str,
    pub(super) query: &'a str,
    /// `r`, when the query has one
    pub(super) sequence: Option<Value>,
}

/// A Go command that counts: the native count `native` where the loaded definitions `defs` are
/// the shipped ones of base, else `query` by the rules with `G` bound to the graph.
pub(super) fn go_count<N: std::fmt::Display>(
    graph: &str,
    variant: &VariantOpts,
    counted: Counted<'_>,
    engine: Engine,
    json: bool,
    native: impl FnOnce(&crate::go::graph::Graph, &Spinner) -> Result<N, i32>,
) -> i32 {
    let Counted {
        defs,
        engine_name,
        query,
        sequence,
    } = counted;
    let g = match go_graph(graph) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let reading = variant.reading.as_deref();
    let (mut prog, plan) = match go_plan(
        &variant.rules,
        reading,
        defs,
        &["base"],
        engine_name,
        engine,
    ) {
        Ok(x) => x,
        Err(c) => return c,
    };
    // the engine that answers, as the JSON field `engine`
    let engine_field = json.then(|| {
        let rid = prog
            .reading_id(reading.unwrap_or("base"))
            .unwrap_or(crate::check::BASE);
        plan_notice(&prog, rid, defs[0], engine_name, &plan, engine)
    });
    if engine != Engine::Native || !plan.is_native() {
        return go_by_rules(
            &mut prog,
            &g,
            query,
            engine,
            reading,
            engine_field.as_ref(),
            sequence,
        );
    }
    let spinner = Spinner::new(format!("counting on {graph}"));
    let n = native(&g, &spinner);
    drop(spinner);
    match n {
        Ok(n) => {
            print_count(n, engine_field.as_ref());
            0
        }
        Err(c) => c,
    }
}

/// Load the rules of a Go command, find its reading, and say whether the native engine standing
/// for `defs` answers (following one of `natives`) or the rules do.
pub(super) fn go_plan(
    rules: &[PathBuf],
    reading: Option<&str>,
    defs: &[&str],
    natives: &[&'static str],
    engine_name: &str,
    engine: Engine,
) -> Result<(Program, Plan), i32> {
    let printer = Printer::auto();
    let prog = load_or_report(rules, &printer)?.0;
    let r =
        crate::commands::reading(&prog, reading).map_err(|d| printer.fail_in(d, &prog.sources))?;
    let plan = match engine {
        Engine::Rules => Plan::rules_asked(),
        _ => crate::commands::plan_all(&prog, r, defs, natives),
    };
    say_plan(&prog, r, &defs.join("`, `"), engine_name, &plan, engine);
    Ok((prog, plan))
}

/// An SGF record read and replayed from its setup under the seed's rules (with suicide when
/// `suicide`): the graph's spec (the record's grid when `graph` is absent), the graph, the
/// record and the game.
fn sgf_game(
    graph: Option<&str>,
    path: &std::path::Path,
    suicide: bool,
) -> Result<
    (
        String,
        crate::go::graph::Graph,
        crate::go::sgf::SgfRecord,
        crate::go::rules::Game,
    ),
    i32,
> {
    let text = crate::check::load::read_text_bounded(path).map_err(|d| Printer::auto().fail(d))?;
    let name = path.display().to_string();
    let record = crate::go::sgf::parse_sgf(&text).map_err(|e| go_error(&text, &name, &e))?;
    let spec = match graph {
        Some(s) => s.to_string(),
        None => format!("grid:{}x{}", record.rows, record.cols),
    };
    let g = go_graph(&spec)?;
    let mut rules = crate::go::rules::Rules::seed();
    if suicide {
        rules.suicide = crate::go::rules::Suicide::Allowed;
    }
    let game = record
        .replay(&text, rules)
        .map_err(|e| go_error(&text, &name, &e))?;
    if game.graph.n != g.n {
        return Err(Printer::auto().fail(
            Diag::error(
                code::BAD_GRAPH,
                format!(
                    "the record is for a board of {} points, the graph has {}",
                    game.graph.n, g.n
                ),
            )
            .help(format!(
                "leave --graph out, or give --graph grid:{}x{}",
                record.rows, record.cols
            )),
        ));
    }
    Ok((spec, g, record, game))
}

/// A Go position given by `--graph` and `--moves`, or by an SGF record (`--sgf`; the graph its
/// board's when `--graph` is absent).
pub(super) struct GoPosition {
    /// The graph's spec (the record's grid when `--graph` is absent).
    pub(super) spec: String,
    pub(super) graph: crate::go::graph::Graph,
    /// The regular sequence of boards (passes left out, as the seeds leave them implicit).
    pub(super) seq: Vec<crate::go::board::Board>,
    /// The colour that did not move last (a pass of the record counts); Black when nothing
    /// was played.
    pub(super) to_move: crate::go::board::Color,
}

/// How a Go command's moves are played under the rules loaded and the reading: natively when
/// `place` and `is_board` are the shipped ones (of the base, or of the reading `suicide`), by
/// the rules' `play_stones` otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Replay {
    Native { suicide: bool },
    Rules,
}

fn replay_of(prog: &Program, reading: Option<&str>) -> Replay {
    use crate::bindings::same_cone;
    let Some(r) = prog.reading_id(reading.unwrap_or("base")) else {
        // an unknown reading is refused where the command reads it
        return Replay::Native { suicide: false };
    };
    let same = |as_: &str| {
        ["place", "is_board"]
            .iter()
            .all(|d| same_cone(prog, r, d, as_))
    };
    // rules that do not say how a stone is placed (a file of a few definitions) leave the
    // moves to the shipped rules
    let states = ["place", "is_board", "play_stones", "regular"]
        .iter()
        .all(|d| prog.key_of(d).is_some());
    if !states || same("base") {
        Replay::Native { suicide: false }
    } else if same("suicide") {
        Replay::Native { suicide: true }
    } else {
        Replay::Rules
    }
}

/// The position of a Go command's `--graph`, `--moves` and `--sgf`, its moves played under
/// `rules` (the program loaded and the reading; the shipped rules' base when `None`).
pub(super) fn go_position(
    graph: Option<&str>,
    moves: &str,
    sgf: Option<&std::path::Path>,
    rules: Option<(&mut Program, Option<&str>)>,
) -> Result<GoPosition, i32> {
    use crate::go::board::Color;
    let replay = rules
        .as_ref()
        .map_or(Replay::Native { suicide: false }, |(p, r)| replay_of(p, *r));
    let Some(path) = sgf else {
        let spec = graph.unwrap_or_default().to_string();
        let g = go_graph(&spec)?;
        let seq = match (replay, rules) {
            (Replay::Rules, Some((prog, reading))) if !moves.trim().is_empty() => {
                replay_by_rules(prog, reading, &g, moves)?
            }
            (replay, _) => {
                let suicide = replay == Replay::Native { suicide: true };
                crate::go::life::sequence_from_moves_with(&g, moves, suicide)
                    .map_err(|e| go_error(moves, "--moves", &e))?
            }
        };
        let last = moves
            .split(',')
            .map(str::trim)
            .rfind(|m| !m.is_empty())
            .and_then(|m| m.chars().next());
        let to_move = match last {
            Some('B') | Some('b') => Color::White,
            _ => Color::Black,
        };
        return Ok(GoPosition {
            spec,
            graph: g,
            seq,
            to_move,
        });
    };
    let suicide = match replay {
        Replay::Native { suicide } => suicide,
        Replay::Rules => {
            return Err(Printer::auto().fail(
                Diag::error(
                    code::ENGINE_CANNOT_FOLLOW,
                    "an SGF record is replayed natively, and the rules loaded change how a stone is placed (`place` or `is_board`)",
                )
                .help("give the record's moves with --moves: the rules then play them"),
            ))
        }
    };
    let (spec, g, record, game) = sgf_game(graph, path, suicide)?;
    let mut seq: Vec<crate::go::board::Board> = vec![];
    for b in game.boards {
        if seq.last() != Some(&b) {
            seq.push(b);
        }
    }
    let to_move = record
        .moves
        .last()
        .map_or(Color::Black, |&(c, _, _)| c.opponent());
    Ok(GoPosition {
        spec,
        graph: g,
        seq,
        to_move,
    })
}

/// The boards of `moves` played by the rules loaded (`play_stones` from the empty board), which
/// must form a regular sequence (no board repeated). The moves are played one at a time, so
/// that a move the rules refuse is pointed at in the list, after the rules' own error.
fn replay_by_rules(
    prog: &mut Program,
    reading: Option<&str>,
    g: &crate::go::graph::Graph,
    moves: &str,
) -> Result<Vec<crate::go::board::Board>, i32> {
    use crate::go::board::{Board, Color};
    use crate::go::error::GoError;
    let listed =
        crate::go::life::parse_moves(g, moves).map_err(|e| go_error(moves, "--moves", &e))?;
    let mut seq = vec![Board::empty()];
    for m in &listed {
        let s = if m.color == Color::Black { -1 } else { 1 };
        let q = format!(
            "let x = play_stones(G, r, [({s}, {})]) in if regular(G, x) then last(x) else error(\"the move repeats a board: the moves are not a regular sequence\")",
            m.vertex + 1
        );
        let v =
            eval_on_sequence(prog, g, &seq, &q, reading, Engine::Native, None).map_err(|code| {
                // the rules' error is printed; this says which move it was
                let e = GoError::at(
                    moves,
                    m.at,
                    format!("the rules loaded refuse the move `{}`", m.text),
                    "the error above is the rules' reason".to_string(),
                );
                go_error(moves, "--moves", &e).max(code)
            })?;
        let board = crate::natives::go::board(g, &v)
            .map_err(|_| Printer::auto().fail(unexpected("play_stones", &v, "a configuration")))?;
        seq.push(board);
    }
    Ok(seq)
}

/// Evaluate a query of the Go rules with `G` the graph and `r` the sequence of boards given.
pub(super) fn eval_on_sequence(
    prog: &mut Program,
    g: &crate::go::graph::Graph,
    seq: &[crate::go::board::Board],
    text: &str,
    reading: Option<&str>,
    engine: Engine,
    resident_mb: Option<usize>,
) -> Result<Value, i32> {
    let spinner = Spinner::new(format!("evaluating {text}"));
    let q = GoQuery {
        reading,
        engine,
        resident_mb,
        ..GoQuery::on_sequence(text, sequence_value(g, seq))
    };
    let v = crate::commands::go::ask(prog, g, q, &mut tell);
    drop(spinner);
    v.map_err(|ds| Printer::auto().fail_all(&ds, &prog.sources))
}

/// Ctrl-C during a classification that keeps its results: the first raises the returned flag,
/// so that the search stops at its next check and the results found so far are written; a
/// second ends the program at once. None where no handler can be set (one is already).
fn keep_on_interrupt() -> Option<std::sync::Arc<std::sync::atomic::AtomicBool>> {
    use std::sync::atomic::{AtomicBool, Ordering};
    if super::output::capturing() {
        // run in process: the caller's Ctrl-C is the caller's
        return None;
    }
    let flag = std::sync::Arc::new(AtomicBool::new(false));
    let raised = flag.clone();
    ctrlc::set_handler(move || {
        if raised.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        errln!("\nokite: interrupted: keeping the results found so far (Ctrl-C again to end now)");
    })
    .ok()?;
    Some(flag)
}

/// A results file of `go classes` that cannot be read or written.
fn results_error(e: &crate::go::error::GoError) -> i32 {
    go_error("", "--results", e)
}

pub(super) fn run_go(cmd: GoCommand) -> i32 {
    use crate::go;
    match cmd {
        GoCommand::Ultimate {
            graph,
            engine,
            variant,
            json,
        } => go_count(
            &graph,
            &variant,
            Counted {
                defs: &["boards", "ultimate"],
                engine_name: "the native count of ultimate boards",
                query: "size({ c | c in boards(G), ultimate(G, c) })",
                sequence: None,
            },
            engine,
            json,
            |g, _| {
                crate::go::ultimate::count_ultimate(g).map_err(|m| {
                    Printer::auto().fail(
                        Diag::error(code::ENGINE_LIMIT, m)
                            .help("give a graph of at most 16 vertices"),
                    )
                })
            },
        ),
        GoCommand::Classes(a) => classes::run(a),
        GoCommand::Score {
            graph,
            moves,
            sgf,
            reading,
            rules,
            komi,
            engine,
            verify,
            json,
        } => go_score(
            graph.as_deref(),
            &moves,
            sgf.as_deref(),
            &reading,
            &rules,
            komi,
            if verify { Engine::Verify } else { engine },
            json,
        ),
        GoCommand::Count {
            graph,
            engine,
            variant,
            max_resident_mb,
            json,
        } => go_count(
            &graph,
            &variant,
            Counted {
                defs: &["boards"],
                engine_name: "the native board count",
                query: "size(boards(G))",
                sequence: None,
            },
            engine,
            json,
            |g, spinner| {
                count_within_bound(g, &graph, max_resident_mb, spinner)
                    .map_err(|e| go_error(&graph, "--graph", &e))
            },
        ),
        GoCommand::Sequences {
            graph,
            moves,
            sgf,
            engine,
            variant,
            limit,
            json,
        } => {
            // moves are played under the rules loaded and the reading (loaded again below by
            // the count, only when there are moves to play)
            let mut played = None;
            if !moves.trim().is_empty() || sgf.is_some() {
                match load_or_report(&variant.rules, &Printer::auto()) {
                    Ok((p, _)) => played = Some(p),
                    Err(c) => return c,
                }
            }
            let GoPosition {
                spec,
                graph: g,
                seq,
                ..
            } = match go_position(
                graph.as_deref(),
                &moves,
                sgf.as_deref(),
                played.as_mut().map(|p| (p, variant.reading.as_deref())),
            ) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let from_empty = seq.len() == 1 && seq[0] == go::board::Board::empty();
            let r = sequence_value(&g, &seq);
            go_count(
                &spec,
                &variant,
                Counted {
                    defs: &["regular_count", "empty_board"],
                    engine_name: "the native count of regular sequences",
                    query: if from_empty {
                        "regular_count(G, [empty_board(G)])"
                    } else {
                        "regular_count(G, r)"
                    },
                    sequence: (!from_empty).then_some(r),
                },
                engine,
                json,
                |g, spinner| {
                    let mut progress = |n: u128| {
                        spinner.set(format!("counting on {spec}: {n} sequences so far"));
                        Ok(())
                    };
                    go::sequences::count_regular_sequences_within(g, &seq, limit, &mut progress)
                        .map_err(|e| go_error(&spec, "--graph", &e))
                },
            )
        }
        GoCommand::Solve(a) => solve::run(a),
        GoCommand::Result(args) => match &args.records {
            Some(path) => super::go_records::run(&args, &path.clone()),
            None => super::go_result::go_result_in(&args, &mut None),
        },
        GoCommand::Show(a) => show::run(a),
    }
}

/// The native board count of `g` within `max_resident_mb`: its tables may take what the process
/// does not occupy yet, the resident memory is read again as they grow, and the spinner tells
/// how far the count has come.
fn count_within_bound(
    g: &crate::go::graph::Graph,
    spec: &str,
    max_resident_mb: usize,
    spinner: &Spinner,
) -> crate::go::error::GoResult<num_bigint::BigUint> {
    use crate::go::count::{Limits, Progress};
    use crate::go::error::GoError;
    let bound = max_resident_mb.saturating_mul(1 << 20);
    let resident = crate::memory::resident_bytes().unwrap_or(0);
    let mut last = std::time::Instant::now();
    let mut progress = |p: Progress| -> crate::go::error::GoResult<()> {
        if last.elapsed() < std::time::Duration::from_millis(100) {
            return Ok(());
        }
        last = std::time::Instant::now();
        spinner.set(format!(
            "counting on {spec}: {} of {} done, {} states",
            p.done, p.total, p.states
        ));
        match crate::memory::resident_bytes() {
            Some(rss) if rss > bound => Err(GoError::out_of_memory(
                format!("the count occupied more than {max_resident_mb} MiB"),
                "raise --max-resident-mb, or count a smaller graph",
            )),
            _ => Ok(()),
        }
    };
    let mut limits = Limits {
        max_bytes: bound.saturating_sub(resident),
        progress: &mut progress,
    };
    crate::go::count::count_boards_within(g, &mut limits)
}

/// A komi as given, in scientific notation when it is huge (`1e300`, not three hundred digits).
fn komi_text(komi: f64) -> String {
    if komi.is_finite() && komi.abs() >= 1e15 {
        format!("{komi:e}")
    } else {
        komi.to_string()
    }
}

use crate::commands::go::points;

/// What a solve did, for stderr.
fn work_line(r: &crate::go::solve::SolveResult) -> String {
    format!(
        "solved in {:.2?}: {} positions, {} table hits ({} refused: a board of the path might change their proof), {} results stored ({} not: their proof used the history), {} in the table ({} MiB), {} symmetries",
        r.elapsed,
        r.nodes,
        r.tt_hits,
        r.tt_conflicts,
        r.tt_stores,
        r.tt_history_dependent,
        r.table_entries,
        r.table_bytes >> 20,
        r.symmetries
    )
}

/// `go solve` by the native solver: the value, a principal variation and the work, with
/// progress on the terminal while it runs; a budget that stops the search is an E0605 that says
/// what was proved.
#[allow(clippy::too_many_arguments)]
fn solve_native(
    spec: &str,
    g: &crate::go::graph::Graph,
    rules: &crate::go::rules::Rules,
    history: &[crate::go::board::Board],
    to_move: crate::go::board::Color,
    opts: &crate::go::solve::SolveOptions,
    engine: Notice,
    json: bool,
) -> i32 {
    let bar = progress_shown().then(|| {
        let b = indicatif::ProgressBar::new_spinner();
        b.set_style(
            indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        b.set_message(format!("solving {spec}"));
        b.enable_steady_tick(std::time::Duration::from_millis(200));
        b
    });
    let mut progress = |p: &crate::go::solve::Progress| {
        if let Some(b) = &bar {
            let known = |v: i64, side: &str| {
                if v.abs() > i64::MAX / 8 {
                    side.to_string()
                } else {
                    points(v)
                }
            };
            b.set_message(format!(
                "solving {spec}: value in [{}, {}], testing {} at {} plies; {} positions ({:.0}/s), {} in the table",
                known(p.lower_half_points, "-inf"),
                known(p.upper_half_points, "inf"),
                points(p.testing_half_points),
                p.depth,
                p.nodes,
                p.nodes as f64 / p.elapsed.as_secs_f64().max(1e-9),
                p.table_entries
            ));
        }
    };
    let solved = crate::commands::go::solve_natively(
        g,
        rules,
        history,
        to_move,
        opts,
        engine,
        &mut progress,
    );
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let (report, r) = match solved {
        Ok(x) => x,
        Err(crate::commands::go::Unsolved::Budget(d)) => return Printer::auto().fail(d),
        Err(crate::commands::go::Unsolved::Engine(e)) => return go_error(spec, "--graph", &e),
    };
    errln!("{}", work_line(&r));
    if json {
        outln!("{}", crate::json::text(&report));
    } else {
        outln!("principal variation: {}", report.pv.join(", "));
        outln!("nodes: {}", r.nodes);
        outln!("{}", r.value);
    }
    0
}

/// A komi for White in points: a whole or half number of at most a billion either way, or the
/// failure (E0602) said and its exit status.
fn check_komi(komi: f64) -> Result<(), i32> {
    if !komi.is_finite() || (komi * 2.0).fract() != 0.0 || komi.abs() > 1e9 {
        return Err(Printer::auto().fail(
            Diag::error(
                code::BAD_OPTION,
                format!(
                    "komi must be a whole or half number, not {}",
                    komi_text(komi)
                ),
            )
            .help("give --komi as 0, 6.5, -2 and the like, at most a billion either way"),
        ));
    }
    Ok(())
}

/// A komi for White in points, checked, as the seeds' h in half points (h2 = -2 komi).
fn seed_h2(komi: f64) -> Result<i64, i32> {
    check_komi(komi)?;
    Ok(-(komi * 2.0) as i64)
}

/// `go score`: the pure-Go score, the Chinese score where the seed defines it, and who wins each
/// with the komi, all from the rule definitions (natives bound where they stand for them).
#[allow(clippy::too_many_arguments)]
fn go_score(
    graph: Option<&str>,
    moves: &str,
    sgf: Option<&std::path::Path>,
    kind: &str,
    rules: &[PathBuf],
    komi: f64,
    engine: Engine,
    json: bool,
) -> i32 {
    if kind != "pure" && kind != "chinese" {
        return Printer::auto().fail(
            Diag::error(code::BAD_OPTION, format!("`{kind}` is not a kind of score"))
                .help("give --reading pure or --reading chinese"),
        );
    }
    let h2 = match seed_h2(komi) {
        Ok(h) => h,
        Err(c) => return c,
    };
    let mut prog = match load_or_report(rules, &Printer::auto()) {
        Ok((p, _)) => p,
        Err(c) => return c,
    };
    let GoPosition { graph: g, seq, .. } =
        match go_position(graph, moves, sgf, Some((&mut prog, None))) {
            Ok(x) => x,
            Err(c) => return c,
        };
    let ask = crate::commands::go::ScoreAsk {
        seq: &seq,
        komi,
        h2,
        engine,
    };
    let spinner = Spinner::new("scoring by the rules".to_string());
    let scored = crate::commands::go::score(&mut prog, &g, &ask, &mut tell);
    drop(spinner);
    let report = match scored {
        Ok(r) => r,
        Err(ds) => return Printer::auto().fail_all(&ds, &prog.sources),
    };
    if json {
        outln!("{}", crate::json::text(&report));
    } else {
        outln!("{}", score_text(&report, kind));
    }
    if kind == "chinese" && report.chinese.is_none() {
        1
    } else {
        0
    }
}

/// `go score`'s report as text, closing with the score `kind` asked (`undefined` where the
/// Chinese score is not defined).
fn score_text(r: &Score, kind: &str) -> String {
    let (pure, h) = (r.pure, r.h.get());
    let at_least = |w: &str| if w == "White" { ">=" } else { "<" };
    let mut out = vec![format!("pure Go score (White minus Black): {pure}")];
    out.push(match r.chinese {
        Some(s) => format!("Chinese score (White minus Black): {s}"),
        None => {
            "Chinese score: not defined (the seed defines it for Chinese-terminable sequences only)"
                .to_string()
        }
    });
    out.push(format!("Chinese-terminable: {}", r.terminable));
    out.push(format!(
        "komi {} for White: White wins when the score is at least h = {h}",
        r.komi.get()
    ));
    let w = r.winner.pure;
    out.push(format!("pure Go winner: {w} ({pure} {} {h})", at_least(w)));
    out.push(match (r.chinese, r.winner.chinese) {
        (Some(s), Some(w)) => format!("Chinese winner: {w} ({s} {} {h})", at_least(w)),
        _ => "Chinese winner: not defined".to_string(),
    });
    out.push(match (kind, r.chinese) {
        ("pure", _) => pure.to_string(),
        (_, Some(s)) => s.to_string(),
        (_, None) => "undefined".to_string(),
    });
    out.join("\n")
}

/// A Go position as JSON: the graph's spec, the board as a character per vertex (`X` black, `O`
/// white, `.` empty) and each vertex with its name, stone, SGF point (grids) and neighbours.
fn board_json(spec: &str, g: &crate::go::graph::Graph, b: &crate::go::board::Board) -> String {
    use crate::go::board::Color;
    let stone = |v: usize| b.color_at(v);
    let board: String = (0..g.n)
        .map(|v| match stone(v) {
            Some(Color::Black) => 'X',
            Some(Color::White) => 'O',
            None => '.',
        })
        .collect();
    let vertices = (0..g.n)
        .map(|v| GoVertex {
            name: g.names[v].clone(),
            stone: match stone(v) {
                Some(Color::Black) => Some("B"),
                Some(Color::White) => Some("W"),
                None => None,
            },
            sgf: match g.grid {
                Some((rows, cols)) if rows <= 26 && cols <= 26 => {
                    let (r, c) = (v / cols, v % cols);
                    Some(format!(
                        "{}{}",
                        (b'a' + c as u8) as char,
                        (b'a' + r as u8) as char
                    ))
                }
                _ => None,
            },
            neighbours: g.adjacency[v].iter().map(|w| g.names[w].clone()).collect(),
        })
        .collect();
    crate::json::text(&GoBoard {
        graph: spec.to_string(),
        board,
        vertices,
    })
}
