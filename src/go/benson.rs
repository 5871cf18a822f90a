//! Benson's unconditional life (D. B. Benson, "Life in the game of Go", Information Sciences 10,
//! 1976): the chains of one colour that the opponent cannot capture even if their owner passes
//! at every turn, and the eyes they enclose. rules/go_benson.rule states the same definitions
//! (`benson_alive`, `benson_eyes`); tests/suite/go_benson.rs compares the two on every board of small
//! graphs.
//!
//! The regions of a colour are the maximal connected sets of vertices without a stone of that
//! colour. A region is vital to a chain when every empty vertex of the region is a liberty of
//! the chain; where suicide is allowed, every vertex of it (the opponent can empty its own
//! stones by suicide, and a vertex so emptied must still be a liberty). Starting from all chains and all regions, repeat until nothing changes: drop the
//! chains with fewer than two vital regions among the regions kept, then drop the regions next
//! to a stone of a dropped chain. The chains left are unconditionally alive: a capture of one
//! would need all the empty vertices of two regions vital to it filled, and a region whose
//! empty vertices are all filled leaves the opponent's stones in it without a liberty.
//!
//! The eyes: the empty vertices whose neighbours (at least one) are all stones of those chains.
//! The opponent can never play there (the stone would have no liberty and capture nothing), so
//! while the owner passes they stay empty, bordered by the owner's stones alone.

use super::small::{SmallBoard, SmallGraph};

/// The unconditionally alive stones of one colour and the eyes they enclose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Safe {
    /// Stones of the chains that are unconditionally alive.
    pub alive: u64,
    /// Empty vertices all of whose neighbours (at least one) are alive stones.
    pub eyes: u64,
}

impl Safe {
    /// The vertices the colour keeps at the end of any game in which it passes at every turn:
    /// its alive stones and its eyes.
    pub fn points(&self) -> u64 {
        self.alive | self.eyes
    }
}

/// Benson's algorithm for the stones `own` against `opp` on a board of `sg`, under a rule that
/// forbids suicide or (`suicide`) allows it.
pub fn safe(sg: &SmallGraph, own: u64, opp: u64, suicide: bool) -> Safe {
    let empty = sg.full & !(own | opp);
    // the vertices of a region that must be liberties of a chain it is vital to
    let must = if suicide { sg.full & !own } else { empty };
    // chains with their liberty-neighbourhoods, regions
    let mut chains: [(u64, u64); 64] = [(0, 0); 64];
    let mut nc = 0;
    let mut rest = own;
    while rest != 0 {
        let ch = sg.flood(rest & rest.wrapping_neg(), own);
        rest &= !ch;
        chains[nc] = (ch, sg.nbr(ch));
        nc += 1;
    }
    if nc == 0 {
        return Safe::default();
    }
    let mut regions: [u64; 64] = [0; 64];
    let mut nr = 0;
    let mut rest = sg.full & !own;
    while rest != 0 {
        let r = sg.flood(rest & rest.wrapping_neg(), sg.full & !own);
        rest &= !r;
        regions[nr] = r;
        nr += 1;
    }
    let mut chain_on = (1u64 << nc) - 1;
    let mut region_on = if nr == 64 { u64::MAX } else { (1u64 << nr) - 1 };
    loop {
        // chains with at least two vital regions among the regions kept
        let mut next_chains = 0u64;
        let mut alive = 0u64;
        let mut cs = chain_on;
        while cs != 0 {
            let i = cs.trailing_zeros() as usize;
            cs &= cs - 1;
            let (ch, nb) = chains[i];
            let mut vital = 0;
            let mut rs = region_on;
            while rs != 0 && vital < 2 {
                let j = rs.trailing_zeros() as usize;
                rs &= rs - 1;
                if regions[j] & must & !nb == 0 {
                    vital += 1;
                }
            }
            if vital >= 2 {
                next_chains |= 1 << i;
                alive |= ch;
            }
        }
        // regions bordered by kept chains only
        let mut next_regions = 0u64;
        let mut rs = region_on;
        while rs != 0 {
            let j = rs.trailing_zeros() as usize;
            rs &= rs - 1;
            if sg.nbr(regions[j]) & own & !alive == 0 {
                next_regions |= 1 << j;
            }
        }
        if next_chains == chain_on && next_regions == region_on {
            let mut eyes = 0u64;
            let mut es = empty;
            while es != 0 {
                let v = es.trailing_zeros() as usize;
                es &= es - 1;
                let nb = sg.adj[v];
                if nb != 0 && nb & !alive == 0 {
                    eyes |= 1 << v;
                }
            }
            return Safe { alive, eyes };
        }
        chain_on = next_chains;
        region_on = next_regions;
        if chain_on == 0 {
            return Safe::default();
        }
    }
}

/// Both colours' safe points of a board: `(black, white)`.
pub fn safe_both(sg: &SmallGraph, b: SmallBoard, suicide: bool) -> (Safe, Safe) {
    (safe(sg, b.0, b.1, suicide), safe(sg, b.1, b.0, suicide))
}

/// Bounds on Black's score minus White's at the end of any game from board `b`, whatever came
/// before it and whatever the repetition rule: each side can pass at every turn until the game
/// ends and keeps its alive stones and its eyes (Benson's algorithm under the suicide rule in
/// force). Area scoring counts both; stones-only scoring
/// counts the alive stones, and an eye is never the other side's stone. (A rule that ends a game
/// even, as simple ko's cycles do, widens them to 0.) rules/go_benson.rule: `area_bounds`,
/// `stone_bounds`.
pub fn bounds(sg: &SmallGraph, b: SmallBoard, area: bool, suicide: bool) -> (i64, i64) {
    let n = sg.n as i64;
    if b.0 | b.1 == 0 {
        return (-n, n);
    }
    let (sb, sw) = safe_both(sg, b, suicide);
    let count = |m: u64| m.count_ones() as i64;
    if area {
        (2 * count(sb.points()) - n, n - 2 * count(sw.points()))
    } else {
        (
            2 * count(sb.alive) + count(sb.eyes) - n,
            n - 2 * count(sw.alive) - count(sw.eyes),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::graph::Graph;

    fn board(g: &SmallGraph, rows: &[&str]) -> SmallBoard {
        let mut b = (0u64, 0u64);
        for (v, ch) in rows.iter().flat_map(|r| r.chars()).enumerate() {
            match ch {
                'X' => b.0 |= 1 << v,
                'O' => b.1 |= 1 << v,
                _ => {}
            }
        }
        assert!(g.is_board(b));
        b
    }

    #[test]
    fn two_eyes_live_one_eye_does_not() {
        let sg = SmallGraph::new(&Graph::grid(3, 3).unwrap()).unwrap();
        // two eyes (A1 corner and C3 corner)
        let b = board(&sg, &[".XX", "XXX", "XX."]);
        let s = safe(&sg, b.0, b.1, false);
        assert_eq!(s.alive, b.0);
        assert_eq!(s.eyes, 1 | 1 << 8);
        // one eye of two points: not alive
        let b = board(&sg, &["..X", "XXX", "XXX"]);
        assert_eq!(safe(&sg, b.0, b.1, false), Safe::default());
        // a white stone inside a region that is still vital (its empty points are liberties)
        let b = board(&sg, &[".XX", "XXX", "XO."]);
        let s = safe(&sg, b.0, b.1, false);
        assert_eq!(s.alive, b.0);
        assert_eq!(s.eyes, 1);
    }

    #[test]
    fn suicide_lets_the_opponent_empty_its_stones() {
        // O . X . on a path: with suicide White plays 2 (losing both stones), then 2 and 4
        let sg = SmallGraph::new(&Graph::path(4).unwrap()).unwrap();
        let b = (1 << 2, 1);
        assert_eq!(safe(&sg, b.0, b.1, false).alive, 1 << 2);
        assert_eq!(safe(&sg, b.0, b.1, true), Safe::default());
    }

    #[test]
    fn the_empty_board_and_a_lone_vertex() {
        let sg = SmallGraph::new(&Graph::grid(1, 1).unwrap()).unwrap();
        assert_eq!(safe(&sg, 0, 0, false), Safe::default());
        let sg = SmallGraph::new(&Graph::grid(2, 2).unwrap()).unwrap();
        assert_eq!(safe(&sg, 0, 0, false), Safe::default());
    }
}
