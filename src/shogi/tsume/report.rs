//! The soundness of a problem's main line under a convention: alternative mates of the attacker
//! (余詰, at the last ply 最終手余詰), futile interpositions in the line, defences that last
//! longer or as long (変同), a shorter mate, pieces left in the attacker's hand (駒余り), and the
//! attacker's other mates in the variations of the line's length with no piece left over
//! (変化別詰).
//!
//! The terms as d.akinori.org, 「詰将棋の原則について (3)」 (2004-08-18, amended 2004-08-31)
//! defines them: a variation of the same length as the main line with no piece left over is
//! 変化同手数 (変同), a blemish at most; another mate of the attacker in such a variation is
//! 変化別詰 (変別), "strictly as good as an alternative mate, since one of two equally best lines
//! has another line, but often overlooked". The conventions of rules/shogi_tsume.rule list it
//! under each verdict, and only `common-unique-variations` calls it a flaw.

use super::{Board, Checker, Convention, Stop};

/// Moves found at one ply of the main line (1 is the attacker's first move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AtPly<M> {
    pub ply: u32,
    pub moves: Vec<M>,
}

/// The verdict on a main line under one convention.
#[derive(Clone, Debug)]
pub struct Verdict<M> {
    pub convention: Convention,
    /// `None` when a search stopped first.
    pub sound: Option<bool>,
    /// Why it is not sound (empty when sound), and why the verdict is unknown.
    pub reasons: Vec<String>,
    /// Other attacker moves that mate within the remaining plies, at each attacker ply.
    pub alternatives: Vec<AtPly<M>>,
    /// Other defences that counting as answers last exactly as long as the line's.
    pub equal_length: Vec<AtPly<M>>,
    /// The line's move with the other face (promoted or not) that mates as well (成生非限定):
    /// noted, no flaw.
    pub promotion_choices: Vec<AtPly<M>>,
    /// The shortest mate from the start under the convention (when found within the line's length).
    pub shortest: Option<u32>,
    /// The variations of the line's length with no piece left over (変同), each with the
    /// attacker's other mates along it (変化別詰).
    pub variations: Vec<Variation<M>>,
}

/// A variation of the main line's length with no piece left over (変同): the defender's other
/// answer at `ply`, the whole line from the start as the checker reads it (the attacker's first
/// shortest mate, the defender's first longest answer), and the attacker's other mates along it
/// after `ply` (変化別詰; promotion choices left out, last moves included).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variation<M> {
    pub ply: u32,
    pub line: Vec<M>,
    pub alternatives: Vec<AtPly<M>>,
}

/// The variations a report examines at most (variations of variations included).
pub const MAX_VARIATIONS: usize = 256;

/// The positions along a line, the start first.
#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
pub fn positions<B: Board>(start: &B, line: &[B::Move]) -> Vec<B> {
    let mut out = vec![start.clone()];
    for &m in line {
        let p = out.last().expect("the start is there").after(m);
        out.push(p);
    }
    out
}

/// Why `line` is not a mating line of checks from `start` (legal moves, the attacker's each a
/// check, an odd length), or `None`.
pub fn line_problem<B: Board>(start: &B, line: &[B::Move]) -> Option<String> {
    if line.is_empty() {
        return Some("the solution has no move".into());
    }
    if line.len().is_multiple_of(2) {
        return Some(format!(
            "the solution has {} plies: a mate ends on the attacker's move, after an odd number",
            line.len()
        ));
    }
    let mut p = start.clone();
    for (i, &m) in line.iter().enumerate() {
        if !p.legal_moves().contains(&m) {
            return Some(format!("ply {}: {} is not a legal move", i + 1, p.text(m)));
        }
        let q = p.after(m);
        if i % 2 == 0 && !q.in_check() {
            return Some(format!(
                "ply {}: {} does not check (every move of the attacker checks)",
                i + 1,
                p.text(m)
            ));
        }
        p = q;
    }
    None
}

/// The futile interpositions (common convention) among the defender's answers at each defender
/// ply of the line.
pub fn futile_interpositions<B: Board>(
    ck: &mut Checker,
    start: &B,
    line: &[B::Move],
) -> Result<Vec<AtPly<B::Move>>, Stop> {
    let ps = positions(start, line);
    let l = line.len() as u32;
    let mut out = vec![];
    for k in (2..=l).step_by(2) {
        let p = &ps[k as usize - 1];
        let d = l - k + 1;
        let mut moves = vec![];
        for m in p.legal_moves() {
            if p.interposition(m).is_some() && ck.futile(p, m, d)? {
                moves.push(m);
            }
        }
        if !moves.is_empty() {
            out.push(AtPly { ply: k, moves });
        }
    }
    Ok(out)
}

/// Pieces in the attacker's hand at the end of the line, in SFEN letters (`2P`, `G`).
#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
pub fn leftover<B: Board>(start: &B, line: &[B::Move]) -> Vec<String> {
    let ps = positions(start, line);
    ps.last()
        .expect("the start is there")
        .hand_letters(start.side())
}

/// The verdict on `line` (checked by [`line_problem`] first) under `conv`.
pub fn verdict<B: Board>(
    ck: &mut Checker,
    start: &B,
    line: &[B::Move],
    conv: Convention,
) -> Verdict<B::Move> {
    let mut v = Verdict {
        convention: conv,
        sound: None,
        reasons: vec![],
        alternatives: vec![],
        equal_length: vec![],
        promotion_choices: vec![],
        shortest: None,
        variations: vec![],
    };
    match examine(ck, start, line, conv, &mut v) {
        Ok(()) => v.sound = Some(v.reasons.is_empty()),
        Err(stop) => {
            v.sound = None;
            v.reasons
                .push(format!("unknown: {stop} ({} positions)", ck.nodes));
        }
    }
    v
}

fn examine<B: Board>(
    ck: &mut Checker,
    start: &B,
    line: &[B::Move],
    conv: Convention,
    v: &mut Verdict<B::Move>,
) -> Result<(), Stop> {
    let f = conv.futility;
    let ps = positions(start, line);
    let l = line.len() as u32;
    let usi = |m: &B::Move| start.text(*m);
    // the end is a mate under the convention
    if !ck.mated_within(&ps[l as usize], 0, f)? {
        v.reasons.push(format!(
            "the line does not end in mate under this convention: the defender still has an answer after ply {l}"
        ));
    }
    // a shorter mate from the start
    v.shortest = ck.shortest(start, l, f)?;
    match v.shortest {
        Some(s) if s < l => v
            .reasons
            .push(format!("a shorter mate exists: {} (早詰)", plies(s))),
        None => v.reasons.push(format!(
            "the start is not a mate within {} under this convention",
            plies(l)
        )),
        _ => {}
    }
    for k in 1..=l {
        let p = &ps[k as usize - 1];
        let main = line[k as usize - 1];
        let rest = l - k + 1;
        if k % 2 == 1 {
            let (faces, alts) = other_mates(ck, p, main, rest, conv)?;
            if !faces.is_empty() {
                v.promotion_choices.push(AtPly {
                    ply: k,
                    moves: faces,
                });
            }
            if alts.is_empty() {
                continue;
            }
            let names: Vec<String> = alts.iter().map(usi).collect();
            if k == l {
                if !conv.last_move_alternatives {
                    v.reasons.push(format!(
                        "ply {k}: another last move also mates (最終手余詰): {}",
                        names.join(", ")
                    ));
                }
            } else {
                v.reasons.push(format!(
                    "ply {k}: an alternative mate within {} (余詰): {}",
                    plies(rest),
                    names.join(", ")
                ));
            }
            v.alternatives.push(AtPly {
                ply: k,
                moves: alts,
            });
        } else {
            // the defender's move: counted, and the longest resistance
            let counted = ck.answers(p, rest, f)?;
            if !counted.contains(&main) {
                v.reasons.push(format!(
                    "ply {k}: {} is a futile interposition (無駄合), not an answer under this convention",
                    usi(&main)
                ));
                continue;
            }
            let main_len = ck.shortest(&ps[k as usize], rest - 1, f)?;
            let Some(main_len) = main_len else {
                // the line itself mates within `rest - 1`: cannot happen for a line ending in mate
                continue;
            };
            if main_len < rest - 1 {
                v.reasons.push(format!(
                    "ply {k}: after {} the attacker mates in {}, fewer than the line's {}",
                    usi(&main),
                    plies(main_len),
                    rest - 1
                ));
            }
            let mut same = vec![];
            for a in counted {
                if a == main {
                    continue;
                }
                match ck.shortest(&p.after(a), rest - 1, f)? {
                    None => v.reasons.push(format!(
                        "ply {k}: the defence {} is not mated within the remaining {}",
                        usi(&a),
                        plies(rest - 1)
                    )),
                    Some(n) if n > main_len => v.reasons.push(format!(
                        "ply {k}: the defence {} lasts longer ({}) than the line's {}",
                        usi(&a),
                        plies(n),
                        usi(&main)
                    )),
                    Some(n) if n == main_len => same.push(a),
                    _ => {}
                }
            }
            if !same.is_empty() {
                v.equal_length.push(AtPly {
                    ply: k,
                    moves: same,
                });
            }
        }
    }
    let left = leftover(start, line);
    if !left.is_empty() {
        v.reasons.push(format!(
            "pieces left in the attacker's hand at the end (駒余り): {}",
            left.join(" ")
        ));
    }
    variations(ck, start, line, conv, v)
}

/// The attacker's checks at `p` other than the line's `main` that mate within `rest` plies
/// (counting the check): those that are `main` with the other face (成・生: a choice of
/// promotion, no other mate), and the others.
/// Moves split in two: the other faces of the line's move, and the other moves.
type Split<M> = (Vec<M>, Vec<M>);

fn other_mates<B: Board>(
    ck: &mut Checker,
    p: &B,
    main: B::Move,
    rest: u32,
    conv: Convention,
) -> Result<Split<B::Move>, Stop> {
    let mut alts = vec![];
    for m in p.legal_checks() {
        if m != main && ck.mated_within(&p.after(m), rest - 1, conv.futility)? {
            alts.push(m);
        }
    }
    Ok(alts.into_iter().partition(|&m| B::other_face(m, main)))
}

/// The variations of the line's length with no piece left over (変同), from the equal-length
/// defences of the main line and, in turn, of each such variation; along each, the attacker's
/// other mates (変化別詰), a flaw where the convention says so.
#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
fn variations<B: Board>(
    ck: &mut Checker,
    start: &B,
    line: &[B::Move],
    conv: Convention,
    v: &mut Verdict<B::Move>,
) -> Result<(), Stop> {
    let f = conv.futility;
    let l = line.len() as u32;
    // (the ply of the defence, the line up to it)
    let mut todo: Vec<(u32, Vec<B::Move>)> = v
        .equal_length
        .iter()
        .flat_map(|at| {
            at.moves.iter().map(|&a| {
                let mut prefix = line[..at.ply as usize - 1].to_vec();
                prefix.push(a);
                (at.ply, prefix)
            })
        })
        .collect();
    todo.reverse();
    let usi = |ms: &[B::Move]| {
        ms.iter()
            .map(|m| start.text(*m))
            .collect::<Vec<_>>()
            .join(" ")
    };
    while let Some((k, prefix)) = todo.pop() {
        if v.variations.len() >= MAX_VARIATIONS {
            return Err(Stop::Variations(MAX_VARIATIONS));
        }
        let mut ps = positions(start, &prefix);
        let after = ps.last().expect("the start is there");
        let Some(rest) = ck.line(after, l - k, f)? else {
            continue;
        };
        for &m in &rest {
            let q = ps.last().expect("the start is there").after(m);
            ps.push(q);
        }
        let mut full = prefix;
        full.extend(rest);
        let end = ps.last().expect("the start is there");
        if full.len() as u32 != l || !end.hand_letters(start.side()).is_empty() {
            continue;
        }
        let mut alternatives = vec![];
        let mut deeper = vec![];
        for j in k + 1..=l {
            let p = &ps[j as usize - 1];
            let main = full[j as usize - 1];
            let left = l - j + 1;
            if j % 2 == 1 {
                let (_, alts) = other_mates(ck, p, main, left, conv)?;
                if alts.is_empty() {
                    continue;
                }
                if !conv.variation_alternatives && (j < l || !conv.last_move_alternatives) {
                    v.reasons.push(format!(
                        "ply {j} of the variation {} at ply {k} (as long as the line, no piece left over): another mate (変化別詰): {}",
                        start.text(full[k as usize - 1]),
                        usi(&alts)
                    ));
                }
                alternatives.push(AtPly {
                    ply: j,
                    moves: alts,
                });
            } else {
                for a in ck.answers(p, left, f)? {
                    if a != main && ck.shortest(&p.after(a), left - 1, f)? == Some(l - j) {
                        let mut prefix = full[..j as usize - 1].to_vec();
                        prefix.push(a);
                        deeper.push((j, prefix));
                    }
                }
            }
        }
        v.variations.push(Variation {
            ply: k,
            line: full,
            alternatives,
        });
        todo.extend(deeper.into_iter().rev());
    }
    Ok(())
}

/// "1 ply", "3 plies".
pub fn plies(n: u32) -> String {
    if n == 1 {
        "1 ply".into()
    } else {
        format!("{n} plies")
    }
}
