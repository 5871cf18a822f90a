//! A classifier kept between calls: the rules ask for the classes of one graph many times (every
//! vertex, every option), so the classifier of the graph last asked about is kept with its memo,
//! which is emptied when it grows past a cap.

use super::{Class, Classifier, Table};
use crate::go::board::Board;
use crate::go::error::GoResult;
use crate::go::graph::Graph;
use std::cell::RefCell;

thread_local! {
    /// The classifier of the graph last asked about, with its memo: `classes` and `outcome` are
    /// called many times on one graph (every vertex, every option).
    static CLASSIFIER: RefCell<Option<(Graph, Classifier)>> =
        const { RefCell::new(None) };
}

/// Entries kept in the cached classifier's memo before it is emptied.
const CLASSIFIER_MEMO_CAP: usize = 5_000_000;

/// The classes of every vertex after the regular sequence `seq` (under the reconstruction's
/// table), or of vertex `only`, by the classifier of `g` kept from the last call.
pub fn cached_classes(g: &Graph, seq: &[Board], only: Option<usize>) -> GoResult<Vec<Class>> {
    CLASSIFIER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let c = match &mut *slot {
            Some((h, c)) if h.adjacency == g.adjacency => c,
            _ => {
                &mut slot
                    .insert((g.clone(), Classifier::new(g, Table::Reconstruction)?))
                    .1
            }
        };
        if c.stats.entries > CLASSIFIER_MEMO_CAP {
            c.clear();
        }
        match only {
            None => c.classes(seq),
            Some(v) => c.class_of(seq, v).map(|k| vec![k]),
        }
    })
}
