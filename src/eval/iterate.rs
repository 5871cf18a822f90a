#![forbid(unsafe_code)]
//! Patterns, binders and what ranges over them: comprehension qualifiers, quantifiers and
//! aggregates.

use super::*;
use crate::diagnostics::code;

/// A domain being walked: a range of integers, or a collection (a map stands for its keys).
enum Dom {
    Ints(i64, i64),
    Of(Value),
}

impl Evaluator<'_> {
    pub(crate) fn matches(&self, p: &IrPat, v: &Value, frame: &mut [Value]) -> bool {
        match (p, v) {
            (IrPat::Wild, _) => true,
            (IrPat::Bind(s), _) => {
                frame[*s as usize] = v.clone();
                true
            }
            (IrPat::Int(i), Value::Int(j)) => i == j,
            (IrPat::Bool(a), Value::Bool(b)) => a == b,
            (IrPat::Str(a), Value::Str(b)) => a == b,
            (IrPat::Const(e, t), Value::Enum(x)) => x.ty == *e && x.tag == *t,
            (IrPat::Tuple(ps), Value::Tuple(vs)) => {
                ps.len() == vs.len()
                    && ps
                        .iter()
                        .zip(vs.iter())
                        .all(|(p, v)| self.matches(p, v, frame))
            }
            (IrPat::Ctor(e, t, ps), Value::Enum(x)) => {
                x.ty == *e
                    && x.tag == *t
                    && ps.len() == x.fields.len()
                    && ps
                        .iter()
                        .zip(x.fields.iter())
                        .all(|(p, v)| self.matches(p, v, frame))
            }
            (IrPat::Or(alts), _) => alts.iter().any(|p| self.matches(p, v, frame)),
            _ => false,
        }
    }

    pub(super) fn elements(&mut self, v: &Value, span: Span) -> R<Vec<Value>> {
        Ok(match v {
            Value::Set(s) => self.collect_metered(s.iter().cloned(), span)?,
            Value::Seq(s) => self.collect_metered(s.iter().cloned(), span)?,
            Value::Map(m) => self.collect_metered(m.keys().cloned(), span)?,
            _ => {
                return Err(rt(
                    code::RUNTIME_TYPE,
                    format!("expected a set, sequence or map, found {}", v.type_desc()),
                    span,
                    &format!("this is {}", short(v, 40)),
                    "quantifiers and generators range over finite collections",
                ))
            }
        })
    }

    /// What a binder or generator ranges over. A range `i..j` and the keys of a map are walked
    /// where they are, without building the set they stand for (the same elements, in the same
    /// ascending order).
    fn domain(&mut self, d: &Ir, frame: &mut Vec<Value>) -> R<Dom> {
        match d {
            Ir::Bin(BinOp::Range, a, b, _) => {
                let i = self.eval_int(a, frame)?;
                let j = self.eval_int(b, frame)?;
                Ok(Dom::Ints(i, j))
            }
            Ir::Builtin(Builtin::Keys, args, _) if args.len() == 1 => {
                match self.eval(&args[0], frame)? {
                    m @ Value::Map(_) => Ok(Dom::Of(m)),
                    v => self.builtin(Builtin::Keys, vec![v], d.span()).map(Dom::Of),
                }
            }
            _ => {
                let v = self.eval(d, frame)?;
                match v {
                    Value::Set(_) | Value::Seq(_) | Value::Map(_) => Ok(Dom::Of(v)),
                    _ => self.elements(&v, d.span()).map(|_| Dom::Of(v)),
                }
            }
        }
    }

    /// Run `f` on each element of a domain (the keys of a map), until it says stop.
    fn each(&mut self, dom: &Dom, f: &mut dyn FnMut(&mut Self, &Value) -> R<bool>) -> R<bool> {
        match dom {
            Dom::Ints(i, j) => {
                for k in *i..=*j {
                    if !f(self, &Value::Int(k))? {
                        return Ok(false);
                    }
                }
            }
            Dom::Of(Value::Set(s)) => {
                for x in s.iter() {
                    if !f(self, x)? {
                        return Ok(false);
                    }
                }
            }
            Dom::Of(Value::Seq(s)) => {
                for x in s.iter() {
                    if !f(self, x)? {
                        return Ok(false);
                    }
                }
            }
            Dom::Of(Value::Map(m)) => {
                for x in m.keys() {
                    if !f(self, x)? {
                        return Ok(false);
                    }
                }
            }
            Dom::Of(_) => {}
        }
        Ok(true)
    }

    /// Run `f` for every binding of the binders (a product of their domains), until it says stop.
    pub(crate) fn bindings(
        &mut self,
        bs: &[IrBinder],
        frame: &mut Vec<Value>,
        f: &mut dyn FnMut(&mut Self, &mut Vec<Value>) -> R<bool>,
    ) -> R<bool> {
        // flatten (binder, pattern) pairs; each ranges over its binder's domain
        let mut slots: Vec<(&IrBinder, &IrPat)> = vec![];
        for b in bs {
            for p in &b.pats {
                slots.push((b, p));
            }
        }
        self.bind_rec(&slots, 0, frame, f)
    }

    /// The binders from the `i`-th on, each a level deeper on a grown stack: a quantifier of
    /// 100,000 binders nests as deep.
    pub(super) fn bind_rec(
        &mut self,
        slots: &[(&IrBinder, &IrPat)],
        i: usize,
        frame: &mut Vec<Value>,
        f: &mut dyn FnMut(&mut Self, &mut Vec<Value>) -> R<bool>,
    ) -> R<bool> {
        if i == slots.len() {
            return f(self, frame);
        }
        let (b, p) = slots[i];
        let dom = self.domain(&b.domain, frame)?;
        stacker::maybe_grow(64 << 10, 4 << 20, || {
            self.each(&dom, &mut |ev, x| {
                if !ev.matches(p, x, frame) {
                    return Ok(true);
                }
                ev.bind_rec(slots, i + 1, frame, f)
            })
        })
    }

    /// The qualifiers from the `i`-th on: guards and `let`s in a loop, each generator a level
    /// deeper on a grown stack.
    pub(super) fn quals(
        &mut self,
        qs: &[IrQual],
        i: usize,
        frame: &mut Vec<Value>,
        f: &mut dyn FnMut(&mut Self, &mut Vec<Value>) -> R<bool>,
    ) -> R<bool> {
        let mut i = i;
        loop {
            if i == qs.len() {
                return f(self, frame);
            }
            match &qs[i] {
                IrQual::Gen(p, d, _) => {
                    let dom = self.domain(d, frame)?;
                    return stacker::maybe_grow(64 << 10, 4 << 20, || {
                        self.each(&dom, &mut |ev, x| {
                            if !ev.matches(p, x, frame) {
                                return Ok(true);
                            }
                            ev.quals(qs, i + 1, frame, f)
                        })
                    });
                }
                IrQual::Let(p, e) => {
                    let v = self.eval(e, frame)?;
                    if !self.matches(p, &v, frame) {
                        return Ok(true);
                    }
                }
                IrQual::Guard(g) => {
                    if !self.eval_bool(g, frame)? {
                        return Ok(true);
                    }
                }
            }
            i += 1;
        }
    }

    pub(crate) fn binding_text(&self, bs: &[IrBinder], frame: &[Value]) -> String {
        let mut parts = vec![];
        for b in bs {
            for (p, n) in b.pats.iter().zip(&b.names) {
                if let IrPat::Bind(s) = p {
                    parts.push(format!(
                        "{n} = {}",
                        crate::natives::show(self.prog, &frame[*s as usize], 80)
                    ));
                } else {
                    parts.push(n.clone());
                }
            }
        }
        parts.join(", ")
    }

    pub(super) fn quant(
        &mut self,
        q: Quant,
        bs: &[IrBinder],
        body: &Ir,
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R<Value> {
        let tracing = self.tracing();
        let mut kept: Vec<Rc<Node>> = vec![];
        let mut elided = 0usize;
        let mut witness: Option<Rc<Node>> = None;
        let mut result = q == Quant::All;
        let mut count = 0usize;
        self.bindings(bs, frame, &mut |ev, fr| {
            count += 1;
            ev.push_trace();
            let b = ev.eval_bool(body, fr);
            let children = ev.pop_trace();
            let b = b?;
            if tracing {
                let n = Rc::new(Node {
                    text: ev.binding_text(bs, fr),
                    span: None,
                    value: Some(Value::Bool(b)),
                    children,
                    elided: 0,
                });
                let decisive = (q == Quant::All && !b) || (q == Quant::Any && b);
                if decisive {
                    witness = Some(n);
                } else if kept.len() < MAX_CHILDREN {
                    kept.push(n);
                } else {
                    elided += 1;
                }
            }
            match q {
                Quant::All if !b => {
                    result = false;
                    Ok(false)
                }
                Quant::Any if b => {
                    result = true;
                    Ok(false)
                }
                _ => Ok(true),
            }
        })?;
        if tracing {
            let names: Vec<String> = bs.iter().flat_map(|b| b.names.clone()).collect();
            let (text, children, elided) = match (q, witness) {
                (Quant::All, Some(w)) => {
                    (format!("all {}: fails for", names.join(", ")), vec![w], 0)
                }
                (Quant::Any, Some(w)) => {
                    (format!("any {}: holds for", names.join(", ")), vec![w], 0)
                }
                (Quant::All, None) => (
                    format!("all {}: holds for all {count}", names.join(", ")),
                    kept,
                    elided,
                ),
                (Quant::Any, None) => (
                    format!("any {}: fails for all {count}", names.join(", ")),
                    kept,
                    elided,
                ),
            };
            self.emit(Rc::new(Node {
                text,
                span: Some(span),
                value: Some(Value::Bool(result)),
                children,
                elided,
            }));
        }
        Ok(Value::Bool(result))
    }

    pub(super) fn agg(
        &mut self,
        a: Agg,
        bs: &[IrBinder],
        body: &Ir,
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R<Value> {
        let mut count: i64 = 0;
        let mut sum: i64 = 0;
        let mut best: Option<Value> = None;
        let mut overflowed = false;
        self.bindings(bs, frame, &mut |ev, fr| {
            match a {
                Agg::Count => {
                    if ev.eval_bool(body, fr)? {
                        count += 1;
                    }
                }
                Agg::Sum => {
                    let v = ev.eval_int(body, fr)?;
                    match sum.checked_add(v) {
                        Some(s) => sum = s,
                        None => {
                            overflowed = true;
                            return Ok(false);
                        }
                    }
                }
                Agg::Min | Agg::Max => {
                    let v = ev.eval(body, fr)?;
                    let better = match &best {
                        None => true,
                        Some(b) => (a == Agg::Min && v < *b) || (a == Agg::Max && v > *b),
                    };
                    if better {
                        best = Some(v);
                    }
                }
            }
            Ok(true)
        })?;
        if overflowed {
            return Err(overflow(span));
        }
        match a {
            Agg::Count => Ok(Value::Int(count)),
            Agg::Sum => Ok(Value::Int(sum)),
            _ => best.ok_or_else(|| {
                rt(
                    code::EMPTY_OR_NOT_ONE,
                    format!(
                        "`{}` over an empty domain has no value",
                        if a == Agg::Min { "min" } else { "max" }
                    ),
                    span,
                    "empty",
                    "check that the domain is not empty first",
                )
            }),
        }
    }
}
