//! okite: the rules of shogi and Go written as mathematical definitions, checked and run.
//!
//! The layers depend on each other in one direction:
//! `syntax` <- `check` <- `eval` <- `hooks` <- the games and the command line.
// Unsafe code is denied everywhere; the one exception (a CPU-feature dispatch in shogi perft)
// allows it locally and says why. Every module that needs none forbids it outright.
#![deny(unsafe_code)]

pub mod check;
pub mod cli;
pub mod diagnostics;
pub mod eval;
pub mod hooks;
pub mod shogi;
pub mod syntax;
