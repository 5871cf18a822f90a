//! The transposition table: entries keyed by the board and side, the hands stored beside them as
//! bounds, in buckets of four; the part in use grows with the search.

use super::hand;
use super::val::{Val, NO_LIMIT};

/// An entry of the table. Its key carries the table's generation in its top byte, so that
/// entries of earlier searches read as empty without clearing the table.
#[derive(Clone, Copy, Default, bytemuck::Zeroable)]
struct Entry {
    key: u64,
    ha: u32,
    hd: u32,
    pn: u32,
    dn: u32,
    amount: u32,
    len: u16,
    exact: bool,
}

const BUCKET: usize = 4;

/// The entries of one bucket: two cache lines, fetched together.
#[derive(Clone, Copy, Default, bytemuck::Zeroable)]
#[repr(align(128))]
struct Bucket([Entry; BUCKET]);

/// The transposition table: buckets of four entries.
///
/// A search starts on a small part of the table (the first `FIRST_PART` buckets) and doubles the
/// part in use whenever it holds two stores per bucket, moving the entries whose bucket changes.
/// So a short search touches a few contiguous pages, and a batch of short problems reuses the
/// same ones instead of faulting in the whole table.
pub(super) struct Table {
    buckets: crate::shogi::memory::ZeroedArray<Bucket>,
    /// The whole table, and the part in use by this search (masks of bucket indices).
    mask: usize,
    active: usize,
    /// Stores made by this search.
    stored: u64,
    /// The largest part ever used: what must be cleared when the generations wrap.
    used: usize,
    gen: u8,
    huge: bool,
}

/// Buckets of the part of the table a search starts on (512 KiB).
const FIRST_PART: usize = 1 << 12;

/// Size of the part in use from which huge pages are asked for (fewer address-translation
/// misses on a table read at random; each is slow to fault in, so not for short searches).
const HUGE_FROM_BYTES: usize = 32 << 20;

impl Table {
    pub(super) fn new(mb: usize) -> Table {
        let bytes = mb.max(1).saturating_mul(1 << 20);
        let n = (bytes / std::mem::size_of::<Bucket>()).max(2);
        let mut count = 1usize;
        while count * 2 <= n {
            count *= 2;
        }
        // Halve the table until the memory can be had. The memory comes zeroed from the
        // system (an all-zero entry is empty) and is touched only where the search writes.
        loop {
            if let Some(buckets) = crate::shogi::memory::ZeroedArray::new(count) {
                let first = (count.min(FIRST_PART)) - 1;
                return Table {
                    buckets,
                    mask: count - 1,
                    active: first,
                    stored: 0,
                    used: first,
                    gen: 1,
                    huge: false,
                };
            }
            assert!(count > 1, "no memory for a table of one bucket");
            count /= 2;
        }
    }

    /// Forgets every entry (in constant time: entries of older generations are ignored).
    pub(super) fn new_search(&mut self) {
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            self.buckets[..=self.used]
                .iter_mut()
                .for_each(|b| *b = Bucket::default());
            self.gen = 1;
        }
        self.active = self.mask.min(FIRST_PART - 1);
        self.stored = 0;
    }

    /// Doubles the part in use: an entry of this search in bucket `i` either stays or moves to
    /// bucket `i + old size`, which held nothing of this search.
    fn grow(&mut self) {
        let old = self.active + 1;
        self.active = self.active * 2 + 1;
        self.used = self.used.max(self.active);
        if !self.huge && (self.active + 1) * std::mem::size_of::<Bucket>() >= HUGE_FROM_BYTES {
            self.huge = true;
            self.buckets.advise_huge_pages();
        }
        let gen = self.gen as u64;
        for i in 0..old {
            let mut free = 0;
            for j in 0..BUCKET {
                let e = self.buckets[i].0[j];
                if e.key == 0 || e.key >> 56 != gen {
                    continue;
                }
                let b = self.bucket(e.key);
                if b != i {
                    // The slots of bucket `i + old` hold older generations only (it was out of
                    // this search's reach): they read as empty and may be overwritten.
                    self.buckets[b].0[free] = e;
                    free += 1;
                    self.buckets[i].0[j] = Entry::default();
                }
            }
        }
    }

    #[inline]
    fn tag(&self, key: u64) -> u64 {
        (key & !(0xFF << 56)) | ((self.gen as u64) << 56)
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key >> 20) as usize & self.active
    }

    /// Brings the bucket of `key` into the cache.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        let b = &self.buckets[self.bucket(key)].0;
        crate::shogi::memory::prefetch(&b[0]);
        crate::shogi::memory::prefetch(&b[BUCKET / 2]);
    }

    /// What the table knows of the board `key` with hands `ha`, `hd`, searched with `budget`.
    pub(super) fn probe(&self, key: u64, ha: u32, hd: u32, budget: u32) -> Option<Val> {
        let tag = self.tag(key);
        let mut found = None;
        for e in &self.buckets[self.bucket(key)].0 {
            if e.key != tag {
                continue;
            }
            if e.pn == 0 {
                let fits = if e.exact {
                    e.ha == ha && e.hd == hd
                } else {
                    hand::superior(ha, e.ha) && hand::superior(e.hd, hd)
                };
                if e.len as u32 <= budget && fits {
                    let mut v = Val::proof(e.len as u32, e.ha, e.hd);
                    v.exact = e.exact;
                    return Some(v);
                }
            } else if e.dn == 0 {
                let fits = if e.exact {
                    e.ha == ha && e.hd == hd
                } else {
                    hand::superior(e.ha, ha) && hand::superior(hd, e.hd)
                };
                if e.len as u32 >= budget && fits {
                    let mut v = Val::disproof(e.len as u32, e.ha, e.hd);
                    v.exact = e.exact;
                    return Some(v);
                }
            } else if e.ha == ha && e.hd == hd {
                let mut v = Val::unknown(e.pn, e.dn);
                v.work = e.amount;
                found = Some(v);
            }
        }
        found
    }

    /// Stores a value; unresolved values are stored for the exact hands.
    pub(super) fn store(&mut self, key: u64, v: &Val, ha: u32, hd: u32, amount: u64) {
        let (eha, ehd) = if v.resolved() { (v.ha, v.hd) } else { (ha, hd) };
        if self.stored >= (self.active as u64 + 1) * 2 && self.active < self.mask {
            self.grow();
        }
        self.stored += 1;
        let b = self.bucket(key);
        let tag = self.tag(key);
        let gen_bits = (self.gen as u64) << 56;
        let mut victim = 0;
        let mut least = u64::MAX;
        for i in 0..BUCKET {
            let e = &self.buckets[b].0[i];
            let k = e.key;
            if k & (0xFF << 56) != gen_bits || k == 0 {
                victim = i;
                break;
            }
            if k == tag && e.ha == eha && e.hd == ehd {
                victim = i;
                break;
            }
            if k == tag && !v.resolved() && e.pn != 0 && e.dn != 0 && e.ha == ha && e.hd == hd {
                victim = i;
                break;
            }
            // Unresolved entries go first; then the ones that took least work.
            let w = e.amount as u64 * if e.pn == 0 || e.dn == 0 { 4 } else { 1 };
            if w < least {
                least = w;
                victim = i;
            }
        }
        self.buckets[b].0[victim] = Entry {
            key: tag,
            ha: eha,
            hd: ehd,
            pn: v.pn,
            dn: v.dn,
            len: v.len.min(NO_LIMIT) as u16,
            exact: v.exact,
            amount: amount.min(u32::MAX as u64) as u32,
        };
    }
}
