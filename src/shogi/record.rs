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

mod csa;
mod kif;

pub use csa::{parse_csa, read_csa};
#[cfg(test)]
use kif::kif_hand;
pub use kif::{parse_kif, read_kif};

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
