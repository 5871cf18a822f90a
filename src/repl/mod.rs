//! The interactive REPL (`okite repl`).

use std::path::PathBuf;

/// Run the REPL on rule files; the exit status.
pub fn run(paths: Vec<PathBuf>) -> i32 {
    let _ = paths;
    eprintln!("error: the REPL is not built yet");
    2
}
