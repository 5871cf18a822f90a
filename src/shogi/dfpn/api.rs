//! What callers of the mate search see: its options, its progress reports and its result.

use crate::shogi::readings::Reading;
use crate::shogi::types::Move;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Outcome of a mate search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateStatus {
    /// A forced mate was found.
    Mate,
    /// No forced mate exists (within the ply limit, if one was given).
    NoMate,
    /// The node or time limit was reached first, or the search was stopped.
    Unknown,
}

/// Which mate to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateLength {
    /// The shortest mate (strict length).
    Shortest,
    /// The first mate found.
    Any,
}

/// What a progress callback sees.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Nodes searched so far.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub ms: u64,
    /// The root's proof and disproof numbers.
    pub pn: u32,
    pub dn: u32,
    /// The best mate length found so far (0: none yet).
    pub plies: u32,
}

/// A function called about every 100,000 nodes.
pub type ProgressFn = Arc<dyn Fn(&Progress) + Send + Sync>;

/// Search options.
#[derive(Clone)]
pub struct MateOptions {
    /// Node limit (0: none).
    pub max_nodes: u64,
    /// Time limit in milliseconds (0: none).
    pub max_ms: u64,
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Shortest or any mate.
    pub length: MateLength,
    /// Longest mate looked for, in plies (0: no limit).
    pub max_plies: u32,
    /// The reading whose legality the search follows.
    pub reading: Reading,
    /// Set from another thread to stop the search (the result is then `Unknown`, or the mate
    /// found so far when its length is not yet proven shortest).
    pub stop: Option<Arc<AtomicBool>>,
    /// Called now and then with the state of the search.
    pub progress: Option<ProgressFn>,
}

impl std::fmt::Debug for MateOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MateOptions")
            .field("max_nodes", &self.max_nodes)
            .field("max_ms", &self.max_ms)
            .field("hash_mb", &self.hash_mb)
            .field("length", &self.length)
            .field("max_plies", &self.max_plies)
            .field("reading", &self.reading)
            .finish_non_exhaustive()
    }
}

impl Default for MateOptions {
    fn default() -> Self {
        MateOptions {
            max_nodes: 0,
            max_ms: 0,
            hash_mb: 64,
            length: MateLength::Shortest,
            max_plies: 0,
            reading: Reading::NARROW,
            stop: None,
            progress: None,
        }
    }
}

/// Result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MateResult {
    /// Mate, no mate or unknown.
    pub result: MateStatus,
    /// Length of the mate in plies (0 unless `result` is `Mate`).
    pub plies: u32,
    /// The mating line (attacker's moves and the defender's longest resistance).
    pub pv: Vec<Move>,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds spent.
    pub ms: u64,
    /// True when the length is known to be the shortest.
    pub shortest: bool,
    /// For a mate, a proved lower bound on its length: no mate has fewer plies. The length
    /// itself when `shortest`; otherwise the first length the disproved ply budgets leave open
    /// (1 when none was disproved). 0 when no mate was found.
    pub lower_bound: u32,
    /// The deepest path the search went down, in plies from the root.
    pub max_depth: u32,
}
