#![forbid(unsafe_code)]
//! The command line. Each command is a thin layer over the library.

mod args;
mod codes;
mod common;
mod go;
mod mate;
mod natives_cmd;
mod query;
mod shogi;

use crate::diagnostics::{Diag, Level};
use crate::eval::explain;
use crate::eval::run::{run_all, summary};
use crate::eval::Evaluator;
pub use crate::front::{
    display_value, json_str, positions_of, pseudo_game, shogi_game, OutOpts, QueryOpts, RunOpts,
};
use crate::front::{Plan, SHOGI_READINGS};
use crate::natives::Engine;
pub use args::*;
use clap::Parser;
use common::*;
pub use common::{to_json, Printer};
use go::*;
use mate::*;
use natives_cmd::*;
use query::*;
use shogi::*;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

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

pub fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Codes { code, json, out } => {
            let p = Printer::new(&out);
            codes::command(code.as_deref(), json, p.width, p.color)
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
            let binder = crate::bindings::Sound::standard();
            let mut ev = Evaluator::new(&prog, &binder);
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
                            return printer.fail_in(d, &prog.sources);
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
                    return printer.fail_in(d, &prog.sources);
                }
            };
            if depth > 12 {
                return printer.fail(
                    Diag::error(
                        "E0602",
                        format!("perft to depth {depth} would not finish (depth 7 from the start position already has 15 billion leaves)"),
                    )
                    .help("ask for a depth of at most 12"),
                );
            }
            let mut history = match pseudo_game(&pos.sfen, &pos.moves) {
                Ok(h) => h,
                Err((sources, ds)) => {
                    return printer.fail_all(&ds, &sources);
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
                            return printer.fail(
                                Diag::error(
                                    "E0602",
                                    format!("perft to depth {depth} under a variant would not finish: it follows every line's history"),
                                )
                                .help("ask for a depth of at most 8"),
                            );
                        }
                        return match perft_hybrid(&prog, r, &v, &mut history, depth) {
                            Ok(n) => {
                                emit(&n.to_string());
                                0
                            }
                            Err(m) => printer.fail(rules_failed(&m)),
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
                    return printer.fail(
                        Diag::error(
                            "E0602",
                            format!("perft to depth {depth} under a reading would not finish: it follows every line's history"),
                        )
                        .help("ask for a depth of at most 8"),
                    );
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
                    return printer.fail_in(d, &prog.sources);
                }
            };
            let history = match pseudo_game(&pos.sfen, &pos.moves) {
                Ok(h) => h,
                Err((sources, ds)) => {
                    return printer.fail_all(&ds, &sources);
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
                        printer.fail(
                            Diag::error(
                                ENGINES_DISAGREE,
                                format!("the native engine and the rules disagree under `{reading}`: only native: {only_native:?}; only rules: {only_rules:?}"),
                            )
                            .help("this is a bug of the native move generator or of the bindings: please report it with the position"),
                        )
                    }
                }
                (Engine::Native, Plan::Rules(_)) if hybrid.is_some() => {
                    let v = hybrid.expect("checked");
                    match legal_hybrid(&prog, r, &v, &history) {
                        Ok(ms) => print(ms),
                        Err(m) => printer.fail(rules_failed(&m)),
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
                    return printer.fail_all(&ds, &sources);
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
                Err((sources, ds)) => printer.fail_all(&ds, &sources),
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
            Err(e) => Printer::auto().fail(
                Diag::error(
                    "E0603",
                    format!("cannot write into `{}`: {e}", dir.display()),
                )
                .help("give a folder that can be created or written, or that does not exist yet"),
            ),
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
            // the command line's choice is checked before the first command; a failure is told
            // with the diagnostics of the rules or of the reading where there are some
            if let Err(why) = resolve("", &reading) {
                let printer = Printer::auto();
                let prog = match load_or_report(&rules, &printer) {
                    Ok((p, _)) => p,
                    Err(c) => return c,
                };
                if let Err(d) = prog.reading_or_error(&reading) {
                    return printer.fail_in(d, &prog.sources);
                }
                return printer.fail(
                    Diag::error("E0607", why)
                        .help(format!("the rules answer it themselves, without the engine: okite eval --rules ... --reading {reading} --sfen ... 'mate_in(g, i, N)'")),
                );
            }
            let input = format!("setoption name Reading value {reading}\n");
            let chained = std::io::BufReader::new(std::io::Read::chain(
                std::io::Cursor::new(input),
                stdin.lock(),
            ));
            match crate::shogi::usi_engine::usi_loop_with(chained, std::io::stdout(), &resolve) {
                Ok(()) => 0,
                Err(e) => Printer::auto().fail(
                    Diag::error(
                        "E0603",
                        format!("the USI engine cannot read its input or write its answers: {e}"),
                    )
                    .help("the engine talks over standard input and output; check what they are connected to"),
                ),
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
