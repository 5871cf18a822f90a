#![forbid(unsafe_code)]
//! `okite codes`: the catalogue of diagnostic codes, listed or one entry at a time.

use crate::diagnostics::catalogue::{lookup, nearest, CODES};
use crate::diagnostics::code;
use crate::diagnostics::{render, suggest, Diag, SourceMap};
use crate::syntax::ast::Span;
use std::io::Write;

/// `okite codes [CODE] [--json]`: the list, or one entry (by code or name). An unknown code is a
/// diagnostic rendered at `width` (in colour if `color`) and exit status 2.
pub fn command(key: Option<&str>, json: bool, width: usize, color: bool) -> i32 {
    // a closed pipe (`okite codes | head`) ends the output quietly
    let mut out = std::io::stdout().lock();
    match key {
        None if json => {
            let all: Vec<String> = CODES.iter().map(|c| c.json()).collect();
            let _ = writeln!(out, "[{}]", all.join(",\n "));
            0
        }
        None => {
            for c in CODES {
                if writeln!(out, "{}", c.line()).is_err() {
                    break;
                }
            }
            0
        }
        Some(k) => match lookup(k) {
            Some(c) if json => {
                let _ = writeln!(out, "{}", c.json());
                0
            }
            Some(c) => {
                let _ = write!(out, "{}", c.text());
                0
            }
            None => {
                let (sources, d) = unknown(k);
                err!("{}", render(&[d], &sources, width, color));
                2
            }
        },
    }
}

/// The diagnostic for an unknown code: a close code or name, or else the nearest codes.
pub fn unknown(key: &str) -> (SourceMap, Diag) {
    let mut sources = SourceMap::default();
    let id = sources.add("<code>", None, key.to_string());
    let names: Vec<&str> = CODES.iter().flat_map(|c| [c.code, c.name]).collect();
    let help = match suggest(key, names) {
        Some(s) => format!("did you mean `{s}`? `okite codes` lists every code"),
        None => format!(
            "the nearest codes are {}; `okite codes` lists every code",
            nearest(key, 3)
                .iter()
                .map(|c| format!("{} ({})", c.code, c.name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let d = Diag::error(
        code::UNKNOWN_CODE,
        format!("there is no diagnostic code `{key}`"),
    )
    .label(Span::new(id, 0, key.len().max(1)), "unknown code")
    .help(help);
    (sources, d)
}
