#![forbid(unsafe_code)]
//! Errors are data: a [`Diag`] holds a code, one sentence, labelled spans and a help line. This
//! module is the one place where they become miette reports.

pub mod catalogue;
pub mod code;
pub mod excerpt;
pub mod span;

use miette::{LabeledSpan, MietteDiagnostic, Report, Severity};
pub use span::{FileId, Span};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// One source text: a rule file, or a line typed at the REPL or on the command line.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub path: Option<PathBuf>,
    pub text: Arc<String>,
}

/// All sources seen so far; a [`Span`] names one of them by index.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    pub files: Vec<SourceFile>,
}

impl SourceMap {
    pub fn add(&mut self, name: impl Into<String>, path: Option<PathBuf>, text: String) -> FileId {
        self.files.push(SourceFile {
            name: name.into(),
            path,
            text: Arc::new(text),
        });
        (self.files.len() - 1) as FileId
    }
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id as usize)
    }
    pub fn snippet(&self, span: Span) -> &str {
        self.get(span.file)
            .and_then(|f| f.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }
    /// 1-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let Some(f) = self.get(file) else {
            return (0, 0);
        };
        let end = (offset as usize).min(f.text.len());
        let before = &f.text[..floor_char_boundary(&f.text, end)];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        (line, col)
    }
}

/// The largest char boundary of `s` at or before `i` (at most the length of `s`).
pub(crate) fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    Error,
    Warning,
    Info,
}

/// A diagnostic: what went wrong, where, and what to do about it.
#[derive(Clone, Debug)]
pub struct Diag {
    pub code: &'static str,
    pub level: Level,
    pub message: String,
    /// Labelled spans; the first is the primary one.
    pub labels: Vec<(Span, String)>,
    pub help: Option<String>,
    /// Further diagnostics shown beneath this one (for example each step of a cycle).
    pub related: Vec<Diag>,
}

impl Diag {
    pub fn error(code: &'static str, message: impl Into<String>) -> Diag {
        Diag {
            code,
            level: Level::Error,
            message: message.into(),
            labels: vec![],
            help: None,
            related: vec![],
        }
    }
    pub fn info(code: &'static str, message: impl Into<String>) -> Diag {
        Diag {
            level: Level::Info,
            ..Diag::error(code, message)
        }
    }
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diag {
        Diag {
            level: Level::Warning,
            ..Diag::error(code, message)
        }
    }
    pub fn label(mut self, span: Span, text: impl Into<String>) -> Diag {
        self.labels.push((span, text.into()));
        self
    }
    pub fn help(mut self, text: impl Into<String>) -> Diag {
        self.help = Some(text.into());
        self
    }
    pub fn related(mut self, d: Diag) -> Diag {
        self.related.push(d);
        self
    }
    pub fn is_error(&self) -> bool {
        self.level == Level::Error
    }
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.0)
    }

    /// The miette report for this diagnostic, with its source attached.
    pub fn to_report(&self, sources: &SourceMap) -> Report {
        let mut d =
            MietteDiagnostic::new(self.message.clone()).with_code(format!("okite::{}", self.code));
        d = d.with_severity(match self.level {
            Level::Error => Severity::Error,
            Level::Warning => Severity::Warning,
            Level::Info => Severity::Advice,
        });
        if let Some(h) = &self.help {
            d = d.with_help(h.clone());
        }
        let file = self.primary_span().map(|s| s.file);
        let source = file.and_then(|f| sources.get(f));
        // labels in the primary file, placed in the excerpt of it that is shown; labels in other
        // files become related reports
        let here: Vec<&(Span, String)> = self
            .labels
            .iter()
            .filter(|(s, _)| Some(s.file) == file)
            .collect();
        let (excerpt, placed) = match source {
            Some(f) => {
                let (x, p) = excerpt::Excerpt::new(
                    &f.name,
                    &f.text,
                    &here
                        .iter()
                        .map(|(s, _)| (s.start as usize, s.end as usize))
                        .collect::<Vec<_>>(),
                );
                (Some(x), p)
            }
            None => (None, vec![]),
        };
        let mut labels = vec![];
        for (i, (span, text)) in here.iter().enumerate() {
            let (offset, len) = match placed.get(i) {
                Some(p) => (p.offset, p.len),
                None => (span.start as usize, span.len()),
            };
            let text = if text.is_empty() {
                None
            } else {
                Some(text.clone())
            };
            labels.push(if i == 0 {
                LabeledSpan::new_primary_with_span(text, (offset, len))
            } else {
                LabeledSpan::new(text, offset, len)
            });
        }
        d = d.with_labels(labels);
        // labels that point into another file are shown as related notes with their own source
        let foreign: Vec<Diag> = self
            .labels
            .iter()
            .filter(|(s, _)| Some(s.file) != file)
            .map(|(s, t)| Diag::info("note", t.clone()).label(*s, ""))
            .collect();
        let mut report = Report::new(Related {
            inner: d,
            related: self
                .related
                .iter()
                .chain(foreign.iter())
                .map(|r| r.to_report(sources))
                .collect(),
        });
        if let Some(x) = excerpt {
            report = report.with_source_code(x);
        }
        report
    }

    /// Plain text, one line: `file:line:col: message`.
    pub fn one_line(&self, sources: &SourceMap) -> String {
        match self.primary_span() {
            Some(s) => {
                let (l, c) = sources.line_col(s.file, s.start);
                let name = sources.get(s.file).map(|f| f.name.as_str()).unwrap_or("?");
                format!("{name}:{l}:{c}: {}", self.message)
            }
            None => self.message.clone(),
        }
    }
}

/// A miette diagnostic with related diagnostics that carry their own sources.
#[derive(Debug)]
struct Related {
    inner: MietteDiagnostic,
    related: Vec<Report>,
}

impl fmt::Display for Related {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.inner, f)
    }
}
impl std::error::Error for Related {}
impl miette::Diagnostic for Related {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.code()
    }
    fn severity(&self) -> Option<Severity> {
        self.inner.severity()
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.inner.help()
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.inner.labels()
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        if self.related.is_empty() {
            None
        } else {
            Some(Box::new(
                self.related
                    .iter()
                    .map(|r| r.as_ref() as &dyn miette::Diagnostic),
            ))
        }
    }
}

/// Render diagnostics as text. `width` fixes the line width (tests use it for stable snapshots);
/// `color` chooses between the coloured and the plain Unicode theme.
pub fn render(diags: &[Diag], sources: &SourceMap, width: usize, color: bool) -> String {
    let mut out = String::new();
    let mut shown = 0;
    for d in diags.iter().take(MAX_RENDERED) {
        if out.len() >= MAX_RENDERED_BYTES {
            break;
        }
        out.push_str(&render_one(d, sources, width, color));
        shown += 1;
    }
    if diags.len() > shown {
        let rest = &diags[shown..];
        let errors = rest.iter().filter(|d| d.is_error()).count();
        out.push_str(&format!(
            "… and {} more diagnostics ({errors} of them errors), not shown\n",
            rest.len()
        ));
    }
    out
}

/// Diagnostics rendered at most by one call of [`render`]; the rest are counted. An input with
/// an error at every character (a 100 KB bad SFEN, a generated file) is told in bounded output.
pub const MAX_RENDERED: usize = 100;
/// Bytes of rendered text after which [`render`] shows no further diagnostic, only their count:
/// a hundred diagnostics of long lines (each excerpt is bounded, not small) stay within what a
/// terminal or a log can take. One excerpt is at most about 30 KB (see `excerpt::MAX_LINES`).
pub const MAX_RENDERED_BYTES: usize = 64 << 10;

pub fn render_one(d: &Diag, sources: &SourceMap, width: usize, color: bool) -> String {
    let report = d.to_report(sources);
    render_report(report.as_ref(), width, color)
}

#[cfg(feature = "fancy")]
pub fn render_report(d: &dyn miette::Diagnostic, width: usize, color: bool) -> String {
    use miette::{GraphicalReportHandler, GraphicalTheme};
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_links(false);
    let mut s = String::new();
    if handler.render_report(&mut s, d).is_err() {
        s = format!("error: {d}\n");
    }
    s
}

#[cfg(not(feature = "fancy"))]
pub fn render_report(d: &dyn miette::Diagnostic, _width: usize, _color: bool) -> String {
    let mut s = String::new();
    let _ = miette::NarratableReportHandler::new().render_report(&mut s, d);
    s
}

/// Names longer than this get no "did you mean": the edit distance takes time in the product of
/// the two lengths.
pub const MAX_SUGGEST_CHARS: usize = 64;

/// "did you mean" candidates: the closest names by edit distance (at most a third of the longer
/// name's length; candidates whose length alone differs by more are passed over).
pub fn suggest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let n = name.chars().count();
    if n > MAX_SUGGEST_CHARS {
        return None;
    }
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let m = c.chars().take(MAX_SUGGEST_CHARS + 1).count();
        let limit = (n.max(m) / 3).max(1);
        if m > MAX_SUGGEST_CHARS || n.abs_diff(m) > limit {
            continue;
        }
        let d = edit_distance(name, c);
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}
