#![forbid(unsafe_code)]
//! Go to definition: a name to the declaration it stands for at that place (across `use`, and
//! `base.f` to the definition the reading's parents use), a `use "file.rule"` to the file.

use super::analysis::{Analysis, Target};
use super::convert::{path_uri, span_location};
use lsp_types::{Location, Position, Range};

pub fn definition(a: &Analysis, offset: usize) -> Option<Location> {
    if let Some(target) = a.use_at(offset) {
        let uri = path_uri(&target)?;
        return Some(Location::new(
            uri,
            Range::new(Position::new(0, 0), Position::new(0, 0)),
        ));
    }
    match a.target_at(offset)?.2 {
        Target::Decl(d) => span_location(&a.sources, d.name_span),
        Target::Param(span, _) => span_location(&a.sources, span),
    }
}
