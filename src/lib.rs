//! okite: the rules of shogi and Go written as mathematical definitions, checked and run.
//!
//! The layers depend on each other in one direction:
//! `syntax` <- `check` <- `eval` <- `hooks` <- the games and the command line.
#![forbid(unsafe_code)]

pub mod check;
pub mod cli;
pub mod diagnostics;
pub mod eval;
pub mod hooks;
pub mod syntax;
