//! The end of a game by repetition (千日手) under a variant's rule: the position (board, hands,
//! side to move) occurring for the rule's count-th time, won by the other side where one side
//! gave check with every move of the repetition (where the rule says so), else as the rule says.
//! It stands for `repetition_winner` of rules/variants/board.rule.

use super::position::VPos;
use super::spec::RepetitionResult;

fn same(a: &VPos, b: &VPos) -> bool {
    a.side == b.side && a.board == b.board && a.hands == b.hands
}

/// A game ended by repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepetitionEnd {
    /// The side that wins (`None`: a draw).
    pub winner: Option<usize>,
    /// Lost by the side that gave check with every move of the repetition.
    pub perpetual_check: bool,
}

/// How a game, given by its positions from the start, stands at its last position: `None` when
/// no repetition ends it there.
pub fn repetition_end(game: &[VPos]) -> Option<RepetitionEnd> {
    let last = game.last()?;
    let rule = last.t.spec.repetition;
    if rule.count == 0 {
        return None;
    }
    let occurrences: Vec<usize> = (0..game.len()).filter(|&j| same(&game[j], last)).collect();
    if occurrences.len() < rule.count as usize {
        return None;
    }
    let start = occurrences[occurrences.len() - rule.count as usize];
    let run = &game[start..];
    // every move of o in the run gave check
    let checked_throughout = |o: usize| run.iter().all(|p| p.side != o ^ 1 || p.in_check(o ^ 1));
    let t = last.side;
    let perpetual = |winner| RepetitionEnd {
        winner: Some(winner),
        perpetual_check: true,
    };
    if rule.perpetual_check_loses {
        let (mover, other) = (checked_throughout(t ^ 1), checked_throughout(t));
        if mover && !other {
            return Some(perpetual(t));
        }
        if other && !mover {
            return Some(perpetual(t ^ 1));
        }
    }
    Some(RepetitionEnd {
        winner: match rule.result {
            RepetitionResult::Draw => None,
            RepetitionResult::FirstLoses => Some(1),
            RepetitionResult::MoverLoses => Some(t),
        },
        perpetual_check: false,
    })
}
