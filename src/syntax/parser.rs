//! From pest pairs to the syntax tree.

use super::ast::*;
use super::precheck::precheck;
use super::walk::{shape_error, span_of, Grammar, Kids, Rule, EXPR, R, TYPE_ATOM};
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use pest::iterators::Pair;
use pest::Parser;

pub use super::precheck::{MAX_NESTING, MAX_SOURCE_BYTES};

/// Parse a whole rule file.
pub fn parse_file(text: &str, file: FileId) -> Result<File, Vec<Diag>> {
    precheck(text, file)?;
    let pairs = on_big_stack(|| Grammar::parse(Rule::file, text).map_err(|e| pest_error(e, file)))
        .map_err(|d| vec![d])?;
    let b = Builder::new(file);
    let file_pair = Kids::top(pairs, Rule::file, Span::new(file, 0, text.len()))
        .expect_next(Rule::file)
        .map_err(|d| vec![d])?;
    let mut items = vec![];
    let mut errors = vec![];
    for p in b.kids(file_pair) {
        if p.as_rule() == Rule::EOI {
            continue;
        }
        match b.item(p, Rule::file) {
            Ok(i) => items.push(i),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if items.is_empty() {
        return Err(vec![Diag::error(
            code::EMPTY_RULE_FILE,
            "the rule file contains no items",
        )
        .label(
            Span::new(file, 0, text.len().min(1)),
            "nothing to read here",
        )
        .help(
            "a rule file holds definitions (`def`), enums, readings, examples or theorems",
        )]);
    }
    Ok(File { items })
}

/// What the REPL reads: either items (definitions...) or one expression.
pub enum ReplInput {
    /// Items: definitions, enums, types, readings, examples, theorems.
    Items(Vec<Item>),
    /// An expression to evaluate.
    Expr(Expr),
}

/// Parses what was typed at the prompt: items, or else one expression.
pub fn parse_repl(text: &str, file: FileId) -> Result<ReplInput, Vec<Diag>> {
    precheck(text, file)?;
    let pairs =
        on_big_stack(|| Grammar::parse(Rule::repl_input, text).map_err(|e| pest_error(e, file)))
            .map_err(|d| vec![d])?;
    let b = Builder::new(file);
    let top = Kids::top(pairs, Rule::repl_input, Span::new(file, 0, text.len()))
        .expect_next(Rule::repl_input)
        .map_err(|d| vec![d])?;
    let inner: Vec<Pair<Rule>> = b.kids(top).filter(|p| p.as_rule() != Rule::EOI).collect();
    if let [only] = inner.as_slice() {
        if only.as_rule() == Rule::expr {
            return b
                .expr(only.clone())
                .map(ReplInput::Expr)
                .map_err(|e| vec![e]);
        }
    }
    let mut items = vec![];
    for p in inner {
        items.push(b.item(p, Rule::repl_input).map_err(|e| vec![e])?);
    }
    Ok(ReplInput::Items(items))
}

/// Parse one expression (a query on the command line).
pub fn parse_expr(text: &str, file: FileId) -> Result<Expr, Vec<Diag>> {
    precheck(text, file)?;
    let pairs =
        on_big_stack(|| Grammar::parse(Rule::expr_input, text).map_err(|e| pest_error(e, file)))
            .map_err(|d| vec![d])?;
    let b = Builder::new(file);
    let top = Kids::top(pairs, Rule::expr_input, Span::new(file, 0, text.len()))
        .expect_next(Rule::expr_input)
        .map_err(|d| vec![d])?;
    let e = b.kids(top).expect_next(Rule::expr).map_err(|d| vec![d])?;
    b.expr(e).map_err(|d| vec![d])
}

/// Run `f` where the stack can take the parser's recursion at [`MAX_NESTING`] levels.
fn on_big_stack<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(1 << 20, 256 << 20, f)
}

fn rule_name(r: &Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match r {
        EOI => "end of input",
        ident | var => "a name",
        reading_name => "a reading name",
        native_path => "a native function path such as `shogi.successors`",
        int | lit_int | pat_int => "a number",
        string | lit_str | pat_str => "a string",
        expr | expr_noin | expr_input | qual_guard => "an expression",
        type_expr | type_name | type_app | type_tuple => "a type",
        pattern | simple_pattern | pat_name | pat_tuple | pat_ctor | pat_wild => "a pattern",
        use_decl | enum_decl | type_decl | def_decl | native_decl | reading_decl | example_decl
        | theorem_decl => {
            "an item (`def`, `enum`, `type`, `native`, `reading`, `example`, `theorem` or `use`)"
        }
        override_decl => "`override def`",
        let_stmt | assert_stmt => "a statement (`let` or `assert`)",
        call_args => "`(`",
        index => "`[`",
        proj => "`.`",
        with_upd => "`with`",
        params => "parameters in parentheses",
        param => "a parameter",
        ret_type => "`->` and a return type",
        variant => "an enum constant",
        binder | binders => "a binder such as `x in S`",
        quals => "qualifiers",
        arm => "a match arm `pattern => expression`",
        op_implies | op_iff | op_or | op_and | op_notin | op_in | op_elem | op_nelem
        | op_subset | op_eq | op_ne | op_le | op_ge | op_lt | op_gt | op_range | op_concat
        | op_add | op_sub | op_union | op_diff | op_mul | op_div | op_mod | op_inter => {
            "an operator"
        }
        reading_parents => "`extends`",
        reading_clause => "`reading`",
        aliases => "`as`",
        _ => return None,
    })
}

fn pest_error(e: pest::error::Error<Rule>, file: FileId) -> Diag {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    let what = match &e.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let mut names: Vec<&str> = positives.iter().filter_map(rule_name).collect();
            names.sort();
            names.dedup();
            let mut s = if names.is_empty() {
                "unexpected text".to_string()
            } else {
                format!("expected {}", join_or(&names))
            };
            if !negatives.is_empty() && names.is_empty() {
                s = "a keyword cannot be used here".into();
            }
            s
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let found = e
        .line()
        .chars()
        .nth(e.line_col.clone().into_col_pos().1.saturating_sub(1));
    let found = match found {
        Some(c) if !c.is_whitespace() => format!("found `{c}`"),
        _ if start >= e.line().len() && end == start => "found the end of the line".into(),
        _ => "found something else".into(),
    };
    let end = if end == start { start + 1 } else { end };
    Diag::error(code::SYNTAX_ERROR, format!("syntax error: {what}"))
        .label(Span::new(file, start, end), found)
        .help(
            "see docs/LANGUAGE.md for the syntax; definitions read `def name(x: T) -> T = expression`",
        )
}

trait ColPos {
    fn into_col_pos(self) -> (usize, usize);
}
impl ColPos for pest::error::LineColLocation {
    fn into_col_pos(self) -> (usize, usize) {
        match self {
            pest::error::LineColLocation::Pos(p) => p,
            pest::error::LineColLocation::Span(p, _) => p,
        }
    }
}

fn join_or(names: &[&str]) -> String {
    match names.len() {
        0 => String::new(),
        1 => names[0].to_string(),
        _ => format!(
            "{} or {}",
            names[..names.len() - 1].join(", "),
            names[names.len() - 1]
        ),
    }
}

struct Builder {
    file: FileId,
    /// Expressions, types and patterns being built, one inside the other: refused past
    /// [`MAX_NESTING`] (E0007) whatever the text scan of [`precheck`] counted, so that every
    /// later walk over the tree (copies, drops, the checker's) meets at most that depth.
    depth: std::cell::Cell<usize>,
}

/// One level of [`Builder::depth`], given back when dropped.
struct Level<'a>(&'a std::cell::Cell<usize>);

impl Drop for Level<'_> {
    fn drop(&mut self) {
        self.0.set(self.0.get().saturating_sub(1));
    }
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c == '\\' {
            match it.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(o) => out.push(o),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

enum Tok {
    Prefix(UnOp, Span),
    Operand(Expr),
    Infix(BinOp),
}

impl Builder {
    fn new(file: FileId) -> Builder {
        Builder {
            file,
            depth: std::cell::Cell::new(0),
        }
    }
    /// One level deeper at `p`, or E0007 past [`MAX_NESTING`].
    fn enter(&self, p: &Pair<Rule>) -> R<Level<'_>> {
        let d = self.depth.get() + 1;
        if d > MAX_NESTING {
            let s = self.span(p);
            return Err(Diag::error(
                code::NESTING_TOO_DEEP,
                format!("the expression is nested more than {MAX_NESTING} levels deep"),
            )
            .label(
                Span::new(s.file, s.start as usize, s.start as usize + 1),
                "nesting passes the limit here",
            )
            .help("name intermediate results with `def` or `let` instead of nesting them"));
        }
        self.depth.set(d);
        Ok(Level(&self.depth))
    }
    fn span(&self, p: &Pair<Rule>) -> Span {
        span_of(p, self.file)
    }
    fn kids<'i>(&self, p: Pair<'i, Rule>) -> Kids<'i> {
        Kids::of(p, self.file)
    }
    fn name(&self, p: Pair<Rule>) -> Name {
        Name {
            span: self.span(&p),
            text: p.as_str().to_string(),
        }
    }
    fn string(&self, p: Pair<Rule>) -> String {
        // string = "\"" ~ str_inner ~ "\""
        let inner = p.into_inner().next().map(|i| i.as_str()).unwrap_or("");
        unescape(inner)
    }
    /// The string of a rule whose one child is a `string` (`lit_str`, `pat_str`).
    fn string_in(&self, p: Pair<Rule>) -> R<String> {
        Ok(self.string(self.kids(p).expect_next(Rule::string)?))
    }
    /// The reading a `reading_clause` names.
    fn reading_clause(&self, p: Pair<Rule>) -> R<Name> {
        Ok(self.name(self.kids(p).expect_next(Rule::reading_name)?))
    }

    /// One item; `inside` is the rule that holds it (`file` or `repl_input`).
    fn item(&self, p: Pair<Rule>, inside: Rule) -> R<Item> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = self.kids(p);
        Ok(match rule {
            Rule::use_decl => Item::Use(UseDecl {
                path: self.string(it.expect_next(Rule::string)?),
                span,
            }),
            Rule::enum_decl => {
                let name = self.name(it.expect_next(Rule::ident)?);
                let mut variants = vec![];
                while !it.is_done() {
                    let v = it.expect_next(Rule::variant)?;
                    let vspan = self.span(&v);
                    let mut vi = self.kids(v);
                    let vname = self.name(vi.expect_next(Rule::ident)?);
                    let aliases = self.aliases(vi.expect_next(Rule::aliases)?);
                    let mut fields = vec![];
                    if let Some(f) = vi.optional(Rule::variant_fields) {
                        for t in self.kids(f) {
                            fields.push(self.type_expr(t)?);
                        }
                    }
                    variants.push(Variant {
                        name: vname,
                        aliases,
                        fields,
                        span: vspan,
                    });
                }
                Item::Enum(EnumDecl {
                    name,
                    variants,
                    span,
                })
            }
            Rule::type_decl => {
                let name = self.name(it.expect_next(Rule::ident)?);
                let ty = match it.optional(Rule::type_expr) {
                    Some(t) => Some(self.type_expr(t)?),
                    None => None,
                };
                Item::Type(TypeDecl { name, ty, span })
            }
            Rule::def_decl => Item::Def(self.def(it)?),
            Rule::native_decl => Item::Native(self.native(it)?),
            Rule::reading_decl => {
                let name = self.name(it.expect_next(Rule::reading_name)?);
                let parents = match it.optional(Rule::reading_parents) {
                    Some(q) => self.kids(q).map(|n| self.name(n)).collect(),
                    None => vec![],
                };
                let mut items = vec![];
                while !it.is_done() {
                    let q = it.expect_next_of(&[
                        Rule::override_decl,
                        Rule::def_decl,
                        Rule::native_decl,
                    ])?;
                    items.push(match q.as_rule() {
                        Rule::override_decl => {
                            let d = self.kids(q).expect_next(Rule::def_decl)?;
                            ReadingItem::Override(self.def(self.kids(d))?)
                        }
                        Rule::def_decl => ReadingItem::Def(self.def(self.kids(q))?),
                        _ => ReadingItem::Native(self.native(self.kids(q))?),
                    });
                }
                Item::Reading(ReadingDecl {
                    name,
                    parents,
                    items,
                    span,
                })
            }
            Rule::example_decl => {
                let name = self.string(it.expect_next(Rule::string)?);
                let reading = match it.optional(Rule::reading_clause) {
                    Some(q) => Some(self.reading_clause(q)?),
                    None => None,
                };
                let mut stmts = vec![];
                while !it.is_done() {
                    let q = it.expect_next_of(&[Rule::let_stmt, Rule::assert_stmt])?;
                    let is_let = q.as_rule() == Rule::let_stmt;
                    let mut si = self.kids(q);
                    if is_let {
                        let pat = self.pattern(si.expect_next(Rule::pattern)?)?;
                        let e = self.expr(si.expect_next(Rule::expr_noin)?)?;
                        stmts.push(Stmt::Let(pat, e));
                    } else {
                        let e = self.expr(si.expect_next(Rule::expr)?)?;
                        let msg = si.optional(Rule::string).map(|m| self.string(m));
                        stmts.push(Stmt::Assert(e, msg));
                    }
                }
                Item::Example(ExampleDecl {
                    name,
                    reading,
                    stmts,
                    span,
                })
            }
            Rule::theorem_decl => {
                let name = self.string(it.expect_next(Rule::string)?);
                let reading = match it.optional(Rule::reading_clause) {
                    Some(q) => Some(self.reading_clause(q)?),
                    None => None,
                };
                let binders = match it.optional(Rule::binders) {
                    Some(q) => self.binders(q)?,
                    None => vec![],
                };
                let body = self.expr(it.expect_next(Rule::expr)?)?;
                Item::Theorem(TheoremDecl {
                    name,
                    reading,
                    binders,
                    body,
                    span,
                })
            }
            r => return Err(shape_error(span, inside, "an item", Some(r))),
        })
    }

    fn aliases(&self, p: Pair<Rule>) -> Vec<Name> {
        self.kids(p).map(|n| self.name(n)).collect()
    }

    fn params(&self, p: Pair<Rule>) -> R<Vec<Param>> {
        let mut out = vec![];
        let mut ps = self.kids(p);
        while !ps.is_done() {
            let mut it = self.kids(ps.expect_next(Rule::param)?);
            let name = self.name(it.expect_next(Rule::ident)?);
            let ty = match it.optional(Rule::type_expr) {
                Some(t) => Some(self.type_expr(t)?),
                None => None,
            };
            out.push(Param { name, ty });
        }
        Ok(out)
    }

    /// The type after `->` in a `ret_type`.
    fn ret_type(&self, p: Pair<Rule>) -> R<TypeExpr> {
        self.type_expr(self.kids(p).expect_next(Rule::type_expr)?)
    }

    /// A `def_decl`, from its children.
    fn def(&self, mut it: Kids) -> R<DefDecl> {
        let span = it.span();
        let name = self.name(it.expect_next(Rule::ident)?);
        let aliases = self.aliases(it.expect_next(Rule::aliases)?);
        let params = match it.optional(Rule::params) {
            Some(q) => Some(self.params(q)?),
            None => None,
        };
        let ret = match it.optional(Rule::ret_type) {
            Some(q) => Some(self.ret_type(q)?),
            None => None,
        };
        let body = self.expr(it.expect_next(Rule::expr)?)?;
        Ok(DefDecl {
            name,
            aliases,
            params,
            ret,
            body,
            span,
        })
    }

    /// A `native_decl`, from its children.
    fn native(&self, mut it: Kids) -> R<NativeDecl> {
        let span = it.span();
        let q = it.expect_next_of(&[Rule::native_prim, Rule::native_bind])?;
        let prim = q.as_rule() == Rule::native_prim;
        let mut it = self.kids(q);
        if prim {
            let name = self.name(it.expect_next(Rule::ident)?);
            let aliases = self.aliases(it.expect_next(Rule::aliases)?);
            let params = self.params(it.expect_next(Rule::params)?)?;
            let ret = self.ret_type(it.expect_next(Rule::ret_type)?)?;
            let path = self.name(it.expect_next(Rule::native_path)?);
            Ok(NativeDecl::Prim {
                name,
                aliases,
                params,
                ret,
                path,
                span,
            })
        } else {
            let name = self.name(it.expect_next(Rule::ident)?);
            let path = self.name(it.expect_next(Rule::native_path)?);
            Ok(NativeDecl::Bind { name, path, span })
        }
    }

    fn type_expr(&self, p: Pair<Rule>) -> R<TypeExpr> {
        let _level = self.enter(&p)?;
        stacker::maybe_grow(64 << 10, 8 << 20, || self.type_expr_inner(p))
    }

    fn type_expr_inner(&self, p: Pair<Rule>) -> R<TypeExpr> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut it = self.kids(p);
        match rule {
            Rule::type_expr => {
                let a = self.type_expr(it.expect_next_of(TYPE_ATOM)?)?;
                match it.optional(Rule::type_expr) {
                    Some(b) => Ok(TypeExpr::Fun(Box::new(a), Box::new(self.type_expr(b)?))),
                    None => Ok(a),
                }
            }
            Rule::type_tuple => {
                let items = it.map(|t| self.type_expr(t)).collect::<R<Vec<_>>>()?;
                Ok(TypeExpr::Tuple(items, span))
            }
            Rule::type_app => {
                let n = self.name(it.expect_next(Rule::ident)?);
                let args = it.map(|t| self.type_expr(t)).collect::<R<Vec<_>>>()?;
                Ok(TypeExpr::App(n, args))
            }
            Rule::type_name => Ok(TypeExpr::Name(self.name(it.expect_next(Rule::ident)?))),
            r => Err(shape_error(
                span,
                r,
                "a type (`type_expr` or a type atom)",
                Some(r),
            )),
        }
    }

    fn pattern(&self, p: Pair<Rule>) -> R<Pattern> {
        let _level = self.enter(&p)?;
        stacker::maybe_grow(64 << 10, 8 << 20, || self.pattern_inner(p))
    }

    fn pattern_inner(&self, p: Pair<Rule>) -> R<Pattern> {
        let span = self.span(&p);
        let rule = p.as_rule();
        match rule {
            Rule::pattern => {
                let alts = self
                    .kids(p)
                    .map(|q| self.pattern(q))
                    .collect::<R<Vec<_>>>()?;
                match <[Pattern; 1]>::try_from(alts) {
                    Ok([one]) => Ok(one),
                    Err(alts) => Ok(Pattern {
                        kind: PatternKind::Or(alts),
                        span,
                    }),
                }
            }
            Rule::simple_pattern => self.pattern(self.kids(p).expect_next_of(&[
                Rule::pat_wild,
                Rule::pat_tuple,
                Rule::pat_name,
            ])?),
            Rule::pat_wild => Ok(Pattern {
                kind: PatternKind::Wild,
                span,
            }),
            Rule::pat_int => {
                let t = p.as_str().replace(char::is_whitespace, "");
                let v = t.parse::<i64>().map_err(|_| too_big(span))?;
                Ok(Pattern {
                    kind: PatternKind::Int(v),
                    span,
                })
            }
            Rule::pat_true => Ok(Pattern {
                kind: PatternKind::Bool(true),
                span,
            }),
            Rule::pat_false => Ok(Pattern {
                kind: PatternKind::Bool(false),
                span,
            }),
            Rule::pat_str => Ok(Pattern {
                kind: PatternKind::Str(self.string_in(p)?),
                span,
            }),
            Rule::pat_tuple => {
                let items = self
                    .kids(p)
                    .map(|q| self.pattern(q))
                    .collect::<R<Vec<_>>>()?;
                Ok(Pattern {
                    kind: PatternKind::Tuple(items),
                    span,
                })
            }
            Rule::pat_ctor => {
                let mut it = self.kids(p);
                let n = self.name(it.expect_next(Rule::ident)?);
                let args = it.map(|q| self.pattern(q)).collect::<R<Vec<_>>>()?;
                Ok(Pattern {
                    kind: PatternKind::Ctor(n, args),
                    span,
                })
            }
            Rule::pat_name => Ok(Pattern {
                kind: PatternKind::Name(p.as_str().to_string()),
                span,
            }),
            r => Err(shape_error(span, r, "a pattern", Some(r))),
        }
    }

    fn binders(&self, p: Pair<Rule>) -> R<Vec<Binder>> {
        let mut out = vec![];
        let mut bs = self.kids(p);
        while !bs.is_done() {
            let mut it = self.kids(bs.expect_next(Rule::binder)?);
            let mut pats = vec![];
            while let Some(q) = it.optional(Rule::simple_pattern) {
                pats.push(self.pattern(q)?);
            }
            it.optional(Rule::kw_in);
            let domain = self.expr(it.expect_next(Rule::expr)?)?;
            out.push(Binder { pats, domain });
        }
        Ok(out)
    }

    fn quals(&self, p: Pair<Rule>) -> R<Vec<Qual>> {
        let mut out = vec![];
        let mut qs = self.kids(p);
        while !qs.is_done() {
            let q = qs.expect_next_of(&[Rule::qual_let, Rule::qual_gen, Rule::qual_guard])?;
            let rule = q.as_rule();
            let mut it = self.kids(q);
            out.push(match rule {
                Rule::qual_let => {
                    let pat = self.pattern(it.expect_next(Rule::pattern)?)?;
                    Qual::Let(pat, self.expr(it.expect_next(Rule::expr_noin)?)?)
                }
                Rule::qual_gen => {
                    let pat = self.pattern(it.expect_next(Rule::simple_pattern)?)?;
                    it.optional(Rule::kw_in);
                    Qual::Gen(pat, self.expr(it.expect_next(Rule::expr)?)?)
                }
                _ => Qual::Guard(self.expr(it.expect_next(Rule::expr)?)?),
            });
        }
        Ok(out)
    }

    pub fn expr(&self, p: Pair<Rule>) -> R<Expr> {
        let _level = self.enter(&p)?;
        stacker::maybe_grow(1 << 20, 8 << 20, || self.expr_inner(p))
    }

    fn expr_inner(&self, p: Pair<Rule>) -> R<Expr> {
        // expr / expr_noin: a flat list of prefix ops, primaries, postfixes and infix ops
        let whole = self.span(&p);
        let inside = p.as_rule();
        if !EXPR.contains(&inside) {
            return Err(shape_error(
                whole,
                inside,
                "`expr` or `expr_noin`",
                Some(inside),
            ));
        }
        let mut toks: Vec<Tok> = vec![];
        let mut pending: Option<Expr> = None;
        for q in self.kids(p) {
            let span = self.span(&q);
            let rule = q.as_rule();
            match rule {
                Rule::op_not => toks.push(Tok::Prefix(UnOp::Not, span)),
                Rule::op_neg => toks.push(Tok::Prefix(UnOp::Neg, span)),
                Rule::call_args | Rule::index | Rule::proj | Rule::with_upd => {
                    let base = pending.take().ok_or_else(|| {
                        shape_error(span, inside, "an operand before this postfix", Some(rule))
                    })?;
                    pending = Some(self.postfix(base, q)?);
                }
                _ => {
                    if let Some(e) = pending.take() {
                        toks.push(Tok::Operand(e));
                    }
                    match binop_of(rule) {
                        Some(op) => toks.push(Tok::Infix(op)),
                        None => pending = Some(self.primary(q, inside)?),
                    }
                }
            }
        }
        if let Some(e) = pending.take() {
            toks.push(Tok::Operand(e));
        }
        let mut pos = 0;
        match climb(&mut toks, &mut pos, 0) {
            Some(e) if pos == toks.len() => Ok(e),
            _ => Err(shape_error(
                whole,
                inside,
                "operands alternating with infix operators",
                None,
            )),
        }
    }

    fn postfix(&self, base: Expr, q: Pair<Rule>) -> R<Expr> {
        let qspan = self.span(&q);
        let span = base.span.to(qspan);
        let rule = q.as_rule();
        let mut it = self.kids(q);
        Ok(match rule {
            Rule::call_args => {
                let args = it.map(|a| self.expr(a)).collect::<R<Vec<_>>>()?;
                Expr::new(ExprKind::Call(Box::new(base), args), span)
            }
            Rule::index => {
                let ip = it.expect_next(Rule::expr)?;
                // `s[(a..b)]` indexes by a range value; `s[a..b]` is a slice
                let mut ii = ip.clone().into_inner();
                let parenthesized = matches!(
                    (ii.next().map(|p| p.as_rule()), ii.next()),
                    (Some(Rule::paren), None)
                );
                let i = self.expr(ip)?;
                match i.kind {
                    ExprKind::Binary(BinOp::Range, ..) if parenthesized => {
                        Expr::new(ExprKind::Index(Box::new(base), Box::new(i)), span)
                    }
                    ExprKind::Binary(BinOp::Range, a, b) => {
                        Expr::new(ExprKind::Slice(Box::new(base), a, b), span)
                    }
                    _ => Expr::new(ExprKind::Index(Box::new(base), Box::new(i)), span),
                }
            }
            Rule::proj => {
                let n = it.expect_next(Rule::int)?;
                let nspan = self.span(&n);
                let k: u32 = n.as_str().parse().map_err(|_| too_big(nspan))?;
                if k == 0 {
                    return Err(Diag::error(
                        code::TUPLE_COMPONENT_ZERO,
                        "tuple components are numbered from 1",
                    )
                    .label(nspan, "`.0` does not exist")
                    .help("write `.1` for the first component"));
                }
                Expr::new(ExprKind::Proj(Box::new(base), k), span)
            }
            Rule::with_upd => {
                // with { k: v, ... } | with { k: v | quals }
                let k = self.expr(it.expect_next(Rule::expr)?)?;
                let (v, rest) = self.brace_map(it.expect_next(Rule::brace_map)?)?;
                match rest {
                    MapRest::Comp(quals) => Expr::new(
                        ExprKind::WithComp(Box::new(base), Box::new(k), Box::new(v), quals),
                        span,
                    ),
                    MapRest::More(mut more) => {
                        more.insert(0, (k, v));
                        Expr::new(ExprKind::With(Box::new(base), more), span)
                    }
                }
            }
            r => return Err(shape_error(qspan, r, "a postfix", Some(r))),
        })
    }

    fn brace_map(&self, m: Pair<Rule>) -> R<(Expr, MapRest)> {
        let mut it = self.kids(m);
        let v = self.expr(it.expect_next(Rule::expr)?)?;
        let rest = it.expect_next_of(&[Rule::brace_comp, Rule::brace_map_more])?;
        Ok(match rest.as_rule() {
            Rule::brace_comp => (v, MapRest::Comp(self.brace_comp(rest)?)),
            _ => {
                let mut more = vec![];
                let mut es = self.kids(rest);
                while !es.is_done() {
                    let mut ei = self.kids(es.expect_next(Rule::map_entry)?);
                    let k = self.expr(ei.expect_next(Rule::expr)?)?;
                    let v = self.expr(ei.expect_next(Rule::expr)?)?;
                    more.push((k, v));
                }
                (v, MapRest::More(more))
            }
        })
    }

    /// The qualifiers of a `brace_comp` (`| quals`).
    fn brace_comp(&self, p: Pair<Rule>) -> R<Vec<Qual>> {
        self.quals(self.kids(p).expect_next(Rule::quals)?)
    }

    /// One primary expression; `inside` is the expression rule that holds it.
    fn primary(&self, q: Pair<Rule>, inside: Rule) -> R<Expr> {
        let span = self.span(&q);
        let kind = match q.as_rule() {
            Rule::lit_true => ExprKind::Bool(true),
            Rule::lit_false => ExprKind::Bool(false),
            Rule::lit_int => ExprKind::Int(q.as_str().parse().map_err(|_| too_big(span))?),
            Rule::lit_str => ExprKind::Str(self.string_in(q)?),
            Rule::var => ExprKind::Var(q.as_str().to_string()),
            Rule::base_ref => ExprKind::Base(self.name(self.kids(q).expect_next(Rule::ident)?)),
            Rule::paren => {
                let end = q.as_span().end();
                let children: Vec<Pair<Rule>> = q.into_inner().collect();
                let after_last = children.last().map(|c| c.as_span().end()).unwrap_or(end);
                let src = self_src(&children, after_last, end);
                let trailing_comma = src.contains(',');
                let items = children
                    .into_iter()
                    .map(|e| self.expr(e))
                    .collect::<R<Vec<_>>>()?;
                let items = match <[Expr; 1]>::try_from(items) {
                    Ok([mut e]) if !trailing_comma => {
                        e.span = span;
                        return Ok(e);
                    }
                    Ok([e]) => vec![e],
                    Err(items) => items,
                };
                ExprKind::Tuple(items)
            }
            Rule::let_expr => {
                let mut it = self.kids(q);
                let mut binds = vec![];
                while let Some(b) = it.optional(Rule::let_binding) {
                    let mut bi = self.kids(b);
                    let pat = self.pattern(bi.expect_next(Rule::pattern)?)?;
                    binds.push((pat, self.expr(bi.expect_next(Rule::expr_noin)?)?));
                }
                let body = self.expr(it.expect_next(Rule::expr)?)?;
                ExprKind::Let(binds, Box::new(body))
            }
            Rule::if_expr => {
                let mut it = self.kids(q);
                let c = self.expr(it.expect_next(Rule::expr)?)?;
                let a = self.expr(it.expect_next(Rule::expr)?)?;
                let b = self.expr(it.expect_next(Rule::expr)?)?;
                ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
            }
            Rule::match_expr => {
                let mut it = self.kids(q);
                let scrut = self.expr(it.expect_next(Rule::expr)?)?;
                let mut arms = vec![];
                while !it.is_done() {
                    let mut ai = self.kids(it.expect_next(Rule::arm)?);
                    let pat = self.pattern(ai.expect_next(Rule::pattern)?)?;
                    let first = self.expr(ai.expect_next(Rule::expr)?)?;
                    let (guard, body) = match ai.optional(Rule::expr) {
                        Some(b) => (Some(first), self.expr(b)?),
                        None => (None, first),
                    };
                    arms.push(Arm { pat, guard, body });
                }
                ExprKind::Match(Box::new(scrut), arms)
            }
            Rule::quant_expr => {
                let mut it = self.kids(q);
                let kw = it.expect_next(Rule::quant_kw)?.as_str();
                let quant = if kw == "all" || kw == "∀" {
                    Quant::All
                } else {
                    Quant::Any
                };
                let binders = self.binders(it.expect_next(Rule::binders)?)?;
                let body = self.expr(it.expect_next(Rule::expr)?)?;
                ExprKind::Quant(quant, binders, Box::new(body))
            }
            Rule::agg_expr => {
                let mut it = self.kids(q);
                let agg = match it.expect_next(Rule::agg_kw)?.as_str() {
                    "count" => Agg::Count,
                    "sum" => Agg::Sum,
                    "min" => Agg::Min,
                    _ => Agg::Max,
                };
                let binders = self.binders(it.expect_next(Rule::binders)?)?;
                let body = self.expr(it.expect_next(Rule::expr)?)?;
                ExprKind::Agg(agg, binders, Box::new(body))
            }
            Rule::closure_expr => {
                let mut it = self.kids(q);
                let s = self.expr(it.expect_next(Rule::expr)?)?;
                let f = self.expr(it.expect_next(Rule::expr)?)?;
                ExprKind::Closure(Box::new(s), Box::new(f))
            }
            Rule::lambda => {
                let mut it = self.kids(q);
                let ps = it.expect_next(Rule::lambda_params)?;
                let pats =
                    if ps.clone().into_inner().next().map(|x| x.as_rule()) == Some(Rule::ident) {
                        vec![Pattern {
                            kind: PatternKind::Name(ps.as_str().trim().to_string()),
                            span: self.span(&ps),
                        }]
                    } else {
                        self.kids(ps)
                            .map(|x| self.pattern(x))
                            .collect::<R<Vec<_>>>()?
                    };
                let body = self.expr(it.expect_next(Rule::expr)?)?;
                ExprKind::Lambda(pats, Box::new(body))
            }
            Rule::set_or_map => match q.into_inner().next() {
                None => ExprKind::Set(vec![]),
                Some(b) => match b.as_rule() {
                    Rule::map_empty => ExprKind::Map(vec![]),
                    Rule::brace_body => return self.brace_body(b, span, true),
                    r => {
                        return Err(shape_error(
                            span,
                            Rule::set_or_map,
                            "`map_empty` or `brace_body`",
                            Some(r),
                        ))
                    }
                },
            },
            Rule::seq_brackets => match self.kids(q).optional(Rule::brace_body) {
                None => ExprKind::Seq(vec![]),
                Some(b) => return self.brace_body(b, span, false),
            },
            r => return Err(shape_error(span, inside, "a primary expression", Some(r))),
        };
        Ok(Expr::new(kind, span))
    }

    fn brace_body(&self, b: Pair<Rule>, span: Span, is_set: bool) -> R<Expr> {
        let mut it = self.kids(b);
        let first_pair = it.expect_next(Rule::expr)?;
        // `{(x in S) | ...}` keeps a membership test as its head; `{x in S | ...}` is a filter
        let mut fi = first_pair.clone().into_inner();
        let parenthesized = matches!(
            (fi.next().map(|p| p.as_rule()), fi.next()),
            (Some(Rule::paren), None)
        );
        let first = self.expr(first_pair)?;
        let rest = it.expect_next_of(&[Rule::brace_map, Rule::brace_comp, Rule::brace_elems])?;
        let kind = match rest.as_rule() {
            Rule::brace_map => {
                if !is_set {
                    return Err(Diag::error(
                        code::MAP_ENTRIES_IN_SEQUENCE,
                        "a sequence cannot hold `key: value` entries",
                    )
                    .label(span, "this sequence")
                    .help("write a map with braces: `{ k: v }`"));
                }
                let (v, rest) = self.brace_map(rest)?;
                match rest {
                    MapRest::Comp(quals) => ExprKind::MapComp(Box::new(first), Box::new(v), quals),
                    MapRest::More(mut more) => {
                        more.insert(0, (first, v));
                        ExprKind::Map(more)
                    }
                }
            }
            Rule::brace_comp => {
                let quals = self.brace_comp(rest)?;
                let (head, quals) = if parenthesized {
                    (first, quals)
                } else {
                    filter_form(first, quals)
                };
                if is_set {
                    ExprKind::SetComp(Box::new(head), quals)
                } else {
                    ExprKind::SeqComp(Box::new(head), quals)
                }
            }
            _ => {
                let mut items = vec![first];
                for e in self.kids(rest) {
                    items.push(self.expr(e)?);
                }
                if is_set {
                    ExprKind::Set(items)
                } else {
                    ExprKind::Seq(items)
                }
            }
        };
        Ok(Expr::new(kind, span))
    }
}

/// The text between the end of the last child of a parenthesis and its closing bracket.
fn self_src<'a>(children: &[Pair<'a, Rule>], from: usize, to: usize) -> &'a str {
    match children.last() {
        Some(c) => c.get_input().get(from..to).unwrap_or(""),
        None => "",
    }
}

enum MapRest {
    Comp(Vec<Qual>),
    More(Vec<(Expr, Expr)>),
}

/// `{ x in S | q1, ..., qn }` means the x in S for which the qualifiers hold: the generators of
/// the qualifiers come first (S may use their variables), then `x in S`, then the other
/// qualifiers.
fn filter_form(head: Expr, quals: Vec<Qual>) -> (Expr, Vec<Qual>) {
    if let ExprKind::Binary(BinOp::In, x, s) = &head.kind {
        if let ExprKind::Var(name) = &x.kind {
            let pat = Pattern {
                kind: PatternKind::Name(name.clone()),
                span: x.span,
            };
            let (gens, rest): (Vec<Qual>, Vec<Qual>) =
                quals.into_iter().partition(|q| matches!(q, Qual::Gen(..)));
            let mut out = gens;
            out.push(Qual::Gen(pat, (**s).clone()));
            out.extend(rest);
            return ((**x).clone(), out);
        }
    }
    (head, quals)
}

fn too_big(span: Span) -> Diag {
    Diag::error(
        code::NUMBER_TOO_LARGE,
        "this number does not fit in a 64-bit integer",
    )
    .label(span, "too large")
    .help("numbers range from -9223372036854775808 to 9223372036854775807")
}

fn binop_of(r: Rule) -> Option<BinOp> {
    use BinOp::*;
    Some(match r {
        Rule::op_implies => Implies,
        Rule::op_iff => Iff,
        Rule::op_or => Or,
        Rule::op_and => And,
        Rule::op_notin | Rule::op_nelem => NotIn,
        Rule::op_in | Rule::op_elem => In,
        Rule::op_subset => Subset,
        Rule::op_eq => Eq,
        Rule::op_ne => Ne,
        Rule::op_le => Le,
        Rule::op_ge => Ge,
        Rule::op_lt => Lt,
        Rule::op_gt => Gt,
        Rule::op_range => Range,
        Rule::op_concat => Concat,
        Rule::op_add => Add,
        Rule::op_sub => Sub,
        Rule::op_union => Union,
        Rule::op_diff => Diff,
        Rule::op_mul => Mul,
        Rule::op_div => Div,
        Rule::op_mod => Mod,
        Rule::op_inter => Inter,
        _ => return None,
    })
}

/// Precedence climbing over the flat token list; nothing when the list is not operands
/// alternating with infix operators (the grammar rules that out).
fn climb(toks: &mut [Tok], pos: &mut usize, min_prec: u8) -> Option<Expr> {
    stacker::maybe_grow(64 << 10, 8 << 20, || {
        let mut lhs = unary(toks, pos)?;
        while let Some(Tok::Infix(op)) = toks.get(*pos) {
            let op = *op;
            let (p, right) = op.prec();
            if p < min_prec {
                break;
            }
            *pos += 1;
            let rhs = climb(toks, pos, if right { p } else { p + 1 })?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
        }
        Some(lhs)
    })
}

fn unary(toks: &mut [Tok], pos: &mut usize) -> Option<Expr> {
    match toks.get_mut(*pos)? {
        Tok::Prefix(UnOp::Not, s) => {
            let s = *s;
            *pos += 1;
            let e = climb(toks, pos, PREC_NOT + 1)?;
            let span = s.to(e.span);
            Some(Expr::new(ExprKind::Unary(UnOp::Not, Box::new(e)), span))
        }
        Tok::Prefix(UnOp::Neg, _) => {
            // a run of `-` is read in a loop, not one call deeper for each
            let mut signs = vec![];
            while let Some(Tok::Prefix(UnOp::Neg, s)) = toks.get(*pos) {
                signs.push(*s);
                *pos += 1;
            }
            let mut e = unary(toks, pos)?;
            for s in signs.into_iter().rev() {
                let span = s.to(e.span);
                // fold a negative literal so that `-5` prints and reparses as itself
                e = match e.kind {
                    ExprKind::Int(v) => Expr::new(ExprKind::Int(-v), span),
                    _ => Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(e)), span),
                };
            }
            Some(e)
        }
        Tok::Operand(e) => {
            // each operand is read once; what stays behind is never looked at again
            let e = std::mem::replace(e, Expr::new(ExprKind::Bool(false), Span::default()));
            *pos += 1;
            Some(e)
        }
        Tok::Infix(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_pair(rule: Rule, text: &str) -> Pair<'_, Rule> {
        let top = Grammar::parse(rule, text).unwrap().next().unwrap();
        top.into_inner().next().unwrap()
    }

    /// The builder's pieces, handed a pair of a rule they do not read, answer with the internal
    /// diagnostic instead of panicking.
    #[test]
    fn a_pair_of_an_unexpected_rule_is_a_diagnostic() {
        let b = Builder::new(0);
        let e = || first_pair(Rule::expr_input, "f(1) + 2");
        let item = first_pair(Rule::file, "def x = 1");
        for d in [
            b.item(e(), Rule::file).unwrap_err(),
            b.pattern(e()).unwrap_err(),
            b.type_expr(e()).unwrap_err(),
            b.expr(item.clone()).unwrap_err(),
            b.params(e()).unwrap_err(),
            b.binders(e()).unwrap_err(),
            b.quals(item.clone()).unwrap_err(),
            b.brace_body(e(), Span::default(), true).unwrap_err(),
            b.def(b.kids(e())).unwrap_err(),
            b.native(b.kids(item)).unwrap_err(),
        ] {
            assert_eq!(
                d.code,
                crate::diagnostics::code::UNEXPECTED_SYNTAX_NODE,
                "{}",
                d.message
            );
            assert!(d.message.starts_with("internal error"), "{}", d.message);
        }
        assert!(b.expr(e()).is_ok());
    }
}
