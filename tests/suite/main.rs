#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The integration tests, one binary: each file of this folder is a module (its own doc comment
//! says what it checks). One binary links once and runs all its tests in one pool of threads, so
//! a long test shares the cores with the short ones instead of holding its file's turn alone.
//! Run one file's tests by its name: `cargo test --release --test suite cli::`.
//!
//! The tests share one process: none may set the process's environment or folder, and each
//! writes its files in a folder of its own.
//!
//! Apart, each a binary of its own: tests/resident.rs (the peak memory of a command it starts
//! counts the memory of the process that starts it, which must be small) and tests/python.rs
//! (the Python package's suite, whose test of searches in parallel times them).

mod cli;
mod codes;
mod common;
mod deep;
mod diagnostics;
mod docs;
mod editors;
mod eval_props;
mod faithful;
mod first_hour;
mod go_benson;
mod go_differential;
mod go_life;
mod go_rulesets;
mod go_solve;
mod last_judgment;
mod layers;
mod lsp;
mod malformed;
mod mate_readings;
mod microcosmos;
mod readme;
mod records;
mod repl_pty;
mod repl_script;
mod roundtrip;
mod rulesets;
mod scaling;
mod shipped_facts;
mod shogi_differential;
mod tsume;
mod variants;
