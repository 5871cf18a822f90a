//! Classifying several vertices at once, one thread a vertex.
//!
//! The searches of two vertices share nothing: every result and every estimate is keyed by its
//! vertex. So the vertices to search (one of each orbit of the symmetries that keep the
//! sequence) are handed out in turn to threads, each with a classifier of its own (the same
//! settings, fresh tables), and each finds what the classifier alone would. The two questions
//! of one vertex (Black moving first, White moving first) stay in one thread: White's reuses
//! Black's results. The threads draw their visits from one budget, so that the bound on
//! sequences is the classification's, not a thread's.

use super::{Answer, Class, Classifier, LifeProgress, LifeStats, Table};
use crate::go::board::{Board, Color};
use crate::go::error::{GoError, GoResult};
use crate::go::small::SmallGraph;
use crate::go::symmetry::Symmetry;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Visits a thread takes from the shared budget at a time.
const CHUNK: u64 = 1024;

/// A thread's vertex and the question it is on (the colour moving first).
type Asking = (usize, Option<Color>);

/// What the threads of one classification share.
pub(super) struct Shared {
    /// Visits not yet handed out.
    pool: AtomicU64,
    /// Set when a thread fails: the others stop at their next draw.
    stop: AtomicBool,
    /// Threads still searching, and those of them waiting on an empty pool: when all are,
    /// every visit of the budget is spent.
    live: AtomicUsize,
    waiting: AtomicUsize,
    /// Visits so far, all threads (told every 65,536 visits of a thread).
    nodes: AtomicU64,
    /// Each thread's vertex and question.
    working: Mutex<Vec<Option<Asking>>>,
}

impl Shared {
    fn new(pool: u64, threads: usize) -> Shared {
        Shared {
            pool: AtomicU64::new(pool),
            stop: AtomicBool::new(false),
            live: AtomicUsize::new(threads),
            waiting: AtomicUsize::new(0),
            nodes: AtomicU64::new(0),
            working: Mutex::new(vec![None; threads]),
        }
    }

    /// Visits for a thread whose own are spent: none once a thread failed, or once the budget
    /// is spent. A thread that finds the pool empty waits while another still holds visits
    /// drawn before (it may end its vertex and give them back), so that the classification
    /// stops after exactly the visits of its budget, not up to a chunk a thread before.
    pub(super) fn take(&self) -> u64 {
        let mut waiting = false;
        let got = loop {
            if self.stop.load(Ordering::Relaxed) {
                break 0;
            }
            if let Some(p) = self.draw() {
                break p;
            }
            if !waiting {
                waiting = true;
                self.waiting.fetch_add(1, Ordering::AcqRel);
            }
            // every thread still searching waits too: none holds a visit, the budget is spent
            // (and this thread fails: the others stop). A thread that left gave its visits back
            // before it left the count, so the pool is read once more after the count: the
            // visits it gave back between this thread's draw and its count are drawn, not lost.
            if self.waiting.load(Ordering::Acquire) >= self.live.load(Ordering::Acquire) {
                if let Some(p) = self.draw() {
                    break p;
                }
                self.stop.store(true, Ordering::Relaxed);
                break 0;
            }
            std::thread::sleep(Duration::from_micros(100));
        };
        if waiting {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
        }
        got
    }

    /// A chunk of the pool's visits, if it holds any.
    fn draw(&self) -> Option<u64> {
        self.pool
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |p| {
                (p > 0).then(|| p - p.min(CHUNK))
            })
            .ok()
            .map(|p| p.min(CHUNK))
    }

    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Records `nodes` more visits and where thread `w` is.
    pub(super) fn tell(&self, w: usize, nodes: u64, at: Asking) {
        self.nodes.fetch_add(nodes, Ordering::Relaxed);
        if let Ok(mut working) = self.working.lock() {
            working[w] = Some(at);
        }
    }
}

/// A thread's link to the others: the shared state and its own number.
pub(super) struct Link {
    pub(super) shared: Arc<Shared>,
    pub(super) worker: usize,
}

/// What a classifier's thread needs to build its own: the graph and the settings.
struct Settings {
    sg: SmallGraph,
    syms: Vec<Symmetry>,
    table: Table,
    proof_numbers: bool,
    static_knowledge: bool,
    colour_symmetry: bool,
    length_step: u32,
    weak_numbers: bool,
    interrupt: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    track: bool,
    node_limit: u64,
    vertex_node_limit: Option<u64>,
    max_resident_bytes: Option<usize>,
    estimate_bytes: usize,
}

/// What a thread reports: a vertex classified (or the failure), or its end with its counters.
enum Report {
    Class(usize, GoResult<Option<Class>>),
    Done(LifeStats, Vec<Answer>),
}

impl Classifier {
    /// [`Classifier::classes_at`] on up to `threads` threads (one vertex each at a time; fewer
    /// when fewer vertices are to be searched). The classes are the same; the counters are
    /// the threads' sums, and the visits may differ a little from one thread's, whose
    /// estimates table is shared by the vertices in turn. The classifier's own tables are not
    /// used or filled; its progress is told every tenth of a second, with every thread's
    /// vertex in [`LifeProgress::working`].
    pub fn classes_at_parallel(
        &mut self,
        seq: &[Board],
        asked: &[usize],
        threads: usize,
    ) -> GoResult<Vec<Option<Class>>> {
        self.unfinished.clear();
        let (reps, keeping) = self.orbits(seq, asked)?;
        // (one question of each vertex is asked on one thread, the answers in order)
        if threads <= 1 || reps.len() < 2 || self.ask_only.is_some() {
            return self.classes_at(seq, asked);
        }
        let threads = threads.min(reps.len());
        let shared = Arc::new(Shared::new(self.node_limit, threads));
        let next = AtomicUsize::new(0);
        let settings = self.settings(threads);
        let mut out: Vec<Option<Class>> = vec![None; self.sg.n];
        let mut failure: Option<GoError> = None;
        let mut stats = LifeStats::default();
        self.at = LifeProgress {
            vertices: asked.len(),
            ..LifeProgress::default()
        };
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::channel::<Report>();
            for w in 0..threads {
                let tx = tx.clone();
                let shared = shared.clone();
                let (reps, next, settings) = (&reps, &next, &settings);
                scope.spawn(move || {
                    let mut cl = Classifier::from_settings(settings);
                    cl.link = Some(Link {
                        shared: shared.clone(),
                        worker: w,
                    });
                    let mut budget = 0u64;
                    let mut path = None;
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= reps.len() || shared.stopped() {
                            break;
                        }
                        let v = reps[i];
                        cl.at.vertex = v;
                        let r = match &mut path {
                            Some(p) => cl.outcome_within(cl_last(seq), v, p, &mut budget),
                            None => match cl.path_of(seq) {
                                Ok(p) => {
                                    let p = path.insert(p);
                                    cl.outcome_within(cl_last(seq), v, p, &mut budget)
                                }
                                Err(e) => Err(e),
                            },
                        };
                        if r.is_err() {
                            shared.stop.store(true, Ordering::Relaxed);
                        }
                        let failed = r.is_err();
                        let _ = tx.send(Report::Class(v, r));
                        if failed {
                            break;
                        }
                    }
                    // visits drawn and not spent go back, for the threads still searching
                    // (before this thread leaves their count, so that none of them finds the
                    // pool empty and every other thread waiting while these are held)
                    shared.pool.fetch_add(budget, Ordering::AcqRel);
                    shared.live.fetch_sub(1, Ordering::AcqRel);
                    shared.tell(w, cl.stats.nodes & 0xFFFF, (0, None));
                    if let Ok(mut working) = shared.working.lock() {
                        working[w] = None;
                    }
                    cl.tally();
                    let _ = tx.send(Report::Done(cl.stats, std::mem::take(&mut cl.at.answers)));
                });
            }
            drop(tx);
            let mut running = threads;
            while running > 0 {
                match rx.recv_timeout(Duration::from_millis(100)) {
                    Ok(Report::Class(_, Ok(None))) => {}
                    Ok(Report::Class(v, Ok(Some(k)))) => {
                        self.found(asked, &keeping, &mut out, v, k);
                    }
                    Ok(Report::Class(_, Err(e))) => {
                        failure.get_or_insert(e);
                    }
                    Ok(Report::Done(s, answers)) => {
                        running -= 1;
                        self.at.answers.extend(answers);
                        stats.nodes += s.nodes;
                        stats.hits += s.hits;
                        stats.entries += s.entries;
                        stats.static_results += s.static_results;
                        stats.estimates += s.estimates;
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        if let Some(tell) = &mut self.progress {
                            self.at.nodes = shared.nodes.load(Ordering::Relaxed);
                            self.at.working = shared
                                .working
                                .lock()
                                .map(|w| w.iter().flatten().copied().collect())
                                .unwrap_or_default();
                            if let Some(&(v, c)) = self.at.working.first() {
                                self.at.vertex = v;
                                self.at.colour = c;
                            }
                            tell(&self.at);
                        }
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            }
        });
        self.at.working.clear();
        self.stats.nodes += stats.nodes;
        self.stats.hits += stats.hits;
        self.stats.static_results += stats.static_results;
        self.stats.entries = stats.entries;
        self.stats.estimates = stats.estimates;
        if let Some(e) = failure {
            // the budget is the classification's: a thread stopped by another's failure
            // reports the first failure
            return Err(e);
        }
        self.left(asked, &out);
        Ok(out)
    }

    /// The settings of each of `threads` threads: under a memory bound, the quarter of it that
    /// one classifier's estimates may take is shared among them.
    fn settings(&self, threads: usize) -> Settings {
        let estimate_bytes = match self.max_resident_bytes {
            Some(b) => self.pn.estimate.max_bytes().min(b / 4 / threads.max(1)),
            None => self.pn.estimate.max_bytes(),
        };
        Settings {
            sg: self.sg.clone(),
            syms: self.syms.clone(),
            table: self.table,
            proof_numbers: self.proof_numbers,
            static_knowledge: self.static_knowledge,
            colour_symmetry: self.colour_symmetry,
            length_step: self.length_step,
            weak_numbers: self.weak_numbers,
            interrupt: self.interrupt.clone(),
            track: self.track,
            node_limit: self.node_limit,
            vertex_node_limit: self.vertex_node_limit,
            max_resident_bytes: self.max_resident_bytes,
            estimate_bytes,
        }
    }

    fn from_settings(s: &Settings) -> Classifier {
        let mut cl = Classifier::with_graph(s.sg.clone(), s.syms.clone(), s.table);
        cl.proof_numbers = s.proof_numbers;
        cl.static_knowledge = s.static_knowledge;
        cl.colour_symmetry = s.colour_symmetry;
        cl.length_step = s.length_step;
        cl.weak_numbers = s.weak_numbers;
        cl.interrupt = s.interrupt.clone();
        cl.track = s.track;
        cl.node_limit = s.node_limit;
        cl.vertex_node_limit = s.vertex_node_limit;
        cl.max_resident_bytes = s.max_resident_bytes;
        cl.set_estimate_bytes(s.estimate_bytes);
        cl
    }
}

/// The last board of a checked sequence.
#[expect(
    clippy::expect_used,
    reason = "path_of refuses an empty sequence before"
)]
fn cl_last(seq: &[Board]) -> crate::go::small::SmallBoard {
    SmallGraph::from_board(seq.last().expect("checked by path_of"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::graph::Graph;
    use crate::go::life::sequence_from_moves;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// A thread that finds the budget spent waits while another holds visits it drew, and takes
    /// those it gives back; it is refused only when every thread still searching waits too, or
    /// once a thread has failed.
    #[test]
    fn a_thread_waits_for_the_visits_another_holds() {
        let shared = Arc::new(Shared::new(CHUNK + 10, 2));
        assert_eq!(shared.take(), CHUNK);
        assert_eq!(shared.take(), 10);
        // the pool is empty and the other thread (this one) still holds visits
        let waiter = {
            let shared = shared.clone();
            std::thread::spawn(move || shared.take())
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(
            !waiter.is_finished(),
            "a thread was refused while visits were held"
        );
        // the other thread ends its vertices and gives back the 300 it did not spend
        shared.pool.fetch_add(300, Ordering::AcqRel);
        shared.live.fetch_sub(1, Ordering::AcqRel);
        assert_eq!(waiter.join().unwrap(), 300);
        // alone and the pool empty: refused at once
        assert_eq!(shared.take(), 0);
        assert_eq!(shared.waiting.load(Ordering::Acquire), 0);
        // two threads both waiting on an empty pool: both refused
        let both = Arc::new(Shared::new(0, 2));
        let ts: Vec<_> = (0..2)
            .map(|_| {
                let s = both.clone();
                std::thread::spawn(move || s.take())
            })
            .collect();
        assert!(ts.into_iter().all(|t| t.join().unwrap() == 0));
        // after a failure, refused whatever the pool holds
        let failed = Shared::new(5000, 2);
        failed.stop.store(true, Ordering::Relaxed);
        assert_eq!(failed.take(), 0);
    }

    /// Visits given back by the last other thread as it leaves are drawn by a waiting thread
    /// at whatever moment of its wait they come (also between its draw and its reading of the
    /// counts), never lost to a refusal.
    #[test]
    fn visits_given_back_at_any_moment_are_drawn() {
        for i in 0..2000u32 {
            let shared = Arc::new(Shared::new(0, 2));
            let waiter = {
                let shared = shared.clone();
                std::thread::spawn(move || shared.take())
            };
            // a different moment of the waiter's loop each time
            let until = std::time::Instant::now() + Duration::from_nanos(u64::from(i % 97) * 1500);
            while std::time::Instant::now() < until {
                std::hint::spin_loop();
            }
            shared.pool.fetch_add(7, Ordering::AcqRel);
            shared.live.fetch_sub(1, Ordering::AcqRel);
            assert_eq!(waiter.join().unwrap(), 7, "iteration {i}");
            assert!(!shared.stopped(), "iteration {i}");
        }
    }

    /// The threads' estimates together stay within the quarter of the memory bound that one
    /// classifier's take, and without a bound each thread has the default.
    #[test]
    fn the_threads_share_the_estimates_bound() {
        let g = Graph::parse("grid:3x3").unwrap();
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        let one = cl.settings(1).estimate_bytes;
        assert_eq!(cl.settings(32).estimate_bytes, one);
        let gib = 1usize << 30;
        cl.set_max_resident_bytes(Some(gib));
        for threads in [1, 2, 4, 32] {
            let each = cl.settings(threads).estimate_bytes;
            assert!(
                each * threads <= gib / 4,
                "{threads} threads: {each} bytes each"
            );
            assert!(each <= one);
        }
        // the table a thread makes of its share rounds it down, so it stays within it too
        let mut t = Classifier::new(&g, Table::Reconstruction).unwrap();
        t.set_estimate_bytes(cl.settings(32).estimate_bytes);
        assert!(t.pn.estimate.max_bytes() <= gib / 4 / 32);
    }

    #[test]
    fn threads_tell_how_far_they_have_come() {
        let g = Graph::parse("grid:3x4").unwrap();
        let seq = sequence_from_moves(&g, "").unwrap();
        let mut cl = Classifier::new(&g, Table::Reconstruction).unwrap();
        let seen: Rc<RefCell<Vec<LifeProgress>>> = Rc::default();
        let told = seen.clone();
        cl.progress = Some(Box::new(move |p: &LifeProgress| {
            told.borrow_mut().push(p.clone())
        }));
        let all: Vec<usize> = (0..g.n).collect();
        let ks = cl.classes_at_parallel(&seq, &all, 2).unwrap();
        assert!(ks.iter().all(|k| *k == Some(Class::N)), "{ks:?}");
        let seen = seen.borrow();
        // a tell every tenth of a second, over a search of more than a million visits
        assert!(
            seen.iter().any(|p| !p.working.is_empty() && p.nodes > 0),
            "{seen:?}"
        );
        for p in seen.iter() {
            assert_eq!(p.vertices, 12);
            assert!(p.working.len() <= 2 && p.working.iter().all(|&(v, _)| v < 12));
            assert!(p.nodes <= cl.stats.nodes);
        }
    }
}
