//! Go on arbitrary finite connected simple graphs: graphs, boards, rules, SGF, counting
//! boards and regular sequences, a small-board solver, and diagrams.

#![forbid(unsafe_code)]

pub mod bitset;
pub mod board;
pub mod count;
pub mod error;
pub mod graph;
pub mod render;
pub mod rules;
pub mod sequences;
pub mod sgf;
pub mod small;
pub mod solve;

#[cfg(test)]
mod proptests;

pub use bitset::{BitSet, MAX_VERTICES};
pub use board::{Board, Color, Illegal, Zobrist};
pub use error::{GoError, GoResult, Span};
pub use graph::Graph;
pub use rules::{Game, Move, Passes, Repetition, Rules, Scoring, Suicide};
