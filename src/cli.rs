#![forbid(unsafe_code)]
//! The command line. Each command is a thin layer over the library.

use crate::check::{Program, Query};
use crate::diagnostics::{render, Diag, Level, SourceMap};
use crate::eval::explain;
use crate::eval::run::{run_all, summary};
use crate::eval::value::Value;
use crate::eval::{EvalError, Evaluator};
pub use crate::front::{
    display_value, json_str, positions_of, pseudo_game, shogi_game, OutOpts, QueryOpts, RunOpts,
};
use crate::front::{Plan, SHOGI_READINGS};
use crate::hooks::{Engine, Hooks};
use clap::{Args, Parser, Subcommand};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "okite",
    version,
    about = "The rules of shogi and Go as mathematical definitions, checked and run",
    long_about = "okite (掟, \"the rules\") reads rule files that state the rules of shogi and Go as \
                  mathematical definitions, checks them, and runs them on real positions."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand)]
pub enum Command {
    /// Parse and check rule files: every diagnostic, or OK
    Check {
        /// Rule files or folders (default: rules/)
        paths: Vec<PathBuf>,
        /// Also print information notes (recursion groups)
        #[arg(long)]
        notes: bool,
        #[command(flatten)]
        out: OutOpts,
    },
    /// Run the examples and theorems written inside rule files
    Test {
        /// Rule files or folders (default: rules/)
        paths: Vec<PathBuf>,
        /// Only examples and theorems whose name contains this text
        #[arg(long)]
        filter: Option<String>,
        /// Print every example and theorem, not only failures
        #[arg(long, short)]
        verbose: bool,
        #[command(flatten)]
        run: RunOpts,
        #[command(flatten)]
        out: OutOpts,
    },
    /// Evaluate an expression
    Eval {
        /// The expression, in the rule language
        expr: String,
        #[command(flatten)]
        q: QueryOpts,
        /// Print the value as JSON: {"value": ..., "type": ...}
        #[arg(long)]
        json: bool,
    },
    /// The diagnostic codes: all of them, or one (by code or name) with an input that produces it
    Codes {
        code: Option<String>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        out: OutOpts,
    },
    /// Evaluate an expression and show why: the proof tree with rule spans
    Explain {
        expr: String,
        #[command(flatten)]
        q: QueryOpts,
        /// How many levels of the tree to print
        #[arg(long, default_value_t = 6)]
        depth: usize,
    },
    /// Evaluate an expression under several readings side by side
    Compare {
        expr: String,
        /// Comma-separated readings, e.g. narrow,broad
        #[arg(long, value_delimiter = ',', required = true)]
        readings: Vec<String>,
        #[command(flatten)]
        q: QueryOpts,
        /// Levels of explanation printed where readings differ
        #[arg(long, default_value_t = 4)]
        depth: usize,
    },
    /// Ask questions about positions interactively
    Repl {
        /// Rule files or folders (default: rules/)
        paths: Vec<PathBuf>,
    },
    /// List the native bindings of the rules and engines, on or off under a reading and why
    Natives {
        /// Rule files or folders (default: the shipped rules)
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
        /// The reading (default: base)
        #[arg(long)]
        reading: Option<String>,
        /// Also list every native function okite has, with what it does
        #[arg(long)]
        all: bool,
        /// One JSON object: {"reading", "bindings": [...], "engines": [...]}
        #[arg(long)]
        json: bool,
    },
    /// Count the leaves of the legal move tree (native move generator)
    Perft {
        #[command(flatten)]
        pos: PositionOpts,
        /// Depth in plies
        #[arg(long)]
        depth: u32,
        /// Print the count below each legal move first
        #[arg(long)]
        divide: bool,
        /// native (the move generator, or under a variant its native parts with the changed
        /// definitions by the rules) or rules (the definitions alone)
        #[arg(long, default_value = "native")]
        engine: Engine,
        /// Rule files or folders (default: the shipped rules)
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
        /// Count under a reading of the rules, with the history of --moves and of each line;
        /// without it, narrow-check with no history (the usual perft convention: a pawn-drop mate
        /// is a checking pawn drop)
        #[arg(long)]
        reading: Option<String>,
        /// One JSON object: {"count", "engine"}
        #[arg(long)]
        json: bool,
    },
    /// The legal moves of a position, in USI, under a reading (with the game's history)
    Legal {
        #[command(flatten)]
        pos: PositionOpts,
        /// narrow (default), broad, narrow-check, broad-check, or any reading of the rules
        #[arg(long, default_value = "narrow")]
        reading: String,
        /// native, rules or verify (both, compared)
        #[arg(long, default_value = "native")]
        engine: Engine,
        /// Same as --engine verify
        #[arg(long)]
        verify: bool,
        /// Rule files or folders (default: the shipped rules)
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
        /// One JSON object: {"moves", "engine"}
        #[arg(long)]
        json: bool,
    },
    /// Replay a game record and report, under each reading, the first forbidden move,
    /// repetitions, perpetual checks and whether the final position is mate
    Game {
        /// A KIF record
        #[arg(long)]
        kif: Option<PathBuf>,
        /// A CSA record
        #[arg(long)]
        csa: Option<PathBuf>,
        /// USI moves from --sfen (default: the start position)
        #[arg(long)]
        usi: Option<String>,
        #[arg(long, default_value = "startpos")]
        sfen: String,
        /// Readings to report (default: all four)
        #[arg(
            long,
            value_delimiter = ',',
            default_value = "narrow,broad,narrow-check,broad-check"
        )]
        readings: Vec<String>,
        /// Rule files or folders (default: the shipped rules); a reading whose definitions are
        /// not the shipped ones of a native reading is judged by the rules
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
        #[command(flatten)]
        out: OutOpts,
    },
    /// A board diagram of a position
    Show {
        #[command(flatten)]
        pos: PositionOpts,
    },
    /// Go on any graph (native engine)
    #[command(subcommand)]
    Go(GoCommand),
    /// Find forced mates (tsume): every attacking move checks, the defender resists longest
    Mate {
        /// The position (SFEN or `startpos`)
        #[arg(long, conflicts_with = "batch")]
        sfen: Option<String>,
        /// USI moves played from --sfen first
        #[arg(long, default_value = "")]
        moves: String,
        /// A file with one SFEN per line
        #[arg(long)]
        batch: Option<PathBuf>,
        /// The reading whose legality the search follows: narrow-check (default; mate
        /// presupposes check, as in tsume), narrow, broad or broad-check (perpetual check
        /// forbidden, the history given by --moves counted)
        #[arg(long, default_value = "narrow-check")]
        reading: String,
        /// shortest (prove the mate is the shortest) or any (stop at the first proof)
        #[arg(long, default_value = "shortest")]
        length: String,
        /// Look for mates of at most this many plies (0: no limit)
        #[arg(long, default_value_t = 0)]
        max_plies: u32,
        /// Time limit per problem in milliseconds (0: none)
        #[arg(long, default_value_t = 60_000)]
        time_ms: u64,
        /// Node limit per problem (0: none)
        #[arg(long, default_value_t = 0)]
        nodes: u64,
        /// Transposition table size in MiB
        #[arg(long, default_value_t = 256)]
        hash_mb: usize,
        /// One JSON object per problem
        #[arg(long)]
        json: bool,
        /// Rule files or folders whose definitions the search must follow (default: the shipped
        /// rules); the search runs where its definitions are the shipped ones of a reading
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
    },
    /// The shipped rule files: `okite rules export DIR` writes them out for editing
    #[command(subcommand)]
    Rules(RulesCommand),
    /// A USI engine answering `go mate` (for shogi GUIs)
    Usi {
        /// Rule files or folders the search must follow (default: the shipped rules); the USI
        /// option `Rules` names others
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
        /// The reading (the USI option `Reading` changes it)
        #[arg(long, default_value = "narrow-check")]
        reading: String,
    },
}

#[derive(Subcommand)]
pub enum RulesCommand {
    /// Write the shipped rule files into a folder (created if missing), to edit into a variant
    Export { dir: PathBuf },
}

/// A variant: rule files and a reading.
#[derive(Args, Clone)]
pub struct VariantOpts {
    /// Rule files or folders (default: the shipped rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// A reading of the rules
    #[arg(long)]
    pub reading: Option<String>,
}

/// The native search of `okite go classes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LifeSearch {
    ProofNumbers,
    DepthFirst,
}

#[derive(Subcommand)]
pub enum GoCommand {
    /// The number of ultimate boards of a graph (seed 004), last line
    Ultimate {
        #[arg(long)]
        graph: String,
        #[arg(long, default_value = "native")]
        engine: Engine,
        #[command(flatten)]
        variant: VariantOpts,
    },
    /// The outcome class of every vertex after a sequence of moves (seed 004; rules engine)
    Classes {
        #[arg(long)]
        graph: String,
        /// Moves from the empty board: "B 1, W 2" (vertex names as `okite go show` prints them)
        #[arg(long, default_value = "")]
        moves: String,
        /// A reading of rules/go_life.rule (e.g. cautious, literal-ultimate)
        #[arg(long)]
        reading: Option<String>,
        /// Rule files or folders (default: the shipped rules)
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
        /// native (the search of src/go/life.rs), rules (the definitions of
        /// rules/go_life.rule) or verify (both, reporting a difference)
        #[arg(long, default_value = "native")]
        engine: Engine,
        /// Bound on the sequences the native search visits
        #[arg(long, default_value_t = crate::go::life::DEFAULT_NODE_LIMIT)]
        nodes: u64,
        /// The native search: proof-numbers (the default where it applies: the reconstruction's
        /// table, graphs of up to 16 vertices) or depth-first (one option after another)
        #[arg(long, value_enum, default_value = "proof-numbers")]
        search: LifeSearch,
        /// Memory the rules engine's process may occupy, in MiB: past it the query ends with a
        /// diagnostic
        #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_RESIDENT_MB)]
        max_resident_mb: usize,
        #[arg(long)]
        json: bool,
    },
    /// The pure-Go and Chinese scores of a sequence, and whether it is Chinese-terminable
    Score {
        #[arg(long)]
        graph: String,
        #[arg(long, default_value = "")]
        moves: String,
        /// pure or chinese (both are printed; this one comes last)
        #[arg(long, default_value = "chinese")]
        reading: String,
        /// Rule files or folders (default: the shipped rules)
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
    },
    /// The number of boards (legal positions) of a graph; the count is the last line
    Count {
        /// grid:MxN, path:N, cycle:N, complete:N, star:N or edges:FILE
        #[arg(long)]
        graph: String,
        /// native, or rules (the definitions of rules/go.rule, for small graphs)
        #[arg(long, default_value = "native")]
        engine: Engine,
        #[command(flatten)]
        variant: VariantOpts,
    },
    /// The number of regular sequences from the empty board (counting the empty one)
    Sequences {
        #[arg(long)]
        graph: String,
        #[arg(long, default_value = "native")]
        engine: Engine,
        /// Stop with an error once the count passes this many sequences
        #[arg(long, default_value_t = 10_000_000_000)]
        limit: u128,
        /// A reading (e.g. suicide of rules/go.rule) and rule files: the native count where
        /// their definitions are the shipped ones of base, else the rules
        #[command(flatten)]
        variant: VariantOpts,
    },
    /// The value under perfect play (Black minus White minus komi)
    Solve {
        #[arg(long)]
        graph: String,
        /// A reading of the rules' `solve` (rules/go_play.rule: area, situational, simple-ko or
        /// base, the stones-only score; rules/go.rule: suicide; or a reading of your own): the
        /// native solver where its definitions are area's (area scoring, positional superko,
        /// suicide forbidden, two passes end the game), the rules otherwise (small graphs only)
        #[arg(long, default_value = "area")]
        reading: String,
        /// Rule files or folders (default: the shipped rules)
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
        #[arg(long, default_value_t = 0.0)]
        komi: f64,
        /// Search node budget
        #[arg(long, default_value_t = 200_000_000)]
        nodes: u64,
        #[arg(long)]
        json: bool,
    },
    /// The graph with its vertices and neighbours
    Show {
        #[arg(long)]
        graph: String,
        /// Graphviz dot instead of a diagram
        #[arg(long)]
        dot: bool,
        /// An SGF record whose final position is shown (grid boards)
        #[arg(long)]
        sgf: Option<PathBuf>,
        /// Moves played from the empty board: "B A1, W B2, B pass" (vertex names as shown)
        #[arg(long)]
        moves: Option<String>,
    },
}

/// Evaluate a Go query of the rules with `G` bound to the graph.
fn go_by_rules(
    prog: &mut Program,
    g: &crate::go::graph::Graph,
    text: &str,
    engine: Engine,
    reading: Option<&str>,
) -> i32 {
    let printer = Printer::new(&OutOpts {
        color: "auto".into(),
    });
    if g.n > 16 {
        eprintln!("error: the rules enumerate configurations of graphs of at most 16 vertices; this graph has {}\nhelp: use --engine native", g.n);
        return 2;
    }
    let bound = vec![(
        "G".to_string(),
        crate::hooks::go::graph_value(g),
        "Graph".to_string(),
    )];
    match eval_with_bound(prog, text, bound, engine, reading, &printer, None) {
        Ok(v) => {
            println!("{v}");
            0
        }
        Err(c) => c,
    }
}

/// A Go command that counts: the native count `native` where the loaded definitions `defs` are
/// the shipped ones of base, else `query` by the rules with `G` bound to the graph.
fn go_count<N: std::fmt::Display>(
    graph: &str,
    variant: &VariantOpts,
    defs: &[&str],
    engine_name: &str,
    engine: Engine,
    query: &str,
    native: impl FnOnce(&crate::go::graph::Graph) -> Result<N, i32>,
) -> i32 {
    let g = match go_graph(graph) {
        Ok(g) => g,
        Err(c) => return c,
    };
    let reading = variant.reading.as_deref();
    let (mut prog, plan) = match go_plan(
        &variant.rules,
        reading,
        defs,
        &["base"],
        engine_name,
        engine,
    ) {
        Ok(x) => x,
        Err(c) => return c,
    };
    if engine != Engine::Native || !plan.is_native() {
        return go_by_rules(&mut prog, &g, query, engine, reading);
    }
    match native(&g) {
        Ok(n) => {
            println!("{n}");
            0
        }
        Err(c) => c,
    }
}

/// Load the rules of a Go command, find its reading, and say whether the native engine standing
/// for `defs` answers (following one of `natives`) or the rules do.
fn go_plan(
    rules: &[PathBuf],
    reading: Option<&str>,
    defs: &[&str],
    natives: &[&'static str],
    engine_name: &str,
    engine: Engine,
) -> Result<(Program, Plan), i32> {
    let printer = Printer::new(&OutOpts {
        color: "auto".into(),
    });
    let prog = load_or_report(rules, &printer)?.0;
    let r = crate::front::reading(&prog, reading).map_err(|d| {
        printer.diags(&[d], &prog.sources);
        2
    })?;
    let plan = match engine {
        Engine::Rules => Plan::Rules(crate::bindings::Reason {
            what: String::new(),
            changes: vec![],
        }),
        _ => crate::front::plan_all(&prog, r, defs, natives),
    };
    say_plan(&prog, r, &defs.join("`, `"), engine_name, &plan, engine);
    Ok((prog, plan))
}

fn go_graph(spec: &str) -> Result<crate::go::graph::Graph, i32> {
    crate::go::graph::Graph::parse(spec).map_err(|e| go_error(spec, "--graph", &e))
}

fn go_error(text: &str, name: &str, e: &crate::go::error::GoError) -> i32 {
    use crate::syntax::ast::Span;
    let mut sources = SourceMap::default();
    let id = sources.add(name, None, text.to_string());
    let mut d = Diag::error("E0501", e.message.clone()).help(e.help.clone());
    if let Some(sp) = e.span.as_ref().filter(|sp| sp.offset < text.len()) {
        d = d.label(Span::new(id, sp.offset, sp.offset + 1), "here");
    } else {
        d = d.label(Span::new(id, 0, text.len()), "");
    }
    eprint!("{}", render(&[d], &sources, 100, false));
    2
}

/// The boards of a move list "B 1, W 2" played from the empty board (implicit passes, positional
/// superko, suicide forbidden: a regular sequence of seed 002), as rule-level configurations.
fn go_sequence(g: &crate::go::graph::Graph, moves: &str) -> Result<Value, i32> {
    match crate::go::life::sequence_from_moves(g, moves) {
        Ok(seq) => Ok(Value::seq(
            seq.iter()
                .map(|b| crate::hooks::go::config_value(g, b))
                .collect(),
        )),
        Err(e) => Err(go_error(moves, "--moves", &e)),
    }
}

/// Evaluate a query of the Go rules with `G` the graph and `r` the sequence of moves given.
fn eval_on_sequence(
    rules: &[PathBuf],
    graph: &str,
    moves: &str,
    text: &str,
    reading: Option<&str>,
    engine: Engine,
    resident_mb: Option<usize>,
) -> Result<(crate::go::graph::Graph, Value), i32> {
    let g = go_graph(graph)?;
    let r = go_sequence(&g, moves)?;
    let printer = Printer::new(&OutOpts {
        color: "auto".into(),
    });
    let mut prog = load_or_report(rules, &printer)?.0;
    let bound = vec![
        (
            "G".to_string(),
            crate::hooks::go::graph_value(&g),
            "Graph".to_string(),
        ),
        ("r".to_string(), r, "Seq<Config>".to_string()),
    ];
    let v = eval_with_bound(
        &mut prog,
        text,
        bound,
        engine,
        reading,
        &printer,
        resident_mb,
    )?;
    Ok((g, v))
}

fn run_go(cmd: GoCommand) -> i32 {
    use crate::go;
    match cmd {
        GoCommand::Ultimate {
            graph,
            engine,
            variant,
        } => go_count(
            &graph,
            &variant,
            &["boards", "ultimate"],
            "the native count of ultimate boards",
            engine,
            "size({ c | c in boards(G), ultimate(G, c) })",
            |g| {
                crate::hooks::go::count_ultimate(g).map_err(|m| {
                    eprintln!("error: {m}");
                    2
                })
            },
        ),
        GoCommand::Classes {
            graph,
            moves,
            reading,
            rules,
            engine,
            nodes,
            search,
            max_resident_mb,
            json,
        } => {
            let g = match go_graph(&graph) {
                Ok(g) => g,
                Err(c) => return c,
            };
            let start = std::time::Instant::now();
            let (cprog, plan) = match go_plan(
                &rules,
                reading.as_deref(),
                &["classes"],
                &["base", "cautious", "literal-ultimate"],
                "the native search of outcome classes",
                engine,
            ) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let ej = {
                let r =
                    crate::front::reading(&cprog, reading.as_deref()).unwrap_or(crate::check::BASE);
                if engine == Engine::Rules {
                    engine_json(
                        &cprog,
                        r,
                        "classes",
                        "the native search of outcome classes",
                        &plan,
                        None,
                        engine,
                    )
                } else {
                    crate::front::notice_json(
                        &cprog,
                        r,
                        "classes",
                        "the native search of outcome classes",
                        &plan,
                    )
                }
            };
            let table = match plan {
                Plan::Native(n) => crate::go::life::Table::for_reading(Some(n)),
                Plan::Rules(_) => None,
            };
            let letters: Vec<char> = match (engine, table) {
                (Engine::Native, Some(table)) => {
                    let seq = match crate::go::life::sequence_from_moves(&g, &moves) {
                        Ok(s) => s,
                        Err(e) => return go_error(&moves, "--moves", &e),
                    };
                    let mut cl = match crate::go::life::Classifier::new(&g, table) {
                        Ok(c) => c,
                        Err(e) => return go_error(&graph, "--graph", &e),
                    };
                    cl.node_limit = nodes;
                    cl.set_proof_numbers(search == LifeSearch::ProofNumbers);
                    match cl.classes(&seq) {
                        Ok(ks) => {
                            eprintln!(
                                "classified in {:.2?}: {} sequences searched, {} memo hits, {} memo entries",
                                start.elapsed(),
                                cl.stats.nodes,
                                cl.stats.hits,
                                cl.stats.entries
                            );
                            ks.iter().map(|k| k.letter()).collect()
                        }
                        Err(e) => {
                            eprintln!("error: {}\nhelp: {}", e.message, e.help);
                            return 2;
                        }
                    }
                }
                (engine, _) => {
                    match eval_on_sequence(
                        &rules,
                        &graph,
                        &moves,
                        "classes(G, r)",
                        reading.as_deref(),
                        engine,
                        Some(max_resident_mb),
                    ) {
                        Ok((_, Value::Seq(cs))) => cs
                            .iter()
                            .map(|c| match c.to_string().as_str() {
                                "𝓑" => 'B',
                                "𝓦" => 'W',
                                "𝓝" => 'N',
                                "𝓟" => 'P',
                                _ => '?',
                            })
                            .collect(),
                        Ok((_, v)) => {
                            eprintln!("error: classes(G, r) gave {v}");
                            return 2;
                        }
                        Err(c) => return c,
                    }
                }
            };
            if json {
                let items: Vec<String> = letters.iter().map(|n| format!("\"{n}\"")).collect();
                println!("{{\"classes\": [{}], \"engine\": {ej}}}", items.join(", "));
            } else {
                let last = crate::go::life::sequence_from_moves(&g, &moves)
                    .ok()
                    .and_then(|s| s.last().copied())
                    .unwrap_or_default();
                print!(
                    "{}",
                    crate::go::render::classes_diagram(&g, &last, &letters)
                );
            }
            0
        }
        GoCommand::Score {
            graph,
            moves,
            reading,
            rules,
        } => {
            let q = "(score(last(r)), chinese_score(G, r), terminable(G, r))";
            match eval_on_sequence(&rules, &graph, &moves, q, None, Engine::Native, None) {
                Ok((_, Value::Tuple(t))) if t.len() == 3 => {
                    let (pure, chinese) = (t[0].to_string(), t[1].to_string());
                    println!("pure Go score (White minus Black): {pure}");
                    println!("Chinese score (White minus Black): {chinese}");
                    println!("Chinese-terminable: {}", t[2]);
                    println!("{}", if reading == "pure" { pure } else { chinese });
                    0
                }
                Ok((_, v)) => {
                    eprintln!("error: the scores came out as {v}");
                    2
                }
                Err(c) => c,
            }
        }
        GoCommand::Count {
            graph,
            engine,
            variant,
        } => go_count(
            &graph,
            &variant,
            &["boards"],
            "the native board count",
            engine,
            "size(boards(G))",
            |g| go::count::count_boards(g).map_err(|e| go_error(&graph, "--graph", &e)),
        ),
        GoCommand::Sequences {
            graph,
            engine,
            variant,
            limit,
        } => go_count(
            &graph,
            &variant,
            &["regular_count", "empty_board"],
            "the native count of regular sequences",
            engine,
            "regular_count(G, [empty_board(G)])",
            |g| {
                go::sequences::count_regular_sequences(g, limit)
                    .map_err(|e| go_error(&graph, "--graph", &e))
            },
        ),
        GoCommand::Solve {
            graph,
            reading,
            rules: rule_paths,
            komi,
            nodes,
            json,
        } => {
            let g = match go_graph(&graph) {
                Ok(g) => g,
                Err(c) => return c,
            };
            if !komi.is_finite() || (komi * 2.0).fract() != 0.0 || komi.abs() > 1e9 {
                eprintln!("error: komi must be a whole or half number, not {komi}");
                return 2;
            }
            let (mut prog, plan) = match go_plan(
                &rule_paths,
                Some(&reading),
                &["solve"],
                &["area"],
                "the native solver",
                Engine::Native,
            ) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let r = match prog.reading_or_error(&reading) {
                Ok(r) => r,
                Err(_) => return 2,
            };
            let engine_json =
                crate::front::notice_json(&prog, r, "solve", "the native solver", &plan);
            if !plan.is_native() {
                let text = format!("margin_half_points(G, {})", (komi * 2.0) as i64);
                let printer = Printer::new(&OutOpts {
                    color: "auto".into(),
                });
                if g.n > 6 {
                    eprintln!("error: the rules solve graphs of at most 6 vertices; this graph has {}\nhelp: the native solver follows the reading area", g.n);
                    return 2;
                }
                let bound = vec![(
                    "G".to_string(),
                    crate::hooks::go::graph_value(&g),
                    "Graph".to_string(),
                )];
                return match eval_with_bound(
                    &mut prog,
                    &text,
                    bound,
                    Engine::Native,
                    Some(&reading),
                    &printer,
                    None,
                ) {
                    Ok(Value::Int(half)) => {
                        let v = half as f64 / 2.0;
                        if json {
                            println!("{{\"value\": {v}, \"pv\": [], \"engine\": {engine_json}}}");
                        } else {
                            println!("{v}");
                        }
                        0
                    }
                    Ok(other) => {
                        eprintln!("error: `{text}` gave {other}");
                        2
                    }
                    Err(c) => c,
                };
            }
            let mut rules = go::rules::Rules::area();
            rules.komi_half_points = (komi * 2.0) as i64;
            match go::solve::solve(&g, &rules, nodes) {
                Ok(r) => {
                    if !r.complete {
                        eprintln!("error: the search passed its budget of {nodes} nodes before proving a value; raise --nodes");
                        return 2;
                    }
                    let pv: Vec<String> =
                        r.pv.iter()
                            .map(|(c, m)| match m {
                                go::rules::Move::Place(v) => format!("{c:?} {}", g.names[*v]),
                                go::rules::Move::Pass => format!("{c:?} pass"),
                            })
                            .collect();
                    if json {
                        let items: Vec<String> = pv.iter().map(|p| json_str(p)).collect();
                        println!(
                            "{{\"value\": {}, \"pv\": [{}], \"engine\": {engine_json}}}",
                            r.value,
                            items.join(", ")
                        );
                    } else {
                        println!("principal variation: {}", pv.join(", "));
                        println!("nodes: {}", r.nodes);
                        println!("{}", r.value);
                    }
                    0
                }
                Err(e) => go_error(&graph, "--graph", &e),
            }
        }
        GoCommand::Show {
            graph,
            dot,
            sgf,
            moves,
        } => {
            let g = match go_graph(&graph) {
                Ok(g) => g,
                Err(c) => return c,
            };
            let mut b = go::board::Board::empty();
            if let Some(path) = sgf {
                let text = match std::fs::read_to_string(&path) {
                    Ok(t) => t,
                    Err(e) => {
                        eprintln!("error: cannot read `{}`: {e}", path.display());
                        return 2;
                    }
                };
                let rules = match go::rules::Rules::preset("seed") {
                    Ok(r) => r,
                    Err(e) => return go_error("seed", "--reading", &e),
                };
                let record = match go::sgf::parse_sgf(&text) {
                    Ok(r) => r,
                    Err(e) => return go_error(&text, &path.display().to_string(), &e),
                };
                match record.replay(&text, rules) {
                    Ok(game) => {
                        if game.graph.n != g.n {
                            eprintln!(
                                "error: the record is for a board of {} points, the graph has {}",
                                game.graph.n, g.n
                            );
                            return 2;
                        }
                        b = game.board;
                    }
                    Err(e) => return go_error(&text, &path.display().to_string(), &e),
                }
            }
            if let Some(ms) = moves {
                let rules = match go::rules::Rules::preset("seed") {
                    Ok(r) => r,
                    Err(e) => return go_error("seed", "--reading", &e),
                };
                let mut game =
                    match go::rules::Game::from_board(g.clone(), rules, b, go::board::Color::Black)
                    {
                        Ok(gm) => gm,
                        Err(e) => return go_error(&ms, "--moves", &e),
                    };
                for part in ms.split(',').map(|p| p.trim()).filter(|p| !p.is_empty()) {
                    let mut it = part.split_whitespace();
                    let color = match it.next() {
                        Some("B") | Some("b") => go::board::Color::Black,
                        Some("W") | Some("w") => go::board::Color::White,
                        _ => {
                            eprintln!(
                                "error: bad move `{part}`: a move is `B v`, `W v` or `B pass`"
                            );
                            return 2;
                        }
                    };
                    let mv = match it.next() {
                        Some("pass") => go::rules::Move::Pass,
                        Some(name) => match g.vertex(name) {
                            Some(v) => go::rules::Move::Place(v),
                            None => {
                                eprintln!("error: bad move `{part}`: `{name}` is not a vertex of the graph");
                                return 2;
                            }
                        },
                        None => {
                            eprintln!("error: bad move `{part}`: a move names a vertex or `pass`");
                            return 2;
                        }
                    };
                    if let Err(e) = game.play(color, mv) {
                        eprintln!(
                            "error: illegal move `{part}`: {}\nhelp: {}",
                            e.message, e.help
                        );
                        return 2;
                    }
                }
                b = game.board;
            }
            if dot {
                print!("{}", go::render::dot(&g, &b));
            } else {
                print!("{}", go::render::diagram(&g, &b));
            }
            0
        }
    }
}

#[derive(Args, Clone)]
pub struct PositionOpts {
    /// The position: an SFEN, or `startpos`
    #[arg(long, default_value = "startpos")]
    pub sfen: String,
    /// Moves in USI played from it, separated by spaces
    #[arg(long, default_value = "")]
    pub moves: String,
    #[command(flatten)]
    pub out: OutOpts,
}

/// How diagnostics are printed.
pub struct Printer {
    pub color: bool,
    pub width: usize,
}

impl Printer {
    pub fn new(opt: &OutOpts) -> Printer {
        let tty = std::io::stderr().is_terminal();
        let color = match opt.color.as_str() {
            "always" => true,
            "never" => false,
            _ => tty && std::env::var_os("NO_COLOR").is_none(),
        };
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(100);
        Printer { color, width }
    }
    pub fn diags(&self, ds: &[Diag], sources: &SourceMap) {
        eprint!("{}", render(ds, sources, self.width, self.color));
    }
}

pub fn main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    run(cli)
}

/// Load rule files, printing diagnostics on failure.
fn load_or_report(paths: &[PathBuf], printer: &Printer) -> Result<(Program, Vec<PathBuf>), i32> {
    crate::front::load_rules(paths).map_err(|(sources, ds)| {
        printer.diags(&ds, &sources);
        let n = ds.iter().filter(|d| d.is_error()).count();
        eprintln!(
            "error: {n} error{} in the rule files",
            if n == 1 { "" } else { "s" }
        );
        2
    })
}

pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Codes { code, json, out } => {
            let p = Printer::new(&out);
            crate::codes_cmd::command(code.as_deref(), json, p.width, p.color)
        }
        Command::Check { paths, notes, out } => {
            let printer = Printer::new(&out);
            let (prog, files) = match load_or_report(&paths, &printer) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let shown: Vec<Diag> = prog
                .notes
                .iter()
                .filter(|d| notes || d.level != Level::Info)
                .cloned()
                .collect();
            printer.diags(&shown, &prog.sources);
            let infos = prog.notes.iter().filter(|d| d.level == Level::Info).count();
            println!(
                "OK: {} file{}, {} definitions, {} readings, {} examples, {} theorems{}",
                files.len(),
                if files.len() == 1 { "" } else { "s" },
                prog.keys.len(),
                prog.readings.len(),
                prog.examples.len(),
                prog.theorems.len(),
                if infos > 0 && !notes {
                    format!(" ({infos} notes; --notes shows them)")
                } else {
                    String::new()
                }
            );
            0
        }
        Command::Test {
            paths,
            filter,
            verbose,
            run,
            out,
        } => {
            let printer = Printer::new(&out);
            let (prog, _) = match load_or_report(&paths, &printer) {
                Ok(x) => x,
                Err(c) => return c,
            };
            let mut ev = Evaluator::new(&prog);
            run.apply(&mut ev);
            let t0 = Instant::now();
            let outcomes = run_all(&mut ev, filter.as_deref());
            for o in &outcomes {
                let (l, c) = prog.sources.line_col(o.span.file, o.span.start);
                let file = prog
                    .sources
                    .get(o.span.file)
                    .map(|f| f.name.as_str())
                    .unwrap_or("?");
                match &o.failure {
                    None => {
                        if verbose {
                            let cases = if o.kind == "theorem" {
                                format!(" ({} cases)", o.cases)
                            } else {
                                String::new()
                            };
                            println!(
                                "ok    {} \"{}\" [{}] {file}:{l}:{c}{cases}",
                                o.kind, o.name, o.reading
                            );
                        }
                    }
                    Some(d) => {
                        println!(
                            "FAIL  {} \"{}\" [{}] {file}:{l}:{c}: {}",
                            o.kind, o.name, o.reading, d.message
                        );
                        printer.diags(std::slice::from_ref(d), &prog.sources);
                    }
                }
            }
            let (p, f) = summary(&outcomes);
            eprintln!("ran in {:.2?}", t0.elapsed());
            println!("{p} passed, {f} failed");
            if f == 0 {
                0
            } else {
                1
            }
        }
        Command::Eval { expr, q, json } => {
            let printer = Printer::new(&q.out);
            with_query(&q, &expr, &printer, |prog, query, ev| {
                let r = ev.eval_query(query);
                match r {
                    Ok(v) => {
                        if json {
                            println!(
                                "{{\"value\": {}, \"type\": {}}}",
                                to_json(&v),
                                json_str(&query.ty)
                            );
                        } else {
                            println!("{}", display_value(&v));
                        }
                        0
                    }
                    Err(e) => report_eval(e, prog, &printer),
                }
            })
        }
        Command::Explain { expr, q, depth } => {
            let printer = Printer::new(&q.out);
            with_query(&q, &expr, &printer, |prog, query, ev| {
                let (r, tree) = ev.explain_query(query);
                match r {
                    Ok(v) => {
                        println!("{expr} = {}", display_value(&v));
                        print!("{}", explain::render(&tree, prog, depth));
                        0
                    }
                    Err(e) => report_eval(e, prog, &printer),
                }
            })
        }
        Command::Compare {
            expr,
            readings,
            q,
            depth,
        } => {
            let printer = Printer::new(&q.out);
            with_query(&q, &expr, &printer, |prog, query, ev| {
                let mut rows = vec![];
                for name in &readings {
                    let r = match prog.reading_or_error(name) {
                        Ok(r) => r,
                        Err(d) => {
                            printer.diags(&[d], &prog.sources);
                            return 2;
                        }
                    };
                    ev.set_reading(r);
                    let (res, tree) = ev.explain_query(query);
                    match res {
                        Ok(v) => rows.push((name.clone(), v, tree)),
                        Err(e) => return report_eval(e, prog, &printer),
                    }
                }
                let w = readings
                    .iter()
                    .map(|r| r.chars().count())
                    .max()
                    .unwrap_or(7)
                    .max(7);
                println!("{:w$}  value", "reading");
                for (n, v, _) in &rows {
                    println!("{n:w$}  {}", display_value(v));
                }
                let differ = rows.windows(2).any(|p| p[0].1 != p[1].1);
                if differ {
                    for (n, v, tree) in &rows {
                        println!("\nwhy {expr} = {} under {n}:", display_value(v));
                        print!("{}", explain::render(tree, prog, depth));
                    }
                } else {
                    println!("(the readings agree)");
                }
                0
            })
        }
        Command::Perft {
            pos,
            depth,
            divide,
            engine,
            rules,
            reading,
            json,
        } => {
            let printer = Printer::new(&pos.out);
            let mut prog = match load_or_report(&rules, &printer) {
                Ok((p, _)) => p,
                Err(c) => return c,
            };
            // without --reading: narrow-check (mate presupposes check, as the usual perft
            // convention counts a pawn-drop mate), with no history before the position
            let rname = reading.clone().unwrap_or_else(|| {
                if prog.reading_id("narrow-check").is_some() {
                    "narrow-check".into()
                } else {
                    "base".into()
                }
            });
            let r = match prog.reading_or_error(&rname) {
                Ok(r) => r,
                Err(d) => {
                    printer.diags(&[d], &prog.sources);
                    return 2;
                }
            };
            if depth > 12 {
                eprintln!("error: perft to depth {depth} would not finish (depth 7 from the start position already has 15 billion leaves)\nhelp: ask for a depth of at most 12");
                return 2;
            }
            let mut history = match pseudo_game(&pos.sfen, &pos.moves) {
                Ok(h) => h,
                Err((sources, ds)) => {
                    printer.diags(&ds, &sources);
                    return 2;
                }
            };
            let plan = match engine {
                Engine::Native => crate::front::plan(&prog, r, "legal", &SHOGI_READINGS),
                _ => Plan::Rules(crate::bindings::Reason {
                    what: String::new(),
                    changes: vec![],
                }),
            };
            let hybrid = announce(&prog, r, "legal", "the move generator", &plan, engine);
            let ej = engine_json(
                &prog,
                r,
                "legal",
                "the move generator",
                &plan,
                hybrid.as_ref(),
                engine,
            );
            let emit = |n: &str| {
                if json {
                    println!("{{\"count\": {n}, \"engine\": {ej}}}");
                } else {
                    println!("{n}");
                }
            };
            let native = match plan {
                Plan::Native(n) => n,
                Plan::Rules(_) => {
                    if let Some(v) = hybrid {
                        if depth > 8 {
                            eprintln!("error: perft under a variant follows every line's history; ask for a depth of at most 8");
                            return 2;
                        }
                        return match perft_hybrid(&prog, r, &v, &mut history, depth) {
                            Ok(n) => {
                                emit(&n.to_string());
                                0
                            }
                            Err(m) => {
                                eprintln!("error: {m}");
                                2
                            }
                        };
                    }
                    return match perft_by_rules(&mut prog, r, &history, depth, engine, &printer) {
                        Ok(v) => {
                            emit(&v);
                            0
                        }
                        Err(c) => c,
                    };
                }
            };
            let rd = crate::shogi::readings::Reading::named(native)
                .expect("the shogi engines' readings are named");
            if reading.is_some() || native != "narrow-check" || history.len() > 1 {
                if depth > 8 {
                    eprintln!("error: perft under a reading follows every line's history; ask for a depth of at most 8");
                    return 2;
                }
                emit(&perft_reading(&mut history, depth, rd).to_string());
                return 0;
            }
            let mut p = history.last().expect("a game has a position").clone();
            let t0 = Instant::now();
            let n = if divide {
                let mut total = 0;
                for (m, c) in crate::shogi::perft::perft_divide(&mut p, depth) {
                    println!("{} {c}", m.to_usi());
                    total += c;
                }
                total
            } else {
                crate::shogi::perft::perft(&mut p, depth)
            };
            if std::io::stderr().is_terminal() {
                let secs = t0.elapsed().as_secs_f64();
                eprintln!("{:.3} s, {:.1} M leaves/s", secs, n as f64 / secs / 1e6);
            }
            emit(&n.to_string());
            0
        }
        Command::Legal {
            pos,
            reading,
            engine,
            verify,
            rules,
            json,
        } => {
            let printer = Printer::new(&pos.out);
            let prog = match load_or_report(&rules, &printer) {
                Ok((p, _)) => p,
                Err(c) => return c,
            };
            let r = match prog.reading_or_error(&reading) {
                Ok(r) => r,
                Err(d) => {
                    printer.diags(&[d], &prog.sources);
                    return 2;
                }
            };
            let history = match pseudo_game(&pos.sfen, &pos.moves) {
                Ok(h) => h,
                Err((sources, ds)) => {
                    printer.diags(&ds, &sources);
                    return 2;
                }
            };
            let engine = if verify { Engine::Verify } else { engine };
            let plan = match engine {
                Engine::Rules => Plan::Rules(crate::bindings::Reason {
                    what: String::new(),
                    changes: vec![],
                }),
                _ => crate::front::plan(&prog, r, "legal", &SHOGI_READINGS),
            };
            let hybrid = announce(&prog, r, "legal", "the move generator", &plan, engine);
            let ej = engine_json(
                &prog,
                r,
                "legal",
                "the move generator",
                &plan,
                hybrid.as_ref(),
                engine,
            );
            let native = |n: &str| -> Vec<String> {
                let rd = crate::shogi::readings::Reading::named(n)
                    .expect("the shogi engines' readings are named");
                crate::shogi::readings::legal_moves(&history, rd)
                    .iter()
                    .map(|m| m.to_usi())
                    .collect()
            };
            let print = |ms: Vec<String>| {
                if json {
                    let items: Vec<String> = ms.iter().map(|m| json_str(m)).collect();
                    println!("{{\"moves\": [{}], \"engine\": {ej}}}", items.join(", "));
                } else {
                    println!("{}", ms.join(" "));
                }
                0
            };
            let mut prog = prog;
            match (engine, plan) {
                (Engine::Native, Plan::Native(n)) => print(native(n)),
                (Engine::Verify, Plan::Native(n)) => {
                    let mut a = native(n);
                    let mut b = match legal_by_rules(&mut prog, r, &history, &printer) {
                        Ok(b) => b,
                        Err(c) => return c,
                    };
                    a.sort();
                    b.sort();
                    if a == b {
                        print(a)
                    } else {
                        let only_native: Vec<&String> =
                            a.iter().filter(|m| !b.contains(m)).collect();
                        let only_rules: Vec<&String> =
                            b.iter().filter(|m| !a.contains(m)).collect();
                        eprintln!(
                            "error: the native engine and the rules disagree under `{reading}`: only native: {only_native:?}; only rules: {only_rules:?}"
                        );
                        1
                    }
                }
                (Engine::Native, Plan::Rules(_)) if hybrid.is_some() => {
                    let v = hybrid.expect("checked");
                    match legal_hybrid(&prog, r, &v, &history) {
                        Ok(ms) => print(ms),
                        Err(m) => {
                            eprintln!("error: {m}");
                            2
                        }
                    }
                }
                _ => match legal_by_rules(&mut prog, r, &history, &printer) {
                    Ok(ms) => print(ms),
                    Err(c) => c,
                },
            }
        }
        Command::Game {
            kif,
            csa,
            usi,
            sfen,
            readings,
            rules,
            out,
        } => {
            let printer = Printer::new(&out);
            let mut prog = match load_or_report(&rules, &printer) {
                Ok((p, _)) => p,
                Err(c) => return c,
            };
            let q = QueryOpts {
                rules: vec![],
                sfen: Some(sfen),
                moves: usi,
                kif,
                csa,
                reading: None,
                run: RunOpts::parse_default(),
                out,
            };
            let positions = match positions_of(&q) {
                Ok(Some(p)) => p,
                Ok(None) => unreachable!(),
                Err((sources, ds)) => {
                    printer.diags(&ds, &sources);
                    return 2;
                }
            };
            report_game(&mut prog, &positions, &readings, &printer)
        }
        Command::Show { pos } => {
            let printer = Printer::new(&pos.out);
            match shogi_game(&pos.sfen, &pos.moves) {
                Ok(g) => {
                    print!("{}", g.last().diagram());
                    println!("sfen {}", g.last().to_sfen());
                    0
                }
                Err((sources, ds)) => {
                    printer.diags(&ds, &sources);
                    2
                }
            }
        }
        Command::Go(cmd) => run_go(cmd),
        Command::Rules(RulesCommand::Export { dir }) => match crate::shipped::export(&dir) {
            Ok(paths) => {
                for p in paths {
                    println!("{}", p.display());
                }
                0
            }
            Err(e) => {
                eprintln!("error: cannot write into `{}`: {e}", dir.display());
                2
            }
        },
        Command::Repl { paths } => crate::repl::run(paths),
        Command::Mate {
            sfen,
            moves,
            batch,
            reading,
            length,
            max_plies,
            time_ms,
            nodes,
            hash_mb,
            json,
            rules,
        } => run_mate(MateArgs {
            rules,
            sfen,
            moves,
            batch,
            reading,
            length,
            max_plies,
            time_ms,
            nodes,
            hash_mb,
            json,
        }),
        Command::Usi { rules, reading } => {
            let stdin = std::io::stdin();
            // the options Rules and Reading: the search follows them where the definitions of
            // `mate_in` are the shipped ones of a native reading, and refuses otherwise
            let resolve = |path: &str,
                           name: &str|
             -> Result<crate::shogi::usi_engine::Follow, String> {
                let paths: Vec<PathBuf> = if path.is_empty() {
                    rules.clone()
                } else {
                    vec![PathBuf::from(path)]
                };
                let (prog, _) = crate::front::load_rules(&paths).map_err(|(_, ds)| {
                    let first = ds.iter().find(|d| d.is_error()).or(ds.first());
                    let text = first.map(|d| d.message.clone()).unwrap_or_default();
                    let n = ds.iter().filter(|d| d.is_error()).count();
                    format!("the rule files do not check ({n} errors; the first: {text})")
                })?;
                let r = prog.reading_or_error(name).map_err(|d| d.message.clone())?;
                match crate::front::plan(&prog, r, "mate_in", &SHOGI_READINGS) {
                    Plan::Native(n) => Ok(crate::shogi::usi_engine::Follow::Native(
                        crate::shogi::readings::Reading::named(n)
                            .expect("the shogi engines' readings are named"),
                    )),
                    Plan::Rules(why) => {
                        let kept = if crate::bindings::same_own(&prog, r, "mate_in", "base") {
                            crate::hybrid::shogi_variant(&prog, r)
                        } else {
                            Err("`mate_in` itself changed".to_string())
                        };
                        match kept {
                            Ok(_) => Ok(crate::shogi::usi_engine::Follow::Variant(
                                variant_search(paths, name.to_string()),
                            )),
                            Err(no) => Err(format!(
                                "the mate search cannot follow `mate_in` under {name} with these rules: {why}; no native part kept: {no}"
                            )),
                        }
                    }
                }
            };
            // the command line's choice is checked before the first command
            if let Err(why) = resolve("", &reading) {
                eprintln!("error: {why}");
                return 2;
            }
            let input = format!("setoption name Reading value {reading}\n");
            let chained = std::io::BufReader::new(std::io::Read::chain(
                std::io::Cursor::new(input),
                stdin.lock(),
            ));
            match crate::shogi::usi_engine::usi_loop_with(chained, std::io::stdout(), &resolve) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("error: {e}");
                    2
                }
            }
        }
        Command::Natives {
            rules,
            reading,
            all,
            json,
        } => natives(&rules, reading.as_deref(), all, json),
    }
}

/// `okite natives`: every binding of the loaded rules and every engine, on or off and why.
fn natives(rules: &[PathBuf], reading: Option<&str>, all: bool, json: bool) -> i32 {
    let printer = Printer::new(&OutOpts {
        color: "auto".into(),
    });
    let prog = match load_or_report(rules, &printer) {
        Ok((p, _)) => p,
        Err(c) => return c,
    };
    let r = match crate::front::reading(&prog, reading) {
        Ok(r) => r,
        Err(d) => {
            printer.diags(&[d], &prog.sources);
            return 2;
        }
    };
    let rname = prog.readings[r as usize].name.clone();
    let bindings = crate::bindings::report(&prog, r);
    let engines: Vec<(&str, Vec<&str>, Vec<&'static str>, Plan)> = crate::front::ENGINES
        .iter()
        .map(|e| {
            let defs: Vec<&str> = e.defs.to_vec();
            (
                e.commands,
                defs.clone(),
                e.readings.to_vec(),
                crate::front::plan_all(&prog, r, &defs, e.readings),
            )
        })
        .collect();
    if json {
        let b: Vec<String> = bindings
            .iter()
            .map(|(name, path, v)| {
                format!(
                    "{{\"definition\": {}, \"native\": {}, \"on\": {}, \"reason\": {}}}",
                    json_str(name),
                    json_str(path),
                    v.is_ok(),
                    match v {
                        Ok(()) => "null".to_string(),
                        Err(why) => json_str(&why.to_string()),
                    }
                )
            })
            .collect();
        let e: Vec<String> = engines
            .iter()
            .map(|(cmds, defs, _, plan)| {
                format!(
                    "{{\"commands\": {}, \"definitions\": [{}], \"on\": {}, \"as\": {}, \"reason\": {}}}",
                    json_str(cmds),
                    defs.iter().map(|d| json_str(d)).collect::<Vec<_>>().join(", "),
                    plan.is_native(),
                    match plan {
                        Plan::Native(n) => json_str(n),
                        Plan::Rules(_) => "null".into(),
                    },
                    match plan {
                        Plan::Native(_) => "null".into(),
                        Plan::Rules(why) => json_str(&why.to_string()),
                    }
                )
            })
            .collect();
        println!(
            "{{\"reading\": {}, \"bindings\": [{}], \"engines\": [{}]}}",
            json_str(&rname),
            b.join(", "),
            e.join(", ")
        );
        return 0;
    }
    println!("bindings of the rules under {rname}:");
    for (name, path, v) in &bindings {
        match v {
            Ok(()) => println!("  on   {name} = {path}"),
            Err(why) => println!("  off  {name} = {path}: {why}"),
        }
    }
    println!("engines of the commands under {rname}:");
    for (cmds, defs, _, plan) in &engines {
        let what = format!("{cmds} (`{}`)", defs.join("`, `"));
        match plan {
            Plan::Native(n) if *n == rname => println!("  on   {what}"),
            Plan::Native(n) => println!("  on   {what}, as the shipped reading {n}"),
            Plan::Rules(why) => println!("  off  {what}: {why}"),
        }
    }
    if all {
        println!("native functions:");
        let h = Hooks::standard();
        for p in h.paths() {
            if let Some(hook) = h.get(p) {
                println!("  {p}/{}  {}", hook.arity, hook.doc);
            }
        }
    }
    0
}

fn with_query(
    q: &QueryOpts,
    expr: &str,
    printer: &Printer,
    f: impl FnOnce(&Program, &Query, &mut Evaluator) -> i32,
) -> i32 {
    let (mut prog, _) = match load_or_report(&q.rules, printer) {
        Ok(x) => x,
        Err(c) => return c,
    };
    let fid = prog.sources.add("<query>", None, expr.to_string());
    let parsed = match crate::syntax::parse_expr(expr, fid) {
        Ok(e) => e,
        Err(ds) => {
            printer.diags(&ds, &prog.sources);
            return 2;
        }
    };
    let bound = match game_binding(q, &prog) {
        Ok(b) => b,
        Err((sources, ds)) => {
            printer.diags(&ds, &sources);
            return 2;
        }
    };
    let query = match prog.compile_query(&parsed, &bound) {
        Ok(q) => q,
        Err(ds) => {
            printer.diags(&ds, &prog.sources);
            return 2;
        }
    };
    let reading = match &q.reading {
        Some(r) => match prog.reading_or_error(r) {
            Ok(r) => r,
            Err(d) => {
                printer.diags(&[d], &prog.sources);
                return 2;
            }
        },
        None => crate::check::BASE,
    };
    let mut ev = Evaluator::new(&prog);
    q.run.apply(&mut ev);
    ev.set_reading(reading);
    let code = f(&prog, &query, &mut ev);
    say_off_bindings(&ev);
    code
}

/// One line on stderr naming the native bindings the evaluation found off, with why; nothing
/// when every binding it met was on.
fn say_off_bindings(ev: &Evaluator) {
    if ev.off_bindings.is_empty() {
        return;
    }
    let parts: Vec<String> = ev
        .off_bindings
        .iter()
        .map(|(what, why)| format!("{what} off ({why})"))
        .collect();
    eprintln!(
        "okite: by the rules where natives are off: {}",
        parts.join("; ")
    );
}

fn report_eval(e: EvalError, prog: &Program, printer: &Printer) -> i32 {
    printer.diags(&[*e.diag], &prog.sources);
    2
}

/// Values as JSON: sets and sequences as arrays, maps as arrays of [key, value] pairs, enum
/// constants and native values as strings.
pub fn to_json(v: &Value) -> String {
    match v {
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Str(s) => json_str(s),
        Value::Enum(_) | Value::Func(_) | Value::Native(_) => json_str(&v.to_string()),
        Value::Tuple(t) => format!("[{}]", t.iter().map(to_json).collect::<Vec<_>>().join(", ")),
        Value::Set(s) => format!("[{}]", s.iter().map(to_json).collect::<Vec<_>>().join(", ")),
        Value::Seq(s) => format!("[{}]", s.iter().map(to_json).collect::<Vec<_>>().join(", ")),
        Value::Map(m) => format!(
            "[{}]",
            m.iter()
                .map(|(k, v)| format!("[{}, {}]", to_json(k), to_json(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Names bound before a query: (name, value, type).
pub type Bindings = Vec<(String, Value, String)>;

/// `g` and `i` bound to the game given on the command line, if any.
fn game_binding(q: &QueryOpts, prog: &Program) -> Result<Bindings, (SourceMap, Vec<Diag>)> {
    let Some(positions) = positions_of(q)? else {
        return Ok(vec![]);
    };
    let ctx = crate::hooks::HookCtx { program: prog };
    let names = crate::hooks::shogi::Names::new(&ctx).map_err(|m| {
        (
            SourceMap::default(),
            vec![Diag::error(
                "E0404",
                format!("the rules loaded cannot hold shogi states: {m}"),
            )
            .help("load rules/shogi.rule (the default rules/ folder has it)")],
        )
    })?;
    let states: Vec<Value> = positions.iter().map(|p| names.state(p)).collect();
    let n = states.len() as i64;
    Ok(vec![
        ("g".to_string(), Value::seq(states), "Game".to_string()),
        ("i".to_string(), Value::Int(n), "Int".to_string()),
    ])
}

/// Evaluates `text` with the names of `bound` bound, under `reading`; `resident_mb` replaces the
/// default resident-memory bound when the command has one.
fn eval_with_bound(
    prog: &mut Program,
    text: &str,
    bound: Vec<(String, Value, String)>,
    engine: Engine,
    reading: Option<&str>,
    printer: &Printer,
    resident_mb: Option<usize>,
) -> Result<Value, i32> {
    let fid = prog.sources.add("<query>", None, text.to_string());
    let e = crate::syntax::parse_expr(text, fid).map_err(|ds| {
        printer.diags(&ds, &prog.sources);
        2
    })?;
    let q = prog.compile_query(&e, &bound).map_err(|ds| {
        printer.diags(&ds, &prog.sources);
        2
    })?;
    let r = match reading {
        Some(r) => prog.reading_or_error(r).map_err(|d| {
            printer.diags(&[d], &prog.sources);
            2
        })?,
        None => crate::check::BASE,
    };
    let mut ev = Evaluator::new(prog);
    ev.engine = engine;
    ev.set_reading(r);
    if let Some(mb) = resident_mb {
        ev.budget.max_resident_bytes = mb.saturating_mul(1 << 20);
    }
    let v = ev.eval_query(&q);
    say_off_bindings(&ev);
    v.map_err(|e| {
        printer.diags(&[*e.diag], &prog.sources);
        2
    })
}

fn state_names(prog: &Program) -> Result<crate::hooks::shogi::Names, i32> {
    crate::hooks::shogi::Names::new(&crate::hooks::HookCtx { program: prog }).map_err(|m| {
        eprintln!("error: the rules loaded cannot hold shogi states: {m}");
        2
    })
}

fn perft_by_rules(
    prog: &mut Program,
    reading: crate::check::ir::ReadingId,
    history: &[crate::shogi::position::Position],
    depth: u32,
    engine: Engine,
    printer: &Printer,
) -> Result<String, i32> {
    let names = state_names(prog)?;
    // with no history before the position, `perft(s, d)` (keyed by states, so transpositions
    // are shared); with one, `perft_game(g, i, d)`, which keeps each line's history
    let (text, bound) = if history.len() <= 1 {
        (
            "perft(s, d)",
            vec![
                (
                    "s".to_string(),
                    names.state(&history[0]),
                    "State".to_string(),
                ),
                ("d".to_string(), Value::Int(depth as i64), "Int".to_string()),
            ],
        )
    } else {
        let states: Vec<Value> = history.iter().map(|p| names.state(p)).collect();
        let n = states.len() as i64;
        (
            "perft_game(g, i, d)",
            vec![
                ("g".to_string(), Value::seq(states), "Game".to_string()),
                ("i".to_string(), Value::Int(n), "Int".to_string()),
                ("d".to_string(), Value::Int(depth as i64), "Int".to_string()),
            ],
        )
    };
    let rname = prog.readings[reading as usize].name.clone();
    eval_with_bound(prog, text, bound, engine, Some(&rname), printer, None).map(|v| v.to_string())
}

fn legal_by_rules(
    prog: &mut Program,
    reading: crate::check::ir::ReadingId,
    history: &[crate::shogi::position::Position],
    printer: &Printer,
) -> Result<Vec<String>, i32> {
    let names = state_names(prog)?;
    let states: Vec<Value> = history.iter().map(|p| names.state(p)).collect();
    let n = states.len() as i64;
    let bound = vec![
        ("g".to_string(), Value::seq(states), "Game".to_string()),
        ("i".to_string(), Value::Int(n), "Int".to_string()),
    ];
    let rname = prog.readings[reading as usize].name.clone();
    let v = eval_with_bound(
        prog,
        "legal(g, i)",
        bound,
        Engine::Native,
        Some(&rname),
        printer,
        None,
    )?;
    let Value::Set(legal) = v else {
        eprintln!("error: `legal(g, i)` did not give a set of states");
        return Err(2);
    };
    let last = history.last().expect("a game has a position");
    Ok(last
        .pseudo_legal_moves()
        .into_iter()
        .filter(|m| legal.contains(&names.state(&last.after(*m))))
        .map(|m| m.to_usi())
        .collect())
}

/// Say on stderr, in one line, how a shogi command runs; under a variant that keeps the native
/// move generation, the assembled legality (native parts, the changed ones by the rules).
fn announce(
    prog: &Program,
    reading: crate::check::ir::ReadingId,
    def: &str,
    engine_name: &str,
    plan: &Plan,
    engine: Engine,
) -> Option<crate::hybrid::ShogiVariant> {
    let Plan::Rules(why) = plan else {
        say_plan(prog, reading, def, engine_name, plan, engine);
        return None;
    };
    if engine != Engine::Native {
        say_plan(prog, reading, def, engine_name, plan, engine);
        return None;
    }
    match crate::hybrid::shogi_variant(prog, reading) {
        Ok(v) => {
            eprintln!(
                "okite: `{def}` under {}: native move generation and check, {} natively, by the rules: {} ({engine_name} off: {why})",
                prog.readings[reading as usize].name,
                native_parts(&v.asked),
                v.asked.names().join(", ")
            );
            Some(v)
        }
        Err(no) => {
            eprintln!(
                "{}; no native part kept: {no}",
                crate::front::notice(prog, reading, def, engine_name, plan)
            );
            None
        }
    }
}

/// What `announce` says, as the JSON field `engine`.
fn engine_json(
    prog: &Program,
    reading: crate::check::ir::ReadingId,
    def: &str,
    engine_name: &str,
    plan: &Plan,
    hybrid: Option<&crate::hybrid::ShogiVariant>,
    engine: Engine,
) -> String {
    let rname = &prog.readings[reading as usize].name;
    if engine == Engine::Rules {
        return format!(
            "{{\"definition\": {}, \"reading\": {}, \"native\": false, \"reason\": \"--engine rules\"}}",
            json_str(def),
            json_str(rname)
        );
    }
    match (plan, hybrid) {
        (Plan::Rules(why), Some(v)) => format!(
            "{{\"definition\": {}, \"reading\": {}, \"native\": false, \"engine\": {}, \"by_the_rules\": [{}], \"reason\": {}}}",
            json_str(def),
            json_str(rname),
            json_str(&format!("{engine_name}, native parts kept")),
            v.asked
                .names()
                .iter()
                .map(|n| json_str(n))
                .collect::<Vec<_>>()
                .join(", "),
            json_str(&why.to_string())
        ),
        _ => crate::front::notice_json(prog, reading, def, engine_name, plan),
    }
}

fn native_parts(a: &crate::shogi::legality::Asked) -> String {
    let asked = a.names();
    let parts: Vec<&str> = [
        "forbidden",
        "nifu",
        "dead_piece",
        "dying",
        "uchifuzume",
        "mate",
    ]
    .into_iter()
    .filter(|p| !asked.contains(p))
    .collect();
    if parts.is_empty() {
        "nothing else".into()
    } else {
        parts.join(", ")
    }
}

fn perft_hybrid(
    prog: &Program,
    reading: crate::check::ir::ReadingId,
    v: &crate::hybrid::ShogiVariant,
    history: &mut Vec<crate::shogi::position::Position>,
    depth: u32,
) -> Result<u64, String> {
    fn rec(
        hy: &mut crate::shogi::legality::Hybrid,
        h: &mut Vec<crate::shogi::position::Position>,
        d: u32,
    ) -> Result<u64, String> {
        if d == 0 {
            return Ok(1);
        }
        let ms = hy.legal_moves(h)?;
        if d == 1 {
            return Ok(ms.len() as u64);
        }
        let mut n = 0;
        for m in ms {
            let next = h.last().expect("a position").after(m);
            h.push(next);
            n += rec(hy, h, d - 1)?;
            h.pop();
        }
        Ok(n)
    }
    let mut oracle = crate::hybrid::RulesOracle::new(prog, reading)?;
    let mut hy = crate::shogi::legality::Hybrid {
        mate_needs_check: v.mate_needs_check,
        asked: v.asked,
        oracle: &mut oracle,
        oracle_calls: 0,
    };
    rec(&mut hy, history, depth)
}

fn legal_hybrid(
    prog: &Program,
    reading: crate::check::ir::ReadingId,
    v: &crate::hybrid::ShogiVariant,
    history: &[crate::shogi::position::Position],
) -> Result<Vec<String>, String> {
    let mut oracle = crate::hybrid::RulesOracle::new(prog, reading)?;
    let mut hy = crate::shogi::legality::Hybrid {
        mate_needs_check: v.mate_needs_check,
        asked: v.asked,
        oracle: &mut oracle,
        oracle_calls: 0,
    };
    Ok(hy
        .legal_moves(&mut history.to_vec())?
        .iter()
        .map(|m| m.to_usi())
        .collect())
}

/// Say on stderr, in one line, whether the native engine or the rules answer.
fn say_plan(
    prog: &Program,
    reading: crate::check::ir::ReadingId,
    def: &str,
    engine_name: &str,
    plan: &Plan,
    engine: Engine,
) {
    if engine == Engine::Rules {
        eprintln!(
            "okite: `{def}` under {}: by the rules (--engine rules)",
            prog.readings[reading as usize].name
        );
    } else {
        eprintln!(
            "{}",
            crate::front::notice(prog, reading, def, engine_name, plan)
        );
    }
}

fn report_game(
    prog: &mut Program,
    positions: &[crate::shogi::position::Position],
    readings: &[String],
    printer: &Printer,
) -> i32 {
    use crate::shogi::readings::{replay, Reading, Replay};
    // the moves between consecutive positions
    let mut moves = vec![];
    for w in positions.windows(2) {
        match w[0]
            .pseudo_legal_moves()
            .into_iter()
            .find(|m| w[0].after(*m) == w[1])
        {
            Some(m) => moves.push(m),
            None => {
                eprintln!("error: the record has a step that is no move");
                return 2;
            }
        }
    }
    // every reading is known before anything runs
    let mut ids = vec![];
    for name in readings {
        match prog.reading_or_error(name) {
            Ok(r) => ids.push(r),
            Err(d) => {
                printer.diags(&[d], &prog.sources);
                return 2;
            }
        }
    }
    println!("{} moves", moves.len());
    for (name, &r) in readings.iter().zip(&ids) {
        // the report reads legality, repetition and perpetual check: the native replay answers
        // when all three are the shipped definitions of one native reading
        let plan = crate::front::plan_all(
            prog,
            r,
            &["legal", "sennichite", "perpetual_forbidden"],
            &SHOGI_READINGS,
        );
        let native = match plan {
            Plan::Native(n) => Some(n),
            Plan::Rules(_) => None,
        };
        say_plan(prog, r, "legal", "the native replay", &plan, Engine::Native);
        let rep = match native {
            Some(n) => replay(
                positions,
                &moves,
                Reading::named(n).expect("the shogi engines' readings are named"),
            ),
            None => match replay_by_rules(prog, r, positions) {
                Ok(rep) => rep,
                Err(c) => return c,
            },
        };
        let Replay {
            first_forbidden,
            repetitions,
            perpetual_checks,
            final_mate,
        } = rep;
        let first = match &first_forbidden {
            Some((i, why)) => format!("move {i} ({}) is forbidden: {why}", moves[i - 1].to_usi()),
            None => "no forbidden move".to_string(),
        };
        let list = |v: &[usize]| {
            if v.is_empty() {
                "none".to_string()
            } else {
                v.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        };
        println!(
            "{name:<13} {first}; fourfold repetitions at move {}; perpetual checks at move {}; final position {}",
            list(&repetitions),
            list(&perpetual_checks),
            if final_mate { "is mate" } else { "is not mate" }
        );
    }
    0
}

/// What the native replay reports, asked of the rules: the forbidden moves, the fourfold
/// repetitions and those completed by perpetual check (moves counted from 1), and mate at the end.
fn replay_by_rules(
    prog: &mut Program,
    reading: crate::check::ir::ReadingId,
    positions: &[crate::shogi::position::Position],
) -> Result<crate::shogi::readings::Replay, i32> {
    let printer = Printer::new(&OutOpts {
        color: "auto".into(),
    });
    let names = state_names(prog)?;
    let states: Vec<Value> = positions.iter().map(|p| names.state(p)).collect();
    let bound = vec![("g".to_string(), Value::seq(states), "Game".to_string())];
    let text = "([j - 1 | j in seq(2..len(g)), forbidden(g[1..j], j)], \
                [j - 1 | j in seq(2..len(g)), sennichite(g, j)], \
                [j - 1 | j in seq(2..len(g)), perpetual_forbidden(g, j)], \
                mate(g, len(g)))";
    let rname = prog.readings[reading as usize].name.clone();
    let v = eval_with_bound(
        prog,
        text,
        bound,
        Engine::Native,
        Some(&rname),
        &printer,
        None,
    )?;
    let ints = |v: &Value| -> Vec<usize> {
        match v {
            Value::Seq(xs) => xs
                .iter()
                .filter_map(|x| match x {
                    Value::Int(i) => Some(*i as usize),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        }
    };
    match v {
        Value::Tuple(t) if t.len() == 4 => Ok(crate::shogi::readings::Replay {
            first_forbidden: ints(&t[0])
                .first()
                .map(|&i| (i, "forbidden by the rules".to_string())),
            repetitions: ints(&t[1]),
            perpetual_checks: ints(&t[2]),
            final_mate: t[3] == Value::Bool(true),
        }),
        other => {
            eprintln!("error: the replay by the rules gave {other}");
            Err(2)
        }
    }
}

/// The arguments of `okite mate`.
struct MateArgs {
    rules: Vec<PathBuf>,
    sfen: Option<String>,
    moves: String,
    batch: Option<PathBuf>,
    reading: String,
    length: String,
    max_plies: u32,
    time_ms: u64,
    nodes: u64,
    hash_mb: usize,
    json: bool,
}

fn run_mate(a: MateArgs) -> i32 {
    use crate::shogi::dfpn::{MateLength, MateOptions, MateSolver};
    let printer = Printer::new(&OutOpts {
        color: "auto".into(),
    });
    let prog = match load_or_report(&a.rules, &printer) {
        Ok((p, _)) => p,
        Err(c) => return c,
    };
    let r = match prog.reading_or_error(&a.reading) {
        Ok(r) => r,
        Err(d) => {
            printer.diags(&[d], &prog.sources);
            return 2;
        }
    };
    let plan = crate::front::plan(&prog, r, "mate_in", &SHOGI_READINGS);
    let mut engine_json = crate::front::notice_json(&prog, r, "mate_in", "the df-pn search", &plan);
    let mut hybrid = None;
    let reading = match &plan {
        Plan::Native(n) => {
            say_plan(
                &prog,
                r,
                "mate_in",
                "the df-pn search",
                &plan,
                Engine::Native,
            );
            crate::shogi::readings::Reading::named(n)
                .expect("the shogi engines' readings are named")
        }
        Plan::Rules(why) => {
            // the search keeps its native parts where `mate_in` itself is the shipped one
            let variant = if crate::bindings::same_own(&prog, r, "mate_in", "base") {
                crate::hybrid::shogi_variant(&prog, r)
            } else {
                Err("`mate_in` itself changed, and the search stands for it".to_string())
            };
            match variant {
                Ok(v) => {
                    eprintln!(
                        "okite: `mate_in` under {}: a df-pn search over native move generation and check, {} natively, by the rules: {} (the native df-pn search off: {why})",
                        a.reading,
                        native_parts(&v.asked),
                        v.asked.names().join(", ")
                    );
                    engine_json = format!(
                        "{{\"definition\": \"mate_in\", \"reading\": {}, \"native\": false, \"engine\": \"the df-pn search under a variant\", \"by_the_rules\": [{}], \"reason\": {}}}",
                        json_str(&a.reading),
                        v.asked
                            .names()
                            .iter()
                            .map(|n| json_str(n))
                            .collect::<Vec<_>>()
                            .join(", "),
                        json_str(&why.to_string())
                    );
                    hybrid = Some(v);
                    crate::shogi::readings::Reading::NARROW_CHECK
                }
                Err(no) => {
                    eprintln!(
                        "error: the mate search cannot follow `mate_in` under {} with these rules ({why}); no native part kept: {no}\nhelp: the rules answer it themselves, without a line: okite eval --rules ... --reading {} --sfen ... 'mate_in(g, i, N)'",
                        a.reading, a.reading
                    );
                    return 2;
                }
            }
        }
    };
    let length = match a.length.as_str() {
        "shortest" => MateLength::Shortest,
        "any" => MateLength::Any,
        other => {
            eprintln!("error: unknown length `{other}`: expected `shortest` or `any`");
            return 2;
        }
    };
    if a.hash_mb == 0 || a.hash_mb > 1 << 20 {
        eprintln!(
            "error: --hash-mb {} is out of range\nhelp: give a table size from 1 to 1048576 MiB",
            a.hash_mb
        );
        return 2;
    }
    let problems: Vec<String> = match (&a.sfen, &a.batch) {
        (Some(s), _) => vec![s.clone()],
        (None, Some(path)) => match std::fs::read_to_string(path) {
            Ok(t) => t
                .lines()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty() && !l.starts_with('#'))
                .collect(),
            Err(e) => {
                eprintln!("error: cannot read `{}`: {e}", path.display());
                return 2;
            }
        },
        (None, None) => {
            eprintln!("error: give a position with --sfen or a file of positions with --batch");
            return 2;
        }
    };
    if let Some(v) = hybrid {
        return run_mate_hybrid(&a, &prog, r, &v, &problems, &engine_json, &printer);
    }
    let tty = std::io::stderr().is_terminal();
    let outcome = crate::shogi::dfpn::with_stack(|| {
        let mut solver = MateSolver::new(a.hash_mb);
        let mut code = 0;
        for (n, text) in problems.iter().enumerate() {
            let game = match shogi_game(text, if a.batch.is_some() { "" } else { &a.moves }) {
                Ok(g) => g,
                Err((sources, ds)) => {
                    if a.batch.is_some() {
                        eprintln!("line {}:", n + 1);
                    }
                    printer.diags(&ds, &sources);
                    code = 2;
                    continue;
                }
            };
            let bar = tty.then(|| {
                let b = indicatif::ProgressBar::new_spinner();
                b.set_style(
                    indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
                );
                b
            });
            let progress: Option<crate::shogi::dfpn::ProgressFn> = bar.clone().map(|b| {
                let f: crate::shogi::dfpn::ProgressFn = std::sync::Arc::new(move |p| {
                    let nps = (p.nodes * 1000).checked_div(p.ms).unwrap_or(0);
                    let found = if p.plies > 0 {
                        format!(", mate in {} found", p.plies)
                    } else {
                        String::new()
                    };
                    b.set_message(format!(
                        "{} nodes, {} nodes/s, root pn {} dn {}{found}",
                        p.nodes, nps, p.pn, p.dn
                    ));
                    b.tick();
                });
                f
            });
            let opts = MateOptions {
                max_nodes: a.nodes,
                max_ms: a.time_ms,
                hash_mb: a.hash_mb,
                length,
                max_plies: a.max_plies,
                reading,
                stop: None,
                progress,
            };
            let r = solver.solve_history(&game.positions, &opts);
            if let Some(b) = bar {
                b.finish_and_clear();
            }
            print_mate(
                &r,
                a.json,
                &engine_json,
                length == MateLength::Any,
                a.max_plies,
            );
        }
        code
    });
    outcome.unwrap_or_else(|| {
        eprintln!("error: the mate search could not run (no thread for its stack)");
        2
    })
}

/// The USI engine's search under a variant: the rules are loaded on the search thread (the
/// evaluator stays on one thread), legality assembled, and the df-pn search run.
fn variant_search(paths: Vec<PathBuf>, reading: String) -> crate::shogi::usi_engine::VariantSearch {
    std::sync::Arc::new(
        move |h: &[crate::shogi::position::Position],
              ms: u64,
              any: bool,
              stop: std::sync::Arc<std::sync::atomic::AtomicBool>| {
            let (prog, _) = crate::front::load_rules(&paths)
                .map_err(|_| "the rule files no longer check".to_string())?;
            let r = prog
                .reading_or_error(&reading)
                .map_err(|d| d.message.clone())?;
            let v = crate::hybrid::shogi_variant(&prog, r)?;
            let mut oracle = crate::hybrid::RulesOracle::new(&prog, r)?;
            let mut hy = crate::shogi::legality::Hybrid {
                mate_needs_check: v.mate_needs_check,
                asked: v.asked,
                oracle: &mut oracle,
                oracle_calls: 0,
            };
            let opts = crate::shogi::hybrid_mate::HybridOptions {
                max_ms: ms,
                any,
                stop: Some(stop),
                ..Default::default()
            };
            crate::shogi::hybrid_mate::solve(h, &mut hy, &opts)
        },
    )
}

/// `okite mate` under a variant: the search over assembled legality, problem by problem.
fn run_mate_hybrid(
    a: &MateArgs,
    prog: &Program,
    reading: crate::check::ir::ReadingId,
    v: &crate::hybrid::ShogiVariant,
    problems: &[String],
    engine_json: &str,
    printer: &Printer,
) -> i32 {
    let mut oracle = match crate::hybrid::RulesOracle::new(prog, reading) {
        Ok(o) => o,
        Err(m) => {
            eprintln!("error: {m}");
            return 2;
        }
    };
    let mut code = 0;
    for (n, text) in problems.iter().enumerate() {
        let history = match pseudo_game(text, if a.batch.is_some() { "" } else { &a.moves }) {
            Ok(h) => h,
            Err((sources, ds)) => {
                if a.batch.is_some() {
                    eprintln!("line {}:", n + 1);
                }
                printer.diags(&ds, &sources);
                code = 2;
                continue;
            }
        };
        let mut hy = crate::shogi::legality::Hybrid {
            mate_needs_check: v.mate_needs_check,
            asked: v.asked,
            oracle: &mut oracle,
            oracle_calls: 0,
        };
        let opts = crate::shogi::hybrid_mate::HybridOptions {
            max_nodes: a.nodes,
            max_ms: a.time_ms,
            max_plies: a.max_plies,
            any: a.length == "any",
            stop: None,
        };
        let r = match crate::shogi::hybrid_mate::solve(&history, &mut hy, &opts) {
            Ok(r) => r,
            Err(m) => {
                eprintln!("error: the rules failed on a position of the search: {m}");
                code = 2;
                continue;
            }
        };
        print_mate(&r, a.json, engine_json, a.length == "any", a.max_plies);
    }
    code
}

/// One result of `okite mate`: a JSON object, or a line for people.
fn print_mate(
    r: &crate::shogi::dfpn::MateResult,
    json: bool,
    engine_json: &str,
    any: bool,
    max_plies: u32,
) {
    use crate::shogi::dfpn::MateStatus;
    let result = match r.result {
        MateStatus::Mate => "mate",
        MateStatus::NoMate => "nomate",
        MateStatus::Unknown => "unknown",
    };
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_usi()).collect();
    if json {
        let pvs: Vec<String> = pv.iter().map(|m| json_str(m)).collect();
        println!(
            "{{\"result\": \"{result}\", \"plies\": {}, \"pv\": [{}], \"nodes\": {}, \"ms\": {}, \"shortest\": {}, \"engine\": {engine_json}}}",
            r.plies,
            pvs.join(", "),
            r.nodes,
            r.ms,
            r.shortest
        );
        return;
    }
    match r.result {
        MateStatus::Mate => {
            let note = if r.shortest || any {
                ""
            } else {
                " (not proven shortest within the limits)"
            };
            println!("mate in {}{note}: {}", r.plies, pv.join(" "))
        }
        MateStatus::NoMate if max_plies > 0 => {
            println!("no mate in {max_plies} plies or fewer")
        }
        MateStatus::NoMate => println!("no mate"),
        MateStatus::Unknown => println!("unknown (limits reached after {} nodes)", r.nodes),
    }
}

/// Perft under a reading, each line with its history (repetitions and perpetual checks count).
fn perft_reading(
    history: &mut Vec<crate::shogi::position::Position>,
    depth: u32,
    r: crate::shogi::readings::Reading,
) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = crate::shogi::readings::legal_moves(history, r);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut n = 0;
    for m in moves {
        let next = history.last().expect("a position").after(m);
        history.push(next);
        n += perft_reading(history, depth - 1, r);
        history.pop();
    }
    n
}
