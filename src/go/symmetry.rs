//! The symmetries (automorphisms) of a small graph: permutations of the vertices that keep the
//! edges, with tables that map a board a byte at a time. The searches of outcome classes and of
//! perfect play store a position once for all its images.

use super::small::{SmallBoard, SmallGraph};

/// A symmetry of the graph (a permutation of its vertices that keeps the edges), with tables
/// that map a vertex mask a byte at a time.
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// The image of each vertex.
    pub perm: Vec<usize>,
    bytes: Vec<[u64; 256]>,
}

impl Symmetry {
    /// The symmetry with these images (which must be a permutation keeping the edges).
    pub fn new(perm: Vec<usize>) -> Symmetry {
        let chunks = perm.len().div_ceil(8);
        let mut bytes = vec![[0u64; 256]; chunks];
        for (k, t) in bytes.iter_mut().enumerate() {
            for b in 1..256usize {
                let v = 8 * k + b.trailing_zeros() as usize;
                let img = perm.get(v).map_or(0, |&w| 1u64 << w);
                t[b] = t[b & (b - 1)] | img;
            }
        }
        Symmetry { perm, bytes }
    }

    /// The image of a vertex set.
    #[inline]
    pub fn mask(&self, m: u64) -> u64 {
        let mut out = 0;
        for (k, t) in self.bytes.iter().enumerate() {
            out |= t[(m >> (8 * k)) as usize & 0xFF];
        }
        out
    }

    /// The image of a board.
    #[inline]
    pub fn board(&self, b: SmallBoard) -> SmallBoard {
        (self.mask(b.0), self.mask(b.1))
    }

    /// The inverse permutation.
    pub fn inverse(&self) -> Symmetry {
        let mut inv = vec![0; self.perm.len()];
        for (v, &w) in self.perm.iter().enumerate() {
            inv[w] = v;
        }
        Symmetry::new(inv)
    }
}

/// At most this many symmetries are used (any subset that includes the identity is sound: a
/// position is stored under its least image among them, and two positions with one least image
/// are images of each other by a symmetry of the graph).
pub const MAX_SYMMETRIES: usize = 48;

/// The symmetries of a graph, the identity first, found by backtracking over the vertices
/// (images must keep adjacency with every vertex mapped so far, and degrees).
pub fn symmetries(sg: &SmallGraph) -> Vec<Symmetry> {
    fn extend(sg: &SmallGraph, perm: &mut Vec<usize>, used: u64, out: &mut Vec<Vec<usize>>) {
        if out.len() >= MAX_SYMMETRIES {
            return;
        }
        let v = perm.len();
        if v == sg.n {
            out.push(perm.clone());
            return;
        }
        for w in 0..sg.n {
            if used >> w & 1 != 0 || sg.adj[v].count_ones() != sg.adj[w].count_ones() {
                continue;
            }
            let keeps = (0..v).all(|u| (sg.adj[v] >> u & 1) == (sg.adj[w] >> perm[u] & 1));
            if keeps {
                perm.push(w);
                extend(sg, perm, used | 1 << w, out);
                perm.pop();
            }
        }
    }
    let mut out = vec![(0..sg.n).collect::<Vec<_>>()];
    let mut found = Vec::new();
    extend(sg, &mut Vec::new(), 0, &mut found);
    out.extend(
        found
            .into_iter()
            .filter(|p| p.iter().enumerate().any(|(i, &w)| i != w)),
    );
    out.truncate(MAX_SYMMETRIES);
    out.into_iter().map(Symmetry::new).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::graph::Graph;

    #[test]
    fn grid_symmetries_keep_edges() {
        let g = Graph::parse("grid:4x4").unwrap();
        let sg = SmallGraph::new(&g).unwrap();
        let syms = symmetries(&sg);
        assert_eq!(syms.len(), 8);
        for s in &syms {
            let inv = s.inverse();
            for v in 0..sg.n {
                assert_eq!(inv.perm[s.perm[v]], v);
                assert_eq!(s.mask(sg.adj[v]), sg.adj[s.perm[v]]);
            }
            let b = (0b1011u64, 0b10_0000u64);
            assert_eq!(inv.board(s.board(b)), b);
        }
        assert_eq!(
            symmetries(&SmallGraph::new(&Graph::parse("grid:2x3").unwrap()).unwrap()).len(),
            4
        );
    }
}
