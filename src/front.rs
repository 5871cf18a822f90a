#![forbid(unsafe_code)]
//! What the command line and the REPL share: loading the rules (the shipped ones by default),
//! and choosing, for a command that has a native engine, whether the engine may answer under
//! the loaded rules and the reading in force, or the rules must.

use crate::bindings;
use crate::check::load::{load, load_shipped};
use crate::check::Program;
use crate::diagnostics::code;
use crate::diagnostics::{Diag, SourceMap};
use crate::eval::{Budget, Evaluator};
use crate::ir::Value;
use crate::natives::Engine;
use crate::natives::Natives;
use clap::Args;
use std::path::PathBuf;
use std::time::Duration;

/// Load rule files and folders, or the shipped rule files when `paths` is empty.
pub fn load_rules(paths: &[PathBuf]) -> Result<(Program, Vec<PathBuf>), (SourceMap, Vec<Diag>)> {
    let loaded = if paths.is_empty() {
        load_shipped(&Natives::standard())
    } else {
        load(paths, &Natives::standard())
    };
    match loaded.program {
        Ok(p) => Ok((p, loaded.files)),
        Err(ds) => Err((loaded.sources, ds)),
    }
}

/// Without rule files named, the built-in rules are read, never a `rules/` folder of the
/// current directory: said on standard error when there is one (it may hold edits the user
/// meant to try), by the commands that take rule files as their arguments.
pub fn note_default_rules(paths: &[PathBuf]) {
    if paths.is_empty() && std::path::Path::new(crate::shipped::FOLDER).is_dir() {
        eprintln!(
            "okite: the built-in rules are used; the folder {}/ here is not read (name it: `okite test {}`)",
            crate::shipped::FOLDER,
            crate::shipped::FOLDER
        );
    }
}

// ---------------------------------------------------------------------- options and inputs

#[derive(Args, Clone)]
pub struct OutOpts {
    /// Colour: auto, always or never
    #[arg(long, default_value = "auto")]
    pub color: String,
}

#[derive(Args, Clone)]
pub struct RunOpts {
    /// native (use bound native functions), rules (rule bodies only) or verify (both, compared)
    #[arg(long, default_value = "native")]
    pub engine: Engine,
    /// Same as --engine verify
    #[arg(long)]
    pub verify: bool,
    /// Evaluation step budget
    #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_STEPS)]
    pub max_steps: u64,
    /// Call depth budget
    #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_DEPTH)]
    pub max_depth: usize,
    /// Time budget per query, in milliseconds
    #[arg(long, default_value_t = crate::eval::DEFAULT_TIMEOUT_MS)]
    pub timeout_ms: u64,
    /// Memory for the memo tables, in MiB (a cache: emptied when full)
    #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_MEMO_MB)]
    pub max_memory_mb: usize,
    /// Memory the whole process may occupy, in MiB: past it the query ends with a diagnostic
    #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_RESIDENT_MB)]
    pub max_resident_mb: usize,
    /// Turn tabling (memoisation) off
    #[arg(long)]
    pub no_memo: bool,
}

impl RunOpts {
    pub fn apply(&self, ev: &mut Evaluator) {
        ev.engine = if self.verify {
            Engine::Verify
        } else {
            self.engine
        };
        ev.budget = Budget {
            max_steps: self.max_steps,
            max_depth: self.max_depth,
            max_memo_bytes: self.max_memory_mb.saturating_mul(1 << 20),
            max_resident_bytes: self.max_resident_mb.saturating_mul(1 << 20),
            timeout: Some(Duration::from_millis(self.timeout_ms)),
        };
        ev.memoize = !self.no_memo;
    }
}

#[derive(Args, Clone)]
pub struct QueryOpts {
    /// Rule files or folders to load (repeatable; default: the built-in rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// A shogi position (SFEN or `startpos`): binds `g` (the game) and `i` (its last index)
    #[arg(long)]
    pub sfen: Option<String>,
    /// Moves in USI played from --sfen (any move of the one-step transition: the rules judge them)
    #[arg(long, alias = "move")]
    pub moves: Option<String>,
    /// A game record in KIF or KI2 (UTF-8 or Shift-JIS): binds `g` and `i`
    #[arg(long)]
    pub kif: Option<PathBuf>,
    /// A game record in CSA (UTF-8 or Shift-JIS): binds `g` and `i`
    #[arg(long)]
    pub csa: Option<PathBuf>,
    /// The reading to evaluate under (default: base)
    #[arg(long)]
    pub reading: Option<String>,
    #[command(flatten)]
    pub run: RunOpts,
    #[command(flatten)]
    pub out: OutOpts,
}

/// The characters of a value's text shown at most; past them the text ends with `…`. (A value
/// made of shared parts, `(p, p)` over and over, is far longer written out than stored.)
pub const MAX_VALUE_TEXT: usize = 16 << 20;

/// The width of a column of names (rule sets, readings): the longest name's, `least` at least,
/// so that a long name a user defines does not push its row out of line.
pub fn column_width<'a>(names: impl IntoIterator<Item = &'a str>, least: usize) -> usize {
    names
        .into_iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max(least)
}

/// A value for people: native values (positions, boards) as diagrams; the text of others cut at
/// [`MAX_VALUE_TEXT`] characters.
pub fn display_value(v: &Value) -> String {
    match v {
        Value::Native(n) => n.display_long(),
        v => crate::ir::short(v, MAX_VALUE_TEXT),
    }
}

/// [`display_value`], with a definition given as a value named as the rules name it
/// (`<definition succ>`, where the value alone knows only its number).
pub fn display_value_in(prog: &Program, v: &Value) -> String {
    naming_definitions(prog, || display_value(v))
}

/// Run `f` with the values it writes naming definitions as `prog` names them.
pub fn naming_definitions<T>(prog: &Program, f: impl FnOnce() -> T) -> T {
    let mut names = std::collections::BTreeMap::new();
    for (name, key) in &prog.key_names {
        names.entry(*key).or_insert_with(|| name.clone());
    }
    crate::ir::with_definition_names(std::rc::Rc::new(names), f)
}

/// A game from an SFEN (or `startpos`) and USI moves; errors point into the text given.
pub fn shogi_game(
    sfen: &str,
    moves: &str,
) -> Result<crate::shogi::record::Game, (SourceMap, Vec<Diag>)> {
    use crate::syntax::ast::Span;
    let mut sources = SourceMap::default();
    let sfen_id = sources.add("--sfen", None, sfen.to_string());
    let pos = match crate::shogi::position::Position::from_sfen(sfen) {
        Ok(p) => p,
        Err(errs) => {
            let ds = errs
                .0
                .iter()
                .map(|e| {
                    Diag::error(code::BAD_SFEN, format!("bad SFEN: {}", e.message))
                        .label(Span::new(sfen_id, e.offset, e.offset + e.len), "here")
                        .help(e.help.clone())
                })
                .collect();
            return Err((sources, ds));
        }
    };
    let moves_id = sources.add("--moves", None, moves.to_string());
    let mut game = crate::shogi::record::Game::new(pos);
    let mut offset = 0;
    for tok in moves.split_whitespace() {
        let start = offset + moves[offset..].find(tok).unwrap_or(0);
        offset = start + tok.len();
        match game.last().parse_usi_move(tok) {
            Ok(m) => game.push(m),
            Err(e) => {
                let d = Diag::error(code::BAD_MOVE, format!("bad move `{tok}`: {}", e.message))
                    .label(
                        Span::new(moves_id, start, start + tok.len()),
                        format!("move {}", game.moves.len() + 1),
                    )
                    .help(e.help.clone());
                return Err((sources, vec![d]));
            }
        }
    }
    Ok(game)
}

/// A record read from a file, the source map with its text, and the text's id; or the
/// diagnostics of why it cannot be read.
pub type ReadRecord = Result<
    (
        crate::shogi::record::Record,
        SourceMap,
        crate::syntax::ast::FileId,
    ),
    (SourceMap, Vec<Diag>),
>;

/// Which reader reads a record file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFormat {
    /// KIF and KI2.
    Kif,
    /// CSA.
    Csa,
}

/// A game record read from a file: a regular file of bounded size, its text UTF-8 or
/// Shift-JIS (see `shogi::encoding`), read with the moves as written (`shogi::record`). Errors
/// point into the text (E0403) or name the file. The source map holds the text under the path.
pub fn read_record(path: &std::path::Path, format: RecordFormat) -> ReadRecord {
    read_record_with(path, |text| match format {
        RecordFormat::Kif => crate::shogi::record::read_kif(text),
        RecordFormat::Csa => crate::shogi::record::read_csa(text),
    })
}

/// A record file read as [`read_record`] reads it, its text parsed by `parse` (a board
/// variant's KIF reader, say).
pub fn read_record_with<T>(
    path: &std::path::Path,
    parse: impl FnOnce(&str) -> Result<T, crate::shogi::ParseErrors>,
) -> Result<(T, SourceMap, crate::syntax::ast::FileId), (SourceMap, Vec<Diag>)> {
    use crate::syntax::ast::Span;
    let mut sources = SourceMap::default();
    let bytes = match crate::check::load::read_limited(
        path,
        crate::syntax::parser::MAX_SOURCE_BYTES,
        ("a record", "records"),
    ) {
        Ok(b) => b,
        Err(d) => return Err((sources, vec![d])),
    };
    let bad = |errs: crate::shogi::ParseErrors, id: Option<crate::syntax::ast::FileId>| {
        errs.0
            .iter()
            .map(|e| {
                let d = Diag::error(
                    code::BAD_GAME_RECORD,
                    format!("bad game record: {}", e.message),
                )
                .help(e.help.clone());
                match id {
                    Some(id) => d.label(Span::new(id, e.offset, e.offset + e.len), "here"),
                    None => d,
                }
            })
            .collect::<Vec<_>>()
    };
    let text = match crate::shogi::encoding::decode_record(&bytes) {
        Ok((t, _)) => t,
        Err(errs) => {
            let ds = bad(errs, None);
            return Err((sources, ds));
        }
    };
    let id = sources.add(
        path.display().to_string(),
        Some(path.to_path_buf()),
        text.clone(),
    );
    match parse(&text) {
        Ok(r) => Ok((r, sources, id)),
        Err(errs) => {
            let ds = bad(errs, Some(id));
            Err((sources, ds))
        }
    }
}

/// The record file named by --kif or --csa, if any.
pub fn record_of(q: &QueryOpts) -> Option<ReadRecord> {
    if let Some(k) = &q.kif {
        return Some(read_record(k, RecordFormat::Kif));
    }
    q.csa.as_ref().map(|c| read_record(c, RecordFormat::Csa))
}

/// The positions of a record as read (see [`read_record`]): every position of its game,
/// refused when its last move cannot be played (`okite game` reads and reports such a record).
pub fn record_positions(
    read: ReadRecord,
) -> Result<Vec<crate::shogi::position::Position>, (SourceMap, Vec<Diag>)> {
    use crate::syntax::ast::Span;
    let (record, sources, id) = read?;
    match record.into_game() {
        Ok(g) => Ok(g.positions),
        Err(errs) => {
            let ds = errs
                .0
                .iter()
                .map(|e| {
                    Diag::error(
                        code::BAD_GAME_RECORD,
                        format!("bad game record: {}", e.message),
                    )
                    .label(Span::new(id, e.offset, e.offset + e.len), "here")
                    .help(e.help.clone())
                })
                .collect();
            Err((sources, ds))
        }
    }
}

/// The positions named by --sfen/--moves, --kif or --csa, if any. A record whose last move
/// cannot be played is refused here (its game would leave that move out): `okite game` reads
/// and reports it. Moves of --moves the shipped generator does not make are asked of `rules`.
pub fn positions_of(
    q: &QueryOpts,
    rules: Option<&mut MovesOfRules>,
) -> Result<Option<Vec<crate::shogi::position::Position>>, (SourceMap, Vec<Diag>)> {
    if let Some(read) = record_of(q) {
        return record_positions(read).map(Some);
    }
    match (&q.sfen, &q.moves) {
        (None, None) => Ok(None),
        (sfen, moves) => {
            let sfen = sfen.as_deref().unwrap_or("startpos");
            let moves = moves.as_deref().unwrap_or("");
            pseudo_game(sfen, moves, rules).map(Some)
        }
    }
}

/// The start of a game an engine is to search (perft, legal, mate): refused (E0405), with the
/// reason, where the side to move has pieces with nowhere to go or two pawns on a file (see
/// `shogi::readings::start_forbidden`); the rules' own questions (`eval`, `explain`, `compare`)
/// take any position.
pub fn engine_start(history: &[crate::shogi::position::Position]) -> Result<(), Diag> {
    let Some(start) = history.first() else {
        return Ok(());
    };
    match crate::shogi::readings::start_forbidden(start) {
        None => Ok(()),
        Some(why) => Err(Diag::error(
            code::FORBIDDEN_START,
            format!("the position cannot begin a search: {why}"),
        )
        .help("the engines search positions that can arise under the rules; `okite eval` asks the rules about any position")),
    }
}

/// A game from an SFEN and moves of the one-step transition (forbidden moves included: the rules
/// judge them); errors point into the text given. A move the shipped generator does not make
/// is asked of `rules` (see [`MovesOfRules`]): a variant's own moves are played too.
pub fn pseudo_game(
    sfen: &str,
    moves: &str,
    rules: Option<&mut MovesOfRules>,
) -> Result<Vec<crate::shogi::position::Position>, (SourceMap, Vec<Diag>)> {
    let game = shogi_game(sfen, "")?;
    let mut sources = SourceMap::default();
    let moves_id = sources.add("--moves", None, moves.to_string());
    let mut toks = vec![];
    let mut offset = 0;
    for tok in moves.split_whitespace() {
        let start = offset + moves[offset..].find(tok).unwrap_or(0);
        offset = start + tok.len();
        toks.push((start, tok));
    }
    play_pseudo(vec![game.last().clone()], &toks, moves_id, rules).map_err(|d| (sources, vec![d]))
}

/// The moves of the rules in force: the successors of a position by their one-step transition
/// `succ(s)`, each named by the move that makes it, under a reading. Where the rules' `succ` is
/// the shipped one (its native binding stays on) the shipped generator's moves are theirs and
/// the rules are never asked; under a variant that changes it, every move is read by the
/// rules (a move the variant adds is played, one it takes away refused).
pub struct MovesOfRules<'p> {
    prog: &'p crate::check::Program,
    reading: crate::ir::ReadingId,
    /// Whether the rules' `succ` is the shipped one: worked out when a move is first read, so
    /// that a command given no moves does not pay for it.
    shipped: std::cell::Cell<Option<bool>>,
}

impl<'p> MovesOfRules<'p> {
    /// The moves of `prog` under `reading`.
    pub fn new(prog: &'p crate::check::Program, reading: crate::ir::ReadingId) -> Self {
        MovesOfRules {
            prog,
            reading,
            shipped: std::cell::Cell::new(None),
        }
    }

    /// Whether the rules' `succ` is the shipped one (its native binding stays on).
    pub fn shipped(&self) -> bool {
        if let Some(s) = self.shipped.get() {
            return s;
        }
        let s = self.prog.key_of("succ").is_none()
            || bindings::natives_in_cone(self.prog, self.reading, "succ")
                .iter()
                .any(|(path, on)| *on && path == "shogi.successors");
        self.shipped.set(Some(s));
        s
    }

    /// The successors of `p` by the rules, each with its move; none when the rules' `succ`
    /// is the shipped one: their moves are the generator's.
    #[allow(clippy::type_complexity)]
    pub fn successors(
        &mut self,
        p: &crate::shogi::position::Position,
    ) -> Result<Option<Vec<(crate::shogi::types::Move, crate::shogi::position::Position)>>, String>
    {
        if self.shipped() {
            return Ok(None);
        }
        let binder = crate::bindings::Sound::standard();
        let mut oracle = crate::hybrid::RulesOracle::new(self.prog, &binder, self.reading)?;
        oracle.successors(p).map(Some)
    }

    /// The position after the USI move `tok` from `p` (forbidden moves included: the rules
    /// judge them): one of the rules' successors where their `succ` is not the shipped one,
    /// else the shipped generator's; or why it is no move here.
    pub fn play(
        &mut self,
        p: &crate::shogi::position::Position,
        tok: &str,
    ) -> Result<crate::shogi::position::Position, String> {
        if let (false, Some(m)) = (self.shipped(), crate::shogi::types::Move::from_usi(tok)) {
            // a variant's `succ`: the move is one of its successors, or none
            return match self.successors(p) {
                Ok(Some(succ)) => succ
                    .into_iter()
                    .find(|(x, _)| *x == m)
                    .map(|(_, next)| next)
                    .ok_or_else(|| {
                        "is not a move of this position by the rules' `succ(s)`".to_string()
                    }),
                Ok(None) => Err("is not a move of this position".to_string()),
                Err(e) => Err(format!("could not be read by the rules' moves: {e}")),
            };
        }
        p.after_pseudo_usi(tok).map_err(String::from)
    }
}

/// Play USI moves of the one-step transition (forbidden moves included: the rules judge them)
/// after the last of `from`; each token with its byte offset in source `fid`, where a move that
/// cannot be played is shown (E0402). Under `rules` whose `succ` is not the shipped one, each
/// move is read by them instead (see [`MovesOfRules`]).
pub fn play_pseudo(
    from: Vec<crate::shogi::position::Position>,
    toks: &[(usize, &str)],
    fid: crate::syntax::ast::FileId,
    mut rules: Option<&mut MovesOfRules>,
) -> Result<Vec<crate::shogi::position::Position>, Diag> {
    use crate::syntax::ast::Span;
    let mut out = from;
    for &(at, tok) in toks {
        let Some(cur) = out.last() else { break };
        let played = match rules.as_deref_mut() {
            Some(r) => r.play(cur, tok),
            None => cur.after_pseudo_usi(tok).map_err(String::from),
        };
        let why = match played {
            Ok(next) => {
                out.push(next);
                continue;
            }
            Err(why) => why,
        };
        return Err(
            Diag::error(code::BAD_MOVE, format!("bad move `{tok}`: it {why}"))
                .label(
                    Span::new(fid, at, at + tok.len()),
                    format!("move {}", out.len()),
                )
                .help("moves are written in USI: 7g7f, 8h2b+, P*5e"),
        );
    }
    Ok(out)
}

impl RunOpts {
    /// The defaults of the command line.
    pub fn parse_default() -> RunOpts {
        /// The options alone, parsed from nothing: the defaults as the command line states them.
        #[derive(clap::Parser)]
        struct Only {
            #[command(flatten)]
            run: RunOpts,
        }
        <Only as clap::Parser>::try_parse_from(["okite"])
            .map(|o| o.run)
            .unwrap_or_else(|e| panic!("the run options parse from nothing: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::RunOpts;
    use crate::eval::Budget;

    #[test]
    fn the_command_line_defaults_are_the_evaluator_defaults() {
        let o = RunOpts::parse_default();
        let b = Budget::default();
        assert_eq!(o.max_steps, b.max_steps);
        assert_eq!(o.max_depth, b.max_depth);
        assert_eq!(o.max_memory_mb << 20, b.max_memo_bytes);
        assert_eq!(o.max_resident_mb << 20, b.max_resident_bytes);
        assert_eq!(
            Some(std::time::Duration::from_millis(o.timeout_ms)),
            b.timeout
        );
        assert_eq!(o.engine, crate::natives::Engine::Native);
        assert!(!o.verify && !o.no_memo);
    }
}
