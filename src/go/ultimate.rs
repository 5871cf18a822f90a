//! The ultimate boards of seed 004, counted by enumeration.

use super::board::{Board, Color};
use super::graph::Graph;

/// The number of ultimate boards of a graph (seed 004; the configuration must be a board), by
/// enumeration: every empty point is forbidden for one colour at least, and where the other colour
/// may play, the new stone's chain has exactly one liberty.
pub fn count_ultimate(g: &Graph) -> Result<u64, String> {
    if g.n > 16 {
        return Err(format!(
            "counting ultimate boards enumerates 3^n configurations; {} vertices are too many",
            g.n
        ));
    }
    // every configuration once: each vertex runs through -1, 0, 1 like the digits of a counter
    let mut vals = vec![-1i8; g.n];
    let mut count = 0u64;
    loop {
        let b = Board::from_values(&vals);
        if b.is_board(g) && is_ultimate(g, &b) {
            count += 1;
        }
        let mut i = 0;
        while i < g.n {
            vals[i] += 1;
            if vals[i] <= 1 {
                break;
            }
            vals[i] = -1;
            i += 1;
        }
        if i == g.n {
            break;
        }
    }
    Ok(count)
}

fn is_ultimate(g: &Graph, b: &Board) -> bool {
    let vals = b.values(g.n);
    for (v, x) in vals.iter().enumerate() {
        if *x != 0 {
            continue;
        }
        let black = b.play(g, v, Color::Black, false).ok();
        let white = b.play(g, v, Color::White, false).ok();
        if black.is_some() && white.is_some() {
            return false;
        }
        for nb in [black, white].into_iter().flatten() {
            let chain = nb.0.chain(g, v);
            if nb.0.liberties(g, &chain).len() != 1 {
                return false;
            }
        }
    }
    true
}
