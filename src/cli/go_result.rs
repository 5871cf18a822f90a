#![forbid(unsafe_code)]
//! `okite go result`: a Go game judged by rule sets (rules/go_rulesets.rule), one row per rule
//! set with the winner, the count, the play where the game stops and why, and the record's own
//! result; the dead stones from the command line, the record's TB/TW, or seed 004's classes.

use super::args::GoResultArgs;
use super::common::*;
use super::query::*;
use crate::commands::report::go_result::{
    DeadStones, GoResultReport, NativeUse, RulesetVerdict, StatedResult, StatedRules,
};
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::go::board::{Board, Color};
use crate::go::graph::Graph;
use crate::go::judge::Play;
use crate::ir::Value;
use std::path::Path;

/// A game to judge: the graph, the setup, the plays, and what the record states.
struct Judged {
    graph: Graph,
    setup: Board,
    plays: Vec<Play>,
    komi: Option<f64>,
    handicap: usize,
    /// RE's text
    stated: Option<String>,
    /// RU's text: the rules the game was played under
    rules: Option<String>,
    /// the TB/TW marks
    territory: Option<(Vec<usize>, Vec<usize>)>,
    /// the points emptied by AE after the moves (the stones the scorer took off)
    removed: Vec<usize>,
}

/// The shipped rule set a record's `RU` names, as SGF writers spell them (FF[4]'s `Japanese`,
/// `Chinese`, `AGA`, `NZ`, `GOE`; KGS's and others' variants): none for rules not shipped.
fn own_ruleset(ru: &str) -> Option<&'static str> {
    let k: String = ru
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    Some(match k.as_str() {
        "japanese" | "jp" | "japan" | "nihonkiin" | "jpn" => "japanese",
        "chinese" | "cn" | "china" | "chn" => "chinese",
        "korean" | "ko" | "kr" | "korea" | "kor" => "korean",
        "aga" | "american" => "aga",
        "nz" | "newzealand" => "new-zealand",
        "goe" | "ing" | "ings" => "ing",
        "trompt" | "tromptaylor" | "tt" => "tromp-taylor",
        _ => return None,
    })
}

/// The most plays a record judged may have: real games have a few hundred; the rules compare
/// every board with the earlier ones.
pub(super) const MAX_PLAYS: usize = 5000;

fn bad(msg: String, help: &str) -> i32 {
    Printer::auto().fail(Diag::error(code::BAD_GRAPH, msg).help(help.to_string()))
}

/// Plays written "B D4, W pass": a colour and a vertex name or `pass`.
fn parse_plays(g: &Graph, text: &str) -> Result<Vec<Play>, i32> {
    let mut out = vec![];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let mut it = part.split_whitespace();
        let c = match it.next() {
            Some("B") | Some("b") => Color::Black,
            Some("W") | Some("w") => Color::White,
            _ => {
                return Err(bad(
                    format!("bad play `{part}`"),
                    "a play is `B v`, `W v` or `B pass`",
                ))
            }
        };
        let (Some(name), None) = (it.next(), it.next()) else {
            return Err(bad(
                format!("bad play `{part}`"),
                "a play is a colour and one vertex name or `pass`, e.g. `B D4`",
            ));
        };
        if name.eq_ignore_ascii_case("pass") {
            out.push((c, None));
            continue;
        }
        let Some(v) = g.vertex(name) else {
            return Err(bad(
                format!("`{name}` is not a vertex of the graph"),
                "`okite go show --graph G` lists the vertex names",
            ));
        };
        out.push((c, Some(v)));
    }
    Ok(out)
}

fn judged(a: &GoResultArgs) -> Result<Judged, i32> {
    let Some(path) = &a.sgf else {
        let g = go_graph(a.graph.as_deref().unwrap_or_default())?;
        let plays = parse_plays(&g, &a.moves)?;
        return Ok(Judged {
            graph: g,
            setup: Board::empty(),
            plays,
            komi: None,
            handicap: 0,
            stated: None,
            rules: None,
            territory: None,
            removed: vec![],
        });
    };
    read_sgf(a.graph.as_deref(), path)
}

fn read_sgf(graph: Option<&str>, path: &Path) -> Result<Judged, i32> {
    let text = crate::check::load::read_text_bounded(path).map_err(|d| Printer::auto().fail(d))?;
    let name = path.display().to_string();
    let record = crate::go::sgf::parse_sgf(&text).map_err(|e| go_error(&text, &name, &e))?;
    let g = record.graph().map_err(|e| go_error(&text, &name, &e))?;
    if let Some(spec) = graph {
        let other = go_graph(spec)?;
        if other.n != g.n || other.adjacency != g.adjacency {
            return Err(bad(
                format!(
                    "the record is for a {}x{} board, not {spec}",
                    record.rows, record.cols
                ),
                "leave --graph out with --sgf",
            ));
        }
    }
    let plays: Vec<Play> = record
        .moves
        .iter()
        .map(|&(c, m, _)| match m {
            crate::go::rules::Move::Place(v) => (c, Some(v)),
            crate::go::rules::Move::Pass => (c, None),
        })
        .collect();
    // a stone on a stone is no record of a game under any rule set
    if let Err(i) = crate::go::judge::record_boards(&g, &record.setup, &plays) {
        let e = crate::go::error::GoError::at(
            &text,
            record.moves[i].2,
            format!("play {} is on an occupied point", i + 1),
            "every play of a record is on an empty point or a pass",
        );
        return Err(go_error(&text, &name, &e));
    }
    let handicap = record.handicap.unwrap_or(0);
    let marked = !record.territory.0.is_empty() || !record.territory.1.is_empty();
    Ok(Judged {
        graph: g,
        setup: record.setup,
        plays,
        komi: record.komi,
        handicap,
        stated: record.result.map(|r| r.0),
        rules: record.ruleset,
        territory: marked.then_some(record.territory),
        removed: record.removed,
    })
}

/// What RE states: the winner (B, W, draw, or none), the score from White's side when a count
/// is stated, the colour that resigned or lost on time or by forfeit, and whether it ends with
/// a count.
struct Stated {
    winner: Option<&'static str>,
    score: Option<f64>,
    loser: i64,
    counted: bool,
}

fn stated(re: &str) -> Stated {
    let t = re.trim();
    let none = Stated {
        winner: None,
        score: None,
        loser: 0,
        counted: false,
    };
    if t == "0" || t.eq_ignore_ascii_case("draw") || t.eq_ignore_ascii_case("jigo") {
        return Stated {
            winner: Some("draw"),
            score: Some(0.0),
            loser: 0,
            counted: true,
        };
    }
    let Some((who, how)) = t.split_once('+') else {
        return none;
    };
    let (w, sign) = match who.trim() {
        "B" | "b" => ("B", -1.0),
        "W" | "w" => ("W", 1.0),
        _ => return none,
    };
    let how = how.trim();
    let loser = if w == "B" { 1 } else { -1 };
    if let Ok(x) = how.parse::<f64>() {
        if x.is_finite() {
            return Stated {
                winner: Some(w),
                score: Some(sign * x),
                loser: 0,
                counted: true,
            };
        }
    }
    let lower = how.to_ascii_lowercase();
    // the first word: `R`, `Resign`, `T`, `Time`, `Time Over`, `Timeout`, `F`, `Forfeit`
    let word = lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    if [
        "r",
        "resign",
        "resigned",
        "resignation",
        "t",
        "time",
        "timeout",
        "f",
        "forfeit",
    ]
    .contains(&word)
    {
        return Stated {
            winner: Some(w),
            score: None,
            loser,
            counted: false,
        };
    }
    // `B+` alone: a win, no count stated; the game is counted only where the moves end it
    Stated {
        winner: Some(w),
        score: None,
        loser: 0,
        counted: false,
    }
}

/// The dead stones and where they came from.
fn dead_stones(
    a: &GoResultArgs,
    j: &Judged,
    last: &Board,
    seq: &[Board],
) -> Result<(Vec<usize>, String), i32> {
    let g = &j.graph;
    if let Some(list) = &a.dead {
        let mut out = vec![];
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let Some(v) = g.vertex(name) else {
                return Err(bad(
                    format!("`{name}` in --dead is not a vertex of the graph"),
                    "`okite go show --graph G` lists the vertex names",
                ));
            };
            if last.get(v) == 0 {
                return Err(bad(
                    format!("`{name}` in --dead is empty at the end of the game"),
                    "list the stones that are dead on the final board",
                ));
            }
            out.push(v);
        }
        return Ok((out, "--dead".into()));
    }
    if j.territory.is_some() || !j.removed.is_empty() {
        // a stone inside the other colour's territory, or taken off by AE after the moves
        let (tb, tw) = j.territory.clone().unwrap_or_default();
        let mut out: Vec<usize> = tb
            .iter()
            .filter(|&&v| last.get(v) == Color::White.value())
            .chain(tw.iter().filter(|&&v| last.get(v) == Color::Black.value()))
            .chain(j.removed.iter().filter(|&&v| last.get(v) != 0))
            .copied()
            .collect();
        out.sort_unstable();
        out.dedup();
        let source = match (j.territory.is_some(), j.removed.is_empty()) {
            (true, true) => "the record's TB/TW",
            (false, _) => "the record's AE after the moves (the stones taken off)",
            (true, false) => "the record's TB/TW and its AE after the moves",
        };
        return Ok((out, source.into()));
    }
    if g.n <= crate::go::life::TRACK_MAX_VERTICES {
        let regular = (0..seq.len()).all(|i| !seq[..i].contains(&seq[i]));
        if !regular {
            return Ok((
                vec![],
                "none (the boards repeat: seed 004's classes need a regular sequence)".into(),
            ));
        }
        let classes =
            match crate::go::life::outcome_classes(g, seq, crate::go::life::Table::default()) {
                Ok(c) => c,
                Err(e) => return Err(go_error("", "classes", &e)),
            };
        if !crate::go::life::terminable(g, last, &classes) {
            return Ok((
                vec![],
                "none (not Chinese-terminable under seed 004's classes)".into(),
            ));
        }
        let out = (0..g.n)
            .filter(|&v| {
                (last.get(v) == Color::Black.value() && classes[v] == crate::go::life::Class::W)
                    || (last.get(v) == Color::White.value()
                        && classes[v] == crate::go::life::Class::B)
            })
            .collect();
        return Ok((out, "seed 004's outcome classes".into()));
    }
    Ok((
        vec![],
        "none given (--dead, or TB/TW or AE after the moves in the record)".into(),
    ))
}

fn winner_name(v: &Value) -> Option<Option<&'static str>> {
    let Value::Enum(e) = v else { return None };
    Some(match &*e.name {
        "black_wins" => Some("B"),
        "white_wins" => Some("W"),
        "jigo" => Some("draw"),
        "no_result" | "not_over" => None,
        _ => return None,
    })
}

fn points(half: i64) -> String {
    if half % 2 == 0 {
        format!("{}", half / 2)
    } else {
        format!("{:.1}", half as f64 / 2.0)
    }
}

struct Row {
    ruleset: String,
    winner: Option<&'static str>,
    score: Option<i64>,
    play: i64,
    reason: String,
    agrees: Option<bool>,
    /// why a stated result is neither agreed nor disagreed with
    not_shown: Option<String>,
    natives: Vec<(String, bool)>,
}

/// What `okite go result` found for one game: the verdict of each rule set, with what it was
/// judged on. `--json` and the text are two renderings of it.
struct Report {
    rows: Vec<Row>,
    plays: Vec<Play>,
    komi: Option<f64>,
    handicap: usize,
    /// where the dead stones come from, and their names
    source: String,
    dead: Vec<String>,
    /// RE's text, with what it states
    stated: Option<(String, Stated)>,
    /// RU's text
    rules: Option<String>,
}

/// `okite go result` of one game, under the program `kept` holds (checked and kept there when
/// it holds none: the jobs of `--records` check theirs once).
pub(super) fn go_result_in(a: &GoResultArgs, kept: &mut Option<crate::check::Program>) -> i32 {
    let (report, g) = match judge(a, kept) {
        Ok(r) => r,
        Err(c) => return c,
    };
    if a.json {
        outln!("{}", report_json(&report));
    } else {
        print_report(&report, &g);
    }
    0
}

/// The game read and judged under each rule set of `a.rulesets`.
#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
fn judge(
    a: &GoResultArgs,
    kept: &mut Option<crate::check::Program>,
) -> Result<(Report, Graph), i32> {
    let printer = Printer::auto();
    let j = judged(a)?;
    let g = &j.graph;
    if j.plays.len() > MAX_PLAYS {
        return Err(bad(
            format!(
                "the record has {} plays; okite judges records of at most {MAX_PLAYS}",
                j.plays.len()
            ),
            "cut the record (a real game has a few hundred plays)",
        ));
    }
    let h = match crate::go::judge::record_boards(g, &j.setup, &j.plays) {
        Ok(h) => h,
        Err(i) => {
            return Err(bad(
                format!("play {} is on an occupied point", i + 1),
                "play on empty points",
            ))
        }
    };
    let last = *h.last().expect("the setup board");
    let mut seq: Vec<Board> = vec![];
    for b in &h {
        if seq.last() != Some(b) {
            seq.push(*b);
        }
    }
    let (dead, source) = dead_stones(a, &j, &last, &seq)?;
    let komi = a.komi.or(j.komi);
    let km: Vec<Value> = match komi {
        Some(k) => {
            let half = k * 2.0;
            if !half.is_finite() || half.fract() != 0.0 || half.abs() > 1e12 {
                return Err(bad(
                    format!("komi {k} is not a multiple of 0.5"),
                    "use a whole or half number such as 6.5 or 7",
                ));
            }
            vec![Value::Int(half as i64)]
        }
        None => vec![],
    };
    let handicap = a.handicap.unwrap_or(j.handicap);
    let st = j.stated.as_deref().map(stated);
    if kept.is_none() {
        *kept = Some(load_or_report(&a.rules, &printer)?.0);
    }
    let Some(prog) = kept.as_mut() else {
        return Err(2);
    };
    for name in &a.rulesets {
        if let Err(d) = prog.reading_or_error(name) {
            return Err(printer.fail_in(d, &prog.sources));
        }
    }
    let bound = verdict_inputs(&j, &dead, handicap, km, st.as_ref());
    let mut rows = vec![];
    for name in &a.rulesets {
        let v = eval_with_bound(
            prog,
            "go_verdict(G, c0, ms, dead, hc, km, loser, counted)",
            bound.clone(),
            a.engine,
            Some(name),
            &printer,
            None,
        )?;
        let rid = prog.reading_id(name).unwrap_or(crate::check::BASE);
        let natives = crate::bindings::natives_in_cone(prog, rid, "go_verdict");
        match verdict_row(name, &v, st.as_ref(), natives) {
            Some(row) => rows.push(row),
            None => return Err(printer.fail(bad_verdict(&v))),
        }
    }
    let report = Report {
        rows,
        dead: dead.iter().map(|&v| g.names[v].clone()).collect(),
        source,
        komi,
        handicap,
        stated: j.stated.clone().zip(st),
        rules: j.rules.clone(),
        plays: j.plays,
    };
    Ok((report, j.graph))
}

/// The values `go_verdict` is asked of: the graph, the setup, the plays, the dead stones, the
/// handicap, the komi and what the record states.
fn verdict_inputs(
    j: &Judged,
    dead: &[usize],
    handicap: usize,
    km: Vec<Value>,
    st: Option<&Stated>,
) -> Vec<(String, Value, String)> {
    let g = &j.graph;
    let plays_value = Value::seq(
        j.plays
            .iter()
            .map(|&(c, v)| {
                Value::tuple(vec![
                    Value::Int(c.value() as i64),
                    Value::Int(v.map_or(0, |v| v as i64 + 1)),
                ])
            })
            .collect(),
    );
    vec![
        (
            "G".to_string(),
            crate::natives::go::graph_value(g),
            "Graph".to_string(),
        ),
        (
            "c0".to_string(),
            crate::natives::go::config_value(g, &j.setup),
            "Config".to_string(),
        ),
        ("ms".to_string(), plays_value, "Seq<Play>".to_string()),
        (
            "dead".to_string(),
            Value::set(dead.iter().map(|&v| Value::Int(v as i64 + 1)).collect()),
            "Set<Vertex>".to_string(),
        ),
        (
            "hc".to_string(),
            Value::Int(handicap as i64),
            "Int".to_string(),
        ),
        ("km".to_string(), Value::seq(km), "Seq<Int>".to_string()),
        (
            "loser".to_string(),
            Value::Int(st.map_or(0, |s| s.loser)),
            "Int".to_string(),
        ),
        (
            "counted".to_string(),
            Value::Bool(st.is_some_and(|s| s.counted)),
            "Bool".to_string(),
        ),
    ]
}

/// One rule set's row from its verdict (a tuple of the winner, the count, the play and the
/// reason), compared with the result the record states; none when the verdict is not such a
/// tuple.
fn verdict_row(
    name: &str,
    v: &Value,
    st: Option<&Stated>,
    natives: Vec<(String, bool)>,
) -> Option<Row> {
    let Value::Tuple(t) = v else {
        return None;
    };
    let (Some(winner), Value::Seq(sc), Value::Int(play), Value::Str(why)) = (
        t.first().and_then(winner_name),
        t.get(1)?,
        t.get(2)?,
        t.get(3)?,
    ) else {
        return None;
    };
    let score = match sc.first() {
        Some(Value::Int(x)) => Some(*x),
        _ => None,
    };
    let over = winner.is_some() || why.starts_with("forbidden") || why.starts_with("a cycle");
    // a stated result is compared only with a game the moves end; one they leave unfinished is
    // not shown by them, neither agreeing nor disagreeing
    let stated_result = st.filter(|s| s.winner.is_some());
    let not_shown = stated_result.filter(|_| !over).map(|_| {
        "the record states a result the moves do not show: they do not end the game (no two passes, no resignation, no count stated)".to_string()
    });
    let agrees = stated_result.filter(|_| over).map(|s| {
        s.winner == winner
            && match (s.score, score) {
                (Some(x), Some(y)) => (x * 2.0) as i64 == y,
                _ => true,
            }
    });
    Some(Row {
        ruleset: name.to_string(),
        winner,
        score,
        play: *play,
        reason: why.to_string(),
        agrees,
        not_shown,
        natives,
    })
}

/// The report as `--json` prints it.
fn report_json(r: &Report) -> String {
    let results = r
        .rows
        .iter()
        .map(|r| RulesetVerdict {
            ruleset: r.ruleset.clone(),
            winner: r.winner,
            score: r.score.map(|x| crate::json::raw(points(x))),
            reason: r.reason.clone(),
            play: r.play,
            agrees: r.agrees,
            not_shown: r.not_shown.clone(),
            natives: r
                .natives
                .iter()
                .map(|(p, on)| NativeUse {
                    native: p.clone(),
                    on: *on,
                })
                .collect(),
        })
        .collect();
    crate::json::text(&GoResultReport {
        results,
        plays: r.plays.len(),
        komi: r.komi.map(crate::json::shown),
        handicap: r.handicap,
        dead: DeadStones {
            source: r.source.clone(),
            stones: r.dead.clone(),
        },
        record_result: r.stated.as_ref().map(|(re, s)| StatedResult {
            stated: re.clone(),
            winner: s.winner,
            score: s.score.map(crate::json::shown),
        }),
        record_rules: r.rules.as_ref().map(|ru| StatedRules {
            stated: ru.clone(),
            ruleset: own_ruleset(ru),
        }),
    })
}

/// The report as text: what was judged on, then a line per rule set.
fn print_report(r: &Report, g: &Graph) {
    let handicap = r.handicap;
    outln!(
        "{} plays; komi {}; handicap {handicap}",
        r.plays.len(),
        r.komi
            .map_or("each rule set's own".to_string(), |k| k.to_string()),
    );
    let source = &r.source;
    if r.dead.is_empty() {
        outln!("dead stones: {source}");
    } else {
        outln!("dead stones: {} (from {source})", r.dead.join(", "));
    }
    if let Some((re, _)) = &r.stated {
        outln!("record result: {re}");
    }
    if let Some(ru) = &r.rules {
        match own_ruleset(ru) {
            Some(rs) => outln!("record rules: {ru} (the rule set {rs})"),
            None => outln!("record rules: {ru} (no shipped rule set)"),
        }
    }
    // the rule sets in a column as wide as the longest name (13 at least, as the shipped ones print)
    let w = crate::front::column_width(r.rows.iter().map(|r| r.ruleset.as_str()), 13);
    for row in &r.rows {
        let flag = match (row.agrees, &row.not_shown) {
            (Some(false), _) => "   (the record says otherwise)",
            (None, Some(_)) => "   (the record's result is not shown by the moves)",
            _ => "",
        };
        // the play a forbidden move or a cycle falls at
        let at = match usize::try_from(row.play)
            .ok()
            .and_then(|i| r.plays.get(i.wrapping_sub(1)))
        {
            Some(&(c, v))
                if row.reason.starts_with("forbidden") || row.reason.starts_with("a cycle") =>
            {
                format!(
                    " ({} {})",
                    if c == Color::Black { 'B' } else { 'W' },
                    v.map_or("pass".to_string(), |v| g.names[v].clone())
                )
            }
            _ => String::new(),
        };
        outln!(
            "{:<w$} {:<5} {:>6}  play {:<4} {}{at}{flag}",
            row.ruleset,
            row.winner.unwrap_or("-"),
            row.score.map_or("-".to_string(), points),
            row.play,
            row.reason
        );
    }
}

fn bad_verdict(v: &Value) -> Diag {
    unexpected(
        "go_verdict(G, c0, ms, dead, hc, km, loser, counted)",
        v,
        "a tuple of a Winner, the count ([] or [half points]), the play and a reason",
    )
}
