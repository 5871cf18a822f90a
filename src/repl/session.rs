//! The state of a REPL session and its commands.

use super::helper::Names;
use super::{interruptible, interruptible_by, COMMANDS};
use crate::check::load::{read_all_interruptible, Disk, Files, RuleFile, ShippedAndDisk};
use crate::check::{Program, Query, BASE};
use crate::diagnostics::code;
use crate::diagnostics::{render, Diag, SourceMap};
use crate::eval::{explain, ErrKind, EvalError, Evaluator};
use crate::front::{display_value, RunOpts};
use crate::go::board::{Board, Color};
use crate::go::graph::Graph;
use crate::ir::{DefId, Value};
use crate::natives::{NativeCtx, Natives};
use crate::shogi::position::Position;
use crate::syntax::ast::{self, Item, NativeDecl, Span};
use crate::syntax::parse_expr;
use crate::syntax::parser::{parse_repl, ReplInput};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Print an error message and count it.
macro_rules! fail {
    ($s:expr, $($t:tt)*) => {{
        $s.errors.set($s.errors.get() + 1);
        eprintln!($($t)*);
    }};
}

// after the macro, which its code uses
mod board_game;
mod commands;
mod games;

/// What the loop does after an input.
pub enum Flow {
    Continue,
    /// The definitions changed: build the program again (the memo entries of definitions that did
    /// not change are carried over).
    Rebuild,
    Quit,
}

#[derive(Clone)]

struct ShogiGame {
    positions: Vec<Position>,
    moves: Vec<String>,
}

struct GoGame {
    graph: Graph,
    board: Board,
    to_move: Color,
    moves: Vec<String>,
}

#[derive(PartialEq)]
enum Current {
    Shogi,
    Board,
    Go,
}

pub struct Session {
    paths: Vec<PathBuf>,
    /// No rule files were named: the shipped ones are read (`:reload` keeps them).
    shipped: bool,
    files: Vec<RuleFile>,
    /// Items typed at the prompt; they replace same-named items of the files.
    items: Vec<Item>,
    /// Every source: rule files and inputs; the programs are built from a copy.
    sources: SourceMap,
    /// The program queries are compiled with (the evaluator runs on a twin built alike).
    prog: Program,
    reading: String,
    /// The evaluation budgets (`okite repl --max-resident-mb ...`).
    pub run_opts: RunOpts,
    shogi: Option<ShogiGame>,
    /// A game of the board variant the rules state (their `:sfen` is in its geometry).
    board: Option<board_game::BoardGame>,
    go: Option<GoGame>,
    current: Option<Current>,
    color: bool,
    width: usize,
    /// Examples and theorems typed at the prompt, run once the program is rebuilt.
    pending: Vec<String>,
    /// How many inputs were read (inputs are named `<input N>` in diagnostics).
    inputs: usize,
    /// How many inputs failed (a piped script then exits with status 1).
    pub errors: std::cell::Cell<usize>,
    /// What `:reload` has to say once the memo entries of unchanged definitions are carried over.
    pub reload_note: Option<String>,
    /// Raised by Ctrl-C: it stops a query, and the check of rule files being loaded.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// The session as it was before its program last changed, until the evaluator's twin of the
    /// new program is built: put back if that build is interrupted.
    before: Option<Box<Before>>,
    /// What the session's program took in place since its twin was made: the twin takes it
    /// alike.
    extended: Vec<ast::File>,
}

/// A program built, or the diagnostics of the build.
type Built = Result<Program, (SourceMap, Vec<Diag>)>;

/// What a session was before its program changed.
struct Before {
    paths: Vec<PathBuf>,
    files: Vec<RuleFile>,
    items: Vec<Item>,
    sources: SourceMap,
    prog: Program,
}

/// The names of a top-level item, for replacing it.
fn item_names(it: &Item) -> Vec<&str> {
    match it {
        Item::Def(d) => std::iter::once(&d.name)
            .chain(d.aliases.iter())
            .map(|n| n.text.as_str())
            .collect(),
        Item::Enum(e) => vec![e.name.text.as_str()],
        Item::Type(t) => vec![t.name.text.as_str()],
        Item::Reading(r) => vec![r.name.text.as_str()],
        Item::Native(NativeDecl::Prim { name, aliases, .. }) => std::iter::once(name)
            .chain(aliases.iter())
            .map(|n| n.text.as_str())
            .collect(),
        Item::Native(NativeDecl::Bind { name, .. }) => vec![name.text.as_str()],
        Item::Example(e) => vec![e.name.as_str()],
        Item::Theorem(t) => vec![t.name.as_str()],
        Item::Use(_) => vec![],
    }
}

/// Whether an item of `it`'s kind names `name` (as [`item_names`] does, without a list made).
fn item_named(x: &Item, it: &Item, name: &str) -> bool {
    if !same_kind(x, it) {
        return false;
    }
    let among = |n: &ast::Name, aliases: &[ast::Name]| {
        n.text == name || aliases.iter().any(|a| a.text == name)
    };
    match x {
        Item::Def(d) => among(&d.name, &d.aliases),
        Item::Native(NativeDecl::Prim {
            name: n, aliases, ..
        }) => among(n, aliases),
        _ => item_names(x).contains(&name),
    }
}

/// What the REPL says of an item typed: defined, in place of the rule files' one if they have
/// one of its name.
fn defined(it: &Item, name: &str, from_file: bool) -> String {
    if from_file {
        format!(
            "{} `{name}` defined (in place of the rule files' one for this session)",
            item_kind(it)
        )
    } else {
        format!("{} `{name}` defined", item_kind(it))
    }
}

fn item_kind(it: &Item) -> &'static str {
    match it {
        Item::Def(_) => "definition",
        Item::Enum(_) => "enum",
        Item::Type(_) => "type",
        Item::Reading(_) => "reading",
        Item::Native(_) => "native",
        Item::Example(_) => "example",
        Item::Theorem(_) => "theorem",
        Item::Use(_) => "use",
    }
}

fn same_kind(a: &Item, b: &Item) -> bool {
    std::mem::discriminant(a) == std::mem::discriminant(b)
        || matches!(
            (a, b),
            (Item::Def(_), Item::Native(_)) | (Item::Native(_), Item::Def(_))
        )
}

/// Files' items with the REPL's items in place of same-named ones.
fn assemble(files: &[RuleFile], items: &[Item]) -> Vec<ast::File> {
    let replaced = |it: &Item| {
        items
            .iter()
            .any(|r| same_kind(it, r) && item_names(it).iter().any(|n| item_names(r).contains(n)))
    };
    let mut out: Vec<ast::File> = files
        .iter()
        .map(|f| ast::File {
            items: f
                .ast
                .items
                .iter()
                .filter(|it| !replaced(it))
                .cloned()
                .collect(),
        })
        .collect();
    out.push(ast::File {
        items: items.to_vec(),
    });
    out
}

/// Whether a build stopped because Ctrl-C interrupted it.
fn was_interrupted(ds: &[Diag]) -> bool {
    ds.iter().any(|d| d.code == code::INTERRUPTED)
}

impl Session {
    pub fn new(paths: Vec<PathBuf>, color: bool) -> Session {
        Session::on(paths, false, color)
    }

    /// A session on shipped rule files named by their path under the shipped folder
    /// (`rules/variants/minishogi.rule`: `okite repl --variant minishogi`).
    pub fn new_shipped(paths: Vec<PathBuf>, color: bool) -> Session {
        Session::on(paths, true, color)
    }

    /// A session on `paths` (the shipped rules when none), read from the shipped files where
    /// `shipped_named`.
    fn on(paths: Vec<PathBuf>, shipped_named: bool, color: bool) -> Session {
        let shipped = paths.is_empty() || shipped_named;
        let paths = if paths.is_empty() {
            vec![PathBuf::from(crate::shipped::FOLDER)]
        } else {
            paths
        };
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse().ok())
            .unwrap_or(100);
        Session {
            paths,
            shipped,
            files: vec![],
            items: vec![],
            sources: SourceMap::default(),
            prog: Program::build(vec![], SourceMap::default(), &Natives::standard())
                .unwrap_or_else(|_| panic!("the empty program checks")),
            reading: "base".into(),
            run_opts: RunOpts::parse_default(),
            shogi: None,
            board: None,
            go: None,
            current: None,
            color,
            width,
            inputs: 0,
            pending: vec![],
            errors: std::cell::Cell::new(0),
            reload_note: None,
            interrupt: None,
            before: None,
            extended: vec![],
        }
    }

    fn diags(&self, ds: &[Diag], sources: &SourceMap) {
        if ds.iter().any(|d| d.is_error()) {
            self.errors.set(self.errors.get() + 1);
        }
        eprint!("{}", render(ds, sources, self.width, self.color));
    }

    /// A line of input that is not UTF-8 text: said (E0006) and counted as an error; the
    /// session goes on with the next line.
    pub fn not_text(&self, at: usize) {
        let d = Diag::error(
            code::NOT_TEXT,
            format!("this input line is not UTF-8 text (an invalid byte at offset {at}): skipped"),
        )
        .help("okite reads UTF-8 text");
        self.diags(&[d], &SourceMap::default());
    }

    /// An input longer than `limit` bytes (`n`): said (E0013) and counted as an error; the
    /// session goes on with the next line.
    pub fn too_long(&self, n: usize, limit: usize) {
        let d = Diag::error(
            code::INPUT_TOO_LONG,
            format!(
                "an input of {n} bytes, more than the {} MiB okite reads at once: skipped",
                limit >> 20
            ),
        )
        .help("write long definitions in a rule file and :load it");
        self.diags(&[d], &SourceMap::default());
    }

    /// The exit status: 1 when a piped script had errors.
    pub fn status(&self, tty: bool) -> i32 {
        if !tty && self.errors.get() > 0 {
            1
        } else {
            0
        }
    }

    pub fn empty_program(&self) -> Program {
        Program::build(vec![], SourceMap::default(), &Natives::standard())
            .unwrap_or_else(|_| panic!("the empty program checks"))
    }

    /// Build a program from the files and the REPL's items.
    pub fn build(&self) -> Result<Program, (SourceMap, Vec<Diag>)> {
        Program::build(
            assemble(&self.files, &self.items),
            self.sources.clone(),
            &Natives::standard(),
        )
    }

    /// Build a program from `files` and `items`; within [`interruptible_by`], Ctrl-C stops the
    /// check (E0305).
    fn build_with(
        &self,
        files: &[RuleFile],
        items: &[Item],
    ) -> Result<Program, (SourceMap, Vec<Diag>)> {
        Program::build_interruptible(
            assemble(files, items),
            self.sources.clone(),
            &Natives::standard(),
            self.interrupt.clone(),
        )
    }

    /// Whether the twin of the program only needs the definitions typed since it was made (its
    /// definitions keep their ids, and the memo of their evaluator stands but for what changed).
    pub fn twin_extends(&self) -> bool {
        !self.extended.is_empty()
    }

    /// The evaluator's twin of the session's program: `old` changed in place as the session's
    /// was since, when that is how it changed (then the definitions whose meaning may have
    /// changed: the ids of all stand), or else built alike ([`Session::build_twin`]).
    pub fn next_twin(&mut self, old: Option<Program>) -> (Built, Option<Vec<DefId>>) {
        let extended = std::mem::take(&mut self.extended);
        if let Some(mut p) = old.filter(|_| !extended.is_empty()) {
            let mut changed = vec![];
            let took = extended.iter().all(|f| match p.change_in_place(f) {
                Ok(c) => {
                    changed.extend(c);
                    true
                }
                Err(_) => false,
            });
            if took {
                let have = p.sources.files.len();
                p.sources
                    .files
                    .extend(self.sources.files.iter().skip(have).cloned());
                self.before = None;
                return (Ok(p), Some(changed));
            }
            // the session's program is built afresh too, to number its names as the twin does
            if let Ok(p) = self.build() {
                self.prog = p;
            }
        }
        (self.build_twin(), None)
    }

    /// The evaluator's twin of the session's program, built alike. When Ctrl-C stops that build,
    /// the session goes back to what it was before its program last changed (the `:load`,
    /// `:reload` or definition is undone) and the twin of that program is built instead.
    pub fn build_twin(&mut self) -> Result<Program, (SourceMap, Vec<Diag>)> {
        let twin = interruptible_by(self.interrupt.clone().as_ref(), || {
            self.build_with(&self.files, &self.items)
        });
        match twin {
            Err((_, ds)) if self.before.is_some() && was_interrupted(&ds) => {
                if let Some(b) = self.before.take() {
                    let Before {
                        paths,
                        files,
                        items,
                        sources,
                        prog,
                    } = *b;
                    self.paths = paths;
                    self.files = files;
                    self.items = items;
                    self.sources = sources;
                    self.prog = prog;
                }
                self.pending.clear();
                self.reload_note = None;
                println!("interrupted; the rules were kept as they were");
                self.build()
            }
            twin => {
                self.before = None;
                twin
            }
        }
    }

    /// `p` becomes the session's program; what the session was is kept until its twin is built.
    fn change_program(&mut self, p: Program) {
        let prog = std::mem::replace(&mut self.prog, p);
        self.before = Some(Box::new(Before {
            paths: self.paths.clone(),
            files: self.files.clone(),
            items: self.items.clone(),
            sources: self.sources.clone(),
            prog,
        }));
    }

    /// Says a check stopped by Ctrl-C, or else the diagnostics; true when it was stopped.
    fn build_failed(&self, ds: &[Diag], sources: &SourceMap) -> bool {
        if was_interrupted(ds) {
            println!("interrupted; the rules were kept as they were");
            return true;
        }
        self.diags(ds, sources);
        false
    }

    /// Where the session's rule files are read from: the shipped files when none were named.
    fn files_from(&self) -> &'static dyn Files {
        if self.shipped {
            &ShippedAndDisk
        } else {
            &Disk
        }
    }

    /// Read the rule files of `paths` (following `use`); files whose text did not change keep
    /// their parsed form.
    fn read_files(&mut self, paths: &[PathBuf]) -> Result<Vec<RuleFile>, Vec<Diag>> {
        let (files, errs) = read_all_interruptible(
            self.files_from(),
            paths,
            &mut self.sources,
            &self.files,
            self.interrupt.as_ref(),
        );
        if errs.is_empty() {
            Ok(files)
        } else {
            Err(errs)
        }
    }

    /// Read `paths` and make them the session's rule files if they check; true when they do.
    fn adopt(&mut self, paths: &[PathBuf]) -> bool {
        let files = match self.read_files(paths) {
            Ok(f) => f,
            Err(ds) => {
                // Ctrl-C while a large file is parsed: said as an interrupted check is
                self.build_failed(&ds, &self.sources);
                return false;
            }
        };
        match self.build_with(&files, &self.items) {
            Ok(p) => {
                self.change_program(p);
                self.files = files;
                self.sources = self.prog.sources.clone();
                true
            }
            Err((sources, ds)) => {
                if self.build_failed(&ds, &sources) {
                    return false;
                }
                let n = ds.iter().filter(|d| d.is_error()).count();
                eprintln!(
                    "error: {n} error{} in the rule files",
                    if n == 1 { "" } else { "s" }
                );
                false
            }
        }
    }

    /// Start under the reading `name` (`okite repl --reading`), or say that the rules lack it.
    pub fn start_reading(&mut self, name: &str) {
        if self.prog.reading_id(name).is_some() {
            self.reading = name.to_string();
        } else {
            fail!(
                self,
                "error: no reading `{name}` in the rules loaded; the session is under base (:reading lists them)"
            );
        }
    }

    pub fn load_initial(&mut self) {
        let paths = self.paths.clone();
        if self.adopt(&paths) {
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                println!("{}", self.summary());
            }
        } else {
            eprintln!("(no rules loaded; fix them and :reload)");
        }
    }

    fn summary(&self) -> String {
        format!(
            "loaded {} file{}{}: {} definitions, {} readings",
            self.files.len(),
            if self.files.len() == 1 { "" } else { "s" },
            match (self.shipped, self.paths.len()) {
                (true, 1) => " (the built-in rules)",
                (true, _) => " (the built-in rules and those loaded)",
                _ => "",
            },
            self.prog.keys.len(),
            self.prog.readings.len()
        )
    }

    /// The names for completion and hints.
    pub fn names(&self) -> Names {
        let p = &self.prog;
        let defs = p
            .key_names
            .iter()
            .map(|(n, k)| (n.clone(), p.signature(*k)))
            .collect();
        Names {
            defs,
            readings: p.reading_names.keys().cloned().collect(),
            others: p.all_names(),
        }
    }

    fn reading_id(&self) -> crate::ir::ReadingId {
        self.prog.reading_id(&self.reading).unwrap_or(BASE)
    }

    /// Settings of a new evaluator.
    pub fn configure(&mut self, ev: &mut Evaluator) {
        self.run_opts.apply(ev);
        if self.prog.reading_id(&self.reading).is_none() {
            self.reading = "base".into();
        }
        ev.set_reading(self.reading_id());
    }

    fn add_source(&mut self, name: String, text: &str) -> u32 {
        let a = self.sources.add(name.clone(), None, text.to_string());
        let b = self.prog.sources.add(name, None, text.to_string());
        debug_assert_eq!(a, b);
        a
    }

    fn input_source(&mut self, text: &str) -> u32 {
        let name = format!("<input {}>", self.inputs);
        self.add_source(name, text)
    }

    /// One input: a command, definitions or an expression.
    pub fn handle(&mut self, text: &str, ev: &mut Evaluator) -> Flow {
        self.inputs += 1;
        let t = text.trim();
        if t.lines()
            .all(|l| l.trim().is_empty() || l.trim_start().starts_with("//"))
        {
            return Flow::Continue;
        }
        if let Some(rest) = t.strip_prefix(':') {
            let (cmd, arg) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            // the argument's offset in the text, for errors pointing into it
            let arg_off = text.len() - text.trim_start().len() + 1 + cmd.len();
            let arg_off = arg_off + text[arg_off..].len() - text[arg_off..].trim_start().len();
            return self.command(cmd, arg, text, arg_off, ev);
        }
        // `exit` and `quit` alone leave, as in most shells (unless the rules name them)
        if matches!(t, "exit" | "quit") && self.prog.key_of(t).is_none() {
            return Flow::Quit;
        }
        let fid = self.input_source(text);
        let parsed = match parse_repl(text, fid) {
            // `let x = 3` alone (no `in`): the name is defined for the session, as `def x = 3`
            Err(_) if is_session_let(t) => {
                let as_def = format!("def {}", &text.trim_start()["let ".len()..]);
                let fid = self.input_source(&as_def);
                parse_repl(&as_def, fid)
            }
            r => r,
        };
        match parsed {
            Err(ds) => {
                self.diags(&ds, &self.prog.sources);
                Flow::Continue
            }
            Ok(ReplInput::Expr(e)) => {
                if let Some(q) = self.compile_expr(&e) {
                    let r = interruptible(ev, |ev| ev.eval_query(&q));
                    match r {
                        Ok(v) => println!("{}", self.show(&v)),
                        Err(e) => self.eval_error(e, ev),
                    }
                }
                Flow::Continue
            }
            Ok(ReplInput::Items(items)) => self.define(items),
        }
    }

    fn define(&mut self, new: Vec<Item>) -> Flow {
        if new.iter().any(|i| matches!(i, Item::Use(_))) {
            fail!(
                self,
                "error: `use` is for rule files; at the prompt, write :load PATH"
            );
            return Flow::Continue;
        }
        if self.prog.changes_in_place(&new) {
            let adds = self.prog.extends_with(&new);
            let file = ast::File { items: new };
            if self.prog.change_in_place(&file).is_ok() {
                for it in &file.items {
                    let name = item_names(it).first().map(|n| n.to_string());
                    let name = name.unwrap_or_default();
                    // a new name is in no file and no earlier input
                    let from_file = !adds
                        && self
                            .files
                            .iter()
                            .any(|f| f.ast.items.iter().any(|x| item_named(x, it, &name)));
                    println!("{}", defined(it, &name, from_file));
                    if matches!(it, Item::Example(_) | Item::Theorem(_)) {
                        self.pending.push(name.clone());
                    }
                    if !adds {
                        self.items.retain(|x| !item_named(x, it, &name));
                    }
                    self.items.push(it.clone());
                }
                self.extended.push(file);
                return Flow::Rebuild;
            }
            // the program is part-extended: it is built again as it was, and the build of the
            // whole text below says what is wrong; the twin is then built afresh too (the
            // programs number their names alike only when both are built the same way)
            self.prog = self.build().unwrap_or_else(|_| self.empty_program());
            self.extended.clear();
            return match self.define_afresh(file.items) {
                Flow::Continue => Flow::Rebuild,
                flow => flow,
            };
        }
        self.define_afresh(new)
    }

    /// Definitions that replace or change what the program has: the whole text is built again.
    fn define_afresh(&mut self, new: Vec<Item>) -> Flow {
        let mut items = self.items.clone();
        let mut notes = vec![];
        let mut pending = vec![];
        for it in new {
            let names: Vec<String> = item_names(&it).iter().map(|s| s.to_string()).collect();
            let from_file = self.files.iter().any(|f| {
                f.ast.items.iter().any(|x| {
                    same_kind(x, &it) && item_names(x).iter().any(|n| names.iter().any(|m| m == n))
                })
            });
            items.retain(|x| {
                !(same_kind(x, &it) && item_names(x).iter().any(|n| names.iter().any(|m| m == n)))
            });
            let name = names.first().cloned().unwrap_or_default();
            notes.push(defined(&it, &name, from_file));
            if matches!(it, Item::Example(_) | Item::Theorem(_)) {
                pending.push(name.clone());
            }
            items.push(it);
        }
        let built = interruptible_by(self.interrupt.clone().as_ref(), || {
            self.build_with(&self.files, &items)
        });
        match built {
            Ok(p) => {
                self.change_program(p);
                self.items = items;
                self.sources = self.prog.sources.clone();
                for n in notes {
                    println!("{n}");
                }
                self.pending = pending;
                Flow::Rebuild
            }
            Err((sources, ds)) => {
                self.diags(&ds, &sources);
                Flow::Continue
            }
        }
    }

    /// Run the examples and theorems just typed, on the rebuilt program.
    pub fn run_pending(&mut self, ev: &mut Evaluator) {
        for name in std::mem::take(&mut self.pending) {
            let outcomes = interruptible(ev, |ev| crate::eval::run::run_where(ev, &|n| n == name));
            for o in &outcomes {
                match &o.failure {
                    None if o.kind == "theorem" => {
                        println!("ok    theorem \"{}\" ({} cases)", o.name, o.cases)
                    }
                    None => println!("ok    {} \"{}\"", o.kind, o.name),
                    Some(d) => {
                        println!("FAIL  {} \"{}\": {}", o.kind, o.name, d.message);
                        self.diags(std::slice::from_ref(d), &self.prog.sources);
                    }
                }
            }
        }
        ev.set_reading(self.reading_id());
    }

    /// `g` and `i` for the shogi game, `G` and `c` for the Go board.
    fn bound(&self) -> Result<Vec<(String, Value, String)>, String> {
        let mut b = vec![];
        let alias = |n: &str| {
            if self.prog.all_names().iter().any(|x| x == n) || self.has_type(n) {
                n.to_string()
            } else {
                String::new()
            }
        };
        if let Some(sg) = &self.shogi {
            let names = crate::natives::shogi::Names::new(&NativeCtx { enums: &self.prog })
                .map_err(|m| format!("the rules loaded cannot hold shogi states: {m}"))?;
            let states: Vec<Value> = sg.positions.iter().map(|p| names.state(p)).collect();
            let n = states.len() as i64;
            b.push(("g".to_string(), Value::seq(states), alias("Game")));
            b.push(("i".to_string(), Value::Int(n), "Int".to_string()));
        }
        if let Some((n, v, ty)) = self.board_bound()? {
            b.push((n, v, alias(&ty)));
        }
        if let Some(go) = &self.go {
            let g = &go.graph;
            let graph: BTreeMap<Value, Value> = (0..g.n)
                .map(|v| {
                    let ns: BTreeSet<Value> = g.adjacency[v]
                        .iter()
                        .map(|w| Value::Int(w as i64 + 1))
                        .collect();
                    (Value::Int(v as i64 + 1), Value::set(ns))
                })
                .collect();
            let config: BTreeMap<Value, Value> = (0..g.n)
                .map(|v| (Value::Int(v as i64 + 1), Value::Int(go.board.get(v) as i64)))
                .collect();
            b.push(("G".to_string(), Value::map(graph), alias("Graph")));
            b.push(("c".to_string(), Value::map(config), alias("Config")));
        }
        Ok(b)
    }

    fn has_type(&self, n: &str) -> bool {
        self.files.iter().any(|f| {
            f.ast
                .items
                .iter()
                .any(|it| matches!(it, Item::Type(t) if t.name.text == n))
        }) || self
            .items
            .iter()
            .any(|it| matches!(it, Item::Type(t) if t.name.text == n))
    }

    fn compile_expr(&mut self, e: &ast::Expr) -> Option<Query> {
        let bound = match self.bound() {
            Ok(b) => b,
            Err(m) => {
                fail!(self, "error: {m}");
                return None;
            }
        };
        match self.prog.compile_query(e, &bound) {
            Ok(q) => Some(q),
            Err(ds) => {
                self.diags(&ds, &self.prog.sources);
                None
            }
        }
    }

    /// Parse and compile an expression given to a command, at `off` in the input `line`.
    fn compile_text(&mut self, line: &str, off: usize, expr: &str) -> Option<Query> {
        if expr.trim().is_empty() {
            fail!(self, "error: an expression is needed here");
            return None;
        }
        // the whole line is the source, so that errors show it; the expression is parsed alone
        let fid = self.input_source(line);
        let padded = format!("{}{}", " ".repeat(off), expr);
        match parse_expr(&padded, fid) {
            Ok(e) => self.compile_expr(&e),
            Err(ds) => {
                self.diags(&ds, &self.prog.sources);
                None
            }
        }
    }

    fn eval_error(&self, e: EvalError, ev: &Evaluator) {
        if e.kind == ErrKind::Interrupted {
            println!("interrupted (memo tables kept: {} entries)", ev.memo_len());
        } else {
            self.diags(&[*e.diag], &self.prog.sources);
        }
    }

    /// A value for people: shogi states as diagrams, others compactly, definitions by name.
    fn show(&self, v: &Value) -> String {
        crate::front::naming_definitions(&self.prog, || self.show_named(v))
    }

    fn show_named(&self, v: &Value) -> String {
        if matches!(v, Value::Tuple(t) if t.len() == 2) {
            if let Ok(names) = crate::natives::shogi::Names::new(&NativeCtx { enums: &self.prog }) {
                if let Ok(p) = names.position(v) {
                    return format!("{}sfen {}", p.diagram(), p.to_sfen());
                }
            }
        }
        match v {
            Value::Native(_) => display_value(v),
            Value::Seq(_) | Value::Tuple(_) | Value::Map(_) | Value::Set(_) => {
                crate::natives::show(&self.prog, v, 4000)
            }
            _ => crate::front::display_value_in(&self.prog, v),
        }
    }

    fn reload(&mut self, ev: &mut Evaluator) -> Flow {
        let old: Vec<(PathBuf, String)> = self
            .files
            .iter()
            .map(|f| (f.path.clone(), f.text.clone()))
            .collect();
        let files = match self.read_files(&self.paths.clone()) {
            Ok(f) => f,
            Err(ds) => {
                if !self.build_failed(&ds, &self.sources) {
                    println!("the rules were kept as they were");
                }
                return Flow::Continue;
            }
        };
        let new: Vec<(PathBuf, String)> = files
            .iter()
            .map(|f| (f.path.clone(), f.text.clone()))
            .collect();
        if old == new {
            println!(
                "no rule file changed; memo tables kept ({} entries)",
                ev.memo_len()
            );
            return Flow::Continue;
        }
        let changed: Vec<String> = new
            .iter()
            .filter(|n| !old.contains(n))
            .map(|n| n.0.display().to_string())
            .chain(
                old.iter()
                    .filter(|o| !new.iter().any(|n| n.0 == o.0))
                    .map(|o| format!("{} (gone)", o.0.display())),
            )
            .collect();
        match self.build_with(&files, &self.items) {
            Ok(p) => {
                self.change_program(p);
                self.files = files;
                self.sources = self.prog.sources.clone();
                self.reload_note = Some(format!("reloaded ({} changed)", changed.join(", ")));
                Flow::Rebuild
            }
            Err((sources, ds)) => {
                if !self.build_failed(&ds, &sources) {
                    println!("the rules were kept as they were");
                }
                Flow::Continue
            }
        }
    }

    fn compare(&mut self, arg: &str, line: &str, off: usize, ev: &mut Evaluator) {
        let (depth, arg, off) = match depth_option(arg, off) {
            Ok(x) => x,
            Err(m) => {
                fail!(self, "{m}");
                return;
            }
        };
        let (rs, expr, eoff) = match arg.find(char::is_whitespace) {
            Some(i) => {
                let e = arg[i..].trim_start();
                (&arg[..i], e, off + arg.len() - e.len())
            }
            None => {
                fail!(
                    self,
                    "error: :compare needs readings and an expression: :compare narrow,broad EXPR"
                );
                return;
            }
        };
        let mut readings = vec![];
        for name in rs.split(',').filter(|s| !s.is_empty()) {
            match self.prog.reading_or_error(name) {
                Ok(r) => readings.push((name.to_string(), r)),
                Err(d) => {
                    self.diags(&[d], &self.prog.sources);
                    return;
                }
            }
        }
        if readings.is_empty() {
            fail!(
                self,
                "error: :compare needs at least one reading before the expression: :compare narrow,broad EXPR"
            );
            return;
        }
        let Some(q) = self.compile_text(line, eoff, expr) else {
            return;
        };
        let mut rows = vec![];
        let saved = ev.reading();
        for (name, r) in readings {
            ev.set_reading(r);
            let (res, tree) = interruptible(ev, |ev| ev.explain_query(&q));
            match res {
                Ok(v) => rows.push((name, v, tree)),
                Err(e) => {
                    ev.set_reading(saved);
                    self.eval_error(e, ev);
                    return;
                }
            }
        }
        ev.set_reading(saved);
        let w = crate::front::column_width(rows.iter().map(|r| r.0.as_str()), 7);
        println!("{:w$}  value", "reading");
        for (n, v, _) in &rows {
            println!("{n:w$}  {}", self.show(v));
        }
        if rows.windows(2).any(|p| p[0].1 != p[1].1) {
            for (n, v, tree) in &rows {
                println!("\nwhy {expr} = {} under {n}:", self.show(v));
                print!("{}", explain::render(tree, &self.prog, depth));
            }
        } else {
            println!("(the readings agree)");
        }
    }
}

/// `--depth N` (or `-d N`) before the argument of :explain and :compare: how many levels of
/// explanation to print (4 without it); the rest of the argument and its offset.
#[expect(clippy::expect_used, reason = "matched just above")]
fn depth_option(arg: &str, off: usize) -> Result<(usize, &str, usize), String> {
    let toks = tokens(arg, 0);
    let level = |at: usize, n: &str| {
        n.parse::<usize>().ok().map(|d| {
            let rest = arg[at + n.len()..].trim_start();
            (d, rest, off + arg.len() - rest.len())
        })
    };
    match toks.as_slice() {
        // `-d` is the option only before a number: `-d * 2` is an expression (a negation)
        [(_, "-d"), (at, n), ..] if level(*at, n).is_some() => Ok(level(*at, n).expect("a level")),
        [(_, "--depth"), (at, n), ..] => level(*at, n).ok_or_else(|| {
            format!("error: --depth takes a number of levels (0, 1, 2, ...), not `{n}`")
        }),
        [(_, "--depth")] => Err("error: --depth takes a number of levels".into()),
        _ => Ok((4, arg, off)),
    }
}

/// `1 move`, `2 moves`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Whitespace-separated tokens of `s` with their offsets (plus `off`).
/// The position of `:sfen`'s tokens (not empty) and the moves after it: `startpos`, or an SFEN's
/// board, side and hands and its move number where one is written, with its offset in `line`;
/// then the moves, a leading `moves` dropped.
fn sfen_and_moves<'t, 'a>(
    toks: &'t [(usize, &'a str)],
    line: &str,
) -> (String, usize, &'t [(usize, &'a str)]) {
    let at = toks[0].0;
    let (sfen, rest) = if toks[0].1 == "startpos" {
        ("startpos".to_string(), &toks[1..])
    } else {
        let mut n = toks.len().min(3);
        if toks.len() > 3 && toks[3].1.parse::<u32>().is_ok() {
            n = 4;
        }
        let end = toks[n - 1].0 + toks[n - 1].1.len();
        (line[at..end].to_string(), &toks[n..])
    };
    let rest = match rest.first() {
        Some((_, "moves")) => &rest[1..],
        _ => rest,
    };
    (sfen, at, rest)
}

fn tokens(s: &str, off: usize) -> Vec<(usize, &str)> {
    let mut out = vec![];
    let mut start = None;
    for (i, c) in s.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(b)) => {
                out.push((off + b, &s[b..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(b) = start {
        out.push((off + b, &s[b..]));
    }
    out
}

fn moves_between(ps: &[Position]) -> Vec<String> {
    ps.windows(2)
        .map(|w| {
            w[0].pseudo_legal_moves()
                .into_iter()
                .find(|m| w[0].after(*m) == w[1])
                .map(|m| m.to_usi())
                .unwrap_or_else(|| "?".into())
        })
        .collect()
}

/// Whether `t` is `let NAME = ...` with no `in`: a name the session is to define.
pub(crate) fn is_session_let(t: &str) -> bool {
    let Some(rest) = t.strip_prefix("let ") else {
        return false;
    };
    let rest = rest.trim_start();
    let name_len = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    name_len > 0
        && rest[name_len..].trim_start().starts_with('=')
        && !rest[name_len..].trim_start().starts_with("==")
}
