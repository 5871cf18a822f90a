#![forbid(unsafe_code)]
//! `okite lsp`: a language server for rule files over standard input and output. It checks each
//! open document as it is typed (the document's text, with the files it `use`s read from disk)
//! and publishes the checker's diagnostics with their codes; it answers hover, go to definition,
//! completion and document symbols. It sits at the top of the layers, beside `cli` and `repl`:
//! nothing below imports it.

mod analysis;
mod completion;
mod convert;
mod definition;
mod hover;
mod server;
mod symbols;
mod transport;

pub use analysis::MAX_DOCUMENT_BYTES;
pub use server::{run, MAX_PUBLISHED};
