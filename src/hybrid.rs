#![forbid(unsafe_code)]
//! Native engines that keep their native parts under a variant and ask the rules for the
//! changed ones.
//!
//! For shogi legality (`forbidden` and its parts, `mate`), [`shogi_variant`] finds which parts a
//! loaded program under a reading states as shipped and which it changes; [`RulesOracle`] answers
//! the changed parts by evaluating the loaded definitions on the engine's positions. The engines
//! (`crate::shogi::legality`, `crate::shogi::hybrid_mate`) do the rest natively.

use crate::bindings::{same_cone, same_own};
use crate::check::Program;
use crate::eval::Evaluator;
use crate::ir::Value;
use crate::ir::{DefKey, Ir, ReadingId};
use crate::natives::shogi::Names;
use crate::natives::NativeCtx;
use crate::shogi::legality::{Asked, Oracle};
use crate::shogi::position::Position;
use crate::shogi::types::Color;
use crate::syntax::ast::Span;
use rustc_hash::FxHashMap;

/// How a variant's legality is assembled.
#[derive(Clone, Debug)]
pub struct ShogiVariant {
    /// The shipped reading whose structure of `forbidden` and `mate` the native parts follow.
    pub structure: &'static str,
    pub mate_needs_check: bool,
    pub asked: Asked,
}

/// Definitions that read the game beyond its last two positions (a table keyed by position
/// cannot follow a changed part that reaches them).
const HISTORY: [&str; 5] = [
    "sennichite",
    "occurrences",
    "run_start",
    "perpetual_check",
    "perpetual_forbidden",
];

/// Which parts of shogi legality the loaded rules change under `reading`, or why the native
/// parts cannot be used at all.
pub fn shogi_variant(prog: &Program, reading: ReadingId) -> Result<ShogiVariant, String> {
    for name in ["succ", "in_check"] {
        if !same_cone(prog, reading, name, "base") {
            return Err(format!(
                "`{name}` changed, and the native move generation and check stand for it"
            ));
        }
    }
    // the native parts are assembled as `legal` states it: the successors not forbidden
    if !same_own(prog, reading, "legal", "base") {
        return Err(
            "`legal` itself changed, and the native parts are assembled as the shipped `legal` \
             assembles them (the successors that are not forbidden)"
                .into(),
        );
    }
    let rname = prog.readings[reading.index()].name.as_str();
    let mut candidates: Vec<&'static str> = ["narrow-check", "narrow"]
        .into_iter()
        .filter(|c| *c == rname)
        .collect();
    candidates.extend(
        ["narrow-check", "narrow"]
            .into_iter()
            .filter(|c| *c != rname),
    );
    let score = |c: &str| {
        same_own(prog, reading, "forbidden", c) as u8 + same_own(prog, reading, "mate", c) as u8
    };
    let structure = candidates
        .iter()
        .copied()
        .max_by_key(|c| (score(c), *c == rname))
        .unwrap_or("narrow-check");
    let asked = Asked {
        forbidden: !same_own(prog, reading, "forbidden", structure),
        nifu: !same_cone(prog, reading, "nifu", structure),
        dead_piece: !same_cone(prog, reading, "dead_piece", structure),
        dying: !same_cone(prog, reading, "dying", structure),
        uchifuzume: !(same_own(prog, reading, "uchifuzume", structure)
            && same_cone(prog, reading, "dropped_pawn", structure)),
        mate: !same_own(prog, reading, "mate", structure),
    };
    for part in asked.names() {
        let reached = crate::bindings::cone_names(prog, reading, part);
        if let Some(h) = HISTORY.iter().find(|h| reached.iter().any(|n| n == *h)) {
            return Err(format!(
                "the changed `{part}` reaches `{h}`, which reads the game's history; the native parts key their work by position"
            ));
        }
    }
    Ok(ShogiVariant {
        structure,
        mate_needs_check: structure == "narrow-check",
        asked,
    })
}

/// The rules answering the changed parts, on engine positions.
pub struct RulesOracle<'p> {
    pub ev: Evaluator<'p>,
    names: Names,
    states: FxHashMap<u64, Value>,
    keys: FxHashMap<&'static str, (DefKey, Option<bool>)>,
    turns: [Value; 2],
    span: Span,
}

impl<'p> RulesOracle<'p> {
    pub fn new(
        prog: &'p Program,
        binder: &'p dyn crate::eval::Binder,
        reading: ReadingId,
    ) -> Result<RulesOracle<'p>, String> {
        let ctx = NativeCtx { enums: prog };
        let names = Names::new(&ctx)?;
        let turns = [
            ctx.enum_value("Turn", "先手")?,
            ctx.enum_value("Turn", "後手")?,
        ];
        let mut keys = FxHashMap::default();
        for name in [
            "nifu",
            "dead_piece",
            "dying",
            "uchifuzume",
            "mate",
            "forbidden",
        ] {
            if let Some(k) = prog.key_of(name) {
                // a definition whose body is a constant is decided once
                let constant = prog
                    .resolve(reading, k)
                    .and_then(|d| prog.defs[d.index()].body.as_ref())
                    .and_then(|b| match b {
                        Ir::Const(Value::Bool(v), _) => Some(*v),
                        _ => None,
                    });
                keys.insert(name, (k, constant));
            }
        }
        let mut ev = Evaluator::new(prog, binder);
        ev.set_reading(reading);
        Ok(RulesOracle {
            ev,
            names,
            states: FxHashMap::default(),
            keys,
            turns,
            span: Span::new(0, 0, 0),
        })
    }

    /// Bounds the resident memory the rules' evaluations may reach, in bytes (the evaluator
    /// ends an evaluation past it).
    pub fn bound_memory(&mut self, bytes: usize) {
        self.ev.budget.max_resident_bytes = bytes;
    }

    /// Ends a rule evaluation that runs when `stop` is set or `deadline` passes, so that a
    /// search's stop and time limit bind while the rules answer for it.
    pub fn watch(
        &mut self,
        stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
        deadline: Option<std::time::Instant>,
    ) {
        self.ev.cancel = stop;
        self.ev.deadline = deadline;
    }

    /// The successors of `p` by the rules' one-step transition `succ(s)` (forbidden moves
    /// included), each named by the move that makes it: the moves of a variant's own pieces
    /// (a silver stepping sideways) that the shipped generator does not make.
    pub fn successors(
        &mut self,
        p: &Position,
    ) -> Result<Vec<(crate::shogi::types::Move, Position)>, String> {
        let key = self
            .ev
            .prog
            .key_of("succ")
            .ok_or("the rules define no `succ(s)`")?;
        let s = self.state(p);
        let v = self
            .ev
            .call_key(key, vec![s], self.span)
            .map_err(|e| e.diag.message.clone())?;
        let Value::Set(next) = v else {
            return Err(format!(
                "`succ(s)` gave {}, not a set of states",
                v.type_desc()
            ));
        };
        let mut out = vec![];
        for n in next.iter() {
            let q = self.names.position(n)?;
            let m = crate::shogi::naming::move_between(p, &q).ok_or_else(|| {
                format!(
                    "`succ(s)` gave a successor that no one move makes: {}",
                    q.to_sfen()
                )
            })?;
            out.push((m, q));
        }
        Ok(out)
    }

    fn state(&mut self, p: &Position) -> Value {
        let names = &self.names;
        self.states
            .entry(p.key())
            .or_insert_with(|| names.state(p))
            .clone()
    }

    fn game(&mut self, h: &[Position]) -> Vec<Value> {
        let states: Vec<Value> = h.iter().map(|p| self.state(p)).collect();
        vec![Value::seq(states), Value::Int(h.len() as i64)]
    }

    fn call(
        &mut self,
        name: &'static str,
        args: impl FnOnce(&mut Self) -> Vec<Value>,
    ) -> Result<bool, String> {
        let Some(&(key, constant)) = self.keys.get(name) else {
            return Err(format!("the rules define no `{name}`"));
        };
        if let Some(v) = constant {
            return Ok(v);
        }
        let args = args(self);
        match self.ev.call_key(key, args, self.span) {
            Ok(Value::Bool(b)) => Ok(b),
            Ok(v) => Err(format!("`{name}` gave {v}, not a truth value")),
            Err(e) => Err(e.diag.message.clone()),
        }
    }
}

impl Oracle for RulesOracle<'_> {
    fn nifu(&mut self, h: &[Position], o: Color) -> Result<bool, String> {
        let p = h.last().ok_or("no position")?;
        self.call("nifu", |s| vec![s.state(p), s.turns[o as usize].clone()])
    }
    fn dead_piece(&mut self, h: &[Position], o: Color) -> Result<bool, String> {
        let p = h.last().ok_or("no position")?;
        self.call("dead_piece", |s| {
            vec![s.state(p), s.turns[o as usize].clone()]
        })
    }
    fn dying(&mut self, h: &[Position]) -> Result<bool, String> {
        let p = h.last().ok_or("no position")?;
        self.call("dying", |s| vec![s.state(p)])
    }
    fn uchifuzume(&mut self, h: &[Position]) -> Result<bool, String> {
        self.call("uchifuzume", |s| s.game(h))
    }
    fn mate(&mut self, h: &[Position]) -> Result<bool, String> {
        self.call("mate", |s| s.game(h))
    }
    fn forbidden(&mut self, h: &[Position]) -> Result<bool, String> {
        self.call("forbidden", |s| s.game(h))
    }
    fn shrink(&mut self) {
        self.states = FxHashMap::default();
        self.ev.clear_memo();
    }
}
