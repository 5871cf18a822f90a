//! The bridge between rule-level Go (rules/go.rule) and the native engine.
//!
//! In the rules a graph is a map from each vertex (1, 2, ..., n) to its set of neighbours, and a
//! configuration a map from each vertex to -1 (black), 0 (empty) or 1 (white). Native vertex i is
//! rule vertex i + 1.

use super::registry::Natives;
use crate::go::board::{Board, Color};
use crate::go::graph::Graph;
use crate::ir::Value;
use std::collections::{BTreeMap, BTreeSet};

/// The rule-level map of a native graph.
pub fn graph_value(g: &Graph) -> Value {
    let mut m = BTreeMap::new();
    for v in 0..g.n {
        let ns: BTreeSet<Value> = g.adjacency[v]
            .iter()
            .map(|w| Value::Int(w as i64 + 1))
            .collect();
        m.insert(Value::Int(v as i64 + 1), Value::set(ns));
    }
    Value::map(m)
}

/// The native graph of a rule-level map.
pub fn native_graph(v: &Value) -> Result<Graph, String> {
    let Value::Map(m) = v else {
        return Err(format!(
            "a graph is a map from vertices to neighbour sets, not {}",
            v.type_desc()
        ));
    };
    let n = m.len();
    let index = |x: &Value| -> Result<usize, String> {
        match x {
            Value::Int(i) if *i >= 1 && (*i as usize) <= n => Ok(*i as usize - 1),
            _ => Err(format!(
                "the native engine numbers vertices 1..{n}; {x} is not one of them"
            )),
        }
    };
    let mut edges = vec![];
    for (k, ns) in m.iter() {
        let a = index(k)?;
        let Value::Set(ns) = ns else {
            return Err(format!("the neighbours of {k} are not a set"));
        };
        for w in ns.iter() {
            let b = index(w)?;
            if a == b {
                return Err(format!(
                    "vertex {k} is its own neighbour: a Go graph is simple (no loops)"
                ));
            }
            let back = match m.get(w) {
                Some(Value::Set(ws)) => ws.contains(k),
                _ => false,
            };
            if !back {
                return Err(format!(
                    "{w} is a neighbour of {k} but {k} is not a neighbour of {w}: the edges of a graph go both ways"
                ));
            }
            if a < b {
                edges.push((a, b));
            }
        }
    }
    let names = (1..=n).map(|i| i.to_string()).collect();
    // graphs with an isolated vertex are fine for the rules; the engine wants connected graphs
    // for play but these functions need only the adjacency
    match Graph::from_edges(names, &edges) {
        Ok(g) => Ok(g),
        Err(e) => Err(e.message),
    }
}

/// The board of a rule-level configuration (a map from the vertices 1..n to -1, 0, 1).
pub fn board(g: &Graph, c: &Value) -> Result<Board, String> {
    let Value::Map(m) = c else {
        return Err(format!(
            "a configuration is a map from vertices to -1, 0, 1, not {}",
            c.type_desc()
        ));
    };
    let mut vals = vec![0i8; g.n];
    for (k, v) in m.iter() {
        let (Value::Int(i), Value::Int(x)) = (k, v) else {
            return Err("a configuration maps vertices to -1, 0 or 1".into());
        };
        if *i < 1 || *i as usize > g.n || !(-1..=1).contains(x) {
            return Err(format!("{k}: {v} is not a vertex with a colour"));
        }
        vals[*i as usize - 1] = *x as i8;
    }
    Ok(Board::from_values(&vals))
}

pub fn config_value(g: &Graph, b: &Board) -> Value {
    Value::map(
        b.values(g.n)
            .iter()
            .enumerate()
            .map(|(i, x)| (Value::Int(i as i64 + 1), Value::Int(*x as i64)))
            .collect(),
    )
}

pub fn register(h: &mut Natives) {
    register_life(h);
    register_judge(h);
    h.add(
        "go.graph",
        1,
        "graph(spec): the graph of grid:MxN, path:N, cycle:N, complete:N or star:N",
        |_, a| {
            let Value::Str(spec) = &a[0] else {
                return Err("graph takes a string such as \"grid:3x3\"".into());
            };
            if spec.starts_with("edges:") {
                return Err(
                    "edge-list files are read by the command line (--graph edges:FILE)".into(),
                );
            }
            let g = Graph::parse(spec).map_err(|e| e.message)?;
            Ok(graph_value(&g))
        },
    );
    h.add(
        "go.is_board",
        2,
        "is_board(G, c): every stone of c has a liberty",
        |_, a| {
            let g = native_graph(&a[0])?;
            Ok(Value::Bool(board(&g, &a[1])?.is_board(&g)))
        },
    );
    h.add(
        "go.winner",
        3,
        "winner(G, c, h2): 1 if White wins the final board c with komi h = h2/2 (pure Go: s >= h, seed 002), else -1",
        |_, a| {
            let g = native_graph(&a[0])?;
            let b = board(&g, &a[1])?;
            // a final board gives every vertex its colour, as the rules ask
            if matches!(&a[1], Value::Map(m) if m.len() != g.n) {
                return Err(
                    "a board maps each vertex of the graph to -1 (black), 0 (empty) or 1 (white)"
                        .into(),
                );
            }
            Ok(winner_value(b.pure_score(), half_points(&a[2])?))
        },
    );
    h.add(
        "go.next_boards",
        2,
        "next_boards(G, c): the boards one stone of either colour away (suicide forbidden)",
        |_, a| {
            let g = native_graph(&a[0])?;
            let b = board(&g, &a[1])?;
            let mut out = BTreeSet::new();
            for v in 0..g.n {
                for c in [Color::Black, Color::White] {
                    if let Ok((nb, _)) = b.play(&g, v, c, false) {
                        out.insert(config_value(&g, &nb));
                    }
                }
            }
            Ok(Value::set(out))
        },
    );
}

/// The boards of a rule-level sequence of configurations.
fn boards_of(g: &Graph, r: &Value) -> Result<Vec<Board>, String> {
    let Value::Seq(items) = r else {
        return Err(format!(
            "a regular sequence is a sequence of configurations, not {}",
            r.type_desc()
        ));
    };
    items.iter().map(|c| board(g, c)).collect()
}

/// A komi in half points as the seed writes it (h2 = 2h), within the bounds of the engine.
fn half_points(v: &Value) -> Result<i64, String> {
    match v {
        Value::Int(h2) if h2.unsigned_abs() <= 2_000_000_000_000_000 => Ok(*h2),
        Value::Int(h2) => Err(format!(
            "komi {h2} half points is beyond the engine's bound of 2e18"
        )),
        other => Err(format!(
            "a komi is a number of half points, not {}",
            other.type_desc()
        )),
    }
}

/// 1 for a win of White, -1 for Black: White wins with `2 * score >= h2` (seed 002).
fn winner_value(score: i64, h2: i64) -> Value {
    let rules = crate::go::rules::Rules {
        komi_half_points: -h2,
        ..crate::go::rules::Rules::seed()
    };
    Value::Int(match rules.winner(score) {
        Color::White => 1,
        Color::Black => -1,
    })
}

/// The classes of every vertex after r, or of vertex `only` (a native index).
fn native_classes(
    ctx: &super::registry::NativeCtx,
    g: &Value,
    r: &Value,
    only: Option<usize>,
) -> Result<Vec<Value>, String> {
    let g = native_graph(g)?;
    let seq = boards_of(&g, r)?;
    let classes = crate::go::life::cached_classes(&g, &seq, only).map_err(|e| e.message)?;
    classes
        .iter()
        .map(|k| ctx.enum_value("Class", k.rule_name()))
        .collect()
}

#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given; the collection was checked to hold exactly one"
)]
pub fn register_life(h: &mut Natives) {
    h.add(
        "go.classes",
        2,
        "classes(G, r): the outcome class of every vertex after the regular sequence r (seed 004)",
        |ctx, a| Ok(Value::seq(native_classes(ctx, &a[0], &a[1], None)?)),
    );
    h.add(
        "go.chinese_winner",
        3,
        "chinese_winner(G, r, h2): 1 if White wins the Chinese-terminable sequence r with komi h = h2/2 (s_c >= h, seed 004), else -1",
        |_, a| {
            let g = native_graph(&a[0])?;
            let seq = boards_of(&g, &a[1])?;
            let h2 = half_points(&a[2])?;
            let classes =
                crate::go::life::cached_classes(&g, &seq, None).map_err(|e| e.message)?;
            let last = seq.last().expect("a regular sequence has a board");
            let score = crate::go::life::chinese_score(&g, last, &classes).ok_or(
                "the Chinese score is defined only for Chinese-terminable sequences (seed 004), and this one is not",
            )?;
            Ok(winner_value(score, h2))
        },
    );
    h.add(
        "go.outcome",
        3,
        "outcome(G, r, v): the outcome class of v after the regular sequence r (seed 004)",
        |ctx, a| {
            let Value::Int(v) = a[2] else {
                return Err(format!("a vertex is a number, not {}", a[2].type_desc()));
            };
            let i = v
                .checked_sub(1)
                .and_then(|i| usize::try_from(i).ok())
                .ok_or_else(|| format!("{v} is not a vertex"))?;
            let mut one = native_classes(ctx, &a[0], &a[1], Some(i))?;
            Ok(one.pop().expect("one class"))
        },
    );
}

/// The plays of a record: a sequence of (colour, vertex) pairs, vertex 0 a pass.
fn plays_of(g: &Graph, ms: &Value) -> Result<Vec<crate::go::judge::Play>, String> {
    let Value::Seq(items) = ms else {
        return Err(format!(
            "a record's plays are a sequence of (colour, vertex), not {}",
            ms.type_desc()
        ));
    };
    items
        .iter()
        .map(|p| match p {
            Value::Tuple(t) if t.len() == 2 => {
                let c = match t[0] {
                    Value::Int(-1) => Color::Black,
                    Value::Int(1) => Color::White,
                    _ => return Err(format!("{} is not a colour (-1 or 1)", t[0])),
                };
                match t[1] {
                    Value::Int(0) => Ok((c, None)),
                    Value::Int(v) if v >= 1 && v as usize <= g.n => Ok((c, Some(v as usize - 1))),
                    _ => Err(format!("{} is not a vertex of the graph or 0", t[1])),
                }
            }
            other => Err(format!("a play is a (colour, vertex) pair, not {other}")),
        })
        .collect()
}

fn ko_rule_of(v: &Value) -> Result<crate::go::judge::KoRule, String> {
    use crate::go::judge::KoRule;
    match v {
        Value::Enum(e) => match &*e.name {
            "ko_simple" => Ok(KoRule::Simple),
            "ko_positional" => Ok(KoRule::Positional),
            "ko_situational" => Ok(KoRule::Situational),
            other => Err(format!("`{other}` is not a ko rule")),
        },
        other => Err(format!("a ko rule is a KoRule, not {}", other.type_desc())),
    }
}

fn bool_of(v: &Value) -> Result<bool, String> {
    match v {
        Value::Bool(b) => Ok(*b),
        other => Err(format!("expected a Bool, not {}", other.type_desc())),
    }
}

pub fn register_judge(h: &mut Natives) {
    use crate::go::judge;
    h.add(
        "go.record_boards",
        3,
        "record_boards(G, c0, ms): the boards of a record's plays from c0 (captures, then the mover's own chain)",
        |_, a| {
            let g = native_graph(&a[0])?;
            let c0 = board(&g, &a[1])?;
            let plays = plays_of(&g, &a[2])?;
            let h = judge::record_boards(&g, &c0, &plays)
                .map_err(|i| format!("play {} is on an occupied point", i + 1))?;
            Ok(Value::seq(h.iter().map(|b| config_value(&g, b)).collect()))
        },
    );
    h.add(
        "go.first_stop",
        5,
        "first_stop(G, h, ms, k, sui): the first play a ko rule or the suicide rule forbids (or a cycle under simple ko), and why",
        |_, a| {
            let g = native_graph(&a[0])?;
            let hist = boards_of(&g, &a[1])?;
            let plays = plays_of(&g, &a[2])?;
            // the rules read h[1] to h[len(ms) + 1]
            if hist.len() < plays.len() + 1 {
                return Err(format!(
                    "{} boards for {} plays: h is record_boards of the plays",
                    hist.len(),
                    plays.len()
                ));
            }
            let (i, why) =
                judge::first_stop(&hist, &plays, ko_rule_of(&a[3])?, bool_of(&a[4])?);
            Ok(Value::tuple(vec![Value::Int(i as i64), Value::str(why)]))
        },
    );
    h.add(
        "go.dame_filled",
        2,
        "dame_filled(G, c): the board with its dame filled as the confirmation stage fills them (a seki's shared liberties left open)",
        |_, a| {
            let g = native_graph(&a[0])?;
            let b = board(&g, &a[1])?;
            Ok(config_value(&g, &judge::dame_filled(&g, &b)))
        },
    );
    h.add(
        "go.empty_points",
        4,
        "empty_points(G, c, d, seki): the surrounded points of c, White's minus Black's (seki false: not the eyes of stones touching a dame on d)",
        |_, a| {
            let g = native_graph(&a[0])?;
            let b = board(&g, &a[1])?;
            let d = board(&g, &a[2])?;
            if [Color::Black, Color::White]
                .iter()
                .any(|&s| !b.stones(s).minus(d.stones(s)).is_empty())
            {
                return Err("the board the dame are read on keeps every stone of the board counted".into());
            }
            Ok(Value::Int(judge::empty_points(&g, &b, &d, bool_of(&a[3])?)))
        },
    );
}
