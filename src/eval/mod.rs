#![forbid(unsafe_code)]
//! The evaluator: goal-directed and tabled. Each call of a definition with given argument values
//! is computed once per reading and stored; a call that re-enters itself with the same arguments
//! is a cycle, reported with the chain of calls. Deep evaluations grow the stack on the heap
//! (`stacker`) up to a depth budget, so no input overflows the stack; steps, memory and time are
//! budgeted too, and an interrupt flag stops a query cleanly.
//!
//! A query is an expression compiled against a [`Program`]; an [`Evaluator`] runs it under one
//! reading at a time ([`Evaluator::set_reading`], with the id from [`Program::reading_id`]). Under
//! `base`, Go forbids suicide; the reading `suicide` of rules/go.rule allows it:
//!
//! ```
//! use okite::check::load::load_shipped;
//! use okite::eval::Evaluator;
//! use okite::ir::Value;
//! use okite::natives::Natives;
//!
//! let mut prog = load_shipped(&Natives::standard()).program.ok().unwrap();
//! // White plays 2 on the path 1 - 2 beside its own stone on 1: the chain has no liberty left
//! let text = "forbidden_point(path(2), {1: 1, 2: 0}, 2, 1)";
//! let fid = prog.sources.add("<query>", None, text.to_string());
//! let expr = okite::syntax::parse_expr(text, fid).unwrap();
//! let query = prog.compile_query(&expr, &[]).ok().unwrap();
//! let suicide = prog.reading_id("suicide").unwrap();
//!
//! let binder = okite::bindings::Sound::standard();
//! let mut ev = Evaluator::new(&prog, &binder);
//! assert_eq!(ev.eval_query(&query).unwrap(), Value::Bool(true));
//! ev.set_reading(suicide);
//! assert_eq!(ev.eval_query(&query).unwrap(), Value::Bool(false));
//! ```

pub mod binder;
mod calls;
pub mod explain;
mod expr;
mod iterate;
mod metered;
mod ops;
pub mod run;

use crate::check::{DefKind, Program, BASE};
use crate::diagnostics::Diag;
use crate::ir::*;
use crate::ir::{short, Func, Value};
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

/// The default bound on the process's resident memory, in MiB: 4 GiB, a sixth of a 24 GiB
/// machine, so that two or three queries at their bound still leave the machine usable. Raise it
/// with `--max-resident-mb` for a question known to need more.
pub const DEFAULT_MAX_RESIDENT_MB: usize = 4096;

/// Bytes (estimated) that comprehensions and built-ins may add to what they build between two
/// reads of the resident memory: the bound is checked as a set grows, not once it is built.
const GROWTH_CHECK_BYTES: usize = 8 << 20;

/// Address space kept free under a limit (`ulimit -v`) beyond what a value weighs: the
/// allocator maps memory in segments, aligned by mapping more than it keeps, and small values
/// are counted only every [`GROWTH_CHECK_BYTES`] (an allocation of 100 MB failed with 130 MB
/// of address space left).
const MAPPING_RESERVE: usize = 64 << 20;

/// The address space a value of `extra` bytes needs under a limit: the value, a quarter more
/// for the allocator's alignment of a large block, and [`MAPPING_RESERVE`].
fn mapped_need(extra: usize) -> usize {
    extra
        .saturating_add(extra / 4)
        .saturating_add(MAPPING_RESERVE)
}

/// Nested calls take memory faster than the steps between two reads of the resident memory
/// tell (a level's frame, its entries and its share of a new stack segment): the bound is read
/// again each time the calls nest this many levels deeper.
const DEEP_READ_LEVELS: usize = 1024;

/// Bytes (estimated) one more element costs a set, sequence or map beyond the element itself:
/// its slot in a B-tree node or a vector.
const ELEMENT_BYTES: usize = 24;

use crate::diagnostics::code;
use crate::memory::{address_space_limit, usage};

/// The default budget, written once: `Budget::default` and the command line's options use these.
pub const DEFAULT_MAX_STEPS: u64 = 2_000_000_000;
pub const DEFAULT_MAX_DEPTH: usize = 100_000;
pub const DEFAULT_TIMEOUT_MS: u64 = 600_000;
pub const DEFAULT_MAX_MEMO_MB: usize = 2048;

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            max_steps: DEFAULT_MAX_STEPS,
            max_depth: DEFAULT_MAX_DEPTH,
            max_memo_bytes: DEFAULT_MAX_MEMO_MB << 20,
            max_resident_bytes: DEFAULT_MAX_RESIDENT_MB << 20,
            timeout: Some(Duration::from_millis(DEFAULT_TIMEOUT_MS)),
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

/// The memo tables of an evaluator, kept for the evaluator of the same program extended.
pub struct KeptMemo {
    memo: HashMap<MemoKey, Value>,
    bytes: usize,
}

impl KeptMemo {
    /// Forgets the entries of the definitions `defs` (given new meanings), and those that hold
    /// functions (which may be made of them).
    pub fn forget(&mut self, defs: &[DefId]) {
        if defs.is_empty() {
            return;
        }
        let defs: std::collections::HashSet<DefId> = defs.iter().copied().collect();
        self.memo
            .retain(|k, v| !defs.contains(&k.def) && !k.args.iter().any(has_func) && !has_func(v));
    }
}

/// Memo entries carried from one program to another ([`Evaluator::export_memo`]), with the
/// enum declarations of the program they come from (they give the values their meaning).
#[derive(Default)]
pub struct CarriedMemo {
    enums: String,
    entries: Vec<CarriedEntry>,
}

/// A memo entry carried from one program to another.
struct CarriedEntry {
    reading: String,
    fingerprint: u64,
    args: Rc<[Value]>,
    value: Value,
}

/// Whether a function is part of `v`: without recursion, each shared part looked at once (a
/// list of 300,000 cells, or a tuple of 2^900 written parts).
fn has_func(v: &Value) -> bool {
    let mut seen: rustc_hash::FxHashSet<*const ()> = Default::default();
    let mut todo: Vec<&Value> = vec![v];
    while let Some(v) = todo.pop() {
        let mut first = |p: *const ()| seen.insert(p);
        match v {
            Value::Func(_) => return true,
            Value::Tuple(t) if first(t.as_ptr() as *const ()) => todo.extend(t.iter()),
            Value::Set(s) if first(Rc::as_ptr(s) as *const ()) => todo.extend(s.iter()),
            Value::Seq(s) if first(Rc::as_ptr(s) as *const ()) => todo.extend(s.iter()),
            Value::Map(m) if first(Rc::as_ptr(m) as *const ()) => {
                for (k, v) in m.iter() {
                    todo.push(k);
                    todo.push(v);
                }
            }
            Value::Enum(e) if first(Rc::as_ptr(e) as *const ()) => todo.extend(e.fields.iter()),
            _ => {}
        }
    }
    false
}

/// The key of a call in the memo tables. Its hash is computed once, when the key is made: the
/// same key is looked up in the memo, among the calls under way, and inserted, and hashing the
/// arguments (positions, games) each time would cost more than the lookups. The arguments are
/// shared with the call stack.
#[derive(Clone)]
struct MemoKey {
    hash: u64,
    reading: ReadingId,
    def: DefId,
    args: Rc<[Value]>,
}

impl MemoKey {
    fn new(reading: ReadingId, def: DefId, args: Rc<[Value]>) -> MemoKey {
        use std::hash::{Hash, Hasher};
        let mut h = rustc_hash::FxHasher::default();
        reading.hash(&mut h);
        def.hash(&mut h);
        args.hash(&mut h);
        MemoKey {
            hash: h.finish(),
            reading,
            def,
            args,
        }
    }
}

impl PartialEq for MemoKey {
    fn eq(&self, o: &MemoKey) -> bool {
        self.hash == o.hash
            && self.def == o.def
            && self.reading == o.reading
            && (Rc::ptr_eq(&self.args, &o.args) || self.args == o.args)
    }
}
impl Eq for MemoKey {}

impl std::hash::Hash for MemoKey {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash);
    }
}

struct CallInfo {
    def: DefId,
    args: Rc<[Value]>,
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

/// How often a definition's calls were answered from its memo table.
#[derive(Clone, Copy, Default)]
pub(super) struct TableUse {
    pub calls: u32,
    pub hits: u32,
    /// The evaluation steps of the calls computed (not answered from the table).
    pub cost: u64,
    pub given_up: bool,
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
    /// A search's stop flag and deadline, for an evaluator a native search asks (read, never
    /// reset, unlike `interrupt`): the search's own `stop` or time limit ends a query that is
    /// running at the time.
    pub cancel: Option<Arc<AtomicBool>>,
    pub deadline: Option<Instant>,
    reading: ReadingId,
    memo: HashMap<MemoKey, Value>,
    explain_memo: HashMap<MemoKey, Rc<Node>>,
    memo_bytes: usize,
    /// Per definition outside any recursion: its calls and memo hits so far, and whether tabling
    /// it was given up (see `Evaluator::tabled`); made at a definition's first call (an
    /// evaluator is made at every change of the REPL's program, of any size).
    table_use: HashMap<DefId, TableUse>,
    /// Bytes (estimated) built since the resident memory was last read.
    grown: usize,
    /// Elements of bulk work charged since the resident memory was last read (see
    /// `Evaluator::charge`).
    charged: usize,
    /// The depth of nested calls at which the resident memory is next read (see
    /// `Evaluator::call`): 1,024 levels past the last read, or past the lowest depth returned
    /// to since.
    deep_read: usize,
    active: HashMap<MemoKey, usize>,
    stack: Vec<CallInfo>,
    steps: u64,
    /// Expressions being evaluated, nested (see `Evaluator::eval`).
    nesting: u32,
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
            cancel: None,
            deadline: None,
            reading: BASE,
            memo: HashMap::default(),
            explain_memo: HashMap::default(),
            memo_bytes: 0,
            table_use: HashMap::default(),
            grown: 0,
            charged: 0,
            deep_read: DEEP_READ_LEVELS - 1,
            active: HashMap::default(),
            stack: vec![],
            steps: 0,
            nesting: 0,
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

    /// Forget every memo entry (for example after rule files changed, or when memory runs
    /// short), and give the tables' memory back.
    pub fn clear_memo(&mut self) {
        self.memo = Default::default();
        self.explain_memo = Default::default();
        self.memo_bytes = 0;
    }

    /// Start the clocks of the budget for a new query.
    pub fn start_query(&mut self) {
        self.steps = 0;
        self.start = Instant::now();
        self.stack.clear();
        self.deep_read = DEEP_READ_LEVELS - 1;
        self.active.clear();
    }

    pub fn memo_len(&self) -> usize {
        self.memo.len()
    }

    /// The memo entries, named so that another program can take over those of the definitions
    /// it states the same way (see [`Evaluator::import_memo`]).
    pub fn export_memo(&self) -> CarriedMemo {
        let entries = self
            .memo
            .iter()
            .filter(|(k, v)| !k.args.iter().any(has_func) && !has_func(v))
            .map(|(k, v)| CarriedEntry {
                reading: self.prog.readings[k.reading.index()].name.clone(),
                fingerprint: self.prog.fingerprint[k.def.index()],
                args: k.args.clone(),
                value: v.clone(),
            })
            .collect();
        CarriedMemo {
            enums: self.prog.enums_text(),
            entries,
        }
    }

    /// The memo tables as they are, for an evaluator of this program extended with new
    /// definitions ([`crate::check::Program::extend`]: the old ones keep their ids and meaning).
    pub fn take_memo(&mut self) -> KeptMemo {
        self.explain_memo = Default::default();
        KeptMemo {
            memo: std::mem::take(&mut self.memo),
            bytes: std::mem::take(&mut self.memo_bytes),
        }
    }
    /// Takes over the memo tables of an evaluator of this program before it was extended; the
    /// number of entries kept.
    pub fn keep_memo(&mut self, kept: KeptMemo) -> usize {
        self.memo = kept.memo;
        self.memo_bytes = kept.bytes;
        self.memo.len()
    }

    /// Take over the entries of definitions whose fingerprint is unchanged, when the enums of
    /// the program they come from are the first of this one's, declared alike; the number kept.
    pub fn import_memo(&mut self, carried: CarriedMemo) -> usize {
        let CarriedMemo { enums, entries } = carried;
        if entries.is_empty() || !self.prog.enums_text().starts_with(&enums) {
            return 0;
        }
        let mut index: HashMap<(String, u64), DefId> = HashMap::default();
        for (i, d) in self.prog.defs.iter().enumerate() {
            let r = self.prog.readings[d.reading.index()].name.clone();
            index
                .entry((r, self.prog.fingerprint[i]))
                .or_insert(DefId::at(i));
        }
        let mut kept = 0;
        for e in entries {
            let Some(r) = self.prog.reading_id(&e.reading) else {
                continue;
            };
            let Some(&def) = index.get(&(e.reading.clone(), e.fingerprint)) else {
                continue;
            };
            self.memo.insert(MemoKey::new(r, def, e.args), e.value);
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
        self.over_steps(span)?;
        if self.steps & 0x3FF == 0 {
            self.read_clocks(span)?;
            if self.steps & 0xF_FFFF == 0 {
                self.check_resident(0, span)?;
            }
        }
        Ok(())
    }

    /// Ends the query once its steps pass the budget.
    fn over_steps(&self, span: Span) -> R<()> {
        if self.steps > self.budget.max_steps {
            return Err(EvalError::new(
                ErrKind::Budget,
                Diag::error(
                    code::STEP_BUDGET,
                    format!(
                        "the query ran out of its step budget ({} steps)",
                        self.budget.max_steps
                    ),
                )
                .label(span, "evaluating this when the budget ran out")
                .help("raise it with --max-steps, or ask a smaller question"),
            ));
        }
        Ok(())
    }

    /// Ends the query when it is stopped, interrupted, or past its deadline or time.
    fn read_clocks(&mut self, span: Span) -> R<()> {
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Err(EvalError::new(
                ErrKind::Interrupted,
                Diag::error(code::INTERRUPTED, "interrupted: the search was stopped")
                    .label(span, "evaluating this when the search was stopped"),
            ));
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(EvalError::new(
                ErrKind::Budget,
                Diag::error(code::TIME_BUDGET, "the search ran out of time")
                    .label(span, "evaluating this when the search's time ran out"),
            ));
        }
        if let Some(t) = self.budget.timeout {
            if self.start.elapsed() > t {
                return Err(EvalError::new(
                    ErrKind::Budget,
                    Diag::error(
                        code::TIME_BUDGET,
                        format!("the query ran out of time ({} ms)", t.as_millis()),
                    )
                    .label(span, "evaluating this when time ran out")
                    .help("raise it with --timeout-ms, or ask a smaller question"),
                ));
            }
        }
        if let Some(flag) = &self.interrupt {
            if flag.swap(false, Ordering::SeqCst) {
                return Err(EvalError::new(
                    ErrKind::Interrupted,
                    Diag::error(code::INTERRUPTED, "interrupted")
                        .label(span, "evaluating this when interrupted"),
                ));
            }
        }
        Ok(())
    }

    /// Ends the query when the process's resident memory, with `extra` bytes more that are
    /// about to be built, passes the bound; `extra` is weighed against the address space left
    /// under the process's limit too (`ulimit -v`), past which the allocation itself would fail.
    pub(super) fn check_resident(&mut self, extra: usize, span: Span) -> R<()> {
        self.grown = 0;
        self.charged = 0;
        let Some(usage) = usage() else {
            return Ok(());
        };
        let rss = usage.resident;
        let bound = self.budget.max_resident_bytes;
        let mapped_room = address_space_limit().map(|l| l.saturating_sub(usage.mapped));
        let fits_mapped = mapped_room.is_none_or(|room| mapped_need(extra) <= room);
        if rss.saturating_add(extra) <= bound && fits_mapped {
            return Ok(());
        }
        let (msg, label) = if rss > bound || (extra == 0 && fits_mapped) {
            (
                format!(
                    "the query used more memory than allowed ({} MiB resident)",
                    bound >> 20
                ),
                "evaluating this when memory ran out",
            )
        } else if extra == 0 {
            (
                format!(
                    "the query came within {} MiB of the process's address-space limit",
                    MAPPING_RESERVE >> 20
                ),
                "evaluating this when memory ran out",
            )
        } else if !fits_mapped {
            (
                format!(
                    "building this value would take about {} MiB, more than the process's address-space limit leaves ({} MiB)",
                    extra.div_ceil(1 << 20),
                    mapped_room.unwrap_or(0) >> 20
                ),
                "this value would not fit",
            )
        } else {
            (
                format!(
                    "building this value would take about {} MiB, more than the query may still occupy ({} MiB in all)",
                    extra.div_ceil(1 << 20),
                    bound >> 20
                ),
                "this value would not fit",
            )
        };
        Err(EvalError::new(
            ErrKind::Budget,
            Diag::error(code::MEMORY_BUDGET, msg)
                .label(span, label)
                .help(if fits_mapped {
                    "raise it with --max-resident-mb, or ask a smaller question"
                } else {
                    "raise the process's address-space limit (ulimit -v), or ask a smaller question"
                }),
        ))
    }

    /// The bytes a value may still take before the memory bounds in force would pass: the
    /// resident bound less what is resident, and the address space left under a limit.
    pub(super) fn room_left(&self) -> usize {
        let bound = self.budget.max_resident_bytes;
        let Some(usage) = usage() else {
            return bound;
        };
        let room = bound.saturating_sub(usage.resident);
        match address_space_limit() {
            Some(l) => {
                let mapped = l
                    .saturating_sub(usage.mapped)
                    .saturating_sub(MAPPING_RESERVE);
                room.min(mapped / 5 * 4)
            }
            None => room,
        }
    }

    /// Before a value of about `bytes` is made in one piece (a joined text or sequence, a union):
    /// small ones are counted as growth, a large one is weighed against the resident bound
    /// first, so that the allocation that would pass it is never asked for (E0306).
    pub(super) fn before_making(&mut self, bytes: usize, span: Span) -> R<()> {
        if bytes >= GROWTH_CHECK_BYTES {
            self.check_resident(bytes, span)
        } else {
            self.grew(bytes, span)
        }
    }

    /// Counts `bytes` (estimated) just built into a growing value; the resident memory is read
    /// again once [`GROWTH_CHECK_BYTES`] have been built since it was last read.
    fn grew(&mut self, bytes: usize, span: Span) -> R<()> {
        self.grown = self.grown.saturating_add(bytes);
        if self.grown >= GROWTH_CHECK_BYTES {
            self.check_resident(0, span)?;
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
}

fn overflow(span: Span) -> EvalError {
    rt(
        code::INTEGER_OVERFLOW,
        "integer overflow",
        span,
        "the result does not fit in 64 bits",
        "integers range from -9223372036854775808 to 9223372036854775807",
    )
}
