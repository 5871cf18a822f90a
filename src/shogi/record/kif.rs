//! The reader of KIF and KI2 records (Kakinoki's format, kakinoki.o.oo7.jp/kif_format.html).

use super::*;
use std::ops::ControlFlow;

/// The start position of a KIF record: a board diagram with its hands and side, a handicap, or
/// the even game.
fn kif_start(
    diagram: &Option<Position>,
    start: &Option<Position>,
    hands: &[Vec<(PieceKind, u8)>; 2],
    side: Color,
) -> Position {
    let mut pos = match (diagram, start) {
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
}

/// The move of a KIF move line after its number: `７六歩(77)`, `同　銀(31)` (a space after
/// `同`), `投了`; the time that follows is left out.
fn kif_move_text(rest: &str) -> String {
    let rest = rest.trim_start();
    let word = match rest.strip_prefix('同') {
        Some(r) => format!(
            "同{}",
            r.trim_start_matches([' ', '　'])
                .split_whitespace()
                .next()
                .unwrap_or("")
        ),
        None => rest.split_whitespace().next().unwrap_or("").to_string(),
    };
    // a variation mark right after the move
    without_time(&word).trim_end_matches('+').to_string()
}

/// A KIF move written with its time and no space between (`７六歩(77)( 0:00/00:00:00)`, as
/// some applications write it): the move alone. The origin is two digits in parentheses; any
/// other parenthesis starts the time.
fn without_time(word: &str) -> &str {
    let Some(i) = word.find('(') else {
        return word;
    };
    let b = &word.as_bytes()[i..];
    if b.len() >= 4 && b[1].is_ascii_digit() && b[2].is_ascii_digit() && b[3] == b')' {
        &word[..i + 4]
    } else {
        &word[..i]
    }
}

/// Parses a KIF or KI2 game record (main line only) into the game, with the moves as written.
///
/// Understands `手合割` (even game and the usual handicaps; `その他` with a board diagram), a board
/// diagram with `後手の持駒` / `先手の持駒` and `後手番`, KIF move lines such as `７六歩(77)`,
/// `同　銀(31)`, `４五角打`, `２二角成(88)`, `３三桂不成(45)`, moves without their origin
/// (`53玉`), KI2 lines (`▲７六歩　△３四歩`, with `右` `左` `直` `上` `引` `寄`), the ending words
/// (`投了`, `千日手`, `反則勝ち`, ...) and the summary line (`まで64手で先手の勝ち`), and stops at the
/// first variation. Errors name the line and span it.
pub fn read_kif(text: &str) -> Result<Record, ParseErrors> {
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Err(empty_record("KIF"));
    }
    let mut r = KifReader::new();
    for &(no, off, line) in &lines_with_offsets(text) {
        if r.line(no, off, line).is_break() {
            break;
        }
    }
    r.finish()
}

/// What a KIF reader has read so far.
struct KifReader {
    start: Option<Position>,
    errs: Vec<ParseError>,
    // the board diagram: its rows read so far, the hands and the side to move
    diagram: Option<Position>,
    diagram_row: u8,
    hands: [Vec<(PieceKind, u8)>; 2],
    side: Color,
    moves: Option<Moves>,
    known: bool,
    // the ending "move" and the summary line
    ending: Option<RecordResult>,
    summary: Option<(usize, String)>,
    // 将棋倶楽部24's result line: its line, its words, and the summary's wording of them
    side_line: Option<(usize, String, String)>,
    // a 封じ手 line no move has followed yet
    sealed: Option<RecordResult>,
    // the first line that is none of a record's (refused where the rest is a record)
    stray: Option<ParseError>,
}

/// The hand a diagram's hand line gives, with its side.
fn hand_of(t: &str) -> Option<(Color, &str)> {
    if let Some(v) = t
        .strip_prefix("後手の持駒：")
        .or_else(|| t.strip_prefix("上手の持駒："))
    {
        return Some((Color::White, v));
    }
    t.strip_prefix("先手の持駒：")
        .or_else(|| t.strip_prefix("下手の持駒："))
        .map(|v| (Color::Black, v))
}

impl KifReader {
    fn new() -> Self {
        KifReader {
            start: None,
            errs: Vec::new(),
            diagram: None,
            diagram_row: 0,
            hands: [Vec::new(), Vec::new()],
            side: Color::Black,
            moves: None,
            known: false,
            ending: None,
            summary: None,
            side_line: None,
            sealed: None,
            stray: None,
        }
    }

    /// Reads line `no` (at byte `off`); breaks at the first variation or the first error that
    /// ends the record.
    fn line(&mut self, no: usize, off: usize, line: &str) -> ControlFlow<()> {
        let trimmed = line.trim_start_matches('\u{feff}').trim();
        if trimmed.is_empty()
            || trimmed.starts_with('#')
            || trimmed.starts_with('*')
            || trimmed.starts_with('&')
        {
            return ControlFlow::Continue(());
        }
        if trimmed.starts_with("変化") {
            return ControlFlow::Break(());
        }
        if self.header(no, off, line, trimmed) {
            return ControlFlow::Continue(());
        }
        let first = trimmed.split_whitespace().next().unwrap_or("");
        let kif_line = !first.is_empty() && first.chars().all(|c| c.is_ascii_digit());
        let ki2_line = trimmed.chars().next().and_then(side_mark).is_some();
        if !kif_line && !ki2_line {
            if trimmed.contains('：') || trimmed.contains(':') || trimmed.starts_with("手数") {
                // a header (`開始日時：...`, `棋戦：...`) or the moves' heading
                self.known = true;
            } else if !diagram_frame(trimmed) && self.stray.is_none() {
                self.stray = Some(line_error(
                    off,
                    no,
                    line,
                    "not a line of a KIF or KI2 record".into(),
                    "a KIF record has headers such as `手合割：平手`, a board diagram, and moves such as `   1 ７六歩(77)`; KI2 writes `▲７六歩`; comments start with `*` or `#`",
                ));
            }
            return ControlFlow::Continue(());
        }
        self.known = true;
        if self.moves.is_none() {
            if self.diagram.is_some() && self.diagram_row != 9 {
                let rows = self.diagram_row;
                self.errs.push(line_error(
                    off,
                    no,
                    line,
                    format!("the board diagram has {rows} rows, not 9"),
                    "write 9 rows",
                ));
                return ControlFlow::Break(());
            }
            let pos = kif_start(&self.diagram, &self.start, &self.hands, self.side);
            if let Some(msg) = impossible(&pos) {
                self.errs.push(line_error(
                    off,
                    no,
                    line,
                    msg,
                    "fix the board diagram or the hands",
                ));
                return ControlFlow::Break(());
            }
            self.moves = Some(Moves::new(pos));
        }
        let items = if kif_line {
            let place = Place {
                line: no,
                offset: off,
                len: line.len(),
            };
            vec![(kif_move_text(&trimmed[first.len()..]), place)]
        } else {
            let lead = trimmed.as_ptr() as usize - line.as_ptr() as usize;
            ki2_moves(trimmed, no, off + lead)
        };
        for (text, place) in items {
            if self.ending.is_some() {
                // nothing is played after the game ended
                return ControlFlow::Continue(());
            }
            if let Err(e) = self.play(&text, place) {
                self.errs.push(e);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    }

    /// Reads a line of the record's head: the summary line, 24's result line, the handicap,
    /// a hand, the side to move or a row of the board diagram. False for any other line.
    fn header(&mut self, no: usize, off: usize, line: &str, trimmed: &str) -> bool {
        // the summary line (kif_summary reads only a line that starts with まで)
        if kif_summary(trimmed, Color::Black).is_some() {
            self.summary = Some((no, trimmed.to_string()));
            self.known = true;
            return true;
        }
        // 将棋倶楽部24 states the result on a line of its own, `先手 反則負け`: a summary of the
        // moves read so far
        if let Some(said) = side_result(trimmed).filter(|_| self.moves.is_some()) {
            self.side_line = Some((no, trimmed.to_string(), said));
            return true;
        }
        if let Some(v) = trimmed.strip_prefix("手合割：") {
            self.known = true;
            let v = v.trim();
            match HANDICAPS.iter().find(|(n, _)| *n == v) {
                Some((_, sfen)) => self.start = Position::from_sfen(sfen).ok(),
                None if v == "その他" => {}
                None => self.errs.push(line_error(
                    off,
                    no,
                    line,
                    format!("unknown handicap `{v}`"),
                    "use 平手 or a standard handicap name, or give a board diagram",
                )),
            }
            return true;
        }
        if let Some((c, v)) = hand_of(trimmed) {
            self.known = true;
            match kif_hand(v) {
                Some(h) => self.hands[c.index()] = h,
                None => self.errs.push(line_error(
                    off,
                    no,
                    line,
                    "cannot read the hand".into(),
                    "write pieces such as `角　歩二`, or `なし`",
                )),
            }
            return true;
        }
        if trimmed.starts_with("後手番") || trimmed.starts_with("上手番") || trimmed == "手番：後手"
        {
            self.side = Color::White;
            self.known = true;
            return true;
        }
        if trimmed.starts_with("先手番") || trimmed.starts_with("下手番") || trimmed == "手番：先手"
        {
            self.side = Color::Black;
            self.known = true;
            return true;
        }
        if trimmed.starts_with('|') && self.moves.is_none() {
            self.known = true;
            self.diagram_row += 1;
            let row = self.diagram_row;
            let d = self.diagram.get_or_insert_with(Position::empty);
            if row > 9 || !board_row(d, row, trimmed) {
                self.errs.push(line_error(off, no, line, "cannot read this board row".into(), "a row is `|` then 9 cells such as `v香`, ` 歩` or ` ・`, then `|` and the row numeral"));
            }
            return true;
        }
        false
    }

    /// Plays a move as written (or reads the ending word in its place).
    fn play(&mut self, text: &str, place: Place) -> Result<(), ParseError> {
        let no = place.line;
        let Some(ms) = self.moves.as_mut() else {
            return Ok(());
        };
        let bare = text.trim_start_matches(|c| side_mark(c).is_some());
        if let Some((e, o, _)) = kif_ending(bare, ms.to_move()) {
            if e == Ending::Sealed {
                // 封じ手 adjourns the game: it ends the record only if no move follows
                self.sealed = Some(ms.result(e, o, bare, no));
            } else {
                self.ending = Some(ms.result(e, o, bare, no));
            }
            return Ok(());
        }
        self.sealed = None;
        ms.check_pending()?;
        let played = parse_written(text)
            .and_then(|w| resolve(ms.game.last(), &w, ms.last_to))
            .map_err(|msg| {
                let msg = if msg.starts_with('`') {
                    msg
                } else {
                    format!("`{text}`: {msg}")
                };
                ParseError::new(
                    place.offset,
                    place.len,
                    format!("line {no}: {msg}"),
                    "write a move such as `７六歩(77)`, `同　銀(31)`, `４五角打` or `▲５八金右`",
                )
            })?;
        ms.play(played, text, place)
    }

    /// The record, or the errors found.
    fn finish(mut self) -> Result<Record, ParseErrors> {
        let rows = self.diagram_row;
        if self.diagram.is_some() && rows != 9 && self.moves.is_none() && self.errs.is_empty() {
            self.errs.push(ParseError::new(
                0,
                0,
                format!("the board diagram has {rows} rows, not 9"),
                "write 9 rows",
            ));
        }
        if let Some(e) = self.stray.take().filter(|_| self.known) {
            self.errs.insert(0, e);
        }
        if !self.known && self.errs.is_empty() {
            self.errs.push(ParseError::new(
                0,
                0,
                "no KIF or KI2 record: no header, board diagram or move",
                "a KIF record has lines such as `手合割：平手` and `   1 ７六歩(77)`; KI2 writes `▲７六歩`",
            ));
        }
        if !self.errs.is_empty() {
            return Err(ParseErrors(self.errs));
        }
        let ms = match self.moves.take() {
            Some(ms) => ms,
            None => {
                let pos = kif_start(&self.diagram, &self.start, &self.hands, self.side);
                if let Some(msg) = impossible(&pos) {
                    return Err(ParseErrors(vec![ParseError::new(
                        0,
                        0,
                        msg,
                        "fix the board or the hands",
                    )]));
                }
                Moves::new(pos)
            }
        };
        let result = self.result(&ms);
        Ok(ms.finish(result))
    }

    /// The result the record states: the ending "move" says why (a 封じ手 when no move followed
    /// it); the summary, where it names a winner, says who won.
    fn result(self, ms: &Moves) -> Option<RecordResult> {
        let ending = self.ending.or(self.sealed);
        let first = ms.game.start().side_to_move();
        // the summary line as written, or 24's line worded as one of the moves read
        let summary = self
            .summary
            .map(|(line, text)| (line, text.clone(), text))
            .or_else(|| {
                self.side_line.map(|(line, text, said)| {
                    (line, text, format!("まで{}手で{said}", ms.written()))
                })
            });
        let stated = summary.and_then(|(line, text, words)| {
            let (n, s) = kif_summary(&words, first)?;
            let (e, o) = s?;
            Some(RecordResult {
                ending: e,
                outcome: o,
                ply: n,
                stated: text,
                line,
            })
        });
        match (ending, stated) {
            (Some(mut e), Some(s)) => {
                if matches!(s.outcome, Outcome::Win(_)) {
                    e.outcome = s.outcome;
                }
                Some(e)
            }
            (e, s) => e.or(s),
        }
    }
}

/// Reads row `row` of a board diagram (`|v香v桂 ・...|一`) onto `d`; false when a cell does not
/// read.
fn board_row(d: &mut Position, row: u8, trimmed: &str) -> bool {
    let mut chars = trimmed.chars().skip(1);
    for col in (1..=9u8).rev() {
        let (Some(a), Some(b)) = (chars.next(), chars.next()) else {
            return false;
        };
        if b == '・' {
            continue;
        }
        let color = if a == 'v' { Color::White } else { Color::Black };
        let mut buf = [0u8; 4];
        match kif_piece(b.encode_utf8(&mut buf)) {
            Some((k, _)) => {
                if let Some(sq) = Square::new(col, row) {
                    d.put(sq, Piece::new(color, k));
                }
            }
            None => return false,
        }
    }
    true
}

/// The moves of a KI2 line (`▲７六歩　△３四歩`), each with its place; `at` is the line's
/// offset in the text where `trimmed` starts.
fn ki2_moves(trimmed: &str, no: usize, at: usize) -> Vec<(String, Place)> {
    let marks: Vec<usize> = trimmed
        .char_indices()
        .filter(|&(_, c)| side_mark(c).is_some())
        .map(|(i, _)| i)
        .collect();
    let mut items = Vec::new();
    for (k, &i) in marks.iter().enumerate() {
        let end = marks.get(k + 1).copied().unwrap_or(trimmed.len());
        let chunk = trimmed[i..end].trim_end();
        let text: String = chunk.chars().filter(|c| !c.is_whitespace()).collect();
        items.push((
            text,
            Place {
                line: no,
                offset: at + i,
                len: chunk.len(),
            },
        ));
    }
    items
}

/// A line that names a side and its result and nothing else (`先手 反則負け`, `後手の勝ち`), as
/// 将棋倶楽部24 writes it: the result as a summary line words it (`先手の反則負け`).
fn side_result(line: &str) -> Option<String> {
    let (side, rest) = ["先手", "後手", "下手", "上手"]
        .iter()
        .find_map(|s| line.strip_prefix(s).map(|r| (*s, r)))?;
    let rest = rest.trim_start_matches([' ', '\u{3000}']);
    let rest = rest.strip_prefix('の').unwrap_or(rest).trim();
    const WORDS: [&str; 9] = [
        "反則負け",
        "反則勝ち",
        "切れ負け",
        "入玉勝ち",
        "宣言勝ち",
        "不戦勝",
        "不戦敗",
        "勝ち",
        "負け",
    ];
    WORDS.contains(&rest).then(|| format!("{side}の{rest}"))
}

/// A line of a board diagram's frame: its border (`+---...---+`) or the column numerals above it
/// (`  ９ ８ ７ ...`).
fn diagram_frame(line: &str) -> bool {
    line.chars().all(|c| c == '+' || c == '-')
        || line
            .chars()
            .all(|c| c.is_whitespace() || ('１'..='９').contains(&c))
}

/// Parses a KIF or KI2 record into its game: [`read_kif`], refused when the record ends with a
/// move that cannot be played.
pub fn parse_kif(text: &str) -> Result<Game, ParseErrors> {
    read_kif(text)?.into_game()
}

/// Parses a kanji hand such as `角　歩二` or `なし`.
pub(super) fn kif_hand(s: &str) -> Option<Vec<(PieceKind, u8)>> {
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
