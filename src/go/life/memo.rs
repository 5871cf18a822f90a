//! The memo of the searches: results kept under their last board and the boards they asked
//! about.

use super::*;

/// The boards (by base-3 index) whose presence in the sequence a search asked about.
///
/// Why it makes results reusable: a search at a sequence r reads r's set of boards only by
/// asking whether a candidate option is in it. If another sequence r' ends on the same board
/// and agrees with r on every board the search asked about, every answer, hence every step and
/// the result, is the same for r'. A result is kept under its last board, its asked boards and
/// the answers r gives (a [`Group`]); when its board has too many asked sets already, it is kept
/// for its own set of boards alone, and then counts as having asked about every board. The
/// boards of the results a search reuses are part of its own.
#[derive(Clone, Debug, Default)]
pub(super) struct Tested {
    /// Every board: a result kept for its own set of boards alone.
    pub(super) every: bool,
    /// The boards' base-3 indices, sorted; `None` when there are none. Shared with the
    /// [`Group`] of a kept result and with the results built on it, and copied only when
    /// changed: most results found are never joined into another. (A list of indices, not a
    /// bit set: on path:12 a result asks about 265 boards spread over 170 of the 8,304 words of
    /// a bit set, and its words took 2.6 times the bytes of its indices.)
    pub(super) boards: Option<Rc<[u32]>>,
}

impl PartialEq for Tested {
    fn eq(&self, other: &Tested) -> bool {
        self.every == other.every && self.boards() == other.boards()
    }
}

impl Eq for Tested {}

impl Tested {
    pub(super) fn every() -> Tested {
        Tested {
            every: true,
            boards: None,
        }
    }

    /// The boards, sorted.
    #[inline]
    pub(super) fn boards(&self) -> &[u32] {
        self.boards.as_deref().unwrap_or(&[])
    }

    #[inline]
    pub(super) fn add(&mut self, i: usize) {
        if self.every {
            return;
        }
        let i = i as u32;
        if let Err(at) = self.boards().binary_search(&i) {
            let mut boards = Vec::with_capacity(self.boards().len() + 1);
            boards.extend_from_slice(&self.boards()[..at]);
            boards.push(i);
            boards.extend_from_slice(&self.boards()[at..]);
            self.boards = Some(boards.into());
        }
    }

    /// Adds the boards of `other` (a merge of the two sorted lists).
    pub(super) fn join(&mut self, other: &Tested) {
        if other.every {
            *self = Tested::every();
            return;
        }
        if self.every || other.boards().is_empty() {
            return;
        }
        if self.boards().is_empty() {
            self.boards = other.boards.clone();
            return;
        }
        let (a, b) = (self.boards(), other.boards());
        let mut out = Vec::with_capacity(a.len().max(b.len()));
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match a[i].cmp(&b[j]) {
                std::cmp::Ordering::Less => {
                    out.push(a[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push(b[j]);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    out.push(a[i]);
                    i += 1;
                    j += 1;
                }
            }
        }
        if out.len() == i && j == b.len() {
            // nothing of `other` is new: keep the shared list
            return;
        }
        out.extend_from_slice(&a[i..]);
        out.extend_from_slice(&b[j..]);
        self.boards = Some(out.into());
    }

    /// Drops the board `own` (a result's own last board, which every sequence it describes
    /// holds).
    pub(super) fn tidy(&mut self, own: usize) {
        if let Ok(at) = self.boards().binary_search(&(own as u32)) {
            let mut boards = self.boards().to_vec();
            boards.remove(at);
            self.boards = (!boards.is_empty()).then(|| boards.into());
        }
    }
}

/// A set of boards of a sequence, a bit per base-3 index (`3^n` bits).
#[inline]
pub(super) fn mark(t: &mut [u64], i: usize) {
    t[i / 64] |= 1 << (i % 64);
}

#[inline]
pub(super) fn unmark(t: &mut [u64], i: usize) {
    t[i / 64] &= !(1 << (i % 64));
}

#[inline]
pub(super) fn holds(t: &[u64], i: usize) -> bool {
    t[i / 64] >> (i % 64) & 1 != 0
}

/// At most this many sets of asked boards per board and vertex; more go to the particular
/// table.
pub(super) const GENERAL_PER_KEY: usize = 16;

/// At most this many results per set of asked boards; more go to the particular table.
pub(super) const KNOWN_PER_GROUP: usize = 64;

/// The results found for one key whose searches asked about the same boards, each with the
/// asked boards its sequence held (its answers): a result serves a sequence that holds exactly
/// those of the asked boards.
pub(super) struct Group<T> {
    /// The asked boards, sorted (shared between the groups that asked the same, see
    /// [`TrackedMemo::intern`]).
    pub(super) asked: Rc<[u32]>,
    /// A filter of the asked boards: the bit [`Group::slot`] of each is set (about eight bits a
    /// board), so that a board whose bit is clear is known not to be asked without a search.
    pub(super) filter: Vec<u64>,
    /// The results: the asked boards held (base-3 indices, sorted) and the result.
    pub(super) known: Vec<(Box<[u32]>, T)>,
}

impl<T: Copy> Group<T> {
    pub(super) fn new(asked: Rc<[u32]>) -> Group<T> {
        let bits = (asked.len() * 8).next_power_of_two().max(64);
        let mut g = Group {
            asked: asked.clone(),
            filter: vec![0; bits / 64],
            known: Vec::new(),
        };
        for &i in asked.iter() {
            let s = g.slot(i);
            g.filter[s / 64] |= 1 << (s % 64);
        }
        g
    }

    /// The filter's bit of board `i`.
    #[inline]
    pub(super) fn slot(&self, i: u32) -> usize {
        let bits = self.filter.len() as u64 * 64;
        ((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits.trailing_zeros()))
            as usize
    }

    /// Whether board `i` is asked.
    #[inline]
    pub(super) fn asks(&self, i: u32) -> bool {
        let s = self.slot(i);
        self.filter[s / 64] >> (s % 64) & 1 != 0 && self.asked.binary_search(&i).is_ok()
    }

    /// The asked boards `path` holds, sorted.
    pub(super) fn held(&self, path: &Path) -> Box<[u32]> {
        let mut held: Vec<u32> = path
            .boards
            .iter()
            .copied()
            .filter(|&i| self.asks(i))
            .collect();
        held.sort_unstable();
        held.into_boxed_slice()
    }

    /// The result whose answers `path` gives: it holds each board the result's sequence held
    /// (a test of the path's bit set each, the usual quick refusal), and no other asked board
    /// (the path's other boards, each refused by the filter or by a search of the asked boards).
    /// On path:12 the asked sets grow past a hundred boards and most of a path's boards are
    /// among them; reading every asked board at each lookup had taken 87 % of the search's time.
    #[inline]
    pub(super) fn find(&self, path: &Path) -> Option<T> {
        'entry: for (held, k) in &self.known {
            if !held.iter().all(|&i| holds(&path.hist, i as usize)) {
                continue;
            }
            if path.boards.len() > held.len() {
                for &i in &path.boards {
                    if held.binary_search(&i).is_err() && self.asks(i) {
                        continue 'entry;
                    }
                }
            }
            return Some(*k);
        }
        None
    }

    /// Keeps `k` for the sequences giving `path`'s answers; false when the group is full.
    pub(super) fn insert(&mut self, path: &Path, k: T) -> bool {
        let held = self.held(path);
        if let Some(e) = self.known.iter_mut().find(|e| e.0 == held) {
            e.1 = k;
        } else if self.known.len() < KNOWN_PER_GROUP {
            self.known.push((held, k));
        } else {
            return false;
        }
        true
    }
}

/// The key of a tracked result: the last board, the vertex and a tag (the colour for the
/// proof-number search).
pub(super) type TrackKey = (SmallBoard, u8, u8);

/// Results of a tracked search: general ones, that hold for every sequence ending on the board
/// that gives the same answers to the boards asked about (a few asked sets per key), and
/// particular ones, that hold for one set of boards (when the key has too many asked sets).
pub(super) struct TrackedMemo<T> {
    pub(super) general: FxHashMap<TrackKey, Vec<Group<T>>>,
    pub(super) particular: FxHashMap<(TrackKey, u64, u64), T>,
    /// Each set of asked boards of the groups, kept once: groups of different keys often ask
    /// the same (on path:12 after `B 2, W 10`, 46,552 groups asked 25,885 distinct sets).
    pub(super) sets: FxHashMap<Rc<[u32]>, ()>,
}

impl<T: Copy> TrackedMemo<T> {
    pub(super) fn new() -> Self {
        TrackedMemo {
            general: FxHashMap::default(),
            particular: FxHashMap::default(),
            sets: FxHashMap::default(),
        }
    }

    /// The set of asked boards equal to `asked` that the groups already share, or `asked`,
    /// kept to be shared from now on.
    pub(super) fn intern(&mut self, asked: Rc<[u32]>) -> Rc<[u32]> {
        if let Some((kept, _)) = self.sets.get_key_value(&asked[..]) {
            return kept.clone();
        }
        self.sets.insert(asked.clone(), ());
        asked
    }

    /// A known result for the sequence `path` (+ `extra`, its last board when `path` does not
    /// hold it yet): a general one whose asked boards the sequence answers as the stored one did,
    /// or the particular one of its set.
    pub(super) fn get(
        &self,
        key: TrackKey,
        path: &Path,
        extra: Option<SmallBoard>,
    ) -> Option<(T, Tested)> {
        if let Some(list) = self.general.get(&key) {
            for g in list {
                // The stored sets leave out their own last board, so it needs no answer.
                if let Some(k) = g.find(path) {
                    let asked = Tested {
                        every: false,
                        boards: Some(g.asked.clone()),
                    };
                    return Some((k, asked));
                }
            }
        }
        let (k1, k2) = path.set_key(extra);
        self.particular
            .get(&(key, k1, k2))
            .map(|&k| (k, Tested::every()))
    }

    /// Keeps the result `k` of the sequence `path` whose search asked about `asked` (its last
    /// board left out).
    #[expect(clippy::expect_used, reason = "the key's group was made just before")]
    pub(super) fn insert(&mut self, key: TrackKey, asked: &Tested, path: &Path, k: T) {
        if asked.every {
            let (k1, k2) = path.set_key(None);
            self.particular.insert((key, k1, k2), k);
            return;
        }
        let (found, groups) = self.general.get(&key).map_or((None, 0), |list| {
            let at = list.iter().position(|g| g.asked[..] == *asked.boards());
            (at, list.len())
        });
        let at = match found {
            Some(i) => Some(i),
            None if groups < GENERAL_PER_KEY => {
                let boards = asked.boards.clone().unwrap_or_else(|| Rc::from([]));
                let boards = self.intern(boards);
                let list = self.general.entry(key).or_default();
                list.push(Group::new(boards));
                Some(list.len() - 1)
            }
            None => None,
        };
        let kept = at.is_some_and(|i| {
            self.general.get_mut(&key).expect("a group of the key")[i].insert(path, k)
        });
        if !kept {
            let (k1, k2) = path.set_key(None);
            self.particular.insert((key, k1, k2), k);
        }
    }

    pub(super) fn len(&self) -> usize {
        self.particular.len()
            + self
                .general
                .values()
                .flatten()
                .map(|g| g.known.len())
                .sum::<usize>()
    }

    /// The bytes its tables may take when they next grow, within `inserts` insertions each.
    pub(super) fn growth(&self, inserts: usize) -> usize {
        growth(&self.general, inserts)
            + growth(&self.particular, inserts)
            + growth(&self.sets, inserts)
    }

    pub(super) fn clear(&mut self) {
        self.general.clear();
        self.particular.clear();
        self.sets.clear();
    }
}
