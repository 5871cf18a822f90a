//! A board variant's position as the tsume checker judges it (`crate::shogi::tsume::Board`):
//! under the check rule, with the drop-mate rule asked.

use super::movegen::DropMate;
use super::position::{piece_of, VMove, VPos};
use super::spec::RoyalRule;
use crate::shogi::tsume::{Board, Interposition};

/// A variant's position with the drop-mate rule its moves follow.
#[derive(Clone)]
pub struct TsumeBoard {
    pub p: VPos,
    pub drop_mate: DropMate,
}

impl TsumeBoard {
    /// The position, when its variant's royal piece is checked (not captured): the conventions
    /// of the tsume checker are stated for checks and interpositions.
    pub fn new(p: VPos, drop_mate: DropMate) -> Result<TsumeBoard, String> {
        if p.t.spec.royal != RoyalRule::Check {
            return Err(format!(
                "{} ends by the capture of its royal piece, and the tsume conventions are stated for mate by check",
                p.t.spec.name
            ));
        }
        Ok(TsumeBoard { p, drop_mate })
    }

    /// The pieces of the side not to move that attack the royal piece of the side to move.
    fn checkers(&self) -> Vec<usize> {
        let p = &self.p;
        let (us, them) = (p.side, p.side ^ 1);
        let Some(k) = p.royal_square(us) else {
            return vec![];
        };
        p.occ[them]
            .iter()
            .filter(|&c| p.reaches(c, piece_of(p.board[c]).0, them, k))
            .collect()
    }
}

impl Board for TsumeBoard {
    type Move = VMove;
    type Square = usize;
    type Kind = usize;

    fn key(&self) -> u64 {
        super::mate::key(&self.p)
    }
    fn after(&self, m: VMove) -> TsumeBoard {
        let mut q = self.clone();
        q.p.do_move(m);
        q
    }
    fn legal_moves(&self) -> Vec<VMove> {
        self.p.clone().legal_moves(self.drop_mate)
    }
    fn legal_checks(&self) -> Vec<VMove> {
        self.p.clone().legal_checks(self.drop_mate)
    }
    fn in_check(&self) -> bool {
        self.p.in_check(self.p.side)
    }
    fn side(&self) -> usize {
        self.p.side
    }
    fn interposition(&self, m: VMove) -> Option<Interposition<usize>> {
        let us = self.p.side;
        let k = self.p.royal_square(us)?;
        let checkers = self.checkers();
        let q = self.after(m);
        if q.p.royal_square(us) != Some(k) {
            return None;
        }
        checkers
            .into_iter()
            .find(|&c| {
                let cell = q.p.board[c];
                cell != 0 && {
                    let (f, s) = piece_of(cell);
                    s != us && !q.p.reaches(c, f, s, k)
                }
            })
            .map(|c| Interposition {
                checker: c,
                square: m.to as usize,
            })
    }
    fn kind_at(&self, sq: usize) -> Option<usize> {
        let c = self.p.board[sq];
        (c != 0).then(|| self.p.t.kind_of[piece_of(c).0] as usize)
    }
    fn steps(m: VMove, from: usize, to: usize) -> bool {
        !m.is_drop() && m.from as usize == from && m.to as usize == to
    }
    fn give_back(&mut self, from: usize, to: usize, kind: usize) {
        if self.p.hands[from][kind] == 0 {
            return;
        }
        self.p.hands[from][kind] -= 1;
        self.p.hands[to][kind] += 1;
    }
    fn hand_letters(&self, side: usize) -> Vec<String> {
        self.p
            .t
            .spec
            .kinds
            .iter()
            .enumerate()
            .filter(|(k, _)| self.p.hands[side][*k] > 0)
            .map(|(k, kind)| match self.p.hands[side][k] {
                1 => kind.letter.to_string(),
                n => format!("{n}{}", kind.letter),
            })
            .collect()
    }
    fn text(&self, m: VMove) -> String {
        self.p.move_text(m)
    }
    fn other_face(m: VMove, main: VMove) -> bool {
        m != main && !m.is_drop() && m.from == main.from && m.to == main.to
    }
}
