//! A set of up to 256 squares: the board of any declared geometry (at most 16 x 16).

/// A set of squares, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Bits(pub [u64; 4]);

impl Bits {
    /// Every square.
    pub const ALL: Bits = Bits([u64::MAX; 4]);

    /// Add a square.
    #[inline]
    pub fn set(&mut self, sq: usize) {
        self.0[sq >> 6] |= 1u64 << (sq & 63);
    }

    /// Remove a square.
    #[inline]
    pub fn clear(&mut self, sq: usize) {
        self.0[sq >> 6] &= !(1u64 << (sq & 63));
    }

    /// Is the square in the set?
    #[inline]
    pub fn has(&self, sq: usize) -> bool {
        self.0[sq >> 6] >> (sq & 63) & 1 != 0
    }

    /// The squares in both sets.
    #[inline]
    pub fn and(self, other: Bits) -> Bits {
        let mut b = self;
        for (w, o) in b.0.iter_mut().zip(other.0) {
            *w &= o;
        }
        b
    }

    /// The squares in either set.
    #[inline]
    pub fn or(self, other: Bits) -> Bits {
        let mut b = self;
        for (w, o) in b.0.iter_mut().zip(other.0) {
            *w |= o;
        }
        b
    }

    /// Do the sets share a square?
    #[inline]
    pub fn meets(&self, other: &Bits) -> bool {
        (self.0[0] & other.0[0])
            | (self.0[1] & other.0[1])
            | (self.0[2] & other.0[2])
            | (self.0[3] & other.0[3])
            != 0
    }

    /// Is the set empty?
    #[inline]
    pub fn is_empty(&self) -> bool {
        (self.0[0] | self.0[1] | self.0[2] | self.0[3]) == 0
    }

    /// The squares, in increasing order.
    #[inline]
    pub fn iter(self) -> BitsIter {
        BitsIter {
            words: self.0,
            word: 0,
        }
    }
}

/// The squares of a [`Bits`], lowest first.
pub struct BitsIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for BitsIter {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                self.words[self.word] = w & (w - 1);
                return Some(self.word * 64 + w.trailing_zeros() as usize);
            }
            self.word += 1;
        }
        None
    }
}
