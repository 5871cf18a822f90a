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
    let mut count = 0u128;
    if dfs(&sg, b0, &mut path, &mut count, limit) {
        Ok(count)
    } else {
        Err(GoError::new(
            format!("more than {limit} regular sequences"),
            "raise the limit or use a smaller graph",
        ))
    }
}

fn dfs(
    sg: &SmallGraph,
    b: SmallBoard,
    path: &mut HashSet<SmallBoard>,
    count: &mut u128,
    limit: u128,
) -> bool {
    *count += 1;
    if *count > limit {
        return false;
    }
    let mut empty = sg.full & !(b.0 | b.1);
    while empty != 0 {
        let v = empty.trailing_zeros() as usize;
        empty &= empty - 1;
        for c in [Color::Black, Color::White] {
            let next = sg.play(b, v, c, false).filter(|nb| !path.contains(nb));
            if let Some(nb) = next {
                path.insert(nb);
                let ok = dfs(sg, nb, path, count, limit);
                path.remove(&nb);
                if !ok {
                    return false;
                }
            }
        }
    }
    true
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
}
