#![forbid(unsafe_code)]
//! A query of the rules as a function of typed inputs: an expression's text, the names bound
//! for it with their values and types, the reading, the engine and the bounds; its value, or
//! the diagnostics (placed in the program's sources) of why there is none.

use crate::check::Program;
use crate::diagnostics::{code, Diag};
use crate::ir::Value;
use crate::natives::Engine;
use std::collections::BTreeMap;

/// A query asked of the rules.
pub struct Query<'a> {
    /// The expression.
    pub text: &'a str,
    /// The names bound for it: name, value, type.
    pub bound: Vec<(String, Value, String)>,
    /// Native where bound, the rules only, or both compared.
    pub engine: Engine,
    /// The reading (none: base).
    pub reading: Option<&'a str>,
    /// The resident memory the evaluation may reach, in MiB (none: the evaluator's default).
    pub resident_mb: Option<usize>,
    /// The time it may take (none: the evaluator's default).
    pub timeout: Option<std::time::Duration>,
}

/// What a query gave: its value or why it has none, and the native bindings the evaluation
/// found off with why (the rules answered where they stand).
pub struct Answer {
    /// The value, or the diagnostics in the program's sources.
    pub value: Result<Value, Vec<Diag>>,
    /// Each binding found off, and why.
    pub off_bindings: BTreeMap<String, String>,
}

/// [`evaluate`], with the bindings found off told (when there are any) before the value is
/// handed back: for commands that say them as they run.
pub fn evaluate_telling(
    prog: &mut Program,
    q: Query,
    tell: &mut dyn FnMut(crate::commands::told::Told),
) -> Result<Value, Vec<Diag>> {
    let answer = evaluate(prog, q);
    if !answer.off_bindings.is_empty() {
        tell(crate::commands::told::Told::OffBindings(
            &answer.off_bindings,
        ));
    }
    answer.value
}

/// `q` evaluated on `prog`: the query's text is added to the program's sources, so that its
/// diagnostics point into it.
pub fn evaluate(prog: &mut Program, q: Query) -> Answer {
    let failed = |ds: Vec<Diag>| Answer {
        value: Err(ds),
        off_bindings: BTreeMap::new(),
    };
    let fid = prog.sources.add("<query>", None, q.text.to_string());
    let e = match crate::syntax::parse_expr(q.text, fid) {
        Ok(e) => e,
        Err(ds) => return failed(ds),
    };
    let compiled = match prog.compile_query(&e, &q.bound) {
        Ok(c) => c,
        Err(ds) => return failed(ds),
    };
    let r = match q.reading {
        Some(r) => match prog.reading_or_error(r) {
            Ok(r) => r,
            Err(d) => return failed(vec![d]),
        },
        None => crate::check::BASE,
    };
    let binder = crate::bindings::Sound::standard();
    let mut ev = crate::eval::Evaluator::new(prog, &binder);
    ev.engine = q.engine;
    ev.set_reading(r);
    if let Some(mb) = q.resident_mb {
        ev.budget.max_resident_bytes = mb.saturating_mul(1 << 20);
    }
    if q.timeout.is_some() {
        ev.budget.timeout = q.timeout;
    }
    let value = ev.eval_query(&compiled).map_err(|e| vec![*e.diag]);
    Answer {
        value,
        off_bindings: std::mem::take(&mut ev.off_bindings),
    }
}

/// The rules' vocabulary of shogi states, or why the rules loaded have none.
pub fn state_names(prog: &Program) -> Result<crate::natives::shogi::Names, Diag> {
    crate::natives::shogi::Names::new(&crate::natives::NativeCtx { enums: prog }).map_err(|m| {
        Diag::error(
            code::RULES_WITHOUT_SHOGI,
            format!("the rules loaded cannot hold shogi states: {m}"),
        )
        .help("load rules/shogi.rule (the default rules/ folder has it)")
    })
}

/// The error of a command whose query of the rules gave a value it cannot use: `query` gave
/// `v`, where the command wants `wanted`.
pub fn unexpected(query: &str, v: &Value, wanted: &str) -> Diag {
    Diag::error(code::UNEXPECTED_VALUE, format!("`{query}` gave {v}, not {wanted}"))
        .help("the command reads the definitions of the shipped rules with their types; a definition of the same name in the rules loaded gives another kind of value")
}
