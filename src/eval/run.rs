//! Running the examples and theorems written inside rule files.

use super::{EvalError, Evaluator};
use crate::check::IrStmt;
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::ir::short;
use crate::ir::Ir;
use crate::ir::Value;
use crate::syntax::ast::{BinOp, Span};

/// The outcome of one example or theorem.
pub struct Outcome {
    pub kind: &'static str,
    pub name: String,
    pub span: Span,
    pub reading: String,
    /// `None` when it passed.
    pub failure: Option<Diag>,
    /// How many cases a theorem checked.
    pub cases: u64,
}

impl Outcome {
    pub fn passed(&self) -> bool {
        self.failure.is_none()
    }
}

/// Run every example and theorem (those whose name contains `filter`, if given).
pub fn run_all(ev: &mut Evaluator, filter: Option<&str>) -> Vec<Outcome> {
    run_where(ev, &|name| filter.is_none_or(|f| name.contains(f)))
}

/// Runs the examples and theorems whose names `chosen` accepts.
pub fn run_where(ev: &mut Evaluator, chosen: &dyn Fn(&str) -> bool) -> Vec<Outcome> {
    let prog = ev.prog;
    let mut out = vec![];
    for ex in &prog.examples {
        if !chosen(&ex.name) {
            continue;
        }
        ev.set_reading(ex.reading.unwrap_or(crate::check::BASE));
        ev.start_query();
        let failure = run_example(ev, ex);
        out.push(Outcome {
            kind: "example",
            name: ex.name.clone(),
            span: ex.span,
            reading: prog.readings[ev.reading().index()].name.clone(),
            failure,
            cases: 1,
        });
    }
    for th in &prog.theorems {
        if !chosen(&th.name) {
            continue;
        }
        ev.set_reading(th.reading.unwrap_or(crate::check::BASE));
        ev.start_query();
        let mut frame = vec![Value::Bool(false); th.nlocals as usize];
        let mut cases = 0u64;
        let mut failure = None;
        let body = &th.body;
        let r = ev.bindings(&th.binders, &mut frame, &mut |ev, fr| {
            cases += 1;
            match ev.eval_bool(body, fr) {
                Ok(true) => Ok(true),
                Ok(false) => {
                    let witness = ev.binding_text(&th.binders, fr);
                    let detail = describe_failure(ev, body, fr);
                    failure = Some(
                        Diag::error(
                            code::THEOREM_FAILS,
                            format!(
                                "theorem \"{}\" fails for {}",
                                th.name,
                                if witness.is_empty() {
                                    "its statement".to_string()
                                } else {
                                    witness
                                }
                            ),
                        )
                        .label(body.span(), detail)
                        .help("the counterexample above makes the statement false"),
                    );
                    Ok(false)
                }
                Err(e) => Err(e),
            }
        });
        if let Err(e) = r {
            failure = Some(error_diag(e, &th.name, "theorem"));
        }
        out.push(Outcome {
            kind: "theorem",
            name: th.name.clone(),
            span: th.span,
            reading: prog.readings[ev.reading().index()].name.clone(),
            failure,
            cases,
        });
    }
    ev.set_reading(crate::check::BASE);
    out
}

fn error_diag(e: EvalError, name: &str, kind: &str) -> Diag {
    let mut d = *e.diag;
    d.message = format!("{kind} \"{name}\": {}", d.message);
    d
}

fn run_example(ev: &mut Evaluator, ex: &crate::check::Example) -> Option<Diag> {
    let mut frame = vec![Value::Bool(false); ex.nlocals as usize];
    for st in &ex.stmts {
        match st {
            IrStmt::Let(p, e) => match ev.eval(e, &mut frame) {
                Ok(v) => {
                    if !ev.matches(p, &v, &mut frame) {
                        return Some(
                            Diag::error(
                                code::EXAMPLE_LET_MISMATCH,
                                format!(
                                    "example \"{}\": the value does not match the pattern",
                                    ex.name
                                ),
                            )
                            .label(e.span(), format!("this is {}", short(&v, 80))),
                        );
                    }
                }
                Err(err) => return Some(error_diag(err, &ex.name, "example")),
            },
            IrStmt::Assert(e, msg, span) => match ev.eval_bool(e, &mut frame) {
                Ok(true) => {}
                Ok(false) => {
                    let detail = describe_failure(ev, e, &mut frame);
                    let mut d = Diag::error(
                        code::ASSERTION_FAILED,
                        format!(
                            "example \"{}\": {}",
                            ex.name,
                            msg.clone()
                                .unwrap_or_else(|| "assertion failed".to_string())
                        ),
                    )
                    .label(*span, detail);
                    d = d.help("the assertion evaluated to false");
                    return Some(d);
                }
                Err(err) => return Some(error_diag(err, &ex.name, "example")),
            },
        }
    }
    None
}

/// For a failed comparison, the values of both sides.
fn describe_failure(ev: &mut Evaluator, e: &Ir, frame: &mut Vec<Value>) -> String {
    if let Ir::Bin(op, a, b, _) = e {
        if matches!(
            op,
            BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::In
                | BinOp::NotIn
                | BinOp::Subset
        ) {
            if let (Ok(x), Ok(y)) = (ev.eval(a, frame), ev.eval(b, frame)) {
                return format!("left is {}, right is {}", short(&x, 120), short(&y, 120));
            }
        }
    }
    "this is false".to_string()
}

/// Run a program's examples and theorems; the count of failures.
pub fn summary(outcomes: &[Outcome]) -> (usize, usize) {
    let passed = outcomes.iter().filter(|o| o.passed()).count();
    (passed, outcomes.len() - passed)
}
