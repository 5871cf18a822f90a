//! The solver: a table kept across problems, the search deepened to the shortest mate, and the
//! result with its line.

use super::api::{MateLength, MateOptions, MateResult, MateStatus};
use super::hand;
use super::parallel::Crew;
use super::search::{Buffers, Search};
use super::table::Table;
use super::val::NO_LIMIT;
use crate::shogi::position::Position;
use rustc_hash::FxHashMap;
use std::time::Instant;

/// A reusable mate solver: its transposition table is allocated once and kept across problems
/// (entries of earlier problems are ignored).
pub struct MateSolver {
    tt: Table,
    buffers: Buffers,
    hash_mb: usize,
    crew: Crew,
}

impl MateSolver {
    /// A solver with a table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> MateSolver {
        MateSolver {
            tt: Table::new(hash_mb),
            buffers: Buffers::new(),
            hash_mb,
            crew: Crew::new(),
        }
    }

    /// Searches with `n` threads sharing the table (at least one; see `parallel`).
    pub fn set_threads(&mut self, n: usize) {
        self.crew.set_threads(n);
    }

    /// The number of threads a search runs.
    pub fn threads(&self) -> usize {
        self.crew.threads()
    }

    /// The table size asked for.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Searches for a mate for the side to move in the last position of `history` (the game
    /// so far, oldest first; under the narrow readings only the last position matters).
    /// Runs on the calling thread: deep searches need a large stack (see [`with_stack`]).
    pub fn solve_history(&mut self, history: &[Position], opts: &MateOptions) -> MateResult {
        let t0 = Instant::now();
        let Some(pos) = history.last() else {
            return MateResult {
                result: MateStatus::NoMate,
                plies: 0,
                pv: Vec::new(),
                nodes: 0,
                ms: 0,
                shortest: false,
                max_depth: 0,
                lower_bound: 0,
            };
        };
        self.tt.new_search(self.crew.threads() > 1);
        let attacker = pos.side_to_move();
        let mut s = Search {
            max_nodes: opts.max_nodes,
            deadline: (opts.max_ms > 0).then(|| t0 + std::time::Duration::from_millis(opts.max_ms)),
            stop_flag: opts.stop.clone(),
            next_report: 100_000,
            progress: opts.progress.clone(),
            ..Search::start(
                self.tt.handle(false),
                &mut self.buffers,
                attacker,
                opts.reading,
                t0,
            )
        };
        if s.broad {
            for q in &history[..history.len() - 1] {
                s.history.push(q);
            }
        }
        let done = |s: &Search, result, plies, pv, shortest| MateResult {
            result,
            plies,
            pv,
            nodes: s.nodes,
            ms: t0.elapsed().as_millis() as u64,
            shortest,
            max_depth: s.max_depth,
            lower_bound: 0,
        };
        // Every hand count must fit its field however the pieces move between the hands: true
        // when the material is possible (no more pieces of a kind than the game has).
        let hands_fit = hand::pack(&pos.hands[0]).is_some()
            && hand::pack(&pos.hands[1]).is_some()
            && pos.material_problems().is_empty();
        if pos.king_square(attacker.flip()).is_none() || !hands_fit {
            return done(&s, MateStatus::NoMate, 0, Vec::new(), false);
        }
        let limit = if opts.max_plies == 0 {
            NO_LIMIT
        } else {
            opts.max_plies.min(NO_LIMIT - 1)
        };
        let mut p = pos.clone();
        let shortest_wanted = opts.length == MateLength::Shortest;
        // Budgets known to hold no mate.
        let mut no_mate_upto = 0u32;
        let mut proven = None;
        if shortest_wanted {
            // The shortest mates are cheap to rule in or out first.
            let mut b = 1;
            while b <= limit.min(3) {
                let v = self.crew.root(&mut s, &mut p, b);
                if v.pn == 0 {
                    proven = Some(v.len);
                    break;
                }
                if v.dn != 0 {
                    return done(&s, MateStatus::Unknown, 0, Vec::new(), false);
                }
                no_mate_upto = b;
                b += 2;
            }
        }
        let mut best = match proven {
            Some(len) => len,
            None => {
                let v = self.crew.root(&mut s, &mut p, limit);
                if v.pn != 0 {
                    let st = if v.dn == 0 && !s.capped {
                        MateStatus::NoMate
                    } else {
                        MateStatus::Unknown
                    };
                    return done(&s, st, 0, Vec::new(), false);
                }
                v.len
            }
        };
        s.best_plies = best;
        let mut shortest = best <= no_mate_upto + 2;
        // The shortest line proved when the search ended, if it could be read then.
        let mut held = None;
        if shortest_wanted && !shortest {
            let r = s.shorten(&mut self.crew, &mut p, best, no_mate_upto);
            best = r.plies;
            no_mate_upto = r.no_mate_upto;
            shortest = r.shortest;
            held = r.line;
        }
        // The line is read off the tables, whatever the limits.
        s.stopped = false;
        s.max_nodes = 0;
        s.deadline = None;
        s.stop_flag = None;
        let tight = shortest_wanted && shortest;
        let pv = if tight {
            s.pv(&mut p, best, true, held.as_deref())
        } else if let Some(line) = held {
            line
        } else {
            // The length of the mate the proof gives, and its main line.
            let mut memo = FxHashMap::default();
            s.path.clear();
            s.rep_table.clear();
            match s.tree_len(&mut p, 0x5EED, &mut memo) {
                Some(f) => {
                    best = f;
                    s.tree_line(&mut p, &memo)
                }
                None => {
                    let pv = s.pv(&mut p, best.max(1), false, None);
                    best = pv.len() as u32;
                    pv
                }
            }
        };
        let mut r = done(&s, MateStatus::Mate, best, pv, shortest);
        r.lower_bound = lower_bound(best, shortest, no_mate_upto);
        r
    }

    /// [`MateSolver::solve_history`] for a position without history.
    pub fn solve(&mut self, pos: &Position, opts: &MateOptions) -> MateResult {
        self.solve_history(std::slice::from_ref(pos), opts)
    }
}

/// The proved lower bound on the length of a mate of `plies` plies: the length itself when it is
/// the shortest, else the first odd length above the longest budget disproved (mates have odd
/// lengths: the attacker moves last).
pub fn lower_bound(plies: u32, shortest: bool, disproved: u32) -> u32 {
    if shortest {
        plies
    } else if disproved == 0 {
        1.min(plies)
    } else {
        (disproved + 2).min(plies)
    }
}

/// Runs `f` on a thread with a stack large enough for the deepest searches.
pub fn with_stack<R: Send>(f: impl FnOnce() -> R + Send) -> Option<R> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, f)
            .ok()
            .and_then(|h| h.join().ok())
    })
}

/// Searches for a mate for the side to move (a new table of `opts.hash_mb` MiB, a thread with a
/// large stack).
pub fn solve(pos: &Position, opts: &MateOptions) -> MateResult {
    solve_history(std::slice::from_ref(pos), opts)
}

/// Searches for a mate for the side to move in the last position of `history`.
pub fn solve_history(history: &[Position], opts: &MateOptions) -> MateResult {
    let t0 = Instant::now();
    with_stack(|| MateSolver::new(opts.hash_mb).solve_history(history, opts)).unwrap_or(
        MateResult {
            result: MateStatus::Unknown,
            plies: 0,
            pv: Vec::new(),
            nodes: 0,
            ms: t0.elapsed().as_millis() as u64,
            shortest: false,
            max_depth: 0,
            lower_bound: 0,
        },
    )
}
