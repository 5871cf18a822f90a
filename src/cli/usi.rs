#![forbid(unsafe_code)]
//! `okite usi`: the USI engine for `go mate`, under the shipped readings or a variant.

use super::args::*;
use super::common::*;
use super::mate::variant_search;
use crate::commands::mate::MateEngine;
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::front::MovesOfRules;
use crate::shogi::usi_engine::{MovesReader, Refused};
use std::path::PathBuf;

/// `okite usi`.
pub(super) fn usi(args: UsiArgs) -> i32 {
    let UsiArgs {
        rules,
        reading,
        max_resident_mb,
    } = args;
    let max_resident_bytes = max_resident_mb.saturating_mul(1 << 20);
    // the options Rules and Reading: the search follows them where the definitions of
    // `mate_in` are the shipped ones of a native reading, and refuses otherwise
    let resolve = |path: &str, name: &str| -> Result<crate::shogi::usi_engine::Follow, Refused> {
        let paths: Vec<PathBuf> = if path.is_empty() {
            rules.clone()
        } else {
            vec![PathBuf::from(path)]
        };
        let (prog, _) = crate::front::load_rules(&paths).map_err(|(_, ds)| {
            let first = ds.iter().find(|d| d.is_error()).or(ds.first());
            let text = first.map(|d| d.message.clone()).unwrap_or_default();
            let n = ds.iter().filter(|d| d.is_error()).count();
            format!("the rule files do not check ({n} errors; the first: {text})")
        })?;
        let r = prog.reading_or_error(name).map_err(|d| d.message.clone())?;
        let moves = (!MovesOfRules::new(&prog, r).shipped()).then_some(());
        match crate::commands::mate::engine(&prog, r) {
            Ok((MateEngine::Native(reading), _)) => {
                Ok(crate::shogi::usi_engine::Follow::Native(reading))
            }
            Ok((MateEngine::Hybrid(_), _)) => Ok(crate::shogi::usi_engine::Follow::Variant(
                variant_search(paths, name.to_string(), max_resident_bytes),
            )),
            Err(refusal) => Err(Refused {
                why: refusal.message,
                // `position` plays the rules' own moves all the same
                moves: moves.map(|()| rules_moves(prog, r)),
            }),
        }
    };
    // the command line's choice is checked before the first command; a failure is told
    // with the diagnostics of the rules or of the reading where there are some. Rules whose
    // moves the engine reads though it cannot search them start it all the same, with a
    // warning: `position` plays their moves, `go mate` says why it is not answered
    if let Err(refused) = resolve("", &reading) {
        let why = refused.why;
        if refused.moves.is_some() {
            let warning = Diag::warning(code::ENGINE_CANNOT_FOLLOW, why).help(
                "`position` plays the rules' own moves; `go mate` answers `checkmate notimplemented` (the rules answer it themselves: okite eval --rules ... --sfen ... 'mate_in(g, i, N)')",
            );
            Printer::auto().diags(&[warning], &Default::default());
            return run_loop(&reading, &resolve);
        }
        let printer = Printer::auto();
        let prog = match load_or_report(&rules, &printer) {
            Ok((p, _)) => p,
            Err(c) => return c,
        };
        if let Err(d) = prog.reading_or_error(&reading) {
            return printer.fail_in(d, &prog.sources);
        }
        return printer.fail(
            Diag::error(code::ENGINE_CANNOT_FOLLOW, why)
                .help(format!("the rules answer it themselves, without the engine: okite eval --rules ... --reading {reading} --sfen ... 'mate_in(g, i, N)'")),
        );
    }
    run_loop(&reading, &resolve)
}

/// The engine's loop under the command line's reading, with the shipped board variants offered.
fn run_loop(reading: &str, resolve: crate::shogi::usi_engine::Resolver<'_>) -> i32 {
    let stdin = std::io::stdin();
    let input = format!("setoption name Reading value {reading}\n");
    let chained = std::io::BufReader::new(std::io::Read::chain(
        std::io::Cursor::new(input),
        stdin.lock(),
    ));
    let boards = crate::shipped::variant_names();
    let board_of = |name: &str| -> Result<crate::shogi::variant::Variant, String> {
        crate::variants::shipped(name)
            .map(|v| v.variant)
            .map_err(|(_, ds)| ds.first().map(|d| d.message.clone()).unwrap_or_default())
    };
    match crate::shogi::usi_engine::usi_loop_boards(
        chained,
        std::io::stdout(),
        resolve,
        &boards,
        &board_of,
    ) {
        Ok(()) => 0,
        Err(e) => Printer::auto().fail(
            Diag::error(
                code::CANNOT_WRITE,
                format!("the USI engine cannot read its input or write its answers: {e}"),
            )
            .help(
                "the engine talks over standard input and output; check what they are connected to",
            ),
        ),
    }
}

/// The moves of `prog` under `reading` read by its own `succ` (see [`MovesOfRules`]).
fn rules_moves(prog: crate::check::Program, reading: crate::ir::ReadingId) -> MovesReader {
    Box::new(move |p, text| MovesOfRules::new(&prog, reading).play(p, text))
}
