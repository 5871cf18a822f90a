//! Graphs of at most 64 vertices with boards as pairs of 64-bit masks: the fast kernel used
//! by enumeration, sequence counting and the solver.

use super::board::{Board, Color};
use super::error::{GoError, GoResult};
use super::graph::Graph;

/// A graph with at most 64 vertices, neighbours as 64-bit masks, with byte lookup tables for
/// fast neighbourhoods of sets.
#[derive(Clone, Debug)]
pub struct SmallGraph {
    /// Number of vertices.
    pub n: usize,
    /// Neighbour mask of each vertex.
    pub adj: Vec<u64>,
    /// All vertices.
    pub full: u64,
    /// `table[k][b]` = union of neighbours of the vertices `8k + i` for the bits i of b.
    table: Vec<[u64; 256]>,
}

/// A board as masks `(black, white)`.
pub type SmallBoard = (u64, u64);

/// The stones of colour `c` on `b` and those of its opponent, in that order. The exchange is
/// its own inverse: `sides(sides(b, c), c) == b` puts a pair so taken back as a board.
#[inline]
pub fn sides(b: SmallBoard, c: Color) -> (u64, u64) {
    match c {
        Color::Black => b,
        Color::White => (b.1, b.0),
    }
}

impl SmallGraph {
    /// Converts a graph with at most 64 vertices.
    pub fn new(g: &Graph) -> GoResult<SmallGraph> {
        if g.n > 64 {
            return Err(GoError::new(
                format!(
                    "graph has {} vertices; this computation supports at most 64",
                    g.n
                ),
                "use a smaller graph",
            ));
        }
        let adj: Vec<u64> = g.adjacency.iter().map(|a| a.low_u64()).collect();
        let chunks = g.n.div_ceil(8);
        let mut table = vec![[0u64; 256]; chunks];
        for (k, t) in table.iter_mut().enumerate() {
            for b in 1..256usize {
                let low = b.trailing_zeros() as usize;
                let v = 8 * k + low;
                let rest = t[b & (b - 1)];
                t[b] = rest | adj.get(v).copied().unwrap_or(0);
            }
        }
        let full = if g.n == 64 {
            u64::MAX
        } else {
            (1u64 << g.n) - 1
        };
        Ok(SmallGraph {
            n: g.n,
            adj,
            full,
            table,
        })
    }

    /// Union of the neighbourhoods of the vertices in `s`.
    #[inline]
    pub fn nbr(&self, s: u64) -> u64 {
        let mut r = 0;
        for (k, t) in self.table.iter().enumerate() {
            let b = (s >> (8 * k)) & 0xff;
            if b != 0 {
                r |= t[b as usize];
            }
        }
        r
    }

    /// Component of the vertices `seed` inside `set`.
    #[inline]
    pub fn flood(&self, seed: u64, set: u64) -> u64 {
        let mut a = seed & set;
        loop {
            let na = a | (self.nbr(a) & set);
            if na == a {
                return a;
            }
            a = na;
        }
    }

    /// Whether every chain of `stones` touches a vertex of `libs_mask` (the neighbourhood of the
    /// empty set).
    #[inline]
    pub fn all_alive(&self, stones: u64, nbr_empty: u64) -> bool {
        let a = stones & nbr_empty;
        a == stones || self.flood(a, stones) == stones
    }

    /// Whether the configuration is a board.
    pub fn is_board(&self, b: SmallBoard) -> bool {
        let empty = self.full & !(b.0 | b.1);
        let ne = self.nbr(empty);
        self.all_alive(b.0, ne) && self.all_alive(b.1, ne)
    }

    /// Plays colour c at empty vertex v: removes opponent chains without liberties; `None` if
    /// the result is not a board (suicide) or v is occupied. With `allow_suicide`, a
    /// multi-stone suicide removes the own chain.
    #[inline]
    pub fn play(
        &self,
        b: SmallBoard,
        v: usize,
        c: Color,
        allow_suicide: bool,
    ) -> Option<SmallBoard> {
        let bit = 1u64 << v;
        if (b.0 | b.1) & bit != 0 || v >= self.n {
            return None;
        }
        let (mut own, mut opp) = sides(b, c);
        own |= bit;
        let mut empty = self.full & !(own | opp);
        let mut touching = self.adj[v] & opp;
        while touching != 0 {
            let w = touching & touching.wrapping_neg();
            let ch = self.flood(w, opp);
            touching &= !ch;
            if self.nbr(ch) & empty == 0 {
                opp &= !ch;
            }
        }
        empty = self.full & !(own | opp);
        let mine = self.flood(bit, own);
        if self.nbr(mine) & empty == 0 {
            if allow_suicide && mine != bit {
                own &= !mine;
            } else {
                return None;
            }
        }
        Some(sides((own, opp), c))
    }

    /// Converts to a [`Board`].
    pub fn to_board(b: SmallBoard) -> Board {
        Board {
            black: super::bitset::BitSet::from_u64(b.0),
            white: super::bitset::BitSet::from_u64(b.1),
        }
    }

    /// Converts from a [`Board`] (vertices below 64).
    pub fn from_board(b: &Board) -> SmallBoard {
        (b.black.low_u64(), b.white.low_u64())
    }

    /// Area score, Black minus White.
    pub fn area_black_minus_white(&self, b: SmallBoard) -> i64 {
        let mut black = b.0.count_ones() as i64;
        let mut white = b.1.count_ones() as i64;
        let mut rest = self.full & !(b.0 | b.1);
        while rest != 0 {
            let region = self.flood(rest & rest.wrapping_neg(), rest);
            rest &= !region;
            let border = self.nbr(region);
            let nb = border & b.0 != 0;
            let nw = border & b.1 != 0;
            let size = region.count_ones() as i64;
            if nb && !nw {
                black += size;
            } else if nw && !nb {
                white += size;
            }
        }
        black - white
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sides_put_the_colour_first_and_undo_themselves() {
        let b: SmallBoard = (0b0011, 0b1100);
        assert_eq!(sides(b, Color::Black), (0b0011, 0b1100));
        assert_eq!(sides(b, Color::White), (0b1100, 0b0011));
        for c in [Color::Black, Color::White] {
            assert_eq!(sides(sides(b, c), c), b);
        }
    }

    #[test]
    fn agrees_with_board_play() {
        let g = Graph::grid(3, 3).unwrap();
        let sg = SmallGraph::new(&g).unwrap();
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut b = super::super::board::Board::empty();
            for _ in 0..12 {
                let r = super::super::board::splitmix64(&mut seed);
                let v = (r % 9) as usize;
                let c = if r >> 32 & 1 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                let allow = r >> 33 & 1 == 0;
                let slow = b.play(&g, v, c, allow).ok().map(|x| x.0);
                let fast = sg.play(SmallGraph::from_board(&b), v, c, allow);
                assert_eq!(slow.map(|x| SmallGraph::from_board(&x)), fast);
                if let Some(nb) = slow {
                    b = nb;
                    assert!(sg.is_board(SmallGraph::from_board(&b)));
                    assert_eq!(
                        sg.area_black_minus_white(SmallGraph::from_board(&b)),
                        -b.area_score(&g)
                    );
                }
            }
        }
    }
}
