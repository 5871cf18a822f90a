//! The pretty-printer: syntax trees back to rule-file text that parses to the same tree.

use super::ast::*;
use std::fmt::Write;

/// `write!` into a `String`, which cannot fail: there is no error to look at.
macro_rules! put {
    ($out:expr, $($arg:tt)*) => {{
        let _ = write!($out, $($arg)*);
    }};
}

/// `writeln!` into a `String`, which cannot fail.
macro_rules! putln {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

/// The text of a file, in the canonical layout (which parses back to the same tree).
pub fn print_file(f: &File) -> String {
    let mut out = String::new();
    for (i, item) in f.items.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&print_item(item));
        out.push('\n');
    }
    out
}

fn quote(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\t' => o.push_str("\\t"),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn aliases(a: &[Name]) -> String {
    a.iter().map(|n| format!(" as {}", n.text)).collect()
}

fn params(ps: &[Param]) -> String {
    let v: Vec<String> = ps
        .iter()
        .map(|p| match &p.ty {
            Some(t) => format!("{}: {}", p.name.text, print_type(t)),
            None => p.name.text.clone(),
        })
        .collect();
    format!("({})", v.join(", "))
}

/// The text of a definition, in the canonical layout (its fingerprint is made from it).
pub fn print_def(d: &DefDecl) -> String {
    let mut s = format!("def {}{}", d.name.text, aliases(&d.aliases));
    if let Some(ps) = &d.params {
        s.push_str(&params(ps));
    }
    if let Some(r) = &d.ret {
        put!(s, " -> {}", print_type(r));
    }
    put!(s, " =\n    {}", print_expr(&d.body));
    s
}

fn print_native(n: &NativeDecl) -> String {
    match n {
        NativeDecl::Prim {
            name,
            aliases: al,
            params: ps,
            ret,
            path,
            ..
        } => format!(
            "native def {}{}{} -> {} = {}",
            name.text,
            aliases(al),
            params(ps),
            print_type(ret),
            path.text
        ),
        NativeDecl::Bind { name, path, .. } => format!("native {} = {}", name.text, path.text),
    }
}

/// The text of an item, in the canonical layout.
pub fn print_item(item: &Item) -> String {
    match item {
        Item::Use(u) => format!("use {}", quote(&u.path)),
        Item::Enum(e) => {
            let vs: Vec<String> = e
                .variants
                .iter()
                .map(|v| {
                    let mut s = format!("{}{}", v.name.text, aliases(&v.aliases));
                    if !v.fields.is_empty() {
                        let f: Vec<String> = v.fields.iter().map(print_type).collect();
                        put!(s, "({})", f.join(", "));
                    }
                    s
                })
                .collect();
            format!("enum {} {{ {} }}", e.name.text, vs.join(", "))
        }
        Item::Type(t) => match &t.ty {
            Some(ty) => format!("type {} = {}", t.name.text, print_type(ty)),
            None => format!("type {}", t.name.text),
        },
        Item::Def(d) => print_def(d),
        Item::Native(n) => print_native(n),
        Item::Reading(r) => {
            let mut s = format!("reading {}", r.name.text);
            if !r.parents.is_empty() {
                let ps: Vec<&str> = r.parents.iter().map(|p| p.text.as_str()).collect();
                put!(s, " extends {}", ps.join(", "));
            }
            s.push_str(" {\n");
            for it in &r.items {
                let t = match it {
                    ReadingItem::Override(d) => format!("override {}", print_def(d)),
                    ReadingItem::Def(d) => print_def(d),
                    ReadingItem::Native(n) => print_native(n),
                };
                for line in t.lines() {
                    putln!(s, "    {line}");
                }
            }
            s.push('}');
            s
        }
        Item::Example(e) => {
            let mut s = format!("example {}", quote(&e.name));
            if let Some(r) = &e.reading {
                put!(s, " reading {}", r.text);
            }
            s.push_str(" {\n");
            for st in &e.stmts {
                match st {
                    Stmt::Let(p, x) => {
                        putln!(s, "    let {} = {};", print_pattern(p), print_noin(x))
                    }
                    Stmt::Assert(x, m) => match m {
                        Some(m) => {
                            putln!(s, "    assert {}, {}", print_expr(x), quote(m))
                        }
                        None => putln!(s, "    assert {}", print_expr(x)),
                    },
                }
            }
            s.push('}');
            s
        }
        Item::Theorem(t) => {
            let mut s = format!("theorem {}", quote(&t.name));
            if let Some(r) = &t.reading {
                put!(s, " reading {}", r.text);
            }
            if !t.binders.is_empty() {
                put!(s, " for {}", binders(&t.binders));
            }
            put!(s, ":\n    {}", print_expr(&t.body));
            s
        }
    }
}

/// The text of a type as written.
pub fn print_type(t: &TypeExpr) -> String {
    match t {
        TypeExpr::Name(n) => n.text.clone(),
        TypeExpr::App(n, args) => {
            let a: Vec<String> = args.iter().map(print_type).collect();
            format!("{}<{}>", n.text, a.join(", "))
        }
        TypeExpr::Tuple(items, _) => {
            let a: Vec<String> = items.iter().map(print_type).collect();
            format!("({})", a.join(", "))
        }
        TypeExpr::Fun(a, b) => {
            let l = match **a {
                TypeExpr::Fun(..) => format!("({})", print_type(a)),
                _ => print_type(a),
            };
            format!("{} -> {}", l, print_type(b))
        }
    }
}

/// The text of a pattern.
pub fn print_pattern(p: &Pattern) -> String {
    match &p.kind {
        PatternKind::Wild => "_".into(),
        PatternKind::Name(n) => n.clone(),
        PatternKind::Int(i) => i.to_string(),
        PatternKind::Bool(b) => b.to_string(),
        PatternKind::Str(s) => quote(s),
        PatternKind::Tuple(items) => {
            let v: Vec<String> = items.iter().map(print_pattern).collect();
            if v.len() == 1 {
                // a one-element tuple pattern is written `(p)`, which reads back as a tuple
                format!("({})", v[0])
            } else {
                format!("({})", v.join(", "))
            }
        }
        PatternKind::Ctor(n, args) => {
            let v: Vec<String> = args.iter().map(print_pattern).collect();
            format!("{}({})", n.text, v.join(", "))
        }
        PatternKind::Or(alts) => {
            let v: Vec<String> = alts.iter().map(print_pattern).collect();
            v.join(" | ")
        }
    }
}

fn binders(bs: &[Binder]) -> String {
    let v: Vec<String> = bs
        .iter()
        .map(|b| {
            let ps: Vec<String> = b.pats.iter().map(print_pattern).collect();
            format!("{} in {}", ps.join(", "), print_expr(&b.domain))
        })
        .collect();
    v.join(", ")
}

fn quals(qs: &[Qual]) -> String {
    let v: Vec<String> = qs
        .iter()
        .map(|q| match q {
            Qual::Gen(p, e) => format!("{} in {}", print_pattern(p), print_expr(e)),
            Qual::Let(p, e) => format!("let {} = {}", print_pattern(p), print_noin(e)),
            Qual::Guard(e) => {
                // a guard that reads like a generator keeps its parentheses
                let s = print_expr(e);
                match &e.kind {
                    ExprKind::Binary(BinOp::In, ..) | ExprKind::Let(..) => format!("({s})"),
                    _ => s,
                }
            }
        })
        .collect();
    v.join(", ")
}

/// The text of an expression, with the parentheses its precedence needs.
pub fn print_expr(e: &Expr) -> String {
    let mut s = String::new();
    expr(&mut s, e, 0, true);
    s
}

/// An expression where a top-level `in` would be read as the end of a `let` binding.
fn print_noin(e: &Expr) -> String {
    // `in` follows: an open-ended form (`if`, `let`...) at the end must be closed by parentheses
    let mut s = String::new();
    expr(&mut s, e, 0, false);
    if contains_top_in(e) {
        format!("({s})")
    } else {
        s
    }
}

fn contains_top_in(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(BinOp::In, ..) => true,
        ExprKind::Binary(_, a, b) => contains_top_in(a) || contains_top_in(b),
        ExprKind::Unary(_, a) => contains_top_in(a),
        _ => false,
    }
}

fn is_prefix_form(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Let(..)
            | ExprKind::If(..)
            | ExprKind::Quant(..)
            | ExprKind::Agg(..)
            | ExprKind::Closure(..)
            | ExprKind::Lambda(..)
            | ExprKind::Match(..)
    )
}

/// `min_prec`: the binding power the context requires; `last`: nothing follows this expression
/// in its context (so an open-ended form such as `let` may stay unparenthesised).
fn expr(out: &mut String, e: &Expr, min_prec: u8, last: bool) {
    stacker::maybe_grow(64 << 10, 8 << 20, || expr_inner(out, e, min_prec, last))
}

fn expr_inner(out: &mut String, e: &Expr, min_prec: u8, last: bool) {
    match &e.kind {
        ExprKind::Binary(op, a, b) => {
            let (p, right) = op.prec();
            let paren = p < min_prec;
            if paren {
                out.push('(');
            }
            let (lp, rp) = if right { (p + 1, p) } else { (p, p + 1) };
            // comparisons do not chain: both sides bind tighter
            let lp = if p == 6 || p == 7 { p + 1 } else { lp };
            expr(out, a, lp, false);
            put!(out, " {} ", op.text());
            expr(out, b, rp, last || paren);
            if paren {
                out.push(')');
            }
        }
        ExprKind::Unary(UnOp::Not, a) => {
            let paren = PREC_NOT < min_prec;
            if paren {
                out.push('(');
            }
            out.push_str("not ");
            expr(out, a, PREC_NOT + 1, last || paren);
            if paren {
                out.push(')');
            }
        }
        ExprKind::Unary(UnOp::Neg, a) => {
            out.push('-');
            // `- -x` must not read as `--`; a negative literal keeps its own parentheses
            match &a.kind {
                ExprKind::Int(i) if *i < 0 => put!(out, "({i})"),
                ExprKind::Unary(UnOp::Neg, _) => {
                    out.push('(');
                    expr(out, a, 0, true);
                    out.push(')');
                }
                _ => expr(out, a, PREC_NEG, last),
            }
        }
        _ if is_prefix_form(e) => {
            let paren = !last || min_prec > 0;
            if paren {
                out.push('(');
            }
            prefix_form(out, e);
            if paren {
                out.push(')');
            }
        }
        _ => atom(out, e),
    }
}

fn prefix_form(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Let(binds, body) => {
            let v: Vec<String> = binds
                .iter()
                .map(|(p, x)| format!("{} = {}", print_pattern(p), print_noin(x)))
                .collect();
            put!(out, "let {} in ", v.join(", "));
            expr(out, body, 0, true);
        }
        ExprKind::If(c, a, b) => {
            out.push_str("if ");
            expr(out, c, 0, true);
            out.push_str(" then ");
            expr(out, a, 0, true);
            out.push_str(" else ");
            expr(out, b, 0, true);
        }
        ExprKind::Match(scrut, arms) => {
            out.push_str("match ");
            expr(out, scrut, 0, true);
            out.push_str(" { ");
            let v: Vec<String> = arms
                .iter()
                .map(|a| {
                    let mut s = print_pattern(&a.pat);
                    if let Some(g) = &a.guard {
                        put!(s, " if {}", print_expr(g));
                    }
                    put!(s, " => {}", print_expr(&a.body));
                    s
                })
                .collect();
            out.push_str(&v.join(", "));
            out.push_str(" }");
        }
        ExprKind::Quant(q, bs, body) => {
            let kw = if *q == Quant::All { "all" } else { "any" };
            put!(out, "{kw} {}: ", binders(bs));
            expr(out, body, 0, true);
        }
        ExprKind::Agg(a, bs, body) => {
            let kw = match a {
                Agg::Count => "count",
                Agg::Sum => "sum",
                Agg::Min => "min",
                Agg::Max => "max",
            };
            put!(out, "{kw} {}: ", binders(bs));
            expr(out, body, 0, true);
        }
        ExprKind::Closure(s, f) => {
            out.push_str("closure ");
            expr(out, s, 0, false);
            out.push_str(" by ");
            expr(out, f, 0, true);
        }
        ExprKind::Lambda(ps, body) => {
            if ps.len() == 1 && matches!(ps[0].kind, PatternKind::Name(_)) {
                out.push_str(&print_pattern(&ps[0]));
            } else {
                let v: Vec<String> = ps.iter().map(print_pattern).collect();
                put!(out, "({})", v.join(", "));
            }
            out.push_str(" -> ");
            expr(out, body, 0, true);
        }
        _ => unreachable!(),
    }
}

fn list(es: &[Expr]) -> String {
    let v: Vec<String> = es.iter().map(print_expr).collect();
    v.join(", ")
}

fn entries(es: &[(Expr, Expr)]) -> String {
    let v: Vec<String> = es
        .iter()
        .map(|(k, v)| format!("{}: {}", print_expr(k), print_expr(v)))
        .collect();
    v.join(", ")
}

/// A postfix base: anything that is not a primary gets parentheses.
fn postfix_base(out: &mut String, e: &Expr) {
    let simple = matches!(
        e.kind,
        ExprKind::Var(_)
            | ExprKind::Base(_)
            | ExprKind::Str(_)
            | ExprKind::Bool(_)
            | ExprKind::Tuple(_)
            | ExprKind::Set(_)
            | ExprKind::Seq(_)
            | ExprKind::Map(_)
            | ExprKind::SetComp(..)
            | ExprKind::SeqComp(..)
            | ExprKind::MapComp(..)
            | ExprKind::Call(..)
            | ExprKind::Index(..)
            | ExprKind::Slice(..)
            | ExprKind::Proj(..)
            | ExprKind::With(..)
            | ExprKind::WithComp(..)
    ) || matches!(e.kind, ExprKind::Int(i) if i >= 0);
    if simple {
        atom(out, e);
    } else {
        out.push('(');
        expr(out, e, 0, true);
        out.push(')');
    }
}

fn atom(out: &mut String, e: &Expr) {
    match &e.kind {
        ExprKind::Int(i) => put!(out, "{i}"),
        ExprKind::Bool(b) => put!(out, "{b}"),
        ExprKind::Str(s) => out.push_str(&quote(s)),
        ExprKind::Var(v) => out.push_str(v),
        ExprKind::Base(n) => put!(out, "base.{}", n.text),
        ExprKind::Tuple(items) => {
            if items.len() == 1 {
                put!(out, "({},)", print_expr(&items[0]));
            } else {
                put!(out, "({})", list(items));
            }
        }
        ExprKind::Set(items) => {
            if items.is_empty() {
                out.push_str("{}");
            } else {
                put!(out, "{{{}}}", list(items));
            }
        }
        ExprKind::Seq(items) => put!(out, "[{}]", list(items)),
        ExprKind::Map(es) => {
            if es.is_empty() {
                out.push_str("{:}");
            } else {
                put!(out, "{{{}}}", entries(es));
            }
        }
        ExprKind::SetComp(h, qs) => put!(out, "{{{} | {}}}", head(h), quals(qs)),
        ExprKind::SeqComp(h, qs) => put!(out, "[{} | {}]", head(h), quals(qs)),
        ExprKind::MapComp(k, v, qs) => put!(
            out,
            "{{{}: {} | {}}}",
            print_expr(k),
            print_expr(v),
            quals(qs)
        ),
        ExprKind::Call(f, args) => {
            postfix_base(out, f);
            put!(out, "({})", list(args));
        }
        ExprKind::Index(a, i) => {
            postfix_base(out, a);
            // an index that is itself a range would read back as a slice
            match i.kind {
                ExprKind::Binary(BinOp::Range, ..) => put!(out, "[({})]", print_expr(i)),
                _ => put!(out, "[{}]", print_expr(i)),
            }
        }
        ExprKind::Slice(a, i, j) => {
            postfix_base(out, a);
            let mut s = String::new();
            expr(&mut s, i, 8, false);
            s.push_str("..");
            expr(&mut s, j, 8, true);
            put!(out, "[{s}]");
        }
        ExprKind::Proj(a, k) => {
            postfix_base(out, a);
            put!(out, ".{k}");
        }
        ExprKind::With(a, es) => {
            postfix_base(out, a);
            put!(out, " with {{{}}}", entries(es));
        }
        ExprKind::WithComp(a, k, v, qs) => {
            postfix_base(out, a);
            put!(
                out,
                " with {{{}: {} | {}}}",
                print_expr(k),
                print_expr(v),
                quals(qs)
            );
        }
        _ => {
            out.push('(');
            expr(out, e, 0, true);
            out.push(')');
        }
    }
}

/// A comprehension head: a bare membership test would read as the filter form.
fn head(h: &Expr) -> String {
    let s = print_expr(h);
    match h.kind {
        ExprKind::Binary(BinOp::In, ..) => format!("({s})"),
        _ => s,
    }
}
