//! The proof and disproof numbers of unresolved sequences, in a table of bounded size.
//!
//! The numbers only steer the proof-number search: a lost entry is estimated afresh (1, 1), and
//! a number read for the wrong sequence (two 64-bit keys that collide) makes the search look
//! elsewhere first, never changes a result. So the table keeps at most a fixed number of entries
//! and, when full, replaces the one of least weight in a bucket of four (the numbers of a sequence
//! searched longer are larger). Keyed by a hash of the last board, the vertex, the colour to move
//! and the set key of the boards, the table grows with the sequences the search leaves open: on
//! path:11, 13 million visits left 670 MB of them in an unbounded map.

/// One slot: the hash of its key (0: empty) and its numbers.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    phi: u32,
    delta: u32,
}

impl Slot {
    fn weight(&self) -> u64 {
        self.phi as u64 + self.delta as u64
    }
}

/// Slots of a bucket: a key is looked for in one bucket only.
const WAYS: usize = 4;

/// The smallest table (slots).
const MIN_SLOTS: usize = 1 << 12;

/// A bounded table from a 64-bit key to (proof, disproof) numbers.
pub(super) struct Estimates {
    slots: Vec<Slot>,
    used: usize,
    /// The most slots the table may grow to (a power of two).
    max_slots: usize,
}

impl Estimates {
    /// A table that takes at most about `max_bytes` (at least [`MIN_SLOTS`] slots).
    pub(super) fn new(max_bytes: usize) -> Estimates {
        Estimates {
            slots: Vec::new(),
            used: 0,
            max_slots: Self::slots_for(max_bytes),
        }
    }

    fn slots_for(max_bytes: usize) -> usize {
        let n = (max_bytes / std::mem::size_of::<Slot>()).max(MIN_SLOTS);
        // the largest power of two that fits
        1 << (usize::BITS - 1 - n.leading_zeros())
    }

    /// Changes the bound (the entries are kept while they fit; a smaller table keeps none).
    pub(super) fn set_max_bytes(&mut self, max_bytes: usize) {
        self.max_slots = Self::slots_for(max_bytes);
        if self.slots.len() > self.max_slots {
            self.clear();
        }
    }

    /// The bytes the table may take if it grows within `inserts` insertions.
    pub(super) fn growth(&self, inserts: usize) -> usize {
        let len = self.slots.len();
        if len >= self.max_slots || (self.used + inserts) * 4 < len * 3 {
            return 0;
        }
        2 * len.max(MIN_SLOTS) * std::mem::size_of::<Slot>()
    }

    /// The bytes the table may take at most.
    pub(super) fn max_bytes(&self) -> usize {
        self.max_slots * std::mem::size_of::<Slot>()
    }

    pub(super) fn len(&self) -> usize {
        self.used
    }

    pub(super) fn clear(&mut self) {
        self.slots = Vec::new();
        self.used = 0;
    }

    /// A nonzero key.
    #[inline]
    fn norm(key: u64) -> u64 {
        key | 1
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        // the bits above the lowest (the mark of a used slot) choose the bucket
        let buckets = self.slots.len() / WAYS;
        ((key >> 1) as usize & (buckets - 1)) * WAYS
    }

    pub(super) fn get(&self, key: u64) -> Option<(u32, u32)> {
        if self.slots.is_empty() {
            return None;
        }
        let key = Self::norm(key);
        let b = self.bucket(key);
        self.slots[b..b + WAYS]
            .iter()
            .find(|s| s.key == key)
            .map(|s| (s.phi, s.delta))
    }

    /// Reads the first key of the bucket of `key`, bringing the bucket into the processor's
    /// cache: a search asks for the numbers of all the options of a sequence, each in a bucket
    /// of its own far from the others, and reads of this kind in a row wait for memory
    /// together, where the lookups, with the work between them, wait one after another.
    #[inline]
    pub(super) fn touch(&self, key: u64) -> u64 {
        if self.slots.is_empty() {
            return 0;
        }
        self.slots[self.bucket(Self::norm(key))].key
    }

    #[expect(clippy::expect_used, reason = "a bucket is made with its slots")]
    pub(super) fn insert(&mut self, key: u64, phi: u32, delta: u32) {
        if self.slots.is_empty()
            || (self.used * 4 >= self.slots.len() * 3 && self.slots.len() < self.max_slots)
        {
            self.grow();
        }
        let key = Self::norm(key);
        let b = self.bucket(key);
        let bucket = &mut self.slots[b..b + WAYS];
        let at = match bucket.iter().position(|s| s.key == key) {
            Some(i) => i,
            None => match bucket.iter().position(|s| s.key == 0) {
                Some(i) => {
                    self.used += 1;
                    i
                }
                None => {
                    let (i, _) = bucket
                        .iter()
                        .enumerate()
                        .min_by_key(|(_, s)| s.weight())
                        .expect("a bucket has slots");
                    i
                }
            },
        };
        bucket[at] = Slot { key, phi, delta };
    }

    pub(super) fn remove(&mut self, key: u64) {
        if self.slots.is_empty() {
            return;
        }
        let key = Self::norm(key);
        let b = self.bucket(key);
        if let Some(s) = self.slots[b..b + WAYS].iter_mut().find(|s| s.key == key) {
            *s = Slot::default();
            self.used -= 1;
        }
    }

    /// Doubles the table (or makes its first one), keeping the entries that fit.
    fn grow(&mut self) {
        let len = (self.slots.len() * 2).clamp(MIN_SLOTS, self.max_slots.max(MIN_SLOTS));
        let old = std::mem::replace(&mut self.slots, vec![Slot::default(); len]);
        self.used = 0;
        for s in old.into_iter().filter(|s| s.key != 0) {
            let b = self.bucket(s.key);
            if let Some(free) = self.slots[b..b + WAYS].iter_mut().find(|x| x.key == 0) {
                *free = s;
                self.used += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_kept_until_the_table_is_full_then_the_lightest_goes() {
        let mut t = Estimates::new(MIN_SLOTS * std::mem::size_of::<Slot>());
        for k in 0..1000u64 {
            t.insert(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), k as u32, 1);
        }
        assert_eq!(t.len(), 1000);
        for k in 0..1000u64 {
            assert_eq!(
                t.get(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)),
                Some((k as u32, 1))
            );
        }
        t.remove(7u64.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        assert_eq!(t.get(7u64.wrapping_mul(0x9E37_79B9_7F4A_7C15)), None);
        assert_eq!(t.len(), 999);
        // far more keys than slots: the table stays at its bound
        for k in 0..100_000u64 {
            t.insert(k.wrapping_mul(0xC2B2_AE3D_27D4_EB4F), 5, 5);
        }
        assert_eq!(t.slots.len(), MIN_SLOTS);
        assert!(t.len() <= MIN_SLOTS);
        // a heavy entry survives a bucket's worth of light ones
        let heavy = 0xDEAD_BEEF_u64 << 1;
        t.insert(heavy, 1000, 1000);
        let b = t.bucket(Estimates::norm(heavy));
        for i in 0..(4 * WAYS as u64) {
            // keys of the same bucket (same high bits above the bucket bits)
            let k = (b as u64 / WAYS as u64) << 1 | (i + 1) << 30;
            t.insert(k, 1, 1);
        }
        assert_eq!(t.get(heavy), Some((1000, 1000)));
    }

    #[test]
    fn growth_is_counted_only_below_the_bound() {
        let mut t = Estimates::new(4 * MIN_SLOTS * std::mem::size_of::<Slot>());
        assert!(t.growth(1) > 0);
        for k in 0..(3 * MIN_SLOTS as u64) {
            t.insert(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 1, 1);
        }
        assert_eq!(t.slots.len(), 4 * MIN_SLOTS);
        assert_eq!(t.growth(1_000_000), 0);
    }
}
