#![forbid(unsafe_code)]
//! Commands that evaluate a query of the rule language on positions (eval, explain, compare).

use super::args::*;
use super::common::*;
use crate::check::{Program, Query};
use crate::commands::report::query::{Compared, Evaluated, Explained, UnderReading};
use crate::diagnostics::code;
use crate::diagnostics::{Diag, SourceMap};
use crate::eval::explain;
use crate::eval::Evaluator;
use crate::front::{display_value, positions_of, QueryOpts};
use crate::ir::Value;
use crate::natives::Engine;

pub(super) fn with_query(
    q: &QueryOpts,
    expr: &str,
    printer: &Printer,
    f: impl FnOnce(&Program, &Query, &mut Evaluator) -> i32,
) -> i32 {
    with_query_in(q, None, expr, printer, f)
}

/// [`with_query`], under a shipped board variant where one is named: its rules loaded, `s` bound
/// to the position of `--sfen` and `--moves` read in its geometry, its reading the default.
pub(super) fn with_query_in(
    q: &QueryOpts,
    variant: Option<&str>,
    expr: &str,
    printer: &Printer,
    f: impl FnOnce(&Program, &Query, &mut Evaluator) -> i32,
) -> i32 {
    let (mut prog, board) = match variant {
        Some(name) => match super::variant_asked::named_variant(name, &q.rules, printer) {
            Ok(v) => {
                let sfen = q.sfen.as_deref().unwrap_or("startpos");
                let moves = q.moves.as_deref().unwrap_or("");
                let bound = match super::variant_asked::bound_state(&v, sfen, moves, printer) {
                    Ok(b) => b,
                    Err(c) => return c,
                };
                (v.program, Some((v.reading, bound)))
            }
            Err(c) => return c,
        },
        None => match load_or_report(&q.rules, printer) {
            Ok((p, _)) => (p, None),
            Err(c) => return c,
        },
    };
    let fid = prog.sources.add("<query>", None, expr.to_string());
    let parsed = match crate::syntax::parse_expr(expr, fid) {
        Ok(e) => e,
        Err(ds) => {
            return printer.fail_all(&ds, &prog.sources);
        }
    };
    let reading = match (&q.reading, &board) {
        (Some(r), _) => match prog.reading_or_error(r) {
            Ok(r) => r,
            Err(d) => {
                return printer.fail_in(d, &prog.sources);
            }
        },
        (None, Some((r, _))) => *r,
        (None, None) => crate::check::BASE,
    };
    let bound = match board {
        Some((_, bound)) => bound,
        None => match game_binding(q, &prog, reading) {
            Ok(b) => b,
            Err((sources, ds)) => {
                return printer.fail_all(&ds, &sources);
            }
        },
    };
    let query = match prog.compile_query(&parsed, &bound) {
        Ok(q) => q,
        Err(ds) => {
            let ds = if bound.is_empty() {
                ds.into_iter().map(unbound_game_help).collect()
            } else {
                ds
            };
            return printer.fail_all(&ds, &prog.sources);
        }
    };
    let binder = crate::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    q.run.apply(&mut ev);
    ev.set_reading(reading);
    let code = f(&prog, &query, &mut ev);
    say_off_bindings(&ev);
    code
}

/// `g` or `i` unknown in a query given no game: they are the names a position binds, so the
/// help says how to give one (instead of a name that looks alike).
fn unbound_game_help(d: Diag) -> Diag {
    if d.code == code::UNKNOWN_NAME
        && (d.message == "unknown name `g`" || d.message == "unknown name `i`")
    {
        let mut d = d;
        d.help = Some(
            "`g` (the game) and `i` (its last index) are bound by a position: give --sfen SFEN (or startpos), --kif FILE or --csa FILE"
                .into(),
        );
        return d;
    }
    d
}

/// Names bound before a query: (name, value, type).
pub type Bindings = Vec<(String, Value, String)>;

/// `g` and `i` bound to the game given on the command line, if any (its moves played by the
/// rules in force under `reading` where they are a variant's own).
pub(super) fn game_binding(
    q: &QueryOpts,
    prog: &Program,
    reading: crate::ir::ReadingId,
) -> Result<Bindings, (SourceMap, Vec<Diag>)> {
    let mut rules = crate::front::MovesOfRules::new(prog, reading);
    let Some(positions) = positions_of(q, Some(&mut rules))? else {
        return Ok(vec![]);
    };
    let ctx = crate::natives::NativeCtx { enums: prog };
    let names = crate::natives::shogi::Names::new(&ctx).map_err(|m| {
        (
            SourceMap::default(),
            vec![Diag::error(
                code::RULES_WITHOUT_SHOGI,
                format!("the rules loaded cannot hold shogi states: {m}"),
            )
            .help("load rules/shogi.rule (the default rules/ folder has it)")],
        )
    })?;
    let states: Vec<Value> = positions.iter().map(|p| names.state(p)).collect();
    let n = states.len() as i64;
    Ok(vec![
        ("g".to_string(), Value::seq(states), "Game".to_string()),
        ("i".to_string(), Value::Int(n), "Int".to_string()),
    ])
}

/// Evaluates `text` with the names of `bound` bound, under `reading`; `resident_mb` replaces the
/// default resident-memory bound when the command has one.
pub(super) fn eval_with_bound(
    prog: &mut Program,
    text: &str,
    bound: Vec<(String, Value, String)>,
    engine: Engine,
    reading: Option<&str>,
    printer: &Printer,
    resident_mb: Option<usize>,
) -> Result<Value, i32> {
    eval_with_bound_within(
        prog,
        text,
        bound,
        engine,
        reading,
        printer,
        resident_mb,
        None,
    )
}

/// [`eval_with_bound`] within a time limit (none: the evaluator's default).
#[allow(clippy::too_many_arguments)]
pub(super) fn eval_with_bound_within(
    prog: &mut Program,
    text: &str,
    bound: Vec<(String, Value, String)>,
    engine: Engine,
    reading: Option<&str>,
    printer: &Printer,
    resident_mb: Option<usize>,
    timeout: Option<std::time::Duration>,
) -> Result<Value, i32> {
    let answer = crate::commands::eval::evaluate(
        prog,
        crate::commands::eval::Query {
            text,
            bound,
            engine,
            reading,
            resident_mb,
            timeout,
        },
    );
    say_off(&answer.off_bindings);
    answer
        .value
        .map_err(|ds| printer.fail_all(&ds, &prog.sources))
}

/// `okite eval`.
pub(super) fn eval(args: EvalArgs) -> i32 {
    let EvalArgs {
        expr,
        q,
        json,
        pieces,
        variant,
    } = args;
    let printer = Printer::new(&q.out);
    // `--variant` is answered by the variant module (the dispatcher sends it there)
    debug_assert!(variant.is_none());
    with_query(&q, &expr, &printer, |prog, query, ev| {
        let r = ev.eval_query(query);
        match r {
            Ok(v) => {
                if json {
                    if let Some(d) =
                        json_refusal(&v, super::common::json_room(ev.budget.max_resident_bytes))
                    {
                        return printer.fail_in(d, &prog.sources);
                    }
                    let value = if pieces {
                        to_json(&v)
                    } else {
                        to_json_with(&v, &|x| crate::natives::state_sfen(prog, x))
                    };
                    let report = Evaluated {
                        value: crate::json::raw(value),
                        ty: query.ty.clone(),
                    };
                    outln!("{}", crate::json::text(&report));
                } else {
                    outln!("{}", crate::front::display_value_in(prog, &v));
                }
                0
            }
            Err(e) => report_eval(e, prog, &printer),
        }
    })
}

/// `okite explain`.
pub(super) fn explain(args: ExplainArgs) -> i32 {
    let ExplainArgs {
        expr,
        q,
        depth,
        json,
        variant,
    } = args;
    let printer = Printer::new(&q.out);
    with_query_in(
        &q,
        variant.as_deref(),
        &expr,
        &printer,
        |prog, query, ev| {
            let (r, tree) = ev.explain_query(query);
            match r {
                Ok(v) if json => {
                    if let Some(d) =
                        json_refusal(&v, super::common::json_room(ev.budget.max_resident_bytes))
                    {
                        return printer.fail_in(d, &prog.sources);
                    }
                    let (steps, cut) = explain::render_json(&tree, prog, depth);
                    let report = Explained {
                        expr: expr.clone(),
                        value: crate::json::raw(to_json_with(&v, &|x| {
                            crate::natives::state_sfen(prog, x)
                        })),
                        tree: crate::json::raw(steps),
                        cut,
                    };
                    outln!("{}", crate::json::text(&report));
                    0
                }
                Ok(v) => {
                    outln!("{expr} = {}", display_value(&v));
                    out!("{}", explain::render(&tree, prog, depth));
                    0
                }
                Err(e) => report_eval(e, prog, &printer),
            }
        },
    )
}

/// `okite compare`.
pub(super) fn compare(args: CompareArgs) -> i32 {
    let CompareArgs {
        expr,
        readings,
        q,
        depth,
        json,
        pieces,
        variant,
    } = args;
    let printer = Printer::new(&q.out);
    // the moves of --moves are played under the first reading compared (a variant's own moves
    // are its rules')
    let mut q = q;
    if q.reading.is_none() {
        q.reading = readings.first().cloned();
    }
    with_query_in(
        &q,
        variant.as_deref(),
        &expr,
        &printer,
        |prog, query, ev| {
            let mut rows = vec![];
            for name in &readings {
                let r = match prog.reading_or_error(name) {
                    Ok(r) => r,
                    Err(d) => {
                        return printer.fail_in(d, &prog.sources);
                    }
                };
                ev.set_reading(r);
                let (res, tree) = ev.explain_query(query);
                match res {
                    Ok(v) => rows.push((name.clone(), v, tree)),
                    Err(e) => return report_eval(e, prog, &printer),
                }
            }
            if json {
                if let Some(d) = rows.iter().find_map(|(_, v, _)| {
                    json_refusal(v, super::common::json_room(ev.budget.max_resident_bytes))
                }) {
                    return printer.fail_in(d, &prog.sources);
                }
                let readings = rows
                    .iter()
                    .map(|(n, v, _)| UnderReading {
                        reading: n.clone(),
                        value: crate::json::raw(if pieces {
                            to_json(v)
                        } else {
                            to_json_with(v, &|x| crate::natives::state_sfen(prog, x))
                        }),
                    })
                    .collect();
                let report = Compared {
                    expr: expr.clone(),
                    readings,
                    agree: rows.windows(2).all(|p| p[0].1 == p[1].1),
                };
                outln!("{}", crate::json::text(&report));
                return 0;
            }
            let w = readings
                .iter()
                .map(|r| r.chars().count())
                .max()
                .unwrap_or(7)
                .max(7);
            outln!("{:w$}  value", "reading");
            for (n, v, _) in &rows {
                outln!("{n:w$}  {}", display_value(v));
            }
            let differ = rows.windows(2).any(|p| p[0].1 != p[1].1);
            if differ {
                for (n, v, tree) in &rows {
                    outln!("\nwhy {expr} = {} under {n}:", display_value(v));
                    out!("{}", explain::render(tree, prog, depth));
                }
            } else {
                outln!("(the readings agree)");
            }
            0
        },
    )
}
