//! The state of a search: the boards of the sequence, and their keys.

use super::*;

/// Two independent 64-bit keys of a board (splitmix64 of its masks with two seeds).
pub(super) fn board_keys(b: SmallBoard) -> (u64, u64) {
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d049bb133111eb);
        z ^ (z >> 31)
    };
    let a = mix(b.0.wrapping_add(0x9e3779b97f4a7c15)) ^ mix(b.1 ^ 0x3c6ef372fe94f82a);
    let c = mix(b.1.wrapping_add(0xdaa66d2c7ddf743f)) ^ mix(b.0 ^ 0x7f4a7c159e3779b9);
    (mix(a), mix(c.rotate_left(17)))
}

/// The state of a search: the boards seen, and for each symmetry the set key of their images.
pub(super) struct Path {
    pub(super) seen: FxHashSet<SmallBoard>,
    pub(super) keys: Vec<(u64, u64)>,
    /// With tracking: the boards seen, a bit per base-3 index.
    pub(super) hist: Vec<u64>,
    /// With tracking: the base-3 indices of the boards seen, in their order.
    pub(super) boards: Vec<u32>,
}

impl Path {
    pub(super) fn push(&mut self, b: SmallBoard, syms: &[Symmetry]) {
        self.seen.insert(b);
        for (k, s) in self.keys.iter_mut().zip(syms) {
            let (a, c) = board_keys(s.board(b));
            k.0 = k.0.wrapping_add(a);
            k.1 = k.1.wrapping_add(c);
        }
    }

    /// Adds the board `b` (base-3 index `i`) in a tracked search, which reads only the bit set and
    /// the identity's set key.
    pub(super) fn enter(&mut self, b: SmallBoard, i: usize) {
        let (a, c) = board_keys(b);
        self.keys[0].0 = self.keys[0].0.wrapping_add(a);
        self.keys[0].1 = self.keys[0].1.wrapping_add(c);
        mark(&mut self.hist, i);
        self.boards.push(i as u32);
    }

    /// Undoes [`Path::enter`].
    pub(super) fn leave(&mut self, b: SmallBoard, i: usize) {
        let (a, c) = board_keys(b);
        self.keys[0].0 = self.keys[0].0.wrapping_sub(a);
        self.keys[0].1 = self.keys[0].1.wrapping_sub(c);
        unmark(&mut self.hist, i);
        self.boards.pop();
    }

    /// The set key (identity symmetry) of the boards seen and `extra`.
    pub(super) fn set_key(&self, extra: Option<SmallBoard>) -> (u64, u64) {
        let (mut k1, mut k2) = self.keys[0];
        if let Some(d) = extra {
            let (a, c) = board_keys(d);
            k1 = k1.wrapping_add(a);
            k2 = k2.wrapping_add(c);
        }
        (k1, k2)
    }

    pub(super) fn pop(&mut self, b: SmallBoard, syms: &[Symmetry]) {
        self.seen.remove(&b);
        for (k, s) in self.keys.iter_mut().zip(syms) {
            let (a, c) = board_keys(s.board(b));
            k.0 = k.0.wrapping_sub(a);
            k.1 = k.1.wrapping_sub(c);
        }
    }
}

impl Classifier {
    pub(super) fn path_of(&self, seq: &[Board]) -> GoResult<Path> {
        let sg = &self.sg;
        if seq.is_empty() {
            return Err(GoError::new(
                "a regular sequence has at least one board",
                "start from the empty board",
            ));
        }
        let mut path = Path {
            seen: FxHashSet::default(),
            keys: vec![(0, 0); self.syms.len()],
            hist: vec![0; self.words],
            boards: Vec::new(),
        };
        for (i, b) in seq.iter().enumerate() {
            let b = SmallGraph::from_board(b);
            if (b.0 | b.1) & !sg.full != 0 || b.0 & b.1 != 0 || !sg.is_board(b) {
                return Err(GoError::new(
                    format!("configuration {} of the sequence is not a board", i + 1),
                    "every stone needs a liberty",
                ));
            }
            if i > 0 && !self.one_move(SmallGraph::from_board(&seq[i - 1]), b) {
                return Err(GoError::new(
                    format!(
                        "board {} of the sequence is not one move after board {}",
                        i + 1,
                        i
                    ),
                    "a regular sequence is a move sequence: each board follows from the one before by one stone of either colour (passes are implicit)",
                ));
            }
            if path.seen.contains(&b) {
                return Err(GoError::new(
                    format!("board {} of the sequence repeats an earlier one", i + 1),
                    "a regular sequence never repeats a board (positional superko)",
                ));
            }
            path.push(b, &self.syms);
            if self.track {
                let i = self.index(b);
                mark(&mut path.hist, i);
                path.boards.push(i as u32);
            }
        }
        Ok(path)
    }

    /// Whether `to` follows from `from` by one stone of either colour.
    pub(super) fn one_move(&self, from: SmallBoard, to: SmallBoard) -> bool {
        let mut empty = self.sg.full & !(from.0 | from.1);
        while empty != 0 {
            let v = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            for c in [Color::Black, Color::White] {
                if self.sg.play(from, v, c, false) == Some(to) {
                    return true;
                }
            }
        }
        false
    }

    /// The memo key of the sequence `path` (+ `extra`) ending on `last`, up to the graph's
    /// symmetries: the least image, and the symmetry that gives it (the vertex `v` of the
    /// sequence is the vertex `perm[v]` of the stored one).
    #[expect(clippy::expect_used, reason = "the identity is always a symmetry")]
    pub(super) fn canonical(
        &self,
        last: SmallBoard,
        path: &Path,
        extra: Option<SmallBoard>,
    ) -> (Key, usize) {
        let mut best: Option<(Key, usize)> = None;
        for (i, (s, k)) in self.syms.iter().zip(&path.keys).enumerate() {
            let (mut k1, mut k2) = *k;
            if let Some(d) = extra {
                let (a, c) = board_keys(s.board(d));
                k1 = k1.wrapping_add(a);
                k2 = k2.wrapping_add(c);
            }
            let key = (s.board(last), k1, k2);
            if best.is_none_or(|(b, _)| key < b) {
                best = Some((key, i));
            }
        }
        best.expect("the identity is always a symmetry")
    }
}
