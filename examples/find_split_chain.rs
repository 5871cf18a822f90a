#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark or an example, not the library: a failed unwrap stops it
//! Searches for the situation seed 004 uses to explain the second condition of a
//! Chinese-style terminable sequence: two stones of one chain with different outcome classes (a
//! chain that looks dead, but in whose captured area a living group can be built).
//!
//! From the empty board the classes of graphs large enough for this are out of reach, so the
//! search looks at nearly full boards: every board of a graph with at most `max-empty` empty
//! points and a chain of two stones or more in atari, as a regular sequence of that one board,
//! is classified; the first board with a split
//! chain is printed (values -1 black, 1 white, 0 empty, in vertex order), which tests/suite/go_life.rs
//! keeps.
//!
//! cargo run --release --example find_split_chain [max-empty] [graph ...]
//!
//! `NODES=N` sets the node limit of one classification (default 300,000); boards over it are
//! counted and skipped. With `NODES=30000000` the first board found is on `path:5`:
//! `[-1, 0, -1, -1, -1]`, classes WWWPP.

use okite::go::board::{Board, Color};
use okite::go::graph::Graph;
use okite::go::life::{Classifier, Table};
use std::collections::HashSet;

fn main() {
    let max_empty: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let specs: Vec<String> = std::env::args().skip(2).collect();
    let specs = if specs.is_empty() {
        [
            "path:6", "cycle:6", "grid:2x3", "path:7", "cycle:7", "grid:2x4", "grid:3x3",
        ]
        .map(String::from)
        .to_vec()
    } else {
        specs
    };
    for spec in &specs {
        let spec = spec.as_str();
        let g = match Graph::parse(spec) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{spec}: {e:?}");
                continue;
            }
        };
        let mut cl = match Classifier::new(&g, Table::Reconstruction) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{spec}: {e:?}");
                continue;
            }
        };
        cl.node_limit = std::env::var("NODES")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(300_000);
        let n = g.n;
        let mut tried = 0;
        let mut over = 0;
        for code in 0..3u64.pow(n as u32) {
            let mut vals = vec![0i8; n];
            let mut x = code;
            for v in vals.iter_mut() {
                *v = (x % 3) as i8 - 1;
                x /= 3;
            }
            if vals.iter().filter(|&&v| v == 0).count() > max_empty {
                continue;
            }
            let b = Board::from_values(&vals);
            if !b.is_board(&g) {
                continue;
            }
            // A chain of two stones or more in atari: the one whose fate can split.
            let in_atari = [Color::Black, Color::White].iter().any(|&c| {
                b.chains(&g, c)
                    .iter()
                    .any(|ch| ch.len() >= 2 && b.liberties(&g, ch).len() == 1)
            });
            if !in_atari {
                continue;
            }
            tried += 1;
            let Ok(classes) = cl.classes(&[b]) else {
                cl.clear();
                over += 1;
                continue;
            };
            if cl.stats.entries > 5_000_000 {
                cl.clear();
            }
            for c in [Color::Black, Color::White] {
                for chain in b.chains(&g, c) {
                    let ks: HashSet<char> = chain.iter().map(|v| classes[v].letter()).collect();
                    if ks.len() > 1 {
                        let letters: String = classes.iter().map(|k| k.letter()).collect();
                        println!(
                            "{spec}: board {:?}, classes {letters}, chain {:?}",
                            vals,
                            chain.iter().map(|v| g.names[v].clone()).collect::<Vec<_>>()
                        );
                        return;
                    }
                }
            }
        }
        eprintln!("{spec}: nothing among {tried} boards ({over} over the node limit)");
    }
    println!("nothing found");
}
