#![forbid(unsafe_code)]
//! What a shogi command was asked to play: a board variant (`--variant NAME`, or `--rules` files
//! that state the variant tables) or the standard game, and a variant's position read from the
//! command line. The commands under a variant (`variant`), the query commands and `mate` read
//! it from here.

use super::common::{load_or_report, Printer};
use crate::check::Program;
use crate::commands::Notice;
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::shogi::variant::{DropMate, VPos};
use crate::variants::{self, LoadedVariant};
use std::path::PathBuf;

/// What a shogi command was asked to play.
pub(super) enum Asked {
    /// A board variant: the engine compiled from its tables answers.
    Board(LoadedVariant),
    /// Shogi under the `--rules` files, loaded once here; `None` when none were given (the
    /// command loads the shipped rules where it needs them).
    Shogi(Option<Program>),
}

/// The program of the standard path: the one [`requested`] loaded, or the shipped rules.
pub(super) fn shogi_program(p: Option<Program>, printer: &Printer) -> Result<Program, i32> {
    match p {
        Some(p) => Ok(p),
        None => load_or_report(&[], printer).map(|(p, _)| p),
    }
}

/// The shipped variant `--variant NAME` names (with no `--rules` beside it).
pub(super) fn named_variant(
    name: &str,
    rules: &[PathBuf],
    printer: &Printer,
) -> Result<LoadedVariant, i32> {
    if !rules.is_empty() {
        return Err(printer.fail(
            Diag::error(
                variants::BAD_VARIANT,
                "give `--variant` or `--rules`, not both",
            )
            .help("`--variant NAME` loads rules/variants/NAME.rule; `--rules FILE` a variant of your own"),
        ));
    }
    variants::shipped(name).map_err(|(src, ds)| printer.fail_all(&ds, &src))
}

/// The variant a command was asked to play: `--variant NAME`, or `--rules` files whose program
/// states the variant tables; otherwise the rules loaded, for the standard commands.
pub(super) fn requested(
    variant: Option<&str>,
    rules: &[PathBuf],
    reading: Option<&str>,
    printer: &Printer,
) -> Result<Asked, i32> {
    if let Some(name) = variant {
        return named_variant(name, rules, printer).map(Asked::Board);
    }
    if rules.is_empty() {
        return Ok(Asked::Shogi(None));
    }
    let (prog, files) = load_or_report(rules, printer)?;
    if !variants::states_tables(&prog) {
        return Ok(Asked::Shogi(Some(prog)));
    }
    let reading = match reading {
        Some(r) => Some(r.to_string()),
        None => match readings_of(&prog)[..] {
            [] => None,
            [ref one] => Some(one.clone()),
            ref several => {
                return Err(printer.fail(
                    Diag::error(
                        variants::BAD_VARIANT,
                        format!(
                            "the rules loaded state {} variants; which one?",
                            several.len()
                        ),
                    )
                    .help(format!("name one with `--reading`: {}", several.join(", "))),
                ))
            }
        },
    };
    variants::from_program(prog, reading.as_deref(), files)
        .map(Asked::Board)
        .map_err(|(src, ds)| printer.fail_all(&ds, &src))
}

/// The readings a program declares besides base.
fn readings_of(prog: &crate::check::Program) -> Vec<String> {
    prog.readings
        .iter()
        .map(|r| r.name.clone())
        .filter(|n| n != "base")
        .collect()
}

/// What a command with a board variant's options (`--variant`, `--drop-mate`) plays: a board
/// variant under the drop-mate convention asked for, or shogi under the rules loaded.
pub(super) enum Play {
    Board(LoadedVariant, DropMate),
    Shogi(Option<Program>),
}

/// [`requested`], with the drop-mate convention of a board variant read.
pub(super) fn request(
    opts: &super::args::BoardVariantOpts,
    rules: &[PathBuf],
    reading: Option<&str>,
    printer: &Printer,
) -> Result<Play, i32> {
    match requested(opts.variant.as_deref(), rules, reading, printer)? {
        Asked::Board(v) => Ok(Play::Board(
            v,
            drop_mate(opts.drop_mate.as_deref(), printer)?,
        )),
        Asked::Shogi(p) => Ok(Play::Shogi(p)),
    }
}

/// The drop-mate convention asked for.
pub(super) fn drop_mate(opt: Option<&str>, printer: &Printer) -> Result<DropMate, i32> {
    match opt {
        None | Some("illegal") => Ok(DropMate::Illegal),
        Some("loses") => Ok(DropMate::Loses),
        Some(other) => Err(printer.fail(
            Diag::error(code::BAD_OPTION, format!("`--drop-mate {other}` is no convention"))
                .help("write `--drop-mate illegal` (the seeds' rule) or `--drop-mate loses` (Fairy-Stockfish's perft convention)"),
        )),
    }
}

/// The position of `--sfen` and `--moves` in the variant.
pub(super) fn position(
    v: &LoadedVariant,
    sfen: &str,
    moves: &str,
    dm: DropMate,
    printer: &Printer,
) -> Result<VPos, i32> {
    read_position(v, sfen, moves, dm).map_err(|d| printer.fail(d))
}

/// The position of an SFEN and moves in the variant, or why it does not read.
pub(super) fn read_position(
    v: &LoadedVariant,
    sfen: &str,
    moves: &str,
    dm: DropMate,
) -> Result<VPos, Diag> {
    let mut p = v.variant.position(sfen).map_err(|e| {
        Diag::error(
            code::BAD_SFEN,
            format!("{} ({})", e.message, v.variant.name()),
        )
        .help(e.help.clone())
    })?;
    for (i, m) in moves.split_whitespace().enumerate() {
        let mv = p.parse_move(m, dm).map_err(|e| bad_move(i, m, &e))?;
        p.do_move(mv);
    }
    Ok(p)
}

/// The `i`-th move given (from 0), `m`, that does not read or is not legal: E0402.
pub(super) fn bad_move(i: usize, m: &str, e: &crate::shogi::sfen::ParseError) -> Diag {
    Diag::error(
        code::BAD_MOVE,
        format!("move {} `{m}`: {}", i + 1, e.message),
    )
    .help(e.help.clone())
}

/// The position of a command, then the notice of the engine that answers.
pub(super) fn start(
    v: &LoadedVariant,
    sfen: &str,
    moves: &str,
    dm: DropMate,
    printer: &Printer,
) -> Result<VPos, i32> {
    let p = position(v, sfen, moves, dm, printer)?;
    announce(v);
    Ok(p)
}

/// Who answers under a board variant: the engine compiled from its tables, with the rules and
/// the reading it was compiled from (the notice's line).
pub(super) fn compiled_notice(v: &LoadedVariant) -> Notice {
    let files: Vec<String> = v
        .files
        .iter()
        .map(|f| f.display().to_string())
        .filter(|f| !f.ends_with("board.rule") || v.files.len() == 1)
        .collect();
    let line = format!(
        "okite: {} ({}, reading {}): the engine compiled from its tables",
        v.variant.name(),
        files.join(", "),
        v.reading_name
    );
    Notice::compiled(&v.reading_name, v.variant.name(), line)
}

/// The notice on standard error: which rules, which engine.
pub(super) fn announce(v: &LoadedVariant) {
    errln!("{}", compiled_notice(v).line());
}

/// `s` bound to the position of an SFEN and moves in the variant, as the core's `State`.
pub(super) fn bound_state(
    v: &LoadedVariant,
    sfen: &str,
    moves: &str,
    printer: &Printer,
) -> Result<Vec<(String, crate::ir::Value, String)>, i32> {
    let p = start(v, sfen, moves, DropMate::Illegal, printer)?;
    let s = variants::state_value(&v.program, &p).map_err(|d| printer.fail(d))?;
    Ok(vec![("s".to_string(), s, "State".to_string())])
}
