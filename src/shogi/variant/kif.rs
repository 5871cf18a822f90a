//! KIF records of a board variant, in the form lishogi writes for 5五将棋 and 京都将棋 (shogiops,
//! src/notation/kif.ts): `手合割：` with the variant's name for its start position, or a board
//! diagram of the variant's size (rows such as `|v飛v角v銀v金v玉|一`) with `後手の持駒：` /
//! `先手の持駒：` and `後手番`; then numbered move lines, `1 ２四歩(25)`, `2 同　銀成(31)`,
//! `3 ３三角打`. The names of the faces are the variant's ([`KifNames`]): a kyoto shogi piece is
//! written by the face it shows. Each move must be legal where it is played; the record is read
//! up to its ending word (`投了`, ...) or its first variation.
//!
//! A move that turns a piece over is written with `成` (kyoto shogi's flip back too); where the
//! variant forces the turn, a move written without it is read with it.

use super::movegen::DropMate;
use super::position::{piece_of, VMove, VPos};
use super::spec::{KifNames, Tables};
use crate::shogi::ending::kif_ending;
use crate::shogi::notation::kanji_digit;
use crate::shogi::sfen::{ParseError, ParseErrors};
use crate::shogi::types::Color;
use std::sync::Arc;

/// A variant's game as a KIF record states it.
pub struct VRecord {
    /// The start position.
    pub start: VPos,
    /// Each move, in the order played.
    pub moves: Vec<KifMove>,
}

/// A move of a record: as played, as USI text in the variant's geometry, and where it is
/// written (its byte offset and length).
pub struct KifMove {
    pub mv: VMove,
    pub usi: String,
    pub at: usize,
    pub len: usize,
}

fn fail(offset: usize, len: usize, msg: impl Into<String>, help: &str) -> ParseErrors {
    ParseErrors(vec![ParseError::new(offset, len.max(1), msg, help)])
}

/// A kanji numeral from 1 to 99 (`一`, `十`, `十八`, `二十`).
fn kanji_number(s: &str) -> Option<u32> {
    let digit = |c: char| {
        "一二三四五六七八九"
            .chars()
            .position(|d| d == c)
            .map(|i| i as u32 + 1)
    };
    let cs: Vec<char> = s.chars().collect();
    match cs.as_slice() {
        [c] if *c == '十' => Some(10),
        [c] => digit(*c),
        ['十', c] => Some(10 + digit(*c)?),
        [a, '十'] => Some(10 * digit(*a)?),
        [a, '十', c] => Some(10 * digit(*a)? + digit(*c)?),
        _ => None,
    }
}

/// A column written as a full-width or ASCII digit.
fn column_digit(c: char) -> Option<i32> {
    match c {
        '１'..='９' => Some(c as i32 - '０' as i32),
        '1'..='9' => Some(c as i32 - '0' as i32),
        _ => None,
    }
}

struct Names<'a> {
    kif: &'a KifNames,
}

impl Names<'_> {
    /// The face whose name begins `s`, the longest name first, and the name's length in bytes.
    fn face_at(&self, s: &str) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        for (f, names) in self.kif.faces.iter().enumerate() {
            for n in names {
                if s.starts_with(n.as_str()) && best.is_none_or(|(_, l)| n.len() > l) {
                    best = Some((f, n.len()));
                }
            }
        }
        best
    }

    fn written(&self, face: usize) -> &str {
        self.kif.faces[face].first().map_or("?", |s| s.as_str())
    }
}

/// The board diagram, hands and side a record's header states.
struct Header {
    rows: Vec<Vec<Option<(usize, usize)>>>,
    hands: [Vec<(usize, u32)>; 2],
    side: usize,
    diagram_at: Option<(usize, usize)>,
}

impl Header {
    /// The start position the header states, as SFEN of the variant.
    fn sfen(&self, t: &Tables) -> String {
        let mut rows = vec![];
        for r in &self.rows {
            let mut out = String::new();
            let mut empty = 0;
            for cell in r {
                match cell {
                    None => empty += 1,
                    Some((f, side)) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let text = &t.spec.faces[*f].text;
                        out.push_str(&if *side == 0 {
                            text.clone()
                        } else {
                            text.to_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            rows.push(out);
        }
        let mut hand = String::new();
        for (side, h) in self.hands.iter().enumerate() {
            for &(k, n) in h {
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                let l = t.spec.kinds[k].letter;
                hand.push(if side == 0 { l } else { l.to_ascii_lowercase() });
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        format!(
            "{} {} {hand} 1",
            rows.join("/"),
            if self.side == 0 { 'b' } else { 'w' }
        )
    }
}

/// Reads a KIF record of the variant `t` (see the module's text). Errors name the line.
pub fn read_kif(t: &Arc<Tables>, text: &str, drop_mate: DropMate) -> Result<VRecord, ParseErrors> {
    let Some(kif) = t.spec.kif.as_ref() else {
        return Err(fail(
            0,
            1,
            format!("no form of KIF is defined for {}", t.spec.name),
            "give the game as --sfen and --usi moves; a variant's file defines its KIF names with `kif_game` and `kif_names`",
        ));
    };
    if t.spec.width > 9 || t.spec.height > 9 {
        return Err(fail(
            0,
            1,
            format!("KIF writes boards of at most 9 x 9, not {}'s", t.spec.name),
            "give the game as --sfen and --usi moves",
        ));
    }
    let names = Names { kif };
    let mut header = Header {
        rows: vec![],
        hands: [vec![], vec![]],
        side: 0,
        diagram_at: None,
    };
    // the start, once the first move is met, and the position the moves have reached
    let mut start: Option<VPos> = None;
    let mut cur: Option<VPos> = None;
    let mut moves = vec![];
    let mut last_to: Option<usize> = None;
    let mut offset = 0usize;
    for raw in text.split_inclusive('\n') {
        let at = offset;
        offset += raw.len();
        let lead = raw.len() - raw.trim_start().len();
        let line = raw.trim().trim_start_matches('\u{feff}');
        let line_at = at + lead;
        let whole = |msg: String, help: &str| fail(line_at, line.len(), msg, help);
        if line.is_empty() || line.starts_with(['#', '*', '&']) {
            continue;
        }
        if line.starts_with("変化") {
            break;
        }
        if line.starts_with("まで") {
            continue;
        }
        if head_line(&mut header, &names, t, line, line_at, cur.is_none())? {
            continue;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        if !first.is_empty() && first.chars().all(|c| c.is_ascii_digit()) {
            // a move line: its number, the move, then perhaps its time
            let p = match &mut cur {
                Some(p) => p,
                None => {
                    let s = start_of(t, &header)?;
                    start = Some(s.clone());
                    cur.insert(s)
                }
            };
            let rest = line[first.len()..].trim_start();
            // a trailing `+` marks a move with variations (KIF's 変化)
            let mv_text = rest
                .split([' ', '\t'])
                .next()
                .unwrap_or("")
                .trim_end_matches('+');
            let mv_at = line_at + (line.len() - line[first.len()..].trim_start().len());
            if mv_text.is_empty() {
                return Err(whole(
                    "a move number without a move".into(),
                    "write the move after its number",
                ));
            }
            if kif_ending(mv_text, Color::Black).is_some() {
                break;
            }
            let (mv, usi) =
                read_move(&names, p, mv_text, last_to, drop_mate).map_err(|(m, h)| {
                    fail(
                        mv_at,
                        mv_text.len(),
                        format!("move {first} `{mv_text}`: {m}"),
                        &h,
                    )
                })?;
            last_to = Some(mv.to as usize);
            moves.push(KifMove {
                mv,
                usi,
                at: mv_at,
                len: mv_text.len(),
            });
            continue;
        }
        if line.contains('：') || line.contains(':') || line.starts_with("手数") || frame(line) {
            // a header (`開始日時：...`), the moves' heading, or the diagram's frame
            continue;
        }
        return Err(whole(
            "not a line of a KIF record".into(),
            "a record has headers (`棋戦：...`), a board diagram or `手合割`, and numbered moves",
        ));
    }
    let start = match start {
        Some(s) => s,
        None => start_of(t, &header)?,
    };
    Ok(VRecord { start, moves })
}

/// Reads a line of the record's head: the handicap line, a hand, the side to move, or (before
/// the first move) a row of the board diagram. False for any other line.
fn head_line(
    header: &mut Header,
    names: &Names,
    t: &Arc<Tables>,
    line: &str,
    line_at: usize,
    before_moves: bool,
) -> Result<bool, ParseErrors> {
    let whole = |msg: String, help: &str| fail(line_at, line.len(), msg, help);
    if let Some(v) = line
        .strip_prefix("手合割：")
        .or_else(|| line.strip_prefix("手合割:"))
    {
        let v = v.trim();
        if v != names.kif.game {
            return Err(whole(
                format!("`手合割：{v}` names no start position of {}", t.spec.name),
                &format!(
                    "{}'s records name its start `手合割：{}`, or draw the board",
                    t.spec.name, names.kif.game
                ),
            ));
        }
        return Ok(true);
    }
    let hand = [
        ("後手の持駒：", 1),
        ("上手の持駒：", 1),
        ("先手の持駒：", 0),
        ("下手の持駒：", 0),
    ]
    .iter()
    .find_map(|(p, s)| line.strip_prefix(p).map(|v| (*s, v)));
    if let Some((side, v)) = hand {
        header.hands[side] = read_hand(names, t, v.trim())
            .map_err(|m| whole(m, "write pieces such as `飛 歩二`, or `なし`"))?;
        return Ok(true);
    }
    if ["後手番", "上手番", "手番：後手"]
        .iter()
        .any(|p| line.starts_with(p))
    {
        header.side = 1;
        return Ok(true);
    }
    if ["先手番", "下手番", "手番：先手"]
        .iter()
        .any(|p| line.starts_with(p))
    {
        header.side = 0;
        return Ok(true);
    }
    if line.starts_with('|') && before_moves {
        header.diagram_at.get_or_insert((line_at, line.len()));
        let row = read_row(names, line, t.spec.width).map_err(|m| {
            whole(
                m,
                &format!(
                    "a row of {}'s board is `|`, {} cells such as `v飛`, ` 歩` or ` ・`, then `|` and the row's numeral",
                    t.spec.name, t.spec.width
                ),
            )
        })?;
        header.rows.push(row);
        return Ok(true);
    }
    Ok(false)
}

/// A line of the diagram's frame: the columns' numerals or a rule of `-`.
fn frame(line: &str) -> bool {
    line.chars()
        .all(|c| c == '+' || c == '-' || c == ' ' || c == '　' || column_digit(c).is_some())
}

/// The start position: the diagram where the header draws one, else the variant's start.
fn start_of(t: &Arc<Tables>, h: &Header) -> Result<VPos, ParseErrors> {
    let Some((at, len)) = h.diagram_at else {
        return VPos::from_sfen(t, "startpos").map_err(|e| ParseErrors(vec![e]));
    };
    if h.rows.len() != t.spec.height {
        return Err(fail(
            at,
            len,
            format!(
                "the board diagram has {} rows; {}'s board has {}",
                h.rows.len(),
                t.spec.name,
                t.spec.height
            ),
            "draw every row of the board",
        ));
    }
    let sfen = h.sfen(t);
    VPos::from_sfen(t, &sfen).map_err(|e| {
        fail(
            at,
            len,
            format!(
                "the board diagram is no position of {}: {}",
                t.spec.name, e.message
            ),
            &e.help,
        )
    })
}

/// A row of the diagram: `width` cells after its `|`.
fn read_row(
    names: &Names,
    line: &str,
    width: usize,
) -> Result<Vec<Option<(usize, usize)>>, String> {
    let mut cells = vec![];
    let mut rest = &line[1..];
    let mut gote = false;
    loop {
        let Some(c) = rest.chars().next() else {
            return Err("the row does not end with `|`".into());
        };
        match c {
            '|' => break,
            ' ' | '　' => {}
            'v' | 'V' => gote = true,
            '・' => {
                cells.push(None);
                gote = false;
            }
            _ => {
                let Some((f, n)) = names.face_at(rest) else {
                    return Err(format!("`{c}` names no piece of this variant"));
                };
                cells.push(Some((f, gote as usize)));
                gote = false;
                rest = &rest[n..];
                continue;
            }
        }
        rest = &rest[c.len_utf8()..];
    }
    if cells.len() != width {
        return Err(format!("the row has {} cells, not {width}", cells.len()));
    }
    Ok(cells)
}

/// A hand: `なし`, or pieces each with its count in kanji (`飛 歩二`).
fn read_hand(names: &Names, t: &Tables, v: &str) -> Result<Vec<(usize, u32)>, String> {
    let mut out: Vec<(usize, u32)> = vec![];
    if v.is_empty() || v == "なし" {
        return Ok(out);
    }
    for item in v.split([' ', '　']).filter(|s| !s.is_empty()) {
        let Some((f, n)) = names.face_at(item) else {
            return Err(format!("`{item}` names no piece of this variant"));
        };
        let count = if item.len() == n {
            1
        } else {
            kanji_number(&item[n..]).ok_or_else(|| format!("`{}` is no count", &item[n..]))?
        };
        let kind = t.spec.faces[f].kind;
        match out.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, c)) => *c += count,
            None => out.push((kind, count)),
        }
    }
    out.sort();
    Ok(out)
}

type MoveError = (String, String);

/// A move of a record, played on `p`: the move and its USI text.
fn read_move(
    names: &Names,
    p: &mut VPos,
    s: &str,
    last_to: Option<usize>,
    drop_mate: DropMate,
) -> Result<(VMove, String), MoveError> {
    let t = p.t.clone();
    let bad = |m: String, h: &str| (m, h.to_string());
    let (to, rest) = if let Some(r) = s.strip_prefix('同') {
        let to =
            last_to.ok_or_else(|| bad("`同` with no move before it".into(), "name the square"))?;
        (to, r.trim_start_matches([' ', '　']))
    } else {
        let mut cs = s.chars();
        let (Some(c), Some(r)) = (cs.next(), cs.next()) else {
            return Err(bad("no square".into(), "write the square, as `２四`"));
        };
        let (Some(c), Some(r)) = (column_digit(c), kanji_digit(r).map(i32::from)) else {
            return Err(bad(
                "no square".into(),
                "write the square as a column and a row, as `２四`",
            ));
        };
        let to = t.square(c, r).ok_or_else(|| {
            bad(
                format!("{c}{r} is no square of {}", t.spec.name),
                "name a square of the board",
            )
        })?;
        (to, cs.as_str())
    };
    let Some((face, n)) = names.face_at(rest) else {
        return Err(bad(
            "no piece named".into(),
            "write the piece after the square, as `２四歩`",
        ));
    };
    let rest = &rest[n..];
    let to_name = t.square_name(to);
    if let Some(r) = rest.strip_prefix('打') {
        if !r.is_empty() {
            return Err(bad(
                format!("`{r}` after the drop"),
                "a drop is written `３三角打`",
            ));
        }
        let usi = format!("{}*{to_name}", t.spec.faces[face].text);
        let m = p
            .parse_move(&usi, drop_mate)
            .map_err(|e| (e.message, e.help))?;
        p.do_move(m);
        return Ok((m, usi));
    }
    let (flip, rest) = if let Some(r) = rest
        .strip_prefix("不成")
        .or_else(|| rest.strip_prefix('生'))
    {
        (Some(false), r)
    } else if let Some(r) = rest.strip_prefix('成') {
        (Some(true), r)
    } else {
        (None, rest)
    };
    let from = rest
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .filter(|r| r.len() == 2 && r.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| {
            bad(
                "no square it comes from".into(),
                "write it in brackets after the move, as `２四歩(25)`",
            )
        })?;
    let b = from.as_bytes();
    let from = t
        .square((b[0] - b'0') as i32, (b[1] - b'0') as i32)
        .ok_or_else(|| {
            bad(
                format!("{from} is no square of {}", t.spec.name),
                "name a square of the board",
            )
        })?;
    let cell = p.board[from];
    if cell == 0 {
        return Err(bad(
            format!("no piece stands on {}", t.square_name(from)),
            "the piece moved must stand where the move says",
        ));
    }
    let (on, side) = piece_of(cell);
    if side != p.side {
        return Err(bad(
            format!("the piece on {} is not the mover's", t.square_name(from)),
            "moves alternate from the side the header names",
        ));
    }
    if on != face {
        return Err(bad(
            format!(
                "the piece on {} is {}, not {}",
                t.square_name(from),
                names.written(on),
                names.written(face)
            ),
            "name the piece as it stands before the move",
        ));
    }
    let turned = if t.spec.faces[face].is_promoted() {
        "-"
    } else {
        "+"
    };
    let plain = format!("{}{to_name}", t.square_name(from));
    let usi = match flip {
        Some(true) => format!("{plain}{turned}"),
        _ => plain.clone(),
    };
    match p.parse_move(&usi, drop_mate) {
        Ok(m) => {
            p.do_move(m);
            Ok((m, usi))
        }
        Err(e) if flip.is_none() => {
            // a turn the variant forces may go unwritten
            let turned = format!("{plain}{turned}");
            match p.parse_move(&turned, drop_mate) {
                Ok(m) => {
                    p.do_move(m);
                    Ok((m, turned))
                }
                Err(_) => Err((e.message, e.help)),
            }
        }
        Err(e) => Err((e.message, e.help)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_numerals_read_to_ninety_nine() {
        assert_eq!(kanji_number("一"), Some(1));
        assert_eq!(kanji_number("十"), Some(10));
        assert_eq!(kanji_number("十八"), Some(18));
        assert_eq!(kanji_number("二十"), Some(20));
        assert_eq!(kanji_number("九十九"), Some(99));
        assert_eq!(kanji_number("十十"), None);
        assert_eq!(kanji_number(""), None);
    }
}
