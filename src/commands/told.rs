#![forbid(unsafe_code)]
//! What a command says while it runs, before its report: handed to the face as it happens,
//! so that the face shows it in order (on standard error, for the command line).

use crate::commands::Notice;
use std::collections::BTreeMap;
use std::path::Path;

/// One thing a command says as it runs.
pub enum Told<'a> {
    /// Who answers a part of the command.
    Notice(&'a Notice),
    /// The native bindings an evaluation of the rules found off, each with why.
    OffBindings(&'a BTreeMap<String, String>),
    /// Results of an earlier search read from a file before this one starts: how many.
    ResultsRead(usize, &'a Path),
    /// The results of this search kept in a file, as it ends: how many.
    ResultsKept(usize, &'a Path),
}
