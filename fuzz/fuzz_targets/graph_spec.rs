//! Graph specs (`grid:MxN`, `path:N`, ...) on arbitrary text; `edges:` would read files and
//! is left to the edge-list target.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.contains("edges") {
        return;
    }
    if let Ok(g) = okite::go::graph::Graph::parse(text) {
        assert!(g.n > 0);
    }
});
