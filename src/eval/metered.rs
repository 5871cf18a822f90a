//! Bulk work on collections charged to the query's budget as it goes: a built-in that copies,
//! reverses, sorts or compares millions of elements reads the step budget, the clocks, the stop
//! flags and the resident memory every [`CHUNK`] elements, as the evaluation of expressions
//! does at every step, so that `--timeout-ms` and `--max-steps` bind inside one call of it.

use super::*;
use crate::diagnostics::code;

/// The elements handled between two readings of the budget.
pub(super) const CHUNK: usize = 1 << 16;

impl Evaluator<'_> {
    /// Charges `n` steps of bulk work at once, then reads the clocks and the stop flags, and the
    /// resident memory once [`CHUNK`] elements have been charged since it was last read. (Read
    /// at every charge, `/proc/self/status` took two thirds of the time of rules that join many
    /// small sets.)
    pub(super) fn charge(&mut self, n: usize, span: Span) -> R<()> {
        self.steps = self.steps.saturating_add(n as u64);
        self.over_steps(span)?;
        self.read_clocks(span)?;
        self.charged = self.charged.saturating_add(n);
        if self.charged >= CHUNK {
            self.check_resident(0, span)?;
        }
        Ok(())
    }

    /// The text of `v` as `str` writes it: refused (E0306) before it would take more than a
    /// quarter of the room the memory bounds leave (the text is written, then copied into the
    /// value, in buffers that may double), never written past that.
    pub(super) fn text_metered(&mut self, v: &Value, span: Span) -> R<String> {
        self.charge(0, span)?;
        // counted first (each shared part once): a text past the room is refused at once; a
        // short one is only counted as growth, without reading the resident memory
        let len = v.text_len();
        let cap = if len < GROWTH_CHECK_BYTES {
            GROWTH_CHECK_BYTES
        } else {
            self.room_left() / 4
        };
        let text = if len > cap { None } else { v.text_within(cap) };
        match text {
            Some(t) => {
                self.charge(t.len() / 16, span)?;
                self.before_making(t.len(), span)?;
                Ok(t)
            }
            None => Err(EvalError::new(
                ErrKind::Budget,
                Diag::error(
                    code::MEMORY_BUDGET,
                    format!(
                        "the text of this value would take more than {} MiB, more than the query may still occupy ({} MiB in all)",
                        cap.div_ceil(1 << 20),
                        self.budget.max_resident_bytes >> 20
                    ),
                )
                .label(span, "this text would not fit")
                .help("raise it with --max-resident-mb, or write a smaller value"),
            )),
        }
    }

    /// `it`'s items collected, the budget charged every [`CHUNK`] of them: the first refusal
    /// ends the collecting.
    pub(super) fn collect_metered<T, C: FromIterator<T>>(
        &mut self,
        it: impl Iterator<Item = T>,
        span: Span,
    ) -> R<C> {
        // what the iterator says it will give at least is weighed before the collection is
        // made in one piece (a vector of that many elements)
        let at_least = it.size_hint().0;
        self.before_making(
            at_least.saturating_mul(std::mem::size_of::<T>().max(ELEMENT_BYTES)),
            span,
        )?;
        let mut refused = None;
        let mut n = 0usize;
        let out: C = it
            .map_while(|x| {
                n += 1;
                if n == CHUNK {
                    n = 0;
                    if let Err(e) = self.charge(CHUNK, span) {
                        refused = Some(e);
                        return None;
                    }
                }
                Some(x)
            })
            .collect();
        if let Some(e) = refused {
            return Err(e);
        }
        self.charge(n, span)?;
        Ok(out)
    }

    /// `v` sorted (stably), the budget charged as it goes: runs of [`CHUNK`] elements sorted
    /// each, then merged in pairs.
    pub(super) fn sort_metered(&mut self, v: Vec<Value>, span: Span) -> R<Vec<Value>> {
        if v.len() <= CHUNK {
            self.charge(v.len(), span)?;
            let mut v = v;
            v.sort();
            return Ok(v);
        }
        let mut runs: Vec<Vec<Value>> = Vec::with_capacity(v.len().div_ceil(CHUNK));
        let mut rest = v.into_iter();
        loop {
            let mut run: Vec<Value> = rest.by_ref().take(CHUNK).collect();
            if run.is_empty() {
                break;
            }
            self.charge(run.len(), span)?;
            run.sort();
            runs.push(run);
        }
        while runs.len() > 1 {
            let mut next = Vec::with_capacity(runs.len().div_ceil(2));
            let mut pairs = runs.into_iter();
            while let Some(a) = pairs.next() {
                next.push(match pairs.next() {
                    Some(b) => self.merge(a, b, span)?,
                    None => a,
                });
            }
            runs = next;
        }
        Ok(runs.pop().unwrap_or_default())
    }

    /// Two sorted runs merged, the left's element first among equals.
    fn merge(&mut self, a: Vec<Value>, b: Vec<Value>, span: Span) -> R<Vec<Value>> {
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
        loop {
            let take_a = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) => x <= y,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            out.extend(if take_a { a.next() } else { b.next() });
            if out.len() % CHUNK == 0 {
                self.charge(CHUNK, span)?;
            }
        }
        Ok(out)
    }

    /// `x == y`, a comparison of two large collections charged as it goes (element by element
    /// at the top; the elements themselves are compared whole).
    pub(super) fn equal_metered(&mut self, x: &Value, y: &Value, span: Span) -> R<bool> {
        fn pairs<'a, T: PartialEq + 'a>(
            ev: &mut Evaluator<'_>,
            a: impl Iterator<Item = T>,
            b: impl Iterator<Item = T>,
            span: Span,
        ) -> R<bool> {
            for (i, (p, q)) in a.zip(b).enumerate() {
                if i % CHUNK == CHUNK - 1 {
                    ev.charge(CHUNK, span)?;
                }
                if p != q {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        match (x, y) {
            (Value::Seq(s), Value::Seq(t)) if s.len() > CHUNK => {
                Ok(s.len() == t.len() && pairs(self, s.iter(), t.iter(), span)?)
            }
            (Value::Set(s), Value::Set(t)) if s.len() > CHUNK => {
                Ok(s.len() == t.len() && pairs(self, s.iter(), t.iter(), span)?)
            }
            (Value::Map(s), Value::Map(t)) if s.len() > CHUNK => {
                Ok(s.len() == t.len() && pairs(self, s.iter(), t.iter(), span)?)
            }
            _ => Ok(x == y),
        }
    }
}
