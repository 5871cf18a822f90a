//! Several threads on one problem, sharing the transposition table.
//!
//! Each search of the root with a ply budget (see `solver`) is run by every thread at once, from
//! the root, on the same table: what one thread proves or searches further, the others read
//! there. The threads spread out by two means:
//! - a thread marks the positions it is searching (a small table of counters indexed by the
//!   position's key); when a thread chooses a child, one that another thread is in counts as if
//!   its number were twice as large (a virtual proof or disproof number), so that of two children
//!   of about equal promise the threads take different ones;
//! - at every step a node reads its children's values from the table again, so that a child
//!   another thread has resolved or searched further is seen at once.
//!
//! The first thread to resolve the root ends the others' search; its value is the root's. A proof
//! or disproof is one whichever thread builds it, so the results are the same as with one thread;
//! the time and the node counts are not. The node limit holds for each thread; the node count of
//! the result is that of all threads.
//!
//! Under the broad reading the results that depend on the history are kept on each thread's own
//! path (see `search`), so those searches run on one thread; so do the shortest budgets (three
//! plies and fewer), which are over before the threads could start.

use super::path::History;
use super::path::Path;
use super::search::{Buffers, Search};
use super::val::Val;
use crate::shogi::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};
use std::sync::Arc;

/// The most threads a search runs.
pub const MAX_THREADS: usize = 32;

/// Counters of the positions being searched.
const BUSY: usize = 1 << 16;

/// Budgets up to which the root is searched on one thread.
const ALONE_UP_TO: u32 = 3;

/// The threads a solver runs: their count and the working memory of all but the first, kept
/// from one problem to the next.
pub(super) struct Crew {
    threads: usize,
    buffers: Vec<Buffers>,
    busy: Arc<[AtomicU16]>,
}

impl Crew {
    /// One thread.
    pub(super) fn new() -> Crew {
        Crew {
            threads: 1,
            buffers: Vec::new(),
            busy: Arc::from(Vec::new()),
        }
    }

    pub(super) fn threads(&self) -> usize {
        self.threads
    }

    /// Sets the number of threads (from one to `MAX_THREADS`).
    pub(super) fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
        self.buffers.truncate(self.threads - 1);
        while self.buffers.len() < self.threads - 1 {
            self.buffers.push(Buffers::new());
        }
        if self.threads > 1 && self.busy.is_empty() {
            self.busy = (0..BUSY).map(|_| AtomicU16::new(0)).collect();
        }
    }
}

/// What one thread's search knows of the others.
#[derive(Default)]
pub(super) struct Team<'a> {
    /// The crew, held by the first thread between searches of the root.
    crew: Option<&'a mut Crew>,
    /// Set while other threads search the same root.
    link: Option<Link>,
}

/// The state the threads searching one root share.
#[derive(Clone)]
struct Link {
    /// Set when the root is resolved (or the first thread is done): every thread stops.
    done: Arc<AtomicBool>,
    busy: Arc<[AtomicU16]>,
}

#[inline]
fn busy_index(key: u64) -> usize {
    (key >> 40) as usize % BUSY
}

impl<'a> Team<'a> {
    /// The first thread's team, with the crew.
    pub(super) fn new(crew: &'a mut Crew) -> Team<'a> {
        Team {
            crew: Some(crew),
            link: None,
        }
    }

    /// Do other threads search the same root now?
    #[inline]
    pub(super) fn shared(&self) -> bool {
        self.link.is_some()
    }

    /// Has the root been resolved by some thread?
    #[inline]
    pub(super) fn halted(&self) -> bool {
        self.link.as_ref().is_some_and(|l| l.done.load(Relaxed))
    }

    /// This thread searches the position with full key `key`.
    #[inline]
    pub(super) fn enter(&self, key: u64) {
        if let Some(l) = &self.link {
            l.busy[busy_index(key)].fetch_add(1, Relaxed);
        }
    }

    /// This thread is done with the position with full key `key`.
    #[inline]
    pub(super) fn leave(&self, key: u64) {
        if let Some(l) = &self.link {
            l.busy[busy_index(key)].fetch_sub(1, Relaxed);
        }
    }

    /// Is some thread searching the position with full key `key` (or one whose counter it
    /// shares)?
    #[inline]
    pub(super) fn busy(&self, key: u64) -> bool {
        self.link
            .as_ref()
            .is_some_and(|l| l.busy[busy_index(key)].load(Relaxed) != 0)
    }
}

/// What a helper thread hands back: its value of the root, its nodes, its deepest path and
/// whether it cut a line at the depth limit.
struct Outcome {
    v: Val,
    nodes: u64,
    max_depth: u32,
    capped: bool,
}

impl Search<'_> {
    /// Searches the root to a result with `budget` plies: with the crew's threads when there
    /// are several (see the module documentation), else on this thread.
    pub(super) fn root(&mut self, p: &mut Position, budget: u32) -> Val {
        let crew = match self.team.crew.take() {
            Some(c) if c.threads > 1 && budget > ALONE_UP_TO && !self.broad => c,
            other => {
                self.team.crew = other;
                return self.root_alone(p, budget);
            }
        };
        let link = Link {
            done: Arc::new(AtomicBool::new(false)),
            busy: crew.busy.clone(),
        };
        let table = self.tt.table();
        let max_nodes = if self.max_nodes == 0 {
            0
        } else {
            self.max_nodes.saturating_sub(self.nodes).max(1)
        };
        let outcomes: Vec<Option<Outcome>> = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for b in crew.buffers.iter_mut() {
                b.rep_table.clear();
                b.children.clear();
                b.scratch.clear();
                b.mate_buf.clear();
                let mut h = Search {
                    tt: table.handle(true),
                    attacker: self.attacker,
                    reading: self.reading,
                    broad: false,
                    nodes: 0,
                    max_nodes,
                    deadline: self.deadline,
                    stop_flag: self.stop_flag.clone(),
                    stopped: false,
                    next_check: 0,
                    next_report: u64::MAX,
                    t0: self.t0,
                    progress: None,
                    best_plies: self.best_plies,
                    path: Path::new(),
                    history: History::default(),
                    rep_table: &mut b.rep_table,
                    children: &mut b.children,
                    scratch: &mut b.scratch,
                    capped: false,
                    max_depth: 0,
                    mate_buf: &mut b.mate_buf,
                    defer: false,
                    team: Team {
                        crew: None,
                        link: Some(link.clone()),
                    },
                };
                let mut hp = p.clone();
                let spawned = std::thread::Builder::new()
                    .stack_size(1 << 30)
                    .spawn_scoped(scope, move || {
                        let v = h.root_alone(&mut hp, budget);
                        if v.resolved() {
                            h.team.finish();
                        }
                        h.tt.flush();
                        Outcome {
                            v,
                            nodes: h.nodes,
                            max_depth: h.max_depth,
                            capped: h.capped,
                        }
                    });
                // A thread the system refuses is one helper fewer.
                if let Ok(j) = spawned {
                    handles.push(j);
                }
            }
            self.team.link = Some(link.clone());
            self.tt.share(true);
            let v = self.root_alone(p, budget);
            self.team.finish();
            self.tt.share(false);
            self.team.link = None;
            let mut all = vec![Some(Outcome {
                v,
                nodes: 0,
                max_depth: 0,
                capped: false,
            })];
            all.extend(handles.into_iter().map(|j| j.join().ok()));
            all
        });
        self.team.crew = Some(crew);
        let first = outcomes
            .first()
            .and_then(|o| o.as_ref())
            .map_or(Val::unknown(1, 1), |o| o.v);
        let mut value = None;
        for o in outcomes.into_iter().flatten() {
            self.nodes += o.nodes;
            self.max_depth = self.max_depth.max(o.max_depth);
            self.capped |= o.capped;
            if value.is_none() && o.v.resolved() {
                value = Some(o.v);
            }
        }
        match value {
            Some(v) => {
                // Stopped because another thread resolved the root: not a limit reached.
                self.stopped = false;
                v
            }
            None => first,
        }
    }
}

impl Team<'_> {
    /// Ends the other threads' search of the root.
    fn finish(&self) {
        if let Some(l) = &self.link {
            l.done.store(true, Relaxed);
        }
    }
}
