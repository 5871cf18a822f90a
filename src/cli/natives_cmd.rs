#![forbid(unsafe_code)]
//! `okite natives`: every native binding and engine, on or off and why.

use super::args::*;
use super::common::*;
use crate::front::json_str;
use crate::front::Plan;
use crate::natives::Natives;
use std::path::PathBuf;

/// `okite natives`: every binding of the loaded rules and every engine, on or off and why.
pub(super) fn natives(rules: &[PathBuf], reading: Option<&str>, all: bool, json: bool) -> i32 {
    let printer = Printer::auto();
    let prog = match load_or_report(rules, &printer) {
        Ok((p, _)) => p,
        Err(c) => return c,
    };
    let r = match crate::front::reading(&prog, reading) {
        Ok(r) => r,
        Err(d) => {
            return printer.fail_in(d, &prog.sources);
        }
    };
    let rname = prog.readings[r as usize].name.clone();
    let bindings = crate::bindings::report(&prog, r);
    let engines: Vec<(&str, Vec<&str>, Vec<&'static str>, Plan)> = crate::front::ENGINES
        .iter()
        .map(|e| {
            let defs: Vec<&str> = e.defs.to_vec();
            (
                e.commands,
                defs.clone(),
                e.readings.to_vec(),
                crate::front::plan_all(&prog, r, &defs, e.readings),
            )
        })
        .collect();
    if json {
        let b: Vec<String> = bindings
            .iter()
            .map(|(name, path, v)| {
                format!(
                    "{{\"definition\": {}, \"native\": {}, \"on\": {}, \"reason\": {}}}",
                    json_str(name),
                    json_str(path),
                    v.is_ok(),
                    match v {
                        Ok(()) => "null".to_string(),
                        Err(why) => json_str(&why.to_string()),
                    }
                )
            })
            .collect();
        let e: Vec<String> = engines
            .iter()
            .map(|(cmds, defs, _, plan)| {
                format!(
                    "{{\"commands\": {}, \"definitions\": [{}], \"on\": {}, \"as\": {}, \"reason\": {}}}",
                    json_str(cmds),
                    defs.iter().map(|d| json_str(d)).collect::<Vec<_>>().join(", "),
                    plan.is_native(),
                    match plan {
                        Plan::Native(n) => json_str(n),
                        Plan::Rules(_) => "null".into(),
                    },
                    match plan {
                        Plan::Native(_) => "null".into(),
                        Plan::Rules(why) => json_str(&why.to_string()),
                    }
                )
            })
            .collect();
        println!(
            "{{\"reading\": {}, \"bindings\": [{}], \"engines\": [{}]}}",
            json_str(&rname),
            b.join(", "),
            e.join(", ")
        );
        return 0;
    }
    println!("bindings of the rules under {rname}:");
    for (name, path, v) in &bindings {
        match v {
            Ok(()) => println!("  on   {name} = {path}"),
            Err(why) => println!("  off  {name} = {path}: {why}"),
        }
    }
    println!("engines of the commands under {rname}:");
    for (cmds, defs, _, plan) in &engines {
        let what = format!("{cmds} (`{}`)", defs.join("`, `"));
        match plan {
            Plan::Native(n) if *n == rname => println!("  on   {what}"),
            Plan::Native(n) => println!("  on   {what}, as the shipped reading {n}"),
            Plan::Rules(why) => println!("  off  {what}: {why}"),
        }
    }
    if all {
        println!("native functions:");
        let h = Natives::standard();
        for p in h.paths() {
            if let Some(native) = h.get(p) {
                println!("  {p}/{}  {}", native.arity, native.doc);
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
