#![forbid(unsafe_code)]
//! What `okite tsume` reports of a composed problem: its main line, and each composer's
//! convention's verdict.

use serde::Serialize;

/// `okite tsume --json`.
#[derive(Clone, Debug, Serialize)]
pub struct TsumeReport {
    /// The problem's position.
    pub sfen: String,
    /// The main line examined.
    pub main_line: Vec<String>,
    /// Its plies.
    pub plies: usize,
    /// `given` (`--solution`) or `searched`.
    pub solution: &'static str,
    /// The pieces left in the attacker's hand at the end.
    pub leftover: Vec<String>,
    /// The futile interpositions along the line (`null`: not settled within the limits).
    pub futile_interpositions: Futile,
    /// The alternatives of every convention, by ply and by the conventions that find them.
    pub alternatives: Vec<Alternative>,
    /// Each convention's verdict.
    pub verdicts: Vec<TsumeVerdict>,
    /// The nodes searched.
    pub nodes: u64,
    /// The milliseconds taken.
    pub ms: u64,
}

/// The futile interpositions along a line, or why they are not settled (within the limits of
/// the search): serialised as the list, or `null` and no reason.
#[derive(Clone, Debug)]
pub enum Futile {
    /// Settled: the plies where the defender has futile interpositions, with them.
    Settled(Vec<AtPly>),
    /// Not settled, and why.
    Unsettled(String),
}

impl Serialize for Futile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Futile::Settled(at) => at.serialize(s),
            Futile::Unsettled(_) => s.serialize_none(),
        }
    }
}

/// Moves at one ply of a line.
#[derive(Clone, Debug, Serialize)]
pub struct AtPly {
    /// The ply, from 1.
    pub ply: u32,
    /// The moves.
    pub moves: Vec<String>,
}

/// Alternative mates at one ply, and the conventions that count them.
#[derive(Clone, Debug, Serialize)]
pub struct Alternative {
    /// The ply, from 1.
    pub ply: u32,
    /// The alternative moves.
    pub moves: Vec<String>,
    /// Whether they are alternatives to the last move.
    pub last_move: bool,
    /// The conventions that find them.
    pub conventions: Vec<String>,
}

/// One convention's verdict.
#[derive(Clone, Debug, Serialize)]
pub struct TsumeVerdict {
    /// The convention's name.
    pub convention: String,
    /// Whether the problem is sound under it (`null`: not settled).
    pub sound: Option<bool>,
    /// Why it is not sound.
    pub reasons: Vec<String>,
    /// The convention's own main line, where it differs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub main_line: Option<Vec<String>>,
    /// The plies of that line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plies: Option<usize>,
    /// The shortest mate's plies (`null`: not found).
    pub shortest: Option<u32>,
    /// Alternative moves of the attacker.
    pub alternatives: Vec<AtPly>,
    /// Moves of the defender that lead to mates of equal length.
    pub equal_length: Vec<AtPly>,
    /// Choices between promoting and not.
    pub promotion_choices: Vec<AtPly>,
    /// Variations examined.
    pub variations: Vec<Variation>,
    /// Whether the convention counts other mates in variations as flaws to tell (the text's).
    #[serde(skip)]
    pub variation_alternatives: bool,
}

/// A variation: the defender's other move at a ply, its line and its alternatives.
#[derive(Clone, Debug, Serialize)]
pub struct Variation {
    /// The ply, from 1.
    pub ply: u32,
    /// The variation's line.
    pub line: Vec<String>,
    /// Its alternatives.
    pub alternatives: Vec<AtPly>,
}
