//! The interactive REPL (`okite repl`): expressions of the rule language are evaluated against
//! the loaded rule files, definitions typed at the prompt override those of the files for the
//! session, and commands set the current shogi game or Go board that queries are about.

mod helper;
mod session;

use crate::eval::Evaluator;
use helper::{Names, ReplHelper};
use rustyline::error::ReadlineError;
use rustyline::history::FileHistory;
use rustyline::{Config, Editor};
use session::{Flow, Session};
use std::cell::RefCell;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A command of the REPL, for `:help`, completion and hints.
pub struct Cmd {
    pub name: &'static str,
    pub args: &'static str,
    pub help: &'static str,
}

pub const COMMANDS: &[Cmd] = &[
    Cmd {
        name: ":help",
        args: "",
        help: "this list of commands",
    },
    Cmd {
        name: ":load",
        args: "PATH",
        help: "load a rule file or folder, alongside those loaded",
    },
    Cmd {
        name: ":reload",
        args: "",
        help: "re-read the rule files; memo tables are kept when nothing changed",
    },
    Cmd {
        name: ":sfen",
        args: "SFEN|startpos [moves ...]",
        help: "set the shogi game: binds g (the game) and i (its current index); under a board variant's rules, s (its position)",
    },
    Cmd {
        name: ":moves",
        args: "[MOVE ...]",
        help: "play USI moves in the shogi game (without moves: list them)",
    },
    Cmd {
        name: ":kif",
        args: "FILE",
        help: "set the shogi game from a KIF record (under a board variant that defines KIF, as minishogi and kyotoshogi do, its game)",
    },
    Cmd {
        name: ":csa",
        args: "FILE",
        help: "set the shogi game from a CSA record",
    },
    Cmd {
        name: ":go",
        args: "GRAPH [MOVE ...]",
        help: "set the Go board (grid:3x3, path:4, ...): binds G and c",
    },
    Cmd {
        name: ":reading",
        args: "[NAME]",
        help: "evaluate under a reading (without a name: list the readings)",
    },
    Cmd {
        name: ":board",
        args: "",
        help: "a diagram of the current shogi position or Go board",
    },
    Cmd {
        name: ":legal",
        args: "",
        help: "the legal moves of the current position under the reading",
    },
    Cmd {
        name: ":compare",
        args: "[--depth N] R1,R2 EXPR",
        help: "evaluate under several readings; explain where they differ",
    },
    Cmd {
        name: ":explain",
        args: "[--depth N] EXPR",
        help: "the value and why: the proof tree with rule spans",
    },
    Cmd {
        name: ":time",
        args: "EXPR",
        help: "the value, the time taken and memo statistics",
    },
    Cmd {
        name: ":type",
        args: "EXPR",
        help: "the type of an expression",
    },
    Cmd {
        name: ":defs",
        args: "[PATTERN]",
        help: "definitions whose name contains PATTERN, with signatures",
    },
    Cmd {
        name: ":quit",
        args: "",
        help: "leave (so does Ctrl-D)",
    },
];

/// Whether `text` ends inside an unfinished definition or expression, so that another line
/// should follow it.
pub fn incomplete(text: &str) -> bool {
    // an empty line ends an unfinished input (which is then reported as it is)
    if text.contains('\n')
        && text
            .rsplit('\n')
            .next()
            .is_some_and(|l| l.trim().is_empty())
    {
        return false;
    }
    let t = text.trim_end();
    if t.trim_start().starts_with(':')
        || t.lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with("//"))
    {
        return false;
    }
    // `let x = 3` alone defines `x` for the session (see `Session::handle`): it is whole
    if !t.contains('\n') && session::is_session_let(t.trim_start()) {
        let as_def = format!("def {}", &t.trim_start()["let ".len()..]);
        if crate::syntax::parser::parse_repl(&as_def, 0).is_ok() {
            return false;
        }
    }
    let brackets = brackets(t);
    if brackets == Brackets::Mismatched {
        // `size([1, 2, 3)`: no line that follows can mend it; the parser says where it is wrong
        return false;
    }
    match crate::syntax::parser::parse_repl(text, 0) {
        Ok(_) => false,
        Err(ds) => {
            // an error at the very end: the input stopped too early
            let at_end = ds
                .iter()
                .filter_map(|d| d.primary_span())
                .any(|s| s.start as usize >= t.len());
            at_end || brackets == Brackets::Open
        }
    }
}

/// How the brackets of an input stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Brackets {
    /// Each closed by its own kind.
    Balanced,
    /// Some left open, none closed by another kind.
    Open,
    /// One closed by another kind, or a closing one with none open.
    Mismatched,
}

fn brackets(t: &str) -> Brackets {
    let mut open: Vec<char> = vec![];
    let mut in_str = false;
    let mut escaped = false;
    for line in t.lines() {
        let mut prev = ' ';
        for c in line.chars() {
            if in_str {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => in_str = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '/' if prev == '/' => break,
                '"' => in_str = true,
                '(' | '[' | '{' => open.push(c),
                ')' | ']' | '}' => {
                    let want = match c {
                        ')' => '(',
                        ']' => '[',
                        _ => '{',
                    };
                    if open.pop() != Some(want) {
                        return Brackets::Mismatched;
                    }
                }
                _ => {}
            }
            prev = c;
        }
    }
    if open.is_empty() {
        Brackets::Balanced
    } else {
        Brackets::Open
    }
}

/// Where the history is kept: $OKITE_HISTORY, or ~/.okite_history.
fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("OKITE_HISTORY") {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".okite_history"))
}

/// The most bytes of a history file the line editor is given to read.
const MAX_HISTORY_BYTES: u64 = 16 << 20;

/// The history file, when it can be kept: nothing there yet, or a regular file within
/// [`MAX_HISTORY_BYTES`]. The line editor opens it itself, so it is checked first (a FIFO
/// there would make it wait, a device or a sparse file of gigabytes read without end); one
/// that cannot be kept is named on standard error and the session goes on without history.
fn usable_history(path: PathBuf) -> Option<PathBuf> {
    let within = std::fs::metadata(&path).map_or(true, |m| m.len() <= MAX_HISTORY_BYTES);
    if crate::files::absent_or_regular(&path) && within {
        return Some(path);
    }
    eprintln!(
        "note: the history file `{}` is not kept: it is no regular file of at most {} MiB",
        path.display(),
        MAX_HISTORY_BYTES >> 20
    );
    None
}

enum Input {
    /// A terminal: the line editor, the history file, and a line read ahead (a command that
    /// ended an unfinished input).
    Tty(
        Box<Editor<ReplHelper, FileHistory>>,
        Option<PathBuf>,
        Option<String>,
    ),
    /// Standard input that is not a terminal, with a line read ahead (a command that ended an
    /// unfinished definition).
    Pipe(Box<dyn std::io::BufRead>, Option<String>),
}

enum Line {
    Text(String),
    /// Ctrl-C at the prompt: the line is dropped.
    Cleared,
    /// A line that is not UTF-8 text, with the offset of its first invalid byte: skipped.
    NotText(usize),
    /// A line, or an unfinished input across lines, longer than [`MAX_INPUT_BYTES`], with its
    /// length: skipped (read to its end without being kept).
    TooLong(usize),
    Eof,
}

/// The prompt of a new input.
const PROMPT: &str = "okite> ";
/// The prompt of a line that continues an unfinished input (as wide as [`PROMPT`]).
const CONTINUATION: &str = "   ... ";

/// The longest input read from a pipe: a line, or an unfinished input across lines, of at most
/// the size of a rule file.
const MAX_INPUT_BYTES: usize = crate::syntax::parser::MAX_SOURCE_BYTES;

/// Adds the line `l` to the input `text` read so far, from a terminal or a pipe: the input to
/// run once it is whole, or once a command (kept in `ahead`, run next) ends it unfinished, or
/// the input's length past the bound; `None` while it goes on.
fn continue_input(text: &mut String, l: &str, ahead: &mut Option<String>) -> Option<Line> {
    if !text.is_empty() && l.trim_start().starts_with(':') {
        // a command: the unfinished input before it ends here
        *ahead = Some(l.to_string());
        return Some(Line::Text(std::mem::take(text)));
    }
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(l);
    if text.len() > MAX_INPUT_BYTES {
        return Some(Line::TooLong(text.len()));
    }
    if !incomplete(text) {
        return Some(Line::Text(std::mem::take(text)));
    }
    None
}

impl Input {
    fn read(&mut self) -> Line {
        match self {
            Input::Tty(ed, hist, ahead) => {
                // an unfinished input is continued on lines read with their own prompt, as
                // from a pipe: an empty line or a command ends it, Ctrl-C drops it
                let mut text = String::new();
                loop {
                    let l = match ahead.take() {
                        Some(a) => a,
                        None => {
                            let prompt = if text.is_empty() {
                                PROMPT
                            } else {
                                CONTINUATION
                            };
                            match ed.readline(prompt) {
                                Ok(l) => {
                                    if !l.trim().is_empty() {
                                        let _ = ed.add_history_entry(l.as_str());
                                        if let Some(h) = hist {
                                            let _ = ed.append_history(h);
                                        }
                                    }
                                    l
                                }
                                Err(ReadlineError::Interrupted) => return Line::Cleared,
                                Err(_) if text.is_empty() => return Line::Eof,
                                Err(_) => return Line::Text(text),
                            }
                        }
                    };
                    if let Some(done) = continue_input(&mut text, &l, ahead) {
                        return done;
                    }
                }
            }
            Input::Pipe(stdin, ahead) => {
                let mut text = String::new();
                loop {
                    let mut l = String::new();
                    let read = match ahead.take() {
                        Some(a) => {
                            l = a;
                            Ok(l.len().max(1))
                        }
                        None => {
                            let mut bytes = Vec::new();
                            match crate::lines::read_line_bounded(
                                stdin,
                                &mut bytes,
                                MAX_INPUT_BYTES,
                            ) {
                                Ok(Ok(n)) => match String::from_utf8(bytes) {
                                    Ok(t) => {
                                        l = t;
                                        Ok(n)
                                    }
                                    Err(e) => return Line::NotText(e.utf8_error().valid_up_to()),
                                },
                                Ok(Err(n)) => return Line::TooLong(n),
                                Err(e) => Err(e),
                            }
                        }
                    };
                    match read {
                        Ok(0) | Err(_) => {
                            return if text.is_empty() {
                                Line::Eof
                            } else {
                                Line::Text(text)
                            }
                        }
                        Ok(_) => {
                            let l = l.trim_end_matches(['\n', '\r']);
                            if let Some(done) = continue_input(&mut text, l, ahead) {
                                return done;
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Whether a query is running: Ctrl-C then interrupts it instead of ending the program.
static QUERY_RUNNING: AtomicBool = AtomicBool::new(false);

fn install_interrupt(flag: Arc<AtomicBool>) {
    let _ = ctrlc::set_handler(move || {
        if QUERY_RUNNING.load(Ordering::SeqCst) {
            flag.store(true, Ordering::SeqCst);
        } else if !std::io::stdin().is_terminal() {
            std::process::exit(130);
        }
    });
}

/// Run `f` as an interruptible query.
pub(crate) fn interruptible<T>(ev: &mut Evaluator, f: impl FnOnce(&mut Evaluator) -> T) -> T {
    let flag = ev.interrupt.clone();
    interruptible_by(flag.as_ref(), || f(ev))
}

/// Run `f` (a query, or the check of rule files being loaded) so that Ctrl-C raises `flag`
/// instead of ending the program; the flag is lowered before and after.
pub(crate) fn interruptible_by<T>(flag: Option<&Arc<AtomicBool>>, f: impl FnOnce() -> T) -> T {
    if let Some(flag) = flag {
        flag.store(false, Ordering::SeqCst);
    }
    QUERY_RUNNING.store(true, Ordering::SeqCst);
    let r = f();
    QUERY_RUNNING.store(false, Ordering::SeqCst);
    if let Some(flag) = flag {
        flag.store(false, Ordering::SeqCst);
    }
    r
}

/// Run the REPL on rule files; the exit status.
pub fn run(paths: Vec<PathBuf>) -> i32 {
    run_with(paths, None, Options::default())
}

/// What `okite repl` takes besides its rule files: the evaluation budgets of the other commands
/// (`--max-resident-mb`, `--timeout-ms`, ...) and the reading to start under.
#[derive(Default)]
pub struct Options {
    /// The budgets; none: the command line's defaults.
    pub run: Option<crate::front::RunOpts>,
    /// The reading the session starts under (`base` when none, or when the rules lack it).
    pub reading: Option<String>,
    /// A shipped board variant: its file (rules/variants/NAME.rule) is the session's rules, and
    /// its reading the one it starts under unless `reading` names another.
    pub variant: Option<String>,
}

/// Run the REPL on rule files with `options`; the exit status.
pub fn run_with_options(paths: Vec<PathBuf>, options: Options) -> i32 {
    run_with(paths, None, options)
}

/// Run the REPL on rule files with `input` in place of standard input, as when a script is
/// piped to it (the fuzz target of the REPL's input runs it so); the exit status.
pub fn run_piped(paths: Vec<PathBuf>, input: Box<dyn std::io::BufRead>) -> i32 {
    run_with(paths, Some(input), Options::default())
}

fn run_with(
    paths: Vec<PathBuf>,
    piped: Option<Box<dyn std::io::BufRead>>,
    options: Options,
) -> i32 {
    let tty = piped.is_none() && std::io::stdin().is_terminal();
    let color = tty && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let names = Rc::new(RefCell::new(Names::default()));
    let stdin = || -> Box<dyn std::io::BufRead> { Box::new(std::io::stdin().lock()) };
    let mut input = if let Some(p) = piped {
        Input::Pipe(p, None)
    } else if tty {
        let config = Config::builder()
            .auto_add_history(false)
            .max_history_size(5000)
            .map(|b| b.build())
            .unwrap_or_default();
        match Editor::with_config(config) {
            Ok(mut ed) => {
                ed.set_helper(Some(ReplHelper::new(names.clone(), color)));
                let hist = history_path().and_then(usable_history);
                if let Some(h) = &hist {
                    let _ = ed.load_history(h);
                }
                Input::Tty(Box::new(ed), hist, None)
            }
            Err(_) => Input::Pipe(stdin(), None),
        }
    } else {
        Input::Pipe(stdin(), None)
    };
    let flag = Arc::new(AtomicBool::new(false));
    install_interrupt(flag.clone());
    let mut s = match &options.variant {
        Some(name) => Session::new_shipped(
            vec![std::path::Path::new(crate::shipped::FOLDER)
                .join("variants")
                .join(format!("{name}.rule"))],
            color,
        ),
        None => Session::new(paths, color),
    };
    s.interrupt = Some(flag.clone());
    if let Some(run) = options.run {
        s.run_opts = run;
    }
    if tty {
        println!(
            "okite {} — :help lists the commands, :quit or Ctrl-D leaves",
            env!("CARGO_PKG_VERSION")
        );
    }
    s.load_initial();
    if let Some(r) = options.reading.or(options.variant) {
        s.start_reading(&r);
    }
    let mut carried = crate::eval::CarriedMemo::default();
    // the program queries run on: built like the session's, kept (with its memo tables) until
    // the definitions change, and changed in place as the session's is
    let mut twin: Option<crate::check::Program> = None;
    let mut kept_memo: Option<crate::eval::KeptMemo> = None;
    loop {
        if tty {
            *names.borrow_mut() = s.names();
        }
        let (built, changed) = s.next_twin(twin.take());
        let prog = match built {
            Ok(p) => p,
            Err(_) => s.empty_program(),
        };
        match (&mut kept_memo, changed) {
            (Some(m), Some(changed)) => m.forget(&changed),
            _ => kept_memo = None,
        }
        let binder = crate::bindings::Sound::standard();
        let mut ev = Evaluator::new(&prog, &binder);
        s.configure(&mut ev);
        ev.interrupt = Some(flag.clone());
        let kept = match kept_memo.take() {
            Some(m) => ev.keep_memo(m),
            None => ev.import_memo(std::mem::take(&mut carried)),
        };
        if let Some(note) = s.reload_note.take() {
            println!("{note}; kept {kept} memo entries of unchanged definitions");
        }
        s.run_pending(&mut ev);
        // native bindings found off by this program's queries, each said once
        let mut announced: std::collections::BTreeSet<String> = Default::default();
        loop {
            let _ = std::io::stdout().flush();
            let line = match input.read() {
                Line::Text(t) => t,
                Line::Cleared => continue,
                Line::NotText(at) => {
                    s.not_text(at);
                    continue;
                }
                Line::TooLong(n) => {
                    s.too_long(n, MAX_INPUT_BYTES);
                    continue;
                }
                Line::Eof => return s.status(tty),
            };
            let flow = s.handle(&line, &mut ev);
            for (what, why) in &ev.off_bindings {
                if announced.insert(what.clone()) {
                    eprintln!("okite: {what} off ({why}): the rules answer");
                }
            }
            match flow {
                Flow::Continue => {}
                Flow::Rebuild if s.twin_extends() => {
                    kept_memo = Some(ev.take_memo());
                    break;
                }
                Flow::Rebuild => {
                    carried = ev.export_memo();
                    break;
                }
                Flow::Quit => return s.status(tty),
            }
        }
        drop(ev);
        twin = Some(prog);
    }
}
