#![forbid(unsafe_code)]
//! Native bindings as caches of rule definitions.
//!
//! A native function bound to a definition (`native succ = shogi.successors`) and a native engine
//! behind a command (the move generator behind `okite perft`, the df-pn search behind `okite
//! mate`) stand for rule definitions: the bound definition and every definition it reaches, under
//! the reading in force. That set is the binding's *cone*. The native code was verified against
//! the cones of the shipped rule files (embedded in the binary, `crate::shipped`); it may answer
//! for a loaded program only where the program's cone is the same, definition by definition
//! (compared by the text of each definition, comments and layout aside, and by the enum
//! declarations). Anywhere else the binding is off, and the reason names the definitions that
//! differ with their place.
//!
//! This module knows the checker's [`Program`] and nothing of the evaluator or the engines.

use crate::check::{DefKind, Program, BASE};
use crate::diagnostics::SourceMap;
use crate::eval::{Binder, Off};
use crate::ir::{DefId, DefKey, ReadingId};
use crate::natives::Natives;
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The name under which the enum declarations take part in every cone.
const ENUMS: &str = "(enum declarations)";

/// The definitions a binding stands for: for each name reached, the hashes of the definitions
/// the reading's resolution order gives it (overrides first), and where they are.
#[derive(Clone, Debug, Default)]
pub struct Cone {
    members: BTreeMap<String, Vec<u64>>,
    places: BTreeMap<String, Vec<DefId>>,
}

impl Cone {
    fn same(&self, other: &Cone) -> bool {
        self.members == other.members
    }
}

fn hash_text(t: &str) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    t.hash(&mut h);
    h.finish()
}

/// A definition's own text, as the pretty-printer writes it (comments and layout do not count),
/// with whether it overrides and what it is bound to.
fn own_text(prog: &Program, d: DefId) -> String {
    let info = &prog.defs[d.index()];
    let text = match &info.ast {
        Some(a) => crate::syntax::print::print_def(a),
        None => format!("native {}({})", info.name, info.params.join(",")),
    };
    format!("{}|{text}|{:?}", info.is_override, info.native)
}

fn own_hash(prog: &Program, d: DefId) -> u64 {
    hash_text(&own_text(prog, d))
}

/// The declarations of the enums a cone's definitions name (by the enum's name, or a constant's
/// name or alias, anywhere in their text): values of an enum are built by the native code in the
/// declared order, so a changed declaration changes the binding.
fn enums_hash(prog: &Program, texts: &[String]) -> u64 {
    let words: BTreeSet<&str> = texts
        .iter()
        .flat_map(|t| t.split(|c: char| !(c.is_alphanumeric() || c == '_')))
        .filter(|w| !w.is_empty())
        .collect();
    let mut s = String::new();
    for e in &prog.enums {
        let named = words.contains(e.name.as_str())
            || e.variants.iter().any(|v| {
                words.contains(v.name.as_str())
                    || v.aliases.iter().any(|a| words.contains(a.as_str()))
            });
        if !named {
            continue;
        }
        s.push_str(&e.name);
        for v in &e.variants {
            // fields by their written types (an enum's number depends on the files loaded)
            let fields: Vec<String> = v.fields.iter().map(|t| t.to_string()).collect();
            s.push_str(&format!(
                " {}({}) as {}",
                v.name,
                fields.join(", "),
                v.aliases.join(" ")
            ));
        }
        s.push(';');
    }
    hash_text(&s)
}

/// The definitions of `key` under `reading`, in resolution order (the reading's own first,
/// `base`'s last): every one an override's `base.f` can reach.
fn defs_of(prog: &Program, reading: ReadingId, key: DefKey) -> Vec<DefId> {
    let mut out = vec![];
    for &r in &prog.readings[reading.index()].mro {
        let d = if r == BASE {
            prog.resolve(BASE, key)
        } else {
            prog.readings[r.index()].own.get(&key).copied()
        };
        if let Some(d) = d {
            if !out.contains(&d) {
                out.push(d);
            }
        }
    }
    out
}

/// The cone of definition `def` under `reading`: `def` itself and, name by name, every
/// definition its body can reach under the reading.
pub fn cone(prog: &Program, reading: ReadingId, def: DefId) -> Cone {
    let mut c = Cone::default();
    let own = &prog.defs[def.index()];
    c.members
        .insert(format!("{} (bound)", own.name), vec![own_hash(prog, def)]);
    c.places.insert(format!("{} (bound)", own.name), vec![def]);
    let mut seen: BTreeSet<DefKey> = BTreeSet::new();
    let mut todo: Vec<DefKey> = own.deps.clone();
    while let Some(k) = todo.pop() {
        if !seen.insert(k) {
            continue;
        }
        let defs = defs_of(prog, reading, k);
        let name = prog.keys[k.index()].name.clone();
        c.members.insert(
            name.clone(),
            defs.iter().map(|&d| own_hash(prog, d)).collect(),
        );
        for &d in &defs {
            todo.extend(prog.defs[d.index()].deps.iter().copied());
        }
        c.places.insert(name, defs);
    }
    let texts: Vec<String> = c
        .places
        .values()
        .flatten()
        .map(|&d| own_text(prog, d))
        .collect();
    c.members
        .insert(ENUMS.into(), vec![enums_hash(prog, &texts)]);
    c
}

/// Why a binding is off: the definitions of its cone that differ from the shipped ones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reason {
    /// What the binding stands for, e.g. "`mate_in` under narrow".
    pub what: String,
    pub changes: Vec<Change>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub name: String,
    pub kind: ChangeKind,
    /// `file:line` of the loaded definition, where there is one.
    pub place: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    Changed,
    Added,
    Removed,
    /// The shipped rules bind no definition to this native function.
    NotShipped,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = match self.kind {
            ChangeKind::Changed => "changed",
            ChangeKind::Added => "added",
            ChangeKind::Removed => "no longer reached",
            ChangeKind::NotShipped => "is bound by no shipped rule",
        };
        write!(f, "`{}` {what}", self.name)?;
        if let Some(p) = &self.place {
            write!(f, " ({p})")?;
        }
        Ok(())
    }
}

impl std::fmt::Display for Reason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        const SHOWN: usize = 4;
        let parts: Vec<String> = self
            .changes
            .iter()
            .take(SHOWN)
            .map(|c| c.to_string())
            .collect();
        write!(f, "{}", parts.join(", "))?;
        if self.changes.len() > SHOWN {
            write!(f, " and {} more", self.changes.len() - SHOWN)?;
        }
        Ok(())
    }
}

fn place(sources: &SourceMap, prog: &Program, d: DefId) -> String {
    let span = prog.defs[d.index()].name_span;
    let (l, _) = sources.line_col(span.file, span.start);
    let file = sources
        .get(span.file)
        .map(|f| f.name.as_str())
        .unwrap_or("?");
    format!("{file}:{l}")
}

/// The differences of `loaded` from `shipped`, each named with its place in `prog`.
fn differences(prog: &Program, loaded: &Cone, shipped: &Cone) -> Vec<Change> {
    let mut out = vec![];
    let strip = |n: &str| n.trim_end_matches(" (bound)").to_string();
    for (name, hashes) in &loaded.members {
        let place_of = || {
            loaded
                .places
                .get(name)
                .and_then(|ds| ds.first())
                .map(|&d| place(&prog.sources, prog, d))
        };
        match shipped.members.get(name) {
            Some(h) if h == hashes => {}
            Some(_) => out.push(Change {
                name: strip(name),
                kind: ChangeKind::Changed,
                place: place_of(),
            }),
            None => out.push(Change {
                name: strip(name),
                kind: ChangeKind::Added,
                place: place_of(),
            }),
        }
    }
    for name in shipped.members.keys() {
        if !loaded.members.contains_key(name) {
            out.push(Change {
                name: strip(name),
                kind: ChangeKind::Removed,
                place: None,
            });
        }
    }
    out
}

thread_local! {
    static SHIPPED: RefCell<Option<Rc<Program>>> = const { RefCell::new(None) };
}

/// The shipped rule files, checked (once per thread).
pub fn shipped() -> Rc<Program> {
    SHIPPED.with(|s| {
        if let Some(p) = &*s.borrow() {
            return p.clone();
        }
        let loaded = crate::check::load::load_shipped(&Natives::standard());
        let p = Rc::new(
            loaded
                .program
                .unwrap_or_else(|_| panic!("the shipped rule files check (a test pins this)")),
        );
        *s.borrow_mut() = Some(p.clone());
        p
    })
}

/// The binder of every command: the standard native functions, each binding on only where the
/// loaded definitions it stands for (its cone under the reading) are the shipped ones.
pub struct Sound {
    natives: Natives,
}

impl Sound {
    pub fn standard() -> Sound {
        Sound {
            natives: Natives::standard(),
        }
    }
}

impl Binder for Sound {
    fn natives(&self) -> &Natives {
        &self.natives
    }
    fn verdict(&self, prog: &Program, reading: ReadingId, def: DefId) -> Result<(), Off> {
        binding_verdict(prog, reading, def).map_err(|r| Off {
            what: r.what.clone(),
            why: r.to_string(),
        })
    }
}

/// Whether the native function bound to `def` may answer for it under `reading`.
pub fn binding_verdict(prog: &Program, reading: ReadingId, def: DefId) -> Result<(), Reason> {
    let d = &prog.defs[def.index()];
    if d.kind == DefKind::Native {
        // a primitive has no rule body: the native function is its only meaning
        return Ok(());
    }
    let Some(path) = d.native.as_deref() else {
        return Ok(());
    };
    let what = format!(
        "`{}` = {path} under {}",
        d.name,
        prog.readings[reading.index()].name
    );
    let sh = shipped();
    let Some(sd) = sh
        .defs
        .iter()
        .position(|x| x.kind == DefKind::Rule && x.native.as_deref() == Some(path))
    else {
        return Err(Reason {
            what,
            changes: vec![Change {
                name: d.name.clone(),
                kind: ChangeKind::NotShipped,
                place: Some(place(&prog.sources, prog, def)),
            }],
        });
    };
    let reference = cone(&sh, BASE, DefId::at(sd));
    let here = cone(prog, reading, def);
    if here.same(&reference) {
        Ok(())
    } else {
        Err(Reason {
            what,
            changes: differences(prog, &here, &reference),
        })
    }
}

/// Which of the shipped readings `candidates` gives each definition of `names` the same cone
/// as the loaded program gives it under `reading` (the candidate of the reading's own name
/// first): a native engine that follows that candidate may answer for them. Otherwise the
/// reason, told against the candidate of the same name, else the closest one.
pub fn engine_reading<'c>(
    prog: &Program,
    reading: ReadingId,
    names: &[&str],
    candidates: &[&'c str],
) -> Result<&'c str, Reason> {
    let rname = prog.readings[reading.index()].name.as_str();
    let what = format!("`{}` under {rname}", names.join("`, `"));
    let mut here = vec![];
    for name in names {
        let Some(def) = prog.key_of(name).and_then(|k| prog.resolve(reading, k)) else {
            return Err(Reason {
                what: what.clone(),
                changes: vec![Change {
                    name: name.to_string(),
                    kind: ChangeKind::Removed,
                    place: None,
                }],
            });
        };
        here.push(cone(prog, reading, def));
    }
    let sh = shipped();
    let mut order: Vec<&'c str> = candidates.iter().copied().filter(|c| *c == rname).collect();
    order.extend(candidates.iter().copied().filter(|c| *c != rname));
    let mut best: Option<(&str, Vec<Change>)> = None;
    for c in order {
        let Some(r) = sh.reading_id(c) else { continue };
        let mut diff = vec![];
        for (name, h) in names.iter().zip(&here) {
            match sh.key_of(name).and_then(|k| sh.resolve(r, k)) {
                Some(sd) => {
                    let reference = cone(&sh, r, sd);
                    if !h.same(&reference) {
                        diff.extend(differences(prog, h, &reference));
                    }
                }
                None => diff.push(Change {
                    name: name.to_string(),
                    kind: ChangeKind::Added,
                    place: None,
                }),
            }
        }
        if diff.is_empty() {
            return Ok(c);
        }
        diff.dedup();
        let better = match &best {
            None => true,
            Some((bc, b)) => *bc != rname && diff.len() < b.len(),
        };
        if better {
            best = Some((c, diff));
        }
    }
    Err(Reason {
        what,
        changes: best.map(|b| b.1).unwrap_or_default(),
    })
}

/// The bindings of a program under a reading, as `okite natives` lists them: each definition
/// bound to a native function, and whether the binding is on.
pub fn report(prog: &Program, reading: ReadingId) -> Vec<(String, String, Result<(), Reason>)> {
    let mut out = vec![];
    for (i, d) in prog.defs.iter().enumerate() {
        if d.reading != BASE {
            continue;
        }
        if let Some(path) = &d.native {
            out.push((
                d.name.clone(),
                path.clone(),
                binding_verdict(prog, reading, DefId::at(i)),
            ));
        }
    }
    out
}

/// The native functions bound to definitions in the cone of `name` under `reading`, each with
/// whether it is on there.
pub fn natives_in_cone(prog: &Program, reading: ReadingId, name: &str) -> Vec<(String, bool)> {
    let Some(def) = prog.key_of(name).and_then(|k| prog.resolve(reading, k)) else {
        return vec![];
    };
    let c = cone(prog, reading, def);
    let mut out: Vec<(String, bool)> = vec![];
    for ds in c.places.values() {
        for &d in ds {
            let info = &prog.defs[d.index()];
            if let (Some(path), DefKind::Rule) = (&info.native, info.kind) {
                if !out.iter().any(|(p, _)| p == path) {
                    out.push((path.clone(), binding_verdict(prog, reading, d).is_ok()));
                }
            }
        }
    }
    out.sort();
    out
}

/// Is the cone of `name` under `reading` the shipped cone under the shipped reading `as_`?
pub fn same_cone(prog: &Program, reading: ReadingId, name: &str, as_: &str) -> bool {
    let sh = shipped();
    let (Some(d), Some(sr)) = (
        prog.key_of(name).and_then(|k| prog.resolve(reading, k)),
        sh.reading_id(as_),
    ) else {
        return false;
    };
    let Some(sd) = sh.key_of(name).and_then(|k| sh.resolve(sr, k)) else {
        return false;
    };
    cone(prog, reading, d).same(&cone(&sh, sr, sd))
}

/// Are the definitions of `name` themselves (the reading's override chain, not what they call)
/// the shipped ones under the shipped reading `as_`?
pub fn same_own(prog: &Program, reading: ReadingId, name: &str, as_: &str) -> bool {
    let sh = shipped();
    let (Some(k), Some(sr)) = (prog.key_of(name), sh.reading_id(as_)) else {
        return false;
    };
    let Some(sk) = sh.key_of(name) else {
        return false;
    };
    let here: Vec<u64> = defs_of(prog, reading, k)
        .iter()
        .map(|&d| own_hash(prog, d))
        .collect();
    let there: Vec<u64> = defs_of(&sh, sr, sk)
        .iter()
        .map(|&d| own_hash(&sh, d))
        .collect();
    here == there
}

/// The names the cone of `name` under `reading` reaches.
pub fn cone_names(prog: &Program, reading: ReadingId, name: &str) -> Vec<String> {
    match prog.key_of(name).and_then(|k| prog.resolve(reading, k)) {
        Some(d) => cone(prog, reading, d)
            .members
            .keys()
            .map(|n| n.trim_end_matches(" (bound)").to_string())
            .collect(),
        None => vec![],
    }
}
