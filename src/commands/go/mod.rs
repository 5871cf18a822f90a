#![forbid(unsafe_code)]
//! The Go commands' questions of the rules as functions of typed inputs: a query with `G` bound
//! to the graph (and `r` to a sequence of boards), a count by the rules, and `go score`'s
//! scores and winners, `go solve`'s value and `go classes`' classes (by the rules or natively,
//! in [`classes`]); each returns its value or report, or the diagnostics of why there is none.
//! Nothing here prints: what a face should tell on the way (the native bindings found off)
//! goes to `tell`.

pub mod classes;

pub use classes::{
    classes_by_rules, classes_natively, classes_report, no_proof_numbers, ClassesAsk, Found,
    NativeClasses, NoClasses,
};

use crate::check::Program;
use crate::commands::eval::{evaluate_telling, unexpected, Query};
use crate::commands::report::go::{Score, Solved, Winners};
use crate::commands::told::Told;
use crate::diagnostics::{code, Diag};
use crate::go::board::Board;
use crate::go::graph::Graph;
use crate::ir::Value;
use crate::natives::Engine;

/// The most vertices a graph may have for the rules to enumerate its configurations (each one
/// a value of the evaluator: 3^16 of them at most).
pub const RULES_ENUMERATE_AT_MOST: usize = 16;

/// E0604: the rules, `doing` what the command asks, take graphs of at most `limit` vertices,
/// and this one has `n`.
pub fn beyond_the_rules(doing: &str, limit: usize, n: usize) -> Diag {
    Diag::error(
        code::ENGINE_LIMIT,
        format!("the rules {doing} graphs of at most {limit} vertices; this graph has {n}"),
    )
}

/// A sequence of boards as the rules' `Seq<Config>`.
pub fn sequence_value(g: &Graph, seq: &[Board]) -> Value {
    Value::seq(
        seq.iter()
            .map(|b| crate::natives::go::config_value(g, b))
            .collect(),
    )
}

/// What a Go query binds: `G` the graph (as the rules' value), and `r` the sequence when
/// there is one.
fn bound(g: Value, r: Option<Value>) -> Vec<(String, Value, String)> {
    let mut bound = vec![("G".to_string(), g, "Graph".to_string())];
    if let Some(r) = r {
        bound.push(("r".to_string(), r, "Seq<Config>".to_string()));
    }
    bound
}

/// A Go question of the rules: the query's text, the sequence bound as `r` (if any), the
/// reading, the engine and the resident memory the evaluation may reach.
pub struct GoQuery<'a> {
    /// The expression.
    pub text: &'a str,
    /// `r`, when the query has one.
    pub sequence: Option<Value>,
    /// The reading (none: base).
    pub reading: Option<&'a str>,
    /// Native where bound, the rules only, or both compared.
    pub engine: Engine,
    /// The resident memory the evaluation may reach, in MiB (none: the evaluator's default).
    pub resident_mb: Option<usize>,
}

impl<'a> GoQuery<'a> {
    /// `text` with `r` the sequence of boards `r` (see [`sequence_value`]), under base, natives
    /// bound where they stand, within the evaluator's own memory bound.
    pub fn on_sequence(text: &'a str, r: Value) -> GoQuery<'a> {
        GoQuery {
            text,
            sequence: Some(r),
            reading: None,
            engine: Engine::Native,
            resident_mb: None,
        }
    }
}

/// `q` evaluated with `G` bound to `g`: its value, or the diagnostics in the program's sources.
/// The bindings found off are told.
pub fn ask(
    prog: &mut Program,
    g: &Graph,
    q: GoQuery,
    tell: &mut dyn FnMut(Told),
) -> Result<Value, Vec<Diag>> {
    ask_of(prog, crate::natives::go::graph_value(g), q, tell)
}

/// [`ask`] with `G` bound to `g`, the graph's value already made (see
/// [`crate::natives::go::graph_value`]): for several questions of one graph.
pub fn ask_of(
    prog: &mut Program,
    g: Value,
    q: GoQuery,
    tell: &mut dyn FnMut(Told),
) -> Result<Value, Vec<Diag>> {
    evaluate_telling(
        prog,
        Query {
            text: q.text,
            bound: bound(g, q.sequence),
            engine: q.engine,
            reading: q.reading,
            resident_mb: q.resident_mb,
            timeout: None,
        },
        tell,
    )
}

/// A count by the rules (`q` a natural number with `G` bound to `g`): refused beyond
/// [`RULES_ENUMERATE_AT_MOST`] vertices, and when the rules give a value of another kind (a
/// rule file that defines the name otherwise).
pub fn count_by_rules(
    prog: &mut Program,
    g: &Graph,
    q: GoQuery,
    tell: &mut dyn FnMut(Told),
) -> Result<i64, Vec<Diag>> {
    if g.n > RULES_ENUMERATE_AT_MOST {
        return Err(vec![beyond_the_rules(
            "enumerate configurations of",
            RULES_ENUMERATE_AT_MOST,
            g.n,
        )
        .help("use --engine native")]);
    }
    let text = q.text;
    match ask(prog, g, q, tell)? {
        Value::Int(n) if n >= 0 => Ok(n),
        v => Err(vec![unexpected(text, &v, "a count")]),
    }
}

/// `go score`'s question: the sequence of boards `seq` on `g`, White's komi (as given and as
/// the seed's h in half points, `h2` = -2 komi) and the engine.
pub struct ScoreAsk<'a> {
    /// The sequence, from the empty board (or the record's setup) to the position scored.
    pub seq: &'a [Board],
    /// The komi as given, for the report.
    pub komi: f64,
    /// The seed's h, in half points.
    pub h2: i64,
    /// Native where bound, the rules only, or both compared.
    pub engine: Engine,
}

/// `go score`: the pure Go score of the last board and its winner with the komi, whether the
/// sequence is Chinese-terminable, and where it is the Chinese score and its winner, all from
/// the rule definitions (seed 002), natives bound where they stand for them.
pub fn score(
    prog: &mut Program,
    g: &Graph,
    s: &ScoreAsk,
    tell: &mut dyn FnMut(Told),
) -> Result<Score, Vec<Diag>> {
    let h2 = s.h2;
    let r = sequence_value(g, s.seq);
    let mut on_sequence = |prog: &mut Program, text: &str| {
        let q = GoQuery::on_sequence(text, r.clone());
        ask(
            prog,
            g,
            GoQuery {
                engine: s.engine,
                ..q
            },
            tell,
        )
    };
    let q = format!("(score(last(r)), winner(G, last(r), {h2}), terminable(G, r))");
    let wanted = "a score, a winner and a truth value";
    let (pure, pure_winner, terminable) = match on_sequence(prog, &q)? {
        Value::Tuple(t) if t.len() == 3 => match (&t[0], &t[1], &t[2]) {
            (Value::Int(s), Value::Int(w), Value::Bool(b)) => (*s, *w, *b),
            _ => return Err(vec![unexpected(&q, &Value::Tuple(t), wanted)]),
        },
        v => return Err(vec![unexpected(&q, &v, wanted)]),
    };
    let chinese = if terminable {
        let q = format!("(chinese_score(G, r), chinese_winner(G, r, {h2}))");
        let wanted = "a score and a winner";
        match on_sequence(prog, &q)? {
            Value::Tuple(t) if t.len() == 2 => match (&t[0], &t[1]) {
                (Value::Int(s), Value::Int(w)) => Some((*s, *w)),
                _ => return Err(vec![unexpected(&q, &Value::Tuple(t), wanted)]),
            },
            v => return Err(vec![unexpected(&q, &v, wanted)]),
        }
    } else {
        None
    };
    let colour = |w: i64| if w == 1 { "White" } else { "Black" };
    Ok(Score {
        pure,
        chinese: chinese.map(|(s, _)| s),
        terminable,
        komi: crate::json::shown(s.komi),
        h: crate::json::shown(h2 as f64 / 2.0),
        winner: Winners {
            pure: colour(pure_winner),
            chinese: chinese.map(|(_, w)| colour(w)),
        },
    })
}

/// The most vertices a graph may have for the rules to solve it (`margin_half_points`).
pub const RULES_SOLVE_AT_MOST: usize = 6;

/// A value in half points as the solver writes it (points, `1.5`, `-2`).
pub fn points(half: i64) -> String {
    // exact at any size: a whole number without a fraction, else one decimal (always .5)
    if half % 2 == 0 {
        format!("{}", half / 2)
    } else {
        format!("{:.1}", half as f64 / 2.0)
    }
}

/// `go solve` by the rules, from the empty board of `g`: `margin_half_points` under `reading`
/// with the seeds' h (`h2` = -2 komi, in half points), within `timeout`. The report has no
/// principal variation, nodes or seconds.
pub fn solve_by_rules(
    prog: &mut Program,
    g: &Graph,
    reading: &str,
    h2: i64,
    timeout: Option<std::time::Duration>,
    engine: crate::commands::Notice,
    tell: &mut dyn FnMut(Told),
) -> Result<Solved, Vec<Diag>> {
    if g.n > RULES_SOLVE_AT_MOST {
        return Err(vec![beyond_the_rules("solve", RULES_SOLVE_AT_MOST, g.n)
            .help(format!(
                "the native solver follows the readings {}",
                crate::commands::GO_SOLVE_READINGS.join(", ")
            ))]);
    }
    let text = format!("margin_half_points(G, {h2})");
    let value = evaluate_telling(
        prog,
        Query {
            text: &text,
            bound: bound(crate::natives::go::graph_value(g), None),
            engine: Engine::Native,
            reading: Some(reading),
            resident_mb: None,
            timeout,
        },
        tell,
    )?;
    match value {
        Value::Int(half) => Ok(Solved {
            value: crate::json::shown(half as f64 / 2.0),
            pv: vec![],
            nodes: None,
            seconds: None,
            engine,
        }),
        other => Err(vec![unexpected(&text, &other, "an integer")]),
    }
}

/// Why the native solver gave no value.
#[derive(Debug)]
pub enum Unsolved {
    /// The position or the engine's memory (the face places a position's error in its text).
    Engine(crate::go::error::GoError),
    /// A budget (nodes, time, the table's memory) passed before a value was proved (E0605),
    /// saying what was proved.
    Budget(Diag),
}

/// `go solve` by the native solver from the position `history` ends in, `to_move` to play:
/// the report (value, principal variation, work, `engine`) and the solver's own account, or
/// why there is no value. `progress` is called as the search goes.
pub fn solve_natively(
    g: &Graph,
    rules: &crate::go::rules::Rules,
    history: &[Board],
    to_move: crate::go::board::Color,
    opts: &crate::go::solve::SolveOptions,
    engine: crate::commands::Notice,
    progress: &mut dyn FnMut(&crate::go::solve::Progress),
) -> Result<(Solved, crate::go::solve::SolveResult), Unsolved> {
    use crate::go;
    let r = match go::solve::solve_from(g, rules, history, to_move, opts, progress) {
        Ok(r) => r,
        // the table's memory is a budget too; anything else is the position's fault
        Err(e) if e.message.starts_with("cannot allocate") => {
            return Err(Unsolved::Budget(
                Diag::error(code::SEARCH_BUDGET, e.message).help(e.help),
            ));
        }
        Err(e) => return Err(Unsolved::Engine(e)),
    };
    if !r.complete {
        // what was proved, where it says more than the board's size does
        let n = i64::try_from(g.n).unwrap_or(i64::MAX / 4);
        let (least, most) = (
            -2 * n - rules.komi_half_points,
            2 * n - rules.komi_half_points,
        );
        let proved = match (r.lower_half_points, r.upper_half_points) {
            (lo, hi) if lo <= least && hi >= most => String::new(),
            (lo, hi) if lo == hi => format!(" (it is {})", points(lo)),
            (lo, hi) => format!("; the value is between {} and {}", points(lo), points(hi)),
        };
        let (what, help) = match r.stopped {
            Some(go::solve::Stop::Time) => (
                format!(
                    "the search passed its time budget of {} ms before proving a value",
                    opts.time_limit.map_or(0, |d| d.as_millis())
                ),
                "raise --time-ms",
            ),
            _ => (
                format!(
                    "the search passed its budget of {} nodes before proving a value",
                    opts.node_limit
                ),
                "raise --nodes",
            ),
        };
        return Err(Unsolved::Budget(
            Diag::error(code::SEARCH_BUDGET, format!("{what}{proved}")).help(help),
        ));
    }
    let pv =
        r.pv.iter()
            .map(|(c, m)| match m {
                go::rules::Move::Place(v) => format!("{c:?} {}", g.names[*v]),
                go::rules::Move::Pass => format!("{c:?} pass"),
            })
            .collect();
    let report = Solved {
        value: crate::json::shown(r.value),
        pv,
        nodes: Some(r.nodes),
        seconds: Some(crate::json::fixed(r.elapsed.as_secs_f64(), 3)),
        engine,
    };
    Ok((report, r))
}

#[cfg(test)]
mod tests {
    use super::{
        count_by_rules, score, solve_by_rules, solve_natively, GoQuery, ScoreAsk, Unsolved,
    };
    use crate::commands::Notice;
    use crate::go::board::Board;
    use crate::go::graph::Graph;
    use crate::natives::Engine;

    fn rules() -> crate::check::Program {
        crate::check::load::load_shipped(&crate::natives::Natives::standard())
            .program
            .unwrap()
    }

    /// On the path of two vertices the rules count 3^2 = 9 configurations, of which 5 are
    /// boards (no group without liberties: the full ones are not); on 17 vertices they refuse.
    #[test]
    fn counts_by_the_rules() {
        let mut prog = rules();
        let g = Graph::parse("path:2").unwrap();
        let q = |text| GoQuery {
            text,
            sequence: None,
            reading: None,
            engine: Engine::Rules,
            resident_mb: None,
        };
        let n = count_by_rules(&mut prog, &g, q("size(boards(G))"), &mut |_| {}).unwrap();
        assert_eq!(n, 5);
        let ds = count_by_rules(&mut prog, &g, q("true"), &mut |_| {}).unwrap_err();
        assert_eq!(ds[0].code, crate::diagnostics::code::UNEXPECTED_VALUE);
        let big = Graph::parse("path:17").unwrap();
        let ds = count_by_rules(&mut prog, &big, q("size(boards(G))"), &mut |_| {}).unwrap_err();
        assert_eq!(ds[0].code, crate::diagnostics::code::ENGINE_LIMIT);
    }

    /// The empty board of the 2 x 2 grid scores 0; with komi 0.5 (h = -0.5) White wins; the
    /// sequence of the empty board alone is not Chinese-terminable, so it has no Chinese score.
    /// After a black stone (`B A1`), the pure score of that board is -1 (`okite go score --graph
    /// grid:2x2 --moves "B A1"`), and Black wins.
    #[test]
    fn the_empty_board_is_scored() {
        let mut prog = rules();
        let g = Graph::parse("grid:2x2").unwrap();
        let seq = [Board::empty()];
        let s = ScoreAsk {
            seq: &seq,
            komi: 0.5,
            h2: -1,
            engine: Engine::Native,
        };
        let r = score(&mut prog, &g, &s, &mut |_| {}).unwrap();
        assert_eq!((r.pure, r.winner.pure), (0, "White"));
        assert_eq!((r.komi.get(), r.h.get()), ("0.5", "-0.5"));
        assert!(!r.terminable);
        assert_eq!((r.chinese, r.winner.chinese), (None, None));
        let mut one = Board::empty();
        one.set(0, Some(crate::go::board::Color::Black));
        let seq = [Board::empty(), one];
        let r = score(&mut prog, &g, &ScoreAsk { seq: &seq, ..s }, &mut |_| {}).unwrap();
        assert_eq!((r.pure, r.winner.pure), (-1, "Black"));
    }

    fn notice() -> Notice {
        Notice::native("solve", "area", "the native solver", "area")
    }

    fn natively(
        spec: &str,
        komi_half_points: i64,
        node_limit: u64,
    ) -> Result<super::Solved, Unsolved> {
        let g = Graph::parse(spec).unwrap();
        let mut rules = crate::go::solve::rules_of_reading("area").unwrap();
        rules.komi_half_points = komi_half_points;
        let opts = crate::go::solve::SolveOptions {
            node_limit,
            ..Default::default()
        };
        let black = crate::go::board::Color::Black;
        solve_natively(
            &g,
            &rules,
            &[Board::empty()],
            black,
            &opts,
            notice(),
            &mut |_| {},
        )
        .map(|(report, _)| report)
    }

    /// Under area scoring Black takes the middle of the 3-path and owns it all: 3, by the line
    /// `Black 2`, two passes (`okite go solve --graph path:3`); a budget of one node proves
    /// nothing on the 2 x 2 board, and says so (E0605).
    #[test]
    fn the_native_solver_reports_a_value_and_its_line() {
        let r = natively("path:3", 0, u64::MAX).unwrap();
        assert_eq!(r.value.get(), "3");
        assert_eq!(r.pv, ["Black 2", "White pass", "Black pass"]);
        assert!(r.nodes.is_some_and(|n| n > 0));
        match natively("grid:2x2", 0, 1) {
            Err(Unsolved::Budget(d)) => {
                assert_eq!(d.code, crate::diagnostics::code::SEARCH_BUDGET);
                assert!(d.message.contains("budget of 1 nodes"), "{}", d.message);
            }
            other => panic!("{other:?}"),
        }
    }

    /// The rules and the native solver give the 2-path the same value under area scoring with
    /// komi 0.5 (-0.5: neither side can take a point); past six vertices the rules refuse.
    #[test]
    fn the_rules_solve_as_the_native_solver_does() {
        let mut prog = rules();
        let g = Graph::parse("path:2").unwrap();
        let by_rules =
            solve_by_rules(&mut prog, &g, "area", -1, None, notice(), &mut |_| {}).unwrap();
        let native = natively("path:2", 1, u64::MAX).unwrap();
        assert_eq!(by_rules.value.get(), native.value.get());
        assert_eq!(by_rules.value.get(), "-0.5");
        assert!(by_rules.pv.is_empty() && by_rules.nodes.is_none());
        let big = Graph::parse("path:7").unwrap();
        let ds =
            solve_by_rules(&mut prog, &big, "area", 0, None, notice(), &mut |_| {}).unwrap_err();
        assert_eq!(ds[0].code, crate::diagnostics::code::ENGINE_LIMIT);
    }

    /// The classes of the empty 2-path by the rules are the native search's (the reading base),
    /// every vertex asked or one alone; the report leaves out the vertex not asked.
    #[test]
    fn classes_by_the_rules_are_the_native_searchs() {
        use super::{classes_by_rules, classes_report, Found};
        let mut prog = rules();
        let g = Graph::parse("path:2").unwrap();
        let seq = [Board::empty()];
        let all = classes_by_rules(
            &mut prog,
            &g,
            &seq,
            &[0, 1],
            None,
            Engine::Rules,
            None,
            &mut |_| {},
        )
        .unwrap();
        let native = crate::go::life::Classifier::new(&g, crate::go::life::Table::default())
            .unwrap()
            .classes_at_parallel(&seq, &[0, 1], 1)
            .unwrap();
        let letters: Vec<char> = native.iter().map(|k| k.unwrap().letter()).collect();
        assert_eq!(all, letters);
        let one = classes_by_rules(
            &mut prog,
            &g,
            &seq,
            &[1],
            None,
            Engine::Rules,
            None,
            &mut |_| {},
        )
        .unwrap();
        assert_eq!((one[0], one[1]), ('-', all[1]));
        let found = Found {
            letters: one,
            unfinished: vec![],
            answers: vec![],
        };
        let r = classes_report(&g, &found, &notice());
        assert_eq!(r.classes[0], None);
        assert_eq!(r.classes[1], Some(all[1].to_string()));
    }

    fn ask_of<'a>(
        results: Option<&'a std::path::Path>,
        read: &'a [std::path::PathBuf],
    ) -> super::ClassesAsk<'a> {
        super::ClassesAsk {
            table: crate::go::life::Table::default(),
            nodes: u64::MAX,
            vertex_nodes: None,
            max_resident_bytes: None,
            estimate_bytes: None,
            proof_numbers: true,
            length_step: 0,
            weak_numbers: false,
            ask_only: None,
            results,
            read_results: read,
            threads: 1,
            interrupt: None,
            progress: None,
        }
    }

    /// The native search through the commands layer: the classifier's classes (on one thread
    /// and on two), the vertices neither asked nor symmetric to one asked left `-`; its results kept in a file are told, and
    /// read again by the next search, which finds the same classes; a file that is no results
    /// file is refused as one (not as the graph's error).
    #[test]
    fn classes_natively_keep_and_read_their_results() {
        use super::{classes_natively, NoClasses};
        use crate::commands::told::Told;
        let g = Graph::parse("path:4").unwrap();
        let seq = [Board::empty()];
        let want: Vec<char> =
            crate::go::life::Classifier::new(&g, crate::go::life::Table::default())
                .unwrap()
                .classes(&seq)
                .unwrap()
                .iter()
                .map(|k| k.letter())
                .collect();
        for threads in [1, 2] {
            let ask = super::ClassesAsk {
                threads,
                ..ask_of(None, &[])
            };
            let c = classes_natively(&g, &seq, &[0, 1, 2, 3], ask, &mut |_| {}).unwrap();
            assert_eq!(c.found.letters, want);
            assert!(c.stats.nodes > 0);
        }
        let some = classes_natively(&g, &seq, &[2], ask_of(None, &[]), &mut |_| {}).unwrap();
        // the vertex asked, and its image under the path's symmetry, which shares its search
        assert_eq!(some.found.letters, vec!['-', want[1], want[2], '-']);
        let dir = std::env::temp_dir().join(format!("okite-classes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("path4.results");
        let mut told = Vec::new();
        let mut tell = |t: Told| match t {
            Told::ResultsRead(n, _) => told.push(("read", n)),
            Told::ResultsKept(n, _) => told.push(("kept", n)),
            _ => {}
        };
        let first =
            classes_natively(&g, &seq, &[0, 1, 2, 3], ask_of(Some(&file), &[]), &mut tell).unwrap();
        assert_eq!(first.found.letters, want);
        assert!(
            matches!(told.as_slice(), [("kept", n)] if *n > 0),
            "{told:?}"
        );
        told.clear();
        let again = classes_natively(
            &g,
            &seq,
            &[0, 1, 2, 3],
            ask_of(None, std::slice::from_ref(&file)),
            &mut |t| {
                if let Told::ResultsRead(n, _) = t {
                    told.push(("read", n))
                }
            },
        )
        .unwrap();
        assert_eq!(again.found.letters, want);
        assert!(
            matches!(told.as_slice(), [("read", n)] if *n > 0),
            "{told:?}"
        );
        let junk = dir.join("junk");
        std::fs::write(&junk, "not results").unwrap();
        let e = classes_natively(
            &g,
            &seq,
            &[0],
            ask_of(None, std::slice::from_ref(&junk)),
            &mut |_| {},
        );
        assert!(matches!(e, Err(NoClasses::Results(_))), "{:?}", e.err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
