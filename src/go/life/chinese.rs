//! Chinese-style terminable sequences and the Chinese score (seed 004), from the outcome classes
//! of every vertex.
//!
//! A regular sequence is Chinese-terminable when [reconstruction] (1) no vertex has class 𝓝 and
//! (2) the vertices of one chain of its last board share one class. Its Chinese score `s_c`,
//! White minus Black, counts the vertices of class 𝓦 and the 𝓟 white stones, minus the same for
//! Black; the seed defines it for terminable sequences only.

use super::Class;
use crate::go::board::Board;
use crate::go::graph::Graph;

/// Whether a sequence whose last board is `last` and whose classes are `classes` is
/// Chinese-terminable.
pub fn terminable(g: &Graph, last: &Board, classes: &[Class]) -> bool {
    if classes.contains(&Class::N) {
        return false;
    }
    (0..g.n).all(|v| {
        g.adjacency[v]
            .iter()
            .all(|w| last.get(v) != last.get(w) || classes[v] == classes[w])
    })
}

/// The Chinese score of a terminable sequence, or `None` when it is not terminable.
pub fn chinese_score(g: &Graph, last: &Board, classes: &[Class]) -> Option<i64> {
    if !terminable(g, last, classes) {
        return None;
    }
    Some(
        classes
            .iter()
            .enumerate()
            .map(|(v, k)| match k {
                Class::W => 1,
                Class::B => -1,
                Class::P => last.get(v) as i64,
                Class::N => 0,
            })
            .sum(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::board::Color;

    #[test]
    fn one_chain_split_between_two_classes_is_not_terminable() {
        let g = Graph::parse("path:3").unwrap();
        let (b, _) = Board::empty().play(&g, 0, Color::Black, false).unwrap();
        let (b, _) = b.play(&g, 1, Color::Black, false).unwrap();
        assert!(terminable(&g, &b, &[Class::B, Class::B, Class::B]));
        assert!(!terminable(&g, &b, &[Class::B, Class::P, Class::B]));
        assert!(!terminable(&g, &b, &[Class::B, Class::B, Class::N]));
        assert_eq!(
            chinese_score(&g, &b, &[Class::B, Class::B, Class::B]),
            Some(-3)
        );
        // 𝓟 stones count for their owner, an empty 𝓟 point for nobody
        assert_eq!(
            chinese_score(&g, &b, &[Class::P, Class::P, Class::P]),
            Some(-2)
        );
        assert_eq!(chinese_score(&g, &b, &[Class::B, Class::P, Class::N]), None);
    }
}
