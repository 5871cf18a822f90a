#![forbid(unsafe_code)]
#![deny(missing_docs)]
//! Surface syntax: the pest grammar (`grammar/okite.pest`), the typed syntax tree with spans, and
//! the pretty-printer.

pub mod ast;
pub mod parser;
mod precheck;
pub mod print;
mod walk;

pub use parser::{parse_expr, parse_file, parse_repl, ReplInput};
pub use print::{print_expr, print_file, print_item};
