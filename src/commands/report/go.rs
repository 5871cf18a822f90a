#![forbid(unsafe_code)]
//! What the Go commands report: counts, a solved value, the outcome classes of the vertices,
//! the score of a sequence and a position.

use crate::commands::Notice;
use serde::Serialize;
use serde_json::value::RawValue;

/// `okite go count --json` (and the other counting commands): the count and who counted.
#[derive(Clone, Debug, Serialize)]
pub struct GoCount {
    /// The count, an integer of any size.
    pub count: Box<RawValue>,
    /// Who answered.
    pub engine: Notice,
}

/// `okite go solve --json`: the value with perfect play, and the line that shows it.
#[derive(Clone, Debug, Serialize)]
pub struct Solved {
    /// Black minus White minus komi, in points.
    pub value: Box<RawValue>,
    /// A principal variation (`Black a1`, `White pass`, ...); empty where the rules answered.
    pub pv: Vec<String>,
    /// The nodes searched (the native solver).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// The seconds the search took (the native solver), to the millisecond.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seconds: Option<Box<RawValue>>,
    /// Who answered.
    pub engine: Notice,
}

/// `okite go classes --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Classes {
    /// Each vertex's class letter (`null`: not asked, or not found within the bounds).
    pub classes: Vec<Option<String>>,
    /// The vertices `--vertex-nodes` left unfinished (present only when it left some).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unfinished: Vec<String>,
    /// The questions the proof-number search answered (present only where it answered some).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<ClassAnswer>,
    /// Who answered.
    pub engine: Notice,
}

/// Whether the colour moving first gets a vertex, and by which move.
#[derive(Clone, Debug, Serialize)]
pub struct ClassAnswer {
    /// The vertex asked about.
    pub vertex: String,
    /// The colour that moves first (`Black`, `White`).
    pub colour: String,
    /// Whether it gets the vertex.
    pub gets: bool,
    /// The move that gets it (`null`: none, or not getting it).
    pub by: Option<String>,
    /// The sequences searched.
    pub sequences: u64,
}

/// `okite go score --json`: the scores and winners of seed 002 for a sequence.
#[derive(Clone, Debug, Serialize)]
pub struct Score {
    /// The pure Go score, White minus Black.
    pub pure: i64,
    /// The Chinese score (`null`: the sequence is not Chinese-terminable).
    pub chinese: Option<i64>,
    /// Whether the sequence is Chinese-terminable.
    pub terminable: bool,
    /// The komi given to White.
    pub komi: Box<RawValue>,
    /// The seed's h: White wins when the score is at least h.
    pub h: Box<RawValue>,
    /// The winners.
    pub winner: Winners,
}

/// The winners by each score.
#[derive(Clone, Debug, Serialize)]
pub struct Winners {
    /// By the pure Go score.
    pub pure: &'static str,
    /// By the Chinese score (`null`: not defined).
    pub chinese: Option<&'static str>,
}

/// `okite go show --json`: a position on its graph.
#[derive(Clone, Debug, Serialize)]
pub struct GoBoard {
    /// The graph's spec.
    pub graph: String,
    /// A character per vertex: `X` black, `O` white, `.` empty.
    pub board: String,
    /// Each vertex.
    pub vertices: Vec<GoVertex>,
}

/// A vertex of a position.
#[derive(Clone, Debug, Serialize)]
pub struct GoVertex {
    /// Its name.
    pub name: String,
    /// Its stone, `B` or `W` (`null`: empty).
    pub stone: Option<&'static str>,
    /// Its SGF point, on grids of at most 26 x 26.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sgf: Option<String>,
    /// Its neighbours' names.
    pub neighbours: Vec<String>,
}
