//! SGF for grid boards: `SZ` (`SZ[n]` or `SZ[columns:rows]`), setup `AB`/`AW`/`AE` (single
//! points or `aa:cc` rectangles), moves `B`/`W`, passes (`B[]`, and `B[tt]` on boards of at
//! most 19x19), komi `KM`, handicap `HA`, result `RE`, rules `RU`, territory `TB`/`TW`. Only the
//! main line (first variation) is read; other properties are kept unread. Point `xy`: x =
//! column, y = row from the top, letters `a..z` then `A..Z`.

use super::bitset::BitSet;
use super::board::{Board, Color};
use super::error::{GoError, GoResult};
use super::graph::Graph;
use super::rules::{Game, Move, Rules};

/// A game record read from SGF.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfRecord {
    /// Rows of the grid.
    pub rows: usize,
    /// Columns of the grid.
    pub cols: usize,
    /// Setup position (after the setup properties of all nodes before the first move, and of
    /// the root).
    pub setup: Board,
    /// Moves of the main line, with the byte offset of each in the text.
    pub moves: Vec<(Color, Move, usize)>,
    /// Komi (`KM`), if given.
    pub komi: Option<f64>,
    /// Handicap (`HA`), if given as a number.
    pub handicap: Option<usize>,
    /// The stated result (`RE`) and the offset of its value in the text.
    pub result: Option<(String, usize)>,
    /// The rules named (`RU`).
    pub ruleset: Option<String>,
    /// Points marked as Black's and White's territory (`TB`, `TW`, every node of the main line).
    pub territory: (Vec<usize>, Vec<usize>),
    /// Points emptied by `AE` after the first move: the stones a scorer took off as dead.
    pub removed: Vec<usize>,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

type Prop = (String, Vec<(String, usize)>, usize);

impl<'a> Parser<'a> {
    fn err(&self, at: usize, msg: impl Into<String>, help: impl Into<String>) -> GoError {
        GoError::at(self.text, at, msg, help)
    }

    fn skip_ws(&mut self) {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Parses a game tree and returns the nodes of its main line.
    fn tree(&mut self, depth: usize) -> GoResult<Vec<Vec<Prop>>> {
        if depth > 500 {
            return Err(self.err(
                self.pos,
                "variations nested too deeply",
                "flatten the record",
            ));
        }
        self.skip_ws();
        if self.peek() != Some(b'(') {
            return Err(self.err(
                self.pos,
                "expected `(` starting a game tree",
                "an SGF record looks like (;SZ[9];B[cc])",
            ));
        }
        self.pos += 1;
        let mut nodes = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                Some(b';') => {
                    self.pos += 1;
                    nodes.push(self.node()?);
                }
                Some(b'(') => {
                    let main = self.tree(depth + 1)?;
                    nodes.extend(main);
                    // Skip the other variations.
                    loop {
                        self.skip_ws();
                        if self.peek() == Some(b'(') {
                            self.tree(depth + 1)?;
                        } else {
                            break;
                        }
                    }
                    self.skip_ws();
                    if self.peek() != Some(b')') {
                        return Err(self.err(
                            self.pos,
                            "expected `)` after the variations",
                            "close the game tree with `)`",
                        ));
                    }
                    self.pos += 1;
                    return Ok(nodes);
                }
                Some(b')') => {
                    self.pos += 1;
                    if nodes.is_empty() {
                        return Err(self.err(
                            self.pos - 1,
                            "game tree without nodes",
                            "write at least one node `;`",
                        ));
                    }
                    return Ok(nodes);
                }
                Some(_) => {
                    return Err(self.err(
                        self.pos,
                        "expected `;`, `(` or `)`",
                        "nodes start with `;`",
                    ));
                }
                None => {
                    return Err(self.err(
                        self.pos,
                        "unexpected end of text inside a game tree",
                        "close every `(` with `)`",
                    ));
                }
            }
        }
    }

    fn node(&mut self) -> GoResult<Vec<Prop>> {
        let mut props = Vec::new();
        loop {
            self.skip_ws();
            let start = self.pos;
            while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_alphabetic() {
                self.pos += 1;
            }
            if self.pos == start {
                return Ok(props);
            }
            // FF[1] to FF[3] allowed lower-case letters in an identifier (`AddBlack`,
            // `SiZe`), which a reader ignores (FF[4], "Changes from FF[3]"): `AB`, `SZ`
            let ident: String = self.text[start..self.pos]
                .chars()
                .filter(|c| c.is_ascii_uppercase())
                .collect();
            let mut values = Vec::new();
            loop {
                self.skip_ws();
                if self.peek() != Some(b'[') {
                    break;
                }
                let vstart = self.pos + 1;
                self.pos += 1;
                let mut val = String::new();
                let mut seg = self.pos;
                loop {
                    match self.peek() {
                        None => {
                            return Err(self.err(
                                vstart - 1,
                                format!("value of {ident} is not closed"),
                                "close the value with `]`",
                            ));
                        }
                        Some(b']') => {
                            val.push_str(&self.text[seg..self.pos]);
                            self.pos += 1;
                            break;
                        }
                        Some(b'\\') => {
                            val.push_str(&self.text[seg..self.pos]);
                            self.pos += 1;
                            // Keep the escaped character (a whole UTF-8 character).
                            let rest = &self.text[self.pos..];
                            if let Some(ch) = rest.chars().next() {
                                val.push(ch);
                                self.pos += ch.len_utf8();
                            }
                            seg = self.pos;
                        }
                        Some(_) => {
                            let ch = self.text[self.pos..]
                                .chars()
                                .next()
                                .map_or(1, |c| c.len_utf8());
                            self.pos += ch;
                        }
                    }
                }
                values.push((val, vstart));
            }
            if values.is_empty() {
                return Err(self.err(
                    start,
                    format!("property {ident} has no value"),
                    "write values in brackets, e.g. B[cc]",
                ));
            }
            props.push((ident, values, start));
        }
    }
}

fn coord(ch: u8) -> Option<usize> {
    match ch {
        b'a'..=b'z' => Some((ch - b'a') as usize),
        b'A'..=b'Z' => Some((ch - b'A') as usize + 26),
        _ => None,
    }
}

fn letter(i: usize) -> char {
    if i < 26 {
        (b'a' + i as u8) as char
    } else {
        (b'A' + (i - 26) as u8) as char
    }
}

fn point(text: &str, v: &str, at: usize, rows: usize, cols: usize) -> GoResult<usize> {
    let b = v.as_bytes();
    let bad = || {
        GoError::at(
            text,
            at,
            format!("`{v}` is not a point of the {cols}x{rows} board"),
            "points are two letters: column then row, `aa` is the top-left corner",
        )
    };
    if b.len() != 2 {
        return Err(bad());
    }
    let (x, y) = (coord(b[0]).ok_or_else(bad)?, coord(b[1]).ok_or_else(bad)?);
    if x >= cols || y >= rows {
        return Err(bad());
    }
    Ok(y * cols + x)
}

fn points(text: &str, v: &str, at: usize, rows: usize, cols: usize) -> GoResult<Vec<usize>> {
    if let Some((a, b)) = v.split_once(':') {
        let p = point(text, a, at, rows, cols)?;
        let q = point(text, b, at + a.len() + 1, rows, cols)?;
        let (r0, c0, r1, c1) = (p / cols, p % cols, q / cols, q % cols);
        let mut out = Vec::new();
        for r in r0.min(r1)..=r0.max(r1) {
            for c in c0.min(c1)..=c0.max(c1) {
                out.push(r * cols + c);
            }
        }
        Ok(out)
    } else {
        Ok(vec![point(text, v, at, rows, cols)?])
    }
}

/// Parses an SGF record (main line only).
pub fn parse_sgf(text: &str) -> GoResult<SgfRecord> {
    let mut p = Parser {
        text,
        bytes: text.as_bytes(),
        pos: 0,
    };
    let nodes = p.tree(0)?;
    let (mut rows, mut cols) = (19usize, 19usize);
    let mut komi = None;
    // Size first (it may only appear in the root).
    for (ident, values, _) in &nodes[0] {
        if ident == "SZ" {
            let (v, at) = &values[0];
            let parse = |s: &str, off: usize| -> GoResult<usize> {
                match s.trim().parse::<usize>() {
                    Ok(n) if (1..=52).contains(&n) => Ok(n),
                    _ => Err(GoError::at(
                        text,
                        off,
                        format!("board size `{s}` is not a number from 1 to 52"),
                        "write SZ[n] or SZ[columns:rows]",
                    )),
                }
            };
            if let Some((a, b)) = v.split_once(':') {
                cols = parse(a, *at)?;
                rows = parse(b, at + a.len() + 1)?;
            } else {
                cols = parse(v, *at)?;
                rows = cols;
            }
        }
    }
    if rows * cols > super::bitset::MAX_VERTICES {
        return Err(GoError::new(
            format!("board {cols}x{rows} is too large"),
            format!(
                "at most {} points are supported",
                super::bitset::MAX_VERTICES
            ),
        ));
    }
    let mut setup = Board::empty();
    let mut moves = Vec::new();
    let (mut handicap, mut result, mut ruleset) = (None, None, None);
    let mut territory = (vec![], vec![]);
    let mut removed = vec![];
    for node in &nodes {
        for (ident, values, start) in node {
            match ident.as_str() {
                "AE" if !moves.is_empty() => {
                    // after the moves: the stones the scorer took off (dead stones)
                    for (v, at) in values {
                        removed.extend(points(text, v, *at, rows, cols)?);
                    }
                }
                "AB" | "AW" | "AE" => {
                    if !moves.is_empty() {
                        return Err(GoError::at(
                            text,
                            *start,
                            format!("setup property {ident} after moves is not supported"),
                            "put setup properties before the first move",
                        ));
                    }
                    let c = match ident.as_str() {
                        "AB" => Some(Color::Black),
                        "AW" => Some(Color::White),
                        _ => None,
                    };
                    for (v, at) in values {
                        for q in points(text, v, *at, rows, cols)? {
                            setup.set(q, c);
                        }
                    }
                }
                "B" | "W" => {
                    let c = if ident == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let (v, at) = &values[0];
                    let m = if v.is_empty() || (v == "tt" && rows <= 19 && cols <= 19) {
                        Move::Pass
                    } else {
                        Move::Place(point(text, v, *at, rows, cols)?)
                    };
                    moves.push((c, m, *start));
                }
                "HA" => handicap = values[0].0.trim().parse::<usize>().ok(),
                "RE" => result = Some((values[0].0.trim().to_string(), values[0].1)),
                "RU" => ruleset = Some(values[0].0.trim().to_string()),
                "TB" | "TW" => {
                    for (v, at) in values {
                        for q in points(text, v, *at, rows, cols)? {
                            if ident == "TB" {
                                territory.0.push(q);
                            } else {
                                territory.1.push(q);
                            }
                        }
                    }
                }
                "KM" => {
                    let (v, at) = &values[0];
                    komi = Some(
                        v.trim()
                            .parse::<f64>()
                            .ok()
                            .filter(|k| k.is_finite())
                            .ok_or_else(|| {
                                GoError::at(
                                    text,
                                    *at,
                                    format!("komi `{v}` is not a number"),
                                    "write e.g. KM[6.5]",
                                )
                            })?,
                    );
                }
                _ => {}
            }
        }
    }
    Ok(SgfRecord {
        rows,
        cols,
        setup,
        moves,
        komi,
        handicap,
        result,
        ruleset,
        territory,
        removed,
    })
}

impl SgfRecord {
    /// The grid graph of the record.
    pub fn graph(&self) -> GoResult<Graph> {
        Graph::grid(self.rows, self.cols)
    }

    /// Replays the record under `rules` (komi from the record when present and valid); the
    /// first illegal move is reported at its position in `text`.
    pub fn replay(&self, text: &str, rules: Rules) -> GoResult<Game> {
        let g = self.graph()?;
        let rules = match self.komi {
            Some(k) => rules.with_komi(k).unwrap_or(rules),
            None => rules,
        };
        let first = self.moves.first().map_or(Color::Black, |m| m.0);
        let mut game = Game::from_board(g, rules, self.setup, first)?;
        for &(c, m, at) in &self.moves {
            if let Err(e) = game.play(c, m) {
                return Err(GoError::at(text, at, e.message, e.help));
            }
        }
        Ok(game)
    }
}

/// Writes an SGF record for a grid: size, komi, setup stones and moves.
pub fn write_sgf(
    rows: usize,
    cols: usize,
    setup: &Board,
    moves: &[(Color, Move)],
    komi: Option<f64>,
) -> GoResult<String> {
    if rows == 0 || cols == 0 || rows > 52 || cols > 52 {
        return Err(GoError::new(
            format!("board {cols}x{rows} cannot be written as SGF"),
            "SGF boards have 1 to 52 rows and columns",
        ));
    }
    let pt = |v: usize| -> GoResult<String> {
        if v >= rows * cols {
            return Err(GoError::new(
                format!("vertex {v} is off the {cols}x{rows} board"),
                "use vertices of the grid",
            ));
        }
        Ok(format!("{}{}", letter(v % cols), letter(v / cols)))
    };
    let mut s = String::from("(;GM[1]FF[4]");
    if rows == cols {
        s.push_str(&format!("SZ[{cols}]"));
    } else {
        s.push_str(&format!("SZ[{cols}:{rows}]"));
    }
    if let Some(k) = komi {
        s.push_str(&format!("KM[{k}]"));
    }
    for (tag, set) in [("AB", &setup.black), ("AW", &setup.white)] {
        let set: &BitSet = set;
        if !set.is_empty() {
            s.push_str(tag);
            for v in set.iter() {
                s.push_str(&format!("[{}]", pt(v)?));
            }
        }
    }
    for &(c, m) in moves {
        let tag = c.initial();
        match m {
            Move::Pass => s.push_str(&format!(";{tag}[]")),
            Move::Place(v) => s.push_str(&format!(";{tag}[{}]", pt(v)?)),
        }
    }
    s.push_str(")\n");
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_replay() {
        let text = "(;FF[4]SZ[3]KM[0.5]AB[aa]AW[cc];B[ba];W[tt];B[ab];W[](;B[bb])(;B[cb]))";
        let r = parse_sgf(text).unwrap();
        assert_eq!((r.rows, r.cols, r.komi), (3, 3, Some(0.5)));
        assert_eq!(r.moves.len(), 5);
        assert_eq!(r.moves[1].1, Move::Pass);
        assert_eq!(r.moves[4].1, Move::Place(4));
        let game = r.replay(text, Rules::area()).unwrap();
        assert_eq!(game.board.black.len(), 4);
        let out = write_sgf(3, 3, &r.setup, &game.moves, r.komi).unwrap();
        let r2 = parse_sgf(&out).unwrap();
        assert_eq!(r2.setup, r.setup);
        assert_eq!(
            r2.moves.iter().map(|m| (m.0, m.1)).collect::<Vec<_>>(),
            game.moves
        );
    }

    #[test]
    fn rectangular_and_errors() {
        let r = parse_sgf("(;SZ[4:2]AB[aa:ba];W[db])").unwrap();
        assert_eq!((r.rows, r.cols, r.setup.black.len()), (2, 4, 2));
        assert_eq!(r.moves[0].1, Move::Place(7));
        let r =
            parse_sgf("(;SZ[3]HA[2]RE[W+0.5]RU[Japanese];B[aa];W[];B[];TB[ab:bb]TW[cc])").unwrap();
        assert_eq!(r.handicap, Some(2));
        assert_eq!(r.result.as_ref().map(|x| x.0.as_str()), Some("W+0.5"));
        assert_eq!(r.ruleset.as_deref(), Some("Japanese"));
        assert_eq!(r.territory, (vec![3, 4], vec![8]));
        let e = parse_sgf("(;SZ[3];B[aa];W[zz])").unwrap_err();
        assert_eq!(e.span.unwrap().offset, 16);
        for bad in [
            "",
            "(",
            "(;SZ[x])",
            "(;B[aa]",
            "(;SZ[0])",
            "(;B",
            ";B[aa]",
            "(;B[a])",
            "(;SZ[19:30]B[tt])",
            "(;KM[x])",
            "(;B[aa];AB[bb])",
            "(()",
            "((;B[aa])x",
        ] {
            assert!(parse_sgf(bad).is_err(), "{bad}");
        }
        // Illegal move: occupied point, reported at its position.
        let text = "(;SZ[2];B[aa];W[aa])";
        let e = parse_sgf(text)
            .unwrap()
            .replay(text, Rules::seed())
            .unwrap_err();
        assert_eq!(e.span.unwrap().offset, 14);
        // Deep nesting is an error, not a stack overflow.
        let deep = "(;".repeat(100_000);
        assert!(parse_sgf(&deep).is_err());
        let ok = format!("{}{}", "(;B[aa]".repeat(100), ")".repeat(100));
        assert!(parse_sgf(&ok).is_ok());
        // FF[1]-style identifiers with lower-case letters; AE after the moves: taken off
        let r = parse_sgf("(;GaMe[1]SiZe[3]AddBlack[aa];Black[bb];White[];Black[]AddEmpty[aa])")
            .unwrap();
        assert_eq!((r.rows, r.cols, r.setup.black.len()), (3, 3, 1));
        assert_eq!((r.moves.len(), r.removed.clone()), (3, vec![0]));
        // 20x19: tt is a point, not a pass.
        let r = parse_sgf("(;SZ[20:19];B[ts])").unwrap();
        assert_eq!(r.moves[0].1, Move::Place(18 * 20 + 19));
        let r = parse_sgf("(;SZ[20:19];B[tt])").unwrap_err();
        assert!(r.message.contains("not a point"));
    }
}
