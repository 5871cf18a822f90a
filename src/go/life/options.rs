//! The classifier's options: its searches, their bounds and the results it keeps.

use super::*;

impl Classifier {
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
    /// classes are the same either way (tests/suite/go_life.rs compares them); the search is shorter
    /// with it.
    pub fn set_static_knowledge(&mut self, on: bool) {
        self.static_knowledge = on;
    }

    /// Turns off (or back on) the colour symmetry of the empty board: the proof-number search
    /// then asks White's question there too, where by default it takes Black's answer (the
    /// swap of the colours maps the empty board onto itself, and every rule onto itself). The
    /// classes are the same either way (tests/suite/go_life.rs compares them); the empty 3 x 4 board
    /// takes half the visits with it.
    pub fn set_colour_symmetry(&mut self, on: bool) {
        self.colour_symmetry = on;
    }

    /// Raises the first disproof number of a sequence the proof-number search has not searched
    /// yet with its length: 1 + L / k for a sequence of L boards (k = `step`; 0, the default,
    /// for 1 whatever the length). In long capture and recapture fights every new history is
    /// a new sequence whose first numbers are those of a fresh one, so the search can follow a
    /// fight ever further while a shorter proof lies beside it; with a step the numbers of a
    /// long line grow with it. The classes are the same (tests/suite/go_life.rs compares them); the
    /// visits change, fewer on some positions and more on others (docs/PERFORMANCE.md).
    pub fn set_length_step(&mut self, step: u32) {
        self.length_step = step;
    }

    /// Sums the proof-number search's disproof numbers the weak way (Ueda, Hashimoto, Hashimoto
    /// and Iida, "Weak proof-number search", 2008): a question's disproof number is the largest
    /// of its options' plus one for each other option still open, where by default it is their
    /// sum. The opponent's many orders of the same plays reach the same boards, and a sum counts
    /// them as often as they are reached; on the long capture fights of paths the sums grow
    /// with the orders, not with the work left. The classes are the same (tests/suite/go_life.rs);
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
