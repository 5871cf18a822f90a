//! Game records: a start position and the moves played from it.

use super::position::Position;
use super::types::Move;

/// A sequence of positions and the moves between them: `positions[i + 1]` is
/// `positions[i]` after `moves[i]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The positions, starting with the initial one.
    pub positions: Vec<Position>,
    /// The moves; one fewer than the positions.
    pub moves: Vec<Move>,
}

impl Game {
    /// A game with only a start position.
    pub fn new(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The latest position.
    pub fn last(&self) -> &Position {
        &self.positions[self.positions.len() - 1]
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The game as a USI `position` command (`position sfen <sfen> moves ...`).
    pub fn to_usi_position(&self) -> String {
        let mut s = format!("position sfen {}", self.start().to_sfen());
        if !self.moves.is_empty() {
            s.push_str(" moves");
            for m in &self.moves {
                s.push(' ');
                s.push_str(&m.to_usi());
            }
        }
        s
    }

    /// Appends `m` (assumed legal in the latest position).
    pub fn push(&mut self, m: Move) {
        let next = self.last().after(m);
        self.positions.push(next);
        self.moves.push(m);
    }
}

use super::sfen::{ParseError, ParseErrors};
use super::types::{Color, Piece, PieceKind, Square};

/// The start positions named by KIF `手合割` values.
const HANDICAPS: [(&str, &str); 11] = [
    (
        "平手",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// KIF words that end the move list.
const KIF_END: [&str; 13] = [
    "投了",
    "中断",
    "千日手",
    "詰み",
    "持将棋",
    "切れ負け",
    "反則勝ち",
    "反則負け",
    "入玉勝ち",
    "不戦勝",
    "不戦敗",
    "宣言勝ち",
    "不詰",
];

fn line_error(
    line_start: usize,
    line_no: usize,
    line: &str,
    msg: String,
    help: &str,
) -> ParseError {
    ParseError::new(
        line_start,
        line.len(),
        format!("line {line_no}: {msg}"),
        help,
    )
}

/// Lines of `text` with their 1-based number and byte offset (line ends stripped).
fn lines_with_offsets(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut off = 0;
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let line = raw.trim_end_matches(['\n', '\r']);
        out.push((i + 1, off, line));
        off += raw.len();
    }
    out
}

/// The error of a record with nothing but blank lines and comments (lines starting with
/// `comment`): an empty file is no game.
fn empty_record(text: &str, comment: char) -> Option<ParseErrors> {
    let blank = text.lines().all(|l| {
        let t = l.trim_start_matches('\u{feff}').trim();
        t.is_empty() || t.starts_with(comment)
    });
    blank.then(|| {
        ParseErrors(vec![ParseError::new(
            0,
            0,
            "line 1: the record is empty (no start position and no move)",
            "a record gives a start position or moves; an empty file is no game",
        )])
    })
}

/// The CSA results that end a move list (`%TORYO` and the others of the standard).
const CSA_END: [&str; 15] = [
    "%TORYO",
    "%CHUDAN",
    "%SENNICHITE",
    "%TIME_UP",
    "%ILLEGAL_MOVE",
    "%+ILLEGAL_ACTION",
    "%-ILLEGAL_ACTION",
    "%JISHOGI",
    "%KACHI",
    "%HIKIWAKE",
    "%MAX_MOVES",
    "%TSUMI",
    "%FUZUMI",
    "%ERROR",
    "%MATTA",
];

fn kanji_digit(c: char) -> Option<u8> {
    let full = "１２３４５６７８９";
    let kan = "一二三四五六七八九";
    if let Some(i) = full.chars().position(|x| x == c) {
        return Some(i as u8 + 1);
    }
    if let Some(i) = kan.chars().position(|x| x == c) {
        return Some(i as u8 + 1);
    }
    if c.is_ascii_digit() && c != '0' {
        return Some(c as u8 - b'0');
    }
    None
}

/// A kanji piece name at the start of `s`: the kind and the number of bytes used.
fn kif_piece(s: &str) -> Option<(PieceKind, usize)> {
    const NAMES: [(&str, PieceKind); 20] = [
        ("成香", PieceKind::ProLance),
        ("成桂", PieceKind::ProKnight),
        ("成銀", PieceKind::ProSilver),
        ("歩", PieceKind::Pawn),
        ("香", PieceKind::Lance),
        ("桂", PieceKind::Knight),
        ("銀", PieceKind::Silver),
        ("金", PieceKind::Gold),
        ("角", PieceKind::Bishop),
        ("飛", PieceKind::Rook),
        ("玉", PieceKind::King),
        ("王", PieceKind::King),
        ("と", PieceKind::ProPawn),
        ("杏", PieceKind::ProLance),
        ("圭", PieceKind::ProKnight),
        ("全", PieceKind::ProSilver),
        ("馬", PieceKind::Horse),
        ("龍", PieceKind::Dragon),
        ("竜", PieceKind::Dragon),
        ("仝", PieceKind::ProSilver),
    ];
    NAMES
        .iter()
        .find(|(n, _)| s.starts_with(n))
        .map(|&(n, k)| (k, n.len()))
}

/// Parses a kanji hand such as `角　歩二` or `なし`.
fn kif_hand(s: &str) -> Option<Vec<(PieceKind, u8)>> {
    let s = s.trim();
    if s.is_empty() || s == "なし" {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    for part in s
        .split(|c: char| c == '　' || c.is_whitespace())
        .filter(|p| !p.is_empty())
    {
        let (kind, used) = kif_piece(part)?;
        if !PieceKind::HAND.contains(&kind) {
            return None; // a king or a promoted piece is never in hand
        }
        let rest = &part[used..];
        let n = if rest.is_empty() {
            1
        } else {
            let mut n = 0u8;
            for c in rest.chars() {
                match c {
                    '十' => n = n.checked_add(10)?,
                    _ => n = n.checked_add(kanji_digit(c)?)?,
                }
            }
            n
        };
        out.push((kind, n));
    }
    Some(out)
}

/// Parses a KIF game record (main line only) into the positions and moves.
///
/// Understands `手合割` (even game and the usual handicaps), a board diagram with
/// `後手の持駒` / `先手の持駒` and `後手番`, move lines such as `７六歩(77)`, `同　銀(31)`,
/// `４五角打`, `２二角成(88)`, `３三桂不成(45)`, and stops at `投了` and the other result
/// words or at the first variation. Errors name the line and span it.
pub fn parse_kif(text: &str) -> Result<Game, ParseErrors> {
    if let Some(e) = empty_record(text, '#') {
        return Err(e);
    }
    let lines = lines_with_offsets(text);
    let mut start: Option<Position> = None;
    let mut errs = Vec::new();
    // Board diagram state.
    let mut diagram: Option<Position> = None;
    let mut diagram_row = 0u8;
    let mut hands: [Vec<(PieceKind, u8)>; 2] = [Vec::new(), Vec::new()];
    let mut side = Color::Black;
    let mut game: Option<Game> = None;
    let mut last_to: Option<Square> = None;
    for &(no, off, line) in &lines {
        let trimmed = line.trim_start_matches('\u{feff}').trim();
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || trimmed.starts_with('*')
            || trimmed.starts_with('&')
        {
            continue;
        }
        if trimmed.starts_with("変化") {
            break;
        }
        if let Some(v) = trimmed.strip_prefix("手合割：") {
            let v = v.trim();
            match HANDICAPS.iter().find(|(n, _)| *n == v) {
                Some((_, sfen)) => start = Position::from_sfen(sfen).ok(),
                None => errs.push(line_error(
                    off,
                    no,
                    line,
                    format!("unknown handicap `{v}`"),
                    "use 平手 or a standard handicap name, or give a board diagram",
                )),
            }
            continue;
        }
        if let Some(v) = trimmed
            .strip_prefix("後手の持駒：")
            .or_else(|| trimmed.strip_prefix("上手の持駒："))
        {
            match kif_hand(v) {
                Some(h) => hands[1] = h,
                None => errs.push(line_error(
                    off,
                    no,
                    line,
                    "cannot read the hand".into(),
                    "write pieces such as `角　歩二`, or `なし`",
                )),
            }
            continue;
        }
        if let Some(v) = trimmed
            .strip_prefix("先手の持駒：")
            .or_else(|| trimmed.strip_prefix("下手の持駒："))
        {
            match kif_hand(v) {
                Some(h) => hands[0] = h,
                None => errs.push(line_error(
                    off,
                    no,
                    line,
                    "cannot read the hand".into(),
                    "write pieces such as `角　歩二`, or `なし`",
                )),
            }
            continue;
        }
        if trimmed.starts_with("後手番") || trimmed.starts_with("上手番") || trimmed == "手番：後手"
        {
            side = Color::White;
            continue;
        }
        if trimmed.starts_with("先手番") || trimmed.starts_with("下手番") || trimmed == "手番：先手"
        {
            side = Color::Black;
            continue;
        }
        if trimmed.starts_with('|') && game.is_none() {
            diagram_row += 1;
            let d = diagram.get_or_insert_with(Position::empty);
            let mut chars = trimmed.chars().skip(1);
            let mut col = 9u8;
            let mut ok = diagram_row <= 9;
            while col >= 1 && ok {
                let (Some(a), Some(b)) = (chars.next(), chars.next()) else {
                    ok = false;
                    break;
                };
                if b != '・' {
                    let color = if a == 'v' { Color::White } else { Color::Black };
                    let mut buf = [0u8; 4];
                    match kif_piece(b.encode_utf8(&mut buf)) {
                        Some((k, _)) => {
                            if let Some(sq) = Square::new(col, diagram_row) {
                                d.put(sq, Piece::new(color, k));
                            }
                        }
                        None => ok = false,
                    }
                }
                col -= 1;
            }
            if !ok {
                errs.push(line_error(off, no, line, "cannot read this board row".into(), "a row is `|` then 9 cells such as `v香`, ` 歩` or ` ・`, then `|` and the row numeral"));
            }
            continue;
        }
        let first = trimmed.split_whitespace().next().unwrap_or("");
        if first.chars().all(|c| c.is_ascii_digit()) && !first.is_empty() {
            if game.is_none() {
                let mut pos = match (&diagram, &start) {
                    (Some(d), _) => d.clone(),
                    (None, Some(s)) => s.clone(),
                    (None, None) => Position::startpos(),
                };
                if diagram.is_some() {
                    for c in Color::ALL {
                        for &(k, n) in &hands[c.index()] {
                            let old = pos.hand(c).count(k);
                            pos.set_hand(c, k, old.saturating_add(n));
                        }
                    }
                    pos.set_side(side);
                }
                if diagram.is_some() && diagram_row != 9 {
                    errs.push(line_error(
                        off,
                        no,
                        line,
                        format!("the board diagram has {diagram_row} rows, not 9"),
                        "write 9 rows",
                    ));
                    break;
                }
                if let Some(msg) = impossible(&pos) {
                    errs.push(line_error(
                        off,
                        no,
                        line,
                        msg,
                        "fix the board diagram or the hands",
                    ));
                    break;
                }
                game = Some(Game::new(pos));
            }
            let Some(g) = game.as_mut() else { continue };
            let rest = trimmed[first.len()..].trim_start();
            let mv_text = rest.split(|c: char| c.is_whitespace()).next().unwrap_or("");
            // `同　銀` has a full-width space inside the move.
            let mv_text = if mv_text == "同" {
                rest.split_whitespace().take(2).collect::<Vec<_>>().join("")
            } else {
                mv_text.to_string()
            };
            if KIF_END.iter().any(|w| mv_text.starts_with(w)) {
                break;
            }
            match kif_move(g.last(), &mv_text, last_to) {
                Ok(m) => {
                    if let Some(reason) = g.last().illegal_reason(m) {
                        errs.push(line_error(
                            off,
                            no,
                            line,
                            format!("`{mv_text}` is illegal: {reason}"),
                            "check the move against the position",
                        ));
                        break;
                    }
                    last_to = Some(m.to());
                    g.push(m);
                }
                Err(msg) => {
                    errs.push(line_error(
                        off,
                        no,
                        line,
                        msg,
                        "write a move such as `７六歩(77)`, `同　銀(31)` or `４五角打`",
                    ));
                    break;
                }
            }
        }
    }
    if diagram.is_some() && diagram_row != 9 && game.is_none() {
        {
            errs.push(ParseError::new(
                0,
                0,
                format!("the board diagram has {diagram_row} rows, not 9"),
                "write 9 rows",
            ));
        }
    }
    if !errs.is_empty() {
        return Err(ParseErrors(errs));
    }
    if let Some(g) = game {
        return Ok(g);
    }
    start_only({
        let mut pos = match (&diagram, &start) {
            (Some(d), _) => d.clone(),
            (None, Some(s)) => s.clone(),
            (None, None) => Position::startpos(),
        };
        if diagram.is_some() {
            for c in Color::ALL {
                for &(k, n) in &hands[c.index()] {
                    let old = pos.hand(c).count(k);
                    pos.set_hand(c, k, old.saturating_add(n));
                }
            }
            pos.set_side(side);
        }
        pos
    })
}

/// One KIF move (`７六歩(77)`, `同　銀(31)`, `４五角打`, `２二角成(88)`, `３三桂不成(45)`).
fn kif_move(pos: &Position, s: &str, last_to: Option<Square>) -> Result<Move, String> {
    let mut rest = s;
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches(['　', ' ']);
        last_to.ok_or_else(|| "`同` with no previous move".to_string())?
    } else {
        let mut cs = rest.chars();
        let (Some(a), Some(b)) = (cs.next(), cs.next()) else {
            return Err(format!("`{s}` is not a KIF move"));
        };
        let (Some(c), Some(r)) = (kanji_digit(a), kanji_digit(b)) else {
            return Err(format!(
                "`{s}` does not start with a destination such as `７六`"
            ));
        };
        rest = &rest[a.len_utf8() + b.len_utf8()..];
        Square::new(c, r).ok_or_else(|| format!("`{s}` names no square"))?
    };
    let (kind, used) = kif_piece(rest).ok_or_else(|| format!("`{s}` names no piece"))?;
    rest = &rest[used..];
    let mut promote = false;
    let mut drop = false;
    if let Some(r) = rest.strip_prefix("不成") {
        rest = r;
    } else if let Some(r) = rest.strip_prefix('成') {
        promote = true;
        rest = r;
    } else if let Some(r) = rest.strip_prefix('打') {
        drop = true;
        rest = r;
    }
    let rest = rest.trim();
    if rest.is_empty() || drop {
        if !drop && pos.hand(pos.side_to_move()).count(kind) == 0 {
            return Err(format!(
                "`{s}` has no origin and no {} is in hand",
                kind.kanji()
            ));
        }
        if kind.is_promoted() || kind == PieceKind::King {
            return Err(format!("`{s}` drops a piece that cannot be held"));
        }
        return Ok(Move::drop(kind, to));
    }
    let inner = rest
        .strip_prefix('(')
        .and_then(|r| r.split(')').next())
        .ok_or_else(|| format!("`{s}` has no origin such as `(77)`"))?;
    let b = inner.as_bytes();
    if b.len() != 2 {
        return Err(format!("`{s}` has a bad origin `({inner})`"));
    }
    let from = Square::new(b[0].wrapping_sub(b'0'), b[1].wrapping_sub(b'0'))
        .ok_or_else(|| format!("`{s}` has a bad origin `({inner})`"))?;
    match pos.piece_at(from) {
        Some(p) if p.kind == kind => {}
        Some(p) => {
            return Err(format!(
                "`{s}` names a {} but {} is on {}",
                kind.kanji(),
                p.kind.kanji(),
                from
            ));
        }
        None => return Err(format!("`{s}`: there is no piece on {from}")),
    }
    Ok(Move::board(from, to, promote))
}

/// Why a start position built from a diagram is impossible (too many pieces of a kind, two
/// kings of one side), if it is.
fn impossible(pos: &Position) -> Option<String> {
    match Position::from_sfen(&pos.to_sfen()) {
        Ok(_) => None,
        Err(e) => Some(format!(
            "the start position is impossible: {}",
            e.0.iter()
                .map(|x| x.message.as_str())
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
}

/// A game with no moves, after checking its start position.
fn start_only(pos: Position) -> Result<Game, ParseErrors> {
    match impossible(&pos) {
        None => Ok(Game::new(pos)),
        Some(msg) => Err(ParseErrors(vec![ParseError::new(
            0,
            0,
            msg,
            "fix the board or the hands",
        )])),
    }
}

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

/// Parses a CSA game record: `PI` (with optional removals), `P1`..`P9` rows, `P+`/`P-`
/// piece placements (including `00AL`), the side line `+`/`-`, moves such as `+7776FU`
/// (several statements per line separated by `,` are allowed) and stops at `%` results.
/// Errors name the line and span it. A record cut short is refused: an empty one, a board with
/// rows missing or a row cut, a position without its side line, a result cut (`%TOR`).
pub fn parse_csa(text: &str) -> Result<Game, ParseErrors> {
    if let Some(e) = empty_record(text, '\'') {
        return Err(e);
    }
    let lines = lines_with_offsets(text);
    let mut errs = Vec::new();
    let mut board: Option<Position> = None;
    let mut game: Option<Game> = None;
    let mut side = Color::Black;
    let mut all_rest: Option<Color> = None;
    // what a record cut short lacks: rows of the board (P1 to P9), the side line after a
    // position; `last` is the last line read (number, offset, text)
    let mut rows_seen = [false; 10];
    let mut side_seen = false;
    let mut last: (usize, usize, &str) = (1, 0, "");
    'lines: for &(no, off, line) in &lines {
        if !line.trim().is_empty() {
            last = (no, off, line);
        }
        for stmt in line.split(',') {
            let stmt = stmt.trim();
            let err =
                |msg: String| line_error(off, no, line, msg, "see the CSA standard file format");
            if stmt == "T" {
                errs.push(err(
                    "a time line `T` without its seconds (a line cut short?)".into(),
                ));
                break 'lines;
            }
            if stmt.is_empty()
                || stmt.starts_with('\'')
                || stmt.starts_with('V')
                || stmt.starts_with('N')
                || stmt.starts_with('$')
                || stmt.starts_with('T')
            {
                continue;
            }
            if stmt.starts_with('%') {
                if !CSA_END.contains(&stmt) {
                    errs.push(err(format!(
                        "`{stmt}` is not a result of the CSA standard (a line cut short?)"
                    )));
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
                board = Some(p);
                continue;
            }
            let sb = stmt.as_bytes();
            if sb.len() >= 2 && sb[0] == b'P' && (b'1'..=b'9').contains(&sb[1]) {
                let row = sb[1] - b'0';
                let p = board.get_or_insert_with(Position::empty);
                let cells = &stmt[2..];
                rows_seen[row as usize] = true;
                // nine cells of three characters, the last one's trailing blank trimmed
                let n_cells = cells.len().div_ceil(3);
                if n_cells != 9 {
                    errs.push(err(format!(
                        "row P{row} has {n_cells} cells, not 9 (a line cut short?)"
                    )));
                }
                for col_i in 0..9u8 {
                    let Some(cell) = cells.get(col_i as usize * 3..col_i as usize * 3 + 3) else {
                        break;
                    };
                    let col = 9 - col_i;
                    if cell.trim() == "*" || cell.trim().is_empty() {
                        continue;
                    }
                    let color = match cell.as_bytes()[0] {
                        b'+' => Color::Black,
                        b'-' => Color::White,
                        _ => {
                            errs.push(err(format!("bad cell `{cell}`")));
                            continue;
                        }
                    };
                    match (csa_piece(&cell[1..]), Square::new(col, row)) {
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
                continue;
            }
            if stmt == "+" || stmt == "-" {
                if game.is_some() || side_seen {
                    errs.push(err(format!(
                        "a second side line `{stmt}` (a move cut short?)"
                    )));
                    break 'lines;
                }
                side_seen = true;
                side = if stmt == "+" {
                    Color::Black
                } else {
                    Color::White
                };
                continue;
            }
            if (sb[0] == b'+' || sb[0] == b'-') && sb.len() == 7 {
                if game.is_none() {
                    if let Some(msg) = cut_position(&board, &rows_seen, side_seen) {
                        errs.push(err(msg));
                        break 'lines;
                    }
                    let mut p = board.clone().unwrap_or_else(Position::startpos);
                    if let Some(c) = all_rest {
                        p.fill_hand_with_rest(c);
                    }
                    p.set_side(side);
                    if let Some(msg) = impossible(&p) {
                        errs.push(err(msg));
                        break 'lines;
                    }
                    game = Some(Game::new(p));
                }
                let Some(g) = game.as_mut() else { continue };
                let color = if sb[0] == b'+' {
                    Color::Black
                } else {
                    Color::White
                };
                if color != g.last().side_to_move() {
                    errs.push(err(format!("`{stmt}` is played by the side not to move")));
                    break 'lines;
                }
                match csa_move(g.last(), stmt) {
                    Ok(m) => {
                        if let Some(reason) = g.last().illegal_reason(m) {
                            errs.push(err(format!("`{stmt}` is illegal: {reason}")));
                            break 'lines;
                        }
                        g.push(m);
                    }
                    Err(msg) => {
                        errs.push(err(msg));
                        break 'lines;
                    }
                }
                continue;
            }
            errs.push(err(format!("cannot read `{stmt}`")));
        }
    }
    if !errs.is_empty() {
        return Err(ParseErrors(errs));
    }
    if let Some(g) = game {
        return Ok(g);
    }
    let (no, off, line) = last;
    let cut = |msg: String| {
        ParseErrors(vec![line_error(
            off,
            no,
            line,
            msg,
            "see the CSA standard file format",
        )])
    };
    if board.is_none() && !side_seen {
        return Err(cut(
            "the record has no start position (`PI` or rows `P1` to `P9`) and no move".into(),
        ));
    }
    let rows_cut = (1..=9).any(|r| rows_seen[r]) && !rows_seen[1..].iter().all(|&x| x);
    if rows_cut {
        if let Some(msg) = cut_position(&board, &rows_seen, true) {
            return Err(cut(msg));
        }
    }
    let mut p = board.clone().unwrap_or_else(Position::startpos);
    if let Some(c) = all_rest {
        p.fill_hand_with_rest(c);
    }
    p.set_side(side);
    if impossible(&p).is_none() {
        if let Some(msg) = cut_position(&board, &rows_seen, side_seen) {
            return Err(cut(msg));
        }
    }
    start_only(p)
}

/// What a CSA position cut short lacks, if anything: rows of a board given row by row, or the
/// side line (`+` or `-`) that follows a position.
fn cut_position(board: &Option<Position>, rows: &[bool; 10], side_seen: bool) -> Option<String> {
    if (1..=9).any(|r| rows[r]) {
        let missing: Vec<String> = (1..=9)
            .filter(|&r| !rows[r])
            .map(|r| format!("P{r}"))
            .collect();
        if !missing.is_empty() {
            return Some(format!(
                "the board has no row {} (a record cut short?)",
                missing.join(", ")
            ));
        }
    }
    if board.is_some() && !side_seen {
        return Some(
            "the position is not followed by the side to move, a line `+` or `-` (a record cut short?)"
                .into(),
        );
    }
    None
}

fn csa_move(pos: &Position, s: &str) -> Result<Move, String> {
    let b = s.as_bytes();
    let d = |i: usize| b[i].wrapping_sub(b'0');
    let kind = s
        .get(5..7)
        .and_then(csa_piece)
        .ok_or_else(|| format!("`{s}` names no piece"))?;
    let to = Square::new(d(3), d(4)).ok_or_else(|| format!("`{s}` names no destination"))?;
    if d(1) == 0 && d(2) == 0 {
        return Ok(Move::drop(kind, to));
    }
    let from = Square::new(d(1), d(2)).ok_or_else(|| format!("`{s}` names no origin"))?;
    let Some(p) = pos.piece_at(from) else {
        return Err(format!("`{s}`: there is no piece on {from}"));
    };
    if p.kind == kind {
        Ok(Move::board(from, to, false))
    } else if p.kind.promoted() == Some(kind) {
        Ok(Move::board(from, to, true))
    } else {
        Err(format!(
            "`{s}`: the piece on {from} is a {}",
            p.kind.kanji()
        ))
    }
}

impl Position {
    /// Removes the piece on `sq` (used while building positions).
    pub(super) fn remove(&mut self, sq: Square) {
        self.set_piece(sq, None);
    }

    /// Gives `color` every piece (except kings) not on the board or in a hand.
    pub(super) fn fill_hand_with_rest(&mut self, color: Color) {
        for k in PieceKind::HAND {
            let on_board = self
                .pieces()
                .filter(|(_, p)| p.kind.unpromoted() == k)
                .count() as u8;
            let held = self.hand(Color::Black).count(k) + self.hand(Color::White).count(k);
            let rest = k.total_count().saturating_sub(on_board + held);
            let n = self.hand(color).count(k);
            self.set_hand(color, k, n + rest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIF: &str = "# ---- test ----
開始日時：2024/01/01
手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:00/00:00:00)
   2 ３四歩(33)   ( 0:00/00:00:00)
   3 ２二角成(88)   ( 0:00/00:00:00)
   4 同　銀(31)   ( 0:00/00:00:00)
   5 ４五角打   ( 0:00/00:00:00)
   6 投了
まで5手で先手の勝ち
";

    #[test]
    fn kif_even_game() {
        let g = parse_kif(KIF).unwrap();
        let usi: Vec<String> = g.moves.iter().map(|m| m.to_usi()).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert_eq!(g.positions.len(), 6);
    }

    #[test]
    fn kif_errors_name_the_line() {
        let bad = KIF.replace("同　銀(31)", "同　金(31)");
        let e = parse_kif(&bad).unwrap_err();
        assert!(e.0[0].message.starts_with("line 10:"), "{e}");
        assert_eq!(&bad[e.0[0].offset..e.0[0].offset + 4], "   4");
        let bad = KIF.replace("７六歩(77)", "７五歩(77)");
        let e = parse_kif(&bad).unwrap_err();
        assert!(e.0[0].message.starts_with("line 7:"), "{e}");
    }

    #[test]
    fn kif_hand_of_kings_is_an_error() {
        // found by the kif fuzz target: a king in hand indexed past the hand table
        assert!(kif_hand("玉").is_none());
        assert!(kif_hand("と二").is_none());
        let text = "先手の持駒：玉\n手数----指手---------消費時間--\n   1 ５八玉(59)\n";
        let _ = parse_kif(text);
    }

    #[test]
    fn kif_diagram_roundtrip() {
        let p = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        )
        .unwrap();
        let text = format!("{}手数----指手---------消費時間--\n", p.diagram());
        let g = parse_kif(&text).unwrap();
        assert_eq!(g.last(), &p);
        let text = format!("{}   1 ２二飛打\n", p.diagram());
        let e = parse_kif(&text).unwrap_err();
        assert!(
            e.0[0].message.contains("no 飛 in hand") || e.0[0].message.contains("illegal"),
            "{e}"
        );
    }

    const CSA: &str = "V2.2
N+A
N-B
PI
+
+7776FU
T3
-3334FU,T2
+8822UM
-3122GI
+0045KA
%TORYO
";

    /// A record with a board written row by row, times and a result.
    const CSA_BOARD: &str = "V2.2
N+sente
N-gote
$EVENT:test
P1-KY-KE-GI-KI-OU-KI-GI-KE-KY
P2 * -HI *  *  *  *  * -KA * 
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU
P8 * +KA *  *  *  *  * +HI * 
P9+KY+KE+GI+KI+OU+KI+GI+KE+KY
+
+7776FU
T12
-3334FU
T3
+8822UM
-3122GI
+0045KA
%TORYO
";

    /// Every prefix of a valid record is refused, naming a line, or is itself a record of the
    /// game up to one of its moves: a prefix that ends at a whole move, inside the seconds of a
    /// time line, at the side line before the first move, or at the result. An empty record is
    /// no game, in CSA and in KIF.
    #[test]
    fn records_cut_short_are_refused() {
        let full = parse_csa(CSA_BOARD).unwrap();
        assert_eq!(full.moves.len(), 5);
        let mut loaded = 0;
        for i in 0..CSA_BOARD.len() {
            let cut = &CSA_BOARD[..i];
            match parse_csa(cut) {
                Err(e) => assert!(e.0[0].message.starts_with("line "), "{cut:?}: {e}"),
                Ok(g) => {
                    loaded += 1;
                    assert!(full.moves.starts_with(&g.moves), "{cut:?}");
                    let last = cut.lines().last().unwrap_or("").trim();
                    let whole_move = last.len() == 7 && CSA_BOARD.lines().any(|l| l == last);
                    assert!(
                        whole_move || last.starts_with('T') || last == "+" || last == "%TORYO",
                        "{cut:?} loads"
                    );
                }
            }
        }
        // the ends of the five moves and of the side line, with or without their line end, and
        // the seconds of the time lines
        assert_eq!(loaded, 18, "prefixes that load");
        for empty in ["", "\n\n", "  \n", "'a comment\n"] {
            let e = parse_csa(empty).unwrap_err();
            assert!(e.0[0].message.contains("empty"), "{empty:?}: {e}");
        }
        for empty in ["", "\u{feff}\n", "# a comment\n"] {
            let e = parse_kif(empty).unwrap_err();
            assert!(e.0[0].message.contains("empty"), "{empty:?}: {e}");
        }
    }

    #[test]
    fn csa_even_game() {
        let g = parse_csa(CSA).unwrap();
        let usi: Vec<String> = g.moves.iter().map(|m| m.to_usi()).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        let k = parse_kif(KIF).unwrap();
        assert_eq!(g.last(), k.last());
        let u = super::super::usi::parse_position_command(&g.to_usi_position()).unwrap();
        assert_eq!(u, g);
    }

    #[test]
    fn csa_board_and_errors() {
        let text = "P1 *  *  *  *  *  *  *  * -OU
P2 *  *  *  *  *  *  *  *  * 
P3 *  *  *  *  *  *  *  *  * 
P4 *  *  *  *  *  *  *  *  * 
P5 *  *  *  *  *  *  *  *  * 
P6 *  *  *  *  *  *  *  *  * 
P7 *  *  *  *  *  *  *  *  * 
P8 *  *  *  *  *  *  *  *  * 
P9 *  *  *  * +OU *  *  *  * 
P+00KI
P-00AL
+
+0012KI
";
        let g = parse_csa(text).unwrap();
        assert_eq!(
            g.positions[0].to_sfen(),
            "8k/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1"
        );
        assert_eq!(g.moves[0].to_usi(), "G*1b");
        let e = parse_csa(&text.replace("+0012KI", "+0013KI\n-1112OU")).unwrap_err();
        assert!(e.0[0].message.starts_with("line 14:"), "{e}");
        assert!(parse_csa("PI82HI22KA\n+\n+2726FU\n").is_ok());
        assert!(parse_csa("+7776XX\n").is_err());
        let two_kings = text.replace(
            "P2 *  *  *  *  *  *  *  *  * ",
            "P2 *  *  *  *  *  *  *  * +OU",
        );
        assert!(parse_csa(&two_kings).unwrap_err().0[0]
            .message
            .contains("more than one king"));
        let e = parse_csa("P+00KA00KA00KA\n").unwrap_err();
        assert!(e.0[0].message.contains("impossible"), "{e}");
    }
}
