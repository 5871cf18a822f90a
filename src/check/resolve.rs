#![forbid(unsafe_code)]
//! Name resolution: rule bodies, examples, theorems and queries become [`Ir`]: locals become
//! frame slots, names of definitions keys (resolved per reading at run time), and enum
//! constants, constructors and built-ins are recognised; unknown names and arity errors are
//! reported with suggestions.

use super::scope::Scope;
use super::*;
use crate::diagnostics::code;

impl Program {
    pub(super) fn resolve_all(&mut self, files: &[ast::File], errs: &mut Vec<Diag>) {
        self.resolve_defs(0, errs);
        self.resolve_proofs(files, errs);
    }

    /// Resolves the bodies of the definitions from `from` on.
    pub(super) fn resolve_defs(&mut self, from: usize, errs: &mut Vec<Diag>) {
        for id in from..self.defs.len() {
            if id & 0xFF == 0 && self.interrupted() {
                return;
            }
            self.resolve_def(id, errs);
        }
    }

    /// Resolves the body of definition `id`.
    pub(super) fn resolve_def(&mut self, id: usize, errs: &mut Vec<Diag>) {
        let Some(d) = self.defs[id].ast.take() else {
            return;
        };
        let mut r = Resolver::new(self, Owner::Def(DefId::at(id)));
        for p in d.params.iter().flatten() {
            r.bind_name(&p.name.text, p.name.span);
        }
        let body = r.expr(&d.body);
        let uses = std::mem::take(&mut r.uses);
        let own = self.defs[id].key;
        let base_self_only = r.based.contains(&own) && !r.named.contains(&own);
        let (nlocals, deps, neg, e) = (r.nlocals, r.deps, r.neg_deps, r.errs);
        self.bound_names.extend(r.bound);
        self.count_uses(&uses, Some(DefId::at(id)));
        errs.extend(e);
        let def = &mut self.defs[id];
        def.uses = uses;
        def.body = Some(body);
        def.nlocals = nlocals;
        def.deps = deps.into_iter().collect();
        def.neg_deps = neg.into_iter().collect();
        def.base_self_only = base_self_only;
        def.ast = Some(d);
    }

    /// Resolves the examples and theorems of `files`.
    pub(super) fn resolve_proofs(&mut self, files: &[ast::File], errs: &mut Vec<Diag>) {
        for f in files {
            for it in &f.items {
                match it {
                    Item::Example(x) => {
                        let reading = self.named_reading(x.reading.as_ref(), errs);
                        let mut r = Resolver::new(self, Owner::Other);
                        let mut stmts = vec![];
                        for s in &x.stmts {
                            match s {
                                Stmt::Let(p, e) => {
                                    let v = r.expr(e);
                                    let p = r.pattern(p);
                                    stmts.push(IrStmt::Let(p, v));
                                }
                                Stmt::Assert(e, m) => {
                                    let v = r.expr(e);
                                    stmts.push(IrStmt::Assert(v, m.clone(), e.span));
                                }
                            }
                        }
                        let nlocals = r.nlocals;
                        let uses = std::mem::take(&mut r.uses);
                        errs.extend(r.errs);
                        self.bound_names.extend(r.bound);
                        self.count_uses(&uses, None);
                        self.examples.push(Example {
                            name: x.name.clone(),
                            uses,
                            reading,
                            stmts,
                            nlocals,
                            span: x.span,
                        });
                    }
                    Item::Theorem(t) => {
                        let reading = self.named_reading(t.reading.as_ref(), errs);
                        let mut r = Resolver::new(self, Owner::Other);
                        let binders = r.binders(&t.binders);
                        let body = r.expr(&t.body);
                        let nlocals = r.nlocals;
                        let uses = std::mem::take(&mut r.uses);
                        errs.extend(r.errs);
                        self.bound_names.extend(r.bound);
                        self.count_uses(&uses, None);
                        self.theorems.push(Theorem {
                            name: t.name.clone(),
                            uses,
                            reading,
                            binders,
                            body,
                            nlocals,
                            span: t.span,
                        });
                    }
                    _ => {}
                }
            }
        }
    }

    /// The reading an example or a theorem names, if any; an unknown one is reported.
    fn named_reading(&self, name: Option<&ast::Name>, errs: &mut Vec<Diag>) -> Option<ReadingId> {
        let n = name?;
        self.reading_or_error(&n.text)
            .map_err(|d| errs.push(d.label(n.span, "unknown reading")))
            .ok()
    }

    /// Adds the uses of keys found in one body (`caller`'s, or an example's or theorem's) to the
    /// counts behind `shadowed`.
    fn count_uses(&mut self, uses: &[(DefKey, bool)], caller: Option<DefId>) {
        if self.key_uses.len() < self.keys.len() {
            self.key_uses.resize(self.keys.len(), (0, None));
        }
        if let Some(t) = &mut self.uses_touched {
            t.extend(uses.iter().map(|u| u.0));
        }
        for &(k, own) in uses {
            if let Some(u) = self.key_uses.get_mut(k.index()) {
                u.0 = u.0.saturating_add(1);
                u.1 = if own { caller } else { None };
            }
        }
    }

    pub(super) fn parse_type_text(&mut self, s: &str) -> Option<Ty> {
        match s {
            "Int" => Some(Ty::Int),
            "Bool" => Some(Ty::Bool),
            "" => None,
            other => self.type_names.get(other).map(|TyDef::Alias(t)| t.clone()),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Owner {
    Def(DefId),
    Other,
}

pub(super) struct Resolver<'p> {
    pub(super) p: &'p Program,
    pub(super) owner: Owner,
    pub(super) scope: Scope,
    pub(super) nlocals: u32,
    pub(super) deps: BTreeSet<DefKey>,
    pub(super) neg_deps: BTreeSet<DefKey>,
    /// Keys called by name, and keys called as `base.f`.
    pub(super) named: BTreeSet<DefKey>,
    pub(super) based: BTreeSet<DefKey>,
    pub(super) negated: bool,
    pub(super) errs: Vec<Diag>,
    /// Every name of a definition used, in order, and whether the use is a call with the
    /// owner's own parameters, in order (`f(s, o)` inside `def g(s, o)`).
    pub(super) uses: Vec<(DefKey, bool)>,
    /// The names bound as variables that the program had not bound before (see
    /// `Program::bound_names`).
    pub(super) bound: std::collections::HashSet<String>,
}

impl<'p> Resolver<'p> {
    pub(super) fn new(p: &'p Program, owner: Owner) -> Resolver<'p> {
        Resolver {
            p,
            owner,
            scope: Scope::default(),
            nlocals: 0,
            deps: BTreeSet::new(),
            neg_deps: BTreeSet::new(),
            named: BTreeSet::new(),
            based: BTreeSet::new(),
            negated: false,
            errs: vec![],
            uses: vec![],
            bound: Default::default(),
        }
    }

    pub(super) fn lookup_local(&self, name: &str) -> Option<u32> {
        self.scope.get(name)
    }

    pub(super) fn bind_name(&mut self, name: &str, span: Span) -> u32 {
        if self.lookup_local(name).is_some() {
            self.errs.push(
                Diag::error(
                    code::BAD_BINDING,
                    format!("`{name}` is already bound here; this binding would shadow it"),
                )
                .label(span, "shadows an outer binding")
                .help("choose another name for the inner variable"),
            );
        } else if self.p.ctors.contains_key(name) {
            self.errs.push(
                Diag::error(
                    code::BAD_BINDING,
                    format!("`{name}` is an enum constant and cannot be bound as a variable"),
                )
                .label(span, "names a constant")
                .help("choose another name for the variable"),
            );
        }
        if !self.p.bound_names.contains(name) && !self.bound.contains(name) {
            self.bound.insert(name.to_string());
        }
        let slot = self.nlocals;
        self.nlocals += 1;
        self.scope.push(name, slot);
        slot
    }

    /// The arguments are the owner's parameters, in order and all of them.
    fn own_params(&self, args: &[Ir]) -> bool {
        let Owner::Def(d) = self.owner else {
            return false;
        };
        self.p.defs[d.index()].params.len() == args.len()
            && args
                .iter()
                .enumerate()
                .all(|(i, a)| matches!(a, Ir::Local(s, _) if *s as usize == i))
    }

    pub(super) fn use_key(&mut self, k: DefKey) {
        self.named.insert(k);
        self.use_any(k);
    }

    /// `base.f`: the key is a dependency (its definitions decide what `base.f` means), but a
    /// call of the owner's own name this way is no recursion.
    fn use_base_key(&mut self, k: DefKey) {
        self.based.insert(k);
        self.use_any(k);
    }

    fn use_any(&mut self, k: DefKey) {
        self.uses.push((k, false));
        self.deps.insert(k);
        if self.negated {
            self.neg_deps.insert(k);
        }
    }

    pub(super) fn unknown(&mut self, name: &str, span: Span) -> Ir {
        let mut d = Diag::error(code::UNKNOWN_NAME, format!("unknown name `{name}`"))
            .label(span, "not defined");
        let near = if self.p.may_suggest() {
            let mut cands: Vec<String> = self.scope.names().map(str::to_string).collect();
            cands.extend(self.p.all_names());
            suggest(name, cands.iter().map(|s| s.as_str()))
        } else {
            None
        };
        d = match near {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => {
                d.help("define it with `def`, or bind it with `let`, a quantifier or a parameter")
            }
        };
        self.errs.push(d);
        Ir::Poison(span)
    }

    pub(super) fn arity_error(
        &mut self,
        what: &str,
        want: usize,
        got: usize,
        span: Span,
        def_span: Option<Span>,
    ) {
        let mut d = Diag::error(
            code::WRONG_ARITY,
            format!(
                "{what} takes {want} argument{}, but {got} {} given",
                if want == 1 { "" } else { "s" },
                if got == 1 { "was" } else { "were" }
            ),
        )
        .label(
            span,
            format!("{got} argument{}", if got == 1 { "" } else { "s" }),
        );
        if let Some(s) = def_span {
            d = d.label(s, "defined here");
        }
        self.errs.push(d.help(format!("pass exactly {want}")));
    }

    pub(super) fn def_span_of(&self, key: DefKey) -> Option<Span> {
        let first = *self.p.defs_of_key.get(key.index())?.first()?;
        Some(self.p.defs[first.index()].name_span)
    }

    pub(super) fn var(&mut self, name: &str, span: Span) -> Ir {
        if let Some(s) = self.lookup_local(name) {
            return Ir::Local(s, span);
        }
        if let Some(&k) = self.p.key_names.get(name) {
            self.use_key(k);
            return Ir::Global(k, span);
        }
        if let Some(&(e, t)) = self.p.ctors.get(name) {
            let v = &self.p.enums[e.index()].variants[t as usize];
            return match &v.value {
                Some(val) => Ir::Const(val.clone(), span),
                None => Ir::Const(Value::Func(Rc::new(Func::Ctor(e, t, v.fields.len()))), span),
            };
        }
        if let Some(e) = self.p.enums.iter().position(|e| e.name == name) {
            return Ir::Domain(EnumId::at(e), span);
        }
        if name == "Bool" {
            return Ir::Const(
                Value::set(
                    [Value::Bool(false), Value::Bool(true)]
                        .into_iter()
                        .collect(),
                ),
                span,
            );
        }
        if let Some(b) = Builtin::from_name(name) {
            return Ir::Const(Value::Func(Rc::new(Func::Builtin(b))), span);
        }
        self.unknown(name, span)
    }

    pub(super) fn exprs(&mut self, es: &[Expr]) -> Box<[Ir]> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    pub(super) fn expr(&mut self, e: &Expr) -> Ir {
        stacker::maybe_grow(1 << 20, 8 << 20, || self.expr_inner(e))
    }

    pub(super) fn with_negation<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let old = self.negated;
        self.negated = !old;
        let r = f(self);
        self.negated = old;
        r
    }

    /// `let p = v, ... in body`: each pattern's names in scope for the bindings after it and
    /// the body.
    fn let_in(&mut self, binds: &[(Pattern, Expr)], body: &Expr, span: Span) -> Ir {
        let mark = self.scope.len();
        let mut out = vec![];
        for (p, v) in binds {
            let v = self.expr(v);
            let p = self.pattern(p);
            out.push((p, v));
        }
        let body = self.expr(body);
        self.scope.truncate(mark);
        Ir::Let(out.into(), Box::new(body), span)
    }

    /// `match s { p if g => e, ... }`: each arm's names in scope for its guard and body.
    fn match_arms(&mut self, s: &Expr, arms: &[Arm], span: Span) -> Ir {
        let s = self.expr(s);
        let mut out = vec![];
        for a in arms {
            let mark = self.scope.len();
            let pat = self.pattern(&a.pat);
            let guard = a.guard.as_ref().map(|g| self.expr(g));
            let body = self.expr(&a.body);
            self.scope.truncate(mark);
            out.push(IrArm { pat, guard, body });
        }
        Ir::Match(Box::new(s), out.into(), span)
    }

    pub(super) fn expr_inner(&mut self, e: &Expr) -> Ir {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(i) => Ir::Const(Value::Int(*i), span),
            ExprKind::Bool(b) => Ir::Const(Value::Bool(*b), span),
            ExprKind::Str(s) => Ir::Const(Value::str(s), span),
            ExprKind::Var(n) => self.var(n, span),
            ExprKind::Base(n) => {
                // `base.f` without arguments: only as a call
                let _ = n;
                self.errs.push(
                    Diag::error(
                        code::MISPLACED_BASE,
                        "`base.f` must be called with arguments",
                    )
                    .label(span, "not called")
                    .help("write `base.f(x, y)` inside an override"),
                );
                Ir::Const(Value::Bool(false), span)
            }
            ExprKind::Tuple(items) => Ir::Tuple(self.exprs(items), span),
            ExprKind::Set(items) => Ir::SetLit(self.exprs(items), span),
            ExprKind::Seq(items) => Ir::SeqLit(self.exprs(items), span),
            ExprKind::Map(es) => Ir::MapLit(
                es.iter()
                    .map(|(k, v)| (self.expr(k), self.expr(v)))
                    .collect(),
                span,
            ),
            ExprKind::SetComp(h, qs) | ExprKind::SeqComp(h, qs) => {
                let kind = if matches!(e.kind, ExprKind::SetComp(..)) {
                    CompKind::Set
                } else {
                    CompKind::Seq
                };
                let mark = self.scope.len();
                let quals = self.quals(qs);
                let head = self.expr(h);
                self.scope.truncate(mark);
                Ir::Comp(kind, Box::new(head), None, quals, span)
            }
            ExprKind::MapComp(k, v, qs) => {
                let mark = self.scope.len();
                let quals = self.quals(qs);
                let k = self.expr(k);
                let v = self.expr(v);
                self.scope.truncate(mark);
                Ir::Comp(CompKind::Map, Box::new(k), Some(Box::new(v)), quals, span)
            }
            ExprKind::Call(f, args) => self.call(f, args, span),
            ExprKind::Index(a, i) => {
                Ir::Index(Box::new(self.expr(a)), Box::new(self.expr(i)), span)
            }
            ExprKind::Slice(a, i, j) => Ir::Slice(
                Box::new(self.expr(a)),
                Box::new(self.expr(i)),
                Box::new(self.expr(j)),
                span,
            ),
            ExprKind::Proj(a, k) => Ir::Proj(Box::new(self.expr(a)), *k, span),
            ExprKind::With(a, es) => {
                let base = self.expr(a);
                let es = es
                    .iter()
                    .map(|(k, v)| (self.expr(k), self.expr(v)))
                    .collect();
                Ir::With(Box::new(base), es, span)
            }
            ExprKind::WithComp(a, k, v, qs) => {
                let base = self.expr(a);
                let mark = self.scope.len();
                let quals = self.quals(qs);
                let k = self.expr(k);
                let v = self.expr(v);
                self.scope.truncate(mark);
                Ir::WithComp(Box::new(base), Box::new(k), Box::new(v), quals, span)
            }
            ExprKind::Unary(UnOp::Not, a) => {
                let a = self.with_negation(|r| r.expr(a));
                Ir::Not(Box::new(a), span)
            }
            ExprKind::Unary(UnOp::Neg, a) => Ir::Neg(Box::new(self.expr(a)), span),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = match op {
                    BinOp::Implies => {
                        let a = self.with_negation(|r| r.expr(a));
                        (a, self.expr(b))
                    }
                    BinOp::Ne | BinOp::NotIn | BinOp::Iff | BinOp::Diff => {
                        let a = self.expr(a);
                        let b = self.with_negation(|r| r.expr(b));
                        (a, b)
                    }
                    _ => (self.expr(a), self.expr(b)),
                };
                Ir::Bin(*op, Box::new(a), Box::new(b), span)
            }
            ExprKind::If(c, a, b) => Ir::If(
                Box::new(self.expr(c)),
                Box::new(self.expr(a)),
                Box::new(self.expr(b)),
                span,
            ),
            ExprKind::Let(binds, body) => self.let_in(binds, body, span),
            ExprKind::Match(s, arms) => self.match_arms(s, arms, span),
            ExprKind::Quant(q, bs, body) => {
                let mark = self.scope.len();
                let bs = self.binders(bs);
                let body = self.expr(body);
                self.scope.truncate(mark);
                Ir::Quant(*q, bs.into(), Box::new(body), span)
            }
            ExprKind::Agg(a, bs, body) => {
                let mark = self.scope.len();
                let bs = self.binders(bs);
                let body = self.expr(body);
                self.scope.truncate(mark);
                Ir::Agg(*a, bs.into(), Box::new(body), span)
            }
            ExprKind::Closure(s, f) => {
                Ir::Closure(Box::new(self.expr(s)), Box::new(self.expr(f)), span)
            }
            ExprKind::Lambda(ps, body) => {
                let mark = self.scope.len();
                let params: Vec<IrPat> = ps.iter().map(|p| self.pattern(p)).collect();
                let body = self.expr(body);
                self.scope.truncate(mark);
                Ir::Lambda(Rc::new(Lambda { params, body, span }))
            }
        }
    }

    pub(super) fn call(&mut self, f: &Expr, args: &[Expr], span: Span) -> Ir {
        match &f.kind {
            ExprKind::Var(name) if self.lookup_local(name).is_none() => {
                if let Some(&k) = self.p.key_names.get(name) {
                    let at = self.uses.len();
                    self.use_key(k);
                    let key = &self.p.keys[k.index()];
                    match key.arity {
                        Some(n) => {
                            if n != args.len() {
                                let ds = self.def_span_of(k);
                                self.arity_error(&format!("`{name}`"), n, args.len(), span, ds);
                            }
                            let a = self.exprs(args);
                            if self.own_params(&a) {
                                self.uses[at].1 = true;
                            }
                            return Ir::Call(k, a, span);
                        }
                        None => {
                            let a = self.exprs(args);
                            return Ir::Apply(Box::new(Ir::Global(k, f.span)), a, span);
                        }
                    }
                }
                if let Some(&(e, t)) = self.p.ctors.get(name) {
                    let n = self.p.enums[e.index()].variants[t as usize].fields.len();
                    if n != args.len() {
                        let vs = self.p.enums[e.index()].variants[t as usize].span;
                        self.arity_error(
                            &format!("the constructor `{name}`"),
                            n,
                            args.len(),
                            span,
                            Some(vs),
                        );
                    }
                    let a = self.exprs(args);
                    return Ir::Ctor(e, t, a, span);
                }
                if let Some(b) = Builtin::from_name(name) {
                    if b.arity() != args.len() {
                        self.arity_error(
                            &format!("the built-in `{name}`"),
                            b.arity(),
                            args.len(),
                            span,
                            None,
                        );
                    }
                    let a = self.exprs(args);
                    return Ir::Builtin(b, a, span);
                }
                let callee = self.var(name, f.span);
                let a = self.exprs(args);
                Ir::Apply(Box::new(callee), a, span)
            }
            ExprKind::Base(n) => {
                let Owner::Def(from) = self.owner else {
                    self.errs.push(
                        Diag::error(
                            code::MISPLACED_BASE,
                            "`base.` is only meaningful inside a reading's override",
                        )
                        .label(f.span, "no parent reading here")
                        .help("call the definition by its name"),
                    );
                    return Ir::Const(Value::Bool(false), span);
                };
                if self.p.defs[from.index()].reading == BASE {
                    self.errs.push(
                        Diag::error(
                            code::MISPLACED_BASE,
                            "`base.` is only meaningful inside a reading's override",
                        )
                        .label(f.span, "this definition is not in a reading")
                        .help("call the definition by its name"),
                    );
                }
                match self.p.key_names.get(&n.text) {
                    Some(&k) => {
                        self.use_base_key(k);
                        if let Some(want) = self.p.keys[k.index()].arity {
                            if want != args.len() {
                                let ds = self.def_span_of(k);
                                self.arity_error(
                                    &format!("`{}`", n.text),
                                    want,
                                    args.len(),
                                    span,
                                    ds,
                                );
                            }
                        }
                        let a = self.exprs(args);
                        Ir::CallBase(from, k, a, span)
                    }
                    None => self.unknown(&n.text, n.span),
                }
            }
            _ => {
                let callee = self.expr(f);
                let a = self.exprs(args);
                Ir::Apply(Box::new(callee), a, span)
            }
        }
    }

    pub(super) fn pattern(&mut self, p: &Pattern) -> IrPat {
        match &p.kind {
            PatternKind::Wild => IrPat::Wild,
            PatternKind::Name(n) => {
                if let Some(&(e, t)) = self.p.ctors.get(n) {
                    if self.p.enums[e.index()].variants[t as usize]
                        .fields
                        .is_empty()
                    {
                        return IrPat::Const(e, t);
                    }
                }
                IrPat::Bind(self.bind_name(n, p.span))
            }
            PatternKind::Int(i) => IrPat::Int(*i),
            PatternKind::Bool(b) => IrPat::Bool(*b),
            PatternKind::Str(s) => IrPat::Str(Rc::from(s.as_str())),
            PatternKind::Tuple(items) => {
                IrPat::Tuple(items.iter().map(|q| self.pattern(q)).collect())
            }
            PatternKind::Ctor(n, args) => match self.p.ctors.get(&n.text) {
                Some(&(e, t)) => {
                    let want = self.p.enums[e.index()].variants[t as usize].fields.len();
                    if want != args.len() {
                        let vs = self.p.enums[e.index()].variants[t as usize].span;
                        self.arity_error(
                            &format!("the constructor `{}`", n.text),
                            want,
                            args.len(),
                            p.span,
                            Some(vs),
                        );
                    }
                    IrPat::Ctor(e, t, args.iter().map(|q| self.pattern(q)).collect())
                }
                None => {
                    self.unknown(&n.text, n.span);
                    IrPat::Wild
                }
            },
            PatternKind::Or(alts) => {
                // alternatives may not bind variables (they could bind different ones)
                let mark = self.scope.len();
                let out: Vec<IrPat> = alts.iter().map(|q| self.pattern(q)).collect();
                if self.scope.len() != mark {
                    self.errs.push(
                        Diag::error(
                            code::BINDING_IN_ALTERNATIVE,
                            "alternatives in a pattern cannot bind variables",
                        )
                        .label(p.span, "binds a variable")
                        .help("match the alternatives with separate arms"),
                    );
                    self.scope.truncate(mark);
                }
                IrPat::Or(out)
            }
        }
    }

    pub(super) fn binders(&mut self, bs: &[Binder]) -> Vec<IrBinder> {
        let mut out = vec![];
        for b in bs {
            let domain = self.expr(&b.domain);
            let names = b
                .pats
                .iter()
                .map(crate::syntax::print::print_pattern)
                .collect();
            let span = b
                .pats
                .first()
                .map(|p| p.span.to(b.domain.span))
                .unwrap_or(b.domain.span);
            let pats = b.pats.iter().map(|p| self.pattern(p)).collect();
            out.push(IrBinder {
                pats,
                names,
                domain,
                span,
            });
        }
        out
    }

    pub(super) fn quals(&mut self, qs: &[Qual]) -> Box<[IrQual]> {
        let mut out = vec![];
        for q in qs {
            match q {
                Qual::Gen(p, e) => {
                    // `x in S` with x already bound is a membership test
                    if let PatternKind::Name(n) = &p.kind {
                        if let Some(slot) = self.lookup_local(n) {
                            let d = self.expr(e);
                            let span = p.span.to(e.span);
                            out.push(IrQual::Guard(Ir::Bin(
                                BinOp::In,
                                Box::new(Ir::Local(slot, p.span)),
                                Box::new(d),
                                span,
                            )));
                            continue;
                        }
                    }
                    let d = self.expr(e);
                    let span = p.span.to(e.span);
                    let pat = self.pattern(p);
                    out.push(IrQual::Gen(pat, d, span));
                }
                Qual::Let(p, e) => {
                    let v = self.expr(e);
                    let pat = self.pattern(p);
                    out.push(IrQual::Let(pat, v));
                }
                Qual::Guard(e) => out.push(IrQual::Guard(self.expr(e))),
            }
        }
        out.into()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::errors;
    use super::super::MAX_SUGGESTIONS;
    use crate::diagnostics::{suggest, Diag};
    use crate::natives::Natives;

    #[test]
    fn did_you_mean_is_searched_a_bounded_number_of_times() {
        let n = MAX_SUGGESTIONS + 50;
        let mut src = String::from("def alpha = 1\n");
        for i in 0..n {
            src += &format!("def f{i} = alpa + {i}\n");
        }
        let Err((_, ds)) = super::super::load::load_str("t.rule", &src, &Natives::standard())
        else {
            panic!("checked without error");
        };
        let unknown: Vec<&Diag> = ds
            .iter()
            .filter(|d| d.code == crate::diagnostics::code::UNKNOWN_NAME)
            .collect();
        assert_eq!(unknown.len(), n);
        let told = |d: &Diag| d.help.as_deref() == Some("did you mean `alpha`?");
        assert!(unknown[..MAX_SUGGESTIONS].iter().all(|d| told(d)));
        assert!(!unknown[MAX_SUGGESTIONS..].iter().any(|d| told(d)));
    }

    #[test]
    fn a_name_too_long_to_compare_gets_no_suggestion() {
        let long = "a".repeat(crate::diagnostics::MAX_SUGGEST_CHARS + 1);
        let near = format!("{}b", &long[1..]);
        assert_eq!(suggest(&near, [long.as_str()]), None);
        assert_eq!(
            suggest("alpa", ["alpha", "beta"]),
            Some("alpha".to_string())
        );
        // a candidate whose length alone is too far is not compared
        assert_eq!(suggest("ab", ["abcdefgh"]), None);
    }

    #[test]
    fn unknown_names_and_wrong_arities_are_reported() {
        assert_eq!(
            errors("def a = b + 1"),
            vec![crate::diagnostics::code::UNKNOWN_NAME]
        );
        assert_eq!(
            errors("def f(x: Int) -> Int = x\ndef a = f(1, 2)"),
            vec![crate::diagnostics::code::WRONG_ARITY]
        );
    }

    #[test]
    fn a_binding_may_not_shadow_another() {
        let codes = errors("def f(x: Int) -> Int = let x = 1 in x");
        assert!(
            codes.contains(&crate::diagnostics::code::BAD_BINDING.to_string()),
            "{codes:?}"
        );
    }

    #[test]
    fn base_must_be_called() {
        let codes = errors("def a = 1\nreading r { override def a = base.a }");
        assert!(
            codes.contains(&crate::diagnostics::code::MISPLACED_BASE.to_string()),
            "{codes:?}"
        );
    }
}
