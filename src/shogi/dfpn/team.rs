//! What one thread's search knows of the others searching the same root (see `parallel`): a
//! flag that ends the search, and counters of the positions being searched.

use std::sync::atomic::{AtomicBool, AtomicU16, Ordering::Relaxed};
use std::sync::Arc;

/// Counters of the positions being searched.
const BUSY: usize = 1 << 16;

/// The counters, shared.
pub(super) type Busy = Arc<[AtomicU16]>;

/// New counters, all zero.
pub(super) fn new_busy() -> Busy {
    (0..BUSY).map(|_| AtomicU16::new(0)).collect()
}

/// What one thread's search knows of the others.
#[derive(Default)]
pub(super) struct Team {
    /// Set while other threads search the same root.
    link: Option<Link>,
}

/// The state the threads searching one root share.
#[derive(Clone)]
pub(super) struct Link {
    /// Set when the root is resolved (or the first thread is done): every thread stops.
    done: Arc<AtomicBool>,
    busy: Busy,
}

#[inline]
fn busy_index(key: u64) -> usize {
    (key >> 40) as usize % BUSY
}

impl Team {
    /// A team searching one root: `done` ends the search, `busy` counts the positions searched.
    pub(super) fn joined(done: Arc<AtomicBool>, busy: Busy) -> Team {
        Team {
            link: Some(Link { done, busy }),
        }
    }

    /// Leaves the team: this thread searches alone.
    pub(super) fn leave_team(&mut self) {
        self.link = None;
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

impl Team {
    /// Ends the other threads' search of the root.
    pub(super) fn finish(&self) {
        if let Some(l) = &self.link {
            l.done.store(true, Relaxed);
        }
    }
}
