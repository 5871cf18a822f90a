//! Several threads on one problem, sharing the transposition table.
//!
//! Each search of the root with a ply budget (see `solver`) is run by every thread at once, from
//! the root, on the same table: what one thread proves or searches further, the others read
//! there. The threads spread out over the attacker's checks: a thread marks the positions it is
//! searching (a small table of counters indexed by the position's key); when a thread chooses a
//! check, one that another thread is in counts as if its proof number were twice as large (a
//! virtual proof number), so that of two checks of about equal promise the threads take
//! different ones. The defender's replies are chosen as on one thread, and a node reads its
//! children from the table when it is entered, not again at each step: reading them again, or
//! spreading the threads over the replies too, made two threads slower (docs/PERFORMANCE.md).
//!
//! The first thread to resolve the root ends the others' search; its value is the root's. A proof
//! or disproof is one whichever thread builds it, so the results are the same as with one thread;
//! the time and the node counts are not. The node limit holds for each thread; the node count of
//! the result is that of all threads.
//!
//! Under the broad reading the results that depend on the history are kept on each thread's own
//! path (see `search`), so those searches run on one thread; so do the shortest budgets (three
//! plies and fewer), which are over before the threads could start.

use super::search::{Buffers, Search};
use super::team::{new_busy, Busy, Team};
use super::val::Val;
use crate::shogi::position::Position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The most threads a search runs.
pub const MAX_THREADS: usize = 32;

/// Budgets up to which the root is searched on one thread.
const ALONE_UP_TO: u32 = 3;

/// The threads a solver runs: their count and the working memory of all but the first, kept
/// from one problem to the next.
pub(super) struct Crew {
    threads: usize,
    buffers: Vec<Buffers>,
    busy: Busy,
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
            self.busy = new_busy();
        }
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

impl Crew {
    /// Searches the root to a result with `budget` plies, `s` the first thread's search: with
    /// the crew's threads when there are several (see the module documentation), else on that
    /// thread alone.
    pub(super) fn root(&mut self, s: &mut Search, p: &mut Position, budget: u32) -> Val {
        if self.threads < 2 || budget <= ALONE_UP_TO || s.broad {
            return s.root_alone(p, budget);
        }
        let crew = self;
        let done = Arc::new(AtomicBool::new(false));
        let table = s.tt.table();
        let max_nodes = if s.max_nodes == 0 {
            0
        } else {
            s.max_nodes.saturating_sub(s.nodes).max(1)
        };
        let outcomes: Vec<Option<Outcome>> = std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for b in crew.buffers.iter_mut() {
                let mut h = Search {
                    broad: false,
                    max_nodes,
                    deadline: s.deadline,
                    stop_flag: s.stop_flag.clone(),
                    best_plies: s.best_plies,
                    team: Team::joined(done.clone(), crew.busy.clone()),
                    ..Search::start(table.handle(true), b, s.attacker, s.reading, s.t0)
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
            s.team = Team::joined(done.clone(), crew.busy.clone());
            s.tt.share(true);
            let v = s.root_alone(p, budget);
            s.team.finish();
            s.tt.share(false);
            s.team.leave_team();
            let mut all = vec![Some(Outcome {
                v,
                nodes: 0,
                max_depth: 0,
                capped: false,
            })];
            all.extend(handles.into_iter().map(|j| j.join().ok()));
            all
        });
        let first = outcomes
            .first()
            .and_then(|o| o.as_ref())
            .map_or(Val::unknown(1, 1), |o| o.v);
        let mut value = None;
        for o in outcomes.into_iter().flatten() {
            s.nodes += o.nodes;
            s.max_depth = s.max_depth.max(o.max_depth);
            s.capped |= o.capped;
            if value.is_none() && o.v.resolved() {
                value = Some(o.v);
            }
        }
        match value {
            Some(v) => {
                // Stopped because another thread resolved the root: not a limit reached.
                s.stopped = false;
                v
            }
            None => first,
        }
    }
}
