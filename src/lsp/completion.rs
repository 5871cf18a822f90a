#![forbid(unsafe_code)]
//! Completion: the names of definitions, enum constants, enums, types and readings the
//! document can name (its own and those of the files it uses), and the built-in functions.
//! After `base.` only definitions; after `reading` or `extends` only readings.

use super::analysis::{doc_comment, header, Analysis, Kind};
use crate::ir::Builtin;
use lsp_types::{CompletionItem, CompletionItemKind, Documentation};
use std::collections::HashSet;

const KEYWORDS: &[&str] = &[
    "use", "enum", "type", "def", "native", "reading", "extends", "override", "example", "theorem",
    "assert", "let", "in", "if", "then", "else", "match", "all", "any", "exists", "and", "or",
    "not", "implies", "iff", "true", "false", "closure", "by", "with", "base", "for", "as",
    "union", "inter", "subset", "mod",
];

/// What may be written where the cursor is, told by the text before it.
#[derive(PartialEq)]
enum Context {
    Anything,
    /// after `base.`
    Definition,
    /// after `reading ` or `extends ` (or a comma of a list of parents)
    Reading,
}

fn context(before: &str) -> Context {
    let word_start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_' || *c == '\'' || *c == '-')
        .last()
        .map(|(i, _)| i)
        .unwrap_or(before.len());
    let head = &before[..word_start];
    if head.ends_with("base.") {
        return Context::Definition;
    }
    let trimmed = head.trim_end();
    let last_word = trimmed
        .rsplit(|c: char| c.is_whitespace() || c == '{' || c == '}')
        .next()
        .unwrap_or("");
    if trimmed.len() < head.len() && (last_word == "reading" || last_word == "extends") {
        return Context::Reading;
    }
    Context::Anything
}

/// The completions at byte offset `offset` of `text` (the document as typed, which may not
/// parse: the names come from `a`, the last analysis whose parse succeeded).
pub fn completion(a: &Analysis, text: &str, offset: usize) -> Vec<CompletionItem> {
    let offset = crate::diagnostics::floor_char_boundary(text, offset);
    let ctx = context(&text[..offset]);
    let mut seen: HashSet<(String, bool)> = HashSet::new();
    let mut out = vec![];
    for d in &a.decls {
        let kind = match d.kind {
            Kind::Def | Kind::Primitive | Kind::ReadingDef => CompletionItemKind::FUNCTION,
            Kind::Variant => CompletionItemKind::ENUM_MEMBER,
            Kind::Enum => CompletionItemKind::ENUM,
            Kind::Type => CompletionItemKind::STRUCT,
            Kind::Reading => CompletionItemKind::MODULE,
            Kind::Override | Kind::Binding | Kind::Example | Kind::Theorem => continue,
        };
        let wanted = match ctx {
            Context::Anything => true,
            Context::Definition => kind == CompletionItemKind::FUNCTION,
            Context::Reading => kind == CompletionItemKind::MODULE,
        };
        if !wanted {
            continue;
        }
        let detail = header(&a.sources, d);
        let doc = doc_comment(&a.sources, d);
        for n in std::iter::once(&d.name).chain(&d.aliases) {
            if !seen.insert((n.clone(), kind == CompletionItemKind::MODULE)) {
                continue;
            }
            out.push(CompletionItem {
                label: n.clone(),
                kind: Some(kind),
                detail: Some(detail.clone()),
                documentation: doc.clone().map(Documentation::String),
                ..Default::default()
            });
        }
    }
    if ctx == Context::Reading && !seen.contains(&("base".to_string(), true)) {
        out.push(CompletionItem {
            label: "base".into(),
            kind: Some(CompletionItemKind::MODULE),
            detail: Some("the rules as written, before any reading".into()),
            ..Default::default()
        });
    }
    if ctx == Context::Anything {
        for b in Builtin::ALL {
            if seen.insert((b.name().to_string(), false)) {
                out.push(CompletionItem {
                    label: b.name().to_string(),
                    kind: Some(CompletionItemKind::FUNCTION),
                    detail: Some("built-in".into()),
                    ..Default::default()
                });
            }
        }
        for k in KEYWORDS {
            out.push(CompletionItem {
                label: k.to_string(),
                kind: Some(CompletionItemKind::KEYWORD),
                ..Default::default()
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contexts() {
        assert!(context("  let d = base.pl") == Context::Definition);
        assert!(context("reading narrow extends br") == Context::Reading);
        assert!(context("reading ") == Context::Reading);
        assert!(context("def reading_x = a") == Context::Anything);
        assert!(context("x") == Context::Anything);
    }
}
