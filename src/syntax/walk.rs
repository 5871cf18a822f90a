//! The grammar and a checked walk over the pairs it yields.
//!
//! The builder in `parser.rs` reads the tree pest produces for `grammar/okite.pest`. What it
//! expects of that tree (which children a rule has, in which order, of which rules) is stated
//! through [`Kids`]: each step names the grammar rule it wants. Should the grammar and the builder
//! ever disagree, the walk answers with an internal diagnostic (E0002) that names the rule it
//! looked for and the rule it met, instead of panicking on user input.

use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::syntax::ast::{FileId, Span};
use pest::iterators::{Pair, Pairs};
use pest_derive::Parser;

#[derive(Parser)]
#[grammar = "../grammar/okite.pest"]
pub(super) struct Grammar;

pub(super) type R<T> = Result<T, Diag>;

/// The rules the grammar's silent `type_atom` stands for.
pub(super) const TYPE_ATOM: &[Rule] = &[Rule::type_tuple, Rule::type_app, Rule::type_name];
/// The rules an expression is read from.
pub(super) const EXPR: &[Rule] = &[Rule::expr, Rule::expr_noin];

/// The diagnostic for a tree whose shape the builder does not expect: a disagreement between the
/// grammar and the builder, never a fault of the input.
pub(super) fn shape_error(span: Span, inside: Rule, expected: &str, found: Option<Rule>) -> Diag {
    let found = match found {
        Some(r) => format!("`{r:?}`"),
        None => "nothing".to_string(),
    };
    Diag::error(
        code::UNEXPECTED_SYNTAX_NODE,
        format!(
            "internal error: the parser met an unexpected shape: in `{inside:?}` it expected \
             {expected} and found {found}"
        ),
    )
    .label(span, "while reading this")
    .help("the grammar and the parser disagree here; this is a bug in okite, please report it with this input")
}

/// The span of a pair in `file`.
pub(super) fn span_of(p: &Pair<Rule>, file: FileId) -> Span {
    let s = p.as_span();
    Span::new(file, s.start(), s.end())
}

/// The children of one pair (or the top pairs of a parse), read in order.
pub(super) struct Kids<'i> {
    inside: Rule,
    span: Span,
    it: Pairs<'i, Rule>,
}

impl<'i> Kids<'i> {
    /// The children of `p`.
    pub(super) fn of(p: Pair<'i, Rule>, file: FileId) -> Kids<'i> {
        Kids {
            inside: p.as_rule(),
            span: span_of(&p, file),
            it: p.into_inner(),
        }
    }

    /// The pairs a parse of `rule` returned, over `span`.
    pub(super) fn top(pairs: Pairs<'i, Rule>, rule: Rule, span: Span) -> Kids<'i> {
        Kids {
            inside: rule,
            span,
            it: pairs,
        }
    }

    /// The span of the pair whose children these are.
    pub(super) fn span(&self) -> Span {
        self.span
    }

    /// The diagnostic for a child that is missing or of another rule than `expected`.
    fn error(&self, expected: &str, found: Option<Rule>) -> Diag {
        shape_error(self.span, self.inside, expected, found)
    }

    /// The next child, which must be of `rule`.
    pub(super) fn expect_next(&mut self, rule: Rule) -> R<Pair<'i, Rule>> {
        self.expect_next_of(&[rule])
    }

    /// The next child, which must be of one of `rules`.
    pub(super) fn expect_next_of(&mut self, rules: &[Rule]) -> R<Pair<'i, Rule>> {
        match self.it.next() {
            Some(p) if rules.contains(&p.as_rule()) => Ok(p),
            other => Err(self.error(&names(rules), other.map(|p| p.as_rule()))),
        }
    }

    /// The next child, if there is one and it is of `rule`; otherwise nothing is consumed.
    pub(super) fn optional(&mut self, rule: Rule) -> Option<Pair<'i, Rule>> {
        match self.it.peek() {
            Some(p) if p.as_rule() == rule => self.it.next(),
            _ => None,
        }
    }

    /// Whether every child has been read.
    pub(super) fn is_done(&mut self) -> bool {
        self.it.peek().is_none()
    }
}

impl<'i> Iterator for Kids<'i> {
    type Item = Pair<'i, Rule>;
    fn next(&mut self) -> Option<Pair<'i, Rule>> {
        self.it.next()
    }
}

fn names(rules: &[Rule]) -> String {
    let v: Vec<String> = rules.iter().map(|r| format!("`{r:?}`")).collect();
    match v.as_slice() {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pest::Parser;

    #[test]
    fn a_child_of_another_rule_is_an_internal_diagnostic() {
        let pairs = Grammar::parse(Rule::expr_input, "1 + 2").unwrap();
        let mut top = Kids::top(pairs, Rule::expr_input, Span::new(0, 0, 5));
        let d = top.expect_next(Rule::file).unwrap_err();
        assert_eq!(d.code, crate::diagnostics::code::UNEXPECTED_SYNTAX_NODE);
        assert!(d.message.contains("`file`"), "{}", d.message);
        assert!(d.message.contains("`expr_input`"), "{}", d.message);
    }

    #[test]
    fn a_missing_child_is_an_internal_diagnostic() {
        let pairs = Grammar::parse(Rule::expr_input, "x").unwrap();
        let mut top = Kids::top(pairs, Rule::expr_input, Span::new(0, 0, 1));
        let input = top.expect_next(Rule::expr_input).unwrap();
        let mut kids = Kids::of(input, 0);
        assert!(kids.optional(Rule::file).is_none());
        kids.expect_next(Rule::expr).unwrap();
        kids.expect_next(Rule::EOI).unwrap();
        assert!(kids.is_done());
        let d = kids
            .expect_next_of(&[Rule::expr, Rule::expr_noin])
            .unwrap_err();
        assert_eq!(d.code, crate::diagnostics::code::UNEXPECTED_SYNTAX_NODE);
        assert!(d.message.contains("`expr` or `expr_noin`"), "{}", d.message);
        assert!(d.message.contains("found nothing"), "{}", d.message);
    }
}
