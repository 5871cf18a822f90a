//! Life and death on graphs (seed 004): the outcome class of every vertex after a regular
//! sequence, by a search over regular sequences.
//!
//! `o(r, v)` is decided on an ultimate board by who owns the stone or the eye, and otherwise by a
//! table from "some black option gets v" and "some white option gets v", where the options of r
//! are the regular sequences `r + d` (either colour; passes are implicit). This module computes
//! the classes of all vertices at once for each sequence it visits.
//!
//! The history problem: the options of r depend on every board of r (a board may not repeat), so
//! the class of r is not a function of its last board. It is a function of the *set* of boards of
//! r and of its last board; and more finely, of its last board and of the answers r gives to the
//! questions "is this board in r?" that the search actually asked. On graphs of up to
//! [`TRACK_MAX_VERTICES`] vertices the search records those questions (a bit per board) and keys
//! each result by its last board and its answers, so that sequences which differ only in boards
//! the search never asked about share it. Larger graphs use the set key and the symmetries. No
//! entry is ever used for a sequence whose future it does not describe.
//!
//! Two searches use the recorded questions. Under the reconstruction's table the default is a
//! proof-number search ([`pn`]): "Black (White) moving first gets v" is then a game of two
//! players, and df-pn finds its proofs without first settling every poor option. Under the
//! default table it classifies the empty 2 x 3 board after 319 visits, the empty 3 x 3 board
//! after 20,522, the empty 3 x 4 board after 653,267 (1 s) and the empty 4 x 4 board after 175
//! million (5.5 minutes on two threads), taking as known that a player never gets what Benson's
//! rule keeps for the opponent, and on the empty board that White's question has Black's
//! answer. Under other tables (and for comparison) a depth-first search decides the options one
//! after another: 1,312 sequences for the empty 2 x 2 board (34,650 keyed by the whole set with
//! the graph's symmetries), and more than 40 million for the empty 2 x 3 board.

use super::board::{Board, Color};
use super::error::{GoError, GoResult};
use super::graph::Graph;
use super::small::{sides, SmallBoard, SmallGraph};
use super::symmetry::{symmetries, Symmetry};
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

mod cached;
mod chinese;
mod estimates;
mod parallel;
mod pn;
mod store;

pub use cached::cached_classes;
pub use chinese::{chinese_score, terminable};
pub use pn::ESTIMATE_BYTES;

/// An outcome class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Black gets the vertex.
    B,
    /// White gets the vertex.
    W,
    /// Whoever moves next gets it.
    N,
    /// The previous player's: best left alone.
    P,
}

impl Class {
    /// The letter used by the command line (`B`, `W`, `N`, `P`).
    pub fn letter(self) -> char {
        match self {
            Class::B => 'B',
            Class::W => 'W',
            Class::N => 'N',
            Class::P => 'P',
        }
    }

    /// The constant of rules/go_life.rule (`𝓑`, `𝓦`, `𝓝`, `𝓟`).
    pub fn rule_name(self) -> &'static str {
        match self {
            Class::B => "𝓑",
            Class::W => "𝓦",
            Class::N => "𝓝",
            Class::P => "𝓟",
        }
    }

    /// The class whose constant of rules/go_life.rule is `name` (see [`Class::rule_name`]).
    pub fn of_rule_name(name: &str) -> Option<Class> {
        [Class::B, Class::W, Class::N, Class::P]
            .into_iter()
            .find(|k| k.rule_name() == name)
    }

    /// The class that gives the vertex to `c`.
    pub fn own(c: Color) -> Class {
        match c {
            Color::Black => Class::B,
            Color::White => Class::W,
        }
    }
}

/// The table from (Black moving first gets v, White moving first gets v) to a class, and what an
/// option of class 𝓟 is worth to the player who chooses it: the seed's table is lost, so this is
/// one of the readings of rules/go_life.rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Table {
    /// The reconstruction of rules/go_life.rule (`table`, `gets_black`, `gets_white`): both get
    /// it: 𝓝; only Black: 𝓑; only White: 𝓦; neither: 𝓟. A player gets v by moving first when
    /// some option of its has v's class its own, or 𝓟 with its own stone on v there (a 𝓟 point
    /// is left as it stands and counts for the owner of its stone, as the Chinese score counts
    /// it; an empty 𝓟 point counts for nobody).
    #[default]
    Reconstruction,
    /// The reading `cautious`: a vertex both players get is left to the previous player (𝓟);
    /// options are worth what they are under the reconstruction.
    Cautious,
    /// The reading `p-to-chooser` (the first reconstruction): the reconstruction's table, with
    /// every option of class 𝓟 a gain for the player who chooses it, whatever stands on v.
    Chooser,
}

impl Table {
    /// The table of a reading of rules/go_life.rule, when this module knows it. The reading
    /// `literal-ultimate` changes only which configurations are ultimate, and it agrees with the
    /// base definition on boards (a configuration in a regular sequence is always a board), so
    /// the classes are the base ones.
    pub fn for_reading(reading: Option<&str>) -> Option<Table> {
        match reading {
            None | Some("base") | Some("literal-ultimate") => Some(Table::Reconstruction),
            Some("cautious") => Some(Table::Cautious),
            Some("p-to-chooser") => Some(Table::Chooser),
            Some(_) => None,
        }
    }

    /// The class from whether Black moving first gets v and whether White does.
    pub fn apply(self, black_gets: bool, white_gets: bool) -> Class {
        match (self, black_gets, white_gets) {
            (Table::Cautious, true, true) => Class::P,
            (_, true, true) => Class::N,
            (_, true, false) => Class::B,
            (_, false, true) => Class::W,
            (_, false, false) => Class::P,
        }
    }

    /// Whether an option of class `k` gets v for the player `c` who chooses it; `stone`: whether
    /// v holds a stone of `c` in that option.
    pub fn gains(self, k: Class, c: Color, stone: bool) -> bool {
        k == Class::own(c) || (k == Class::P && (stone || self == Table::Chooser))
    }

    /// Whether the proof-number search serves this table (the class is then the table applied
    /// to two games of two players; under `cautious` a 𝓟 option is worth something to both).
    fn proof_numbers(self) -> bool {
        matches!(self, Table::Reconstruction | Table::Chooser)
    }
}

/// Whether `b` holds a stone of colour `c` on `v`.
fn stone_of(b: SmallBoard, v: usize, c: Color) -> bool {
    sides(b, c).0 >> v & 1 != 0
}

/// Counters of a classification.
#[derive(Clone, Copy, Debug, Default)]
pub struct LifeStats {
    /// Sequences whose classes were computed (memo misses).
    pub nodes: u64,
    /// Memo hits.
    pub hits: u64,
    /// Memo entries at the end.
    pub entries: usize,
    /// Results of the proof-number search given by Benson's rule (see
    /// [`Classifier::set_static_knowledge`]).
    pub static_results: u64,
    /// Proof and disproof numbers of unresolved sequences kept at the end (a bounded table,
    /// see [`Classifier::set_estimate_bytes`]).
    pub estimates: usize,
}

/// How far a classification has come, told every 65,536 sequences to the classifier's
/// [`Classifier::progress`].
#[derive(Clone, Debug, Default)]
pub struct LifeProgress {
    /// The vertex asked about now (from 0).
    pub vertex: usize,
    /// Vertices whose class is known (an orbit of the sequence's symmetries at once).
    pub classified: usize,
    /// Vertices asked about (every vertex of the graph, unless the caller chose some).
    pub vertices: usize,
    /// The player whose question the proof-number search is on ("Black (White) moving first
    /// gets the vertex"), when it is the search.
    pub colour: Option<Color>,
    /// Sequences searched so far.
    pub nodes: u64,
    /// On several threads ([`Classifier::classes_at_parallel`]): each busy thread's vertex and
    /// question (the first is also in `vertex` and `colour`); empty on one thread.
    pub working: Vec<(usize, Option<Color>)>,
    /// The proof and disproof numbers of the question asked now (for the player of `colour`),
    /// as the search last summed them over the options of the sequence asked about (its first
    /// estimate before that). They change only when the search comes back to that sequence,
    /// which on a long question may take many minutes, and a proof may come while they are
    /// far from 0. `None` when no question of the proof-number search is asked, and on
    /// several threads.
    pub numbers: Option<(u32, u32)>,
    /// The questions of the proof-number search answered so far, in order, each told at once
    /// when it is answered (on one thread; a question the colour symmetry of the empty board
    /// answers is not searched and not listed): on a long classification a question answered is
    /// known before the vertex's class.
    pub answers: Vec<Answer>,
}

/// A question of the proof-number search answered: whether `colour` moving first gets
/// `vertex`, after how many sequences of the classification (of its thread's, on several
/// threads), and for a "yes" the vertex `colour` plays to get it: the first move of the proof,
/// an option whose class is `colour`'s own (or, under the reconstruction's table, 𝓟 with its
/// stone on the vertex). `by` is `None` for a "no", on an ultimate board (the board gives the
/// vertex), and where the results of the proof are no longer at hand (they are, unless the
/// classification let its tables go).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub vertex: usize,
    pub colour: Color,
    pub gets: bool,
    pub nodes: u64,
    pub by: Option<usize>,
}

/// What is told how far a classification has come.
pub type Tell = Box<dyn FnMut(&LifeProgress)>;

/// What the memo knows of one sequence: for each vertex, whether its class is known and which.
#[derive(Clone, Copy, Default)]
struct Known {
    known: u64,
    lo: u64,
    hi: u64,
}

impl Known {
    fn get(&self, v: usize) -> Option<Class> {
        if self.known >> v & 1 == 0 {
            return None;
        }
        Some(match (self.lo >> v & 1, self.hi >> v & 1) {
            (0, 0) => Class::B,
            (1, 0) => Class::W,
            (0, 1) => Class::N,
            _ => Class::P,
        })
    }

    fn set(&mut self, v: usize, k: Class) {
        let (lo, hi) = match k {
            Class::B => (0, 0),
            Class::W => (1, 0),
            Class::N => (0, 1),
            Class::P => (1, 1),
        };
        self.known |= 1 << v;
        self.lo |= lo << v;
        self.hi |= hi << v;
    }
}

/// The classifier of one graph, with its memo kept across calls (so classifying many sequences
/// of one graph, as the tests do, shares the work).
///
/// The search is the definition's, vertex by vertex: `o(r, v)` asks whether some black option
/// gets v and whether some white option does, and stops looking at options once one does. The
/// memo key is the last board and the set of boards of r, the set as a 128-bit Zobrist sum of
/// its boards (two independent 64-bit keys): two sets share a key only by a collision, whose
/// probability for the hundred million entries a large run holds is below 2^-70. Sequences that
/// a symmetry of the graph maps onto each other share one entry (the least image is stored,
/// with the vertices renamed): on the 2 x 2 board a quarter of the sequences are searched.
pub struct Classifier {
    sg: SmallGraph,
    syms: Vec<Symmetry>,
    table: Table,
    memo: FxHashMap<Key, Known>,
    /// Graphs of at most [`TRACK_MAX_VERTICES`] vertices: the search records which boards each
    /// result looked at, so that most results are kept for every history (see [`Tested`]).
    track: bool,
    /// The classes found by the tracked search (keyed by the last board and the vertex).
    tracked: TrackedMemo<Class>,
    /// The proof-number search ([`pn`]): which colour moving first gets a vertex (keyed by the
    /// last board, the vertex and the colour), and its estimates for unresolved sequences.
    pn: pn::Tables,
    /// Whether the proof-number search decides the classes where it can (tracked graphs, the
    /// reconstruction's table).
    proof_numbers: bool,
    /// Whether the proof-number search takes as known that a player never gets a vertex that
    /// Benson's rule keeps for the opponent.
    static_knowledge: bool,
    /// Whether the proof-number search takes White's question on the empty board as Black's
    /// (see [`Classifier::set_colour_symmetry`]).
    colour_symmetry: bool,
    /// The proof-number search's first disproof number of a sequence of L boards not searched
    /// yet is 1 + L / k for this k (see [`Classifier::set_length_step`]); 0 for 1 everywhere.
    length_step: u32,
    /// Whether the proof-number search sums its disproof numbers the weak way (see
    /// [`Classifier::set_weak_numbers`]).
    weak_numbers: bool,
    /// One question asked of each vertex instead of its class (see [`Classifier::set_ask_only`]).
    ask_only: Option<Color>,
    /// Words of the set of boards of a sequence (a bit per board) on a tracked graph.
    words: usize,
    /// Board index -> 3^vertex, for the base-3 index of a board.
    pow3: Vec<u32>,
    /// The search stops with an error after this many memo misses in one call.
    pub node_limit: u64,
    /// Each vertex's search stops after this many visits: the vertex is then left
    /// unclassified (listed by [`Classifier::unfinished`]) and the classification goes on with
    /// the next one, within [`Classifier::node_limit`] for all.
    pub vertex_node_limit: Option<u64>,
    /// The visits of the vertex being classified, and whether they passed
    /// [`Classifier::vertex_node_limit`].
    vertex_nodes: u64,
    vertex_ran_out: bool,
    /// The asked vertices the last classification left unclassified.
    unfinished: Vec<usize>,
    /// Told how far the classification has come, every 65,536 sequences.
    pub progress: Option<Tell>,
    /// Where the classification is (for [`Classifier::progress`]).
    at: LifeProgress,
    /// The boards of the sequence the proof-number search was asked about (its numbers are
    /// told in [`LifeProgress::numbers`]).
    root_len: usize,
    /// The search stops with an error once the process occupies more than this many bytes
    /// (checked every 65,536 sequences, where the system tells it). Set it with
    /// [`Classifier::set_max_resident_bytes`], which also bounds the estimates by it.
    max_resident_bytes: Option<usize>,
    /// On a thread of a parallel classification: the budget and progress it shares.
    link: Option<parallel::Link>,
    /// Raised (e.g. by Ctrl-C) to stop the search where it is checked, every 65,536
    /// sequences: the classification then ends with an error of the kind
    /// [`ErrorKind::Interrupted`](super::error::ErrorKind::Interrupted), and the results found
    /// so far can still be kept ([`Classifier::keep_final`]).
    pub interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    /// Where the results are kept during a long search, how often, and when they last were
    /// (see [`Classifier::keep_results`]).
    keeping: Option<Keeping>,
    pub stats: LifeStats,
}

/// The bytes a hash map may take when it next grows, if that can happen within the next
/// `inserts` insertions: a table of twice its buckets (a key, a value and a control byte each),
/// allocated while the old one still stands.
fn growth<K, V>(m: &FxHashMap<K, V>, inserts: usize) -> usize {
    if m.len() + inserts < m.capacity() {
        return 0;
    }
    // hashbrown fills its tables to seven eighths of their buckets
    let buckets = (m.capacity() * 8 / 7).next_power_of_two();
    2 * buckets * (std::mem::size_of::<(K, V)>() + 1)
}

/// Results kept in a file as a search goes (see [`Classifier::keep_results`]).
struct Keeping {
    path: std::path::PathBuf,
    every: std::time::Duration,
    last: std::time::Instant,
    /// The visits counted when the results were last written.
    nodes: u64,
    /// How many results the last write kept (none: not written yet).
    kept: Option<usize>,
    /// The lock of the file, held while the results are kept.
    _lock: std::fs::File,
}

/// A question answered after at least this many visits since the results were last written
/// has them written at once (a run stopped after an answer then keeps it; the quick answers
/// of a classification are not worth a write each).
const KEEP_ANSWER_NODES: u64 = 1 << 16;

/// Graphs with at most this many vertices have their searches' asked boards recorded (the
/// search's own set of boards takes a bit per board: 3^16 bits, 5.4 MB, on sixteen vertices;
/// the asked boards are lists).
pub const TRACK_MAX_VERTICES: usize = 16;

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
struct Tested {
    /// Every board: a result kept for its own set of boards alone.
    every: bool,
    /// The boards' base-3 indices, sorted; `None` when there are none. Shared with the
    /// [`Group`] of a kept result and with the results built on it, and copied only when
    /// changed: most results found are never joined into another. (A list of indices, not a
    /// bit set: on path:12 a result asks about 265 boards spread over 170 of the 8,304 words of
    /// a bit set, and its words took 2.6 times the bytes of its indices.)
    boards: Option<Rc<[u32]>>,
}

impl PartialEq for Tested {
    fn eq(&self, other: &Tested) -> bool {
        self.every == other.every && self.boards() == other.boards()
    }
}

impl Eq for Tested {}

impl Tested {
    fn every() -> Tested {
        Tested {
            every: true,
            boards: None,
        }
    }

    /// The boards, sorted.
    #[inline]
    fn boards(&self) -> &[u32] {
        self.boards.as_deref().unwrap_or(&[])
    }

    #[inline]
    fn add(&mut self, i: usize) {
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
    fn join(&mut self, other: &Tested) {
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
    fn tidy(&mut self, own: usize) {
        if let Ok(at) = self.boards().binary_search(&(own as u32)) {
            let mut boards = self.boards().to_vec();
            boards.remove(at);
            self.boards = (!boards.is_empty()).then(|| boards.into());
        }
    }
}

/// A set of boards of a sequence, a bit per base-3 index (`3^n` bits).
#[inline]
fn mark(t: &mut [u64], i: usize) {
    t[i / 64] |= 1 << (i % 64);
}

#[inline]
fn unmark(t: &mut [u64], i: usize) {
    t[i / 64] &= !(1 << (i % 64));
}

#[inline]
fn holds(t: &[u64], i: usize) -> bool {
    t[i / 64] >> (i % 64) & 1 != 0
}

/// At most this many sets of asked boards per board and vertex; more go to the particular
/// table.
const GENERAL_PER_KEY: usize = 16;

/// At most this many results per set of asked boards; more go to the particular table.
const KNOWN_PER_GROUP: usize = 64;

/// The results found for one key whose searches asked about the same boards, each with the
/// asked boards its sequence held (its answers): a result serves a sequence that holds exactly
/// those of the asked boards.
struct Group<T> {
    /// The asked boards, sorted (shared between the groups that asked the same, see
    /// [`TrackedMemo::intern`]).
    asked: Rc<[u32]>,
    /// A filter of the asked boards: the bit [`Group::slot`] of each is set (about eight bits a
    /// board), so that a board whose bit is clear is known not to be asked without a search.
    filter: Vec<u64>,
    /// The results: the asked boards held (base-3 indices, sorted) and the result.
    known: Vec<(Box<[u32]>, T)>,
}

impl<T: Copy> Group<T> {
    fn new(asked: Rc<[u32]>) -> Group<T> {
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
    fn slot(&self, i: u32) -> usize {
        let bits = self.filter.len() as u64 * 64;
        ((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - bits.trailing_zeros()))
            as usize
    }

    /// Whether board `i` is asked.
    #[inline]
    fn asks(&self, i: u32) -> bool {
        let s = self.slot(i);
        self.filter[s / 64] >> (s % 64) & 1 != 0 && self.asked.binary_search(&i).is_ok()
    }

    /// The asked boards `path` holds, sorted.
    fn held(&self, path: &Path) -> Box<[u32]> {
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
    fn find(&self, path: &Path) -> Option<T> {
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
    fn insert(&mut self, path: &Path, k: T) -> bool {
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
type TrackKey = (SmallBoard, u8, u8);

/// Results of a tracked search: general ones, that hold for every sequence ending on the board
/// that gives the same answers to the boards asked about (a few asked sets per key), and
/// particular ones, that hold for one set of boards (when the key has too many asked sets).
struct TrackedMemo<T> {
    general: FxHashMap<TrackKey, Vec<Group<T>>>,
    particular: FxHashMap<(TrackKey, u64, u64), T>,
    /// Each set of asked boards of the groups, kept once: groups of different keys often ask
    /// the same (on path:12 after `B 2, W 10`, 46,552 groups asked 25,885 distinct sets).
    sets: FxHashMap<Rc<[u32]>, ()>,
}

impl<T: Copy> TrackedMemo<T> {
    fn new() -> Self {
        TrackedMemo {
            general: FxHashMap::default(),
            particular: FxHashMap::default(),
            sets: FxHashMap::default(),
        }
    }

    /// The set of asked boards equal to `asked` that the groups already share, or `asked`,
    /// kept to be shared from now on.
    fn intern(&mut self, asked: Rc<[u32]>) -> Rc<[u32]> {
        if let Some((kept, _)) = self.sets.get_key_value(&asked[..]) {
            return kept.clone();
        }
        self.sets.insert(asked.clone(), ());
        asked
    }

    /// A known result for the sequence `path` (+ `extra`, its last board when `path` does not
    /// hold it yet): a general one whose asked boards the sequence answers as the stored one did,
    /// or the particular one of its set.
    fn get(&self, key: TrackKey, path: &Path, extra: Option<SmallBoard>) -> Option<(T, Tested)> {
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
    fn insert(&mut self, key: TrackKey, asked: &Tested, path: &Path, k: T) {
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

    fn len(&self) -> usize {
        self.particular.len()
            + self
                .general
                .values()
                .flatten()
                .map(|g| g.known.len())
                .sum::<usize>()
    }

    /// The bytes its tables may take when they next grow, within `inserts` insertions each.
    fn growth(&self, inserts: usize) -> usize {
        growth(&self.general, inserts)
            + growth(&self.particular, inserts)
            + growth(&self.sets, inserts)
    }

    fn clear(&mut self) {
        self.general.clear();
        self.particular.clear();
        self.sets.clear();
    }
}

/// Default bound on the sequences one classification may visit: enough for the empty 3 x 5
/// board (23.8 million visits, 51 s, 370 MB resident: the tables keep about 16 bytes a visit,
/// the estimates' table being bounded), a few minutes of search.
pub const DEFAULT_NODE_LIMIT: u64 = 100_000_000;

/// Two independent 64-bit keys of a board (splitmix64 of its masks with two seeds).
fn board_keys(b: SmallBoard) -> (u64, u64) {
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
struct Path {
    seen: FxHashSet<SmallBoard>,
    keys: Vec<(u64, u64)>,
    /// With tracking: the boards seen, a bit per base-3 index.
    hist: Vec<u64>,
    /// With tracking: the base-3 indices of the boards seen, in their order.
    boards: Vec<u32>,
}

impl Path {
    fn push(&mut self, b: SmallBoard, syms: &[Symmetry]) {
        self.seen.insert(b);
        for (k, s) in self.keys.iter_mut().zip(syms) {
            let (a, c) = board_keys(s.board(b));
            k.0 = k.0.wrapping_add(a);
            k.1 = k.1.wrapping_add(c);
        }
    }

    /// Adds the board `b` (base-3 index `i`) in a tracked search, which reads only the bit set and
    /// the identity's set key.
    fn enter(&mut self, b: SmallBoard, i: usize) {
        let (a, c) = board_keys(b);
        self.keys[0].0 = self.keys[0].0.wrapping_add(a);
        self.keys[0].1 = self.keys[0].1.wrapping_add(c);
        mark(&mut self.hist, i);
        self.boards.push(i as u32);
    }

    /// Undoes [`Path::enter`].
    fn leave(&mut self, b: SmallBoard, i: usize) {
        let (a, c) = board_keys(b);
        self.keys[0].0 = self.keys[0].0.wrapping_sub(a);
        self.keys[0].1 = self.keys[0].1.wrapping_sub(c);
        unmark(&mut self.hist, i);
        self.boards.pop();
    }

    /// The set key (identity symmetry) of the boards seen and `extra`.
    fn set_key(&self, extra: Option<SmallBoard>) -> (u64, u64) {
        let (mut k1, mut k2) = self.keys[0];
        if let Some(d) = extra {
            let (a, c) = board_keys(d);
            k1 = k1.wrapping_add(a);
            k2 = k2.wrapping_add(c);
        }
        (k1, k2)
    }

    fn pop(&mut self, b: SmallBoard, syms: &[Symmetry]) {
        self.seen.remove(&b);
        for (k, s) in self.keys.iter_mut().zip(syms) {
            let (a, c) = board_keys(s.board(b));
            k.0 = k.0.wrapping_sub(a);
            k.1 = k.1.wrapping_sub(c);
        }
    }
}

/// A memo key: the last board and the 128-bit key of the set of boards.
type Key = (SmallBoard, u64, u64);

impl Classifier {
    /// A classifier for a graph of at most 64 vertices.
    pub fn new(g: &Graph, table: Table) -> GoResult<Classifier> {
        let sg = SmallGraph::new(g)?;
        let syms = symmetries(&sg);
        Ok(Classifier::with_graph(sg, syms, table))
    }

    /// A classifier of `sg`, whose symmetries are `syms`.
    fn with_graph(sg: SmallGraph, syms: Vec<Symmetry>, table: Table) -> Classifier {
        let words = if sg.n <= TRACK_MAX_VERTICES {
            3usize.pow(sg.n as u32).div_ceil(64)
        } else {
            0
        };
        Classifier {
            syms,
            table,
            memo: FxHashMap::default(),
            track: sg.n <= TRACK_MAX_VERTICES,
            tracked: TrackedMemo::new(),
            pn: pn::Tables::new(),
            words,
            proof_numbers: true,
            static_knowledge: true,
            colour_symmetry: true,
            length_step: 0,
            weak_numbers: false,
            ask_only: None,
            // (read on tracked graphs alone, whose powers fit; the others' saturate)
            pow3: (0..sg.n)
                .scan(1u32, |p, _| {
                    let v = *p;
                    *p = p.saturating_mul(3);
                    Some(v)
                })
                .collect(),
            node_limit: DEFAULT_NODE_LIMIT,
            vertex_node_limit: None,
            vertex_nodes: 0,
            vertex_ran_out: false,
            unfinished: Vec::new(),
            progress: None,
            at: LifeProgress::default(),
            root_len: 0,
            max_resident_bytes: None,
            link: None,
            keeping: None,
            interrupt: None,
            stats: LifeStats::default(),
            sg,
        }
    }

    /// Whether a board is ultimate (seed 004): every empty point is forbidden for one colour at
    /// least, and where the other colour may play, the new stone's chain has one liberty.
    pub fn is_ultimate(&self, b: SmallBoard) -> bool {
        let sg = &self.sg;
        let mut empty = sg.full & !(b.0 | b.1);
        while empty != 0 {
            let v = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let black = sg.play(b, v, Color::Black, false);
            let white = sg.play(b, v, Color::White, false);
            if black.is_some() && white.is_some() {
                return false;
            }
            if let Some(nb) = black {
                let chain = sg.flood(1u64 << v, nb.0);
                if (sg.nbr(chain) & sg.full & !(nb.0 | nb.1)).count_ones() != 1 {
                    return false;
                }
            }
            if let Some(nb) = white {
                let chain = sg.flood(1u64 << v, nb.1);
                if (sg.nbr(chain) & sg.full & !(nb.0 | nb.1)).count_ones() != 1 {
                    return false;
                }
            }
        }
        true
    }

    /// The classes of every vertex after the regular sequence `seq` (its boards, the first one
    /// included; passes are implicit). The boards must be boards of the graph, pairwise
    /// distinct. A vertex left by [`Classifier::vertex_node_limit`] makes it an error (as
    /// [`Classifier::class_of`]); [`Classifier::classes_at`] gives the others' classes then.
    pub fn classes(&mut self, seq: &[Board]) -> GoResult<Vec<Class>> {
        let all: Vec<usize> = (0..self.sg.n).collect();
        let ks = self.classes_at(seq, &all)?;
        ks.into_iter()
            .map(|k| k.ok_or_else(|| self.left_error()))
            .collect()
    }

    /// The questions of the proof-number search the last classification answered, in order (on
    /// several threads, each thread's in its order), with the first move of each "yes".
    pub fn answers(&self) -> &[Answer] {
        &self.at.answers
    }

    /// The classes of the vertices `asked` after `seq` (the others are `None`), within one
    /// budget of [`Classifier::node_limit`] sequences. Under a
    /// [`Classifier::vertex_node_limit`] the vertices it stops are `None` too, and listed by
    /// [`Classifier::unfinished`].
    pub fn classes_at(&mut self, seq: &[Board], asked: &[usize]) -> GoResult<Vec<Option<Class>>> {
        self.unfinished.clear();
        let (reps, keeping) = self.orbits(seq, asked)?;
        let mut path = self.path_of(seq)?;
        let last = SmallGraph::from_board(seq.last().expect("checked"));
        let mut budget = self.node_limit;
        let mut out = vec![None; self.sg.n];
        self.at = LifeProgress {
            vertices: asked.len(),
            ..LifeProgress::default()
        };
        if let Some(c) = self.ask_only {
            self.ask_each(last, asked, c, &mut path, &mut budget)?;
            return Ok(out);
        }
        for v in reps {
            self.at.vertex = v;
            let Some(k) = self.outcome_within(last, v, &mut path, &mut budget)? else {
                continue;
            };
            self.found(asked, &keeping, &mut out, v, k);
        }
        self.tally();
        self.left(asked, &out);
        Ok(out)
    }

    /// Asks whether `c` moving first after `path` (ending on `last`) gets each vertex of
    /// `asked` (every one: a symmetry that keeps the sequence gives the same answer, but the
    /// answers are told vertex by vertex). A vertex whose search passes
    /// [`Classifier::vertex_node_limit`] is listed by [`Classifier::unfinished`].
    fn ask_each(
        &mut self,
        last: SmallBoard,
        asked: &[usize],
        c: Color,
        path: &mut Path,
        budget: &mut u64,
    ) -> GoResult<()> {
        if !self.asks_questions() {
            return Err(GoError::new(
                "one question of a vertex is asked of the proof-number search alone",
                "classify with the proof-number search (the default table or p-to-chooser, graphs of up to 16 vertices)",
            ));
        }
        for &v in asked {
            self.at.vertex = v;
            if self
                .within_vertex_limit(|cl| cl.ask(last, v, c, path, budget))?
                .is_none()
            {
                self.unfinished.push(v);
            }
            self.at.colour = None;
            self.at.numbers = None;
        }
        self.tally();
        Ok(())
    }

    /// Records the class `k` of the searched vertex `v` in `out`, for its images under the
    /// symmetries `keeping` too, and counts the asked vertices known.
    fn found(
        &mut self,
        asked: &[usize],
        keeping: &[Vec<usize>],
        out: &mut [Option<Class>],
        v: usize,
        k: Class,
    ) {
        for perm in keeping {
            out[perm[v]] = Some(k);
        }
        out[v] = Some(k);
        self.at.classified = asked.iter().filter(|&&w| out[w].is_some()).count();
    }

    /// Records the asked vertices a classification that ended left without a class.
    fn left(&mut self, asked: &[usize], out: &[Option<Class>]) {
        self.unfinished = asked
            .iter()
            .copied()
            .filter(|&w| out[w].is_none())
            .collect();
    }

    /// The asked vertices that the last classification left unclassified, their searches
    /// stopped by [`Classifier::vertex_node_limit`] (none without it).
    pub fn unfinished(&self) -> &[usize] {
        &self.unfinished
    }

    /// The class of `v` after `path` (ending on `last`), or `None` when its search passes
    /// [`Classifier::vertex_node_limit`]. Why a stopped search may be left: every result kept
    /// is exact for the histories it is kept for, and the estimates only steer, so the tables
    /// serve the next vertex as they are; the path is given back as it came (each step leaves
    /// the boards it entered before it passes an error on).
    fn outcome_within(
        &mut self,
        last: SmallBoard,
        v: usize,
        path: &mut Path,
        budget: &mut u64,
    ) -> GoResult<Option<Class>> {
        self.within_vertex_limit(|cl| cl.outcome_of(last, v, path, budget))
    }

    /// The result of one vertex's search `search`, or `None` when it passes
    /// [`Classifier::vertex_node_limit`] (which counts from its start).
    fn within_vertex_limit<T>(
        &mut self,
        search: impl FnOnce(&mut Self) -> GoResult<T>,
    ) -> GoResult<Option<T>> {
        self.vertex_nodes = 0;
        self.vertex_ran_out = false;
        match search(self) {
            Ok(k) => Ok(Some(k)),
            Err(_) if self.vertex_ran_out => {
                self.vertex_ran_out = false;
                self.at.colour = None;
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// The vertices of `asked` to search after `seq` (checked), one of each orbit of the
    /// symmetries that keep every board of the sequence, and those symmetries (as vertex
    /// permutations). Why: such a symmetry maps the sequence onto itself, and so a vertex onto
    /// a vertex of the same class (the empty 4 x 4 board: 3 vertices instead of 16).
    fn orbits(&self, seq: &[Board], asked: &[usize]) -> GoResult<(Vec<usize>, Vec<Vec<usize>>)> {
        if let Some(&v) = asked.iter().find(|&&v| v >= self.sg.n) {
            return Err(GoError::new(
                format!(
                    "vertex {} is not a vertex of the graph (its vertices are 1 to {})",
                    v + 1,
                    self.sg.n
                ),
                "vertices are numbered from 1 in the rules",
            ));
        }
        self.path_of(seq)?;
        let boards: Vec<SmallBoard> = seq.iter().map(SmallGraph::from_board).collect();
        let keeping: Vec<Vec<usize>> = self
            .syms
            .iter()
            .filter(|s| boards.iter().all(|&b| s.board(b) == b))
            .map(|s| s.perm.clone())
            .collect();
        let mut covered = vec![false; self.sg.n];
        let mut reps = Vec::new();
        for &v in asked {
            if !covered[v] {
                reps.push(v);
                covered[v] = true;
                for perm in &keeping {
                    covered[perm[v]] = true;
                }
            }
        }
        Ok((reps, keeping))
    }

    /// The class of one vertex after `seq`.
    pub fn class_of(&mut self, seq: &[Board], v: usize) -> GoResult<Class> {
        let ks = self.classes_at(seq, &[v])?;
        ks[v].ok_or_else(|| self.left_error())
    }

    /// The error of a vertex the search left (past [`Classifier::vertex_node_limit`]).
    fn left_error(&self) -> GoError {
        GoError::limit(
            format!(
                "the search of a vertex visited more than {} sequences",
                self.vertex_node_limit.unwrap_or(self.node_limit)
            ),
            "raise the vertex's bound on visits",
        )
    }

    /// Whether the search records the boards it asks about (graphs of at most
    /// [`TRACK_MAX_VERTICES`] vertices, unless turned off).
    pub fn tracking(&self) -> bool {
        self.track
    }

    /// Turns the proof-number search off (the tracked depth-first search then decides every
    /// class), or back on. It serves the reconstruction's table on tracked graphs.
    pub fn set_proof_numbers(&mut self, on: bool) {
        self.proof_numbers = on;
    }

    /// Turns off (or back on) the static knowledge of the proof-number search: under the
    /// reconstruction's table a player moving first never gets a vertex that Benson's rule
    /// keeps for the opponent (a stone of an unconditionally alive chain, or its eye). The
    /// classes are the same either way (tests/go_life.rs compares them); the search is shorter
    /// with it.
    pub fn set_static_knowledge(&mut self, on: bool) {
        self.static_knowledge = on;
    }

    /// Turns off (or back on) the colour symmetry of the empty board: the proof-number search
    /// then asks White's question there too, where by default it takes Black's answer (the
    /// swap of the colours maps the empty board onto itself, and every rule onto itself). The
    /// classes are the same either way (tests/go_life.rs compares them); the empty 3 x 4 board
    /// takes half the visits with it.
    pub fn set_colour_symmetry(&mut self, on: bool) {
        self.colour_symmetry = on;
    }

    /// Raises the first disproof number of a sequence the proof-number search has not searched
    /// yet with its length: 1 + L / k for a sequence of L boards (k = `step`; 0, the default,
    /// for 1 whatever the length). In long capture and recapture fights every new history is
    /// a new sequence whose first numbers are those of a fresh one, so the search can follow a
    /// fight ever further while a shorter proof lies beside it; with a step the numbers of a
    /// long line grow with it. The classes are the same (tests/go_life.rs compares them); the
    /// visits change, fewer on some positions and more on others (docs/PERFORMANCE.md).
    pub fn set_length_step(&mut self, step: u32) {
        self.length_step = step;
    }

    /// Sums the proof-number search's disproof numbers the weak way (Ueda, Hashimoto, Hashimoto
    /// and Iida, "Weak proof-number search", 2008): a question's disproof number is the largest
    /// of its options' plus one for each other option still open, where by default it is their
    /// sum. The opponent's many orders of the same plays reach the same boards, and a sum counts
    /// them as often as they are reached; on the long capture fights of paths the sums grow
    /// with the orders, not with the work left. The classes are the same (tests/go_life.rs);
    /// the visits are far fewer on some positions of path:11 and path:12 and more on the
    /// grids (docs/PERFORMANCE.md).
    pub fn set_weak_numbers(&mut self, weak: bool) {
        self.weak_numbers = weak;
    }

    /// Asks one question of each vertex instead of its class: whether `c` moving first gets it
    /// (`None`, the default: both questions, and the class). A class needs both answers, and
    /// where a proof is split over runs one of them is often all that is wanted (the position
    /// after a reply is settled for the mover when the mover moving first gets the vertex). The
    /// classifications then give no classes (every vertex `None`, none unfinished unless its
    /// search passed [`Classifier::vertex_node_limit`]); the answers are in
    /// [`Classifier::answers`]. Only the proof-number search asks the questions one by one
    /// ([`Classifier::asks_questions`]); elsewhere a classification is refused.
    pub fn set_ask_only(&mut self, c: Option<Color>) {
        self.ask_only = c;
    }

    /// Whether the classifications ask the proof-number search's two questions of each vertex
    /// (a tracked graph, the proof-number search on, a table it answers), so that
    /// [`Classifier::set_ask_only`] applies.
    pub fn asks_questions(&self) -> bool {
        self.track && self.proof_numbers && self.table.proof_numbers()
    }

    /// Turns the recording of asked boards off (the search then uses the graph's symmetries
    /// and keys every result by its whole set of boards), or back on where the graph allows.
    pub fn set_tracking(&mut self, on: bool) {
        self.track = on && self.sg.n <= TRACK_MAX_VERTICES;
    }

    /// Records the sizes of the tables in the counters.
    fn tally(&mut self) {
        self.stats.entries = self.entries();
        self.stats.estimates = self.pn.estimate.len();
    }

    fn entries(&self) -> usize {
        self.memo.len() + self.tracked.len() + self.pn.len()
    }

    fn outcome_of(
        &mut self,
        last: SmallBoard,
        v: usize,
        path: &mut Path,
        budget: &mut u64,
    ) -> GoResult<Class> {
        if self.asks_questions() {
            let black = self.ask(last, v, Color::Black, path, budget)?;
            // The empty board alone is its own image under the swap of the colours, which maps
            // regular sequences, ultimate boards, eyes and every table's gains onto those of
            // the other colour: so White moving first gets v there exactly when Black does.
            let empty = last == (0, 0) && path.boards.len() == 1;
            let white = if self.colour_symmetry && empty {
                black
            } else {
                self.ask(last, v, Color::White, path, budget)?
            };
            self.at.colour = None;
            self.at.numbers = None;
            Ok(self.table.apply(black, white))
        } else if self.track {
            Ok(self.outcome_tracked(last, v, path, budget)?.0)
        } else {
            self.outcome(last, v, path, budget)
        }
    }

    /// Asks the proof-number search whether `c` moving first after `path` (ending on `last`)
    /// gets `v`, and records the answer with the first move of a "yes" ([`Classifier::answered`]).
    fn ask(
        &mut self,
        last: SmallBoard,
        v: usize,
        c: Color,
        path: &mut Path,
        budget: &mut u64,
    ) -> GoResult<bool> {
        self.at.colour = Some(c);
        self.at.numbers = None;
        let gets = self.gets_pn(last, v, c, path, budget)?;
        let by = gets.then(|| self.winning_play(last, v, c, path)).flatten();
        self.answered(v, c, gets, by)?;
        Ok(gets)
    }

    /// Records a question answered and tells it at once; where the results are kept in a file
    /// and the answer took a search, the file is written at once.
    fn answered(
        &mut self,
        vertex: usize,
        colour: Color,
        gets: bool,
        by: Option<usize>,
    ) -> GoResult<()> {
        self.at.answers.push(Answer {
            vertex,
            colour,
            gets,
            nodes: self.stats.nodes,
            by,
        });
        if let Some(tell) = &mut self.progress {
            self.at.nodes = self.stats.nodes;
            tell(&self.at);
        }
        if self
            .keeping
            .as_ref()
            .is_some_and(|k| self.stats.nodes.saturating_sub(k.nodes) >= KEEP_ANSWER_NODES)
        {
            self.keep_now()?;
        }
        Ok(())
    }

    /// Writes the kept results now (see [`Classifier::keep_results`]); returns how many.
    fn keep_now(&mut self) -> GoResult<usize> {
        let Some(path) = self.keeping.as_ref().map(|k| k.path.clone()) else {
            return Ok(0);
        };
        let n = self.save_results(&path)?;
        if let Some(k) = &mut self.keeping {
            k.last = std::time::Instant::now();
            k.nodes = self.stats.nodes;
            k.kept = Some(n);
        }
        Ok(n)
    }

    /// Writes the kept results at the end of a classification, whether it ended or not, unless
    /// the file already holds them all (written since the last visit, e.g. at the last answer);
    /// returns how many the file keeps (none when no results are kept).
    pub fn keep_final(&mut self) -> GoResult<Option<usize>> {
        match &self.keeping {
            None => Ok(None),
            Some(k) if k.kept.is_some() && k.nodes == self.stats.nodes => Ok(k.kept),
            Some(_) => self.keep_now().map(Some),
        }
    }

    /// The empty set of boards.
    fn nothing(&self) -> Tested {
        Tested::default()
    }

    /// The base-3 index of a board (tracked graphs only).
    #[inline]
    fn index(&self, b: SmallBoard) -> usize {
        let mut i = 0u32;
        let (mut x, mut y) = b;
        while x != 0 {
            i += self.pow3[x.trailing_zeros() as usize];
            x &= x - 1;
        }
        while y != 0 {
            i += 2 * self.pow3[y.trailing_zeros() as usize];
            y &= y - 1;
        }
        i as usize
    }

    /// A known class of v for the sequence `path` (+ `extra`) ending on `last`.
    fn known_tracked(
        &self,
        last: SmallBoard,
        v: usize,
        path: &Path,
        extra: Option<SmallBoard>,
    ) -> Option<(Class, Tested)> {
        self.tracked.get((last, v as u8, 2), path, extra)
    }

    /// [`Classifier::outcome`] with the asked boards recorded: returns the class and the
    /// boards the result depends on (its own last board left out).
    fn outcome_tracked(
        &mut self,
        last: SmallBoard,
        v: usize,
        path: &mut Path,
        budget: &mut u64,
    ) -> GoResult<(Class, Tested)> {
        if self.is_ultimate(last) {
            return Ok((self.ultimate_class(last, v), self.nothing()));
        }
        if let Some(r) = self.known_tracked(last, v, path, None) {
            self.stats.hits += 1;
            return Ok(r);
        }
        self.spend(budget)?;
        let mut asked = self.nothing();
        let mut gets = [false, false];
        let table = self.table;
        for (i, c) in [Color::Black, Color::White].into_iter().enumerate() {
            let wants = |k: Class, d: SmallBoard| table.gains(k, c, stone_of(d, v, c));
            // A colour that gets v depends only on its winning option being new and on what
            // that option's result asked. One that does not depends on the options the history
            // forbids staying forbidden and on what each other option's result asked (an option
            // the history forbids elsewhere only removes a losing option).
            let (options, mut lost) = self.new_plays(last, v, c, path);
            for &(d, di) in &options {
                let known = if self.is_ultimate(d) {
                    Some((self.ultimate_class(d, v), self.nothing()))
                } else {
                    self.known_tracked(d, v, path, Some(d))
                };
                if let Some((k, t)) = known {
                    if wants(k, d) {
                        asked.join(&t);
                        asked.add(di);
                        gets[i] = true;
                        break;
                    }
                }
            }
            for &(d, di) in &options {
                if gets[i] {
                    break;
                }
                path.enter(d, di);
                let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                    self.outcome_tracked(d, v, path, budget)
                });
                path.leave(d, di);
                let (k, t) = r?;
                if wants(k, d) {
                    asked.join(&t);
                    asked.add(di);
                    gets[i] = true;
                } else {
                    lost.join(&t);
                }
            }
            if !gets[i] {
                asked.join(&lost);
            }
        }
        let k = self.table.apply(gets[0], gets[1]);
        asked.tidy(self.index(last));
        self.tracked.insert((last, v as u8, 2), &asked, path, k);
        Ok((k, asked))
    }

    /// The boards after each legal stone of colour `c` on `last`, in the order most likely to
    /// get v first: the stone on v, then next to it, then the rest.
    fn plays(&self, last: SmallBoard, v: usize, c: Color) -> Vec<SmallBoard> {
        let empty = self.sg.full & !(last.0 | last.1);
        let near = self.sg.adj[v] & empty;
        let order = [empty & (1u64 << v), near, empty & !near & !(1u64 << v)];
        let mut out = Vec::with_capacity(empty.count_ones() as usize);
        for mut set in order {
            while set != 0 {
                let w = set.trailing_zeros() as usize;
                set &= set - 1;
                out.extend(self.sg.play(last, w, c, false));
            }
        }
        out
    }

    /// The boards after each legal stone of colour `c` on `last` that the sequence `path` does
    /// not hold, with their base-3 indices, in the order of [`Classifier::plays`]; and the ones
    /// it holds (the options the history forbids), as asked boards (tracked searches).
    fn new_plays(
        &self,
        last: SmallBoard,
        v: usize,
        c: Color,
        path: &Path,
    ) -> (Vec<(SmallBoard, usize)>, Tested) {
        let mut new = Vec::new();
        let mut forbidden = self.nothing();
        for d in self.plays(last, v, c) {
            let di = self.index(d);
            if holds(&path.hist, di) {
                forbidden.add(di);
            } else {
                new.push((d, di));
            }
        }
        (new, forbidden)
    }

    /// One more sequence searched: an error past the node budget or the memory bound.
    fn spend(&mut self, budget: &mut u64) -> GoResult<()> {
        if let Some(max) = self.vertex_node_limit {
            if self.vertex_nodes >= max {
                self.vertex_ran_out = true;
                return Err(GoError::limit(
                    format!("the search of one vertex visited more than {max} sequences"),
                    "the vertex is left unclassified",
                ));
            }
            self.vertex_nodes += 1;
        }
        if *budget == 0 {
            // a thread of a parallel classification draws from the shared budget
            *budget = self.link.as_ref().map_or(0, |l| l.shared.take());
            if *budget == 0 {
                return Err(self.limit_error());
            }
        }
        *budget -= 1;
        self.stats.nodes += 1;
        if self.stats.nodes & 0xFFFF != 0 {
            return Ok(());
        }
        if let Some(tell) = &mut self.progress {
            self.at.nodes = self.stats.nodes;
            tell(&self.at);
        }
        if let Some(l) = &self.link {
            l.shared
                .tell(l.worker, 0x10000, (self.at.vertex, self.at.colour));
        }
        if self
            .interrupt
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::Relaxed))
        {
            return Err(GoError::interrupted(
                "the classification was interrupted",
                "resume it from its results (--results)",
            ));
        }
        if self
            .keeping
            .as_ref()
            .is_some_and(|k| k.last.elapsed() >= k.every)
        {
            self.keep_now()?;
        }
        let Some(max) = self.max_resident_bytes else {
            return Ok(());
        };
        let Some(r) = crate::memory::resident_bytes() else {
            return Ok(());
        };
        if r > max {
            return Err(GoError::out_of_memory(
                format!(
                    "the classification occupied more than {} MiB after {} sequences",
                    max >> 20,
                    self.stats.nodes
                ),
                "raise --max-resident-mb, or classify a later position of a smaller graph",
            ));
        }
        // a table that doubles before the next look would pass the bound at once: its growth
        // is counted in advance
        let next = self.growth(0x40000);
        if r + next > max {
            return Err(GoError::out_of_memory(
                format!(
                    "the classification would occupy more than {} MiB after {} sequences ({} MiB, and its tables would grow by {} MiB at once)",
                    max >> 20,
                    self.stats.nodes,
                    r >> 20,
                    next >> 20
                ),
                "raise --max-resident-mb, or classify a later position of a smaller graph",
            ));
        }
        Ok(())
    }

    /// The bytes the largest tables may take when they next grow, if that can happen within
    /// `inserts` insertions each.
    fn growth(&self, inserts: usize) -> usize {
        growth(&self.memo, inserts) + self.tracked.growth(inserts) + self.pn.growth(inserts)
    }

    fn limit_error(&self) -> GoError {
        GoError::limit(
            format!(
                "the classification visited more than {} sequences",
                self.node_limit
            ),
            "raise the node limit or classify a later position of a smaller graph",
        )
    }

    fn path_of(&self, seq: &[Board]) -> GoResult<Path> {
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
    fn one_move(&self, from: SmallBoard, to: SmallBoard) -> bool {
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
    fn canonical(&self, last: SmallBoard, path: &Path, extra: Option<SmallBoard>) -> (Key, usize) {
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

    /// The number of symmetries of the graph in use (the identity included).
    pub fn symmetry_count(&self) -> usize {
        self.syms.len()
    }

    fn outcome(
        &mut self,
        last: SmallBoard,
        v: usize,
        path: &mut Path,
        budget: &mut u64,
    ) -> GoResult<Class> {
        if self.is_ultimate(last) {
            return Ok(self.ultimate_class(last, v));
        }
        let (key, sym) = self.canonical(last, path, None);
        let sv = self.syms[sym].perm[v];
        if let Some(k) = self.memo.get(&key).and_then(|k| k.get(sv)) {
            self.stats.hits += 1;
            return Ok(k);
        }
        self.spend(budget)?;
        let mut gets = [false, false];
        for (i, c) in [Color::Black, Color::White].into_iter().enumerate() {
            let mut options = self.plays(last, v, c);
            options.retain(|d| !path.seen.contains(d));
            // an option whose class the memo already knows decides without a search
            let table = self.table;
            let wants = |k: Class, d: SmallBoard| table.gains(k, c, stone_of(d, v, c));
            for &d in &options {
                let known = if self.is_ultimate(d) {
                    Some(self.ultimate_class(d, v))
                } else {
                    let (key, sym) = self.canonical(d, path, Some(d));
                    let sv = self.syms[sym].perm[v];
                    self.memo.get(&key).and_then(|k| k.get(sv))
                };
                if known.is_some_and(|k| wants(k, d)) {
                    gets[i] = true;
                    break;
                }
            }
            for &d in &options {
                if gets[i] {
                    break;
                }
                path.push(d, &self.syms);
                let r = stacker::maybe_grow(64 * 1024, 1024 * 1024, || {
                    self.outcome(d, v, path, budget)
                });
                path.pop(d, &self.syms);
                gets[i] = wants(r?, d);
            }
        }
        let k = self.table.apply(gets[0], gets[1]);
        self.memo.entry(key).or_default().set(sv, k);
        Ok(k)
    }

    fn ultimate_class(&self, b: SmallBoard, v: usize) -> Class {
        let bit = 1u64 << v;
        let nbr = self.sg.adj[v];
        let empty = (b.0 | b.1) & bit == 0;
        if b.0 & bit != 0 || (empty && nbr & b.0 != 0) {
            Class::B
        } else if b.1 & bit != 0 || (empty && nbr & b.1 != 0) {
            Class::W
        } else {
            Class::P
        }
    }

    /// Keeps the resolved results of the proof-number search in the file `path` as the search
    /// goes: written again each time `every` has passed (checked every 65,536 sequences) and
    /// when a question is answered after a search of 65,536 sequences or more since the last
    /// write, so that a search stopped in its course leaves what it found (see
    /// [`Classifier::save_results`], [`Classifier::load_results`]).
    ///
    /// The file is locked first (refused when another process keeps its results in it): take
    /// the lock before reading what the file holds.
    pub fn keep_results(
        &mut self,
        path: std::path::PathBuf,
        every: std::time::Duration,
    ) -> GoResult<()> {
        let lock = store::lock_results(&path)?;
        self.keeping = Some(Keeping {
            path,
            every,
            last: std::time::Instant::now(),
            nodes: self.stats.nodes,
            kept: None,
            _lock: lock,
        });
        Ok(())
    }

    /// Stops the search with an error once the process occupies more than `bytes` (none: no
    /// bound), and keeps the estimates' table within a quarter of it (at most its default,
    /// [`ESTIMATE_BYTES`]).
    pub fn set_max_resident_bytes(&mut self, bytes: Option<usize>) {
        self.max_resident_bytes = bytes;
        self.set_estimate_bytes(bytes.map_or(ESTIMATE_BYTES, |b| ESTIMATE_BYTES.min(b / 4)));
    }

    /// Bounds the table of the proof-number search's estimates (the numbers of sequences left
    /// open, which only steer the search) to about `bytes`; its default is [`ESTIMATE_BYTES`].
    /// The bound changes how long the search takes, never what it finds.
    pub fn set_estimate_bytes(&mut self, bytes: usize) {
        self.pn.estimate.set_max_bytes(bytes);
    }

    /// Forgets the memo.
    pub fn clear(&mut self) {
        self.memo.clear();
        self.tracked.clear();
        self.pn.clear();
        self.tally();
    }
}

/// The classes of every vertex after `seq` (see [`Classifier::classes`]).
pub fn outcome_classes(g: &Graph, seq: &[Board], table: Table) -> GoResult<Vec<Class>> {
    Classifier::new(g, table)?.classes(seq)
}

/// The boards of a move list "B v, W w, ..." (vertex names as the graph prints them) played from
/// the empty board as a regular sequence: suicide forbidden, no board repeated.
pub fn sequence_from_moves(g: &Graph, moves: &str) -> GoResult<Vec<Board>> {
    sequence_from_moves_with(g, moves, false)
}

/// A move of a move list: its colour, its vertex, and where it is written in the list.
pub struct ListedMove {
    pub color: Color,
    pub vertex: usize,
    /// The byte offset of the move in the list, and the move as written.
    pub at: usize,
    pub text: String,
}

/// The moves of a move list "B v, W w, ..." (vertex names as the graph prints them), read but
/// not played.
pub fn parse_moves(g: &Graph, moves: &str) -> GoResult<Vec<ListedMove>> {
    let mut out = vec![];
    let mut offset = 0usize;
    for raw in moves.split(',') {
        let start = offset + (raw.len() - raw.trim_start().len());
        offset += raw.len() + 1;
        let part = raw.trim();
        if part.is_empty() {
            continue;
        }
        let err = |msg: String, help: &str| GoError::at(moves, start, msg, help.to_string());
        let mut it = part.split_whitespace();
        let color = match it.next() {
            Some("B") | Some("b") => Color::Black,
            Some("W") | Some("w") => Color::White,
            _ => {
                return Err(err(
                    format!("bad move `{part}`"),
                    "a move is `B v` or `W v`",
                ))
            }
        };
        let (Some(name), None) = (it.next(), it.next()) else {
            return Err(err(
                format!("bad move `{part}`"),
                "a move is a colour and one vertex name, e.g. `B 1`",
            ));
        };
        let Some(v) = g.vertex(name) else {
            return Err(err(
                format!("`{name}` is not a vertex of the graph"),
                "`okite go show --graph G` lists the vertex names",
            ));
        };
        out.push(ListedMove {
            color,
            vertex: v,
            at: start,
            text: part.to_string(),
        });
    }
    Ok(out)
}

/// [`sequence_from_moves`], with suicide allowed or not (the reading `suicide` of go.rule: the
/// mover's own chains left without liberties are removed).
pub fn sequence_from_moves_with(g: &Graph, moves: &str, suicide: bool) -> GoResult<Vec<Board>> {
    let mut b = Board::empty();
    let mut seq = vec![b];
    for m in parse_moves(g, moves)? {
        let part = &m.text;
        let err = |msg: String, help: &str| GoError::at(moves, m.at, msg, help.to_string());
        match b.play(g, m.vertex, m.color, suicide) {
            Ok((nb, _)) if seq.contains(&nb) => {
                return Err(err(
                    format!("illegal move `{part}`: it repeats an earlier board"),
                    "a regular sequence never repeats a board (positional superko)",
                ))
            }
            Ok((nb, _)) => {
                b = nb;
                seq.push(b);
            }
            Err(e) => {
                let help = if suicide {
                    "play on an empty point; a lone stone without a liberty is no move even where suicide is allowed"
                } else {
                    "play on an empty point where the stone keeps a liberty"
                };
                return Err(err(format!("illegal move `{part}`: {e}"), help));
            }
        }
    }
    Ok(seq)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table counts its next doubling only when the insertions to come can fill it: then
    /// the new table of twice the buckets, whatever the old one holds.
    #[test]
    fn a_table_counts_its_next_growth_only_when_it_can_come() {
        let mut m: FxHashMap<u64, u64> = FxHashMap::default();
        m.reserve(1000);
        let cap = m.capacity();
        assert_eq!(growth(&m, 0), 0);
        assert_eq!(growth(&m, cap / 2), 0);
        let at_once = growth(&m, cap);
        assert!(at_once >= 2 * cap * 17, "{at_once} for {cap} entries");
        m.extend((0..cap as u64).map(|i| (i, i)));
        assert_eq!(m.capacity(), cap);
        assert_eq!(growth(&m, 1), at_once);
    }

    /// A long classification tells how far it has come: every 65,536 sequences, with the
    /// vertex, the question it is on and that question's proof and disproof numbers.
    #[test]
    fn a_long_classification_tells_how_far_it_has_come() {
        // (the empty 2 x 6 board: about half a million sequences)
        let g = Graph::parse("grid:2x6").unwrap();
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        let told = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let seen = told.clone();
        cl.progress = Some(Box::new(move |p: &LifeProgress| {
            seen.borrow_mut().push(p.clone())
        }));
        let ks = cl.classes(&[Board::empty()]).unwrap();
        assert_eq!(ks.len(), 12);
        let told = told.borrow();
        // every 65,536 sequences; and a question answered, at once (the only tells that
        // bring an answer)
        let mut periodic = 0u64;
        let mut answers = 0;
        for p in told.iter() {
            if p.answers.len() > answers {
                assert_eq!(p.answers.len(), answers + 1, "{p:?}");
                answers += 1;
                let a = p.answers[answers - 1];
                assert_eq!(a.nodes, p.nodes, "{p:?}");
                assert_eq!((a.vertex, Some(a.colour)), (p.vertex, p.colour), "{p:?}");
                // on the empty board White's answer is Black's: only Black's is searched
                assert_eq!(a.colour, Color::Black);
                assert_eq!(ks[a.vertex], if a.gets { Class::N } else { Class::P });
                continue;
            }
            periodic += 1;
            assert_eq!(p.nodes, periodic << 16);
            assert_eq!(p.vertices, 12);
            assert!(
                p.classified < 12 && p.vertex < 12 && p.colour.is_some(),
                "{p:?}"
            );
            // the question's numbers, open both ways while it is asked
            let (pn, dn) = p.numbers.expect("the numbers of the question asked");
            assert!(
                pn > 0 && dn > 0 && pn < u32::MAX / 4 && dn < u32::MAX / 4,
                "{p:?}"
            );
        }
        assert_eq!(periodic, cl.stats.nodes >> 16);
        assert!(periodic > 0, "{} sequences", cl.stats.nodes);
        // one question a vertex searched: one of each orbit of the board's symmetries
        assert!((3..12).contains(&answers), "{answers} answers");
        assert!(
            told.iter().any(|p| p.numbers != told[0].numbers),
            "the numbers follow the search: {told:?}"
        );
        // after a move both questions are searched, and the class is the table's of the two
        let g = Graph::parse("path:6").unwrap();
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        let told = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let seen = told.clone();
        cl.progress = Some(Box::new(move |p: &LifeProgress| {
            seen.borrow_mut().push(p.answers.clone())
        }));
        let seq = sequence_from_moves(&g, "B 3").unwrap();
        let ks = cl.classes_at(&seq, &[0]).unwrap();
        let answers = told.borrow().last().cloned().expect("told");
        assert_eq!(answers.len(), 2, "{answers:?}");
        assert_eq!(
            (answers[0].colour, answers[1].colour),
            (Color::Black, Color::White)
        );
        assert_eq!(
            ks[0],
            Some(Table::Reconstruction.apply(answers[0].gets, answers[1].gets))
        );
    }

    fn classes(spec: &str, moves: &str, table: Table) -> String {
        let g = Graph::parse(spec).unwrap();
        let seq = sequence_from_moves(&g, moves).unwrap();
        outcome_classes(&g, &seq, table)
            .unwrap()
            .iter()
            .map(|c| c.letter())
            .collect()
    }

    #[test]
    fn small_paths() {
        // the examples of rules/go_life.rule
        assert_eq!(classes("path:1", "", Table::Reconstruction), "P");
        assert_eq!(classes("path:2", "", Table::Reconstruction), "NN");
        assert_eq!(classes("path:2", "", Table::Cautious), "PP");
        assert_eq!(classes("path:2", "B 1", Table::Reconstruction), "BB");
    }

    #[test]
    fn bad_sequences() {
        let g = Graph::parse("path:3").unwrap();
        for bad in ["X 1", "B 9", "B 1, W 1", "B", "B 1 2"] {
            assert!(sequence_from_moves(&g, bad).is_err(), "{bad}");
        }
        // on the triangle, B 1 then W 2 W 3 captures 1; B 1 again would capture 2 and 3 ...
        // the board after it (B at 1 alone) repeats the second board
        let g = Graph::parse("cycle:3").unwrap();
        let e = sequence_from_moves(&g, "B 1, W 2, W 3, B 1").unwrap_err();
        assert!(e.message.contains("repeats"), "{}", e.message);
    }
}
