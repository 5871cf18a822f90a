#![forbid(unsafe_code)]
//! The command line. Each command is a thin layer over the library.

// first, so that its macros are in scope in every module after it
#[macro_use]
pub mod output;
mod args;
mod bounds;
mod check;
mod codes;
mod common;
mod game_batch;
mod go;
mod go_records;
mod go_result;
mod mate;
mod mate_jobs;
mod mate_report;
mod natives_cmd;
mod problems;
mod query;
mod records;
mod rulesets;
mod shell;
mod shogi;
mod side_by_side;
mod tsume;
mod tsume_batch;
mod usi;
mod variant;
mod variant_asked;

use crate::diagnostics::code;
use crate::diagnostics::Diag;
pub use crate::front::{
    display_value, positions_of, pseudo_game, shogi_game, OutOpts, QueryOpts, RunOpts,
};
pub use args::*;
use clap::Parser;
pub use common::{to_json, Printer};
use go::*;
use mate::*;

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

/// Runs a command line (`args` without the program's name) in this process, keeping what it
/// writes instead of printing it: the face of the Python package, and of tests that check a
/// command's logic without starting the binary. Progress is not drawn; Ctrl-C is left to the
/// caller.
pub fn run_captured<I, S>(args: I) -> output::Captured
where
    I: IntoIterator<Item = S>,
    S: Into<std::ffi::OsString> + Clone,
{
    let argv =
        std::iter::once(std::ffi::OsString::from("okite")).chain(args.into_iter().map(Into::into));
    output::capture(|| match Cli::try_parse_from(argv) {
        Ok(cli) => run(cli),
        Err(e) => {
            let text = e.render().to_string();
            let usage = e.use_stderr();
            if usage {
                let message = text.lines().next().unwrap_or_default().to_string();
                output::keep_diagnostics([("usage".to_string(), message)], &text);
            } else {
                outln!("{text}");
            }
            if usage {
                2
            } else {
                0
            }
        }
    })
}

pub fn run(cli: Cli) -> i32 {
    common::set_quiet(cli.quiet);
    match cli.command {
        Command::Completions { shell } => shell::completions(shell),
        Command::Man { command, dir } => shell::man(command.as_deref(), dir.as_deref()),
        Command::Codes { code, json, out } => {
            let p = Printer::new(&out);
            codes::command(code.as_deref(), json, p.width, p.color)
        }
        Command::Check(args) => check::check(args),
        Command::Test(args) => check::test(args),
        Command::Eval(args) if args.variant.is_some() => variant::eval_command(args),
        Command::Eval(args) => query::eval(args),
        Command::Explain(args) => query::explain(args),
        Command::Compare(args) => query::compare(args),
        Command::Perft(args) => shogi::perft(args),
        Command::Legal(args) => shogi::legal(args),
        Command::Game(args) => match &args.records {
            Some(path) => game_batch::run(&args, &path.clone()),
            None => shogi::game(args),
        },
        Command::Show(args) => shogi::show(args),
        Command::Go(cmd) => run_go(cmd),
        Command::Rules(RulesCommand::Export { dir, force }) => match crate::shipped::export(&dir, force) {
            Ok(paths) => {
                for p in paths {
                    outln!("{}", p.display());
                }
                0
            }
            Err(e) => Printer::auto().fail(
                Diag::error(
                    code::CANNOT_WRITE,
                    format!("cannot write into `{}`: {e}", dir.display()),
                )
                .help("give a folder that can be created or written, or that does not exist yet; --force overwrites files edited there"),
            ),
        },
        Command::Repl {
            mut paths,
            rules,
            reading,
            variant,
            run,
        } => {
            paths.extend(rules);
            if let Some(name) = &variant {
                let named = if paths.is_empty() {
                    crate::variants::shipped_name(name)
                } else {
                    Err(Diag::error(
                        crate::variants::BAD_VARIANT,
                        "give `--variant` or rule files, not both",
                    )
                    .help("a variant of your own is loaded as rule files (`okite repl my.rule --reading NAME`)"))
                };
                if let Err(d) = named {
                    return Printer::auto().fail(d);
                }
            } else if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                crate::front::note_default_rules(&paths);
            }
            crate::repl::run_with_options(
                paths,
                crate::repl::Options {
                    run: Some(run),
                    reading,
                    variant,
                },
            )
        }
        Command::Mate(args) => run_mate(args),
        Command::Tsume(args) => match &args.batch {
            Some(path) => tsume_batch::run(&args, &path.clone()),
            None => tsume::run_tsume(args),
        },
        Command::Usi(args) => usi::usi(args),
        Command::Natives(args) => natives_cmd::natives_command(args),
        Command::Lsp => crate::lsp::run(),
    }
}
