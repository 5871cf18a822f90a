#![forbid(unsafe_code)]
//! Places in source texts: a [`Span`] is a byte range of one file of a
//! [`crate::diagnostics::SourceMap`]. Every syntax node, resolved expression and diagnostic
//! carries one.

use std::fmt;

/// Index of a source file in a [`crate::diagnostics::SourceMap`].
pub type FileId = u32;

/// A byte range in one source file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn len(&self) -> usize {
        (self.end - self.start) as usize
    }
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }
    /// The smallest span covering both (same file assumed).
    pub fn to(&self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("@")
    }
}
