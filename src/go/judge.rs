//! A game record judged by a rule set's axes (rules/go_rulesets.rule): the boards a record's
//! plays give, the first play a ko rule or a suicide rule forbids (or, under the simple ko rule,
//! the play that brings a situation back a third time), and the surrounded points of a final
//! board with or without the eyes of stones that touch a dame.
//!
//! Each function states in Rust what the definition of the same name states in the rules; the
//! natives bound to them are checked against the rules (tests/go_rulesets.rs).

use super::board::{Board, Color, Illegal};
use super::graph::Graph;
use std::collections::{HashMap, HashSet};

/// A play of a record: a colour and a vertex, or a pass (`None`).
pub type Play = (Color, Option<usize>);

/// Which repetition a stone may not bring about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KoRule {
    /// The board of two plays before.
    Simple,
    /// Any earlier board.
    Positional,
    /// Any earlier board with the same player to move.
    Situational,
}

/// The board after a play as a record plays it: captures, then the mover's own chain when it
/// is left without liberties (a single stone's suicide leaves the board as it was).
pub fn after_play(g: &Graph, b: &Board, p: Play) -> Result<Board, Illegal> {
    let (c, Some(v)) = p else { return Ok(*b) };
    match b.play(g, v, c, true) {
        Ok((nb, _)) => Ok(nb),
        Err(Illegal::Suicide) => Ok(*b),
        Err(e) => Err(e),
    }
}

/// The boards of a record: the setup, then the board after each play. The index of the first
/// play on an occupied point is the error.
pub fn record_boards(g: &Graph, setup: &Board, plays: &[Play]) -> Result<Vec<Board>, usize> {
    let mut h = Vec::with_capacity(plays.len() + 1);
    h.push(*setup);
    for (i, &p) in plays.iter().enumerate() {
        let last = h[h.len() - 1];
        h.push(after_play(g, &last, p).map_err(|_| i)?);
    }
    Ok(h)
}

/// The mover's own stones play i (0-based) took off, the one it placed included.
fn self_taken(h: &[Board], plays: &[Play], i: usize) -> usize {
    let (c, v) = plays[i];
    let placed = v.is_some_and(|v| h[i + 1].get(v) == 0) as usize;
    h[i].stones(c).minus(h[i + 1].stones(c)).len() + placed
}

/// Why play i (0-based) is forbidden, `None` when it is not.
pub fn forbidden_play(
    h: &[Board],
    plays: &[Play],
    i: usize,
    ko: KoRule,
    multi_suicide: bool,
) -> Option<&'static str> {
    let (s, Some(v)) = plays[i] else { return None };
    let after = &h[i + 1];
    if after.get(v) == 0 && self_taken(h, plays, i) == 1 {
        return Some("suicide of a single stone");
    }
    if after.get(v) == 0 && !multi_suicide {
        return Some("suicide");
    }
    match ko {
        KoRule::Simple if i >= 1 && *after == h[i - 1] => Some("ko: an immediate retake"),
        KoRule::Positional if h[..=i].contains(after) => Some("positional superko"),
        KoRule::Situational if (0..=i).any(|j| h[j] == *after && plays[j].0 == s.opponent()) => {
            Some("situational superko")
        }
        _ => None,
    }
}

/// Whether play i (0-based) brings the game back to a situation (board and player to move) for
/// the third time.
pub fn cycles_at(h: &[Board], plays: &[Play], i: usize) -> bool {
    let start = (h[0] == h[i + 1] && plays[0].0 == plays[i].0.opponent()) as usize;
    let later = (0..=i)
        .filter(|&j| h[j + 1] == h[i + 1] && plays[j].0 == plays[i].0)
        .count();
    start + later >= 3
}

/// The reason of a cycle, as the rules write it.
pub const CYCLE: &str = "a cycle: the same situation a third time";

/// The first play (1-based) at which the game stops, and why; `(0, "")` when none does. The
/// earlier boards and situations are kept in hash tables: one pass over the record.
pub fn first_stop(
    h: &[Board],
    plays: &[Play],
    ko: KoRule,
    multi_suicide: bool,
) -> (usize, &'static str) {
    let mut boards: HashSet<Board> = HashSet::new();
    let mut situations: HashSet<(Board, Color)> = HashSet::new();
    // (board, the colour that moved to it): how often it came about
    let mut arrivals: HashMap<(Board, Color), usize> = HashMap::new();
    if let Some(&(c, _)) = plays.first() {
        arrivals.insert((h[0], c.opponent()), 1);
    }
    for (i, &(s, v)) in plays.iter().enumerate() {
        boards.insert(h[i]);
        situations.insert((h[i], s));
        let after = h[i + 1];
        if v.is_some() {
            let placed = v.is_some_and(|v| after.get(v) == 0);
            let why = if placed && self_taken(h, plays, i) == 1 {
                Some("suicide of a single stone")
            } else if placed && !multi_suicide {
                Some("suicide")
            } else {
                match ko {
                    KoRule::Simple if i >= 1 && after == h[i - 1] => {
                        Some("ko: an immediate retake")
                    }
                    KoRule::Positional if boards.contains(&after) => Some("positional superko"),
                    KoRule::Situational if situations.contains(&(after, s.opponent())) => {
                        Some("situational superko")
                    }
                    _ => None,
                }
            };
            debug_assert_eq!(why, forbidden_play(h, plays, i, ko, multi_suicide));
            if let Some(why) = why {
                return (i + 1, why);
            }
        }
        let n = arrivals.entry((after, s)).or_insert(0);
        *n += 1;
        if ko == KoRule::Simple && *n >= 3 {
            return (i + 1, CYCLE);
        }
    }
    (0, "")
}

/// The surrounded points of a board, White's minus Black's: each empty region bordered by one
/// colour counts for it, except (when `seki` is false) a region some bordering stone of which
/// touches a dame (an empty region bordered by both colours).
pub fn empty_points(g: &Graph, b: &Board, seki: bool) -> i64 {
    let empties = b.empties(g.n);
    // the regions and the colours bordering each
    let mut region_of = vec![usize::MAX; g.n];
    let mut regions = vec![];
    let mut rest = empties;
    while let Some(v) = rest.first() {
        let r = g.component(v, &rest);
        rest = rest.minus(&r);
        let border = g.neighbours_of(&r);
        let nb = border.intersects(&b.black);
        let nw = border.intersects(&b.white);
        for u in r.iter() {
            region_of[u] = regions.len();
        }
        regions.push((r, border, nb, nw));
    }
    let dame = |r: usize| regions[r].2 && regions[r].3;
    // stones that touch a dame: a neighbour of a chain's stones in a dame region
    let touches_dame = |w: usize| -> bool {
        let chain = b.chain(g, w);
        g.neighbours_of(&chain)
            .and(&empties)
            .iter()
            .any(|x| dame(region_of[x]))
    };
    let mut total = 0i64;
    for (r, border, nb, nw) in &regions {
        let owner = match (nb, nw) {
            (true, false) => -1,
            (false, true) => 1,
            _ => continue,
        };
        if !seki && border.and(&b.occupied()).iter().any(touches_dame) {
            continue;
        }
        total += owner * r.len() as i64;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(vals: &[i8]) -> Board {
        Board::from_values(vals)
    }

    #[test]
    fn strips() {
        let g = Graph::path(5).unwrap();
        assert_eq!(empty_points(&g, &board(&[-1, -1, 0, 1, 1]), true), 0);
        assert_eq!(empty_points(&g, &board(&[0, -1, 1, 1, 1]), true), -1);
        // Black 2 with its eye at 1 touches the dame at 3
        let c = board(&[0, -1, 0, 1, 1]);
        assert_eq!(empty_points(&g, &c, true), -1);
        assert_eq!(empty_points(&g, &c, false), 0);
    }

    /// The first stop found with hash tables is the one the definitions give play by play.
    #[test]
    fn first_stop_is_the_naive_one() {
        let mut seed = 7u64;
        for n in [3, 4, 5] {
            let g = Graph::path(n).unwrap();
            for _ in 0..400 {
                let mut plays = vec![];
                let mut b = Board::empty();
                for k in 0..20 {
                    let r = crate::go::board::splitmix64(&mut seed);
                    let c = if k % 2 == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let v = (r % (n as u64 + 1)) as usize;
                    let p = (c, (v < n).then_some(v));
                    match after_play(&g, &b, p) {
                        Ok(nb) => {
                            b = nb;
                            plays.push(p);
                        }
                        Err(_) => plays.push((c, None)),
                    }
                }
                let h = record_boards(&g, &Board::empty(), &plays).unwrap();
                for ko in [KoRule::Simple, KoRule::Positional, KoRule::Situational] {
                    for sui in [false, true] {
                        let naive = (0..plays.len())
                            .find_map(|i| {
                                forbidden_play(&h, &plays, i, ko, sui)
                                    .map(|w| (i + 1, w))
                                    .or_else(|| {
                                        (ko == KoRule::Simple && cycles_at(&h, &plays, i))
                                            .then_some((i + 1, CYCLE))
                                    })
                            })
                            .unwrap_or((0, ""));
                        assert_eq!(first_stop(&h, &plays, ko, sui), naive, "{plays:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_ko_retake() {
        let g = Graph::path(4).unwrap();
        let plays = [
            (Color::Black, Some(1)),
            (Color::White, Some(2)),
            (Color::Black, Some(3)),
            (Color::White, Some(2)),
        ];
        let h = record_boards(&g, &Board::empty(), &plays).unwrap();
        assert_eq!(h[4], h[2]);
        assert_eq!(
            first_stop(&h, &plays, KoRule::Simple, false),
            (4, "ko: an immediate retake")
        );
        assert_eq!(
            first_stop(&h, &plays, KoRule::Situational, false),
            (4, "situational superko")
        );
        assert_eq!(first_stop(&h, &plays[..3], KoRule::Simple, false), (0, ""));
    }
}
