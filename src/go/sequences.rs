//! Counting regular sequences: move sequences from a start board in which every move is a
//! black or a white stone (colours need not alternate) and all boards are pairwise distinct
//! (positional superko, suicide forbidden). The empty sequence counts.

use super::board::{Board, Color};
use super::error::{GoError, GoResult};
use super::graph::Graph;
use super::small::{SmallBoard, SmallGraph};
use std::collections::HashSet;

/// Counts regular sequences starting from the empty board. `limit` bounds the count: when the
/// count exceeds it, an error is returned instead of searching on.
pub fn count_regular_sequences(g: &Graph, limit: u128) -> GoResult<u128> {
    count_regular_sequences_from(g, &Board::empty(), limit)
}

/// Counts regular sequences from a given board (which must be a board of the graph).
pub fn count_regular_sequences_from(g: &Graph, start: &Board, limit: u128) -> GoResult<u128> {
    count_regular_sequences_after(g, std::slice::from_ref(start), limit)
}

/// Counts the regular sequences that extend the regular sequence `seq` (its boards, the first
/// one included), `seq` itself counting: no board of `seq` may come again.
pub fn count_regular_sequences_after(g: &Graph, seq: &[Board], limit: u128) -> GoResult<u128> {
    count_regular_sequences_within(g, seq, limit, &mut |_| Ok(()))
}

/// The longest sequence the count follows: each board on the path costs a frame of the walk
/// (grown on the heap) and an entry of the set of boards on the path.
pub const MAX_PATH: usize = 1 << 22;

/// The same, telling `progress` the count every 2^22 sequences; an error it returns (an
/// interrupt, a resident bound passed) ends the count.
pub fn count_regular_sequences_within(
    g: &Graph,
    seq: &[Board],
    limit: u128,
    progress: &mut dyn FnMut(u128) -> GoResult<()>,
) -> GoResult<u128> {
    let sg = SmallGraph::new(g)?;
    let mut path = HashSet::new();
    for b in seq {
        let b = SmallGraph::from_board(b);
        if !sg.is_board(b) || b.0 & b.1 != 0 || (b.0 | b.1) & !sg.full != 0 {
            return Err(GoError::new(
                "a configuration of the sequence is not a board",
                "every chain of every configuration needs a liberty",
            ));
        }
        path.insert(b);
    }
    let Some(b0) = seq.last().map(SmallGraph::from_board) else {
        return Err(GoError::new(
            "a regular sequence has at least one board",
            "start from the empty board",
        ));
    };
    let mut walk = Walk {
        sg: &sg,
        path,
        count: 0,
        limit,
        progress,
    };
    walk.dfs(b0)?;
    Ok(walk.count)
}

/// The depth-first count: the boards on the path, the sequences counted so far and the bounds.
struct Walk<'a, 'p> {
    sg: &'a SmallGraph,
    path: HashSet<SmallBoard>,
    count: u128,
    limit: u128,
    progress: &'p mut dyn FnMut(u128) -> GoResult<()>,
}

impl Walk<'_, '_> {
    fn dfs(&mut self, b: SmallBoard) -> GoResult<()> {
        self.count += 1;
        if self.count > self.limit {
            return Err(GoError::new(
                format!("more than {} regular sequences", self.limit),
                "raise the limit or use a smaller graph",
            ));
        }
        if self.count & 0x3F_FFFF == 0 {
            (self.progress)(self.count)?;
        }
        if self.path.len() > MAX_PATH {
            return Err(GoError::out_of_memory(
                format!("a regular sequence is longer than {MAX_PATH} boards"),
                "count on a smaller graph",
            ));
        }
        let mut empty = self.sg.full & !(b.0 | b.1);
        while empty != 0 {
            let v = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            for c in [Color::Black, Color::White] {
                let next = self
                    .sg
                    .play(b, v, c, false)
                    .filter(|nb| !self.path.contains(nb));
                if let Some(nb) = next {
                    self.path.insert(nb);
                    let r = stacker::maybe_grow(64 << 10, 1 << 20, || self.dfs(nb));
                    self.path.remove(&nb);
                    r?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_counts() {
        assert_eq!(
            count_regular_sequences(&Graph::grid(1, 1).unwrap(), 1000).unwrap(),
            1
        );
        assert_eq!(
            count_regular_sequences(&Graph::grid(1, 2).unwrap(), 1000).unwrap(),
            9
        );
        assert_eq!(
            count_regular_sequences(&Graph::grid(1, 3).unwrap(), 10000).unwrap(),
            907
        );
        assert!(count_regular_sequences(&Graph::grid(1, 3).unwrap(), 100).is_err());
    }

    #[test]
    fn progress_is_told_and_may_end_the_count() {
        // path:4 has 719,178,893 regular sequences; progress is told every 2^22 of them
        let g = Graph::grid(1, 4).unwrap();
        let mut told = vec![];
        let mut progress = |n: u128| {
            told.push(n);
            if told.len() == 2 {
                Err(GoError::new("interrupted", ""))
            } else {
                Ok(())
            }
        };
        let e = count_regular_sequences_within(&g, &[Board::empty()], u128::MAX, &mut progress)
            .unwrap_err();
        assert_eq!(e.message, "interrupted");
        assert_eq!(told, vec![1 << 22, 2 << 22]);
    }
}
