//! From pest pairs to the syntax tree.

use super::ast::*;
use crate::diagnostics::Diag;
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/okite.pest"]
struct Grammar;

/// How deeply brackets and nested expression forms may go before a file is refused. The parser
/// recurses once per level; this bound and the parser's own stack keep it far from overflow.
pub const MAX_NESTING: usize = 2000;
/// Rule files larger than this are refused (the largest real rule file is a few dozen KiB).
pub const MAX_SOURCE_BYTES: usize = 16 << 20;

/// Parse a whole rule file.
pub fn parse_file(text: &str, file: FileId) -> Result<File, Vec<Diag>> {
    precheck(text, file)?;
    let pairs = on_big_stack(|| Grammar::parse(Rule::file, text).map_err(|e| pest_error(e, file)))
        .map_err(|d| vec![d])?;
    let b = Builder { file };
    let file_pair = pairs.into_iter().next().expect("file rule");
    let mut items = vec![];
    let mut errors = vec![];
    for p in file_pair.into_inner() {
        if p.as_rule() == Rule::EOI {
            continue;
        }
        match b.item(p) {
            Ok(i) => items.push(i),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if items.is_empty() {
        return Err(vec![Diag::error(
            "E0004",
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
    Items(Vec<Item>),
    Expr(Expr),
}

pub fn parse_repl(text: &str, file: FileId) -> Result<ReplInput, Vec<Diag>> {
    precheck(text, file)?;
    let pairs =
        on_big_stack(|| Grammar::parse(Rule::repl_input, text).map_err(|e| pest_error(e, file)))
            .map_err(|d| vec![d])?;
    let b = Builder { file };
    let top = pairs.into_iter().next().expect("repl rule");
    let inner: Vec<Pair<Rule>> = top
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .collect();
    if inner.len() == 1 && inner[0].as_rule() == Rule::expr {
        return b
            .expr(inner.into_iter().next().unwrap())
            .map(ReplInput::Expr)
            .map_err(|e| vec![e]);
    }
    let mut items = vec![];
    for p in inner {
        items.push(b.item(p).map_err(|e| vec![e])?);
    }
    Ok(ReplInput::Items(items))
}

/// Parse one expression (a query on the command line).
pub fn parse_expr(text: &str, file: FileId) -> Result<Expr, Vec<Diag>> {
    precheck(text, file)?;
    let pairs =
        on_big_stack(|| Grammar::parse(Rule::expr_input, text).map_err(|e| pest_error(e, file)))
            .map_err(|d| vec![d])?;
    let b = Builder { file };
    let top = pairs.into_iter().next().expect("expr rule");
    let e = top.into_inner().next().expect("expr");
    b.expr(e).map_err(|d| vec![d])
}

/// Run `f` where the stack can take the parser's recursion at [`MAX_NESTING`] levels.
fn on_big_stack<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(1 << 20, 256 << 20, f)
}

/// Refuse inputs that would make the recursive-descent parser go too deep, before parsing.
fn precheck(text: &str, file: FileId) -> Result<(), Vec<Diag>> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(vec![Diag::error(
            "E0005",
            format!(
                "the source is {} bytes, more than the limit of {} bytes",
                text.len(),
                MAX_SOURCE_BYTES
            ),
        )
        .label(Span::new(file, 0, 0), "this source")
        .help("split the rules into several files joined by `use`")]);
    }
    if let Some(pos) = text.find('\0') {
        return Err(vec![Diag::error(
            "E0006",
            "this is not a text file (it contains a NUL byte)",
        )
        .label(Span::new(file, pos, pos + 1), "NUL byte")
        .help("rule files are UTF-8 text")]);
    }
    // bracket depth plus the nested expression forms that open since the last bracket change
    let mut depth: usize = 0;
    let mut stack: Vec<(usize, usize)> = vec![]; // (byte offset, nesting at that point)
    let mut forms: usize = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i += 2;
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => {
                stack.push((i, forms));
                depth += 1;
            }
            b')' | b']' | b'}' => {
                if let Some((_, f)) = stack.pop() {
                    forms = f;
                }
                depth = depth.saturating_sub(1);
            }
            b'a'..=b'z' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let w = &text[start..i];
                let prev_ok = start == 0
                    || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
                if prev_ok
                    && matches!(
                        w,
                        "let"
                            | "if"
                            | "match"
                            | "all"
                            | "any"
                            | "exists"
                            | "closure"
                            | "count"
                            | "sum"
                            | "min"
                            | "max"
                    )
                {
                    forms += 1;
                }
                if prev_ok
                    && depth == 0
                    && matches!(
                        w,
                        "def" | "example" | "theorem" | "reading" | "native" | "enum"
                    )
                {
                    forms = 0;
                }
                continue;
            }
            _ => {}
        }
        if depth + forms > MAX_NESTING {
            let at = stack.last().map(|s| s.0).unwrap_or(i);
            return Err(vec![Diag::error(
                "E0007",
                format!("the expression is nested more than {MAX_NESTING} levels deep"),
            )
            .label(Span::new(file, at, at + 1), "nesting passes the limit here")
            .help(
                "name intermediate results with `def` or `let` instead of nesting them",
            )]);
        }
        i += 1;
    }
    Ok(())
}

fn rule_name(r: &Rule) -> Option<&'static str> {
    use Rule::*;
    Some(match r {
        EOI => "end of input",
        ident | var => "a name",
        reading_name => "a reading name",
        hook_path => "a native function path such as `shogi.successors`",
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
    Diag::error("E0001", format!("syntax error: {what}"))
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
}

type R<T> = Result<T, Diag>;

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
    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = p.as_span();
        Span::new(self.file, s.start(), s.end())
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

    fn item(&self, p: Pair<Rule>) -> R<Item> {
        let span = self.span(&p);
        Ok(match p.as_rule() {
            Rule::use_decl => Item::Use(UseDecl {
                path: self.string(p.into_inner().next().unwrap()),
                span,
            }),
            Rule::enum_decl => {
                let mut it = p.into_inner();
                let name = self.name(it.next().unwrap());
                let mut variants = vec![];
                for v in it {
                    let vspan = self.span(&v);
                    let mut vi = v.into_inner();
                    let vname = self.name(vi.next().unwrap());
                    let aliases = self.aliases(vi.next().unwrap());
                    let mut fields = vec![];
                    if let Some(f) = vi.next() {
                        for t in f.into_inner() {
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
                let mut it = p.into_inner();
                let name = self.name(it.next().unwrap());
                let ty = match it.next() {
                    Some(t) => Some(self.type_expr(t)?),
                    None => None,
                };
                Item::Type(TypeDecl { name, ty, span })
            }
            Rule::def_decl => Item::Def(self.def(p)?),
            Rule::native_decl => Item::Native(self.native(p)?),
            Rule::reading_decl => {
                let mut it = p.into_inner();
                let name = self.name(it.next().unwrap());
                let mut parents = vec![];
                let mut items = vec![];
                for q in it {
                    match q.as_rule() {
                        Rule::reading_parents => {
                            parents = q.into_inner().map(|n| self.name(n)).collect()
                        }
                        Rule::override_decl => items.push(ReadingItem::Override(
                            self.def(q.into_inner().next().unwrap())?,
                        )),
                        Rule::def_decl => items.push(ReadingItem::Def(self.def(q)?)),
                        Rule::native_decl => items.push(ReadingItem::Native(self.native(q)?)),
                        _ => {}
                    }
                }
                Item::Reading(ReadingDecl {
                    name,
                    parents,
                    items,
                    span,
                })
            }
            Rule::example_decl => {
                let mut it = p.into_inner();
                let name = self.string(it.next().unwrap());
                let mut reading = None;
                let mut stmts = vec![];
                for q in it {
                    match q.as_rule() {
                        Rule::reading_clause => {
                            reading = Some(self.name(q.into_inner().next().unwrap()))
                        }
                        Rule::let_stmt => {
                            let mut li = q.into_inner();
                            let pat = self.pattern(li.next().unwrap())?;
                            let e = self.expr(li.next().unwrap())?;
                            stmts.push(Stmt::Let(pat, e));
                        }
                        Rule::assert_stmt => {
                            let mut ai = q.into_inner();
                            let e = self.expr(ai.next().unwrap())?;
                            let msg = ai.next().map(|m| self.string(m));
                            stmts.push(Stmt::Assert(e, msg));
                        }
                        _ => {}
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
                let mut it = p.into_inner();
                let name = self.string(it.next().unwrap());
                let mut reading = None;
                let mut binders = vec![];
                let mut body = None;
                for q in it {
                    match q.as_rule() {
                        Rule::reading_clause => {
                            reading = Some(self.name(q.into_inner().next().unwrap()))
                        }
                        Rule::binders => binders = self.binders(q)?,
                        _ => body = Some(self.expr(q)?),
                    }
                }
                Item::Theorem(TheoremDecl {
                    name,
                    reading,
                    binders,
                    body: body.unwrap(),
                    span,
                })
            }
            r => return Err(Diag::error("E0002", format!("unexpected {r:?}")).label(span, "")),
        })
    }

    fn aliases(&self, p: Pair<Rule>) -> Vec<Name> {
        p.into_inner().map(|n| self.name(n)).collect()
    }

    fn params(&self, p: Pair<Rule>) -> R<Vec<Param>> {
        let mut out = vec![];
        for q in p.into_inner() {
            let mut it = q.into_inner();
            let name = self.name(it.next().unwrap());
            let ty = match it.next() {
                Some(t) => Some(self.type_expr(t)?),
                None => None,
            };
            out.push(Param { name, ty });
        }
        Ok(out)
    }

    fn def(&self, p: Pair<Rule>) -> R<DefDecl> {
        let span = self.span(&p);
        let mut it = p.into_inner();
        let name = self.name(it.next().unwrap());
        let aliases = self.aliases(it.next().unwrap());
        let mut params = None;
        let mut ret = None;
        let mut body = None;
        for q in it {
            match q.as_rule() {
                Rule::params => params = Some(self.params(q)?),
                Rule::ret_type => ret = Some(self.type_expr(q.into_inner().next().unwrap())?),
                _ => body = Some(self.expr(q)?),
            }
        }
        Ok(DefDecl {
            name,
            aliases,
            params,
            ret,
            body: body.unwrap(),
            span,
        })
    }

    fn native(&self, p: Pair<Rule>) -> R<NativeDecl> {
        let span = self.span(&p);
        let q = p.into_inner().next().unwrap();
        match q.as_rule() {
            Rule::native_prim => {
                let mut it = q.into_inner();
                let name = self.name(it.next().unwrap());
                let aliases = self.aliases(it.next().unwrap());
                let params = self.params(it.next().unwrap())?;
                let ret = self.type_expr(it.next().unwrap().into_inner().next().unwrap())?;
                let hook = self.name(it.next().unwrap());
                Ok(NativeDecl::Prim {
                    name,
                    aliases,
                    params,
                    ret,
                    hook,
                    span,
                })
            }
            _ => {
                let mut it = q.into_inner();
                let name = self.name(it.next().unwrap());
                let hook = self.name(it.next().unwrap());
                Ok(NativeDecl::Bind { name, hook, span })
            }
        }
    }

    fn type_expr(&self, p: Pair<Rule>) -> R<TypeExpr> {
        match p.as_rule() {
            Rule::type_expr => {
                let mut it = p.into_inner();
                let a = self.type_expr(it.next().unwrap())?;
                match it.next() {
                    Some(b) => Ok(TypeExpr::Fun(Box::new(a), Box::new(self.type_expr(b)?))),
                    None => Ok(a),
                }
            }
            Rule::type_tuple => {
                let span = self.span(&p);
                let items = p
                    .into_inner()
                    .map(|t| self.type_expr(t))
                    .collect::<R<Vec<_>>>()?;
                Ok(TypeExpr::Tuple(items, span))
            }
            Rule::type_app => {
                let mut it = p.into_inner();
                let n = self.name(it.next().unwrap());
                let args = it.map(|t| self.type_expr(t)).collect::<R<Vec<_>>>()?;
                Ok(TypeExpr::App(n, args))
            }
            _ => Ok(TypeExpr::Name(self.name(p.into_inner().next().unwrap()))),
        }
    }

    fn pattern(&self, p: Pair<Rule>) -> R<Pattern> {
        let span = self.span(&p);
        match p.as_rule() {
            Rule::pattern => {
                let mut alts = p
                    .into_inner()
                    .map(|q| self.pattern(q))
                    .collect::<R<Vec<_>>>()?;
                if alts.len() == 1 {
                    Ok(alts.pop().unwrap())
                } else {
                    Ok(Pattern {
                        kind: PatternKind::Or(alts),
                        span,
                    })
                }
            }
            Rule::simple_pattern => self.pattern(p.into_inner().next().unwrap()),
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
                kind: PatternKind::Str(self.string(p.into_inner().next().unwrap())),
                span,
            }),
            Rule::pat_tuple => {
                let items = p
                    .into_inner()
                    .map(|q| self.pattern(q))
                    .collect::<R<Vec<_>>>()?;
                Ok(Pattern {
                    kind: PatternKind::Tuple(items),
                    span,
                })
            }
            Rule::pat_ctor => {
                let mut it = p.into_inner();
                let n = self.name(it.next().unwrap());
                let args = it.map(|q| self.pattern(q)).collect::<R<Vec<_>>>()?;
                Ok(Pattern {
                    kind: PatternKind::Ctor(n, args),
                    span,
                })
            }
            _ => Ok(Pattern {
                kind: PatternKind::Name(p.as_str().to_string()),
                span,
            }),
        }
    }

    fn binders(&self, p: Pair<Rule>) -> R<Vec<Binder>> {
        let mut out = vec![];
        for b in p.into_inner() {
            let mut pats = vec![];
            let mut domain = None;
            for q in b.into_inner().filter(|q| q.as_rule() != Rule::kw_in) {
                if q.as_rule() == Rule::simple_pattern {
                    pats.push(self.pattern(q)?);
                } else {
                    domain = Some(self.expr(q)?);
                }
            }
            out.push(Binder {
                pats,
                domain: domain.unwrap(),
            });
        }
        Ok(out)
    }

    fn quals(&self, p: Pair<Rule>) -> R<Vec<Qual>> {
        let mut out = vec![];
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::qual_let => {
                    let mut it = q.into_inner();
                    let pat = self.pattern(it.next().unwrap())?;
                    out.push(Qual::Let(pat, self.expr(it.next().unwrap())?));
                }
                Rule::qual_gen => {
                    let mut it = q.into_inner().filter(|q| q.as_rule() != Rule::kw_in);
                    let pat = self.pattern(it.next().unwrap())?;
                    out.push(Qual::Gen(pat, self.expr(it.next().unwrap())?));
                }
                _ => out.push(Qual::Guard(self.expr(q.into_inner().next().unwrap())?)),
            }
        }
        Ok(out)
    }

    pub fn expr(&self, p: Pair<Rule>) -> R<Expr> {
        stacker::maybe_grow(64 << 10, 8 << 20, || self.expr_inner(p))
    }

    fn expr_inner(&self, p: Pair<Rule>) -> R<Expr> {
        // expr / expr_noin: a flat list of prefix ops, primaries, postfixes and infix ops
        let mut toks: Vec<Tok> = vec![];
        let mut pending: Option<Expr> = None;
        for q in p.into_inner() {
            let span = self.span(&q);
            match q.as_rule() {
                Rule::op_not => toks.push(Tok::Prefix(UnOp::Not, span)),
                Rule::op_neg => toks.push(Tok::Prefix(UnOp::Neg, span)),
                Rule::call_args | Rule::index | Rule::proj | Rule::with_upd => {
                    let base = pending.take().unwrap();
                    pending = Some(self.postfix(base, q)?);
                }
                r if binop_of(r).is_some() => {
                    if let Some(e) = pending.take() {
                        toks.push(Tok::Operand(e));
                    }
                    toks.push(Tok::Infix(binop_of(r).unwrap()));
                }
                _ => {
                    if let Some(e) = pending.take() {
                        toks.push(Tok::Operand(e));
                    }
                    pending = Some(self.primary(q)?);
                }
            }
        }
        if let Some(e) = pending.take() {
            toks.push(Tok::Operand(e));
        }
        let mut pos = 0;
        let e = climb(&mut toks, &mut pos, 0);
        Ok(e)
    }

    fn postfix(&self, base: Expr, q: Pair<Rule>) -> R<Expr> {
        let span = base.span.to(self.span(&q));
        Ok(match q.as_rule() {
            Rule::call_args => {
                let args = q
                    .into_inner()
                    .map(|a| self.expr(a))
                    .collect::<R<Vec<_>>>()?;
                Expr::new(ExprKind::Call(Box::new(base), args), span)
            }
            Rule::index => {
                let ip = q.into_inner().next().unwrap();
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
                let n = q.into_inner().next().unwrap();
                let nspan = self.span(&n);
                let k: u32 = n.as_str().parse().map_err(|_| too_big(nspan))?;
                if k == 0 {
                    return Err(Diag::error("E0008", "tuple components are numbered from 1")
                        .label(nspan, "`.0` does not exist")
                        .help("write `.1` for the first component"));
                }
                Expr::new(ExprKind::Proj(Box::new(base), k), span)
            }
            _ => {
                // with { k: v, ... } | with { k: v | quals }
                let mut it = q.into_inner();
                let k = self.expr(it.next().unwrap())?;
                let m = it.next().unwrap();
                let (v, rest) = self.brace_map(m)?;
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
        })
    }

    fn brace_map(&self, m: Pair<Rule>) -> R<(Expr, MapRest)> {
        let mut it = m.into_inner();
        let v = self.expr(it.next().unwrap())?;
        let rest = it.next().unwrap();
        Ok(match rest.as_rule() {
            Rule::brace_comp => (
                v,
                MapRest::Comp(self.quals(rest.into_inner().next().unwrap())?),
            ),
            _ => {
                let mut more = vec![];
                for e in rest.into_inner() {
                    let mut ei = e.into_inner();
                    let k = self.expr(ei.next().unwrap())?;
                    let v = self.expr(ei.next().unwrap())?;
                    more.push((k, v));
                }
                (v, MapRest::More(more))
            }
        })
    }

    fn primary(&self, q: Pair<Rule>) -> R<Expr> {
        let span = self.span(&q);
        let kind = match q.as_rule() {
            Rule::lit_true => ExprKind::Bool(true),
            Rule::lit_false => ExprKind::Bool(false),
            Rule::lit_int => ExprKind::Int(q.as_str().parse().map_err(|_| too_big(span))?),
            Rule::lit_str => ExprKind::Str(self.string(q.into_inner().next().unwrap())),
            Rule::var => ExprKind::Var(q.as_str().to_string()),
            Rule::base_ref => ExprKind::Base(self.name(q.into_inner().next().unwrap())),
            Rule::paren => {
                let end = q.as_span().end();
                let children: Vec<Pair<Rule>> = q.into_inner().collect();
                let after_last = children.last().map(|c| c.as_span().end()).unwrap_or(end);
                let src = self_src(&children, after_last, end);
                let trailing_comma = src.contains(',');
                let mut items = children
                    .into_iter()
                    .map(|e| self.expr(e))
                    .collect::<R<Vec<_>>>()?;
                if items.len() == 1 && !trailing_comma {
                    let mut e = items.pop().unwrap();
                    e.span = span;
                    return Ok(e);
                }
                ExprKind::Tuple(items)
            }
            Rule::let_expr => {
                let mut binds = vec![];
                let mut body = None;
                for b in q.into_inner() {
                    if b.as_rule() == Rule::let_binding {
                        let mut bi = b.into_inner();
                        let pat = self.pattern(bi.next().unwrap())?;
                        binds.push((pat, self.expr(bi.next().unwrap())?));
                    } else {
                        body = Some(self.expr(b)?);
                    }
                }
                ExprKind::Let(binds, Box::new(body.unwrap()))
            }
            Rule::if_expr => {
                let mut it = q.into_inner();
                let c = self.expr(it.next().unwrap())?;
                let a = self.expr(it.next().unwrap())?;
                let b = self.expr(it.next().unwrap())?;
                ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
            }
            Rule::match_expr => {
                let mut it = q.into_inner();
                let scrut = self.expr(it.next().unwrap())?;
                let mut arms = vec![];
                for a in it {
                    let parts: Vec<Pair<Rule>> = a.into_inner().collect();
                    let pat = self.pattern(parts[0].clone())?;
                    let (guard, body) = if parts.len() == 3 {
                        (
                            Some(self.expr(parts[1].clone())?),
                            self.expr(parts[2].clone())?,
                        )
                    } else {
                        (None, self.expr(parts[1].clone())?)
                    };
                    arms.push(Arm { pat, guard, body });
                }
                ExprKind::Match(Box::new(scrut), arms)
            }
            Rule::quant_expr => {
                let mut it = q.into_inner();
                let kw = it.next().unwrap().as_str();
                let quant = if kw == "all" || kw == "∀" {
                    Quant::All
                } else {
                    Quant::Any
                };
                let binders = self.binders(it.next().unwrap())?;
                let body = self.expr(it.next().unwrap())?;
                ExprKind::Quant(quant, binders, Box::new(body))
            }
            Rule::agg_expr => {
                let mut it = q.into_inner();
                let agg = match it.next().unwrap().as_str() {
                    "count" => Agg::Count,
                    "sum" => Agg::Sum,
                    "min" => Agg::Min,
                    _ => Agg::Max,
                };
                let binders = self.binders(it.next().unwrap())?;
                let body = self.expr(it.next().unwrap())?;
                ExprKind::Agg(agg, binders, Box::new(body))
            }
            Rule::closure_expr => {
                let mut it = q.into_inner();
                let s = self.expr(it.next().unwrap())?;
                let f = self.expr(it.next().unwrap())?;
                ExprKind::Closure(Box::new(s), Box::new(f))
            }
            Rule::lambda => {
                let mut it = q.into_inner();
                let ps = it.next().unwrap();
                let pats =
                    if ps.clone().into_inner().next().map(|x| x.as_rule()) == Some(Rule::ident) {
                        vec![Pattern {
                            kind: PatternKind::Name(ps.as_str().trim().to_string()),
                            span: self.span(&ps),
                        }]
                    } else {
                        ps.into_inner()
                            .map(|x| self.pattern(x))
                            .collect::<R<Vec<_>>>()?
                    };
                let body = self.expr(it.next().unwrap())?;
                ExprKind::Lambda(pats, Box::new(body))
            }
            Rule::set_or_map => match q.into_inner().next() {
                None => ExprKind::Set(vec![]),
                Some(b) if b.as_rule() == Rule::map_empty => ExprKind::Map(vec![]),
                Some(b) => return self.brace_body(b, span, true),
            },
            Rule::seq_brackets => match q.into_inner().next() {
                None => ExprKind::Seq(vec![]),
                Some(b) => return self.brace_body(b, span, false),
            },
            r => return Err(Diag::error("E0002", format!("unexpected {r:?}")).label(span, "")),
        };
        Ok(Expr::new(kind, span))
    }

    fn brace_body(&self, b: Pair<Rule>, span: Span, is_set: bool) -> R<Expr> {
        let mut it = b.into_inner();
        let first_pair = it.next().unwrap();
        // `{(x in S) | ...}` keeps a membership test as its head; `{x in S | ...}` is a filter
        let mut fi = first_pair.clone().into_inner();
        let parenthesized = matches!(
            (fi.next().map(|p| p.as_rule()), fi.next()),
            (Some(Rule::paren), None)
        );
        let first = self.expr(first_pair)?;
        let rest = it.next().unwrap();
        let kind = match rest.as_rule() {
            Rule::brace_map => {
                if !is_set {
                    return Err(Diag::error(
                        "E0009",
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
                let quals = self.quals(rest.into_inner().next().unwrap())?;
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
                for e in rest.into_inner() {
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
    Diag::error("E0003", "this number does not fit in a 64-bit integer")
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

/// Precedence climbing over the flat token list.
fn climb(toks: &mut [Tok], pos: &mut usize, min_prec: u8) -> Expr {
    stacker::maybe_grow(64 << 10, 8 << 20, || {
        let mut lhs = unary(toks, pos);
        while let Some(Tok::Infix(op)) = toks.get(*pos) {
            let op = *op;
            let (p, right) = op.prec();
            if p < min_prec {
                break;
            }
            *pos += 1;
            let rhs = climb(toks, pos, if right { p } else { p + 1 });
            let span = lhs.span.to(rhs.span);
            lhs = Expr::new(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span);
        }
        lhs
    })
}

fn unary(toks: &mut [Tok], pos: &mut usize) -> Expr {
    match toks.get(*pos) {
        Some(Tok::Prefix(UnOp::Not, s)) => {
            let s = *s;
            *pos += 1;
            let e = climb(toks, pos, PREC_NOT + 1);
            let span = s.to(e.span);
            Expr::new(ExprKind::Unary(UnOp::Not, Box::new(e)), span)
        }
        Some(Tok::Prefix(UnOp::Neg, s)) => {
            let s = *s;
            *pos += 1;
            let e = unary(toks, pos);
            let span = s.to(e.span);
            // fold a negative literal so that `-5` prints and reparses as itself
            if let ExprKind::Int(v) = e.kind {
                return Expr::new(ExprKind::Int(-v), span);
            }
            Expr::new(ExprKind::Unary(UnOp::Neg, Box::new(e)), span)
        }
        Some(Tok::Operand(_)) => {
            let t = std::mem::replace(&mut toks[*pos], Tok::Infix(BinOp::Add));
            *pos += 1;
            match t {
                Tok::Operand(e) => e,
                _ => unreachable!(),
            }
        }
        _ => Expr::new(ExprKind::Bool(false), Span::default()),
    }
}
