#![forbid(unsafe_code)]
//! `go classes`: the outcome classes of vertices, by the rules or by the native search, and
//! the report of what was found. Nothing here prints: what the search says on the way (results
//! read from a file and kept in it) goes to `tell`, its progress to the face's callback.

use super::{ask_of, sequence_value, GoQuery};
use crate::check::Program;
use crate::commands::eval::unexpected;
use crate::commands::report::go::{ClassAnswer, Classes};
use crate::commands::told::Told;
use crate::diagnostics::Diag;
use crate::go::board::{Board, Color};
use crate::go::error::GoError;
use crate::go::graph::Graph;
use crate::go::life::{Classifier, LifeStats, Table, Tell};
use crate::ir::Value;
use crate::natives::Engine;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The letter of a class value of the rules, if it is one.
fn class_letter(c: &Value) -> Option<char> {
    crate::go::life::Class::of_rule_name(&c.to_string()).map(crate::go::life::Class::letter)
}

/// `go classes` by the rules, on the position `seq` ends in: `classes(G, r)` when every vertex
/// is asked, else `outcome(G, r, v)` for each asked one (the vertex numbered from 1). A letter
/// per vertex (`-` not asked).
#[allow(clippy::too_many_arguments)]
pub fn classes_by_rules(
    prog: &mut Program,
    g: &Graph,
    seq: &[Board],
    asked: &[usize],
    reading: Option<&str>,
    engine: Engine,
    resident_mb: Option<usize>,
    tell: &mut dyn FnMut(Told),
) -> Result<Vec<char>, Vec<Diag>> {
    // the graph and the sequence made values of the rules once, for every vertex asked
    let r = sequence_value(g, seq);
    let gv = crate::natives::go::graph_value(g);
    let mut on_sequence = |prog: &mut Program, text: &str| {
        let q = GoQuery::on_sequence(text, r.clone());
        let q = GoQuery {
            reading,
            engine,
            resident_mb,
            ..q
        };
        ask_of(prog, gv.clone(), q, tell)
    };
    if asked.len() == g.n {
        let text = "classes(G, r)";
        return match on_sequence(prog, text)? {
            Value::Seq(cs) => Ok(cs.iter().map(|c| class_letter(c).unwrap_or('?')).collect()),
            v => Err(vec![unexpected(text, &v, "a sequence of classes")]),
        };
    }
    let mut letters = vec!['-'; g.n];
    for &v in asked {
        let text = format!("outcome(G, r, {})", v + 1);
        let c = on_sequence(prog, &text)?;
        match (class_letter(&c), letters.get_mut(v)) {
            (Some(k), Some(l)) => *l = k,
            _ => return Err(vec![unexpected(&text, &c, "a class")]),
        }
    }
    Ok(letters)
}

/// What a classification found: a letter per vertex (`-` not asked, `?` left by a bound on a
/// vertex's search), the vertices left, and the questions the proof-number search answered.
pub struct Found {
    /// A letter per vertex.
    pub letters: Vec<char>,
    /// The vertices whose search passed its bound.
    pub unfinished: Vec<usize>,
    /// The questions the proof-number search answered.
    pub answers: Vec<crate::go::life::Answer>,
}

/// `go classes`' report of what was found on `g`, `engine` the notice of who answered.
pub fn classes_report(g: &Graph, found: &Found, engine: &crate::commands::Notice) -> Classes {
    let name = |v: usize| g.names.get(v).cloned().unwrap_or_default();
    Classes {
        classes: found
            .letters
            .iter()
            .map(|&n| match n {
                '-' | '?' => None,
                n => Some(n.to_string()),
            })
            .collect(),
        unfinished: found.unfinished.iter().map(|&v| name(v)).collect(),
        answers: found
            .answers
            .iter()
            .map(|a| ClassAnswer {
                vertex: name(a.vertex),
                colour: format!("{:?}", a.colour),
                gets: a.gets,
                by: a.by.map(name),
                sequences: a.nodes,
            })
            .collect(),
        engine: engine.clone(),
    }
}

/// Why the proof-number search, which answers the questions of a class one by one and keeps
/// their results, does not search here (where it does not): `engine` asked, whether the
/// native search answers (`native`), whether that search is the proof-number one
/// (`proof_numbers`), under `table`, on a graph of `n` vertices.
pub fn no_proof_numbers(
    engine: Engine,
    native: bool,
    proof_numbers: bool,
    table: Option<Table>,
    n: usize,
) -> Option<&'static str> {
    if engine == Engine::Verify {
        Some("--engine verify compares the classes of the two engines")
    } else if !native {
        Some("the rules answer here, not the native search")
    } else if !proof_numbers
        || table == Some(Table::Cautious)
        || n > crate::go::life::TRACK_MAX_VERTICES
    {
        Some("the proof-number search answers only under the default table or p-to-chooser, on graphs of up to 16 vertices")
    } else {
        None
    }
}

/// How the native search of outcome classes is asked: its table, bounds and steering, the
/// files it reads and keeps its results in, and the face's means to follow and stop it.
pub struct ClassesAsk<'a> {
    /// The table of the reading (see [`Table::for_reading`]).
    pub table: Table,
    /// The sequences the whole search may visit.
    pub nodes: u64,
    /// The sequences each vertex's search may visit (the vertex then left `?`).
    pub vertex_nodes: Option<u64>,
    /// The most bytes the process may occupy.
    pub max_resident_bytes: Option<usize>,
    /// The size of the table of the proof-number search's estimates, when not its default.
    pub estimate_bytes: Option<usize>,
    /// The proof-number search (else the depth-first one).
    pub proof_numbers: bool,
    /// See [`Classifier::set_length_step`].
    pub length_step: u32,
    /// See [`Classifier::set_weak_numbers`].
    pub weak_numbers: bool,
    /// One question asked of each vertex, whether this colour moving first gets it, instead of
    /// its class.
    pub ask_only: Option<Color>,
    /// The file the search keeps its results in as it goes (read first when it exists).
    pub results: Option<&'a Path>,
    /// Files of results read before the search starts.
    pub read_results: &'a [PathBuf],
    /// Threads, each searching one vertex at a time.
    pub threads: usize,
    /// Raised by the face (Ctrl-C) to stop the search, keeping what it found.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Told how far the search has come.
    pub progress: Option<Tell>,
}

/// Why the native search gave no classes.
#[derive(Debug)]
pub enum NoClasses {
    /// Of the graph or the search: a budget passed (E0605), the memory bound (E0611), an
    /// interruption.
    Search(GoError),
    /// Of a results file: locked by another process, unreadable, of another graph (E0615).
    Results(GoError),
}

/// What the native search found, with its counters and how long it took.
pub struct NativeClasses {
    /// The classes, the vertices left and the questions answered.
    pub found: Found,
    /// The search's counters.
    pub stats: LifeStats,
    /// How long the search took (not counting the results files read).
    pub elapsed: std::time::Duration,
}

/// `go classes` by the native search on the position `seq` ends in, for the `asked` vertices.
/// The results found are kept in `ask.results` whether the search ended or not.
pub fn classes_natively(
    g: &Graph,
    seq: &[Board],
    asked: &[usize],
    ask: ClassesAsk,
    tell: &mut dyn FnMut(Told),
) -> Result<NativeClasses, NoClasses> {
    let mut cl = Classifier::new(g, ask.table).map_err(NoClasses::Search)?;
    cl.node_limit = ask.nodes;
    cl.vertex_node_limit = ask.vertex_nodes;
    cl.set_max_resident_bytes(ask.max_resident_bytes);
    if let Some(bytes) = ask.estimate_bytes {
        cl.set_estimate_bytes(bytes);
    }
    cl.set_proof_numbers(ask.proof_numbers);
    cl.set_length_step(ask.length_step);
    cl.set_weak_numbers(ask.weak_numbers);
    cl.set_ask_only(ask.ask_only);
    // the results file locked before it is read: no other process writes it while this one
    // keeps its results there
    if let Some(file) = ask.results {
        cl.keep_results(file.to_path_buf(), std::time::Duration::from_secs(600))
            .map_err(NoClasses::Results)?;
        cl.interrupt = ask.interrupt;
    }
    let existing = ask.results.iter().copied().filter(|p| p.exists());
    for file in ask
        .read_results
        .iter()
        .map(PathBuf::as_path)
        .chain(existing)
    {
        let n = cl.load_results(file).map_err(NoClasses::Results)?;
        tell(Told::ResultsRead(n, file));
    }
    let start = std::time::Instant::now();
    cl.progress = ask.progress;
    let classes = cl.classes_at_parallel(seq, asked, ask.threads);
    cl.progress = None;
    let elapsed = start.elapsed();
    // what was found is kept, whether the classification ended or not
    if let Some(file) = ask.results {
        if let Some(n) = cl.keep_final().map_err(NoClasses::Results)? {
            tell(Told::ResultsKept(n, file));
        }
    }
    let ks = classes.map_err(NoClasses::Search)?;
    let unfinished = cl.unfinished().to_vec();
    let letters = (0..g.n)
        .map(|v| match ks.get(v).copied().flatten() {
            Some(k) => k.letter(),
            None if unfinished.contains(&v) => '?',
            None => '-',
        })
        .collect();
    Ok(NativeClasses {
        found: Found {
            letters,
            unfinished,
            answers: cl.answers().to_vec(),
        },
        stats: cl.stats,
        elapsed,
    })
}
