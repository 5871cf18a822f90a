#![forbid(unsafe_code)]
//! What every command shares: printing diagnostics, loading the rules, notices of the engine
//! that answered, values as JSON.

use crate::check::Program;
use crate::commands::{Notice, Plan};
use crate::diagnostics::code;
use crate::diagnostics::{render, Diag, SourceMap, Span};
use crate::eval::{EvalError, Evaluator};
use crate::front::OutOpts;
use crate::ir::Value;
use crate::json::string as json_str;
use crate::natives::Engine;
use std::io::IsTerminal;
use std::path::PathBuf;

/// How diagnostics are printed.
pub struct Printer {
    pub color: bool,
    pub width: usize,
    /// Where the diagnostics go when they are kept instead of printed ([`Printer::capturing`]).
    sink: Option<std::sync::Mutex<String>>,
}

impl Printer {
    pub fn new(opt: &OutOpts) -> Printer {
        let tty = std::io::stderr().is_terminal();
        let color = match opt.color.as_str() {
            "always" => true,
            "never" => false,
            _ => tty && std::env::var_os("NO_COLOR").is_none() && !super::output::capturing(),
        };
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(100);
        Printer {
            color,
            width,
            sink: None,
        }
    }
    /// The same printer, keeping what it would print on standard error (a job of a batch,
    /// whose diagnostics are printed in the order of the batch): [`Printer::captured`] gives it.
    pub fn capturing(self) -> Printer {
        Printer {
            sink: Some(std::sync::Mutex::new(String::new())),
            ..self
        }
    }
    /// What a capturing printer kept.
    pub fn captured(&self) -> String {
        self.sink
            .as_ref()
            .map(|s| s.lock().map(|t| t.clone()).unwrap_or_default())
            .unwrap_or_default()
    }
    /// The printer of a command without a `--color` option: colour on a terminal.
    pub fn auto() -> Printer {
        Printer::new(&OutOpts {
            color: "auto".into(),
        })
    }
    pub fn diags(&self, ds: &[Diag], sources: &SourceMap) {
        let text = render(ds, sources, self.width, self.color);
        match &self.sink {
            Some(s) => {
                if let Ok(mut t) = s.lock() {
                    t.push_str(&text)
                }
            }
            None => {
                let codes = ds.iter().map(|d| (d.code.to_string(), d.message.clone()));
                if !super::output::keep_diagnostics(codes, &text) {
                    eprint!("{text}")
                }
            }
        }
    }
    /// Print the error a command stops on, with no source to show, and give the command's exit
    /// status (see [`exit_status`]).
    pub fn fail(&self, d: Diag) -> i32 {
        self.fail_in(d, &SourceMap::default())
    }
    /// Print the error a command stops on, its labels pointing into `sources`, and give the
    /// command's exit status (see [`exit_status`]).
    pub fn fail_in(&self, d: Diag, sources: &SourceMap) -> i32 {
        let status = exit_status(&d);
        self.diags(std::slice::from_ref(&d), sources);
        status
    }
    /// Print the diagnostics a command stops on (warnings and notes among them are shown too)
    /// and give the command's exit status: the first error's (see [`exit_status`]), or 2.
    pub fn fail_all(&self, ds: &[Diag], sources: &SourceMap) -> i32 {
        self.diags(ds, sources);
        ds.iter().find(|d| d.is_error()).map_or(2, exit_status)
    }
}

/// The exit status of a command that stops on the error `d`, by one rule: 1 when the native
/// engine and the rules disagree under `okite legal --verify` (a finding about the engines, as a
/// failing example is for `okite test`), 2 for every other error (input, options, files, limits).
pub fn exit_status(d: &Diag) -> i32 {
    match d.code {
        ENGINES_DISAGREE => 1,
        _ => 2,
    }
}

/// The code of the one error that exits with status 1 (see [`exit_status`]).
pub const ENGINES_DISAGREE: &str = code::ENGINES_DISAGREE;

/// Load rule files, printing diagnostics on failure.
pub(super) fn load_or_report(
    paths: &[PathBuf],
    printer: &Printer,
) -> Result<(Program, Vec<PathBuf>), i32> {
    crate::front::load_rules(paths).map_err(|(sources, ds)| {
        let status = printer.fail_all(&ds, &sources);
        let n = ds.iter().filter(|d| d.is_error()).count();
        errln!(
            "error: {n} error{} in the rule files",
            if n == 1 { "" } else { "s" }
        );
        status
    })
}

/// One line on stderr naming the native bindings the evaluation found off, with why; nothing
/// when every binding it met was on, or when the command said the same line already (a
/// command that evaluates once a move says it once).
pub(super) fn say_off_bindings(ev: &Evaluator) {
    say_off(&ev.off_bindings)
}

/// [`say_off_bindings`] of the bindings an evaluation found off, each with why.
pub(super) fn say_off(off_bindings: &std::collections::BTreeMap<String, String>) {
    if off_bindings.is_empty() {
        return;
    }
    let parts: Vec<String> = off_bindings
        .iter()
        .map(|(what, why)| format!("{what} off ({why})"))
        .collect();
    let line = format!(
        "okite: by the rules where natives are off: {}",
        parts.join("; ")
    );
    if super::output::first_time(&line) {
        errln!("{line}");
    }
}

pub(super) use crate::commands::mate::rules_failed;

pub(super) use crate::commands::eval::unexpected;

pub(super) fn report_eval(e: EvalError, prog: &Program, printer: &Printer) -> i32 {
    printer.fail_in(*e.diag, &prog.sources)
}

/// The parts of a value `--json` writes at most.
pub const MAX_JSON_PARTS: usize = 50_000_000;

/// The bytes the JSON text of a value may take when the process may occupy
/// `max_resident_bytes`: a third of the room left under that bound (the text grows in a buffer
/// that doubles, and is written out from it), so that the text is refused before it is made.
pub fn json_room(max_resident_bytes: usize) -> usize {
    let resident = crate::memory::resident_bytes().unwrap_or(0);
    max_resident_bytes.saturating_sub(resident) / 3
}

/// E0307 when the value has more than [`MAX_JSON_PARTS`] parts written out (a value made of
/// shared parts, `(p, p)` over and over, is far longer written out than it is stored), or when
/// its JSON text would take more than `max_bytes`. The count stops at the bound, and goes
/// without recursion (enum cells nest as deep as the rules build); the text's length is
/// counted as it will be written (a text with its escapes, an integer's digits, the
/// punctuation), an over-estimate for enum constants and native values.
pub fn json_refusal(v: &Value, max_bytes: usize) -> Option<Diag> {
    let mut left = MAX_JSON_PARTS;
    let mut bytes = 0usize;
    let mut todo: Vec<&Value> = vec![v];
    while let Some(v) = todo.pop() {
        if left == 0 {
            return Some(
                Diag::error(
                    code::TOO_LARGE_TO_WRITE,
                    format!("the value has more than {MAX_JSON_PARTS} parts to write as JSON"),
                )
                .help("ask for a part of it, or its size; without `--json` its text is shown cut"),
            );
        }
        if bytes > max_bytes {
            return Some(
                Diag::error(
                    code::TOO_LARGE_TO_WRITE,
                    format!(
                        "the value's JSON text would take more than {} MiB, more than the command may still occupy",
                        max_bytes >> 20
                    ),
                )
                .help("ask for a part of it, or its size, or raise --max-resident-mb; without `--json` its text is shown cut"),
            );
        }
        left -= 1;
        // the separator or brackets around it
        bytes += 2;
        match v {
            Value::Enum(e) => {
                bytes += e.name.len() + 4;
                todo.extend(e.fields.iter())
            }
            Value::Tuple(t) => todo.extend(t.iter()),
            Value::Set(s) => todo.extend(s.iter()),
            Value::Seq(s) => todo.extend(s.iter()),
            Value::Map(m) => m.iter().for_each(|(k, x)| {
                bytes += 4;
                todo.extend([k, x])
            }),
            Value::Str(s) => {
                let escaped = s.bytes().filter(|b| *b < 0x20 || *b == b'"' || *b == b'\\');
                bytes = bytes.saturating_add(s.len() + 5 * escaped.count())
            }
            Value::Int(_) => bytes += 20,
            Value::Bool(_) => bytes += 5,
            Value::Func(_) | Value::Native(_) => bytes += 256,
        }
    }
    None
}

/// Values as JSON: sets and sequences as arrays, maps as arrays of [key, value] pairs, enum
/// constants and native values as strings.
pub fn to_json(v: &Value) -> String {
    to_json_with(v, &|_| None)
}

/// [`to_json`], with the values `state` recognises (shogi states, by their SFEN) written as
/// `{"sfen": ...}`. Written without recursion: tuples nest as deep as their types allow.
pub fn to_json_with(v: &Value, state: &dyn Fn(&Value) -> Option<String>) -> String {
    /// What is left to write: a value, or a piece of punctuation.
    enum Part<'a> {
        Value(&'a Value),
        Text(&'static str),
    }
    /// Pushes a list of `items` to write: `[`, the items separated by `, `, `]`, each item's
    /// parts pushed by `item`, back to front (they are popped in order).
    fn list<'a, T>(
        todo: &mut Vec<Part<'a>>,
        items: impl DoubleEndedIterator<Item = T>,
        item: impl Fn(&mut Vec<Part<'a>>, T),
    ) {
        todo.push(Part::Text("]"));
        for (i, x) in items.rev().enumerate() {
            if i > 0 {
                todo.push(Part::Text(", "));
            }
            item(todo, x);
        }
        todo.push(Part::Text("["));
    }
    /// An item that is one value.
    fn one<'a>(todo: &mut Vec<Part<'a>>, x: &'a Value) {
        todo.push(Part::Value(x));
    }
    let mut out = String::new();
    let mut todo = vec![Part::Value(v)];
    while let Some(part) = todo.pop() {
        let v = match part {
            Part::Text(t) => {
                out.push_str(t);
                continue;
            }
            Part::Value(v) => v,
        };
        if let Some(s) = state(v) {
            out.push_str(&format!("{{\"sfen\": {}}}", json_str(&s)));
            continue;
        }
        match v {
            Value::Bool(b) => out.push_str(&b.to_string()),
            Value::Int(i) => out.push_str(&i.to_string()),
            Value::Str(s) => out.push_str(&json_str(s)),
            Value::Enum(_) | Value::Func(_) | Value::Native(_) => {
                out.push_str(&json_str(&v.to_string()))
            }
            Value::Tuple(t) => list(&mut todo, t.iter(), one),
            Value::Set(s) => list(&mut todo, s.iter(), one),
            Value::Seq(s) => list(&mut todo, s.iter(), one),
            // `[[k, x], ...]`
            Value::Map(m) => list(&mut todo, m.iter(), |todo, (k, x)| {
                list(todo, [k, x].into_iter(), one)
            }),
        }
    }
    out
}

/// Say on stderr, in one line, how a shogi command runs ([`crate::commands::notice::announced`]);
/// the notice said is returned, for the report's `engine` field.
pub(super) fn announce(
    prog: &Program,
    reading: crate::ir::ReadingId,
    def: &str,
    engine_name: &str,
    plan: &Plan,
    engine: Engine,
) -> (Option<crate::hybrid::ShogiVariant>, Notice) {
    if engine != Engine::Native {
        return (
            None,
            say_plan(prog, reading, def, engine_name, plan, engine),
        );
    }
    let (variant, notice) =
        crate::commands::notice::announced(prog, reading, def, engine_name, plan);
    errln!("{}", notice.line());
    (variant, notice)
}

/// Who answers `def`: the plan's notice, or the rules where `--engine rules` was asked.
pub(super) fn plan_notice(
    prog: &Program,
    reading: crate::ir::ReadingId,
    def: &str,
    engine_name: &str,
    plan: &Plan,
    engine: Engine,
) -> Notice {
    if engine == Engine::Rules {
        Notice::rules_asked(def, &prog.readings[reading.index()].name)
    } else {
        Notice::of(prog, reading, def, engine_name, plan)
    }
}

/// Say on stderr, in one line, whether the native engine or the rules answer; the notice said.
pub(super) fn say_plan(
    prog: &Program,
    reading: crate::ir::ReadingId,
    def: &str,
    engine_name: &str,
    plan: &Plan,
    engine: Engine,
) -> Notice {
    let notice = plan_notice(prog, reading, def, engine_name, plan, engine);
    errln!("{}", notice.line());
    notice
}

/// Whether `--quiet` was given: no progress on the terminal.
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Records `--quiet` for the whole run (for the command alone, when it runs in process).
pub(super) fn set_quiet(quiet: bool) {
    if !super::output::keep_quiet(quiet) {
        QUIET.store(quiet, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Whether `--quiet` was given.
fn quiet() -> bool {
    super::output::kept_quiet().unwrap_or_else(|| QUIET.load(std::sync::atomic::Ordering::Relaxed))
}

/// Whether progress may be drawn: stderr is a terminal and `--quiet` was not given.
pub(super) fn progress_shown() -> bool {
    !quiet() && std::io::stderr().is_terminal() && !super::output::capturing()
}

/// A spinner on stderr with the time elapsed and what runs, while a search that may take more
/// than a second runs; nothing when progress is not shown. It is cleared when dropped.
pub(super) struct Spinner(Option<indicatif::ProgressBar>);

impl Spinner {
    pub(super) fn new(what: impl Into<String>) -> Spinner {
        Spinner(progress_shown().then(|| {
            let b = indicatif::ProgressBar::new_spinner();
            b.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed} {msg}")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            b.set_message(what.into());
            b.enable_steady_tick(std::time::Duration::from_millis(200));
            b
        }))
    }
}

impl Spinner {
    /// Tells what is under way now (how far a long count has come).
    pub(super) fn set(&self, what: impl Into<String>) {
        if let Some(b) = &self.0 {
            b.set_message(what.into());
        }
    }
}

impl Spinner {
    /// Says a line found on the way that a log keeps too: above the spinner on a terminal (kept
    /// there when the spinner is cleared), and where progress is not drawn (stderr is a file or
    /// a pipe) as a line of its own, unless `--quiet`.
    pub(super) fn tell(&self, line: &str) {
        match &self.0 {
            Some(b) => b.suspend(|| errln!("{line}")),
            None if !quiet() => {
                errln!("okite: {line}")
            }
            None => {}
        }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// The names of the shogi enums in the rules loaded, to turn positions into states.
pub(super) fn state_names(prog: &Program) -> Result<crate::natives::shogi::Names, i32> {
    crate::commands::eval::state_names(prog).map_err(|d| Printer::auto().fail(d))
}

/// The graph of a Go command's `--graph`.
pub(super) fn go_graph(spec: &str) -> Result<crate::go::graph::Graph, i32> {
    crate::go::graph::Graph::parse(spec).map_err(|e| go_error(spec, "--graph", &e))
}

/// A Go computation stopped by Ctrl-C: said, with the conventional exit status.
pub(super) fn interrupted() -> i32 {
    errln!("okite: interrupted");
    130
}

/// A Go error by its kind: a bound passed or a file (a code of its own, no source to show),
/// Ctrl-C, or an input error shown in `text`, the value of the option `name`.
pub(super) fn go_error(text: &str, name: &str, e: &crate::go::error::GoError) -> i32 {
    use crate::go::error::ErrorKind;
    let code = match e.kind {
        ErrorKind::Memory => code::ENGINE_MEMORY,
        ErrorKind::Limit => code::SEARCH_BUDGET,
        ErrorKind::File => code::RESULTS_FILE,
        ErrorKind::Interrupted => return interrupted(),
        ErrorKind::Input => code::BAD_GRAPH,
    };
    if e.kind != ErrorKind::Input {
        return Printer::auto().fail(Diag::error(code, e.message.clone()).help(e.help.clone()));
    }
    let mut sources = SourceMap::default();
    let id = sources.add(name, None, text.to_string());
    let mut d = Diag::error(code, e.message.clone()).help(e.help.clone());
    if let Some(sp) = e.span.as_ref().filter(|sp| sp.offset < text.len()) {
        d = d.label(Span::new(id, sp.offset, sp.offset + 1), "here");
    } else {
        d = d.label(Span::new(id, 0, text.len()), "");
    }
    Printer::auto().fail_in(d, &sources)
}

/// `n` and `what`, made plural unless `n` is one: "1 move", "29 moves".
pub(super) fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// What a command says as it runs, on standard error.
pub(super) fn tell(t: crate::commands::told::Told) {
    match t {
        crate::commands::told::Told::Notice(n) => errln!("{}", n.line()),
        crate::commands::told::Told::OffBindings(off) => say_off(off),
        crate::commands::told::Told::ResultsRead(n, file) => {
            errln!("okite: {n} results read from {}", file.display())
        }
        crate::commands::told::Told::ResultsKept(n, file) => {
            errln!("okite: {n} results kept in {}", file.display())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, BTreeSet};

    /// Each kind of value written as JSON: sets and sequences as arrays, maps as arrays of
    /// pairs, tuples as arrays, and a value `state` recognises as an object.
    #[test]
    fn values_as_json() {
        let map = Value::map(BTreeMap::from([
            (Value::Int(1), Value::Bool(true)),
            (Value::Int(2), Value::Str("a\"b".into())),
        ]));
        let set = Value::set(BTreeSet::from([Value::Int(3), Value::Int(-1)]));
        let v = Value::tuple(vec![
            map,
            set,
            Value::seq(vec![]),
            Value::seq(vec![Value::Int(7)]),
        ]);
        assert_eq!(
            to_json(&v),
            r#"[[[1, true], [2, "a\"b"]], [-1, 3], [], [7]]"#
        );
        let marked = to_json_with(&v, &|x| (*x == Value::Int(7)).then(|| "s".to_string()));
        assert!(marked.ends_with(r#"[{"sfen": "s"}]]"#), "{marked}");
    }

    /// A value nested far deeper than any stack holds in frames is written, level by level.
    #[test]
    fn a_deeply_nested_value_is_written_without_recursion() {
        let depth = 1_000_000;
        let mut v = Value::Int(0);
        for _ in 0..depth {
            v = Value::seq(vec![v]);
        }
        let text = to_json(&v);
        let want = format!("{}0{}", "[".repeat(depth), "]".repeat(depth));
        // A value nested this deep is dropped part by part, recursively (the rules build none:
        // their types are at most 1,000 deep), so it is not dropped, also when the test fails.
        std::mem::forget(v);
        // (not assert_eq!, whose message would print both)
        assert!(text == want, "{} characters written", text.len());
    }
}
