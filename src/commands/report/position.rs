#![forbid(unsafe_code)]
//! What `perft`, `legal` and `show` report of a position.

use crate::commands::Notice;
use indexmap::IndexMap;
use serde::Serialize;

/// `okite perft --json`: the count of leaves, and who counted them.
#[derive(Clone, Debug, Serialize)]
pub struct Count {
    /// The number of move sequences of the depth asked.
    pub count: u128,
    /// Who answered.
    pub engine: Notice,
}

/// `okite legal --json`: the legal moves (USI), and who generated them.
#[derive(Clone, Debug, Serialize)]
pub struct Moves {
    /// The moves, in USI notation.
    pub moves: Vec<String>,
    /// Who answered.
    pub engine: Notice,
}

/// `okite show --json`: a position, with its pieces and hands when asked.
#[derive(Clone, Debug, Serialize)]
pub struct PositionReport {
    /// The position in SFEN.
    pub sfen: String,
    /// `b` (先手) or `w` (後手) to move.
    pub turn: &'static str,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// The moves played from the start given.
    pub ply: usize,
    /// The pieces by square (`"5i": "K"`; USI letters, upper case for 先手, `+` for promoted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pieces: Option<IndexMap<String, String>>,
    /// The pieces in hand of each side by letter (`{"b": {"P": 1}, "w": {}}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hands: Option<IndexMap<&'static str, IndexMap<String, u32>>>,
}

/// `okite show --json` under a board variant.
#[derive(Clone, Debug, Serialize)]
pub struct BoardPosition {
    /// The position in the variant's SFEN.
    pub sfen: String,
    /// `b` or `w` to move.
    pub turn: &'static str,
    /// Whether the side to move is in check.
    pub in_check: bool,
    /// The moves played from the start given.
    pub ply: usize,
    /// The variant's name.
    pub variant: String,
}

impl PositionReport {
    /// The pieces and hands read off the SFEN of a 9 x 9 position (files 9 to 1 from the left,
    /// ranks a to i from the top).
    pub fn with_pieces(mut self) -> PositionReport {
        let mut fields = self.sfen.split_whitespace();
        let board = fields.next().unwrap_or("");
        let hands = fields.nth(1).unwrap_or("-");
        let mut squares = IndexMap::new();
        for (r, row) in board.split('/').enumerate() {
            let rank = (b'a' + r as u8) as char;
            let mut file = 9i32;
            let mut promoted = false;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    file -= d as i32;
                } else if ch == '+' {
                    promoted = true;
                } else {
                    let piece = if promoted {
                        format!("+{ch}")
                    } else {
                        ch.to_string()
                    };
                    squares.insert(format!("{file}{rank}"), piece);
                    promoted = false;
                    file -= 1;
                }
            }
        }
        let mut black = IndexMap::new();
        let mut white = IndexMap::new();
        let mut count = 0u32;
        for ch in hands.chars() {
            if let Some(d) = ch.to_digit(10) {
                count = count.saturating_mul(10).saturating_add(d);
            } else if ch.is_ascii_alphabetic() {
                let n = count.max(1);
                count = 0;
                let side = if ch.is_ascii_uppercase() {
                    &mut black
                } else {
                    &mut white
                };
                side.insert(ch.to_ascii_uppercase().to_string(), n);
            }
        }
        self.pieces = Some(squares);
        self.hands = Some(IndexMap::from([("b", black), ("w", white)]));
        self
    }
}

#[cfg(test)]
mod tests {
    use super::PositionReport;

    #[test]
    fn pieces_and_hands() {
        let r = PositionReport {
            sfen: "8k/9/9/9/9/9/9/9/+R7K b 2Pg 1".into(),
            turn: "b",
            in_check: false,
            ply: 0,
            pieces: None,
            hands: None,
        }
        .with_pieces();
        assert_eq!(
            crate::json::text(&r),
            "{\"sfen\": \"8k/9/9/9/9/9/9/9/+R7K b 2Pg 1\", \"turn\": \"b\", \"in_check\": false, \"ply\": 0, \"pieces\": {\"1a\": \"k\", \"9i\": \"+R\", \"1i\": \"K\"}, \"hands\": {\"b\": {\"P\": 2}, \"w\": {\"G\": 1}}}"
        );
    }
}
