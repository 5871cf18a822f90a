#![forbid(unsafe_code)]
//! Collections that cache their hash: large values (positions, games) are memo keys.

use std::fmt;
use std::hash::Hasher;
use std::rc::Rc;

/// A collection with its hash computed once: large values (positions, games) are memo keys, and
/// hashing them again at every call would dominate evaluation.
pub struct Coll<T> {
    /// The collection.
    pub inner: T,
    hash: std::cell::OnceCell<u64>,
}

impl<T> Coll<T> {
    /// `inner`, its hash not computed yet.
    pub fn new(inner: T) -> Coll<T> {
        Coll {
            inner,
            hash: std::cell::OnceCell::new(),
        }
    }
    /// The collection itself, without copying when this is its only reference.
    pub fn take(rc: Rc<Coll<T>>) -> T
    where
        T: Clone,
    {
        match Rc::try_unwrap(rc) {
            Ok(c) => c.inner,
            Err(rc) => rc.inner.clone(),
        }
    }
}

impl<T> std::ops::Deref for Coll<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T: fmt::Debug> fmt::Debug for Coll<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.fmt(f)
    }
}

/// The hash of the collection, computed by `f` the first time only.
pub(crate) fn cached_hash<T>(c: &Coll<T>, f: impl FnOnce(&mut rustc_hash::FxHasher)) -> u64 {
    *c.hash.get_or_init(|| {
        let mut h = rustc_hash::FxHasher::default();
        f(&mut h);
        h.finish()
    })
}
