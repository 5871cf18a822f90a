#![forbid(unsafe_code)]
//! What `okite mate` reports of one search, whichever engine ran it (the standard df-pn search,
//! a hybrid engine's or the compiled variant engine's).

use crate::commands::Notice;
use serde::Serialize;

/// `okite mate --json`, one object a problem.
#[derive(Clone, Debug, Serialize)]
pub struct MateReport {
    /// `mate`, `nomate` or `unknown`.
    pub result: &'static str,
    /// The plies of the mate found (0 without one).
    pub plies: u32,
    /// The mating line in the notation of the board searched.
    pub pv: Vec<String>,
    /// The nodes searched.
    pub nodes: u64,
    /// The milliseconds the search took.
    pub ms: u64,
    /// Whether the mate is proven shortest.
    pub shortest: bool,
    /// For a mate, no mate has fewer plies; 0 when no mate was found.
    pub lower_bound: u32,
    /// Who searched.
    pub engine: Notice,
}

impl MateReport {
    /// The report of the standard or the hybrid df-pn search's result.
    pub fn of(r: &crate::shogi::dfpn::MateResult, engine: &Notice) -> MateReport {
        use crate::shogi::dfpn::MateStatus;
        MateReport {
            result: match r.result {
                MateStatus::Mate => "mate",
                MateStatus::NoMate => "nomate",
                MateStatus::Unknown => "unknown",
            },
            plies: r.plies,
            pv: r.pv.iter().map(|m| m.to_usi()).collect(),
            nodes: r.nodes,
            ms: r.ms,
            shortest: r.shortest,
            lower_bound: r.lower_bound,
            engine: engine.clone(),
        }
    }
}
