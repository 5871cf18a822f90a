//! Board graphs: finite, connected, simple graphs with named vertices.
//!
//! Spec strings: `grid:MxN` (M rows, N columns, vertices row by row from the top),
//! `path:N`, `cycle:N` (N >= 3), `complete:N`, `star:N` (a centre and N leaves),
//! `edges:FILE` (an edge-list file, see [`Graph::from_edge_list`]).
//!
//! An edge list is a simple graph as written: a self-loop or an edge written twice is refused,
//! naming its line (errors of an edge-list file give the file, line and column). Graphs built
//! from edges in code ignore loops and duplicates, recording each in [`Graph::notes`].

use super::bitset::{BitSet, MAX_VERTICES};
use super::error::{GoError, GoResult};
use std::collections::HashMap;

/// Column letters used for grid coordinates (no `I`, as on Go boards).
pub const COLUMN_LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A board graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    /// Number of vertices.
    pub n: usize,
    /// Neighbour set of each vertex.
    pub adjacency: Vec<BitSet>,
    /// Vertex names (unique).
    pub names: Vec<String>,
    /// `Some((rows, cols))` for grids; vertex `r * cols + c`.
    pub grid: Option<(usize, usize)>,
    /// Remarks made while building (ignored loops or duplicate edges).
    pub notes: Vec<String>,
}

fn too_large(n: usize) -> GoError {
    GoError::new(
        format!("graph has {n} vertices, more than the supported {MAX_VERTICES}"),
        format!("use a graph with at most {MAX_VERTICES} vertices"),
    )
}

impl Graph {
    /// Builds a graph from a vertex count, names and an edge list, checking that it is
    /// non-empty, small enough and connected. Loops and duplicate edges are ignored with a note.
    pub fn from_edges(names: Vec<String>, edges: &[(usize, usize)]) -> GoResult<Graph> {
        let n = names.len();
        if n == 0 {
            return Err(GoError::new(
                "graph has no vertices",
                "a board graph needs at least one vertex",
            ));
        }
        if n > MAX_VERTICES {
            return Err(too_large(n));
        }
        let mut adjacency = vec![BitSet::EMPTY; n];
        let mut notes = Vec::new();
        for &(u, v) in edges {
            if u >= n || v >= n {
                return Err(GoError::new(
                    format!("edge {u}-{v} names a vertex outside 0..{n}"),
                    "vertex indices must be below the vertex count",
                ));
            }
            if u == v {
                notes.push(format!("ignored self-loop at {}", names[u]));
                continue;
            }
            if adjacency[u].contains(v) {
                notes.push(format!("ignored duplicate edge {} {}", names[u], names[v]));
                continue;
            }
            adjacency[u].insert(v);
            adjacency[v].insert(u);
        }
        let g = Graph {
            n,
            adjacency,
            names,
            grid: None,
            notes,
        };
        g.check_connected()?;
        Ok(g)
    }

    fn check_connected(&self) -> GoResult<()> {
        let comp = self.component(0, &BitSet::full(self.n));
        if comp.len() != self.n {
            let missing = BitSet::full(self.n).minus(&comp);
            let example = missing.first().map(|v| self.names[v].clone());
            return Err(GoError::new(
                format!(
                    "graph is disconnected: {} of {} vertices are not reachable from {} (e.g. {})",
                    missing.len(),
                    self.n,
                    self.names[0],
                    example.unwrap_or_default()
                ),
                "components of a board graph play independently; use one connected graph",
            ));
        }
        Ok(())
    }

    /// The connected component of `start` inside `within` (empty if start is not in it).
    pub fn component(&self, start: usize, within: &BitSet) -> BitSet {
        if !within.contains(start) {
            return BitSet::EMPTY;
        }
        let mut seen = BitSet::single(start);
        let mut stack = vec![start];
        while let Some(v) = stack.pop() {
            for w in self.adjacency[v].and(within).minus(&seen).iter() {
                seen.insert(w);
                stack.push(w);
            }
        }
        seen
    }

    /// Union of the neighbour sets of the vertices of `s`.
    pub fn neighbours_of(&self, s: &BitSet) -> BitSet {
        let mut r = BitSet::EMPTY;
        for v in s.iter() {
            r = r.or(&self.adjacency[v]);
        }
        r
    }

    /// Number of edges.
    pub fn edge_count(&self) -> usize {
        self.adjacency.iter().map(|a| a.len()).sum::<usize>() / 2
    }

    /// All edges `(u, v)` with `u < v`.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut e = Vec::new();
        for u in 0..self.n {
            for v in self.adjacency[u].iter() {
                if u < v {
                    e.push((u, v));
                }
            }
        }
        e
    }

    /// Index of the vertex with this name.
    pub fn vertex(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|x| x == name)
    }

    /// Name of a grid vertex: column letter and row number counted from the bottom (`A1` is the
    /// bottom-left corner), or `rXcY` (1-based, from the top) for grids wider than 25 columns.
    pub fn grid_name(rows: usize, cols: usize, r: usize, c: usize) -> String {
        if cols <= COLUMN_LETTERS.len() {
            format!("{}{}", COLUMN_LETTERS[c] as char, rows - r)
        } else {
            format!("r{}c{}", r + 1, c + 1)
        }
    }

    /// The `rows x cols` grid.
    pub fn grid(rows: usize, cols: usize) -> GoResult<Graph> {
        if rows == 0 || cols == 0 {
            return Err(GoError::new(
                format!("grid {rows}x{cols} has no vertices"),
                "both dimensions must be at least 1, e.g. grid:9x9",
            ));
        }
        let n = rows.saturating_mul(cols);
        if n > MAX_VERTICES {
            return Err(too_large(n));
        }
        let mut names = Vec::with_capacity(n);
        let mut edges = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                names.push(Graph::grid_name(rows, cols, r, c));
                let v = r * cols + c;
                if c + 1 < cols {
                    edges.push((v, v + 1));
                }
                if r + 1 < rows {
                    edges.push((v, v + cols));
                }
            }
        }
        let mut g = Graph::from_edges(names, &edges)?;
        g.grid = Some((rows, cols));
        Ok(g)
    }

    /// Path with n vertices `0..n-1`.
    pub fn path(n: usize) -> GoResult<Graph> {
        Self::check_count(n, "path")?;
        let edges: Vec<_> = (1..n).map(|i| (i - 1, i)).collect();
        Graph::from_edges(Self::numbered(n), &edges)
    }

    /// Cycle with n >= 3 vertices.
    pub fn cycle(n: usize) -> GoResult<Graph> {
        Self::check_count(n, "cycle")?;
        if n < 3 {
            return Err(GoError::new(
                format!("cycle:{n} is not a simple graph"),
                "a cycle needs at least 3 vertices; use path:1 or path:2 instead",
            ));
        }
        let mut edges: Vec<_> = (1..n).map(|i| (i - 1, i)).collect();
        edges.push((n - 1, 0));
        Graph::from_edges(Self::numbered(n), &edges)
    }

    /// Complete graph on n vertices.
    pub fn complete(n: usize) -> GoResult<Graph> {
        Self::check_count(n, "complete")?;
        let mut edges = Vec::new();
        for u in 0..n {
            for v in u + 1..n {
                edges.push((u, v));
            }
        }
        Graph::from_edges(Self::numbered(n), &edges)
    }

    /// Star: centre `c` (vertex 0) and leaves `1..=leaves`.
    pub fn star(leaves: usize) -> GoResult<Graph> {
        if leaves + 1 > MAX_VERTICES {
            return Err(too_large(leaves.saturating_add(1)));
        }
        let mut names = vec!["c".to_string()];
        names.extend((1..=leaves).map(|i| i.to_string()));
        let edges: Vec<_> = (1..=leaves).map(|i| (0, i)).collect();
        Graph::from_edges(names, &edges)
    }

    fn check_count(n: usize, family: &str) -> GoResult<()> {
        if n == 0 {
            return Err(GoError::new(
                format!("{family}:0 has no vertices"),
                format!("use {family}:N with N >= 1"),
            ));
        }
        if n > MAX_VERTICES {
            return Err(too_large(n));
        }
        Ok(())
    }

    /// Vertex names 1..n, as the rule files number vertices.
    fn numbered(n: usize) -> Vec<String> {
        (1..=n).map(|i| i.to_string()).collect()
    }

    /// Parses an edge list: one edge `u v` per line, names are arbitrary tokens without
    /// whitespace, `#` starts a comment, and a line `vertices a b c ...` declares vertices
    /// (fixing their order; vertices otherwise get indices in order of first appearance).
    pub fn from_edge_list(text: &str) -> GoResult<Graph> {
        let mut index: HashMap<String, usize> = HashMap::new();
        let mut names: Vec<String> = Vec::new();
        let mut edges = Vec::new();
        // the line (1-based) of each edge written, to name the first one of a duplicate
        let mut written: HashMap<(usize, usize), usize> = HashMap::new();
        let mut line_start = 0usize;
        for (line_no, line) in text.split('\n').enumerate() {
            let content = match line.find('#') {
                Some(p) => &line[..p],
                None => line,
            };
            let mut tokens: Vec<(usize, &str)> = Vec::new();
            let mut pos = 0;
            for tok in content.split(|c: char| c.is_whitespace()) {
                if !tok.is_empty() {
                    tokens.push((line_start + pos, tok));
                }
                pos += tok.len() + 1;
            }
            let mut intern = |name: &str, off: usize| -> GoResult<usize> {
                if let Some(&i) = index.get(name) {
                    return Ok(i);
                }
                if names.len() >= MAX_VERTICES {
                    return Err(GoError::at(
                        text,
                        off,
                        format!("more than {MAX_VERTICES} vertices"),
                        format!("a board graph may have at most {MAX_VERTICES} vertices"),
                    ));
                }
                index.insert(name.to_string(), names.len());
                names.push(name.to_string());
                Ok(names.len() - 1)
            };
            if let Some(&(_, first)) = tokens.first() {
                if first == "vertices" {
                    for &(off, t) in &tokens[1..] {
                        intern(t, off)?;
                    }
                } else if tokens.len() == 2 {
                    let u = intern(tokens[0].1, tokens[0].0)?;
                    let v = intern(tokens[1].1, tokens[1].0)?;
                    if u == v {
                        return Err(GoError::at(
                            text,
                            tokens[0].0,
                            format!("a self-loop `{} {}`", tokens[0].1, tokens[1].1),
                            "a board graph is simple: an edge joins two different vertices",
                        ));
                    }
                    if let Some(first) = written.insert((u.min(v), u.max(v)), line_no + 1) {
                        return Err(GoError::at(
                            text,
                            tokens[0].0,
                            format!(
                                "the edge `{} {}` is written twice (first on line {first})",
                                tokens[0].1, tokens[1].1
                            ),
                            "a board graph is simple: write each edge once",
                        ));
                    }
                    edges.push((u, v));
                } else {
                    return Err(GoError::at(
                        text,
                        tokens[0].0,
                        format!("expected an edge `u v`, found {} token(s)", tokens.len()),
                        "write one edge per line as two vertex names; declare isolated \
                         vertices with a line `vertices a b c`",
                    ));
                }
            }
            line_start += line.len() + 1;
        }
        if names.is_empty() {
            return Err(GoError::new(
                "edge list declares no vertices",
                "write edges as `u v` lines, or `vertices a` for a single vertex",
            ));
        }
        Graph::from_edges(names, &edges)
    }

    /// Parses a graph spec string (see the module documentation). `edges:FILE` reads FILE.
    pub fn parse(spec: &str) -> GoResult<Graph> {
        let spec_t = spec.trim();
        let Some((family, arg)) = spec_t.split_once(':') else {
            return Err(GoError::at(
                spec,
                0,
                format!("graph spec `{spec_t}` has no `family:` prefix"),
                "use grid:MxN, path:N, cycle:N, complete:N, star:N or edges:FILE",
            ));
        };
        let arg_off = spec.len() - spec.trim_start().len() + family.len() + 1;
        let number = |s: &str, off: usize| -> GoResult<usize> {
            s.trim().parse::<usize>().map_err(|_| {
                GoError::at(
                    spec,
                    off,
                    format!("`{s}` is not a vertex count"),
                    "write a non-negative decimal number, e.g. grid:9x9 or path:5",
                )
            })
        };
        match family.trim() {
            "grid" => {
                let Some((m, n)) = arg.split_once(['x', 'X']) else {
                    return Err(GoError::at(
                        spec,
                        arg_off,
                        format!("grid size `{arg}` is not of the form MxN"),
                        "write grid:MxN, e.g. grid:9x9 or grid:3x5",
                    ));
                };
                let rows = number(m, arg_off)?;
                let cols = number(n, arg_off + m.len() + 1)?;
                Graph::grid(rows, cols).map_err(|mut e| {
                    e.span = Some(super::error::Span::at(spec, arg_off));
                    e
                })
            }
            "path" => Graph::path(number(arg, arg_off)?),
            "cycle" => Graph::cycle(number(arg, arg_off)?),
            "complete" => Graph::complete(number(arg, arg_off)?),
            "star" => Graph::star(number(arg, arg_off)?),
            "edges" => {
                let file = arg.trim();
                let text = read_edge_file(file).map_err(|e| {
                    GoError::at(
                        spec,
                        arg_off,
                        format!("cannot read edge-list file `{file}`: {e}"),
                        "give the path of a readable text file",
                    )
                })?;
                // an error inside the file names its line and column there; the span is moved
                // onto the file's name in the spec
                Graph::from_edge_list(&text).map_err(|mut e| {
                    e.message = match &e.span {
                        Some(sp) => format!("{file}:{}:{}: {}", sp.line, sp.column, e.message),
                        None => format!("{file}: {}", e.message),
                    };
                    e.span = Some(super::error::Span::at(spec, arg_off));
                    e
                })
            }
            other => Err(GoError::at(
                spec,
                0,
                format!("unknown graph family `{other}`"),
                "use grid:MxN, path:N, cycle:N, complete:N, star:N or edges:FILE",
            )),
        }
    }
}

/// The largest edge-list file read (a graph of this engine has at most a few thousand edges).
const MAX_EDGE_FILE_BYTES: u64 = 16 << 20;

/// An edge-list file's text: a regular file of at most [`MAX_EDGE_FILE_BYTES`], checked before
/// and while reading (a device, a FIFO or a file that grows is refused, never read without end).
fn read_edge_file(file: &str) -> Result<String, String> {
    use crate::files::ReadError;
    let bytes = crate::files::read_regular(std::path::Path::new(file), MAX_EDGE_FILE_BYTES)
        .map_err(|e| match e {
            ReadError::Io(e) => e.to_string(),
            ReadError::NotRegular => "it is not a regular file".into(),
            ReadError::TooBig => format!("it is larger than {} MiB", MAX_EDGE_FILE_BYTES >> 20),
        })?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families() {
        let g = Graph::parse("grid:3x4").unwrap();
        assert_eq!((g.n, g.edge_count(), g.grid), (12, 17, Some((3, 4))));
        assert_eq!(g.names[0], "A3");
        assert_eq!(g.names[11], "D1");
        assert_eq!(Graph::parse("path:5").unwrap().edge_count(), 4);
        assert_eq!(Graph::parse("cycle:5").unwrap().edge_count(), 5);
        assert_eq!(Graph::parse("complete:5").unwrap().edge_count(), 10);
        let s = Graph::parse("star:4").unwrap();
        assert_eq!((s.n, s.edge_count()), (5, 4));
        assert_eq!(Graph::parse("grid:19x19").unwrap().n, 361);
        assert_eq!(Graph::parse(" path:1 ").unwrap().n, 1);
    }

    #[test]
    fn bad_specs() {
        for s in [
            "grid:0x3",
            "grid:ax3",
            "grid:3",
            "grid:3x",
            "hex:3",
            "path:0",
            "path:-1",
            "cycle:2",
            "",
            ":",
            "grid:20x20",
            "path:385",
            "star:99999999999999999999",
            "edges:/nonexistent",
            "grid:99999999999x99999999999",
            "complete:0",
        ] {
            let e = Graph::parse(s).unwrap_err();
            assert!(!e.message.is_empty() && !e.help.is_empty(), "{s}");
        }
        assert!(Graph::parse("grid:ax3").unwrap_err().span.is_some());
    }

    proptest::proptest! {
        /// An edge list is refused at its first self-loop or repeated edge, on that line; one
        /// without either is a graph with exactly its edges, or refused as disconnected.
        #[test]
        fn edge_lists_are_simple_or_refused_on_the_line(
            pairs in proptest::collection::vec((0u8..5, 0u8..5), 1..12),
            blank in 0usize..3,
        ) {
            let names = ["a", "b", "c", "d", "e"];
            let mut text = String::new();
            let mut first_bad: Option<usize> = None;
            let mut seen = std::collections::BTreeSet::new();
            let mut line = 0;
            for (i, &(u, v)) in pairs.iter().enumerate() {
                if i % 3 == blank {
                    text.push_str("# a comment\n");
                    line += 1;
                }
                line += 1;
                text.push_str(&format!("{} {}\n", names[u as usize], names[v as usize]));
                if first_bad.is_none() && (u == v || !seen.insert((u.min(v), u.max(v)))) {
                    first_bad = Some(line);
                }
            }
            match (Graph::from_edge_list(&text), first_bad) {
                (Err(e), Some(l)) => {
                    proptest::prop_assert_eq!(e.span.map(|s| s.line), Some(l), "{}", text);
                }
                (Ok(g), None) => proptest::prop_assert_eq!(g.edge_count(), seen.len()),
                (Err(e), None) => proptest::prop_assert!(e.message.contains("disconnected"), "{}", e),
                (Ok(_), Some(l)) => proptest::prop_assert!(false, "line {} is not refused:\n{}", l, text),
            }
        }
    }

    #[test]
    fn edge_lists() {
        let g = Graph::from_edge_list("# triangle\nvertices a b c\na b\nb c # x\nc a\n").unwrap();
        assert_eq!((g.n, g.edge_count(), g.notes.len()), (3, 3, 0));
        assert_eq!(g.vertex("c"), Some(2));
        // a self-loop and an edge written twice are refused on their line
        let e = Graph::from_edge_list("a b\nb c\n  b b\n").unwrap_err();
        assert_eq!(e.span.as_ref().map(|s| (s.line, s.column)), Some((3, 3)));
        assert!(e.message.contains("self-loop `b b`"), "{e}");
        let e = Graph::from_edge_list("a b\nb c\n\nc b\n").unwrap_err();
        assert_eq!(e.span.as_ref().unwrap().line, 4);
        assert!(e.message.contains("first on line 2"), "{e}");
        // built in code, loops and duplicates are noted and ignored
        let g = Graph::from_edges(vec!["a".into(), "b".into()], &[(0, 1), (1, 0), (1, 1)]).unwrap();
        assert_eq!((g.edge_count(), g.notes.len()), (1, 2));
        let e = Graph::from_edge_list("a b\nc\n").unwrap_err();
        assert_eq!(e.span.unwrap().line, 2);
        assert!(Graph::from_edge_list("a b\nc d\n")
            .unwrap_err()
            .message
            .contains("disconnected"));
        assert!(Graph::from_edge_list("# nothing\n").is_err());
        assert_eq!(Graph::from_edge_list("vertices x").unwrap().n, 1);
    }
}
