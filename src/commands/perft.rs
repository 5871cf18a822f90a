#![forbid(unsafe_code)]
//! `okite perft` by the native move generator under a shipped reading: the count of the move
//! sequences of a depth from the last position of a game, and, divided, each first move's.

use crate::diagnostics::{code, Diag};
use crate::shogi::position::Position;
use crate::shogi::readings::{Judge, Reading};
use crate::shogi::types::Move;

/// The deepest perft that follows every line's history (a reading's or a variant's).
pub const HISTORY_DEPTH: u32 = 8;

/// The depth from which perft splits its count over threads: below it the count takes less
/// time than starting them.
pub const SPLIT_DEPTH: u32 = 4;

/// What a native perft is asked.
pub struct PerftAsk<'a> {
    /// The game: its last position is counted from, with the history before it.
    pub history: &'a [Position],
    /// The reading the move generator follows.
    pub reading: Reading,
    /// The depth.
    pub depth: u32,
    /// Whether each first move's count is asked.
    pub divide: bool,
    /// The threads the count may use.
    pub jobs: usize,
}

/// What a native perft found.
pub struct Perft {
    /// The count.
    pub count: u64,
    /// Each first move's count, when divided (empty under a reading that follows the history).
    pub divided: Vec<(Move, u64)>,
}

/// Perft deeper than [`HISTORY_DEPTH`] under `what`: refused.
pub fn too_deep_with_history(depth: u32, what: &str) -> Diag {
    Diag::error(
        code::BAD_OPTION,
        format!(
            "perft to depth {depth} under {what} would not finish: it follows every line's history"
        ),
    )
    .help(format!("ask for a depth of at most {HISTORY_DEPTH}"))
}

/// Perft under a reading, each line with its history (repetitions and perpetual checks count).
#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
pub fn perft_reading(judge: &mut Judge, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = judge.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in moves {
        let next = judge.last().expect("a position").after(m);
        judge.push(next);
        n += perft_reading(judge, depth - 1);
        judge.pop();
    }
    n
}

/// The perft asked, by the native move generator.
#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
pub fn native(ask: &PerftAsk) -> Result<Perft, Diag> {
    let PerftAsk {
        history,
        reading,
        depth,
        divide,
        jobs,
    } = *ask;
    // under narrow-check the history changes no move (a perpetual check loses the game but is
    // no forbidden move), so the move generator counts from the last position whatever the
    // moves before it; the other readings follow each line's history
    if reading != Reading::NARROW_CHECK {
        if depth > HISTORY_DEPTH {
            return Err(too_deep_with_history(depth, "a reading"));
        }
        let mut judge = Judge::new(history, reading);
        return Ok(Perft {
            count: perft_reading(&mut judge, depth),
            divided: vec![],
        });
    }
    let mut p = history.last().expect("a game has a position").clone();
    // a start where the side not to move is in check cannot arise: its moves are the reading's
    // (as the rules judge them: capturing the king is no move, and a pawn drop that leaves that
    // side mated is a pawn-drop mate though the drop gives no check); below it, every position
    // can arise and the move generator counts
    let irregular = p.is_king_attacked(p.side_to_move().flip());
    let root: Vec<(Move, u64)> = if irregular {
        crate::shogi::readings::legal_moves(history, reading)
            .into_iter()
            .map(|m| {
                let mut next = p.after(m);
                let c = if depth <= 1 {
                    1
                } else {
                    crate::shogi::perft::perft(&mut next, depth - 1)
                };
                (m, c)
            })
            .collect()
    } else if divide || (jobs > 1 && depth >= SPLIT_DEPTH) {
        crate::shogi::perft::perft_divide_jobs(&p, depth, jobs)
    } else {
        vec![]
    };
    let count = if !root.is_empty() || irregular {
        root.iter().map(|(_, c)| c).sum()
    } else {
        crate::shogi::perft::perft(&mut p, depth)
    };
    Ok(Perft {
        count,
        divided: if divide { root } else { vec![] },
    })
}

#[cfg(test)]
mod tests {
    use super::{native, PerftAsk};
    use crate::shogi::position::Position;
    use crate::shogi::readings::Reading;

    /// The published counts from the start (30, 900, 25,470), whole or divided, on one thread
    /// or two; under a reading that follows the history, the same counts.
    #[test]
    fn the_start_position_counts() {
        let history = [Position::startpos()];
        for (depth, want) in [(1, 30), (2, 900), (3, 25_470)] {
            for (divide, jobs) in [(false, 1), (true, 1), (true, 2)] {
                let ask = PerftAsk {
                    history: &history,
                    reading: Reading::NARROW_CHECK,
                    depth,
                    divide,
                    jobs,
                };
                let found = native(&ask).unwrap();
                assert_eq!(found.count, want);
                if divide {
                    assert_eq!(found.divided.len(), 30);
                    assert_eq!(found.divided.iter().map(|(_, c)| c).sum::<u64>(), want);
                } else {
                    assert!(found.divided.is_empty());
                }
            }
            let ask = PerftAsk {
                history: &history,
                reading: Reading::named("broad").unwrap(),
                depth,
                divide: false,
                jobs: 1,
            };
            assert_eq!(native(&ask).unwrap().count, want);
        }
        // a reading's perft follows each line's history: too deep is refused
        let ask = PerftAsk {
            history: &history,
            reading: Reading::named("narrow").unwrap(),
            depth: super::HISTORY_DEPTH + 1,
            divide: false,
            jobs: 1,
        };
        assert!(native(&ask).is_err());
    }
}
