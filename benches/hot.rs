#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark or an example, not the library: a failed unwrap stops it
//! The hot paths of the native engines, timed by divan: move generation and counting, check
//! generation, mate in one, the 3-ply routine, the df-pn search on short problems, and on the Go
//! side the board count of a grid, one move on a board and the outcome classes of a small board.
//! Inputs are the public test data beside the project (../shared/shogi-oracles, the sets named in its
//! README).
//!
//! cargo bench --bench hot

use divan::{black_box, Bencher};
use okite::go::board::{Board, Color};
use okite::go::graph::Graph;
use okite::go::life::{Classifier, Table};
use okite::shogi::checks::generate_checks;
use okite::shogi::dfpn::{MateLength, MateOptions, MateSolver, MateStatus};
use okite::shogi::{mate_in_1, mate_in_3, perft, MoveList, Position};

fn main() {
    divan::main();
}

/// The first `n` positions of a tsume set.
fn set(name: &str, n: usize) -> Vec<Position> {
    let path = format!(
        "{}/../shared/shogi-oracles/tsume/nshogi/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(n)
        .map(|l| Position::from_sfen(l.trim()).expect("a set's SFEN"))
        .collect()
}

/// The positions one check away from the first problems of the mate-3 set (the defender in
/// check, as at every new position after a check in the mate search).
fn after_checks() -> Vec<Position> {
    set("mate-3-ply.sfen", 100)
        .iter()
        .flat_map(|p| p.legal_checks().into_iter().map(move |m| p.after(m)))
        .collect()
}

#[divan::bench]
fn perft_start_depth_3(b: Bencher) {
    let mut p = Position::startpos();
    b.bench_local(|| perft(black_box(&mut p), 3));
}

#[divan::bench]
fn legal_moves_mate_3_set(b: Bencher) {
    let ps = set("mate-3-ply.sfen", 500);
    b.bench_local(|| ps.iter().map(|p| p.legal_moves().len()).sum::<usize>());
}

#[divan::bench]
fn count_legal_after_checks(b: Bencher) {
    let ps = after_checks();
    b.bench_local(|| ps.iter().map(|p| p.count_legal()).sum::<usize>());
}

#[divan::bench]
fn checks_mate_3_set(b: Bencher) {
    let ps = set("mate-3-ply.sfen", 500);
    b.bench_local(|| {
        let mut n = 0;
        for p in &ps {
            let mut l = MoveList::new();
            generate_checks(p, &mut l);
            n += l.len();
        }
        n
    });
}

#[divan::bench(args = ["mate-1-ply.sfen", "no-mate-1-ply.sfen"])]
fn mate_in_1_set(b: Bencher, name: &str) {
    let ps = set(name, 800);
    b.bench_local(|| ps.iter().filter(|p| mate_in_1(p).is_some()).count());
}

#[divan::bench(sample_count = 10)]
fn mate_in_3_routine(b: Bencher) {
    let ps = set("mate-3-ply.sfen", 50);
    b.bench_local(|| ps.iter().filter(|p| mate_in_3(p).is_some()).count());
}

#[divan::bench(args = ["mate-5-ply.sfen", "mate-7-ply.sfen"], sample_count = 10)]
fn dfpn_first_50(b: Bencher, name: &str) {
    let ps = set(name, 50);
    let mut solver = MateSolver::new(64);
    let opts = MateOptions {
        length: MateLength::Any,
        ..Default::default()
    };
    b.bench_local(|| {
        let solved = ps
            .iter()
            .filter(|p| solver.solve(p, &opts).result == MateStatus::Mate)
            .count();
        assert_eq!(solved, ps.len());
        solved
    });
}

#[divan::bench(args = [4, 5, 6])]
fn go_count_grid(b: Bencher, n: usize) {
    let g = Graph::parse(&format!("grid:{n}x{n}")).expect("a grid");
    b.bench_local(|| okite::go::count::count_boards(&g).expect("a count"));
}

#[divan::bench]
fn go_play_19x19(b: Bencher) {
    let g = Graph::parse("grid:19x19").expect("a grid");
    let mut board = Board::empty();
    // A board with some stones; each sample plays on an empty point.
    for v in (0..g.n).step_by(7) {
        let c = if v % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        if let Ok((nb, _)) = board.play(&g, v, c, false) {
            board = nb;
        }
    }
    b.bench_local(|| board.play(&g, black_box(180), Color::Black, false).is_ok());
}

#[divan::bench(args = ["grid:2x2", "grid:2x3", "cycle:5"], sample_count = 10)]
fn go_classes_empty(b: Bencher, spec: &str) {
    let g = Graph::parse(spec).expect("a graph");
    b.bench_local(|| {
        let mut c = Classifier::new(&g, Table::Reconstruction).expect("a small graph");
        c.classes(&[Board::empty()]).expect("classes")
    });
}
