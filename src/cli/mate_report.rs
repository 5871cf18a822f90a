//! What `okite mate` prints of one search, whichever engine ran it (the standard df-pn search, a
//! hybrid engine's or the compiled variant engine's): one JSON object, or a line for people.

use super::args::MateArgs;
use crate::front::json_str;

/// What `okite mate` reports of one search, whichever engine ran it.
pub(super) struct MateReport {
    /// `mate`, `nomate` or `unknown`.
    pub result: &'static str,
    pub plies: u32,
    /// The mating line in the notation of the board searched.
    pub pv: Vec<String>,
    pub nodes: u64,
    pub ms: u64,
    pub shortest: bool,
    /// For a mate, no mate has fewer plies; 0 when no mate was found.
    pub lower_bound: u32,
}

impl From<&crate::shogi::dfpn::MateResult> for MateReport {
    fn from(r: &crate::shogi::dfpn::MateResult) -> Self {
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
        }
    }
}

/// One result of `okite mate`: a JSON object, or a line for people.
/// The answer of `okite mate` for one problem, as text or JSON; an unknown result names the
/// limit that stopped the search.
pub(super) fn print_mate(r: &MateReport, a: &MateArgs, engine_json: &str, any: bool) {
    let (json, max_plies) = (a.json, a.max_plies);
    if json {
        let pvs: Vec<String> = r.pv.iter().map(|m| json_str(m)).collect();
        outln!(
            "{{\"result\": \"{}\", \"plies\": {}, \"pv\": [{}], \"nodes\": {}, \"ms\": {}, \"shortest\": {}, \"lower_bound\": {}, \"engine\": {engine_json}}}",
            r.result,
            r.plies,
            pvs.join(", "),
            r.nodes,
            r.ms,
            r.shortest,
            r.lower_bound
        );
        return;
    }
    match r.result {
        "mate" => {
            let note = if r.shortest || any {
                String::new()
            } else {
                format!(
                    " (not proven shortest within the limits: no mate shorter than {} plies)",
                    r.lower_bound
                )
            };
            outln!("mate in {}{note}: {}", r.plies, r.pv.join(" "))
        }
        "nomate" if max_plies > 0 => {
            outln!("no mate in {max_plies} plies or fewer")
        }
        "nomate" => outln!("no mate"),
        _ => {
            let mut why = vec![];
            if a.time_ms > 0 && r.ms + 100 >= a.time_ms {
                why.push(format!(
                    "the time limit, --time-ms {} (--time-ms 0 searches without one)",
                    a.time_ms
                ));
            }
            if a.nodes > 0 && r.nodes >= a.nodes {
                why.push(format!("the node limit, --nodes {}", a.nodes));
            }
            if why.is_empty() {
                why.push(format!(
                    "the transposition table of --hash-mb {} or the memory bound",
                    a.hash_mb
                ));
            }
            outln!(
                "unknown (limits reached after {} nodes and {} ms: {})",
                r.nodes,
                r.ms,
                why.join("; ")
            )
        }
    }
}
