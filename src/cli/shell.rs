#![forbid(unsafe_code)]
//! `okite completions SHELL` and `okite man`: what a shell and `man` need, generated from the
//! command line's own definition (clap), so they cannot fall out of step with it.

use super::args::Cli;
use crate::diagnostics::Diag;
use clap::CommandFactory;
use std::io::Write;

/// The completion script of `shell` on standard output.
pub(super) fn completions(shell: clap_complete::Shell) -> i32 {
    let mut cmd = Cli::command();
    clap_complete::generate(shell, &mut cmd, "okite", &mut std::io::stdout());
    0
}

/// The manual page, in roff, on standard output.
pub(super) fn man() -> i32 {
    let mut page = Vec::new();
    if let Err(e) = clap_mangen::Man::new(Cli::command()).render(&mut page) {
        return super::common::Printer::auto().fail(
            Diag::error("E0603", format!("cannot write the manual page: {e}"))
                .help("write it to a file or a pipe: `okite man > okite.1`"),
        );
    }
    let _ = std::io::stdout().write_all(&page);
    0
}
