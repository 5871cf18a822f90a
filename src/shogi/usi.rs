//! USI move text and `position` commands.

use super::position::Position;
use super::record::Game;
use super::sfen::{tokens, ParseError, ParseErrors};
use super::types::{Move, PieceKind, Square};

impl Move {
    /// Parses USI move syntax (`7g7f`, `8h2b+`, `P*5e`) without checking it against a position.
    pub fn from_usi(s: &str) -> Option<Move> {
        let b = s.as_bytes();
        if b.len() == 4 && b[1] == b'*' {
            let kind = PieceKind::from_usi_letter(b[0] as char)?;
            if !b[0].is_ascii_uppercase() || kind == PieceKind::King {
                return None;
            }
            return Some(Move::drop(kind, Square::from_usi(&s[2..4])?));
        }
        let promote = match b.len() {
            4 => false,
            5 if b[4] == b'+' => true,
            _ => return None,
        };
        if !s.is_char_boundary(2) || !s.is_char_boundary(4) {
            return None;
        }
        let from = Square::from_usi(&s[0..2])?;
        let to = Square::from_usi(&s[2..4])?;
        if from == to {
            return None;
        }
        Some(Move::board(from, to, promote))
    }
}

impl Position {
    /// The position after a move of the one-step transition written in USI (forbidden moves
    /// included: the rules judge them), or why it cannot be played here.
    pub fn after_pseudo_usi(&self, s: &str) -> Result<Position, &'static str> {
        let m = Move::from_usi(s).ok_or("is not a move in USI notation")?;
        if !self.pseudo_legal_moves().contains(&m) {
            return Err("is not a move of this position");
        }
        Ok(self.after(m))
    }

    /// Parses a USI move and checks that it is legal here. The error spans the whole text
    /// `s` (offset 0) and says why the move is malformed or illegal.
    pub fn parse_usi_move(&self, s: &str) -> Result<Move, ParseError> {
        let Some(m) = Move::from_usi(s) else {
            return Err(ParseError::new(
                0,
                s.len(),
                format!("`{s}` is not a USI move"),
                "write a board move as `7g7f` (add `+` to promote) or a drop as `P*5e`",
            ));
        };
        match self.illegal_reason(m) {
            None => Ok(m),
            Some(reason) => Err(ParseError::new(
                0,
                s.len(),
                format!("`{s}` is illegal here: {reason}"),
                "choose one of the legal moves of this position",
            )),
        }
    }

    /// `None` if `m` is legal; otherwise why it is not.
    pub fn illegal_reason(&self, m: Move) -> Option<String> {
        if self.is_legal(m) {
            return None;
        }
        let us = self.side_to_move();
        let to = m.to();
        let target = self.piece_at(to);
        if let Some(kind) = m.drop_kind() {
            if self.hand(us).count(kind) == 0 {
                return Some(format!("{} has no {} in hand", us.kanji(), kind.kanji()));
            }
            if target.is_some() {
                return Some(format!("{to} is occupied"));
            }
            let rr = to.relative_row(us);
            if (matches!(kind, PieceKind::Pawn | PieceKind::Lance) && rr == 1)
                || (kind == PieceKind::Knight && rr <= 2)
            {
                return Some(format!(
                    "a {} dropped on {to} could never move",
                    kind.kanji()
                ));
            }
            if kind == PieceKind::Pawn
                && (1..=9).any(|r| {
                    Square::new(to.column(), r).and_then(|s| self.piece_at(s))
                        == Some(super::types::Piece::new(us, PieceKind::Pawn))
                })
            {
                return Some(format!("two pawns on column {} (二歩)", to.column()));
            }
            let after = self.after(m);
            if after.is_king_attacked(us) {
                return Some("it leaves the own king in check".to_string());
            }
            if kind == PieceKind::Pawn && after.in_check() && !after.has_legal_move() {
                return Some("a pawn drop that mates is forbidden (打ち歩詰め)".to_string());
            }
            return Some("not legal".to_string());
        }
        let Some(from) = m.from() else {
            return Some("not legal".to_string());
        };
        let Some(piece) = self.piece_at(from) else {
            return Some(format!("there is no piece on {from}"));
        };
        if piece.color != us {
            return Some(format!(
                "the piece on {from} belongs to {}",
                piece.color.kanji()
            ));
        }
        if !self.attacks_from(from).contains(to) {
            return Some(format!(
                "the {} on {from} cannot reach {to}",
                piece.kind.kanji()
            ));
        }
        if target.is_some_and(|t| t.color == us) {
            return Some(format!("{to} holds an own piece"));
        }
        if m.is_promotion() {
            if !piece.kind.can_promote() {
                return Some(format!("a {} cannot promote", piece.kind.kanji()));
            }
            if !from.in_zone(us) && !to.in_zone(us) {
                return Some(
                    "promotion needs the origin or destination in the promotion zone".to_string(),
                );
            }
        } else {
            let rr = to.relative_row(us);
            if (matches!(piece.kind, PieceKind::Pawn | PieceKind::Lance) && rr == 1)
                || (piece.kind == PieceKind::Knight && rr <= 2)
            {
                return Some(format!(
                    "an unpromoted {} on {to} could never move; it must promote",
                    piece.kind.kanji()
                ));
            }
        }
        let after = self.after(m);
        if after.is_king_attacked(us) {
            return Some("it leaves the own king in check".to_string());
        }
        Some("not legal".to_string())
    }

    /// Plays a sequence of USI moves, checking each for legality.
    pub fn play_usi_moves(&self, moves: &[&str]) -> Result<Game, ParseError> {
        let mut game = Game::new(self.clone());
        for s in moves {
            let m = game.last().parse_usi_move(s)?;
            game.push(m);
        }
        Ok(game)
    }
}

/// Parses a USI `position` command: `position startpos [moves ...]` or
/// `position sfen <board> <side> <hand> <move-number> [moves ...]` (the word `position` is
/// optional). Error spans point into `s`.
pub fn parse_position_command(s: &str) -> Result<Game, ParseErrors> {
    let (start, moves) = position_start(s)?;
    let mut game = Game::new(start);
    for (o, t) in moves {
        let m = game
            .last()
            .parse_usi_move(t)
            .map_err(|e| ParseErrors(vec![e.shifted(o)]))?;
        game.push(m);
    }
    Ok(game)
}

/// The same, each move played by `play` rather than checked against the shipped move
/// generator (the moves of a variant's rules, which may add moves or take them away); `play`
/// gives the position after the move, or why it is no move here. The positions, oldest first.
#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
pub fn parse_position_command_by(
    s: &str,
    play: &mut dyn FnMut(&Position, &str) -> Result<Position, String>,
) -> Result<Vec<Position>, ParseErrors> {
    let (start, moves) = position_start(s)?;
    let mut out = vec![start];
    for (o, t) in moves {
        let last = out.last().expect("a start");
        let next = play(last, t).map_err(|why| {
            ParseErrors(vec![ParseError::new(
                o,
                t.len(),
                format!("`{t}` {why}"),
                "moves are written in USI: 7g7f, 8h2b+, P*5e",
            )])
        })?;
        out.push(next);
    }
    Ok(out)
}

/// The start of a `position` command and its moves, each with its byte offset in `s`.
#[allow(clippy::type_complexity)]
fn position_start(s: &str) -> Result<(Position, Vec<(usize, &str)>), ParseErrors> {
    let toks = tokens(s);
    let mut i = 0;
    if toks.first().map(|t| t.1) == Some("position") {
        i = 1;
    }
    let err = |off: usize, len: usize, msg: &str| {
        ParseErrors(vec![ParseError::new(
            off,
            len,
            msg,
            "write `position startpos moves 7g7f ...` or `position sfen <sfen> moves ...`",
        )])
    };
    let Some(&(off, word)) = toks.get(i) else {
        return Err(err(s.len(), 0, "expected `startpos` or `sfen`"));
    };
    let moves_at = toks
        .iter()
        .position(|t| t.1 == "moves")
        .unwrap_or(toks.len());
    let start = match word {
        "startpos" => {
            if moves_at != i + 1 {
                let (o, t) = toks[i + 1];
                return Err(err(o, t.len(), "expected `moves` after `startpos`"));
            }
            Position::startpos()
        }
        "sfen" => {
            if moves_at <= i + 1 {
                return Err(err(off, word.len(), "`sfen` must be followed by an SFEN"));
            }
            let a = toks[i + 1].0;
            let (lo, lt) = toks[moves_at - 1];
            let text = &s[a..lo + lt.len()];
            Position::from_sfen(text)
                .map_err(|e| ParseErrors(e.0.into_iter().map(|x| x.shifted(a)).collect()))?
        }
        _ => return Err(err(off, word.len(), "expected `startpos` or `sfen`")),
    };
    Ok((start, toks.into_iter().skip(moves_at + 1).collect()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let p = Position::startpos();
        let m = p.parse_usi_move("7g7f").unwrap();
        assert_eq!(m.to_usi(), "7g7f");
        assert!(p
            .parse_usi_move("7g7e")
            .unwrap_err()
            .message
            .contains("cannot reach"));
        assert!(p
            .parse_usi_move("5e5d")
            .unwrap_err()
            .message
            .contains("no piece"));
        assert!(p
            .parse_usi_move("3c3d")
            .unwrap_err()
            .message
            .contains("belongs"));
        assert!(p
            .parse_usi_move("P*5e")
            .unwrap_err()
            .message
            .contains("in hand"));
        assert!(p
            .parse_usi_move("7g7f+")
            .unwrap_err()
            .message
            .contains("zone"));
        assert!(p.parse_usi_move("zz").is_err());
        assert!(p.parse_usi_move("7g7fé").is_err());
        let a = Position::from_sfen("7nk/9/6B1L/9/9/9/9/9/4K4 b P 1").unwrap();
        assert!(a
            .parse_usi_move("P*1b")
            .unwrap_err()
            .message
            .contains("打ち歩詰め"));
    }

    #[test]
    fn position_commands() {
        let g = parse_position_command("position startpos moves 7g7f 3c3d 8h2b+").unwrap();
        assert_eq!(g.moves.len(), 3);
        assert_eq!(g.positions.len(), 4);
        assert_eq!(
            g.last().to_sfen(),
            "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
        );
        let g = parse_position_command(
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 2g2f",
        )
        .unwrap();
        assert_eq!(g.moves.len(), 1);
        let g = parse_position_command("position startpos").unwrap();
        assert_eq!(g.moves.len(), 0);
        let s = "position startpos moves 7g7f 7g7f";
        let e = parse_position_command(s).unwrap_err();
        assert_eq!(e.0[0].offset, s.rfind("7g7f").unwrap());
        assert!(parse_position_command("position sfen x b - 1 moves").is_err());
        assert!(parse_position_command("position").is_err());
    }
}
