//! The transposition table of the solver, and the summaries that make it sound under superko.
//!
//! A result stored for a position was proved under the history of the path that reached it; it
//! is reused under another history only where that history cannot change the proof. A proof of
//! a bound is a tree: at the prover's turns one move (the one that reached the bound), at the
//! other side's turns every move. It stays a proof under another history when (1) no move the
//! prover chose makes a board of the new history (the move would be forbidden there), and (2)
//! every move of the other side that was forbidden because of the old history is forbidden under
//! the new one too. (Moves of the other side that the new history forbids only take branches
//! away; moves of the prover that it allows only add choices.) The search returns with each
//! bound its [`Info`]: a [`Summary`] of the boards the prover chose (an over-approximation: every
//! one of them holds the summary's common stones and has a stone count in its range) and the
//! earliest place on the path of a board that forbade a move of the other side. A bound is
//! stored only when that place is not above the position (the proof used no board of its
//! history), and it is reused only when no board of the path fits its summary. Under a rule
//! that ends a game when a situation recurs (simple ko), every move of the other side is
//! summarised too, since the new history could turn any of them into the end of the game.

use super::super::small::SmallBoard;

/// An over-approximation of a set of boards: all contain the stones `black`/`white`, and their
/// stone counts lie in `min..=max`. The empty set has `min > max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, bytemuck::Zeroable)]
pub struct Summary {
    pub black: u64,
    pub white: u64,
    pub min: u8,
    pub max: u8,
}

impl Summary {
    /// No board.
    pub const NONE: Summary = Summary {
        black: u64::MAX,
        white: u64::MAX,
        min: u8::MAX,
        max: 0,
    };

    pub fn is_none(&self) -> bool {
        self.min > self.max
    }

    pub fn add_board(&mut self, b: SmallBoard) {
        self.black &= b.0;
        self.white &= b.1;
        let c = (b.0 | b.1).count_ones() as u8;
        self.min = self.min.min(c);
        self.max = self.max.max(c);
    }

    pub fn merge(&mut self, o: &Summary) {
        if o.is_none() {
            return;
        }
        self.black &= o.black;
        self.white &= o.white;
        self.min = self.min.min(o.min);
        self.max = self.max.max(o.max);
    }

    /// Whether `b` may be one of the boards summarised.
    #[inline]
    pub fn may_contain(&self, b: SmallBoard) -> bool {
        let c = (b.0 | b.1).count_ones() as u8;
        c >= self.min
            && c <= self.max
            && b.0 & self.black == self.black
            && b.1 & self.white == self.white
    }

    /// The summary of the images of the boards under a vertex map `f`.
    pub fn map(&self, f: impl Fn(u64) -> u64) -> Summary {
        if self.is_none() {
            return *self;
        }
        Summary {
            black: f(self.black),
            white: f(self.white),
            ..*self
        }
    }
}

/// What a bound's proof depends on (see the module comment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Info {
    /// The boards the proof needs to be free of.
    pub summary: Summary,
    /// The earliest place on the path of a board whose presence the proof used; `u32::MAX` for
    /// none.
    pub dep: u32,
}

impl Info {
    pub const NONE: Info = Info {
        summary: Summary::NONE,
        dep: u32::MAX,
    };

    pub fn merge(&mut self, o: &Info) {
        self.summary.merge(&o.summary);
        self.dep = self.dep.min(o.dep);
    }
}

/// A stored position: its key (the board in the canonical frame of its symmetries, the flags
/// and, under simple ko, the board that may not be recreated), bounds on its value for
/// the player to move in half points with the summaries of their proofs, the best move found
/// (a vertex of the canonical frame, or [`NO_MOVE`] / [`PASS`]) and the work spent on it.
#[derive(Clone, Copy, Debug, bytemuck::Zeroable)]
pub struct Entry {
    pub board: SmallBoard,
    pub extra: SmallBoard,
    pub flags: u8,
    pub best: u8,
    pub work: u8,
    pub lo: i32,
    pub hi: i32,
    /// A search `ud` plies deep left "at least `ut`?" unknown (whatever the history: an unknown
    /// answer claims nothing).
    pub ut: i32,
    pub ud: u8,
    pub s_lo: Summary,
    pub s_hi: Summary,
}

/// No move recorded.
pub const NO_MOVE: u8 = u8::MAX;
/// The pass.
pub const PASS: u8 = u8::MAX - 1;
/// Bounds meaning "nothing known".
pub const LO_NONE: i32 = i32::MIN;
pub const HI_NONE: i32 = i32::MAX;
const USED: u8 = 0x80;

impl Entry {
    const EMPTY: Entry = Entry {
        board: (0, 0),
        extra: (0, 0),
        flags: 0,
        best: NO_MOVE,
        work: 0,
        lo: LO_NONE,
        hi: HI_NONE,
        ut: 0,
        ud: 0,
        s_lo: Summary::NONE,
        s_hi: Summary::NONE,
    };
}

/// The key of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Key {
    pub board: SmallBoard,
    pub extra: SmallBoard,
    pub flags: u8,
}

impl Key {
    fn hash(&self) -> u64 {
        // murmur3's finaliser over each word in turn
        fn fmix(mut h: u64) -> u64 {
            h ^= h >> 33;
            h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
            h ^= h >> 33;
            h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
            h ^ (h >> 33)
        }
        let mut h = fmix(self.board.0 ^ 0x9E37_79B9_7F4A_7C15);
        h = fmix(h ^ self.board.1);
        h = fmix(h ^ self.extra.0 ^ self.extra.1.rotate_left(32) ^ self.flags as u64);
        h
    }
}

/// Four entries a bucket; a new position replaces the entry of least work. The table starts
/// small and doubles while it is half full, up to its budget of bytes.
pub struct Table {
    entries: Vec<Entry>,
    mask: usize,
    /// Entries in use.
    pub used: usize,
    max_buckets: usize,
}

const BUCKET: usize = 4;
/// The buckets a table starts with (at most its budget).
const FIRST_BUCKETS: usize = 1 << 12;

fn zeroed(buckets: usize) -> Option<Vec<Entry>> {
    // an entry of zeros is unused
    bytemuck::try_zeroed_vec::<Entry>(buckets * BUCKET).ok()
}

impl Table {
    /// A table of at most `bytes` bytes (a power of two of buckets; none when too small).
    pub fn new(bytes: usize) -> Result<Table, String> {
        let per = std::mem::size_of::<Entry>() * BUCKET;
        let mut max_buckets = 0usize;
        if bytes >= per {
            max_buckets = 1usize << (usize::BITS - 1 - (bytes / per).leading_zeros());
        }
        let buckets = max_buckets.min(FIRST_BUCKETS);
        let entries = zeroed(buckets)
            .ok_or_else(|| format!("cannot allocate a table of {} MiB", bytes >> 20))?;
        Ok(Table {
            entries,
            mask: buckets.saturating_sub(1),
            used: 0,
            max_buckets,
        })
    }

    /// Twice the buckets, every entry moved to its new place (kept as it is when the memory
    /// cannot be had).
    fn grow(&mut self) {
        let buckets = (self.mask + 1) * 2;
        let Some(mut entries) = zeroed(buckets) else {
            self.max_buckets = self.mask + 1;
            return;
        };
        std::mem::swap(&mut self.entries, &mut entries);
        self.mask = buckets - 1;
        self.used = 0;
        for e in entries.into_iter().filter(|e| e.flags & USED != 0) {
            let k = Key {
                board: e.board,
                extra: e.extra,
                flags: e.flags & !USED,
            };
            if let Some(slot) = self.slot(&k, e.work) {
                *slot = e;
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Bytes the table occupies.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    fn bucket(&self, k: &Key) -> usize {
        (k.hash() as usize & self.mask) * BUCKET
    }

    fn matches(e: &Entry, k: &Key) -> bool {
        e.flags == k.flags | USED && e.board == k.board && e.extra == k.extra
    }

    pub fn get(&self, k: &Key) -> Option<&Entry> {
        if self.entries.is_empty() {
            return None;
        }
        let i = self.bucket(k);
        self.entries[i..i + BUCKET]
            .iter()
            .find(|e| Self::matches(e, k))
    }

    /// The entry of `k`, made (replacing the entry of least work in its bucket) when absent.
    pub fn slot(&mut self, k: &Key, work: u8) -> Option<&mut Entry> {
        if self.entries.is_empty() {
            return None;
        }
        if self.used * 2 > self.entries.len() && self.mask + 1 < self.max_buckets {
            self.grow();
        }
        let i = self.bucket(k);
        let mut pick = i;
        let mut found = false;
        for j in i..i + BUCKET {
            let e = &self.entries[j];
            if Self::matches(e, k) {
                pick = j;
                found = true;
                break;
            }
            if e.flags & USED == 0 {
                if self.entries[pick].flags & USED != 0 {
                    pick = j;
                }
            } else if self.entries[pick].flags & USED != 0 && e.work < self.entries[pick].work {
                pick = j;
            }
        }
        if !found {
            if self.entries[pick].flags & USED == 0 {
                self.used += 1;
            }
            self.entries[pick] = Entry {
                board: k.board,
                extra: k.extra,
                flags: k.flags | USED,
                work,
                ..Entry::EMPTY
            };
        }
        let e = &mut self.entries[pick];
        e.work = e.work.max(work);
        Some(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries_over_approximate() {
        let mut s = Summary::NONE;
        assert!(!s.may_contain((0, 0)));
        s.add_board((0b011, 0b100));
        s.add_board((0b001, 0b100));
        assert!(s.may_contain((0b001, 0b100)));
        assert!(s.may_contain((0b011, 0b100)));
        assert!(!s.may_contain((0b010, 0b100)));
        assert!(!s.may_contain((0b1111, 0b110000)));
        let t = s.map(|m| m << 1);
        assert!(t.may_contain((0b010, 0b1000)));
    }

    #[test]
    fn the_table_keeps_and_replaces() {
        let mut t = Table::new(1 << 12).unwrap();
        let k = Key {
            board: (1, 2),
            extra: (0, 0),
            flags: 1,
        };
        assert!(t.get(&k).is_none());
        t.slot(&k, 3).unwrap().lo = 5;
        assert_eq!(t.get(&k).unwrap().lo, 5);
        let other = Key { flags: 0, ..k };
        assert!(t.get(&other).is_none());
        assert!(Table::new(10).unwrap().is_empty());
        // it grows while it is full, up to its budget, and keeps what it held
        let mut t = Table::new(64 << 20).unwrap();
        let first = t.bytes();
        for i in 0..100_000u64 {
            let k = Key {
                board: (i, 0),
                extra: (0, 0),
                flags: 0,
            };
            t.slot(&k, 1).unwrap().lo = i as i32;
        }
        assert!(t.bytes() > first && t.bytes() <= 64 << 20);
        let kept = (0..100_000u64)
            .filter(|&i| {
                let k = Key {
                    board: (i, 0),
                    extra: (0, 0),
                    flags: 0,
                };
                t.get(&k).is_some_and(|e| e.lo == i as i32)
            })
            .count();
        assert!(kept > 90_000, "{kept}");
    }
}
