//! What `okite mate` prints of one search, whichever engine ran it (the standard df-pn search, a
//! hybrid engine's or the compiled variant engine's): one JSON object, or a line for people.

use super::args::MateArgs;
use crate::commands::report::MateReport;

/// The answer of `okite mate` for one problem, as text or JSON; an unknown result names the
/// limit that stopped the search.
pub(super) fn print_mate(r: &MateReport, a: &MateArgs, any: bool) {
    let (json, max_plies) = (a.json, a.max_plies);
    if json {
        outln!("{}", crate::json::text(r));
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
