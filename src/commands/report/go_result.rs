#![forbid(unsafe_code)]
//! What `okite go result` reports of a Go record: each rule set's verdict, with what it was
//! judged on.

use serde::Serialize;
use serde_json::value::RawValue;

/// `okite go result --json` on one record.
#[derive(Clone, Debug, Serialize)]
pub struct GoResultReport {
    /// Each rule set's verdict.
    pub results: Vec<RulesetVerdict>,
    /// The plays of the record.
    pub plays: usize,
    /// The komi the record states (`null`: each rule set's own).
    pub komi: Option<Box<RawValue>>,
    /// The handicap stones.
    pub handicap: usize,
    /// The dead stones and where they come from.
    pub dead: DeadStones,
    /// The result the record states (`RE`).
    pub record_result: Option<StatedResult>,
    /// The rules the record names (`RU`).
    pub record_rules: Option<StatedRules>,
}

/// One rule set's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct RulesetVerdict {
    /// The rule set.
    pub ruleset: String,
    /// `B` or `W` (`null`: no winner).
    pub winner: Option<&'static str>,
    /// The score in points (`null`: none).
    pub score: Option<Box<RawValue>>,
    /// Why.
    pub reason: String,
    /// The play the verdict stands at.
    pub play: i64,
    /// Whether it agrees with the result stated (`null`: nothing to agree with).
    pub agrees: Option<bool>,
    /// Why a stated result is neither agreed nor disagreed with.
    pub not_shown: Option<String>,
    /// The native functions it reached, and whether each answered.
    pub natives: Vec<NativeUse>,
}

/// A native function a verdict reached.
#[derive(Clone, Debug, Serialize)]
pub struct NativeUse {
    /// Its path.
    pub native: String,
    /// Whether it answered.
    pub on: bool,
}

/// The dead stones.
#[derive(Clone, Debug, Serialize)]
pub struct DeadStones {
    /// Where they come from.
    pub source: String,
    /// Their points.
    pub stones: Vec<String>,
}

/// The result a record states.
#[derive(Clone, Debug, Serialize)]
pub struct StatedResult {
    /// The record's text.
    pub stated: String,
    /// The winner it states.
    pub winner: Option<&'static str>,
    /// The score it states.
    pub score: Option<Box<RawValue>>,
}

/// The rules a record names.
#[derive(Clone, Debug, Serialize)]
pub struct StatedRules {
    /// The record's text.
    pub stated: String,
    /// The shipped rule set it names (`null`: none).
    pub ruleset: Option<&'static str>,
}
