//! The shogi commands under a board variant: `--variant NAME` (a shipped variant) or `--rules`
//! files that state the variant tables. The engine compiled from the tables answers.

use super::common::Printer;
use crate::diagnostics::Diag;
use crate::front::load_rules;
use crate::json::string as json_str;
use crate::shogi::variant::{DropMate, VMove, VPos};
use crate::variants::{self, LoadedVariant};
use std::path::PathBuf;

/// The variant a command was asked to play, if any: `--variant NAME`, or `--rules` files whose
/// program states the variant tables. `Ok(None)`: no variant (the standard commands answer).
pub(super) fn requested(
    variant: Option<&str>,
    rules: &[PathBuf],
    reading: Option<&str>,
    printer: &Printer,
) -> Result<Option<LoadedVariant>, i32> {
    if let Some(name) = variant {
        if !rules.is_empty() {
            return Err(printer.fail(
                Diag::error(
                    variants::BAD_VARIANT,
                    "give `--variant` or `--rules`, not both",
                )
                .help("`--variant NAME` loads rules/variants/NAME.rule; `--rules FILE` a variant of your own"),
            ));
        }
        return variants::shipped(name)
            .map(Some)
            .map_err(|(src, ds)| printer.fail_all(&ds, &src));
    }
    if rules.is_empty() {
        return Ok(None);
    }
    let (prog, files) = match load_rules(rules) {
        Ok(x) => x,
        // the standard path loads them again and reports the same diagnostics
        Err(_) => return Ok(None),
    };
    if !variants::states_tables(&prog) {
        return Ok(None);
    }
    let reading = reading.map(str::to_string).or_else(|| sole_reading(&prog));
    variants::from_program(prog, reading.as_deref(), files)
        .map(Some)
        .map_err(|(src, ds)| printer.fail_all(&ds, &src))
}

/// The one reading a program declares besides base, if it declares exactly one.
fn sole_reading(prog: &crate::check::Program) -> Option<String> {
    let names: Vec<&str> = prog
        .readings
        .iter()
        .map(|r| r.name.as_str())
        .filter(|n| *n != "base")
        .collect();
    match names[..] {
        [one] => Some(one.to_string()),
        _ => None,
    }
}

/// The drop-mate convention asked for.
pub(super) fn drop_mate(opt: Option<&str>, printer: &Printer) -> Result<DropMate, i32> {
    match opt {
        None | Some("illegal") => Ok(DropMate::Illegal),
        Some("loses") => Ok(DropMate::Loses),
        Some(other) => Err(printer.fail(
            Diag::error("E0602", format!("`--drop-mate {other}` is no convention"))
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
    let mut p = v.variant.position(sfen).map_err(|e| {
        printer.fail(
            Diag::error("E0401", format!("{} ({})", e.message, v.variant.name()))
                .help(e.help.clone()),
        )
    })?;
    for (i, m) in moves.split_whitespace().enumerate() {
        let mv = p.parse_move(m, dm).map_err(|e| {
            printer.fail(
                Diag::error("E0402", format!("move {} `{m}`: {}", i + 1, e.message))
                    .help(e.help.clone()),
            )
        })?;
        p.do_move(mv);
    }
    Ok(p)
}

/// The engine as JSON, in the shape of the standard commands' `engine` field.
pub(super) fn engine_json(v: &LoadedVariant) -> String {
    format!(
        "{{\"definition\": \"moves\", \"reading\": {}, \"native\": true, \"engine\": \"the compiled variant engine\", \"as\": {}, \"variant\": {}}}",
        json_str(&v.reading_name),
        json_str(&v.reading_name),
        json_str(v.variant.name())
    )
}

/// The notice on standard error: which rules, which engine.
pub(super) fn announce(v: &LoadedVariant) {
    let files: Vec<String> = v
        .files
        .iter()
        .map(|f| f.display().to_string())
        .filter(|f| !f.ends_with("board.rule"))
        .collect();
    eprintln!(
        "okite: {} ({}, reading {}): the engine compiled from its tables",
        v.variant.name(),
        files.join(", "),
        v.reading_name
    );
}

/// `okite perft` under a variant.
#[allow(clippy::too_many_arguments)]
pub(super) fn perft(
    v: LoadedVariant,
    sfen: &str,
    moves: &str,
    depth: u32,
    divide: bool,
    dm: DropMate,
    json: bool,
    printer: &Printer,
) -> i32 {
    let mut p = match position(&v, sfen, moves, dm, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    announce(&v);
    let n = if divide {
        let rows = p.perft_divide(depth, dm);
        let mut total = 0;
        for (m, n) in &rows {
            if !json {
                println!("{}: {n}", p.move_text(*m));
            }
            total += n;
        }
        total
    } else {
        p.perft(depth, dm)
    };
    if json {
        println!("{{\"count\": {n}, \"engine\": {}}}", engine_json(&v));
    } else {
        println!("{n}");
    }
    0
}

/// `okite legal` under a variant.
pub(super) fn legal(
    v: LoadedVariant,
    sfen: &str,
    moves: &str,
    dm: DropMate,
    json: bool,
    printer: &Printer,
) -> i32 {
    let mut p = match position(&v, sfen, moves, dm, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    announce(&v);
    let ms: Vec<String> = p
        .legal_moves(dm)
        .into_iter()
        .map(|m: VMove| p.move_text(m))
        .collect();
    if json {
        let list: Vec<String> = ms.iter().map(|m| json_str(m)).collect();
        println!(
            "{{\"moves\": [{}], \"engine\": {}}}",
            list.join(", "),
            engine_json(&v)
        );
    } else {
        println!("{}", ms.join(" "));
        let n = ms.len();
        eprintln!("{n} legal move{}", if n == 1 { "" } else { "s" });
    }
    0
}

/// `okite show` under a variant.
pub(super) fn show(
    v: LoadedVariant,
    sfen: &str,
    moves: &str,
    json: bool,
    printer: &Printer,
) -> i32 {
    let p = match position(&v, sfen, moves, DropMate::Illegal, printer) {
        Ok(p) => p,
        Err(c) => return c,
    };
    if json {
        println!(
            "{{\"sfen\": {}, \"turn\": \"{}\", \"in_check\": {}, \"ply\": {}, \"variant\": {}}}",
            json_str(&p.to_sfen()),
            if p.side == 0 { "b" } else { "w" },
            p.in_check(p.side),
            moves.split_whitespace().count(),
            json_str(v.variant.name())
        );
    } else {
        print!("{}", p.diagram());
        println!("{}", p.to_sfen());
    }
    0
}
