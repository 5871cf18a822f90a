#![forbid(unsafe_code)]
//! What the evaluator is given besides the program: the native functions, and for each
//! definition bound to one, whether its binding may answer under a reading. The evaluator
//! decides nothing of this itself; the command that runs it chooses (`crate::bindings::Sound`
//! trusts a binding only where the loaded definitions it stands for are the shipped ones).

use crate::check::Program;
use crate::ir::{DefId, ReadingId};
use crate::natives::Natives;

/// A binding that may not answer: what it stands for, and why not (for the command's notice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Off {
    pub what: String,
    pub why: String,
}

pub trait Binder {
    /// The native functions, by path.
    fn natives(&self) -> &Natives;
    /// Whether the native function bound to `def` may answer for it under `reading`.
    fn verdict(&self, prog: &Program, reading: ReadingId, def: DefId) -> Result<(), Off>;
}
