//! The outcome classes of vertices: `okite go classes`.

use super::*;
use crate::diagnostics::code;
use crate::go::graph::Graph;
use crate::go::life::{LifeProgress, Table};

use crate::commands::go::{ClassesAsk, Found, NativeClasses, NoClasses};

pub(super) fn run(a: GoClassesArgs) -> i32 {
    match classify(&a) {
        Ok(c) | Err(c) => c,
    }
}

fn classify(a: &GoClassesArgs) -> Result<i32, i32> {
    if let Err(d) = crate::cli::bounds::threads_in_range(a.threads) {
        return Err(Printer::auto().fail(d));
    }
    let reading = a.reading.as_deref();
    let (mut cprog, plan) = go_plan(
        &a.rules,
        reading,
        &["classes"],
        &crate::commands::GO_CLASS_READINGS,
        "the native search of outcome classes",
        a.engine,
    )?;
    let GoPosition {
        spec: graph,
        graph: g,
        seq,
        ..
    } = go_position(
        a.graph.as_deref(),
        &a.moves,
        a.sgf.as_deref(),
        Some((&mut cprog, reading)),
    )?;
    let asked = asked_vertices(&g, &a.vertices)?;
    let ej = {
        let r = crate::commands::reading(&cprog, reading).unwrap_or(crate::check::BASE);
        plan_notice(
            &cprog,
            r,
            "classes",
            "the native search of outcome classes",
            &plan,
            a.engine,
        )
    };
    let table = match plan {
        Plan::Native(n) => Table::for_reading(Some(n)),
        Plan::Rules(_) => None,
    };
    // the native search answers (else the rules: one thread, no bound on a vertex)
    let native = a.engine == Engine::Native && table.is_some();
    options_of_the_native_search(a, native)?;
    let no_pn = crate::commands::go::no_proof_numbers(
        a.engine,
        native,
        a.search == LifeSearch::ProofNumbers,
        table,
        g.n,
    );
    if let (Some(_), Some(why)) = (a.ask, no_pn) {
        return Err(Printer::auto().fail(
            Diag::error(
                code::BAD_OPTION,
                format!("--ask asks one question of the proof-number search: {why}"),
            )
            .help("leave out --ask to classify the vertices"),
        ));
    }
    // results kept in files: those of the proof-number search, on one thread
    if a.results.is_some() || !a.read_results.is_empty() {
        let why =
            no_pn
                .or((a.threads > 1)
                    .then_some("they are kept by one thread's search: give --threads 1"));
        if let Some(why) = why {
            return Err(Printer::auto().fail(
                Diag::error(code::RESULTS_FILE, format!("no results file here: {why}"))
                    .help("leave out --results and --read-results"),
            ));
        }
    }
    let found = match (a.engine, table) {
        (Engine::Native, Some(table)) => by_the_native_search(a, &graph, &g, &seq, &asked, table)?,
        (engine, _) => Found {
            letters: by_the_rules(a, &mut cprog, &g, &seq, &asked, engine)?,
            unfinished: Vec::new(),
            answers: Vec::new(),
        },
    };
    if a.json {
        outln!("{}", classes_json(&g, &found, &ej));
    } else if a.ask.is_some() {
        // the answers are what was asked: a line each
        for q in &found.answers {
            outln!("{}", answer_line(q, &g.names));
        }
    } else {
        let last = seq.last().copied().unwrap_or_default();
        out!(
            "{}",
            crate::go::render::classes_diagram(&g, &last, &found.letters)
        );
    }
    if let (false, Some(max)) = (found.unfinished.is_empty(), a.vertex_nodes) {
        let names: Vec<&str> = found
            .unfinished
            .iter()
            .map(|&v| g.names[v].as_str())
            .collect();
        let what = if names.len() == 1 {
            format!("the search of vertex {} visited", names[0])
        } else {
            format!("the searches of vertices {} each visited", names.join(", "))
        };
        return Err(Printer::auto().fail(
            Diag::error(
                code::SEARCH_BUDGET,
                format!("{what} more than {max} sequences (--vertex-nodes): left `?`"),
            )
            .help("raise --vertex-nodes, or classify a later position"),
        ));
    }
    Ok(0)
}

/// The vertices asked about: every one unless --vertex names some.
fn asked_vertices(g: &Graph, vertices: &[String]) -> Result<Vec<usize>, i32> {
    let mut asked: Vec<usize> = Vec::new();
    for name in vertices.iter().map(|n| n.trim()) {
        match g.vertex(name) {
            Some(v) if !asked.contains(&v) => asked.push(v),
            Some(_) => {}
            None => {
                let e = crate::go::error::GoError::new(
                    format!("`{name}` is not a vertex of the graph"),
                    "`okite go show --graph G` lists the vertex names",
                );
                return Err(go_error(name, "--vertex", &e));
            }
        }
    }
    if asked.is_empty() {
        asked = (0..g.n).collect();
    }
    Ok(asked)
}

/// The options that steer or bound the native search: a notice for each one given where the
/// rules answer, and --estimate-mb's bound.
fn options_of_the_native_search(a: &GoClassesArgs, native: bool) -> Result<(), i32> {
    if a.threads > 1 && !native {
        errln!(
            "okite: the rules classify on one thread (--threads {} asked): one evaluator answers them",
            a.threads
        );
    }
    if a.vertex_nodes.is_some() && !native {
        errln!(
            "okite: --vertex-nodes bounds the native search: the rules evaluate every asked vertex to its end"
        );
    }
    if a.length_step > 0 && !native {
        errln!("okite: --length-step steers the native search: the rules evaluate every option");
    }
    if a.weak_numbers && !native {
        errln!("okite: --weak-numbers steers the native search: the rules evaluate every option");
    }
    if let Some(mb) = a.estimate_mb {
        let half = "half the memory the classification may occupy";
        if let Err(d) =
            crate::cli::bounds::table_in_bound("--estimate-mb", mb, a.max_resident_mb / 2, half)
        {
            return Err(Printer::auto().fail(d));
        }
        if !native {
            errln!("okite: --estimate-mb sizes a table of the native search: the rules have none");
        }
    }
    Ok(())
}

/// The classes found by the native search (see [`crate::commands::go::classes_natively`]),
/// with its progress on the terminal, Ctrl-C kept for its results file, and its counters told.
fn by_the_native_search(
    a: &GoClassesArgs,
    graph: &str,
    g: &Graph,
    seq: &[crate::go::board::Board],
    asked: &[usize],
    table: Table,
) -> Result<Found, i32> {
    let spinner = std::rc::Rc::new(Spinner::new(format!("classifying the vertices of {graph}")));
    let ask = ClassesAsk {
        table,
        nodes: a.nodes,
        vertex_nodes: a.vertex_nodes,
        max_resident_bytes: Some(a.max_resident_mb.saturating_mul(1 << 20)),
        estimate_bytes: a.estimate_mb.map(|mb| mb.saturating_mul(1 << 20)),
        proof_numbers: a.search == LifeSearch::ProofNumbers,
        length_step: a.length_step,
        weak_numbers: a.weak_numbers,
        ask_only: a.ask.map(|c| match c {
            AskColour::Black => crate::go::board::Color::Black,
            AskColour::White => crate::go::board::Color::White,
        }),
        results: a.results.as_deref(),
        read_results: &a.read_results,
        threads: a.threads,
        interrupt: a.results.as_ref().and_then(|_| keep_on_interrupt()),
        progress: Some(progress_on(
            spinner.clone(),
            graph.to_string(),
            g.names.clone(),
        )),
    };
    let native = crate::commands::go::classes_natively(g, seq, asked, ask, &mut tell);
    drop(spinner);
    match native {
        Ok(NativeClasses {
            found,
            stats,
            elapsed,
        }) => {
            errln!(
                "{} in {:.2?}: {} sequences searched, {} memo hits, {} memo entries, {} estimates",
                if a.ask.is_some() {
                    "answered"
                } else {
                    "classified"
                },
                elapsed,
                stats.nodes,
                stats.hits,
                stats.entries,
                stats.estimates
            );
            Ok(found)
        }
        Err(NoClasses::Results(e)) => Err(results_error(&e)),
        // by its kind: a budget passed (E0605), the memory bound (E0611), Ctrl-C
        Err(NoClasses::Search(e)) => Err(go_error(graph, "--graph", &e)),
    }
}

/// What the spinner says as the native search goes: each question answered, at once (on a
/// long classification it is known long before the vertex's class, and kept in a log as well),
/// and the vertices being searched.
fn progress_on(
    told: std::rc::Rc<Spinner>,
    name: String,
    names: Vec<String>,
) -> Box<dyn FnMut(&LifeProgress)> {
    let mut said = 0;
    Box::new(move |p: &LifeProgress| {
        let name_of = |v: usize| names.get(v).map_or("?", |n| n.as_str());
        if p.answers.len() < said {
            said = 0;
        }
        for a in p.answers.iter().skip(said) {
            told.tell(&format!(
                "{} ({} sequences)",
                answer_line(a, &names),
                a.nodes
            ));
        }
        said = p.answers.len();
        let at = if p.working.len() > 1 {
            // several threads: each one's vertex and question
            let each: Vec<String> = p
                .working
                .iter()
                .map(|&(v, c)| match c {
                    Some(c) => format!("{} ({c:?} first)", name_of(v)),
                    None => name_of(v).to_string(),
                })
                .collect();
            format!("vertices {}", each.join(", "))
        } else {
            let asking = match p.colour {
                Some(c) => format!(", does {c:?} moving first get it?"),
                None => String::new(),
            };
            format!("vertex {}{asking}", name_of(p.vertex))
        };
        // the question's proof and disproof numbers (one thread)
        let numbers = match p.numbers {
            Some((pn, dn)) if p.working.len() <= 1 && p.colour.is_some() => {
                format!("; proof number {pn}, disproof number {dn}")
            }
            _ => String::new(),
        };
        told.set(format!(
            "classifying the vertices of {name}: {} of {} known, {at} ({} sequences{numbers})",
            p.classified, p.vertices, p.nodes
        ));
    })
}

/// The classes by the rules (see [`crate::commands::go::classes_by_rules`]), with a spinner.
fn by_the_rules(
    a: &GoClassesArgs,
    cprog: &mut Program,
    g: &Graph,
    seq: &[crate::go::board::Board],
    asked: &[usize],
    engine: Engine,
) -> Result<Vec<char>, i32> {
    let spinner = Spinner::new("classifying by the rules".to_string());
    let letters = crate::commands::go::classes_by_rules(
        cprog,
        g,
        seq,
        asked,
        a.reading.as_deref(),
        engine,
        Some(a.max_resident_mb),
        &mut tell,
    );
    drop(spinner);
    letters.map_err(|ds| Printer::auto().fail_all(&ds, &cprog.sources))
}

/// The JSON of the classes: {"classes", "unfinished" (present only when --vertex-nodes left
/// some), "answers" (present only where the proof-number search answered some: whether the
/// colour moving first gets the vertex, and by which move), "engine"}.
fn classes_json(g: &Graph, found: &Found, ej: &Notice) -> String {
    crate::json::text(&crate::commands::go::classes_report(g, found, ej))
}
