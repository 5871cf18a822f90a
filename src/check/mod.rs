#![forbid(unsafe_code)]
//! The checker: builds a [`Program`] from parsed files. It resolves names (locals, definitions,
//! enum constants, built-ins, native functions), checks arity, infers types group by group of
//! mutually recursive definitions, resolves readings (which definition each reading uses for
//! each name), and reports recursion. Every error of every file is collected.

pub mod load;
pub mod types;

use crate::diagnostics::{suggest, Diag, SourceMap};
use crate::ir::*;
use crate::ir::{EnumVal, Func, Value};
use crate::natives::Natives;
use crate::syntax::ast::{self, *};
use indexmap::IndexMap;
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;
use types::{Scheme, Ty, Unifier};

pub struct EnumInfo {
    pub name: String,
    pub variants: Vec<VariantInfo>,
    pub span: Span,
}

pub struct VariantInfo {
    pub name: String,
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
    pub(crate) ast: Option<DefDecl>,
    pub(crate) param_tys: Vec<Option<Ty>>,
    pub(crate) ret_ty: Option<Ty>,
}

pub struct KeyInfo {
    pub name: String,
    pub aliases: Vec<String>,
    pub scheme: Option<Scheme>,
    pub arity: Option<usize>,
}

pub struct ReadingInfo {
    pub name: String,
    pub parents: Vec<ReadingId>,
    /// Method resolution order: this reading first, `base` last.
    pub mro: Vec<ReadingId>,
    pub own: HashMap<DefKey, DefId>,
    pub span: Option<Span>,
}

pub enum IrStmt {
    Let(IrPat, Ir),
    Assert(Ir, Option<String>, Span),
}

pub struct Example {
    pub name: String,
    pub reading: Option<ReadingId>,
    pub stmts: Vec<IrStmt>,
    pub nlocals: u32,
    pub span: Span,
}

pub struct Theorem {
    pub name: String,
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

enum TyDef {
    Alias(Ty),
}

/// Checked and resolved rule files.
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
    /// table[reading][key]: the definition the reading uses for the name.
    pub table: Vec<Vec<Option<DefId>>>,
    /// shares_base[reading][def]: the definition means the same under the reading as under
    /// `base` (nothing it depends on is overridden), so its memo entries can be shared.
    pub shares_base: Vec<Vec<bool>>,
    pub examples: Vec<Example>,
    pub theorems: Vec<Theorem>,
    /// Groups of mutually recursive definitions (keys), callees first.
    pub sccs: Vec<Vec<DefKey>>,
    /// fingerprint[def]: a hash of the definition's text and of everything it can reach (the
    /// definitions of every name it uses, in every reading, and the enum declarations): two
    /// programs that give a definition the same fingerprint give it the same meaning.
    pub fingerprint: Vec<u64>,
    /// light[def]: a small definition outside any recursion, whose calls the evaluator does not
    /// table (computing it is cheaper than remembering it; it cannot take part in a cycle).
    pub light: Vec<bool>,
    /// Information and warnings (errors make building fail).
    pub notes: Vec<Diag>,
    /// The native functions the rule files were checked against: path and arity.
    pub native_sigs: IndexMap<String, usize>,
    unifier: Unifier,
}

pub const BASE: ReadingId = 0;

impl crate::natives::Enums for Program {
    fn enum_constant(&self, enum_name: &str, variant: &str) -> Option<Value> {
        Program::enum_constant(self, enum_name, variant)
    }
    fn enum_tag(&self, enum_name: &str, variant: &str) -> Option<(u32, u32)> {
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
            table: vec![],
            shares_base: vec![],
            examples: vec![],
            theorems: vec![],
            sccs: vec![],
            light: vec![],
            fingerprint: vec![],
            notes: vec![],
            native_sigs: natives.signatures(),
            unifier: Unifier::default(),
        }
    }

    /// Check parsed files as one program. On success the program is ready to run; `notes` holds
    /// information and warnings. On failure every error found is returned.
    pub fn build(
        files: Vec<ast::File>,
        sources: SourceMap,
        natives: &Natives,
    ) -> Result<Program, (SourceMap, Vec<Diag>)> {
        let mut p = Program::empty(sources, natives);
        let mut errs = vec![];
        p.declare(&files, &mut errs);
        p.resolve_all(&files, &mut errs);
        if !errs
            .iter()
            .any(|d| d.code == "E0101" || d.code == "E0104" || d.code == "E0111")
        {
            p.infer_all(&mut errs);
        }
        p.compute_sharing();
        p.compute_light();
        p.compute_fingerprints();
        p.recursion_notes();
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
    pub fn enum_tag(&self, enum_name: &str, variant: &str) -> Option<(u32, u32)> {
        let e = self.enums.iter().position(|e| e.name == enum_name)?;
        let t = self.enums[e]
            .variants
            .iter()
            .position(|v| v.name == variant)?;
        Some((e as u32, t as u32))
    }

    pub fn reading_id(&self, name: &str) -> Option<ReadingId> {
        self.reading_names.get(name).copied()
    }

    /// The reading a name denotes, or a diagnostic with a suggestion.
    pub fn reading_or_error(&self, name: &str) -> Result<ReadingId, Diag> {
        self.reading_id(name).ok_or_else(|| {
            let mut d = Diag::error("E0103", format!("there is no reading named `{name}`"));
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
        self.table
            .get(reading as usize)
            .and_then(|t| t.get(key as usize))
            .copied()
            .flatten()
    }

    /// `base.f` inside definition `from`, under `reading`.
    pub fn resolve_base(&self, reading: ReadingId, from: DefId, key: DefKey) -> Option<DefId> {
        let owner = self.defs[from as usize].reading;
        let mro = &self.readings[reading as usize].mro;
        let pos = mro.iter().position(|r| *r == owner)?;
        for r in &mro[pos + 1..] {
            if let Some(d) = self.readings[*r as usize].own.get(&key) {
                return Some(*d);
            }
        }
        None
    }

    pub fn key_of(&self, name: &str) -> Option<DefKey> {
        self.key_names.get(name).copied()
    }

    pub fn key_type(&self, key: DefKey) -> String {
        match &self.keys[key as usize].scheme {
            Some(s) => self.unifier.pretty(&s.ty),
            None => "?".into(),
        }
    }

    // ------------------------------------------------------------------ declarations

    fn declare(&mut self, files: &[ast::File], errs: &mut Vec<Diag>) {
        let mut taken: HashMap<String, Span> = HashMap::new();
        for n in ["Bool", "Int", "Nat", "Str", "Set", "Seq", "Map"] {
            taken.insert(n.into(), Span::default());
        }
        let mut claim = |name: &Name, errs: &mut Vec<Diag>| -> bool {
            if let Some(prev) = taken.get(&name.text) {
                errs.push(
                    Diag::error("E0101", format!("`{}` is defined twice", name.text))
                        .label(name.span, "defined again here")
                        .label(*prev, "first defined here")
                        .help("rename one of them, or state a variant as a reading that overrides the definition"),
                );
                return false;
            }
            taken.insert(name.text.clone(), name.span);
            true
        };
        // enums and types first: definitions' signatures refer to them
        for f in files {
            for it in &f.items {
                match it {
                    Item::Enum(e) => {
                        if !claim(&e.name, errs) {
                            continue;
                        }
                        let id = self.enums.len() as EnumId;
                        self.type_names.insert(
                            e.name.text.clone(),
                            TyDef::Alias(Ty::Enum(id, Rc::from(e.name.text.as_str()))),
                        );
                        let mut variants = vec![];
                        for (tag, v) in e.variants.iter().enumerate() {
                            let ok = claim(&v.name, errs);
                            for a in &v.aliases {
                                if claim(a, errs) {
                                    self.ctors.insert(a.text.clone(), (id, tag as u32));
                                }
                            }
                            if ok {
                                self.ctors.insert(v.name.text.clone(), (id, tag as u32));
                            }
                            variants.push(VariantInfo {
                                name: v.name.text.clone(),
                                aliases: v.aliases.iter().map(|a| a.text.clone()).collect(),
                                fields: vec![],
                                span: v.span,
                                value: None,
                            });
                        }
                        self.enums.push(EnumInfo {
                            name: e.name.text.clone(),
                            variants,
                            span: e.span,
                        });
                    }
                    Item::Type(t) => {
                        if !claim(&t.name, errs) {
                            continue;
                        }
                        if t.ty.is_none() {
                            self.type_names.insert(
                                t.name.text.clone(),
                                TyDef::Alias(Ty::Opaque(Rc::from(t.name.text.as_str()))),
                            );
                        }
                    }
                    _ => {}
                }
            }
        }
        // type aliases, in order of need
        let aliases: Vec<&TypeDecl> = files
            .iter()
            .flat_map(|f| f.items.iter())
            .filter_map(|it| match it {
                Item::Type(t) if t.ty.is_some() => Some(t),
                _ => None,
            })
            .collect();
        let mut pending: Vec<&TypeDecl> = aliases;
        let mut progress = true;
        while progress && !pending.is_empty() {
            progress = false;
            let mut next = vec![];
            for t in pending {
                let mut tmp = vec![];
                let mut vars = vec![];
                match self.lower_type(t.ty.as_ref().unwrap(), &mut vars, &mut tmp) {
                    Some(ty) if tmp.is_empty() => {
                        self.type_names
                            .insert(t.name.text.clone(), TyDef::Alias(ty));
                        progress = true;
                    }
                    _ => next.push(t),
                }
            }
            pending = next;
        }
        for t in pending {
            let mut vars = vec![];
            self.lower_type(t.ty.as_ref().unwrap(), &mut vars, errs);
        }
        // enum fields
        let mut e_index = 0;
        for f in files {
            for it in &f.items {
                if let Item::Enum(e) = it {
                    if self.enums.get(e_index).map(|x| x.name.as_str())
                        != Some(e.name.text.as_str())
                    {
                        continue;
                    }
                    for (tag, v) in e.variants.iter().enumerate() {
                        let mut fields = vec![];
                        let mut vars = vec![];
                        for fty in &v.fields {
                            fields.push(self.lower_type(fty, &mut vars, errs).unwrap_or(Ty::Int));
                        }
                        let vi = &mut self.enums[e_index].variants[tag];
                        if fields.is_empty() {
                            vi.value = Some(Value::Enum(Rc::new(EnumVal {
                                ty: e_index as u32,
                                tag: tag as u32,
                                name: Rc::from(v.name.text.as_str()),
                                fields: vec![],
                            })));
                        }
                        vi.fields = fields;
                    }
                    e_index += 1;
                }
            }
        }
        // definitions: top level
        let mut binds: Vec<(ReadingId, &Name, &Name, Span)> = vec![];
        for f in files {
            for it in &f.items {
                match it {
                    Item::Def(d)
                        if claim(&d.name, errs) && d.aliases.iter().all(|a| claim(a, errs)) =>
                    {
                        self.new_def(d, BASE, false, errs);
                    }
                    Item::Native(NativeDecl::Prim {
                        name,
                        aliases,
                        params,
                        ret,
                        hook: native,
                        span,
                    }) if claim(name, errs) && aliases.iter().all(|a| claim(a, errs)) => {
                        self.new_prim(name, aliases, params, ret, native, *span, BASE, errs);
                    }
                    Item::Native(NativeDecl::Bind {
                        name,
                        hook: native,
                        span,
                    }) => binds.push((BASE, name, native, *span)),
                    _ => {}
                }
            }
        }
        // readings: names first, then their items, then parents
        let mut decls: Vec<(ReadingId, &ReadingDecl)> = vec![];
        for f in files {
            for it in &f.items {
                if let Item::Reading(r) = it {
                    if let Some(&prev) = self.reading_names.get(&r.name.text) {
                        let mut d = Diag::error(
                            "E0101",
                            format!("the reading `{}` is defined twice", r.name.text),
                        )
                        .label(r.name.span, "defined again here");
                        if let Some(s) = self.readings[prev as usize].span {
                            d = d.label(s, "first defined here");
                        }
                        errs.push(d.help("give the second reading another name"));
                        continue;
                    }
                    let id = self.readings.len() as ReadingId;
                    self.readings.push(ReadingInfo {
                        name: r.name.text.clone(),
                        parents: vec![],
                        mro: vec![],
                        own: HashMap::new(),
                        span: Some(r.name.span),
                    });
                    self.reading_names.insert(r.name.text.clone(), id);
                    decls.push((id, r));
                }
            }
        }
        for (id, r) in &decls {
            for it in &r.items {
                match it {
                    ReadingItem::Def(d) => {
                        if claim(&d.name, errs) {
                            self.new_def(d, *id, false, errs);
                        }
                    }
                    ReadingItem::Override(d) => {
                        if self.key_names.contains_key(&d.name.text) {
                            let key = self.key_names[&d.name.text];
                            if self.readings[*id as usize].own.contains_key(&key) {
                                errs.push(
                                    Diag::error(
                                        "E0101",
                                        format!(
                                            "`{}` is overridden twice in reading `{}`",
                                            d.name.text, r.name.text
                                        ),
                                    )
                                    .label(d.name.span, "overridden again here")
                                    .help("keep one override"),
                                );
                                continue;
                            }
                            self.new_def(d, *id, true, errs);
                        } else {
                            let mut diag = Diag::error(
                                "E0104",
                                format!(
                                    "reading `{}` overrides `{}`, which is not defined",
                                    r.name.text, d.name.text
                                ),
                            )
                            .label(d.name.span, "nothing to override");
                            diag = match suggest(&d.name.text, self.key_names.keys().map(|s| s.as_str())) {
                                Some(s) => diag.help(format!("did you mean `{s}`?")),
                                None => diag.help("define it at the top level first, or drop `override` to add a definition that only this reading has"),
                            };
                            errs.push(diag);
                        }
                    }
                    ReadingItem::Native(NativeDecl::Bind {
                        name,
                        hook: native,
                        span,
                    }) => binds.push((*id, name, native, *span)),
                    ReadingItem::Native(NativeDecl::Prim {
                        name,
                        aliases,
                        params,
                        ret,
                        hook: native,
                        span,
                    }) => {
                        if claim(name, errs) {
                            self.new_prim(name, aliases, params, ret, native, *span, *id, errs);
                        }
                    }
                }
            }
            let mut parents = vec![];
            for pn in &r.parents {
                match self.reading_names.get(&pn.text) {
                    Some(&p) => parents.push(p),
                    None => errs.push(
                        self.reading_or_error(&pn.text)
                            .unwrap_err()
                            .label(pn.span, "unknown reading"),
                    ),
                }
            }
            if parents.is_empty() {
                parents.push(BASE);
            }
            self.readings[*id as usize].parents = parents;
        }
        // base owns the top-level definitions
        for (i, d) in self.defs.iter().enumerate() {
            if d.reading == BASE {
                self.readings[0].own.insert(d.key, i as DefId);
            }
        }
        // native bindings
        for (rid, name, native, span) in binds {
            let Some(&key) = self.key_names.get(&name.text) else {
                let mut d = Diag::error(
                    "E0102",
                    format!(
                        "`native {}` binds a definition that does not exist",
                        name.text
                    ),
                )
                .label(name.span, "no such definition");
                if let Some(s) = suggest(&name.text, self.key_names.keys().map(|s| s.as_str())) {
                    d = d.help(format!("did you mean `{s}`?"));
                }
                errs.push(d);
                continue;
            };
            if !self.check_native(native, errs) {
                continue;
            }
            let target = self.readings[rid as usize]
                .own
                .get(&key)
                .copied()
                .or_else(|| self.readings[0].own.get(&key).copied());
            match target {
                Some(d) => {
                    let def = &mut self.defs[d as usize];
                    if let Some(&arity) = self.native_sigs.get(&native.text) {
                        if arity != def.params.len() {
                            errs.push(
                                Diag::error(
                                    "E0112",
                                    format!(
                                        "`{}` takes {} arguments but the native function `{}` takes {}",
                                        def.name,
                                        def.params.len(),
                                        native.text,
                                        arity
                                    ),
                                )
                                .label(native.span, "arity differs")
                                .label(def.name_span, "the definition")
                                .help("bind a native function with the same parameters"),
                            );
                            continue;
                        }
                    }
                    def.native = Some(native.text.clone());
                }
                None => errs.push(
                    Diag::error(
                        "E0102",
                        format!("`{}` has no definition to bind", name.text),
                    )
                    .label(span, "here"),
                ),
            }
        }
        // resolution orders and tables
        self.linearize(errs);
    }

    fn check_native(&self, native: &Name, errs: &mut Vec<Diag>) -> bool {
        if self.native_sigs.contains_key(&native.text) {
            return true;
        }
        let mut d = Diag::error(
            "E0110",
            format!("there is no native function `{}`", native.text),
        )
        .label(native.span, "unknown native function");
        d = match suggest(&native.text, self.native_sigs.keys().map(|s| s.as_str())) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => d.help("`okite natives` lists the native functions"),
        };
        errs.push(d);
        false
    }

    fn new_key(&mut self, name: &str, aliases: &[Name]) -> DefKey {
        let key = self.keys.len() as DefKey;
        self.keys.push(KeyInfo {
            name: name.to_string(),
            aliases: aliases.iter().map(|a| a.text.clone()).collect(),
            scheme: None,
            arity: None,
        });
        self.key_names.insert(name.to_string(), key);
        for a in aliases {
            self.key_names.insert(a.text.clone(), key);
        }
        key
    }

    fn new_def(
        &mut self,
        d: &DefDecl,
        reading: ReadingId,
        is_override: bool,
        errs: &mut Vec<Diag>,
    ) {
        let key = if is_override {
            self.key_names[&d.name.text]
        } else {
            self.new_key(&d.name.text, &d.aliases)
        };
        let mut vars = vec![];
        let params: Vec<Param> = d.params.clone().unwrap_or_default();
        let param_tys = params
            .iter()
            .map(|p| {
                p.ty.as_ref()
                    .and_then(|t| self.lower_type(t, &mut vars, errs))
            })
            .collect();
        let ret_ty = d
            .ret
            .as_ref()
            .and_then(|t| self.lower_type(t, &mut vars, errs));
        let id = self.defs.len() as DefId;
        self.defs.push(DefInfo {
            key,
            name: d.name.text.clone(),
            reading,
            params: params.iter().map(|p| p.name.text.clone()).collect(),
            is_const: d.params.is_none(),
            nlocals: 0,
            body: None,
            native: None,
            kind: DefKind::Rule,
            span: d.span,
            name_span: d.name.span,
            is_override,
            deps: vec![],
            neg_deps: vec![],
            ast: Some(d.clone()),
            param_tys,
            ret_ty,
        });
        if reading != BASE {
            self.readings[reading as usize].own.insert(key, id);
        }
        let arity = if d.params.is_none() {
            None
        } else {
            Some(params.len())
        };
        if !is_override {
            self.keys[key as usize].arity = arity;
        } else if self.keys[key as usize].arity != arity {
            errs.push(
                Diag::error(
                    "E0102",
                    format!(
                        "the override of `{}` takes {} parameters; the definition it overrides takes {}",
                        d.name.text,
                        params.len(),
                        self.keys[key as usize].arity.unwrap_or(0)
                    ),
                )
                .label(d.name.span, "different number of parameters")
                .help("an override keeps the parameters of the definition it replaces"),
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn new_prim(
        &mut self,
        name: &Name,
        aliases: &[Name],
        params: &[Param],
        ret: &TypeExpr,
        native: &Name,
        span: Span,
        reading: ReadingId,
        errs: &mut Vec<Diag>,
    ) {
        let ok = self.check_native(native, errs);
        if ok {
            if let Some(&arity) = self.native_sigs.get(&native.text) {
                if arity != params.len() {
                    errs.push(
                        Diag::error(
                            "E0112",
                            format!(
                                "`{}` declares {} parameters but the native function `{}` takes {}",
                                name.text,
                                params.len(),
                                native.text,
                                arity
                            ),
                        )
                        .label(native.span, "arity differs")
                        .help("declare the parameters the native function takes"),
                    );
                }
            }
        }
        let key = self.new_key(&name.text, aliases);
        self.keys[key as usize].arity = Some(params.len());
        let mut vars = vec![];
        let mut param_tys = vec![];
        for p in params {
            match &p.ty {
                Some(t) => param_tys.push(self.lower_type(t, &mut vars, errs)),
                None => {
                    errs.push(
                        Diag::error(
                            "E0113",
                            format!(
                                "the parameter `{}` of a native function needs a type",
                                p.name.text
                            ),
                        )
                        .label(p.name.span, "no type")
                        .help("write `name: Type`"),
                    );
                    param_tys.push(None);
                }
            }
        }
        let ret_ty = self.lower_type(ret, &mut vars, errs);
        let id = self.defs.len() as DefId;
        self.defs.push(DefInfo {
            key,
            name: name.text.clone(),
            reading,
            params: params.iter().map(|p| p.name.text.clone()).collect(),
            is_const: false,
            nlocals: params.len() as u32,
            body: None,
            native: if ok { Some(native.text.clone()) } else { None },
            kind: DefKind::Native,
            span,
            name_span: name.span,
            is_override: false,
            deps: vec![],
            neg_deps: vec![],
            ast: None,
            param_tys,
            ret_ty,
        });
        if reading != BASE {
            self.readings[reading as usize].own.insert(key, id);
        }
    }

    fn linearize(&mut self, errs: &mut Vec<Diag>) {
        let n = self.readings.len();
        for r in 0..n {
            // depth-first list of ancestors, each kept at its last occurrence
            let mut order = vec![];
            let mut stack = vec![(r as ReadingId, 0usize)];
            let mut on_path = vec![r as ReadingId];
            let mut cyclic = false;
            order.push(r as ReadingId);
            while let Some((cur, i)) = stack.pop() {
                let parents = if cur == BASE {
                    vec![]
                } else {
                    self.readings[cur as usize].parents.clone()
                };
                if i < parents.len() {
                    stack.push((cur, i + 1));
                    let p = parents[i];
                    if on_path.contains(&p) {
                        cyclic = true;
                        continue;
                    }
                    order.push(p);
                    on_path.push(p);
                    stack.push((p, 0));
                } else {
                    on_path.pop();
                }
                if order.len() > 10_000 {
                    cyclic = true;
                    break;
                }
            }
            if cyclic {
                let span = self.readings[r].span.unwrap_or_default();
                errs.push(
                    Diag::error(
                        "E0109",
                        format!("reading `{}` extends itself", self.readings[r].name),
                    )
                    .label(span, "part of a cycle of `extends`")
                    .help("a reading extends readings declared without it"),
                );
                self.readings[r].mro = vec![r as ReadingId, BASE];
                continue;
            }
            let mut mro = vec![];
            for (i, x) in order.iter().enumerate() {
                if !order[i + 1..].contains(x) {
                    mro.push(*x);
                }
            }
            if mro.last() != Some(&BASE) {
                mro.retain(|x| *x != BASE);
                mro.push(BASE);
            }
            self.readings[r].mro = mro;
        }
        // table and ambiguity
        let nkeys = self.keys.len();
        self.table = vec![vec![None; nkeys]; n];
        for r in 0..n {
            let mro = self.readings[r].mro.clone();
            for key in 0..nkeys as DefKey {
                let mut found: Option<(ReadingId, DefId)> = None;
                for &a in &mro {
                    if let Some(&d) = self.readings[a as usize].own.get(&key) {
                        match found {
                            None => found = Some((a, d)),
                            Some((fa, _)) => {
                                // a later reading that overrides too must be an ancestor of the first
                                if a != BASE && !self.readings[fa as usize].mro.contains(&a) {
                                    let span = self.readings[r].span.unwrap_or_default();
                                    errs.push(
                                        Diag::error(
                                            "E0107",
                                            format!(
                                                "reading `{}` inherits two overrides of `{}`: from `{}` and from `{}`",
                                                self.readings[r].name,
                                                self.keys[key as usize].name,
                                                self.readings[fa as usize].name,
                                                self.readings[a as usize].name
                                            ),
                                        )
                                        .label(span, "ambiguous")
                                        .help(format!(
                                            "override `{}` in `{}` to say which one holds (it may call `base.{}`)",
                                            self.keys[key as usize].name,
                                            self.readings[r].name,
                                            self.keys[key as usize].name
                                        )),
                                    );
                                }
                            }
                        }
                    }
                }
                self.table[r][key as usize] = found.map(|f| f.1);
            }
        }
    }

    /// Lower a written type. Single lowercase letters are type variables of the definition.
    fn lower_type(
        &mut self,
        t: &TypeExpr,
        vars: &mut Vec<(String, Ty)>,
        errs: &mut Vec<Diag>,
    ) -> Option<Ty> {
        Some(match t {
            TypeExpr::Name(n) => match n.text.as_str() {
                "Bool" => Ty::Bool,
                "Int" | "Nat" | "ℤ" | "ℕ" => Ty::Int,
                "Str" => Ty::Str,
                s if s.len() == 1 && s.chars().all(|c| c.is_ascii_lowercase()) => {
                    if let Some((_, t)) = vars.iter().find(|(v, _)| v == s) {
                        t.clone()
                    } else {
                        let t = self.unifier.fresh();
                        vars.push((s.to_string(), t.clone()));
                        t
                    }
                }
                s => match self.type_names.get(s) {
                    Some(TyDef::Alias(t)) => t.clone(),
                    None => {
                        let mut names: Vec<&str> =
                            self.type_names.keys().map(|k| k.as_str()).collect();
                        names.extend(["Bool", "Int", "Nat", "Str", "Set", "Seq", "Map"]);
                        let mut d = Diag::error("E0111", format!("unknown type `{s}`"))
                            .label(n.span, "not a type");
                        d = match suggest(s, names) {
                            Some(x) => d.help(format!("did you mean `{x}`?")),
                            None => d.help("declare it with `enum`, `type Name = ...`, or `type Name` for a native type"),
                        };
                        errs.push(d);
                        return None;
                    }
                },
            },
            TypeExpr::App(n, args) => {
                let mut a = vec![];
                for x in args {
                    a.push(self.lower_type(x, vars, errs)?);
                }
                let want = match n.text.as_str() {
                    "Set" | "Seq" => 1,
                    "Map" => 2,
                    _ => {
                        errs.push(
                            Diag::error("E0111", format!("`{}` takes no type arguments", n.text))
                                .label(n.span, "not a generic type")
                                .help("the generic types are Set<T>, Seq<T> and Map<K, V>"),
                        );
                        return None;
                    }
                };
                if a.len() != want {
                    errs.push(
                        Diag::error(
                            "E0102",
                            format!(
                                "`{}` takes {} type arguments, not {}",
                                n.text,
                                want,
                                a.len()
                            ),
                        )
                        .label(n.span, "wrong number of type arguments")
                        .help("Set<T>, Seq<T>, Map<K, V>"),
                    );
                    return None;
                }
                let mut it = a.into_iter();
                match n.text.as_str() {
                    "Set" => Ty::Set(Box::new(it.next()?)),
                    "Seq" => Ty::Seq(Box::new(it.next()?)),
                    _ => Ty::Map(Box::new(it.next()?), Box::new(it.next()?)),
                }
            }
            TypeExpr::Tuple(items, _) => {
                let mut a = vec![];
                for x in items {
                    a.push(self.lower_type(x, vars, errs)?);
                }
                Ty::Tuple(a)
            }
            TypeExpr::Fun(a, b) => {
                let pa = self.lower_type(a, vars, errs)?;
                let r = self.lower_type(b, vars, errs)?;
                let ps = match pa {
                    Ty::Tuple(ts) => ts,
                    t => vec![t],
                };
                Ty::Fun(ps, Box::new(r))
            }
        })
    }

    // ------------------------------------------------------------------ resolution

    fn resolve_all(&mut self, files: &[ast::File], errs: &mut Vec<Diag>) {
        for id in 0..self.defs.len() {
            let Some(d) = self.defs[id].ast.take() else {
                continue;
            };
            let mut r = Resolver::new(self, Owner::Def(id as DefId));
            for p in d.params.iter().flatten() {
                r.bind_name(&p.name.text, p.name.span);
            }
            let body = r.expr(&d.body);
            let (nlocals, deps, neg, e) = (r.nlocals, r.deps, r.neg_deps, r.errs);
            errs.extend(e);
            let def = &mut self.defs[id];
            def.body = Some(body);
            def.nlocals = nlocals;
            def.deps = deps.into_iter().collect();
            def.neg_deps = neg.into_iter().collect();
            def.ast = Some(d);
        }
        for f in files {
            for it in &f.items {
                match it {
                    Item::Example(x) => {
                        let reading =
                            x.reading
                                .as_ref()
                                .and_then(|n| match self.reading_or_error(&n.text) {
                                    Ok(r) => Some(r),
                                    Err(d) => {
                                        errs.push(d.label(n.span, "unknown reading"));
                                        None
                                    }
                                });
                        let mut r = Resolver::new(self, Owner::Other);
                        let mut stmts = vec![];
                        for s in &x.stmts {
                            match s {
                                Stmt::Let(p, e) => {
                                    let v = r.expr(e);
                                    let p = r.pattern(p);
                                    stmts.push(IrStmt::Let(p, v));
                                }
                                Stmt::Assert(e, m) => {
                                    let v = r.expr(e);
                                    stmts.push(IrStmt::Assert(v, m.clone(), e.span));
                                }
                            }
                        }
                        let nlocals = r.nlocals;
                        errs.extend(r.errs);
                        self.examples.push(Example {
                            name: x.name.clone(),
                            reading,
                            stmts,
                            nlocals,
                            span: x.span,
                        });
                    }
                    Item::Theorem(t) => {
                        let reading =
                            t.reading
                                .as_ref()
                                .and_then(|n| match self.reading_or_error(&n.text) {
                                    Ok(r) => Some(r),
                                    Err(d) => {
                                        errs.push(d.label(n.span, "unknown reading"));
                                        None
                                    }
                                });
                        let mut r = Resolver::new(self, Owner::Other);
                        let binders = r.binders(&t.binders);
                        let body = r.expr(&t.body);
                        let nlocals = r.nlocals;
                        errs.extend(r.errs);
                        self.theorems.push(Theorem {
                            name: t.name.clone(),
                            reading,
                            binders,
                            body,
                            nlocals,
                            span: t.span,
                        });
                    }
                    _ => {}
                }
            }
        }
    }

    /// Compile an expression typed on the command line or at the REPL, with some names bound to
    /// values beforehand (for example `g` and `i` for the current game).
    pub fn compile_query(
        &mut self,
        e: &Expr,
        bound: &[(String, Value, String)],
    ) -> Result<Query, Vec<Diag>> {
        let mut r = Resolver::new(self, Owner::Other);
        for (n, _, _) in bound {
            r.bind_name(n, e.span);
        }
        let ir = r.expr(e);
        let nlocals = r.nlocals;
        let errs = r.errs;
        if !errs.is_empty() {
            return Err(errs);
        }
        let mut slots: Vec<Ty> = (0..nlocals).map(|_| self.unifier.fresh()).collect();
        let mut errs = vec![];
        for (i, (_, _, ty)) in bound.iter().enumerate() {
            if let Some(t) = self.parse_type_text(ty) {
                let _ = self.unifier.unify(&slots[i], &t);
            }
        }
        let t = {
            let mut inf = Infer {
                p: self,
                slots: &mut slots,
                errs: &mut errs,
                mono: &HashMap::new(),
                quiet_arity: false,
            };
            inf.infer(&ir)
        };
        if !errs.is_empty() {
            return Err(errs);
        }
        Ok(Query {
            ir,
            nlocals,
            ty: self.unifier.pretty(&t),
            bound: bound.iter().map(|b| b.1.clone()).collect(),
        })
    }

    fn parse_type_text(&mut self, s: &str) -> Option<Ty> {
        match s {
            "Int" => Some(Ty::Int),
            "Bool" => Some(Ty::Bool),
            "" => None,
            other => self.type_names.get(other).map(|TyDef::Alias(t)| t.clone()),
        }
    }

    // ------------------------------------------------------------------ types

    fn infer_all(&mut self, errs: &mut Vec<Diag>) {
        // the dependency graph of keys: a key depends on what any of its definitions refers to
        let nkeys = self.keys.len();
        let mut edges: Vec<Vec<DefKey>> = vec![vec![]; nkeys];
        for d in &self.defs {
            for &k in &d.deps {
                if !edges[d.key as usize].contains(&k) {
                    edges[d.key as usize].push(k);
                }
            }
        }
        self.sccs = tarjan(&edges);
        let sccs = self.sccs.clone();
        for scc in &sccs {
            // monomorphic types for the group
            let mut mono: HashMap<DefKey, Ty> = HashMap::new();
            for &k in scc {
                let t = self.fresh_key_type(k);
                mono.insert(k, t);
            }
            let defs_of: Vec<DefId> = (0..self.defs.len() as DefId)
                .filter(|d| scc.contains(&self.defs[*d as usize].key))
                .collect();
            for d in defs_of {
                self.infer_def(d, &mono, errs);
            }
            for &k in scc {
                let s = self.unifier.generalize(&mono[&k]);
                self.keys[k as usize].scheme = Some(s);
            }
        }
        // examples and theorems
        for i in 0..self.examples.len() {
            let ex = std::mem::replace(
                &mut self.examples[i],
                Example {
                    name: String::new(),
                    reading: None,
                    stmts: vec![],
                    nlocals: 0,
                    span: Span::default(),
                },
            );
            let mut slots: Vec<Ty> = (0..ex.nlocals).map(|_| self.unifier.fresh()).collect();
            {
                let mut inf = Infer {
                    p: self,
                    slots: &mut slots,
                    errs,
                    mono: &HashMap::new(),
                    quiet_arity: false,
                };
                for s in &ex.stmts {
                    match s {
                        IrStmt::Let(p, e) => {
                            let t = inf.infer(e);
                            inf.pattern(p, &t, e.span());
                        }
                        IrStmt::Assert(e, _, span) => {
                            let t = inf.infer(e);
                            inf.expect(&t, &Ty::Bool, *span, "an assertion is a truth value");
                        }
                    }
                }
            }
            self.examples[i] = ex;
        }
        for i in 0..self.theorems.len() {
            let th = std::mem::replace(
                &mut self.theorems[i],
                Theorem {
                    name: String::new(),
                    reading: None,
                    binders: vec![],
                    body: Ir::Const(Value::Bool(true), Span::default()),
                    nlocals: 0,
                    span: Span::default(),
                },
            );
            let mut slots: Vec<Ty> = (0..th.nlocals).map(|_| self.unifier.fresh()).collect();
            {
                let mut inf = Infer {
                    p: self,
                    slots: &mut slots,
                    errs,
                    mono: &HashMap::new(),
                    quiet_arity: false,
                };
                inf.binders(&th.binders);
                let t = inf.infer(&th.body);
                inf.expect(
                    &t,
                    &Ty::Bool,
                    th.body.span(),
                    "a theorem states a truth value",
                );
            }
            self.theorems[i] = th;
        }
    }

    fn fresh_key_type(&mut self, k: DefKey) -> Ty {
        // the signature written on the key's first definition, completed with fresh variables
        let first = self.defs.iter().position(|d| d.key == k && !d.is_override);
        let Some(first) = first else {
            return self.unifier.fresh();
        };
        let d = &self.defs[first];
        let params: Vec<Option<Ty>> = d.param_tys.clone();
        let ret = d.ret_ty.clone();
        let is_const = d.is_const;
        let ps: Vec<Ty> = params
            .into_iter()
            .map(|t| t.unwrap_or_else(|| self.unifier.fresh()))
            .collect();
        let r = ret.unwrap_or_else(|| self.unifier.fresh());
        if is_const {
            r
        } else {
            Ty::Fun(ps, Box::new(r))
        }
    }

    fn infer_def(&mut self, id: DefId, mono: &HashMap<DefKey, Ty>, errs: &mut Vec<Diag>) {
        let d = &self.defs[id as usize];
        let key_ty = mono[&d.key].clone();
        let nlocals = d.nlocals;
        let param_tys = d.param_tys.clone();
        let ret_ty = d.ret_ty.clone();
        let nparams = d.params.len();
        let is_const = d.is_const;
        let name_span = d.name_span;
        let body = self.defs[id as usize].body.take();
        let mut slots: Vec<Ty> = (0..nlocals.max(nparams as u32))
            .map(|_| self.unifier.fresh())
            .collect();
        // the definition's own annotations
        for (i, t) in param_tys.iter().enumerate() {
            if let Some(t) = t {
                let _ = self.unifier.unify(&slots[i], t);
            }
        }
        let ret = self.unifier.fresh();
        if let Some(t) = &ret_ty {
            let _ = self.unifier.unify(&ret, t);
        }
        let own = if is_const {
            ret.clone()
        } else {
            Ty::Fun(slots[..nparams].to_vec(), Box::new(ret.clone()))
        };
        if self.unifier.unify(&own, &key_ty).is_err() {
            errs.push(
                Diag::error(
                    "E0201",
                    format!(
                        "this definition of `{}` has type {}, but the name has type {}",
                        self.defs[id as usize].name,
                        self.unifier.pretty(&own),
                        self.unifier.pretty(&key_ty)
                    ),
                )
                .label(name_span, "type differs")
                .help("an override keeps the type of the definition it replaces"),
            );
        }
        if let Some(b) = &body {
            let mut inf = Infer {
                p: self,
                slots: &mut slots,
                errs,
                mono,
                quiet_arity: false,
            };
            let t = inf.infer(b);
            inf.expect(
                &t,
                &ret,
                b.span(),
                "the body must have the declared return type",
            );
        }
        self.defs[id as usize].body = body;
    }

    fn compute_sharing(&mut self) {
        let n = self.readings.len();
        let ndefs = self.defs.len();
        let nkeys = self.keys.len();
        self.shares_base = vec![vec![true; ndefs]; n];
        for r in 1..n {
            // a key is affected under r if r uses another definition for it than base does, or
            // if the definition r uses refers to an affected key
            let mut affected: Vec<bool> = (0..nkeys)
                .map(|k| self.table[r][k] != self.table[0][k])
                .collect();
            let mut progress = true;
            while progress {
                progress = false;
                for k in 0..nkeys {
                    if affected[k] {
                        continue;
                    }
                    if let Some(d) = self.table[r][k] {
                        if self.defs[d as usize]
                            .deps
                            .iter()
                            .any(|x| affected[*x as usize])
                        {
                            affected[k] = true;
                            progress = true;
                        }
                    }
                }
            }
            for (i, d) in self.defs.iter().enumerate() {
                self.shares_base[r][i] =
                    d.reading == BASE && !d.deps.iter().any(|k| affected[*k as usize]);
            }
        }
    }

    fn compute_light(&mut self) {
        let mut recursive = vec![false; self.keys.len()];
        for scc in &self.sccs {
            let rec = scc.len() > 1
                || self
                    .defs
                    .iter()
                    .any(|d| d.key == scc[0] && d.deps.contains(&scc[0]));
            for k in scc {
                recursive[*k as usize] = rec;
            }
        }
        self.light = self
            .defs
            .iter()
            .map(|d| {
                d.kind == DefKind::Rule
                    && d.native.is_none()
                    && !d.is_const
                    && d.deps.is_empty()
                    && !recursive.get(d.key as usize).copied().unwrap_or(true)
                    && d.body.as_ref().is_some_and(|b| light_ir(b, 0))
            })
            .collect();
    }

    fn compute_fingerprints(&mut self) {
        use std::hash::{Hash, Hasher};
        let hash = |t: &str| {
            let mut h = rustc_hash::FxHasher::default();
            t.hash(&mut h);
            h.finish()
        };
        // the enum declarations, which give values their meaning
        let mut enums = String::new();
        for e in &self.enums {
            enums.push_str(&e.name);
            for v in &e.variants {
                enums.push_str(&format!(" {}{:?}", v.name, v.fields));
            }
            enums.push(';');
        }
        let own: Vec<u64> = self
            .defs
            .iter()
            .map(|d| {
                let text = match &d.ast {
                    Some(a) => crate::syntax::print::print_def(a),
                    None => format!("native {}({})", d.name, d.params.join(",")),
                };
                hash(&format!(
                    "{}|{}|{}|{:?}|{}",
                    self.readings[d.reading as usize].name, d.is_override, text, d.native, enums
                ))
            })
            .collect();
        let mut by_key: Vec<Vec<usize>> = vec![vec![]; self.keys.len()];
        for (i, d) in self.defs.iter().enumerate() {
            by_key[d.key as usize].push(i);
        }
        self.fingerprint = (0..self.defs.len())
            .map(|start| {
                let mut seen = vec![false; self.defs.len()];
                let mut todo = vec![start];
                seen[start] = true;
                let mut parts = vec![];
                while let Some(d) = todo.pop() {
                    parts.push(own[d]);
                    for k in &self.defs[d].deps {
                        for &e in &by_key[*k as usize] {
                            if !seen[e] {
                                seen[e] = true;
                                todo.push(e);
                            }
                        }
                    }
                }
                parts[1..].sort_unstable();
                let mut h = rustc_hash::FxHasher::default();
                parts.hash(&mut h);
                h.finish()
            })
            .collect();
    }

    fn recursion_notes(&mut self) {
        for scc in &self.sccs {
            let recursive = scc.len() > 1
                || self
                    .defs
                    .iter()
                    .any(|d| d.key == scc[0] && d.deps.contains(&scc[0]));
            if !recursive {
                continue;
            }
            let names: Vec<&str> = scc
                .iter()
                .map(|k| self.keys[*k as usize].name.as_str())
                .collect();
            let neg: Vec<String> = self
                .defs
                .iter()
                .filter(|d| scc.contains(&d.key))
                .flat_map(|d| {
                    d.neg_deps
                        .iter()
                        .filter(|k| scc.contains(k))
                        .map(move |k| (d.name.clone(), *k))
                })
                .map(|(from, k)| {
                    format!(
                        "`{}` uses `{}` negatively",
                        from, self.keys[k as usize].name
                    )
                })
                .collect();
            let Some(first) = self.defs.iter().find(|d| scc.contains(&d.key)) else {
                continue;
            };
            let what = if scc.len() == 1 {
                format!("`{}` is recursive", names[0])
            } else {
                format!(
                    "{} are mutually recursive",
                    names
                        .iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let mut d = Diag::info("I0001", what).label(first.name_span, "recursion starts here");
            if neg.is_empty() {
                d = d.help("evaluation is tabled: each call is computed once; a call that re-enters itself with the same arguments is reported as a cycle");
            } else {
                d = d.help(format!(
                    "recursion through negation ({}): it ends only if some measure decreases along every cycle; a call that re-enters itself is reported as a cycle",
                    neg.join("; ")
                ));
            }
            self.notes.push(d);
        }
    }

    /// Every name a query can use, for completion and suggestions.
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
        let k = &self.keys[key as usize];
        let def = self.defs.iter().find(|d| d.key == key && !d.is_override);
        let params = def.map(|d| d.params.clone()).unwrap_or_default();
        let t = self.key_type(key);
        match (def.map(|d| d.is_const).unwrap_or(false), &k.scheme) {
            (true, _) => format!("{} : {}", k.name, t),
            (false, _) => format!("{}({}) : {}", k.name, params.join(", "), t),
        }
    }
}

/// A small expression: no calls of definitions, no iteration, a bounded size.
fn light_ir(e: &Ir, depth: usize) -> bool {
    if depth > 12 {
        return false;
    }
    let l = |x: &Ir| light_ir(x, depth + 1);
    match e {
        Ir::Const(..) | Ir::Local(..) | Ir::Poison(_) => true,
        Ir::Tuple(xs, _) | Ir::SeqLit(xs, _) | Ir::SetLit(xs, _) | Ir::Ctor(_, _, xs, _) => {
            xs.len() <= 8 && xs.iter().all(l)
        }
        Ir::Apply(f, xs, _) => l(f) && xs.iter().all(l),
        Ir::Index(a, b, _) | Ir::Bin(_, a, b, _) => l(a) && l(b),
        Ir::Proj(a, _, _) | Ir::Not(a, _) | Ir::Neg(a, _) => l(a),
        Ir::If(c, a, b, _) => l(c) && l(a) && l(b),
        Ir::Let(bs, body, _) => bs.len() <= 4 && bs.iter().all(|(_, x)| l(x)) && l(body),
        Ir::Match(sc, arms, _) => {
            arms.len() <= 12
                && l(sc)
                && arms
                    .iter()
                    .all(|a| a.guard.as_ref().is_none_or(l) && l(&a.body))
        }
        _ => false,
    }
}

fn tarjan(edges: &[Vec<DefKey>]) -> Vec<Vec<DefKey>> {
    // iterative Tarjan: strongly connected components, callees first
    let n = edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = vec![];
    let mut out = vec![];
    let mut counter = 0;
    for s in 0..n {
        if index[s] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(s, 0)];
        index[s] = counter;
        low[s] = counter;
        counter += 1;
        stack.push(s);
        on_stack[s] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            if *i < edges[v].len() {
                let w = edges[v][*i] as usize;
                *i += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(u, _)) = call.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = vec![];
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        comp.push(w as DefKey);
                        if w == v {
                            break;
                        }
                    }
                    comp.reverse();
                    out.push(comp);
                }
            }
        }
    }
    out
}

// ---------------------------------------------------------------------- the resolver

#[derive(Clone, Copy, PartialEq, Eq)]
enum Owner {
    Def(DefId),
    Other,
}

struct Resolver<'p> {
    p: &'p Program,
    owner: Owner,
    scope: Vec<(String, u32)>,
    nlocals: u32,
    deps: BTreeSet<DefKey>,
    neg_deps: BTreeSet<DefKey>,
    negated: bool,
    errs: Vec<Diag>,
}

impl<'p> Resolver<'p> {
    fn new(p: &'p Program, owner: Owner) -> Resolver<'p> {
        Resolver {
            p,
            owner,
            scope: vec![],
            nlocals: 0,
            deps: BTreeSet::new(),
            neg_deps: BTreeSet::new(),
            negated: false,
            errs: vec![],
        }
    }

    fn lookup_local(&self, name: &str) -> Option<u32> {
        self.scope
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    fn bind_name(&mut self, name: &str, span: Span) -> u32 {
        if self.lookup_local(name).is_some() {
            self.errs.push(
                Diag::error(
                    "E0106",
                    format!("`{name}` is already bound here; this binding would shadow it"),
                )
                .label(span, "shadows an outer binding")
                .help("choose another name for the inner variable"),
            );
        } else if self.p.ctors.contains_key(name) {
            self.errs.push(
                Diag::error(
                    "E0106",
                    format!("`{name}` is an enum constant and cannot be bound as a variable"),
                )
                .label(span, "names a constant")
                .help("choose another name for the variable"),
            );
        }
        let slot = self.nlocals;
        self.nlocals += 1;
        self.scope.push((name.to_string(), slot));
        slot
    }

    fn use_key(&mut self, k: DefKey) {
        self.deps.insert(k);
        if self.negated {
            self.neg_deps.insert(k);
        }
    }

    fn unknown(&mut self, name: &str, span: Span) -> Ir {
        let mut cands: Vec<String> = self.scope.iter().map(|(n, _)| n.clone()).collect();
        cands.extend(self.p.all_names());
        let mut d =
            Diag::error("E0100", format!("unknown name `{name}`")).label(span, "not defined");
        d = match suggest(name, cands.iter().map(|s| s.as_str())) {
            Some(s) => d.help(format!("did you mean `{s}`?")),
            None => {
                d.help("define it with `def`, or bind it with `let`, a quantifier or a parameter")
            }
        };
        self.errs.push(d);
        Ir::Poison(span)
    }

    fn arity_error(
        &mut self,
        what: &str,
        want: usize,
        got: usize,
        span: Span,
        def_span: Option<Span>,
    ) {
        let mut d = Diag::error(
            "E0102",
            format!(
                "{what} takes {want} argument{}, but {got} {} given",
                if want == 1 { "" } else { "s" },
                if got == 1 { "was" } else { "were" }
            ),
        )
        .label(
            span,
            format!("{got} argument{}", if got == 1 { "" } else { "s" }),
        );
        if let Some(s) = def_span {
            d = d.label(s, "defined here");
        }
        self.errs.push(d.help(format!("pass exactly {want}")));
    }

    fn def_span_of(&self, key: DefKey) -> Option<Span> {
        self.p
            .defs
            .iter()
            .find(|d| d.key == key)
            .map(|d| d.name_span)
    }

    fn var(&mut self, name: &str, span: Span) -> Ir {
        if let Some(s) = self.lookup_local(name) {
            return Ir::Local(s, span);
        }
        if let Some(&k) = self.p.key_names.get(name) {
            self.use_key(k);
            return Ir::Global(k, span);
        }
        if let Some(&(e, t)) = self.p.ctors.get(name) {
            let v = &self.p.enums[e as usize].variants[t as usize];
            return match &v.value {
                Some(val) => Ir::Const(val.clone(), span),
                None => Ir::Const(Value::Func(Rc::new(Func::Ctor(e, t, v.fields.len()))), span),
            };
        }
        if let Some(e) = self.p.enums.iter().position(|e| e.name == name) {
            return Ir::Domain(e as EnumId, span);
        }
        if name == "Bool" {
            return Ir::Const(
                Value::set(
                    [Value::Bool(false), Value::Bool(true)]
                        .into_iter()
                        .collect(),
                ),
                span,
            );
        }
        if let Some(b) = Builtin::from_name(name) {
            return Ir::Const(Value::Func(Rc::new(Func::Builtin(b))), span);
        }
        self.unknown(name, span)
    }

    fn exprs(&mut self, es: &[Expr]) -> Box<[Ir]> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn expr(&mut self, e: &Expr) -> Ir {
        stacker::maybe_grow(64 << 10, 8 << 20, || self.expr_inner(e))
    }

    fn with_negation<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        let old = self.negated;
        self.negated = !old;
        let r = f(self);
        self.negated = old;
        r
    }

    fn expr_inner(&mut self, e: &Expr) -> Ir {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(i) => Ir::Const(Value::Int(*i), span),
            ExprKind::Bool(b) => Ir::Const(Value::Bool(*b), span),
            ExprKind::Str(s) => Ir::Const(Value::str(s), span),
            ExprKind::Var(n) => self.var(n, span),
            ExprKind::Base(n) => {
                // `base.f` without arguments: only as a call
                let _ = n;
                self.errs.push(
                    Diag::error("E0108", "`base.f` must be called with arguments")
                        .label(span, "not called")
                        .help("write `base.f(x, y)` inside an override"),
                );
                Ir::Const(Value::Bool(false), span)
            }
            ExprKind::Tuple(items) => Ir::Tuple(self.exprs(items), span),
            ExprKind::Set(items) => Ir::SetLit(self.exprs(items), span),
            ExprKind::Seq(items) => Ir::SeqLit(self.exprs(items), span),
            ExprKind::Map(es) => Ir::MapLit(
                es.iter()
                    .map(|(k, v)| (self.expr(k), self.expr(v)))
                    .collect(),
                span,
            ),
            ExprKind::SetComp(h, qs) | ExprKind::SeqComp(h, qs) => {
                let kind = if matches!(e.kind, ExprKind::SetComp(..)) {
                    CompKind::Set
                } else {
                    CompKind::Seq
                };
                let mark = self.scope.len();
                let quals = self.quals(qs);
                let head = self.expr(h);
                self.scope.truncate(mark);
                Ir::Comp(kind, Box::new(head), None, quals, span)
            }
            ExprKind::MapComp(k, v, qs) => {
                let mark = self.scope.len();
                let quals = self.quals(qs);
                let k = self.expr(k);
                let v = self.expr(v);
                self.scope.truncate(mark);
                Ir::Comp(CompKind::Map, Box::new(k), Some(Box::new(v)), quals, span)
            }
            ExprKind::Call(f, args) => self.call(f, args, span),
            ExprKind::Index(a, i) => {
                Ir::Index(Box::new(self.expr(a)), Box::new(self.expr(i)), span)
            }
            ExprKind::Slice(a, i, j) => Ir::Slice(
                Box::new(self.expr(a)),
                Box::new(self.expr(i)),
                Box::new(self.expr(j)),
                span,
            ),
            ExprKind::Proj(a, k) => Ir::Proj(Box::new(self.expr(a)), *k, span),
            ExprKind::With(a, es) => {
                let base = self.expr(a);
                let es = es
                    .iter()
                    .map(|(k, v)| (self.expr(k), self.expr(v)))
                    .collect();
                Ir::With(Box::new(base), es, span)
            }
            ExprKind::WithComp(a, k, v, qs) => {
                let base = self.expr(a);
                let mark = self.scope.len();
                let quals = self.quals(qs);
                let k = self.expr(k);
                let v = self.expr(v);
                self.scope.truncate(mark);
                Ir::WithComp(Box::new(base), Box::new(k), Box::new(v), quals, span)
            }
            ExprKind::Unary(UnOp::Not, a) => {
                let a = self.with_negation(|r| r.expr(a));
                Ir::Not(Box::new(a), span)
            }
            ExprKind::Unary(UnOp::Neg, a) => Ir::Neg(Box::new(self.expr(a)), span),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = match op {
                    BinOp::Implies => {
                        let a = self.with_negation(|r| r.expr(a));
                        (a, self.expr(b))
                    }
                    BinOp::Ne | BinOp::NotIn | BinOp::Iff | BinOp::Diff => {
                        let a = self.expr(a);
                        let b = self.with_negation(|r| r.expr(b));
                        (a, b)
                    }
                    _ => (self.expr(a), self.expr(b)),
                };
                Ir::Bin(*op, Box::new(a), Box::new(b), span)
            }
            ExprKind::If(c, a, b) => Ir::If(
                Box::new(self.expr(c)),
                Box::new(self.expr(a)),
                Box::new(self.expr(b)),
                span,
            ),
            ExprKind::Let(binds, body) => {
                let mark = self.scope.len();
                let mut out = vec![];
                for (p, v) in binds {
                    let v = self.expr(v);
                    let p = self.pattern(p);
                    out.push((p, v));
                }
                let body = self.expr(body);
                self.scope.truncate(mark);
                Ir::Let(out.into(), Box::new(body), span)
            }
            ExprKind::Match(s, arms) => {
                let s = self.expr(s);
                let mut out = vec![];
                for a in arms {
                    let mark = self.scope.len();
                    let pat = self.pattern(&a.pat);
                    let guard = a.guard.as_ref().map(|g| self.expr(g));
                    let body = self.expr(&a.body);
                    self.scope.truncate(mark);
                    out.push(IrArm { pat, guard, body });
                }
                Ir::Match(Box::new(s), out.into(), span)
            }
            ExprKind::Quant(q, bs, body) => {
                let mark = self.scope.len();
                let bs = self.binders(bs);
                let body = self.expr(body);
                self.scope.truncate(mark);
                Ir::Quant(*q, bs.into(), Box::new(body), span)
            }
            ExprKind::Agg(a, bs, body) => {
                let mark = self.scope.len();
                let bs = self.binders(bs);
                let body = self.expr(body);
                self.scope.truncate(mark);
                Ir::Agg(*a, bs.into(), Box::new(body), span)
            }
            ExprKind::Closure(s, f) => {
                Ir::Closure(Box::new(self.expr(s)), Box::new(self.expr(f)), span)
            }
            ExprKind::Lambda(ps, body) => {
                let mark = self.scope.len();
                let params: Vec<IrPat> = ps.iter().map(|p| self.pattern(p)).collect();
                let body = self.expr(body);
                self.scope.truncate(mark);
                Ir::Lambda(Rc::new(Lambda { params, body, span }))
            }
        }
    }

    fn call(&mut self, f: &Expr, args: &[Expr], span: Span) -> Ir {
        match &f.kind {
            ExprKind::Var(name) if self.lookup_local(name).is_none() => {
                if let Some(&k) = self.p.key_names.get(name) {
                    self.use_key(k);
                    let key = &self.p.keys[k as usize];
                    match key.arity {
                        Some(n) => {
                            if n != args.len() {
                                let ds = self.def_span_of(k);
                                self.arity_error(&format!("`{name}`"), n, args.len(), span, ds);
                            }
                            let a = self.exprs(args);
                            return Ir::Call(k, a, span);
                        }
                        None => {
                            let a = self.exprs(args);
                            return Ir::Apply(Box::new(Ir::Global(k, f.span)), a, span);
                        }
                    }
                }
                if let Some(&(e, t)) = self.p.ctors.get(name) {
                    let n = self.p.enums[e as usize].variants[t as usize].fields.len();
                    if n != args.len() {
                        let vs = self.p.enums[e as usize].variants[t as usize].span;
                        self.arity_error(
                            &format!("the constructor `{name}`"),
                            n,
                            args.len(),
                            span,
                            Some(vs),
                        );
                    }
                    let a = self.exprs(args);
                    return Ir::Ctor(e, t, a, span);
                }
                if let Some(b) = Builtin::from_name(name) {
                    if b.arity() != args.len() {
                        self.arity_error(
                            &format!("the built-in `{name}`"),
                            b.arity(),
                            args.len(),
                            span,
                            None,
                        );
                    }
                    let a = self.exprs(args);
                    return Ir::Builtin(b, a, span);
                }
                let callee = self.var(name, f.span);
                let a = self.exprs(args);
                Ir::Apply(Box::new(callee), a, span)
            }
            ExprKind::Base(n) => {
                let Owner::Def(from) = self.owner else {
                    self.errs.push(
                        Diag::error(
                            "E0108",
                            "`base.` is only meaningful inside a reading's override",
                        )
                        .label(f.span, "no parent reading here")
                        .help("call the definition by its name"),
                    );
                    return Ir::Const(Value::Bool(false), span);
                };
                if self.p.defs[from as usize].reading == BASE {
                    self.errs.push(
                        Diag::error(
                            "E0108",
                            "`base.` is only meaningful inside a reading's override",
                        )
                        .label(f.span, "this definition is not in a reading")
                        .help("call the definition by its name"),
                    );
                }
                match self.p.key_names.get(&n.text) {
                    Some(&k) => {
                        self.use_key(k);
                        if let Some(want) = self.p.keys[k as usize].arity {
                            if want != args.len() {
                                let ds = self.def_span_of(k);
                                self.arity_error(
                                    &format!("`{}`", n.text),
                                    want,
                                    args.len(),
                                    span,
                                    ds,
                                );
                            }
                        }
                        let a = self.exprs(args);
                        Ir::CallBase(from, k, a, span)
                    }
                    None => self.unknown(&n.text, n.span),
                }
            }
            _ => {
                let callee = self.expr(f);
                let a = self.exprs(args);
                Ir::Apply(Box::new(callee), a, span)
            }
        }
    }

    fn pattern(&mut self, p: &Pattern) -> IrPat {
        match &p.kind {
            PatternKind::Wild => IrPat::Wild,
            PatternKind::Name(n) => {
                if let Some(&(e, t)) = self.p.ctors.get(n) {
                    if self.p.enums[e as usize].variants[t as usize]
                        .fields
                        .is_empty()
                    {
                        return IrPat::Const(e, t);
                    }
                }
                IrPat::Bind(self.bind_name(n, p.span))
            }
            PatternKind::Int(i) => IrPat::Int(*i),
            PatternKind::Bool(b) => IrPat::Bool(*b),
            PatternKind::Str(s) => IrPat::Str(Rc::from(s.as_str())),
            PatternKind::Tuple(items) => {
                IrPat::Tuple(items.iter().map(|q| self.pattern(q)).collect())
            }
            PatternKind::Ctor(n, args) => match self.p.ctors.get(&n.text) {
                Some(&(e, t)) => {
                    let want = self.p.enums[e as usize].variants[t as usize].fields.len();
                    if want != args.len() {
                        let vs = self.p.enums[e as usize].variants[t as usize].span;
                        self.arity_error(
                            &format!("the constructor `{}`", n.text),
                            want,
                            args.len(),
                            p.span,
                            Some(vs),
                        );
                    }
                    IrPat::Ctor(e, t, args.iter().map(|q| self.pattern(q)).collect())
                }
                None => {
                    self.unknown(&n.text, n.span);
                    IrPat::Wild
                }
            },
            PatternKind::Or(alts) => {
                // alternatives may not bind variables (they could bind different ones)
                let mark = self.scope.len();
                let out: Vec<IrPat> = alts.iter().map(|q| self.pattern(q)).collect();
                if self.scope.len() != mark {
                    self.errs.push(
                        Diag::error("E0114", "alternatives in a pattern cannot bind variables")
                            .label(p.span, "binds a variable")
                            .help("match the alternatives with separate arms"),
                    );
                    self.scope.truncate(mark);
                }
                IrPat::Or(out)
            }
        }
    }

    fn binders(&mut self, bs: &[Binder]) -> Vec<IrBinder> {
        let mut out = vec![];
        for b in bs {
            let domain = self.expr(&b.domain);
            let names = b
                .pats
                .iter()
                .map(crate::syntax::print::print_pattern)
                .collect();
            let span = b
                .pats
                .first()
                .map(|p| p.span.to(b.domain.span))
                .unwrap_or(b.domain.span);
            let pats = b.pats.iter().map(|p| self.pattern(p)).collect();
            out.push(IrBinder {
                pats,
                names,
                domain,
                span,
            });
        }
        out
    }

    fn quals(&mut self, qs: &[Qual]) -> Box<[IrQual]> {
        let mut out = vec![];
        for q in qs {
            match q {
                Qual::Gen(p, e) => {
                    // `x in S` with x already bound is a membership test
                    if let PatternKind::Name(n) = &p.kind {
                        if let Some(slot) = self.lookup_local(n) {
                            let d = self.expr(e);
                            let span = p.span.to(e.span);
                            out.push(IrQual::Guard(Ir::Bin(
                                BinOp::In,
                                Box::new(Ir::Local(slot, p.span)),
                                Box::new(d),
                                span,
                            )));
                            continue;
                        }
                    }
                    let d = self.expr(e);
                    let span = p.span.to(e.span);
                    let pat = self.pattern(p);
                    out.push(IrQual::Gen(pat, d, span));
                }
                Qual::Let(p, e) => {
                    let v = self.expr(e);
                    let pat = self.pattern(p);
                    out.push(IrQual::Let(pat, v));
                }
                Qual::Guard(e) => out.push(IrQual::Guard(self.expr(e))),
            }
        }
        out.into()
    }
}

// ---------------------------------------------------------------------- type inference

struct Infer<'a> {
    p: &'a mut Program,
    slots: &'a mut Vec<Ty>,
    errs: &'a mut Vec<Diag>,
    mono: &'a HashMap<DefKey, Ty>,
    /// Arity of calls by name was checked (and reported) during resolution.
    quiet_arity: bool,
}

impl Infer<'_> {
    fn u(&mut self) -> &mut Unifier {
        &mut self.p.unifier
    }

    fn mismatch(&mut self, got: &Ty, want: &Ty, span: Span, why: &str) {
        let g = self.p.unifier.pretty(got);
        let w = self.p.unifier.pretty(want);
        self.errs.push(
            Diag::error("E0200", format!("type mismatch: expected {w}, found {g}"))
                .label(span, format!("this is {g}"))
                .help(why.to_string()),
        );
    }

    fn expect(&mut self, got: &Ty, want: &Ty, span: Span, why: &str) {
        if self.u().unify(got, want).is_err() {
            self.mismatch(got, want, span, why);
        }
    }

    fn key_ty(&mut self, k: DefKey) -> Ty {
        if let Some(t) = self.mono.get(&k) {
            return t.clone();
        }
        match self.p.keys[k as usize].scheme.clone() {
            Some(s) => self.u().instantiate(&s),
            None => self.u().fresh(),
        }
    }

    /// The element type of a collection, if the collection's type says.
    fn elem_of(&mut self, t: &Ty, span: Span, what: &str) -> Ty {
        match self.p.unifier.shallow(t) {
            Ty::Set(a) | Ty::Seq(a) => *a,
            Ty::Map(k, _) => *k,
            Ty::Var(_) => self.u().fresh(),
            Ty::Str => Ty::Str,
            other => {
                let s = self.p.unifier.pretty(&other);
                self.errs.push(
                    Diag::error(
                        "E0200",
                        format!("{what} must be a set, sequence or map, not {s}"),
                    )
                    .label(span, format!("this is {s}"))
                    .help("quantifiers and generators range over finite collections"),
                );
                self.u().fresh()
            }
        }
    }

    fn pattern(&mut self, p: &IrPat, t: &Ty, span: Span) {
        match p {
            IrPat::Wild => {}
            IrPat::Bind(s) => {
                let st = self.slots[*s as usize].clone();
                self.expect(t, &st, span, "a variable has one type");
            }
            IrPat::Int(_) => self.expect(t, &Ty::Int, span, "the pattern is an integer"),
            IrPat::Bool(_) => self.expect(t, &Ty::Bool, span, "the pattern is a truth value"),
            IrPat::Str(_) => self.expect(t, &Ty::Str, span, "the pattern is a string"),
            IrPat::Const(e, _) => {
                let et = Ty::Enum(*e, Rc::from(self.p.enums[*e as usize].name.as_str()));
                self.expect(t, &et, span, "the pattern is an enum constant");
            }
            IrPat::Tuple(items) => {
                let ts: Vec<Ty> = items.iter().map(|_| self.u().fresh()).collect();
                self.expect(t, &Ty::Tuple(ts.clone()), span, "the pattern is a tuple");
                for (q, qt) in items.iter().zip(ts) {
                    self.pattern(q, &qt, span);
                }
            }
            IrPat::Ctor(e, tag, items) => {
                let et = Ty::Enum(*e, Rc::from(self.p.enums[*e as usize].name.as_str()));
                self.expect(t, &et, span, "the pattern is an enum constant");
                let fields = self.p.enums[*e as usize].variants[*tag as usize]
                    .fields
                    .clone();
                for (q, ft) in items.iter().zip(fields) {
                    self.pattern(q, &ft, span);
                }
            }
            IrPat::Or(alts) => {
                for q in alts {
                    self.pattern(q, t, span);
                }
            }
        }
    }

    fn binders(&mut self, bs: &[IrBinder]) {
        for b in bs {
            let dt = self.infer(&b.domain);
            let et = self.elem_of(&dt, b.domain.span(), "the domain of a binder");
            for p in &b.pats {
                self.pattern(p, &et, b.span);
            }
        }
    }

    fn quals(&mut self, qs: &[IrQual]) {
        for q in qs {
            match q {
                IrQual::Gen(p, d, span) => {
                    let dt = self.infer(d);
                    let et = self.elem_of(&dt, d.span(), "a generator's domain");
                    self.pattern(p, &et, *span);
                }
                IrQual::Let(p, e) => {
                    let t = self.infer(e);
                    self.pattern(p, &t, e.span());
                }
                IrQual::Guard(e) => {
                    let t = self.infer(e);
                    self.expect(&t, &Ty::Bool, e.span(), "a condition is a truth value");
                }
            }
        }
    }

    /// Apply a value of type `ft` to arguments.
    fn apply(&mut self, ft: &Ty, args: &[Ty], spans: &[Span], span: Span) -> Ty {
        match self.p.unifier.shallow(ft) {
            Ty::Fun(ps, r) => {
                if ps.len() != args.len() {
                    if self.quiet_arity {
                        return *r;
                    }
                    self.errs.push(
                        Diag::error(
                            "E0102",
                            format!(
                                "this function takes {} arguments, but {} were given",
                                ps.len(),
                                args.len()
                            ),
                        )
                        .label(span, "wrong number of arguments")
                        .help(format!("its type is {}", self.p.unifier.pretty(ft))),
                    );
                    return *r;
                }
                for ((a, p), s) in args.iter().zip(&ps).zip(spans) {
                    self.expect(a, p, *s, "the argument must have the parameter's type");
                }
                *r
            }
            Ty::Map(k, v) if args.len() == 1 => {
                self.expect(&args[0], &k, spans[0], "a map is applied to a key");
                *v
            }
            Ty::Seq(a) if args.len() == 1 => {
                self.expect(
                    &args[0],
                    &Ty::Int,
                    spans[0],
                    "a sequence is applied to an index (from 1)",
                );
                *a
            }
            Ty::Var(_) => {
                let r = self.u().fresh();
                let f = Ty::Fun(args.to_vec(), Box::new(r.clone()));
                let _ = self.u().unify(ft, &f);
                r
            }
            other => {
                let s = self.p.unifier.pretty(&other);
                self.errs.push(
                    Diag::error("E0202", format!("{s} cannot be applied to arguments"))
                        .label(span, "not a function, map or sequence")
                        .help("only functions, maps (to a key) and sequences (to an index) can be applied"),
                );
                self.u().fresh()
            }
        }
    }

    fn infer(&mut self, e: &Ir) -> Ty {
        stacker::maybe_grow(64 << 10, 8 << 20, || self.infer_inner(e))
    }

    fn infer_inner(&mut self, e: &Ir) -> Ty {
        match e {
            Ir::Const(v, _) => self.value_ty(v),
            Ir::Poison(_) => self.u().fresh(),
            Ir::Local(s, _) => self.slots[*s as usize].clone(),
            Ir::Global(k, _) => self.key_ty(*k),
            Ir::Call(k, args, span) | Ir::CallBase(_, k, args, span) => {
                let ft = self.key_ty(*k);
                let ats: Vec<Ty> = args.iter().map(|a| self.infer(a)).collect();
                let spans: Vec<Span> = args.iter().map(|a| a.span()).collect();
                self.quiet_arity = true;
                let r = self.apply(&ft, &ats, &spans, *span);
                self.quiet_arity = false;
                r
            }
            Ir::Apply(f, args, span) => {
                let ft = self.infer(f);
                let ats: Vec<Ty> = args.iter().map(|a| self.infer(a)).collect();
                let spans: Vec<Span> = args.iter().map(|a| a.span()).collect();
                self.apply(&ft, &ats, &spans, *span)
            }
            Ir::Builtin(b, args, span) => self.builtin(*b, args, *span),
            Ir::Ctor(en, tag, args, _) => {
                let fields = self.p.enums[*en as usize].variants[*tag as usize]
                    .fields
                    .clone();
                for (a, f) in args.iter().zip(&fields) {
                    let t = self.infer(a);
                    self.expect(
                        &t,
                        f,
                        a.span(),
                        "a constructor's field has the declared type",
                    );
                }
                Ty::Enum(*en, Rc::from(self.p.enums[*en as usize].name.as_str()))
            }
            Ir::Domain(en, _) => Ty::Set(Box::new(Ty::Enum(
                *en,
                Rc::from(self.p.enums[*en as usize].name.as_str()),
            ))),
            Ir::Tuple(items, _) => Ty::Tuple(items.iter().map(|i| self.infer(i)).collect()),
            Ir::SetLit(items, _) | Ir::SeqLit(items, _) => {
                let t = self.u().fresh();
                for i in items.iter() {
                    let it = self.infer(i);
                    self.expect(
                        &it,
                        &t,
                        i.span(),
                        "the elements of a collection have one type",
                    );
                }
                if matches!(e, Ir::SetLit(..)) {
                    Ty::Set(Box::new(t))
                } else {
                    Ty::Seq(Box::new(t))
                }
            }
            Ir::MapLit(es, _) => {
                let k = self.u().fresh();
                let v = self.u().fresh();
                for (a, b) in es.iter() {
                    let at = self.infer(a);
                    self.expect(&at, &k, a.span(), "the keys of a map have one type");
                    let bt = self.infer(b);
                    self.expect(&bt, &v, b.span(), "the values of a map have one type");
                }
                Ty::Map(Box::new(k), Box::new(v))
            }
            Ir::Comp(kind, h, h2, qs, _) => {
                self.quals(qs);
                let ht = self.infer(h);
                match kind {
                    CompKind::Set => Ty::Set(Box::new(ht)),
                    CompKind::Seq => Ty::Seq(Box::new(ht)),
                    CompKind::Map => {
                        let vt = self.infer(h2.as_ref().unwrap());
                        Ty::Map(Box::new(ht), Box::new(vt))
                    }
                }
            }
            Ir::Index(a, i, span) => {
                let at = self.infer(a);
                let it = self.infer(i);
                self.apply(&at, &[it], &[i.span()], *span)
            }
            Ir::Slice(a, i, j, _) => {
                let at = self.infer(a);
                let it = self.infer(i);
                let jt = self.infer(j);
                self.expect(&it, &Ty::Int, i.span(), "slice bounds are integers");
                self.expect(&jt, &Ty::Int, j.span(), "slice bounds are integers");
                let el = self.u().fresh();
                self.expect(
                    &at,
                    &Ty::Seq(Box::new(el)),
                    a.span(),
                    "only sequences can be sliced",
                );
                at
            }
            Ir::Proj(a, k, span) => {
                let at = self.infer(a);
                match self.p.unifier.shallow(&at) {
                    Ty::Tuple(ts) => match ts.get(*k as usize - 1) {
                        Some(t) => t.clone(),
                        None => {
                            self.errs.push(
                                Diag::error(
                                    "E0203",
                                    format!(
                                        "a tuple of {} components has no component {}",
                                        ts.len(),
                                        k
                                    ),
                                )
                                .label(*span, "no such component")
                                .help(format!("components are numbered 1 to {}", ts.len())),
                            );
                            self.u().fresh()
                        }
                    },
                    Ty::Var(_) => self.u().fresh(),
                    other => {
                        let s = self.p.unifier.pretty(&other);
                        self.errs.push(
                            Diag::error(
                                "E0203",
                                format!("`.{k}` takes a component of a tuple, not of {s}"),
                            )
                            .label(*span, "not a tuple")
                            .help("use `.1`, `.2`... on tuples only"),
                        );
                        self.u().fresh()
                    }
                }
            }
            Ir::With(a, es, _) => {
                let at = self.infer(a);
                let k = self.u().fresh();
                let v = self.u().fresh();
                self.expect(
                    &at,
                    &Ty::Map(Box::new(k.clone()), Box::new(v.clone())),
                    a.span(),
                    "`with` updates a map",
                );
                for (x, y) in es.iter() {
                    let xt = self.infer(x);
                    self.expect(&xt, &k, x.span(), "keys keep the map's key type");
                    let yt = self.infer(y);
                    self.expect(&yt, &v, y.span(), "values keep the map's value type");
                }
                at
            }
            Ir::WithComp(a, x, y, qs, _) => {
                let at = self.infer(a);
                let k = self.u().fresh();
                let v = self.u().fresh();
                self.expect(
                    &at,
                    &Ty::Map(Box::new(k.clone()), Box::new(v.clone())),
                    a.span(),
                    "`with` updates a map",
                );
                self.quals(qs);
                let xt = self.infer(x);
                self.expect(&xt, &k, x.span(), "keys keep the map's key type");
                let yt = self.infer(y);
                self.expect(&yt, &v, y.span(), "values keep the map's value type");
                at
            }
            Ir::Not(a, _) => {
                let t = self.infer(a);
                self.expect(&t, &Ty::Bool, a.span(), "`not` takes a truth value");
                Ty::Bool
            }
            Ir::Neg(a, _) => {
                let t = self.infer(a);
                self.expect(&t, &Ty::Int, a.span(), "only integers can be negated");
                Ty::Int
            }
            Ir::Bin(op, a, b, _) => self.binop(*op, a, b),
            Ir::If(c, a, b, _) => {
                let ct = self.infer(c);
                self.expect(
                    &ct,
                    &Ty::Bool,
                    c.span(),
                    "the condition of `if` is a truth value",
                );
                let at = self.infer(a);
                let bt = self.infer(b);
                self.expect(&bt, &at, b.span(), "both branches of `if` have one type");
                at
            }
            Ir::Let(binds, body, _) => {
                for (p, v) in binds.iter() {
                    let t = self.infer(v);
                    self.pattern(p, &t, v.span());
                }
                self.infer(body)
            }
            Ir::Match(s, arms, _) => {
                let st = self.infer(s);
                let r = self.u().fresh();
                for a in arms.iter() {
                    self.pattern(&a.pat, &st, s.span());
                    if let Some(g) = &a.guard {
                        let gt = self.infer(g);
                        self.expect(&gt, &Ty::Bool, g.span(), "a guard is a truth value");
                    }
                    let bt = self.infer(&a.body);
                    self.expect(&bt, &r, a.body.span(), "all arms of `match` have one type");
                }
                r
            }
            Ir::Quant(_, bs, body, _) => {
                self.binders(bs);
                let t = self.infer(body);
                self.expect(
                    &t,
                    &Ty::Bool,
                    body.span(),
                    "a quantifier's body is a truth value",
                );
                Ty::Bool
            }
            Ir::Agg(a, bs, body, _) => {
                self.binders(bs);
                let t = self.infer(body);
                match a {
                    Agg::Count => {
                        self.expect(
                            &t,
                            &Ty::Bool,
                            body.span(),
                            "`count` counts where its body is true",
                        );
                        Ty::Int
                    }
                    Agg::Sum => {
                        self.expect(&t, &Ty::Int, body.span(), "`sum` adds integers");
                        Ty::Int
                    }
                    _ => t,
                }
            }
            Ir::Closure(s, f, _) => {
                let st = self.infer(s);
                let el = self.u().fresh();
                self.expect(
                    &st,
                    &Ty::Set(Box::new(el.clone())),
                    s.span(),
                    "a closure starts from a set",
                );
                let ft = self.infer(f);
                let r = self.apply(&ft, std::slice::from_ref(&el), &[f.span()], f.span());
                self.expect(
                    &r,
                    &Ty::Set(Box::new(el)),
                    f.span(),
                    "the step of a closure maps an element to a set of elements",
                );
                st
            }
            Ir::Lambda(l) => {
                let ps: Vec<Ty> = l.params.iter().map(|_| self.u().fresh()).collect();
                for (p, t) in l.params.iter().zip(&ps) {
                    self.pattern(p, t, l.span);
                }
                let r = self.infer(&l.body);
                Ty::Fun(ps, Box::new(r))
            }
        }
    }

    fn value_ty(&mut self, v: &Value) -> Ty {
        match v {
            Value::Bool(_) => Ty::Bool,
            Value::Int(_) => Ty::Int,
            Value::Str(_) => Ty::Str,
            Value::Enum(e) => Ty::Enum(e.ty, Rc::from(self.p.enums[e.ty as usize].name.as_str())),
            Value::Set(s) => {
                let el = match s.iter().next() {
                    Some(x) => self.value_ty(x),
                    None => self.u().fresh(),
                };
                Ty::Set(Box::new(el))
            }
            Value::Func(f) => match &**f {
                Func::Ctor(e, t, _) => {
                    let fields = self.p.enums[*e as usize].variants[*t as usize]
                        .fields
                        .clone();
                    Ty::Fun(
                        fields,
                        Box::new(Ty::Enum(
                            *e,
                            Rc::from(self.p.enums[*e as usize].name.as_str()),
                        )),
                    )
                }
                _ => self.u().fresh(),
            },
            Value::Native(n) => Ty::Opaque(Rc::from(n.type_name())),
            _ => self.u().fresh(),
        }
    }

    fn binop(&mut self, op: BinOp, a: &Ir, b: &Ir) -> Ty {
        use BinOp::*;
        let at = self.infer(a);
        let bt = self.infer(b);
        match op {
            Implies | Iff | Or | And => {
                self.expect(
                    &at,
                    &Ty::Bool,
                    a.span(),
                    "logical operators take truth values",
                );
                self.expect(
                    &bt,
                    &Ty::Bool,
                    b.span(),
                    "logical operators take truth values",
                );
                Ty::Bool
            }
            Eq | Ne | Lt | Le | Gt | Ge => {
                self.expect(
                    &bt,
                    &at,
                    b.span(),
                    "both sides of a comparison have one type",
                );
                Ty::Bool
            }
            In | NotIn => {
                let el = self.elem_of(&bt, b.span(), "the right side of `in`");
                self.expect(&at, &el, a.span(), "`x in S` needs x of S's element type");
                Ty::Bool
            }
            Subset => {
                let el = self.u().fresh();
                self.expect(
                    &at,
                    &Ty::Set(Box::new(el.clone())),
                    a.span(),
                    "`subset` compares sets",
                );
                self.expect(
                    &bt,
                    &Ty::Set(Box::new(el)),
                    b.span(),
                    "`subset` compares sets",
                );
                Ty::Bool
            }
            Range => {
                self.expect(&at, &Ty::Int, a.span(), "a range goes between integers");
                self.expect(&bt, &Ty::Int, b.span(), "a range goes between integers");
                Ty::Set(Box::new(Ty::Int))
            }
            Concat
                if matches!(self.p.unifier.shallow(&at), Ty::Str)
                    || matches!(self.p.unifier.shallow(&bt), Ty::Str) =>
            {
                self.expect(
                    &at,
                    &Ty::Str,
                    a.span(),
                    "`++` joins two strings or two sequences",
                );
                self.expect(
                    &bt,
                    &Ty::Str,
                    b.span(),
                    "`++` joins two strings or two sequences",
                );
                Ty::Str
            }
            Concat => {
                let el = self.u().fresh();
                self.expect(
                    &at,
                    &Ty::Seq(Box::new(el.clone())),
                    a.span(),
                    "`++` joins sequences",
                );
                self.expect(
                    &bt,
                    &Ty::Seq(Box::new(el)),
                    b.span(),
                    "`++` joins sequences",
                );
                at
            }
            Add | Sub | Mul | Div | Mod => {
                self.expect(&at, &Ty::Int, a.span(), "arithmetic takes integers");
                self.expect(&bt, &Ty::Int, b.span(), "arithmetic takes integers");
                Ty::Int
            }
            Union | Inter | Diff => {
                let el = self.u().fresh();
                self.expect(
                    &at,
                    &Ty::Set(Box::new(el.clone())),
                    a.span(),
                    "set operations take sets",
                );
                self.expect(
                    &bt,
                    &Ty::Set(Box::new(el)),
                    b.span(),
                    "set operations take sets",
                );
                at
            }
        }
    }

    fn builtin(&mut self, b: Builtin, args: &[Ir], _span: Span) -> Ty {
        use Builtin::*;
        let ts: Vec<Ty> = args.iter().map(|a| self.infer(a)).collect();
        let sp: Vec<Span> = args.iter().map(|a| a.span()).collect();
        let f = |u: &mut Unifier| u.fresh();
        macro_rules! want {
            ($i:expr, $t:expr, $why:expr) => {
                if let Some(t) = ts.get($i) {
                    let w = $t;
                    self.expect(t, &w, sp[$i], $why);
                }
            };
        }
        match b {
            Len | Size | Count => {
                if let Some(t) = ts.first() {
                    self.elem_of(t, sp[0], "the argument");
                }
                Ty::Int
            }
            Keys => {
                let (k, v) = (f(self.u()), f(self.u()));
                want!(
                    0,
                    Ty::Map(Box::new(k.clone()), Box::new(v)),
                    "`keys` takes a map"
                );
                Ty::Set(Box::new(k))
            }
            Values => {
                let (k, v) = (f(self.u()), f(self.u()));
                want!(
                    0,
                    Ty::Map(Box::new(k), Box::new(v.clone())),
                    "`values` takes a map"
                );
                Ty::Set(Box::new(v))
            }
            ToSet => {
                let el = match ts.first() {
                    Some(t) => self.elem_of(t, sp[0], "the argument"),
                    None => f(self.u()),
                };
                Ty::Set(Box::new(el))
            }
            ToSeq => {
                let el = match ts.first() {
                    Some(t) => self.elem_of(t, sp[0], "the argument"),
                    None => f(self.u()),
                };
                Ty::Seq(Box::new(el))
            }
            Sort | Rev => {
                let el = f(self.u());
                want!(0, Ty::Seq(Box::new(el.clone())), "this takes a sequence");
                Ty::Seq(Box::new(el))
            }
            First | Last => {
                let el = f(self.u());
                want!(0, Ty::Seq(Box::new(el.clone())), "this takes a sequence");
                el
            }
            Take | Drop => {
                let el = f(self.u());
                want!(0, Ty::Seq(Box::new(el.clone())), "this takes a sequence");
                want!(1, Ty::Int, "the count is an integer");
                Ty::Seq(Box::new(el))
            }
            Zip => {
                let (x, y) = (f(self.u()), f(self.u()));
                want!(0, Ty::Seq(Box::new(x.clone())), "`zip` takes sequences");
                want!(1, Ty::Seq(Box::new(y.clone())), "`zip` takes sequences");
                Ty::Seq(Box::new(Ty::Tuple(vec![x, y])))
            }
            Abs | Sign => {
                want!(0, Ty::Int, "this takes an integer");
                Ty::Int
            }
            Powerset => {
                let el = f(self.u());
                want!(0, Ty::Set(Box::new(el.clone())), "`powerset` takes a set");
                Ty::Set(Box::new(Ty::Set(Box::new(el))))
            }
            Functions => {
                let (x, y) = (f(self.u()), f(self.u()));
                want!(
                    0,
                    Ty::Set(Box::new(x.clone())),
                    "`functions` takes two sets"
                );
                want!(
                    1,
                    Ty::Set(Box::new(y.clone())),
                    "`functions` takes two sets"
                );
                Ty::Set(Box::new(Ty::Map(Box::new(x), Box::new(y))))
            }
            Product => {
                let (x, y) = (f(self.u()), f(self.u()));
                want!(0, Ty::Set(Box::new(x.clone())), "`product` takes two sets");
                want!(1, Ty::Set(Box::new(y.clone())), "`product` takes two sets");
                Ty::Set(Box::new(Ty::Tuple(vec![x, y])))
            }
            Get => {
                let (k, v) = (f(self.u()), f(self.u()));
                want!(
                    0,
                    Ty::Map(Box::new(k.clone()), Box::new(v.clone())),
                    "`get` takes a map"
                );
                want!(1, k, "the key has the map's key type");
                want!(2, v.clone(), "the default has the map's value type");
                v
            }
            UnionAll => {
                let el = f(self.u());
                if let Some(t) = ts.first() {
                    let inner = self.elem_of(t, sp[0], "the argument");
                    self.expect(
                        &inner,
                        &Ty::Set(Box::new(el.clone())),
                        sp[0],
                        "`union_all` takes a collection of sets",
                    );
                }
                Ty::Set(Box::new(el))
            }
            Sum => {
                if let Some(t) = ts.first() {
                    let el = self.elem_of(t, sp[0], "the argument");
                    self.expect(&el, &Ty::Int, sp[0], "`sum` adds integers");
                }
                Ty::Int
            }
            Min | Max | The => match ts.first() {
                Some(t) => self.elem_of(t, sp[0], "the argument"),
                None => f(self.u()),
            },
            Str => Ty::Str,
            Error => {
                want!(0, Ty::Str, "`error` takes a message");
                f(self.u())
            }
            IndexOf => {
                let el = f(self.u());
                want!(
                    0,
                    Ty::Seq(Box::new(el.clone())),
                    "`index_of` takes a sequence"
                );
                want!(1, el, "the element has the sequence's element type");
                Ty::Int
            }
        }
    }
}
