#![forbid(unsafe_code)]
//! The bridge between rule definitions and native Rust functions.
//!
//! A rule file names a native function by path: `native def turn(s: State) -> Turn = shogi.turn`
//! declares a primitive with no rule body; `native succ = shogi.successors` binds a definition
//! that has a rule body to a fast path. The rule body stays the reference: every command takes
//! `--engine native` (use the native where one is bound; the default), `--engine rules` (ignore
//! bindings) or `--verify` (run both and report any difference with its witness).

use crate::check::Program;
use crate::ir::Value;
use indexmap::IndexMap;
use std::rc::Rc;

pub mod core;
pub mod go;
pub mod shogi;

/// What a native function sees besides its arguments.
pub struct NativeCtx<'a> {
    pub program: &'a Program,
}

impl NativeCtx<'_> {
    /// The enum constant `variant` of `enum_name` as the program declares it.
    pub fn enum_value(&self, enum_name: &str, variant: &str) -> Result<Value, String> {
        self.program
            .enum_constant(enum_name, variant)
            .ok_or_else(|| {
                format!("the rules declare no constant `{variant}` of enum `{enum_name}`")
            })
    }
}

pub type NativeFn = Rc<dyn Fn(&NativeCtx, &[Value]) -> Result<Value, String>>;

#[derive(Clone)]
pub struct Native {
    pub path: String,
    pub arity: usize,
    pub doc: &'static str,
    pub f: NativeFn,
}

pub type Formatter = Rc<dyn Fn(&NativeCtx, &Value) -> Option<String>>;

/// The registry of native functions, by path (`shogi.successors`), and of formatters that show
/// values of a game compactly (a shogi state as its SFEN).
#[derive(Clone, Default)]
pub struct Natives {
    map: IndexMap<String, Native>,
    formatters: Vec<Formatter>,
}

/// A value as people read it: through a game's formatter when one recognises it, shortened to
/// about `max` characters otherwise.
pub fn show(program: &Program, v: &Value, max: usize) -> String {
    let ctx = NativeCtx { program };
    for f in &program.natives.formatters {
        if let Some(s) = f(&ctx, v) {
            return s;
        }
    }
    match v {
        Value::Seq(items) if !items.is_empty() => {
            // a sequence of recognised values (a game) is shown by its length and last element
            let last = &items[items.len() - 1];
            for f in &program.natives.formatters {
                if let Some(s) = f(&ctx, last) {
                    return format!("[{} states … {s}]", items.len());
                }
            }
            crate::ir::short(v, max)
        }
        _ => crate::ir::short(v, max),
    }
}

impl Natives {
    pub fn new() -> Natives {
        Natives::default()
    }

    /// Every native function okite ships.
    pub fn standard() -> Natives {
        let mut h = Natives::new();
        core::register(&mut h);
        shogi::register(&mut h);
        go::register(&mut h);
        h
    }

    pub fn add(
        &mut self,
        path: &str,
        arity: usize,
        doc: &'static str,
        f: impl Fn(&NativeCtx, &[Value]) -> Result<Value, String> + 'static,
    ) {
        self.map.insert(
            path.to_string(),
            Native {
                path: path.to_string(),
                arity,
                doc,
                f: Rc::new(f),
            },
        );
    }

    pub fn add_formatter(&mut self, f: impl Fn(&NativeCtx, &Value) -> Option<String> + 'static) {
        self.formatters.push(Rc::new(f));
    }

    pub fn get(&self, path: &str) -> Option<&Native> {
        self.map.get(path)
    }

    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(|s| s.as_str())
    }
}

/// How definitions with a native binding are evaluated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// The native function where one is bound (the default).
    #[default]
    Native,
    /// The rule body only.
    Rules,
    /// Both; a difference is an error that names the arguments.
    Verify,
}

impl std::str::FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        match s {
            "native" => Ok(Engine::Native),
            "rules" => Ok(Engine::Rules),
            "verify" => Ok(Engine::Verify),
            _ => Err(format!(
                "unknown engine `{s}`: expected `native`, `rules` or `verify`"
            )),
        }
    }
}
