//! A game record judged by a rule set's axes (rules/go_rulesets.rule): the boards a record's
//! plays give, the first play a ko rule or a suicide rule forbids (or, under the simple ko rule,
//! the play that brings a situation back a third time), and the surrounded points of a final
//! board with or without the eyes of stones that touch a dame.
//!
//! Each function states in Rust what the definition of the same name states in the rules; the
//! natives bound to them are checked against the rules (tests/suite/go_rulesets.rs).

use super::bitset::BitSet;
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
/// touches a dame (an empty region bordered by both colours) on `d`: the board itself, or the
/// board with its dame filled ([`dame_filled`]).
pub fn empty_points(g: &Graph, b: &Board, d: &Board, seki: bool) -> i64 {
    let mut total = 0i64;
    let dame = dame_points(g, d);
    // stones that touch a dame on d: a neighbour of a chain's stones in a dame region
    let touches_dame = |w: usize| -> bool {
        let chain = d.chain(g, w);
        g.neighbours_of(&chain).intersects(&dame)
    };
    let mut rest = b.empties(g.n);
    while let Some(v) = rest.first() {
        let r = g.component(v, &rest);
        rest = rest.minus(&r);
        let border = g.neighbours_of(&r);
        let owner = match (border.intersects(&b.black), border.intersects(&b.white)) {
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

/// The empty points of a board's regions that both colours border: its dame.
fn dame_points(g: &Graph, b: &Board) -> BitSet {
    let mut dame = BitSet::default();
    let mut rest = b.empties(g.n);
    while let Some(v) = rest.first() {
        let r = g.component(v, &rest);
        rest = rest.minus(&r);
        let border = g.neighbours_of(&r);
        if border.intersects(&b.black) && border.intersects(&b.white) {
            dame = dame.or(&r);
        }
    }
    dame
}

/// The board after the confirmation stage fills the dame (日本囲碁規約 第九条-2 解説): the
/// lowest point of a region both colours border that a stone can fill (next to a stone of its
/// colour, taking nothing, its chain left more than one liberty), Black's stone first, until
/// none is left. A shared liberty of a seki is never filled.
pub fn dame_filled(g: &Graph, b: &Board) -> Board {
    let mut b = *b;
    'fill: loop {
        for v in dame_points(g, &b).iter() {
            for s in [Color::Black, Color::White] {
                if fills_dame(g, &b, v, s) {
                    b.set(v, Some(s));
                    continue 'fill;
                }
            }
        }
        return b;
    }
}

/// Whether a stone of s at the dame point v fills it: v is next to a stone of s, the stone
/// takes nothing, and its chain keeps more than one liberty.
fn fills_dame(g: &Graph, b: &Board, v: usize, s: Color) -> bool {
    let next = g.neighbours_of(&BitSet::single(v));
    if !next.intersects(b.stones(s)) {
        return false;
    }
    let takes = next.and(b.stones(s.opponent())).iter().any(|w| {
        let chain = b.chain(g, w);
        b.liberties(g, &chain) == BitSet::single(v)
    });
    if takes {
        return false;
    }
    let mut after = *b;
    after.set(v, Some(s));
    let chain = after.chain(g, v);
    after.liberties(g, &chain).len() >= 2
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
        assert_eq!(
            empty_points(
                &g,
                &board(&[-1, -1, 0, 1, 1]),
                &board(&[-1, -1, 0, 1, 1]),
                true
            ),
            0
        );
        assert_eq!(
            empty_points(
                &g,
                &board(&[0, -1, 1, 1, 1]),
                &board(&[0, -1, 1, 1, 1]),
                true
            ),
            -1
        );
        // Black 2 with its eye at 1 touches the dame at 3
        let c = board(&[0, -1, 0, 1, 1]);
        assert_eq!(empty_points(&g, &c, &c, true), -1);
        assert_eq!(empty_points(&g, &c, &c, false), 0);
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
