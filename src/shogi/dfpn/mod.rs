//! Mate search (詰将棋) by df-pn+: depth-first proof-number search with heuristic initial
//! values, for mates of any length.
//!
//! Conventions. The attacker is the side to move at the root (either colour; when it is in check
//! it must evade and check at once). Every attacker move gives check; the defender tries every
//! legal move, futile interpositions (無駄合) included, so lengths are strict. Legality follows the
//! reading in force (rules/shogi_mate.rule): a pawn drop that mates is illegal (with or without
//! check, as the reading says), and under the broad reading a move that completes a fourfold
//! repetition by perpetual check is illegal, with the game's history before the root counted.
//!
//! The search:
//! - **Transposition table** keyed by the board and side (hands removed), a bucket of entries
//!   per key; the hands are stored beside as bounds. A proof holds for any position with the same
//!   board where the attacker holds at least its *proof hand* and the defender at most its
//!   bound; a disproof the other way round (its *disproof hand*). Proof and disproof hands are
//!   computed as small as possible (large for disproofs) while the proof is built, so one entry
//!   serves many hands (優等局面).
//! - **Leaf tests**: a new child after a check that leaves no evasion is a mate; a new child
//!   after an evasion is first tried with the mate-in-one routine, in order, until one such
//!   child is unresolved: the defences after it wait for their own search (most positions after a
//!   check are given up before all their defences are searched, and the mate in one is the larger
//!   part of the cost of a new child).
//! - **Initial values** (df-pn+): a check is as hard to prove as the defender has evasions.
//! - **Delayed moves**: interpositions by drops on one square are expanded one kind after the
//!   other, and the non-promoting form of a pawn, lance, bishop or rook move after the promoting
//!   form, so that near-identical moves do not inflate the proof numbers.
//! - **Thresholds** with the 1+ε rule, so that the search does not flip between two children.
//! - **Ties**: of two children with the same number, the one with less work below it so far is
//!   searched first (the work is kept in the table with unresolved entries); a check that is new
//!   counts its defences as its work, so that of two checks whose capped proof numbers are equal
//!   the one with fewer defences goes first.
//! - **Repetition** (the graph-history problem): a position repeating one on the current path is a
//!   failure for the attacker there. A disproof that depends on such a repetition is kept only for
//!   that path (a table keyed by the path), never in the transposition table. Under the narrow
//!   readings the game does not depend on its history, so this is exact; under the broad reading
//!   results that looked at the history are kept for their path only, and the table is read only
//!   while no position has occurred twice.
//! - **Threads**: several threads may search each budget at once from the root on the one table
//!   (its size the same), spread out by virtual proof numbers; the first to resolve the root ends
//!   the others' search (see `parallel`).
//! - **Lengths**: every proof carries its length; a search may be limited to a ply budget, and a
//!   disproof records the largest budget it holds for. After the first proof the mate is
//!   shortened (`shorten`): along its main line, at the root with a budget two plies under the
//!   best length, and from below with the smallest budget not yet disproved, in node slices that
//!   share the table; the shortest line proved so far is kept, so that a search stopped at any
//!   time returns it with the lower bound its disproofs prove.
//!
//! The parts: `api` holds what callers see (options, progress, the result); `hand` the
//! packed hands and their order; `val` the value of a node; `table` the transposition table;
//! `path` the positions on the current path and the game's history; `search` the df-pn+
//! search itself; `line` the reading of the mating line and its length off the proof;
//! `shorten` the search for shorter mates after the first; `solver` the solver that keeps its
//! table across problems; `parallel` the threads that search one problem together on the shared
//! table, and `team` what each of them knows of the others.

mod api;
mod hand;
mod line;
mod parallel;
mod path;
mod search;
mod shorten;
mod solver;
mod table;
mod team;
mod val;

pub use api::{MateLength, MateOptions, MateResult, MateStatus, Progress, ProgressFn};
pub use parallel::MAX_THREADS;
pub use solver::{lower_bound, solve, solve_history, with_stack, MateSolver};

#[cfg(test)]
mod tests;
