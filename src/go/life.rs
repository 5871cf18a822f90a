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
mod memo;
mod moves;
mod options;
mod parallel;
mod path;
mod pn;
mod store;

use memo::*;
use path::*;

pub use cached::cached_classes;
pub use chinese::{chinese_score, terminable};
pub use moves::{parse_moves, sequence_from_moves, sequence_from_moves_with, ListedMove};
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

/// Default bound on the sequences one classification may visit: enough for the empty 3 x 5
/// board (23.8 million visits, 51 s, 370 MB resident: the tables keep about 16 bytes a visit,
/// the estimates' table being bounded), a few minutes of search.
pub const DEFAULT_NODE_LIMIT: u64 = 100_000_000;

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
    #[expect(
        clippy::expect_used,
        reason = "path_of refuses an empty sequence before"
    )]
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
}

/// The classes of every vertex after `seq` (see [`Classifier::classes`]).
pub fn outcome_classes(g: &Graph, seq: &[Board], table: Table) -> GoResult<Vec<Class>> {
    Classifier::new(g, table)?.classes(seq)
}

#[cfg(test)]
mod tests;
