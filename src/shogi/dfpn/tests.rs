//! Tests of the mate search: the published sets against the exhaustive search, the curated
//! problems, long mates, and (ignored by default) per-set reports.

use super::*;
use crate::shogi::mate1::{is_mating_line, mate_in_n_exhaustive};
use crate::shogi::position::Position;
use crate::shogi::test_data::sfens;
use crate::shogi::types::Move;
use std::time::Instant;

fn run_set(name: &str, expect: u32, take: usize) -> Vec<(String, u32)> {
    let mut odd = Vec::new();
    for s in sfens(name).into_iter().take(take) {
        let p = Position::from_sfen(&s).unwrap();
        let opts = MateOptions {
            hash_mb: 16,
            ..Default::default()
        };
        let r = solve(&p, &opts);
        assert_eq!(r.result, MateStatus::Mate, "{s}");
        assert!(r.shortest, "{s}");
        assert!(is_mating_line(&p, &r.pv), "{s} {:?}", r.pv);
        assert_eq!(r.pv.len() as u32, r.plies, "{s} {:?}", r.pv);
        if r.plies != expect {
            assert!(r.plies < expect, "{s}: {} > {expect}", r.plies);
            odd.push((s, r.plies));
        }
    }
    odd
}

#[test]
fn small_sets_quick() {
    if !crate::shogi::test_data::present() {
        return;
    }
    run_set("mate-3-ply.sfen", 3, 30);
    run_set("mate-5-ply.sfen", 5, 10);
}

/// Line 298 of the mate-9 set: the node after 5c4b 5a4b R*4a 4b4a is proved again when the
/// line is read, but no probe of its checks at the remaining budget returned the proof; the
/// line broke off after four plies while the length (9) was right. Each check is now
/// searched for its mate.
#[test]
fn the_line_is_read_to_the_end() {
    let s = "1+P1gk2nl/2s2g1s1/n1pp+Bp1pp/4P1p2/lp5P1/5R3/2PPS1PsP/2G3+n2/1+p1K3NL b RBL3Pg 59";
    let p = Position::from_sfen(s).unwrap();
    let r = solve(
        &p,
        &MateOptions {
            hash_mb: 16,
            ..Default::default()
        },
    );
    assert_eq!((r.result, r.plies, r.shortest), (MateStatus::Mate, 9, true));
    assert_eq!(r.pv.len(), 9, "{:?}", r.pv);
    assert!(is_mating_line(&p, &r.pv), "{:?}", r.pv);
}

/// A search stopped by its node limit after a mate was found returns a line that replays as a
/// mate, of the length it reports; it says `shortest` only for the length the unlimited search
/// proves shortest, and its lower bound is at most that length (proved by disproofs only).
/// Positions of the mate-11 set, and a composed problem of 33 plies (将棋図巧 15, strict length)
/// stopped while its line is being shortened.
#[test]
fn a_stopped_search_returns_a_mate_and_a_true_bound() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let opts = |max_nodes| MateOptions {
        hash_mb: 16,
        max_nodes,
        ..Default::default()
    };
    let long: Vec<String> = sfens("long-mates.tsv")
        .into_iter()
        .filter(|l| l.starts_with("zukou-015\t"))
        .map(|l| l.split('\t').nth(1).unwrap().to_string())
        .collect();
    assert_eq!(long.len(), 1);
    let mut cases: Vec<(String, u32, Vec<u64>)> = sfens("mate-11-ply.sfen")
        .into_iter()
        .take(16)
        .map(|s| (s, 11, vec![400, 1_500, 6_000]))
        .collect();
    cases.push((long[0].clone(), 33, vec![800_000]));
    let mut cut_short = 0;
    for (s, label, limits) in cases {
        let p = Position::from_sfen(&s).unwrap();
        let full = solve(&p, &opts(0));
        assert!(full.result == MateStatus::Mate && full.shortest, "{s}");
        assert!(full.plies <= label, "{s}");
        for n in limits {
            let r = solve(&p, &opts(n));
            if r.result != MateStatus::Mate {
                continue;
            }
            assert_eq!(r.pv.len() as u32, r.plies, "{s} at {n} nodes: {:?}", r.pv);
            assert!(is_mating_line(&p, &r.pv), "{s} at {n} nodes: {:?}", r.pv);
            assert!(r.plies >= full.plies, "{s} at {n} nodes");
            assert!(
                r.lower_bound >= 1 && r.lower_bound <= full.plies,
                "{s} at {n} nodes: bound {} for a mate of {}",
                r.lower_bound,
                full.plies
            );
            if r.shortest {
                assert_eq!((r.plies, r.lower_bound), (full.plies, full.plies), "{s}");
            } else {
                assert!(r.lower_bound < r.plies, "{s} at {n} nodes");
                cut_short += 1;
            }
        }
    }
    assert!(
        cut_short > 0,
        "some search was stopped before proving its length"
    );
}

#[test]
fn odd_positions_do_not_panic() {
    for sfen in [
        "4k4/9/4R4/9/9/9/9/9/4K4 b - 1",
        "4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
        "9/9/9/9/9/9/9/9/4K4 b R 1",
        "4k4/4P4/4K4/9/9/9/9/9/9 w - 1",
    ] {
        let p = Position::from_sfen(sfen).unwrap();
        let opts = MateOptions {
            hash_mb: 1,
            max_nodes: 20_000,
            ..Default::default()
        };
        let _ = solve(&p, &opts);
        let _ = mate_in_n_exhaustive(&p, 1);
        let _ = super::super::mate3::mate_in_3(&p);
    }
}

#[test]
fn white_attacker() {
    // 後手 to move mates with a gold drop (G*5h).
    let p = Position::from_sfen("4k4/9/9/9/9/9/4p4/9/4K4 w g 1").unwrap();
    let r = solve(&p, &MateOptions::default());
    assert_eq!(r.result, MateStatus::Mate);
    assert_eq!(r.plies, 1);
    assert!(is_mating_line(&p, &r.pv));
}

#[test]
fn pawn_drop_mate_is_no_mate() {
    let p = Position::from_sfen("7nk/9/7G1/9/9/9/9/9/4K4 b P 1").unwrap();
    let r = solve(
        &p,
        &MateOptions {
            max_plies: 1,
            ..Default::default()
        },
    );
    assert_eq!(r.result, MateStatus::NoMate);
}

const SETS: [(&str, u32); 5] = [
    ("mate-3-ply.sfen", 3),
    ("mate-5-ply.sfen", 5),
    ("mate-7-ply.sfen", 7),
    ("mate-9-ply.sfen", 9),
    ("mate-11-ply.sfen", 11),
];

/// Positions of the nshogi sets whose label is longer than the shortest mate, with the
/// shortest length (checked by the exhaustive search below).
const SHORTER: [(&str, usize, u32); 5] = [
    ("mate-5-ply.sfen", 286, 3),
    ("mate-7-ply.sfen", 118, 5),
    ("mate-7-ply.sfen", 163, 5),
    ("mate-9-ply.sfen", 103, 7),
    ("mate-9-ply.sfen", 423, 7),
];

/// All 2,500 positions (about 2 minutes in release on one core):
/// `cargo test --release nshogi_sets_full -- --ignored --nocapture`.
#[test]
#[ignore]
fn nshogi_sets_full() {
    if !crate::shogi::test_data::present() {
        return;
    }
    for (name, n) in SETS {
        for (s, l) in run_set(name, n, usize::MAX) {
            println!("{name}: shorter mate {l}: {s}");
        }
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn shorter_than_label() {
    if !crate::shogi::test_data::present() {
        return;
    }
    for (name, idx, len) in SHORTER {
        let s = &sfens(name)[idx];
        let p = Position::from_sfen(s).unwrap();
        let pv = mate_in_n_exhaustive(&p, len).unwrap_or_else(|| panic!("{s}"));
        println!("{name} {idx}: {len} plies by exhaustive search: {pv:?}");
        assert_eq!(pv.len() as u32, len);
        assert!(is_mating_line(&p, &pv));
        if len >= 3 {
            assert!(mate_in_n_exhaustive(&p, len - 2).is_none());
        }
    }
}

/// Rows of curated.tsv: (id, sfen, expect).
fn curated() -> Vec<(String, String, String)> {
    crate::shogi::test_data::text("curated.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 3).then(|| (f[0].to_string(), f[1].to_string(), f[2].to_string()))
        })
        .collect()
}

/// Rows of antma/tsumeshogi-check stating the tsume-convention length, in which futile
/// interpositions are not counted; the strict length found here is longer.
const TSUME_CONVENTION: [&str; 8] = [
    "tsc-tsume1-3",
    "tsc-tsume1-5",
    "tsc-tsume1_futile_drops-1",
    "tsc-tsume1_futile_drops-2",
    "tsc-tsume1_futile_drops-3",
    "tsc-tsume3-19",
    "tsc-tsume5-3",
    "tsc-tsume5-6",
];

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn curated_rows() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let mut convention = Vec::new();
    for (id, sfen, expect) in curated() {
        if id == "kh-microcosmos" {
            continue;
        }
        let p = Position::from_sfen(&sfen).unwrap();
        let opts = MateOptions {
            hash_mb: 16,
            max_nodes: 20_000_000,
            ..Default::default()
        };
        if let Some(n) = expect.strip_prefix("mate:") {
            let n: u32 = n.parse().unwrap();
            let r = solve(&p, &opts);
            assert_eq!(r.result, MateStatus::Mate, "{id}");
            assert!(is_mating_line(&p, &r.pv), "{id}");
            if TSUME_CONVENTION.contains(&id.as_str()) {
                assert!(r.plies > n, "{id}: {} plies", r.plies);
                convention.push((id, n, r.plies));
            } else {
                assert_eq!(r.plies, n, "{id}");
                assert!(r.shortest, "{id}");
            }
        } else if expect == "mate" {
            let r = solve(&p, &opts);
            assert_eq!(r.result, MateStatus::Mate, "{id}");
            assert!(is_mating_line(&p, &r.pv), "{id}");
        } else if let Some(n) = expect.strip_prefix("nomate-le:") {
            let n: u32 = n.parse().unwrap();
            let r = solve(
                &p,
                &MateOptions {
                    max_plies: n,
                    ..opts.clone()
                },
            );
            assert_eq!(r.result, MateStatus::NoMate, "{id}");
        } else if expect == "nomate" {
            let r = solve(&p, &opts);
            assert_eq!(r.result, MateStatus::NoMate, "{id}");
        } else if expect == "mated" {
            assert!(p.is_checkmate(), "{id}");
            assert_eq!(solve(&p, &opts).result, MateStatus::NoMate, "{id}");
        }
    }
    for (id, n, l) in &convention {
        println!("{id}: label {n} (tsume convention), strict {l}");
    }
}

mod bench {
    use super::*;

    /// Per-position report over a set (`MATE_SET=mate-7-ply.sfen cargo test --release
    /// bench_set -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn bench_set() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let name = std::env::var("MATE_SET").unwrap_or_else(|_| "mate-7-ply.sfen".into());
        let limit: u64 = std::env::var("MATE_NODES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(2_000_000);
        let t0 = Instant::now();
        let mut total = 0u64;
        for (i, l) in sfens(&name).iter().enumerate() {
            let p = Position::from_sfen(l).unwrap();
            let opts = MateOptions {
                hash_mb: 16,
                max_nodes: limit,
                ..Default::default()
            };
            let r = solve(&p, &opts);
            total += r.nodes;
            if r.ms > 200 || r.result != MateStatus::Mate || !r.shortest {
                println!(
                    "{i}: {:?} {} plies, {} nodes, {} ms, shortest {}: {}",
                    r.result, r.plies, r.nodes, r.ms, r.shortest, l
                );
            }
        }
        println!("{name}: total {total} nodes, {:?}", t0.elapsed());
    }
}

mod curated_report {
    use super::*;

    /// One line per curated row: id, expectation, result, length, nodes, time
    /// (`cargo test --release curated_report -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn curated_report() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for l in crate::shogi::test_data::text("curated.tsv").lines() {
            let f: Vec<&str> = l.split('\t').collect();
            if l.starts_with('#') || f.len() < 3 || f[0] == "kh-microcosmos" {
                continue;
            }
            let p = Position::from_sfen(f[1]).unwrap();
            let opts = MateOptions {
                hash_mb: 16,
                max_nodes: 20_000_000,
                ..Default::default()
            };
            let r = solve(&p, &opts);
            println!(
                "{}\t{}\t{:?}\t{}\t{}\t{}ms\tshortest={}",
                f[0], f[2], r.result, r.plies, r.nodes, r.ms, r.shortest
            );
        }
    }
}

mod microcosmos {
    use super::*;
    use crate::shogi::mate1::is_mating_line;

    /// Microcosmos (curated.tsv) and its published 1,525-ply solution.
    pub(super) fn problem() -> (Position, Vec<Move>) {
        let tsv = crate::shogi::test_data::text("curated.tsv");
        let row = tsv
            .lines()
            .find(|l| l.starts_with("kh-microcosmos\t"))
            .unwrap();
        let p = Position::from_sfen(row.split('\t').nth(1).unwrap()).unwrap();
        let text = crate::shogi::test_data::text("microcosmos-1525.usi");
        let mut q = p.clone();
        let mut moves = Vec::new();
        for w in text.split_whitespace() {
            let m = q.parse_usi_move(w).unwrap();
            moves.push(m);
            q.do_move(m);
        }
        (p, moves)
    }

    /// The published 1,525-ply solution is a legal mating line.
    #[test]
    #[cfg_attr(debug_assertions, ignore)]
    fn published_solution_mates() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let (p, moves) = problem();
        assert_eq!(moves.len(), 1525);
        assert!(is_mating_line(&p, &moves));
    }

    // its proof by the search is in tests/suite/microcosmos.rs, where it runs beside the other
    // long tests instead of holding the unit tests' binary alone
}

mod microcosmos_tail {
    use super::*;
    use crate::shogi::mate1::is_mating_line;

    /// The search from positions along the published solution of Microcosmos, `MICRO_FROM`
    /// plies in (comma-separated), each with a time limit: how much of the end the solver
    /// handles, a measure of progress
    /// (`MICRO_FROM=1400,1300 cargo test --release microcosmos_tail -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn microcosmos_tail() {
        if !crate::shogi::test_data::present() {
            return;
        }
        let (start, solution) = super::microcosmos::problem();
        let froms = std::env::var("MICRO_FROM").unwrap_or_else(|_| "1500,1400".into());
        let ms: u64 = std::env::var("MICRO_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(20_000);
        let mb: usize = std::env::var("MICRO_MB")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(1024);
        let mut solver = MateSolver::new(mb);
        for f in froms.split(',') {
            let k: usize = f.trim().parse().unwrap();
            let mut p = start.clone();
            for &m in &solution[..k] {
                p.do_move(m);
            }
            let opts = MateOptions {
                max_ms: ms,
                hash_mb: mb,
                length: MateLength::Any,
                ..Default::default()
            };
            let r = with_stack(|| solver.solve(&p, &opts)).unwrap();
            println!(
                "from ply {k} ({} left): {:?}, {} plies, {} nodes, {} ms",
                1525 - k,
                r.result,
                r.plies,
                r.nodes,
                r.ms
            );
            if r.result == MateStatus::Mate {
                assert!(is_mating_line(&p, &r.pv));
            }
        }
    }
}

mod exhaustive_check {
    use super::*;
    use crate::shogi::mate1::mate_in_n_exhaustive;

    /// `EXH_SFEN=... EXH_PLIES=7 cargo test --release exhaustive_env -- --ignored --nocapture`
    #[test]
    #[ignore]
    fn exhaustive_env() {
        let Ok(s) = std::env::var("EXH_SFEN") else {
            return;
        };
        let n: u32 = std::env::var("EXH_PLIES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(7);
        let mut p = Position::from_sfen(&s).unwrap();
        if let Ok(pv) = std::env::var("EXH_PV") {
            // At each defence of the line, the defences that are not mated in the plies left.
            let words: Vec<&str> = pv.split_whitespace().collect();
            for (i, w) in words.iter().enumerate() {
                let m = p.parse_usi_move(w).unwrap();
                if i % 2 == 1 {
                    let left = (words.len() - i - 1) as u32;
                    for &d in p.legal_moves().iter() {
                        let q = p.after(d);
                        if mate_in_n_exhaustive(&q, left).is_none() {
                            println!(
                                "ply {}: defence {d} escapes a mate in {left} ({})",
                                i + 1,
                                q.to_sfen()
                            );
                        }
                    }
                }
                p.do_move(m);
            }
            return;
        }
        println!("exhaustive {n}: {:?}", mate_in_n_exhaustive(&p, n));
    }
}

/// Two threads on a position without mate, and on one with a node limit: the same answers as
/// one thread (no mate; unknown).
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn two_threads_no_mate_and_limits() {
    if !crate::shogi::test_data::present() {
        return;
    }
    with_stack(|| {
        let mut two = MateSolver::new(4);
        two.set_threads(2);
        let p = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b R 1").unwrap();
        let r = two.solve(&p, &MateOptions::default());
        assert_eq!(r.result, MateStatus::NoMate);
        let hard = &sfens("mate-11-ply.sfen")[0];
        let p = Position::from_sfen(hard).unwrap();
        let r = two.solve(
            &p,
            &MateOptions {
                max_nodes: 50,
                ..Default::default()
            },
        );
        assert_ne!(r.result, MateStatus::NoMate);
        assert!(r.result == MateStatus::Unknown || is_mating_line(&p, &r.pv));
    })
    .unwrap();
}

/// The slow searches, run by .ci/run after the test command of README.md:
/// `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// The 3, 5 and 7 sets in full, the first 100 of the 9 and 11 sets.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn nshogi_sets_sample() {
        if !crate::shogi::test_data::present() {
            return;
        }
        for (name, n) in SETS {
            let take = if n <= 7 { usize::MAX } else { 100 };
            for (s, l) in run_set(name, n, take) {
                println!("{name}: shorter mate {l}: {s}");
            }
        }
    }

    /// Line 172 of the mate-9 set, a mate of 9 plies. A proof, then a table that has forgotten it
    /// (a later search took the entries' place, as the budgets below the mate do while the line is
    /// shortened): the line read when the proof was made leads the new reading, its checks searched
    /// alone, and costs fewer nodes than searching each node of the line again; the line it reads is
    /// a mate of the same length.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn a_line_once_proved_is_read_again_from_its_checks() {
        use search::{Buffers, Search};
        use table::Table;
        let mut p = Position::from_sfen(
            "l1s6/3n1G3/p3Bp3/3pp1p1p/2k5P/6P2/P2PSP3/1P3K3/LN1+p1G1NL b RGSNL3Prbgs2p 121",
        )
        .unwrap();
        let start = p.clone();
        let mut tt = Table::new(16);
        let mut b = Buffers::new();
        let read_again = |tt: &mut Table, b: &mut Buffers, p: &mut Position, known: bool| {
            tt.new_search(false);
            let mut s = Search::start(
                tt.handle(false),
                b,
                p.side_to_move(),
                crate::shogi::readings::Reading::NARROW,
                Instant::now(),
            );
            let v = s.root_alone(p, 9);
            assert_eq!((v.pn, v.len), (0, 9));
            let first = s.pv(p, 9, true, None);
            assert!(is_mating_line(&start, &first), "{first:?}");
            s.tt.table().forget_all();
            let before = s.nodes;
            let line = s.pv(p, 9, true, known.then_some(&first[..]));
            (line, s.nodes - before)
        };
        let (plain, plain_nodes) = read_again(&mut tt, &mut b, &mut p, false);
        let (led, led_nodes) = read_again(&mut tt, &mut b, &mut p, true);
        for line in [&plain, &led] {
            assert_eq!(line.len(), 9, "{line:?}");
            assert!(is_mating_line(&start, line), "{line:?}");
        }
        assert!(
            led_nodes < plain_nodes,
            "{led_nodes} nodes led by the known line, {plain_nodes} without"
        );
    }

    /// Two threads sharing the table: on a sample of every set (every eleventh problem, and the
    /// ones whose label is longer than the shortest mate), the same shortest length as one thread,
    /// the label's (or the exhaustive search's where the label is wrong), and a line that mates.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn two_threads_find_the_same_shortest_mates() {
        if !crate::shogi::test_data::present() {
            return;
        }
        with_stack(|| {
            let mut one = MateSolver::new(16);
            let mut two = MateSolver::new(16);
            two.set_threads(2);
            assert_eq!(two.threads(), 2);
            let opts = MateOptions::default();
            for (name, n) in SETS {
                let all = sfens(name);
                let step = if n <= 7 { 11 } else { 23 };
                let mut idx: Vec<usize> = (0..all.len()).step_by(step).collect();
                idx.extend(SHORTER.iter().filter(|s| s.0 == name).map(|s| s.1));
                for i in idx {
                    let s = &all[i];
                    let want = SHORTER
                        .iter()
                        .find(|x| x.0 == name && x.1 == i)
                        .map_or(n, |x| x.2);
                    let p = Position::from_sfen(s).unwrap();
                    let r1 = one.solve(&p, &opts);
                    let r2 = two.solve(&p, &opts);
                    for r in [&r1, &r2] {
                        assert_eq!(r.result, MateStatus::Mate, "{name} {i}: {s}");
                        assert!(r.shortest, "{name} {i}: {s}");
                        assert_eq!(r.plies, want, "{name} {i}: {s}");
                        assert_eq!(r.lower_bound, want, "{name} {i}: {s}");
                        assert_eq!(r.pv.len() as u32, want, "{name} {i}: {s} {:?}", r.pv);
                        assert!(is_mating_line(&p, &r.pv), "{name} {i}: {s} {:?}", r.pv);
                    }
                }
            }
        })
        .unwrap();
    }
}
