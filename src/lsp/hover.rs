#![forbid(unsafe_code)]
//! Hover: what a name stands for. For a definition, its header as written (the parameter and
//! result types as the user wrote them, aliases such as `Game` kept), the comment above it, the
//! type the checker inferred, the readings that override it, and its native binding with
//! whether the binding is on (as `okite natives` tells it).

use super::analysis::{doc_comment, header, Analysis, Decl, Kind, Target};
use super::convert::{span_place, LineIndex};
use crate::bindings::{binding_verdict, natives_in_cone};
use crate::check::{DefKind, Program, BASE};
use crate::ir::ReadingId;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

/// The hover of the name at a byte offset of the document.
pub fn hover(a: &Analysis, offset: usize) -> Option<Hover> {
    let text = a.text()?;
    let (s, e, target) = a.target_at(offset)?;
    let name = &text[s..e];
    let value = match target {
        Target::Param(_, def) => format!(
            "```okite\n{name}\n```\nparameter of `{}`:\n```okite\n{}\n```",
            def.name,
            header(&a.sources, def)
        ),
        Target::Decl(d) => describe(a, d, a.reading_at(offset).as_deref()),
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: Some(LineIndex::new(text).range(s, e)),
    })
}

/// The text of a hover on a declaration; `reading` is the reading in force where the name is.
pub fn describe(a: &Analysis, d: &Decl, reading: Option<&str>) -> String {
    let mut out = format!("```okite\n{}\n```\n", header(&a.sources, d));
    // an override without a comment of its own: the comment of the definition it overrides
    let doc = doc_comment(&a.sources, d).or_else(|| {
        (d.kind == Kind::Override)
            .then(|| {
                a.decls.iter().find(|x| {
                    matches!(x.kind, Kind::Def | Kind::Primitive) && x.answers_to(&d.name)
                })
            })
            .flatten()
            .and_then(|x| doc_comment(&a.sources, x))
    });
    if let Some(doc) = doc {
        out.push_str(&format!("\n{doc}\n"));
    }
    let mut facts: Vec<String> = vec![];
    let here = a.file == Some(d.span.file);
    if !here {
        facts.push(format!(
            "declared at {}",
            span_place(&a.sources, d.name_span)
        ));
    }
    match d.kind {
        Kind::Def | Kind::Primitive | Kind::Override | Kind::ReadingDef | Kind::Binding => {
            definition_facts(a, d, reading, &mut facts)
        }
        Kind::Reading => {
            if !d.parents.is_empty() {
                facts.push(format!("extends {}", quoted(&d.parents)));
            }
            let overrides: Vec<String> = a
                .decls
                .iter()
                .filter(|x| x.kind == Kind::Override && x.owner.as_deref() == Some(&d.name))
                .map(|x| x.name.clone())
                .collect();
            if !overrides.is_empty() {
                facts.push(format!("overrides {}", quoted(&overrides)));
            }
        }
        Kind::Variant => {
            if !d.aliases.is_empty() {
                facts.push(format!("also written {}", quoted(&d.aliases)));
            }
        }
        Kind::Enum | Kind::Type | Kind::Example | Kind::Theorem => {}
    }
    if !facts.is_empty() {
        out.push_str("\n---\n");
        for f in facts {
            out.push_str(&format!("- {f}\n"));
        }
    }
    out
}

fn quoted(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn definition_facts(a: &Analysis, d: &Decl, reading: Option<&str>, facts: &mut Vec<String>) {
    let name = d.name.as_str();
    if let Some(r) = &d.owner {
        match d.kind {
            Kind::Override => facts.push(format!("overrides `{name}` under the reading `{r}`")),
            _ => facts.push(format!("defined under the reading `{r}`")),
        }
    }
    if !d.aliases.is_empty() {
        facts.push(format!("also named {}", quoted(&d.aliases)));
    }
    let prog = a.program.as_ref();
    if let Some(p) = prog {
        if let Some(k) = p.key_of(name) {
            facts.push(format!("type: `{}`", p.key_type(k)));
        }
    }
    let overriders: Vec<String> = a
        .decls
        .iter()
        .filter(|x| x.kind == Kind::Override && x.answers_to(name))
        .map(|x| {
            format!(
                "`{}` ({})",
                x.owner.as_deref().unwrap_or("?"),
                span_place(&a.sources, x.name_span)
            )
        })
        .collect();
    if overriders.is_empty() {
        facts.push("no reading overrides it".into());
    } else {
        facts.push(format!(
            "overridden by the readings {}",
            overriders.join(", ")
        ));
    }
    // its native binding: a primitive, or `native name = path`
    let primitive = a
        .decls
        .iter()
        .find(|x| x.kind == Kind::Primitive && x.answers_to(name));
    let binding = a
        .decls
        .iter()
        .find(|x| x.kind == Kind::Binding && x.owner.is_none() && x.name == name);
    if let Some(p) = primitive {
        facts.push(format!(
            "native primitive `{}`: always on (it has no rule body)",
            p.native.as_deref().unwrap_or("?")
        ));
    } else if let Some(b) = binding {
        let path = b.native.as_deref().unwrap_or("?");
        match prog {
            None => facts.push(format!(
                "native binding `{path}`: on or off is told once the rules check"
            )),
            Some(p) => {
                let mut readings: Vec<(String, ReadingId)> = vec![("base".into(), BASE)];
                if let Some(r) = reading.and_then(|r| p.reading_id(r)) {
                    if r != BASE {
                        readings.push((p.readings[r.index()].name.clone(), r));
                    }
                }
                for (rname, r) in readings {
                    facts.push(binding_fact(p, name, path, &rname, r));
                }
            }
        }
    } else {
        facts.push("no native binding".into());
    }
    // the natives its cone reaches
    if let Some(p) = prog {
        let r = reading.and_then(|r| p.reading_id(r)).unwrap_or(BASE);
        let own = binding.and_then(|b| b.native.clone());
        let reached: Vec<String> = natives_in_cone(p, r, name)
            .into_iter()
            .filter(|(path, _)| Some(path) != own.as_ref())
            .map(|(path, on)| format!("`{path}` ({})", if on { "on" } else { "off" }))
            .collect();
        if !reached.is_empty() {
            const SHOWN: usize = 8;
            let mut line = reached
                .iter()
                .take(SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if reached.len() > SHOWN {
                line.push_str(&format!(" and {} more", reached.len() - SHOWN));
            }
            facts.push(format!(
                "native bindings it reaches under {}: {line}",
                p.readings[r.index()].name
            ));
        }
    }
}

/// Whether the binding of `name` to `path` is on under a reading, and if not why.
fn binding_fact(p: &Program, name: &str, path: &str, rname: &str, r: ReadingId) -> String {
    let def = p.key_of(name).and_then(|k| {
        p.defs.iter().position(|x| {
            x.key == k && x.reading == BASE && x.kind == DefKind::Rule && x.native.is_some()
        })
    });
    match def {
        None => format!("native binding `{path}`"),
        Some(def) => match binding_verdict(p, r, crate::ir::DefId(def as u32)) {
            Ok(()) => format!("native binding `{path}`: on under {rname}"),
            Err(why) => format!("native binding `{path}`: off under {rname}: {why}"),
        },
    }
}
