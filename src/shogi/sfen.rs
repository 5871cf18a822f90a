//! SFEN parsing and printing, input errors with source spans, and strict validation.

use super::position::{Position, STARTPOS_SFEN};
use super::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// One problem found in an input string: a byte span, a one-sentence message and a help line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Byte offset of the offending text in the input.
    pub offset: usize,
    /// Byte length of the offending text (at least 1 unless the input is empty there).
    pub len: usize,
    /// What is wrong, one sentence.
    pub message: String,
    /// How to fix it.
    pub help: String,
}

impl ParseError {
    pub(super) fn new(
        offset: usize,
        len: usize,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> Self {
        ParseError {
            offset,
            len,
            message: message.into(),
            help: help.into(),
        }
    }

    /// The same error moved by `delta` bytes (for text embedded in a larger input).
    pub fn shifted(mut self, delta: usize) -> Self {
        self.offset += delta;
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "at byte {}: {} ({})",
            self.offset, self.message, self.help
        )
    }
}

impl std::error::Error for ParseError {}

/// Every problem found in an input (never empty when returned as an error).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseErrors(pub Vec<ParseError>);

impl fmt::Display for ParseErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ParseErrors {}

/// A rule-level condition that a parseable position may violate (see
/// [`Position::validate_strict`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StrictViolation {
    /// The king of this color is not on the board.
    MissingKing(Color),
    /// An unpromoted pawn or lance on the last rank, or a knight on the last two ranks.
    DeadPiece(Square, Piece),
    /// Two or more unpromoted pawns of one color on one column (1..9).
    DoublePawn(Color, u8),
    /// The side not to move is in check (its king could be captured).
    OpponentInCheck(Color),
}

impl fmt::Display for StrictViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StrictViolation::MissingKing(c) => {
                write!(f, "{}'s king is not on the board", c.kanji())
            }
            StrictViolation::DeadPiece(sq, p) => write!(
                f,
                "{}'s {} on {} can never move again",
                p.color.kanji(),
                p.kind.kanji(),
                sq
            ),
            StrictViolation::DoublePawn(c, col) => {
                write!(
                    f,
                    "{} has two unpromoted pawns on column {}",
                    c.kanji(),
                    col
                )
            }
            StrictViolation::OpponentInCheck(c) => {
                write!(f, "{} is not to move but is in check", c.kanji())
            }
        }
    }
}

/// Splits `s` at ASCII whitespace, keeping byte offsets.
pub(super) fn tokens(s: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices() {
        if c.is_ascii_whitespace() {
            if let Some(st) = start.take() {
                out.push((st, &s[st..i]));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        out.push((st, &s[st..]));
    }
    out
}

fn char_len(s: &str, i: usize) -> usize {
    s[i..].chars().next().map_or(1, |c| c.len_utf8())
}

impl Position {
    /// Parses an SFEN (`board side hand [move-number]`), or `startpos`; a leading `sfen` word
    /// is accepted. Every problem found is reported, each with a byte span into `s`.
    ///
    /// Accepted although not legal shogi: a missing king, dead pieces, two pawns on a
    /// column, the side not to move in check (see [`Position::validate_strict`]).
    pub fn from_sfen(s: &str) -> Result<Position, ParseErrors> {
        parse_sfen(s).map(|(p, _)| p)
    }

    /// Like [`Position::from_sfen`], and also returns the violations of
    /// [`Position::validate_strict`] as warnings with byte spans into `s` (the piece for a
    /// dead piece or a second pawn, the board for a missing king, the side field for a side
    /// not to move in check).
    pub fn from_sfen_with_warnings(s: &str) -> Result<(Position, Vec<ParseError>), ParseErrors> {
        let (pos, spans) = parse_sfen(s)?;
        let mut warnings = Vec::new();
        for v in pos.validate_strict() {
            let ((off, len), help) = match v {
                StrictViolation::MissingKing(_) => (
                    spans.board,
                    "a tsume problem may omit the attacker's king; a game needs both kings",
                ),
                StrictViolation::DeadPiece(sq, _) => (
                    spans.squares[sq.index()],
                    "promote the piece or move it to a rank where it can still move",
                ),
                StrictViolation::DoublePawn(c, col) => {
                    let second = (1..=9u8)
                        .filter_map(|r| Square::new(col, r))
                        .filter(|&sq| pos.piece_at(sq) == Some(Piece::new(c, PieceKind::Pawn)))
                        .map(|sq| spans.squares[sq.index()])
                        .max()
                        .unwrap_or(spans.board);
                    (second, "remove one of the unpromoted pawns on this column")
                }
                StrictViolation::OpponentInCheck(_) => (
                    spans.side,
                    "the side to move could capture the king; check the side field",
                ),
            };
            warnings.push(ParseError::new(off, len, v.to_string(), help));
        }
        Ok((pos, warnings))
    }
}

/// Byte spans of the parts of a parsed SFEN.
struct SfenSpans {
    board: (usize, usize),
    side: (usize, usize),
    squares: [(usize, usize); 81],
}

fn parse_sfen(s: &str) -> Result<(Position, SfenSpans), ParseErrors> {
    {
        let toks = tokens(s);
        let mut errs = Vec::new();
        let mut toks: &[(usize, &str)] = &toks;
        if let Some(&(_, "sfen")) = toks.first() {
            toks = &toks[1..];
        }
        if toks.len() == 1 && toks[0].1 == "startpos" {
            let span = (toks[0].0, toks[0].1.len());
            let (pos, _) = parse_sfen(STARTPOS_SFEN)?;
            let spans = SfenSpans {
                board: span,
                side: span,
                squares: [span; 81],
            };
            return Ok((pos, spans));
        }
        if toks.len() < 3 {
            let (off, len) = match toks.last() {
                Some(&(o, t)) => (o + t.len(), 0),
                None => (s.len(), 0),
            };
            errs.push(ParseError::new(
                off,
                len,
                format!("an SFEN has at least 3 fields, found {}", toks.len()),
                "write `board side hand [move-number]`, e.g. `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`",
            ));
            // Still check what is there.
        }
        let mut pos = Position::empty();
        let mut counts = [[0u32; 8]; 2];
        let mut king_spans: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
        let mut spans = SfenSpans {
            board: (0, s.len()),
            side: (0, s.len()),
            squares: [(0, s.len()); 81],
        };
        if let Some(&(off, board)) = toks.first() {
            spans.board = (off, board.len());
            parse_board(
                board,
                off,
                &mut pos,
                &mut counts,
                &mut king_spans,
                &mut spans.squares,
                &mut errs,
            );
        }
        if let Some(&(off, side)) = toks.get(1) {
            spans.side = (off, side.len());
        }
        if let Some(&(off, side)) = toks.get(1) {
            match side {
                "b" => pos.set_side(Color::Black),
                "w" => pos.set_side(Color::White),
                _ => errs.push(ParseError::new(
                    off,
                    side.len(),
                    format!("the side to move must be `b` or `w`, found `{side}`"),
                    "use `b` for 先手 (Black) or `w` for 後手 (White)",
                )),
            }
        }
        if let Some(&(off, hand)) = toks.get(2) {
            parse_hand(hand, off, &mut pos, &mut counts, &mut errs);
        }
        if let Some(&(off, num)) = toks.get(3) {
            if num.bytes().all(|b| b.is_ascii_digit()) {
                match num.parse::<u64>() {
                    Ok(n) => pos.set_ply(n),
                    Err(_) => errs.push(ParseError::new(
                        off,
                        num.len(),
                        "the move number is too large",
                        "use a number below 2^64",
                    )),
                }
            } else {
                errs.push(ParseError::new(
                    off,
                    num.len(),
                    format!("the move number must be digits, found `{num}`"),
                    "write a positive integer such as `1`",
                ));
            }
        }
        if let Some(&(off, _)) = toks.get(4) {
            let last = toks[toks.len() - 1];
            errs.push(ParseError::new(
                off,
                last.0 + last.1.len() - off,
                "unexpected text after the move number",
                "an SFEN has 4 fields: board, side, hand, move number",
            ));
        }
        // Material limits.
        let (span_off, span_len) = match (toks.first(), toks.get(2)) {
            (Some(&(o, _)), Some(&(ho, h))) => (o, ho + h.len() - o),
            (Some(&(o, b)), None) => (o, b.len()),
            _ => (0, s.len()),
        };
        for kind in PieceKind::HAND {
            let k = kind.index();
            let n = counts[0][k] + counts[1][k];
            if n > kind.total_count() as u32 {
                errs.push(ParseError::new(
                    span_off,
                    span_len,
                    format!(
                        "there are {n} pieces of kind {} ({}) on the board and in hand, but only {} exist",
                        kind.usi_letter(),
                        kind.kanji(),
                        kind.total_count()
                    ),
                    "remove the extra pieces from the board or the hands",
                ));
            }
        }
        for c in Color::ALL {
            let spans = &king_spans[c.index()];
            if spans.len() > 1 {
                for &o in &spans[1..] {
                    errs.push(ParseError::new(
                        o,
                        1,
                        format!("{} has more than one king", c.kanji()),
                        "each side has at most one king",
                    ));
                }
            }
        }
        if errs.is_empty() {
            Ok((pos, spans))
        } else {
            Err(ParseErrors(errs))
        }
    }
}

impl Position {
    /// The SFEN of this position, with the move number.
    pub fn to_sfen(&self) -> String {
        let mut s = String::with_capacity(90);
        for row in 1..=9u8 {
            if row > 1 {
                s.push('/');
            }
            let mut empty = 0;
            for col in (1..=9u8).rev() {
                let sq = Square::new_unchecked((col as usize - 1) * 9 + row as usize - 1);
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push((b'0' + empty) as char);
                            empty = 0;
                        }
                        s.push_str(&p.sfen());
                    }
                }
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
        }
        s.push(' ');
        s.push(self.side.sfen_char());
        s.push(' ');
        let mut any = false;
        for c in Color::ALL {
            for (k, n) in self.hands[c.index()].iter() {
                any = true;
                if n > 1 {
                    s.push_str(&n.to_string());
                }
                let l = k.usi_letter();
                s.push(if c == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
        }
        if !any {
            s.push('-');
        }
        s.push(' ');
        s.push_str(&self.ply.to_string());
        s
    }

    /// Rule-level conditions a position may violate although it parses: both kings present,
    /// no dead pieces, no two unpromoted pawns of one color on a column, and the side not to
    /// move not in check. Returns every violation found (empty when none).
    pub fn validate_strict(&self) -> Vec<StrictViolation> {
        let mut v = Vec::new();
        for c in Color::ALL {
            if self.king_square(c).is_none() {
                v.push(StrictViolation::MissingKing(c));
            }
        }
        for (sq, p) in self.pieces() {
            let rr = sq.relative_row(p.color);
            let dead = match p.kind {
                PieceKind::Pawn | PieceKind::Lance => rr == 1,
                PieceKind::Knight => rr <= 2,
                _ => false,
            };
            if dead {
                v.push(StrictViolation::DeadPiece(sq, p));
            }
        }
        for c in Color::ALL {
            for col in 1..=9u8 {
                let n = (1..=9u8)
                    .filter_map(|r| Square::new(col, r))
                    .filter(|&sq| self.piece_at(sq) == Some(Piece::new(c, PieceKind::Pawn)))
                    .count();
                if n > 1 {
                    v.push(StrictViolation::DoublePawn(c, col));
                }
            }
        }
        let other = self.side.flip();
        if self.is_king_attacked(other) {
            v.push(StrictViolation::OpponentInCheck(other));
        }
        v
    }
}

fn parse_board(
    board: &str,
    off: usize,
    pos: &mut Position,
    counts: &mut [[u32; 8]; 2],
    king_spans: &mut [Vec<usize>; 2],
    square_spans: &mut [(usize, usize); 81],
    errs: &mut Vec<ParseError>,
) {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() != 9 {
        errs.push(ParseError::new(
            off,
            board.len(),
            format!(
                "the board has {} ranks separated by `/`, not 9",
                ranks.len()
            ),
            "write 9 ranks from row 1 (後手's side) to row 9, separated by `/`",
        ));
    }
    let mut rank_off = off;
    for (ri, rank) in ranks.iter().enumerate() {
        let bytes = rank.as_bytes();
        let mut col: i32 = 9; // next column to fill
        let mut i = 0;
        let mut promoted_at: Option<usize> = None;
        while i < bytes.len() {
            let b = bytes[i];
            let abs = rank_off + i;
            if b == b'+' {
                if promoted_at.is_some() {
                    errs.push(ParseError::new(
                        abs,
                        1,
                        "two `+` in a row",
                        "write `+` once before a piece letter",
                    ));
                }
                promoted_at = Some(abs);
                i += 1;
                continue;
            }
            if (b'1'..=b'9').contains(&b) {
                if let Some(p) = promoted_at.take() {
                    errs.push(ParseError::new(
                        p,
                        1,
                        "`+` must be followed by a piece letter",
                        "remove the `+` or add a piece letter",
                    ));
                }
                col -= (b - b'0') as i32;
                i += 1;
                continue;
            }
            let kind = if b.is_ascii_alphabetic() {
                PieceKind::from_usi_letter(b as char)
            } else {
                None
            };
            let Some(mut kind) = kind else {
                let l = char_len(rank, i);
                errs.push(ParseError::new(
                    abs,
                    l,
                    format!("`{}` is not a piece letter or digit", &rank[i..i + l]),
                    "use P L N S G B R K (先手) or p l n s g b r k (後手), `+` for promoted, digits 1-9 for empty squares",
                ));
                promoted_at = None;
                col -= 1;
                i += l;
                continue;
            };
            let color = if b.is_ascii_uppercase() {
                Color::Black
            } else {
                Color::White
            };
            let piece_start = promoted_at.unwrap_or(abs);
            if let Some(p) = promoted_at.take() {
                match kind.promoted() {
                    Some(pk) => kind = pk,
                    None => errs.push(ParseError::new(
                        p,
                        abs + 1 - p,
                        format!(
                            "a {} cannot be promoted",
                            if kind == PieceKind::King {
                                "king"
                            } else {
                                "gold"
                            }
                        ),
                        "remove the `+`",
                    )),
                }
            }
            counts[color.index()][kind.unpromoted().index()] += 1;
            if kind == PieceKind::King {
                king_spans[color.index()].push(abs);
            }
            if (1..=9).contains(&col) && ri < 9 {
                let sq = Square::new_unchecked((col as usize - 1) * 9 + ri);
                if !(kind == PieceKind::King && king_spans[color.index()].len() > 1) {
                    pos.put(sq, Piece::new(color, kind));
                    square_spans[sq.index()] = (piece_start, abs + 1 - piece_start);
                }
            }
            col -= 1;
            i += 1;
        }
        if let Some(p) = promoted_at {
            errs.push(ParseError::new(
                p,
                1,
                "`+` must be followed by a piece letter",
                "remove the `+` or add a piece letter",
            ));
        }
        if col != 0 {
            let n = 9 - col;
            errs.push(ParseError::new(
                rank_off,
                rank.len(),
                format!("rank {} describes {} squares, not 9", ri + 1, n),
                "each rank lists 9 squares: pieces and digits for runs of empty squares",
            ));
        }
        rank_off += rank.len() + 1;
    }
}

fn parse_hand(
    hand: &str,
    off: usize,
    pos: &mut Position,
    counts: &mut [[u32; 8]; 2],
    errs: &mut Vec<ParseError>,
) {
    if hand == "-" {
        return;
    }
    let bytes = hand.as_bytes();
    let mut i = 0;
    let mut hands = [[0u32; 7]; 2];
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let num: Option<u32> = if i > start {
            match hand[start..i].parse::<u32>() {
                Ok(n) if n > 0 => Some(n),
                _ => {
                    errs.push(ParseError::new(
                        off + start,
                        i - start,
                        format!("`{}` is not a valid piece count", &hand[start..i]),
                        "write a count from 2 to 18 before the piece letter, or none for one piece",
                    ));
                    None
                }
            }
        } else {
            Some(1)
        };
        if i >= bytes.len() {
            errs.push(ParseError::new(
                off + start,
                i - start,
                "a count in the hand must be followed by a piece letter",
                "write e.g. `2P` for two pawns",
            ));
            break;
        }
        let b = bytes[i];
        let l = char_len(hand, i);
        let kind = if b.is_ascii_alphabetic() {
            PieceKind::from_usi_letter(b as char)
        } else {
            None
        };
        match kind {
            Some(k) if k != PieceKind::King => {
                let color = if b.is_ascii_uppercase() {
                    Color::Black
                } else {
                    Color::White
                };
                if let Some(n) = num {
                    hands[color.index()][k.index()] = hands[color.index()][k.index()].saturating_add(n);
                    counts[color.index()][k.index()] = counts[color.index()][k.index()].saturating_add(n);
                }
            }
            Some(_) => errs.push(ParseError::new(
                off + i,
                1,
                "a king cannot be held in hand",
                "hands hold only P L N S G B R (or lower case for 後手)",
            )),
            None => errs.push(ParseError::new(
                off + i,
                l,
                format!("`{}` is not a piece that can be held in hand", &hand[i..i + l]),
                "write `-` for empty hands, or counts and letters such as `2P` or `br`; promoted pieces are not held",
            )),
        }
        i += l;
    }
    for c in Color::ALL {
        for k in PieceKind::HAND {
            let n = hands[c.index()][k.index()];
            if n > 0 {
                pos.set_hand(c, k, n.min(18) as u8);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_roundtrip() {
        let p = Position::from_sfen("startpos").unwrap();
        assert_eq!(p.to_sfen(), STARTPOS_SFEN);
        assert_eq!(p, Position::startpos());
        assert_eq!(p.compute_key(), p.key());
    }

    #[test]
    fn hands_any_order_and_counts() {
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 7P2Rpb 12345678901").unwrap();
        assert_eq!(p.hand(Color::Black).count(PieceKind::Pawn), 7);
        assert_eq!(p.hand(Color::Black).count(PieceKind::Rook), 2);
        assert_eq!(p.hand(Color::White).count(PieceKind::Bishop), 1);
        assert_eq!(p.to_sfen(), "4k4/9/9/9/9/9/9/9/4K4 b 2R7Pbp 12345678901");
        let q = Position::from_sfen("8k/9/9/9/9/9/9/9/9 b 18p 1").unwrap();
        assert_eq!(q.hand(Color::White).count(PieceKind::Pawn), 18);
        assert_eq!(q.compute_key(), q.key());
    }

    #[test]
    fn one_king_and_dead_pieces_parse() {
        let p = Position::from_sfen("P3k4/9/9/9/9/9/9/9/9 b - 1").unwrap();
        let v = p.validate_strict();
        assert!(v.contains(&StrictViolation::MissingKing(Color::Black)));
        assert!(v
            .iter()
            .any(|x| matches!(x, StrictViolation::DeadPiece(..))));
        let p = Position::from_sfen("4k4/9/9/9/9/4P4/4P4/9/4K4 b - 1").unwrap();
        assert_eq!(
            p.validate_strict(),
            vec![StrictViolation::DoublePawn(Color::Black, 5)]
        );
    }

    #[test]
    fn warnings_with_spans() {
        let s = "4k3+P/9/9/9/9/4P4/4P4/9/3P5 b - 1";
        let (_, w) = Position::from_sfen_with_warnings(s).unwrap();
        let texts: Vec<&str> = w.iter().map(|e| &s[e.offset..e.offset + e.len]).collect();
        // Missing 先手 king (board), the second pawn on column 5; the promoted pawn on 1a
        // and the pawn on 6i are fine.
        assert_eq!(w.len(), 2, "{w:?}");
        assert_eq!(texts[0], s.split(' ').next().unwrap());
        assert_eq!(texts[1], "P");
        assert_eq!(w[1].offset, s.find("4P4/9").unwrap() + 1);
        let s = "P3k4/9/9/9/9/9/9/9/4K4 w - 1";
        let (_, w) = Position::from_sfen_with_warnings(s).unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].offset, w[0].len), (0, 1));
        let s = "4k4/4R4/9/9/9/9/9/9/4K4 b - 1";
        let (_, w) = Position::from_sfen_with_warnings(s).unwrap();
        assert_eq!(&s[w[0].offset..w[0].offset + w[0].len], "b");
        assert!(Position::from_sfen_with_warnings("startpos")
            .unwrap()
            .1
            .is_empty());
    }

    #[test]
    fn all_errors_listed() {
        let e = Position::from_sfen("+G3kk3/9/9/9/9/9/9/9/4K4 x 19P 1").unwrap_err();
        let msgs: Vec<&str> = e.0.iter().map(|e| e.message.as_str()).collect();
        assert!(
            msgs.iter().any(|m| m.contains("gold cannot be promoted")),
            "{msgs:?}"
        );
        assert!(
            msgs.iter().any(|m| m.contains("more than one king")),
            "{msgs:?}"
        );
        assert!(msgs.iter().any(|m| m.contains("side to move")), "{msgs:?}");
        assert!(msgs.iter().any(|m| m.contains("only 18 exist")), "{msgs:?}");
        let e =
            Position::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R/LNSGKGSNLL b - 1")
                .unwrap_err();
        assert_eq!(e.0.len(), 3, "{e}");
        let e = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3S3s 1").unwrap_err();
        assert_eq!(e.0.len(), 1);
        assert!(Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b K 1").is_err());
        assert!(Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b +P 1").is_err());
        assert!(Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 0P 1").is_err());
        assert!(Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1 x").is_err());
        assert!(Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - z").is_err());
        assert!(Position::from_sfen("").is_err());
    }

    #[test]
    fn error_spans_are_in_bounds() {
        let inputs = [
            "4k4/9/9/9/9/9/9/9/4K4 b 2",
            "é",
            "4k4/9/9/9/9/9/9/9/4Ké b - 1",
            "+",
            "++P",
        ];
        for s in inputs {
            if let Err(e) = Position::from_sfen(s) {
                for x in e.0 {
                    assert!(x.offset + x.len <= s.len(), "{s:?} {x:?}");
                    assert!(s.is_char_boundary(x.offset) && s.is_char_boundary(x.offset + x.len));
                }
            }
        }
    }
}
