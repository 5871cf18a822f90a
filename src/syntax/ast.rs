//! The typed syntax tree of rule files. Every node carries a [`Span`].
//!
//! `Debug` on a [`Span`] prints `@`, so two trees that differ only in their spans have the same
//! `Debug` text: the round-trip property test compares trees that way.

pub use crate::diagnostics::span::{FileId, Span};

/// An identifier with where it was written.
#[derive(Clone, Debug)]
pub struct Name {
    /// The name as written.
    pub text: String,
    /// Where it was written.
    pub span: Span,
}

/// A rule file (or a REPL input): its items in order.
#[derive(Clone, Debug)]
pub struct File {
    /// The items, in the order written.
    pub items: Vec<Item>,
}

/// A top-level item of a rule file.
#[derive(Clone, Debug)]
pub enum Item {
    /// `use "file.rule"`: the definitions of another file.
    Use(UseDecl),
    /// `enum Turn { 先手 as sente, 後手 as gote }`.
    Enum(EnumDecl),
    /// `type Square = (Int, Int)`, or `type State` for a native type.
    Type(TypeDecl),
    /// `def name(params) -> T = body`.
    Def(DefDecl),
    /// `native ...`: a primitive, or the native fast path of a definition.
    Native(NativeDecl),
    /// `reading name extends parents { ... }`: a way of reading the rules.
    Reading(ReadingDecl),
    /// `example "name" { ... }`: assertions run by `okite test`.
    Example(ExampleDecl),
    /// `theorem "name" for x in S: body`: a property checked over finite domains.
    Theorem(TheoremDecl),
}

/// `use "path"`.
#[derive(Clone, Debug)]
pub struct UseDecl {
    /// The path as written, relative to the file that uses it.
    pub path: String,
    /// Where the item was written.
    pub span: Span,
}

/// `enum Name { Variant, ... }`.
#[derive(Clone, Debug)]
pub struct EnumDecl {
    /// The enum's name.
    pub name: Name,
    /// Its constructors, in order (their tags).
    pub variants: Vec<Variant>,
    /// Where the item was written.
    pub span: Span,
}

/// A constructor of an enum.
#[derive(Clone, Debug)]
pub struct Variant {
    /// The constructor's name.
    pub name: Name,
    /// Other names for it (`先手 as sente`).
    pub aliases: Vec<Name>,
    /// The types of its fields (`Piece(Kind, Turn)`); none for a constant.
    pub fields: Vec<TypeExpr>,
    /// Where it was written.
    pub span: Span,
}

/// `type Name = T` (an alias), or `type Name` (opaque).
#[derive(Clone, Debug)]
pub struct TypeDecl {
    /// The type's name.
    pub name: Name,
    /// `None`: an opaque type, inhabited by native values.
    pub ty: Option<TypeExpr>,
    /// Where the item was written.
    pub span: Span,
}

/// A parameter of a definition.
#[derive(Clone, Debug)]
pub struct Param {
    /// The parameter's name.
    pub name: Name,
    /// Its type, when written.
    pub ty: Option<TypeExpr>,
}

/// A definition: `def name as alias(params) -> T = body`.
#[derive(Clone, Debug)]
pub struct DefDecl {
    /// The definition's name.
    pub name: Name,
    /// Other names for it (`as`).
    pub aliases: Vec<Name>,
    /// `None` for a constant written without parentheses: `def Column = 1..9`.
    pub params: Option<Vec<Param>>,
    /// The return type, when written.
    pub ret: Option<TypeExpr>,
    /// The body.
    pub body: Expr,
    /// Where the definition was written.
    pub span: Span,
}

/// A `native` item.
#[derive(Clone, Debug)]
pub enum NativeDecl {
    /// `native def turn(s: State) -> Turn = shogi.turn`: a primitive with no rule body.
    Prim {
        /// The primitive's name.
        name: Name,
        /// Other names for it.
        aliases: Vec<Name>,
        /// Its parameters (typed).
        params: Vec<Param>,
        /// Its return type.
        ret: TypeExpr,
        /// The native function (`shogi.turn`).
        path: Name,
        /// Where the item was written.
        span: Span,
    },
    /// `native succ = shogi.successors`: the fast path of a definition that has a rule body.
    Bind {
        /// The definition bound.
        name: Name,
        /// The native function that answers for it.
        path: Name,
        /// Where the item was written.
        span: Span,
    },
}

/// `reading name extends a, b { items }`.
#[derive(Clone, Debug)]
pub struct ReadingDecl {
    /// The reading's name.
    pub name: Name,
    /// The readings it extends (none: base).
    pub parents: Vec<Name>,
    /// Its overrides, definitions and native bindings.
    pub items: Vec<ReadingItem>,
    /// Where the item was written.
    pub span: Span,
}

/// An item inside a reading.
#[derive(Clone, Debug)]
pub enum ReadingItem {
    /// `override def f ...`: the reading's definition of a name defined before.
    Override(DefDecl),
    /// `def f ...`: a name only this reading defines.
    Def(DefDecl),
    /// `native ...` inside the reading.
    Native(NativeDecl),
}

/// `example "name" reading r { statements }`.
#[derive(Clone, Debug)]
pub struct ExampleDecl {
    /// The example's name.
    pub name: String,
    /// The reading it runs under (base when none).
    pub reading: Option<Name>,
    /// Its statements, run in order.
    pub stmts: Vec<Stmt>,
    /// Where the item was written.
    pub span: Span,
}

/// A statement of an example.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `let p = e`: binds the names of a pattern.
    Let(Pattern, Expr),
    /// `assert e` or `assert e, "message"`.
    Assert(Expr, Option<String>),
}

/// `theorem "name" reading r for x in S: body`.
#[derive(Clone, Debug)]
pub struct TheoremDecl {
    /// The theorem's name.
    pub name: String,
    /// The reading it is checked under (base when none).
    pub reading: Option<Name>,
    /// Its binders, each over a finite domain.
    pub binders: Vec<Binder>,
    /// The property, a boolean.
    pub body: Expr,
    /// Where the item was written.
    pub span: Span,
}

/// A type as written.
#[derive(Clone, Debug)]
pub enum TypeExpr {
    /// A type's name: `Int`, `Square`, or a type variable `a`.
    Name(Name),
    /// A generic type applied: `Set<T>`, `Seq<T>`, `Map<K, V>`.
    App(Name, Vec<TypeExpr>),
    /// A tuple type, `(T, U)`.
    Tuple(Vec<TypeExpr>, Span),
    /// A function type, `T -> U`.
    Fun(Box<TypeExpr>, Box<TypeExpr>),
}

impl TypeExpr {
    /// Where the type was written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Name(n) => n.span,
            TypeExpr::App(n, _) => n.span,
            TypeExpr::Tuple(_, s) => *s,
            TypeExpr::Fun(a, b) => a.span().to(b.span()),
        }
    }
}

/// A pattern, in `let`, `match`, binders and lambdas.
#[derive(Clone, Debug)]
pub struct Pattern {
    /// What the pattern is.
    pub kind: PatternKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of pattern.
#[derive(Clone, Debug)]
pub enum PatternKind {
    /// `_`: matches anything, binds nothing.
    Wild,
    /// A variable to bind, or an enum constant (decided by name resolution).
    Name(String),
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string literal.
    Str(String),
    /// `(p, q)`.
    Tuple(Vec<Pattern>),
    /// `Piece(k, t)`: a constructor with fields.
    Ctor(Name, Vec<Pattern>),
    /// `p | q`: either.
    Or(Vec<Pattern>),
}

/// `p in domain` in a quantifier, an aggregate or a theorem.
#[derive(Clone, Debug)]
pub struct Binder {
    /// The patterns bound (`x, y in S` binds two).
    pub pats: Vec<Pattern>,
    /// The finite domain they range over.
    pub domain: Expr,
}

/// A qualifier of a comprehension.
#[derive(Clone, Debug)]
pub enum Qual {
    /// `x in S`: a generator when `x` is not bound yet, a membership test otherwise.
    Gen(Pattern, Expr),
    /// `let p = e`.
    Let(Pattern, Expr),
    /// A condition the elements must meet.
    Guard(Expr),
}

/// An arm of a `match`.
#[derive(Clone, Debug)]
pub struct Arm {
    /// The pattern matched.
    pub pat: Pattern,
    /// `if cond`, when written.
    pub guard: Option<Expr>,
    /// The value of the arm.
    pub body: Expr,
}

/// A quantifier.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quant {
    /// `all x in S: p`.
    All,
    /// `any x in S: p`.
    Any,
}

/// An aggregate over a finite domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Agg {
    /// `count x in S: p`: how many elements meet p.
    Count,
    /// `sum x in S: e`.
    Sum,
    /// `min x in S: e`.
    Min,
    /// `max x in S: e`.
    Max,
}

/// A prefix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// `not`.
    Not,
    /// `-`.
    Neg,
}

/// An infix operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    /// `implies`.
    Implies,
    /// `iff`.
    Iff,
    /// `or`.
    Or,
    /// `and`.
    And,
    /// `==`.
    Eq,
    /// `!=`.
    Ne,
    /// `<`.
    Lt,
    /// `<=`.
    Le,
    /// `>`.
    Gt,
    /// `>=`.
    Ge,
    /// `in`: membership.
    In,
    /// `not in`.
    NotIn,
    /// `subset`.
    Subset,
    /// `a..b`: the integers from a to b.
    Range,
    /// `++`: sequences joined.
    Concat,
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `union`.
    Union,
    /// `\`: set difference.
    Diff,
    /// `*`.
    Mul,
    /// `/`: integer division.
    Div,
    /// `mod`.
    Mod,
    /// `inter`: set intersection.
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
/// Precedence of unary minus (above every infix operator).
pub const PREC_NEG: u8 = 10;

/// An expression.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A string literal.
    Str(String),
    /// A name: a variable, a definition, a constructor or an enum (decided by name resolution).
    Var(String),
    /// `base.f`: the definition `f` as the parent reading states it.
    Base(Name),
    /// `(a, b)`.
    Tuple(Vec<Expr>),
    /// `{a, b}`.
    Set(Vec<Expr>),
    /// `[a, b]`.
    Seq(Vec<Expr>),
    /// `{k: v, ...}`.
    Map(Vec<(Expr, Expr)>),
    /// `{ e | quals }`.
    SetComp(Box<Expr>, Vec<Qual>),
    /// `[ e | quals ]`.
    SeqComp(Box<Expr>, Vec<Qual>),
    /// `{ k: v | quals }`.
    MapComp(Box<Expr>, Box<Expr>, Vec<Qual>),
    /// `f(args)`.
    Call(Box<Expr>, Vec<Expr>),
    /// `s[i]`: a sequence's element (from 1), or a map's value.
    Index(Box<Expr>, Box<Expr>),
    /// `s[a..b]`, 1-based and inclusive at both ends.
    Slice(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `t.1`: a tuple's component (from 1).
    Proj(Box<Expr>, u32),
    /// `m with { k: v, ... }`
    With(Box<Expr>, Vec<(Expr, Expr)>),
    /// `m with { k: v | quals }`
    WithComp(Box<Expr>, Box<Expr>, Box<Expr>, Vec<Qual>),
    /// `not e`, `-e`.
    Unary(UnOp, Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `let p = e, ... in body`.
    Let(Vec<(Pattern, Expr)>, Box<Expr>),
    /// `match e { arms }`.
    Match(Box<Expr>, Vec<Arm>),
    /// `all` / `any` over binders.
    Quant(Quant, Vec<Binder>, Box<Expr>),
    /// `count`, `sum`, `min`, `max` over binders.
    Agg(Agg, Vec<Binder>, Box<Expr>),
    /// `closure S by f`: everything reachable from S by repeatedly applying f (a set-valued map).
    Closure(Box<Expr>, Box<Expr>),
    /// `p -> body`, `(p, q) -> body`: a function.
    Lambda(Vec<Pattern>, Box<Expr>),
}

impl Expr {
    /// An expression of `kind` written at `span`.
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}
