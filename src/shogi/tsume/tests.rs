//! The checker on composed problems of known flaws, on published lengths under the common
//! convention (antma/tsumeshogi-check), and against the df-pn search under the strict one.

use super::report::{leftover, line_problem, positions, verdict, AtPly, Variation, Verdict};
use super::*;
use crate::shogi::dfpn::{solve, MateOptions, MateStatus};
use crate::shogi::position::Position;
use crate::shogi::types::Move;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap()
}

fn moves(s: &str) -> Vec<Move> {
    s.split_whitespace()
        .map(|t| Move::from_usi(t).unwrap())
        .collect()
}

/// The verdicts of the five conventions on `line`.
fn verdicts(sfen: &str, line: &str) -> Vec<Verdict<Move>> {
    let p = pos(sfen);
    let l = moves(line);
    assert_eq!(line_problem(&p, &l), None, "{sfen}: {line}");
    let mut ck = Checker::new(5_000_000, 0);
    CONVENTIONS
        .iter()
        .map(|&c| verdict(&mut ck, &p, &l, c))
        .collect()
}

fn sound(vs: &[Verdict<Move>]) -> Vec<Option<bool>> {
    vs.iter().map(|v| v.sound).collect()
}

fn has_reason(v: &Verdict<Move>, what: &str) -> bool {
    v.reasons.iter().any(|r| r.contains(what))
}

/// F1 of rules/shogi_tsume.rule: the dragon's distant check mates in one when futile
/// interpositions do not count; every interposition counted, a pawn interposed on the first rank
/// makes it three plies with the pawn left over.
const F1: &str = "8k/6S2/7G1/9/+RP7/9/9/9/4K4 b p 1";

#[test]
fn futile_interposition_changes_the_length_under_one_convention() {
    let p = pos(F1);
    let mut ck = Checker::new(1_000_000, 0);
    assert_eq!(ck.shortest(&p, 9, Futility::Common), Ok(Some(1)));
    assert_eq!(ck.shortest(&p, 9, Futility::Strict), Ok(Some(3)));
    let vs = verdicts(F1, "9e9a");
    // common, common-unique-last, common-unique-variations, strict, strict-unique-last
    assert_eq!(
        sound(&vs),
        [Some(true), Some(true), Some(true), Some(false), Some(false)]
    );
    assert!(has_reason(&vs[3], "does not end in mate"), "{:?}", vs[3]);
    // the strict solution: a pawn interposed and taken, the pawn left over
    let vs = verdicts(F1, "9e9a P*2a 3b2a+");
    assert!(vs.iter().all(|v| v.sound == Some(false)));
    assert!(has_reason(&vs[0], "futile interposition"), "{:?}", vs[0]);
    assert!(has_reason(&vs[3], "駒余り"), "{:?}", vs[3]);
    // the dragon taking on 2a mates as well: a last-move alternative, allowed by `strict`
    assert!(!has_reason(&vs[3], "最終手余詰"));
    assert!(has_reason(&vs[4], "最終手余詰"), "{:?}", vs[4]);
    // every interposition after 9e9a is futile (with no plies left)
    let q = p.after(Move::from_usi("9e9a").unwrap());
    let answers: Vec<Move> = q.legal_moves().iter().copied().collect();
    assert_eq!(answers.len(), 7);
    for m in answers {
        assert!(interposition(&q, m).is_some(), "{m}");
        assert_eq!(ck.futile(&q, m, 0), Ok(true), "{m}");
    }
}

#[test]
fn leftover_piece_is_a_flaw_under_every_convention() {
    // G*5b mates (the pawn on 5c guards it); the pawn in hand is never used
    let vs = verdicts("4k4/9/4P4/9/9/9/9/9/4K4 b GP 1", "G*5b");
    assert_eq!(sound(&vs), [Some(false); 5]);
    assert!(vs.iter().all(|v| has_reason(v, "駒余り")));
    // without the pawn in hand, the same problem is sound
    let vs = verdicts("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b");
    assert_eq!(sound(&vs), [Some(true); 5]);
}

#[test]
fn last_move_alternative_is_a_flaw_only_under_unique_last() {
    // L1 of the rule file: 1c1b, 1c2b, 2c1b and 2c2b all mate
    let vs = verdicts("8k/9/7GG/9/9/9/9/9/4K4 b - 1", "1c1b");
    assert_eq!(
        sound(&vs),
        [
            Some(true),
            Some(false),
            Some(false),
            Some(true),
            Some(false)
        ]
    );
    assert_eq!(vs[0].alternatives.len(), 1);
    assert_eq!(vs[0].alternatives[0].ply, 1);
    assert_eq!(
        vs[0].alternatives[0].moves,
        moves("1c2b 2c1b 2c2b"),
        "{:?}",
        vs[0]
    );
}

/// antma's tsume3-1 (k2G5/9/K8/9/N8/9/9/9/9, 9e8c 9a8a 6a7a) is sound; a bishop added on 6b
/// gives a second first move: 6b7c (or 6b7c+) checks along the diagonal to 9a, the king's only
/// flight is 8a, and the gold mates on 7a as before. An alternative mate at ply 1 of 3 (余詰);
/// at ply 3 the bishop mates on 7a too (6b7a+), a last-move alternative.
#[test]
fn alternative_mate_before_the_last_move_is_a_flaw_under_every_convention() {
    let vs = verdicts(
        "k2G5/9/K8/9/N8/9/9/9/9 b 2r2b3g4s3n4l18p 1",
        "9e8c 9a8a 6a7a",
    );
    assert_eq!(sound(&vs), [Some(true); 5], "{vs:?}");
    let vs = verdicts(
        "k2G5/3B5/K8/9/N8/9/9/9/9 b 2rb3g4s3n4l18p 1",
        "9e8c 9a8a 6a7a",
    );
    assert_eq!(sound(&vs), [Some(false); 5]);
    for v in &vs {
        // the bishop mates on 7a at the last ply as well: a flaw where the last move is unique
        let last = usize::from(!v.convention.last_move_alternatives);
        assert_eq!(v.reasons.len(), 1 + last, "{v:?}");
        assert!(
            has_reason(v, "ply 1: an alternative mate within 3 plies (余詰)"),
            "{v:?}"
        );
        assert_eq!(v.alternatives[0].moves, moves("6b7c+ 6b7c"), "{v:?}");
    }
}

/// antma's tsume7-5 (../shared/shogi-oracles/tsume/curated/curated.tsv), its shortest line: after 9c9b at ply 4, a
/// defence as long as the line's 9c8b with no piece left over (変同), the attacker mates with
/// S*9c or G*9c at ply 5, and at ply 7 with G*7a or G*8b (変化別詰). Overlooked by every
/// convention but `common-unique-variations`, under which the problem is not sound; the
/// variations of the main line's other equal defences (9c8d at ply 4, 8b9b at ply 6) have one
/// mate each.
#[test]
fn alternative_mates_in_an_equal_variation_are_a_flaw_only_where_the_convention_says() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let sfen = "l8/1ks+P5/1ppp5/p8/9/2P6/9/9/9 b G2SN2r2b3gs3n3l12p 1";
    let vs = verdicts(sfen, "S*9c 8b9c N*8e 9c8b S*7a 8b8a G*8b");
    assert_eq!(
        sound(&vs),
        [Some(true), Some(true), Some(false), Some(true), Some(true)],
        "{vs:?}"
    );
    for v in &vs {
        let with_alts: Vec<&Variation<Move>> = v
            .variations
            .iter()
            .filter(|x| !x.alternatives.is_empty())
            .collect();
        assert_eq!(
            with_alts.len(),
            1,
            "{}: {:?}",
            v.convention.name,
            v.variations
        );
        let x = with_alts[0];
        assert_eq!(x.ply, 4);
        assert_eq!(x.line, moves("S*9c 8b9c N*8e 9c9b S*9c 9b8a G*7a"));
        assert_eq!(
            x.alternatives,
            [
                AtPly {
                    ply: 5,
                    moves: moves("G*9c")
                },
                AtPly {
                    ply: 7,
                    moves: moves("G*8b")
                }
            ],
            "{x:?}"
        );
        // each variation is as long as the line and leaves no piece over
        for y in &v.variations {
            assert_eq!(y.line.len(), 7, "{y:?}");
            assert!(leftover(&pos(sfen), &y.line).is_empty(), "{y:?}");
            assert!(
                crate::shogi::mate1::is_mating_line(&pos(sfen), &y.line),
                "{y:?}"
            );
        }
    }
    let flaws: Vec<&String> = vs[2]
        .reasons
        .iter()
        .filter(|r| r.contains("変化別詰"))
        .collect();
    assert_eq!(flaws.len(), 2, "{:?}", vs[2]);
    // G*9c mates within the three plies left at ply 5 of the variation
    let p = positions(&pos(sfen), &moves("S*9c 8b9c N*8e 9c9b"))
        .pop()
        .unwrap();
    let mut ck = Checker::new(1_000_000, 0);
    let g = p.after(Move::from_usi("G*9c").unwrap());
    assert_eq!(ck.mated_within(&g, 2, Futility::Common), Ok(true));
}

/// The bishop's promotion or not at the last move of a sound line is a choice of face, not an
/// alternative mate: Karolina (mogproject's benchmark, 13 plies), sound under every convention.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn other_face_is_no_alternative() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let row = curated()
        .into_iter()
        .find(|(id, _, _)| id == "mog-karolina")
        .unwrap();
    let p = pos(&row.1);
    let mut ck = Checker::new(20_000_000, 0);
    let line = ck.line(&p, 13, Futility::Strict).unwrap().unwrap();
    assert_eq!(line.len(), 13);
    for c in CONVENTIONS {
        let v = verdict(&mut ck, &p, &line, c);
        assert_eq!(v.sound, Some(true), "{}: {v:?}", c.name);
    }
}

/// Rows of ../shared/shogi-oracles/tsume/curated/curated.tsv: (id, sfen, expectation).
fn curated() -> Vec<(String, String, String)> {
    let text = crate::shogi::test_data::text("curated.tsv");
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f.len() >= 3).then(|| (f[0].to_string(), f[1].to_string(), f[2].to_string()))
        })
        .collect()
}

/// antma/tsumeshogi-check states the length of its problems under the tsume convention
/// (futile interpositions not counted): the checker's shortest mate under the common convention
/// is that length on every one of its rows.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn common_lengths_are_antmas() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let mut n = 0;
    for (id, sfen, expect) in curated() {
        if !id.starts_with("tsc-") {
            continue;
        }
        let Some(len) = expect.strip_prefix("mate:") else {
            continue;
        };
        let len: u32 = len.parse().unwrap();
        let mut ck = Checker::new(20_000_000, 0);
        assert_eq!(
            ck.shortest(&pos(&sfen), len + 2, Futility::Common),
            Ok(Some(len)),
            "{id}"
        );
        n += 1;
    }
    assert!(n >= 60, "{n} rows");
}

/// Under the strict convention the checker is `mate_in`: the same shortest length as the df-pn
/// search on the curated rows of at most 13 plies and the first problems of the mate sets.
#[test]
#[cfg_attr(debug_assertions, ignore)]
fn strict_lengths_are_the_df_pn_searchs() {
    if !crate::shogi::test_data::present() {
        return;
    }
    let mut sfens: Vec<String> = curated()
        .into_iter()
        .filter(|(id, _, e)| {
            id != "kh-microcosmos"
                && e.strip_prefix("mate:")
                    .and_then(|n| n.parse::<u32>().ok())
                    .is_some_and(|n| n <= 13)
        })
        .map(|(_, s, _)| s)
        .collect();
    for (file, take) in [
        (crate::shogi::test_data::text("mate-3-ply.sfen"), 20),
        (crate::shogi::test_data::text("mate-5-ply.sfen"), 10),
        (crate::shogi::test_data::text("mate-7-ply.sfen"), 5),
    ] {
        sfens.extend(file.lines().take(take).map(|l| l.to_string()));
    }
    for s in sfens {
        let p = pos(&s);
        let r = solve(
            &p,
            &MateOptions {
                hash_mb: 16,
                max_nodes: 20_000_000,
                ..Default::default()
            },
        );
        assert_eq!(r.result, MateStatus::Mate, "{s}");
        let mut ck = Checker::new(50_000_000, 0);
        assert_eq!(
            ck.shortest(&p, r.plies, Futility::Strict),
            Ok(Some(r.plies)),
            "{s}"
        );
    }
}

#[test]
fn limits_end_in_a_stop() {
    let p = pos("ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42");
    let mut ck = Checker::new(10, 0);
    assert_eq!(
        ck.tsume_within(&p, 9, Futility::Common),
        Err(Stop::Nodes(10))
    );
    let v = verdict(&mut ck, &p, &moves("B*5g 4h5h 7i6i"), CONVENTIONS[0]);
    assert_eq!(v.sound, None);
    assert!(has_reason(&v, "unknown"), "{v:?}");
}
