#![forbid(unsafe_code)]
//! What the command line and the REPL share: loading the rules (the shipped ones by default),
//! and choosing, for a command that has a native engine, whether the engine may answer under
//! the loaded rules and the reading in force, or the rules must.

use crate::bindings::{self, Reason};
use crate::check::ir::ReadingId;
use crate::check::load::{load, load_shipped};
use crate::check::{Program, BASE};
use crate::diagnostics::{Diag, SourceMap};
use crate::hooks::Hooks;
use std::path::PathBuf;

/// Load rule files and folders, or the shipped rule files when `paths` is empty.
pub fn load_rules(paths: &[PathBuf]) -> Result<(Program, Vec<PathBuf>), (SourceMap, Vec<Diag>)> {
    let loaded = if paths.is_empty() {
        load_shipped(Hooks::standard())
    } else {
        load(paths, Hooks::standard())
    };
    match loaded.program {
        Ok(p) => Ok((p, loaded.files)),
        Err(ds) => Err((loaded.sources, ds)),
    }
}

/// The shipped readings the native shogi engines follow (move generation, legality with the
/// history, the mate search).
pub const SHOGI_READINGS: [&str; 4] = ["narrow", "broad", "narrow-check", "broad-check"];

/// How a command runs: by a native engine following one of its readings, or by the rules.
#[derive(Clone, Debug)]
pub enum Plan {
    /// The engine may answer: the loaded definitions are the shipped ones of this reading.
    Native(&'static str),
    /// The rules answer; why the engine may not.
    Rules(Reason),
}

impl Plan {
    pub fn is_native(&self) -> bool {
        matches!(self, Plan::Native(_))
    }
}

/// A reading of the program by name, or a diagnostic that lists the readings there are.
pub fn reading(prog: &Program, name: Option<&str>) -> Result<ReadingId, Diag> {
    match name {
        None => Ok(BASE),
        Some(n) => prog.reading_or_error(n),
    }
}

/// May the native engine standing for definition `def` (e.g. `legal`, `mate_in`) answer under
/// `reading`, following one of `readings` (shipped reading names)?
pub fn plan(prog: &Program, reading: ReadingId, def: &str, readings: &[&'static str]) -> Plan {
    plan_all(prog, reading, &[def], readings)
}

/// The same for an engine that stands for several definitions at once.
pub fn plan_all(
    prog: &Program,
    reading: ReadingId,
    defs: &[&str],
    readings: &[&'static str],
) -> Plan {
    match bindings::engine_reading(prog, reading, defs, readings) {
        Ok(r) => Plan::Native(r),
        Err(why) => Plan::Rules(why),
    }
}

/// The native functions bound to definitions that `def` reaches and that stay on under
/// `reading`.
pub fn natives_on(prog: &Program, reading: ReadingId, def: &str) -> Vec<String> {
    bindings::natives_in_cone(prog, reading, def)
        .into_iter()
        .filter(|(_, on)| *on)
        .map(|(path, _)| path)
        .collect()
}

/// The one line a command prints on stderr to say what ran natively and what by the rules.
pub fn notice(prog: &Program, reading: ReadingId, def: &str, engine: &str, plan: &Plan) -> String {
    let rname = &prog.readings[reading as usize].name;
    match plan {
        Plan::Native(r) if r == rname => {
            format!("okite: `{def}` under {rname}: native ({engine})")
        }
        Plan::Native(r) => format!(
            "okite: `{def}` under {rname}: native ({engine}, as the shipped reading {r}, whose definitions are the same)"
        ),
        Plan::Rules(why) => {
            let on = natives_on(prog, reading, def);
            format!(
                "okite: `{def}` under {rname}: by the rules ({engine} off: {why}); natives still used: {}",
                if on.is_empty() {
                    "none".to_string()
                } else {
                    on.join(", ")
                }
            )
        }
    }
}

/// The same, as a JSON object: `{"definition", "reading", "native", "engine", "reason"}`.
pub fn notice_json(
    prog: &Program,
    reading: ReadingId,
    def: &str,
    engine: &str,
    plan: &Plan,
) -> String {
    let s = json_str;
    let rname = &prog.readings[reading as usize].name;
    match plan {
        Plan::Native(r) => format!(
            "{{\"definition\": {}, \"reading\": {}, \"native\": true, \"engine\": {}, \"as\": {}}}",
            s(def),
            s(rname),
            s(engine),
            s(r)
        ),
        Plan::Rules(why) => format!(
            "{{\"definition\": {}, \"reading\": {}, \"native\": false, \"engine\": {}, \"reason\": {}, \"natives_on\": [{}]}}",
            s(def),
            s(rname),
            s(engine),
            s(&why.to_string()),
            natives_on(prog, reading, def)
                .iter()
                .map(|p| s(p))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// A string as a JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// A native engine behind commands: the definitions it stands for and the shipped readings it
/// can follow.
pub struct EngineBinding {
    pub commands: &'static str,
    pub defs: &'static [&'static str],
    pub readings: &'static [&'static str],
}

/// Every native engine behind a command.
pub const ENGINES: &[EngineBinding] = &[
    EngineBinding {
        commands: "perft, legal (the move generator)",
        defs: &["legal"],
        readings: &SHOGI_READINGS,
    },
    EngineBinding {
        commands: "game (the native replay)",
        defs: &["legal", "sennichite", "perpetual_forbidden"],
        readings: &SHOGI_READINGS,
    },
    EngineBinding {
        commands: "mate, usi (the df-pn search)",
        defs: &["mate_in"],
        readings: &SHOGI_READINGS,
    },
    EngineBinding {
        commands: "go count",
        defs: &["boards"],
        readings: &["base"],
    },
    EngineBinding {
        commands: "go sequences",
        defs: &["regular_count", "empty_board"],
        readings: &["base"],
    },
    EngineBinding {
        commands: "go ultimate",
        defs: &["boards", "ultimate"],
        readings: &["base"],
    },
    EngineBinding {
        commands: "go solve",
        defs: &["solve"],
        readings: &["area"],
    },
    EngineBinding {
        commands: "go classes",
        defs: &["classes"],
        readings: &["base", "cautious", "literal-ultimate"],
    },
];
