//! The resolved form of definitions that the evaluator runs: names are resolved to local slots,
//! definition keys (resolved per reading at run time), constructors and built-ins.

use crate::eval::value::Value;
use crate::syntax::ast::{Agg, BinOp, Quant, Span};
use std::rc::Rc;

/// A definition name. Each reading maps a key to the definition that states it.
pub type DefKey = u32;
/// One stated definition (a top-level one, or an override inside a reading).
pub type DefId = u32;
pub type EnumId = u32;
pub type ReadingId = u32;

#[derive(Debug)]
pub enum Ir {
    /// Stands for an expression the checker rejected (an unknown name): typed as anything, so that
    /// the rest of the file is still checked.
    Poison(Span),
    Const(Value, Span),
    Local(u32, Span),
    /// A reference to a definition: evaluated (called with no arguments) when it is a constant,
    /// a function value otherwise.
    Global(DefKey, Span),
    Call(DefKey, Box<[Ir]>, Span),
    /// `base.f(...)` written inside definition `from`.
    CallBase(DefId, DefKey, Box<[Ir]>, Span),
    Builtin(Builtin, Box<[Ir]>, Span),
    Apply(Box<Ir>, Box<[Ir]>, Span),
    Ctor(EnumId, u32, Box<[Ir]>, Span),
    /// An enum used as a finite domain: the set of its constants.
    Domain(EnumId, Span),
    Tuple(Box<[Ir]>, Span),
    SetLit(Box<[Ir]>, Span),
    SeqLit(Box<[Ir]>, Span),
    MapLit(Box<[(Ir, Ir)]>, Span),
    Comp(CompKind, Box<Ir>, Option<Box<Ir>>, Box<[IrQual]>, Span),
    Index(Box<Ir>, Box<Ir>, Span),
    Slice(Box<Ir>, Box<Ir>, Box<Ir>, Span),
    Proj(Box<Ir>, u32, Span),
    With(Box<Ir>, Box<[(Ir, Ir)]>, Span),
    WithComp(Box<Ir>, Box<Ir>, Box<Ir>, Box<[IrQual]>, Span),
    Not(Box<Ir>, Span),
    Neg(Box<Ir>, Span),
    Bin(BinOp, Box<Ir>, Box<Ir>, Span),
    If(Box<Ir>, Box<Ir>, Box<Ir>, Span),
    Let(Box<[(IrPat, Ir)]>, Box<Ir>, Span),
    Match(Box<Ir>, Box<[IrArm]>, Span),
    Quant(Quant, Box<[IrBinder]>, Box<Ir>, Span),
    Agg(Agg, Box<[IrBinder]>, Box<Ir>, Span),
    Closure(Box<Ir>, Box<Ir>, Span),
    Lambda(Rc<Lambda>),
}

impl Ir {
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

#[derive(Debug)]
pub struct Lambda {
    pub params: Vec<IrPat>,
    pub body: Ir,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompKind {
    Set,
    Seq,
    Map,
}

#[derive(Debug)]
pub enum IrQual {
    Gen(IrPat, Ir, Span),
    Let(IrPat, Ir),
    Guard(Ir),
}

#[derive(Debug)]
pub struct IrArm {
    pub pat: IrPat,
    pub guard: Option<Ir>,
    pub body: Ir,
}

#[derive(Debug)]
pub struct IrBinder {
    /// The variables bound over the domain, each ranging over it independently.
    pub pats: Vec<IrPat>,
    /// Their names, for explanations.
    pub names: Vec<String>,
    pub domain: Ir,
    pub span: Span,
}

#[derive(Debug, Clone)]
pub enum IrPat {
    Wild,
    Bind(u32),
    Int(i64),
    Bool(bool),
    Str(Rc<str>),
    Const(EnumId, u32),
    Tuple(Vec<IrPat>),
    Ctor(EnumId, u32, Vec<IrPat>),
    Or(Vec<IrPat>),
}

macro_rules! builtins {
    ($($v:ident = $name:literal, $arity:expr, $doc:literal;)*) => {
        /// Functions every rule file can call.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin { $($v),* }
        impl Builtin {
            pub const ALL: &'static [Builtin] = &[$(Builtin::$v),*];
            pub fn name(self) -> &'static str {
                match self { $(Builtin::$v => $name),* }
            }
            pub fn arity(self) -> usize {
                match self { $(Builtin::$v => $arity),* }
            }
            pub fn doc(self) -> &'static str {
                match self { $(Builtin::$v => $doc),* }
            }
            pub fn from_name(n: &str) -> Option<Builtin> {
                match n { $($name => Some(Builtin::$v),)* _ => None }
            }
        }
    };
}

builtins! {
    Len = "len", 1, "number of elements of a sequence, set, map or string";
    Size = "size", 1, "number of elements of a collection (same as len)";
    Keys = "keys", 1, "the set of keys of a map";
    Values = "values", 1, "the set of values of a map";
    ToSet = "set", 1, "the set of elements of a sequence or set";
    ToSeq = "seq", 1, "the elements of a set or sequence as a sequence, in order";
    Sort = "sort", 1, "a sequence sorted in ascending order";
    Rev = "rev", 1, "a sequence reversed";
    First = "first", 1, "the first element of a sequence";
    Last = "last", 1, "the last element of a sequence";
    Take = "take", 2, "take(s, n): the first n elements of s";
    Drop = "drop", 2, "drop(s, n): s without its first n elements";
    Zip = "zip", 2, "pairs of corresponding elements of two sequences";
    Abs = "abs", 1, "absolute value";
    Sign = "sign", 1, "-1, 0 or 1";
    Powerset = "powerset", 1, "all subsets of a set";
    Functions = "functions", 2, "functions(A, B): every map from A to B";
    Product = "product", 2, "product(A, B): all pairs (a, b)";
    Get = "get", 3, "get(m, k, d): m(k) if k is a key of m, else d";
    UnionAll = "union_all", 1, "the union of a set (or sequence) of sets";
    Sum = "sum", 1, "the sum of a collection of integers";
    Min = "min", 1, "the least element of a non-empty collection";
    Max = "max", 1, "the greatest element of a non-empty collection";
    Count = "count", 1, "number of elements of a collection";
    The = "the", 1, "the only element of a one-element set";
    Str = "str", 1, "a value as text";
    Error = "error", 1, "stop with an error message";
    IndexOf = "index_of", 2, "index_of(s, x): the 1-based position of x in s, 0 if absent";
}
