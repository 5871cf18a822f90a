//! Configurations and boards on a graph: chains, liberties, moves with captures, Zobrist keys.

use super::bitset::BitSet;
use super::graph::Graph;

/// A stone colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// Black, value -1 in a configuration.
    Black,
    /// White, value 1 in a configuration.
    White,
}

impl Color {
    /// The other colour.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// Configuration value: -1 for Black, 1 for White.
    pub fn value(self) -> i8 {
        match self {
            Color::Black => -1,
            Color::White => 1,
        }
    }

    /// Index 0 for Black, 1 for White.
    pub fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The colour's initial, as moves are written (`--moves "B 1"`, SGF's `;B[aa]`).
    pub fn initial(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Diagram letter: `X` for Black, `O` for White.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }
}

/// Why a placement is not a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The vertex index is not a vertex of the graph.
    OffBoard,
    /// The vertex holds a stone.
    Occupied,
    /// The result would not be a board (suicide).
    Suicide,
    /// The resulting board (or situation) occurred before.
    Repetition,
    /// The colour is not the one to move (explicit passes).
    WrongTurn,
    /// The game has ended.
    GameOver,
}

impl std::fmt::Display for Illegal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = match self {
            Illegal::OffBoard => "not a vertex of the graph",
            Illegal::Occupied => "the vertex is occupied",
            Illegal::Suicide => "suicide: the result is not a board",
            Illegal::Repetition => "the resulting position occurred before",
            Illegal::WrongTurn => "it is the other colour's turn",
            Illegal::GameOver => "the game is over",
        };
        f.write_str(s)
    }
}

/// A configuration `c : V -> {-1, 0, 1}` stored as two vertex sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Board {
    /// Black stones (value -1).
    pub black: BitSet,
    /// White stones (value 1).
    pub white: BitSet,
}

impl Board {
    /// The empty configuration.
    pub fn empty() -> Board {
        Board::default()
    }

    /// Builds a configuration from values -1 / 0 / 1 (other values count as empty).
    pub fn from_values(values: &[i8]) -> Board {
        let mut b = Board::empty();
        for (v, &x) in values.iter().enumerate() {
            match x {
                -1 => b.black.insert(v),
                1 => b.white.insert(v),
                _ => {}
            }
        }
        b
    }

    /// The values -1 / 0 / 1 of vertices 0..n.
    pub fn values(&self, n: usize) -> Vec<i8> {
        (0..n).map(|v| self.get(v)).collect()
    }

    /// Value at v: -1 black, 0 empty, 1 white.
    pub fn get(&self, v: usize) -> i8 {
        if self.black.contains(v) {
            -1
        } else if self.white.contains(v) {
            1
        } else {
            0
        }
    }

    /// Colour of the stone at v.
    pub fn color_at(&self, v: usize) -> Option<Color> {
        match self.get(v) {
            -1 => Some(Color::Black),
            1 => Some(Color::White),
            _ => None,
        }
    }

    /// Sets v to a colour or to empty.
    pub fn set(&mut self, v: usize, c: Option<Color>) {
        self.black.remove(v);
        self.white.remove(v);
        match c {
            Some(Color::Black) => self.black.insert(v),
            Some(Color::White) => self.white.insert(v),
            None => {}
        }
    }

    /// The stones of one colour.
    pub fn stones(&self, c: Color) -> &BitSet {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    fn stones_mut(&mut self, c: Color) -> &mut BitSet {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    /// All stones.
    pub fn occupied(&self) -> BitSet {
        self.black.or(&self.white)
    }

    /// Empty vertices of a graph with n vertices.
    pub fn empties(&self, n: usize) -> BitSet {
        BitSet::full(n).minus(&self.occupied())
    }

    /// The chain `[v]` of the stone at v (empty set when v is empty).
    pub fn chain(&self, g: &Graph, v: usize) -> BitSet {
        match self.color_at(v) {
            Some(c) => g.component(v, self.stones(c)),
            None => BitSet::EMPTY,
        }
    }

    /// Liberty set of a chain: empty vertices adjacent to it.
    pub fn liberties(&self, g: &Graph, chain: &BitSet) -> BitSet {
        g.neighbours_of(chain)
            .minus(&self.occupied())
            .and(&BitSet::full(g.n))
    }

    /// All chains of one colour.
    pub fn chains(&self, g: &Graph, c: Color) -> Vec<BitSet> {
        let mut rest = *self.stones(c);
        let mut out = Vec::new();
        while let Some(v) = rest.first() {
            let ch = g.component(v, &rest);
            rest = rest.minus(&ch);
            out.push(ch);
        }
        out
    }

    /// Stones of colour c whose chain has no liberty.
    pub fn dead_stones(&self, g: &Graph, c: Color) -> BitSet {
        let empty = self.empties(g.n);
        let stones = *self.stones(c);
        // Stones connected inside their colour to a stone adjacent to an empty vertex live.
        let mut alive = stones.and(&g.neighbours_of(&empty));
        let mut frontier = alive;
        while !frontier.is_empty() {
            let next = g.neighbours_of(&frontier).and(&stones).minus(&alive);
            alive = alive.or(&next);
            frontier = next;
        }
        stones.minus(&alive)
    }

    /// Whether every stone has a liberty (the configuration is a board).
    pub fn is_board(&self, g: &Graph) -> bool {
        self.dead_stones(g, Color::Black).is_empty() && self.dead_stones(g, Color::White).is_empty()
    }

    /// Whether a stone may be put on v at all: v is a vertex of `g` and empty.
    pub(crate) fn check_free(&self, g: &Graph, v: usize) -> Result<(), Illegal> {
        if v >= g.n {
            return Err(Illegal::OffBoard);
        }
        if self.occupied().contains(v) {
            return Err(Illegal::Occupied);
        }
        Ok(())
    }

    /// Plays a stone of colour `c` at v: opponent chains left without liberties are removed; if
    /// the own chain then has no liberty the move is suicide, an error unless `allow_suicide`
    /// and the chain has more than one stone (the chain is then removed). Returns the new
    /// configuration and the captured stones (opponent or own).
    pub fn play(
        &self,
        g: &Graph,
        v: usize,
        c: Color,
        allow_suicide: bool,
    ) -> Result<(Board, BitSet), Illegal> {
        self.check_free(g, v)?;
        let mut b = *self;
        b.stones_mut(c).insert(v);
        let opp = c.opponent();
        let mut captured = BitSet::EMPTY;
        let empty = b.empties(g.n);
        for w in g.adjacency[v].and(b.stones(opp)).iter() {
            if captured.contains(w) {
                continue;
            }
            let ch = g.component(w, b.stones(opp));
            if !g.neighbours_of(&ch).intersects(&empty) {
                captured = captured.or(&ch);
            }
        }
        let rest = b.stones(opp).minus(&captured);
        *b.stones_mut(opp) = rest;
        let own = g.component(v, b.stones(c));
        if !g.neighbours_of(&own).intersects(&b.empties(g.n)) {
            if allow_suicide && own.len() > 1 {
                let rest = b.stones(c).minus(&own);
                *b.stones_mut(c) = rest;
                return Ok((b, own));
            }
            return Err(Illegal::Suicide);
        }
        Ok((b, captured))
    }

    /// Number of stones of each colour `(black, white)`.
    pub fn counts(&self) -> (usize, usize) {
        (self.black.len(), self.white.len())
    }

    /// Pure-Go score of the seed: `|W| - |B|`.
    pub fn pure_score(&self) -> i64 {
        self.white.len() as i64 - self.black.len() as i64
    }

    /// Area score with the seed's sign: White area minus Black area, where a player's area is
    /// their stones plus empty regions whose neighbouring stones are all theirs.
    pub fn area_score(&self, g: &Graph) -> i64 {
        let (b, w) = self.area(g);
        w.len() as i64 - b.len() as i64
    }

    /// Black and White areas (stones plus empty regions bordered by one colour only).
    pub fn area(&self, g: &Graph) -> (BitSet, BitSet) {
        let mut black = self.black;
        let mut white = self.white;
        let mut rest = self.empties(g.n);
        while let Some(v) = rest.first() {
            let region = g.component(v, &rest);
            rest = rest.minus(&region);
            let border = g.neighbours_of(&region);
            let nb = border.intersects(&self.black);
            let nw = border.intersects(&self.white);
            if nb && !nw {
                black = black.or(&region);
            } else if nw && !nb {
                white = white.or(&region);
            }
        }
        (black, white)
    }
}

/// Zobrist keys: one random 64-bit key per vertex and colour; a board's key is the XOR of the
/// keys of its stones.
#[derive(Clone, Debug)]
pub struct Zobrist {
    keys: Vec<[u64; 2]>,
}

/// SplitMix64 step (deterministic key generation).
pub fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Keys for n vertices (deterministic).
    pub fn new(n: usize) -> Zobrist {
        let mut s = 0x5EED_0F60_u64;
        Zobrist {
            keys: (0..n)
                .map(|_| [splitmix64(&mut s), splitmix64(&mut s)])
                .collect(),
        }
    }

    /// Key of one stone.
    pub fn key(&self, v: usize, c: Color) -> u64 {
        self.keys.get(v).map_or(0, |k| k[c.index()])
    }

    /// Key of a whole board.
    pub fn hash(&self, b: &Board) -> u64 {
        let mut h = 0;
        for v in b.black.iter() {
            h ^= self.key(v, Color::Black);
        }
        for v in b.white.iter() {
            h ^= self.key(v, Color::White);
        }
        h
    }

    /// Key of `after` given the key of `before` (XOR of the changed stones).
    pub fn update(&self, hash: u64, before: &Board, after: &Board) -> u64 {
        let mut h = hash;
        let db = before
            .black
            .or(&after.black)
            .minus(&before.black.and(&after.black));
        let dw = before
            .white
            .or(&after.white)
            .minus(&before.white.and(&after.white));
        for v in db.iter() {
            h ^= self.key(v, Color::Black);
        }
        for v in dw.iter() {
            h ^= self.key(v, Color::White);
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_and_suicide() {
        let g = Graph::grid(1, 4).unwrap();
        let b = Board::from_values(&[0, 1, 0, 0]);
        let (b1, cap) = b.play(&g, 2, Color::Black, false).unwrap();
        assert!(cap.is_empty());
        assert_eq!(
            Board::from_values(&[0, 1, 0, -1]).play(&g, 2, Color::Black, false),
            Err(Illegal::Suicide)
        );
        let (b3, cap) = b1.play(&g, 0, Color::Black, false).unwrap();
        assert_eq!(cap.len(), 1);
        assert_eq!(b3.values(4), vec![-1, 0, -1, 0]);
        // White at 1 captures the lone black stone at 0.
        let (b4, cap) = b3.play(&g, 1, Color::White, false).unwrap();
        assert_eq!((cap.len(), b4.values(4)), (1, vec![0, 1, -1, 0]));
        assert_eq!(
            b3.play(&g, 1, Color::Black, false).map(|x| x.1.len()),
            Ok(0)
        );
        assert_eq!(b3.play(&g, 2, Color::White, false), Err(Illegal::Occupied));
        assert_eq!(b3.play(&g, 9, Color::White, false), Err(Illegal::OffBoard));
        // Multi-stone suicide allowed removes the own chain.
        let g6 = Graph::path(6).unwrap();
        let b = Board::from_values(&[0, 1, 0, -1, 1, 0]);
        assert_eq!(b.play(&g6, 2, Color::Black, false), Err(Illegal::Suicide));
        let (b3, cap) = b.play(&g6, 2, Color::Black, true).unwrap();
        assert_eq!(cap.len(), 2);
        assert_eq!(b3.values(6), vec![0, 1, 0, 0, 1, 0]);
        let g5 = Graph::path(5).unwrap();
        // Single-stone suicide stays forbidden even when suicide is allowed.
        let b = Board::from_values(&[0, -1, 0, 0, 0]);
        assert_eq!(b.play(&g5, 0, Color::White, true), Err(Illegal::Suicide));
    }

    #[test]
    fn area_and_zobrist() {
        let g = Graph::grid(1, 5).unwrap();
        let b = Board::from_values(&[0, -1, 0, 1, 0]);
        assert_eq!(b.area_score(&g), 0);
        assert_eq!(b.pure_score(), 0);
        let b = Board::from_values(&[0, -1, 0, 0, 0]);
        assert_eq!(b.area_score(&g), -5);
        assert!(b.is_board(&g));
        assert!(!Board::from_values(&[-1, 1, 0, 0, 0]).is_board(&g));
        let z = Zobrist::new(5);
        let b2 = Board::from_values(&[1, -1, 0, 0, 0]);
        assert_eq!(z.update(z.hash(&b), &b, &b2), z.hash(&b2));
    }
}
