#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! `okite tsume` and the tsume checker of src/shogi/tsume against the definitions of
//! rules/shogi_tsume.rule it is bound to: on small problems, `tsume_within` and `futile` by the
//! rules alone and natively (`okite eval --verify` runs both and fails on a difference), and the
//! JSON contract of the command.

use crate::common;
use common::{okite, text};
use std::process::Output;

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// Small problems: the dragon's distant check (F1 of the rule file), the discovered check of a
/// bishop in front of a rook with the defender's knight able to take back (antma's tsume3-12,
/// where the interpositions are futile only with plies left), a leftover pawn, three golds, a
/// dropped gold, antma's tsume3-1.
const PROBLEMS: [(&str, &str); 6] = [
    ("8k/6S2/7G1/9/+RP7/9/9/9/4K4 b p 1", ""),
    ("9/9/9/9/9/7np/8k/8B/7LR b rb4g4s3n3l17p 1", "1h6c+"),
    ("4k4/9/4P4/9/9/9/9/9/4K4 b GP 1", ""),
    ("8k/9/7GG/9/9/9/9/9/4K4 b - 1", ""),
    ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", ""),
    ("k2G5/9/K8/9/N8/9/9/9/9 b 2r2b3g4s3n4l18p 1", ""),
];

/// `futile` of every answer after the check, for no plies left and two, by the rules and
/// natively; and the answers that are futile by the rules are the ones `okite tsume` lists.
#[test]
fn futile_natively_and_by_the_rules() {
    for (sfen, check, d, futile) in [
        ("8k/6S2/7G1/9/+RP7/9/9/9/4K4 b p 1", "9e9a", 0, 7),
        ("9/9/9/9/9/7np/8k/8B/7LR b rb4g4s3n3l17p 1", "1h6c+", 0, 1),
        ("9/9/9/9/9/7np/8k/8B/7LR b rb4g4s3n3l17p 1", "1h6c+", 2, 6),
    ] {
        let e = format!("len([s | s in legal(g, i), futile(g, i, s, {d})])");
        let o = okite(&["eval", "--verify", "--sfen", sfen, "--moves", check, &e]);
        assert_eq!(o.status.code(), Some(0), "{sfen}: {}", text(&o));
        assert_eq!(out(&o), futile.to_string(), "{sfen} {check} d = {d}");
    }
}

/// antma's tsume7-5: after 9c9b at ply 4, a variation as long as the line with no piece left
/// over, the attacker has two mates at ply 5 (S*9c, G*9c) and two at ply 7 (G*7a, G*8b). By
/// the rules (`variation_alternative_flaw`, natively and by the rule bodies, compared) exactly
/// the other mate is a flaw under `common-unique-variations` and none under
/// `common-unique-last`; `okite tsume` lists the same under `variations`, and its verdicts
/// differ on that alone.
#[test]
fn variation_alternatives_by_the_rules_and_in_the_report() {
    let sfen = "l8/1ks+P5/1ppp5/p8/9/2P6/9/9/9 b G2SN2r2b3gs3n3l12p 1";
    let line = "S*9c 8b9c N*8e 9c9b S*9c 9b8a G*7a";
    let ms: Vec<&str> = line.split(' ').collect();
    for (ply, n) in [(5, 3), (7, 1)] {
        let before = ms[..ply - 1].join(" ");
        let after = ms[..ply].join(" ");
        let e = format!(
            "len([s | s in legal(g, i), variation_alternative_flaw(g, i, game(\"{sfen}\", \"{after}\")[{}], s, {n})])",
            ply + 1
        );
        for (reading, count) in [("common-unique-variations", 1), ("common-unique-last", 0)] {
            let o = okite(&[
                "eval",
                "--verify",
                "--reading",
                reading,
                "--sfen",
                sfen,
                "--moves",
                &before,
                &e,
            ]);
            assert_eq!(
                o.status.code(),
                Some(0),
                "ply {ply} {reading}: {}",
                text(&o)
            );
            assert_eq!(out(&o), count.to_string(), "ply {ply} {reading}");
        }
    }
    let o = okite(&[
        "tsume",
        "--sfen",
        sfen,
        "--solution",
        "S*9c 8b9c N*8e 9c8b S*7a 8b8a G*8b",
        "--conventions",
        "common-unique-last,common-unique-variations",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = out(&o);
    let variation = format!(
        r#"{{"ply": 4, "line": [{}], "alternatives": [{{"ply": 5, "moves": ["G*9c"]}}, {{"ply": 7, "moves": ["G*8b"]}}]}}"#,
        ms.iter()
            .map(|m| format!("\"{m}\""))
            .collect::<Vec<_>>()
            .join(", ")
    );
    assert_eq!(j.matches(&variation).count(), 2, "{j}");
    assert!(
        j.contains(r#"{"convention": "common-unique-last", "sound": true, "reasons": []"#),
        "{j}"
    );
    assert!(
        j.contains(r#"{"convention": "common-unique-variations", "sound": false, "reasons": ["ply 5 of the variation 9c9b at ply 4 (as long as the line, no piece left over): another mate (変化別詰): G*9c", "ply 7 of the variation 9c9b at ply 4 (as long as the line, no piece left over): another mate (変化別詰): G*8b"]"#),
        "{j}"
    );
}

#[test]
fn json_contract() {
    let o = okite(&[
        "tsume",
        "--sfen",
        "8k/6S2/7G1/9/+RP7/9/9/9/4K4 b p 1",
        "--solution",
        "9e9a P*2a 3b2a+",
        "--conventions",
        "common,strict-unique-last",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = out(&o);
    assert!(
        j.starts_with(r#"{"sfen": "8k/6S2/7G1/9/+RP7/9/9/9/4K4 b p 1", "main_line": ["9e9a", "P*2a", "3b2a+"], "plies": 3, "solution": "given", "leftover": ["P"], "futile_interpositions": [{"ply": 2, "moves": ["P*2a", "P*3a", "P*4a", "P*5a", "P*6a", "P*7a", "P*8a"]}], "alternatives": [{"ply": 3, "moves": ["9a2a"], "last_move": true, "conventions": ["common", "strict-unique-last"]}], "verdicts": [{"convention": "common", "sound": false, "reasons": ["#),
        "{j}"
    );
    assert!(
        j.contains(r#"{"convention": "strict-unique-last", "sound": false, "reasons": ["ply 3: another last move also mates (最終手余詰): 9a2a", "pieces left in the attacker's hand at the end (駒余り): P"]"#),
        "{j}"
    );
}

#[test]
fn searched_line_and_verdicts() {
    // no solution given: the df-pn search's shortest line (every interposition counted), and
    // under the common count its own line of one ply
    let o = okite(&[
        "tsume",
        "--sfen",
        "8k/6S2/7G1/9/+RP7/9/9/9/4K4 b p 1",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let j = out(&o);
    assert!(j.contains(r#""plies": 3, "solution": "searched""#), "{j}");
    assert!(
        j.contains(r#"{"convention": "common", "sound": true, "reasons": [], "main_line": ["9e9a"], "plies": 1"#),
        "{j}"
    );
    assert!(
        j.contains(r#"{"convention": "strict", "sound": false, "reasons": ["pieces left in the attacker's hand at the end (駒余り): P"]"#),
        "{j}"
    );
}

/// The main line searched by two threads is as short as one thread's, and the report the same
/// but for its counts and times; a number of threads out of range is refused.
#[test]
fn searched_with_two_threads() {
    // the first problem of the mate-9 set (../shared/shogi-oracles/tsume/nshogi/mate-9-ply.sfen)
    let sfen = "ln2k3l/1Rs1gsgb1/2pppp3/p5Npp/5PP2/PP2P3P/2PPS4/1Bs2K3/LN3G1+rL w 2Pgnp 56";
    let report = |threads: &str| {
        let o = okite(&["tsume", "--sfen", sfen, "--threads", threads, "--json"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o));
        let j = out(&o);
        assert!(j.contains(r#""plies": 9, "solution": "searched""#), "{j}");
        j.split(", \"nodes\"")
            .next()
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(report("2"), report("1"));
    let o = okite(&["tsume", "--sfen", sfen, "--threads", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("E0602"), "{}", text(&o));
}

#[test]
fn from_a_record() {
    let dir = std::env::temp_dir().join(format!("okite-tsume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csa = dir.join("p.csa");
    std::fs::write(
        &csa,
        "V2.2\nP1-OU *  * +KI *  *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3+OU *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \nP5+KE *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \nP-00AL\n+\n+9583KE\n-9181OU\n+6171KI\n",
    )
    .unwrap();
    let o = okite(&["tsume", "--csa", csa.to_str().unwrap()]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(
        t.starts_with("main line (3 plies, as given): 9e8c 9a8a 6a7a"),
        "{t}"
    );
    assert!(t.contains("common: sound"), "{t}");
}

#[test]
fn refusals() {
    let o = okite(&[
        "tsume",
        "--sfen",
        "8k/9/7GG/9/9/9/9/9/4K4 b - 1",
        "--solution",
        "1c1b 1a2a",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("E0613"), "{}", text(&o));
    let o = okite(&[
        "tsume",
        "--sfen",
        "8k/9/7GG/9/9/9/9/9/4K4 b - 1",
        "--conventions",
        "loose",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o).contains("no reading named `loose`"),
        "{}",
        text(&o)
    );
    // a limit reached ends the verdict as unknown, with the reason
    let o = okite(&[
        "tsume",
        "--sfen",
        "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
        "--solution",
        "B*5g 4h5h 7i6i",
        "--nodes",
        "5",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(
        out(&o).contains(r#""sound": null, "reasons": ["unknown: the node limit of 5 was reached"#),
        "{}",
        out(&o)
    );
}

/// `tsume --batch FILE`: one report a problem, in the order of the file, the same with one job
/// and with several (but for their counts of nodes and times); each report is the one `--sfen`
/// gives for the problem alone; a line that does not read is reported in its place (its line
/// number, an error object under `--json`) and the batch goes on, exit 2; a problem with no
/// mate has no report either. Problems: the first of nshogi's mate-3, mate-5 and mate-7 sets
/// (../shared/shogi-oracles/tsume/nshogi), which must be found with 3, 5 and 7 plies.
#[test]
fn batches_report_each_problem_in_order() {
    if !common::oracles::present() {
        return;
    }
    let first = |n: u32| {
        let set =
            std::fs::read_to_string(common::oracles::path(&format!("mate-{n}-ply.sfen"))).unwrap();
        set.lines()
            .find(|l| !l.trim().is_empty())
            .unwrap()
            .trim()
            .to_string()
    };
    let (p3, p5, p7) = (first(3), first(5), first(7));
    let dir = std::env::temp_dir().join(format!("okite-tsume-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let batch = dir.join("batch.sfen");
    std::fs::write(
        &batch,
        format!("# three problems and a bad line\n{p3}\n\n{p5}\nnot an sfen\n{p7}\n"),
    )
    .unwrap();
    let b = batch.to_str().unwrap();
    let without_counts = |j: &str| -> Vec<String> {
        j.lines()
            .map(|l| {
                l.split(", \"nodes\"")
                    .next()
                    .unwrap_or_default()
                    .to_string()
            })
            .collect()
    };
    let one = okite(&["tsume", "--batch", b, "--json", "--jobs", "1"]);
    assert_eq!(one.status.code(), Some(2), "{}", text(&one));
    let lines = without_counts(&out(&one));
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (line, (p, plies)) in [(0, (&p3, 3)), (1, (&p5, 5)), (3, (&p7, 7))] {
        assert!(
            lines[line].contains(&format!("\"plies\": {plies}, \"solution\": \"searched\"")),
            "{}",
            lines[line]
        );
        let alone = okite(&["tsume", "--sfen", p, "--json"]);
        assert_eq!(without_counts(&out(&alone)), vec![lines[line].clone()]);
    }
    assert!(
        lines[2].starts_with(r#"{"result": "error", "line": 5, "code": "E0401""#),
        "{}",
        lines[2]
    );
    assert!(
        text(&one).contains("batch.sfen` line 5") || text(&one).contains("batch.sfen line 5"),
        "{}",
        text(&one)
    );
    for jobs in ["2", "3", "8"] {
        let many = okite(&["tsume", "--batch", b, "--json", "--jobs", jobs]);
        assert_eq!(many.status.code(), Some(2));
        assert_eq!(without_counts(&out(&many)), lines, "--jobs {jobs}");
    }
    let plain = okite(&["tsume", "--batch", b, "--jobs", "2"]);
    let t = out(&plain);
    assert!(
        t.contains(&format!("== line 2: {p3}")) && t.contains(&format!("== line 6: {p7}")),
        "{t}"
    );
    let o = okite(&["tsume", "--batch", b, "--jobs", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o).contains("E0602"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The slow tests (more than about 5 s each), run by .ci/run after the test command of
/// README.md: `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// `tsume_within` under both counts, by the rules and natively, for one and three plies.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn tsume_within_natively_and_by_the_rules() {
        let mut seen = std::collections::BTreeSet::new();
        for (sfen, moves) in PROBLEMS {
            for n in [1, 3] {
                for c in ["every_interposition", "futile_uncounted"] {
                    let e = format!("tsume_within(g, i, {n}, {c})");
                    let o = okite(&["eval", "--verify", "--sfen", sfen, "--moves", moves, &e]);
                    assert_eq!(
                        o.status.code(),
                        Some(0),
                        "{sfen} {moves}: {e}: {}",
                        text(&o)
                    );
                    seen.insert(out(&o));
                }
            }
        }
        // both answers occur
        assert_eq!(seen.len(), 2, "{seen:?}");
    }
}
