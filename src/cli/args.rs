#![forbid(unsafe_code)]
//! The commands and their options (clap): what a user can write on the command line.

use crate::front::{OutOpts, QueryOpts, RunOpts};
use crate::natives::Engine;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "okite",
    version,
    about = "The rules of shogi and Go as mathematical definitions, checked and run",
    long_about = "okite (掟, \"the rules\") reads rule files that state the rules of shogi and Go as \
                  mathematical definitions, checks them, and runs them on real positions."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// No progress on the terminal (it is never drawn when stderr is not a terminal), and no
    /// answers of `go classes` in a log
    #[arg(long, global = true)]
    pub quiet: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Parse and check rule files: every diagnostic, or OK
    Check(CheckArgs),
    /// Run the examples and theorems written inside rule files
    Test(TestArgs),
    /// Evaluate an expression
    Eval(EvalArgs),
    /// Shell completions for okite: `okite completions bash > /etc/bash_completion.d/okite`
    Completions {
        /// bash, zsh, fish, elvish or powershell
        shell: clap_complete::Shell,
    },
    /// The manual page of okite (roff): `okite man | man -l -`; `okite man perft` the page of a
    /// command (okite-perft(1)); `okite man --dir DIR` writes every page into DIR
    Man {
        /// A command (`go solve` as `go-solve`): its page instead of okite(1)
        command: Option<String>,
        /// Write okite.1 and the page of every command into this folder
        #[arg(long, conflicts_with = "command")]
        dir: Option<PathBuf>,
    },
    /// The diagnostic codes: all of them, or one (by code or name) with an input that produces it
    Codes {
        code: Option<String>,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        out: OutOpts,
    },
    /// Evaluate an expression and show why: the proof tree with rule spans
    Explain(ExplainArgs),
    /// Evaluate an expression under several readings side by side
    Compare(CompareArgs),
    /// Ask questions about positions interactively
    Repl {
        /// Rule files or folders (default: the built-in rules; `okite rules export DIR` writes
        /// them out to edit)
        paths: Vec<PathBuf>,
        /// Rule files or folders, as the other commands take them (added to PATHS)
        #[arg(long)]
        rules: Vec<PathBuf>,
        /// The reading to start under (default: base; `:reading` changes it)
        #[arg(long)]
        reading: Option<String>,
        /// A shipped board variant (minishogi, kyotoshogi, dobutsu, ...): its rule file loaded,
        /// its reading in force; `:sfen`, `:moves`, `:board` and `:legal` play its positions
        #[arg(long)]
        variant: Option<String>,
        #[command(flatten)]
        run: crate::front::RunOpts,
    },
    /// List the native bindings of the rules and engines, on or off under a reading and why
    Natives(NativesArgs),
    /// Count the leaves of the legal move tree (native move generator)
    Perft(PerftArgs),
    /// The legal moves of a position, in USI, under a reading (with the game's history)
    Legal(LegalArgs),
    /// Replay a game record and report, under each reading, the first forbidden move,
    /// repetitions, perpetual checks and whether the final position is mate
    Game(GameArgs),
    /// A board diagram of a position
    Show(ShowArgs),
    /// Go on any graph (native engine)
    #[command(subcommand)]
    Go(GoCommand),
    /// Find forced mates (tsume): every attacking move checks, the defender resists longest
    Mate(MateArgs),
    /// A composed mate problem's soundness under each convention: its main line, alternative
    /// mates (余詰), futile interpositions (無駄合), pieces left over (駒余り)
    Tsume(TsumeArgs),
    /// The shipped rule files: `okite rules export DIR` writes them out for editing
    #[command(subcommand)]
    Rules(RulesCommand),
    /// A USI engine answering `go mate` (for shogi GUIs)
    Usi(UsiArgs),
    /// A language server for rule files over stdin and stdout (for editors): diagnostics as
    /// you type, hover, go to definition, completion, document symbols
    Lsp,
}

#[derive(Subcommand)]
pub enum RulesCommand {
    /// Write the shipped rule files into a folder (created if missing), to edit into a variant.
    /// Files already there and edited are kept: nothing is written unless --force
    Export {
        dir: PathBuf,
        /// Overwrite files of the folder that differ from the shipped ones
        #[arg(long)]
        force: bool,
    },
}

/// A variant: rule files and a reading.
#[derive(Args, Clone)]
pub struct VariantOpts {
    /// Rule files or folders (default: the shipped rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// A reading of the rules
    #[arg(long)]
    pub reading: Option<String>,
}

/// The native search of `okite go classes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LifeSearch {
    ProofNumbers,
    DepthFirst,
}

/// The colour whose question `okite go classes --ask` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum AskColour {
    Black,
    White,
}

#[derive(Subcommand)]
pub enum GoCommand {
    /// The number of ultimate boards of a graph (seed 004), last line
    Ultimate {
        #[arg(long)]
        graph: String,
        #[arg(long, default_value = "native")]
        engine: Engine,
        /// One JSON object: {"count": N, "engine": {...}}
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        variant: VariantOpts,
    },
    /// The outcome class of every vertex after a sequence of moves (seed 004; rules engine)
    Classes(GoClassesArgs),
    /// The pure-Go and Chinese scores of a sequence, and whether it is Chinese-terminable
    Score {
        /// The graph (with --sgf: the record's board when absent)
        #[arg(long, required_unless_present = "sgf")]
        graph: Option<String>,
        /// Moves from the empty board: "B 1, W 2"
        #[arg(long, default_value = "")]
        moves: String,
        /// An SGF record instead of --moves: the sequence of its main line from its setup
        /// (passes left out, as in the seeds)
        #[arg(long, conflicts_with = "moves")]
        sgf: Option<PathBuf>,
        /// pure or chinese (both are printed; this one comes last, `undefined` with exit status
        /// 1 for the Chinese score of a sequence that is not Chinese-terminable)
        #[arg(long, default_value = "chinese")]
        reading: String,
        /// Rule files or folders (default: the shipped rules)
        #[arg(long = "rules")]
        rules: Vec<PathBuf>,
        /// Komi for White, in points (a whole or half number); the seeds' h is its negative:
        /// White wins when the score (White minus Black) is at least h
        #[arg(long, default_value_t = 0.0, allow_hyphen_values = true)]
        komi: f64,
        /// native (the bound native functions), rules (the definitions alone) or verify (both,
        /// compared)
        #[arg(long, default_value = "native")]
        engine: Engine,
        /// Same as --engine verify
        #[arg(long)]
        verify: bool,
        /// One JSON object: {"pure", "chinese", "terminable", "komi", "winner": {"pure",
        /// "chinese"}}
        #[arg(long)]
        json: bool,
    },
    /// The number of boards (legal positions) of a graph; the count is the last line
    Count {
        /// grid:MxN, path:N, cycle:N, complete:N, star:N or edges:FILE
        #[arg(long)]
        graph: String,
        /// native, or rules (the definitions of rules/go.rule, for small graphs)
        #[arg(long, default_value = "native")]
        engine: Engine,
        /// The memory the count may occupy, in MiB (the native count's tables grow with the
        /// width of a grid; past the bound the count ends with a diagnostic)
        #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_RESIDENT_MB)]
        max_resident_mb: usize,
        /// One JSON object: {"count": N, "engine": {...}}
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        variant: VariantOpts,
    },
    /// The number of regular sequences from the empty board (counting the empty one)
    Sequences {
        /// The graph (with --sgf: the record's board when absent)
        #[arg(long, required_unless_present = "sgf")]
        graph: Option<String>,
        /// Count the sequences that extend these moves from the empty board: "B 1, W 2"
        #[arg(long, default_value = "")]
        moves: String,
        /// Count the sequences that extend an SGF record's main line (passes left out)
        #[arg(long, conflicts_with = "moves")]
        sgf: Option<PathBuf>,
        #[arg(long, default_value = "native")]
        engine: Engine,
        /// Stop with an error once the count passes this many sequences
        #[arg(long, default_value_t = 10_000_000_000)]
        limit: u128,
        /// One JSON object: {"count": N, "engine": {...}}
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        variant: VariantOpts,
    },
    /// The value under perfect play (Black minus White minus komi)
    Solve(GoSolveArgs),
    /// Who won a game under each Go rule set (rules/go_rulesets.rule): the winner, the count
    /// and the play where the game is forbidden, side by side, with the record's own result
    Result(GoResultArgs),
    /// The graph with its vertices and neighbours
    Show(GoShowArgs),
}

#[derive(Args, Clone)]
pub struct PositionOpts {
    /// The position: an SFEN, or `startpos`
    #[arg(long, default_value = "startpos")]
    pub sfen: String,
    /// Moves in USI played from it, separated by spaces
    #[arg(long, default_value = "")]
    pub moves: String,
    #[command(flatten)]
    pub out: OutOpts,
}

/// The options of `okite check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Rule files or folders (default: the built-in rules; `okite rules export DIR` writes them
    /// out to edit)
    pub paths: Vec<PathBuf>,
    /// Also print information notes (recursion groups)
    #[arg(long)]
    pub notes: bool,
    /// One JSON object: {"ok", "files", "definitions", "readings", "examples", "theorems",
    /// "diagnostics": [{"code", "level", "message", "file", "line", "column", "help"}]}
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub out: OutOpts,
}

/// The options of `okite test`.
#[derive(Args)]
pub struct TestArgs {
    /// Rule files or folders (default: the built-in rules; `okite rules export DIR` writes them
    /// out to edit)
    pub paths: Vec<PathBuf>,
    /// Only examples and theorems whose name contains this text
    #[arg(long)]
    pub filter: Option<String>,
    /// Print every example and theorem, not only failures
    #[arg(long, short)]
    pub verbose: bool,
    /// One JSON object: {"passed", "failed", "results": [{"kind", "name", "reading", "file",
    /// "line", "column", "ok", "cases", "message"}]}
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub run: RunOpts,
    #[command(flatten)]
    pub out: OutOpts,
}

/// The options of `okite eval`.
#[derive(Args)]
pub struct EvalArgs {
    /// The expression, in the rule language
    pub expr: String,
    #[command(flatten)]
    pub q: QueryOpts,
    /// Print the value as JSON: {"value": ..., "type": ...}; a shogi state is {"sfen": ...}
    #[arg(long)]
    pub json: bool,
    /// With --json, shogi states as the rules hold them (the map from pieces to places, and the
    /// side to move) instead of their SFEN
    #[arg(long, requires = "json")]
    pub pieces: bool,
    /// A shipped board variant (rules/variants/NAME.rule under its reading NAME): --sfen and
    /// --moves are read in its geometry and bind `s`, the position as rules/variants/board.rule
    /// holds it (`size(legal(s))`, `perft(s, 2)`)
    #[arg(long)]
    pub variant: Option<String>,
}

/// The options of `okite explain`.
#[derive(Args)]
pub struct ExplainArgs {
    pub expr: String,
    #[command(flatten)]
    pub q: QueryOpts,
    /// How many levels of the tree to print
    #[arg(long, default_value_t = 6)]
    pub depth: usize,
    /// One JSON object: {"expr", "value", "tree": [{"text", "value", "place", "children",
    /// "elided", "deeper"}], "cut"} ("cut": the steps shown were cut at their limit)
    #[arg(long)]
    pub json: bool,
    /// A shipped board variant, as for eval: `s` is the position of --sfen and --moves in its
    /// geometry, under its reading unless --reading names another
    #[arg(long)]
    pub variant: Option<String>,
}

/// The options of `okite compare`.
#[derive(Args)]
pub struct CompareArgs {
    pub expr: String,
    /// Comma-separated readings, e.g. narrow,broad
    #[arg(long, value_delimiter = ',', required = true)]
    pub readings: Vec<String>,
    #[command(flatten)]
    pub q: QueryOpts,
    /// Levels of explanation printed where readings differ
    #[arg(long, default_value_t = 4)]
    pub depth: usize,
    /// One JSON object: {"expr", "readings": [{"reading", "value"}], "agree"}; a shogi state is
    /// {"sfen": ...}
    #[arg(long)]
    pub json: bool,
    /// With --json, shogi states as the rules hold them (the map from pieces to places, and the
    /// side to move) instead of their SFEN
    #[arg(long, requires = "json")]
    pub pieces: bool,
    /// A shipped board variant, as for eval: `s` is the position of --sfen and --moves in its
    /// geometry, and the readings compared are its rules' (its own and `base`, the core's)
    #[arg(long)]
    pub variant: Option<String>,
}

/// The options of `okite natives`.
#[derive(Args)]
pub struct NativesArgs {
    /// Rule files or folders (default: the shipped rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// The reading (default: base)
    #[arg(long)]
    pub reading: Option<String>,
    /// Also list every native function okite has, with what it does
    #[arg(long)]
    pub all: bool,
    /// One JSON object: {"reading", "bindings": [...], "engines": [...]}
    #[arg(long)]
    pub json: bool,
}

/// The options of `okite perft`.
#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub pos: PositionOpts,
    /// Depth in plies
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each legal move first
    #[arg(long)]
    pub divide: bool,
    /// native (the move generator, or under a variant its native parts with the changed
    /// definitions by the rules) or rules (the definitions alone)
    #[arg(long, default_value = "native")]
    pub engine: Engine,
    /// Rule files or folders (default: the shipped rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// Count under a reading of the rules, with the history of --moves and of each line;
    /// without it, narrow-check with no history (the usual perft convention: a pawn-drop mate
    /// is a checking pawn drop)
    #[arg(long)]
    pub reading: Option<String>,
    /// One JSON object: {"count", "engine"}
    #[arg(long)]
    pub json: bool,
    /// Threads counting side by side, the first moves handed out among them (default: one per
    /// core); the count, and --divide's lines in their order, are one job's
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub variant: BoardVariantOpts,
}

/// The board variant a shogi command plays (`--variant`, or `--rules` files that state the
/// variant tables of rules/variants/board.rule).
#[derive(Args, Clone, Default)]
pub struct BoardVariantOpts {
    /// A shipped board variant: minishogi, kyotoshogi, dobutsu, judkins, torishogi, euroshogi
    /// (rules/variants/NAME.rule under its reading NAME), run by the engine compiled from its
    /// tables
    #[arg(long)]
    pub variant: Option<String>,
    /// Under a variant: a drop that mates with a kind whose drop mate is forbidden (the pawn) is
    /// `illegal` (the seeds' rule, default) or a move that `loses` (Fairy-Stockfish's
    /// convention, under which its perft counts are taken)
    #[arg(long, value_name = "illegal|loses")]
    pub drop_mate: Option<String>,
}

/// The options of `okite legal`.
#[derive(Args)]
pub struct LegalArgs {
    #[command(flatten)]
    pub pos: PositionOpts,
    /// base (default: the rules as written, for shogi seed 001's narrow reading, as `eval` and
    /// the REPL take them), narrow, broad, narrow-check, broad-check, or any reading of the
    /// rules
    #[arg(long)]
    pub reading: Option<String>,
    /// native, rules or verify (both, compared)
    #[arg(long, default_value = "native")]
    pub engine: Engine,
    /// Same as --engine verify
    #[arg(long)]
    pub verify: bool,
    /// Rule files or folders (default: the shipped rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// One JSON object: {"moves", "engine"}
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub variant: BoardVariantOpts,
}

/// The options of `okite game`.
#[derive(Args)]
pub struct GameArgs {
    /// A KIF or KI2 record (UTF-8 or Shift-JIS)
    #[arg(long)]
    pub kif: Option<PathBuf>,
    /// Many records: a folder (its .kif, .kifu, .ki2 and .csa files, in the order of their
    /// names) or a file that lists records, one path a line (relative to the file's folder); a
    /// report for each, in that order (under --json one object a line, with its "record")
    #[arg(long, conflicts_with_all = ["kif", "csa", "usi"])]
    pub records: Option<PathBuf>,
    /// With --records: records judged side by side (default: one per core); the reports are
    /// printed in their order, as one job prints them
    #[arg(long)]
    pub jobs: Option<usize>,
    /// A CSA record (UTF-8 or Shift-JIS)
    #[arg(long)]
    pub csa: Option<PathBuf>,
    /// USI moves from --sfen (default: the start position); --moves, as the other commands
    /// spell it, is the same
    #[arg(long, visible_alias = "moves")]
    pub usi: Option<String>,
    #[arg(long, default_value = "startpos")]
    pub sfen: String,
    /// Readings to report (default: all four); --reading, as the other commands spell it, is
    /// the same
    #[arg(
        long,
        visible_alias = "reading",
        value_delimiter = ',',
        default_value = "narrow,broad,narrow-check,broad-check"
    )]
    pub readings: Vec<String>,
    /// Rule sets to judge the game by (jsa, amateur, csa, try-rule, or any reading that defines
    /// `verdict`): one row each with the result, the move it falls at and the reason, instead of
    /// the readings' report
    #[arg(long, value_delimiter = ',')]
    pub rulesets: Vec<String>,
    /// Rule files or folders (default: the shipped rules); a reading whose definitions are
    /// not the shipped ones of a native reading is judged by the rules
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// One JSON object: with --rulesets, {"moves": [USI...], "results": [{"ruleset", "result"
    /// (sente, gote, draw, replay or none), "ply", "reason", "agrees"}], "record_result"}; else {"moves": [USI...], "readings": [{"reading", "first_forbidden": {"move",
    /// "usi", "why"} or null, "repetitions", "perpetual_checks", "final_mate", "engine"}]}; for a
    /// record that states its result, also "record_result": {"outcome", "ending", "ply",
    /// "stated", "line"}, and for one whose last move cannot be played, "record_illegal_move":
    /// {"move", "written", "why", "line"}
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub out: OutOpts,
    #[command(flatten)]
    pub variant: BoardVariantOpts,
}

/// The options of `okite show`.
#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub pos: PositionOpts,
    /// One JSON object: {"sfen", "turn", "in_check", "ply"}
    #[arg(long)]
    pub json: bool,
    /// With --json, the position also as a map from squares ("5i") to pieces (USI letters,
    /// "+P" promoted) and the pieces in hand of each side
    #[arg(long, requires = "json")]
    pub pieces: bool,
    /// Rule files or folders that state a board variant's tables
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// The reading of the variant (default: the one the files declare)
    #[arg(long)]
    pub reading: Option<String>,
    #[command(flatten)]
    pub variant: BoardVariantOpts,
}

/// The options of `okite usi`.
#[derive(Args)]
pub struct UsiArgs {
    /// Rule files or folders the search must follow (default: the shipped rules); the USI
    /// option `Rules` names others
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// The reading (the USI option `Reading` changes it)
    #[arg(long, default_value = "narrow-check")]
    pub reading: String,
    /// The memory the process may occupy, in MiB: a search under a reading the rules answer
    /// drops its caches near it and ends past it (`USI_Hash` sizes the search's tables)
    #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_RESIDENT_MB)]
    pub max_resident_mb: usize,
}

/// The options of `okite mate`.
#[derive(Args)]
pub struct MateArgs {
    /// The position (SFEN or `startpos`)
    #[arg(long, conflicts_with = "batch")]
    pub sfen: Option<String>,
    /// USI moves played from --sfen first
    #[arg(long, default_value = "")]
    pub moves: String,
    /// A file with one SFEN per line
    #[arg(long)]
    pub batch: Option<PathBuf>,
    /// The reading whose legality the search follows: narrow-check (default; mate
    /// presupposes check, as in tsume), narrow, broad or broad-check (perpetual check
    /// forbidden, the history given by --moves counted)
    #[arg(long, default_value = "narrow-check")]
    pub reading: String,
    /// shortest (prove the mate is the shortest) or any (stop at the first proof)
    #[arg(long, default_value = "shortest")]
    pub length: String,
    /// Look for mates of at most this many plies (0: no limit)
    #[arg(long, default_value_t = 0)]
    pub max_plies: u32,
    /// Time limit per problem in milliseconds (0: none); --timeout-ms, as the evaluating
    /// commands spell it, is the same
    #[arg(long, visible_alias = "timeout-ms", default_value_t = 60_000)]
    pub time_ms: u64,
    /// Node limit per problem (0: none)
    #[arg(long, default_value_t = 0)]
    pub nodes: u64,
    /// Transposition table size in MiB (at most --max-resident-mb)
    #[arg(long, default_value_t = 256)]
    pub hash_mb: usize,
    /// The memory the search may occupy, in MiB: --hash-mb may not exceed it, nor three
    /// quarters of the machine's memory
    #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_RESIDENT_MB)]
    pub max_resident_mb: usize,
    /// Threads searching each problem together (1 to 32), sharing the one table of --hash-mb
    /// MiB; --nodes bounds each thread's nodes. The search under a variant (--rules that change
    /// what it stands for) runs on one thread, and says so
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// With --batch: problems searched side by side (default: one per core), each with its
    /// share of --hash-mb (a total); the answers are printed in the order of the file
    #[arg(long)]
    pub jobs: Option<usize>,
    /// One JSON object per problem: {"result", "plies", "pv", "nodes", "ms", "shortest",
    /// "lower_bound", "engine"} (`lower_bound`: no mate has fewer plies, proved)
    #[arg(long)]
    pub json: bool,
    /// Rule files or folders whose definitions the search must follow (default: the shipped
    /// rules); the search runs where its definitions are the shipped ones of a reading
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    #[command(flatten)]
    pub variant: BoardVariantOpts,
}

/// The options of `okite go result`.
#[derive(Args, Clone)]
pub struct GoResultArgs {
    /// The graph (with --sgf or --records: the record's board when absent)
    #[arg(long, required_unless_present_any = ["sgf", "records"])]
    pub graph: Option<String>,
    /// Plays from the empty board: "B D4, W pass, B pass" (vertex names as `okite go show`
    /// prints them)
    #[arg(long, default_value = "")]
    pub moves: String,
    /// An SGF record (its setup, main line, KM, HA, RE, TB/TW)
    #[arg(long, conflicts_with = "moves")]
    pub sgf: Option<PathBuf>,
    /// Many SGF records: a folder (its .sgf files, in the order of their names) or a file
    /// that lists records, one path a line (relative to the file's folder); a report for each,
    /// in that order (with --json a JSON object a line, its "record" first, or
    /// {"record", "result": "error", "code", "message"} for a record that cannot be judged)
    #[arg(long, conflicts_with_all = ["moves", "sgf"])]
    pub records: Option<PathBuf>,
    /// With --records: records judged side by side (default: one per core); the reports are
    /// printed in the order of the records, as one job prints them
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Rule sets: tromp-taylor, chinese, japanese, korean, aga, new-zealand, ing, pure, or
    /// any reading that defines `go_verdict`
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "tromp-taylor,chinese,japanese,korean,aga,new-zealand,ing,pure"
    )]
    pub rulesets: Vec<String>,
    /// The stones dead at the end, by vertex name: "C3,D3" (instead of the record's TB/TW
    /// or the outcome classes of seed 004)
    #[arg(long)]
    pub dead: Option<String>,
    /// Komi for White in points, for every rule set (default: the record's KM, else each
    /// rule set's own)
    #[arg(long, allow_hyphen_values = true)]
    pub komi: Option<f64>,
    /// Handicap stones (default: the record's HA, else 0)
    #[arg(long)]
    pub handicap: Option<usize>,
    /// Rule files or folders (default: the shipped rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// native (bound natives where their definitions are the shipped ones), rules (the
    /// definitions alone) or verify (both, compared)
    #[arg(long, default_value = "native")]
    pub engine: Engine,
    /// One JSON object: {"results": [{"ruleset", "winner" (B, W, draw or null), "score"
    /// (White minus Black, komi included, or null), "reason", "play", "agrees" (null when
    /// nothing is compared), "not_shown" (why the record's result is not compared: the moves do
    /// not show it; else null)}], "plays",
    /// "komi", "handicap", "dead": {"source", "stones"}, "record_result"}
    #[arg(long)]
    pub json: bool,
}

/// The options of `okite tsume`.
#[derive(Args)]
pub struct TsumeArgs {
    /// The problem (SFEN; the side to move mates)
    #[arg(long, conflicts_with_all = ["kif", "csa", "batch"])]
    pub sfen: Option<String>,
    /// A file of problems, one SFEN a line (blank lines and `#` comments skipped): a report for
    /// each, in the order of the file, its solution the shortest mate the df-pn search finds
    #[arg(long, conflicts_with_all = ["kif", "csa", "solution"])]
    pub batch: Option<PathBuf>,
    /// With --batch: problems checked side by side (default: one per core); the reports are
    /// printed in the order of the file, as one job prints them
    #[arg(long)]
    pub jobs: Option<usize>,
    /// The problem and its intended solution as a KIF or KI2 record
    #[arg(long, conflicts_with = "csa")]
    pub kif: Option<PathBuf>,
    /// The problem and its intended solution as a CSA record
    #[arg(long)]
    pub csa: Option<PathBuf>,
    /// The intended solution in USI moves (default: the record's moves, else the shortest mate
    /// the df-pn search finds)
    #[arg(long)]
    pub solution: Option<String>,
    /// The conventions, by the readings of rules/shogi_tsume.rule, comma-separated (default:
    /// common,common-unique-last,common-unique-variations,strict,strict-unique-last)
    #[arg(long)]
    pub conventions: Option<String>,
    /// Time limit in milliseconds for the whole report (0: none); --timeout-ms is the same
    #[arg(long, visible_alias = "timeout-ms", default_value_t = 60_000)]
    pub time_ms: u64,
    /// Limit on the positions the checker visits (0: none)
    #[arg(long, default_value_t = 50_000_000)]
    pub nodes: u64,
    /// Longest solution searched for when none is given, in plies
    #[arg(long, default_value_t = 61)]
    pub max_plies: u32,
    /// Threads of the df-pn search for the main line when none is given (1 to 32, sharing its
    /// table); the soundness check that follows runs on one
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// One JSON object
    #[arg(long)]
    pub json: bool,
    /// Rule files or folders whose conventions are followed (default: the shipped rules); rule
    /// files that state a board variant's tables give the variant (the shipped conventions are
    /// then followed)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    #[command(flatten)]
    pub variant: BoardVariantOpts,
}

/// The options of `okite go classes`.
#[derive(Args)]
pub struct GoClassesArgs {
    /// grid:MxN, path:N, cycle:N, complete:N, star:N or edges:FILE (with --sgf: the
    /// record's board when absent)
    #[arg(long, required_unless_present = "sgf")]
    pub graph: Option<String>,
    /// Moves from the empty board: "B 1, W 2" (vertex names as `okite go show` prints them)
    #[arg(long, default_value = "")]
    pub moves: String,
    /// An SGF record instead of --moves: the sequence of its main line from its setup
    /// (passes left out, as in the seeds)
    #[arg(long, conflicts_with = "moves")]
    pub sgf: Option<PathBuf>,
    /// A reading of rules/go_life.rule (e.g. cautious, literal-ultimate)
    #[arg(long)]
    pub reading: Option<String>,
    /// Rule files or folders (default: the shipped rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    /// native (the search of src/go/life.rs), rules (the definitions of
    /// rules/go_life.rule) or verify (both, reporting a difference)
    #[arg(long, default_value = "native")]
    pub engine: Engine,
    /// Bound on the sequences the native search visits
    #[arg(long, default_value_t = crate::go::life::DEFAULT_NODE_LIMIT)]
    pub nodes: u64,
    /// Bound on the sequences the native search visits for each vertex: a vertex that
    /// passes it is left unclassified (`?`; null in the JSON, and named in its
    /// "unfinished", a field present only then) and the others are classified; the command
    /// then prints them and ends with E0605
    #[arg(long)]
    pub vertex_nodes: Option<u64>,
    /// The native search: proof-numbers (the default where it applies: the reconstruction's
    /// table, graphs of up to 16 vertices) or depth-first (one option after another)
    #[arg(long, value_enum, default_value = "proof-numbers")]
    pub search: LifeSearch,
    /// The proof-number search's first disproof number of a sequence of L boards is
    /// 1 + L / K (0, the default: 1 whatever the length). It steers the search away from
    /// long capture and recapture fights; the classes are the same, the visits fewer on
    /// some positions and more on others
    #[arg(long, default_value_t = 0)]
    pub length_step: u32,
    /// The proof-number search's disproof number of a question is the largest of its
    /// options' plus one for each other open option, not their sum (weak proof numbers):
    /// the same classes, far fewer visits on some long capture fights of paths, more on
    /// grids
    #[arg(long)]
    pub weak_numbers: bool,
    /// Memory the process may occupy, in MiB, by the rules or the native search: past it
    /// the classification ends with a diagnostic
    #[arg(long, default_value_t = crate::eval::DEFAULT_MAX_RESIDENT_MB)]
    pub max_resident_mb: usize,
    /// The table of the proof-number search's estimates (the numbers of the sequences it
    /// leaves open, which only steer it), in MiB, at most half of --max-resident-mb: when full
    /// it forgets the lightest, and a search of hundreds of millions of visits may then
    /// search again what it forgot. The classes are the same. Each thread of --threads has a
    /// table of its own, within a quarter of --max-resident-mb shared among them [default:
    /// 64, or a quarter of --max-resident-mb when that is less]
    #[arg(long)]
    pub estimate_mb: Option<usize>,
    /// Only these vertices (names as `okite go show` prints them, comma-separated or the
    /// option repeated): the others are not searched, and shown `-` (null in the JSON)
    /// unless a symmetry of the sequence gives their class
    #[arg(long = "vertex", value_delimiter = ',')]
    pub vertices: Vec<String>,
    /// Threads of the native search (1 to 32), each classifying a vertex of its own at a
    /// time with tables of its own (the memory grows with them); --nodes bounds the visits
    /// of all together. The rules classify on one thread, and say so
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// A file of results of the proof-number search: read first when it exists, and
    /// written with this run's results (at the end, every ten minutes while it searches,
    /// and as soon as a question that took a search is answered), so that a long
    /// classification can be resumed or split over runs (e.g. a position after each first
    /// move, then the position before them). Ctrl-C stops the search and keeps them too
    /// (exit status 130; a second Ctrl-C ends at once). Only questions answered exactly are
    /// kept; a search resumed from few of them may take another path and is not always
    /// shorter
    #[arg(long)]
    pub results: Option<PathBuf>,
    /// More files of results to read (not written)
    #[arg(long = "read-results")]
    pub read_results: Vec<PathBuf>,
    /// One question of each asked vertex instead of its class: whether this colour moving
    /// first gets it. The proof-number search answers it (the default table or
    /// p-to-chooser, graphs of up to 16 vertices); the answers are printed a line each
    /// ("vertex 1: Black moving first gets it by B 2") and are the JSON's "answers" (its
    /// "classes" null). Where a proof is split over runs one answer is often all that is
    /// wanted, and the other question may take far longer
    #[arg(long, value_enum)]
    pub ask: Option<AskColour>,
    #[arg(long)]
    pub json: bool,
}

/// The options of `okite go solve`.
#[derive(Args)]
pub struct GoSolveArgs {
    /// The graph (with --sgf: the record's board when absent)
    #[arg(long, required_unless_present = "sgf")]
    pub graph: Option<String>,
    /// Solve after these moves from the empty board ("B 1, W 2"; the player who did not
    /// move last is to move; the native solver only)
    #[arg(long, default_value = "")]
    pub moves: String,
    /// Solve the final position of an SGF record's main line (the player who did not move
    /// last is to move; the native solver only)
    #[arg(long, conflicts_with = "moves")]
    pub sgf: Option<PathBuf>,
    /// A reading of the rules' `solve` (rules/go_play.rule: area, or the stones-only score of
    /// base, situational, simple-ko (a cycle ends the game even); rules/go.rule: suicide; or
    /// a reading of your own): the native solver where its definitions are those of one of
    /// these shipped readings, the rules otherwise (graphs of at most 6 vertices, from the
    /// empty board)
    #[arg(long, default_value = "area")]
    pub reading: String,
    /// Rule files or folders (default: the shipped rules)
    #[arg(long = "rules")]
    pub rules: Vec<PathBuf>,
    #[arg(long, default_value_t = 0.0)]
    pub komi: f64,
    /// Search node budget
    #[arg(long, default_value_t = 2_000_000_000)]
    pub nodes: u64,
    /// Time budget in milliseconds (0: none), of the native solver or of the rules'
    /// evaluation; --timeout-ms is the same
    #[arg(long, visible_alias = "timeout-ms", default_value_t = 0)]
    pub time_ms: u64,
    /// Memory of the native solver's transposition table in MiB (at most 65536; 0: none)
    #[arg(long, default_value_t = 512)]
    pub hash_mb: usize,
    /// One JSON object: {"value", "pv", "nodes", "seconds", "engine", ...}
    #[arg(long)]
    pub json: bool,
}

/// The options of `okite go show`.
#[derive(Args)]
pub struct GoShowArgs {
    /// The graph (with --sgf: the record's board when absent)
    #[arg(long, required_unless_present = "sgf")]
    pub graph: Option<String>,
    /// Graphviz dot instead of a diagram
    #[arg(long)]
    pub dot: bool,
    /// An SGF record whose final position is shown (grid boards)
    #[arg(long)]
    pub sgf: Option<PathBuf>,
    /// Moves played from the empty board: "B A1, W B2, B pass" (vertex names as shown)
    #[arg(long)]
    pub moves: Option<String>,
    /// One JSON object: {"graph", "board" (a character per vertex: X black, O white, .
    /// empty), "vertices": [{"name", "stone", "sgf" (grids), "neighbours"}]}
    #[arg(long, conflicts_with = "dot")]
    pub json: bool,
}
