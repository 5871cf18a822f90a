#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The canonical test of the readings: a position with the logic of "Last Judgment" (a defending
//! pawn drop checks, and the attacker's only answer completes the fourth repetition of the
//! attacker's own perpetual check). Under the broad reading the drop is a pawn-drop mate and may
//! not be played; under the narrow reading it is legal. The native engine and the rules agree.

use okite::shogi::position::Position;
use okite::shogi::readings::{legal_moves, replay, Reading};
use okite::shogi::types::Move;
use std::process::Command;

const START: &str = "8k/1b7/9/2g3g2/4+B4/4KP3/3PPL3/9/9 w P 1";
const ROUND: &str = "1a2a P*2b 2a1a 2b2a+ 1a2a 5e6e 2a1a 6e6f P*5e 6f5e";
const LAST: &str = "1a2a P*2b 2a1a 2b2a+ 1a2a 5e6e 2a1a 6e6f";

fn history() -> Vec<Position> {
    let mut h = vec![Position::from_sfen(START).unwrap()];
    for t in format!("{ROUND} {ROUND} {LAST}").split_whitespace() {
        let m = Move::from_usi(t).unwrap();
        let p = h.last().unwrap().after(m);
        h.push(p);
    }
    h
}

#[test]
fn the_pawn_drop_is_forbidden_under_broad_only() {
    let h = history();
    let drop = Move::from_usi("P*5e").unwrap();
    assert!(legal_moves(&h, Reading::NARROW).contains(&drop));
    assert!(legal_moves(&h, Reading::NARROW_CHECK).contains(&drop));
    assert!(!legal_moves(&h, Reading::BROAD).contains(&drop));
    assert!(!legal_moves(&h, Reading::BROAD_CHECK).contains(&drop));
}

#[test]
fn after_the_drop_the_only_answer_completes_the_perpetual_check() {
    let mut h = history();
    let q = h.last().unwrap().after(Move::from_usi("P*5e").unwrap());
    h.push(q);
    // under the narrow reading the horse takes the pawn; under broad it may not
    let capture = Move::from_usi("6f5e").unwrap();
    assert_eq!(legal_moves(&h, Reading::NARROW), vec![capture]);
    assert!(legal_moves(&h, Reading::BROAD).is_empty());
    // the capture recreates the start position for the fourth time
    let t = h.last().unwrap().after(capture);
    assert_eq!(t, h[0]);
    assert_eq!(h.iter().filter(|p| **p == t).count(), 3);
    // a replay under broad: the drop (move 29) is the first forbidden move, and 先手 is mated
    let moves: Vec<Move> = format!("{ROUND} {ROUND} {LAST} P*5e")
        .split_whitespace()
        .map(|t| Move::from_usi(t).unwrap())
        .collect();
    let r = replay(&h, &moves, Reading::BROAD);
    assert_eq!(r.first_forbidden.as_ref().map(|f| f.0), Some(29));
    assert!(r.final_mate);
    assert!(!replay(&h, &moves, Reading::NARROW).final_mate);
}

#[test]
fn the_rules_agree_side_by_side() {
    let moves = format!("{ROUND} {ROUND} {LAST} P*5e");
    let o = Command::new(env!("CARGO_BIN_EXE_okite"))
        .args([
            "compare",
            "--readings",
            "narrow,broad",
            "--sfen",
            START,
            "--moves",
            &moves,
            "[uchifuzume(g, i), mate(g, i)]",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("narrow   [false, false]"), "{out}");
    assert!(out.contains("broad    [true, true]"), "{out}");
    // the native legal moves and the rules' agree under each reading, checked by --verify
    for r in ["narrow", "broad", "narrow-check", "broad-check"] {
        let o = Command::new(env!("CARGO_BIN_EXE_okite"))
            .args([
                "legal",
                "--verify",
                "--reading",
                r,
                "--sfen",
                START,
                "--moves",
                &format!("{ROUND} {ROUND} {LAST}"),
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .unwrap();
        assert_eq!(
            o.status.code(),
            Some(0),
            "{r}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
