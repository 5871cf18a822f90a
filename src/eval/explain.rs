//! Proof trees: which definitions a query used, the witness of an `any`, the failing case of an
//! `all`, each with the place in the rules that states it.
//!
//! A tree is as deep as the calls were (up to `--max-depth`) and its parts are shared where a
//! tabled call was used twice, so every walk here is iterative, each shared part is examined once
//! for the steps under it, and what is shown is cut after [`MAX_SHOWN`] steps or [`MAX_VISITS`]
//! parts visited.

use crate::diagnostics::SourceMap;
use crate::ir::Value;
use crate::syntax::ast::Span;
use std::collections::HashMap;
use std::fmt::Write;
use std::rc::Rc;

/// Steps shown at most; past them the text ends with a line saying it was cut.
pub const MAX_SHOWN: usize = 100_000;
/// Parts of the tree visited at most while choosing what to show (calls of other values than
/// truth values are walked through, and a shared part is walked each time it is used).
pub const MAX_VISITS: usize = 10_000_000;

#[derive(Debug)]
pub struct Node {
    pub text: String,
    pub span: Option<Span>,
    pub value: Option<Value>,
    pub children: Vec<Rc<Node>>,
    /// Children left out to keep the tree readable.
    pub elided: usize,
}

impl Drop for Node {
    /// Without recursion: a chain of calls 10,000,000 deep is dropped on a small stack.
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.children);
        while let Some(n) = stack.pop() {
            if let Ok(mut inner) = Rc::try_unwrap(n) {
                stack.append(&mut inner.children);
            }
        }
    }
}

/// What the walk meets, in the order it is shown.
enum Event<'a> {
    /// A step shown: a call whose value is a truth value. `bottom`: at the depth asked for, its
    /// steps are not shown (`deeper`: it has some).
    Open {
        node: &'a Node,
        level: usize,
        bottom: bool,
        deeper: bool,
    },
    /// The end of the steps under a step that was not at the bottom.
    Close { node: &'a Node, level: usize },
}

/// A list of parts being walked: the parts, the next one, the level, and the step to close
/// after the last.
type Frame<'a> = (&'a [Rc<Node>], usize, usize, Option<&'a Node>);

/// The walk of a tree: the steps shown `depth` levels deep. The proof is about truth values:
/// calls that compute other values (positions, sets...) are not shown, only what they lead to.
struct Walk<'a> {
    depth: usize,
    /// Whether a part has, at or under it, a truth value (by the part's address).
    truth_under: HashMap<*const Node, bool>,
    /// The lists being walked.
    frames: Vec<Frame<'a>>,
    shown: usize,
    visits: usize,
    /// The limits cut what is shown.
    cut: bool,
}

impl<'a> Walk<'a> {
    fn new(root: &'a Node, depth: usize) -> Walk<'a> {
        Walk {
            depth,
            truth_under: HashMap::new(),
            frames: vec![(&root.children[..], 0, 0, None)],
            shown: 0,
            visits: 0,
            cut: false,
        }
    }

    /// Whether `n` is or has under it a truth value, each part examined once.
    fn has_truth(&mut self, n: &Node) -> bool {
        let key = n as *const Node;
        if let Some(&b) = self.truth_under.get(&key) {
            return b;
        }
        // post-order with an explicit stack: (part, index of the next child)
        let mut stack: Vec<(&Node, usize)> = vec![(n, 0)];
        while let Some((m, i)) = stack.pop() {
            let km = m as *const Node;
            if self.truth_under.contains_key(&km) {
                continue;
            }
            if is_truth(m) {
                self.truth_under.insert(km, true);
                continue;
            }
            if i > 0 && self.truth_under.get(&Rc::as_ptr(&m.children[i - 1])) == Some(&true) {
                self.truth_under.insert(km, true);
                continue;
            }
            if i == m.children.len() {
                self.truth_under.insert(km, false);
                continue;
            }
            stack.push((m, i + 1));
            let c: &Node = &m.children[i];
            if !self.truth_under.contains_key(&(c as *const Node)) {
                stack.push((c, 0));
            }
        }
        self.truth_under[&key]
    }

    fn next(&mut self) -> Option<Event<'a>> {
        loop {
            let (list, i, level, _) = self.frames.last_mut()?;
            if *i == list.len() {
                let (_, _, level, close) = self.frames.pop()?;
                if let Some(node) = close {
                    return Some(Event::Close { node, level });
                }
                continue;
            }
            let n: &'a Node = &list[*i];
            *i += 1;
            let level = *level;
            self.visits += 1;
            if self.visits > MAX_VISITS || self.shown >= MAX_SHOWN {
                self.cut = true;
                return self.close_all();
            }
            if !is_truth(n) {
                if self.has_truth(n) {
                    self.frames.push((&n.children[..], 0, level, None));
                }
                continue;
            }
            self.shown += 1;
            let bottom = level + 1 >= self.depth;
            let deeper = bottom && n.children.iter().any(|c| self.has_truth(c));
            if !bottom {
                self.frames.push((&n.children[..], 0, level + 1, Some(n)));
            }
            return Some(Event::Open {
                node: n,
                level,
                bottom,
                deeper,
            });
        }
    }

    /// After a cut: the steps left open are closed, innermost first.
    fn close_all(&mut self) -> Option<Event<'a>> {
        while let Some((_, _, level, close)) = self.frames.pop() {
            if let Some(node) = close {
                return Some(Event::Close { node, level });
            }
        }
        None
    }
}

fn place(n: &Node, sources: &SourceMap) -> Option<(String, usize, usize)> {
    match n.span {
        Some(s) if s != Span::default() => {
            let (l, c) = sources.line_col(s.file, s.start);
            let name = sources.get(s.file).map(|f| f.name.as_str()).unwrap_or("?");
            Some((name.to_string(), l, c))
        }
        _ => None,
    }
}

/// Render a tree as indented text, `depth` levels deep (the root is the query itself: its
/// children are shown).
pub fn render(node: &Node, prog: &crate::check::Program, depth: usize) -> String {
    let mut out = String::new();
    let mut walk = Walk::new(node, depth);
    while let Some(ev) = walk.next() {
        match ev {
            Event::Open {
                node: n,
                level,
                bottom,
                deeper,
            } => {
                let indent = indent(level);
                let value = match &n.value {
                    Some(v) => format!(" = {}", crate::natives::show(prog, v, 100)),
                    None => String::new(),
                };
                let place = match place(n, &prog.sources) {
                    Some((name, l, c)) => format!("    [{name}:{l}:{c}]"),
                    None => String::new(),
                };
                let _ = writeln!(out, "{indent}{}{value}{place}", n.text);
                if bottom && deeper {
                    let _ = writeln!(out, "{indent}  … (deeper steps not shown; raise --depth)");
                }
            }
            Event::Close { node: n, level } => {
                if n.elided > 0 && !walk.cut {
                    let indent = indent(level);
                    let _ = writeln!(out, "{indent}  … and {} more", n.elided);
                }
            }
        }
    }
    if walk.cut {
        let _ = writeln!(out, "{}", cut_note(&walk));
    }
    out
}

/// Levels indented two spaces each; past them, the level is written as a number.
const MAX_INDENT: usize = 32;

/// The indentation of a step at `level`: the width of a line is bounded however deep the proof.
fn indent(level: usize) -> String {
    if level <= MAX_INDENT {
        "  ".repeat(level)
    } else {
        format!("{}[{level}] ", "  ".repeat(MAX_INDENT))
    }
}

fn cut_note(walk: &Walk) -> String {
    format!(
        "… (the explanation is cut after {} steps shown and {} visited; ask for a smaller --depth)",
        walk.shown, walk.visits
    )
}

/// The tree as JSON, the same steps [`render`] shows: each `{"text", "value", "place",
/// "children", "elided", "deeper"}` (`deeper`: steps below `depth` left out). The second part
/// is whether the steps shown were cut by [`MAX_SHOWN`] or [`MAX_VISITS`].
pub fn render_json(node: &Node, prog: &crate::check::Program, depth: usize) -> (String, bool) {
    let js = crate::json::string;
    let mut out = String::from("[");
    // for each list open: whether it has an item yet
    let mut started = vec![false];
    let mut walk = Walk::new(node, depth);
    while let Some(ev) = walk.next() {
        match ev {
            Event::Open {
                node: n,
                bottom,
                deeper,
                ..
            } => {
                if let Some(s) = started.last_mut() {
                    if *s {
                        out.push_str(", ");
                    }
                    *s = true;
                }
                let value = match &n.value {
                    Some(v) => js(&crate::natives::show(prog, v, 100)),
                    None => "null".into(),
                };
                let place = match place(n, &prog.sources) {
                    Some((name, l, c)) => js(&format!("{name}:{l}:{c}")),
                    None => "null".into(),
                };
                let _ = write!(
                    out,
                    "{{\"text\": {}, \"value\": {value}, \"place\": {place}, \"children\": [",
                    js(&n.text)
                );
                if bottom {
                    let _ = write!(out, "], \"elided\": {}, \"deeper\": {deeper}}}", n.elided);
                } else {
                    started.push(false);
                }
            }
            Event::Close { node: n, .. } => {
                started.pop();
                let _ = write!(out, "], \"elided\": {}, \"deeper\": false}}", n.elided);
            }
        }
    }
    out.push(']');
    (out, walk.cut)
}

fn is_truth(n: &Node) -> bool {
    matches!(n.value, Some(Value::Bool(_)))
}
