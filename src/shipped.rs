#![forbid(unsafe_code)]
//! The rule files okite ships, embedded in the binary.
//!
//! They are the default rule set of every command (so okite runs from any folder), and they are
//! the rule definitions the native engines were verified against: a native binding stands for the
//! shipped definitions it reaches, and is used for a loaded program only where the program's
//! definitions are the same (see `crate::bindings`).

/// The folder name under which the shipped files are shown (`rules/shogi.rule`, ...).
pub const FOLDER: &str = "rules";

/// Every shipped rule file: its name inside the folder and its text.
pub const FILES: &[(&str, &str)] = &[
    ("go.rule", include_str!("../rules/go.rule")),
    ("go_benson.rule", include_str!("../rules/go_benson.rule")),
    ("go_lemma.rule", include_str!("../rules/go_lemma.rule")),
    ("go_life.rule", include_str!("../rules/go_life.rule")),
    ("go_play.rule", include_str!("../rules/go_play.rule")),
    (
        "go_rulesets.rule",
        include_str!("../rules/go_rulesets.rule"),
    ),
    ("shogi.rule", include_str!("../rules/shogi.rule")),
    ("shogi_mate.rule", include_str!("../rules/shogi_mate.rule")),
    (
        "shogi_rulesets.rule",
        include_str!("../rules/shogi_rulesets.rule"),
    ),
    (
        "shogi_tsume.rule",
        include_str!("../rules/shogi_tsume.rule"),
    ),
    (
        "shogi_variant_drops.rule",
        include_str!("../rules/shogi_variant_drops.rule"),
    ),
];

/// The shipped board variants (`rules/variants/`): the common core and one reading a file. They
/// are not part of the default rule set (each variant is loaded on its own, by `--variant`).
pub const VARIANT_FILES: &[(&str, &str)] = &[
    (
        "variants/board.rule",
        include_str!("../rules/variants/board.rule"),
    ),
    (
        "variants/minishogi.rule",
        include_str!("../rules/variants/minishogi.rule"),
    ),
    (
        "variants/kyotoshogi.rule",
        include_str!("../rules/variants/kyotoshogi.rule"),
    ),
    (
        "variants/dobutsu.rule",
        include_str!("../rules/variants/dobutsu.rule"),
    ),
    (
        "variants/judkins.rule",
        include_str!("../rules/variants/judkins.rule"),
    ),
    (
        "variants/torishogi.rule",
        include_str!("../rules/variants/torishogi.rule"),
    ),
    (
        "variants/euroshogi.rule",
        include_str!("../rules/variants/euroshogi.rule"),
    ),
];

/// The shipped variants' names (each the reading of `variants/NAME.rule`).
pub fn variant_names() -> Vec<&'static str> {
    VARIANT_FILES
        .iter()
        .filter_map(|(n, _)| n.strip_prefix("variants/")?.strip_suffix(".rule"))
        .filter(|n| *n != "board")
        .collect()
}

/// The text of a shipped file by its name inside the folder (`shogi.rule`,
/// `variants/minishogi.rule`).
pub fn text(name: &str) -> Option<&'static str> {
    FILES
        .iter()
        .chain(VARIANT_FILES)
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t)
}

/// A hash of the shipped rule files (names and texts, FNV-1a): what [`facts`] were worked out
/// from. Computed once a process (about 0.1 ms).
pub fn texts_hash() -> u64 {
    static HASH: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *HASH.get_or_init(|| {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for (name, text) in FILES {
            for b in name.bytes().chain([0]).chain(text.bytes()).chain([0]) {
                h ^= b as u64;
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        }
        h
    })
}

/// Facts of the shipped rules known without checking them: generated from the checked program
/// by tests/suite/shipped_facts.rs, which fails when they are not what the program gives.
pub mod facts {
    include!("shipped_facts.rs");
}

/// Whether the facts were worked out from the texts built in.
fn facts_hold() -> bool {
    facts::TEXTS_HASH == texts_hash()
}

/// The shipped reading a native engine follows for `def` (`legal`, `mate_in`) under the
/// shipped reading `reading`, where the shipped program binds it natively there: known without
/// checking the shipped files, so that a command on the built-in rules starts at once. None
/// where it does not, where the reading is not one of them, or where the facts were worked out
/// from other texts than the ones built in (the command then checks them, as it would).
pub fn native_reading(def: &str, reading: &str) -> Option<&'static str> {
    if !facts_hold() {
        return None;
    }
    facts::NATIVE
        .iter()
        .find(|(d, r, _)| *d == def && *r == reading)
        .map(|(_, _, native)| *native)
}

/// The shipped reading the native replay of a game follows (legality with the history, fourfold
/// repetition, perpetual check: [`crate::commands::REPLAY_DEFS`]) under the shipped reading
/// `reading`, where the shipped program lets it answer there; None as for [`native_reading`].
pub fn replay_reading(reading: &str) -> Option<&'static str> {
    if !facts_hold() {
        return None;
    }
    facts::REPLAY
        .iter()
        .find(|(r, _)| *r == reading)
        .map(|(_, native)| *native)
}

/// The convention the tsume checker follows under the shipped reading `reading` (one of
/// [`crate::commands::TSUME_READINGS`]), where the shipped program lets it answer there: known
/// without checking the shipped files. None where it does not, or where the facts were worked
/// out from other texts than the ones built in.
pub fn tsume_convention(reading: &str) -> Option<&'static str> {
    if !facts_hold() {
        return None;
    }
    facts::TSUME
        .iter()
        .find(|(r, _)| *r == reading)
        .map(|(_, c)| *c)
}

/// What stands where `okite rules export` would write a shipped file.
#[derive(PartialEq)]
enum There {
    Nothing,
    /// The shipped text.
    Same,
    /// Other text (or a file that cannot be read): an edit, kept unless forced.
    Edited,
    /// A folder, a device, a FIFO: never written over, nor read.
    NotAFile,
}

fn there(p: &std::path::Path, text: &str) -> There {
    use crate::files::{read_regular, ReadError};
    if std::fs::symlink_metadata(p).is_err() {
        return There::Nothing;
    }
    match read_regular(p, text.len() as u64) {
        Ok(b) if b == text.as_bytes() => There::Same,
        Ok(_) | Err(ReadError::TooBig) | Err(ReadError::Io(_)) => There::Edited,
        Err(ReadError::NotRegular) => There::NotAFile,
    }
}

/// Write the shipped files into `dir` (created if missing) for editing; the paths written.
pub fn export(dir: &std::path::Path, force: bool) -> Result<Vec<std::path::PathBuf>, String> {
    let io = |e: std::io::Error| e.to_string();
    // a file already there whose text is not the shipped one was edited: it is kept unless
    // `force` says to overwrite it, and nothing is written then; what is no regular file (a
    // folder, a FIFO) is never written over
    let files: Vec<(std::path::PathBuf, &str, There)> = FILES
        .iter()
        .chain(VARIANT_FILES)
        .map(|(name, text)| {
            let p = dir.join(name);
            let t = there(&p, text);
            (p, *text, t)
        })
        .collect();
    let listed = |which: &There| -> Vec<String> {
        files
            .iter()
            .filter(|(_, _, t)| t == which)
            .map(|(p, _, _)| p.display().to_string())
            .collect()
    };
    let odd = listed(&There::NotAFile);
    if !odd.is_empty() {
        return Err(format!(
            "not a regular file, so not written over: {}",
            odd.join(", ")
        ));
    }
    let edited = listed(&There::Edited);
    if !force && !edited.is_empty() {
        return Err(format!(
            "{} file{} there differ{} from the shipped text and would be overwritten: {}",
            edited.len(),
            if edited.len() == 1 { "" } else { "s" },
            if edited.len() == 1 { "s" } else { "" },
            edited.join(", ")
        ));
    }
    std::fs::create_dir_all(dir).map_err(io)?;
    std::fs::create_dir_all(dir.join("variants")).map_err(io)?;
    let mut out = vec![];
    for (p, text, t) in files {
        if t != There::Same {
            crate::files::write_regular(&p, text.as_bytes())
                .map_err(|e| format!("{}: {e}", p.display()))?;
        }
        out.push(p);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    /// Every `.rule` file of the repository's `rules/` folder is embedded, with the same text.
    #[test]
    fn every_rule_file_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rules");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".rule"))
            .collect();
        on_disk.sort();
        let embedded: Vec<String> = super::FILES.iter().map(|(n, _)| n.to_string()).collect();
        assert_eq!(
            on_disk, embedded,
            "rules/ and src/shipped.rs list different files"
        );
        for (n, t) in super::FILES {
            assert_eq!(std::fs::read_to_string(dir.join(n)).unwrap(), *t, "{n}");
        }
        let mut variants: Vec<String> = std::fs::read_dir(dir.join("variants"))
            .unwrap()
            .filter_map(|e| e.ok())
            .map(|e| format!("variants/{}", e.file_name().to_string_lossy()))
            .filter(|n| n.ends_with(".rule"))
            .collect();
        variants.sort();
        let mut embedded: Vec<String> = super::VARIANT_FILES
            .iter()
            .map(|(n, _)| n.to_string())
            .collect();
        embedded.sort();
        assert_eq!(
            variants, embedded,
            "rules/variants/ and VARIANT_FILES differ"
        );
        for (n, t) in super::VARIANT_FILES {
            assert_eq!(std::fs::read_to_string(dir.join(n)).unwrap(), *t, "{n}");
        }
    }
}
