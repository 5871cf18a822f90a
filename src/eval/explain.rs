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

/// A step of a proof as it is shown: a call whose value is a truth value, where the rules state
/// it, and the steps under it down to the depth asked for.
struct Shown<'a> {
    node: &'a Node,
    /// File name, line and column.
    place: Option<(String, usize, usize)>,
    children: Vec<Shown<'a>>,
    /// At the depth asked for: the steps under it are not shown.
    bottom: bool,
    /// Steps below the depth asked for were left out.
    deeper: bool,
}

/// The steps shown of the trees `nodes`, `depth` levels deep. The proof is about truth values:
/// calls that compute other values (positions, sets...) are not shown, only what they lead to.
fn shown<'a>(
    nodes: &'a [Rc<Node>],
    sources: &SourceMap,
    depth: usize,
    level: usize,
) -> Vec<Shown<'a>> {
    let mut out = vec![];
    for n in nodes {
        if !is_truth(n) {
            out.extend(shown(&n.children, sources, depth, level));
            continue;
        }
        let place = match n.span {
            Some(s) if s != Span::default() => {
                let (l, c) = sources.line_col(s.file, s.start);
                let name = sources.get(s.file).map(|f| f.name.as_str()).unwrap_or("?");
                Some((name.to_string(), l, c))
            }
            _ => None,
        };
        let at_bottom = level + 1 >= depth;
        out.push(Shown {
            node: n,
            place,
            children: if at_bottom {
                vec![]
            } else {
                shown(&n.children, sources, depth, level + 1)
            },
            bottom: at_bottom,
            deeper: at_bottom && n.children.iter().any(|c| has_truth(c)),
        });
    }
    out
}

/// Render a tree as indented text, `depth` levels deep (the root is the query itself: its
/// children are shown).
pub fn render(node: &Node, prog: &crate::check::Program, depth: usize) -> String {
    let mut out = String::new();
    for s in shown(&node.children, &prog.sources, depth, 0) {
        write_text(&s, prog, 0, &mut out);
    }
    out
}

fn is_truth(n: &Node) -> bool {
    matches!(n.value, Some(Value::Bool(_)))
}

fn write_text(s: &Shown, prog: &crate::check::Program, level: usize, out: &mut String) {
    let n = s.node;
    let indent = "  ".repeat(level);
    let value = match &n.value {
        Some(v) => format!(" = {}", crate::natives::show(prog, v, 100)),
        None => String::new(),
    };
    let place = match &s.place {
        Some((name, l, c)) => format!("    [{name}:{l}:{c}]"),
        None => String::new(),
    };
    writeln!(out, "{indent}{}{value}{place}", n.text).unwrap();
    if s.bottom {
        if s.deeper {
            writeln!(out, "{indent}  … (deeper steps not shown; raise --depth)").unwrap();
        }
        return;
    }
    for c in &s.children {
        write_text(c, prog, level + 1, out);
    }
    if n.elided > 0 {
        writeln!(out, "{indent}  … and {} more", n.elided).unwrap();
    }
}

/// The tree as JSON, the same steps [`render`] shows: each `{"text", "value", "place",
/// "children", "elided", "deeper"}` (`deeper`: steps below `depth` left out).
pub fn render_json(node: &Node, prog: &crate::check::Program, depth: usize) -> String {
    let items: Vec<String> = shown(&node.children, &prog.sources, depth, 0)
        .iter()
        .map(|s| write_json(s, prog))
        .collect();
    format!("[{}]", items.join(", "))
}

fn write_json(s: &Shown, prog: &crate::check::Program) -> String {
    let n = s.node;
    let js = crate::json::string;
    let value = match &n.value {
        Some(v) => js(&crate::natives::show(prog, v, 100)),
        None => "null".into(),
    };
    let place = match &s.place {
        Some((name, l, c)) => js(&format!("{name}:{l}:{c}")),
        None => "null".into(),
    };
    let children: Vec<String> = s.children.iter().map(|c| write_json(c, prog)).collect();
    format!(
        "{{\"text\": {}, \"value\": {value}, \"place\": {place}, \"children\": [{}], \"elided\": {}, \"deeper\": {}}}",
        js(&n.text),
        children.join(", "),
        n.elided,
        s.deeper
    )
}

fn has_truth(n: &Node) -> bool {
    is_truth(n) || n.children.iter().any(|c| has_truth(c))
}
