//! The reader of CSA records (the CSA standard record format V2.2 and V3.0,
//! computer-shogi.org/protocol/record_v22.html, record_v3.html).

use super::*;
use std::ops::ControlFlow;

fn csa_piece(s: &str) -> Option<PieceKind> {
    Some(match s {
        "FU" => PieceKind::Pawn,
        "KY" => PieceKind::Lance,
        "KE" => PieceKind::Knight,
        "GI" => PieceKind::Silver,
        "KI" => PieceKind::Gold,
        "KA" => PieceKind::Bishop,
        "HI" => PieceKind::Rook,
        "OU" => PieceKind::King,
        "TO" => PieceKind::ProPawn,
        "NY" => PieceKind::ProLance,
        "NK" => PieceKind::ProKnight,
        "NG" => PieceKind::ProSilver,
        "UM" => PieceKind::Horse,
        "RY" => PieceKind::Dragon,
        _ => return None,
    })
}

/// Parses a CSA game record: `PI` (with optional removals), `P1`..`P9` rows, `P+`/`P-` piece
/// placements (including `00AL`), the side line `+`/`-`, moves such as `+7776FU` (several
/// statements per line separated by `,` are allowed), with the moves as written, and the `%`
/// line that ends the game (`%TORYO`, `%SENNICHITE`, `%KACHI`, ...). A record whose moves come
/// with no start position at all (将棋ウォーズ's) starts from the even game, as a KIF record
/// without `手合割` does. Reads the first game of a file that holds several (separated by `/`).
/// Errors name the line and span it.
pub fn read_csa(text: &str) -> Result<Record, ParseErrors> {
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(empty_record("CSA"));
    }
    let mut r = CsaReader {
        errs: Vec::new(),
        board: None,
        rows: [false; 9],
        first_row: None,
        moves: None,
        side: Color::Black,
        all_rest: None,
        result: None,
    };
    'lines: for &(no, off, line) in &lines_with_offsets(text) {
        if line.trim() == "/" {
            break;
        }
        // a comment, a name or an information line is one statement to the end of the line,
        // commas and all ("'a comment, with a comma", "$EVENT:a cup, round 1"); other lines may
        // hold several statements separated by commas
        let whole = line.trim_start_matches('\u{feff}').trim_start();
        if whole.starts_with('\'') || whole.starts_with('N') || whole.starts_with('$') {
            continue;
        }
        let at = Line {
            no,
            off,
            text: line,
        };
        for stmt in line.split(',') {
            let stmt = stmt.trim_start_matches('\u{feff}').trim();
            if stmt.is_empty()
                || stmt.starts_with('\'')
                || stmt.starts_with('V')
                || stmt.starts_with('N')
                || stmt.starts_with('$')
            {
                continue;
            }
            if r.statement(stmt, &at).is_break() {
                break 'lines;
            }
        }
    }
    r.finish()
}

/// A line of a CSA record: its number, its offset and its text.
struct Line<'a> {
    no: usize,
    off: usize,
    text: &'a str,
}

impl Line<'_> {
    fn err(&self, msg: String) -> ParseError {
        line_error(
            self.off,
            self.no,
            self.text,
            msg,
            "see the CSA standard file format",
        )
    }
}

/// What a CSA reader has read so far.
struct CsaReader {
    errs: Vec<ParseError>,
    board: Option<Position>,
    // the rows P1..P9 given, and the line of the first
    rows: [bool; 9],
    first_row: Option<(usize, usize, usize)>,
    moves: Option<Moves>,
    side: Color,
    all_rest: Option<Color>,
    result: Option<RecordResult>,
}

impl CsaReader {
    /// Reads one statement; breaks where the record ends (its ending, or an error that ends it).
    fn statement(&mut self, stmt: &str, at: &Line) -> ControlFlow<()> {
        if let Some(secs) = stmt.strip_prefix('T') {
            // the time a move took, in seconds (with a fraction in version 3.0)
            let (whole, fraction) = secs.split_once('.').unwrap_or((secs, "0"));
            let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
            if !(digits(whole) && digits(fraction)) {
                self.errs.push(at.err(format!(
                    "`{stmt}` is not a time line (`T` and the seconds a move took): cut short?"
                )));
                return ControlFlow::Break(());
            }
            return ControlFlow::Continue(());
        }
        if stmt.starts_with('%') {
            self.ending(stmt, at);
            return ControlFlow::Break(());
        }
        if let Some(r) = stmt.strip_prefix("PI") {
            self.removals(r, at);
            return ControlFlow::Continue(());
        }
        let sb = stmt.as_bytes();
        if sb.len() >= 2 && sb[0] == b'P' && (b'1'..=b'9').contains(&sb[1]) {
            self.row(stmt, sb[1] - b'0', at);
            return ControlFlow::Continue(());
        }
        if sb.len() >= 2 && sb[0] == b'P' && (sb[1] == b'+' || sb[1] == b'-') {
            let color = if sb[1] == b'+' {
                Color::Black
            } else {
                Color::White
            };
            self.placements(&stmt[2..], color, at);
            return ControlFlow::Continue(());
        }
        if stmt == "+" || stmt == "-" {
            if self.moves.is_some() {
                self.errs.push(at.err(format!(
                    "`{stmt}` after the moves: a move cut short (the side to move is said once, before the first move)"
                )));
                return ControlFlow::Break(());
            }
            self.side = if stmt == "+" {
                Color::Black
            } else {
                Color::White
            };
            return ControlFlow::Continue(());
        }
        if (sb[0] == b'+' || sb[0] == b'-') && sb.len() == 7 {
            return match self.play(stmt, at) {
                Ok(()) => ControlFlow::Continue(()),
                Err(None) => ControlFlow::Break(()),
                Err(Some(e)) => {
                    self.errs.push(e);
                    ControlFlow::Break(())
                }
            };
        }
        self.errs.push(at.err(format!("cannot read `{stmt}`")));
        ControlFlow::Continue(())
    }

    /// The `%` line that ends the game.
    fn ending(&mut self, stmt: &str, at: &Line) {
        let to_move = match &self.moves {
            Some(ms) => ms.to_move(),
            None => self.side,
        };
        let Some((e, o)) = csa_ending(stmt, to_move) else {
            self.errs
                .push(at.err(format!("`{stmt}` is not an ending of the CSA format")));
            return;
        };
        // a game that ended before its first move starts where its moves would
        let (board, all_rest, side) = (&self.board, self.all_rest, self.side);
        let ms = self
            .moves
            .get_or_insert_with(|| Moves::new(csa_start(board, all_rest, side)));
        self.result = Some(ms.result(e, o, stmt, at.no));
    }

    /// `PI` and the pieces it takes off the even game's board.
    fn removals(&mut self, r: &str, at: &Line) {
        let mut p = Position::startpos();
        let mut i = 0;
        let b = r.as_bytes();
        while i + 4 <= b.len() {
            let sq = Square::new(b[i].wrapping_sub(b'0'), b[i + 1].wrapping_sub(b'0'));
            let kind = r.get(i + 2..i + 4).and_then(csa_piece);
            match (sq, kind) {
                (Some(sq), Some(k)) if p.piece_at(sq).map(|x| x.kind) == Some(k) => p.remove(sq),
                _ => {
                    self.errs
                        .push(at.err(format!("cannot remove `{}`", r.get(i..i + 4).unwrap_or(""))));
                }
            }
            i += 4;
        }
        if i != b.len() {
            self.errs
                .push(at.err(format!("cannot read `{}`", r.get(i..).unwrap_or(""))));
        }
        self.board = Some(p);
    }

    /// A row `P1` to `P9` of the board: nine cells of three characters (` * ` or `+FU`).
    fn row(&mut self, stmt: &str, row: u8, at: &Line) {
        if self.rows[row as usize - 1] {
            self.errs.push(at.err(format!("row P{row} is given twice")));
            return;
        }
        self.rows[row as usize - 1] = true;
        self.first_row.get_or_insert((at.no, at.off, at.text.len()));
        let p = self.board.get_or_insert_with(Position::empty);
        // an editor may have cut the spaces of the last cell ` * `
        let cells = format!("{:<27}", &stmt[2..]);
        if cells.len() > 27 {
            self.errs
                .push(at.err(format!("row P{row} has more than 9 cells")));
            return;
        }
        for col_i in 0..9u8 {
            let col = 9 - col_i;
            let Some(cell) = cells.get(col_i as usize * 3..col_i as usize * 3 + 3) else {
                self.errs.push(at.err(format!("cannot read row P{row}")));
                break;
            };
            if cell.trim() == "*" {
                continue;
            }
            if cell.trim().is_empty() {
                self.errs.push(at.err(format!(
                    "row P{row} has {} cells, not 9: it is cut short",
                    col_i
                )));
                break;
            }
            let color = match cell.as_bytes()[0] {
                b'+' => Color::Black,
                b'-' => Color::White,
                _ => {
                    self.errs.push(at.err(format!("bad cell `{cell}`")));
                    continue;
                }
            };
            match (cell.get(1..).and_then(csa_piece), Square::new(col, row)) {
                (Some(k), Some(sq)) if p.piece_at(sq).is_none() => p.put(sq, Piece::new(color, k)),
                _ => self.errs.push(at.err(format!("bad cell `{cell}`"))),
            }
        }
    }

    /// `P+` or `P-` and its placements of four characters (`0000FU` in hand, `00AL` the rest).
    fn placements(&mut self, r: &str, color: Color, at: &Line) {
        let p = self.board.get_or_insert_with(Position::empty);
        let mut i = 0;
        while i + 4 <= r.len() {
            let Some(item) = r.get(i..i + 4) else {
                self.errs.push(at.err("bad placement".into()));
                break;
            };
            let ib = item.as_bytes();
            let code = item.get(2..).unwrap_or("");
            if code == "AL" {
                self.all_rest = Some(color);
            } else if let Some(k) = csa_piece(code) {
                if ib[0] == b'0' && ib[1] == b'0' {
                    if k.is_promoted() || k == PieceKind::King {
                        self.errs
                            .push(at.err(format!("`{item}` cannot be held in hand")));
                    } else {
                        let n = p.hand(color).count(k);
                        p.set_hand(color, k, n.saturating_add(1));
                    }
                } else {
                    match Square::new(ib[0].wrapping_sub(b'0'), ib[1].wrapping_sub(b'0')) {
                        Some(sq) if p.piece_at(sq).is_none() => p.put(sq, Piece::new(color, k)),
                        _ => self.errs.push(at.err(format!("bad placement `{item}`"))),
                    }
                }
            } else {
                self.errs.push(at.err(format!("bad placement `{item}`")));
            }
            i += 4;
        }
        if i != r.len() {
            self.errs.push(at.err(format!(
                "cannot read `{}`: placements are 4 characters each",
                r.get(i..).unwrap_or("")
            )));
        }
    }

    /// A move such as `+7776FU`, the first of which sets the start position. An error ends the
    /// record (`None`: the errors already found end it before its moves).
    fn play(&mut self, stmt: &str, at: &Line) -> Result<(), Option<ParseError>> {
        if self.moves.is_none() {
            if !self.errs.is_empty() {
                return Err(None);
            }
            // no start position at all (将棋ウォーズ writes none): the even game, as a KIF record
            // without 手合割
            if self.board.is_none() {
                self.board = Some(Position::startpos());
            }
            if let Some(e) = missing_rows(&self.rows, self.first_row) {
                return Err(Some(e));
            }
            let p = csa_start(&self.board, self.all_rest, self.side);
            if let Some(msg) = impossible(&p) {
                return Err(Some(at.err(msg)));
            }
            self.moves = Some(Moves::new(p));
        }
        let Some(ms) = self.moves.as_mut() else {
            return Ok(());
        };
        ms.check_pending()?;
        let color = if stmt.as_bytes()[0] == b'+' {
            Color::Black
        } else {
            Color::White
        };
        if color != ms.to_move() {
            return Err(Some(
                at.err(format!("`{stmt}` is played by the side not to move")),
            ));
        }
        let place = Place {
            line: at.no,
            offset: at.off,
            len: at.text.len(),
        };
        let played = csa_move(ms.game.last(), stmt).map_err(|msg| at.err(msg))?;
        ms.play(played, stmt, place)?;
        Ok(())
    }

    /// The record, or the errors found.
    fn finish(mut self) -> Result<Record, ParseErrors> {
        if self.errs.is_empty() && self.moves.is_none() {
            if self.board.is_none() {
                self.errs.push(ParseError::new(
                    0,
                    0,
                    "no CSA record: no start position (`PI`, `P1` to `P9`, or `P+` / `P-`)",
                    "a CSA record gives its start position, then the side to move and the moves",
                ));
            } else if let Some(e) = missing_rows(&self.rows, self.first_row) {
                self.errs.push(e);
            }
        }
        if !self.errs.is_empty() {
            return Err(ParseErrors(self.errs));
        }
        let ms = match self.moves {
            Some(ms) => ms,
            None => {
                let p = csa_start(&self.board, self.all_rest, self.side);
                if let Some(msg) = impossible(&p) {
                    return Err(ParseErrors(vec![ParseError::new(
                        0,
                        0,
                        msg,
                        "fix the board or the hands",
                    )]));
                }
                Moves::new(p)
            }
        };
        Ok(ms.finish(self.result))
    }
}

/// Parses a CSA record into its game: [`read_csa`], refused when the record ends with a move
/// that cannot be played.
pub fn parse_csa(text: &str) -> Result<Game, ParseErrors> {
    read_csa(text)?.into_game()
}

/// The start position of a CSA record.
fn csa_start(board: &Option<Position>, all_rest: Option<Color>, side: Color) -> Position {
    let mut p = board.clone().unwrap_or_else(Position::startpos);
    if let Some(c) = all_rest {
        p.fill_hand_with_rest(c);
    }
    p.set_side(side);
    p
}

/// The refusal of a board given by rows that are not all there (a record cut short).
fn missing_rows(rows: &[bool; 9], first: Option<(usize, usize, usize)>) -> Option<ParseError> {
    let (no, off, len) = first?;
    if rows.iter().all(|&r| r) {
        return None;
    }
    let missing: Vec<String> = (1..=9)
        .filter(|&r| !rows[r - 1])
        .map(|r| format!("P{r}"))
        .collect();
    Some(ParseError::new(
        off,
        len,
        format!(
            "line {no}: the board lacks rows {}: it is cut short",
            missing.join(", ")
        ),
        "a board given by rows has the nine rows P1 to P9",
    ))
}

fn csa_move(pos: &Position, s: &str) -> Result<Played, String> {
    let b = s.as_bytes();
    let d = |i: usize| b[i].wrapping_sub(b'0');
    let kind = s
        .get(5..7)
        .and_then(csa_piece)
        .ok_or_else(|| format!("`{s}` names no piece"))?;
    let to = Square::new(d(3), d(4)).ok_or_else(|| format!("`{s}` names no destination"))?;
    if d(1) == 0 && d(2) == 0 {
        if !PieceKind::HAND.contains(&kind) {
            return Err(format!("`{s}` drops a piece that cannot be held"));
        }
        return Ok(played(pos, Move::drop(kind, to)));
    }
    let from = Square::new(d(1), d(2)).ok_or_else(|| format!("`{s}` names no origin"))?;
    let Some(p) = pos.piece_at(from) else {
        return Err(format!("`{s}`: there is no piece on {from}"));
    };
    if p.color != pos.side_to_move() {
        return Err(format!(
            "`{s}`: the piece on {from} is {}'s",
            p.color.kanji()
        ));
    }
    if p.kind == kind {
        Ok(played(pos, Move::board(from, to, false)))
    } else if p.kind.promoted() == Some(kind) {
        Ok(played(pos, Move::board(from, to, true)))
    } else {
        Err(format!(
            "`{s}`: the piece on {from} is a {}",
            p.kind.kanji()
        ))
    }
}
