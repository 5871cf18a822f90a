//! The typed syntax tree of rule files. Every node carries a [`Span`].
//!
//! `Debug` on a [`Span`] prints `@`, so two trees that differ only in their spans have the same
//! `Debug` text: the round-trip property test compares trees that way.

pub use crate::diagnostics::span::{FileId, Span};

/// An identifier with where it was written.
#[derive(Clone, Debug)]
pub struct Name {
    pub text: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Use(UseDecl),
    Enum(EnumDecl),
    Type(TypeDecl),
    Def(DefDecl),
    Native(NativeDecl),
    Reading(ReadingDecl),
    Example(ExampleDecl),
    Theorem(TheoremDecl),
}

#[derive(Clone, Debug)]
pub struct UseDecl {
    pub path: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumDecl {
    pub name: Name,
    pub variants: Vec<Variant>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Variant {
    pub name: Name,
    pub aliases: Vec<Name>,
    pub fields: Vec<TypeExpr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TypeDecl {
    pub name: Name,
    /// `None`: an opaque type, inhabited by native values.
    pub ty: Option<TypeExpr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Name,
    pub ty: Option<TypeExpr>,
}

#[derive(Clone, Debug)]
pub struct DefDecl {
    pub name: Name,
    pub aliases: Vec<Name>,
    /// `None` for a constant written without parentheses: `def Column = 1..9`.
    pub params: Option<Vec<Param>>,
    pub ret: Option<TypeExpr>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum NativeDecl {
    /// `native def turn(s: State) -> Turn = shogi.turn`: a primitive with no rule body.
    Prim {
        name: Name,
        aliases: Vec<Name>,
        params: Vec<Param>,
        ret: TypeExpr,
        path: Name,
        span: Span,
    },
    /// `native succ = shogi.successors`: the fast path of a definition that has a rule body.
    Bind { name: Name, path: Name, span: Span },
}

#[derive(Clone, Debug)]
pub struct ReadingDecl {
    pub name: Name,
    pub parents: Vec<Name>,
    pub items: Vec<ReadingItem>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ReadingItem {
    Override(DefDecl),
    Def(DefDecl),
    Native(NativeDecl),
}

#[derive(Clone, Debug)]
pub struct ExampleDecl {
    pub name: String,
    pub reading: Option<Name>,
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Let(Pattern, Expr),
    Assert(Expr, Option<String>),
}

#[derive(Clone, Debug)]
pub struct TheoremDecl {
    pub name: String,
    pub reading: Option<Name>,
    pub binders: Vec<Binder>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeExpr {
    Name(Name),
    App(Name, Vec<TypeExpr>),
    Tuple(Vec<TypeExpr>, Span),
    Fun(Box<TypeExpr>, Box<TypeExpr>),
}

impl TypeExpr {
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Name(n) => n.span,
            TypeExpr::App(n, _) => n.span,
            TypeExpr::Tuple(_, s) => *s,
            TypeExpr::Fun(a, b) => a.span().to(b.span()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Pattern {
    pub kind: PatternKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum PatternKind {
    Wild,
    /// A variable to bind, or an enum constant (decided by name resolution).
    Name(String),
    Int(i64),
    Bool(bool),
    Str(String),
    Tuple(Vec<Pattern>),
    Ctor(Name, Vec<Pattern>),
    Or(Vec<Pattern>),
}

#[derive(Clone, Debug)]
pub struct Binder {
    pub pats: Vec<Pattern>,
    pub domain: Expr,
}

#[derive(Clone, Debug)]
pub enum Qual {
    /// `x in S`: a generator when `x` is not bound yet, a membership test otherwise.
    Gen(Pattern, Expr),
    Let(Pattern, Expr),
    Guard(Expr),
}

#[derive(Clone, Debug)]
pub struct Arm {
    pub pat: Pattern,
    pub guard: Option<Expr>,
    pub body: Expr,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    All,
    Any,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agg {
    Count,
    Sum,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Not,
    Neg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Implies,
    Iff,
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    Subset,
    Range,
    Concat,
    Add,
    Sub,
    Union,
    Diff,
    Mul,
    Div,
    Mod,
    Inter,
}

impl BinOp {
    /// The canonical spelling used by the pretty-printer.
    pub fn text(self) -> &'static str {
        use BinOp::*;
        match self {
            Implies => "implies",
            Iff => "iff",
            Or => "or",
            And => "and",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            In => "in",
            NotIn => "not in",
            Subset => "subset",
            Range => "..",
            Concat => "++",
            Add => "+",
            Sub => "-",
            Union => "union",
            Diff => "\\",
            Mul => "*",
            Div => "/",
            Mod => "mod",
            Inter => "inter",
        }
    }

    /// Binding power (higher binds tighter) and whether the operator is right-associative.
    pub fn prec(self) -> (u8, bool) {
        use BinOp::*;
        match self {
            Implies => (1, true),
            Iff => (2, false),
            Or => (3, false),
            And => (4, false),
            Eq | Ne | Lt | Le | Gt | Ge | In | NotIn | Subset => (6, false),
            Range => (7, false),
            Concat | Add | Sub | Union | Diff => (8, false),
            Mul | Div | Mod | Inter => (9, false),
        }
    }
}

/// Precedence of prefix `not` (between `and` and comparisons) and of unary minus.
pub const PREC_NOT: u8 = 5;
pub const PREC_NEG: u8 = 10;

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Str(String),
    Var(String),
    /// `base.f`: the definition `f` as the parent reading states it.
    Base(Name),
    Tuple(Vec<Expr>),
    Set(Vec<Expr>),
    Seq(Vec<Expr>),
    Map(Vec<(Expr, Expr)>),
    SetComp(Box<Expr>, Vec<Qual>),
    SeqComp(Box<Expr>, Vec<Qual>),
    MapComp(Box<Expr>, Box<Expr>, Vec<Qual>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    /// `s[a..b]`, 1-based and inclusive at both ends.
    Slice(Box<Expr>, Box<Expr>, Box<Expr>),
    Proj(Box<Expr>, u32),
    /// `m with { k: v, ... }`
    With(Box<Expr>, Vec<(Expr, Expr)>),
    /// `m with { k: v | quals }`
    WithComp(Box<Expr>, Box<Expr>, Box<Expr>, Vec<Qual>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Let(Vec<(Pattern, Expr)>, Box<Expr>),
    Match(Box<Expr>, Vec<Arm>),
    Quant(Quant, Vec<Binder>, Box<Expr>),
    Agg(Agg, Vec<Binder>, Box<Expr>),
    /// `closure S by f`: everything reachable from S by repeatedly applying f (a set-valued map).
    Closure(Box<Expr>, Box<Expr>),
    Lambda(Vec<Pattern>, Box<Expr>),
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}
