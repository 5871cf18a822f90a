#![forbid(unsafe_code)]
//! Declaration: the first pass over the parsed files. Every enum, definition, primitive,
//! native binding, reading and example gets its entry (keys, definitions, constructors, type
//! names), with duplicates, unknown native functions and arity mismatches reported.

use super::*;
use crate::diagnostics::code;

impl Program {
    pub(super) fn declare(&mut self, files: &[ast::File], errs: &mut Vec<Diag>) {
        let mut claims = Claims::new();
        self.declare_enums_and_types(files, &mut claims, errs);
        // type aliases, in order of need
        let aliases: Vec<&TypeDecl> = files
            .iter()
            .flat_map(|f| f.items.iter())
            .filter_map(|it| match it {
                Item::Type(t) if t.ty.is_some() => Some(t),
                _ => None,
            })
            .collect();
        self.lower_aliases(&aliases, errs);
        self.enum_fields(files, 0, errs);
        // the native bindings, as their definitions are declared
        let mut binds: Vec<(ReadingId, &Name, &Name, Span)> = vec![];
        self.declare_top_level(files, &mut claims, &mut binds, errs);
        let decls = self.declare_readings(files, errs);
        for (id, r) in &decls {
            self.declare_reading_items(*id, r, &mut claims, &mut binds, errs);
        }
        // base owns the top-level definitions
        for (i, d) in self.defs.iter().enumerate() {
            if d.reading == BASE {
                self.readings[0].own.insert(d.key, DefId::at(i));
            }
        }
        self.bind_natives(binds, errs);
        // resolution orders and tables
        self.types_unknown |= claims.twice;
        self.linearize(errs);
    }

    /// Enums (their names, variants and aliases) and opaque types: definitions' signatures
    /// refer to them.
    pub(super) fn declare_enums_and_types(
        &mut self,
        files: &[ast::File],
        claims: &mut Claims,
        errs: &mut Vec<Diag>,
    ) {
        for f in files {
            for it in &f.items {
                match it {
                    Item::Enum(e) => {
                        if !claims.claim(&e.name, errs) {
                            continue;
                        }
                        let id = EnumId::at(self.enums.len());
                        let shared_name: Rc<str> = Rc::from(e.name.text.as_str());
                        self.type_names.insert(
                            e.name.text.clone(),
                            TyDef::Alias(Ty::Enum(id, shared_name.clone())),
                        );
                        let mut variants = vec![];
                        for (tag, v) in e.variants.iter().enumerate() {
                            let ok = claims.claim(&v.name, errs);
                            for a in &v.aliases {
                                if claims.claim(a, errs) {
                                    self.ctors.insert(a.text.clone(), (id, tag as u32));
                                }
                            }
                            if ok {
                                self.ctors.insert(v.name.text.clone(), (id, tag as u32));
                            }
                            variants.push(VariantInfo {
                                name: v.name.text.clone(),
                                shared_name: Rc::from(v.name.text.as_str()),
                                aliases: v.aliases.iter().map(|a| a.text.clone()).collect(),
                                fields: vec![],
                                span: v.span,
                                value: None,
                            });
                        }
                        self.enums.push(EnumInfo {
                            name: e.name.text.clone(),
                            shared_name,
                            variants,
                            span: e.span,
                        });
                    }
                    Item::Type(t) => {
                        if !claims.claim(&t.name, errs) {
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
    }

    /// The fields of the variants of the enums of `files` (the first of them numbered `first`),
    /// once the type aliases are known.
    pub(super) fn enum_fields(&mut self, files: &[ast::File], first: usize, errs: &mut Vec<Diag>) {
        let mut e_index = first;
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
                                ty: crate::ir::EnumId::at(e_index),
                                tag: tag as u32,
                                name: vi.shared_name.clone(),
                                fields: vec![],
                                fields_hash: Default::default(),
                                shared: false,
                            })));
                        }
                        vi.fields = fields;
                    }
                    e_index += 1;
                }
            }
        }
    }

    /// The top-level definitions and primitives, and the native bindings written there.
    fn declare_top_level<'f>(
        &mut self,
        files: &'f [ast::File],
        claims: &mut Claims,
        binds: &mut Vec<(ReadingId, &'f Name, &'f Name, Span)>,
        errs: &mut Vec<Diag>,
    ) {
        for f in files {
            for it in &f.items {
                match it {
                    Item::Def(d)
                        if claims.claim(&d.name, errs)
                            && d.aliases.iter().all(|a| claims.claim(a, errs)) =>
                    {
                        self.new_def(d, BASE, false, errs);
                    }
                    Item::Native(NativeDecl::Prim {
                        name,
                        aliases,
                        params,
                        ret,
                        path: native,
                        span,
                    }) if claims.claim(name, errs)
                        && aliases.iter().all(|a| claims.claim(a, errs)) =>
                    {
                        self.new_prim(name, aliases, params, ret, native, *span, BASE, errs);
                    }
                    Item::Native(NativeDecl::Bind {
                        name,
                        path: native,
                        span,
                    }) => binds.push((BASE, name, native, *span)),
                    _ => {}
                }
            }
        }
    }

    /// The readings' names, each once.
    fn declare_readings<'f>(
        &mut self,
        files: &'f [ast::File],
        errs: &mut Vec<Diag>,
    ) -> Vec<(ReadingId, &'f ReadingDecl)> {
        let mut decls: Vec<(ReadingId, &ReadingDecl)> = vec![];
        for f in files {
            for it in &f.items {
                if let Item::Reading(r) = it {
                    if let Some(&prev) = self.reading_names.get(&r.name.text) {
                        let mut d = Diag::error(
                            code::DEFINED_TWICE,
                            format!("the reading `{}` is defined twice", r.name.text),
                        )
                        .label(r.name.span, "defined again here");
                        if let Some(s) = self.readings[prev.index()].span {
                            d = d.label(s, "first defined here");
                        }
                        self.types_unknown = true;
                        errs.push(d.help("give the second reading another name"));
                        continue;
                    }
                    decls.push((self.new_reading(r), r));
                }
            }
        }
        decls
    }

    /// The entry of reading `r` (its items and order not made yet).
    pub(super) fn new_reading(&mut self, r: &ReadingDecl) -> ReadingId {
        let id = ReadingId::at(self.readings.len());
        self.readings.push(ReadingInfo {
            name: r.name.text.clone(),
            parents: vec![],
            mro: vec![],
            own: HashMap::new(),
            span: Some(r.name.span),
        });
        self.reading_names.insert(r.name.text.clone(), id);
        id
    }

    /// A reading's definitions, overrides and natives, then its parents.
    #[expect(clippy::unwrap_used, reason = "a name no reading has makes an error")]
    pub(super) fn declare_reading_items<'f>(
        &mut self,
        id: ReadingId,
        r: &'f ReadingDecl,
        claims: &mut Claims,
        binds: &mut Vec<(ReadingId, &'f Name, &'f Name, Span)>,
        errs: &mut Vec<Diag>,
    ) {
        for it in &r.items {
            match it {
                ReadingItem::Def(d) => {
                    if claims.claim(&d.name, errs) {
                        self.new_def(d, id, false, errs);
                    }
                }
                ReadingItem::Override(d) => {
                    if self.key_names.contains_key(&d.name.text) {
                        let key = self.key_names[&d.name.text];
                        if self.readings[id.index()].own.contains_key(&key) {
                            self.types_unknown = true;
                            errs.push(
                                Diag::error(
                                    code::DEFINED_TWICE,
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
                        self.new_def(d, id, true, errs);
                    } else {
                        let mut diag = Diag::error(
                            code::OVERRIDE_OF_NOTHING,
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
                        self.types_unknown = true;
                        errs.push(diag);
                    }
                }
                ReadingItem::Native(NativeDecl::Bind {
                    name,
                    path: native,
                    span,
                }) => binds.push((id, name, native, *span)),
                ReadingItem::Native(NativeDecl::Prim {
                    name,
                    aliases,
                    params,
                    ret,
                    path: native,
                    span,
                }) => {
                    if claims.claim(name, errs) {
                        self.new_prim(name, aliases, params, ret, native, *span, id, errs);
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
        self.readings[id.index()].parents = parents;
    }

    /// The native bindings: each to its definition in its reading (or the base), with the
    /// native function's arity.
    fn bind_natives(&mut self, binds: Vec<(ReadingId, &Name, &Name, Span)>, errs: &mut Vec<Diag>) {
        for (rid, name, native, span) in binds {
            let Some(&key) = self.key_names.get(&name.text) else {
                let mut d = Diag::error(
                    code::WRONG_ARITY,
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
            let target = self.readings[rid.index()]
                .own
                .get(&key)
                .copied()
                .or_else(|| self.readings[0].own.get(&key).copied());
            match target {
                Some(d) => {
                    let def = &mut self.defs[d.index()];
                    if let Some(&arity) = self.native_sigs.get(&native.text) {
                        if arity != def.params.len() {
                            errs.push(
                                Diag::error(
                                    code::NATIVE_ARITY,
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
                        code::WRONG_ARITY,
                        format!("`{}` has no definition to bind", name.text),
                    )
                    .label(span, "here"),
                ),
            }
        }
    }

    /// Lowers the type aliases, each after the aliases it names (a depth-first order, not a pass
    /// over all of them for each one settled: a chain written backwards once took time in the
    /// cube of its length, and its retries marked the types unknown). An alias on a cycle, or
    /// naming one, is lowered last, and its names are unknown types; an alias larger than
    /// [`MAX_TYPE_NODES`] is refused (E0205), and so are the aliases that name it.
    #[expect(
        clippy::expect_used,
        reason = "only the aliases that have a type are given here"
    )]
    pub(super) fn lower_aliases(&mut self, aliases: &[&TypeDecl], errs: &mut Vec<Diag>) {
        let mut index: HashMap<&str, Vec<usize>> = HashMap::new();
        for (i, t) in aliases.iter().enumerate() {
            index.entry(t.name.text.as_str()).or_default().push(i);
        }
        let deps: Vec<Vec<usize>> = aliases
            .iter()
            .map(|t| {
                let mut names = vec![];
                alias_names(t.ty.as_ref().expect("an alias has a type"), &mut names);
                let mut d: Vec<usize> = names
                    .iter()
                    .flat_map(|n| index.get(n).into_iter().flatten().copied())
                    .collect();
                d.sort_unstable();
                d.dedup();
                d
            })
            .collect();
        let mut last = vec![];
        // the sizes of the aliases lowered so far (by this call and before it), and their nodes
        // in all: each is a copy of what it names
        let mut sizes = std::mem::take(&mut self.alias_sizes);
        let mut total = self.alias_nodes;
        super::analysis::postorder(
            aliases.len(),
            |a, i| deps[a].get(i).copied(),
            |cur, cyclic| {
                if cyclic {
                    last.push(cur);
                    return;
                }
                let t = aliases[cur];
                let written = t.ty.as_ref().expect("an alias has a type");
                // its size counted before it is built, from the sizes of the aliases it names
                let n = type_nodes(written, &sizes);
                if n > MAX_TYPE_NODES || total.saturating_add(n) > MAX_ALIAS_NODES {
                    self.types_unknown = true;
                    errs.push(too_large(n, total, &t.name));
                    return;
                }
                total += n;
                let mut vars = vec![];
                if let Some(ty) = self.lower_type(written, &mut vars, errs) {
                    sizes.insert(t.name.text.clone(), n);
                    self.type_names
                        .insert(t.name.text.clone(), TyDef::Alias(ty));
                }
            },
        );
        self.alias_sizes = sizes;
        self.alias_nodes = total;
        for i in last {
            let mut vars = vec![];
            self.lower_type(
                aliases[i].ty.as_ref().expect("an alias has a type"),
                &mut vars,
                errs,
            );
        }
    }

    pub(super) fn check_native(&self, native: &Name, errs: &mut Vec<Diag>) -> bool {
        if self.native_sigs.contains_key(&native.text) {
            return true;
        }
        let mut d = Diag::error(
            code::UNKNOWN_NATIVE,
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

    pub(super) fn new_key(&mut self, name: &str, aliases: &[Name]) -> DefKey {
        let key = DefKey::at(self.keys.len());
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

    pub(super) fn new_def(
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
        let info = self.def_info(d, key, reading, is_override, errs);
        let id = DefId::at(self.defs.len());
        self.defs.push(info);
        self.def_declared(d, key, id, reading, is_override, errs);
    }

    /// The entry of a definition of `key` declared by `d` (its body not resolved yet).
    pub(super) fn def_info(
        &mut self,
        d: &DefDecl,
        key: DefKey,
        reading: ReadingId,
        is_override: bool,
        errs: &mut Vec<Diag>,
    ) -> DefInfo {
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
        DefInfo {
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
            uses: vec![],
            base_self_only: false,
            ast: Some(d.clone()),
            param_tys,
            ret_ty,
            ann_vars: vars,
        }
    }

    /// What a definition's declaration says of its key and reading: the reading owns it, and
    /// the key takes its number of parameters (an override must have the key's).
    fn def_declared(
        &mut self,
        d: &DefDecl,
        key: DefKey,
        id: DefId,
        reading: ReadingId,
        is_override: bool,
        errs: &mut Vec<Diag>,
    ) {
        if reading != BASE {
            self.readings[reading.index()].own.insert(key, id);
        }
        let params = d.params.as_deref().unwrap_or_default();
        let arity = d.params.as_ref().map(|p| p.len());
        if !is_override {
            self.keys[key.index()].arity = arity;
        } else if self.keys[key.index()].arity != arity {
            errs.push(
                Diag::error(
                    code::WRONG_ARITY,
                    format!(
                        "the override of `{}` takes {} parameters; the definition it overrides takes {}",
                        d.name.text,
                        params.len(),
                        self.keys[key.index()].arity.unwrap_or(0)
                    ),
                )
                .label(d.name.span, "different number of parameters")
                .help("an override keeps the parameters of the definition it replaces"),
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn new_prim(
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
                            code::NATIVE_ARITY,
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
        self.keys[key.index()].arity = Some(params.len());
        let mut vars = vec![];
        let mut param_tys = vec![];
        for p in params {
            match &p.ty {
                Some(t) => param_tys.push(self.lower_type(t, &mut vars, errs)),
                None => {
                    errs.push(
                        Diag::error(
                            code::NATIVE_PARAMETER_UNTYPED,
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
        let id = DefId::at(self.defs.len());
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
            uses: vec![],
            base_self_only: false,
            ast: None,
            param_tys,
            ret_ty,
            ann_vars: vec![],
        });
        if reading != BASE {
            self.readings[reading.index()].own.insert(key, id);
        }
    }

    /// Lower a written type. Single lowercase letters are type variables of the definition.
    pub(super) fn lower_type(
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
                        let mut d = Diag::error(code::UNKNOWN_TYPE, format!("unknown type `{s}`"))
                            .label(n.span, "not a type");
                        let near = if self.may_suggest() {
                            suggest(s, names)
                        } else {
                            None
                        };
                        d = match near {
                            Some(x) => d.help(format!("did you mean `{x}`?")),
                            None => d.help("declare it with `enum`, `type Name = ...`, or `type Name` for a native type"),
                        };
                        self.types_unknown = true;
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
                        self.types_unknown = true;
                        errs.push(
                            Diag::error(
                                code::UNKNOWN_TYPE,
                                format!("`{}` takes no type arguments", n.text),
                            )
                            .label(n.span, "not a generic type")
                            .help("the generic types are Set<T>, Seq<T> and Map<K, V>"),
                        );
                        return None;
                    }
                };
                if a.len() != want {
                    errs.push(
                        Diag::error(
                            code::WRONG_ARITY,
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
                    "Set" => Ty::set(it.next()?),
                    "Seq" => Ty::seq(it.next()?),
                    _ => Ty::map(it.next()?, it.next()?),
                }
            }
            TypeExpr::Tuple(items, _) => {
                let mut a = vec![];
                for x in items {
                    a.push(self.lower_type(x, vars, errs)?);
                }
                Ty::tuple(a)
            }
            TypeExpr::Fun(a, b) => {
                let pa = self.lower_type(a, vars, errs)?;
                let r = self.lower_type(b, vars, errs)?;
                let ps = match pa {
                    Ty::Tuple(ts) => ts.to_vec(),
                    t => vec![t],
                };
                Ty::fun(ps, r)
            }
        })
    }
}

/// The most nodes a type alias may have: an alias that names another twice doubles it, and a few
/// dozen such lines would make a type of billions of nodes.
pub const MAX_TYPE_NODES: usize = 100_000;

/// The most nodes of all the type aliases together (each is a copy of the types it names).
pub const MAX_ALIAS_NODES: usize = 4_000_000;

/// The names a written type refers to.
fn alias_names<'t>(t: &'t TypeExpr, out: &mut Vec<&'t str>) {
    match t {
        TypeExpr::Name(n) => out.push(n.text.as_str()),
        TypeExpr::App(n, args) => {
            out.push(n.text.as_str());
            for a in args {
                alias_names(a, out);
            }
        }
        TypeExpr::Tuple(items, _) => {
            for a in items {
                alias_names(a, out);
            }
        }
        TypeExpr::Fun(a, b) => {
            alias_names(a, out);
            alias_names(b, out);
        }
    }
}

/// The nodes of a written type once its aliases are replaced (`sizes`: those of the aliases
/// lowered so far; any other name is one node), counted without building it.
fn type_nodes(t: &TypeExpr, sizes: &HashMap<String, usize>) -> usize {
    match t {
        TypeExpr::Name(n) => sizes.get(n.text.as_str()).copied().unwrap_or(1),
        TypeExpr::App(_, args) => args
            .iter()
            .fold(1usize, |a, x| a.saturating_add(type_nodes(x, sizes))),
        TypeExpr::Tuple(items, _) => items
            .iter()
            .fold(1usize, |a, x| a.saturating_add(type_nodes(x, sizes))),
        TypeExpr::Fun(a, b) => 1usize
            .saturating_add(type_nodes(a, sizes))
            .saturating_add(type_nodes(b, sizes)),
    }
}

/// E0205: the alias `name` would have `n` nodes, more than [`MAX_TYPE_NODES`], or more than
/// [`MAX_ALIAS_NODES`] with the `total` of those before it.
fn too_large(n: usize, total: usize, name: &Name) -> Diag {
    let message = if n > MAX_TYPE_NODES {
        format!(
            "the type `{}` would have {n} nodes, more than {MAX_TYPE_NODES}",
            name.text
        )
    } else {
        format!(
            "the type `{}` would bring the type aliases to {} nodes, more than {MAX_ALIAS_NODES}",
            name.text,
            total.saturating_add(n)
        )
    };
    Diag::error(code::TYPE_TOO_LARGE, message)
        .label(name.span, "too large")
        .help("a type that names another copies it: name smaller types, or declare an enum")
}

/// The names declared so far, with where: a name claimed twice is E0101, and leaves its type
/// unknown (see `Program::types_unknown`).
pub(super) struct Claims {
    taken: HashMap<String, Span>,
    twice: bool,
}

impl Claims {
    pub(super) fn new() -> Self {
        let mut taken = HashMap::new();
        for n in ["Bool", "Int", "Nat", "Str", "Set", "Seq", "Map"] {
            taken.insert(n.into(), Span::default());
        }
        Claims {
            taken,
            twice: false,
        }
    }

    /// Claims `name`; false (with E0101) when it is taken.
    fn claim(&mut self, name: &Name, errs: &mut Vec<Diag>) -> bool {
        if let Some(prev) = self.taken.get(&name.text) {
            self.twice = true;
            errs.push(
                Diag::error(code::DEFINED_TWICE, format!("`{}` is defined twice", name.text))
                    .label(name.span, "defined again here")
                    .label(*prev, "first defined here")
                    .help("rename one of them, or state a variant as a reading that overrides the definition"),
            );
            return false;
        }
        self.taken.insert(name.text.clone(), name.span);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{build, errors};

    #[test]
    fn a_name_defined_twice_is_an_error() {
        assert!(errors("def a = 1\ndef a = 2")
            .contains(&crate::diagnostics::code::DEFINED_TWICE.to_string()));
    }

    #[test]
    fn native_functions_are_checked_by_path_and_arity() {
        assert!(errors("native def f(x: Int) -> Int = no.such")
            .contains(&crate::diagnostics::code::UNKNOWN_NATIVE.to_string()));
        let codes = errors("native def f(x: Int, y: Int) -> Bool = core.reachable2");
        assert!(
            codes.contains(&crate::diagnostics::code::UNKNOWN_NATIVE.to_string()),
            "{codes:?}"
        );
        let codes = errors("def r(s: Set<Int>) -> Set<Int> = s\nnative r = core.reachable");
        assert!(
            codes.contains(&crate::diagnostics::code::NATIVE_ARITY.to_string()),
            "{codes:?}"
        );
    }

    #[test]
    fn a_name_of_unknown_type_stops_inference() {
        // without the duplicate, `b` is a type error (E0200); with it, types are not inferred
        assert_eq!(
            errors("def b = 1 + true"),
            vec![crate::diagnostics::code::TYPE_MISMATCH]
        );
        assert_eq!(
            errors("def a = 1\ndef a = 2\ndef b = 1 + true"),
            vec![crate::diagnostics::code::DEFINED_TWICE]
        );
        assert_eq!(
            errors("def f(x: Nope) -> Int = 1 + true"),
            vec![crate::diagnostics::code::UNKNOWN_TYPE]
        );
    }

    #[test]
    fn unknown_types_are_reported() {
        assert!(errors("def f(x: Nope) -> Int = 1")
            .contains(&crate::diagnostics::code::UNKNOWN_TYPE.to_string()));
    }

    #[test]
    fn enums_give_constants_and_constructors() {
        let p = build("enum Loc { here, at(Int) }\ndef x = at(3)").unwrap();
        assert_eq!(p.enums.len(), 1);
        assert!(p.enum_constant("Loc", "here").is_some());
        assert_eq!(p.enum_tag("Loc", "at"), Some((crate::ir::EnumId(0), 1)));
    }
}
