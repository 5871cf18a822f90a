#![forbid(unsafe_code)]
#![deny(missing_docs)]
//! The terms that the checker makes and the evaluator runs: the resolved code of definitions
//! ([`Ir`]: names resolved to local slots, definition keys resolved per reading at run time,
//! constructors and built-ins) and the values it computes ([`Value`]). The two contain each
//! other (a constant in code, a closure in a value), so both are declared here; what values do
//! is in `value.rs`. This module sits below both the checker and the evaluator and knows
//! nothing of either.

pub mod builtin;
pub mod coll;
pub mod native;
mod value;
pub use value::with_definition_names;

use crate::syntax::ast::{Agg, BinOp, Quant, Span};
pub use builtin::Builtin;
pub use coll::Coll;
pub use native::NativeObj;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// A numbered thing of a program: a newtype over `u32`, with its place in the program's list.
macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);

        impl $name {
            /// Its place in the program's list.
            pub const fn index(self) -> usize {
                self.0 as usize
            }

            /// The one at place `i` of the program's list. A program holds far fewer than
            /// `u32::MAX` of each (every one is written in its sources), so none saturates.
            pub fn at(i: usize) -> $name {
                $name(u32::try_from(i).unwrap_or(u32::MAX))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// A definition name. Each reading maps a key to the definition that states it.
    DefKey
);
id_type!(
    /// One stated definition (a top-level one, or an override inside a reading).
    DefId
);
id_type!(
    /// An enum, numbered in the order the rules declare them.
    EnumId
);
id_type!(
    /// A reading, numbered in the order declared; 0 is `base`.
    ReadingId
);

/// The resolved code of an expression, as the evaluator runs it. The last field of each variant is where it was written.
#[derive(Debug, Clone)]
pub enum Ir {
    /// Stands for an expression the checker rejected (an unknown name): typed as anything, so that
    /// the rest of the file is still checked.
    Poison(Span),
    /// A value known when checking: a literal, an enum constant.
    Const(Value, Span),
    /// A local variable: its slot in the frame.
    Local(u32, Span),
    /// A reference to a definition: evaluated (called with no arguments) when it is a constant,
    /// a function value otherwise.
    Global(DefKey, Span),
    /// `f(args)`: a definition called, resolved under the reading at run time.
    Call(DefKey, Box<[Ir]>, Span),
    /// `base.f(...)` written inside definition `from`.
    CallBase(DefId, DefKey, Box<[Ir]>, Span),
    /// A built-in function called.
    Builtin(Builtin, Box<[Ir]>, Span),
    /// A function value applied: a lambda, a definition passed as a value.
    Apply(Box<Ir>, Box<[Ir]>, Span),
    /// A constructor with fields applied: its enum, its tag and its fields.
    Ctor(EnumId, u32, Box<[Ir]>, Span),
    /// An enum used as a finite domain: the set of its constants.
    Domain(EnumId, Span),
    /// `(a, b)`.
    Tuple(Box<[Ir]>, Span),
    /// `{a, b}`.
    SetLit(Box<[Ir]>, Span),
    /// `[a, b]`.
    SeqLit(Box<[Ir]>, Span),
    /// `{k: v, ...}`.
    MapLit(Box<[(Ir, Ir)]>, Span),
    /// A comprehension: its kind, the element (the key of a map), the value of a map, its qualifiers.
    Comp(CompKind, Box<Ir>, Option<Box<Ir>>, Box<[IrQual]>, Span),
    /// `s[i]`: a sequence's element (from 1), a map's value.
    Index(Box<Ir>, Box<Ir>, Span),
    /// `s[a..b]`, from 1 and inclusive.
    Slice(Box<Ir>, Box<Ir>, Box<Ir>, Span),
    /// `t.i`: a tuple's component, counted from 1.
    Proj(Box<Ir>, u32, Span),
    /// `m with { k: v, ... }`.
    With(Box<Ir>, Box<[(Ir, Ir)]>, Span),
    /// `m with { k: v | quals }`.
    WithComp(Box<Ir>, Box<Ir>, Box<Ir>, Box<[IrQual]>, Span),
    /// `not e`.
    Not(Box<Ir>, Span),
    /// `-e`.
    Neg(Box<Ir>, Span),
    /// `a op b`.
    Bin(BinOp, Box<Ir>, Box<Ir>, Span),
    /// `if c then a else b`.
    If(Box<Ir>, Box<Ir>, Box<Ir>, Span),
    /// `let p = e, ... in body`.
    Let(Box<[(IrPat, Ir)]>, Box<Ir>, Span),
    /// `match e { arms }`.
    Match(Box<Ir>, Box<[IrArm]>, Span),
    /// `all` / `any` over binders.
    Quant(Quant, Box<[IrBinder]>, Box<Ir>, Span),
    /// `count`, `sum`, `min`, `max` over binders.
    Agg(Agg, Box<[IrBinder]>, Box<Ir>, Span),
    /// `closure S by f`: what S reaches by f, S included.
    Closure(Box<Ir>, Box<Ir>, Span),
    /// `p -> body`: a function value.
    Lambda(Rc<Lambda>),
}

impl Ir {
    /// Where the code was written.
    pub fn span(&self) -> Span {
        match self {
            Ir::Const(_, s)
            | Ir::Poison(s)
            | Ir::Local(_, s)
            | Ir::Global(_, s)
            | Ir::Call(_, _, s)
            | Ir::CallBase(_, _, _, s)
            | Ir::Builtin(_, _, s)
            | Ir::Apply(_, _, s)
            | Ir::Ctor(_, _, _, s)
            | Ir::Domain(_, s)
            | Ir::Tuple(_, s)
            | Ir::SetLit(_, s)
            | Ir::SeqLit(_, s)
            | Ir::MapLit(_, s)
            | Ir::Comp(_, _, _, _, s)
            | Ir::Index(_, _, s)
            | Ir::Slice(_, _, _, s)
            | Ir::Proj(_, _, s)
            | Ir::With(_, _, s)
            | Ir::WithComp(_, _, _, _, s)
            | Ir::Not(_, s)
            | Ir::Neg(_, s)
            | Ir::Bin(_, _, _, s)
            | Ir::If(_, _, _, s)
            | Ir::Let(_, _, s)
            | Ir::Match(_, _, s)
            | Ir::Quant(_, _, _, s)
            | Ir::Agg(_, _, _, s)
            | Ir::Closure(_, _, s) => *s,
            Ir::Lambda(l) => l.span,
        }
    }
}

/// A lambda, `p -> body`.
#[derive(Debug, Clone)]
pub struct Lambda {
    /// Its parameters' patterns.
    pub params: Vec<IrPat>,
    /// Its body.
    pub body: Ir,
    /// Where it was written.
    pub span: Span,
}

/// What a comprehension builds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompKind {
    /// A set, `{ e | ... }`.
    Set,
    /// A sequence, `[ e | ... ]`.
    Seq,
    /// A map, `{ k: v | ... }`.
    Map,
}

/// A qualifier of a comprehension.
#[derive(Debug, Clone)]
pub enum IrQual {
    /// `p in S`: each element of S that matches p.
    Gen(IrPat, Ir, Span),
    /// `let p = e`.
    Let(IrPat, Ir),
    /// A condition.
    Guard(Ir),
}

/// An arm of a `match`.
#[derive(Debug, Clone)]
pub struct IrArm {
    /// The pattern.
    pub pat: IrPat,
    /// Its guard, `if cond`.
    pub guard: Option<Ir>,
    /// Its value.
    pub body: Ir,
}

/// Binders over one finite domain, in a quantifier, an aggregate or a theorem.
#[derive(Debug, Clone)]
pub struct IrBinder {
    /// The variables bound over the domain, each ranging over it independently.
    pub pats: Vec<IrPat>,
    /// Their names, for explanations.
    pub names: Vec<String>,
    /// The domain.
    pub domain: Ir,
    /// Where it was written.
    pub span: Span,
}

/// A resolved pattern.
#[derive(Debug, Clone)]
pub enum IrPat {
    /// `_`.
    Wild,
    /// A variable: its slot in the frame.
    Bind(u32),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A string.
    Str(Rc<str>),
    /// An enum constant without fields: its enum and tag.
    Const(EnumId, u32),
    /// A tuple of patterns.
    Tuple(Vec<IrPat>),
    /// A constructor with fields: its enum, tag and the fields' patterns.
    Ctor(EnumId, u32, Vec<IrPat>),
    /// Any of the patterns.
    Or(Vec<IrPat>),
}

// ---------------------------------------------------------------------- values

/// A value the rules compute. Collections are shared (`Rc`) and ordered, so values compare, hash and print the same way wherever they were made.
#[derive(Clone)]
pub enum Value {
    /// `true`, `false`.
    Bool(bool),
    /// An integer (64 bits; overflow is an error).
    Int(i64),
    /// A string.
    Str(Rc<str>),
    /// An enum constant.
    Enum(Rc<EnumVal>),
    /// A tuple.
    Tuple(Rc<[Value]>),
    /// A finite set, ordered.
    Set(Rc<Coll<BTreeSet<Value>>>),
    /// A sequence.
    Seq(Rc<Coll<Vec<Value>>>),
    /// A finite map, ordered by key.
    Map(Rc<Coll<BTreeMap<Value, Value>>>),
    /// A function: a lambda, a definition, a built-in, a constructor.
    Func(Rc<Func>),
    /// A native value (a shogi position, a Go board): opaque to the rules, answered by its engine.
    Native(Rc<dyn NativeObj>),
}

/// An enum constant, possibly with fields: `先手`, `board(7, 6, 不成)`.
#[derive(Debug, Clone)]
pub struct EnumVal {
    /// The enum's id.
    pub ty: EnumId,
    /// The constructor's tag (its place in the enum).
    pub tag: u32,
    /// The constructor's name.
    pub name: Rc<str>,
    /// The fields' values.
    pub fields: Vec<Value>,
    /// The hash of the fields, computed the first time the value is hashed: a long list of enum
    /// cells is a memo key at every step of a recursion over it, and hashing it whole each time
    /// made such a recursion quadratic.
    pub fields_hash: std::cell::OnceCell<u64>,
    /// Made once and shared (see `Value::enum_value`): its address names it, as a constant's does.
    pub shared: bool,
}

/// A function value: a lambda with its captured frame, a definition, a built-in or a constructor.
pub enum Func {
    /// A lambda with the frame it was made in.
    Lambda {
        /// The lambda.
        lambda: Rc<Lambda>,
        /// The values it captured.
        frame: Rc<Vec<Value>>,
    },
    /// A definition by key, called under the reading of its caller.
    Def(DefKey),
    /// A built-in.
    Builtin(Builtin),
    /// A constructor: its enum, its tag and its number of fields.
    Ctor(EnumId, u32, usize),
}

/// Text of a value, shortened to about `max` characters.
pub fn short(v: &Value, max: usize) -> String {
    // the text stops being written at `max` characters: a value of millions of elements costs
    // no more to show than its beginning
    struct Capped {
        text: String,
        left: usize,
        cut: bool,
    }
    impl std::fmt::Write for Capped {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            for c in s.chars() {
                if self.left == 0 {
                    self.cut = true;
                    return Err(std::fmt::Error);
                }
                self.text.push(c);
                self.left -= 1;
            }
            Ok(())
        }
    }
    let mut w = Capped {
        text: String::new(),
        left: max,
        cut: false,
    };
    let _ = std::fmt::Write::write_fmt(&mut w, format_args!("{v}"));
    if w.cut {
        format!("{}…", w.text)
    } else {
        w.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The length counted without writing is at least the text's, and near it; shared parts are
    /// counted once (a pair doubled 60 times is counted at once, its text far past memory); the
    /// capped writers stop at their bound.
    #[test]
    fn text_length_is_counted_without_writing() {
        let vals = vec![
            Value::Int(-1234),
            Value::Bool(false),
            Value::str("将棋 \"quoted\"\n"),
            Value::tuple(vec![Value::Int(1)]),
            Value::tuple(vec![Value::Int(1), Value::str("x"), Value::Bool(true)]),
            Value::set((1..=30).map(Value::Int).collect()),
            Value::seq(vec![Value::set(Default::default()), Value::seq(vec![])]),
            Value::map(
                [
                    (Value::Int(1), Value::str("a")),
                    (Value::Int(2), Value::str("b")),
                ]
                .into_iter()
                .collect(),
            ),
            Value::map(Default::default()),
        ];
        for v in &vals {
            let n = v.to_string().len();
            assert!(
                v.text_len() >= n && v.text_len() <= 2 * n + 16,
                "{v}: {} for {n}",
                v.text_len()
            );
            assert_eq!(v.text_within(n).as_deref(), Some(v.to_string().as_str()));
            if n > 0 {
                assert_eq!(v.text_within(n - 1), None);
            }
        }
        let mut t = Value::str("xxxxxxxx");
        for _ in 0..60 {
            t = Value::tuple(vec![t.clone(), t]);
        }
        assert!(t.text_len() > 1 << 62);
        assert_eq!(t.text_within(1000), None);
        assert!(t.text_cut(1000).ends_with('…'));
    }

    /// `short` gives the whole text up to `max` characters, and the first `max` and `…` beyond
    /// (the rest is not written).
    #[test]
    fn short_text_is_cut_without_writing_the_rest() {
        let set = |n: i64| Value::set((1..=n).map(Value::Int).collect());
        for n in 0..12 {
            let full = set(n).to_string();
            for max in [0, 1, 5, full.chars().count(), full.chars().count() + 1, 40] {
                let want = if full.chars().count() <= max {
                    full.clone()
                } else {
                    format!("{}…", full.chars().take(max).collect::<String>())
                };
                assert_eq!(short(&set(n), max), want, "{n} {max}");
            }
        }
        assert_eq!(short(&set(1_000_000), 10), "{1, 2, 3, …");
    }

    /// Pairs of atoms are shared, and a shared pair is the same value as a pair made apart: equal,
    /// hashed alike, ordered alike among pairs that are not shared.
    #[test]
    fn shared_pairs_are_the_same_values() {
        use std::hash::{Hash, Hasher};
        let hash = |v: &Value| {
            let mut h = rustc_hash::FxHasher::default();
            v.hash(&mut h);
            h.finish()
        };
        let a = Value::pair(Value::Int(7), Value::Int(6));
        let b = Value::tuple(vec![Value::Int(7), Value::Int(6)]);
        let (Value::Tuple(x), Value::Tuple(y)) = (&a, &b) else {
            panic!("pairs are tuples")
        };
        assert!(Rc::ptr_eq(x, y), "two (7, 6) share one tuple");
        let apart = Value::Tuple(Rc::from(vec![Value::Int(7), Value::Int(6)]));
        assert!(a == apart && hash(&a) == hash(&apart));
        // ordered with pairs too large to share as tuples compare: by their first element, then
        // their second
        let big = Value::pair(Value::Int(7), Value::Int(1 << 40));
        let small = Value::pair(Value::Int(8), Value::Int(0));
        assert!(a < big && big < small);
        let mut sorted = vec![small.clone(), big.clone(), a.clone()];
        sorted.sort();
        assert_eq!(sorted, vec![a, big, small]);
        // a pair of a string is made apart and still equal to itself
        let s = Value::pair(Value::str("x"), Value::Int(1));
        assert_eq!(s, Value::tuple(vec![Value::str("x"), Value::Int(1)]));
    }

    /// Enum values whose fields are atoms are shared, equal to one made apart, and a pair of one
    /// with a constant is shared in turn; one with a field that is not an atom is made apart.
    #[test]
    fn shared_enum_values_are_the_same_values() {
        let name: Rc<str> = Rc::from("on_board");
        let c = Value::enum_value(crate::ir::EnumId(0), 1, &name, vec![]);
        let sq = |col: i64| {
            Value::enum_value(
                crate::ir::EnumId(0),
                0,
                &name,
                vec![Value::Int(col), Value::Int(6)],
            )
        };
        let (Value::Enum(x), Value::Enum(y)) = (sq(7), sq(7)) else {
            panic!("enum values")
        };
        assert!(
            Rc::ptr_eq(&x, &y) && x.shared,
            "two on_board(7, 6) share one value"
        );
        let apart = Value::Enum(Rc::new(EnumVal {
            ty: crate::ir::EnumId(0),
            tag: 0,
            name: name.clone(),
            fields: vec![Value::Int(7), Value::Int(6)],
            fields_hash: Default::default(),
            shared: false,
        }));
        assert!(sq(7) == apart && sq(7) < sq(8) && sq(7) < c);
        let (Value::Tuple(p), Value::Tuple(q)) =
            (Value::pair(sq(7), c.clone()), Value::pair(sq(7), c.clone()))
        else {
            panic!("pairs are tuples")
        };
        assert!(Rc::ptr_eq(&p, &q), "(on_board(7, 6), c) is shared");
        let Value::Enum(s) =
            Value::enum_value(crate::ir::EnumId(0), 0, &name, vec![Value::str("x")])
        else {
            panic!("an enum value")
        };
        assert!(!s.shared);
        assert_ne!(
            Value::pair(Value::Enum(s), c.clone()),
            Value::pair(sq(7), c)
        );
    }
}
