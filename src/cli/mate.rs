#![forbid(unsafe_code)]
//! `okite mate`: the df-pn mate search, natively or under a variant.

use super::args::MateArgs;
use super::common::*;
use super::mate_report::print_mate;
use super::problems::{bad_problem, problems_of, read_problem, Problem};
use crate::check::Program;
use crate::commands::mate::MateEngine;
use crate::commands::Notice;
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::front::pseudo_game;
use std::path::PathBuf;

/// `okite mate`.
pub(super) fn run_mate(a: MateArgs) -> i32 {
    let printer = Printer::auto();
    // the built-in rules under one of their readings: the plan is known without checking them
    let shipped =
        crate::commands::mate::shipped_engine(&a.rules, a.variant.variant.as_deref(), &a.reading);
    if let Some((reading, notice)) = shipped {
        errln!("{}", notice.line());
        return search(&a, reading, &notice, None, &printer);
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
    let (engine, notice) = match crate::commands::mate::engine(&prog, r) {
        Ok(x) => x,
        Err(d) => return printer.fail(d),
    };
    errln!("{}", notice.line());
    let (reading, hybrid) = match engine {
        MateEngine::Native(reading) => (reading, None),
        MateEngine::Hybrid(v) => (crate::shogi::readings::Reading::NARROW_CHECK, Some(v)),
    };
    let with_rules = hybrid.as_ref().map(|v| (&prog, r, v));
    search(&a, reading, &notice, with_rules, &printer)
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
    use crate::shogi::dfpn::MateSolver;
    let ask = match super::bounds::mate_ask(a) {
        Ok(ask) => ask,
        Err(d) => return printer.fail(d),
    };
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
        return run_mate_hybrid(a, &ask, prog, r, v, &problems, engine_json, printer);
    }
    // a batch runs its problems side by side, one job per core unless --jobs says otherwise
    let jobs = super::mate_jobs::jobs_for(a.jobs, problems.len());
    if a.batch.is_some() && jobs > 1 {
        return super::mate_jobs::run(a, &ask, &problems, jobs, reading, engine_json, printer);
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
            let report = crate::commands::mate::native(
                &mut solver,
                &positions,
                &ask,
                reading,
                progress,
                engine_json,
            );
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            print_mate(&report, a, ask.any());
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

/// The USI engine's search under a variant: the rules of `paths` are loaded on the search
/// thread, as the command line loads them.
pub(super) fn variant_search(
    paths: Vec<PathBuf>,
    reading: String,
    max_resident_bytes: usize,
) -> crate::shogi::usi_engine::VariantSearch {
    let load = move || {
        crate::front::load_rules(&paths)
            .map(|(prog, _)| prog)
            .map_err(|_| "the rule files no longer check".to_string())
    };
    crate::commands::mate::usi_variant_search(load, reading, max_resident_bytes)
}

/// `okite mate` under a variant: the search over assembled legality, problem by problem.
#[expect(clippy::too_many_arguments, reason = "the plan's parts and the face's")]
pub(super) fn run_mate_hybrid(
    a: &MateArgs,
    ask: &crate::commands::mate::MateAsk,
    prog: &Program,
    reading: crate::ir::ReadingId,
    v: &crate::hybrid::ShogiVariant,
    problems: &[Problem],
    engine_json: &Notice,
    printer: &Printer,
) -> i32 {
    let searched = crate::commands::mate::with_hybrid(prog, reading, v, |search| {
        let mut code = 0;
        for p in problems.iter() {
            if let Some(d) = p.unreadable(a.batch.as_deref()) {
                code = bad_problem(a, p, Default::default(), &[d], printer);
                continue;
            }
            let moves = if a.batch.is_some() { "" } else { &a.moves };
            let history = match pseudo_game(&p.text, moves, None) {
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
            match search.solve(&history, ask, engine_json) {
                Ok(report) => print_mate(&report, a, ask.any()),
                Err(d) => {
                    if let Some(line) = p.line {
                        errln!("line {line}:");
                    }
                    code = printer.fail(d);
                }
            }
        }
        code
    });
    searched.unwrap_or_else(|d| printer.fail(d))
}
