#![forbid(unsafe_code)]
//! The bridge between rule definitions and native Rust functions.
//!
//! A rule file names a native function by path: `native def turn(s: State) -> Turn = shogi.turn`
//! declares a primitive with no rule body; `native succ = shogi.successors` binds a definition
//! that has a rule body to a fast path. The rule body stays the reference: every command takes
//! `--engine native` (use the native where one is bound; the default), `--engine rules` (ignore
//! bindings) or `--verify` (run both and report any difference with its witness).
//!
//! This module sits below the checker and the evaluator: it knows values (`crate::ir`) and the
//! engines, and asks the rules only for their enum constants (through [`Enums`]).

pub mod core;
pub mod go;
mod registry;
pub mod shogi;

use crate::ir::Value;
pub use registry::{Engine, Enums, Native, NativeCtx, NativeFn, Natives};

impl Natives {
    /// Every native function okite ships.
    pub fn standard() -> Natives {
        let mut h = Natives::new();
        core::register(&mut h);
        shogi::register(&mut h);
        go::register(&mut h);
        h
    }
}

/// Formatters that show values of a game compactly (a shogi state as its SFEN); `None` where a
/// formatter does not recognise the value.
const FORMATTERS: &[fn(&NativeCtx, &Value) -> Option<String>] = &[shogi::format_state];

fn formatted(ctx: &NativeCtx, v: &Value) -> Option<String> {
    FORMATTERS.iter().find_map(|f| f(ctx, v))
}

/// The SFEN of a value that is a shogi state of the rules; `None` for any other value.
pub fn state_sfen(enums: &dyn Enums, v: &Value) -> Option<String> {
    shogi::state_sfen(&NativeCtx { enums }, v)
}

/// A value as people read it: through a game's formatter when one recognises it, shortened to
/// about `max` characters otherwise.
pub fn show(enums: &dyn Enums, v: &Value, max: usize) -> String {
    let ctx = NativeCtx { enums };
    if let Some(s) = formatted(&ctx, v) {
        return s;
    }
    match v {
        // a sequence of recognised values (a game) is shown by its length and last element
        Value::Seq(items) if !items.is_empty() => match formatted(&ctx, &items[items.len() - 1]) {
            Some(s) => format!("[{} states … {s}]", items.len()),
            None => crate::ir::short(v, max),
        },
        _ => crate::ir::short(v, max),
    }
}
