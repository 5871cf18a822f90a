//! A position of a board variant: its board, both hands and the side to move, read from and
//! written as SFEN in the variant's geometry (`rbsgk/4p/5/P4/KGSBR b - 1` for minishogi), and
//! moves made and unmade on it.

use super::bits::Bits;
use super::spec::Tables;
use crate::shogi::sfen::ParseError;
use std::sync::Arc;

/// The most pieces of one kind a hand may hold (bounds SFEN counts).
pub const MAX_IN_HAND: u32 = 255;

/// A move: a piece moved from a square, or dropped; the face it stands with afterwards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VMove {
    /// The square moved from, or [`VMove::DROP`].
    pub from: u8,
    /// The square moved or dropped to.
    pub to: u8,
    /// The face after the move (the dropped face for a drop).
    pub face: u8,
    /// Did the move change the piece's face?
    pub flip: bool,
}

impl VMove {
    /// `from` of a drop.
    pub const DROP: u8 = 255;

    /// Is it a drop?
    pub fn is_drop(&self) -> bool {
        self.from == Self::DROP
    }
}

/// What a move took, to unmake it.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    captured: u8,
    moved: u8,
}

/// A position.
#[derive(Clone)]
pub struct VPos {
    /// The variant's tables.
    pub t: Arc<Tables>,
    /// Each square: 0 when empty, else `1 + (face << 1 | side)`.
    pub board: Vec<u8>,
    /// Each side's hand: a count per kind.
    pub hands: [Vec<u32>; 2],
    /// The side to move: 0 先手, 1 後手.
    pub side: usize,
    /// Each side's squares.
    pub occ: [Bits; 2],
    /// Each side's royal pieces on the board.
    pub royals: [u32; 2],
    /// The lowest square of each side's royal pieces (when it has one).
    royal_sq: [u8; 2],
    /// The board's part of the position's key, kept as pieces are put and taken.
    pub(super) board_key: u64,
    /// The move number written in SFEN.
    pub ply: u32,
}

/// The cell of a piece.
#[inline]
pub fn cell(face: usize, side: usize) -> u8 {
    1 + ((face << 1) | side) as u8
}

/// The face and side of a non-empty cell.
#[inline]
pub fn piece_of(c: u8) -> (usize, usize) {
    let v = (c - 1) as usize;
    (v >> 1, v & 1)
}

fn err(offset: usize, len: usize, msg: impl Into<String>, help: impl Into<String>) -> ParseError {
    ParseError::new(offset, len.max(1), msg, help)
}

impl VPos {
    /// The variant's start position. Only [`super::Variant`] calls it, whose constructor has
    /// read the start already (an unreadable start never reaches here).
    pub(super) fn start(t: &Arc<Tables>) -> VPos {
        match VPos::from_sfen(t, &t.spec.start.clone()) {
            Ok(p) => p,
            Err(_) => VPos::empty(t),
        }
    }

    /// An empty board, 先手 to move.
    pub fn empty(t: &Arc<Tables>) -> VPos {
        VPos {
            board: vec![0; t.n],
            hands: [vec![0; t.spec.kinds.len()], vec![0; t.spec.kinds.len()]],
            side: 0,
            occ: [Bits::default(), Bits::default()],
            royals: [0, 0],
            royal_sq: [0, 0],
            board_key: 0,
            ply: 1,
            t: t.clone(),
        }
    }

    /// Read SFEN in the variant's geometry (`startpos` for its start position).
    pub fn from_sfen(t: &Arc<Tables>, text: &str) -> Result<VPos, ParseError> {
        let s = text.trim();
        let lead = text.len() - text.trim_start().len();
        if s == "startpos" {
            return VPos::from_sfen(t, &t.spec.start.clone());
        }
        let s = s.strip_prefix("sfen ").unwrap_or(s);
        let base = lead + (text.trim().len() - s.len());
        let mut p = VPos::empty(t);
        let fields: Vec<(usize, &str)> = s
            .split(' ')
            .scan(0usize, |at, f| {
                let o = *at;
                *at += f.len() + 1;
                Some((o, f))
            })
            .filter(|(_, f)| !f.is_empty())
            .collect();
        if fields.len() < 3 || fields.len() > 4 {
            return Err(err(
                base,
                s.len(),
                format!(
                    "SFEN has {} fields; it needs the board, the side to move and the hands",
                    fields.len()
                ),
                format!("write it as `{}`", t.spec.start),
            ));
        }
        let (w, h) = (t.spec.width, t.spec.height);
        let (bo, board) = fields[0];
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != h {
            return Err(err(
                base + bo,
                board.len(),
                format!(
                    "the board lists {} rank{}; {} has {h}",
                    ranks.len(),
                    if ranks.len() == 1 { "" } else { "s" },
                    t.spec.name
                ),
                format!("a {} position is {w} x {h}", t.spec.name),
            ));
        }
        let mut at = base + bo;
        for (row, rank) in ranks.iter().enumerate() {
            p.read_rank(row, rank, at)?;
            at += rank.len() + 1;
        }
        let (so, side) = fields[1];
        p.side = match side {
            "b" => 0,
            "w" => 1,
            _ => {
                return Err(err(
                    base + so,
                    side.len(),
                    format!("`{side}` is not a side to move"),
                    "write `b` (先手) or `w` (後手)",
                ))
            }
        };
        let (ho, hand) = fields[2];
        if hand != "-" {
            p.read_hand(hand, base + ho)?;
        }
        if let Some(&(mo, m)) = fields.get(3) {
            p.ply = m.parse().map_err(|_| {
                err(
                    base + mo,
                    m.len(),
                    format!("`{m}` is not a move number"),
                    "write a whole number from 1",
                )
            })?;
        }
        p.validate()
            .map_err(|m| err(base, s.len(), m, "this position cannot be played"))?;
        Ok(p)
    }

    /// Reads rank `row` of an SFEN board (`at`: its offset in the text) onto the position.
    fn read_rank(&mut self, row: usize, rank: &str, at: usize) -> Result<(), ParseError> {
        let t = self.t.clone();
        let w = t.spec.width;
        let h = t.spec.height;
        let bytes = rank.as_bytes();
        let mut left = 0usize;
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_digit() {
                let st = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let n: usize = rank[st..i].parse().unwrap_or(usize::MAX);
                if n == 0 || n > w {
                    return Err(err(
                        at + st,
                        i - st,
                        format!("an empty run of {} squares", &rank[st..i]),
                        format!("a rank has {w} squares"),
                    ));
                }
                left = left.saturating_add(n);
                continue;
            }
            let st = i;
            if b == b'+' {
                i += 1;
            }
            if i >= bytes.len() || !bytes[i].is_ascii_alphabetic() {
                return Err(err(
                    at + st,
                    1,
                    format!("`{}` is not a piece", &rank[st..(i + 1).min(rank.len())]),
                    "a piece is a letter, or `+` and a letter",
                ));
            }
            i += 1;
            let txt = &rank[st..i];
            let Some((face, side)) = t.face_by_text(txt) else {
                return Err(err(
                    at + st,
                    i - st,
                    format!("`{txt}` is no piece of {}", t.spec.name),
                    format!("its pieces are {}", piece_list(&t)),
                ));
            };
            if left < w {
                self.put(row * w + left, face, side);
            }
            left += 1;
        }
        if left != w {
            return Err(err(
                at,
                rank.len(),
                format!(
                    "rank {} lists {left} squares; {} has {w}",
                    row + 1,
                    t.spec.name
                ),
                format!("each rank of a {w} x {h} board lists {w} squares"),
            ));
        }
        Ok(())
    }

    /// Reads the hands of an SFEN (`at`: their offset in the text) into the position.
    fn read_hand(&mut self, hand: &str, at: usize) -> Result<(), ParseError> {
        let t = self.t.clone();
        let bytes = hand.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let st = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let n: u32 = if i > st {
                hand[st..i].parse().unwrap_or(u32::MAX)
            } else {
                1
            };
            let Some(&c) = bytes.get(i) else {
                return Err(err(
                    at + st,
                    i - st,
                    "a count with no piece after it",
                    "write a count before a letter: `2P`",
                ));
            };
            let Some((k, s)) = t.kind_by_letter(c as char) else {
                return Err(err(
                    at + i,
                    1,
                    format!("`{}` is no kind of {}", c as char, t.spec.name),
                    format!("its kinds are {}", kind_list(&t)),
                ));
            };
            if n == 0 || n > MAX_IN_HAND {
                return Err(err(
                    at + st,
                    i - st,
                    format!("{n} pieces in hand"),
                    format!("a hand holds 1 to {MAX_IN_HAND} pieces of a kind"),
                ));
            }
            self.hands[s][k] = self.hands[s][k].saturating_add(n).min(MAX_IN_HAND);
            i += 1;
        }
        Ok(())
    }

    /// Refuse a position the engine cannot play: more than one royal piece of a side under the
    /// check rule.
    fn validate(&self) -> Result<(), String> {
        for s in 0..2 {
            if self.royals[s] > 1 {
                return Err(format!(
                    "{} has {} royal pieces; the engine plays at most one a side",
                    side_name(s),
                    self.royals[s]
                ));
            }
        }
        Ok(())
    }

    /// Put a piece on an empty square.
    #[inline]
    pub fn put(&mut self, sq: usize, face: usize, side: usize) {
        let c = cell(face, side);
        self.board[sq] = c;
        self.board_key ^= self.t.zobrist[c as usize * self.t.n + sq];
        self.occ[side].set(sq);
        if self.t.royal_face[face] {
            self.royals[side] += 1;
            if self.royals[side] == 1 || sq < self.royal_sq[side] as usize {
                self.royal_sq[side] = sq as u8;
            }
        }
    }

    #[inline]
    fn take(&mut self, sq: usize) -> u8 {
        let c = self.board[sq];
        if c != 0 {
            let (f, s) = piece_of(c);
            self.occ[s].clear(sq);
            self.board[sq] = 0;
            self.board_key ^= self.t.zobrist[c as usize * self.t.n + sq];
            if self.t.royal_face[f] {
                self.royals[s] -= 1;
                if self.royals[s] > 0 && self.royal_sq[s] as usize == sq {
                    let t = &*self.t;
                    let board = &self.board;
                    if let Some(r) = self.occ[s]
                        .iter()
                        .find(|&x| t.royal_face[piece_of(board[x]).0])
                    {
                        self.royal_sq[s] = r as u8;
                    }
                }
            }
        }
        c
    }

    /// The square of a side's royal piece, if it has one on the board.
    pub fn royal_square(&self, side: usize) -> Option<usize> {
        (self.royals[side] > 0).then_some(self.royal_sq[side] as usize)
    }

    /// Make a move (assumed generated for this position).
    #[inline]
    pub fn do_move(&mut self, m: VMove) -> Undo {
        let us = self.side;
        let to = m.to as usize;
        let captured = self.take(to);
        if captured != 0 {
            let (f, _) = piece_of(captured);
            let k = self.t.kind_of[f] as usize;
            self.hands[us][k] += 1;
        }
        let moved = if m.is_drop() {
            let k = self.t.kind_of[m.face as usize] as usize;
            self.hands[us][k] -= 1;
            0
        } else {
            self.take(m.from as usize)
        };
        self.put(to, m.face as usize, us);
        self.side ^= 1;
        Undo { captured, moved }
    }

    /// Unmake the move `do_move` made.
    #[inline]
    pub fn undo_move(&mut self, m: VMove, u: Undo) {
        self.side ^= 1;
        let us = self.side;
        let to = m.to as usize;
        self.take(to);
        if m.is_drop() {
            let k = self.t.kind_of[m.face as usize] as usize;
            self.hands[us][k] += 1;
        } else {
            let (f, s) = piece_of(u.moved);
            self.put(m.from as usize, f, s);
        }
        if u.captured != 0 {
            let (f, s) = piece_of(u.captured);
            let k = self.t.kind_of[f] as usize;
            self.hands[us][k] -= 1;
            self.put(to, f, s);
        }
    }

    /// The position as SFEN.
    pub fn to_sfen(&self) -> String {
        let (w, h) = (self.t.spec.width, self.t.spec.height);
        let mut out = String::new();
        for row in 0..h {
            if row > 0 {
                out.push('/');
            }
            let mut empty = 0;
            for left in 0..w {
                let c = self.board[row * w + left];
                if c == 0 {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                let (f, s) = piece_of(c);
                let txt = &self.t.spec.faces[f].text;
                if s == 0 {
                    out.push_str(txt);
                } else {
                    out.push_str(&txt.to_ascii_lowercase());
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
        }
        out.push_str(if self.side == 0 { " b " } else { " w " });
        let mut hand = String::new();
        for s in 0..2 {
            for (k, kind) in self.t.spec.kinds.iter().enumerate() {
                let n = self.hands[s][k];
                if n == 0 {
                    continue;
                }
                if n > 1 {
                    hand.push_str(&n.to_string());
                }
                hand.push(if s == 0 {
                    kind.letter
                } else {
                    kind.letter.to_ascii_lowercase()
                });
            }
        }
        out.push_str(if hand.is_empty() { "-" } else { &hand });
        out.push(' ');
        out.push_str(&self.ply.to_string());
        out
    }

    /// The board as text: one line per rank, `.` for an empty square, 後手's pieces in lower case,
    /// then the hands.
    pub fn diagram(&self) -> String {
        let (w, h) = (self.t.spec.width, self.t.spec.height);
        let mut out = String::new();
        let cols: Vec<String> = (0..w).map(|l| format!("{:>3}", w - l)).collect();
        out.push_str(&cols.concat());
        out.push('\n');
        for row in 0..h {
            for left in 0..w {
                let c = self.board[row * w + left];
                let txt = if c == 0 {
                    ".".to_string()
                } else {
                    let (f, s) = piece_of(c);
                    let t = &self.t.spec.faces[f].text;
                    if s == 0 {
                        t.clone()
                    } else {
                        t.to_ascii_lowercase()
                    }
                };
                out.push_str(&format!("{txt:>3}"));
            }
            out.push_str(&format!("  {}\n", (b'a' + row as u8) as char));
        }
        for s in 0..2 {
            let held: Vec<String> = self
                .t
                .spec
                .kinds
                .iter()
                .enumerate()
                .filter(|(k, _)| self.hands[s][*k] > 0)
                .map(|(k, kind)| {
                    format!(
                        "{}{}",
                        kind.letter,
                        if self.hands[s][k] > 1 {
                            self.hands[s][k].to_string()
                        } else {
                            String::new()
                        }
                    )
                })
                .collect();
            out.push_str(&format!(
                "{} hand: {}\n",
                side_name(s),
                if held.is_empty() {
                    "-".into()
                } else {
                    held.join(" ")
                }
            ));
        }
        out.push_str(&format!("{} to move\n", side_name(self.side)));
        out
    }
}

/// 先手 or 後手.
pub fn side_name(s: usize) -> &'static str {
    if s == 0 {
        "先手"
    } else {
        "後手"
    }
}

fn piece_list(t: &Tables) -> String {
    let v: Vec<&str> = t.spec.faces.iter().map(|f| f.text.as_str()).collect();
    v.join(" ")
}

fn kind_list(t: &Tables) -> String {
    let v: Vec<String> = t.spec.kinds.iter().map(|k| k.letter.to_string()).collect();
    v.join(" ")
}
