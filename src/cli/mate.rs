#![forbid(unsafe_code)]
//! `okite mate`: the df-pn mate search, natively or under a variant.

use super::args::MateArgs;
use super::bounds::{hash_in_bound, jobs_in_range, threads_in_range};
use super::common::*;
use super::mate_report::print_mate;
use super::problems::{bad_problem, problems_of, read_problem, Problem};
use crate::check::Program;
use crate::commands::report::MateReport;
use crate::commands::{MateSearch, Notice, Plan};
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::front::pseudo_game;
use crate::natives::Engine;
use std::path::PathBuf;

#[expect(
    clippy::expect_used,
    reason = "the shogi engines' readings are the named ones"
)]
pub(super) fn run_mate(a: MateArgs) -> i32 {
    let printer = Printer::auto();
    // the built-in rules under one of their readings: the plan is known without checking them
    let shipped = crate::commands::shipped_plan(
        &a.rules,
        a.variant.variant.as_deref(),
        "mate_in",
        &a.reading,
    );
    if let Some(Plan::Native(native)) = shipped {
        let engine_name = "the df-pn search";
        let rname = a.reading.as_str();
        let ej = Notice::native("mate_in", rname, engine_name, native);
        errln!("{}", ej.line());
        let reading = crate::shogi::readings::Reading::named(native)
            .expect("the shogi engines' readings are named");
        return search(&a, reading, &ej, None, &printer);
    }
    // `--reading` defaults to narrow-check: under a variant, the variant's own reading instead
    let asked = (a.reading != "narrow-check").then_some(a.reading.as_str());
    let loaded = match super::variant_asked::requested(
        a.variant.variant.as_deref(),
        &a.rules,
        asked,
        &printer,
    ) {
        Ok(super::variant_asked::Asked::Board(v)) => return super::variant::mate(v, &a, &printer),
        Ok(super::variant_asked::Asked::Shogi(p)) => p,
        Err(c) => return c,
    };
    let prog = match super::variant_asked::shogi_program(loaded, &printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    let r = match prog.reading_or_error(&a.reading) {
        Ok(r) => r,
        Err(d) => {
            return printer.fail_in(d, &prog.sources);
        }
    };
    let (plan, decided) = crate::commands::mate_search(&prog, r);
    let (reading, engine_json, hybrid) = match decided {
        MateSearch::Native(reading) => {
            let notice = say_plan(
                &prog,
                r,
                "mate_in",
                "the df-pn search",
                &plan,
                Engine::Native,
            );
            (reading, notice, None)
        }
        MateSearch::Hybrid { variant: v, why } => {
            let line = format!(
                "okite: `mate_in` under {}: a df-pn search over native move generation and check, {} natively, by the rules: {} (the native df-pn search off: {why})",
                a.reading,
                native_parts(&v.asked),
                v.asked.names().join(", ")
            );
            let notice = assembled(
                "mate_in",
                &a.reading,
                "the df-pn search under a variant",
                &v.asked,
                &why,
                line,
            )
            .on_threads(1);
            errln!("{}", notice.line());
            (
                crate::shogi::readings::Reading::NARROW_CHECK,
                notice,
                Some(v),
            )
        }
        MateSearch::Refused { why, no } => {
            let no = no.unwrap_or_else(|| {
                "`mate_in` itself changed, and the search stands for it".to_string()
            });
            return printer.fail(
                Diag::error(
                    code::ENGINE_CANNOT_FOLLOW,
                    format!(
                        "the mate search cannot follow `mate_in` under {} with these rules ({why}); no native part kept: {no}",
                        a.reading
                    ),
                )
                .help(format!(
                    "the rules answer it themselves, without a line: okite eval --rules ... --reading {} --sfen ... 'mate_in(g, i, N)'",
                    a.reading
                )),
            );
        }
    };
    let with_rules = hybrid.as_ref().map(|v| (&prog, r, v));
    search(&a, reading, &engine_json, with_rules, &printer)
}

/// The search of `okite mate` once its plan is made: natively under `reading`, or, with
/// `hybrid`, over the program's rules where they changed what the engine stands for.
fn search(
    a: &MateArgs,
    reading: crate::shogi::readings::Reading,
    engine_json: &Notice,
    hybrid: Option<(&Program, crate::ir::ReadingId, &crate::hybrid::ShogiVariant)>,
    printer: &Printer,
) -> i32 {
    use crate::shogi::dfpn::{MateLength, MateOptions, MateSolver};
    let length = match a.length.as_str() {
        "shortest" => MateLength::Shortest,
        "any" => MateLength::Any,
        other => {
            return printer.fail(
                Diag::error(code::BAD_OPTION, format!("unknown length `{other}`"))
                    .help("--length is `shortest` or `any`"),
            );
        }
    };
    if let Err(d) = hash_in_bound(a.hash_mb, a.max_resident_mb) {
        return printer.fail(d);
    }
    if let Err(d) = threads_in_range(a.threads) {
        return printer.fail(d);
    }
    if let Err(d) = jobs_in_range(a.jobs) {
        return printer.fail(d);
    }
    let problems = match problems_of(a, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if let Some((prog, r, v)) = hybrid {
        if a.threads > 1 {
            errln!(
                "okite: the search under a variant runs on one thread (--threads {} asked): the rules it asks are answered by one evaluator",
                a.threads
            );
        }
        return run_mate_hybrid(a, prog, r, v, &problems, engine_json, printer);
    }
    // a batch runs its problems side by side, one job per core unless --jobs says otherwise
    let jobs = super::mate_jobs::jobs_for(a.jobs, problems.len());
    if a.batch.is_some() && jobs > 1 {
        return super::mate_jobs::run(a, &problems, jobs, length, reading, engine_json, printer);
    }
    let tty = progress_shown();
    let outcome = crate::shogi::dfpn::with_stack(super::output::carried(|| {
        let mut solver = MateSolver::new(a.hash_mb);
        solver.set_threads(a.threads);
        let mut code = 0;
        for p in problems.iter() {
            let positions = match read_problem(a, p) {
                Ok(ps) => ps,
                Err((sources, ds)) => {
                    code = bad_problem(a, p, sources, &ds, printer);
                    continue;
                }
            };
            let bar = tty.then(|| {
                let b = indicatif::ProgressBar::new_spinner();
                b.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                b
            });
            let progress: Option<crate::shogi::dfpn::ProgressFn> = bar.clone().map(|b| {
                let f: crate::shogi::dfpn::ProgressFn = std::sync::Arc::new(move |p| {
                    let nps = (p.nodes * 1000).checked_div(p.ms).unwrap_or(0);
                    let found = if p.plies > 0 {
                        format!(", mate in {} found", p.plies)
                    } else {
                        String::new()
                    };
                    b.set_message(format!(
                        "{} nodes, {} nodes/s, root pn {} dn {}{found}",
                        p.nodes, nps, p.pn, p.dn
                    ));
                    b.tick();
                });
                f
            });
            let opts = MateOptions {
                max_nodes: a.nodes,
                max_ms: a.time_ms,
                hash_mb: a.hash_mb,
                length,
                max_plies: a.max_plies,
                reading,
                stop: None,
                progress,
            };
            let r = solver.solve_history(&positions, &opts);
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            print_mate(
                &MateReport::of(&r, engine_json),
                a,
                length == MateLength::Any,
            );
        }
        code
    }));
    outcome.unwrap_or_else(|| {
        printer.fail(
            Diag::error(
                code::NO_SEARCH_THREAD,
                "the mate search could not run (no thread for its stack)",
            )
            .help("the system refused a thread: free memory or raise the limit of threads"),
        )
    })
}

/// The moment `ms` milliseconds from now (none for 0, no limit).
fn deadline_after(ms: u64) -> Option<std::time::Instant> {
    (ms > 0).then(|| std::time::Instant::now() + std::time::Duration::from_millis(ms))
}

/// The USI engine's search under a variant: the rules are loaded on the search thread (the
/// evaluator stays on one thread), legality assembled, and the df-pn search run.
pub(super) fn variant_search(
    paths: Vec<PathBuf>,
    reading: String,
    max_resident_bytes: usize,
) -> crate::shogi::usi_engine::VariantSearch {
    std::sync::Arc::new(
        move |h: &[crate::shogi::position::Position],
              limits: crate::shogi::usi_engine::VariantLimits,
              stop: std::sync::Arc<std::sync::atomic::AtomicBool>| {
            let ms = limits.ms;
            let (prog, _) = crate::front::load_rules(&paths)
                .map_err(|_| "the rule files no longer check".to_string())?;
            let r = prog
                .reading_or_error(&reading)
                .map_err(|d| d.message.clone())?;
            let v = crate::hybrid::shogi_variant(&prog, r)?;
            let binder = crate::bindings::Sound::standard();
            let mut oracle = crate::hybrid::RulesOracle::new(&prog, &binder, r)?;
            let deadline = deadline_after(ms);
            oracle.watch(Some(stop.clone()), deadline);
            oracle.bound_memory(max_resident_bytes);
            let mut hy =
                crate::shogi::legality::Hybrid::new(v.mate_needs_check, v.asked, &mut oracle);
            let opts = crate::shogi::hybrid_mate::HybridOptions {
                max_ms: ms,
                any: limits.any,
                stop: Some(stop),
                deadline,
                table_mb: limits.hash_mb,
                max_resident_bytes,
                ..Default::default()
            };
            crate::shogi::hybrid_mate::solve(h, &mut hy, &opts)
        },
    )
}

/// `okite mate` under a variant: the search over assembled legality, problem by problem.
pub(super) fn run_mate_hybrid(
    a: &MateArgs,
    prog: &Program,
    reading: crate::ir::ReadingId,
    v: &crate::hybrid::ShogiVariant,
    problems: &[Problem],
    engine_json: &Notice,
    printer: &Printer,
) -> i32 {
    let binder = crate::bindings::Sound::standard();
    let mut oracle = match crate::hybrid::RulesOracle::new(prog, &binder, reading) {
        Ok(o) => o,
        Err(m) => return printer.fail(rules_failed(&m)),
    };
    let mut code = 0;
    for p in problems.iter() {
        if let Some(d) = p.unreadable(a.batch.as_deref()) {
            code = bad_problem(a, p, Default::default(), &[d], printer);
            continue;
        }
        let text = &p.text;
        let history = match pseudo_game(text, if a.batch.is_some() { "" } else { &a.moves }, None) {
            Ok(h) => h,
            Err((sources, ds)) => {
                code = bad_problem(a, p, sources, &ds, printer);
                continue;
            }
        };
        if let Err(d) = crate::front::engine_start(&history) {
            code = bad_problem(a, p, Default::default(), &[d], printer);
            continue;
        }
        // each problem's time limit binds the rules' answers too
        let deadline = deadline_after(a.time_ms);
        oracle.watch(None, deadline);
        let max_resident_bytes = a.max_resident_mb.saturating_mul(1 << 20);
        oracle.bound_memory(max_resident_bytes);
        let mut hy = crate::shogi::legality::Hybrid::new(v.mate_needs_check, v.asked, &mut oracle);
        let opts = crate::shogi::hybrid_mate::HybridOptions {
            max_nodes: a.nodes,
            max_ms: a.time_ms,
            max_plies: a.max_plies,
            any: a.length == "any",
            stop: None,
            deadline,
            table_mb: a.hash_mb,
            max_resident_bytes,
        };
        let r = match crate::shogi::hybrid_mate::solve(&history, &mut hy, &opts) {
            Ok(r) => r,
            Err(m) => {
                if let Some(line) = p.line {
                    errln!("line {line}:");
                }
                code = printer.fail(rules_failed(&m));
                continue;
            }
        };
        print_mate(&MateReport::of(&r, engine_json), a, a.length == "any");
    }
    code
}
