#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! What the command-line tests share: running the binary from the project's folder, and its
//! output as text for a failure message. Each test module takes what it needs (`use crate::common;`).
#![allow(dead_code)]

pub mod oracles;

use std::process::{Command, Output};

/// The shipped rules (the folder rules/), checked.
pub fn rules() -> okite::check::Program {
    let dir = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
    okite::check::load::load(&[dir], &okite::natives::Natives::standard())
        .program
        .unwrap_or_else(|_| panic!("rules/ does not check"))
}

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

/// The JSON object a command prints on success; a failure names the arguments and what the
/// command said.
pub fn json_ok(args: &[&str]) -> serde_json::Value {
    let o = okite(args);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// What `okite usi` (run from the project's folder) writes for the commands of `script`, sent
/// as a GUI sends them: after a `go` line, the next lines wait for its answer (`checkmate` or
/// `bestmove`; a `quit` sent at once would end the search before it answers).
pub fn usi_session(script: &str) -> String {
    usi_session_bytes(script.as_bytes())
}

/// The same for commands that need not be UTF-8 text.
pub fn usi_session_bytes(script: &[u8]) -> String {
    use std::io::{BufRead, Write};
    let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
        .arg("usi")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run okite usi");
    let mut stdin = child.stdin.take().expect("its input");
    let stdout = child.stdout.take().expect("its output");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).split(b'\n') {
            let Ok(line) = line else { break };
            if tx
                .send(String::from_utf8_lossy(&line).into_owned())
                .is_err()
            {
                break;
            }
        }
    });
    let mut out = String::new();
    let take = |wait_for_answer: bool, out: &mut String| loop {
        let next = if wait_for_answer {
            rx.recv_timeout(std::time::Duration::from_secs(120)).ok()
        } else {
            rx.try_recv().ok()
        };
        let Some(line) = next else { return };
        out.push_str(&line);
        out.push('\n');
        if wait_for_answer && (line.starts_with("checkmate") || line.starts_with("bestmove")) {
            return;
        }
    };
    for line in script.split_inclusive(|&b| b == b'\n') {
        stdin.write_all(line).expect("the commands written");
        stdin.flush().expect("the commands written");
        let go = line.trim_ascii_start().starts_with(b"go");
        take(go, &mut out);
    }
    drop(stdin);
    let _ = child.wait();
    let _ = reader.join();
    while let Ok(line) = rx.try_recv() {
        out.push_str(&line);
        out.push('\n');
    }
    out
}
