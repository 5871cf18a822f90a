#![forbid(unsafe_code)]
//! The server's loop: messages are read on a thread of their own, answered one at a time on
//! the main thread. A changed document is checked once no message is waiting (or when a request
//! needs it), so a burst of keystrokes is checked once. A handler that panics gets an error
//! answer and the server goes on.

use super::analysis::{analyze_with, Analysis, Uses, MAX_DOCUMENT_BYTES};
use super::convert::{diagnostic, uri_path, LineIndex, Places};
use super::transport::{self, Incoming};
use crate::diagnostics::code;
use crate::diagnostics::Diag;
use crate::natives::Natives;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument, DidSaveTextDocument,
    Notification as _, PublishDiagnostics,
};
use lsp_types::request::{
    Completion, DocumentSymbolRequest, GotoDefinition, HoverRequest, Request as _,
};
use lsp_types::{
    CompletionOptions, CompletionParams, CompletionResponse, DocumentSymbolParams,
    DocumentSymbolResponse, GotoDefinitionParams, GotoDefinitionResponse, HoverParams,
    HoverProviderCapability, OneOf, Position, PublishDiagnosticsParams, Range, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, Url,
};
use std::collections::HashMap;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::mpsc::{self, TryRecvError};

/// An open document.
struct Doc {
    text: String,
    version: Option<i32>,
    /// Changed since last checked.
    dirty: bool,
    /// The last check of this text (none for a document too large to check).
    analysis: Option<Rc<Analysis>>,
    /// The last check in which the document parsed: completion reads its names while the text
    /// typed does not parse.
    parsed: Option<Rc<Analysis>>,
    /// The check of the files the document uses, kept while they do not change.
    uses: Option<Uses>,
}

struct Server<W: Write> {
    out: W,
    natives: Natives,
    docs: HashMap<Url, Doc>,
    initialized: bool,
    shutdown: bool,
    /// Set by `exit`: the process's exit status.
    exit: Option<i32>,
}

/// Run the server on standard input and output until `exit` or the end of input; the exit
/// status (0 after `shutdown` then `exit`, 1 otherwise, as the protocol asks).
pub fn run() -> i32 {
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!(
            "okite lsp: a language server, for an editor to start: it reads the Language Server \
             Protocol on standard input (README.md, Editors, shows how to set it up); Ctrl-D ends it"
        );
    }
    let (tx, rx) = mpsc::channel::<Incoming>();
    let reader = std::thread::Builder::new()
        .name("okite-lsp-reader".into())
        .spawn(move || {
            let stdin = std::io::stdin();
            let mut input = stdin.lock();
            loop {
                let m = transport::read(&mut input);
                let end = match &m {
                    Incoming::End => true,
                    Incoming::Message(Message::Notification(n)) => n.method == "exit",
                    _ => false,
                };
                if tx.send(m).is_err() || end {
                    break;
                }
            }
        });
    if reader.is_err() {
        eprintln!("okite lsp: cannot start the reader thread");
        return 1;
    }
    let stdout = std::io::stdout();
    let mut server = Server {
        out: stdout.lock(),
        natives: Natives::standard(),
        docs: HashMap::new(),
        initialized: false,
        shutdown: false,
        exit: None,
    };
    loop {
        let next = if server.docs.values().any(|d| d.dirty) {
            match rx.try_recv() {
                Ok(m) => m,
                Err(TryRecvError::Empty) => {
                    server.check_dirty();
                    continue;
                }
                Err(TryRecvError::Disconnected) => Incoming::End,
            }
        } else {
            rx.recv().unwrap_or(Incoming::End)
        };
        let ok = match next {
            Incoming::End if server.shutdown => return 0,
            Incoming::End => {
                eprintln!(
                    "okite lsp: the input ended before a shutdown request: exit status 1, as the protocol says"
                );
                return 1;
            }
            Incoming::Malformed(why) => {
                eprintln!("okite lsp: {why}");
                transport::write_parse_error(&mut server.out, &why).is_ok()
            }
            Incoming::Message(m) => server.handle(m),
        };
        if let Some(code) = server.exit {
            return code;
        }
        if !ok {
            // the client is gone
            return 1;
        }
    }
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Kind(TextDocumentSyncKind::FULL)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".into()]),
            ..Default::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        ..Default::default()
    }
}

/// The path a document is checked as: its file, or for a document not on disk a name of its
/// own (its `use`s then resolve from the current folder).
fn doc_path(uri: &Url) -> PathBuf {
    uri_path(uri).unwrap_or_else(|| PathBuf::from(uri.as_str().replace(['/', ':'], "_")))
}

impl<W: Write> Server<W> {
    fn send(&mut self, m: Message) -> bool {
        transport::write(&mut self.out, &m).is_ok()
    }

    fn reply_err(&mut self, id: RequestId, code: ErrorCode, message: impl Into<String>) -> bool {
        self.send(Response::new_err(id, code as i32, message.into()).into())
    }

    /// Handle one message; false when the client cannot be written to.
    fn handle(&mut self, m: Message) -> bool {
        match m {
            Message::Request(r) => {
                let id = r.id.clone();
                let method = r.method.clone();
                match catch_unwind(AssertUnwindSafe(|| self.request(r))) {
                    Ok(ok) => ok,
                    Err(_) => self.reply_err(
                        id,
                        ErrorCode::InternalError,
                        format!("okite lsp failed on `{method}`"),
                    ),
                }
            }
            Message::Notification(n) => {
                let method = n.method.clone();
                match catch_unwind(AssertUnwindSafe(|| self.notification(n))) {
                    Ok(ok) => ok,
                    Err(_) => {
                        eprintln!("okite lsp: failed on the notification `{method}`");
                        true
                    }
                }
            }
            Message::Response(_) => true,
        }
    }

    fn request(&mut self, r: Request) -> bool {
        let id = r.id.clone();
        if r.method == "initialize" {
            if self.initialized {
                return self.reply_err(
                    id,
                    ErrorCode::InvalidRequest,
                    "initialize was already sent",
                );
            }
            self.initialized = true;
            let result = serde_json::json!({
                "capabilities": capabilities(),
                "serverInfo": { "name": "okite", "version": env!("CARGO_PKG_VERSION") },
            });
            return self.send(Response::new_ok(id, result).into());
        }
        if !self.initialized {
            return self.reply_err(id, ErrorCode::ServerNotInitialized, "initialize first");
        }
        if self.shutdown {
            return self.reply_err(id, ErrorCode::InvalidRequest, "the server is shutting down");
        }
        macro_rules! params {
            ($t:ty) => {
                match serde_json::from_value::<$t>(r.params) {
                    Ok(p) => p,
                    Err(e) => {
                        return self.reply_err(id, ErrorCode::InvalidParams, e.to_string());
                    }
                }
            };
        }
        let result = match r.method.as_str() {
            "shutdown" => {
                self.shutdown = true;
                serde_json::Value::Null
            }
            HoverRequest::METHOD => {
                let p = params!(HoverParams);
                let d = &p.text_document_position_params;
                let h = self
                    .at(&d.text_document.uri, d.position)
                    .and_then(|(a, off)| super::hover::hover(&a, off));
                serde_json::to_value(h).unwrap_or_default()
            }
            GotoDefinition::METHOD => {
                let p = params!(GotoDefinitionParams);
                let d = &p.text_document_position_params;
                let l = self
                    .at(&d.text_document.uri, d.position)
                    .and_then(|(a, off)| super::definition::definition(&a, off))
                    .map(GotoDefinitionResponse::Scalar);
                serde_json::to_value(l).unwrap_or_default()
            }
            Completion::METHOD => {
                let p = params!(CompletionParams);
                let d = &p.text_document_position;
                let items = self.completion(&d.text_document.uri, d.position);
                serde_json::to_value(items.map(CompletionResponse::Array)).unwrap_or_default()
            }
            DocumentSymbolRequest::METHOD => {
                let p = params!(DocumentSymbolParams);
                let s = self
                    .analysis(&p.text_document.uri)
                    .map(|a| DocumentSymbolResponse::Nested(super::symbols::symbols(&a)));
                serde_json::to_value(s).unwrap_or_default()
            }
            m => {
                return self.reply_err(id, ErrorCode::MethodNotFound, format!("no method `{m}`"));
            }
        };
        self.send(Response::new_ok(id, result).into())
    }

    fn notification(&mut self, n: Notification) -> bool {
        match n.method.as_str() {
            "exit" => {
                self.exit = Some(if self.shutdown { 0 } else { 1 });
                true
            }
            _ if !self.initialized => true,
            DidOpenTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params)
                {
                    let d = p.text_document;
                    self.docs.insert(
                        d.uri,
                        Doc {
                            text: d.text,
                            version: Some(d.version),
                            dirty: true,
                            analysis: None,
                            uses: None,
                            parsed: None,
                        },
                    );
                }
                true
            }
            DidChangeTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params)
                {
                    if let Some(doc) = self.docs.get_mut(&p.text_document.uri) {
                        // full sync: the last change holding no range is the whole text
                        for c in p.content_changes {
                            if c.range.is_none() {
                                doc.text = c.text;
                            } else if let Some(r) = c.range {
                                let ix = LineIndex::new(&doc.text);
                                let (s, e) = (ix.offset(r.start), ix.offset(r.end));
                                if s <= e {
                                    doc.text.replace_range(s..e, &c.text);
                                }
                            }
                        }
                        doc.version = Some(p.text_document.version);
                        doc.dirty = true;
                    }
                }
                true
            }
            DidSaveTextDocument::METHOD => {
                // a saved file may be used by the other documents: check them all again
                for d in self.docs.values_mut() {
                    d.dirty = true;
                }
                true
            }
            DidCloseTextDocument::METHOD => {
                if let Ok(p) =
                    serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params)
                {
                    if self.docs.remove(&p.text_document.uri).is_some() {
                        return self.publish(p.text_document.uri, vec![], None);
                    }
                }
                true
            }
            _ => true,
        }
    }

    /// Check every changed document and publish its diagnostics.
    fn check_dirty(&mut self) {
        let dirty: Vec<Url> = self
            .docs
            .iter()
            .filter(|(_, d)| d.dirty)
            .map(|(u, _)| u.clone())
            .collect();
        for uri in dirty {
            let checked = catch_unwind(AssertUnwindSafe(|| self.check(&uri)));
            if checked.is_err() {
                eprintln!("okite lsp: failed checking {uri}");
                if let Some(d) = self.docs.get_mut(&uri) {
                    d.dirty = false;
                }
            }
        }
    }

    /// Check one document (if changed) and publish its diagnostics.
    fn check(&mut self, uri: &Url) {
        let Some(doc) = self.docs.get_mut(uri) else {
            return;
        };
        if !doc.dirty {
            return;
        }
        doc.dirty = false;
        let version = doc.version;
        if doc.text.len() > MAX_DOCUMENT_BYTES {
            doc.analysis = None;
            let d = lsp_types::Diagnostic {
                range: Range::default(),
                severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                code: Some(lsp_types::NumberOrString::String(code::NOT_A_RULE_FILE.into())),
                source: Some("okite".into()),
                message: format!(
                    "this document is {} bytes, larger than okite checks as you type ({} MiB)\nhelp: split the rules into files of at most {} MiB that `use` each other",
                    doc.text.len(),
                    MAX_DOCUMENT_BYTES >> 20,
                    MAX_DOCUMENT_BYTES >> 20
                ),
                ..Default::default()
            };
            self.publish(uri.clone(), vec![d], version);
            return;
        }
        let a = Rc::new(analyze_with(
            &doc_path(uri),
            &doc.text,
            &self.natives,
            &mut doc.uses,
        ));
        if a.ast().is_some() {
            doc.parsed = Some(a.clone());
        }
        doc.analysis = Some(a.clone());
        let diags = diagnostics(&a);
        self.publish(uri.clone(), diags, version);
    }

    fn publish(
        &mut self,
        uri: Url,
        diagnostics: Vec<lsp_types::Diagnostic>,
        version: Option<i32>,
    ) -> bool {
        let params = PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        };
        self.send(Notification::new(PublishDiagnostics::METHOD.into(), params).into())
    }

    /// The current analysis of an open document (checked now if it changed).
    fn analysis(&mut self, uri: &Url) -> Option<Rc<Analysis>> {
        if self.docs.get(uri)?.dirty {
            self.check(uri);
        }
        self.docs.get(uri)?.analysis.clone()
    }

    /// The analysis of a document and the byte offset of a position in it.
    fn at(&mut self, uri: &Url, pos: Position) -> Option<(Rc<Analysis>, usize)> {
        let a = self.analysis(uri)?;
        let off = LineIndex::new(a.text()?).offset(pos);
        Some((a, off))
    }

    fn completion(&mut self, uri: &Url, pos: Position) -> Option<Vec<lsp_types::CompletionItem>> {
        self.analysis(uri);
        let doc = self.docs.get(uri)?;
        let a = doc
            .analysis
            .clone()
            .filter(|a| a.ast().is_some())
            .or(doc.parsed.clone())?;
        let off = LineIndex::new(&doc.text).offset(pos);
        Some(super::completion::completion(&a, &doc.text, off))
    }
}

/// The diagnostics an editor is sent for one document at most; one more then says how many were
/// left out.
pub const MAX_PUBLISHED: usize = 1_000;

/// The diagnostics of an analysis, placed on the document (at most [`MAX_PUBLISHED`]).
fn diagnostics(a: &Analysis) -> Vec<lsp_types::Diagnostic> {
    let ix = LineIndex::new(a.text().unwrap_or(""));
    let mut places = Places::new(&a.sources);
    // notes (information, warnings) about other files belong to those files' own documents
    let mine: Vec<&Diag> = a
        .diags
        .iter()
        .filter(|d| d.is_error() || d.primary_span().is_none_or(|s| Some(s.file) == a.file))
        .collect();
    let mut out: Vec<lsp_types::Diagnostic> = mine
        .iter()
        .take(MAX_PUBLISHED)
        .map(|d| place(a, d, &ix, &mut places))
        .collect();
    if mine.len() > MAX_PUBLISHED {
        out.push(lsp_types::Diagnostic {
            range: Range::default(),
            severity: Some(lsp_types::DiagnosticSeverity::INFORMATION),
            source: Some("okite".into()),
            message: format!(
                "{} more diagnostics are not shown here: `okite check` lists them all",
                mine.len() - MAX_PUBLISHED
            ),
            ..Default::default()
        });
    }
    out
}

/// One diagnostic placed on the document: at its span when the span is in the document, else
/// on the `use` that brings in the file holding it (or the document's start).
fn place(a: &Analysis, d: &Diag, ix: &LineIndex, places: &mut Places) -> lsp_types::Diagnostic {
    match d.primary_span() {
        Some(s) if Some(s.file) == a.file => {
            diagnostic(d, places, ix.range(s.start as usize, s.end as usize), false)
        }
        Some(s) => {
            let here = a
                .use_span_for(s.file)
                .and_then(|u| places.range(u))
                .unwrap_or_default();
            diagnostic(d, places, here, true)
        }
        None => diagnostic(d, places, Range::default(), false),
    }
}
