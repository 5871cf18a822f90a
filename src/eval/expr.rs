#![forbid(unsafe_code)]
//! Expressions: the evaluation of each form of [`Ir`], enum values, map and sequence updates,
//! and application of function values.

use super::*;
use crate::diagnostics::code;

impl Evaluator<'_> {
    pub fn eval(&mut self, e: &Ir, frame: &mut Vec<Value>) -> R<Value> {
        // the leaves do not recurse: no need to look at the stack for them
        match e {
            Ir::Local(s, span) => {
                self.tick(*span)?;
                return Ok(frame[*s as usize].clone());
            }
            Ir::Const(v, span) => {
                self.tick(*span)?;
                return Ok(v.clone());
            }
            _ => {}
        }
        // the stack is looked at every fourth level of nesting: four levels take far less than
        // the room asked for, and looking is a tenth of the cost of a small expression
        self.nesting = self.nesting.wrapping_add(1);
        let r = if self.nesting.is_multiple_of(4) {
            stacker::maybe_grow(512 << 10, 4 << 20, || self.eval_inner(e, frame))
        } else {
            self.eval_inner(e, frame)
        };
        self.nesting = self.nesting.wrapping_sub(1);
        r
    }

    pub(crate) fn eval_bool(&mut self, e: &Ir, frame: &mut Vec<Value>) -> R<bool> {
        match self.eval(e, frame)? {
            Value::Bool(b) => Ok(b),
            v => Err(rt(
                code::RUNTIME_TYPE,
                format!("expected a truth value, found {}", v.type_desc()),
                e.span(),
                &format!("this is {}", short(&v, 40)),
                "conditions, quantifier bodies and assertions are true or false",
            )),
        }
    }

    pub(super) fn eval_int(&mut self, e: &Ir, frame: &mut Vec<Value>) -> R<i64> {
        match self.eval(e, frame)? {
            Value::Int(i) => Ok(i),
            v => Err(rt(
                code::RUNTIME_TYPE,
                format!("expected an integer, found {}", v.type_desc()),
                e.span(),
                &format!("this is {}", short(&v, 40)),
                "arithmetic, ranges and indices take integers",
            )),
        }
    }

    pub(super) fn eval_inner(&mut self, e: &Ir, frame: &mut Vec<Value>) -> R<Value> {
        self.tick(e.span())?;
        match e {
            Ir::Const(v, _) => Ok(v.clone()),
            Ir::Poison(span) => Err(rt(
                code::UNKNOWN_NAME,
                "this expression did not check",
                *span,
                "here",
                "fix the diagnostics of `okite check`",
            )),
            Ir::Local(s, _) => Ok(frame[*s as usize].clone()),
            Ir::Global(k, span) => {
                let key = &self.prog.keys[(*k).index()];
                if key.arity.is_none() {
                    self.call_key(*k, vec![], *span)
                } else {
                    Ok(Value::Func(Rc::new(Func::Def(*k))))
                }
            }
            Ir::Call(k, args, span) => {
                let a = self.eval_args(args, frame)?;
                self.call_key(*k, a, *span)
            }
            Ir::CallBase(from, k, args, span) => {
                let a = self.eval_args(args, frame)?;
                match self.prog.resolve_base(self.reading, *from, *k) {
                    Some(d) => self.call_def(d, a, *span),
                    None => Err(rt(
                        code::NO_DEFINITION_UNDER_READING,
                        format!(
                            "`base.{}` has no definition in a parent reading",
                            self.prog.keys[(*k).index()].name
                        ),
                        *span,
                        "called here",
                        "`base.f` calls the definition that the reading overrides",
                    )),
                }
            }
            Ir::Builtin(b, args, span) => {
                let a = self.eval_args(args, frame)?;
                self.builtin(*b, a, *span)
            }
            Ir::Apply(f, args, span) => {
                let fv = self.eval(f, frame)?;
                let a = self.eval_args(args, frame)?;
                self.apply(fv, a, *span)
            }
            Ir::Ctor(en, tag, args, _) => {
                let a = self.eval_args(args, frame)?;
                Ok(self.make_enum(*en, *tag, a))
            }
            Ir::Domain(en, _) => {
                let s: BTreeSet<Value> = self.prog.enums[(*en).index()]
                    .variants
                    .iter()
                    .filter_map(|v| v.value.clone())
                    .collect();
                Ok(Value::set(s))
            }
            Ir::Tuple(items, _) => match &items[..] {
                [a, b] => {
                    let a = self.eval(a, frame)?;
                    Ok(Value::pair(a, self.eval(b, frame)?))
                }
                _ => Ok(Value::tuple(self.eval_args(items, frame)?)),
            },
            Ir::SetLit(items, _) => Ok(Value::set(
                self.eval_args(items, frame)?.into_iter().collect(),
            )),
            Ir::SeqLit(items, _) => Ok(Value::seq(self.eval_args(items, frame)?)),
            Ir::MapLit(es, _) => {
                let mut m = BTreeMap::new();
                for (k, v) in es.iter() {
                    let k = self.eval(k, frame)?;
                    let v = self.eval(v, frame)?;
                    m.insert(k, v);
                }
                Ok(Value::map(m))
            }
            Ir::Comp(kind, h, h2, qs, span) => {
                self.comprehension(*kind, h, h2.as_deref(), qs, *span, frame)
            }
            Ir::Index(a, i, span) => {
                let av = self.eval(a, frame)?;
                let iv = self.eval(i, frame)?;
                self.apply(av, vec![iv], *span)
            }
            Ir::Slice(a, i, j, span) => self.slice(a, i, j, *span, frame),
            Ir::Proj(a, k, span) => self.projection(a, *k, *span, frame),
            Ir::With(a, es, span) => {
                let base = self.eval(a, frame)?;
                let mut updates = vec![];
                for (k, v) in es.iter() {
                    updates.push((self.eval(k, frame)?, self.eval(v, frame)?));
                }
                self.update(base, updates, *span)
            }
            Ir::WithComp(a, k, v, qs, span) => self.with_comprehension(a, k, v, qs, *span, frame),
            Ir::Not(a, _) => Ok(Value::Bool(!self.eval_bool(a, frame)?)),
            Ir::Neg(a, span) => {
                let i = self.eval_int(a, frame)?;
                i.checked_neg()
                    .map(Value::Int)
                    .ok_or_else(|| overflow(*span))
            }
            Ir::Bin(op, a, b, span) => self.binop(*op, a, b, *span, frame),
            Ir::If(c, a, b, _) => {
                if self.eval_bool(c, frame)? {
                    self.eval(a, frame)
                } else {
                    self.eval(b, frame)
                }
            }
            Ir::Let(binds, body, _) => {
                for (p, v) in binds.iter() {
                    let val = self.eval(v, frame)?;
                    if !self.matches(p, &val, frame) {
                        return Err(rt(
                            code::NO_MATCH,
                            format!("the value {} does not match the pattern", short(&val, 60)),
                            v.span(),
                            "this value",
                            "a `let` pattern must match its value",
                        ));
                    }
                }
                self.eval(body, frame)
            }
            Ir::Match(s, arms, span) => self.match_arms(s, arms, *span, frame),
            Ir::Quant(q, bs, body, span) => self.quant(*q, bs, body, *span, frame),
            Ir::Agg(a, bs, body, span) => self.agg(*a, bs, body, *span, frame),
            Ir::Closure(s, f, span) => self.closure(s, f, *span, frame),
            Ir::Lambda(l) => Ok(Value::Func(Rc::new(Func::Lambda {
                lambda: l.clone(),
                frame: Rc::new(frame.clone()),
            }))),
        }
    }

    /// `match`: the first arm whose pattern matches and whose guard holds.
    fn match_arms(
        &mut self,
        s: &Ir,
        arms: &[IrArm],
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R<Value> {
        let v = self.eval(s, frame)?;
        for a in arms.iter() {
            if self.matches(&a.pat, &v, frame) {
                if let Some(g) = &a.guard {
                    if !self.eval_bool(g, frame)? {
                        continue;
                    }
                }
                return self.eval(&a.body, frame);
            }
        }
        Err(rt(
            code::NO_MATCH,
            format!("no arm of `match` matches {}", short(&v, 60)),
            span,
            "no arm matches",
            "add an arm for this value, or `_ => ...`",
        ))
    }

    /// A set, sequence or map comprehension, the resident bound checked as the collection grows.
    #[expect(
        clippy::expect_used,
        reason = "the parser gives a map comprehension its value"
    )]
    fn comprehension(
        &mut self,
        kind: CompKind,
        h: &Ir,
        h2: Option<&Ir>,
        qs: &[IrQual],
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R<Value> {
        let mut set = BTreeSet::new();
        let mut seq = vec![];
        let mut map = BTreeMap::new();
        // the resident bound is checked as the collection grows, not once it is built
        self.quals(qs, 0, frame, &mut |ev, fr| {
            let v = ev.eval(h, fr)?;
            let mut bytes = ELEMENT_BYTES + v.approx_size();
            match kind {
                CompKind::Set => {
                    set.insert(v);
                }
                CompKind::Seq => {
                    // a full vector doubles: the larger buffer is weighed first
                    if seq.len() == seq.capacity() {
                        let cap = seq.capacity().saturating_mul(2).max(4);
                        ev.before_making(cap.saturating_mul(std::mem::size_of::<Value>()), span)?;
                    }
                    seq.push(v)
                }
                CompKind::Map => {
                    let w = ev.eval(h2.expect("a map comprehension has a value"), fr)?;
                    bytes += w.approx_size();
                    map.insert(v, w);
                }
            }
            ev.grew(bytes, span)?;
            Ok(true)
        })?;
        Ok(match kind {
            CompKind::Set => Value::set(set),
            CompKind::Seq => Value::seq(seq),
            CompKind::Map => Value::map(map),
        })
    }

    /// `s[i..j]`: 1-based and inclusive.
    fn slice(&mut self, a: &Ir, i: &Ir, j: &Ir, span: Span, frame: &mut Vec<Value>) -> R<Value> {
        let av = self.eval(a, frame)?;
        let i = self.eval_int(i, frame)?;
        let j = self.eval_int(j, frame)?;
        let Value::Seq(s) = av else {
            return Err(rt(
                code::RUNTIME_TYPE,
                format!("only sequences can be sliced, not {}", av.type_desc()),
                span,
                "here",
                "",
            ));
        };
        let n = s.len() as i64;
        if i < 1 || j > n || j < i - 1 {
            return Err(rt(
                code::OUT_OF_RANGE,
                format!("the slice [{i}..{j}] is outside a sequence of length {n}"),
                span,
                "out of range",
                "slices are 1-based and inclusive: s[1..len(s)] is the whole of s",
            ));
        }
        let part = &s[(i - 1) as usize..j as usize];
        Ok(Value::seq(
            self.collect_metered(part.iter().cloned(), span)?,
        ))
    }

    /// `v.k`: a component of a tuple or of an enum's value, numbered from 1.
    fn projection(&mut self, a: &Ir, k: u32, span: Span, frame: &mut Vec<Value>) -> R<Value> {
        let v = self.eval(a, frame)?;
        let items: &[Value] = match &v {
            Value::Tuple(t) => t,
            Value::Enum(e) => &e.fields,
            _ => {
                return Err(rt(
                    code::RUNTIME_TYPE,
                    format!(
                        "`.{k}` takes a component of a tuple, not of {}",
                        v.type_desc()
                    ),
                    span,
                    "not a tuple",
                    "",
                ))
            }
        };
        items.get(k as usize - 1).cloned().ok_or_else(|| {
            rt(
                code::OUT_OF_RANGE,
                format!("there is no component {k} in {}", short(&v, 60)),
                span,
                "no such component",
                "components are numbered from 1",
            )
        })
    }

    /// `m with {k: v | ...}`: the updates gathered, each weighed as it is made.
    fn with_comprehension(
        &mut self,
        a: &Ir,
        k: &Ir,
        v: &Ir,
        qs: &[IrQual],
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R<Value> {
        let base = self.eval(a, frame)?;
        let mut updates = vec![];
        self.quals(qs, 0, frame, &mut |ev, fr| {
            let kv = ev.eval(k, fr)?;
            let vv = ev.eval(v, fr)?;
            ev.grew(
                2 * ELEMENT_BYTES + kv.approx_size() + vv.approx_size(),
                span,
            )?;
            updates.push((kv, vv));
            Ok(true)
        })?;
        self.update(base, updates, span)
    }

    /// `closure(s, f)`: the least set holding `s` and closed under the step `f`.
    fn closure(&mut self, s: &Ir, f: &Ir, span: Span, frame: &mut Vec<Value>) -> R<Value> {
        let start = self.eval(s, frame)?;
        let fv = self.eval(f, frame)?;
        let Value::Set(start) = start else {
            return Err(rt(
                code::RUNTIME_TYPE,
                "a closure starts from a set",
                s.span(),
                "not a set",
                "",
            ));
        };
        let mut seen: BTreeSet<Value> = (*start).clone();
        let mut todo: Vec<Value> = start.iter().cloned().collect();
        while let Some(x) = todo.pop() {
            self.tick(span)?;
            let next = self.apply(fv.clone(), vec![x], f.span())?;
            let Value::Set(next) = next else {
                return Err(rt(
                    code::RUNTIME_TYPE,
                    format!(
                        "the step of a closure must give a set, not {}",
                        next.type_desc()
                    ),
                    f.span(),
                    "this step",
                    "",
                ));
            };
            for y in next.iter() {
                if seen.insert(y.clone()) {
                    self.grew(2 * ELEMENT_BYTES + y.approx_size(), span)?;
                    todo.push(y.clone());
                }
            }
        }
        Ok(Value::set(seen))
    }

    pub(super) fn eval_args(&mut self, args: &[Ir], frame: &mut Vec<Value>) -> R<Vec<Value>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push(self.eval(a, frame)?);
        }
        Ok(out)
    }

    pub(super) fn make_enum(&self, en: EnumId, tag: u32, fields: Vec<Value>) -> Value {
        let v = &self.prog.enums[en.index()].variants[tag as usize];
        if fields.is_empty() {
            if let Some(c) = &v.value {
                return c.clone();
            }
        }
        Value::enum_value(en, tag, &v.shared_name, fields)
    }

    pub(super) fn update(
        &mut self,
        base: Value,
        updates: Vec<(Value, Value)>,
        span: Span,
    ) -> R<Value> {
        // a map or sequence shared elsewhere is copied whole before it is updated: the copy
        // is weighed against the memory bounds first
        let copied = match &base {
            Value::Map(m) if Rc::strong_count(m) > 1 => m.len().saturating_mul(ELEMENT_BYTES + 48),
            Value::Seq(s) if Rc::strong_count(s) > 1 => {
                s.len().saturating_mul(std::mem::size_of::<Value>())
            }
            _ => 0,
        };
        self.before_making(copied, span)?;
        match base {
            Value::Map(m) => {
                let mut m = Coll::take(m);
                for (k, v) in updates {
                    m.insert(k, v);
                }
                Ok(Value::map(m))
            }
            Value::Seq(s) => {
                let mut s = Coll::take(s);
                for (k, v) in updates {
                    let i = k
                        .as_int()
                        .filter(|i| *i >= 1 && *i as usize <= s.len())
                        .ok_or_else(|| {
                            rt(
                                code::OUT_OF_RANGE,
                                format!("index {} is outside a sequence of length {}", k, s.len()),
                                span,
                                "out of range",
                                "sequences are indexed from 1",
                            )
                        })?;
                    s[i as usize - 1] = v;
                }
                Ok(Value::seq(s))
            }
            v => Err(rt(
                code::RUNTIME_TYPE,
                format!("`with` updates a map or a sequence, not {}", v.type_desc()),
                span,
                "here",
                "",
            )),
        }
    }

    /// Apply a function value, a map or a sequence to arguments.
    pub fn apply(&mut self, f: Value, args: Vec<Value>, span: Span) -> R<Value> {
        match f {
            Value::Func(func) => match &*func {
                Func::Lambda { lambda, frame } => {
                    if lambda.params.len() != args.len() {
                        return Err(rt(
                            code::WRONG_ARITY,
                            format!(
                                "this function takes {} arguments, not {}",
                                lambda.params.len(),
                                args.len()
                            ),
                            span,
                            "called here",
                            "",
                        ));
                    }
                    let mut fr = (**frame).clone();
                    for (p, a) in lambda.params.iter().zip(args.iter()) {
                        if !self.matches(p, a, &mut fr) {
                            return Err(rt(
                                code::NO_MATCH,
                                format!(
                                    "the argument {} does not match the parameter pattern",
                                    short(a, 60)
                                ),
                                span,
                                "called here",
                                "",
                            ));
                        }
                    }
                    self.eval(&lambda.body, &mut fr)
                }
                Func::Def(k) => self.call_key(*k, args, span),
                Func::Builtin(b) => self.builtin(*b, args, span),
                Func::Ctor(e, t, n) => {
                    if *n != args.len() {
                        return Err(rt(
                            code::WRONG_ARITY,
                            format!("the constructor takes {n} arguments"),
                            span,
                            "here",
                            "",
                        ));
                    }
                    Ok(self.make_enum(*e, *t, args))
                }
            },
            Value::Map(m) => {
                let k = args.into_iter().next().unwrap_or(Value::Bool(false));
                m.get(&k).cloned().ok_or_else(|| {
                    rt(
                        code::OUT_OF_RANGE,
                        format!("{} is not a key of the map", short(&k, 60)),
                        span,
                        "looked up here",
                        "use get(m, k, default) when a key may be missing",
                    )
                })
            }
            Value::Seq(s) => {
                let i = args.first().and_then(|a| a.as_int()).unwrap_or(0);
                if i < 1 || i as usize > s.len() {
                    return Err(rt(
                        code::OUT_OF_RANGE,
                        format!("index {i} is outside a sequence of length {}", s.len()),
                        span,
                        "out of range",
                        "sequences are indexed from 1 to their length",
                    ));
                }
                Ok(s[i as usize - 1].clone())
            }
            v => Err(rt(
                code::RUNTIME_TYPE,
                format!("{} cannot be applied to arguments", v.type_desc()),
                span,
                "applied here",
                "only functions, maps and sequences can be applied",
            )),
        }
    }
}
