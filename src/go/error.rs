//! Error type shared by the Go engine: a message, a hint and an optional source span.

use std::fmt;

/// A position in some source text (a spec string, an edge-list file, an SGF record).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Span {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// Byte offset from the start of the text.
    pub offset: usize,
}

impl Span {
    /// Computes line and column for a byte offset in `text`.
    pub fn at(text: &str, offset: usize) -> Span {
        let offset = offset.min(text.len());
        let mut line = 1;
        let mut column = 1;
        for (i, ch) in text.char_indices() {
            if i >= offset {
                break;
            }
            if ch == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
        }
        Span {
            line,
            column,
            offset,
        }
    }
}

/// An error of the Go engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoError {
    /// What went wrong.
    pub message: String,
    /// How to fix it.
    pub help: String,
    /// Where in the input, when the input is text.
    pub span: Option<Span>,
    /// What kind of error: of the input, or of a computation that passed a bound.
    pub kind: ErrorKind,
}

/// What a [`GoError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The input is malformed or out of what the engine takes.
    Input,
    /// The computation would pass the memory it may occupy (the input itself may be fine).
    Memory,
    /// The computation passed a limit it was given (a count's `--limit`).
    Limit,
    /// The computation was stopped from outside (Ctrl-C) before it ended.
    Interrupted,
    /// A file the computation keeps its results in cannot be read or written, or is not one.
    File,
}

impl GoError {
    /// An error without a position.
    pub fn new(message: impl Into<String>, help: impl Into<String>) -> GoError {
        GoError {
            message: message.into(),
            help: help.into(),
            span: None,
            kind: ErrorKind::Input,
        }
    }

    /// A computation stopped from outside (Ctrl-C) before it ended.
    pub fn interrupted(message: impl Into<String>, help: impl Into<String>) -> GoError {
        GoError {
            kind: ErrorKind::Interrupted,
            ..GoError::new(message, help)
        }
    }

    /// An error of a computation that would pass the memory it may occupy.
    pub fn out_of_memory(message: impl Into<String>, help: impl Into<String>) -> GoError {
        GoError {
            kind: ErrorKind::Memory,
            ..GoError::new(message, help)
        }
    }

    /// An error of a file a computation keeps its results in.
    pub fn file(message: impl Into<String>, help: impl Into<String>) -> GoError {
        GoError {
            kind: ErrorKind::File,
            ..GoError::new(message, help)
        }
    }

    /// An error of a computation that passed a limit it was given.
    pub fn limit(message: impl Into<String>, help: impl Into<String>) -> GoError {
        GoError {
            kind: ErrorKind::Limit,
            ..GoError::new(message, help)
        }
    }

    /// An error located at byte `offset` of `text`.
    pub fn at(
        text: &str,
        offset: usize,
        message: impl Into<String>,
        help: impl Into<String>,
    ) -> GoError {
        GoError {
            message: message.into(),
            help: help.into(),
            span: Some(Span::at(text, offset)),
            kind: ErrorKind::Input,
        }
    }
}

impl fmt::Display for GoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.span {
            Some(s) => write!(
                f,
                "error at line {}, column {} (byte {}): {}",
                s.line, s.column, s.offset, self.message
            )?,
            None => write!(f, "error: {}", self.message)?,
        }
        if !self.help.is_empty() {
            write!(f, "\n  help: {}", self.help)?;
        }
        Ok(())
    }
}

impl std::error::Error for GoError {}

/// Result type of the Go engine.
pub type GoResult<T> = Result<T, GoError>;
