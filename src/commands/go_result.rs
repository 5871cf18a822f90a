#![forbid(unsafe_code)]
//! `okite go result`: a Go game judged by rule sets (rules/go_rulesets.rule), a verdict per
//! rule set with the winner, the count, the play where the game stops and why, beside the
//! record's own result; the dead stones given, the record's TB/TW or AE, or seed 004's classes.
//! Nothing here prints: the bindings an evaluation found off are told.

use crate::check::Program;
use crate::commands::eval::{evaluate_telling, unexpected, Query};
use crate::commands::go::points;
use crate::commands::report::go_result::{
    DeadStones, GoResultReport, NativeUse, RulesetVerdict, StatedResult, StatedRules,
};
use crate::commands::told::Told;
use crate::diagnostics::{code, Diag};
use crate::go::board::{Board, Color};
use crate::go::error::GoError;
use crate::go::graph::Graph;
use crate::go::judge::Play;
use crate::ir::Value;
use crate::natives::Engine;

/// How a game is judged: the dead stones named (`--dead`), the komi and handicap when not the
/// record's, the rule sets, the engine.
pub struct GoResultAsk<'a> {
    /// The dead stones, a list of vertex names (none: the record's marks, else seed 004's
    /// classes where the graph is small enough).
    pub dead: Option<&'a str>,
    /// The komi (none: the record's, else each rule set's own).
    pub komi: Option<f64>,
    /// The handicap (none: the record's).
    pub handicap: Option<usize>,
    /// The rule sets, readings of the program.
    pub rulesets: &'a [String],
    /// Native where bound, the rules only, or both compared.
    pub engine: Engine,
}

/// Why a game has no judgement.
#[derive(Debug)]
pub enum NoResult {
    /// Of the game or the rules.
    Diags(Vec<Diag>),
    /// The search of the outcome classes that finds the dead stones: a bound passed, Ctrl-C.
    Search(GoError),
}

impl NoResult {
    /// A game the rule sets cannot judge (E0601).
    fn bad(msg: String, help: &str) -> NoResult {
        NoResult::Diags(vec![
            Diag::error(code::BAD_GRAPH, msg).help(help.to_string())
        ])
    }
}

/// A Go game to judge, as the face read it (from an SGF record or from plays given): the
/// graph, the setup, the plays, and what the record states.
pub struct GoGame {
    /// The graph.
    pub graph: Graph,
    /// The board the plays start from.
    pub setup: Board,
    /// The plays.
    pub plays: Vec<Play>,
    /// The komi the record states.
    pub komi: Option<f64>,
    /// The handicap the record states.
    pub handicap: usize,
    /// RE's text.
    pub stated: Option<String>,
    /// RU's text: the rules the game was played under.
    pub rules: Option<String>,
    /// The TB/TW marks.
    pub territory: Option<(Vec<usize>, Vec<usize>)>,
    /// The points emptied by AE after the moves (the stones the scorer took off).
    pub removed: Vec<usize>,
}

impl GoGame {
    /// The plays `plays` on `graph` from the empty board, with nothing stated.
    pub fn of_plays(graph: Graph, plays: Vec<Play>) -> GoGame {
        GoGame {
            graph,
            setup: Board::empty(),
            plays,
            komi: None,
            handicap: 0,
            stated: None,
            rules: None,
            territory: None,
            removed: vec![],
        }
    }
}

/// The shipped rule set a record's `RU` names, as SGF writers spell them (FF[4]'s `Japanese`,
/// `Chinese`, `AGA`, `NZ`, `GOE`; KGS's and others' variants): none for rules not shipped.
pub fn own_ruleset(ru: &str) -> Option<&'static str> {
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
pub const MAX_PLAYS: usize = 5000;

/// What RE states: the winner (B, W, draw, or none), the score from White's side when a count
/// is stated, the colour that resigned or lost on time or by forfeit, and whether it ends with
/// a count.
pub struct Stated {
    /// `B`, `W`, `draw`, or none.
    pub winner: Option<&'static str>,
    /// From White's side, when a count is stated.
    pub score: Option<f64>,
    /// Who resigned, lost on time or by forfeit, as `go_verdict`'s `loser` takes it (0: no
    /// one).
    pub loser: i64,
    /// Whether the result is a count.
    pub counted: bool,
}

/// What RE's text `re` states.
pub fn stated(re: &str) -> Stated {
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
    given: Option<&str>,
    j: &GoGame,
    last: &Board,
    seq: &[Board],
) -> Result<(Vec<usize>, String), NoResult> {
    let g = &j.graph;
    if let Some(list) = given {
        let mut out = vec![];
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let Some(v) = g.vertex(name) else {
                return Err(NoResult::bad(
                    format!("`{name}` in --dead is not a vertex of the graph"),
                    "`okite go show --graph G` lists the vertex names",
                ));
            };
            if last.get(v) == 0 {
                return Err(NoResult::bad(
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
                Err(e) => return Err(NoResult::Search(e)),
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

/// One rule set's verdict of a game.
pub struct Row {
    /// The rule set.
    pub ruleset: String,
    /// `B`, `W`, `draw`, or none (the game not over).
    pub winner: Option<&'static str>,
    /// The count in half points, from White's side, where the rule set counts.
    pub score: Option<i64>,
    /// The play the verdict falls at.
    pub play: i64,
    /// Why.
    pub reason: String,
    /// Whether the verdict agrees with the result the record states.
    pub agrees: Option<bool>,
    /// Why a stated result is neither agreed nor disagreed with.
    pub not_shown: Option<String>,
    /// The natives in the cone of `go_verdict` under the rule set, each on or off.
    pub natives: Vec<(String, bool)>,
}

/// What `okite go result` found for one game: the verdict of each rule set, with what it was
/// judged on. `--json` and the text are two renderings of it.
pub struct Judgement {
    /// A verdict per rule set.
    pub rows: Vec<Row>,
    /// The plays judged.
    pub plays: Vec<Play>,
    /// The komi counted with (none: each rule set's own).
    pub komi: Option<f64>,
    /// The handicap.
    pub handicap: usize,
    /// Where the dead stones come from.
    pub source: String,
    /// The dead stones' names.
    pub dead: Vec<String>,
    /// RE's text, with what it states.
    pub stated: Option<(String, Stated)>,
    /// RU's text.
    pub rules: Option<String>,
}

/// The game `j` judged under each rule set of `ask.rulesets` (readings of `prog`): its plays
/// replayed, its dead stones found, each rule set's `go_verdict` evaluated and compared with the
/// result the record states. The graph is handed back beside the judgement.
#[expect(
    clippy::expect_used,
    reason = "a game's history is never empty: it starts with the position given"
)]
pub fn judge(
    prog: &mut Program,
    j: GoGame,
    ask: GoResultAsk,
    tell: &mut dyn FnMut(Told),
) -> Result<(Judgement, Graph), NoResult> {
    let g = &j.graph;
    if j.plays.len() > MAX_PLAYS {
        return Err(NoResult::bad(
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
            return Err(NoResult::bad(
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
    let (dead, source) = dead_stones(ask.dead, &j, &last, &seq)?;
    let komi = ask.komi.or(j.komi);
    let km: Vec<Value> = match komi {
        Some(k) => {
            let half = k * 2.0;
            if !half.is_finite() || half.fract() != 0.0 || half.abs() > 1e12 {
                return Err(NoResult::bad(
                    format!("komi {k} is not a multiple of 0.5"),
                    "use a whole or half number such as 6.5 or 7",
                ));
            }
            vec![Value::Int(half as i64)]
        }
        None => vec![],
    };
    let handicap = ask.handicap.unwrap_or(j.handicap);
    let st = j.stated.as_deref().map(stated);
    for name in ask.rulesets {
        prog.reading_or_error(name)
            .map_err(|d| NoResult::Diags(vec![d]))?;
    }
    let bound = verdict_inputs(&j, &dead, handicap, km, st.as_ref());
    let mut rows = vec![];
    for name in ask.rulesets {
        let v = evaluate_telling(
            prog,
            Query {
                text: "go_verdict(G, c0, ms, dead, hc, km, loser, counted)",
                bound: bound.clone(),
                engine: ask.engine,
                reading: Some(name),
                resident_mb: None,
                timeout: None,
            },
            tell,
        )
        .map_err(NoResult::Diags)?;
        let rid = prog.reading_id(name).unwrap_or(crate::check::BASE);
        let natives = crate::bindings::natives_in_cone(prog, rid, "go_verdict");
        match verdict_row(name, &v, st.as_ref(), natives) {
            Some(row) => rows.push(row),
            None => return Err(NoResult::Diags(vec![bad_verdict(&v)])),
        }
    }
    let report = Judgement {
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
    j: &GoGame,
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

impl Judgement {
    /// The report `--json` prints.
    pub fn report(&self) -> GoResultReport {
        let r = self;
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
        GoResultReport {
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
        }
    }
}

fn bad_verdict(v: &Value) -> Diag {
    unexpected(
        "go_verdict(G, c0, ms, dead, hc, km, loser, counted)",
        v,
        "a tuple of a Winner, the count ([] or [half points]), the play and a reason",
    )
}
