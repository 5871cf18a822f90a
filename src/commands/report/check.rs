#![forbid(unsafe_code)]
//! What `okite check` and `okite test` report: the diagnostics of a check, and the outcome of
//! each example and theorem run.

use serde::Serialize;

/// `okite check --json`: whether the rules check, what they hold, and every diagnostic.
#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    /// Whether the rules check.
    pub ok: bool,
    /// The files read (when they check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<usize>,
    /// The definitions (when they check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub definitions: Option<usize>,
    /// The readings (when they check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub readings: Option<usize>,
    /// The examples (when they check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub examples: Option<usize>,
    /// The theorems (when they check).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theorems: Option<usize>,
    /// The diagnostics.
    pub diagnostics: Vec<DiagReport>,
}

/// A diagnostic: its code, level, message, the place of its first label and its help.
#[derive(Clone, Debug, Serialize)]
pub struct DiagReport {
    /// The catalogued code (`E0101`).
    pub code: &'static str,
    /// `error`, `warning` or `note`.
    pub level: &'static str,
    /// The message.
    pub message: String,
    /// The file of the first label (`null`: no place).
    pub file: Option<String>,
    /// Its line, from 1.
    pub line: Option<usize>,
    /// Its column, from 1.
    pub column: Option<usize>,
    /// The help (`null`: none).
    pub help: Option<String>,
}

/// `okite test --json`: the counts and each outcome.
#[derive(Clone, Debug, Serialize)]
pub struct TestReport {
    /// The examples and theorems that held.
    pub passed: usize,
    /// Those that did not.
    pub failed: usize,
    /// Each one's outcome.
    pub results: Vec<TestOutcome>,
}

/// An example's or a theorem's outcome.
#[derive(Clone, Debug, Serialize)]
pub struct TestOutcome {
    /// `example` or `theorem`.
    pub kind: &'static str,
    /// Its name.
    pub name: String,
    /// The reading it ran under.
    pub reading: String,
    /// Its file.
    pub file: String,
    /// Its line, from 1.
    pub line: usize,
    /// Its column, from 1.
    pub column: usize,
    /// Whether it held.
    pub ok: bool,
    /// The cases a theorem checked.
    pub cases: u64,
    /// Why it failed (`null`: it held).
    pub message: Option<String>,
}
