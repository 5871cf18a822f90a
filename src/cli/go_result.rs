#![forbid(unsafe_code)]
//! `okite go result`: the game read from `--sgf` or `--moves`, judged by
//! [`crate::commands::go_result::judge`], its report written as JSON or text.

use super::args::GoResultArgs;
use super::common::*;
use crate::commands::go::points;
use crate::commands::go_result::{own_ruleset, GoGame, GoResultAsk, Judgement, NoResult};
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::go::board::Color;
use crate::go::graph::Graph;
use crate::go::judge::Play;
use std::path::Path;

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

/// The game of `--sgf`, or of `--graph` and `--moves`.
fn judged(a: &GoResultArgs) -> Result<GoGame, i32> {
    let Some(path) = &a.sgf else {
        let g = go_graph(a.graph.as_deref().unwrap_or_default())?;
        let plays = parse_plays(&g, &a.moves)?;
        return Ok(GoGame::of_plays(g, plays));
    };
    read_sgf(a.graph.as_deref(), path)
}

/// The game of an SGF record (on `graph`, when given, the record's own).
fn read_sgf(graph: Option<&str>, path: &Path) -> Result<GoGame, i32> {
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
    Ok(GoGame {
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

/// `okite go result` of one game, under the program `kept` holds (checked and kept there when
/// it holds none: the jobs of `--records` check theirs once).
pub(super) fn go_result_in(a: &GoResultArgs, kept: &mut Option<crate::check::Program>) -> i32 {
    let printer = Printer::auto();
    let game = match judged(a) {
        Ok(g) => g,
        Err(c) => return c,
    };
    if kept.is_none() {
        match load_or_report(&a.rules, &printer) {
            Ok((p, _)) => *kept = Some(p),
            Err(c) => return c,
        }
    }
    let Some(prog) = kept.as_mut() else {
        return 2;
    };
    let ask = GoResultAsk {
        dead: a.dead.as_deref(),
        komi: a.komi,
        handicap: a.handicap,
        rulesets: &a.rulesets,
        engine: a.engine,
    };
    let (judgement, g) = match crate::commands::go_result::judge(prog, game, ask, &mut tell) {
        Ok(r) => r,
        Err(NoResult::Diags(ds)) => return printer.fail_all(&ds, &prog.sources),
        Err(NoResult::Search(e)) => return go_error("", "classes", &e),
    };
    if a.json {
        outln!("{}", crate::json::text(&judgement.report()));
    } else {
        print_report(&judgement, &g);
    }
    0
}

/// The report as text: what was judged on, then a line per rule set.
fn print_report(r: &Judgement, g: &Graph) {
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
