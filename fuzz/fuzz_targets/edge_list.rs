//! Edge-list files on arbitrary text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(g) = okite::go::graph::Graph::from_edge_list(text) {
        for (u, v) in g.edges() {
            assert!(u < g.n && v < g.n);
        }
    }
});
