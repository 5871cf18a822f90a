#![forbid(unsafe_code)]
//! The items of a batch answered side by side: handed out one at a time to the jobs as they
//! come free, the answers given back in the order of the items, each as soon as every one
//! before it is (the batches of `tsume` and `game`).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Answers each of `items` on `jobs` threads: each thread makes its state with `start` (a
/// thread whose start gives nothing answers nothing), then answers items with `answer`;
/// `emit` gets each item's index and answer in the order of `items`.
pub(super) fn in_order<T: Sync, S, A: Send>(
    items: &[T],
    jobs: usize,
    start: impl Fn() -> Option<S> + Sync,
    answer: impl Fn(&mut S, &T) -> A + Sync,
    emit: impl FnMut(usize, A),
) {
    in_order_on(items, jobs, None, start, answer, emit);
}

/// [`in_order`] on threads of `stack` bytes of stack each (the searches recurse deeply), where
/// given: the number of threads that started (none when the system refuses them all; the
/// items are then not answered).
pub(super) fn in_order_on<T: Sync, S, A: Send>(
    items: &[T],
    jobs: usize,
    stack: Option<usize>,
    start: impl Fn() -> Option<S> + Sync,
    answer: impl Fn(&mut S, &T) -> A + Sync,
    mut emit: impl FnMut(usize, A),
) -> usize {
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(usize, A)>();
    let mut started = 0;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let (next, start, answer) = (&next, &start, &answer);
            let job = move || {
                let Some(mut state) = start() else {
                    return;
                };
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(item) = items.get(i) else {
                        break;
                    };
                    if tx.send((i, answer(&mut state, item))).is_err() {
                        break;
                    }
                }
            };
            let mut b = std::thread::Builder::new();
            if let Some(bytes) = stack {
                b = b.stack_size(bytes);
            }
            if b.spawn_scoped(scope, job).is_ok() {
                started += 1;
            }
        }
        drop(tx);
        let mut waiting: BTreeMap<usize, A> = BTreeMap::new();
        let mut emitted = 0;
        for (i, a) in rx {
            waiting.insert(i, a);
            while let Some(a) = waiting.remove(&emitted) {
                emit(emitted, a);
                emitted += 1;
            }
        }
    });
    started
}
