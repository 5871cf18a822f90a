#![forbid(unsafe_code)]
//! The registry of native functions and what they see: the context through which they ask the
//! rules for enum constants, and how each is named, documented and called.

use crate::ir::Value;
use indexmap::IndexMap;
use std::rc::Rc;

/// What native functions may ask of the rules they serve: the enums the rule files declare
/// (a native function returns the rules' own constants). The checked program answers it; this
/// module knows nothing of the checker.
pub trait Enums {
    /// The constant `variant` (a constant without fields, or an alias of one) of `enum_name`.
    fn enum_constant(&self, enum_name: &str, variant: &str) -> Option<Value>;
    /// The enum's id and the tag of its constructor `variant` (for constants with fields).
    fn enum_tag(&self, enum_name: &str, variant: &str) -> Option<(crate::ir::EnumId, u32)>;
}

/// What a native function sees besides its arguments.
pub struct NativeCtx<'a> {
    pub enums: &'a dyn Enums,
}

impl NativeCtx<'_> {
    /// The enum constant `variant` of `enum_name` as the rules declare it.
    pub fn enum_value(&self, enum_name: &str, variant: &str) -> Result<Value, String> {
        self.enums.enum_constant(enum_name, variant).ok_or_else(|| {
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

/// The registry of native functions, by path (`shogi.successors`).
#[derive(Clone, Default)]
pub struct Natives {
    map: IndexMap<String, Native>,
}

impl Natives {
    pub fn new() -> Natives {
        Natives::default()
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

    pub fn get(&self, path: &str) -> Option<&Native> {
        self.map.get(path)
    }

    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(|s| s.as_str())
    }

    /// Each native function's path and arity: what the checker checks rule files against.
    pub fn signatures(&self) -> IndexMap<String, usize> {
        self.map.iter().map(|(p, n)| (p.clone(), n.arity)).collect()
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
