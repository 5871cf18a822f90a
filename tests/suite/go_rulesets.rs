#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! `okite go result`: Go records judged by the rule sets of rules/go_rulesets.rule, each result
//! checked per rule set against a count by hand; the rules alone against the native bindings;
//! dead stones from the command line, the record's TB/TW and seed 004's classes (cross-checked
//! with `okite go score`); a variant of a rule set run through the same command.
//!
//! The records are in tests/data/go/. Scores are White minus Black, komi included, as the seeds
//! count them; a `None` score is a game not counted (forbidden, a cycle, a resignation).

use crate::common;
use common::{json_ok, okite};

fn data(name: &str) -> String {
    format!("{}/tests/data/go/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut a = vec!["go", "result", "--json"];
    a.extend(args);
    json_ok(&a)
}

/// (ruleset, winner, score, play, reason) of each row.
type Row = (String, Option<String>, Option<f64>, u64, String);

fn rows(v: &serde_json::Value) -> Vec<Row> {
    v["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["ruleset"].as_str().unwrap().to_string(),
                r["winner"].as_str().map(str::to_string),
                r["score"].as_f64(),
                r["play"].as_u64().unwrap(),
                r["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A row as the tests write it.
type Want<'a> = (&'a str, Option<&'a str>, Option<f64>, u64, &'a str);

fn expect(rows: &[Row], want: &[Want]) {
    let got: Vec<Want> = rows
        .iter()
        .map(|(n, w, s, p, r)| (n.as_str(), w.as_deref(), *s, *p, r.as_str()))
        .collect();
    assert_eq!(got, want, "{rows:?}");
}

fn sgf(name: &str) -> Vec<Row> {
    rows(&json(&["--sgf", &data(name)]))
}

/// Each row's `agrees`, where every row compares its result with the record's.
fn agreements(v: &serde_json::Value) -> Vec<bool> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["agrees"].as_bool().unwrap())
        .collect()
}

const B: Option<&str> = Some("B");
/// The reason of a game RE ends by resignation, time or forfeit.
const RESIGNED: &str = "resignation, time or forfeit (as RE states)";
const W: Option<&str> = Some("W");

/// 7 x 7, komi 6.5 (KM). Black's wall D1-D7 and White's wall E1-E7 touch (no dame); Black's
/// last stone B4 is played inside its own territory (a 手入れ), then both pass.
/// Area: Black 8 stones + 20 points (A-C columns less B4) = 28, White 7 + 14 (F, G) = 21:
/// 21 - 28 + 6.5 = -0.5, Black by half a point. Territory: Black 20, White 14, no prisoners:
/// 14 - 20 + 6.5 = +0.5, White. Stones only: 7 - 8 + 6.5 = 5.5.
#[test]
fn area_and_territory_disagree_on_the_last_stone() {
    let all = sgf("area_territory.sgf");
    let area = (B, Some(-0.5), 17, "area count");
    let terr = (W, Some(0.5), 17, "territory count");
    expect(
        &all,
        &[
            ("tromp-taylor", area.0, area.1, area.2, area.3),
            ("chinese", area.0, area.1, area.2, area.3),
            ("japanese", terr.0, terr.1, terr.2, terr.3),
            ("korean", terr.0, terr.1, terr.2, terr.3),
            ("aga", area.0, area.1, area.2, area.3),
            ("new-zealand", area.0, area.1, area.2, area.3),
            ("ing", area.0, area.1, area.2, area.3),
            ("pure", W, Some(5.5), 17, "stones count"),
        ],
    );
    // the record's RE[W+0.5] agrees with the territory counts only
    let v = json(&["--sgf", &data("area_territory.sgf")]);
    let agrees = agreements(&v);
    assert_eq!(
        agrees,
        [false, false, true, true, false, false, false, false]
    );
    assert_eq!(v["record_result"]["stated"], "W+0.5");
}

/// Three kos on a 9 x 9 board (setup AB/AW), taken in turn: the whole board comes back every
/// six plays, Black to move. Positional and situational superko forbid the sixth play (White
/// retaking the third ko); under the simple ko rule the situation comes back a third time at
/// play 12: no result (Japanese 第十二条, Chinese by the referee), a draw (Korean).
#[test]
fn triple_ko() {
    let all = sgf("triple_ko.sgf");
    let psk = (None, None, 6, "forbidden: positional superko");
    let ssk = (None, None, 6, "forbidden: situational superko");
    let cycle = "a cycle: the same situation a third time";
    expect(
        &all,
        &[
            ("tromp-taylor", psk.0, psk.1, psk.2, psk.3),
            ("chinese", None, None, 12, cycle),
            ("japanese", None, None, 12, cycle),
            ("korean", Some("draw"), None, 12, cycle),
            ("aga", ssk.0, ssk.1, ssk.2, ssk.3),
            ("new-zealand", ssk.0, ssk.1, ssk.2, ssk.3),
            ("ing", psk.0, psk.1, psk.2, psk.3),
            ("pure", psk.0, psk.1, psk.2, psk.3),
        ],
    );
}

/// 6 x 6, komi 0, RE B+6: Black's wall on column C and White's on column E, the column between
/// them filled (D1-D3 Black, D4-D5 White) but for D6; then two passes. Black's 地 is columns A
/// and B (12 points), White's column F (6): B+6, as the record says. As the record leaves the
/// board, every stone of both walls touches the open dame D6, so under 第八条 read literally
/// nothing is 地: a draw (japanese-literal). The confirmation stage (第九条-2 解説) fills D6
/// (Black's stone keeps its wall's liberties) without counting it a move, and the count is the
/// referees'. Area counting: Black 9 stones + 12, White 8 + 6: B+7.
#[test]
fn an_open_dame_is_filled_at_the_confirmation() {
    let v = json(&[
        "--sgf",
        &data("open_dame.sgf"),
        "--rulesets",
        "japanese,korean,japanese-literal,korean-literal,chinese",
    ]);
    expect(
        &rows(&v),
        &[
            ("japanese", B, Some(-6.0), 19, "territory count"),
            ("korean", B, Some(-6.0), 19, "territory count"),
            (
                "japanese-literal",
                Some("draw"),
                Some(0.0),
                19,
                "territory count",
            ),
            (
                "korean-literal",
                Some("draw"),
                Some(0.0),
                19,
                "territory count",
            ),
            ("chinese", B, Some(-7.0), 19, "area count"),
        ],
    );
    let agrees = agreements(&v);
    assert_eq!(agrees, [true, true, false, false, false]);
    // the record's own rules (RU[Japanese]) name the rule set its result is stated under
    assert_eq!(
        v["record_rules"],
        serde_json::json!({"stated": "Japanese", "ruleset": "japanese"})
    );
    // the fill is bound to its native, and --engine verify finds no difference
    let natives: Vec<&str> = v["results"][0]["natives"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["native"].as_str().unwrap())
        .collect();
    assert!(natives.contains(&"go.dame_filled"), "{natives:?}");
    // a seki's shared liberty stays open: seki.sgf's eyes are still not 地 (see above)
    let s = rows(&json(&[
        "--sgf",
        &data("seki.sgf"),
        "--rulesets",
        "japanese",
    ]));
    expect(&s, &[("japanese", W, Some(0.5), 6, "territory count")]);
}

/// Two kos on a 9 x 9 board, Black to move: Black takes the first, White the second, Black
/// passes, White takes the first back, Black takes the second back: the board of the start
/// again, now with White to move. Positional superko forbids play 5; situational superko does
/// not (that situation never occurred), nor does the simple ko rule (neither retake is
/// immediate). Then two passes. Count: 5 stones each; the two ko points are surrounded by one
/// colour each (area: 6 - 6 = 0); prisoners 2 each. So 0 + 6.5 under area counting.
///
/// Territory: the rest of the board is one open dame. As the record leaves it, the stones around
/// both ko points touch it and neither is 地 (第八条): 6.5 under japanese-literal. The
/// confirmation stage's fill (Black first, from the lowest point) floods the open board and
/// leaves J2 open between White's H2, J1 and Black's stones (Black there would take H2, White
/// there would leave its stones no liberty): Black's stones around G1 touch that dame, White's
/// around C1 touch none, so White's C1 alone is 地: 1 + 6.5 = 7.5. An open board is no finished
/// game for the referees; the count only shows what the fill makes of it.
#[test]
fn positional_and_situational_superko_differ_after_a_pass() {
    let literal = rows(&json(&[
        "--sgf",
        &data("superko.sgf"),
        "--rulesets",
        "japanese-literal,korean-literal",
    ]));
    expect(
        &literal,
        &[
            ("japanese-literal", W, Some(6.5), 7, "territory count"),
            ("korean-literal", W, Some(6.5), 7, "territory count"),
        ],
    );
    let all = sgf("superko.sgf");
    let psk = (None, None, 5, "forbidden: positional superko");
    expect(
        &all,
        &[
            ("tromp-taylor", psk.0, psk.1, psk.2, psk.3),
            ("chinese", W, Some(6.5), 7, "area count"),
            ("japanese", W, Some(7.5), 7, "territory count"),
            ("korean", W, Some(7.5), 7, "territory count"),
            ("aga", W, Some(6.5), 7, "area count"),
            ("new-zealand", W, Some(6.5), 7, "area count"),
            ("ing", psk.0, psk.1, psk.2, psk.3),
            ("pure", psk.0, psk.1, psk.2, psk.3),
        ],
    );
}

/// The 1 x 8 strip `. . X X . O O .` after B C1, W F1, B D1, W G1 and two passes: a seki (either
/// side playing E1 is taken). Area: Black 2 stones + the eye A1-B1 = 4, White 2 + H1 = 3:
/// 3 - 4 + 0.5 = -0.5, Black. Territory under 第八条: both chains touch the dame E1, so neither
/// eye is 地: 0 + 0.5, White. Stones only: 2 - 2 + 0.5 = 0.5, White.
#[test]
fn seki_eyes_count_under_area_rules_only() {
    let all = sgf("seki.sgf");
    let area = (B, Some(-0.5), 6, "area count");
    expect(
        &all,
        &[
            ("tromp-taylor", area.0, area.1, area.2, area.3),
            ("chinese", area.0, area.1, area.2, area.3),
            ("japanese", W, Some(0.5), 6, "territory count"),
            ("korean", W, Some(0.5), 6, "territory count"),
            ("aga", area.0, area.1, area.2, area.3),
            ("new-zealand", area.0, area.1, area.2, area.3),
            ("ing", area.0, area.1, area.2, area.3),
            ("pure", W, Some(0.5), 6, "stones count"),
        ],
    );
    // seed 004's classes do not settle a seki: the sequence is not Chinese-terminable
    let v = json(&["--sgf", &data("seki.sgf")]);
    assert_eq!(
        v["dead"]["source"],
        "none (not Chinese-terminable under seed 004's classes)"
    );
}

/// 5 x 5: White's B1 joins its stone A1 and leaves the pair without liberties, capturing
/// nothing (Black A2, B2, C1 have liberties): a suicide of two stones. Allowed by Tromp-Taylor,
/// New Zealand and Ing; the pair is taken off and A1-B1 become Black's. Area: Black 3 stones + 2
/// = 5, White C3 = 1 (the rest of the board touches both): 1 - 5 + 0.5 = -3.5. Forbidden by the
/// others: the Japanese rules make it a loss for White (第十四条), the rest no result.
#[test]
fn suicide_of_two_stones() {
    let all = sgf("suicide.sgf");
    let allowed = (B, Some(-3.5), 8, "area count");
    let forbidden = (None, None, 6, "forbidden: suicide");
    expect(
        &all,
        &[
            ("tromp-taylor", allowed.0, allowed.1, allowed.2, allowed.3),
            (
                "chinese",
                forbidden.0,
                forbidden.1,
                forbidden.2,
                forbidden.3,
            ),
            ("japanese", B, None, 6, "forbidden: suicide"),
            ("korean", B, None, 6, "forbidden: suicide"),
            ("aga", forbidden.0, forbidden.1, forbidden.2, forbidden.3),
            ("new-zealand", allowed.0, allowed.1, allowed.2, allowed.3),
            ("ing", allowed.0, allowed.1, allowed.2, allowed.3),
            ("pure", forbidden.0, forbidden.1, forbidden.2, forbidden.3),
        ],
    );
}

/// 4 x 4: Black's column B against White's column C, and a white stone A2 played in Black's
/// side, marked dead by the record's TB (A1-A4). Area with A2 taken off: 8 - 8 + 0.5 = 0.5,
/// White. Territory: Black A1-A4 = 4 and the prisoner A2, White D1-D4 = 4: 4 - 5 + 0.5 = -0.5,
/// Black (White's extra stone costs it under territory counting). Tromp-Taylor and pure Go count
/// A2 as it stands: area White 5 + 4 = 9, Black 4 (A1, A3-A4 touch both colours): 5.5;
/// stones 5 - 4 + 0.5 = 1.5.
#[test]
fn dead_stones_from_the_record_and_the_command_line() {
    let want: &[Want] = &[
        ("tromp-taylor", W, Some(5.5), 12, "area count"),
        ("chinese", W, Some(0.5), 12, "area count"),
        ("japanese", B, Some(-0.5), 12, "territory count"),
        ("korean", B, Some(-0.5), 12, "territory count"),
        ("aga", W, Some(0.5), 12, "area count"),
        ("new-zealand", W, Some(0.5), 12, "area count"),
        ("ing", W, Some(0.5), 12, "area count"),
        ("pure", W, Some(1.5), 12, "stones count"),
    ];
    let v = json(&["--sgf", &data("dead_stone.sgf")]);
    assert_eq!(v["dead"]["source"], "the record's TB/TW");
    assert_eq!(v["dead"]["stones"], serde_json::json!(["A2"]));
    expect(&rows(&v), want);
    let v = json(&["--sgf", &data("dead_stone.sgf"), "--dead", "A2"]);
    assert_eq!(v["dead"]["source"], "--dead");
    expect(&rows(&v), want);
    // no stone dead: A2 counts for White everywhere
    let v = json(&["--sgf", &data("dead_stone.sgf"), "--dead", ""]);
    assert_eq!(rows(&v)[1].2, Some(5.5));
    // a dead stone must be a stone
    let o = okite(&[
        "go",
        "result",
        "--sgf",
        &data("dead_stone.sgf"),
        "--dead",
        "A1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("empty at the end"));
}

/// On small graphs the dead stones come from seed 004's outcome classes, and the Chinese count
/// with them taken off is the seed's Chinese score s_c (plus komi). path:5, B 5, W 3, B 1:
/// every vertex is White's (classes W W W W W), so Black's 1 and 5 are dead; area 5, s_c 5.
#[test]
fn small_graphs_agree_with_seed_004() {
    for (graph, moves) in [
        ("path:5", "B 5, W 3, B 1"),
        ("path:5", "W 5, B 4, W 1, B 3"),
        ("path:5", "W 2, B 4, W 1"),
    ] {
        let played = format!("{moves}, W pass, B pass");
        let v = json(&[
            "--graph",
            graph,
            "--moves",
            &played,
            "--komi",
            "0.5",
            "--rulesets",
            "chinese,tromp-taylor",
        ]);
        assert_eq!(v["dead"]["source"], "seed 004's outcome classes", "{moves}");
        let o = okite(&["go", "score", "--graph", graph, "--moves", moves, "--json"]);
        let s: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(s["terminable"], true, "{moves}");
        let chinese = v["results"][0]["score"].as_f64().unwrap();
        assert_eq!(chinese - 0.5, s["chinese"].as_f64().unwrap(), "{moves}");
    }
    // by hand: B 5, W 3, B 1 -> X . O . X; classes all W: 1 and 5 dead, White's area 5 (+0.5);
    // Tromp-Taylor counts the board as it stands: White 1, Black 2, 2 and 4 dame: -0.5
    let v = json(&[
        "--graph",
        "path:5",
        "--moves",
        "B 5, W 3, B 1, W pass, B pass",
        "--komi",
        "0.5",
        "--rulesets",
        "chinese,tromp-taylor",
    ]);
    assert_eq!(v["dead"]["stones"], serde_json::json!(["1", "5"]));
    expect(
        &rows(&v),
        &[
            ("chinese", W, Some(5.5), 5, "area count"),
            ("tromp-taylor", B, Some(-0.5), 5, "area count"),
        ],
    );
}

/// Every record judged by the rules alone (`--engine rules`) as with the native bindings, and
/// `--engine verify` runs both.
#[test]
fn the_rules_alone_agree_with_the_natives() {
    for f in [
        "area_territory.sgf",
        "triple_ko.sgf",
        "superko.sgf",
        "seki.sgf",
        "suicide.sgf",
        "dead_stone.sgf",
        "open_dame.sgf",
    ] {
        let native = rows(&json(&["--sgf", &data(f)]));
        let rules = rows(&json(&["--sgf", &data(f), "--engine", "rules"]));
        assert_eq!(native, rules, "{f}");
        let verified = rows(&json(&["--sgf", &data(f), "--engine", "verify"]));
        assert_eq!(native, verified, "{f}");
    }
}

/// A game not over (no two passes, no stated result), a resignation, and a handicap bonus.
#[test]
fn not_over_resigned_and_handicap() {
    let v = json(&[
        "--graph",
        "grid:3x3",
        "--moves",
        "B B2",
        "--rulesets",
        "chinese",
    ]);
    let r = &rows(&v)[0];
    assert_eq!(r.1, None);
    // the board as it stands: Black 9, komi 7.5: -1.5
    assert_eq!(r.2, Some(-1.5));
    assert!(r.4.starts_with("not over"), "{r:?}");
    // Chinese: N points for N handicap stones; AGA N - 1; Japanese none. Black B2 on 3 x 3
    // after two passes: area -9 + bonus, and no komi in a handicap game but AGA's 0.5.
    let v = json(&[
        "--graph",
        "grid:3x3",
        "--moves",
        "B B2, W pass, B pass",
        "--handicap",
        "3",
        "--rulesets",
        "chinese,aga,japanese",
    ]);
    let scores: Vec<Option<f64>> = rows(&v).iter().map(|r| r.2).collect();
    // Japanese: territory 8 for Black: -8
    assert_eq!(scores, [Some(-6.0), Some(-6.5), Some(-8.0)]);
    let dir = std::env::temp_dir().join(format!("okite-go-result-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("resigned.sgf");
    std::fs::write(&p, "(;SZ[5]KM[6.5]RE[W+R];B[cc];W[dc];B[cd])").unwrap();
    let v = json(&[
        "--sgf",
        p.to_str().unwrap(),
        "--rulesets",
        "japanese,chinese",
    ]);
    expect(
        &rows(&v),
        &[
            ("japanese", W, None, 3, RESIGNED),
            ("chinese", W, None, 3, RESIGNED),
        ],
    );
    assert_eq!(v["results"][0]["agrees"], true);
    std::fs::remove_dir_all(&dir).ok();
}

/// A rule set is a reading a user can copy and edit: a reading of one's own runs through the
/// same command. Changing an axis keeps every native on (they take the axes as arguments);
/// changing what a native stands for turns that one off, and the rules answer.
#[test]
fn a_variant_runs_through_the_same_command() {
    let dir = std::env::temp_dir().join(format!("okite-go-variant-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let o = okite(&["rules", "export", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    std::fs::write(
        dir.join("mine.rule"),
        r#"use "go_rulesets.rule"
// the Japanese rules with positional superko
reading japanese-superko extends japanese {
    override def ko_rule = ko_positional
}
// the Japanese rules counting the eyes of a seki
reading japanese-seki-eyes extends japanese {
    override def touches_dame(G, c, u) = false
}
"#,
    )
    .unwrap();
    let d = dir.to_str().unwrap();
    // positional superko forbids White's sixth play, and a forbidden play loses (第十四条)
    let v = json(&[
        "--rules",
        d,
        "--sgf",
        &data("triple_ko.sgf"),
        "--rulesets",
        "japanese-superko,japanese",
    ]);
    expect(
        &rows(&v),
        &[
            (
                "japanese-superko",
                B,
                None,
                6,
                "forbidden: positional superko",
            ),
            (
                "japanese",
                None,
                None,
                12,
                "a cycle: the same situation a third time",
            ),
        ],
    );
    assert!(v["results"][0]["natives"]
        .as_array()
        .unwrap()
        .iter()
        .all(|n| n["on"] == true));
    // the seki's eyes counted: Black 2, White 1, 1 - 2 + 0.5 = -0.5
    let v = json(&[
        "--rules",
        d,
        "--sgf",
        &data("seki.sgf"),
        "--rulesets",
        "japanese-seki-eyes",
    ]);
    expect(
        &rows(&v),
        &[("japanese-seki-eyes", B, Some(-0.5), 6, "territory count")],
    );
    let natives = v["results"][0]["natives"].as_array().unwrap();
    let off: Vec<&str> = natives
        .iter()
        .filter(|n| n["on"] == false)
        .map(|n| n["native"].as_str().unwrap())
        .collect();
    assert_eq!(off, ["go.empty_points"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// An unknown rule set is refused before anything runs; a stone on a stone is no record.
#[test]
fn refusals() {
    let o = okite(&[
        "go",
        "result",
        "--sgf",
        &data("seki.sgf"),
        "--rulesets",
        "fide",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let o = okite(&["go", "result", "--graph", "path:3", "--moves", "B 1, W 1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("occupied"));
    // a record of more plays than any game is refused, not walked
    let passes = vec!["B pass, W pass"; 2501].join(", ");
    let o = okite(&["go", "result", "--graph", "path:3", "--moves", &passes]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at most 5000"));
}

/// Records as their referees read them: a handicap game's komi when the record states none (AGA
/// 0.5; NZ "There is no komi"; none in Japanese and Chinese handicap games), FF[1]-style
/// identifiers with lower-case letters, `AE` after the moves as the stones the scorer took off,
/// `W+Time Over` as a time win, and a winner without a count that the moves do not show.
#[test]
fn records_as_referees_read_them() {
    let dir = std::env::temp_dir().join(format!("okite-go-referees-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| -> String {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p.to_str().unwrap().to_string()
    };
    // 3 x 3, Black's two handicap stones on the corners A3 and C1 (AB), White passes, Black
    // passes: Black's area 9, territory 7. Chinese -9 + 2 = -7; AGA -9 + 0.5 + 1 = -7.5;
    // Japanese -7; NZ -9; with the even game's komi each would be 7.5, 7.5, 6.5 and 7 more
    let rs = "chinese,aga,japanese,new-zealand";
    let h = write("handicap.sgf", "(;GM[1]FF[4]SZ[3]HA[2]AB[aa][cc];W[];B[])");
    let v = json(&["--sgf", &h, "--rulesets", rs]);
    let scores: Vec<Option<f64>> = rows(&v).iter().map(|r| r.2).collect();
    assert_eq!(scores, [Some(-7.0), Some(-7.5), Some(-7.0), Some(-9.0)]);
    // a komi the record states holds in a handicap game too
    let k = write(
        "handicap_km.sgf",
        "(;GM[1]FF[4]SZ[3]HA[2]KM[5.5]AB[aa][cc];W[];B[])",
    );
    let v = json(&["--sgf", &k, "--rulesets", rs]);
    let scores: Vec<Option<f64>> = rows(&v).iter().map(|r| r.2).collect();
    assert_eq!(scores, [Some(-1.5), Some(-2.5), Some(-1.5), Some(-3.5)]);
    // the even game, written with FF[1]-style identifiers: the customary komi
    let old = write(
        "ff1.sgf",
        "(;GaMe[1]SiZe[3]AddBlack[aa][cc];White[];Black[])",
    );
    let v = json(&["--sgf", &old, "--rulesets", rs]);
    assert_eq!(v["plays"], 2);
    let scores: Vec<Option<f64>> = rows(&v).iter().map(|r| r.2).collect();
    assert_eq!(scores, [Some(-1.5), Some(-1.5), Some(-0.5), Some(-2.0)]);
    // AE after the moves marks the dead stones as TB/TW do (tests/data/go/dead_stone.sgf)
    let ae = write(
        "ae.sgf",
        "(;GM[1]FF[4]SZ[4]KM[0.5]RE[W+0.5];B[bc];W[cc];B[bb];W[cb];B[bd];W[cd];B[ba];W[ca];B[];W[ac];B[];W[]AE[ac])",
    );
    let v = json(&["--sgf", &ae, "--rulesets", "chinese,japanese"]);
    assert_eq!(
        v["dead"]["source"],
        "the record's AE after the moves (the stones taken off)"
    );
    assert_eq!(v["dead"]["stones"], serde_json::json!(["A2"]));
    expect(
        &rows(&v),
        &[
            ("chinese", W, Some(0.5), 12, "area count"),
            ("japanese", B, Some(-0.5), 12, "territory count"),
        ],
    );
    assert_eq!(v["results"][0]["agrees"], true);
    assert_eq!(v["results"][1]["agrees"], false);
    // a stone AE takes off is not put back by a later setup: AB after the moves is refused
    let ab = write("ab.sgf", "(;SZ[3];B[aa];W[];B[]AB[bb])");
    let o = okite(&["go", "result", "--sgf", &ab]);
    assert_eq!(o.status.code(), Some(2));
    // W+Time Over: White wins on time; B+ alone: the moves must end the game to be compared
    for (re, winner) in [
        ("W+Time Over", W),
        ("W+Time", W),
        ("B+T", B),
        ("W+Forfeit", W),
    ] {
        let t = write(
            "time.sgf",
            &format!("(;SZ[5]KM[6.5]RE[{re}];B[cc];W[dc];B[cd])"),
        );
        let v = json(&["--sgf", &t, "--rulesets", "japanese"]);
        expect(&rows(&v), &[("japanese", winner, None, 3, RESIGNED)]);
        assert_eq!(v["results"][0]["agrees"], true, "{re}");
    }
    // RU as writers spell it: a shipped rule set, or none
    for (ru, own) in [
        ("Chinese", serde_json::json!("chinese")),
        ("NZ", serde_json::json!("new-zealand")),
        ("GOE", serde_json::json!("ing")),
        ("korean", serde_json::json!("korean")),
        ("AGA", serde_json::json!("aga")),
        ("Tromp-Taylor", serde_json::json!("tromp-taylor")),
        ("Ancient", serde_json::Value::Null),
    ] {
        let t = write("ru.sgf", &format!("(;SZ[3]RU[{ru}];B[aa];W[];B[])"));
        let v = json(&["--sgf", &t, "--rulesets", "chinese"]);
        assert_eq!(v["record_rules"]["stated"], ru);
        assert_eq!(v["record_rules"]["ruleset"], own, "{ru}");
    }
    let mid = write("mid.sgf", "(;SZ[5]KM[6.5]RE[B+];B[cc];W[dc];B[cd])");
    let v = json(&["--sgf", &mid, "--rulesets", "chinese"]);
    let r = &v["results"][0];
    assert!(r["winner"].is_null(), "{v}");
    assert!(r["reason"].as_str().unwrap().starts_with("not over"), "{v}");
    assert!(r["agrees"].is_null(), "{v}");
    assert!(
        r["not_shown"]
            .as_str()
            .unwrap()
            .contains("the moves do not show"),
        "{v}"
    );
    // with two passes the moves end it, and B+ is compared
    let ended = write("ended.sgf", "(;SZ[3]KM[0.5]RE[B+];B[bb];W[];B[])");
    let v = json(&["--sgf", &ended, "--rulesets", "chinese"]);
    assert_eq!(v["results"][0]["agrees"], true, "{v}");
    assert!(v["results"][0]["not_shown"].is_null(), "{v}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `go result --records PATH`: every SGF record of a folder (in the order of their names) or of
/// a list judged, a report each in that order: under `--json` one object a line, the record's
/// `okite go result --sgf RECORD --json` with its "record" first, the same with one job and with
/// several; a record that cannot be judged is an error object in its place, the batch goes on,
/// and the exit status is 2.
#[test]
fn many_go_records_are_judged_in_order() {
    let folder = format!("{}/tests/data/go", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sgf"))
        .collect();
    names.sort();
    assert!(names.len() >= 8, "{names:?}");
    let rs = "tromp-taylor,japanese,aga";
    let run = |jobs: &str| {
        okite(&[
            "go",
            "result",
            "--records",
            &folder,
            "--rulesets",
            rs,
            "--json",
            "--jobs",
            jobs,
        ])
    };
    let one = run("1");
    assert_eq!(one.status.code(), Some(0), "{}", common::text(&one));
    let text = String::from_utf8_lossy(&one.stdout).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), names.len());
    for (line, name) in lines.iter().zip(&names) {
        let path = format!("{folder}/{name}");
        let alone = okite(&["go", "result", "--sgf", &path, "--rulesets", rs, "--json"]);
        assert!(alone.status.success(), "{name}");
        let body = String::from_utf8_lossy(&alone.stdout);
        let head = format!("{{\"record\": {}, ", serde_json::json!(path));
        assert_eq!(*line, format!("{head}{}", &body.trim_end()[1..]), "{name}");
    }
    for jobs in ["2", "5"] {
        assert_eq!(run(jobs).stdout, one.stdout, "--jobs {jobs}");
    }
    // a list: a record, a missing one, a broken one, a record again
    let dir = std::env::temp_dir().join(format!("okite-go-record-batches-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("broken.sgf"), "(;GM[1]SZ[3];B[zz]").unwrap();
    let list = dir.join("list.txt");
    std::fs::write(
        &list,
        format!("# four\n{folder}/seki.sgf\nmissing.sgf\nbroken.sgf\n{folder}/suicide.sgf\n"),
    )
    .unwrap();
    let o = okite(&[
        "go",
        "result",
        "--records",
        list.to_str().unwrap(),
        "--json",
        "--jobs",
        "2",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", common::text(&o));
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let v: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(v.len(), 4, "{text}");
    assert!(
        v[0]["results"].is_array() && v[3]["results"].is_array(),
        "{text}"
    );
    for bad in [&v[1], &v[2]] {
        assert_eq!(bad["result"], "error", "{bad}");
        assert!(bad["code"].as_str().unwrap().starts_with('E'), "{bad}");
        assert!(!bad["message"].as_str().unwrap().is_empty(), "{bad}");
    }
    // the text report: a heading naming each record, then its report
    let plain = okite(&[
        "go",
        "result",
        "--records",
        &folder,
        "--rulesets",
        "japanese",
    ]);
    let text = String::from_utf8_lossy(&plain.stdout);
    assert!(text.contains(&format!("== {folder}/seki.sgf\n")), "{text}");
    // an empty folder says what records are
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let o = okite(&["go", "result", "--records", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(common::text(&o).contains(".sgf"), "{}", common::text(&o));
}
