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

/// The legal moves of the last position of `history` under a reading: the moves of the one-step
/// transition whose result is not a forbidden position, exactly as rules/shogi_mate.rule states it
/// (two pawns, a piece with nowhere to go or a king left attacked, for any piece of the mover;
/// pawn-drop mate judged by a real test of the replies; under the broad reading, perpetual check).
pub fn legal_moves(history: &[Position], reading: Reading) -> Vec<Move> {
    legal_moves_depth(history, reading, 0)
}

/// The mover (`c`) has two unpromoted pawns on a file, or a piece with nowhere to go.
pub fn static_forbidden(p: &Position, c: super::types::Color) -> bool {
    let mut files = [0u8; 10];
    for (sq, color, kind, promoted) in p.board_pieces() {
        if color != c || promoted {
            continue;
        }
        let rel = sq.relative_row(c);
        match kind {
            PieceKind::Pawn => {
                files[sq.column() as usize] += 1;
                if files[sq.column() as usize] > 1 || rel == 1 {
                    return true;
                }
            }
            PieceKind::Lance if rel == 1 => return true,
            PieceKind::Knight if rel <= 2 => return true,
            _ => {}
        }
    }
    false
}

/// Why a position cannot begin a game the engines search, or `None`: the side to move has two
/// pawns on a file or a piece with nowhere to go, so that under the rules every one of its moves
/// is forbidden (the piece stays), while the move generator, which assumes a start that can arise,
/// would count them. A start where the side not to move is in check, or has such pieces, is
/// searched as the rules define it: they judge each move by the position it leads to, so every
/// command gives the rules' answer there.
pub fn start_forbidden(p: &Position) -> Option<String> {
    let to_move = p.side_to_move();
    let name = match to_move {
        super::types::Color::Black => "先手",
        super::types::Color::White => "後手",
    };
    static_forbidden(p, to_move).then(|| {
        format!(
            "{name}, to move, has two pawns on a file or a piece with nowhere to go, so every move of its is forbidden"
        )
    })
}

fn legal_moves_depth(history: &[Position], reading: Reading, depth: usize) -> Vec<Move> {
    let Some(pos) = history.last() else {
        return vec![];
    };
    let mover = pos.side_to_move();
    let mut out = vec![];
    let mut h: Vec<Position> = history.to_vec();
    for m in pos.pseudo_legal_moves() {
        let n = pos.after(m);
        if n.is_king_attacked(mover) || static_forbidden(&n, mover) {
            continue;
        }
        h.push(n);
        let keep = if reading.perpetual_forbidden && perpetual_forbidden(&h) {
            false
        } else if m.drop_kind() == Some(PieceKind::Pawn) && depth < 40 {
            // pawn-drop mate: the position after the drop is mate (in check, where the reading
            // asks for it) and the opponent has no answer that is not forbidden
            let last = h.last().expect("pushed");
            let could_mate = !reading.mate_needs_check() || last.in_check();
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
