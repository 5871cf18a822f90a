#![forbid(unsafe_code)]
//! Queries: an expression typed at the REPL or on the command line, resolved against the checked
//! program and typed, with the values bound to its free names.

use super::infer::Infer;
use super::resolve::{Owner, Resolver};
use super::*;

impl Program {
    /// Compile an expression typed on the command line or at the REPL, with some names bound to
    /// values beforehand (for example `g` and `i` for the current game).
    pub fn compile_query(
        &mut self,
        e: &Expr,
        bound: &[(String, Value, String)],
    ) -> Result<Query, Vec<Diag>> {
        let mut r = Resolver::new(self, Owner::Other);
        for (n, _, _) in bound {
            r.bind_name(n, e.span);
        }
        let ir = r.expr(e);
        let nlocals = r.nlocals;
        let errs = r.errs;
        if !errs.is_empty() {
            return Err(errs);
        }
        self.unifier.refuel();
        let mut slots: Vec<Ty> = (0..nlocals).map(|_| self.unifier.fresh()).collect();
        let mut errs = vec![];
        for (i, (_, _, ty)) in bound.iter().enumerate() {
            if let Some(t) = self.parse_type_text(ty) {
                let _ = self.unifier.unify(&slots[i], &t);
            }
        }
        let t = {
            let mut inf = Infer {
                p: self,
                slots: &mut slots,
                errs: &mut errs,
                mono: &HashMap::new(),
                quiet_arity: false,
            };
            inf.infer(&ir)
        };
        let mut spent = vec![];
        if self.report_spent("the query", e.span, &mut spent) {
            return Err(spent);
        }
        if !errs.is_empty() {
            return Err(errs);
        }
        Ok(Query {
            ir,
            nlocals,
            ty: self.pretty(&t),
            bound: bound.iter().map(|b| b.1.clone()).collect(),
        })
    }
}
