//! The reader of CSA records (the CSA standard record format V2.2 and V3.0,
//! computer-shogi.org/protocol/record_v22.html, record_v3.html).

use super::*;

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
    let lines = lines_with_offsets(text);
    let mut errs = Vec::new();
    let mut board: Option<Position> = None;
    // the rows P1..P9 given, and the line of the first
    let mut rows = [false; 9];
    let mut first_row: Option<(usize, usize, usize)> = None;
    let mut moves: Option<Moves> = None;
    let mut side = Color::Black;
    let mut all_rest: Option<Color> = None;
    let mut result: Option<RecordResult> = None;
    'lines: for &(no, off, line) in &lines {
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
            let err =
                |msg: String| line_error(off, no, line, msg, "see the CSA standard file format");
            if let Some(secs) = stmt.strip_prefix('T') {
                // the time a move took, in seconds (with a fraction in version 3.0)
                let (whole, fraction) = secs.split_once('.').unwrap_or((secs, "0"));
                let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
                if !(digits(whole) && digits(fraction)) {
                    errs.push(err(format!(
                        "`{stmt}` is not a time line (`T` and the seconds a move took): cut short?"
                    )));
                    break 'lines;
                }
                continue;
            }
            if stmt.starts_with('%') {
                let to_move = match &moves {
                    Some(ms) => ms.to_move(),
                    None => side,
                };
                match csa_ending(stmt, to_move) {
                    Some((e, o)) => {
                        let ms = match moves.as_ref() {
                            Some(ms) => ms,
                            None => {
                                // a game that ended before its first move
                                let p = csa_start(&board, all_rest, side);
                                moves = Some(Moves::new(p));
                                moves.as_ref().expect("just set")
                            }
                        };
                        result = Some(ms.result(e, o, stmt, no));
                    }
                    None => errs.push(err(format!("`{stmt}` is not an ending of the CSA format"))),
                }
                break 'lines;
            }
            if let Some(r) = stmt.strip_prefix("PI") {
                let mut p = Position::startpos();
                let mut i = 0;
                let b = r.as_bytes();
                while i + 4 <= b.len() {
                    let sq = Square::new(b[i].wrapping_sub(b'0'), b[i + 1].wrapping_sub(b'0'));
                    let kind = r.get(i + 2..i + 4).and_then(csa_piece);
                    match (sq, kind) {
                        (Some(sq), Some(k)) if p.piece_at(sq).map(|x| x.kind) == Some(k) => {
                            p.remove(sq)
                        }
                        _ => {
                            errs.push(err(format!(
                                "cannot remove `{}`",
                                r.get(i..i + 4).unwrap_or("")
                            )));
                        }
                    }
                    i += 4;
                }
                if i != b.len() {
                    errs.push(err(format!("cannot read `{}`", r.get(i..).unwrap_or(""))));
                }
                board = Some(p);
                continue;
            }
            let sb = stmt.as_bytes();
            if sb.len() >= 2 && sb[0] == b'P' && (b'1'..=b'9').contains(&sb[1]) {
                let row = sb[1] - b'0';
                if rows[row as usize - 1] {
                    errs.push(err(format!("row P{row} is given twice")));
                    continue;
                }
                rows[row as usize - 1] = true;
                first_row.get_or_insert((no, off, line.len()));
                let p = board.get_or_insert_with(Position::empty);
                // an editor may have cut the spaces of the last cell ` * `
                let cells = format!("{:<27}", &stmt[2..]);
                if cells.len() > 27 {
                    errs.push(err(format!("row P{row} has more than 9 cells")));
                    continue;
                }
                for col_i in 0..9u8 {
                    let col = 9 - col_i;
                    let Some(cell) = cells.get(col_i as usize * 3..col_i as usize * 3 + 3) else {
                        errs.push(err(format!("cannot read row P{row}")));
                        break;
                    };
                    if cell.trim() == "*" {
                        continue;
                    }
                    if cell.trim().is_empty() {
                        errs.push(err(format!(
                            "row P{row} has {} cells, not 9: it is cut short",
                            col_i
                        )));
                        break;
                    }
                    let color = match cell.as_bytes()[0] {
                        b'+' => Color::Black,
                        b'-' => Color::White,
                        _ => {
                            errs.push(err(format!("bad cell `{cell}`")));
                            continue;
                        }
                    };
                    match (cell.get(1..).and_then(csa_piece), Square::new(col, row)) {
                        (Some(k), Some(sq)) if p.piece_at(sq).is_none() => {
                            p.put(sq, Piece::new(color, k))
                        }
                        _ => errs.push(err(format!("bad cell `{cell}`"))),
                    }
                }
                continue;
            }
            if sb.len() >= 2 && sb[0] == b'P' && (sb[1] == b'+' || sb[1] == b'-') {
                let color = if sb[1] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                let p = board.get_or_insert_with(Position::empty);
                let r = &stmt[2..];
                let mut i = 0;
                while i + 4 <= r.len() {
                    let Some(item) = r.get(i..i + 4) else {
                        errs.push(err("bad placement".into()));
                        break;
                    };
                    let ib = item.as_bytes();
                    let code = item.get(2..).unwrap_or("");
                    if code == "AL" {
                        all_rest = Some(color);
                    } else if let Some(k) = csa_piece(code) {
                        if ib[0] == b'0' && ib[1] == b'0' {
                            if k.is_promoted() || k == PieceKind::King {
                                errs.push(err(format!("`{item}` cannot be held in hand")));
                            } else {
                                let n = p.hand(color).count(k);
                                p.set_hand(color, k, n.saturating_add(1));
                            }
                        } else {
                            match Square::new(ib[0].wrapping_sub(b'0'), ib[1].wrapping_sub(b'0')) {
                                Some(sq) if p.piece_at(sq).is_none() => {
                                    p.put(sq, Piece::new(color, k))
                                }
                                _ => errs.push(err(format!("bad placement `{item}`"))),
                            }
                        }
                    } else {
                        errs.push(err(format!("bad placement `{item}`")));
                    }
                    i += 4;
                }
                if i != r.len() {
                    errs.push(err(format!(
                        "cannot read `{}`: placements are 4 characters each",
                        r.get(i..).unwrap_or("")
                    )));
                }
                continue;
            }
            if stmt == "+" || stmt == "-" {
                if moves.is_some() {
                    errs.push(err(format!(
                        "`{stmt}` after the moves: a move cut short (the side to move is said once, before the first move)"
                    )));
                    break 'lines;
                }
                side = if stmt == "+" {
                    Color::Black
                } else {
                    Color::White
                };
                continue;
            }
            if (sb[0] == b'+' || sb[0] == b'-') && sb.len() == 7 {
                if moves.is_none() {
                    if !errs.is_empty() {
                        break 'lines;
                    }
                    // no start position at all (将棋ウォーズ writes none): the even game, as a
                    // KIF record without 手合割
                    if board.is_none() {
                        board = Some(Position::startpos());
                    }
                    if let Some(e) = missing_rows(&rows, first_row) {
                        errs.push(e);
                        break 'lines;
                    }
                    let p = csa_start(&board, all_rest, side);
                    if let Some(msg) = impossible(&p) {
                        errs.push(err(msg));
                        break 'lines;
                    }
                    moves = Some(Moves::new(p));
                }
                let Some(ms) = moves.as_mut() else { continue };
                if let Err(e) = ms.check_pending() {
                    errs.push(e);
                    break 'lines;
                }
                let color = if sb[0] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                if color != ms.to_move() {
                    errs.push(err(format!("`{stmt}` is played by the side not to move")));
                    break 'lines;
                }
                let place = Place {
                    line: no,
                    offset: off,
                    len: line.len(),
                };
                let played = match csa_move(ms.game.last(), stmt) {
                    Ok(p) => p,
                    Err(msg) => {
                        errs.push(err(msg));
                        break 'lines;
                    }
                };
                if let Err(e) = ms.play(played, stmt, place) {
                    errs.push(e);
                    break 'lines;
                }
                continue;
            }
            errs.push(err(format!("cannot read `{stmt}`")));
        }
    }
    if errs.is_empty() && moves.is_none() {
        if board.is_none() {
            errs.push(ParseError::new(
                0,
                0,
                "no CSA record: no start position (`PI`, `P1` to `P9`, or `P+` / `P-`)",
                "a CSA record gives its start position, then the side to move and the moves",
            ));
        } else if let Some(e) = missing_rows(&rows, first_row) {
            errs.push(e);
        }
    }
    if !errs.is_empty() {
        return Err(ParseErrors(errs));
    }
    let ms = match moves {
        Some(ms) => ms,
        None => {
            let p = csa_start(&board, all_rest, side);
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
    Ok(ms.finish(result))
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
