#![forbid(unsafe_code)]
//! Type inference: unification over the resolved code, generalised per strongly connected
//! component of the dependency graph, with mismatches reported at the place they arise.

use super::types::{Spent, MAX_TYPE_DEPTH, MAX_TYPE_STEPS};
use super::*;
use crate::diagnostics::code;

impl Program {
    /// The type variables of a definition's written signature stand for any type: inference
    /// may not make one of them a particular type, nor two of them one type.
    fn check_rigid(&mut self, d: DefId, errs: &mut Vec<Diag>) {
        let def = &self.defs[d.index()];
        let (name, span) = (def.name.clone(), def.name_span);
        let vars = def.ann_vars.clone();
        let mut seen: Vec<(u32, String)> = vec![];
        for (v, t) in vars {
            match self.unifier.resolve(&t) {
                Ty::Var(id) => match seen.iter().find(|(w, _)| *w == id) {
                    Some((_, other)) => errs.push(
                        Diag::error(
                            code::RIGID_TYPE_VARIABLE,
                            format!(
                                "the type variables `{other}` and `{v}` of `{name}` are written as two, but its body makes them one type"
                            ),
                        )
                        .label(span, "its signature")
                        .help(format!(
                            "write `{other}` for both, or change the body so that they may differ"
                        )),
                    ),
                    None => seen.push((id, v)),
                },
                other => {
                    let shown = self.pretty(&other);
                    errs.push(
                        Diag::error(
                            code::RIGID_TYPE_VARIABLE,
                            format!(
                                "the type variable `{v}` of `{name}` stands for any type, but its body makes it {shown}"
                            ),
                        )
                        .label(span, "its signature")
                        .help(format!("write {shown} for `{v}` in the signature")),
                    );
                }
            }
        }
    }

    pub(super) fn infer_all(&mut self, errs: &mut Vec<Diag>) {
        // the dependency graph of keys: a key depends on what any of its definitions refers to
        let all: Vec<DefKey> = (0..self.keys.len()).map(DefKey::at).collect();
        self.sccs = self.groups_of(&all, |k| Some(k.index()));
        let sccs = self.sccs.clone();
        self.unifier.refuel();
        for (i, scc) in sccs.iter().enumerate() {
            if i & 0xFF == 0 && self.interrupted() {
                return;
            }
            if !self.infer_group(scc, errs) {
                return;
            }
        }
        self.infer_proofs(0, 0, errs);
    }

    /// Infers the types of one group of mutually recursive keys, whose callees outside the
    /// group are typed; false when the unifier's budget ran out (reported).
    pub(super) fn infer_group(&mut self, scc: &[DefKey], errs: &mut Vec<Diag>) -> bool {
        // monomorphic types for the group
        let mut mono: HashMap<DefKey, Ty> = HashMap::new();
        for &k in scc {
            let t = self.fresh_key_type(k);
            mono.insert(k, t);
        }
        let mut defs_of: Vec<DefId> = scc
            .iter()
            .flat_map(|&k| self.defs_of_key[k.index()].iter().copied())
            .collect();
        defs_of.sort_unstable();
        for &d in &defs_of {
            self.infer_def(d, &mono, errs);
        }
        for &d in &defs_of {
            self.check_rigid(d, errs);
        }
        for &k in scc {
            let s = self.unifier.generalize(&mono[&k]);
            self.keys[k.index()].scheme = Some(s);
        }
        // past the budget the types found are not to be trusted: the first definition of
        // the group is where the bound was passed, and checking stops there
        if self.unifier.exhausted() {
            let d = &self.defs[(defs_of[0]).index()];
            self.report_spent(&format!("`{}`", d.name), d.name_span, errs);
            return false;
        }
        true
    }

    /// Infers the types in the examples from `examples` on and the theorems from `theorems` on.
    pub(super) fn infer_proofs(&mut self, examples: usize, theorems: usize, errs: &mut Vec<Diag>) {
        for i in examples..self.examples.len() {
            if !self.infer_example(i, errs) {
                return;
            }
        }
        for i in theorems..self.theorems.len() {
            if !self.infer_theorem(i, errs) {
                return;
            }
        }
    }

    /// Infers the types in example `i`; false when the unifier's budget ran out (reported).
    pub(super) fn infer_example(&mut self, i: usize, errs: &mut Vec<Diag>) -> bool {
        let ex = std::mem::replace(
            &mut self.examples[i],
            Example {
                name: String::new(),
                uses: vec![],
                reading: None,
                stmts: vec![],
                nlocals: 0,
                span: Span::default(),
            },
        );
        let mut slots: Vec<Ty> = (0..ex.nlocals).map(|_| self.unifier.fresh()).collect();
        {
            let mut inf = Infer {
                p: self,
                slots: &mut slots,
                errs,
                mono: &HashMap::new(),
                quiet_arity: false,
            };
            for s in &ex.stmts {
                match s {
                    IrStmt::Let(p, e) => {
                        let t = inf.infer(e);
                        inf.pattern(p, &t, e.span());
                    }
                    IrStmt::Assert(e, _, span) => {
                        let t = inf.infer(e);
                        inf.expect(&t, &Ty::Bool, *span, "an assertion is a truth value");
                    }
                }
            }
        }
        let spent = self.report_spent(&format!("example `{}`", ex.name), ex.span, errs);
        self.examples[i] = ex;
        !spent
    }

    /// Infers the types in theorem `i`; false when the unifier's budget ran out (reported).
    pub(super) fn infer_theorem(&mut self, i: usize, errs: &mut Vec<Diag>) -> bool {
        let th = std::mem::replace(
            &mut self.theorems[i],
            Theorem {
                name: String::new(),
                uses: vec![],
                reading: None,
                binders: vec![],
                body: Ir::Const(Value::Bool(true), Span::default()),
                nlocals: 0,
                span: Span::default(),
            },
        );
        let mut slots: Vec<Ty> = (0..th.nlocals).map(|_| self.unifier.fresh()).collect();
        {
            let mut inf = Infer {
                p: self,
                slots: &mut slots,
                errs,
                mono: &HashMap::new(),
                quiet_arity: false,
            };
            inf.binders(&th.binders);
            let t = inf.infer(&th.body);
            inf.expect(
                &t,
                &Ty::Bool,
                th.body.span(),
                "a theorem states a truth value",
            );
        }
        let spent = self.report_spent(&format!("theorem `{}`", th.name), th.span, errs);
        self.theorems[i] = th;
        !spent
    }

    /// Whether the unifier ran out of its budget while checking `what` (at `span`), which is
    /// then reported (E0205).
    pub(super) fn report_spent(&self, what: &str, span: Span, errs: &mut Vec<Diag>) -> bool {
        let Some(spent) = self.unifier.spent() else {
            return false;
        };
        errs.push(type_budget_spent(spent, what, span));
        true
    }

    pub(super) fn fresh_key_type(&mut self, k: DefKey) -> Ty {
        // the signature written on the key's first definition, completed with fresh variables
        let first = self.defs_of_key[k.index()]
            .iter()
            .map(|&d| d.index())
            .find(|&d| !self.defs[d].is_override);
        let Some(first) = first else {
            return self.unifier.fresh();
        };
        let d = &self.defs[first];
        let params: Vec<Option<Ty>> = d.param_tys.clone();
        let ret = d.ret_ty.clone();
        let is_const = d.is_const;
        let ps: Vec<Ty> = params
            .into_iter()
            .map(|t| t.unwrap_or_else(|| self.unifier.fresh()))
            .collect();
        let r = ret.unwrap_or_else(|| self.unifier.fresh());
        if is_const {
            r
        } else {
            Ty::fun(ps, r)
        }
    }

    pub(super) fn infer_def(
        &mut self,
        id: DefId,
        mono: &HashMap<DefKey, Ty>,
        errs: &mut Vec<Diag>,
    ) {
        let d = &self.defs[id.index()];
        let key_ty = mono[&d.key].clone();
        let nlocals = d.nlocals;
        let param_tys = d.param_tys.clone();
        let ret_ty = d.ret_ty.clone();
        let nparams = d.params.len();
        let is_const = d.is_const;
        let name_span = d.name_span;
        let body = self.defs[id.index()].body.take();
        let mut slots: Vec<Ty> = (0..nlocals.max(nparams as u32))
            .map(|_| self.unifier.fresh())
            .collect();
        // the definition's own annotations
        for (i, t) in param_tys.iter().enumerate() {
            if let Some(t) = t {
                let _ = self.unifier.unify(&slots[i], t);
            }
        }
        let ret = self.unifier.fresh();
        if let Some(t) = &ret_ty {
            let _ = self.unifier.unify(&ret, t);
        }
        let own = if is_const {
            ret.clone()
        } else {
            Ty::fun(slots[..nparams].to_vec(), ret.clone())
        };
        if self.unifier.unify(&own, &key_ty).is_err() {
            errs.push(
                Diag::error(
                    code::OVERRIDE_TYPE,
                    format!(
                        "this definition of `{}` has type {}, but the name has type {}",
                        self.defs[id.index()].name,
                        self.unifier.pretty(&own),
                        self.unifier.pretty(&key_ty)
                    ),
                )
                .label(name_span, "type differs")
                .help("an override keeps the type of the definition it replaces"),
            );
        }
        if let Some(b) = &body {
            let mut inf = Infer {
                p: self,
                slots: &mut slots,
                errs,
                mono,
                quiet_arity: false,
            };
            let t = inf.infer(b);
            inf.expect(
                &t,
                &ret,
                b.span(),
                "the body must have the declared return type",
            );
        }
        self.defs[id.index()].body = body;
    }
}

/// E0205: checking the types of `what` (a definition's name in backquotes, or "the query"), at
/// `span`, passed a bound of the unifier's walks.
pub(super) fn type_budget_spent(spent: Spent, what: &str, span: Span) -> Diag {
    let (message, help) = match spent {
        Spent::Depth => (
            format!("a type in {what} is nested more than {MAX_TYPE_DEPTH} levels deep"),
            "each definition that puts another's value in a set, a sequence or a tuple nests its \
             type one level deeper: declare an enum, or nest less",
        ),
        Spent::Steps => (
            format!("checking the types of {what} takes more than {MAX_TYPE_STEPS} steps"),
            "the types met are too large to compare: give the definitions signatures with \
             smaller types, or declare an enum",
        ),
    };
    Diag::error(code::TYPE_TOO_LARGE, message)
        .label(span, "too large")
        .help(help)
}

pub(super) struct Infer<'a> {
    pub(super) p: &'a mut Program,
    pub(super) slots: &'a mut Vec<Ty>,
    pub(super) errs: &'a mut Vec<Diag>,
    pub(super) mono: &'a HashMap<DefKey, Ty>,
    /// Arity of calls by name was checked (and reported) during resolution.
    pub(super) quiet_arity: bool,
}

impl Infer<'_> {
    pub(super) fn u(&mut self) -> &mut Unifier {
        &mut self.p.unifier
    }

    pub(super) fn mismatch(&mut self, got: &Ty, want: &Ty, span: Span, why: &str) {
        let g = self.p.pretty(got);
        let w = self.p.pretty(want);
        self.errs.push(
            Diag::error(
                code::TYPE_MISMATCH,
                format!("type mismatch: expected {w}, found {g}"),
            )
            .label(span, format!("this is {g}"))
            .help(why.to_string()),
        );
    }

    pub(super) fn expect(&mut self, got: &Ty, want: &Ty, span: Span, why: &str) {
        if self.u().unify(got, want).is_err() {
            self.mismatch(got, want, span, why);
        }
    }

    pub(super) fn key_ty(&mut self, k: DefKey) -> Ty {
        if let Some(t) = self.mono.get(&k) {
            return t.clone();
        }
        match self.p.keys[k.index()].scheme.clone() {
            Some(s) => self.u().instantiate(&s),
            None => self.u().fresh(),
        }
    }

    /// The element type of a collection, if the collection's type says.
    pub(super) fn elem_of(&mut self, t: &Ty, span: Span, what: &str) -> Ty {
        match self.p.unifier.shallow(t) {
            Ty::Set(a) | Ty::Seq(a) => (*a).clone(),
            Ty::Map(k, _) => (*k).clone(),
            Ty::Var(_) => self.u().fresh(),
            Ty::Str => Ty::Str,
            other => {
                let s = self.p.pretty(&other);
                self.errs.push(
                    Diag::error(
                        code::TYPE_MISMATCH,
                        format!("{what} must be a set, sequence or map, not {s}"),
                    )
                    .label(span, format!("this is {s}"))
                    .help("quantifiers and generators range over finite collections"),
                );
                self.u().fresh()
            }
        }
    }

    pub(super) fn pattern(&mut self, p: &IrPat, t: &Ty, span: Span) {
        match p {
            IrPat::Wild => {}
            IrPat::Bind(s) => {
                let st = self.slots[*s as usize].clone();
                self.expect(t, &st, span, "a variable has one type");
            }
            IrPat::Int(_) => self.expect(t, &Ty::Int, span, "the pattern is an integer"),
            IrPat::Bool(_) => self.expect(t, &Ty::Bool, span, "the pattern is a truth value"),
            IrPat::Str(_) => self.expect(t, &Ty::Str, span, "the pattern is a string"),
            IrPat::Const(e, _) => {
                let et = Ty::Enum(*e, self.p.enums[(*e).index()].shared_name.clone());
                self.expect(t, &et, span, "the pattern is an enum constant");
            }
            IrPat::Tuple(items) => {
                let ts: Vec<Ty> = items.iter().map(|_| self.u().fresh()).collect();
                self.expect(t, &Ty::tuple(ts.clone()), span, "the pattern is a tuple");
                for (q, qt) in items.iter().zip(ts) {
                    self.pattern(q, &qt, span);
                }
            }
            IrPat::Ctor(e, tag, items) => {
                let et = Ty::Enum(*e, self.p.enums[(*e).index()].shared_name.clone());
                self.expect(t, &et, span, "the pattern is an enum constant");
                let fields = self.p.enums[(*e).index()].variants[*tag as usize]
                    .fields
                    .clone();
                for (q, ft) in items.iter().zip(fields) {
                    self.pattern(q, &ft, span);
                }
            }
            IrPat::Or(alts) => {
                for q in alts {
                    self.pattern(q, t, span);
                }
            }
        }
    }

    pub(super) fn binders(&mut self, bs: &[IrBinder]) {
        for b in bs {
            let dt = self.infer(&b.domain);
            let et = self.elem_of(&dt, b.domain.span(), "the domain of a binder");
            for p in &b.pats {
                self.pattern(p, &et, b.span);
            }
        }
    }

    pub(super) fn quals(&mut self, qs: &[IrQual]) {
        for q in qs {
            match q {
                IrQual::Gen(p, d, span) => {
                    let dt = self.infer(d);
                    let et = self.elem_of(&dt, d.span(), "a generator's domain");
                    self.pattern(p, &et, *span);
                }
                IrQual::Let(p, e) => {
                    let t = self.infer(e);
                    self.pattern(p, &t, e.span());
                }
                IrQual::Guard(e) => {
                    let t = self.infer(e);
                    self.expect(&t, &Ty::Bool, e.span(), "a condition is a truth value");
                }
            }
        }
    }

    /// Apply a value of type `ft` to arguments.
    pub(super) fn apply(&mut self, ft: &Ty, args: &[Ty], spans: &[Span], span: Span) -> Ty {
        match self.p.unifier.shallow(ft) {
            Ty::Fun(ps, r) => {
                if ps.len() != args.len() {
                    if self.quiet_arity {
                        return (*r).clone();
                    }
                    self.errs.push(
                        Diag::error(
                            code::WRONG_ARITY,
                            format!(
                                "this function takes {} arguments, but {} were given",
                                ps.len(),
                                args.len()
                            ),
                        )
                        .label(span, "wrong number of arguments")
                        .help(format!("its type is {}", self.p.pretty(ft))),
                    );
                    return (*r).clone();
                }
                for ((a, p), s) in args.iter().zip(ps.iter()).zip(spans) {
                    self.expect(a, p, *s, "the argument must have the parameter's type");
                }
                (*r).clone()
            }
            Ty::Map(k, v) if args.len() == 1 => {
                self.expect(&args[0], &k, spans[0], "a map is applied to a key");
                (*v).clone()
            }
            Ty::Seq(a) if args.len() == 1 => {
                self.expect(
                    &args[0],
                    &Ty::Int,
                    spans[0],
                    "a sequence is applied to an index (from 1)",
                );
                (*a).clone()
            }
            Ty::Var(_) => {
                let r = self.u().fresh();
                let f = Ty::fun(args.to_vec(), r.clone());
                let _ = self.u().unify(ft, &f);
                r
            }
            other => {
                let s = self.p.pretty(&other);
                self.errs.push(
                    Diag::error(code::NOT_APPLICABLE, format!("{s} cannot be applied to arguments"))
                        .label(span, "not a function, map or sequence")
                        .help("only functions, maps (to a key) and sequences (to an index) can be applied"),
                );
                self.u().fresh()
            }
        }
    }

    pub(super) fn infer(&mut self, e: &Ir) -> Ty {
        stacker::maybe_grow(1 << 20, 8 << 20, || self.infer_inner(e))
    }

    #[expect(
        clippy::unwrap_used,
        reason = "the parser gives a map comprehension its value"
    )]
    pub(super) fn infer_inner(&mut self, e: &Ir) -> Ty {
        match e {
            Ir::Const(v, _) => self.value_ty(v),
            Ir::Poison(_) => self.u().fresh(),
            Ir::Local(s, _) => self.slots[*s as usize].clone(),
            Ir::Global(k, _) => self.key_ty(*k),
            Ir::Call(k, args, span) | Ir::CallBase(_, k, args, span) => {
                let ft = self.key_ty(*k);
                let ats: Vec<Ty> = args.iter().map(|a| self.infer(a)).collect();
                let spans: Vec<Span> = args.iter().map(|a| a.span()).collect();
                self.quiet_arity = true;
                let r = self.apply(&ft, &ats, &spans, *span);
                self.quiet_arity = false;
                r
            }
            Ir::Apply(f, args, span) => {
                let ft = self.infer(f);
                let ats: Vec<Ty> = args.iter().map(|a| self.infer(a)).collect();
                let spans: Vec<Span> = args.iter().map(|a| a.span()).collect();
                self.apply(&ft, &ats, &spans, *span)
            }
            Ir::Builtin(b, args, span) => self.builtin(*b, args, *span),
            Ir::Ctor(en, tag, args, _) => {
                let fields = self.p.enums[(*en).index()].variants[*tag as usize]
                    .fields
                    .clone();
                for (a, f) in args.iter().zip(&fields) {
                    let t = self.infer(a);
                    self.expect(
                        &t,
                        f,
                        a.span(),
                        "a constructor's field has the declared type",
                    );
                }
                Ty::Enum(*en, self.p.enums[(*en).index()].shared_name.clone())
            }
            Ir::Domain(en, _) => Ty::set(Ty::Enum(
                *en,
                self.p.enums[(*en).index()].shared_name.clone(),
            )),
            Ir::Tuple(items, _) => Ty::Tuple(items.iter().map(|i| self.infer(i)).collect()),
            Ir::SetLit(items, _) | Ir::SeqLit(items, _) => {
                let t = self.u().fresh();
                for i in items.iter() {
                    let it = self.infer(i);
                    self.expect(
                        &it,
                        &t,
                        i.span(),
                        "the elements of a collection have one type",
                    );
                }
                if matches!(e, Ir::SetLit(..)) {
                    Ty::set(t)
                } else {
                    Ty::seq(t)
                }
            }
            Ir::MapLit(es, _) => self.infer_map_lit(es),
            Ir::Comp(kind, h, h2, qs, _) => {
                self.quals(qs);
                let ht = self.infer(h);
                match kind {
                    CompKind::Set => Ty::set(ht),
                    CompKind::Seq => Ty::seq(ht),
                    CompKind::Map => {
                        let vt = self.infer(h2.as_ref().unwrap());
                        Ty::map(ht, vt)
                    }
                }
            }
            Ir::Index(a, i, span) => {
                let at = self.infer(a);
                let it = self.infer(i);
                self.apply(&at, &[it], &[i.span()], *span)
            }
            Ir::Slice(a, i, j, _) => {
                let at = self.infer(a);
                let it = self.infer(i);
                let jt = self.infer(j);
                self.expect(&it, &Ty::Int, i.span(), "slice bounds are integers");
                self.expect(&jt, &Ty::Int, j.span(), "slice bounds are integers");
                let el = self.u().fresh();
                self.expect(&at, &Ty::seq(el), a.span(), "only sequences can be sliced");
                at
            }
            Ir::Proj(a, k, span) => self.infer_proj(a, *k, *span),
            Ir::With(a, es, _) => self.infer_with(a, es),
            Ir::WithComp(a, x, y, qs, _) => self.infer_with_comp(a, x, y, qs),
            Ir::Not(a, _) => {
                let t = self.infer(a);
                self.expect(&t, &Ty::Bool, a.span(), "`not` takes a truth value");
                Ty::Bool
            }
            Ir::Neg(a, _) => {
                let t = self.infer(a);
                self.expect(&t, &Ty::Int, a.span(), "only integers can be negated");
                Ty::Int
            }
            Ir::Bin(op, a, b, _) => self.binop(*op, a, b),
            Ir::If(c, a, b, _) => {
                let ct = self.infer(c);
                self.expect(
                    &ct,
                    &Ty::Bool,
                    c.span(),
                    "the condition of `if` is a truth value",
                );
                let at = self.infer(a);
                let bt = self.infer(b);
                self.expect(&bt, &at, b.span(), "both branches of `if` have one type");
                at
            }
            Ir::Let(binds, body, _) => {
                for (p, v) in binds.iter() {
                    let t = self.infer(v);
                    self.pattern(p, &t, v.span());
                }
                self.infer(body)
            }
            Ir::Match(s, arms, _) => self.infer_match(s, arms),
            Ir::Quant(_, bs, body, _) => {
                self.binders(bs);
                let t = self.infer(body);
                self.expect(
                    &t,
                    &Ty::Bool,
                    body.span(),
                    "a quantifier's body is a truth value",
                );
                Ty::Bool
            }
            Ir::Agg(a, bs, body, _) => self.infer_agg(*a, bs, body),
            Ir::Closure(s, f, _) => self.infer_closure(s, f),
            Ir::Lambda(l) => {
                let ps: Vec<Ty> = l.params.iter().map(|_| self.u().fresh()).collect();
                for (p, t) in l.params.iter().zip(&ps) {
                    self.pattern(p, t, l.span);
                }
                let r = self.infer(&l.body);
                Ty::fun(ps, r)
            }
        }
    }

    /// The type of a tuple's component `.k`.
    fn infer_proj(&mut self, a: &Ir, k: u32, span: Span) -> Ty {
        let at = self.infer(a);
        match self.p.unifier.shallow(&at) {
            Ty::Tuple(ts) => match ts.get(k as usize - 1) {
                Some(t) => t.clone(),
                None => {
                    self.errs.push(
                        Diag::error(
                            code::NO_TUPLE_COMPONENT,
                            format!("a tuple of {} components has no component {}", ts.len(), k),
                        )
                        .label(span, "no such component")
                        .help(format!("components are numbered 1 to {}", ts.len())),
                    );
                    self.u().fresh()
                }
            },
            Ty::Var(_) => self.u().fresh(),
            other => {
                let s = self.p.pretty(&other);
                self.errs.push(
                    Diag::error(
                        code::NO_TUPLE_COMPONENT,
                        format!("`.{k}` takes a component of a tuple, not of {s}"),
                    )
                    .label(span, "not a tuple")
                    .help("use `.1`, `.2`... on tuples only"),
                );
                self.u().fresh()
            }
        }
    }

    /// A `match`: each arm's pattern of the scrutinee's type, its guard a truth value, and every arm of one type.
    fn infer_match(&mut self, s: &Ir, arms: &[IrArm]) -> Ty {
        let st = self.infer(s);
        let r = self.u().fresh();
        for a in arms.iter() {
            self.pattern(&a.pat, &st, s.span());
            if let Some(g) = &a.guard {
                let gt = self.infer(g);
                self.expect(&gt, &Ty::Bool, g.span(), "a guard is a truth value");
            }
            let bt = self.infer(&a.body);
            self.expect(&bt, &r, a.body.span(), "all arms of `match` have one type");
        }
        r
    }

    /// `count`, `sum`, `min` and `max` over their binders.
    fn infer_agg(&mut self, a: Agg, bs: &[IrBinder], body: &Ir) -> Ty {
        self.binders(bs);
        let t = self.infer(body);
        match a {
            Agg::Count => {
                self.expect(
                    &t,
                    &Ty::Bool,
                    body.span(),
                    "`count` counts where its body is true",
                );
                Ty::Int
            }
            Agg::Sum => {
                self.expect(&t, &Ty::Int, body.span(), "`sum` adds integers");
                Ty::Int
            }
            _ => t,
        }
    }

    /// `closure(s, f)`: a set, and a step from an element to a set of elements.
    fn infer_closure(&mut self, s: &Ir, f: &Ir) -> Ty {
        let st = self.infer(s);
        let el = self.u().fresh();
        self.expect(
            &st,
            &Ty::set(el.clone()),
            s.span(),
            "a closure starts from a set",
        );
        let ft = self.infer(f);
        let r = self.apply(&ft, std::slice::from_ref(&el), &[f.span()], f.span());
        self.expect(
            &r,
            &Ty::set(el),
            f.span(),
            "the step of a closure maps an element to a set of elements",
        );
        st
    }

    /// A map written out: its keys of one type, its values of one type.
    fn infer_map_lit(&mut self, es: &[(Ir, Ir)]) -> Ty {
        let k = self.u().fresh();
        let v = self.u().fresh();
        for (a, b) in es.iter() {
            let at = self.infer(a);
            self.expect(&at, &k, a.span(), "the keys of a map have one type");
            let bt = self.infer(b);
            self.expect(&bt, &v, b.span(), "the values of a map have one type");
        }
        Ty::map(k, v)
    }

    /// The map that `with` updates: its type, and the types of its keys and values.
    fn updated_map(&mut self, a: &Ir) -> (Ty, Ty, Ty) {
        let at = self.infer(a);
        let k = self.u().fresh();
        let v = self.u().fresh();
        self.expect(
            &at,
            &Ty::map(k.clone(), v.clone()),
            a.span(),
            "`with` updates a map",
        );
        (at, k, v)
    }

    /// `m with {x: y | ...}`: a map, updated with keys and values of its types.
    fn infer_with_comp(&mut self, a: &Ir, x: &Ir, y: &Ir, qs: &[IrQual]) -> Ty {
        let (at, k, v) = self.updated_map(a);
        self.quals(qs);
        let xt = self.infer(x);
        self.expect(&xt, &k, x.span(), "keys keep the map's key type");
        let yt = self.infer(y);
        self.expect(&yt, &v, y.span(), "values keep the map's value type");
        at
    }

    /// `m with {x: y, ...}`: a map, updated with keys and values of its types.
    fn infer_with(&mut self, a: &Ir, es: &[(Ir, Ir)]) -> Ty {
        let (at, k, v) = self.updated_map(a);
        for (x, y) in es.iter() {
            let xt = self.infer(x);
            self.expect(&xt, &k, x.span(), "keys keep the map's key type");
            let yt = self.infer(y);
            self.expect(&yt, &v, y.span(), "values keep the map's value type");
        }
        at
    }

    pub(super) fn value_ty(&mut self, v: &Value) -> Ty {
        match v {
            Value::Bool(_) => Ty::Bool,
            Value::Int(_) => Ty::Int,
            Value::Str(_) => Ty::Str,
            Value::Enum(e) => Ty::Enum(e.ty, self.p.enums[e.ty.index()].shared_name.clone()),
            Value::Set(s) => {
                let el = match s.iter().next() {
                    Some(x) => self.value_ty(x),
                    None => self.u().fresh(),
                };
                Ty::set(el)
            }
            Value::Func(f) => match &**f {
                Func::Ctor(e, t, _) => {
                    let fields = self.p.enums[(*e).index()].variants[*t as usize]
                        .fields
                        .clone();
                    Ty::fun(
                        fields,
                        Ty::Enum(*e, self.p.enums[(*e).index()].shared_name.clone()),
                    )
                }
                _ => self.u().fresh(),
            },
            Value::Native(n) => Ty::Opaque(Rc::from(n.type_name())),
            _ => self.u().fresh(),
        }
    }

    /// Both operands of a binary operator are of type `want`, each reported at its own span.
    fn expect_both(&mut self, (at, a): (&Ty, &Ir), (bt, b): (&Ty, &Ir), want: &Ty, why: &str) {
        self.expect(at, want, a.span(), why);
        self.expect(bt, want, b.span(), why);
    }

    pub(super) fn binop(&mut self, op: BinOp, a: &Ir, b: &Ir) -> Ty {
        use BinOp::*;
        let at = self.infer(a);
        let bt = self.infer(b);
        match op {
            Implies | Iff | Or | And => {
                self.expect_both(
                    (&at, a),
                    (&bt, b),
                    &Ty::Bool,
                    "logical operators take truth values",
                );
                Ty::Bool
            }
            Eq | Ne | Lt | Le | Gt | Ge => {
                self.expect(
                    &bt,
                    &at,
                    b.span(),
                    "both sides of a comparison have one type",
                );
                Ty::Bool
            }
            In | NotIn => {
                let el = self.elem_of(&bt, b.span(), "the right side of `in`");
                self.expect(&at, &el, a.span(), "`x in S` needs x of S's element type");
                Ty::Bool
            }
            Subset => {
                let el = self.u().fresh();
                self.expect_both((&at, a), (&bt, b), &Ty::set(el), "`subset` compares sets");
                Ty::Bool
            }
            Range => {
                self.expect_both(
                    (&at, a),
                    (&bt, b),
                    &Ty::Int,
                    "a range goes between integers",
                );
                Ty::set(Ty::Int)
            }
            Concat
                if matches!(self.p.unifier.shallow(&at), Ty::Str)
                    || matches!(self.p.unifier.shallow(&bt), Ty::Str) =>
            {
                self.expect_both(
                    (&at, a),
                    (&bt, b),
                    &Ty::Str,
                    "`++` joins two strings or two sequences",
                );
                Ty::Str
            }
            Concat => {
                let el = self.u().fresh();
                self.expect_both((&at, a), (&bt, b), &Ty::seq(el), "`++` joins sequences");
                at
            }
            Add | Sub | Mul | Div | Mod => {
                self.expect_both((&at, a), (&bt, b), &Ty::Int, "arithmetic takes integers");
                Ty::Int
            }
            Union | Inter | Diff => {
                let el = self.u().fresh();
                self.expect_both((&at, a), (&bt, b), &Ty::set(el), "set operations take sets");
                at
            }
        }
    }

    pub(super) fn builtin(&mut self, b: Builtin, args: &[Ir], _span: Span) -> Ty {
        use Builtin::*;
        let ts: Vec<Ty> = args.iter().map(|a| self.infer(a)).collect();
        let sp: Vec<Span> = args.iter().map(|a| a.span()).collect();
        let f = |u: &mut Unifier| u.fresh();
        macro_rules! want {
            ($i:expr, $t:expr, $why:expr) => {
                if let Some(t) = ts.get($i) {
                    let w = $t;
                    self.expect(t, &w, sp[$i], $why);
                }
            };
        }
        match b {
            Len | Size | Count => {
                if let Some(t) = ts.first() {
                    self.elem_of(t, sp[0], "the argument");
                }
                Ty::Int
            }
            Keys => {
                let (k, v) = (f(self.u()), f(self.u()));
                want!(0, Ty::map(k.clone(), v), "`keys` takes a map");
                Ty::set(k)
            }
            Values => {
                let (k, v) = (f(self.u()), f(self.u()));
                want!(0, Ty::map(k, v.clone()), "`values` takes a map");
                Ty::set(v)
            }
            ToSet => {
                let el = match ts.first() {
                    Some(t) => self.elem_of(t, sp[0], "the argument"),
                    None => f(self.u()),
                };
                Ty::set(el)
            }
            ToSeq => {
                let el = match ts.first() {
                    Some(t) => self.elem_of(t, sp[0], "the argument"),
                    None => f(self.u()),
                };
                Ty::seq(el)
            }
            Sort | Rev => {
                let el = f(self.u());
                want!(0, Ty::seq(el.clone()), "this takes a sequence");
                Ty::seq(el)
            }
            First | Last => {
                let el = f(self.u());
                want!(0, Ty::seq(el.clone()), "this takes a sequence");
                el
            }
            Take | Drop => {
                let el = f(self.u());
                want!(0, Ty::seq(el.clone()), "this takes a sequence");
                want!(1, Ty::Int, "the count is an integer");
                Ty::seq(el)
            }
            Zip => {
                let (x, y) = (f(self.u()), f(self.u()));
                want!(0, Ty::seq(x.clone()), "`zip` takes sequences");
                want!(1, Ty::seq(y.clone()), "`zip` takes sequences");
                Ty::seq(Ty::tuple(vec![x, y]))
            }
            Abs | Sign => {
                want!(0, Ty::Int, "this takes an integer");
                Ty::Int
            }
            Powerset => {
                let el = f(self.u());
                want!(0, Ty::set(el.clone()), "`powerset` takes a set");
                Ty::set(Ty::set(el))
            }
            Functions => {
                let (x, y) = (f(self.u()), f(self.u()));
                want!(0, Ty::set(x.clone()), "`functions` takes two sets");
                want!(1, Ty::set(y.clone()), "`functions` takes two sets");
                Ty::set(Ty::map(x, y))
            }
            Product => {
                let (x, y) = (f(self.u()), f(self.u()));
                want!(0, Ty::set(x.clone()), "`product` takes two sets");
                want!(1, Ty::set(y.clone()), "`product` takes two sets");
                Ty::set(Ty::tuple(vec![x, y]))
            }
            Get => {
                let (k, v) = (f(self.u()), f(self.u()));
                want!(0, Ty::map(k.clone(), v.clone()), "`get` takes a map");
                want!(1, k, "the key has the map's key type");
                want!(2, v.clone(), "the default has the map's value type");
                v
            }
            UnionAll => {
                let el = f(self.u());
                if let Some(t) = ts.first() {
                    let inner = self.elem_of(t, sp[0], "the argument");
                    self.expect(
                        &inner,
                        &Ty::set(el.clone()),
                        sp[0],
                        "`union_all` takes a collection of sets",
                    );
                }
                Ty::set(el)
            }
            Sum => {
                if let Some(t) = ts.first() {
                    let el = self.elem_of(t, sp[0], "the argument");
                    self.expect(&el, &Ty::Int, sp[0], "`sum` adds integers");
                }
                Ty::Int
            }
            Min | Max | The => match ts.first() {
                Some(t) => self.elem_of(t, sp[0], "the argument"),
                None => f(self.u()),
            },
            Str => Ty::Str,
            Error => {
                want!(0, Ty::Str, "`error` takes a message");
                f(self.u())
            }
            IndexOf => {
                let el = f(self.u());
                want!(0, Ty::seq(el.clone()), "`index_of` takes a sequence");
                want!(1, el, "the element has the sequence's element type");
                Ty::Int
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{build, errors};

    #[test]
    fn mismatched_types_are_reported() {
        assert_eq!(
            errors("def a = 1 + true"),
            vec![crate::diagnostics::code::TYPE_MISMATCH]
        );
        assert!(
            errors("def a = 1(2)").contains(&crate::diagnostics::code::NOT_APPLICABLE.to_string())
        );
    }

    #[test]
    fn an_override_keeps_the_type_of_the_name() {
        let codes = errors("def a = 1\nreading r { override def a = true }");
        assert_eq!(codes, vec![crate::diagnostics::code::TYPE_MISMATCH]);
    }

    #[test]
    fn types_are_inferred_and_generalised() {
        let p = build("def id(x) = x\ndef a = (id(1), id(true))").unwrap();
        assert_eq!(p.key_type(p.key_of("a").unwrap()), "(Int, Bool)");
    }
}
