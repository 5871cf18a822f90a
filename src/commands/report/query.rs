#![forbid(unsafe_code)]
//! What the queries report: `okite eval`, `okite explain` and `okite compare`. A value is
//! written as JSON by its own bounded writer (`cli::to_json`: a value nests as deep as the rules
//! make it) and placed in the report as it is.

use serde::Serialize;
use serde_json::value::RawValue;

/// `okite eval --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Evaluated {
    /// The value.
    pub value: Box<RawValue>,
    /// Its type.
    #[serde(rename = "type")]
    pub ty: String,
}

/// `okite explain --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Explained {
    /// The expression.
    pub expr: String,
    /// Its value.
    pub value: Box<RawValue>,
    /// The proof tree.
    pub tree: Box<RawValue>,
    /// Whether the tree was cut at the depth asked.
    pub cut: bool,
}

/// `okite compare --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Compared {
    /// The expression.
    pub expr: String,
    /// Its value under each reading.
    pub readings: Vec<UnderReading>,
    /// Whether every reading gives the same value.
    pub agree: bool,
}

/// A value under one reading.
#[derive(Clone, Debug, Serialize)]
pub struct UnderReading {
    /// The reading.
    pub reading: String,
    /// The value.
    pub value: Box<RawValue>,
}

/// `okite eval --variant NAME --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Value {
    /// The value.
    pub value: Box<RawValue>,
}
