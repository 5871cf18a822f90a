#![forbid(unsafe_code)]
//! The outline of a document: its definitions, enums (with their constants), types, readings
//! (with what they define), examples and theorems.

use super::analysis::{header, Analysis, Decl, Kind};
use super::convert::Places;
use lsp_types::{DocumentSymbol, SymbolKind};
use std::collections::HashMap;

/// The symbol of a declaration; `places` makes each file's line index once for all the symbols
/// (made for each span, the outline of a file of 10,000 readings took 10 s).
#[allow(deprecated)] // `deprecated` is a field every DocumentSymbol must still give
fn symbol(places: &mut Places, d: &Decl, children: Vec<DocumentSymbol>) -> Option<DocumentSymbol> {
    let kind = match d.kind {
        Kind::Def | Kind::Override | Kind::ReadingDef => SymbolKind::FUNCTION,
        Kind::Primitive | Kind::Binding => SymbolKind::FUNCTION,
        Kind::Enum => SymbolKind::ENUM,
        Kind::Variant => SymbolKind::ENUM_MEMBER,
        Kind::Type => SymbolKind::STRUCT,
        Kind::Reading => SymbolKind::NAMESPACE,
        Kind::Example => SymbolKind::EVENT,
        Kind::Theorem => SymbolKind::BOOLEAN,
    };
    let range = places.range(d.span)?;
    let mut selection = places.range(d.name_span)?;
    if selection.start < range.start || selection.end > range.end {
        selection = range;
    }
    let name = match d.kind {
        _ if d.name.trim().is_empty() => format!("({})", kind_word(d.kind)),
        Kind::Example => format!("example \"{}\"", d.name),
        Kind::Theorem => format!("theorem \"{}\"", d.name),
        Kind::Override => format!("override {}", d.name),
        Kind::Binding => format!("native {}", d.name),
        _ => d.name.clone(),
    };
    let detail = match d.kind {
        Kind::Def | Kind::Override | Kind::ReadingDef | Kind::Primitive | Kind::Binding => {
            Some(header(places.sources(), d))
        }
        _ => None,
    };
    Some(DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: (!children.is_empty()).then_some(children),
    })
}

fn kind_word(k: Kind) -> &'static str {
    match k {
        Kind::Example => "example",
        Kind::Theorem => "theorem",
        _ => "unnamed",
    }
}

/// The document's symbols, nested: constants inside their enum, definitions inside their reading.
pub fn symbols(a: &Analysis) -> Vec<DocumentSymbol> {
    let own: Vec<&Decl> = a.own_decls().collect();
    // the declarations of each owner, in order (each enum and reading looks up its own)
    let mut owned: HashMap<&str, Vec<&Decl>> = HashMap::new();
    for c in &own {
        if let Some(o) = c.owner.as_deref() {
            owned.entry(o).or_default().push(c);
        }
    }
    let mut places = Places::new(&a.sources);
    let mut out = vec![];
    for d in &own {
        match d.kind {
            Kind::Variant | Kind::Override | Kind::ReadingDef => continue,
            Kind::Binding if d.owner.is_some() => continue,
            _ => {}
        }
        let mine = owned.get(d.name.as_str()).map_or(&[][..], |v| v.as_slice());
        let children: Vec<DocumentSymbol> = match d.kind {
            Kind::Enum => mine
                .iter()
                .filter(|c| c.kind == Kind::Variant)
                .filter(|c| d.span.start <= c.span.start && c.span.end <= d.span.end)
                .filter_map(|c| symbol(&mut places, c, vec![]))
                .collect(),
            Kind::Reading => mine
                .iter()
                .filter(|c| c.kind != Kind::Variant)
                .filter(|c| d.span.start <= c.span.start && c.span.end <= d.span.end)
                .filter_map(|c| symbol(&mut places, c, vec![]))
                .collect(),
            _ => vec![],
        };
        if let Some(s) = symbol(&mut places, d, children) {
            out.push(s);
        }
    }
    out
}
