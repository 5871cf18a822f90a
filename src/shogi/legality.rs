//! Legality assembled from parts, each native or asked of an oracle.
//!
//! rules/shogi_mate.rule states that a move is legal when the position it leads to is not
//! forbidden, and that `g[i]` is forbidden when, t being the side to move, -t has two pawns on a
//! file (`nifu`), -t has a piece with nowhere to go (`dead_piece`), -t's king is attacked
//! (`dying`), or the last move is a pawn-drop mate (`uchifuzume`: the last move dropped a pawn and
//! `g[i]` is mate, mate being "every successor is forbidden", with or without "in check"). A
//! variant may change any of these parts. [`Hybrid`] computes the parts that are unchanged
//! natively, on the engine's positions, and asks an [`Oracle`] for the changed ones: the rules
//! themselves, through the evaluator, in the layer above (this module knows nothing of the
//! language). The move generation (the one-step transition) is always native: a variant that
//! changes it has no native part to assemble.
//!
//! Only readings without history are assembled (the broad reading's perpetual check looks at the
//! whole game): the positions and the last move decide every part.

use super::bitboard::Bitboard;
use super::movegen::Exclude;
use super::position::Position;
use super::types::{Color, Move, PieceKind};

/// The changed parts, asked of the rules. Each call gets the game so far (oldest first; the
/// position in question last).
pub trait Oracle {
    /// `nifu(s, o)` on the last position, for the player `o`.
    fn nifu(&mut self, history: &[Position], o: Color) -> Result<bool, String>;
    /// `dead_piece(s, o)` on the last position, for the player `o`.
    fn dead_piece(&mut self, history: &[Position], o: Color) -> Result<bool, String>;
    /// `dying(s)` on the last position.
    fn dying(&mut self, history: &[Position]) -> Result<bool, String>;
    /// `uchifuzume(g, i)` at the last position.
    fn uchifuzume(&mut self, history: &[Position]) -> Result<bool, String>;
    /// `mate(g, i)` at the last position.
    fn mate(&mut self, history: &[Position]) -> Result<bool, String>;
    /// `forbidden(g, i)` at the last position (when its own definition changed).
    fn forbidden(&mut self, history: &[Position]) -> Result<bool, String>;
    /// Drops what the oracle keeps to answer faster (its caches), when memory runs short.
    fn shrink(&mut self) {}
}

/// Which parts are asked of the oracle (true) and which computed natively (false).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    pub nifu: bool,
    pub dead_piece: bool,
    pub dying: bool,
    pub uchifuzume: bool,
    pub mate: bool,
    pub forbidden: bool,
}

impl Asked {
    /// The names of the parts asked, for notices.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v = vec![];
        for (on, n) in [
            (self.forbidden, "forbidden"),
            (self.nifu, "nifu"),
            (self.dead_piece, "dead_piece"),
            (self.dying, "dying"),
            (self.uchifuzume, "uchifuzume"),
            (self.mate, "mate"),
        ] {
            if on {
                v.push(n);
            }
        }
        v
    }
}

/// Legality under a variant: native parts and an oracle for the changed ones.
pub struct Hybrid<'o> {
    /// Mate presupposes check (in the native part of `mate`).
    pub mate_needs_check: bool,
    pub asked: Asked,
    pub oracle: &'o mut dyn Oracle,
    /// How many times the oracle was asked.
    pub oracle_calls: u64,
}

/// `o` has two unpromoted pawns on one file.
pub fn nifu(p: &Position, o: Color) -> bool {
    let pawns = p.color_bb(o).0 & p.kind_bb(PieceKind::Pawn).0;
    if pawns.count_ones() < 2 {
        return false;
    }
    let mut files = 0u16;
    for sq in Bitboard(pawns).squares() {
        let bit = 1u16 << sq.column();
        if files & bit != 0 {
            return true;
        }
        files |= bit;
    }
    false
}

/// `o` has a piece on the board that attacks no square (a pawn or lance on the last row, a
/// knight on the last two).
pub fn dead_piece(p: &Position, o: Color) -> bool {
    let own = p.color_bb(o).0;
    let short = own & (p.kind_bb(PieceKind::Pawn).0 | p.kind_bb(PieceKind::Lance).0);
    let knights = own & p.kind_bb(PieceKind::Knight).0;
    Bitboard(short).squares().any(|sq| sq.relative_row(o) == 1)
        || Bitboard(knights)
            .squares()
            .any(|sq| sq.relative_row(o) <= 2)
}

/// Bound on nested pawn-drop-mate tests (each level is a drop, so hands shrink; this only guards
/// against an oracle that says otherwise).
const MAX_NESTING: usize = 40;

impl<'o> Hybrid<'o> {
    /// An assembly that asks `oracle` the parts `asked` names, none asked yet.
    pub fn new(mate_needs_check: bool, asked: Asked, oracle: &'o mut dyn Oracle) -> Hybrid<'o> {
        Hybrid {
            mate_needs_check,
            asked,
            oracle,
            oracle_calls: 0,
        }
    }

    fn ask(&mut self, r: Result<bool, String>) -> Result<bool, String> {
        self.oracle_calls += 1;
        r
    }

    /// Is the last position of `history` forbidden?
    pub fn forbidden(&mut self, history: &mut Vec<Position>) -> Result<bool, String> {
        self.forbidden_at(history, 0, None)
    }

    /// `hint`: the position before the last move, the move, and whether the mover had two pawns
    /// on a file or a dead piece there; with it the native parts look only at what the move
    /// changed (the mover's pawns on the board change only by a pawn drop or promotion, and a
    /// piece has nowhere to go only where it moved).
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn forbidden_at(
        &mut self,
        history: &mut Vec<Position>,
        depth: usize,
        hint: Option<(Hint, Move)>,
    ) -> Result<bool, String> {
        if self.asked.forbidden {
            let r = self.oracle.forbidden(history);
            return self.ask(r);
        }
        let last = history.last().expect("a position");
        let mover = last.side_to_move().flip();
        let nifu_v = if self.asked.nifu {
            let r = self.oracle.nifu(history, mover);
            self.ask(r)?
        } else {
            match hint {
                Some((h, m)) if !h.nifu => {
                    m.drop_kind() == Some(PieceKind::Pawn) && {
                        let file = m.to().column();
                        let pawns = last.color_bb(mover).0 & last.kind_bb(PieceKind::Pawn).0;
                        Bitboard(pawns)
                            .squares()
                            .filter(|sq| sq.column() == file)
                            .count()
                            > 1
                    }
                }
                _ => nifu(last, mover),
            }
        };
        if nifu_v {
            return Ok(true);
        }
        let dead_v = if self.asked.dead_piece {
            let r = self.oracle.dead_piece(history, mover);
            self.ask(r)?
        } else {
            match hint {
                Some((h, m)) if !h.dead => {
                    let to = m.to();
                    match last.piece_at(to) {
                        Some(pc) if pc.color == mover => {
                            let rel = to.relative_row(mover);
                            match pc.kind {
                                PieceKind::Pawn | PieceKind::Lance => rel == 1,
                                PieceKind::Knight => rel <= 2,
                                _ => false,
                            }
                        }
                        _ => false,
                    }
                }
                _ => dead_piece(last, mover),
            }
        };
        if dead_v {
            return Ok(true);
        }
        let dying_v = if self.asked.dying {
            let r = self.oracle.dying(history);
            self.ask(r)?
        } else if matches!(hint, Some((h, _)) if h.safe) {
            false
        } else {
            last.is_king_attacked(mover)
        };
        if dying_v {
            return Ok(true);
        }
        self.uchifuzume_at(history, depth)
    }

    fn uchifuzume_at(&mut self, history: &mut Vec<Position>, depth: usize) -> Result<bool, String> {
        if self.asked.uchifuzume {
            let r = self.oracle.uchifuzume(history);
            return self.ask(r);
        }
        let n = history.len();
        if n < 2 {
            return Ok(false);
        }
        // the last move dropped a pawn: the mover's pawns in hand went down
        let mover = history[n - 2].side_to_move();
        let before = history[n - 2].hand(mover).count(PieceKind::Pawn);
        let after = history[n - 1].hand(mover).count(PieceKind::Pawn);
        if after >= before {
            return Ok(false);
        }
        if depth >= MAX_NESTING {
            return Err("pawn-drop mates nested too deep".into());
        }
        self.mate_at(history, depth + 1)
    }

    /// Is the last position of `history` mate (for the side to move)?
    pub fn mate(&mut self, history: &mut Vec<Position>) -> Result<bool, String> {
        self.mate_at(history, 0)
    }

    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    fn mate_at(&mut self, history: &mut Vec<Position>, depth: usize) -> Result<bool, String> {
        if self.asked.mate {
            let r = self.oracle.mate(history);
            return self.ask(r);
        }
        let last = history.last().expect("a position").clone();
        if self.mate_needs_check && !last.in_check() {
            return Ok(false);
        }
        let (flags, moves) = self.candidates(&last);
        // each move is made and unmade on one copy of the position, on top of the history
        history.push(last);
        let mut mate = Ok(true);
        for m in moves {
            let undo = history.last_mut().expect("pushed").do_move(m);
            let f = self.forbidden_at(history, depth, Some((flags, m)));
            history.last_mut().expect("pushed").undo_move(m, undo);
            match f {
                Ok(true) => {}
                other => {
                    mate = other.map(|_| false);
                    break;
                }
            }
        }
        history.pop();
        mate
    }

    /// The moves of `p` that legality has to judge, and the hint for judging them. Where the
    /// king's safety is native (`dying` and `forbidden` as shipped) they are generated safe, and
    /// without the dead pieces and two pawns on a file where those parts are native as well: the
    /// moves left out are exactly those the native parts would forbid. Otherwise every
    /// pseudo-legal move is a candidate.
    fn candidates(&self, p: &Position) -> (Hint, Vec<Move>) {
        let mover = p.side_to_move();
        let safe = !self.asked.dying && !self.asked.forbidden;
        let hint = Hint {
            nifu: self.asked.nifu || nifu(p, mover),
            dead: self.asked.dead_piece || dead_piece(p, mover),
            safe,
        };
        let moves = if safe {
            p.safe_moves(Exclude {
                dead: !self.asked.dead_piece,
                nifu: !self.asked.nifu,
                pawn_mate: false,
                king_captures: true,
            })
        } else {
            p.pseudo_legal_moves()
        };
        (hint, moves)
    }

    /// The legal moves at the last position of `history`.
    pub fn legal_moves(&mut self, history: &mut Vec<Position>) -> Result<Vec<Move>, String> {
        Ok(self
            .legal_moves_where(history, |_, _| true)?
            .into_iter()
            .map(|(m, _)| m)
            .collect())
    }

    /// The legal moves at the last position of `history` that pass `keep` (tested first:
    /// legality is asked only of those), each with the key of the position it leads to.
    #[expect(
        clippy::expect_used,
        reason = "a game's history is never empty: it starts with the position given"
    )]
    pub fn legal_moves_where(
        &mut self,
        history: &mut Vec<Position>,
        keep: impl Fn(&Position, Move) -> bool,
    ) -> Result<Vec<(Move, u64)>, String> {
        let last = history.last().expect("a position").clone();
        let (flags, moves) = self.candidates(&last);
        let mut out = vec![];
        // each move is made and unmade on one copy of the position, on top of the history
        history.push(last);
        let mut err = None;
        for m in moves {
            if !keep(&history[history.len() - 2], m) {
                continue;
            }
            let undo = history.last_mut().expect("pushed").do_move(m);
            let key = history.last().expect("pushed").key();
            let f = self.forbidden_at(history, 0, Some((flags, m)));
            history.last_mut().expect("pushed").undo_move(m, undo);
            match f {
                Ok(false) => out.push((m, key)),
                Ok(true) => {}
                Err(e) => {
                    err = Some(e);
                    break;
                }
            }
        }
        history.pop();
        match err {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }
}

/// What the native parts know of the position before a move (see `forbidden_at`).
#[derive(Clone, Copy)]
struct Hint {
    nifu: bool,
    dead: bool,
    /// The moves were generated leaving the mover's king safe (`dying` need not be asked).
    safe: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shogi::readings::{legal_moves, Reading};

    /// An oracle that answers as the shipped rules do (the native parts), so that every part can
    /// be routed through it and compared.
    struct Shipped {
        needs_check: bool,
    }

    impl Oracle for Shipped {
        fn nifu(&mut self, h: &[Position], o: Color) -> Result<bool, String> {
            Ok(nifu(h.last().unwrap(), o))
        }
        fn dead_piece(&mut self, h: &[Position], o: Color) -> Result<bool, String> {
            Ok(dead_piece(h.last().unwrap(), o))
        }
        fn dying(&mut self, h: &[Position]) -> Result<bool, String> {
            let p = h.last().unwrap();
            Ok(p.is_king_attacked(p.side_to_move().flip()))
        }
        fn uchifuzume(&mut self, h: &[Position]) -> Result<bool, String> {
            native(self.needs_check, |hy| hy.uchifuzume_at(&mut h.to_vec(), 0))
        }
        fn mate(&mut self, h: &[Position]) -> Result<bool, String> {
            native(self.needs_check, |hy| hy.mate(&mut h.to_vec()))
        }
        fn forbidden(&mut self, h: &[Position]) -> Result<bool, String> {
            native(self.needs_check, |hy| hy.forbidden(&mut h.to_vec()))
        }
    }

    /// `f` on an assembly whose every part is native.
    fn native<T>(needs_check: bool, f: impl FnOnce(&mut Hybrid) -> T) -> T {
        let mut o = Shipped { needs_check };
        let mut hy = Hybrid::new(needs_check, Asked::default(), &mut o);
        f(&mut hy)
    }

    /// With every part native, or every part asked of an oracle that answers as the shipped
    /// rules, the assembled legality is the native engine's under narrow and narrow-check.
    #[test]
    fn assembled_legality_is_the_engines() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let sfens = [
            "7nk/9/6B1L/9/9/9/9/9/4K4 b P 1",
            "7nk/9/7G1/9/9/9/9/9/4K4 b P 1",
            "8k/6G2/9/9/9/9/9/9/4K4 b P 1",
            "4k4/9/9/9/4P4/9/9/9/4K4 b P 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "6G1k/9/7G1/9/9/9/9/9/4K4 b Ll 1",
        ];
        let given: Vec<Position> = sfens
            .iter()
            .map(|s| Position::from_sfen(s).unwrap())
            .collect();
        // and, under narrow-check, positions of random play, where every kind of move (evasions,
        // pins, drops) occurs (under narrow, where a pawn drop is judged mate without check, the
        // tests nest through chains of pawn drops whose cost grows with the pawns in hand)
        let mut played = given.clone();
        played.extend(
            crate::shogi::mate3::tests::random_positions(30, 0x5eed_1e9a_117e)
                .into_iter()
                .step_by(2),
        );
        for (reading, needs_check, positions) in [
            (Reading::NARROW, false, &given),
            (Reading::NARROW_CHECK, true, &played),
        ] {
            for p in positions {
                let sfen = p.to_sfen();
                let mut want: Vec<String> = legal_moves(std::slice::from_ref(p), reading)
                    .iter()
                    .map(|m| m.to_usi())
                    .collect();
                want.sort();
                for asked in [
                    Asked::default(),
                    Asked {
                        nifu: true,
                        dead_piece: true,
                        dying: true,
                        uchifuzume: true,
                        mate: false,
                        forbidden: false,
                    },
                    Asked {
                        mate: true,
                        ..Asked::default()
                    },
                    // each part alone: the moves are then generated safe, without the
                    // exclusions of the parts asked
                    Asked {
                        nifu: true,
                        ..Asked::default()
                    },
                    Asked {
                        dead_piece: true,
                        ..Asked::default()
                    },
                    Asked {
                        dying: true,
                        ..Asked::default()
                    },
                    Asked {
                        nifu: true,
                        dead_piece: true,
                        ..Asked::default()
                    },
                    Asked {
                        forbidden: true,
                        ..Asked::default()
                    },
                ] {
                    let mut o = Shipped { needs_check };
                    let mut hy = Hybrid::new(needs_check, asked, &mut o);
                    let mut got: Vec<String> = hy
                        .legal_moves(&mut vec![p.clone()])
                        .unwrap()
                        .iter()
                        .map(|m| m.to_usi())
                        .collect();
                    got.sort();
                    assert_eq!(got, want, "{sfen} {reading:?} {asked:?}");
                }
            }
        }
    }
}
