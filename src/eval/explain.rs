//! Proof trees: which definitions a query used, the witness of an `any`, the failing case of an
//! `all`, each with the place in the rules that states it.

use crate::diagnostics::SourceMap;
use crate::ir::Value;
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

/// Render a tree as indented text, `depth` levels deep. The proof is about truth values: calls
/// that compute other values (positions, sets...) are not shown, only what they lead to.
pub fn render(node: &Node, prog: &crate::check::Program, depth: usize) -> String {
    let mut out = String::new();
    // the root is the query itself: show its children
    for c in &node.children {
        walk(c, prog, &prog.sources, depth, 0, &mut out);
    }
    out
}

fn is_truth(n: &Node) -> bool {
    matches!(n.value, Some(Value::Bool(_)))
}

fn walk(
    n: &Node,
    prog: &crate::check::Program,
    sources: &SourceMap,
    depth: usize,
    level: usize,
    out: &mut String,
) {
    if !is_truth(n) {
        for c in &n.children {
            walk(c, prog, sources, depth, level, out);
        }
        return;
    }
    let indent = "  ".repeat(level);
    let value = match &n.value {
        Some(v) => format!(" = {}", crate::natives::show(prog, v, 100)),
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
        if n.children.iter().any(|c| has_truth(c)) {
            writeln!(out, "{indent}  … (deeper steps not shown; raise --depth)").unwrap();
        }
        return;
    }
    for c in &n.children {
        walk(c, prog, sources, depth, level + 1, out);
    }
    if n.elided > 0 {
        writeln!(out, "{indent}  … and {} more", n.elided).unwrap();
    }
}

fn has_truth(n: &Node) -> bool {
    is_truth(n) || n.children.iter().any(|c| has_truth(c))
}
