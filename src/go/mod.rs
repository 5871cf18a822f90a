//! Go on arbitrary finite connected simple graphs.
//!
//! * [`graph`]: board graphs ([`Graph`]) from spec strings (`grid:MxN`, `path:N`, `cycle:N`,
//!   `complete:N`, `star:N`, `edges:FILE`) or edge-list text, with validation.
//! * [`board`]: configurations ([`Board`], two vertex sets), chains, liberties, moves with
//!   captures ([`Board::play`]), area and pure scores, [`Zobrist`] keys.
//! * [`rules`]: rule variants ([`Rules`]: repetition, suicide, scoring, passes, komi; presets
//!   `seed`, `area`, `situational`, `simple-ko`, `suicide`) and a [`Game`] that enforces them.
//! * [`sgf`]: reading and writing SGF for grids.
//! * [`count`]: number of boards (legal positions): enumeration for any small graph and a
//!   border-state dynamic programme with big integers for grids.
//! * [`sequences`]: number of regular sequences (positional superko) from a board.
//! * [`solve`]: perfect-play values under the readings of rules/go_play.rule (area or
//!   stones-only scoring; positional or situational superko, or simple ko; suicide).
//! * [`symmetry`]: the automorphisms of a small graph, applied to boards.
//! * [`benson`]: Benson's unconditionally alive chains and the eyes they enclose.
//! * [`ultimate`]: the number of ultimate boards (seed 004).
//! * [`life`]: the outcome classes of seed 004.
//! * [`judge`]: a record judged along a rule set's axes (rules/go_rulesets.rule): its boards, the
//!   first play its ko and suicide rules forbid, the surrounded points with or without seki eyes.
//! * [`render`]: text diagrams and Graphviz output.
//!
//! Conventions of the seed: configuration values -1 black, 0 empty, 1 white; scores
//! `White - Black`. The solver reports values from Black's view (Black - White - komi).
//!
//! ```
//! use okite::go::count::count_boards;
//! use okite::go::graph::Graph;
//! use okite::go::life::{outcome_classes, sequence_from_moves, Table};
//!
//! // the boards (legal positions) of the 3 x 3 grid
//! let g = Graph::parse("grid:3x3").unwrap();
//! assert_eq!(count_boards(&g).unwrap().to_string(), "12675");
//!
//! // seed 004: one black chain on the path 1 - ... - 5 whose vertices get different classes
//! let p = Graph::parse("path:5").unwrap();
//! let seq = sequence_from_moves(&p, "B 1, B 3, B 4, B 5").unwrap();
//! let classes = outcome_classes(&p, &seq, Table::default()).unwrap();
//! let letters: String = classes.iter().map(|c| c.letter()).collect();
//! assert_eq!(letters, "WWWPP");
//! ```

#![forbid(unsafe_code)]

pub mod benson;
pub mod bitset;
pub mod board;
pub mod chains;
pub mod count;
pub mod error;
pub mod graph;
pub mod judge;
pub mod life;
pub mod render;
pub mod rules;
pub mod sequences;
pub mod sgf;
pub mod small;
pub mod solve;
pub mod symmetry;
pub mod ultimate;

#[cfg(test)]
mod proptests;

pub use bitset::{BitSet, MAX_VERTICES};
pub use board::{Board, Color, Illegal, Zobrist};
pub use error::{GoError, GoResult, Span};
pub use graph::Graph;
pub use rules::{Game, Move, Passes, Repetition, Rules, Scoring, Suicide};
