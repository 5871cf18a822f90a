#![forbid(unsafe_code)]
//! The positions a `mate` command searches: its `--sfen`, or each line of its `--batch` file,
//! and the answer for one that cannot be read (its line, its diagnostics, a JSON object in its
//! place).

use super::args::MateArgs;
use super::common::*;
use crate::commands::report::batch::ProblemError;
use crate::diagnostics::code;
use crate::diagnostics::Diag;

/// A problem read for the native search: the positions of its game (`--moves` played on a
/// lone `--sfen`), or the diagnostics of why it does not read, with their sources.
pub(super) fn read_problem(
    a: &MateArgs,
    p: &Problem,
) -> Result<Vec<crate::shogi::position::Position>, (crate::diagnostics::SourceMap, Vec<Diag>)> {
    let none = crate::diagnostics::SourceMap::default;
    if let Some(d) = p.unreadable(a.batch.as_deref()) {
        return Err((none(), vec![d]));
    }
    let moves = if a.batch.is_some() { "" } else { &a.moves };
    let game = crate::front::shogi_game(&p.text, moves)?;
    crate::front::engine_start(&game.positions).map_err(|d| (none(), vec![d]))?;
    Ok(game.positions)
}

/// The problems a `mate` command asks: its `--sfen`, or each position of its `--batch` file.
pub(super) fn problems_of(a: &MateArgs, printer: &Printer) -> Result<Vec<Problem>, i32> {
    match (&a.sfen, &a.batch) {
        (Some(s), _) => Ok(vec![Problem::given(s)]),
        (None, Some(path)) => batch_of(path, printer),
        (None, None) => Err(printer.fail(
            Diag::error(code::BAD_OPTION, "no position to search")
                .help("give a position with --sfen or a file of positions with --batch"),
        )),
    }
}

/// The problems of the batch file `path`, one a position (its diagnostic printed when it cannot
/// be read).
pub(super) fn batch_of(path: &std::path::Path, printer: &Printer) -> Result<Vec<Problem>, i32> {
    match crate::check::load::read_limited(
        path,
        MAX_BATCH_BYTES,
        ("a batch of positions", "batches of positions"),
    ) {
        Ok(bytes) => Ok(batch_problems(&bytes)),
        Err(d) => Err(printer.fail(d)),
    }
}

/// A position to search: its text and, in a batch, its line in the file (1 for the first), and
/// where the line is not UTF-8, the offset of its first invalid byte (the text is then lossy).
pub(super) struct Problem {
    pub(super) line: Option<usize>,
    pub(super) text: String,
    not_utf8: Option<usize>,
}

impl Problem {
    /// A position given on the command line.
    pub(super) fn given(text: &str) -> Problem {
        Problem {
            line: None,
            text: text.to_string(),
            not_utf8: None,
        }
    }

    /// A line of `batch` that is not text: E0006 with its line and the offset of its first
    /// invalid byte.
    pub(super) fn unreadable(&self, batch: Option<&std::path::Path>) -> Option<Diag> {
        self.not_utf8.map(|at| {
            let batch = batch.map_or(String::new(), |b| format!("`{}` ", b.display()));
            let line = self.line.unwrap_or(1);
            Diag::error(
                code::NOT_TEXT,
                format!("{batch}line {line} is not UTF-8 text (an invalid byte at offset {at} of the line)"),
            )
            .help("a batch holds one SFEN a line, as UTF-8 text")
        })
    }
}

/// The problems of a batch file: one a line that is neither blank nor a `#` comment, numbered as
/// in the file; a line that is not UTF-8 is a problem of its own, so that the others are read.
fn batch_problems(bytes: &[u8]) -> Vec<Problem> {
    let bytes = bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes);
    bytes
        .split(|&b| b == b'\n')
        .enumerate()
        .map(|(i, l)| {
            let (text, not_utf8) = match std::str::from_utf8(l) {
                Ok(t) => (t.trim().to_string(), None),
                Err(e) => (
                    String::from_utf8_lossy(l).trim().to_string(),
                    Some(e.valid_up_to()),
                ),
            };
            Problem {
                line: Some(i + 1),
                text,
                not_utf8,
            }
        })
        .filter(|p| p.not_utf8.is_some() || (!p.text.is_empty() && !p.text.starts_with('#')))
        .collect()
}

/// The largest batch file read (a position is under 200 bytes: this is millions of them).
const MAX_BATCH_BYTES: usize = 256 << 20;

/// A problem whose position cannot be read: its diagnostics, with the file and line of a batch,
/// and under `--json` an object in its place, so that the answers stay one a problem. The batch
/// goes on; the exit status is the diagnostics'.
pub(super) fn bad_problem(
    a: &MateArgs,
    p: &Problem,
    sources: crate::diagnostics::SourceMap,
    ds: &[Diag],
    printer: &Printer,
) -> i32 {
    bad_line(a.batch.as_deref(), a.json, p, sources, ds, printer)
}

/// [`bad_problem`] of any command's batch: `batch` names the file, `json` asks for the object.
pub(super) fn bad_line(
    batch: Option<&std::path::Path>,
    json: bool,
    p: &Problem,
    mut sources: crate::diagnostics::SourceMap,
    ds: &[Diag],
    printer: &Printer,
) -> i32 {
    if let (Some(path), Some(line)) = (batch, p.line) {
        for f in sources.files.iter_mut().filter(|f| f.name == "--sfen") {
            f.name = format!("{} line {line}", path.display());
        }
    }
    let code = printer.fail_all(ds, &sources);
    if json {
        let first = ds.first();
        let report = ProblemError {
            result: "error",
            line: p.line,
            code: first.map_or("", |d| d.code).to_string(),
            message: first.map_or("", |d| d.message.as_str()).to_string(),
        };
        outln!("{}", crate::json::text(&report));
    }
    code
}
