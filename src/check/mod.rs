#![forbid(unsafe_code)]
//! The checker: builds a [`Program`] from parsed files. It resolves names (locals, definitions,
//! enum constants, built-ins, native functions), checks arity, infers types group by group of
//! mutually recursive definitions, resolves readings (which definition each reading uses for
//! each name), and reports recursion. Every error of every file is collected.

mod add_readings;
mod analysis;
mod declare;
mod extend;
mod infer;
pub mod load;
mod query;
mod readings;
mod redefine;
mod resolve;
mod scope;
pub mod types;

use crate::diagnostics::code;
use crate::diagnostics::{suggest, Diag, SourceMap};
use crate::ir::*;
use crate::ir::{EnumVal, Func, Value};
use crate::natives::Natives;
use crate::syntax::ast::{self, *};
use indexmap::IndexMap;
use std::collections::{BTreeSet, HashMap, HashSet};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use types::{AliasNames, Scheme, Ty, Unifier};

#[derive(Clone)]
pub struct EnumInfo {
    pub name: String,
    /// The name as types carry it (shared, not copied for each use).
    pub shared_name: Rc<str>,
    pub variants: Vec<VariantInfo>,
    pub span: Span,
}

#[derive(Clone)]
pub struct VariantInfo {
    pub name: String,
    /// The name as values of the variant carry it (shared, not copied for each value).
    pub shared_name: Rc<str>,
    pub aliases: Vec<String>,
    pub fields: Vec<Ty>,
    pub span: Span,
    /// The constant itself, for variants without fields.
    pub value: Option<Value>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefKind {
    /// A definition with a rule body (perhaps also bound to a native function).
    Rule,
    /// A native primitive: no rule body.
    Native,
}

#[derive(Clone)]
pub struct DefInfo {
    pub key: DefKey,
    pub name: String,
    pub reading: ReadingId,
    pub params: Vec<String>,
    /// Written without parentheses: a constant, evaluated where it is named.
    pub is_const: bool,
    pub nlocals: u32,
    pub body: Option<Ir>,
    pub native: Option<String>,
    pub kind: DefKind,
    pub span: Span,
    pub name_span: Span,
    pub is_override: bool,
    /// Definitions (keys) this one refers to.
    pub deps: Vec<DefKey>,
    /// Keys referred to under a negation (`not`, the left of `implies`, `!=`...).
    pub neg_deps: Vec<DefKey>,
    /// Every name the body uses, in order, and whether the use is a call with the definition's
    /// own parameters (what the counts behind `shadowed` are made of).
    pub uses: Vec<(DefKey, bool)>,
    /// Whether the definition refers to its own name only as `base.f` (an override that calls
    /// the definition it replaces): no recursion, since `base.f` is another definition.
    pub base_self_only: bool,
    pub(crate) ast: Option<DefDecl>,
    pub(crate) param_tys: Vec<Option<Ty>>,
    pub(crate) ret_ty: Option<Ty>,
    /// The type variables of the written signature (`a` in `x: Seq<a>`), each standing for any
    /// type: rigid, checked after inference.
    pub(crate) ann_vars: Vec<(String, Ty)>,
}

#[derive(Clone)]
pub struct KeyInfo {
    pub name: String,
    pub aliases: Vec<String>,
    pub scheme: Option<Scheme>,
    pub arity: Option<usize>,
}

#[derive(Clone)]
pub struct ReadingInfo {
    pub name: String,
    pub parents: Vec<ReadingId>,
    /// Method resolution order: this reading first, `base` last.
    pub mro: Vec<ReadingId>,
    pub own: HashMap<DefKey, DefId>,
    pub span: Option<Span>,
}

#[derive(Clone)]
pub enum IrStmt {
    Let(IrPat, Ir),
    Assert(Ir, Option<String>, Span),
}

#[derive(Clone)]
pub struct Example {
    pub name: String,
    /// The names it uses (see [`DefInfo::uses`]).
    pub uses: Vec<(DefKey, bool)>,
    pub reading: Option<ReadingId>,
    pub stmts: Vec<IrStmt>,
    pub nlocals: u32,
    pub span: Span,
}

#[derive(Clone)]
pub struct Theorem {
    pub name: String,
    /// The names it uses (see [`DefInfo::uses`]).
    pub uses: Vec<(DefKey, bool)>,
    pub reading: Option<ReadingId>,
    pub binders: Vec<IrBinder>,
    pub body: Ir,
    pub nlocals: u32,
    pub span: Span,
}

/// A compiled query: an expression with its frame size and type.
pub struct Query {
    pub ir: Ir,
    pub nlocals: u32,
    pub ty: String,
    /// Values for the pre-bound names, in slot order.
    pub bound: Vec<Value>,
}

#[derive(Clone)]
enum TyDef {
    Alias(Ty),
}

/// Checked and resolved rule files.
#[derive(Clone)]
pub struct Program {
    pub sources: SourceMap,
    pub enums: Vec<EnumInfo>,
    ctors: HashMap<String, (EnumId, u32)>,
    type_names: HashMap<String, TyDef>,
    pub defs: Vec<DefInfo>,
    pub keys: Vec<KeyInfo>,
    pub key_names: IndexMap<String, DefKey>,
    pub readings: Vec<ReadingInfo>,
    pub reading_names: IndexMap<String, ReadingId>,
    /// The "did you mean" searches still allowed (each runs over every name of the program: a
    /// file of thousands of unknown names once took time in their product with the names).
    suggestions_left: std::cell::Cell<usize>,
    /// The aliases of compound types, by which [`Program::pretty`] shows types (made at its
    /// first use, after the declarations).
    alias_names: std::cell::OnceCell<AliasNames>,
    /// base_table[key]: the definition `base` uses for the name.
    base_table: Vec<Option<DefId>>,
    /// tables[reading][key]: the definition the reading uses for the name, made when the
    /// reading is first asked (a program may declare hundreds of thousands of readings and of
    /// names, and a query runs under a few of them: all of them at once would not fit).
    tables: Vec<std::sync::OnceLock<Vec<Option<DefId>>>>,
    /// base_users[key]: the names whose `base` definition calls the name.
    base_users: Vec<Vec<DefKey>>,
    /// sharing[reading][def]: the definition means the same under the reading as under `base`
    /// (nothing it depends on is overridden), so its memo entries can be shared; made when the
    /// reading is first asked, as `tables`.
    sharing: Vec<std::sync::OnceLock<Vec<bool>>>,
    pub examples: Vec<Example>,
    pub theorems: Vec<Theorem>,
    /// Groups of mutually recursive definitions (keys), callees first.
    pub sccs: Vec<Vec<DefKey>>,
    /// fingerprint[def]: a hash of the definition's text and of everything it can reach (the
    /// definitions of every name it uses, in every reading): two programs that give a
    /// definition the same fingerprint, and declare the same enums first
    /// ([`Program::enums_text`]), give it the same meaning.
    pub fingerprint: Vec<u64>,
    /// light[def]: a small definition outside any recursion, whose calls the evaluator does not
    /// table (computing it is cheaper than remembering it; it cannot take part in a cycle).
    pub light: Vec<bool>,
    /// recursive[def]: the definition can reach itself (its calls may form a cycle, and tabling
    /// them is what makes a recursion that revisits its arguments cheap).
    pub recursive: Vec<bool>,
    /// shadowed[def]: a definition outside any recursion that only one tabled definition calls,
    /// once, with that definition's own parameters (`succ(s)` calling `board_moves(s)`): its
    /// table would hold what the caller's already answers, so it is not kept.
    pub shadowed: Vec<bool>,
    /// Per key: how many times the rules name it, and the definition that calls it with its own
    /// parameters when that is the only use.
    key_uses: Vec<(u32, Option<DefId>)>,
    /// While the program is extended: the keys whose uses were counted (their `shadowed` is
    /// weighed again).
    uses_touched: Option<Vec<DefKey>>,
    /// The nodes of each type alias lowered (what names it copies), and of all of them: the
    /// limits `MAX_TYPE_NODES` and `MAX_ALIAS_NODES` hold for the
    /// aliases a program is extended with as for those it was built with.
    alias_sizes: HashMap<String, usize>,
    alias_nodes: usize,
    /// Every name bound as a variable in the definitions, examples and theorems (a parameter,
    /// a pattern's name): an enum constant of that name would refuse them (E0106) or turn the
    /// pattern into a constant, so an enum that declares one is no pure addition.
    bound_names: HashSet<String>,
    /// defs_of_key[key]: the definitions of a key (of every reading), in order, so that what
    /// is asked per key or per group of keys takes no walk of all definitions.
    pub defs_of_key: Vec<Vec<DefId>>,
    /// comp_hash[def]: the hash of the definition's strongly connected component (its members'
    /// texts and what they call), from which its fingerprint is made.
    comp_hash: Vec<u64>,
    /// light_key[key]: what a call of the name costs when every definition of it is light
    /// (`analysis::NOT_LIGHT` otherwise).
    light_key: Vec<u32>,
    /// Information and warnings (errors make building fail).
    pub notes: Vec<Diag>,
    /// The native functions the rule files were checked against: path and arity.
    pub native_sigs: IndexMap<String, usize>,
    /// A declaration left the type of some name unknown (a name defined twice, an override of
    /// nothing, an unknown type): types are not inferred, so that no error follows from it.
    types_unknown: bool,
    unifier: Unifier,
    /// While building: a flag that, once raised, stops the build at the next definition (the
    /// REPL's Ctrl-C during `:load`).
    interrupt: Option<Arc<AtomicBool>>,
}

pub const BASE: ReadingId = ReadingId(0);

impl Program {
    /// Whether the build under way was asked to stop.
    fn interrupted(&self) -> bool {
        self.interrupt
            .as_ref()
            .is_some_and(|f| f.load(std::sync::atomic::Ordering::SeqCst))
    }
}

impl crate::natives::Enums for Program {
    fn enum_constant(&self, enum_name: &str, variant: &str) -> Option<Value> {
        Program::enum_constant(self, enum_name, variant)
    }
    fn enum_tag(&self, enum_name: &str, variant: &str) -> Option<(EnumId, u32)> {
        Program::enum_tag(self, enum_name, variant)
    }
}

impl Program {
    fn empty(sources: SourceMap, natives: &Natives) -> Program {
        Program {
            sources,
            enums: vec![],
            ctors: HashMap::new(),
            type_names: HashMap::new(),
            defs: vec![],
            keys: vec![],
            key_names: IndexMap::new(),
            readings: vec![ReadingInfo {
                name: "base".into(),
                parents: vec![],
                mro: vec![BASE],
                own: HashMap::new(),
                span: None,
            }],
            reading_names: IndexMap::from([("base".to_string(), BASE)]),
            suggestions_left: std::cell::Cell::new(MAX_SUGGESTIONS),
            alias_names: std::cell::OnceCell::new(),
            base_table: vec![],
            tables: vec![],
            base_users: vec![],
            sharing: vec![],
            examples: vec![],
            theorems: vec![],
            sccs: vec![],
            light: vec![],
            recursive: vec![],
            shadowed: vec![],
            key_uses: vec![],
            uses_touched: None,
            fingerprint: vec![],
            comp_hash: vec![],
            alias_sizes: HashMap::new(),
            alias_nodes: 0,
            bound_names: HashSet::new(),
            light_key: vec![],
            defs_of_key: vec![],
            notes: vec![],
            native_sigs: natives.signatures(),
            types_unknown: false,
            unifier: Unifier::default(),
            interrupt: None,
        }
    }

    /// Check parsed files as one program. On success the program is ready to run; `notes` holds
    /// information and warnings. On failure every error found is returned.
    pub fn build(
        files: Vec<ast::File>,
        sources: SourceMap,
        natives: &Natives,
    ) -> Result<Program, (SourceMap, Vec<Diag>)> {
        Program::build_interruptible(files, sources, natives, None)
    }

    /// The same, stopped with E0305 once `interrupt` is raised (checked between definitions).
    pub fn build_interruptible(
        files: Vec<ast::File>,
        sources: SourceMap,
        natives: &Natives,
        interrupt: Option<Arc<AtomicBool>>,
    ) -> Result<Program, (SourceMap, Vec<Diag>)> {
        let mut p = Program::empty(sources, natives);
        p.interrupt = interrupt;
        let stopped = |p: &mut Program| (std::mem::take(&mut p.sources), vec![interrupted()]);
        let mut errs = vec![];
        p.declare(&files, &mut errs);
        p.defs_of_key = vec![vec![]; p.keys.len()];
        for (d, def) in p.defs.iter().enumerate() {
            p.defs_of_key[def.key.index()].push(DefId::at(d));
        }
        if p.interrupted() {
            return Err(stopped(&mut p));
        }
        p.resolve_all(&files, &mut errs);
        if p.interrupted() {
            return Err(stopped(&mut p));
        }
        if !p.types_unknown {
            p.infer_all(&mut errs);
        }
        if p.interrupted() {
            return Err(stopped(&mut p));
        }
        p.interrupt = None;
        p.compute_sharing();
        p.compute_light();
        p.compute_shadowed();
        p.compute_fingerprints();
        p.recursion_notes(0);
        if errs.iter().any(|d| d.is_error()) {
            let sources = std::mem::take(&mut p.sources);
            let mut all = errs;
            all.extend(
                p.notes
                    .into_iter()
                    .filter(|d| d.level != crate::diagnostics::Level::Info),
            );
            return Err((sources, all));
        }
        p.notes.extend(errs);
        Ok(p)
    }

    pub fn enum_constant(&self, enum_name: &str, variant: &str) -> Option<Value> {
        let e = self.enums.iter().find(|e| e.name == enum_name)?;
        e.variants
            .iter()
            .find(|v| v.name == variant || v.aliases.iter().any(|a| a == variant))?
            .value
            .clone()
    }

    /// The enum's id and the tag of its constructor `variant`.
    pub fn enum_tag(&self, enum_name: &str, variant: &str) -> Option<(EnumId, u32)> {
        let e = self.enums.iter().position(|e| e.name == enum_name)?;
        let t = self.enums[e]
            .variants
            .iter()
            .position(|v| v.name == variant)?;
        Some((EnumId::at(e), t as u32))
    }

    pub fn reading_id(&self, name: &str) -> Option<ReadingId> {
        self.reading_names.get(name).copied()
    }

    /// The reading a name denotes, or a diagnostic with a suggestion.
    pub fn reading_or_error(&self, name: &str) -> Result<ReadingId, Diag> {
        self.reading_id(name).ok_or_else(|| {
            let mut d = Diag::error(
                code::UNKNOWN_READING,
                format!("there is no reading named `{name}`"),
            );
            let names: Vec<&str> = self.reading_names.keys().map(|s| s.as_str()).collect();
            d = match suggest(name, names.iter().copied()) {
                Some(s) => d.help(format!(
                    "did you mean `{s}`? The readings are: {}",
                    names.join(", ")
                )),
                None => d.help(format!("the readings are: {}", names.join(", "))),
            };
            d
        })
    }

    /// The definition a reading uses for a key.
    pub fn resolve(&self, reading: ReadingId, key: DefKey) -> Option<DefId> {
        if reading == BASE {
            return self.base_table.get(key.index()).copied().flatten();
        }
        self.table_of(reading)?.get(key.index()).copied().flatten()
    }

    /// `base.f` inside definition `from`, under `reading`.
    pub fn resolve_base(&self, reading: ReadingId, from: DefId, key: DefKey) -> Option<DefId> {
        let owner = self.defs[from.index()].reading;
        let mro = &self.readings[reading.index()].mro;
        let pos = mro.iter().position(|r| *r == owner)?;
        for r in &mro[pos + 1..] {
            if let Some(d) = self.readings[(*r).index()].own.get(&key) {
                return Some(*d);
            }
        }
        None
    }

    pub fn key_of(&self, name: &str) -> Option<DefKey> {
        self.key_names.get(name).copied()
    }

    pub fn key_type(&self, key: DefKey) -> String {
        match &self.keys[key.index()].scheme {
            Some(s) => self.pretty(&s.ty),
            None => "?".into(),
        }
    }

    /// A type as the rules write it: its parts that are the expansion of a type alias of a
    /// compound type (`Game`, `Config`, ...) shown by the alias's name.
    pub fn pretty(&self, t: &Ty) -> String {
        let aliases = self.alias_names.get_or_init(|| {
            let mut aliases: Vec<(Rc<str>, Ty)> = self
                .type_names
                .iter()
                .filter_map(|(name, TyDef::Alias(t))| {
                    let compound = matches!(
                        t,
                        Ty::Set(_) | Ty::Seq(_) | Ty::Map(..) | Ty::Tuple(_) | Ty::Fun(..)
                    );
                    (compound && !t.has_vars()).then(|| (Rc::from(name.as_str()), t.clone()))
                })
                .collect();
            aliases.sort_by(|a, b| a.0.cmp(&b.0));
            AliasNames::new(aliases)
        });
        self.unifier.pretty_with(t, aliases)
    }

    /// Every name a query can use, for completion and suggestions.
    /// Whether one more "did you mean" search may be made (counting it): at most
    /// [`MAX_SUGGESTIONS`] for a program.
    pub(crate) fn may_suggest(&self) -> bool {
        let left = self.suggestions_left.get();
        self.suggestions_left.set(left.saturating_sub(1));
        left > 0
    }

    pub fn all_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.key_names.keys().cloned().collect();
        v.extend(self.ctors.keys().cloned());
        v.extend(self.enums.iter().map(|e| e.name.clone()));
        v.extend(Builtin::ALL.iter().map(|b| b.name().to_string()));
        v.sort();
        v.dedup();
        v
    }

    /// A one-line signature of a key: `mate(g: Game, i: Int) -> Bool`.
    pub fn signature(&self, key: DefKey) -> String {
        let k = &self.keys[key.index()];
        let def = self
            .defs_of_key
            .get(key.index())
            .into_iter()
            .flatten()
            .map(|&d| &self.defs[d.index()])
            .find(|d| !d.is_override);
        let params = def.map(|d| d.params.clone()).unwrap_or_default();
        let t = self.key_type(key);
        match (def.map(|d| d.is_const).unwrap_or(false), &k.scheme) {
            (true, _) => format!("{} : {}", k.name, t),
            (false, _) => format!("{}({}) : {}", k.name, params.join(", "), t),
        }
    }
}

/// The most "did you mean" searches over the names of a program: past them an unknown name is
/// told without one.
pub const MAX_SUGGESTIONS: usize = 200;

/// The diagnostic of a reading or check of rule files stopped by an interrupt (Ctrl-C).
pub(crate) fn interrupted() -> Diag {
    Diag::error(code::INTERRUPTED, "interrupted while checking the rules")
        .help("the rules were not loaded")
}

#[cfg(test)]
pub(crate) mod test_util {
    use super::*;

    /// The program of one rule file, or the codes of its diagnostics.
    pub(crate) fn build(src: &str) -> Result<Program, Vec<String>> {
        load::load_str("t.rule", src, &Natives::standard())
            .map_err(|(_, ds)| ds.iter().map(|d| d.code.to_string()).collect())
    }

    /// The codes of the errors of a rule file that must not check.
    pub(crate) fn errors(src: &str) -> Vec<String> {
        match build(src) {
            Ok(_) => panic!("checked without error:\n{src}"),
            Err(codes) => codes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_util::build;
    use super::*;

    #[test]
    fn a_built_program_answers_for_its_names_enums_and_readings() {
        let p = build(
            "enum Turn { 先手 as sente, 後手 as gote }\n\
             def opp(t: Turn) -> Turn = match t { 先手 => 後手, 後手 => 先手 }\n\
             reading r { override def opp(t: Turn) -> Turn = t }",
        )
        .unwrap();
        let k = p.key_of("opp").unwrap();
        assert_eq!(p.signature(k), "opp(t) : (Turn) -> Turn");
        assert!(p.enum_constant("Turn", "sente").is_some());
        assert_eq!(p.enum_tag("Turn", "後手"), Some((crate::ir::EnumId(0), 1)));
        let r = p.reading_id("r").unwrap();
        assert_ne!(p.resolve(r, k), p.resolve(BASE, k));
        assert!(p.reading_or_error("nope").is_err());
        assert!(p.all_names().contains(&"opp".to_string()));
    }
}
