//! A USI engine loop for mate search (`go mate`).
//!
//! Understood: `usi`, `isready`, `setoption name USI_Hash value N` (MiB, the whole table
//! whatever the threads), `setoption name Threads value N` (threads searching together, sharing
//! the table), `setoption name MateLength value shortest|any`, `setoption name Reading value narrow-check|
//! narrow|broad|broad-check`, `usinewgame`, `position ...` (the moves count as the game's history
//! under the broad readings), `go mate <ms|infinite>` (answered with `info` lines and
//! `checkmate <moves>`, `checkmate nomate` or `checkmate timeout`), `go ...` otherwise (answered
//! with `bestmove` of a mate in one or `resign`), `stop` (ends the running search, which then
//! answers), `gameover`, `ponderhit`, `quit`. The search runs on its own thread, so every command
//! is read while it runs: `isready` is answered at once; `position`, `go`, `setoption` and
//! `usinewgame`, which the protocol expects only after the search has answered, end it first (it
//! answers, then the command is carried out), so that a GUI that sends them early is never left
//! waiting; the end of the input ends the search and the loop. Unknown or malformed commands
//! produce an `info string` line; the loop never panics on input. After a `position` command
//! that fails (a bad SFEN, an illegal move, a line that is not UTF-8 or too long to read) there is no position until the next one succeeds:
//! `go mate` then answers `checkmate timeout` (the tsume protocol's answer when no answer was
//! found: it claims neither that there is no mate, as `nomate` would, nor that the engine has no
//! mate search, as `notimplemented` would) and `go` answers `bestmove resign`, each after an
//! `info string error` that says why; never a result for the position before.
//!
//! With board variants offered (`usi_loop_boards`), `setoption name UCI_Variant value NAME` (as
//! Fairy-Stockfish names the option) plays that variant: `position` is read in its geometry and
//! `go mate` is its mate search; `value shogi` goes back to shogi.

use super::dfpn::{MateLength, MateOptions, MateSolver, MateStatus, Progress, MAX_THREADS};
use super::mate1::mate_in_1;
use super::position::Position;
use super::readings::Reading;
use super::usi::parse_position_command;
use super::variant::{
    DropMate, MateLimits as BoardLimits, MateOutcome as BoardOutcome, MateResult as BoardResult,
    VPos, Variant,
};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// Writes a line to the shared output.
fn say<W: Write>(out: &Mutex<W>, line: &str) -> std::io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    writeln!(w, "{line}")?;
    w.flush()
}

/// The answer to a `go` that no search answers: `mate` (`go mate`'s answer), else `bestmove
/// resign`, held back (returned, to be said when the search is told to end) after `go
/// infinite` or `go ponder`.
fn go_unanswered<W: Write>(
    out: &Mutex<W>,
    args: &[&str],
    mate: &str,
) -> std::io::Result<Option<String>> {
    if args.first() == Some(&"mate") {
        say(out, mate)?;
    } else if args.iter().any(|a| *a == "infinite" || *a == "ponder") {
        return Ok(Some("bestmove resign".into()));
    } else {
        say(out, "bestmove resign")?;
    }
    Ok(None)
}

/// What a search under a variant is given besides the game and the stop flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantLimits {
    /// The time limit in milliseconds (0: none).
    pub ms: u64,
    /// Any mate will do (else the shortest).
    pub any: bool,
    /// The memory of the search's tables, in MiB (`USI_Hash`).
    pub hash_mb: usize,
}

/// A search under a variant, run on the search thread: the game so far (oldest first), its
/// limits, and the stop flag.
pub type VariantSearch = Arc<
    dyn Fn(&[Position], VariantLimits, Arc<AtomicBool>) -> Result<super::dfpn::MateResult, String>
        + Send
        + Sync,
>;

/// What the search follows: a native reading, or a variant searched by the caller's function.
#[derive(Clone)]
pub enum Follow {
    Native(Reading),
    Variant(VariantSearch),
}

/// Reads a move of a variant's own rules: the position after the USI move `text` from `p`, or
/// why it is no move there.
pub type MovesReader = Box<dyn Fn(&Position, &str) -> Result<Position, String>>;

/// Why the search may not follow the options, and, where the rules' moves are not the shipped
/// generator's, how their moves are read: `position` then plays the rules' own moves (a move
/// the variant adds is played, one it takes away refused), and `go mate` answers `checkmate
/// notimplemented` with the reason.
pub struct Refused {
    pub why: String,
    pub moves: Option<MovesReader>,
}

impl From<String> for Refused {
    fn from(why: String) -> Self {
        Refused { why, moves: None }
    }
}

/// Decides what the search follows, from the options `Rules` (a path, or empty for the default
/// rules) and `Reading`; an error says why the search may not follow them.
pub type Resolver<'a> = &'a dyn Fn(&str, &str) -> Result<Follow, Refused>;

/// The largest transposition table `setoption name USI_Hash` takes, in MiB: the command line's
/// default bound on resident memory (`--max-resident-mb`), since the table is made resident as
/// the search fills it.
pub const MAX_HASH_MB: usize = 4096;

/// The longest command read (a `position` of 100,000 moves is about 500 KiB): a longer line is
/// read to its end without being kept and answered with an `info string`.
pub const MAX_LINE_BYTES: usize = 4 << 20;

/// Runs the engine until `quit` or the end of the input. Output errors end the loop. Readings
/// are the four native ones by name; no rule files.
pub fn usi_loop<W: Write + Send>(input: impl BufRead, output: W) -> std::io::Result<()> {
    let named = |rules: &str, name: &str| -> Result<Follow, Refused> {
        if !rules.is_empty() {
            return Err("this engine reads no rule files".to_string().into());
        }
        Reading::named(name)
            .map(Follow::Native)
            .ok_or_else(|| format!("unknown reading {name}").into())
    };
    usi_loop_with(input, output, &named)
}

/// The same, with the readings and rule files resolved by `resolve`. While the options name
/// rules or a reading the search cannot follow, `go mate` answers `checkmate notimplemented`
/// (never a result under other rules) and says why in an `info string`.
pub fn usi_loop_with<W: Write + Send>(
    input: impl BufRead,
    output: W,
    resolve: Resolver<'_>,
) -> std::io::Result<()> {
    usi_loop_boards(input, output, resolve, &[], &|name: &str| {
        Err(format!("no board variant `{name}` here"))
    })
}

/// Finds a board variant by the name the option `UCI_Variant` gives (as Fairy-Stockfish calls
/// it, for variant GUIs).
pub type BoardResolver<'a> = &'a dyn Fn(&str) -> Result<Variant, String>;

/// The same, with the option `UCI_Variant` offering `boards` (besides `shogi`, the default):
/// under a board variant, `position` is read in its geometry and `go mate` is its mate search.
pub fn usi_loop_boards<W: Write + Send>(
    input: impl BufRead,
    output: W,
    resolve: Resolver<'_>,
    boards: &[&str],
    board_of: BoardResolver<'_>,
) -> std::io::Result<()> {
    let out = Mutex::new(output);
    let mut engine = Engine::new(resolve, boards, board_of);
    std::thread::scope(|scope| -> std::io::Result<()> {
        let mut running: Option<Running<'_>> = None;
        let mut input = input;
        // the answer of a `go infinite` not yet given
        let mut deferred: Option<String> = None;
        loop {
            let line = match engine.read_line(&mut input, &out, &mut running)? {
                Read::End => break,
                Read::Skipped => continue,
                Read::Line(l) => l,
            };
            let line = line.trim();
            let mut words = line.split_whitespace();
            let Some(cmd) = words.next() else { continue };
            // the answer of a `go infinite` (or `go ponder`) is held until the search is told
            // to end: by `stop` or `ponderhit`, or by a command that starts anew
            if matches!(
                cmd,
                "stop"
                    | "ponderhit"
                    | "gameover"
                    | "quit"
                    | "position"
                    | "go"
                    | "setoption"
                    | "usinewgame"
            ) {
                if let Some(answer) = deferred.take() {
                    say(&out, &answer)?;
                }
            }
            match cmd {
                "usi" => engine.greet(&out)?,
                "isready" => say(&out, "readyok")?,
                "stop" | "gameover" | "usinewgame" => engine.finish(&mut running),
                "quit" => {
                    engine.finish(&mut running);
                    break;
                }
                "ponderhit" => {}
                "setoption" => {
                    engine.finish(&mut running);
                    let rest: Vec<&str> = words.collect();
                    engine.set_option(&out, &rest, line)?;
                }
                "position" => {
                    engine.finish(&mut running);
                    engine.position(&out, line)?;
                }
                "go" => {
                    engine.finish(&mut running);
                    let args: Vec<&str> = words.collect();
                    let (search, held) = engine.go(scope, &out, &args)?;
                    running = search;
                    deferred = held;
                }
                _ => say(&out, &format!("info string unknown command: {cmd}"))?,
            }
        }
        engine.finish(&mut running);
        if let Some(answer) = deferred.take() {
            say(&out, &answer)?;
        }
        Ok(())
    })?;
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    w.flush()
}

/// The running search: its stop flag and the thread, which hands the solver back.
type Running<'scope> = (
    Arc<AtomicBool>,
    std::thread::ScopedJoinHandle<'scope, Option<MateSolver>>,
);

/// A line of input: read, skipped (unreadable, or too long to keep: said in an `info string`),
/// or the end of the input.
enum Read {
    Line(String),
    Skipped,
    End,
}

/// The engine between commands: the options set, the position, and the table kept from one
/// search to the next.
struct Engine<'a> {
    resolve: Resolver<'a>,
    boards: &'a [&'a str],
    board_of: BoardResolver<'a>,
    /// the board variant of `UCI_Variant`, with its position
    board: Option<(Variant, VPos)>,
    rules_opt: String,
    reading_opt: String,
    refused: Option<String>,
    /// the moves of the rules in force, where they are not the shipped generator's
    rules_moves: Option<MovesReader>,
    /// whether `usi` was read: the engine speaks only after it
    greeted: bool,
    /// the message of a `position` command that failed, until one succeeds
    bad_position: Option<String>,
    variant: Option<VariantSearch>,
    history: Vec<Position>,
    hash_mb: usize,
    threads: usize,
    length: MateLength,
    reading: Reading,
    solver: Option<MateSolver>,
}

impl<'a> Engine<'a> {
    fn new(resolve: Resolver<'a>, boards: &'a [&'a str], board_of: BoardResolver<'a>) -> Self {
        Engine {
            resolve,
            boards,
            board_of,
            board: None,
            rules_opt: String::new(),
            reading_opt: "narrow-check".to_string(),
            refused: None,
            rules_moves: None,
            greeted: false,
            bad_position: None,
            variant: None,
            history: vec![Position::startpos()],
            hash_mb: 64,
            threads: 1,
            length: MateLength::Shortest,
            reading: Reading::NARROW_CHECK,
            solver: None,
        }
    }

    /// Ends the running search, if any (it answers), and keeps the solver it hands back.
    fn finish(&mut self, running: &mut Option<Running<'_>>) {
        if let Some((flag, handle)) = running.take() {
            flag.store(true, Ordering::Relaxed);
            if let Ok(Some(s)) = handle.join() {
                self.solver = Some(s);
            }
        }
    }

    /// The next line of input. A `position` line that cannot be read leaves no position: none
    /// is searched until a `position` is read.
    fn read_line<W: Write>(
        &mut self,
        input: &mut impl BufRead,
        out: &Mutex<W>,
        running: &mut Option<Running<'_>>,
    ) -> std::io::Result<Read> {
        let mut bytes = vec![];
        match crate::lines::read_line_bounded(input, &mut bytes, MAX_LINE_BYTES) {
            Ok(Ok(0)) => Ok(Read::End),
            Ok(Ok(_)) => match String::from_utf8(bytes) {
                Ok(l) => Ok(Read::Line(l)),
                Err(e) => {
                    say(out, "info string unreadable input line (not UTF-8)")?;
                    if crate::lines::first_word(e.as_bytes()) == "position" {
                        self.finish(running);
                        self.bad_position = Some("it was not UTF-8 text".into());
                    }
                    Ok(Read::Skipped)
                }
            },
            Ok(Err(n)) => {
                say(
                    out,
                    &format!(
                        "info string a line of {n} bytes, longer than {} MiB: skipped",
                        MAX_LINE_BYTES >> 20
                    ),
                )?;
                if crate::lines::first_word(&bytes) == "position" {
                    self.finish(running);
                    self.bad_position = Some(format!(
                        "its line of {n} bytes was longer than {} MiB",
                        MAX_LINE_BYTES >> 20
                    ));
                }
                Ok(Read::Skipped)
            }
            Err(_) => {
                say(out, "info string unreadable input line")?;
                Ok(Read::End)
            }
        }
    }

    /// The answer to `usi`: the engine's name and options.
    fn greet<W: Write>(&mut self, out: &Mutex<W>) -> std::io::Result<()> {
        self.greeted = true;
        say(out, "id name okite-mate")?;
        say(out, "id author okite")?;
        say(
            out,
            &format!("option name USI_Hash type spin default 64 min 1 max {MAX_HASH_MB}"),
        )?;
        say(
            out,
            &format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
        )?;
        say(
            out,
            "option name MateLength type combo default shortest var shortest var any",
        )?;
        say(out, "option name Reading type string default narrow-check")?;
        say(out, "option name Rules type string default <empty>")?;
        if !self.boards.is_empty() {
            let vars: Vec<String> = std::iter::once("shogi")
                .chain(self.boards.iter().copied())
                .map(|b| format!("var {b}"))
                .collect();
            say(
                out,
                &format!(
                    "option name UCI_Variant type combo default shogi {}",
                    vars.join(" ")
                ),
            )?;
        }
        say(out, "usiok")
    }

    /// `setoption name N value V` (`rest` is what follows `setoption`).
    fn set_option<W: Write>(
        &mut self,
        out: &Mutex<W>,
        rest: &[&str],
        line: &str,
    ) -> std::io::Result<()> {
        let after = |word: &str| {
            rest.iter()
                .position(|w| *w == word)
                .and_then(|i| rest.get(i + 1))
                .copied()
        };
        let (name, value) = (after("name"), after("value"));
        let boards = !self.boards.is_empty();
        match (name, value) {
            (Some("USI_Hash"), Some(v)) => match v.parse::<usize>() {
                Ok(n) if (1..=MAX_HASH_MB).contains(&n) => {
                    if n != self.hash_mb {
                        self.solver = None;
                    }
                    self.hash_mb = n
                }
                _ => say(
                    out,
                    &format!("info string bad USI_Hash value {v} (from 1 to {MAX_HASH_MB} MiB)"),
                )?,
            },
            (Some("Threads"), Some(v)) => match v.parse::<usize>() {
                Ok(n) if (1..=MAX_THREADS).contains(&n) => self.threads = n,
                _ => say(
                    out,
                    &format!("info string bad Threads value {v} (from 1 to {MAX_THREADS})"),
                )?,
            },
            (Some("UCI_Variant"), Some("shogi")) if boards => self.board = None,
            (Some("UCI_Variant"), Some(v)) if boards => match (self.board_of)(v) {
                Ok(var) => {
                    let start = var.start();
                    self.board = Some((var, start));
                    self.bad_position = None;
                }
                Err(why) => {
                    let why = why.replace('\n', " ");
                    say(out, &format!("info string error: {why}"))?;
                    self.board = None;
                    self.bad_position = Some(why);
                }
            },
            (Some("MateLength"), Some("shortest")) => self.length = MateLength::Shortest,
            (Some("MateLength"), Some("any")) => self.length = MateLength::Any,
            (Some(option @ ("Reading" | "Rules")), v) => {
                let v = v.unwrap_or("");
                let v = if v == "<empty>" { "" } else { v };
                if option == "Reading" {
                    self.reading_opt = v.to_string();
                } else {
                    self.rules_opt = v.to_string();
                }
                self.follow_options(out)?;
            }
            _ => say(out, &format!("info string ignored option: {line}"))?,
        }
        Ok(())
    }

    /// What the search follows under the options `Rules` and `Reading`, or why it cannot.
    fn follow_options<W: Write>(&mut self, out: &Mutex<W>) -> std::io::Result<()> {
        match (self.resolve)(&self.rules_opt, &self.reading_opt) {
            Ok(Follow::Native(r)) => {
                self.reading = r;
                self.variant = None;
                self.refused = None;
                self.rules_moves = None;
            }
            Ok(Follow::Variant(f)) => {
                self.variant = Some(f);
                self.refused = None;
                self.rules_moves = None;
            }
            Err(r) => {
                let why = r.why.replace('\n', " ");
                // (before `usi`, as the options of the command line are set, nothing is said:
                // `go` says it)
                if self.greeted {
                    say(out, &format!("info string error: {why}"))?;
                }
                self.refused = Some(why);
                self.rules_moves = r.moves;
            }
        }
        Ok(())
    }

    /// `position ...`: in the board variant's geometry under `UCI_Variant`, else by the moves
    /// of the rules in force, or else the shipped generator's.
    fn position<W: Write>(&mut self, out: &Mutex<W>, line: &str) -> std::io::Result<()> {
        if let Some((var, pos)) = self.board.as_mut() {
            match board_position(var, line) {
                Ok(p) => {
                    *pos = p;
                    self.bad_position = None;
                }
                Err(msg) => {
                    say(out, &format!("info string bad position: {msg}"))?;
                    self.bad_position = Some(msg);
                }
            }
            return Ok(());
        }
        let read = match &self.rules_moves {
            Some(play) => super::usi::parse_position_command_by(line, &mut |p, t| play(p, t)),
            None => parse_position_command(line).map(|g| g.positions),
        };
        match read {
            Ok(positions) => match positions.first().and_then(super::readings::start_forbidden) {
                None => {
                    self.history = positions;
                    self.bad_position = None;
                }
                Some(why) => {
                    say(out, &format!("info string bad position: {why}"))?;
                    self.bad_position = Some(why);
                }
            },
            Err(e) => {
                let msg = e.to_string().replace('\n', " ");
                say(out, &format!("info string bad position: {msg}"))?;
                // the position before it is not the one asked about: no answer may be read as
                // a result for either
                self.bad_position = Some(msg);
            }
        }
        Ok(())
    }

    /// `go ...`: the search started on a thread of its own, or the answer given (or held back,
    /// returned, after `go infinite` or `go ponder`).
    fn go<'scope, W: Write + Send>(
        &mut self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        out: &'scope Mutex<W>,
        args: &[&str],
    ) -> std::io::Result<(Option<Running<'scope>>, Option<String>)> {
        if let Some(why) = &self.bad_position {
            say(
                out,
                &format!("info string error: no position to search (the last position command failed: {why})"),
            )?;
            // the protocol has no answer for "no position": `timeout` (no answer was found) is
            // the one that claims nothing false, neither of a position (`nomate`) nor of the
            // engine (`notimplemented`)
            return Ok((None, go_unanswered(out, args, "checkmate timeout")?));
        }
        if let Some((_, pos)) = &self.board {
            return Ok((self.go_board(scope, out, pos.clone(), args)?, None));
        }
        if let Some(why) = &self.refused {
            say(out, &format!("info string error: {why}"))?;
            return Ok((None, go_unanswered(out, args, "checkmate notimplemented")?));
        }
        if args.first() != Some(&"mate") {
            let pos = self
                .history
                .last()
                .cloned()
                .unwrap_or_else(Position::startpos);
            let answer = match mate_in_1(&pos) {
                Some(m) => format!("bestmove {}", m.to_usi()),
                None => "bestmove resign".to_string(),
            };
            if args.iter().any(|a| *a == "infinite" || *a == "ponder") {
                return Ok((None, Some(answer)));
            }
            say(out, &answer)?;
            return Ok((None, None));
        }
        let Some(ms) = mate_time(args) else {
            say(out, "info string bad go mate time")?;
            say(out, "checkmate timeout")?;
            return Ok((None, None));
        };
        let flag = Arc::new(AtomicBool::new(false));
        let handle = match self.variant.clone() {
            Some(f) => self.go_variant(scope, out, f, ms, flag.clone())?,
            None => self.go_native(scope, out, ms, flag.clone()),
        };
        match handle {
            Ok(handle) => Ok((Some((flag, handle)), None)),
            Err(_) => {
                no_thread(out, true)?;
                Ok((None, None))
            }
        }
    }

    /// `go mate` (or `go`: a mate in one) under a board variant, on a thread of its own.
    fn go_board<'scope, W: Write + Send>(
        &self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        out: &'scope Mutex<W>,
        mut pos: VPos,
        args: &[&str],
    ) -> std::io::Result<Option<Running<'scope>>> {
        let mate = args.first() == Some(&"mate");
        let ms = if mate { mate_time(args) } else { Some(0) };
        let Some(ms) = ms else {
            say(out, "info string bad go mate time")?;
            say(out, "checkmate timeout")?;
            return Ok(None);
        };
        let flag = Arc::new(AtomicBool::new(false));
        let mut limits = BoardLimits {
            max_entries: (self.hash_mb << 20) / 40,
            max_plies: crate::shogi::variant::MAX_MATE_PLIES,
            stop: Some(flag.clone()),
            ..BoardLimits::default()
        };
        if !mate {
            limits.max_plies = 1;
        } else if ms > 0 {
            limits.deadline =
                Some(std::time::Instant::now() + std::time::Duration::from_millis(ms));
        }
        let shortest = self.length == MateLength::Shortest;
        let handle = std::thread::Builder::new().spawn_scoped(scope, move || {
            let start = std::time::Instant::now();
            let r = pos.mate_search_for(limits, shortest);
            let _ = report_board(out, &pos, &r, mate, start.elapsed());
            None
        });
        match handle {
            Ok(handle) => Ok(Some((flag, handle))),
            Err(_) => {
                no_thread(out, mate)?;
                Ok(None)
            }
        }
    }

    /// `go mate` under a variant: the caller's search, on a thread of its own.
    fn go_variant<'scope, W: Write + Send>(
        &self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        out: &'scope Mutex<W>,
        f: VariantSearch,
        ms: u64,
        stop: Arc<AtomicBool>,
    ) -> std::io::Result<std::io::Result<std::thread::ScopedJoinHandle<'scope, Option<MateSolver>>>>
    {
        if self.threads > 1 {
            say(
                out,
                &format!("info string the search under a variant runs on one thread (Threads {}): the rules it asks are answered by one evaluator", self.threads),
            )?;
        }
        let h = self.history.clone();
        let limits = VariantLimits {
            ms,
            any: self.length == MateLength::Any,
            hash_mb: self.hash_mb,
        };
        Ok(std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(scope, move || {
                match f(&h, limits, stop) {
                    Ok(r) => {
                        let _ = report(out, r);
                    }
                    Err(e) => {
                        let _ = say(out, &format!("info string error: {}", e.replace('\n', " ")));
                        let _ = say(out, "checkmate notimplemented");
                    }
                }
                None
            }))
    }

    /// `go mate` by the native search, on a thread of its own with the table kept from the
    /// search before, which it hands back.
    fn go_native<'scope, W: Write + Send>(
        &mut self,
        scope: &'scope std::thread::Scope<'scope, '_>,
        out: &'scope Mutex<W>,
        ms: u64,
        stop: Arc<AtomicBool>,
    ) -> std::io::Result<std::thread::ScopedJoinHandle<'scope, Option<MateSolver>>> {
        let kept = self.solver.take();
        let h = self.history.clone();
        let (hash_mb, threads, length, reading) =
            (self.hash_mb, self.threads, self.length, self.reading);
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(scope, move || {
                // the table is made once the stack is had (under a bound on the address space,
                // the two together may not fit in the other order)
                let mut s = kept.unwrap_or_else(|| MateSolver::new(hash_mb));
                s.set_threads(threads);
                // Progress goes through a channel to a thread that writes the `info` lines (the
                // callback must not borrow the output).
                let (tx, rx) = std::sync::mpsc::channel::<Progress>();
                let forward = scope.spawn(move || {
                    for p in rx {
                        let nps = (p.nodes * 1000).checked_div(p.ms).unwrap_or(0);
                        let _ = say(
                            out,
                            &format!("info time {} nodes {} nps {}", p.ms, p.nodes, nps),
                        );
                    }
                });
                let progress: super::dfpn::ProgressFn = Arc::new(move |p: &Progress| {
                    let _ = tx.send(*p);
                });
                let opts = MateOptions {
                    max_ms: ms,
                    hash_mb,
                    length,
                    reading,
                    stop: Some(stop),
                    progress: Some(progress),
                    ..Default::default()
                };
                // This thread has the large stack deep searches need.
                let r = s.solve_history(&h, &opts);
                drop(opts);
                let _ = forward.join();
                let _ = report(out, r);
                Some(s)
            })
    }
}

/// The time of `go mate <ms|infinite>` in milliseconds (0: none), if it reads.
fn mate_time(args: &[&str]) -> Option<u64> {
    match args.get(1) {
        None | Some(&"infinite") => Some(0),
        Some(v) => v.parse::<u64>().ok(),
    }
}

/// A search that could not get a thread of its own: say so, and answer as the command expects
/// (`checkmate timeout` to `go mate`, `bestmove resign` to `go`).
fn no_thread<W: Write>(out: &Mutex<W>, mate: bool) -> std::io::Result<()> {
    say(out, "info string no thread for the search")?;
    say(
        out,
        if mate {
            "checkmate timeout"
        } else {
            "bestmove resign"
        },
    )
}

/// A `position` command read in a board variant's geometry: `startpos` or `sfen ...`, then
/// `moves ...` played in turn.
fn board_position(var: &Variant, line: &str) -> Result<VPos, String> {
    let rest = line.trim().strip_prefix("position").unwrap_or("").trim();
    let (place, moves) = match rest.split_once(" moves") {
        Some((p, m)) => (p.trim(), m.trim()),
        None => (rest, ""),
    };
    let sfen = if place == "startpos" {
        "startpos"
    } else if let Some(s) = place.strip_prefix("sfen ") {
        s.trim()
    } else {
        return Err(format!("`{place}`: write `startpos` or `sfen ...`"));
    };
    let mut p = var.position(sfen).map_err(|e| e.message)?;
    for (i, m) in moves.split_whitespace().enumerate() {
        let mv = p
            .parse_move(m, DropMate::Illegal)
            .map_err(|e| format!("move {} `{m}`: {}", i + 1, e.message))?;
        p.do_move(mv);
    }
    Ok(p)
}

/// The answer to `go mate` (or `go`: a mate in one, or `resign`) under a board variant.
fn report_board<W: Write>(
    out: &Mutex<W>,
    p: &VPos,
    r: &BoardResult,
    mate: bool,
    took: std::time::Duration,
) -> std::io::Result<()> {
    let ms = took.as_millis();
    match (&r.outcome, mate) {
        (BoardOutcome::Mate(moves), true) => {
            let pv = p.line_text(moves);
            say(
                out,
                &format!(
                    "info time {ms} nodes {} score mate {} pv {}",
                    r.nodes,
                    moves.len(),
                    pv.join(" ")
                ),
            )?;
            say(out, &format!("checkmate {}", pv.join(" ")))
        }
        (BoardOutcome::Mate(moves), false) => {
            say(out, &format!("bestmove {}", p.line_text(&moves[..1])[0]))
        }
        (_, false) => say(out, "bestmove resign"),
        (BoardOutcome::NoMate, true) => {
            say(out, &format!("info time {ms} nodes {}", r.nodes))?;
            say(out, "checkmate nomate")
        }
        (BoardOutcome::Unknown, true) => {
            say(out, &format!("info time {ms} nodes {}", r.nodes))?;
            say(out, "checkmate timeout")
        }
    }
}

/// The answer to `go mate`.
fn report<W: Write>(out: &Mutex<W>, r: super::dfpn::MateResult) -> std::io::Result<()> {
    let nps = (r.nodes * 1000).checked_div(r.ms).unwrap_or(0);
    match r.result {
        MateStatus::Mate => {
            let pv: Vec<String> = r.pv.iter().map(|m| m.to_usi()).collect();
            say(
                out,
                &format!(
                    "info time {} nodes {} nps {} score mate {} pv {}",
                    r.ms,
                    r.nodes,
                    nps,
                    r.plies,
                    pv.join(" ")
                ),
            )?;
            if !r.shortest {
                say(out, "info string the length is not proven shortest")?;
            }
            say(out, &format!("checkmate {}", pv.join(" ")))
        }
        MateStatus::NoMate => {
            say(
                out,
                &format!("info time {} nodes {} nps {}", r.ms, r.nodes, nps),
            )?;
            say(out, "checkmate nomate")
        }
        MateStatus::Unknown => {
            say(
                out,
                &format!("info time {} nodes {} nps {}", r.ms, r.nodes, nps),
            )?;
            say(out, "checkmate timeout")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> String {
        let mut out = Vec::new();
        usi_loop(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// `Threads` is advertised, taken from 1 to the most, refused otherwise; a mate in nine
    /// found with two threads is one of nine plies.
    #[test]
    fn threads_option() {
        // The end of the input would end the search: it comes two seconds after (the search
        // takes milliseconds).
        let (tx, rx) = std::sync::mpsc::channel();
        let feeder = std::thread::spawn(move || {
            tx.send(
                "usi\nsetoption name Threads value 0\nsetoption name Threads value 2\n\
                 position sfen 1+P1gk2nl/2s2g1s1/n1pp+Bp1pp/4P1p2/lp5P1/5R3/2PPS1PsP/2G3+n2/\
                 1+p1K3NL b RBL3Pg 59\ngo mate 20000\n"
                    .to_string(),
            )
            .unwrap();
            std::thread::sleep(std::time::Duration::from_millis(2000));
            tx.send("quit\n".to_string()).unwrap();
        });
        let mut out = Vec::new();
        usi_loop(std::io::BufReader::new(Pipe(rx, String::new())), &mut out).unwrap();
        feeder.join().unwrap();
        let out = String::from_utf8(out).unwrap();
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix("checkmate "))
            .unwrap_or_else(|| panic!("{out}"));
        assert_eq!(line.split(' ').count(), 9, "{out}");
        assert!(
            out.contains(&format!(
                "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
            )),
            "{out}"
        );
        assert!(
            out.contains(&format!(
                "info string bad Threads value 0 (from 1 to {MAX_THREADS})"
            )),
            "{out}"
        );
    }

    #[test]
    fn handshake_and_mate() {
        let out = run("usi\nisready\nsetoption name USI_Hash value 8\n\
             position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo mate 1000\nquit\n");
        assert!(out.contains("usiok"));
        assert!(out.contains("readyok"));
        assert!(out.contains("checkmate G*5b"), "{out}");
    }

    #[test]
    fn nomate_and_errors() {
        let out = run(
            "position startpos\ngo mate infinite\nposition sfen garbage\nposition startpos\n\
             go mate abc\nsetoption name USI_Hash value -3\nfoo\n\n",
        );
        assert!(out.contains("checkmate nomate"), "{out}");
        assert!(out.contains("bad position"), "{out}");
        assert!(out.contains("checkmate timeout"), "{out}");
        assert!(out.contains("bad USI_Hash"), "{out}");
        assert!(out.contains("unknown command: foo"), "{out}");
    }

    #[test]
    fn timeout_reported() {
        // A position with many checks and no short mate: 1 ms is not enough to decide.
        let out = run("position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1\ngo mate 1\n");
        assert!(
            out.contains("checkmate timeout") || out.contains("checkmate "),
            "{out}"
        );
    }

    /// Input that arrives in pieces, as a GUI sends it: each string sent is read when it comes;
    /// the input ends when the sender is dropped.
    struct Pipe(std::sync::mpsc::Receiver<String>, String);
    impl std::io::Read for Pipe {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.1.is_empty() {
                match self.0.recv() {
                    Ok(l) => self.1 = l,
                    Err(_) => return Ok(0),
                }
            }
            let n = buf.len().min(self.1.len());
            buf[..n].copy_from_slice(&self.1.as_bytes()[..n]);
            self.1.drain(..n);
            Ok(n)
        }
    }

    /// Run the loop on an infinite search of Microcosmos (1,525 plies: the search would run for
    /// most of a minute), sending each of `then` after its pause in milliseconds, and then the
    /// end of the input; the output.
    fn during_a_long_search(then: &[(u64, &'static str)]) -> String {
        let (tx, rx) = std::sync::mpsc::channel();
        let then = then.to_vec();
        let feeder = std::thread::spawn(move || {
            tx.send("setoption name USI_Hash value 16\nposition sfen g1+P1k1+P+P+L/1p3P3/+R+p2pp1pl/1NNsg+p2+R/+b+nL+P1+p3/1P3ssP1/2P1+Ps2N/4+P1P1L/+B5G1g b - 1\ngo mate infinite\n".to_string())
                .unwrap();
            for (pause, text) in then {
                std::thread::sleep(std::time::Duration::from_millis(pause));
                tx.send(text.to_string()).unwrap();
            }
        });
        let mut out = Vec::new();
        usi_loop(std::io::BufReader::new(Pipe(rx, String::new())), &mut out).unwrap();
        feeder.join().unwrap();
        String::from_utf8(out).unwrap()
    }

    /// `stop` ends an infinite search, which answers at once.
    #[test]
    fn stop_ends_an_infinite_search() {
        let t0 = std::time::Instant::now();
        let out = during_a_long_search(&[(300, "isready\n"), (200, "stop\nquit\n")]);
        // readyok came while the search ran, and the answer after the stop: a timeout.
        let ready = out.find("readyok").expect("readyok");
        let answer = out.find("checkmate timeout").expect("an answer");
        assert!(ready < answer, "{out}");
        assert!(t0.elapsed() < std::time::Duration::from_secs(60), "{out}");
    }

    /// A command that needs the search ended (`position` here) ends it, the search answers, and
    /// the loop goes on; the end of the input ends the loop at once.
    #[test]
    fn commands_during_a_search_end_it() {
        for then in [&[(300, "position startpos\nisready\n")][..], &[]] {
            let t0 = std::time::Instant::now();
            let out = during_a_long_search(then);
            let answer = out.find("checkmate timeout").expect("the search answers");
            if !then.is_empty() {
                let ready = out.find("readyok").expect("readyok");
                assert!(answer < ready, "{out}");
            }
            assert!(t0.elapsed() < std::time::Duration::from_secs(15), "{out}");
        }
    }

    /// A `position` that fails leaves no position: `go mate` answers nothing that could be read
    /// as a result for the position before it, until a `position` succeeds again.
    #[test]
    fn a_failed_position_is_not_searched() {
        let out = run("position sfen 7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1\ngo mate 1000\nposition sfen 7nk/9/xx b - 1\ngo mate 1000\nposition startpos moves 7g7f 1a1z\ngo mate 1000\ngo\nposition sfen 7nk/9/6B1P/8L/9/9/9/9/4K4 b - 1\ngo mate 1000\nquit\n");
        let answers: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("checkmate") || l.starts_with("bestmove"))
            .collect();
        assert_eq!(
            answers,
            vec![
                "checkmate 1c1b+",
                "checkmate timeout",
                "checkmate timeout",
                "bestmove resign",
                "checkmate 1c1b+"
            ],
            "{out}"
        );
        assert_eq!(
            out.matches("info string error: no position").count(),
            3,
            "{out}"
        );
    }

    /// A `position` line that cannot be read (not UTF-8, or longer than the engine reads) is a
    /// failed `position` too: the position before it is not searched, in the standard game and
    /// under a board variant, until a `position` is read; other unreadable lines leave the
    /// position as it was.
    #[test]
    fn an_unreadable_position_line_is_a_failed_position() {
        let long = format!("position sfen {}\n", "x".repeat(MAX_LINE_BYTES));
        // (under a board variant: tests/suite/variants.rs `board_variants_through_the_commands`)
        for (setup, mated, fresh) in [(
            "",
            "position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
            "checkmate G*5b",
        )] {
            for skipped in [
                b"position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 \xff\n".to_vec(),
                b"\xffposition startpos\n".to_vec(),
                long.clone().into_bytes(),
                b"isready \xff\n".to_vec(),
            ] {
                let mut input = format!("{setup}{mated}\ngo mate 1000\n").into_bytes();
                input.extend(&skipped);
                input.extend(format!("go mate 1000\n{mated}\ngo mate 1000\nquit\n").bytes());
                let mut out = Vec::new();
                usi_loop(&input[..], &mut out).unwrap();
                let out = String::from_utf8(out).unwrap();
                let answers: Vec<&str> =
                    out.lines().filter(|l| l.starts_with("checkmate")).collect();
                let second = if skipped.starts_with(b"position") {
                    "checkmate timeout"
                } else {
                    fresh
                };
                assert_eq!(answers, vec![fresh, second, fresh], "{setup} {out}");
            }
        }
    }

    /// A line longer than the engine reads is skipped with an `info string`, a line that is
    /// not UTF-8 too; the commands after them are answered, and a hash past the bound refused.
    #[test]
    fn long_and_unreadable_lines_are_skipped() {
        let mut input = b"isready\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE_BYTES + 10));
        input.extend(b"\nusi\n\xff\xfe\nsetoption name USI_Hash value 5000\nisready\n");
        let mut out = Vec::new();
        usi_loop(&input[..], &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "readyok");
        assert_eq!(
            lines[1],
            format!(
                "info string a line of {} bytes, longer than 4 MiB: skipped",
                MAX_LINE_BYTES + 11
            )
        );
        assert!(out.contains("option name USI_Hash type spin default 64 min 1 max 4096"));
        assert!(out.contains("info string unreadable input line (not UTF-8)"));
        assert!(out.contains("info string bad USI_Hash value 5000 (from 1 to 4096 MiB)"));
        assert_eq!(lines.last(), Some(&"readyok"));
    }

    #[test]
    fn fuzz_lines_never_panic() {
        let words = [
            "usi",
            "isready",
            "position",
            "sfen",
            "startpos",
            "moves",
            "go",
            "mate",
            "7g7f",
            "1",
            "infinite",
            "setoption",
            "name",
            "value",
            "USI_Hash",
            "Threads",
            "k",
            "b",
            "-",
            "P*5e",
            "quit_",
            "9/9/9/9/9/9/9/9/9",
            "4k4/9/9/9/9/9/9/9/4K4",
        ];
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut text = String::new();
        for _ in 0..300 {
            let n = (s % 7) as usize;
            for _ in 0..n {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                text.push_str(words[(s % words.len() as u64) as usize]);
                text.push(' ');
            }
            text.push('\n');
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        // Limit every search: a `go mate` without a time would be infinite.
        let text = text.replace("go mate", "go mate 5 ");
        let _ = run(&text);
    }
}
