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

/// Where the positions of a history occur, by their keys: a repetition is found by looking up a
/// position's key, not by walking the whole history (a game of 40,000 moves is replayed in
/// linear time).
#[derive(Clone, Default)]
pub struct Occurrences {
    by_key: rustc_hash::FxHashMap<u64, Vec<u32>>,
}

impl Occurrences {
    /// The occurrences of the positions of `history`.
    pub fn of(history: &[Position]) -> Occurrences {
        let mut o = Occurrences::default();
        for (i, p) in history.iter().enumerate() {
            o.push(i, p);
        }
        o
    }

    /// `p` is the position at index `i` of the history (pushed in order).
    pub fn push(&mut self, i: usize, p: &Position) {
        self.by_key.entry(p.key()).or_default().push(i as u32);
    }

    /// The last position pushed, `p`, leaves the history.
    pub fn pop(&mut self, p: &Position) {
        if let Some(v) = self.by_key.get_mut(&p.key()) {
            v.pop();
            if v.is_empty() {
                self.by_key.remove(&p.key());
            }
        }
    }

    /// The indices, oldest first, of the positions of `history` equal to `p`.
    pub fn equal<'a>(
        &'a self,
        history: &'a [Position],
        p: &'a Position,
    ) -> impl DoubleEndedIterator<Item = usize> + 'a {
        self.by_key
            .get(&p.key())
            .into_iter()
            .flatten()
            .map(|&i| i as usize)
            .filter(move |&i| history.get(i) == Some(p))
    }
}

/// Would `next`, reached from the last position of `history` (whose occurrences are `occ`),
/// complete a fourfold repetition by perpetual check of the side that moved (and not of the side
/// to move)?
fn perpetual_after(history: &[Position], occ: &Occurrences, next: &Position) -> bool {
    // the run starts at the first of the last three earlier occurrences
    let Some(start) = occ.equal(history, next).rev().nth(2) else {
        return false;
    };
    let run = &history[start..];
    let to_move = next.side_to_move();
    // every position of the run where the side to move is `s` has `s` in check
    let checked_throughout = |s| {
        run.iter()
            .chain(std::iter::once(next))
            .filter(|p| p.side_to_move() == s)
            .all(|p| p.in_check())
    };
    checked_throughout(to_move) && !checked_throughout(to_move.flip())
}

/// Is the last position of `history` a fourfold repetition completed by perpetual check of the
/// side that just moved (and not of the side to move)?
pub fn perpetual_forbidden(history: &[Position]) -> bool {
    let Some((last, before)) = history.split_last() else {
        return false;
    };
    perpetual_after(before, &Occurrences::of(before), last)
}

/// Is `history` (positions, oldest first) a fourfold repetition at its last position?
pub fn is_repetition(history: &[Position]) -> bool {
    match history.last() {
        Some(last) => {
            history
                .iter()
                .filter(|p| p.key() == last.key() && *p == last)
                .count()
                >= 4
        }
        None => false,
    }
}

/// The legal moves of the last position of `history` under a reading: the moves of the one-step
/// transition whose result is not a forbidden position, exactly as rules/shogi_mate.rule states it
/// (two pawns, a piece with nowhere to go or a king left attacked, for any piece of the mover;
/// pawn-drop mate judged by a real test of the replies; under the broad reading, perpetual check).
pub fn legal_moves(history: &[Position], reading: Reading) -> Vec<Move> {
    let mut h = history.to_vec();
    let mut occ = Occurrences::of(history);
    legal_moves_depth(&mut h, &mut occ, reading, 0)
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

/// The legal moves after `history`, whose occurrences are `occ`; both come back as they were.
fn legal_moves_depth(
    history: &mut Vec<Position>,
    occ: &mut Occurrences,
    reading: Reading,
    depth: usize,
) -> Vec<Move> {
    let Some(pos) = history.last().cloned() else {
        return vec![];
    };
    let mover = pos.side_to_move();
    let mut out = vec![];
    for m in pos.pseudo_legal_moves() {
        let n = pos.after(m);
        if n.is_king_attacked(mover) || static_forbidden(&n, mover) {
            continue;
        }
        let keep = if reading.perpetual_forbidden && perpetual_after(history, occ, &n) {
            false
        } else if m.drop_kind() == Some(PieceKind::Pawn) && depth < 40 {
            // pawn-drop mate: the position after the drop is mate (in check, where the reading
            // asks for it) and the opponent has no answer that is not forbidden
            let could_mate = !reading.mate_needs_check() || n.in_check();
            !could_mate || {
                occ.push(history.len(), &n);
                history.push(n);
                let answers = legal_moves_depth(history, occ, reading, depth + 1);
                if let Some(n) = history.pop() {
                    occ.pop(&n);
                }
                !answers.is_empty()
            }
        } else {
            true
        };
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

/// Replay a game (positions and the moves between them) under a reading: the history and the
/// occurrences of its positions grow move by move, so that the replay takes linear time.
pub fn replay(positions: &[Position], moves: &[Move], reading: Reading) -> Replay {
    let mut r = Replay::default();
    let mut h: Vec<Position> = Vec::with_capacity(positions.len());
    let mut occ = Occurrences::default();
    for (i, m) in moves.iter().enumerate() {
        // h is positions[..=i]
        occ.push(i, &positions[i]);
        h.push(positions[i].clone());
        let next = &positions[i + 1];
        if r.first_forbidden.is_none() {
            let legal = legal_moves_depth(&mut h, &mut occ, reading, 0);
            if !legal.contains(m) {
                let why = if !h[i].pseudo_legal_moves().contains(m) {
                    "not a move of the position".to_string()
                } else if reading.perpetual_forbidden && perpetual_after(&h, &occ, next) {
                    "completes a fourfold repetition by perpetual check".to_string()
                } else {
                    h[i].illegal_reason(*m).unwrap_or_else(|| {
                        "a pawn drop that mates (perpetual checks considered)".into()
                    })
                };
                r.first_forbidden = Some((i + 1, why));
            }
        }
        if occ.equal(&h, next).nth(2).is_some() {
            r.repetitions.push(i + 1);
            if perpetual_after(&h, &occ, next) {
                r.perpetual_checks.push(i + 1);
            }
        }
    }
    let last = positions.len();
    occ.push(last - 1, &positions[last - 1]);
    h.push(positions[last - 1].clone());
    let no_move = legal_moves_depth(&mut h, &mut occ, reading, 0).is_empty();
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

    /// The replay's repetitions and perpetual checks, found through the occurrences of keys,
    /// are those of a walk of the whole history at every move.
    #[test]
    fn replay_finds_what_a_walk_of_the_history_finds() {
        // the naive reading of a perpetual check: the run from the fourth-last occurrence
        fn naive_perpetual(h: &[Position]) -> bool {
            let last = h.last().unwrap();
            let occ: Vec<usize> = (0..h.len()).filter(|&i| h[i] == *last).collect();
            if occ.len() < 4 {
                return false;
            }
            let run = &h[occ[occ.len() - 4]..];
            let all = |s| {
                run.iter()
                    .filter(|p| p.side_to_move() == s)
                    .all(|p| p.in_check())
            };
            all(last.side_to_move()) && !all(last.side_to_move().flip())
        }
        let quiet = "1a2a 1e2e 2a1a 2e1e";
        for moves in [
            [PERPETUAL; 3].join(" "),
            [quiet; 9].join(" "),
            format!("{} {}", [quiet; 3].join(" "), [PERPETUAL; 2].join(" ")),
        ] {
            let (ps, ms) = game("8k/9/9/9/8R/9/9/9/4K4 w - 1", &moves);
            for r in [Reading::NARROW, Reading::BROAD] {
                let got = replay(&ps, &ms, r);
                let reps: Vec<usize> = (1..ps.len())
                    .filter(|&i| is_repetition(&ps[..=i]))
                    .collect();
                let perp: Vec<usize> = reps
                    .iter()
                    .copied()
                    .filter(|&i| naive_perpetual(&ps[..=i]))
                    .collect();
                assert_eq!(got.repetitions, reps, "{moves} {r:?}");
                assert_eq!(got.perpetual_checks, perp, "{moves} {r:?}");
                assert_eq!(
                    perp.iter()
                        .map(|&i| perpetual_forbidden(&ps[..=i]))
                        .collect::<Vec<_>>(),
                    vec![true; perp.len()]
                );
            }
        }
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
