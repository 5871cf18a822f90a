#![forbid(unsafe_code)]
//! Places in two spellings: okite's byte offsets into UTF-8 text, and the editor's lines and
//! UTF-16 code units (a letter like 𝓟 is one `char`, four bytes and two UTF-16 units).

use crate::diagnostics::{floor_char_boundary as floor, Diag, FileId, Level, SourceMap, Span};
use lsp_types::{
    DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Position, Range,
    Url,
};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Where each line of a text starts, to turn byte offsets into positions and back.
pub struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    pub fn new(text: &'t str) -> LineIndex<'t> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// The editor's range of a span of this text (without the blanks a parsed item's span
    /// takes up after it).
    pub fn span_range(&self, span: Span) -> Range {
        let (s, e) = (span.start as usize, span.end as usize);
        let e = match self.text.get(s..e) {
            Some(t) => s + t.trim_end().len(),
            None => e,
        };
        self.range(s, e)
    }

    /// The position of a byte offset (clamped to the text, and to a char boundary).
    pub fn position(&self, offset: usize) -> Position {
        let offset = floor(self.text, offset);
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[line];
        let character: usize = self.text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    /// The byte offset of a position; a line past the end is the end of the text, a character past
    /// the end of its line is the end of the line, and one inside a surrogate pair is the char's start.
    pub fn offset(&self, pos: Position) -> usize {
        let Some(&start) = self.starts.get(pos.line as usize) else {
            return self.text.len();
        };
        let end = self
            .starts
            .get(pos.line as usize + 1)
            .map(|e| e - 1)
            .unwrap_or(self.text.len());
        let mut units = 0usize;
        for (i, c) in self.text[start..end].char_indices() {
            let next = units + c.len_utf16();
            if next > pos.character as usize {
                return start + i;
            }
            units = next;
        }
        end
    }

    pub fn range(&self, start: usize, end: usize) -> Range {
        Range::new(self.position(start), self.position(end.max(start)))
    }
}

/// The related places one diagnostic gives the editor at most.
pub const MAX_RELATED: usize = 100;

/// The file a `file:` URI names.
pub fn uri_path(uri: &Url) -> Option<PathBuf> {
    if uri.scheme() != "file" {
        return None;
    }
    uri.to_file_path().ok()
}

/// The `file:` URI of a path (made absolute first).
pub fn path_uri(path: &Path) -> Option<Url> {
    let abs = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().ok()?.join(path)
    };
    Url::from_file_path(abs).ok()
}

/// The editor's places of spans of the sources: each file's line index and URI are made once,
/// at its first span, for all the spans asked of it (made for each span, the diagnostics of a
/// document of 40,000 definitions took 25 s).
pub struct Places<'a> {
    sources: &'a SourceMap,
    index: HashMap<FileId, LineIndex<'a>>,
    uris: HashMap<FileId, Option<Url>>,
}

impl<'a> Places<'a> {
    pub fn new(sources: &'a SourceMap) -> Places<'a> {
        Places {
            sources,
            index: HashMap::new(),
            uris: HashMap::new(),
        }
    }

    pub fn sources(&self) -> &'a SourceMap {
        self.sources
    }

    /// The editor's range of a span, in the text of the source it names (without the blanks a
    /// parsed item's span takes up after it).
    pub fn range(&mut self, span: Span) -> Option<Range> {
        let f = self.sources.get(span.file)?;
        let index = self
            .index
            .entry(span.file)
            .or_insert_with(|| LineIndex::new(&f.text));
        Some(index.span_range(span))
    }

    /// Where a span lies, for an editor: a URI and a range (sources without a path have none).
    pub fn location(&mut self, span: Span) -> Option<Location> {
        let sources = self.sources;
        let uri = self
            .uris
            .entry(span.file)
            .or_insert_with(|| path_uri(sources.get(span.file)?.path.as_ref()?))
            .clone()?;
        Some(Location::new(uri, self.range(span)?))
    }
}

/// Where a span lies, for an editor: a URI and a range (sources without a path have none). For
/// many spans, [`Places`].
pub fn span_location(sources: &SourceMap, span: Span) -> Option<Location> {
    Places::new(sources).location(span)
}

/// `file:line` of a span, for messages.
pub fn span_place(sources: &SourceMap, span: Span) -> String {
    let (line, _) = sources.line_col(span.file, span.start);
    let name = sources
        .get(span.file)
        .map(|f| {
            f.path
                .as_ref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| f.name.clone())
        })
        .unwrap_or_else(|| "?".into());
    format!("{name}:{line}")
}

pub fn severity(level: Level) -> DiagnosticSeverity {
    match level {
        Level::Error => DiagnosticSeverity::ERROR,
        Level::Warning => DiagnosticSeverity::WARNING,
        Level::Info => DiagnosticSeverity::INFORMATION,
    }
}

/// An okite diagnostic as the editor shows it on a document: `here` is where it goes in that
/// document (its primary span's range when the span is in it, else a place standing for the
/// file that holds it, such as the `use` that brings it in). Further labels and the related
/// diagnostics become related information (at most [`MAX_RELATED`]); the help line follows the
/// message.
pub fn diagnostic(
    d: &Diag,
    places: &mut Places,
    here: Range,
    elsewhere: bool,
) -> lsp_types::Diagnostic {
    let sources = places.sources();
    let mut message = d.message.clone();
    if elsewhere {
        if let Some(s) = d.primary_span() {
            message = format!("{}: {message}", span_place(sources, s));
        }
    }
    if let Some((_, label)) = d.labels.first() {
        if !label.is_empty() && !elsewhere {
            message = format!("{message}\n{label}");
        }
    }
    if let Some(h) = &d.help {
        message = format!("{message}\nhelp: {h}");
    }
    let mut related = vec![];
    let skip = if elsewhere { 0 } else { 1 };
    for (s, text) in d.labels.iter().skip(skip).take(MAX_RELATED) {
        if let Some(location) = places.location(*s) {
            related.push(DiagnosticRelatedInformation {
                location,
                message: if text.is_empty() {
                    d.message.clone()
                } else {
                    text.clone()
                },
            });
        }
    }
    for r in d
        .related
        .iter()
        .take(MAX_RELATED.saturating_sub(related.len()))
    {
        if let Some(location) = r.primary_span().and_then(|s| places.location(s)) {
            related.push(DiagnosticRelatedInformation {
                location,
                message: r.message.clone(),
            });
        }
    }
    lsp_types::Diagnostic {
        range: here,
        severity: Some(severity(d.level)),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("okite".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Default::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_and_utf16_positions() {
        let text = "def a = 1\n// 𝓟 と 先手\nx𝓟y\n";
        let ix = LineIndex::new(text);
        assert_eq!(ix.position(0), Position::new(0, 0));
        let y = text.find('y').unwrap();
        assert_eq!(ix.position(y), Position::new(2, 3));
        assert_eq!(ix.offset(Position::new(2, 3)), y);
        let te = text.find('と').unwrap();
        assert_eq!(ix.position(te), Position::new(1, 6));
        assert_eq!(ix.offset(Position::new(1, 6)), te);
        // inside the surrogate pair of 𝓟: the char's start
        let p = text.find("𝓟y").unwrap();
        assert_eq!(ix.offset(Position::new(2, 2)), p);
        // past the line's end, past the text's end
        assert_eq!(ix.offset(Position::new(0, 99)), 9);
        assert_eq!(ix.offset(Position::new(99, 0)), text.len());
        // an offset inside a char is its start
        assert_eq!(ix.position(p + 1), Position::new(2, 1));
        assert_eq!(ix.position(text.len() + 10), Position::new(3, 0));
    }
}
