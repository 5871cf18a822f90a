//! Sequences written as moves: "B 1, W 2".

use super::*;

/// The boards of a move list "B v, W w, ..." (vertex names as the graph prints them) played from
/// the empty board as a regular sequence: suicide forbidden, no board repeated.
pub fn sequence_from_moves(g: &Graph, moves: &str) -> GoResult<Vec<Board>> {
    sequence_from_moves_with(g, moves, false)
}

/// A move of a move list: its colour, its vertex, and where it is written in the list.
pub struct ListedMove {
    pub color: Color,
    pub vertex: usize,
    /// The byte offset of the move in the list, and the move as written.
    pub at: usize,
    pub text: String,
}

/// The moves of a move list "B v, W w, ..." (vertex names as the graph prints them), read but
/// not played.
pub fn parse_moves(g: &Graph, moves: &str) -> GoResult<Vec<ListedMove>> {
    let mut out = vec![];
    let mut offset = 0usize;
    for raw in moves.split(',') {
        let start = offset + (raw.len() - raw.trim_start().len());
        offset += raw.len() + 1;
        let part = raw.trim();
        if part.is_empty() {
            continue;
        }
        let err = |msg: String, help: &str| GoError::at(moves, start, msg, help.to_string());
        let mut it = part.split_whitespace();
        let color = match it.next() {
            Some("B") | Some("b") => Color::Black,
            Some("W") | Some("w") => Color::White,
            _ => {
                return Err(err(
                    format!("bad move `{part}`"),
                    "a move is `B v` or `W v`",
                ))
            }
        };
        let (Some(name), None) = (it.next(), it.next()) else {
            return Err(err(
                format!("bad move `{part}`"),
                "a move is a colour and one vertex name, e.g. `B 1`",
            ));
        };
        let Some(v) = g.vertex(name) else {
            return Err(err(
                format!("`{name}` is not a vertex of the graph"),
                "`okite go show --graph G` lists the vertex names",
            ));
        };
        out.push(ListedMove {
            color,
            vertex: v,
            at: start,
            text: part.to_string(),
        });
    }
    Ok(out)
}

/// [`sequence_from_moves`], with suicide allowed or not (the reading `suicide` of go.rule: the
/// mover's own chains left without liberties are removed).
pub fn sequence_from_moves_with(g: &Graph, moves: &str, suicide: bool) -> GoResult<Vec<Board>> {
    let mut b = Board::empty();
    let mut seq = vec![b];
    for m in parse_moves(g, moves)? {
        let part = &m.text;
        let err = |msg: String, help: &str| GoError::at(moves, m.at, msg, help.to_string());
        match b.play(g, m.vertex, m.color, suicide) {
            Ok((nb, _)) if seq.contains(&nb) => {
                return Err(err(
                    format!("illegal move `{part}`: it repeats an earlier board"),
                    "a regular sequence never repeats a board (positional superko)",
                ))
            }
            Ok((nb, _)) => {
                b = nb;
                seq.push(b);
            }
            Err(e) => {
                let help = if suicide {
                    "play on an empty point; a lone stone without a liberty is no move even where suicide is allowed"
                } else {
                    "play on an empty point where the stone keeps a liberty"
                };
                return Err(err(format!("illegal move `{part}`: {e}"), help));
            }
        }
    }
    Ok(seq)
}
