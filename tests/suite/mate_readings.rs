#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The mate search under each reading, with the game's history, against a plain exhaustive
//! search written on the legality of src/shogi/readings.rs (the native statement of the rules'
//! forbidden positions, itself checked against rules/shogi_mate.rule in tests/suite/last_judgment.rs
//! and tests/suite/shogi_differential.rs).

use okite::shogi::dfpn::{solve_history, MateLength, MateOptions, MateStatus};
use okite::shogi::position::Position;
use okite::shogi::readings::{legal_moves, Reading};
use okite::shogi::types::Move;

const READINGS: [(&str, Reading); 4] = [
    ("narrow", Reading::NARROW),
    ("broad", Reading::BROAD),
    ("narrow-check", Reading::NARROW_CHECK),
    ("broad-check", Reading::BROAD_CHECK),
];

/// The side to move forces mate within `n` plies: every one of its moves checks, every legal
/// answer is tried, and a position whose side to move has no legal move (in check) is mate.
fn mate_within(h: &mut Vec<Position>, n: u32, r: Reading) -> bool {
    if n == 0 {
        return false;
    }
    for m in legal_moves(h, r) {
        let q = h.last().unwrap().after(m);
        if !q.in_check() {
            continue;
        }
        h.push(q);
        let replies = legal_moves(h, r);
        let ok = if replies.is_empty() {
            true
        } else if n >= 3 {
            replies.iter().all(|&d| {
                let q2 = h.last().unwrap().after(d);
                h.push(q2);
                let x = mate_within(h, n - 2, r);
                h.pop();
                x
            })
        } else {
            false
        };
        h.pop();
        if ok {
            return true;
        }
    }
    false
}

fn game(sfen: &str, moves: &str) -> Vec<Position> {
    let mut h = vec![Position::from_sfen(sfen).unwrap()];
    for t in moves.split_whitespace() {
        let m = Move::from_usi(t).unwrap();
        let p = h.last().unwrap().after(m);
        h.push(p);
    }
    h
}

/// Every prefix of a game, every reading, mates of 1 and 3 plies: the search and the plain
/// search agree. Returns the number of (prefix, reading, length) cases.
fn agree_on(h: &[Position]) -> usize {
    let mut cases = 0;
    for i in 1..=h.len() {
        let prefix = &h[..i];
        if prefix
            .last()
            .unwrap()
            .king_square(prefix.last().unwrap().side_to_move().flip())
            .is_none()
        {
            continue;
        }
        for (name, r) in READINGS {
            for n in [1, 3] {
                let expect = mate_within(&mut prefix.to_vec(), n, r);
                let got = solve_history(
                    prefix,
                    &MateOptions {
                        max_plies: n,
                        reading: r,
                        length: MateLength::Any,
                        hash_mb: 4,
                        ..Default::default()
                    },
                );
                assert_ne!(got.result, MateStatus::Unknown);
                assert_eq!(
                    got.result == MateStatus::Mate,
                    expect,
                    "prefix {i}, reading {name}, {n} plies: {}",
                    prefix.last().unwrap().to_sfen()
                );
                cases += 1;
            }
        }
    }
    cases
}

#[test]
fn last_judgment_game_every_prefix() {
    const START: &str = "8k/1b7/9/2g3g2/4+B4/4KP3/3PPL3/9/9 w P 1";
    const ROUND: &str = "1a2a P*2b 2a1a 2b2a+ 1a2a 5e6e 2a1a 6e6f P*5e 6f5e";
    let h = game(START, &format!("{ROUND} {ROUND} {ROUND}"));
    assert!(agree_on(&h) > 200);
}

#[test]
fn perpetual_check_game_every_prefix() {
    let h = game(
        "8k/9/9/9/8R/9/9/9/4K4 w - 1",
        "1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e 1a2a 1e2e 2a1a 2e1e",
    );
    assert!(agree_on(&h) > 80);
}

/// The pawn-drop reading matters to the search: a pawn drop that leaves no move without
/// giving check is forbidden when mate needs no check (spec example D), and legal otherwise.
#[test]
fn pawn_drop_without_check() {
    let h = game("8k/6G2/9/9/9/9/9/9/4K4 b P 1", "");
    assert!(agree_on(&h) >= 8);
}
