//! Legality with the history of the game, under the readings of rules/shogi_mate.rule.
//!
//! Two choices make the four readings: whether a pawn drop must give check to be a pawn-drop mate
//! (mate presupposes check, or not), and whether completing a fourfold repetition by perpetual
//! check is forbidden (the broad reading). Under the broad reading the history matters twice: a
//! move that completes the mover's perpetual check is forbidden, and so a pawn drop whose only
//! answers are such moves is a pawn-drop mate.

use super::movegen::PawnDropMate;
use super::position::Position;
use super::types::{Move, PieceKind};

/// The native reading of a rule reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    pub pawn_drop_mate: PawnDropMate,
    pub perpetual_forbidden: bool,
}

impl Reading {
    pub const NARROW: Reading = Reading {
        pawn_drop_mate: PawnDropMate::NoMoveLeft,
        perpetual_forbidden: false,
    };
    pub const BROAD: Reading = Reading {
        pawn_drop_mate: PawnDropMate::NoMoveLeft,
        perpetual_forbidden: true,
    };
    pub const NARROW_CHECK: Reading = Reading {
        pawn_drop_mate: PawnDropMate::RequiresCheck,
        perpetual_forbidden: false,
    };
    pub const BROAD_CHECK: Reading = Reading {
        pawn_drop_mate: PawnDropMate::RequiresCheck,
        perpetual_forbidden: true,
    };

    /// The reading of a rule reading's name, if it is one of the four.
    pub fn named(name: &str) -> Option<Reading> {
        Some(match name {
            "narrow" | "base" => Reading::NARROW,
            "broad" => Reading::BROAD,
            "narrow-check" | "mate-needs-check" => Reading::NARROW_CHECK,
            "broad-check" => Reading::BROAD_CHECK,
            _ => return None,
        })
    }

    /// Whether mate presupposes check in this reading.
    pub fn mate_needs_check(self) -> bool {
        self.pawn_drop_mate == PawnDropMate::RequiresCheck
    }
}

/// Is the last position of `history` a fourfold repetition completed by perpetual check of the
/// side that just moved (and not of the side to move)?
pub fn perpetual_forbidden(history: &[Position]) -> bool {
    let Some(last) = history.last() else {
        return false;
    };
    let occ: Vec<usize> = history
        .iter()
        .enumerate()
        .filter(|(_, p)| *p == last)
        .map(|(i, _)| i)
        .collect();
    if occ.len() < 4 {
        return false;
    }
    let run = &history[occ[occ.len() - 4]..];
    let to_move = last.side_to_move();
    // every position of the run where the side to move is `s` has `s` in check
    let checked_throughout = |s| {
        run.iter()
            .filter(|p| p.side_to_move() == s)
            .all(|p| p.in_check())
    };
    checked_throughout(to_move) && !checked_throughout(to_move.flip())
}

/// Is `history` (positions, oldest first) a fourfold repetition at its last position?
pub fn is_repetition(history: &[Position]) -> bool {
    match history.last() {
        Some(last) => history.iter().filter(|p| *p == last).count() >= 4,
        None => false,
    }
}

/// The legal moves of the last position of `history` under a reading.
pub fn legal_moves(history: &[Position], reading: Reading) -> Vec<Move> {
    legal_moves_depth(history, reading, 0)
}

fn legal_moves_depth(history: &[Position], reading: Reading, depth: usize) -> Vec<Move> {
    let Some(pos) = history.last() else {
        return vec![];
    };
    let base: Vec<Move> = pos
        .legal_moves_with(reading.pawn_drop_mate)
        .iter()
        .copied()
        .collect();
    if !reading.perpetual_forbidden {
        return base;
    }
    let mut out = vec![];
    let mut h: Vec<Position> = history.to_vec();
    for m in base {
        h.push(pos.after(m));
        let keep = if perpetual_forbidden(&h) {
            false
        } else if m.drop_kind() == Some(PieceKind::Pawn) && depth < 40 {
            // a pawn drop is a pawn-drop mate when the opponent has no answer that is not
            // forbidden, perpetual checks included (the drop only ever counts if it could mate:
            // with check, or in the reading where mate needs no check)
            let could_mate = !reading.mate_needs_check() || h.last().is_some_and(|p| p.in_check());
            !could_mate || !legal_moves_depth(&h, reading, depth + 1).is_empty()
        } else {
            true
        };
        h.pop();
        if keep {
            out.push(m);
        }
    }
    out
}

/// What a replay of a game finds under one reading.
#[derive(Clone, Debug, Default)]
pub struct Replay {
    /// The first move (1-based) that is not legal, with the reason.
    pub first_forbidden: Option<(usize, String)>,
    /// Plies (1-based, counting moves) at which a position occurred for the fourth time.
    pub repetitions: Vec<usize>,
    /// Plies at which a fourfold repetition was completed by perpetual check of the mover.
    pub perpetual_checks: Vec<usize>,
    /// The final position is mate under the reading.
    pub final_mate: bool,
}

/// Replay a game (positions and the moves between them) under a reading.
pub fn replay(positions: &[Position], moves: &[Move], reading: Reading) -> Replay {
    let mut r = Replay::default();
    for (i, m) in moves.iter().enumerate() {
        let hist = &positions[..=i];
        if r.first_forbidden.is_none() {
            let legal = legal_moves(hist, reading);
            if !legal.contains(m) {
                let why = if !hist[i].pseudo_legal_moves().contains(m) {
                    "not a move of the position".to_string()
                } else if reading.perpetual_forbidden && perpetual_forbidden(&positions[..=i + 1]) {
                    "completes a fourfold repetition by perpetual check".to_string()
                } else {
                    hist[i].illegal_reason(*m).unwrap_or_else(|| {
                        "a pawn drop that mates (perpetual checks considered)".into()
                    })
                };
                r.first_forbidden = Some((i + 1, why));
            }
        }
        if is_repetition(&positions[..=i + 1]) {
            r.repetitions.push(i + 1);
            if perpetual_forbidden(&positions[..=i + 1]) {
                r.perpetual_checks.push(i + 1);
            }
        }
    }
    let last = positions.len();
    let no_move = legal_moves(&positions[..last], reading).is_empty();
    r.final_mate = no_move && (!reading.mate_needs_check() || positions[last - 1].in_check());
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(sfen: &str, moves: &str) -> (Vec<Position>, Vec<Move>) {
        let mut ps = vec![Position::from_sfen(sfen).unwrap()];
        let mut ms = vec![];
        for t in moves.split_whitespace() {
            let m = Move::from_usi(t).unwrap();
            let next = ps.last().unwrap().after(m);
            ps.push(next);
            ms.push(m);
        }
        (ps, ms)
    }

    const PERPETUAL: &str = "1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e";

    #[test]
    fn perpetual_check_is_forbidden_under_broad_only() {
        let (ps, ms) = game("8k/9/9/9/8R/9/9/9/4K4 w - 1", PERPETUAL);
        let narrow = replay(&ps, &ms, Reading::NARROW);
        assert_eq!(narrow.first_forbidden, None);
        assert_eq!(narrow.repetitions, vec![12]);
        let broad = replay(&ps, &ms, Reading::BROAD);
        assert_eq!(broad.first_forbidden.as_ref().map(|f| f.0), Some(12));
        assert_eq!(broad.perpetual_checks, vec![12]);
        // the last move is not among the legal moves under broad
        assert!(!legal_moves(&ps[..12], Reading::BROAD).contains(&ms[11]));
        assert!(legal_moves(&ps[..12], Reading::NARROW).contains(&ms[11]));
    }

    #[test]
    fn spec_positions_a_to_d() {
        let d = |sfen: &str, mv: &str, r: Reading| -> bool {
            let p = Position::from_sfen(sfen).unwrap();
            legal_moves(&[p], r).contains(&Move::from_usi(mv).unwrap())
        };
        for r in [
            Reading::NARROW,
            Reading::BROAD,
            Reading::NARROW_CHECK,
            Reading::BROAD_CHECK,
        ] {
            assert!(!d("7nk/9/6B1L/9/9/9/9/9/4K4 b P 1", "P*1b", r), "A {r:?}");
            assert!(d("7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1", "1c1b", r), "B {r:?}");
            assert!(d("7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1", "1c1b+", r), "B+ {r:?}");
            assert!(d("7nk/9/8L/9/9/9/9/9/4K4 b P 1", "P*1b", r), "C {r:?}");
            let dl = d("8k/6G2/9/9/9/9/9/9/4K4 b P 1", "P*1c", r);
            assert_eq!(dl, r.mate_needs_check(), "D {r:?}");
        }
    }
}
