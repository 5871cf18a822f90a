//! Text diagrams and Graphviz output.

use super::board::Board;
use super::graph::{Graph, COLUMN_LETTERS};

fn symbol(b: &Board, v: usize) -> char {
    match b.get(v) {
        -1 => 'X',
        1 => 'O',
        _ => '.',
    }
}

/// One character for each vertex.
type Cell<'a> = &'a dyn Fn(usize) -> char;

/// Panels of one character per vertex: for grids, the panels side by side, each with row numbers
/// from the bottom and column letters; for other graphs, one line per vertex with its name, one
/// character of each panel and its neighbours.
fn panels(g: &Graph, cells: &[Cell]) -> String {
    let mut s = String::new();
    match g.grid {
        Some((rows, cols)) if cols <= COLUMN_LETTERS.len() => {
            let width = rows.to_string().len();
            let header: String = COLUMN_LETTERS[..cols]
                .iter()
                .map(|&c| format!(" {}", c as char))
                .collect();
            let line = |f: &dyn Fn(Cell) -> String| {
                cells.iter().map(|c| f(*c)).collect::<Vec<_>>().join("   ")
            };
            s.push_str(&line(&|_| format!("{:width$}{header}", "")));
            s.push('\n');
            for r in 0..rows {
                s.push_str(&line(&|cell| {
                    let row: String = (0..cols)
                        .map(|c| format!(" {}", cell(r * cols + c)))
                        .collect();
                    format!("{:>width$}{row}", rows - r)
                }));
                s.push('\n');
            }
        }
        _ => {
            for v in 0..g.n {
                let nb: Vec<&str> = g.adjacency[v].iter().map(|w| g.names[w].as_str()).collect();
                let marks: String = cells.iter().map(|c| format!(" {}", c(v))).collect();
                s.push_str(&format!("{}{marks} : {}\n", g.names[v], nb.join(" ")));
            }
        }
    }
    s
}

/// A diagram of a board: for grids, rows with `X` (black), `O` (white), `.` (empty), row
/// numbers from the bottom and column letters; for other graphs, one line per vertex with its
/// stone and neighbours.
pub fn diagram(g: &Graph, b: &Board) -> String {
    panels(g, &[&|v| symbol(b, v)])
}

/// The board and the outcome class of each vertex (one letter: B, W, N, P): for grids two
/// diagrams side by side, the stones on the left and the classes on the right; for other graphs
/// one line per vertex with its stone, its class and its neighbours.
pub fn classes_diagram(g: &Graph, b: &Board, classes: &[char]) -> String {
    let class = |v: usize| classes.get(v).copied().unwrap_or('?');
    panels(g, &[&|v| symbol(b, v), &class])
}

fn dot_id(name: &str) -> String {
    let escaped: String = name
        .chars()
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            '\n' => vec![' '],
            c => vec![c],
        })
        .collect();
    format!("\"{escaped}\"")
}

/// Graphviz `dot` text of the graph with the stones of a board (black and white fills; grids
/// get fixed positions).
pub fn dot(g: &Graph, b: &Board) -> String {
    let mut s = String::from("graph go {\n  node [shape=circle, style=filled, fontsize=10];\n");
    for v in 0..g.n {
        let (fill, font) = match b.get(v) {
            -1 => ("black", "white"),
            1 => ("white", "black"),
            _ => ("burlywood", "black"),
        };
        let pos = match g.grid {
            Some((rows, cols)) => format!(", pos=\"{},{}!\"", v % cols, rows - 1 - v / cols),
            None => String::new(),
        };
        s.push_str(&format!(
            "  {} [fillcolor={fill}, fontcolor={font}{pos}];\n",
            dot_id(&g.names[v])
        ));
    }
    for (u, v) in g.edges() {
        s.push_str(&format!(
            "  {} -- {};\n",
            dot_id(&g.names[u]),
            dot_id(&g.names[v])
        ));
    }
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_diagram() {
        let g = Graph::grid(2, 3).unwrap();
        let b = Board::from_values(&[-1, 0, 1, 0, 0, 0]);
        assert_eq!(diagram(&g, &b), "  A B C\n2 X . O\n1 . . .\n");
        let d = dot(&g, &b);
        assert!(d.contains("\"A2\" [fillcolor=black") && d.contains("\"A2\" -- \"B2\""));
    }

    #[test]
    fn graph_diagram() {
        let g = Graph::from_edge_list("a b\nb \"c\n").unwrap();
        let b = Board::from_values(&[0, 1, 0]);
        assert_eq!(diagram(&g, &b), "a . : b\nb O : a \"c\n\"c . : b\n");
        assert!(dot(&g, &b).contains("\"\\\"c\""));
    }
}
