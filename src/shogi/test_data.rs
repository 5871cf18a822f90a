//! The public positions of tests/data/shogi, as the unit tests read them (the sources of each
//! file are in that folder's README).

use super::position::Position;

/// The SFEN lines of the file `name` of tests/data/shogi, trimmed, blank lines left out.
pub(crate) fn sfens(name: &str) -> Vec<String> {
    let path = format!("{}/tests/data/shogi/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// The positions of those lines.
pub(crate) fn positions(name: &str) -> Vec<Position> {
    sfens(name)
        .iter()
        .map(|l| Position::from_sfen(l).unwrap_or_else(|e| panic!("{name}: {l}: {e:?}")))
        .collect()
}
