//! Game records: a start position and the moves played from it, and the readers of KIF, KI2 and
//! CSA records.
//!
//! A reader keeps the moves as written: a move of the pieces the rules forbid (two pawns on a
//! file, a pawn drop that mates, the own king left in check, a piece with nowhere to go) is read
//! and kept, for the rules to judge. A move the pieces cannot make ends the record: as its last
//! move it is the record's foul ([`Record::illegal_end`]); followed by more moves it makes the
//! record unreadable. The result a record states (`投了`, `%TORYO`, `まで64手で先手の勝ち`) is
//! read into [`Record::result`]. Sources: Kakinoki's KIF format (kakinoki.o.oo7.jp/kif_format.html),
//! the CSA standard record format V2.2 and V3.0 (computer-shogi.org/protocol/record_v22.html,
//! record_v3.html); docs/RECORDS.md.

use super::ending::{csa_ending, kif_ending, kif_summary, Ending, Outcome, RecordResult};
use super::notation::{kanji_digit, kif_piece, parse_written, played, resolve, side_mark, Played};
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

    /// Appends `m` (a move of the one-step transition in the latest position).
    pub fn push(&mut self, m: Move) {
        let next = self.last().after(m);
        self.positions.push(next);
        self.moves.push(m);
    }
}

use super::sfen::{ParseError, ParseErrors};
use super::types::{Color, Piece, PieceKind, Square};

/// Where something is written in a record's text: its line (from 1) and its bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub line: usize,
    pub offset: usize,
    pub len: usize,
}

/// The move a record ends with when the pieces cannot make it (a drop of a piece not in hand, a
/// piece that cannot reach the square, a square held by an own piece, a promotion that is not
/// one, the king captured): the record's foul. The game stops before it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IllegalEnd {
    /// Its number in the game (from 1): one more than the moves played.
    pub ply: usize,
    /// The move as written.
    pub written: String,
    /// Why the pieces cannot make it.
    pub why: String,
    /// Where it is written.
    pub place: Place,
}

/// A game record as read: the moves as written, the result it states, and the move it ends
/// with if the pieces cannot make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The start position and every move the record plays (moves the rules forbid included).
    pub game: Game,
    /// Where each move of `game` is written.
    pub places: Vec<Place>,
    /// The result the record states, if it states one.
    pub result: Option<RecordResult>,
    /// The last move, if the pieces cannot make it.
    pub illegal_end: Option<IllegalEnd>,
}

impl Record {
    /// The game, refused when the record ends with a move that cannot be played (for those who
    /// need every move of the record played).
    pub fn into_game(self) -> Result<Game, ParseErrors> {
        match self.illegal_end {
            None => Ok(self.game),
            Some(e) => Err(ParseErrors(vec![ParseError::new(
                e.place.offset,
                e.place.len,
                format!(
                    "line {}: the record ends with move {}, `{}`, which cannot be played: {}",
                    e.place.line, e.ply, e.written, e.why
                ),
                "`okite game` reads such a record and reports its last move as illegal",
            )])),
        }
    }
}

/// The start positions named by KIF `手合割` values: every one of the KIF format's list but
/// `その他` (a board diagram follows). 上手's left is the side of file 1, as in 香落ち: 五枚落ち
/// takes the right knight (8a) with the four of 四枚落ち, 左五枚落ち the left one (2a); 左七枚落ち
/// and 右七枚落ち take a silver from 六枚落ち's (3a and 7a).
const HANDICAPS: [(&str, &str); 16] = [
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
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
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

/// Lines of `text` with their 1-based number and byte offset (line ends stripped). A line ends
/// at `\n`, `\r\n` or a lone `\r` (the line end of older Macintosh files).
fn lines_with_offsets(text: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'\n' => Some(i + 1),
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => Some(i + 2),
            b'\r' => Some(i + 1),
            _ => None,
        };
        match end {
            Some(next) => {
                out.push((out.len() + 1, start, &text[start..i]));
                start = next;
                i = next;
            }
            None => i += 1,
        }
    }
    if start < bytes.len() {
        out.push((out.len() + 1, start, &text[start..]));
    }
    out
}

/// The refusal of a text with nothing in it.
fn empty_record(format: &str) -> ParseErrors {
    ParseErrors(vec![ParseError::new(
        0,
        0,
        format!("the {format} record is empty"),
        "give a record with a start position or moves",
    )])
}

/// The moves of a record as they are read.
struct Moves {
    game: Game,
    places: Vec<Place>,
    last_to: Option<Square>,
    /// A move the pieces cannot make, which only the end of the record may follow.
    pending: Option<IllegalEnd>,
}

impl Moves {
    fn new(start: Position) -> Moves {
        Moves {
            game: Game::new(start),
            places: Vec::new(),
            last_to: None,
            pending: None,
        }
    }

    /// An error when a move follows a move that could not be played.
    fn check_pending(&self) -> Result<(), ParseError> {
        match &self.pending {
            None => Ok(()),
            Some(p) => Err(ParseError::new(
                p.place.offset,
                p.place.len,
                format!(
                    "line {}: move {}, `{}`, cannot be played: {}",
                    p.place.line, p.ply, p.written, p.why
                ),
                "check the move against the position: more moves follow it",
            )),
        }
    }

    /// Plays a move found in the position; an error when it follows a move that could not be
    /// played.
    fn play(&mut self, played: Played, written: &str, place: Place) -> Result<(), ParseError> {
        self.check_pending()?;
        match played {
            Played::Move(m) => {
                self.last_to = Some(m.to());
                self.game.push(m);
                self.places.push(place);
            }
            Played::Unplayable(_, why) => {
                self.pending = Some(IllegalEnd {
                    ply: self.game.moves.len() + 1,
                    written: written.to_string(),
                    why,
                    place,
                })
            }
        }
        Ok(())
    }

    /// The moves written so far, the one that could not be played included.
    fn written(&self) -> usize {
        self.game.moves.len() + usize::from(self.pending.is_some())
    }

    /// The side to move as the record has it: after a move that could not be played, its
    /// mover's opponent.
    fn to_move(&self) -> Color {
        let s = self.game.last().side_to_move();
        if self.pending.is_some() {
            s.flip()
        } else {
            s
        }
    }

    /// The result stated at this point. A foul after a move that could not be played is that
    /// move's: its mover loses.
    fn result(&self, ending: Ending, outcome: Outcome, stated: &str, line: usize) -> RecordResult {
        let outcome = match (&self.pending, ending) {
            (Some(_), Ending::Foul) => Outcome::Win(self.game.last().side_to_move().flip()),
            _ => outcome,
        };
        RecordResult {
            ending,
            outcome,
            ply: self.written(),
            stated: stated.to_string(),
            line,
        }
    }

    fn finish(self, result: Option<RecordResult>) -> Record {
        Record {
            game: self.game,
            places: self.places,
            result,
            illegal_end: self.pending,
        }
    }
}

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
    let lines = lines_with_offsets(text);
    let mut start: Option<Position> = None;
    let mut errs = Vec::new();
    // Board diagram state.
    let mut diagram: Option<Position> = None;
    let mut diagram_row = 0u8;
    let mut hands: [Vec<(PieceKind, u8)>; 2] = [Vec::new(), Vec::new()];
    let mut side = Color::Black;
    let mut moves: Option<Moves> = None;
    let mut known = false;
    // the ending "move" and the summary line
    let mut ending: Option<RecordResult> = None;
    let mut summary: Option<(usize, String)> = None;
    // 将棋倶楽部24's result line: its line, its words, and the summary's wording of them
    let mut side_line: Option<(usize, String, String)> = None;
    // a 封じ手 line no move has followed yet
    let mut sealed: Option<RecordResult> = None;
    // the first line that is none of a record's (refused where the rest is a record)
    let mut stray: Option<ParseError> = None;
    'lines: for &(no, off, line) in &lines {
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
        // the summary line (kif_summary reads only a line that starts with まで)
        if kif_summary(trimmed, Color::Black).is_some() {
            summary = Some((no, trimmed.to_string()));
            known = true;
            continue;
        }
        // 将棋倶楽部24 states the result on a line of its own, `先手 反則負け`: a summary of the
        // moves read so far
        if let Some(said) = side_result(trimmed).filter(|_| moves.is_some()) {
            side_line = Some((no, trimmed.to_string(), said));
            continue;
        }
        if let Some(v) = trimmed.strip_prefix("手合割：") {
            known = true;
            let v = v.trim();
            match HANDICAPS.iter().find(|(n, _)| *n == v) {
                Some((_, sfen)) => start = Position::from_sfen(sfen).ok(),
                None if v == "その他" => {}
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
        let hand_of = |t: &str| {
            if let Some(v) = t
                .strip_prefix("後手の持駒：")
                .or_else(|| t.strip_prefix("上手の持駒："))
            {
                return Some((Color::White, v.to_string()));
            }
            t.strip_prefix("先手の持駒：")
                .or_else(|| t.strip_prefix("下手の持駒："))
                .map(|v| (Color::Black, v.to_string()))
        };
        if let Some((c, v)) = hand_of(trimmed) {
            known = true;
            match kif_hand(&v) {
                Some(h) => hands[c.index()] = h,
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
            known = true;
            continue;
        }
        if trimmed.starts_with("先手番") || trimmed.starts_with("下手番") || trimmed == "手番：先手"
        {
            side = Color::Black;
            known = true;
            continue;
        }
        if trimmed.starts_with('|') && moves.is_none() {
            known = true;
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
        let kif_line = !first.is_empty() && first.chars().all(|c| c.is_ascii_digit());
        let ki2_line = trimmed.chars().next().and_then(side_mark).is_some();
        if !kif_line && !ki2_line {
            if trimmed.contains('：') || trimmed.contains(':') || trimmed.starts_with("手数") {
                // a header (`開始日時：...`, `棋戦：...`) or the moves' heading
                known = true;
            } else if !diagram_frame(trimmed) && stray.is_none() {
                stray = Some(line_error(
                    off,
                    no,
                    line,
                    "not a line of a KIF or KI2 record".into(),
                    "a KIF record has headers such as `手合割：平手`, a board diagram, and moves such as `   1 ７六歩(77)`; KI2 writes `▲７六歩`; comments start with `*` or `#`",
                ));
            }
            continue;
        }
        known = true;
        if moves.is_none() {
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
            let pos = kif_start(&diagram, &start, &hands, side);
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
            moves = Some(Moves::new(pos));
        }
        let Some(ms) = moves.as_mut() else { continue };
        // the moves of the line, each with its place
        let lead = trimmed.as_ptr() as usize - line.as_ptr() as usize;
        let mut items: Vec<(String, Place)> = Vec::new();
        if kif_line {
            let text = kif_move_text(&trimmed[first.len()..]);
            items.push((
                text,
                Place {
                    line: no,
                    offset: off,
                    len: line.len(),
                },
            ));
        } else {
            let marks: Vec<usize> = trimmed
                .char_indices()
                .filter(|&(_, c)| side_mark(c).is_some())
                .map(|(i, _)| i)
                .collect();
            for (k, &i) in marks.iter().enumerate() {
                let end = marks.get(k + 1).copied().unwrap_or(trimmed.len());
                let chunk = trimmed[i..end].trim_end();
                let text: String = chunk.chars().filter(|c| !c.is_whitespace()).collect();
                items.push((
                    text,
                    Place {
                        line: no,
                        offset: off + lead + i,
                        len: chunk.len(),
                    },
                ));
            }
        }
        for (text, place) in items {
            if ending.is_some() {
                // nothing is played after the game ended
                continue 'lines;
            }
            let bare = text.trim_start_matches(|c| side_mark(c).is_some());
            if let Some((e, o, _)) = kif_ending(bare, ms.to_move()) {
                if e == Ending::Sealed {
                    // 封じ手 adjourns the game: it ends the record only if no move follows
                    sealed = Some(ms.result(e, o, bare, no));
                } else {
                    ending = Some(ms.result(e, o, bare, no));
                }
                continue;
            }
            sealed = None;
            if let Err(e) = ms.check_pending() {
                errs.push(e);
                break 'lines;
            }
            let err = |msg: String| {
                ParseError::new(
                    place.offset,
                    place.len,
                    format!("line {no}: {msg}"),
                    "write a move such as `７六歩(77)`, `同　銀(31)`, `４五角打` or `▲５八金右`",
                )
            };
            let played =
                match parse_written(&text).and_then(|w| resolve(ms.game.last(), &w, ms.last_to)) {
                    Ok(p) => p,
                    Err(msg) => {
                        let msg = if msg.starts_with('`') {
                            msg
                        } else {
                            format!("`{text}`: {msg}")
                        };
                        errs.push(err(msg));
                        break 'lines;
                    }
                };
            if let Err(e) = ms.play(played, &text, place) {
                errs.push(e);
                break 'lines;
            }
        }
    }
    if diagram.is_some() && diagram_row != 9 && moves.is_none() && errs.is_empty() {
        errs.push(ParseError::new(
            0,
            0,
            format!("the board diagram has {diagram_row} rows, not 9"),
            "write 9 rows",
        ));
    }
    if let Some(e) = stray.filter(|_| known) {
        errs.insert(0, e);
    }
    if !known && errs.is_empty() {
        errs.push(ParseError::new(
            0,
            0,
            "no KIF or KI2 record: no header, board diagram or move",
            "a KIF record has lines such as `手合割：平手` and `   1 ７六歩(77)`; KI2 writes `▲７六歩`",
        ));
    }
    if !errs.is_empty() {
        return Err(ParseErrors(errs));
    }
    let ms = match moves {
        Some(ms) => ms,
        None => {
            let pos = kif_start(&diagram, &start, &hands, side);
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
    // the ending "move" says why (a 封じ手 when no move followed it); the summary, where it
    // names a winner, says who won
    let ending = ending.or(sealed);
    let first = ms.game.start().side_to_move();
    // the summary line as written, or 24's line worded as one of the moves read
    let summary = summary
        .map(|(line, text)| (line, text.clone(), text))
        .or_else(|| {
            side_line
                .map(|(line, text, said)| (line, text, format!("まで{}手で{said}", ms.written())))
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
    let result = match (ending, stated) {
        (Some(mut e), Some(s)) => {
            if matches!(s.outcome, Outcome::Win(_)) {
                e.outcome = s.outcome;
            }
            Some(e)
        }
        (e, s) => e.or(s),
    };
    Ok(ms.finish(result))
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

    /// Every handicap of the KIF format's list: 上手 (gote) lacks as many pieces as the name
    /// says, moves first, and the pieces of each side of 上手 go as its name says.
    #[test]
    fn every_handicap_of_the_kif_list() {
        for (name, removed, gone) in [
            ("香落ち", 1, &["1a"][..]),
            ("右香落ち", 1, &["9a"][..]),
            ("三枚落ち", 3, &["8b", "2b", "1a"][..]),
            ("五枚落ち", 5, &["9a", "8a", "1a"][..]),
            ("左五枚落ち", 5, &["9a", "2a", "1a"][..]),
            ("左七枚落ち", 7, &["8a", "3a", "2a"][..]),
            ("右七枚落ち", 7, &["8a", "7a", "2a"][..]),
            ("十枚落ち", 10, &["6a", "4a"][..]),
        ] {
            let text =
                format!("手合割：{name}\n手数----指手---------消費時間--\n   1 ５二玉(51)\n");
            let g = parse_kif(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let start = &g.positions[0];
            let white = start
                .pieces()
                .filter(|(_, p)| p.color == Color::White)
                .count();
            assert_eq!(white, 20 - removed, "{name}");
            for sq in gone {
                let sq = Square::from_usi(sq).unwrap();
                assert!(start.piece_at(sq).is_none(), "{name}: {sq:?}");
            }
            assert_eq!(g.moves[0].to_usi(), "5a5b", "{name}");
        }
    }

    /// A move written with its time and no space between, as some applications write them.
    #[test]
    fn kif_time_without_a_space() {
        let tight = KIF.replace("   ( 0:00", "( 0:00");
        assert!(tight.contains("７六歩(77)( 0:00") && tight.contains("４五角打( 0:00"));
        let g = parse_kif(&tight).unwrap();
        let usi: Vec<String> = g.moves.iter().map(|m| m.to_usi()).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
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
        // a king that moves into check is read (the rules judge it)
        let g = parse_csa(&text.replace("+0012KI", "+0013KI\n-1112OU")).unwrap();
        assert_eq!(g.moves[1].to_usi(), "1a1b");
        // a king that cannot reach the square, followed by a move, makes the record unreadable
        let e = parse_csa(&text.replace("+0012KI", "+0013KI\n-1131OU\n+1312KI")).unwrap_err();
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
