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
    /// How many keys occur more than once.
    repeated: usize,
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
        let at = self.by_key.entry(p.key()).or_default();
        at.push(i as u32);
        if at.len() == 2 {
            self.repeated += 1;
        }
    }

    /// How many keys occur more than once (a position that occurred twice, or two positions
    /// that share a key).
    pub fn repeated(&self) -> usize {
        self.repeated
    }

    /// The last position pushed, `p`, leaves the history.
    pub fn pop(&mut self, p: &Position) {
        if let Some(v) = self.by_key.get_mut(&p.key()) {
            if v.len() == 2 {
                self.repeated -= 1;
            }
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
    Judge::new(history, reading).legal_moves()
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

/// Why a position cannot begin a game the engines search, or `None`: a side has two pawns on a
/// file or a piece with nowhere to go. Under the rules every move of that side is forbidden while
/// the pieces stay (the side to move has no move; the side not to move, none after the first
/// ply, or only the moves that promote a pawn of the pair), while the move generator and the
/// searches, which assume a start that can arise, would count them. A start where the side not
/// to move is in check is searched as the rules define it (capturing the king is no move), and
/// every command gives the rules' answer there.
pub fn start_forbidden(p: &Position) -> Option<String> {
    let to_move = p.side_to_move();
    let name = |c| match c {
        super::types::Color::Black => "先手",
        super::types::Color::White => "後手",
    };
    if static_forbidden(p, to_move) {
        return Some(format!(
            "{}, to move, has two pawns on a file or a piece with nowhere to go, so every move of its is forbidden",
            name(to_move)
        ));
    }
    let other = to_move.flip();
    static_forbidden(p, other).then(|| {
        format!(
            "{}, not to move, has two pawns on a file or a piece with nowhere to go, so that under the rules its moves are forbidden while they stay",
            name(other)
        )
    })
}

/// The deepest chain of pawn drops each judged by its answers: past it a drop is taken to have
/// an answer. Every link of the chain takes a pawn from a hand, so a position with at most 38
/// pawns in hand never reaches it (a game from the start has 18).
const MAX_DROP_CHAIN: usize = 40;

/// The most positions whose having an answer is kept; past it the table starts again.
const MAX_TABLED: usize = 1 << 15;

/// Legality under a reading along a history that a walk extends and shortens.
///
/// Seed 001 defines legality and pawn-drop mate by each other: a pawn drop is forbidden when the
/// opponent has no legal answer, and the opponent's answers include pawn drops judged the same
/// way. Listing every answer at every level costs a power of the pawns in hand. The judge asks
/// instead whether one answer exists, tries first the answers that are decided without that
/// question (every move but a pawn drop), and keeps what it found for each position: under the
/// narrow readings that depends on the position only; under the broad readings, only while no
/// position of the history has occurred twice, since a perpetual check needs a fourth occurrence
/// and a chain of drops adds each position at most once.
pub struct Judge {
    history: Vec<Position>,
    occ: Occurrences,
    reading: Reading,
    answered: rustc_hash::FxHashMap<Position, bool>,
}

impl Judge {
    /// A judge of the moves after `history` (oldest first).
    pub fn new(history: &[Position], reading: Reading) -> Judge {
        Judge {
            history: history.to_vec(),
            occ: Occurrences::of(history),
            reading,
            answered: Default::default(),
        }
    }

    /// The position reached by the next move of the walk.
    pub fn push(&mut self, p: Position) {
        self.occ.push(self.history.len(), &p);
        self.history.push(p);
    }

    /// The walk takes back its last move.
    pub fn pop(&mut self) {
        if let Some(p) = self.history.pop() {
            self.occ.pop(&p);
        }
    }

    /// The position the judge is at.
    pub fn last(&self) -> Option<&Position> {
        self.history.last()
    }

    /// The legal moves of the last position.
    pub fn legal_moves(&mut self) -> Vec<Move> {
        let Some(pos) = self.history.last().cloned() else {
            return vec![];
        };
        let mut out = pos.pseudo_legal_moves();
        out.retain(|&m| self.allowed(&pos, m, 0));
        out
    }

    /// Whether `m` is a legal move of the last position.
    pub fn is_legal(&mut self, m: Move) -> bool {
        let Some(pos) = self.history.last().cloned() else {
            return false;
        };
        pos.pseudo_legal_moves().contains(&m) && self.allowed(&pos, m, 0)
    }

    /// Whether the last position has a legal move.
    pub fn has_legal_move(&mut self) -> bool {
        let Some(pos) = self.history.last().cloned() else {
            return false;
        };
        self.any_allowed(&pos, 0)
    }

    /// Whether `m`, a move of `pos` (the last position), leads to no forbidden position.
    fn allowed(&mut self, pos: &Position, m: Move, chain: usize) -> bool {
        let mover = pos.side_to_move();
        let n = pos.after(m);
        if n.is_king_attacked(mover) || static_forbidden(&n, mover) {
            return false;
        }
        if self.reading.perpetual_forbidden && perpetual_after(&self.history, &self.occ, &n) {
            return false;
        }
        if m.drop_kind() != Some(PieceKind::Pawn) || chain >= MAX_DROP_CHAIN {
            return true;
        }
        // pawn-drop mate: the position after the drop is mate (in check, where the reading asks
        // for it) and the opponent has no answer that is not forbidden
        if self.reading.mate_needs_check() && !n.in_check() {
            return true;
        }
        let tabled = !self.reading.perpetual_forbidden || self.occ.repeated() == 0;
        if tabled {
            if let Some(&a) = self.answered.get(&n) {
                return a;
            }
        }
        self.push(n.clone());
        let answered = self.any_allowed(&n, chain + 1);
        self.pop();
        if tabled {
            if self.answered.len() >= MAX_TABLED {
                self.answered.clear();
            }
            self.answered.insert(n, answered);
        }
        answered
    }

    /// Whether `pos`, the last position, has a legal move: first among the moves decided without
    /// asking for answers, then among the pawn drops.
    fn any_allowed(&mut self, pos: &Position, chain: usize) -> bool {
        let moves = pos.pseudo_legal_moves();
        let pawn_drop = |m: &Move| m.drop_kind() == Some(PieceKind::Pawn);
        moves
            .iter()
            .filter(|m| !pawn_drop(m))
            .any(|&m| self.allowed(pos, m, chain))
            || moves
                .iter()
                .filter(|m| pawn_drop(m))
                .any(|&m| self.allowed(pos, m, chain))
    }
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
    let mut judge = Judge::new(&[], reading);
    for (i, m) in moves.iter().enumerate() {
        // the judge's history is positions[..=i]
        judge.push(positions[i].clone());
        let next = &positions[i + 1];
        if r.first_forbidden.is_none() && !judge.is_legal(*m) {
            let h = &judge.history;
            let why = if !h[i].pseudo_legal_moves().contains(m) {
                "not a move of the position".to_string()
            } else if reading.perpetual_forbidden && perpetual_after(h, &judge.occ, next) {
                "completes a fourfold repetition by perpetual check".to_string()
            } else {
                h[i].illegal_reason(*m).unwrap_or_else(|| {
                    "a pawn drop that mates (perpetual checks considered)".into()
                })
            };
            r.first_forbidden = Some((i + 1, why));
        }
        if judge.occ.equal(&judge.history, next).nth(2).is_some() {
            r.repetitions.push(i + 1);
            if perpetual_after(&judge.history, &judge.occ, next) {
                r.perpetual_checks.push(i + 1);
            }
        }
    }
    let Some(last) = positions.last() else {
        return r;
    };
    judge.push(last.clone());
    let no_move = !judge.has_legal_move();
    r.final_mate = no_move && (!reading.mate_needs_check() || last.in_check());
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

    /// Seed 001's definition as it reads: every pawn drop that could mate asks for the
    /// opponent's whole list of legal moves, each judged the same way (exponential in the pawns
    /// in hand; the oracle of the judge on small hands).
    fn legal_by_expansion(h: &mut Vec<Position>, reading: Reading) -> Vec<Move> {
        let pos = h.last().unwrap().clone();
        let mover = pos.side_to_move();
        let mut out = vec![];
        for m in pos.pseudo_legal_moves() {
            let n = pos.after(m);
            if n.is_king_attacked(mover) || static_forbidden(&n, mover) {
                continue;
            }
            if reading.perpetual_forbidden {
                let occ = Occurrences::of(h);
                if perpetual_after(h, &occ, &n) {
                    continue;
                }
            }
            let could_mate = m.drop_kind() == Some(PieceKind::Pawn)
                && (!reading.mate_needs_check() || n.in_check());
            if could_mate {
                h.push(n);
                let answers = legal_by_expansion(h, reading);
                h.pop();
                if answers.is_empty() {
                    continue;
                }
            }
            out.push(m);
        }
        out
    }

    const READINGS: [Reading; 4] = [
        Reading::NARROW,
        Reading::BROAD,
        Reading::NARROW_CHECK,
        Reading::BROAD_CHECK,
    ];

    /// The judge's legal moves are the definition's, along random games from positions where
    /// pawn drops decide one another (kings hemmed in, pawns in both hands), under every
    /// reading, with the histories of the games (repetitions reached by walking back and forth).
    #[test]
    fn the_judge_lists_the_moves_of_the_definition() {
        let starts = [
            "k8/9/9/9/9/9/9/9/8K b Pp 1",
            "kl7/lp7/9/9/9/9/9/7PL/7LK b Pp 1",
            "8k/7G1/9/9/9/9/9/9/K8 b 2P 1",
            "7nk/9/6B1L/9/9/9/9/9/4K4 b Pp 1",
            "lk7/1s7/9/9/9/9/9/7S1/7KL w Pp 1",
            "3gkg3/9/4P4/9/9/9/9/9/4K4 b Pp 1",
            // the king that answers a drop has no move but a drop of its own
            "8k/6S2/7G1/9/9/9/9/9/4K4 b Pp 1",
            "4k4/9/9/9/9/9/7g1/6s2/8K w Pp 1",
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        let mut compared = 0;
        for sfen in starts {
            for game in 0..6 {
                let mut h = vec![Position::from_sfen(sfen).unwrap()];
                // one judge per reading walks the whole game, as a replay's or a perft's does
                let mut judges = READINGS.map(|r| Judge::new(&h, r));
                for _ in 0..24 {
                    for judge in judges.iter_mut() {
                        let r = judge.reading;
                        let mut got = judge.legal_moves();
                        let mut want = legal_by_expansion(&mut h.clone(), r);
                        got.sort_by_key(|m| m.to_usi());
                        want.sort_by_key(|m| m.to_usi());
                        assert_eq!(
                            got,
                            want,
                            "{sfen} game {game} after {} plies {r:?}",
                            h.len()
                        );
                        assert_eq!(judge.has_legal_move(), !want.is_empty());
                        for m in h.last().unwrap().pseudo_legal_moves() {
                            assert_eq!(judge.is_legal(m), want.contains(&m), "{m:?} {r:?}");
                        }
                        compared += 1;
                    }
                    let moves = legal_moves(&h, Reading::NARROW);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[next(moves.len())];
                    let n = h.last().unwrap().after(m);
                    h.push(n.clone());
                    for judge in judges.iter_mut() {
                        judge.push(n.clone());
                    }
                }
            }
        }
        assert!(compared > 1000, "{compared}");
    }

    /// A hand of every pawn is judged at once: each drop asks whether one answer exists, not
    /// for every answer (the definition read literally costs a power of the pawns in hand).
    #[test]
    fn every_pawn_in_hand_is_judged() {
        for sfen in [
            "4k4/9/9/9/9/9/9/9/4K4 b 9P9p 1",
            "4k4/9/9/9/9/9/9/9/4K4 w 18p 1",
            "k8/9/9/9/9/9/9/9/8K b 9P9p 1",
        ] {
            let p = Position::from_sfen(sfen).unwrap();
            for r in READINGS {
                let moves = legal_moves(std::slice::from_ref(&p), r);
                // no drop mates a king that can step away: a drop on each of the 71 empty
                // squares off the mover's last rank, and the king's moves
                let kings = p
                    .pseudo_legal_moves()
                    .into_iter()
                    .filter(|m| m.drop_kind().is_none())
                    .count();
                assert_eq!(moves.len(), 71 + kings, "{sfen} {r:?}");
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
