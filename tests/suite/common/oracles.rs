//! Data from public repositories that the tests check against: it is not part of the project and
//! is read from `../shared/shogi-oracles/` beside the project's root (its README lists each
//! file and its source), where CI has it. Where it is absent (a clone elsewhere) a test that
//! needs a file says which one, and where it would be, and returns; every other test still runs.
//! `OKITE_ORACLES` names another folder.
//!
//! The unit tests of `src/` include this same file (`#[path]`), so that there is one helper.
#![allow(dead_code)]

use std::path::PathBuf;

/// The folders of the data, by file name.
const PLACES: &[(&str, &str)] = &[
    ("perft-published.tsv", "perft"),
    ("nshogi-legal-move-examples.txt", "movegen"),
    ("nshogi-legal-check-examples.txt", "movegen"),
    ("nshogi-errata-uchifuzume.tsv", "movegen"),
    ("mate-1-ply.sfen", "tsume/nshogi"),
    ("no-mate-1-ply.sfen", "tsume/nshogi"),
    ("mate-3-ply.sfen", "tsume/nshogi"),
    ("mate-5-ply.sfen", "tsume/nshogi"),
    ("mate-7-ply.sfen", "tsume/nshogi"),
    ("mate-9-ply.sfen", "tsume/nshogi"),
    ("mate-11-ply.sfen", "tsume/nshogi"),
    ("curated.tsv", "tsume/curated"),
    ("microcosmos-1525.usi", "tsume/curated"),
    ("long-mates.tsv", "tsume/long"),
];

/// The folder of the data: `OKITE_ORACLES`, or `../shared/shogi-oracles` from the project.
pub fn oracles_dir() -> PathBuf {
    match std::env::var_os("OKITE_ORACLES") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../shared/shogi-oracles"
        )),
    }
}

/// The path of an oracle file by its name (`mate-5-ply.sfen`), or `None` after one line that
/// says which data is missing and where it would be.
pub fn oracle(name: &str) -> Option<PathBuf> {
    let sub = PLACES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .unwrap_or_else(|| panic!("no oracle file is called {name}"));
    let path = oracles_dir().join(sub).join(name);
    if path.is_file() {
        Some(path)
    } else {
        skipped(&path);
        None
    }
}

/// The text of an oracle file, or `None` as [`oracle`] says.
pub fn oracle_text(name: &str) -> Option<String> {
    let p = oracle(name)?;
    Some(std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
}

/// Is every oracle file there? Where one is not, says which (one line) and answers false: a
/// test that reads the data starts with `if !present() { return; }`.
pub fn present() -> bool {
    let dir = oracles_dir();
    match PLACES.iter().find(|(n, s)| !dir.join(s).join(n).is_file()) {
        None => true,
        Some((n, s)) => {
            skipped(&dir.join(s).join(n));
            false
        }
    }
}

/// The path of an oracle file that [`present`] found.
pub fn path(name: &str) -> PathBuf {
    let sub = PLACES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .unwrap_or_else(|| panic!("no oracle file is called {name}"));
    oracles_dir().join(sub).join(name)
}

/// One line on standard error, written past the test harness's capture (which takes only the
/// print macros), so that a run without the data shows which tests it skipped.
fn skipped(path: &std::path::Path) {
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "skipped: a test needs {} (the public test data, not in this clone)",
        path.display()
    );
}
