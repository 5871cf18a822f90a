#![forbid(unsafe_code)]
//! Who answers a command: a native engine following one of its shipped readings, an engine
//! assembled from native parts and rule definitions, or the rules, with the reason. Decided
//! here, once, for every command and face (the command line, the REPL, the USI engine).

use crate::bindings::{self, Reason};
use crate::check::{Program, BASE};
use crate::diagnostics::Diag;
use crate::ir::ReadingId;
use std::path::PathBuf;

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

    /// The rules, because the command was asked to run by them (`--engine rules` or `verify`):
    /// no definition stopped the engine.
    pub fn rules_asked() -> Plan {
        Plan::Rules(bindings::Reason {
            what: String::new(),
            changes: vec![],
        })
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

/// Who searches `mate_in` under a reading: decided here for `okite mate` and the USI engine.
pub enum MateSearch {
    /// The native df-pn search, following the shipped reading.
    Native(crate::shogi::readings::Reading),
    /// The df-pn search over native move generation and check, asking the program's rules
    /// what changed; `why` the native search is off.
    Hybrid {
        variant: crate::hybrid::ShogiVariant,
        why: Reason,
    },
    /// No search can stand for these rules: `why` the native search is off, and why no
    /// native part is kept (`None`: `mate_in` itself changed, and the search stands for it).
    Refused { why: Reason, no: Option<String> },
}

/// The search that answers `mate_in` under `reading` (see [`MateSearch`]), with the plan of
/// the native search it was decided from.
#[expect(
    clippy::expect_used,
    reason = "the shogi engines' readings are the named ones"
)]
pub fn mate_search(prog: &Program, reading: ReadingId) -> (Plan, MateSearch) {
    let plan = plan(prog, reading, "mate_in", &SHOGI_READINGS);
    let search = match &plan {
        Plan::Native(n) => MateSearch::Native(
            crate::shogi::readings::Reading::named(n)
                .expect("the shogi engines' readings are named"),
        ),
        Plan::Rules(why) => {
            // the search keeps its native parts where `mate_in` itself is the shipped one
            if !bindings::same_own(prog, reading, "mate_in", "base") {
                MateSearch::Refused {
                    why: why.clone(),
                    no: None,
                }
            } else {
                match crate::hybrid::shogi_variant(prog, reading) {
                    Ok(variant) => MateSearch::Hybrid {
                        variant,
                        why: why.clone(),
                    },
                    Err(no) => MateSearch::Refused {
                        why: why.clone(),
                        no: Some(no),
                    },
                }
            }
        }
    };
    (plan, search)
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

/// The definitions a tsume convention's verdict stands for: the checker answers for them where
/// they are the shipped ones of one of the conventions, [`TSUME_READINGS`].
pub const TSUME_DEFS: [&str; 8] = [
    "tsume_within",
    "futile",
    "interpositions",
    "last_move_alternatives",
    "alternative_flaw",
    "variation_alternatives",
    "variation_alternative_flaw",
    "pieces_left",
];

/// The readings of rules/shogi_tsume.rule the tsume checker follows.
pub const TSUME_READINGS: [&str; 5] = [
    "common",
    "common-unique-last",
    "common-unique-variations",
    "strict",
    "strict-unique-last",
];

/// The definitions the native replay of a game stands for: legality with the history, fourfold
/// repetition and perpetual check.
pub const REPLAY_DEFS: [&str; 3] = ["legal", "sennichite", "perpetual_forbidden"];

/// The definitions the native shogi engines stand for: the move generator (`legal`) and the
/// mate search (`mate_in`).
pub const ENGINE_DEFS: [&str; 2] = ["legal", "mate_in"];

/// The plan of a command on the built-in rules, known without checking them (see
/// [`crate::shipped::native_reading`]): the native engine standing for `def`, following the
/// shipped reading it gives, under the reading `reading`; None where the rules must be checked
/// to say (rule files named, a board variant, a reading the facts do not hold).
pub fn shipped_plan(
    rules: &[PathBuf],
    variant: Option<&str>,
    def: &str,
    reading: &str,
) -> Option<Plan> {
    if !rules.is_empty() || variant.is_some() {
        return None;
    }
    crate::shipped::native_reading(def, reading).map(Plan::Native)
}

/// The plan of the native replay of a game (`okite game`) on the built-in rules under the
/// reading `reading`, known without checking them; None as for [`shipped_plan`].
pub fn shipped_replay_plan(
    rules: &[PathBuf],
    variant: Option<&str>,
    reading: &str,
) -> Option<Plan> {
    if !rules.is_empty() || variant.is_some() {
        return None;
    }
    crate::shipped::replay_reading(reading).map(Plan::Native)
}

/// A native engine behind commands: the definitions it stands for and the shipped readings it
/// can follow.
pub struct EngineBinding {
    pub commands: &'static str,
    pub defs: &'static [&'static str],
    pub readings: &'static [&'static str],
}

/// The shipped readings of rules/go_life.rule the native classification follows (see
/// `go::life::Table::for_reading`).
pub const GO_CLASS_READINGS: [&str; 4] = ["base", "cautious", "literal-ultimate", "p-to-chooser"];

/// The shipped readings of rules/go_play.rule (and go.rule's `suicide`) the native solver
/// follows (see `go::solve::rules_of_reading`).
pub const GO_SOLVE_READINGS: [&str; 5] = ["area", "base", "situational", "simple-ko", "suicide"];

/// Every native engine behind a command.
pub const ENGINES: &[EngineBinding] = &[
    EngineBinding {
        commands: "perft, legal (the move generator)",
        defs: &["legal"],
        readings: &SHOGI_READINGS,
    },
    EngineBinding {
        commands: "game (the native replay)",
        defs: &REPLAY_DEFS,
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
        readings: &GO_SOLVE_READINGS,
    },
    EngineBinding {
        commands: "go classes",
        defs: &["classes"],
        readings: &GO_CLASS_READINGS,
    },
];
