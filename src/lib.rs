//! okite: the rules of shogi and Go written as mathematical definitions, checked and run.
//!
//! The layers depend on each other in one direction:
//! the engines (`shogi`, `go`) and `syntax` <- `ir` <- `natives` <- `check` <- `eval` <-
//! `bindings`, `hybrid` <- `front` <- `cli`, `repl`, `lsp` (docs/ARCHITECTURE.md draws it).
//!
//! To embed okite, start from the module documentation, each with an example that runs:
//! - [`check::load`]: load and check the shipped rule files, or rule files on disk;
//! - [`eval`]: evaluate a query, under a named reading;
//! - [`shogi`] and [`go`]: the native engines, called directly (SFEN, legal moves, perft; graphs,
//!   board counts, outcome classes).
//!
//! A query against rule text held in memory:
//!
//! ```
//! use okite::check::load::load_str;
//! use okite::eval::Evaluator;
//! use okite::ir::Value;
//! use okite::natives::Natives;
//!
//! let src = "enum Turn { 先手 as sente, 後手 as gote }
//!            def opp(t: Turn) -> Turn = match t { 先手 => 後手, 後手 => 先手 }";
//! let mut prog = load_str("turn.rule", src, &Natives::standard()).ok().unwrap();
//! let fid = prog.sources.add("<query>", None, "opp(opp(sente)) == sente".into());
//! let expr = okite::syntax::parse_expr("opp(opp(sente)) == sente", fid).unwrap();
//! let query = prog.compile_query(&expr, &[]).ok().unwrap();
//! let binder = okite::bindings::Sound::standard();
//! let mut ev = Evaluator::new(&prog, &binder);
//! assert_eq!(ev.eval_query(&query).unwrap(), Value::Bool(true));
//! ```
// Unsafe code is denied everywhere; the one exception (a CPU-feature dispatch in shogi perft)
// allows it locally and says why. Every module that needs none forbids it outright.
#![deny(unsafe_code)]
// Values cache their hash in a cell; the cache never changes their order or equality, so values
// are sound keys of ordered sets and maps.
#![allow(clippy::mutable_key_type)]

pub mod bindings;
pub mod check;
pub mod cli;
pub mod commands;
pub mod diagnostics;
pub mod eval;
pub mod files;
pub mod front;
pub mod go;
pub mod hybrid;
pub mod ir;
pub mod json;
pub mod lines;
pub mod lsp;
pub mod memory;
pub mod natives;
pub mod repl;
pub mod shipped;
pub mod shogi;
pub mod syntax;
pub mod text;
pub mod variants;
