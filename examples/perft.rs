#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark or an example, not the library: a failed unwrap stops it
//! `cargo run --release --example perft -- [depth] [sfen]`
use okite::shogi::{perft, Position};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(5);
    let sfen = if args.len() > 2 {
        args[2..].join(" ")
    } else {
        "startpos".to_string()
    };
    let mut pos = match Position::from_sfen(&sfen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let t = Instant::now();
    let n = perft(&mut pos, depth);
    let dt = t.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {n} in {dt:.3} s ({:.1} Mnodes/s)",
        n as f64 / dt / 1e6
    );
}
