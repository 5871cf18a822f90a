#![forbid(unsafe_code)]
//! `okite completions SHELL` and `okite man`: what a shell and `man` need, generated from the
//! command line's own definition (clap), so they cannot fall out of step with it.

use super::args::Cli;
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use clap::CommandFactory;
use std::io::Write;

/// The options whose values are files or folders: the others complete to no file name.
const PATH_ARGS: [&str; 9] = [
    "rules",
    "paths",
    "kif",
    "csa",
    "sgf",
    "batch",
    "results",
    "read_results",
    "dir",
];

/// The command line as completion sees it: values that are no paths (a reading, a graph, an
/// SFEN) complete to nothing rather than to file names, and `--engine` to its three values.
fn completion_hints(cmd: clap::Command) -> clap::Command {
    let ids: Vec<String> = cmd
        .get_arguments()
        .filter(|a| a.get_num_args().is_none_or(|n| n.takes_values()))
        .filter(|a| a.get_value_hint() == clap::ValueHint::Unknown)
        .map(|a| a.get_id().to_string())
        .filter(|id| !PATH_ARGS.contains(&id.as_str()))
        .collect();
    let mut cmd = cmd;
    for id in ids {
        cmd = cmd.mut_arg(&id, |a| {
            if id == "engine" {
                a.value_parser(["native", "rules", "verify"])
            } else if a.get_possible_values().is_empty() {
                a.value_hint(clap::ValueHint::Other)
            } else {
                a
            }
        });
    }
    let subs: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    for s in subs {
        cmd = cmd.mut_subcommand(&s, completion_hints);
    }
    cmd
}

/// The completion script of `shell` on standard output.
pub(super) fn completions(shell: clap_complete::Shell) -> i32 {
    let mut cmd = completion_hints(Cli::command());
    clap_complete::generate(shell, &mut cmd, "okite", &mut std::io::stdout());
    0
}

/// The manual page, in roff, on standard output: okite(1), or the page of `command` (`perft`,
/// `go-solve`), whose name okite(1) lists as okite-perft(1); with `dir`, every page written
/// there (`okite.1`, `okite-perft.1`, ...) for a folder of MANPATH.
pub(super) fn man(command: Option<&str>, dir: Option<&std::path::Path>) -> i32 {
    let fail = |what: String| {
        super::common::Printer::auto().fail(
            Diag::error(code::CANNOT_WRITE, what)
                .help("write it to a file or a pipe (`okite man > okite.1`), or give a folder that can be written"),
        )
    };
    let cmd = Cli::command();
    if let Some(dir) = dir {
        if let Err(e) = std::fs::create_dir_all(dir) {
            return fail(format!("cannot write into `{}`: {e}", dir.display()));
        }
        return match write_pages(cmd, dir) {
            Ok(()) => {
                println!("{}", dir.display());
                0
            }
            Err(e) => fail(format!("cannot write the manual pages: {e}")),
        };
    }
    let page_of = match command {
        None => Some(cmd),
        Some(name) => find(cmd, name),
    };
    let Some(page_of) = page_of else {
        let name = command.unwrap_or("");
        return super::common::Printer::auto().fail(
            Diag::error(code::CANNOT_READ_FILE, format!("no manual page `okite-{name}`"))
                .help("`okite man` lists the commands under SUBCOMMANDS; write a subcommand joined by `-`, as `go-solve`"),
        );
    };
    let mut page = Vec::new();
    if let Err(e) = clap_mangen::Man::new(page_of).render(&mut page) {
        return fail(format!("cannot write the manual page: {e}"));
    }
    let _ = std::io::stdout().write_all(&page);
    0
}

/// Every page, okite(1) and one a subcommand not hidden, written into `dir` as clap_mangen
/// names them, each through the one writer of user-named files (a FIFO or a folder where a page
/// would go is refused, never waited on nor written into).
fn write_pages(cmd: clap::Command, dir: &std::path::Path) -> Result<(), String> {
    fn each(cmd: clap::Command, dir: &std::path::Path) -> Result<(), String> {
        for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()).cloned() {
            each(sub, dir)?;
        }
        let man = clap_mangen::Man::new(cmd);
        let mut page = Vec::new();
        man.render(&mut page).map_err(|e| e.to_string())?;
        let path = dir.join(man.get_filename());
        crate::files::write_regular(&path, &page).map_err(|e| format!("{}: {e}", path.display()))
    }
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    each(cmd, dir)
}

/// The command `name` (`perft`, `go-solve`, `okite-go-solve`), named as its page is, with the
/// full name clap_mangen gives the page of a subcommand.
fn find(root: clap::Command, name: &str) -> Option<clap::Command> {
    let name = name.strip_prefix("okite-").unwrap_or(name);
    let mut parts = name.split(['-', ' ']).filter(|p| !p.is_empty());
    let mut cmd = root;
    let mut full = "okite".to_string();
    let first = parts.next()?;
    let mut next = Some(first.to_string());
    while let Some(part) = next.take() {
        let sub = cmd.find_subcommand(&part)?.clone();
        full = format!("{full}-{}", sub.get_name());
        cmd = sub;
        next = parts.next().map(|p| p.to_string());
    }
    // clap names a command by a `&'static str`: the one name of the page this process writes
    // before it ends
    Some(cmd.name(clap::builder::Str::from(
        Box::leak(full.into_boxed_str()) as &'static str
    )))
}
