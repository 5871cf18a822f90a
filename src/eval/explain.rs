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

/// The tree as JSON, the same steps [`render`] shows: each `{"text", "value", "place",
/// "children", "elided", "deeper"}` (`deeper`: steps below `depth` left out).
pub fn render_json(node: &Node, prog: &crate::check::Program, depth: usize) -> String {
    let mut items = vec![];
    for c in &node.children {
        walk_json(c, prog, depth, 0, &mut items);
    }
    format!("[{}]", items.join(", "))
}

fn walk_json(
    n: &Node,
    prog: &crate::check::Program,
    depth: usize,
    level: usize,
    out: &mut Vec<String>,
) {
    if !is_truth(n) {
        for c in &n.children {
            walk_json(c, prog, depth, level, out);
        }
        return;
    }
    let s = crate::json::string;
    let value = match &n.value {
        Some(v) => s(&crate::natives::show(prog, v, 100)),
        None => "null".into(),
    };
    let place = match n.span {
        Some(sp) if sp != Span::default() => {
            let (l, c) = prog.sources.line_col(sp.file, sp.start);
            let name = prog
                .sources
                .get(sp.file)
                .map(|f| f.name.as_str())
                .unwrap_or("?");
            s(&format!("{name}:{l}:{c}"))
        }
        _ => "null".into(),
    };
    let mut children = vec![];
    let deeper = level + 1 >= depth && n.children.iter().any(|c| has_truth(c));
    if level + 1 < depth {
        for c in &n.children {
            walk_json(c, prog, depth, level + 1, &mut children);
        }
    }
    out.push(format!(
        "{{\"text\": {}, \"value\": {value}, \"place\": {place}, \"children\": [{}], \"elided\": {}, \"deeper\": {deeper}}}",
        s(&n.text),
        children.join(", "),
        n.elided
    ));
}

fn has_truth(n: &Node) -> bool {
    is_truth(n) || n.children.iter().any(|c| has_truth(c))
}
