//! What the command-line tests share: running the binary from the project's folder, and its
//! output as text for a failure message. Each test file takes what it needs (`mod common;`).
#![allow(dead_code)]

use std::process::{Command, Output};

/// Run okite with `args` from the project's folder, without colours.
pub fn okite(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_okite"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run okite")
}

/// Standard output then standard error.
pub fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}
