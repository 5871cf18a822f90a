#![forbid(unsafe_code)]
//! The scan of a text before it is parsed: too large a text (E0005), a text that is not text
//! (E0006), and nesting that would make the recursive-descent parser go too deep (E0007).

use super::ast::{FileId, Span};
use crate::diagnostics::code;
use crate::diagnostics::Diag;

/// How deeply brackets and nested expression forms may go before a file is refused. The parser
/// recurses once per level; this bound and the parser's own stack keep it far from overflow.
pub const MAX_NESTING: usize = 2000;
/// Rule files larger than this are refused (the largest real rule file is a few dozen KiB).
pub const MAX_SOURCE_BYTES: usize = 16 << 20;

/// Refuse inputs that would make the recursive-descent parser go too deep, before parsing.
pub(super) fn precheck(text: &str, file: FileId) -> Result<(), Vec<Diag>> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(vec![Diag::error(
            code::SOURCE_TOO_LARGE,
            format!(
                "the source is {} bytes, more than the limit of {} bytes",
                text.len(),
                MAX_SOURCE_BYTES
            ),
        )
        .label(Span::new(file, 0, 0), "this source")
        .help("split the rules into several files joined by `use`")]);
    }
    if let Some(pos) = text.find('\0') {
        return Err(vec![Diag::error(
            code::NOT_TEXT,
            "this is not a text file (it contains a NUL byte)",
        )
        .label(Span::new(file, pos, pos + 1), "NUL byte")
        .help("rule files are UTF-8 text")]);
    }
    match deepest(text) {
        Some(at) => Err(vec![Diag::error(
            code::NESTING_TOO_DEEP,
            format!("the expression is nested more than {MAX_NESTING} levels deep"),
        )
        .label(Span::new(file, at, at + 1), "nesting passes the limit here")
        .help(
            "name intermediate results with `def` or `let` instead of nesting them",
        )]),
        None => Ok(()),
    }
}

/// Where the nesting first passes [`MAX_NESTING`]: the bracket depth plus the nested expression
/// forms that open since the last bracket change (the offset of the innermost open bracket, or
/// of the character read).
fn deepest(text: &str) -> Option<usize> {
    let mut depth: usize = 0;
    let mut stack: Vec<(usize, usize)> = vec![]; // (byte offset, nesting at that point)
    let mut forms: usize = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'/' if matches!(bytes.get(i + 1), Some(b'/' | b'*')) => {
                i = after_comment(bytes, i);
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'(' | b'[' | b'{' => {
                stack.push((i, forms));
                depth += 1;
            }
            b')' | b']' | b'}' => {
                if let Some((_, f)) = stack.pop() {
                    // a bracketed group is one more level of what it stands in (a call, an
                    // index or an operand of a chain)
                    forms = f + 1;
                }
                depth = depth.saturating_sub(1);
            }
            // siblings (elements, arguments, arms, bindings) do not nest in each other
            b',' | b';' => forms = stack.last().map(|s| s.1).unwrap_or(0),
            // a run of operator characters is one operator: each operator of a chain nests the
            // chain so far one level deeper (`1 + 1 + ... + 1`, `x.1.1`, `- - x`)
            b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'.' | b'\\' => {
                let start = i;
                while i + 1 < bytes.len()
                    && matches!(
                        bytes[i + 1],
                        b'+' | b'-' | b'*' | b'%' | b'<' | b'>' | b'=' | b'!' | b'.' | b'\\'
                    )
                {
                    i += 1;
                }
                // `=` (a definition, a binding) and `=>` (an arm) are punctuation, not
                // operators; `->` nests as `→` does (a lambda's body, a function type's result);
                // in a run such as `---x` each `-` is a prefix, one level each
                let run = &text[start..=i];
                if !matches!(run, "=" | "=>") {
                    forms += run.bytes().filter(|b| *b == b'-').count().max(1);
                }
            }
            0x80.. => {
                // the operators written as symbols (¬ ∧ ∨ ∈ ∉ ⊆ ≠ ≤ ≥ ∪ ∖ × ∩ ⇒ → ⇔ ↔)
                if let Some(ch) = text[i..].chars().next() {
                    if "¬∧∨∈∉⊆≠≤≥∪∖×∩⇒→⇔↔".contains(ch) {
                        forms += 1;
                    }
                    i += ch.len_utf8();
                    continue;
                }
            }
            b'a'..=b'z' => {
                let start = i;
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let prev_ok = start == 0
                    || !(bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_');
                if prev_ok {
                    match word(&text[start..i]) {
                        Word::Form => forms += 1,
                        // a new item or statement starts from the nesting of its bracket
                        Word::Item => forms = stack.last().map(|s| s.1).unwrap_or(0),
                        Word::Other => {}
                    }
                }
                continue;
            }
            _ => {}
        }
        if depth + forms > MAX_NESTING {
            return Some(stack.last().map(|s| s.0).unwrap_or(i));
        }
        i += 1;
    }
    None
}

/// The offset after the comment that starts at `i` (`// ...` to the end of its line, or
/// `/* ... */`).
fn after_comment(bytes: &[u8], mut i: usize) -> usize {
    if bytes.get(i + 1) == Some(&b'/') {
        while i < bytes.len() && bytes[i] != b'\n' {
            i += 1;
        }
        return i;
    }
    i += 2;
    while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
        i += 1;
    }
    i + 2
}

/// What a word does to the nesting.
enum Word {
    /// It opens a nested form, or is an operator: one level.
    Form,
    /// It starts an item or a statement.
    Item,
    Other,
}

fn word(w: &str) -> Word {
    match w {
        "let" | "if" | "match" | "all" | "any" | "exists" | "closure" | "count" | "sum" | "min"
        | "max"
        // word operators: one level each, as the symbols
        | "and" | "or" | "not" | "in" | "implies" | "iff" | "subset" | "union" | "inter"
        | "mod" | "with" => Word::Form,
        "def" | "example" | "theorem" | "reading" | "native" | "enum" | "type" | "use"
        | "assert" => Word::Item,
        _ => Word::Other,
    }
}
