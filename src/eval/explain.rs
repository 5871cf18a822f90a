//! Proof trees: which definitions a query used, the witness of an `any`, the failing case of an
//! `all`, each with the place in the rules that states it.

use super::value::{short, Value};
use crate::diagnostics::SourceMap;
use crate::syntax::ast::Span;
use std::fmt::Write;
use std::rc::Rc;

#[derive(Debug)]
pub struct Node {
    pub text: String,
    pub span: Option<Span>,
    pub value: Option<Value>,
    pub children: Vec<Rc<Node>>,
    /// Children left out to keep the tree readable.
    pub elided: usize,
}

/// Render a tree as indented text, `depth` levels deep.
pub fn render(node: &Node, sources: &SourceMap, depth: usize) -> String {
    let mut out = String::new();
    // the root is the query itself: show its children
    for c in &node.children {
        walk(c, sources, depth, 0, &mut out);
    }
    out
}

fn walk(n: &Node, sources: &SourceMap, depth: usize, level: usize, out: &mut String) {
    let indent = "  ".repeat(level);
    let value = match &n.value {
        Some(v) => format!(" = {}", short(v, 100)),
        None => String::new(),
    };
    let place = match n.span {
        Some(s) if s != Span::default() => {
            let (l, c) = sources.line_col(s.file, s.start);
            let name = sources.get(s.file).map(|f| f.name.as_str()).unwrap_or("?");
            format!("    [{name}:{l}:{c}]")
        }
        _ => String::new(),
    };
    writeln!(out, "{indent}{}{value}{place}", n.text).unwrap();
    if level + 1 >= depth {
        if !n.children.is_empty() {
            writeln!(
                out,
                "{indent}  … ({} more levels not shown; raise --depth)",
                n.children.len()
            )
            .unwrap();
        }
        return;
    }
    for c in &n.children {
        walk(c, sources, depth, level + 1, out);
    }
    if n.elided > 0 {
        writeln!(out, "{indent}  … and {} more", n.elided).unwrap();
    }
}
