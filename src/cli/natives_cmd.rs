#![forbid(unsafe_code)]
//! `okite natives`: every native binding and engine, on or off and why.

use super::args::*;
use super::common::*;
use crate::commands::report::natives::{
    BindingState, BoardVariantState, EngineState, NativesReport,
};
use crate::commands::Plan;
use crate::natives::Natives;
use std::path::PathBuf;

/// `okite natives`: every binding of the loaded rules and every engine, on or off and why.
pub(super) fn natives(rules: &[PathBuf], reading: Option<&str>, all: bool, json: bool) -> i32 {
    let printer = Printer::auto();
    let mut prog = match load_or_report(rules, &printer) {
        Ok((p, _)) => p,
        Err(c) => return c,
    };
    let r = match crate::commands::reading(&prog, reading) {
        Ok(r) => r,
        Err(d) => {
            return printer.fail_in(d, &prog.sources);
        }
    };
    let rname = prog.readings[r.index()].name.clone();
    let bindings = crate::bindings::report(&prog, r);
    let engines: Vec<(&str, Vec<&str>, Vec<&'static str>, Plan)> = crate::commands::ENGINES
        .iter()
        .map(|e| {
            let defs: Vec<&str> = e.defs.to_vec();
            (
                e.commands,
                defs.clone(),
                e.readings.to_vec(),
                crate::commands::plan_all(&prog, r, &defs, e.readings),
            )
        })
        .collect();
    // a board variant's tables compile into the variant engine, or say why not
    let board = crate::variants::states_tables(&prog).then(|| {
        crate::variants::compile(&mut prog, r)
            .and_then(|spec| {
                crate::shogi::variant::Variant::new(spec)
                    .map_err(|e| crate::diagnostics::Diag::error(crate::variants::BAD_VARIANT, e.0))
            })
            .map(|v| {
                let t = &v.tables.spec;
                format!(
                    "{}: {} x {}, {} kinds, {} faces",
                    t.name,
                    t.width,
                    t.height,
                    t.kinds.len(),
                    t.faces.len()
                )
            })
            .map_err(|d| d.message)
    });
    if json {
        let report = NativesReport {
            reading: rname.clone(),
            bindings: bindings
                .iter()
                .map(|(name, path, v)| BindingState {
                    definition: name.to_string(),
                    native: path.to_string(),
                    on: v.is_ok(),
                    reason: v.as_ref().err().map(|why| why.to_string()),
                })
                .collect(),
            engines: engines
                .iter()
                .map(|(cmds, defs, _, plan)| EngineState {
                    commands: cmds,
                    definitions: defs.iter().map(|d| d.to_string()).collect(),
                    on: plan.is_native(),
                    follows: match plan {
                        Plan::Native(n) => Some(n),
                        Plan::Rules(_) => None,
                    },
                    reason: match plan {
                        Plan::Native(_) => None,
                        Plan::Rules(why) => Some(why.to_string()),
                    },
                })
                .collect(),
            board_variant: board.as_ref().map(|b| match b {
                Ok(what) => BoardVariantState {
                    on: true,
                    engine: Some("the compiled variant engine"),
                    variant: Some(what.clone()),
                    reason: None,
                },
                Err(why) => BoardVariantState {
                    on: false,
                    engine: None,
                    variant: None,
                    reason: Some(why.clone()),
                },
            }),
        };
        outln!("{}", crate::json::text(&report));
        return 0;
    }
    outln!("bindings of the rules under {rname}:");
    for (name, path, v) in &bindings {
        match v {
            Ok(()) => outln!("  on   {name} = {path}"),
            Err(why) => outln!("  off  {name} = {path}: {why}"),
        }
    }
    outln!("engines of the commands under {rname}:");
    for (cmds, defs, _, plan) in &engines {
        let what = format!("{cmds} (`{}`)", defs.join("`, `"));
        match plan {
            Plan::Native(n) if *n == rname => outln!("  on   {what}"),
            Plan::Native(n) => outln!("  on   {what}, as the shipped reading {n}"),
            Plan::Rules(why) => outln!("  off  {what}: {why}"),
        }
    }
    match &board {
        Some(Ok(what)) => outln!(
            "  on   perft, legal, show, mate, usi (a board variant): the engine compiled from the tables ({what})"
        ),
        Some(Err(why)) => outln!("  off  perft, legal, show, mate, usi (a board variant): {why}"),
        None => {}
    }
    if all {
        outln!("native functions:");
        let h = Natives::standard();
        for p in h.paths() {
            if let Some(native) = h.get(p) {
                outln!("  {p}/{}  {}", native.arity, native.doc);
            }
        }
    }
    0
}

/// `okite natives`.
pub(super) fn natives_command(args: NativesArgs) -> i32 {
    let NativesArgs {
        rules,
        reading,
        all,
        json,
    } = args;
    natives(&rules, reading.as_deref(), all, json)
}
