//! The value of a board under perfect play: `okite go solve`.

use super::*;
use crate::diagnostics::code;

pub(super) fn run(a: GoSolveArgs) -> i32 {
    use crate::go;
    let GoSolveArgs {
        graph,
        moves,
        sgf,
        reading,
        rules: rule_paths,
        komi,
        nodes,
        time_ms,
        hash_mb,
        json,
    } = a;
    let (mut prog, plan) = match go_plan(
        &rule_paths,
        Some(&reading),
        &["solve"],
        &crate::commands::GO_SOLVE_READINGS,
        "the native solver",
        Engine::Native,
    ) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let (graph, g, history, to_move) = match go_position(
        graph.as_deref(),
        &moves,
        sgf.as_deref(),
        Some((&mut prog, Some(&reading))),
    ) {
        Ok(p) => (p.spec, p.graph, p.seq, p.to_move),
        Err(c) => return c,
    };
    let from_empty = history.len() == 1 && history[0] == go::board::Board::empty();
    // the seeds' komi h, in half points, is the negative of the komi given to White
    let h2 = match seed_h2(komi) {
        Ok(h) => h,
        Err(c) => return c,
    };
    let r = match prog.reading_or_error(&reading) {
        Ok(r) => r,
        Err(d) => return Printer::auto().fail_in(d, &prog.sources),
    };
    let engine_json = crate::commands::Notice::of(&prog, r, "solve", "the native solver", &plan);
    if !plan.is_native() && !from_empty {
        return Printer::auto().fail(
            Diag::error(
                code::ENGINE_LIMIT,
                format!("under {reading} the rules solve from the empty board only"),
            )
            .help(format!(
                "the native solver (readings {}) solves from a position",
                crate::commands::GO_SOLVE_READINGS.join(", ")
            )),
        );
    }
    if !plan.is_native() {
        let solved = crate::commands::go::solve_by_rules(
            &mut prog,
            &g,
            &reading,
            h2,
            (time_ms > 0).then(|| std::time::Duration::from_millis(time_ms)),
            engine_json,
            &mut tell,
        );
        return match solved {
            Ok(report) if json => {
                outln!("{}", crate::json::text(&report));
                0
            }
            Ok(report) => {
                outln!("{}", report.value.get());
                0
            }
            Err(ds) => Printer::auto().fail_all(&ds, &prog.sources),
        };
    }
    // the plan is native here: the rules of the shipped reading it follows
    let shipped = match plan {
        Plan::Native(r) => r,
        Plan::Rules(_) => "",
    };
    let Some(mut rules) = go::solve::rules_of_reading(shipped) else {
        return Printer::auto().fail(Diag::error(
            code::ENGINE_LIMIT,
            format!("the native solver does not follow the reading `{shipped}`"),
        ));
    };
    rules.komi_half_points = -h2;
    if hash_mb > 65536 {
        return Printer::auto().fail(
            Diag::error(
                code::BAD_OPTION,
                format!("--hash-mb {hash_mb} is more than the solver takes"),
            )
            .help("give --hash-mb between 0 and 65536 (MiB)"),
        );
    }
    let opts = go::solve::SolveOptions {
        node_limit: nodes,
        time_limit: (time_ms > 0).then(|| std::time::Duration::from_millis(time_ms)),
        table_bytes: hash_mb << 20,
        ..go::solve::SolveOptions::default()
    };
    solve_native(
        &graph,
        &g,
        &rules,
        &history,
        to_move,
        &opts,
        engine_json,
        json,
    )
}
