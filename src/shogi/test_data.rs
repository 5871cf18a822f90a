//! The public positions the unit tests check against, read from `../shared/shogi-oracles/`
//! through the tests' one helper (tests/suite/common/oracles.rs, included here). A test that reads
//! them starts with `if !present() { return; }`: where the data is absent it says which file it
//! lacks and returns.

use super::position::Position;

#[path = "../../tests/suite/common/oracles.rs"]
mod oracles;
pub(crate) use oracles::{path, present};

/// The text of the oracle file `name` (after [`present`]).
pub(crate) fn text(name: &str) -> String {
    let p = path(name);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The SFEN lines of the oracle file `name`, trimmed, blank lines left out.
pub(crate) fn sfens(name: &str) -> Vec<String> {
    text(name)
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
