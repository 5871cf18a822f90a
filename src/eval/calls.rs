#![forbid(unsafe_code)]
//! Calls of definitions: resolution through the reading, the memo tables, cycle detection, native
//! bindings (asked of the binder once per reading and definition) and rule bodies.

use super::*;
use crate::diagnostics::code;

/// Bytes (estimated) a memo entry costs besides its arguments.
const MEMO_ENTRY_BYTES: usize = 96;

impl Evaluator<'_> {
    pub(super) fn call_text(&self, def: DefId, args: &[Value]) -> String {
        let d = &self.prog.defs[def.index()];
        let reading = if d.reading != BASE {
            format!("[{}] ", self.prog.readings[d.reading.index()].name)
        } else {
            String::new()
        };
        if d.is_const {
            format!("{reading}{}", d.name)
        } else {
            let a: Vec<String> = args
                .iter()
                .map(|v| crate::natives::show(self.prog, v, 60))
                .collect();
            format!("{reading}{}({})", d.name, a.join(", "))
        }
    }

    /// Call the definition a key denotes under the current reading.
    pub fn call_key(&mut self, key: DefKey, args: Vec<Value>, span: Span) -> R<Value> {
        let Some(def) = self.prog.resolve(self.reading, key) else {
            let name = &self.prog.keys[key.index()].name;
            let rn = &self.prog.readings[self.reading.index()].name;
            return Err(rt(
                code::NO_DEFINITION_UNDER_READING,
                format!("`{name}` has no definition under the reading `{rn}`"),
                span,
                "called here",
                "it is defined only inside another reading; choose that reading with --reading",
            ));
        };
        self.call_def(def, args, span)
    }

    pub fn call_def(&mut self, def: DefId, args: Vec<Value>, span: Span) -> R<Value> {
        let d = &self.prog.defs[def.index()];
        self.stats.calls += 1;
        if d.kind == DefKind::Native {
            return self.call_native(def, &args, span);
        }
        // a native function stands for the shipped definitions it reaches: where the loaded
        // program or the reading changes any of them, the rule body is the only meaning
        if d.native.is_some() && self.binding_on(def) {
            match self.engine {
                Engine::Native => return self.call_native(def, &args, span),
                Engine::Verify => {
                    let native = self.call_native(def, &args, span)?;
                    let rules = self.call_rule(def, args.clone(), span)?;
                    if native != rules {
                        let d = &self.prog.defs[def.index()];
                        return Err(EvalError::new(
                            ErrKind::Mismatch,
                            Diag::error(
                                code::NATIVE_DISAGREES,
                                format!(
                                    "the native function `{}` and the rule definition `{}` disagree on {}",
                                    d.native.as_deref().unwrap_or("?"),
                                    d.name,
                                    self.call_text(def, &args)
                                ),
                            )
                            .label(d.name_span, format!("the rules say {}", short(&rules, 200)))
                            .label(span, "called here")
                            .help(format!("the native function says {}", short(&native, 200))),
                        ));
                    }
                    return Ok(rules);
                }
                Engine::Rules => {}
            }
        }
        self.call_rule(def, args, span)
    }

    /// Whether the native function bound to `def` may answer under the current reading (see
    /// the binder); the reason of a binding found off is kept in `off_bindings`.
    pub fn binding_on(&mut self, def: DefId) -> bool {
        let key = (self.reading, def);
        if let Some(&on) = self.binding_gate.get(&key) {
            return on;
        }
        let verdict = self.binder.verdict(self.prog, self.reading, def);
        let on = verdict.is_ok();
        if let Err(off) = verdict {
            self.off_bindings.insert(off.what, off.why);
        }
        self.binding_gate.insert(key, on);
        on
    }

    pub(super) fn call_native(&mut self, def: DefId, args: &[Value], span: Span) -> R<Value> {
        let d = &self.prog.defs[def.index()];
        let path = d.native.as_deref().unwrap_or("");
        let Some(h) = self.binder.natives().get(path) else {
            return Err(rt(
                code::NATIVE_MISSING,
                format!("the native function `{path}` is not registered"),
                span,
                "called here",
                "this build of okite lacks it",
            ));
        };
        self.stats.native_calls += 1;
        let f = h.f.clone();
        let ctx = NativeCtx { enums: self.prog };
        let r = f(&ctx, args).map_err(|m| {
            rt(
                code::NATIVE_REFUSED,
                format!("{}: {m}", self.call_text(def, args)),
                span,
                "in this call",
                "the native function refused its arguments",
            )
        })?;
        if self.tracing() {
            let n = Node {
                text: format!("native {}", self.call_text(def, args)),
                span: Some(span),
                value: Some(r.clone()),
                children: vec![],
                elided: 0,
            };
            self.emit(Rc::new(n));
        }
        Ok(r)
    }

    pub(super) fn call_rule(&mut self, def: DefId, args: Vec<Value>, span: Span) -> R<Value> {
        let d = &self.prog.defs[def.index()];
        let Some(body) = d.body.as_ref() else {
            return Err(rt(
                code::NATIVE_MISSING,
                "this definition has no body",
                span,
                "called here",
                "",
            ));
        };
        // a small definition outside any recursion (an accessor, arithmetic on its arguments) is
        // evaluated directly: remembering it would cost more than computing it, and it cannot
        // take part in a cycle
        if self.prog.light[def.index()] && !self.tracing() {
            let mut frame = args;
            frame.resize(
                d.nlocals.max(frame.len() as u32) as usize,
                Value::Bool(false),
            );
            return self.eval(body, &mut frame);
        }
        let reading = if self.prog.shares_base(self.reading, def) {
            BASE
        } else {
            self.reading
        };
        let key = MemoKey::new(reading, def, Rc::from(&args[..]));
        let tabled = self.memoize && self.tabled(def);
        if tabled {
            if let Some(v) = self.memo.get(&key) {
                self.stats.memo_hits += 1;
                if let Some(u) = self.table_use.get_mut(&def) {
                    u.hits = u.hits.saturating_add(1);
                }
                let v = v.clone();
                if self.tracing() {
                    if let Some(n) = self.explain_memo.get(&key).cloned() {
                        self.emit(n);
                    }
                }
                return Ok(v);
            }
        }
        if let Some(&at) = self.active.get(&key) {
            return Err(self.cycle_error(at, def, &args, span));
        }
        if self.stack.len() >= self.budget.max_depth {
            return Err(EvalError::new(
                ErrKind::Budget,
                Diag::error(
                    code::DEPTH_BUDGET,
                    format!("calls nest more than {} deep", self.budget.max_depth),
                )
                .label(span, format!("calling {} here", self.call_text(def, &args)))
                .help("the recursion may not end; raise the limit with --max-depth if it does"),
            ));
        }
        // deep recursion takes memory faster than the steps between two reads of the resident
        // memory tell: the bound is read again every DEEP_READ_LEVELS new levels (once, not at
        // every call made at that depth)
        if self.stack.len() >= self.deep_read {
            self.deep_read = self.stack.len() + super::DEEP_READ_LEVELS;
            self.check_resident(0, span)?;
        }
        let mut frame = args;
        frame.resize(
            d.nlocals.max(key.args.len() as u32) as usize,
            Value::Bool(false),
        );
        self.active.insert(key.clone(), self.stack.len());
        self.stack.push(CallInfo {
            def,
            args: key.args.clone(),
            span,
        });
        self.push_trace();
        let steps0 = self.steps;
        let r = stacker::maybe_grow(256 << 10, 4 << 20, || self.eval(body, &mut frame));
        if let Some(u) = self.table_use.get_mut(&def) {
            u.cost += self.steps.wrapping_sub(steps0);
        }
        let children = self.pop_trace();
        self.stack.pop();
        self.deep_read = self
            .deep_read
            .min(self.stack.len() + super::DEEP_READ_LEVELS);
        self.active.remove(&key);
        let v = r?;
        if self.tracing() {
            let n = Rc::new(Node {
                text: self.call_text(def, &key.args),
                span: Some(d.name_span),
                value: Some(v.clone()),
                children,
                elided: 0,
            });
            self.emit(n.clone());
            if tabled {
                self.explain_memo.insert(key.clone(), n);
            }
        }
        if tabled {
            // the tables are a cache of pure results: when they pass their budget they are
            // emptied (calls under way are tracked apart, so cycle detection is unaffected)
            self.memo_bytes += MEMO_ENTRY_BYTES + 24 * key.args.len();
            if self.memo_bytes > self.budget.max_memo_bytes {
                self.memo.clear();
                self.explain_memo.clear();
                self.memo_bytes = 0;
                self.stats.evictions += 1;
            }
            self.memo.insert(key, v.clone());
        }
        Ok(v)
    }

    /// Whether a call of `def` is looked up in and added to the memo tables. Recursive
    /// definitions always are (tabling is what keeps a recursion that revisits its arguments
    /// cheap), and so is everything while an explanation is recorded. A definition outside any
    /// recursion cannot take part in a cycle, so its table is only a cache: when, after
    /// `TABLE_TRIAL` calls, the steps it saved (hits times the mean cost of a computed call) are
    /// fewer than `TABLE_COST_STEPS` a call, it is computed afresh each time, which costs less
    /// than hashing, storing and rehashing keys never asked again (the rules' `attacks(s, p, x)`
    /// during a perft, for instance).
    fn tabled(&mut self, def: DefId) -> bool {
        const TABLE_TRIAL: u32 = 4096;
        const TABLE_COST_STEPS: u64 = 16;
        if self.tracing()
            || self
                .prog
                .recursive
                .get(def.index())
                .copied()
                .unwrap_or(true)
        {
            return true;
        }
        if self.prog.shadowed.get(def.index()) == Some(&true) {
            return false;
        }
        if def.index() >= self.prog.defs.len() {
            return true;
        }
        let u = self.table_use.entry(def).or_default();
        if u.given_up {
            return false;
        }
        u.calls = u.calls.saturating_add(1);
        let computed = u.calls.saturating_sub(u.hits).max(1) as u64;
        if u.calls >= TABLE_TRIAL
            && u.hits as u64 * u.cost < computed * u.calls as u64 * TABLE_COST_STEPS
        {
            u.given_up = true;
            self.drop_table(def);
            return false;
        }
        true
    }

    /// Empty the table of one definition whose tabling is given up: what it holds (sets of
    /// positions, say) would otherwise stay in memory to the end of the session for nothing.
    fn drop_table(&mut self, def: DefId) {
        let before = self.memo.len();
        self.memo.retain(|k, _| k.def != def);
        self.explain_memo.retain(|k, _| k.def != def);
        let freed = (before - self.memo.len()) * MEMO_ENTRY_BYTES;
        self.memo_bytes = self.memo_bytes.saturating_sub(freed);
    }

    pub(super) fn cycle_error(
        &self,
        at: usize,
        def: DefId,
        args: &[Value],
        span: Span,
    ) -> EvalError {
        let chain: Vec<String> = self.stack[at..]
            .iter()
            .map(|c| self.call_text(c.def, &c.args))
            .chain(std::iter::once(self.call_text(def, args)))
            .collect();
        let mut d = Diag::error(
            code::CYCLE,
            format!("cycle: {} calls itself with the same arguments", self.call_text(def, args)),
        )
        .label(span, "re-enters here")
        .help(format!(
            "the chain of calls: {}. A definition may recurse only on arguments that change, so that the recursion ends",
            chain.join(" → ")
        ));
        for c in &self.stack[at..] {
            d = d.related(
                Diag::info(
                    code::CYCLE,
                    format!("{} calls", self.call_text(c.def, &c.args)),
                )
                .label(c.span, "called here"),
            );
        }
        EvalError::new(ErrKind::Cycle, d)
    }
}
