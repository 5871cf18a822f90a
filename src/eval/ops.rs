#![forbid(unsafe_code)]
//! Operators and built-in functions.

use super::*;
use crate::diagnostics::code;

/// The most bytes of a message `error` gives a diagnostic.
const MESSAGE_BYTES: usize = 4096;

/// The most maps `functions(A, B)` lists (|B|^|A| of them).
const MAX_FUNCTIONS: u128 = 50_000_000;

impl Evaluator<'_> {
    pub(super) fn binop(
        &mut self,
        op: BinOp,
        a: &Ir,
        b: &Ir,
        span: Span,
        frame: &mut Vec<Value>,
    ) -> R<Value> {
        use BinOp::*;
        match op {
            And => {
                return Ok(Value::Bool(
                    self.eval_bool(a, frame)? && self.eval_bool(b, frame)?,
                ))
            }
            Or => {
                return Ok(Value::Bool(
                    self.eval_bool(a, frame)? || self.eval_bool(b, frame)?,
                ))
            }
            Implies => {
                return Ok(Value::Bool(
                    !self.eval_bool(a, frame)? || self.eval_bool(b, frame)?,
                ))
            }
            Iff => {
                return Ok(Value::Bool(
                    self.eval_bool(a, frame)? == self.eval_bool(b, frame)?,
                ))
            }
            _ => {}
        }
        let x = self.eval(a, frame)?;
        let y = self.eval(b, frame)?;
        let ints = |x: &Value, y: &Value| -> R<(i64, i64)> {
            match (x, y) {
                (Value::Int(i), Value::Int(j)) => Ok((*i, *j)),
                _ => Err(rt(
                    code::RUNTIME_TYPE,
                    format!(
                        "`{}` takes integers, not {} and {}",
                        op.text(),
                        x.type_desc(),
                        y.type_desc()
                    ),
                    span,
                    "here",
                    "",
                )),
            }
        };
        type SetPair = (Rc<Coll<BTreeSet<Value>>>, Rc<Coll<BTreeSet<Value>>>);
        let sets = |x: &Value, y: &Value| -> R<SetPair> {
            match (x, y) {
                (Value::Set(i), Value::Set(j)) => Ok((i.clone(), j.clone())),
                _ => Err(rt(
                    code::RUNTIME_TYPE,
                    format!(
                        "`{}` takes sets, not {} and {}",
                        op.text(),
                        x.type_desc(),
                        y.type_desc()
                    ),
                    span,
                    "here",
                    "",
                )),
            }
        };
        Ok(match op {
            Eq => Value::Bool(self.equal_metered(&x, &y, span)?),
            Ne => Value::Bool(!self.equal_metered(&x, &y, span)?),
            Lt => Value::Bool(x < y),
            Le => Value::Bool(x <= y),
            Gt => Value::Bool(x > y),
            Ge => Value::Bool(x >= y),
            In | NotIn => {
                let found = match &y {
                    Value::Set(s) => s.contains(&x),
                    Value::Seq(s) => s.contains(&x),
                    Value::Map(m) => m.contains_key(&x),
                    _ => {
                        return Err(rt(
                            code::RUNTIME_TYPE,
                            format!(
                                "the right side of `in` must be a collection, not {}",
                                y.type_desc()
                            ),
                            b.span(),
                            "not a collection",
                            "",
                        ))
                    }
                };
                Value::Bool(found == (op == In))
            }
            Subset => {
                let (s, t) = sets(&x, &y)?;
                Value::Bool(s.is_subset(&t))
            }
            Range => {
                let (i, j) = ints(&x, &y)?;
                self.range(i, j, span)?
            }
            Concat => self.concat(x, y, span)?,
            Add | Sub | Mul | Div | Mod => {
                let (i, j) = ints(&x, &y)?;
                let r = match op {
                    Add => i.checked_add(j),
                    Sub => i.checked_sub(j),
                    Mul => i.checked_mul(j),
                    Div | Mod if j == 0 => {
                        return Err(rt(
                            code::DIVISION_BY_ZERO,
                            "division by zero",
                            b.span(),
                            "this is 0",
                            "",
                        ));
                    }
                    Div => i.checked_div_euclid(j),
                    _ => i.checked_rem_euclid(j),
                };
                Value::Int(r.ok_or_else(|| overflow(span))?)
            }
            Union => {
                let (s, t) = sets(&x, &y)?;
                self.union(s, t, span)?
            }
            Inter => {
                let (s, t) = sets(&x, &y)?;
                Value::set(self.collect_metered(s.intersection(&t).cloned(), span)?)
            }
            Diff => match (&x, &y) {
                (Value::Set(s), Value::Set(t)) => {
                    Value::set(self.collect_metered(s.difference(t).cloned(), span)?)
                }
                _ => {
                    let _ = sets(&x, &y)?;
                    unreachable!()
                }
            },
            And | Or | Implies | Iff => unreachable!(),
        })
    }

    /// `i..j`, weighed against the memory bound before it is made.
    fn range(&mut self, i: i64, j: i64, span: Span) -> R<Value> {
        if j.saturating_sub(i) > 50_000_000 {
            return Err(EvalError::new(
                ErrKind::Budget,
                Diag::error(
                    code::TOO_LARGE_TO_BUILD,
                    format!("the range {i}..{j} is too large to build"),
                )
                .label(span, "too many elements")
                .help("ranges are finite sets held in memory; quantify over a smaller one"),
            ));
        }
        let n = (j as i128 - i as i128 + 1).max(0) as usize;
        self.before_making(n * (ELEMENT_BYTES + 16), span)?;
        Ok(Value::set(
            self.collect_metered((i..=j).map(Value::Int), span)?,
        ))
    }

    /// `x ++ y`: sequences or texts joined, what is allocated weighed first.
    fn concat(&mut self, x: Value, y: Value, span: Span) -> R<Value> {
        Ok(match (x, y) {
            (Value::Seq(s), Value::Seq(t)) => {
                self.charge(s.len() + t.len(), span)?;
                // what is allocated (a copy of the first when it is shared, a larger
                // buffer when it is full) is weighed against the memory bound first
                let n = s.len().saturating_add(t.len());
                let copied = if Rc::strong_count(&s) > 1 { s.len() } else { 0 };
                let regrown = if n > s.capacity() {
                    n.max(s.capacity().saturating_mul(2))
                } else {
                    0
                };
                self.before_making(
                    copied.saturating_add(regrown).saturating_mul(ELEMENT_BYTES),
                    span,
                )?;
                let mut v = Coll::take(s);
                v.extend(t.iter().cloned());
                Value::seq(v)
            }
            (Value::Str(s), Value::Str(t)) => {
                // the text is written once, into the shared value itself: its length is
                // weighed before it is made
                let n = s.len().saturating_add(t.len()).saturating_add(16);
                self.before_making(n, span)?;
                Value::Str(crate::text::joined(&s, &t))
            }
            (x, y) => {
                return Err(rt(
                    code::RUNTIME_TYPE,
                    format!(
                        "`++` joins sequences, not {} and {}",
                        x.type_desc(),
                        y.type_desc()
                    ),
                    span,
                    "here",
                    "",
                ))
            }
        })
    }

    /// `s ∪ t`: a set shared elsewhere is copied whole before the other's elements go in,
    /// weighed against the memory bound first.
    fn union(
        &mut self,
        s: Rc<Coll<BTreeSet<Value>>>,
        t: Rc<Coll<BTreeSet<Value>>>,
        span: Span,
    ) -> R<Value> {
        self.charge(s.len() + t.len(), span)?;
        // a set shared elsewhere is copied whole before the other's elements go in:
        // weighed against the memory bound first
        let copied = if Rc::strong_count(&s) > 1 { s.len() } else { 0 };
        self.before_making(
            copied
                .saturating_add(t.len())
                .saturating_mul(ELEMENT_BYTES + 16),
            span,
        )?;
        let mut u = Coll::take(s);
        u.extend(t.iter().cloned());
        Ok(Value::set(u))
    }

    pub(super) fn builtin(&mut self, b: Builtin, args: Vec<Value>, span: Span) -> R<Value> {
        use Builtin::*;
        let bad = |what: &str| -> EvalError {
            rt(
                code::RUNTIME_TYPE,
                format!("`{}` {what}", b.name()),
                span,
                "called here",
                b.doc(),
            )
        };
        let a0 = args.first().cloned().unwrap_or(Value::Bool(false));
        Ok(match b {
            Len | Size | Count => Value::Int(match &a0 {
                Value::Set(s) => s.len(),
                Value::Seq(s) => s.len(),
                Value::Map(m) => m.len(),
                Value::Str(s) => s.chars().count(),
                _ => return Err(bad("takes a collection")),
            } as i64),
            Keys => match &a0 {
                Value::Map(m) => Value::set(self.collect_metered(m.keys().cloned(), span)?),
                _ => return Err(bad("takes a map")),
            },
            Values => match &a0 {
                Value::Map(m) => Value::set(self.collect_metered(m.values().cloned(), span)?),
                _ => return Err(bad("takes a map")),
            },
            ToSet => Value::set(self.elements(&a0, span)?.into_iter().collect()),
            ToSeq => match &a0 {
                Value::Seq(_) => a0.clone(),
                _ => Value::seq(self.elements(&a0, span)?),
            },
            Sort => match &a0 {
                Value::Seq(s) => {
                    let v = self.collect_metered(s.iter().cloned(), span)?;
                    Value::seq(self.sort_metered(v, span)?)
                }
                _ => return Err(bad("takes a sequence")),
            },
            Rev => match &a0 {
                Value::Seq(s) => Value::seq(self.collect_metered(s.iter().rev().cloned(), span)?),
                _ => return Err(bad("takes a sequence")),
            },
            First | Last => match &a0 {
                Value::Seq(s) if !s.is_empty() => {
                    if b == First {
                        s[0].clone()
                    } else {
                        s[s.len() - 1].clone()
                    }
                }
                Value::Seq(_) => return Err(bad("of an empty sequence has no value")),
                _ => return Err(bad("takes a sequence")),
            },
            Take | Drop => match (&a0, args.get(1)) {
                (Value::Seq(s), Some(Value::Int(n))) => {
                    let n = (*n).clamp(0, s.len() as i64) as usize;
                    let part = if b == Take { &s[..n] } else { &s[n..] };
                    Value::seq(self.collect_metered(part.iter().cloned(), span)?)
                }
                _ => return Err(bad("takes a sequence and a count")),
            },
            Zip => match (&a0, args.get(1)) {
                (Value::Seq(s), Some(Value::Seq(t))) => Value::seq(
                    self.collect_metered(
                        s.iter()
                            .zip(t.iter())
                            .map(|(x, y)| Value::tuple(vec![x.clone(), y.clone()])),
                        span,
                    )?,
                ),
                _ => return Err(bad("takes two sequences")),
            },
            Abs => Value::Int(
                a0.as_int()
                    .ok_or_else(|| bad("takes an integer"))?
                    .checked_abs()
                    .ok_or_else(|| overflow(span))?,
            ),
            Sign => Value::Int(a0.as_int().ok_or_else(|| bad("takes an integer"))?.signum()),
            Powerset => {
                let Value::Set(s) = &a0 else {
                    return Err(bad("takes a set"));
                };
                self.powerset(s, span)?
            }
            Functions => {
                let (Value::Set(d), Some(Value::Set(c))) = (&a0, args.get(1)) else {
                    return Err(bad("takes two sets"));
                };
                self.functions(d, c, span)?
            }
            Product => {
                let (Value::Set(x), Some(Value::Set(y))) = (&a0, args.get(1)) else {
                    return Err(bad("takes two sets"));
                };
                self.product(x, y, span)?
            }
            Get => match &a0 {
                Value::Map(m) => m.get(&args[1]).cloned().unwrap_or_else(|| args[2].clone()),
                _ => return Err(bad("takes a map")),
            },
            UnionAll => self.union_all(&a0, span, || bad("takes a collection of sets"))?,
            Sum => {
                let mut t: i64 = 0;
                for v in self.elements(&a0, span)? {
                    let i = v.as_int().ok_or_else(|| bad("adds integers"))?;
                    t = t.checked_add(i).ok_or_else(|| overflow(span))?;
                }
                Value::Int(t)
            }
            Min | Max => {
                let els = self.elements(&a0, span)?;
                let r = if b == Min {
                    els.into_iter().min()
                } else {
                    els.into_iter().max()
                };
                r.ok_or_else(|| bad("of an empty collection has no value"))?
            }
            The => self.the(&a0, span)?,
            Str => {
                let text = self.text_metered(&a0, span)?;
                Value::str(&text)
            }
            Error => return Err(Self::raised(&a0, span)),
            IndexOf => match &a0 {
                Value::Seq(s) => Value::Int(
                    s.iter()
                        .position(|x| *x == args[1])
                        .map(|i| i as i64 + 1)
                        .unwrap_or(0),
                ),
                _ => return Err(bad("takes a sequence")),
            },
        })
    }

    /// `powerset(S)`: refused past 20 elements, and weighed against the memory bound.
    fn powerset(&mut self, s: &Coll<BTreeSet<Value>>, span: Span) -> R<Value> {
        if s.len() > 20 {
            return Err(EvalError::new(
                ErrKind::Budget,
                Diag::error(
                    code::TOO_LARGE_TO_BUILD,
                    format!("the powerset of a set of {} elements is too large", s.len()),
                )
                .label(span, "here")
                .help("powerset is limited to sets of at most 20 elements"),
            ));
        }
        let items: Vec<&Value> = s.iter().collect();
        // 2^n subsets of n/2 elements on average, refused before they are built when
        // they cannot fit, and the bound checked again as they are
        let n = items.len();
        self.before_making((1usize << n) * (2 * ELEMENT_BYTES + 32 + n * 8), span)?;
        let mut out = BTreeSet::new();
        for mask in 0u32..(1 << n) {
            self.tick(span)?;
            let subset = Value::set(
                items
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| mask & (1 << i) != 0)
                    .map(|(_, v)| (*v).clone())
                    .collect(),
            );
            self.grew(ELEMENT_BYTES + subset.approx_size(), span)?;
            out.insert(subset);
        }
        Ok(Value::set(out))
    }

    /// `functions(D, C)`: every map from D to C, refused past [`MAX_FUNCTIONS`] maps and
    /// weighed against the memory bound.
    fn functions(
        &mut self,
        d: &Coll<BTreeSet<Value>>,
        c: &Coll<BTreeSet<Value>>,
        span: Span,
    ) -> R<Value> {
        // |C|^|D|, counted exactly (it is written in the message)
        let total = u32::try_from(d.len())
            .ok()
            .and_then(|e| (c.len() as u128).checked_pow(e));
        if total.is_none_or(|t| t > MAX_FUNCTIONS) {
            let count = match total {
                Some(t) => t.to_string(),
                None => format!("more than {}", u128::MAX),
            };
            return Err(EvalError::new(
                ErrKind::Budget,
                Diag::error(
                    code::TOO_LARGE_TO_BUILD,
                    format!(
                        "there are {count} functions ({}^{}); too many to list",
                        c.len(),
                        d.len()
                    ),
                )
                .label(span, "here")
                .help("functions(A, B) is limited to 50 million maps"),
            ));
        }
        let dom: Vec<&Value> = d.iter().collect();
        let cod: Vec<&Value> = c.iter().collect();
        let mut out = BTreeSet::new();
        if cod.is_empty() {
            if dom.is_empty() {
                out.insert(Value::map(BTreeMap::new()));
            }
            return Ok(Value::set(out));
        }
        // every map holds the whole domain: refused before the maps are built when
        // they cannot fit, and the bound checked again as they are
        let total = total.unwrap_or(u128::MAX) as usize;
        self.before_making(
            total.saturating_mul(ELEMENT_BYTES + 32 + dom.len() * 32),
            span,
        )?;
        let mut idx = vec![0usize; dom.len()];
        loop {
            self.tick(span)?;
            let f = Value::map(
                dom.iter()
                    .zip(&idx)
                    .map(|(k, i)| ((*k).clone(), cod[*i].clone()))
                    .collect(),
            );
            self.grew(ELEMENT_BYTES + f.approx_size(), span)?;
            out.insert(f);
            let mut j = 0;
            while j < idx.len() {
                idx[j] += 1;
                if idx[j] < cod.len() {
                    break;
                }
                idx[j] = 0;
                j += 1;
            }
            if j == idx.len() {
                break;
            }
        }
        Ok(Value::set(out))
    }

    /// `product(X, Y)`: the pairs, weighed against the memory bound.
    fn product(
        &mut self,
        x: &Coll<BTreeSet<Value>>,
        y: &Coll<BTreeSet<Value>>,
        span: Span,
    ) -> R<Value> {
        self.before_making(
            x.len()
                .saturating_mul(y.len())
                .saturating_mul(ELEMENT_BYTES + 48),
            span,
        )?;
        let mut out = BTreeSet::new();
        for p in x.iter() {
            for q in y.iter() {
                self.tick(span)?;
                self.grew(ELEMENT_BYTES + 48, span)?;
                out.insert(Value::tuple(vec![p.clone(), q.clone()]));
            }
        }
        Ok(Value::set(out))
    }

    /// The diagnostic of `error(v)`: its message cut, whatever the value.
    fn raised(v: &Value, span: Span) -> EvalError {
        // the message is cut: a diagnostic is small whatever the value
        let msg = match v {
            Value::Str(s) if s.len() > MESSAGE_BYTES => {
                let mut end = MESSAGE_BYTES;
                while !s.is_char_boundary(end) {
                    end -= 1;
                }
                format!("{}…", &s[..end])
            }
            Value::Str(s) => s.to_string(),
            v => v.text_cut(MESSAGE_BYTES),
        };
        rt(
            code::ERROR_CALLED,
            msg,
            span,
            "raised here",
            "the rules called `error`",
        )
    }

    /// `the(S)`: the only element of a one-element collection.
    #[expect(
        clippy::expect_used,
        reason = "the collection was checked to hold exactly one"
    )]
    fn the(&mut self, a0: &Value, span: Span) -> R<Value> {
        let els = self.elements(a0, span)?;
        if els.len() != 1 {
            return Err(rt(
                code::EMPTY_OR_NOT_ONE,
                format!(
                    "`the` needs exactly one element, but the collection has {}",
                    els.len()
                ),
                span,
                "here",
                "`the(S)` names the only element of a one-element set",
            ));
        }
        Ok(els.into_iter().next().expect("one element"))
    }

    /// `union(S)`: the union of a collection of sets (`bad`: the error of an element that is
    /// not a set).
    fn union_all(&mut self, a0: &Value, span: Span, bad: impl Fn() -> EvalError) -> R<Value> {
        let mut out = BTreeSet::new();
        for s in self.elements(a0, span)? {
            match s {
                Value::Set(s) => {
                    self.charge(s.len(), span)?;
                    // at most every element is new: weighed before it goes in
                    self.before_making(s.len().saturating_mul(ELEMENT_BYTES + 16), span)?;
                    out.extend(s.iter().cloned())
                }
                _ => return Err(bad()),
            }
        }
        Ok(Value::set(out))
    }
}
