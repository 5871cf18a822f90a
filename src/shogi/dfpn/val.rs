//! The value of a node: proof and disproof numbers, or a proof or disproof with its length and
//! the hands it holds for.

use super::hand;

/// Proof and disproof numbers: `INF` is proven (dn) or disproven (pn).
pub(super) const INF: u32 = 1 << 30;
/// The largest value of an unresolved number.
pub(super) const BIG: u32 = INF - 1;
/// Ply budget meaning "no limit"; as a disproof's validity, "for every budget".
pub(super) const NO_LIMIT: u32 = 0xFFFF;
/// No repetition is involved.
pub(super) const NO_REP: u32 = u32::MAX;

/// The value of a node: unresolved numbers, or a proof or disproof with its bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Val {
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// Proof: its length in plies. Disproof: the largest ply budget it holds for.
    pub(super) len: u32,
    /// Proof: the attacker's proof hand; disproof: the disproof hand.
    pub(super) ha: u32,
    /// Proof: the most the defender may hold; disproof: the least.
    pub(super) hd: u32,
    /// The bounds are the exact hands (a pawn-drop judgement depended on them).
    pub(super) exact: bool,
    /// The result depends on the path above this depth (a repetition, or the history under the
    /// broad reading); `NO_REP` when it does not.
    pub(super) rep: u32,
    /// Unresolved: the nodes searched below it so far (a tie-break between equal numbers).
    pub(super) work: u32,
}

impl Val {
    pub(super) const fn unknown(pn: u32, dn: u32) -> Val {
        Val {
            pn,
            dn,
            len: 0,
            ha: 0,
            hd: 0,
            exact: false,
            rep: NO_REP,
            work: 0,
        }
    }

    pub(super) const fn proof(len: u32, ha: u32, hd: u32) -> Val {
        Val {
            pn: 0,
            dn: INF,
            len,
            ha,
            hd,
            exact: false,
            rep: NO_REP,
            work: 0,
        }
    }

    pub(super) const fn disproof(valid: u32, ha: u32, hd: u32) -> Val {
        Val {
            pn: INF,
            dn: 0,
            len: valid,
            ha,
            hd,
            exact: false,
            rep: NO_REP,
            work: 0,
        }
    }

    /// A failure by repetition of the position at path depth `d`.
    pub(super) const fn repetition(d: u32) -> Val {
        Val {
            pn: INF,
            dn: 0,
            len: NO_LIMIT,
            ha: hand::FULL,
            hd: 0,
            exact: false,
            rep: d,
            work: 0,
        }
    }

    #[inline]
    pub(super) fn resolved(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}
