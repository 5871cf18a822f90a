#![forbid(unsafe_code)]
//! Where a command writes: standard output and standard error, or, for a command run in
//! process ([`super::run_captured`]: the Python package, tests), two texts kept for the caller
//! of this thread, with the codes of the diagnostics it stopped on.
//!
//! Every command writes through [`outln!`]/[`out!`] and [`errln!`]/[`err!`], never `println!`,
//! so that what it prints and what a caller in process gets are one text. The keeping is per
//! thread: the batches answer on threads of their own, but print on the thread that called.

use std::cell::RefCell;
use std::io::Write;

/// What a command run in process wrote, and how it ended.
#[derive(Debug, Clone, Default)]
pub struct Captured {
    /// The exit status the command line would have ended with.
    pub status: i32,
    /// What it wrote on standard output (with `--json`, its report).
    pub stdout: String,
    /// What it wrote on standard error: notices, progress lines, diagnostics.
    pub stderr: String,
    /// The codes of the diagnostics it printed, in the order printed (`usage` for a command
    /// line that does not parse).
    pub codes: Vec<String>,
    /// The message of each of them, beside its code.
    pub messages: Vec<String>,
    /// The text of the diagnostics it printed (without colour), in the order printed.
    pub diagnostics: String,
}

/// What a command run in process keeps: what it wrote, and whether it was asked to be quiet
/// (`--quiet`, which a process records for its whole run, is the command's own here: commands
/// run side by side in one process do not quiet each other).
#[derive(Debug, Default)]
struct Kept {
    written: Captured,
    quiet: bool,
    /// The lines said once for the whole run ([`first_time`]).
    said: Vec<String>,
}

/// The text a command run in process writes, shared by the threads it runs on.
type Sink = std::sync::Arc<std::sync::Mutex<Kept>>;

thread_local! {
    static KEPT: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// The sink of this thread, if it keeps what it writes.
fn sink() -> Option<Sink> {
    KEPT.with(|k| k.borrow().clone())
}

/// Whether this thread keeps what it writes (a command run in process).
pub fn capturing() -> bool {
    KEPT.with(|k| k.borrow().is_some())
}

/// Records `--quiet` for the command this thread keeps the writing of; false where this thread
/// keeps none (the process's own run records it).
pub(super) fn keep_quiet(quiet: bool) -> bool {
    match sink() {
        Some(s) => {
            if let Ok(mut c) = s.lock() {
                c.quiet = quiet;
            }
            true
        }
        None => false,
    }
}

/// Whether the command this thread keeps the writing of was asked to be quiet (none where this
/// thread keeps none).
pub(super) fn kept_quiet() -> Option<bool> {
    sink().map(|s| s.lock().map(|c| c.quiet).unwrap_or(false))
}

/// Whether `line`, a line a run says once however often it is found (the bindings found off),
/// is said here for the first time: once per process, or once per command run in process (the
/// Python package's second call says it again).
pub(super) fn first_time(line: &str) -> bool {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let new = |said: &mut Vec<String>| {
        let new = !said.iter().any(|l| l == line);
        if new {
            said.push(line.to_string());
        }
        new
    };
    match sink() {
        Some(s) => s.lock().map(|mut c| new(&mut c.said)).unwrap_or(true),
        None => SAID.lock().map(|mut said| new(&mut said)).unwrap_or(true),
    }
}

/// Writes into the sink of this thread, if it has one; says whether it did.
fn into_sink(f: impl FnOnce(&mut Captured)) -> bool {
    match sink() {
        Some(s) => {
            if let Ok(mut c) = s.lock() {
                f(&mut c.written);
            }
            true
        }
        None => false,
    }
}

/// Runs `f` with what it writes kept; gives what was kept and its status.
pub(super) fn capture(f: impl FnOnce() -> i32) -> Captured {
    let mine: Sink = Default::default();
    let before = KEPT.with(|k| k.borrow_mut().replace(mine.clone()));
    let status = f();
    KEPT.with(|k| *k.borrow_mut() = before);
    let kept = match mine.lock() {
        Ok(mut c) => std::mem::take(&mut c.written),
        Err(_) => Captured::default(),
    };
    Captured { status, ..kept }
}

/// `f`, made to write where this thread writes when another thread runs it (a search on a
/// thread with a large stack prints its answers as the command's own).
pub(super) fn carried<R>(f: impl FnOnce() -> R + Send) -> impl FnOnce() -> R + Send {
    let mine = sink();
    move || {
        let before = KEPT.with(|k| std::mem::replace(&mut *k.borrow_mut(), mine));
        let r = f();
        KEPT.with(|k| *k.borrow_mut() = before);
        r
    }
}

/// Writes `text` on standard output, or keeps it.
pub fn write_out(text: std::fmt::Arguments) {
    if !into_sink(|c| {
        let _ = std::fmt::write(&mut c.stdout, text);
    }) {
        // a closed pipe ends the process (SIGPIPE), so a failed write has nothing left to tell
        let _ = std::io::stdout().lock().write_fmt(text);
    }
}

/// Writes `text` on standard error, or keeps it.
pub fn write_err(text: std::fmt::Arguments) {
    if !into_sink(|c| {
        let _ = std::fmt::write(&mut c.stderr, text);
    }) {
        let _ = std::io::stderr().lock().write_fmt(text);
    }
}

/// Keeps the diagnostics a command printed (their codes and messages, and their text), when
/// this thread keeps what it writes; says whether it did.
pub(super) fn keep_diagnostics(
    codes: impl IntoIterator<Item = (String, String)>,
    text: &str,
) -> bool {
    into_sink(|c| {
        for (code, message) in codes {
            c.codes.push(code);
            c.messages.push(message);
        }
        c.diagnostics.push_str(text);
        c.stderr.push_str(text);
    })
}

/// `println!` of a command: standard output, or kept ([`write_out`]).
macro_rules! outln {
    () => { $crate::cli::output::write_out(format_args!("\n")) };
    ($($t:tt)*) => {{
        $crate::cli::output::write_out(format_args!($($t)*));
        $crate::cli::output::write_out(format_args!("\n"));
    }};
}

/// `print!` of a command ([`write_out`]).
macro_rules! out {
    ($($t:tt)*) => { $crate::cli::output::write_out(format_args!($($t)*)) };
}

/// `eprintln!` of a command: standard error, or kept ([`write_err`]).
macro_rules! errln {
    () => { $crate::cli::output::write_err(format_args!("\n")) };
    ($($t:tt)*) => {{
        $crate::cli::output::write_err(format_args!($($t)*));
        $crate::cli::output::write_err(format_args!("\n"));
    }};
}

/// `eprint!` of a command ([`write_err`]).
macro_rules! err {
    ($($t:tt)*) => { $crate::cli::output::write_err(format_args!($($t)*)) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_command_writes_is_kept_on_its_thread_alone() {
        let c = capture(|| {
            outln!("a {}", 1);
            out!("b");
            errln!("c");
            let other = std::thread::spawn(capturing).join().unwrap();
            assert!(!other, "another thread does not keep");
            let carried = std::thread::spawn(carried(|| {
                outln!("carried");
                capturing()
            }));
            assert!(carried.join().unwrap());
            3
        });
        assert_eq!(c.status, 3);
        assert_eq!(c.stdout, "a 1\nbcarried\n");
        assert_eq!(c.stderr, "c\n");
        assert!(!capturing());
    }

    #[test]
    fn captures_nest_and_give_back_the_outer_one() {
        let outer = capture(|| {
            outln!("outer");
            let inner = capture(|| {
                outln!("inner");
                0
            });
            assert_eq!(inner.stdout, "inner\n");
            outln!("again");
            0
        });
        assert_eq!(outer.stdout, "outer\nagain\n");
    }

    /// `--quiet` and the lines said once belong to the command run in process: a quiet command
    /// does not quiet the next, and a line said once by one command is said by the next too;
    /// carried onto a search's thread, they are the command's.
    #[test]
    fn quiet_and_said_once_are_the_commands_own() {
        let first = capture(|| {
            assert!(keep_quiet(true));
            assert_eq!(kept_quiet(), Some(true));
            assert!(first_time("okite: a line"));
            assert!(!first_time("okite: a line"));
            let there = std::thread::spawn(carried(|| (kept_quiet(), first_time("okite: a line"))));
            assert_eq!(there.join().unwrap(), (Some(true), false));
            0
        });
        assert_eq!(first.status, 0);
        capture(|| {
            assert_eq!(kept_quiet(), Some(false));
            assert!(first_time("okite: a line"));
            0
        });
        assert_eq!(kept_quiet(), None);
        assert!(!keep_quiet(true));
    }
}
