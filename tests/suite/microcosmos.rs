//! Microcosmos (ミクロコスモス, 橋本孝治, 1,525 plies; its position and its published solution in
//! the public test data): proved by the df-pn search, and its line replays as a mate.

use crate::common::oracles;
use okite::shogi::dfpn::{solve, MateLength, MateOptions, MateStatus};
use okite::shogi::mate1::is_mating_line;
use okite::shogi::position::Position;

/// The slow searches, run by .ci/run after the test command of README.md:
/// `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// Microcosmos is proved and its line replays as a mate. About a minute on one core (the
    /// 120-second target is measured by scripts/bench.sh); the 600-second budget here only keeps a
    /// slow machine from hanging (MICRO_MS and MICRO_MB set the budget and the table).
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn microcosmos_is_proved() {
        if !oracles::present() {
            return;
        }
        let tsv = std::fs::read_to_string(oracles::path("curated.tsv")).unwrap();
        let row = tsv
            .lines()
            .find(|l| l.starts_with("kh-microcosmos\t"))
            .unwrap();
        let p = Position::from_sfen(row.split('\t').nth(1).unwrap()).unwrap();
        let env = |k: &str, d: u64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        let opts = MateOptions {
            max_ms: env("MICRO_MS", 600_000),
            hash_mb: env("MICRO_MB", 1024) as usize,
            length: MateLength::Any,
            ..Default::default()
        };
        let r = solve(&p, &opts);
        println!(
            "microcosmos: {:?}, {} plies, {} nodes, {} ms",
            r.result, r.plies, r.nodes, r.ms
        );
        assert_eq!(r.result, MateStatus::Mate);
        // futile interpositions only lengthen a strict mate: no proof is shorter than 1,525
        assert!(r.plies >= 1525, "{}", r.plies);
        assert_eq!(r.pv.len() as u32, r.plies);
        assert!(is_mating_line(&p, &r.pv));
    }
}
