//! Fixed-size vertex sets.

/// Number of 64-bit words in a [`BitSet`].
pub const WORDS: usize = 6;
/// Largest number of vertices a graph may have (enough for 19x19 = 361).
pub const MAX_VERTICES: usize = WORDS * 64;

/// A set of vertex indices below [`MAX_VERTICES`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct BitSet {
    words: [u64; WORDS],
}

impl std::fmt::Debug for BitSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl BitSet {
    /// The empty set.
    pub const EMPTY: BitSet = BitSet { words: [0; WORDS] };

    /// The set {0, .., n-1} (n is clamped to [`MAX_VERTICES`]).
    pub fn full(n: usize) -> BitSet {
        let n = n.min(MAX_VERTICES);
        let mut s = BitSet::EMPTY;
        for (i, w) in s.words.iter_mut().enumerate() {
            let lo = i * 64;
            if n >= lo + 64 {
                *w = u64::MAX;
            } else if n > lo {
                *w = (1u64 << (n - lo)) - 1;
            }
        }
        s
    }

    /// The set {v}; empty when v is out of range.
    pub fn single(v: usize) -> BitSet {
        let mut s = BitSet::EMPTY;
        s.insert(v);
        s
    }

    /// Builds a set from a 64-bit mask (vertices 0..63).
    pub fn from_u64(mask: u64) -> BitSet {
        let mut s = BitSet::EMPTY;
        s.words[0] = mask;
        s
    }

    /// The low 64 vertices as a mask.
    pub fn low_u64(&self) -> u64 {
        self.words[0]
    }

    /// The raw words.
    pub fn words(&self) -> &[u64; WORDS] {
        &self.words
    }

    /// Adds v (ignored when out of range).
    pub fn insert(&mut self, v: usize) {
        if v < MAX_VERTICES {
            self.words[v / 64] |= 1u64 << (v % 64);
        }
    }

    /// Removes v.
    pub fn remove(&mut self, v: usize) {
        if v < MAX_VERTICES {
            self.words[v / 64] &= !(1u64 << (v % 64));
        }
    }

    /// Whether v is in the set.
    pub fn contains(&self, v: usize) -> bool {
        v < MAX_VERTICES && self.words[v / 64] >> (v % 64) & 1 == 1
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Union.
    pub fn or(&self, o: &BitSet) -> BitSet {
        let mut r = *self;
        for i in 0..WORDS {
            r.words[i] |= o.words[i];
        }
        r
    }

    /// Intersection.
    pub fn and(&self, o: &BitSet) -> BitSet {
        let mut r = *self;
        for i in 0..WORDS {
            r.words[i] &= o.words[i];
        }
        r
    }

    /// Difference `self \ o`.
    pub fn minus(&self, o: &BitSet) -> BitSet {
        let mut r = *self;
        for i in 0..WORDS {
            r.words[i] &= !o.words[i];
        }
        r
    }

    /// Whether the two sets share an element.
    pub fn intersects(&self, o: &BitSet) -> bool {
        (0..WORDS).any(|i| self.words[i] & o.words[i] != 0)
    }

    /// Smallest element.
    pub fn first(&self) -> Option<usize> {
        self.words
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| i * 64 + w.trailing_zeros() as usize)
    }

    /// Iterates the elements in increasing order.
    pub fn iter(&self) -> BitIter {
        BitIter {
            words: self.words,
            index: 0,
        }
    }
}

/// Iterator over a [`BitSet`].
pub struct BitIter {
    words: [u64; WORDS],
    index: usize,
}

impl Iterator for BitIter {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        while self.index < WORDS {
            let w = self.words[self.index];
            if w != 0 {
                let b = w.trailing_zeros() as usize;
                self.words[self.index] = w & (w - 1);
                return Some(self.index * 64 + b);
            }
            self.index += 1;
        }
        None
    }
}

impl FromIterator<usize> for BitSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> BitSet {
        let mut s = BitSet::EMPTY;
        for v in iter {
            s.insert(v);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_ops() {
        let mut s = BitSet::EMPTY;
        s.insert(3);
        s.insert(200);
        s.insert(383);
        s.insert(384);
        assert_eq!(s.len(), 3);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 200, 383]);
        assert!(s.contains(200) && !s.contains(4) && !s.contains(9999));
        s.remove(200);
        assert_eq!(s.first(), Some(3));
        assert_eq!(BitSet::full(70).len(), 70);
        assert_eq!(BitSet::full(1000).len(), MAX_VERTICES);
        let a: BitSet = [1, 2, 3].into_iter().collect();
        let b: BitSet = [3, 4].into_iter().collect();
        assert_eq!(a.and(&b).iter().collect::<Vec<_>>(), vec![3]);
        assert_eq!(a.minus(&b).len(), 2);
        assert_eq!(a.or(&b).len(), 4);
        assert!(a.intersects(&b));
    }
}
