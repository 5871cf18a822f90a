//! The transposition table: entries keyed by the board and side, the hands stored beside them as
//! bounds, in buckets of four; the part in use grows with the search. Several searching threads
//! may share it (see `parallel`): every entry is four atomic words, and while threads share the
//! table the first is its key mixed with a hash of the other three, so that an entry read while
//! another thread writes it, words of two writes mixed, reads as another key (a miss) instead of
//! a wrong value.

use super::hand;
use super::val::{Val, NO_LIMIT};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};

/// An entry of the table, four words: the checked key, the hands (`ha`, `hd`), the numbers
/// (`pn`, `dn`), and the work, length and exactness. Its key carries the table's generation in
/// its top byte, so that entries of earlier searches read as empty without clearing the table.
/// All zero is empty.
#[derive(Default, bytemuck::Zeroable)]
struct Entry([AtomicU64; 4]);

/// An entry's contents, as read.
#[derive(Clone, Copy, Default)]
struct Fields {
    key: u64,
    ha: u32,
    hd: u32,
    pn: u32,
    dn: u32,
    amount: u32,
    len: u16,
    exact: bool,
}

/// The hash of an entry's last three words mixed into its key: a multiplication by an odd
/// constant a word, so that words of two different writes cancel out only by chance (zero for an
/// empty entry).
#[inline(always)]
fn check(w1: u64, w2: u64, w3: u64) -> u64 {
    w1.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ w2.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ w3.wrapping_mul(0x1656_67B1_9E37_79F9)
}

impl Entry {
    /// The entry as read; `checked` when the key was written mixed with the hash (see
    /// [`Table::new_search`]).
    #[inline(always)]
    fn read(&self, checked: bool) -> Fields {
        let w0 = self.0[0].load(Relaxed);
        if w0 == 0 {
            return Fields::default();
        }
        let w1 = self.0[1].load(Relaxed);
        let w2 = self.0[2].load(Relaxed);
        let w3 = self.0[3].load(Relaxed);
        Fields {
            key: if checked { w0 ^ check(w1, w2, w3) } else { w0 },
            ha: w1 as u32,
            hd: (w1 >> 32) as u32,
            pn: w2 as u32,
            dn: (w2 >> 32) as u32,
            amount: w3 as u32,
            len: (w3 >> 32) as u16,
            exact: (w3 >> 48) & 1 != 0,
        }
    }

    /// The entry if its key is `tag` (read as [`Entry::read`]); without the check, the other
    /// words are read only then.
    #[inline(always)]
    fn read_if(&self, tag: u64, checked: bool) -> Option<Fields> {
        if !checked && self.0[0].load(Relaxed) != tag {
            return None;
        }
        let e = self.read(checked);
        (e.key == tag).then_some(e)
    }

    #[inline(always)]
    fn write(&self, f: &Fields, checked: bool) {
        let w1 = f.ha as u64 | (f.hd as u64) << 32;
        let w2 = f.pn as u64 | (f.dn as u64) << 32;
        let w3 = f.amount as u64 | (f.len as u64) << 32 | (f.exact as u64) << 48;
        let w0 = if checked {
            f.key ^ check(w1, w2, w3)
        } else {
            f.key
        };
        self.0[0].store(w0, Relaxed);
        self.0[1].store(w1, Relaxed);
        self.0[2].store(w2, Relaxed);
        self.0[3].store(w3, Relaxed);
    }

    #[inline(always)]
    fn clear(&self) {
        for w in &self.0 {
            w.store(0, Relaxed);
        }
    }
}

const BUCKET: usize = 4;

/// The entries of one bucket: two cache lines, fetched together.
#[derive(Default, bytemuck::Zeroable)]
#[repr(align(128))]
struct Bucket([Entry; BUCKET]);

/// The transposition table: buckets of four entries.
///
/// A search starts on a small part of the table (the first `FIRST_PART` buckets) and doubles the
/// part in use whenever it holds two stores per bucket, moving the entries whose bucket changes.
/// So a short search touches a few contiguous pages, and a batch of short problems reuses the
/// same ones instead of faulting in the whole table. With several threads, one of them doubles
/// the part while the others go on: an entry they store or look for meanwhile in a bucket not
/// yet sorted is lost or missed, which costs a search again, never a wrong value.
pub(super) struct Table {
    buckets: crate::shogi::memory::ZeroedArray<Bucket>,
    /// The whole table, and the part in use by this search (masks of bucket indices).
    mask: usize,
    active: AtomicUsize,
    /// Stores made by this search.
    stored: AtomicU64,
    /// The largest part ever used: what must be cleared when the generations wrap.
    used: AtomicUsize,
    gen: u8,
    /// Keys are written mixed with the hash of their entry: threads share the table in this
    /// search.
    checked: bool,
    huge: AtomicBool,
}

/// Buckets of the part of the table a search starts on (512 KiB).
const FIRST_PART: usize = 1 << 12;

/// Size of the part in use from which huge pages are asked for (fewer address-translation
/// misses on a table read at random; each is slow to fault in, so not for short searches).
const HUGE_FROM_BYTES: usize = 32 << 20;

/// Stores a thread counts on its own before it adds them to the table's count, when threads
/// share the table (one shared counter written at every store would be a cache line passed to
/// and fro between the cores).
const SHARED_BATCH: u32 = 64;

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
                    active: AtomicUsize::new(first),
                    stored: AtomicU64::new(0),
                    used: AtomicUsize::new(first),
                    gen: 1,
                    checked: false,
                    huge: AtomicBool::new(false),
                };
            }
            assert!(count > 1, "no memory for a table of one bucket");
            count /= 2;
        }
    }

    /// Forgets every entry (in constant time: entries of older generations are ignored);
    /// `shared` when several threads will search the table. Entries read the same either way,
    /// but a key is mixed with the hash of its entry only in searches of several threads (one
    /// thread has no use for the check): an entry of an older search written the other way reads
    /// as another key, of no generation in particular, so never found.
    pub(super) fn new_search(&mut self, shared: bool) {
        self.checked = shared;
        self.gen = self.gen.wrapping_add(1);
        if self.gen == 0 {
            let used = *self.used.get_mut();
            self.buckets[..=used]
                .iter()
                .for_each(|b| b.0.iter().for_each(Entry::clear));
            self.gen = 1;
        }
        *self.active.get_mut() = self.mask.min(FIRST_PART - 1);
        *self.stored.get_mut() = 0;
    }

    /// Clears every entry while a search holds the table (its place taken by other positions).
    #[cfg(test)]
    pub(super) fn forget_all(&self) {
        let used = self.used.load(Relaxed);
        self.buckets[..=used]
            .iter()
            .for_each(|b| b.0.iter().for_each(Entry::clear));
    }

    /// A handle for one searching thread: `shared` when other threads search the table too.
    pub(super) fn handle(&self, shared: bool) -> Handle<'_> {
        Handle {
            table: self,
            pending: 0,
            batch: if shared { SHARED_BATCH } else { 1 },
        }
    }

    /// Counts `n` stores, and doubles the part in use when it holds two stores per bucket.
    #[inline(always)]
    fn count_stores(&self, n: u32) {
        let stored = self.stored.load(Relaxed);
        let active = self.active.load(Relaxed);
        if stored >= (active as u64 + 1) * 2 && active < self.mask {
            self.grow(active);
        }
        // A plain read and write: a count lost between two threads only delays a doubling.
        self.stored.store(stored + n as u64, Relaxed);
    }

    /// Doubles the part in use from `old_mask`: an entry of this search in bucket `i` either stays
    /// or moves to bucket `i + old size`, which held nothing of this search. With several
    /// threads, the one whose exchange of the mask succeeds moves the entries.
    #[cold]
    fn grow(&self, old_mask: usize) {
        let new_mask = old_mask * 2 + 1;
        if self
            .active
            .compare_exchange(old_mask, new_mask, Relaxed, Relaxed)
            .is_err()
        {
            return;
        }
        let old = old_mask + 1;
        self.used.fetch_max(new_mask, Relaxed);
        if !self.huge.load(Relaxed)
            && (new_mask + 1) * std::mem::size_of::<Bucket>() >= HUGE_FROM_BYTES
        {
            self.huge.store(true, Relaxed);
            self.buckets.advise_huge_pages();
        }
        let gen = self.gen as u64;
        for i in 0..old {
            let mut free = 0;
            for j in 0..BUCKET {
                let e = self.buckets[i].0[j].read(self.checked);
                if e.key == 0 || e.key >> 56 != gen {
                    continue;
                }
                let b = (e.key >> 20) as usize & new_mask;
                if b != i {
                    // The slots of bucket `i + old` hold older generations only (it was out of
                    // this search's reach): they read as empty and may be overwritten.
                    self.buckets[b].0[free].write(&e, self.checked);
                    free += 1;
                    self.buckets[i].0[j].clear();
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
        (key >> 20) as usize & self.active.load(Relaxed)
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
        for slot in &self.buckets[self.bucket(key)].0 {
            let Some(e) = slot.read_if(tag, self.checked) else {
                continue;
            };
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
    fn store(&self, key: u64, v: &Val, ha: u32, hd: u32, amount: u64) {
        let (eha, ehd) = if v.resolved() { (v.ha, v.hd) } else { (ha, hd) };
        let bucket = &self.buckets[self.bucket(key)].0;
        let tag = self.tag(key);
        let gen_bits = (self.gen as u64) << 56;
        let mut victim = 0;
        let mut least = u64::MAX;
        for (i, slot) in bucket.iter().enumerate() {
            let e = slot.read(self.checked);
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
        bucket[victim].write(
            &Fields {
                key: tag,
                ha: eha,
                hd: ehd,
                pn: v.pn,
                dn: v.dn,
                len: v.len.min(NO_LIMIT) as u16,
                exact: v.exact,
                amount: amount.min(u32::MAX as u64) as u32,
            },
            self.checked,
        );
    }
}

/// One thread's access to the table: it counts its stores and adds them to the table's count in
/// batches when the table is shared (one at a time, as the count is read, when it is not).
pub(super) struct Handle<'a> {
    table: &'a Table,
    pending: u32,
    batch: u32,
}

impl<'a> Handle<'a> {
    /// The table.
    pub(super) fn table(&self) -> &'a Table {
        self.table
    }

    /// Adds the stores counted here to the table's count.
    pub(super) fn flush(&mut self) {
        if self.pending > 0 {
            self.table.count_stores(self.pending);
            self.pending = 0;
        }
    }

    /// Counts the stores for a table shared with other threads (in batches) or not.
    pub(super) fn share(&mut self, shared: bool) {
        self.flush();
        self.batch = if shared { SHARED_BATCH } else { 1 };
    }

    /// Brings the bucket of `key` into the cache.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        self.table.prefetch(key)
    }

    /// What the table knows of the board `key` with hands `ha`, `hd`, searched with `budget`.
    #[inline]
    pub(super) fn probe(&self, key: u64, ha: u32, hd: u32, budget: u32) -> Option<Val> {
        self.table.probe(key, ha, hd, budget)
    }

    /// Stores a value; unresolved values are stored for the exact hands.
    #[inline(always)]
    pub(super) fn store(&mut self, key: u64, v: &Val, ha: u32, hd: u32, amount: u64) {
        self.pending += 1;
        if self.pending >= self.batch {
            self.table.count_stores(self.pending);
            self.pending = 0;
        }
        self.table.store(key, v, ha, hd, amount)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two threads writing and reading the same few entries of a small table: every value read
    /// is one that was written whole (its work is a function of its numbers and key), never words
    /// of two writes.
    #[test]
    fn entries_read_whole_under_two_writers() {
        let mut t = Table::new(1);
        t.new_search(true);
        let work = |key: u64, pn: u32| (pn ^ key as u32).wrapping_mul(2_654_435_761) >> 2;
        std::thread::scope(|s| {
            for id in 0..2u64 {
                let t = &t;
                s.spawn(move || {
                    let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ id;
                    let mut read = 0u64;
                    for _ in 0..400_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        // Eight keys in one bucket (the bucket bits equal), so writes collide.
                        let key = ((x >> 61) << 40) | 5;
                        let pn = (x >> 8) as u32 % 1000 + 1;
                        let dn = (x >> 24) as u32 % 1000 + 1;
                        if x & 1 == 0 {
                            let v = Val::unknown(pn, dn);
                            t.store(key, &v, 0, 0, work(key, pn) as u64);
                        } else if let Some(v) = t.probe(key, 0, 0, 1) {
                            assert_eq!(v.work, work(key, v.pn), "a torn entry was read");
                            read += 1;
                        }
                    }
                    assert!(read > 0);
                });
            }
        });
    }
}
