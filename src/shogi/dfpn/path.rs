//! The positions on the current path (for repetitions and inferior positions), the game's
//! history under the broad reading (for perpetual checks), and the keys of boards and paths.

use super::hand;
use crate::shogi::position::Position;
use crate::shogi::types::Color;
use rustc_hash::FxHashMap;

/// The positions on the current path (board key and both hands), with a counting filter on
/// the board keys so that most lookups of deep paths need no scan.
pub(super) struct Path {
    entries: Vec<(u64, u32, u32)>,
    filter: Vec<u16>,
}

impl Path {
    const BITS: usize = 1 << 14;

    pub(super) fn new() -> Path {
        Path {
            entries: Vec::new(),
            filter: vec![0; Self::BITS],
        }
    }

    pub(super) fn len(&self) -> usize {
        self.entries.len()
    }

    #[inline]
    pub(super) fn push(&mut self, bk: u64, ha: u32, hd: u32) {
        self.entries.push((bk, ha, hd));
        self.filter[(bk >> 7) as usize % Self::BITS] += 1;
    }

    #[inline]
    pub(super) fn pop(&mut self) {
        if let Some((k, _, _)) = self.entries.pop() {
            self.filter[(k >> 7) as usize % Self::BITS] -= 1;
        }
    }

    /// The depth (1 = the root) of the deepest position on the path that has the board `bk`
    /// and is at least as good for the attacker as hands `ha`, `hd`: reaching it again (or
    /// something weaker) gains nothing, so the line fails there (a repetition, or an inferior
    /// one).
    #[inline]
    pub(super) fn find_inferior(&self, bk: u64, ha: u32, hd: u32) -> Option<u32> {
        if self.filter[(bk >> 7) as usize % Self::BITS] == 0 {
            return None;
        }
        self.entries
            .iter()
            .rposition(|&(k, a, d)| k == bk && hand::superior(a, ha) && hand::superior(hd, d))
            .map(|i| i as u32 + 1)
    }

    pub(super) fn clear(&mut self) {
        while !self.entries.is_empty() {
            self.pop();
        }
    }
}

/// The history under the broad reading: occurrences of each position and, per position, whether
/// the side to move was in check.
#[derive(Default)]
pub(super) struct History {
    /// (full key, side to move, side to move in check), oldest first, the path included.
    seq: Vec<(u64, Color, bool)>,
    counts: FxHashMap<u64, u32>,
    /// Keys that occur at least twice / three times.
    pub(super) twice: u32,
    pub(super) thrice: u32,
}

impl History {
    pub(super) fn push(&mut self, p: &Position) {
        let k = p.key();
        self.seq.push((k, p.side_to_move(), p.in_check()));
        let c = self.counts.entry(k).or_insert(0);
        *c += 1;
        if *c == 2 {
            self.twice += 1;
        }
        if *c == 3 {
            self.thrice += 1;
        }
    }

    pub(super) fn pop(&mut self) {
        if let Some((k, _, _)) = self.seq.pop() {
            if let Some(c) = self.counts.get_mut(&k) {
                if *c == 2 {
                    self.twice -= 1;
                }
                if *c == 3 {
                    self.thrice -= 1;
                }
                *c -= 1;
                if *c == 0 {
                    self.counts.remove(&k);
                }
            }
        }
    }

    pub(super) fn count(&self, k: u64) -> u32 {
        self.counts.get(&k).copied().unwrap_or(0)
    }

    /// Would the position `p`, reached by a move of the side not to move in `p`, complete a
    /// fourfold repetition by that side's perpetual check (and not by the other side's)? Only
    /// meaningful when `p` occurs three times already.
    pub(super) fn perpetual_forbidden(&self, p: &Position) -> bool {
        let k = p.key();
        if self.count(k) < 3 {
            return false;
        }
        // The run starts at the first of the last three earlier occurrences.
        let mut seen = 0;
        let mut start = self.seq.len();
        for (i, &(x, _, _)) in self.seq.iter().enumerate().rev() {
            if x == k {
                seen += 1;
                if seen == 3 {
                    start = i;
                    break;
                }
            }
        }
        let to_move = p.side_to_move();
        let last_check = p.in_check();
        let checked_throughout = |s: Color, last: bool| {
            self.seq[start..]
                .iter()
                .filter(|&&(_, side, _)| side == s)
                .all(|&(_, _, chk)| chk)
                && (p.side_to_move() != s || last)
        };
        checked_throughout(to_move, last_check) && !checked_throughout(to_move.flip(), last_check)
    }
}

/// Key of the board and side (hands removed from the position key); never 0 (an empty slot).
#[inline]
pub(super) fn board_key(p: &Position) -> u64 {
    p.board_key() | 1
}

#[inline]
pub(super) fn path_key(pk: u64, child: u64) -> u64 {
    (pk.rotate_left(17) ^ child).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}
