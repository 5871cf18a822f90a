//! A board that keeps its chains and their liberties up to date move by move.
//!
//! [`Board::play`] finds chains by flood fill on every move; on graphs of a few hundred vertices
//! (19 x 19) that is the cost of a game record replay or a legality scan. [`ChainBoard`] instead
//! keeps, for every stone, the index of its chain, and for every chain its stones and liberties:
//! a move merges the mover's neighbouring chains, takes the vertex from the neighbouring
//! opponent chains' liberties, removes those left without any (giving their points back as
//! liberties to the chains around them), and decides suicide from the merged chain's liberties.
//! The legality and result of a move ([`ChainBoard::result`]) are read off the chains without
//! changing anything. Tests check every step against [`Board::play`] and a recomputation of the
//! chains.

use super::bitset::BitSet;
use super::board::{Board, Color, Illegal};
use super::graph::Graph;

/// No chain (an empty vertex).
const NONE: u16 = u16::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
struct Chain {
    color: Color,
    stones: BitSet,
    liberties: BitSet,
}

/// A board with incrementally kept chains and liberties, for one graph.
#[derive(Clone, Debug)]
pub struct ChainBoard {
    board: Board,
    chain_of: Vec<u16>,
    chains: Vec<Option<Chain>>,
    free: Vec<u16>,
}

impl ChainBoard {
    /// The chains of `board` on `g` (which must be a board of the graph).
    pub fn new(g: &Graph, board: Board) -> ChainBoard {
        let mut cb = ChainBoard {
            board,
            chain_of: vec![NONE; g.n],
            chains: Vec::new(),
            free: Vec::new(),
        };
        for c in [Color::Black, Color::White] {
            for stones in board.chains(g, c) {
                let liberties = board.liberties(g, &stones);
                cb.add_chain(Chain {
                    color: c,
                    stones,
                    liberties,
                });
            }
        }
        cb
    }

    /// The board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The stones of the chain through `v` (empty for an empty vertex).
    pub fn chain(&self, v: usize) -> BitSet {
        self.get(v).map_or(BitSet::EMPTY, |c| c.stones)
    }

    /// The liberties of the chain through `v` (empty for an empty vertex).
    pub fn liberties(&self, v: usize) -> BitSet {
        self.get(v).map_or(BitSet::EMPTY, |c| c.liberties)
    }

    /// The number of chains on the board.
    pub fn chain_count(&self) -> usize {
        self.chains.iter().filter(|c| c.is_some()).count()
    }

    fn get(&self, v: usize) -> Option<&Chain> {
        match self.chain_of.get(v) {
            Some(&i) if i != NONE => self.chains[i as usize].as_ref(),
            _ => None,
        }
    }

    fn add_chain(&mut self, ch: Chain) -> u16 {
        let stones = ch.stones;
        let id = match self.free.pop() {
            Some(i) => {
                self.chains[i as usize] = Some(ch);
                i
            }
            None => {
                self.chains.push(Some(ch));
                (self.chains.len() - 1) as u16
            }
        };
        for s in stones.iter() {
            self.chain_of[s] = id;
        }
        id
    }

    fn drop_chain(&mut self, id: u16) -> Option<Chain> {
        let ch = self.chains[id as usize].take()?;
        for s in ch.stones.iter() {
            self.chain_of[s] = NONE;
        }
        self.free.push(id);
        Some(ch)
    }

    /// The chain ids of colour `c` next to `v`, each once.
    fn neighbour_chains(&self, g: &Graph, v: usize, c: Color) -> Vec<u16> {
        let mut out: Vec<u16> = Vec::new();
        for w in g.adjacency[v].and(self.board.stones(c)).iter() {
            let id = self.chain_of[w];
            if id != NONE && !out.contains(&id) {
                out.push(id);
            }
        }
        out
    }

    /// What colour `c` playing at v would give, without playing it: the new board and the
    /// captured stones (opponent's, or the mover's own chain for an allowed suicide). The same
    /// answer as [`Board::play`], read off the chains.
    #[expect(
        clippy::expect_used,
        reason = "the chain ids the board lists name live chains"
    )]
    pub fn result(
        &self,
        g: &Graph,
        v: usize,
        c: Color,
        allow_suicide: bool,
    ) -> Result<(Board, BitSet), Illegal> {
        self.board.check_free(g, v)?;
        let opp = c.opponent();
        let mut captured = BitSet::EMPTY;
        for id in self.neighbour_chains(g, v, opp) {
            let ch = self.chains[id as usize].as_ref().expect("live chain");
            if ch.liberties.len() == 1 {
                captured = captured.or(&ch.stones);
            }
        }
        let mut b = self.board;
        b.set(v, Some(c));
        for s in captured.iter() {
            b.set(s, None);
        }
        // The mover's chain breathes if v has an empty neighbour, a capture frees one, or a
        // merged chain has a liberty other than v.
        let empty_next = g.adjacency[v].minus(&self.board.occupied());
        let breathes = !empty_next.is_empty()
            || !captured.is_empty()
            || self.neighbour_chains(g, v, c).iter().any(|&id| {
                self.chains[id as usize]
                    .as_ref()
                    .is_some_and(|ch| ch.liberties.len() > 1)
            });
        if breathes {
            return Ok((b, captured));
        }
        let mut own = BitSet::single(v);
        for id in self.neighbour_chains(g, v, c) {
            own = own.or(&self.chains[id as usize]
                .as_ref()
                .expect("live chain")
                .stones);
        }
        if allow_suicide && own.len() > 1 {
            for s in own.iter() {
                b.set(s, None);
            }
            return Ok((b, own));
        }
        Err(Illegal::Suicide)
    }

    /// Plays colour `c` at v, keeping the chains; returns the captured stones.
    #[expect(
        clippy::expect_used,
        reason = "the chain ids the board lists name live chains"
    )]
    pub fn play(
        &mut self,
        g: &Graph,
        v: usize,
        c: Color,
        allow_suicide: bool,
    ) -> Result<BitSet, Illegal> {
        let (_, captured) = self.result(g, v, c, allow_suicide)?;
        let opp = c.opponent();
        // The stone and its merged chain.
        let mut stones = BitSet::single(v);
        let mut libs = g.adjacency[v].minus(&self.board.occupied());
        for id in self.neighbour_chains(g, v, c) {
            let ch = self.drop_chain(id).expect("live chain");
            stones = stones.or(&ch.stones);
            libs = libs.or(&ch.liberties);
        }
        libs.remove(v);
        self.board.set(v, Some(c));
        let me = self.add_chain(Chain {
            color: c,
            stones,
            liberties: libs,
        });
        // The opponent's chains next to v lose it as a liberty; those left without are taken.
        for id in self.neighbour_chains(g, v, opp) {
            let ch = self.chains[id as usize].as_mut().expect("live chain");
            ch.liberties.remove(v);
            if ch.liberties.is_empty() {
                self.remove(g, id);
            }
        }
        // An allowed suicide: the mover's own chain goes.
        let mine = self.chains[me as usize].as_ref().expect("live chain");
        if mine.liberties.is_empty() {
            self.remove(g, me);
        }
        Ok(captured)
    }

    /// Removes a chain from the board; its points become liberties of the chains around.
    fn remove(&mut self, g: &Graph, id: u16) {
        let Some(ch) = self.drop_chain(id) else {
            return;
        };
        for s in ch.stones.iter() {
            self.board.set(s, None);
        }
        for s in ch.stones.iter() {
            for w in g.adjacency[s].and(&self.board.occupied()).iter() {
                let cid = self.chain_of[w];
                if let Some(other) = self.chains[cid as usize].as_mut() {
                    other.liberties.insert(s);
                }
            }
        }
    }

    /// Checks the kept chains against a recomputation (for tests): every stone in the chain
    /// the flood fill finds, with the liberties it finds.
    pub fn consistent(&self, g: &Graph) -> bool {
        let fresh = ChainBoard::new(g, self.board);
        for v in 0..g.n {
            if self.chain(v) != fresh.chain(v) || self.liberties(v) != fresh.liberties(v) {
                return false;
            }
            if let Some(ch) = self.get(v) {
                if self.board.color_at(v) != Some(ch.color) {
                    return false;
                }
            }
        }
        self.chain_count() == fresh.chain_count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn graph(kind: u8, n: usize) -> Graph {
        match kind % 4 {
            0 => Graph::path(n).unwrap(),
            1 => Graph::cycle(n.max(3)).unwrap(),
            2 => Graph::grid(2 + n % 3, 2 + n % 4).unwrap(),
            _ => Graph::complete(n.min(6)).unwrap(),
        }
    }

    proptest! {
        /// Random games: the result of every move (legal or not) equals the flood-fill play,
        /// and after every move the kept chains equal recomputed ones.
        #[test]
        fn agrees_with_flood_fill(kind in 0u8..4, n in 2usize..10, suicide in any::<bool>(),
                                  moves in proptest::collection::vec((0usize..40, any::<bool>()), 1..120)) {
            let g = graph(kind, n);
            let mut cb = ChainBoard::new(&g, Board::empty());
            let mut b = Board::empty();
            for (v, black) in moves {
                let v = v % g.n;
                let c = if black { Color::Black } else { Color::White };
                let expect = b.play(&g, v, c, suicide);
                prop_assert_eq!(cb.result(&g, v, c, suicide), expect);
                if let Ok((nb, cap)) = expect {
                    prop_assert_eq!(cb.play(&g, v, c, suicide), Ok(cap));
                    b = nb;
                    prop_assert_eq!(cb.board(), &b);
                    prop_assert!(cb.consistent(&g));
                }
            }
        }
    }

    #[test]
    fn capture_and_liberties_on_19x19() {
        let g = Graph::grid(19, 19).unwrap();
        let mut cb = ChainBoard::new(&g, Board::empty());
        // A black stone surrounded by four white ones is captured by the fourth.
        let at = |r: usize, c: usize| r * 19 + c;
        cb.play(&g, at(5, 5), Color::Black, false).unwrap();
        assert_eq!(cb.liberties(at(5, 5)).len(), 4);
        for (r, c) in [(4, 5), (6, 5), (5, 4)] {
            cb.play(&g, at(r, c), Color::White, false).unwrap();
        }
        assert_eq!(cb.liberties(at(5, 5)).len(), 1);
        let cap = cb.play(&g, at(5, 6), Color::White, false).unwrap();
        assert_eq!(cap, BitSet::single(at(5, 5)));
        assert_eq!(cb.liberties(at(4, 5)).len(), 4);
        assert!(cb.consistent(&g));
        // Black may not play back into the point (suicide).
        assert_eq!(
            cb.result(&g, at(5, 5), Color::Black, false),
            Err(Illegal::Suicide)
        );
    }
}
