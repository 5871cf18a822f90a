#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark or an example, not the library: a failed unwrap stops it
//! Searches for a game with the logic of the problem "Last Judgment": a defending pawn drop
//! gives check, and the attacker's only answer completes the fourth repetition of the attacker's
//! own perpetual check. The broad reading makes that drop a pawn-drop mate; the narrow one does
//! not. It prints the SFEN and the moves, which tests/suite/last_judgment.rs keeps.
//!
//! cargo run --release --example find_perpetual_drop

use okite::shogi::position::Position;
use okite::shogi::types::{Move, PieceKind};
use std::collections::{HashMap, VecDeque};

fn main() {
    // The cycle position: 後手's king on 1a in check from 先手's horse on 5e; 先手's king on 5f,
    // boxed in by its own pieces and by 後手's golds (3d covers 4e, 7d covers 6e) and bishop (8b
    // protects 5e); 先手 holds a pawn. The horse can switch between the diagonals through 1a and
    // 2a by one orthogonal step, which a rook or bishop cannot.
    let t2 = Position::from_sfen("8k/1b7/9/2g3g2/4+B4/4KP3/3PPL3/9/9 w P 1");
    let t2 = match t2 {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    println!("start = {}", t2.to_sfen());
    // breadth-first search from T2 for a line in which 先手 always checks, reaching a position
    // where 後手 drops a pawn with check and 先手's only legal answer recreates T2
    let mut seen: HashMap<Position, (Position, Move)> = HashMap::new();
    let mut queue: VecDeque<(Position, usize)> = VecDeque::new();
    queue.push_back((t2.clone(), 0));
    seen.insert(
        t2.clone(),
        (
            t2.clone(),
            Move::drop(
                PieceKind::Pawn,
                okite::shogi::types::Square::new(1, 1).unwrap(),
            ),
        ),
    );
    while let Some((p, d)) = queue.pop_front() {
        if d > 16 || seen.len() > 3_000_000 {
            break;
        }
        let moves = p.legal_moves();
        let king = p.king_square(p.side_to_move());
        for &m in moves.iter() {
            // 先手 plays its rook and drops pawns; 後手 moves its king: the pieces that shape the
            // cycle
            let keep = match p.side_to_move() {
                okite::shogi::types::Color::White => m.from() == king,
                okite::shogi::types::Color::Black => true,
            };
            if !keep {
                continue;
            }
            let n = p.after(m);
            // 先手 moves must give check
            if p.side_to_move() == okite::shogi::types::Color::Black && !n.in_check() {
                continue;
            }
            if seen.contains_key(&n) {
                continue;
            }
            seen.insert(n.clone(), (p.clone(), m));
            // the goal: 後手 to move, a pawn drop that checks and whose only answer gives T2
            if n.side_to_move() == okite::shogi::types::Color::White {
                for &dm in n.legal_moves().iter() {
                    if dm.drop_kind() != Some(PieceKind::Pawn) {
                        continue;
                    }
                    let r = n.after(dm);
                    if !r.in_check() {
                        continue;
                    }
                    let answers = r.legal_moves();
                    if answers.len() == 1 && r.after(*answers.iter().next().unwrap()) == t2 {
                        // reconstruct the line from T2
                        let mut line = vec![dm];
                        let mut cur = n.clone();
                        while cur != t2 {
                            let (prev, mv) = seen[&cur].clone();
                            line.push(mv);
                            cur = prev;
                        }
                        line.reverse();
                        let a = *answers.iter().next().unwrap();
                        let text: Vec<String> = line.iter().map(|m| m.to_usi()).collect();
                        println!("found: {} then {}", text.join(" "), a.to_usi());
                        return;
                    }
                }
            }
            queue.push_back((n, d + 1));
        }
    }
    println!("no line found");
}
