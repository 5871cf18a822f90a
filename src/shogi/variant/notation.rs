//! USI moves in a variant's geometry: `5e4d`, `4b4a+` (a promotion), `3c3b-` (kyoto shogi's
//! flip back), `P*3c`, `+L*3c` (a drop of a kind's other face), as Fairy-Stockfish writes them.

use super::movegen::DropMate;
use super::position::{piece_of, VMove, VPos};
use crate::shogi::sfen::ParseError;

impl VPos {
    /// A move as USI text.
    pub fn move_text(&self, m: VMove) -> String {
        let t = &*self.t;
        let to = t.square_name(m.to as usize);
        if m.is_drop() {
            return format!("{}*{to}", t.spec.faces[m.face as usize].text);
        }
        let mut s = format!("{}{to}", t.square_name(m.from as usize));
        if m.flip {
            s.push(if t.spec.faces[m.face as usize].is_promoted() {
                '+'
            } else {
                '-'
            });
        }
        s
    }

    /// The moves of a line from this position, as USI text (each played before the next is
    /// written).
    pub fn line_text(&self, line: &[VMove]) -> Vec<String> {
        let mut q = self.clone();
        line.iter()
            .map(|&m| {
                let t = q.move_text(m);
                q.do_move(m);
                t
            })
            .collect()
    }

    /// Parse a square name (`5e`; columns may take two digits on wide boards).
    fn parse_square(&self, s: &str) -> Option<usize> {
        let digits = s.bytes().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 || digits + 1 != s.len() {
            return None;
        }
        let c: i32 = s[..digits].parse().ok()?;
        let r = s.as_bytes()[digits];
        if !r.is_ascii_lowercase() {
            return None;
        }
        self.t.square(c, (r - b'a') as i32 + 1)
    }

    /// Read a USI move and check that it is a legal move here.
    pub fn parse_move(&mut self, text: &str, drop_mate: DropMate) -> Result<VMove, ParseError> {
        let s = text.trim();
        let bad = |msg: String, help: &str| ParseError::new(0, s.len().max(1), msg, help);
        let m = if let Some((piece, sq)) = s.split_once('*') {
            let to = self.parse_square(sq).ok_or_else(|| {
                bad(
                    format!("`{sq}` is no square of this board"),
                    "write a column number and a row letter",
                )
            })?;
            let (face, side) = self.t.face_by_text(piece).ok_or_else(|| {
                bad(
                    format!("`{piece}` is no piece of {}", self.t.spec.name),
                    "write the dropped piece's letter, as `P*3c`",
                )
            })?;
            if side != 0 {
                return Err(bad(
                    format!("`{piece}`: a dropped piece is written in upper case"),
                    "as `P*3c`, for either side",
                ));
            }
            VMove {
                from: VMove::DROP,
                to: to as u8,
                face: face as u8,
                flip: false,
            }
        } else {
            let (body, flip) = match s.as_bytes().last() {
                Some(b'+') | Some(b'-') => (&s[..s.len() - 1], true),
                _ => (s, false),
            };
            let split = body
                .char_indices()
                .skip(1)
                .find(|(_, c)| c.is_ascii_lowercase())
                .map(|(i, _)| i + 1)
                .unwrap_or(body.len());
            let from = self.parse_square(&body[..split]);
            let to = self.parse_square(&body[split..]);
            let (Some(from), Some(to)) = (from, to) else {
                return Err(bad(
                    format!("`{s}` is not a move of this board"),
                    "write it as two squares, `5e4d`, or a drop, `P*3c`",
                ));
            };
            let c = self.board[from];
            if c == 0 {
                return Err(bad(
                    format!("`{s}`: no piece stands on {}", self.t.square_name(from)),
                    "the move starts from a piece of the side to move",
                ));
            }
            let (f, _) = piece_of(c);
            let face = if flip {
                match self.t.spec.faces[f].promotes_to {
                    Some(p) => p,
                    None => {
                        return Err(bad(
                            format!("`{s}`: {} does not change face", self.t.spec.faces[f].text),
                            "write the move without `+` or `-`",
                        ))
                    }
                }
            } else {
                f
            };
            VMove {
                from: from as u8,
                to: to as u8,
                face: face as u8,
                flip,
            }
        };
        let legal = self.legal_moves(drop_mate);
        if legal.contains(&m) {
            Ok(m)
        } else {
            let mut pseudo = vec![];
            self.pseudo_moves(&mut pseudo);
            let why = if pseudo.contains(&m) {
                "it leaves the royal piece attacked or is a forbidden drop"
            } else if self.over().is_some() {
                "the game is over"
            } else {
                "the pieces of this variant cannot make it"
            };
            Err(bad(
                format!("`{s}` is not a legal move of this position: {why}"),
                "`okite legal` lists the legal moves",
            ))
        }
    }
}
