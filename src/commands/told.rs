#![forbid(unsafe_code)]
//! What a command says while it runs, before its report: handed to the face as it happens,
//! so that the face shows it in order (on standard error, for the command line).

use crate::commands::Notice;
use std::collections::BTreeMap;

/// One thing a command says as it runs.
pub enum Told<'a> {
    /// Who answers a part of the command.
    Notice(&'a Notice),
    /// The native bindings an evaluation of the rules found off, each with why.
    OffBindings(&'a BTreeMap<String, String>),
}
