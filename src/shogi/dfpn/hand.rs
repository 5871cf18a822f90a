//! Hands packed in 32 bits, a field per kind with a guard bit above it, so that "holds at least
//! as much of every kind" is one subtraction.

use crate::shogi::types::Hand;

/// Bit offset and largest value of each kind's field (pawn, lance, knight, silver, gold,
/// bishop, rook).
const SHIFT: [u32; 7] = [0, 6, 10, 14, 18, 22, 25];
const MAXV: [u32; 7] = [31, 7, 7, 7, 7, 3, 3];
const GUARD: u32 = (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 24) | (1 << 27);
/// Every field at its largest value: "as much as you like".
pub const FULL: u32 = 31 | (7 << 6) | (7 << 10) | (7 << 14) | (7 << 18) | (3 << 22) | (3 << 25);

/// The packed hand, assuming every count fits (see [`fits`]).
#[inline]
pub fn pack_unchecked(h: &Hand) -> u32 {
    (0..7).fold(0, |v, k| v | (h.get(k) as u32) << SHIFT[k])
}

/// The packed hand, or `None` if a count does not fit (more pieces than the game has).
pub fn pack(h: &Hand) -> Option<u32> {
    let mut v = 0;
    for k in 0..7 {
        let n = h.get(k) as u32;
        if n > MAXV[k] {
            return None;
        }
        v |= n << SHIFT[k];
    }
    Some(v)
}

#[inline(always)]
pub fn get(h: u32, k: usize) -> u32 {
    (h >> SHIFT[k]) & MAXV[k]
}

/// `a` holds at least as much of every kind as `b`.
#[inline(always)]
pub fn superior(a: u32, b: u32) -> bool {
    ((a | GUARD) - b) & GUARD == GUARD
}

/// One more of kind `k` (staying at the largest value).
#[inline]
pub fn add1(h: u32, k: usize) -> u32 {
    if get(h, k) < MAXV[k] {
        h + (1 << SHIFT[k])
    } else {
        h
    }
}

/// One less of kind `k` (staying at zero).
#[inline]
pub fn sub1(h: u32, k: usize) -> u32 {
    if get(h, k) > 0 {
        h - (1 << SHIFT[k])
    } else {
        h
    }
}

/// Kind `k` set to `n`.
#[inline]
pub fn set(h: u32, k: usize, n: u32) -> u32 {
    (h & !(MAXV[k] << SHIFT[k])) | (n.min(MAXV[k]) << SHIFT[k])
}

/// The larger count of each kind.
pub fn max(a: u32, b: u32) -> u32 {
    (0..7).fold(0, |v, k| v | get(a, k).max(get(b, k)) << SHIFT[k])
}

/// The smaller count of each kind.
pub fn min(a: u32, b: u32) -> u32 {
    (0..7).fold(0, |v, k| v | get(a, k).min(get(b, k)) << SHIFT[k])
}
