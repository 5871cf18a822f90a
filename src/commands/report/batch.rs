#![forbid(unsafe_code)]
//! What a batch reports of an item that could not be answered (a problem of `mate --batch`, a
//! record of `game --records`): where it is, and the first diagnostic.

use serde::Serialize;

/// A problem of a batch that could not be answered.
#[derive(Clone, Debug, Serialize)]
pub struct ProblemError {
    /// Always `error`.
    pub result: &'static str,
    /// The line of the batch file (`null`: the problem was given on the command line).
    pub line: Option<usize>,
    /// The first diagnostic's code.
    pub code: String,
    /// Its message.
    pub message: String,
}

/// A record of a batch that could not be answered.
#[derive(Clone, Debug, Serialize)]
pub struct RecordError {
    /// The record's file.
    pub record: String,
    /// Always `error`.
    pub result: &'static str,
    /// The first diagnostic's code.
    pub code: String,
    /// Its message.
    pub message: String,
}
