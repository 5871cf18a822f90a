#![forbid(unsafe_code)]
//! The evaluator: goal-directed and tabled. Each call of a definition with given argument values
//! is computed once per reading and stored; a call that re-enters itself with the same arguments
//! is a cycle, reported with the chain of calls. Deep evaluations grow the stack on the heap
//! (`stacker`) up to a depth budget, so no input overflows the stack; steps, memory and time are
//! budgeted too, and an interrupt flag stops a query cleanly.

pub mod binder;
pub mod explain;
pub mod run;

use crate::check::{DefKind, Program, BASE};
use crate::diagnostics::Diag;
use crate::ir::*;
use crate::ir::{short, EnumVal, Func, Value};
use crate::natives::{Engine, NativeCtx};
use crate::syntax::ast::{Agg, BinOp, Quant, Span};
pub use binder::{Binder, Off};
use explain::Node;
use rustc_hash::FxHashMap as HashMap;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Limits that end a runaway query with a diagnostic.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Evaluation steps (expression nodes visited).
    pub max_steps: u64,
    /// Nested calls of definitions.
    pub max_depth: usize,
    /// Bytes the memo tables may hold (estimated) before they are emptied.
    pub max_memo_bytes: usize,
    /// Bytes the whole process may occupy in memory (resident) before the query is ended: the
    /// memo estimate does not see everything a query builds.
    pub max_resident_bytes: usize,
    pub timeout: Option<Duration>,
}

/// The default bound on the process's resident memory, in MiB: a third of a 24 GiB machine.
pub const DEFAULT_MAX_RESIDENT_MB: usize = 8192;

/// The resident memory of this process in bytes, where the system tells it (Linux).
pub fn resident_bytes() -> Option<usize> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: usize = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_steps: 2_000_000_000,
            max_depth: 100_000,
            max_memo_bytes: 2 << 30,
            max_resident_bytes: DEFAULT_MAX_RESIDENT_MB << 20,
            timeout: Some(Duration::from_secs(600)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrKind {
    Runtime,
    Budget,
    Cycle,
    Interrupted,
    Mismatch,
}

#[derive(Debug)]
pub struct EvalError {
    pub kind: ErrKind,
    pub diag: Box<Diag>,
}

impl EvalError {
    fn new(kind: ErrKind, diag: Diag) -> EvalError {
        EvalError {
            kind,
            diag: Box::new(diag),
        }
    }
}

pub type R<T> = Result<T, EvalError>;

fn rt(
    code: &'static str,
    msg: impl Into<String>,
    span: Span,
    label: &str,
    help: &str,
) -> EvalError {
    EvalError::new(
        ErrKind::Runtime,
        Diag::error(code, msg)
            .label(span, label.to_string())
            .help(help.to_string()),
    )
}

/// A memo entry carried from one program to another.
pub struct CarriedEntry {
    reading: String,
    fingerprint: u64,
    args: Box<[Value]>,
    value: Value,
}

fn has_func(v: &Value) -> bool {
    match v {
        Value::Func(_) => true,
        Value::Tuple(t) => t.iter().any(has_func),
        Value::Set(s) => s.iter().any(has_func),
        Value::Seq(s) => s.iter().any(has_func),
        Value::Map(m) => m.iter().any(|(k, v)| has_func(k) || has_func(v)),
        Value::Enum(e) => e.fields.iter().any(has_func),
        _ => false,
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct MemoKey {
    reading: ReadingId,
    def: DefId,
    args: Box<[Value]>,
}

struct CallInfo {
    def: DefId,
    args: Box<[Value]>,
    span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub calls: u64,
    pub memo_hits: u64,
    pub native_calls: u64,
    pub steps: u64,
    pub memo_entries: usize,
    /// How many times the memo tables were emptied to stay within their budget.
    pub evictions: u64,
}

pub struct Evaluator<'p> {
    pub prog: &'p Program,
    /// The native functions and when their bindings may answer.
    binder: &'p dyn Binder,
    pub engine: Engine,
    pub budget: Budget,
    /// Turn tabling off (for testing that it changes nothing but speed).
    pub memoize: bool,
    pub interrupt: Option<Arc<AtomicBool>>,
    reading: ReadingId,
    memo: HashMap<MemoKey, Value>,
    explain_memo: HashMap<MemoKey, Rc<Node>>,
    memo_bytes: usize,
    active: HashMap<MemoKey, usize>,
    stack: Vec<CallInfo>,
    steps: u64,
    start: Instant,
    trace: Option<Vec<Vec<Rc<Node>>>>,
    pub stats: Stats,
    binding_gate: HashMap<(ReadingId, DefId), bool>,
    /// Native bindings found off while evaluating: what each stands for, and why it is off.
    pub off_bindings: std::collections::BTreeMap<String, String>,
}

/// Children kept under one node of an explanation; the rest are counted.
pub const MAX_CHILDREN: usize = 40;

impl<'p> Evaluator<'p> {
    pub fn new(prog: &'p Program, binder: &'p dyn Binder) -> Evaluator<'p> {
        Evaluator {
            prog,
            binder,
            engine: Engine::Native,
            budget: Budget::default(),
            memoize: true,
            interrupt: None,
            reading: BASE,
            memo: HashMap::default(),
            explain_memo: HashMap::default(),
            memo_bytes: 0,
            active: HashMap::default(),
            stack: vec![],
            steps: 0,
            start: Instant::now(),
            trace: None,
            stats: Stats::default(),
            binding_gate: HashMap::default(),
            off_bindings: Default::default(),
        }
    }

    pub fn reading(&self) -> ReadingId {
        self.reading
    }

    /// Run later queries under another reading; the memo tables of every reading are kept.
    pub fn set_reading(&mut self, r: ReadingId) {
        self.reading = r;
    }

    /// Forget every memo entry (for example after rule files changed).
    pub fn clear_memo(&mut self) {
        self.memo.clear();
        self.explain_memo.clear();
        self.memo_bytes = 0;
    }

    /// Start the clocks of the budget for a new query.
    pub fn start_query(&mut self) {
        self.steps = 0;
        self.start = Instant::now();
        self.stack.clear();
        self.active.clear();
    }

    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// The memo entries, named so that another program can take over those of the definitions
    /// it states the same way (see [`Evaluator::import_memo`]).
    pub fn export_memo(&self) -> Vec<CarriedEntry> {
        self.memo
            .iter()
            .filter(|(k, v)| !k.args.iter().any(has_func) && !has_func(v))
            .map(|(k, v)| CarriedEntry {
                reading: self.prog.readings[k.reading as usize].name.clone(),
                fingerprint: self.prog.fingerprint[k.def as usize],
                args: k.args.clone(),
                value: v.clone(),
            })
            .collect()
    }

    /// Take over the entries of definitions whose fingerprint is unchanged; the number kept.
    pub fn import_memo(&mut self, entries: Vec<CarriedEntry>) -> usize {
        let mut index: HashMap<(String, u64), DefId> = HashMap::default();
        for (i, d) in self.prog.defs.iter().enumerate() {
            let r = self.prog.readings[d.reading as usize].name.clone();
            index
                .entry((r, self.prog.fingerprint[i]))
                .or_insert(i as DefId);
        }
        let mut kept = 0;
        for e in entries {
            let Some(r) = self.prog.reading_id(&e.reading) else {
                continue;
            };
            let Some(&def) = index.get(&(e.reading.clone(), e.fingerprint)) else {
                continue;
            };
            self.memo.insert(
                MemoKey {
                    reading: r,
                    def,
                    args: e.args,
                },
                e.value,
            );
            kept += 1;
        }
        kept
    }

    /// Evaluate a compiled query.
    pub fn eval_query(&mut self, q: &crate::check::Query) -> R<Value> {
        self.start_query();
        let mut frame = vec![Value::Bool(false); q.nlocals as usize];
        for (i, v) in q.bound.iter().enumerate() {
            frame[i] = v.clone();
        }
        let r = self.eval(&q.ir, &mut frame);
        self.stats.steps += self.steps;
        self.stats.memo_entries = self.memo.len();
        r
    }

    /// Evaluate a query and explain it: the value and the proof tree.
    pub fn explain_query(&mut self, q: &crate::check::Query) -> (R<Value>, Rc<Node>) {
        self.trace = Some(vec![vec![]]);
        // explanations need every call's tree: use memo entries made while explaining only
        let saved = std::mem::take(&mut self.memo);
        let r = self.eval_query(q);
        let memo_explained = std::mem::replace(&mut self.memo, saved);
        for (k, v) in memo_explained {
            self.memo.entry(k).or_insert(v);
        }
        let mut t = self.trace.take().unwrap_or_default();
        let children = t.pop().unwrap_or_default();
        let node = Node {
            text: "query".into(),
            span: Some(q.ir.span()),
            value: r.as_ref().ok().cloned(),
            children,
            elided: 0,
        };
        (r, Rc::new(node))
    }

    fn tick(&mut self, span: Span) -> R<()> {
        self.steps += 1;
        if self.steps > self.budget.max_steps {
            return Err(EvalError::new(
                ErrKind::Budget,
                Diag::error(
                    "E0301",
                    format!(
                        "the query ran out of its step budget ({} steps)",
                        self.budget.max_steps
                    ),
                )
                .label(span, "evaluating this when the budget ran out")
                .help("raise it with --max-steps, or ask a smaller question"),
            ));
        }
        if self.steps & 0x3FF == 0 {
            if let Some(t) = self.budget.timeout {
                if self.start.elapsed() > t {
                    return Err(EvalError::new(
                        ErrKind::Budget,
                        Diag::error(
                            "E0302",
                            format!("the query ran out of time ({} ms)", t.as_millis()),
                        )
                        .label(span, "evaluating this when time ran out")
                        .help("raise it with --timeout-ms, or ask a smaller question"),
                    ));
                }
            }
            if self.steps & 0xF_FFFF == 0 {
                if let Some(rss) = resident_bytes() {
                    if rss > self.budget.max_resident_bytes {
                        return Err(EvalError::new(
                            ErrKind::Budget,
                            Diag::error(
                                "E0306",
                                format!(
                                    "the query used more memory than allowed ({} MiB resident)",
                                    self.budget.max_resident_bytes >> 20
                                ),
                            )
                            .label(span, "evaluating this when memory ran out")
                            .help("raise it with --max-resident-mb, or ask a smaller question"),
                        ));
                    }
                }
            }
            if let Some(flag) = &self.interrupt {
                if flag.swap(false, Ordering::SeqCst) {
                    return Err(EvalError::new(
                        ErrKind::Interrupted,
                        Diag::error("E0305", "interrupted")
                            .label(span, "evaluating this when interrupted"),
                    ));
                }
            }
        }
        Ok(())
    }

    // ------------------------------------------------------------------ explanations

    fn tracing(&self) -> bool {
        self.trace.is_some()
    }

    fn push_trace(&mut self) {
        if let Some(t) = &mut self.trace {
            t.push(vec![]);
        }
    }

    fn pop_trace(&mut self) -> Vec<Rc<Node>> {
        self.trace
            .as_mut()
            .and_then(|t| t.pop())
            .unwrap_or_default()
    }

    fn emit(&mut self, n: Rc<Node>) {
        if let Some(t) = &mut self.trace {
            if let Some(top) = t.last_mut() {
                top.push(n);
            }
        }
    }

    // ------------------------------------------------------------------ calls

    fn call_text(&self, def: DefId, args: &[Value]) -> String {
        let d = &self.prog.defs[def as usize];
        let reading = if d.reading != BASE {
            format!("[{}] ", self.prog.readings[d.reading as usize].name)
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
            let name = &self.prog.keys[key as usize].name;
            let rn = &self.prog.readings[self.reading as usize].name;
            return Err(rt(
                "E0311",
                format!("`{name}` has no definition under the reading `{rn}`"),
                span,
                "called here",
                "it is defined only inside another reading; choose that reading with --reading",
            ));
        };
        self.call_def(def, args, span)
    }

    pub fn call_def(&mut self, def: DefId, args: Vec<Value>, span: Span) -> R<Value> {
        let d = &self.prog.defs[def as usize];
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
                        let d = &self.prog.defs[def as usize];
                        return Err(EvalError::new(
                            ErrKind::Mismatch,
                            Diag::error(
                                "E0330",
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

    fn call_native(&mut self, def: DefId, args: &[Value], span: Span) -> R<Value> {
        let d = &self.prog.defs[def as usize];
        let path = d.native.as_deref().unwrap_or("");
        let Some(h) = self.binder.natives().get(path) else {
            return Err(rt(
                "E0312",
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
                "E0313",
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

    fn call_rule(&mut self, def: DefId, args: Vec<Value>, span: Span) -> R<Value> {
        let d = &self.prog.defs[def as usize];
        // a small definition outside any recursion (an accessor, arithmetic on its arguments) is
        // evaluated directly: remembering it would cost more than computing it, and it cannot
        // take part in a cycle
        if self.prog.light[def as usize] && !self.tracing() {
            let Some(body) = d.body.as_ref() else {
                return Err(rt(
                    "E0312",
                    "this definition has no body",
                    span,
                    "called here",
                    "",
                ));
            };
            let mut frame = args;
            frame.resize(
                d.nlocals.max(frame.len() as u32) as usize,
                Value::Bool(false),
            );
            return self.eval(body, &mut frame);
        }
        let reading = if self.prog.shares_base[self.reading as usize][def as usize] {
            BASE
        } else {
            self.reading
        };
        let key = MemoKey {
            reading,
            def,
            args: args.clone().into_boxed_slice(),
        };
        if self.memoize {
            if let Some(v) = self.memo.get(&key) {
                self.stats.memo_hits += 1;
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
                    "E0304",
                    format!("calls nest more than {} deep", self.budget.max_depth),
                )
                .label(span, format!("calling {} here", self.call_text(def, &args)))
                .help("the recursion may not end; raise the limit with --max-depth if it does"),
            ));
        }
        let Some(body) = d.body.as_ref() else {
            return Err(rt(
                "E0312",
                "this definition has no body",
                span,
                "called here",
                "",
            ));
        };
        let mut frame = args.clone();
        frame.resize(
            d.nlocals.max(args.len() as u32) as usize,
            Value::Bool(false),
        );
        self.active.insert(key.clone(), self.stack.len());
        self.stack.push(CallInfo {
            def,
            args: key.args.clone(),
            span,
        });
        self.push_trace();
        let r = stacker::maybe_grow(256 << 10, 4 << 20, || self.eval(body, &mut frame));
        let children = self.pop_trace();
        self.stack.pop();
        self.active.remove(&key);
        let v = r?;
        if self.tracing() {
            let n = Rc::new(Node {
                text: self.call_text(def, &args),
                span: Some(d.name_span),
                value: Some(v.clone()),
                children,
                elided: 0,
            });
            self.emit(n.clone());
            if self.memoize {
                self.explain_memo.insert(key.clone(), n);
            }
        }
        if self.memoize {
            // the tables are a cache of pure results: when they pass their budget they are
            // emptied (calls under way are tracked apart, so cycle detection is unaffected)
            self.memo_bytes += 96 + 24 * key.args.len();
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

    fn cycle_error(&self, at: usize, def: DefId, args: &[Value], span: Span) -> EvalError {
        let chain: Vec<String> = self.stack[at..]
            .iter()
            .map(|c| self.call_text(c.def, &c.args))
            .chain(std::iter::once(self.call_text(def, args)))
            .collect();
        let mut d = Diag::error(
            "E0320",
            format!("cycle: {} calls itself with the same arguments", self.call_text(def, args)),
        )
        .label(span, "re-enters here")
        .help(format!(
            "the chain of calls: {}. A definition may recurse only on arguments that change, so that the recursion ends",
            chain.join(" → ")
        ));
        for c in &self.stack[at..] {
            d = d.related(
                Diag::info("E0320", format!("{} calls", self.call_text(c.def, &c.args)))
                    .label(c.span, "called here"),
            );
        }
        EvalError::new(ErrKind::Cycle, d)
    }

    // ------------------------------------------------------------------ expressions

    pub fn eval(&mut self, e: &Ir, frame: &mut Vec<Value>) -> R<Value> {
        stacker::maybe_grow(128 << 10, 4 << 20, || self.eval_inner(e, frame))
    }

    pub(crate) fn eval_bool(&mut self, e: &Ir, frame: &mut Vec<Value>) -> R<bool> {
        match self.eval(e, frame)? {
            Value::Bool(b) => Ok(b),
            v => Err(rt(
                "E0310",
                format!("expected a truth value, found {}", v.type_desc()),
                e.span(),
                &format!("this is {}", short(&v, 40)),
                "conditions, quantifier bodies and assertions are true or false",
            )),
        }
    }

    fn eval_int(&mut self, e: &Ir, frame: &mut Vec<Value>) -> R<i64> {
        match self.eval(e, frame)? {
            Value::Int(i) => Ok(i),
            v => Err(rt(
                "E0310",
                format!("expected an integer, found {}", v.type_desc()),
                e.span(),
                &format!("this is {}", short(&v, 40)),
                "arithmetic, ranges and indices take integers",
            )),
        }
    }

    fn eval_inner(&mut self, e: &Ir, frame: &mut Vec<Value>) -> R<Value> {
        self.tick(e.span())?;
        match e {
            Ir::Const(v, _) => Ok(v.clone()),
            Ir::Poison(span) => Err(rt(
                "E0100",
                "this expression did not check",
                *span,
                "here",
                "fix the diagnostics of `okite check`",
            )),
            Ir::Local(s, _) => Ok(frame[*s as usize].clone()),
            Ir::Global(k, span) => {
                let key = &self.prog.keys[*k as usize];
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
                        "E0311",
                        format!(
                            "`base.{}` has no definition in a parent reading",
                            self.prog.keys[*k as usize].name
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
                let s: BTreeSet<Value> = self.prog.enums[*en as usize]
                    .variants
                    .iter()
                    .filter_map(|v| v.value.clone())
                    .collect();
                Ok(Value::set(s))
            }
            Ir::Tuple(items, _) => Ok(Value::tuple(self.eval_args(items, frame)?)),
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
            Ir::Comp(kind, h, h2, qs, _) => {
                let mut set = BTreeSet::new();
                let mut seq = vec![];
                let mut map = BTreeMap::new();
                let kind = *kind;
                self.quals(qs, 0, frame, &mut |ev, fr| {
                    let v = ev.eval(h, fr)?;
                    match kind {
                        CompKind::Set => {
                            set.insert(v);
                        }
                        CompKind::Seq => seq.push(v),
                        CompKind::Map => {
                            let w = ev.eval(h2.as_ref().unwrap(), fr)?;
                            map.insert(v, w);
                        }
                    }
                    Ok(true)
                })?;
                Ok(match kind {
                    CompKind::Set => Value::set(set),
                    CompKind::Seq => Value::seq(seq),
                    CompKind::Map => Value::map(map),
                })
            }
            Ir::Index(a, i, span) => {
                let av = self.eval(a, frame)?;
                let iv = self.eval(i, frame)?;
                self.apply(av, vec![iv], *span)
            }
            Ir::Slice(a, i, j, span) => {
                let av = self.eval(a, frame)?;
                let i = self.eval_int(i, frame)?;
                let j = self.eval_int(j, frame)?;
                let Value::Seq(s) = av else {
                    return Err(rt(
                        "E0310",
                        format!("only sequences can be sliced, not {}", av.type_desc()),
                        *span,
                        "here",
                        "",
                    ));
                };
                let n = s.len() as i64;
                if i < 1 || j > n || j < i - 1 {
                    return Err(rt(
                        "E0314",
                        format!("the slice [{i}..{j}] is outside a sequence of length {n}"),
                        *span,
                        "out of range",
                        "slices are 1-based and inclusive: s[1..len(s)] is the whole of s",
                    ));
                }
                Ok(Value::seq(s[(i - 1) as usize..j as usize].to_vec()))
            }
            Ir::Proj(a, k, span) => {
                let v = self.eval(a, frame)?;
                let items: &[Value] = match &v {
                    Value::Tuple(t) => t,
                    Value::Enum(e) => &e.fields,
                    _ => {
                        return Err(rt(
                            "E0310",
                            format!(
                                "`.{k}` takes a component of a tuple, not of {}",
                                v.type_desc()
                            ),
                            *span,
                            "not a tuple",
                            "",
                        ))
                    }
                };
                items.get(*k as usize - 1).cloned().ok_or_else(|| {
                    rt(
                        "E0314",
                        format!("there is no component {k} in {}", short(&v, 60)),
                        *span,
                        "no such component",
                        "components are numbered from 1",
                    )
                })
            }
            Ir::With(a, es, span) => {
                let base = self.eval(a, frame)?;
                let mut updates = vec![];
                for (k, v) in es.iter() {
                    updates.push((self.eval(k, frame)?, self.eval(v, frame)?));
                }
                self.update(base, updates, *span)
            }
            Ir::WithComp(a, k, v, qs, span) => {
                let base = self.eval(a, frame)?;
                let mut updates = vec![];
                self.quals(qs, 0, frame, &mut |ev, fr| {
                    let kv = ev.eval(k, fr)?;
                    let vv = ev.eval(v, fr)?;
                    updates.push((kv, vv));
                    Ok(true)
                })?;
                self.update(base, updates, *span)
            }
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
                            "E0315",
                            format!("the value {} does not match the pattern", short(&val, 60)),
                            v.span(),
                            "this value",
                            "a `let` pattern must match its value",
                        ));
                    }
                }
                self.eval(body, frame)
            }
            Ir::Match(s, arms, span) => {
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
                    "E0315",
                    format!("no arm of `match` matches {}", short(&v, 60)),
                    *span,
                    "no arm matches",
                    "add an arm for this value, or `_ => ...`",
                ))
            }
            Ir::Quant(q, bs, body, span) => self.quant(*q, bs, body, *span, frame),
            Ir::Agg(a, bs, body, span) => self.agg(*a, bs, body, *span, frame),
            Ir::Closure(s, f, span) => {
                let start = self.eval(s, frame)?;
                let fv = self.eval(f, frame)?;
                let Value::Set(start) = start else {
                    return Err(rt(
                        "E0310",
                        "a closure starts from a set",
                        s.span(),
                        "not a set",
                        "",
                    ));
                };
                let mut seen: BTreeSet<Value> = (*start).clone();
                let mut todo: Vec<Value> = start.iter().cloned().collect();
                while let Some(x) = todo.pop() {
                    self.tick(*span)?;
                    let next = self.apply(fv.clone(), vec![x], f.span())?;
                    let Value::Set(next) = next else {
                        return Err(rt(
                            "E0310",
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
                            todo.push(y.clone());
                        }
                    }
                }
                Ok(Value::set(seen))
            }
            Ir::Lambda(l) => Ok(Value::Func(Rc::new(Func::Lambda {
                lambda: l.clone(),
                frame: Rc::new(frame.clone()),
            }))),
        }
    }

    fn eval_args(&mut self, args: &[Ir], frame: &mut Vec<Value>) -> R<Vec<Value>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            out.push(self.eval(a, frame)?);
        }
        Ok(out)
    }

    fn make_enum(&self, en: EnumId, tag: u32, fields: Vec<Value>) -> Value {
        let v = &self.prog.enums[en as usize].variants[tag as usize];
        if fields.is_empty() {
            if let Some(c) = &v.value {
                return c.clone();
            }
        }
        Value::Enum(Rc::new(EnumVal {
            ty: en,
            tag,
            name: Rc::from(v.name.as_str()),
            fields,
        }))
    }

    fn update(&mut self, base: Value, updates: Vec<(Value, Value)>, span: Span) -> R<Value> {
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
                                "E0314",
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
                "E0310",
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
                            "E0102",
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
                                "E0315",
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
                            "E0102",
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
                        "E0314",
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
                        "E0314",
                        format!("index {i} is outside a sequence of length {}", s.len()),
                        span,
                        "out of range",
                        "sequences are indexed from 1 to their length",
                    ));
                }
                Ok(s[i as usize - 1].clone())
            }
            v => Err(rt(
                "E0310",
                format!("{} cannot be applied to arguments", v.type_desc()),
                span,
                "applied here",
                "only functions, maps and sequences can be applied",
            )),
        }
    }

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

    fn elements(&self, v: &Value, span: Span) -> R<Vec<Value>> {
        Ok(match v {
            Value::Set(s) => s.iter().cloned().collect(),
            Value::Seq(s) => (**s).clone(),
            Value::Map(m) => m.keys().cloned().collect(),
            _ => {
                return Err(rt(
                    "E0310",
                    format!("expected a set, sequence or map, found {}", v.type_desc()),
                    span,
                    &format!("this is {}", short(v, 40)),
                    "quantifiers and generators range over finite collections",
                ))
            }
        })
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

    fn bind_rec(
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
        let dom = self.eval(&b.domain, frame)?;
        for x in self.elements(&dom, b.domain.span())? {
            if !self.matches(p, &x, frame) {
                continue;
            }
            if !self.bind_rec(slots, i + 1, frame, f)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn quals(
        &mut self,
        qs: &[IrQual],
        i: usize,
        frame: &mut Vec<Value>,
        f: &mut dyn FnMut(&mut Self, &mut Vec<Value>) -> R<bool>,
    ) -> R<bool> {
        if i == qs.len() {
            return f(self, frame);
        }
        match &qs[i] {
            IrQual::Gen(p, d, _) => {
                let dom = self.eval(d, frame)?;
                for x in self.elements(&dom, d.span())? {
                    if !self.matches(p, &x, frame) {
                        continue;
                    }
                    if !self.quals(qs, i + 1, frame, f)? {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            IrQual::Let(p, e) => {
                let v = self.eval(e, frame)?;
                if self.matches(p, &v, frame) {
                    self.quals(qs, i + 1, frame, f)
                } else {
                    Ok(true)
                }
            }
            IrQual::Guard(g) => {
                if self.eval_bool(g, frame)? {
                    self.quals(qs, i + 1, frame, f)
                } else {
                    Ok(true)
                }
            }
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

    fn quant(
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

    fn agg(
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
                    "E0316",
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

    fn binop(&mut self, op: BinOp, a: &Ir, b: &Ir, span: Span, frame: &mut Vec<Value>) -> R<Value> {
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
                    "E0310",
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
                    "E0310",
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
            Eq => Value::Bool(x == y),
            Ne => Value::Bool(x != y),
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
                            "E0310",
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
                if j.saturating_sub(i) > 50_000_000 {
                    return Err(EvalError::new(
                        ErrKind::Budget,
                        Diag::error("E0303", format!("the range {i}..{j} is too large to build"))
                            .label(span, "too many elements")
                            .help("ranges are finite sets held in memory; quantify over a smaller one"),
                    ));
                }
                Value::set((i..=j).map(Value::Int).collect())
            }
            Concat => match (x, y) {
                (Value::Seq(s), Value::Seq(t)) => {
                    let mut v = Coll::take(s);
                    v.extend(t.iter().cloned());
                    Value::seq(v)
                }
                (Value::Str(s), Value::Str(t)) => Value::str(&format!("{s}{t}")),
                (x, y) => {
                    return Err(rt(
                        "E0310",
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
            },
            Add | Sub | Mul | Div | Mod => {
                let (i, j) = ints(&x, &y)?;
                let r = match op {
                    Add => i.checked_add(j),
                    Sub => i.checked_sub(j),
                    Mul => i.checked_mul(j),
                    Div | Mod if j == 0 => {
                        return Err(rt("E0317", "division by zero", b.span(), "this is 0", ""));
                    }
                    Div => i.checked_div_euclid(j),
                    _ => i.checked_rem_euclid(j),
                };
                Value::Int(r.ok_or_else(|| overflow(span))?)
            }
            Union => {
                let (s, t) = sets(&x, &y)?;
                let mut u = Coll::take(s);
                u.extend(t.iter().cloned());
                Value::set(u)
            }
            Inter => {
                let (s, t) = sets(&x, &y)?;
                Value::set(s.intersection(&t).cloned().collect())
            }
            Diff => match (&x, &y) {
                (Value::Set(s), Value::Set(t)) => Value::set(s.difference(t).cloned().collect()),
                _ => {
                    let _ = sets(&x, &y)?;
                    unreachable!()
                }
            },
            And | Or | Implies | Iff => unreachable!(),
        })
    }

    fn builtin(&mut self, b: Builtin, args: Vec<Value>, span: Span) -> R<Value> {
        use Builtin::*;
        let bad = |what: &str| -> EvalError {
            rt(
                "E0310",
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
                Value::Map(m) => Value::set(m.keys().cloned().collect()),
                _ => return Err(bad("takes a map")),
            },
            Values => match &a0 {
                Value::Map(m) => Value::set(m.values().cloned().collect()),
                _ => return Err(bad("takes a map")),
            },
            ToSet => Value::set(self.elements(&a0, span)?.into_iter().collect()),
            ToSeq => match &a0 {
                Value::Seq(_) => a0.clone(),
                _ => Value::seq(self.elements(&a0, span)?),
            },
            Sort => match &a0 {
                Value::Seq(s) => {
                    let mut v = (**s).clone();
                    v.sort();
                    Value::seq(v)
                }
                _ => return Err(bad("takes a sequence")),
            },
            Rev => match &a0 {
                Value::Seq(s) => Value::seq(s.iter().rev().cloned().collect()),
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
                    if b == Take {
                        Value::seq(s[..n].to_vec())
                    } else {
                        Value::seq(s[n..].to_vec())
                    }
                }
                _ => return Err(bad("takes a sequence and a count")),
            },
            Zip => match (&a0, args.get(1)) {
                (Value::Seq(s), Some(Value::Seq(t))) => Value::seq(
                    s.iter()
                        .zip(t.iter())
                        .map(|(x, y)| Value::tuple(vec![x.clone(), y.clone()]))
                        .collect(),
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
                if s.len() > 20 {
                    return Err(EvalError::new(
                        ErrKind::Budget,
                        Diag::error(
                            "E0303",
                            format!("the powerset of a set of {} elements is too large", s.len()),
                        )
                        .label(span, "here")
                        .help("powerset is limited to sets of at most 20 elements"),
                    ));
                }
                let items: Vec<&Value> = s.iter().collect();
                let mut out = BTreeSet::new();
                for mask in 0u32..(1 << items.len()) {
                    self.tick(span)?;
                    out.insert(Value::set(
                        items
                            .iter()
                            .enumerate()
                            .filter(|(i, _)| mask & (1 << i) != 0)
                            .map(|(_, v)| (*v).clone())
                            .collect(),
                    ));
                }
                Value::set(out)
            }
            Functions => {
                let (Value::Set(d), Some(Value::Set(c))) = (&a0, args.get(1)) else {
                    return Err(bad("takes two sets"));
                };
                let total = (c.len() as f64).powi(d.len() as i32);
                if total > 5e7 {
                    return Err(EvalError::new(
                        ErrKind::Budget,
                        Diag::error(
                            "E0303",
                            format!("there are {total:.0} functions; too many to list"),
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
                let mut idx = vec![0usize; dom.len()];
                loop {
                    self.tick(span)?;
                    out.insert(Value::map(
                        dom.iter()
                            .zip(&idx)
                            .map(|(k, i)| ((*k).clone(), cod[*i].clone()))
                            .collect(),
                    ));
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
                Value::set(out)
            }
            Product => {
                let (Value::Set(x), Some(Value::Set(y))) = (&a0, args.get(1)) else {
                    return Err(bad("takes two sets"));
                };
                let mut out = BTreeSet::new();
                for p in x.iter() {
                    for q in y.iter() {
                        self.tick(span)?;
                        out.insert(Value::tuple(vec![p.clone(), q.clone()]));
                    }
                }
                Value::set(out)
            }
            Get => match &a0 {
                Value::Map(m) => m.get(&args[1]).cloned().unwrap_or_else(|| args[2].clone()),
                _ => return Err(bad("takes a map")),
            },
            UnionAll => {
                let mut out = BTreeSet::new();
                for s in self.elements(&a0, span)? {
                    match s {
                        Value::Set(s) => out.extend(s.iter().cloned()),
                        _ => return Err(bad("takes a collection of sets")),
                    }
                }
                Value::set(out)
            }
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
            The => {
                let els = self.elements(&a0, span)?;
                if els.len() != 1 {
                    return Err(rt(
                        "E0316",
                        format!(
                            "`the` needs exactly one element, but the collection has {}",
                            els.len()
                        ),
                        span,
                        "here",
                        "`the(S)` names the only element of a one-element set",
                    ));
                }
                els.into_iter().next().unwrap()
            }
            Str => Value::str(&a0.to_string()),
            Error => {
                let msg = match &a0 {
                    Value::Str(s) => s.to_string(),
                    v => v.to_string(),
                };
                return Err(rt(
                    "E0318",
                    msg,
                    span,
                    "raised here",
                    "the rules called `error`",
                ));
            }
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
}

fn overflow(span: Span) -> EvalError {
    rt(
        "E0319",
        "integer overflow",
        span,
        "the result does not fit in 64 bits",
        "integers range from -9223372036854775808 to 9223372036854775807",
    )
}
