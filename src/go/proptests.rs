//! Property tests: the engine against a slow reference written directly from the definitions.

use super::board::{Board, Color};
use super::count::{count_boards_exhaustive, count_boards_grid};
use super::graph::Graph;
use super::rules::{Game, Move, Rules};
use num_bigint::BigUint;
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Reference: configuration as values, graph as an edge set.
#[derive(Debug, Clone)]
struct Reference {
    n: usize,
    edges: BTreeSet<(usize, usize)>,
}

impl Reference {
    fn adjacent(&self, u: usize, v: usize) -> bool {
        self.edges.contains(&(u.min(v), u.max(v)))
    }

    /// The chain [v]: vertices reachable from v inside v's colour class.
    fn chain(&self, c: &[i8], v: usize) -> BTreeSet<usize> {
        let mut set = BTreeSet::from([v]);
        loop {
            let more: Vec<usize> = (0..self.n)
                .filter(|&w| {
                    !set.contains(&w) && c[w] == c[v] && set.iter().any(|&u| self.adjacent(u, w))
                })
                .collect();
            if more.is_empty() {
                return set;
            }
            set.extend(more);
        }
    }

    /// l(v) = { w in N | exists u in [v] with uw in E }.
    fn liberties(&self, c: &[i8], v: usize) -> BTreeSet<usize> {
        let ch = self.chain(c, v);
        (0..self.n)
            .filter(|&w| c[w] == 0 && ch.iter().any(|&u| self.adjacent(u, w)))
            .collect()
    }

    fn is_board(&self, c: &[i8]) -> bool {
        (0..self.n).all(|v| c[v] == 0 || !self.liberties(c, v).is_empty())
    }

    /// A stone of colour `col` (-1 or 1) put at empty v and the opponent's stones whose one
    /// liberty was v taken off, the mover's own chain as it stands; None if v is occupied.
    fn place_and_capture(&self, c: &[i8], v: usize, col: i8) -> Option<Vec<i8>> {
        if c[v] != 0 {
            return None;
        }
        let mut out = c.to_vec();
        out[v] = col;
        for w in 0..self.n {
            if c[w] == -col && self.liberties(c, w) == BTreeSet::from([v]) {
                out[w] = 0;
            }
        }
        Some(out)
    }

    /// The move of colour `col` (-1 or 1) at empty v; None if forbidden.
    fn play(&self, c: &[i8], v: usize, col: i8) -> Option<Vec<i8>> {
        self.place_and_capture(c, v, col)
            .filter(|out| self.is_board(out))
    }

    /// The move with multi-stone suicide allowed: a chain of the mover without liberties
    /// after the captures is removed (a lone stone stays forbidden).
    fn play_suicide(&self, c: &[i8], v: usize, col: i8) -> Option<Vec<i8>> {
        let mut out = self.place_and_capture(c, v, col)?;
        if self.liberties(&out, v).is_empty() {
            let ch = self.chain(&out, v);
            if ch.len() == 1 {
                return None;
            }
            for w in ch {
                out[w] = 0;
            }
        }
        Some(out)
    }
}

fn random_graph() -> impl Strategy<Value = (Graph, Reference)> {
    (1usize..=8)
        .prop_flat_map(|n| {
            (
                Just(n),
                proptest::collection::vec(0usize..1000, n),
                proptest::collection::vec((0usize..n, 0usize..n), 0..12),
            )
        })
        .prop_map(|(n, parents, extra)| {
            let mut edges = BTreeSet::new();
            for (v, &parent) in parents.iter().enumerate().skip(1) {
                edges.insert((parent % v, v));
            }
            for (a, b) in extra {
                if a != b {
                    edges.insert((a.min(b), a.max(b)));
                }
            }
            let list: Vec<_> = edges.iter().copied().collect();
            let g = Graph::from_edges((0..n).map(|i| i.to_string()).collect(), &list).unwrap();
            (g, Reference { n, edges })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn dp_matches_exhaustive(r in 1usize..=3, c in 1usize..=4) {
        let g = Graph::grid(r, c).unwrap();
        let ex = count_boards_exhaustive(&g).unwrap();
        prop_assert_eq!(count_boards_grid(r, c).unwrap(), BigUint::from(ex));
    }

    #[test]
    fn moves_match_reference((g, reference) in random_graph(), moves in proptest::collection::vec((0usize..8, any::<bool>()), 0..40)) {
        let mut c = vec![0i8; g.n];
        let mut game = Game::new(g.clone(), Rules::seed());
        let mut seen = vec![c.clone()];
        for (v, black) in moves {
            let v = v % g.n;
            let col = if black { Color::Black } else { Color::White };
            let expected = reference.play(&c, v, col.value()).filter(|nc| !seen.contains(nc));
            let got = game.play(col, Move::Place(v));
            prop_assert_eq!(got.is_ok(), expected.is_some());
            // Board::play without history agrees with the reference move.
            let raw = Board::from_values(&c).play(&g, v, col, false).ok().map(|x| x.0.values(g.n));
            prop_assert_eq!(raw, reference.play(&c, v, col.value()));
            if let Some(nc) = expected {
                prop_assert_eq!(game.board.values(g.n), nc.clone());
                prop_assert!(reference.is_board(&nc));
                prop_assert!(game.board.is_board(&g));
                seen.push(nc.clone());
                c = nc;
            }
        }
    }

    #[test]
    fn suicide_rule_matches_reference((g, reference) in random_graph(), moves in proptest::collection::vec((0usize..8, any::<bool>()), 0..40)) {
        let mut c = vec![0i8; g.n];
        let rules = Rules::preset("suicide").unwrap();
        let mut game = Game::new(g.clone(), rules);
        let mut seen = vec![c.clone()];
        for (v, black) in moves {
            let v = v % g.n;
            let col = if black { Color::Black } else { Color::White };
            let expected = reference.play_suicide(&c, v, col.value()).filter(|nc| !seen.contains(nc));
            let got = game.play(col, Move::Place(v));
            prop_assert_eq!(got.is_ok(), expected.is_some());
            if let Some(nc) = expected {
                prop_assert_eq!(game.board.values(g.n), nc.clone());
                seen.push(nc.clone());
                c = nc;
            }
        }
    }

    #[test]
    fn is_board_matches_reference((g, reference) in random_graph(), vals in proptest::collection::vec(-1i8..=1, 8)) {
        let c = &vals[..g.n];
        prop_assert_eq!(Board::from_values(c).is_board(&g), reference.is_board(c));
    }

    #[test]
    fn exhaustive_count_matches_reference((g, reference) in random_graph()) {
        prop_assume!(g.n <= 6);
        let mut count = 0u64;
        let total = 3usize.pow(g.n as u32);
        for code in 0..total {
            let mut x = code;
            let c: Vec<i8> = (0..g.n).map(|_| { let d = (x % 3) as i8 - 1; x /= 3; d }).collect();
            if reference.is_board(&c) {
                count += 1;
            }
        }
        prop_assert_eq!(count_boards_exhaustive(&g).unwrap(), count);
    }

    #[test]
    fn parsers_never_panic(s in ".{0,40}") {
        let _ = Graph::parse(&s);
        let _ = Graph::from_edge_list(&s);
        let _ = super::sgf::parse_sgf(&s);
        let _ = Rules::preset(&s);
    }

    #[test]
    fn sgf_like_never_panics(s in "[()\\[\\];A-Za-z0-9:\\\\ ]{0,40}") {
        if let Ok(r) = super::sgf::parse_sgf(&s) {
            let _ = r.replay(&s, Rules::seed());
        }
        let _ = Graph::parse(&format!("grid:{s}"));
    }
}
