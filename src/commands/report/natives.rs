#![forbid(unsafe_code)]
//! What `okite natives` reports: which native bindings and engines stay on under a reading of
//! the rules loaded, and why the others are off.

use serde::Serialize;

/// `okite natives --json`.
#[derive(Clone, Debug, Serialize)]
pub struct NativesReport {
    /// The reading asked.
    pub reading: String,
    /// Each native binding of the rules.
    pub bindings: Vec<BindingState>,
    /// Each native engine behind a command.
    pub engines: Vec<EngineState>,
    /// The engine compiled from a board variant's tables (`null`: the rules state none).
    pub board_variant: Option<BoardVariantState>,
}

/// A native binding, on or off.
#[derive(Clone, Debug, Serialize)]
pub struct BindingState {
    /// The bound definition.
    pub definition: String,
    /// The native function.
    pub native: String,
    /// Whether it answers.
    pub on: bool,
    /// Why it is off (`null`: on).
    pub reason: Option<String>,
}

/// A native engine, on or off.
#[derive(Clone, Debug, Serialize)]
pub struct EngineState {
    /// The commands it runs.
    pub commands: &'static str,
    /// The definitions it stands for.
    pub definitions: Vec<String>,
    /// Whether it answers.
    pub on: bool,
    /// The shipped reading it follows (`null`: off).
    #[serde(rename = "as")]
    pub follows: Option<&'static str>,
    /// Why it is off (`null`: on).
    pub reason: Option<String>,
}

/// The engine of a board variant: on, or why not.
#[derive(Clone, Debug, Serialize)]
pub struct BoardVariantState {
    /// Whether the tables compiled.
    pub on: bool,
    /// The engine (when on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<&'static str>,
    /// The variant's board and pieces (when on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// Why not (when off).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
