#![forbid(unsafe_code)]
//! What `okite game` reports of a shogi game: its moves, each reading's verdict, and what the
//! record states of its end.

use crate::commands::Notice;
use serde::Serialize;

/// `okite game --json` on one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameReport {
    /// The moves of the game, in USI notation.
    pub moves: Vec<String>,
    /// The game under each reading asked.
    pub readings: Vec<ReadingVerdict>,
    /// The result the record states, when it states one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_result: Option<RecordResult>,
    /// The illegal move a record ends with, as its reader found it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_illegal_move: Option<RecordFoul>,
}

/// The game under one reading.
#[derive(Clone, Debug, Serialize)]
pub struct ReadingVerdict {
    /// The reading's name.
    pub reading: String,
    /// The first move the reading forbids (`null`: none).
    pub first_forbidden: Option<Forbidden>,
    /// The moves after which a position is repeated four times.
    pub repetitions: Vec<usize>,
    /// The moves that complete a perpetual check.
    pub perpetual_checks: Vec<usize>,
    /// Whether the last position is mate.
    pub final_mate: bool,
    /// Who answered.
    pub engine: Notice,
}

/// A move a reading forbids.
#[derive(Clone, Debug, Serialize)]
pub struct Forbidden {
    /// Its number in the game, from 1.
    #[serde(rename = "move")]
    pub number: usize,
    /// The move in USI notation.
    pub usi: String,
    /// Why the reading forbids it.
    pub why: String,
}

/// The result a record states.
#[derive(Clone, Debug, Serialize)]
pub struct RecordResult {
    /// Who won (`black`, `white`, `draw`, ...).
    pub outcome: &'static str,
    /// How the game ended (resignation, repetition, ...).
    pub ending: &'static str,
    /// The moves played before the end.
    pub ply: usize,
    /// The record's own words.
    pub stated: String,
    /// The line of the record that states it.
    pub line: usize,
}

/// The illegal move a record ends with.
#[derive(Clone, Debug, Serialize)]
pub struct RecordFoul {
    /// Its number in the game, from 1.
    #[serde(rename = "move")]
    pub number: usize,
    /// The move as the record writes it.
    pub written: String,
    /// Why it is illegal.
    pub why: String,
    /// The line of the record.
    pub line: usize,
}

/// `okite game --json` under a board variant: the moves played and how the game stands.
#[derive(Clone, Debug, Serialize)]
pub struct BoardGameReport {
    /// The moves, in the variant's USI notation.
    pub moves: Vec<String>,
    /// Whether the game is over.
    pub over: bool,
    /// The winner, `b` or `w` (`null`: none, or a draw).
    pub winner: Option<&'static str>,
    /// Why the game stands as it does.
    pub reason: String,
    /// The last position in the variant's SFEN.
    pub sfen: String,
    /// Who answered.
    pub engine: Notice,
}

/// `okite game --rulesets --json`: the game judged under official rule sets.
#[derive(Clone, Debug, Serialize)]
pub struct RulesetsReport {
    /// The moves of the game, in USI notation.
    pub moves: Vec<String>,
    /// Each rule set's result.
    pub results: Vec<RulesetResult>,
    /// The result the record states, when it states one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub record_result: Option<RecordResult>,
}

/// One rule set's result of a game.
#[derive(Clone, Debug, Serialize)]
pub struct RulesetResult {
    /// The rule set.
    pub ruleset: String,
    /// `sente`, `gote`, `draw`, ...
    pub result: &'static str,
    /// The move the result stands at.
    pub ply: usize,
    /// Why.
    pub reason: String,
    /// Whether it agrees with the result stated (absent: nothing to agree with).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub agrees: Option<bool>,
    /// Why a stated result is neither agreed nor disagreed with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_shown: Option<String>,
}
