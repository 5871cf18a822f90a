#![forbid(unsafe_code)]
//! One document checked: its text (not the file on disk) and the files it `use`s, read and
//! parsed, the checker's diagnostics, the program when it checks, and the declarations of every
//! file, which hover, go to definition, completion and the outline read.

use crate::check::load::{read_all, Files, Overlay, RuleFile};
use crate::check::Program;
use crate::diagnostics::{Diag, FileId, SourceMap, Span};
use crate::natives::Natives;
use crate::syntax::ast::{DefDecl, File, Item, NativeDecl, ReadingItem};
use std::path::{Path, PathBuf};

/// The largest document checked as the user types; a larger one gets one diagnostic.
pub const MAX_DOCUMENT_BYTES: usize = 8 << 20;

/// What a declaration declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `def f(...) = ...` at the top level.
    Def,
    /// `native def f(...) -> T = path`: a primitive without a rule body.
    Primitive,
    /// `native f = path`: the fast path of the definition `f`.
    Binding,
    Enum,
    /// A constant (constructor) of an enum.
    Variant,
    Type,
    Reading,
    /// `override def f` inside a reading.
    Override,
    /// A new `def` (or `native def`) inside a reading.
    ReadingDef,
    Example,
    Theorem,
}

/// One declaration of a rule file.
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub aliases: Vec<String>,
    pub kind: Kind,
    /// The whole item.
    pub span: Span,
    /// Its name where written (the item's start for examples and theorems).
    pub name_span: Span,
    /// The reading it is declared in (for `Override` and `ReadingDef`); the enum of a `Variant`.
    pub owner: Option<String>,
    /// The native function of a primitive or a binding.
    pub native: Option<String>,
    /// Parents of a reading.
    pub parents: Vec<String>,
    /// Parameters (name, span) of a definition.
    pub params: Vec<(String, Span)>,
}

impl Decl {
    pub fn is_def(&self) -> bool {
        matches!(
            self.kind,
            Kind::Def | Kind::Primitive | Kind::Override | Kind::ReadingDef
        )
    }
    pub fn answers_to(&self, name: &str) -> bool {
        self.name == name || self.aliases.iter().any(|a| a == name)
    }
}

/// A checked document.
pub struct Analysis {
    /// The document's path.
    pub path: PathBuf,
    /// Its source in `sources`, when it was read.
    pub file: Option<FileId>,
    /// The files read and parsed: the document first, then those it uses.
    pub files: Vec<RuleFile>,
    pub sources: SourceMap,
    /// The program, when everything checks.
    pub program: Option<Program>,
    /// Errors, or the notes of a program that checks.
    pub diags: Vec<Diag>,
    /// The declarations of every file parsed.
    pub decls: Vec<Decl>,
    /// The document was checked alone, against the kept check of the files it uses (what the
    /// tests look at: the answers are the same either way).
    #[cfg_attr(not(test), allow(dead_code))]
    pub alone: bool,
}

/// The checked program of the files a document uses (the document left out), kept while they
/// are unchanged: a change of the document then checks the document's items against it, not
/// the files it uses.
pub struct Uses {
    /// The paths and texts of the files used, in the order they were read.
    files: Vec<(PathBuf, String)>,
    program: Program,
}

/// Check the text of the document at `path` with the files it uses, read from disk. The check
/// of the files it uses is kept in `uses` (made again when they changed): a document that only
/// adds definitions, examples and theorems to them is checked alone, against their program
/// ([`Program::extend`]).
pub fn analyze_with(
    path: &Path,
    text: &str,
    natives: &Natives,
    uses: &mut Option<Uses>,
) -> Analysis {
    let fs = Overlay::new(path, text.to_string());
    let mut sources = SourceMap::default();
    let (files, mut diags) = read_all(&fs, &[path.to_path_buf()], &mut sources, &[]);
    let ident = fs.identity(path);
    let file = sources
        .files
        .iter()
        .position(|f| {
            f.path
                .as_deref()
                .is_some_and(|p| p == path || fs.identity(p) == ident)
        })
        .map(|i| i as FileId);
    let decls: Vec<Decl> = files
        .iter()
        .flat_map(|f| declarations(&f.ast.items))
        .collect();
    let mut program = None;
    let mut alone = false;
    if diags.is_empty() {
        if let Some(p) = against_uses(&files, &sources, natives, uses) {
            diags = p.notes.clone();
            program = Some(p);
            alone = true;
        }
    }
    if diags.is_empty() && program.is_none() {
        let asts = files.iter().map(|f| f.ast.clone()).collect();
        match Program::build(asts, sources.clone(), natives) {
            Ok(p) => {
                diags = p.notes.clone();
                sources = p.sources.clone();
                program = Some(p);
            }
            Err((s, ds)) => {
                sources = s;
                diags = ds;
            }
        }
    }
    Analysis {
        path: path.to_path_buf(),
        file,
        files,
        sources,
        program,
        diags,
        decls,
        alone,
    }
}

/// The program of the document (`files[0]`) checked against that of the files it uses (kept in
/// `uses`, made again when they changed), when the document only adds to them (definitions,
/// enums, types, readings, examples and theorems of new names) and checks;
/// `None` otherwise (the whole is then built, and says what is wrong).
fn against_uses(
    files: &[RuleFile],
    sources: &SourceMap,
    natives: &Natives,
    uses: &mut Option<Uses>,
) -> Option<Program> {
    let (doc, rest) = files.split_first()?;
    let items: Vec<Item> = doc
        .ast
        .items
        .iter()
        .filter(|i| !matches!(i, Item::Use(_)))
        .cloned()
        .collect();
    let same = uses.as_ref().is_some_and(|u| {
        u.files.len() == rest.len()
            && u.files
                .iter()
                .zip(rest)
                .all(|((p, t), f)| *p == f.path && *t == f.text)
    });
    if !same {
        *uses = None;
        let asts = rest.iter().map(|f| f.ast.clone()).collect();
        let program = Program::build(asts, sources.clone(), natives).ok()?;
        *uses = Some(Uses {
            files: rest
                .iter()
                .map(|f| (f.path.clone(), f.text.clone()))
                .collect(),
            program,
        });
    }
    let u = uses.as_ref()?;
    // the document's declarations, then its readings, then its examples and theorems (which
    // may name its readings): each part added to what came before
    let (proofs, rest): (Vec<Item>, Vec<Item>) = items
        .into_iter()
        .partition(|i| matches!(i, Item::Example(_) | Item::Theorem(_)));
    let (readings, decls): (Vec<Item>, Vec<Item>) = rest
        .into_iter()
        .partition(|i| matches!(i, Item::Reading(_)));
    if !decls.is_empty() && !u.program.extends_with(&decls) {
        return None;
    }
    let mut p = u.program.clone();
    // the files are read in the same order as when the program was made: their sources have
    // the same ids
    p.sources = sources.clone();
    if !decls.is_empty() {
        p.extend(&File { items: decls }).ok()?;
    }
    if !readings.is_empty() {
        if !p.adds_readings(&readings) {
            return None;
        }
        p.add_readings(&File { items: readings }).ok()?;
    }
    if !proofs.is_empty() {
        if !p.extends_with(&proofs) {
            return None;
        }
        p.extend(&File { items: proofs }).ok()?;
    }
    Some(p)
}

fn def_decl(d: &DefDecl, kind: Kind, owner: Option<&str>) -> Decl {
    Decl {
        name: d.name.text.clone(),
        aliases: d.aliases.iter().map(|a| a.text.clone()).collect(),
        kind,
        span: d.span,
        name_span: d.name.span,
        owner: owner.map(String::from),
        native: None,
        parents: vec![],
        params: d
            .params
            .iter()
            .flatten()
            .map(|p| (p.name.text.clone(), p.name.span))
            .collect(),
    }
}

fn native_decl(n: &NativeDecl, owner: Option<&str>) -> Decl {
    match n {
        NativeDecl::Prim {
            name,
            aliases,
            params,
            path,
            span,
            ..
        } => Decl {
            name: name.text.clone(),
            aliases: aliases.iter().map(|a| a.text.clone()).collect(),
            kind: if owner.is_some() {
                Kind::ReadingDef
            } else {
                Kind::Primitive
            },
            span: *span,
            name_span: name.span,
            owner: owner.map(String::from),
            native: Some(path.text.clone()),
            parents: vec![],
            params: params
                .iter()
                .map(|p| (p.name.text.clone(), p.name.span))
                .collect(),
        },
        NativeDecl::Bind { name, path, span } => Decl {
            name: name.text.clone(),
            aliases: vec![],
            kind: Kind::Binding,
            span: *span,
            name_span: name.span,
            owner: owner.map(String::from),
            native: Some(path.text.clone()),
            parents: vec![],
            params: vec![],
        },
    }
}

/// The declarations of a file's items, readings followed by what they declare.
pub fn declarations(items: &[Item]) -> Vec<Decl> {
    let mut out = vec![];
    let plain = |name: &str, kind: Kind, span: Span, name_span: Span| Decl {
        name: name.to_string(),
        aliases: vec![],
        kind,
        span,
        name_span,
        owner: None,
        native: None,
        parents: vec![],
        params: vec![],
    };
    for it in items {
        match it {
            Item::Use(_) => {}
            Item::Enum(e) => {
                out.push(plain(&e.name.text, Kind::Enum, e.span, e.name.span));
                for v in &e.variants {
                    out.push(Decl {
                        aliases: v.aliases.iter().map(|a| a.text.clone()).collect(),
                        owner: Some(e.name.text.clone()),
                        ..plain(&v.name.text, Kind::Variant, v.span, v.name.span)
                    });
                }
            }
            Item::Type(t) => out.push(plain(&t.name.text, Kind::Type, t.span, t.name.span)),
            Item::Def(d) => out.push(def_decl(d, Kind::Def, None)),
            Item::Native(n) => out.push(native_decl(n, None)),
            Item::Reading(r) => {
                out.push(Decl {
                    parents: r.parents.iter().map(|p| p.text.clone()).collect(),
                    ..plain(&r.name.text, Kind::Reading, r.span, r.name.span)
                });
                let owner = Some(r.name.text.as_str());
                for ri in &r.items {
                    out.push(match ri {
                        ReadingItem::Override(d) => def_decl(d, Kind::Override, owner),
                        ReadingItem::Def(d) => def_decl(d, Kind::ReadingDef, owner),
                        ReadingItem::Native(n) => native_decl(n, owner),
                    });
                }
            }
            Item::Example(e) => {
                let start = Span::new(e.span.file, e.span.start as usize, e.span.start as usize);
                out.push(plain(&e.name, Kind::Example, e.span, start));
            }
            Item::Theorem(t) => {
                let start = Span::new(t.span.file, t.span.start as usize, t.span.start as usize);
                out.push(plain(&t.name, Kind::Theorem, t.span, start));
            }
        }
    }
    out
}

impl Analysis {
    /// The document's text as checked.
    pub fn text(&self) -> Option<&str> {
        self.file
            .and_then(|f| self.sources.get(f))
            .map(|f| f.text.as_str())
    }

    /// The document's own parse, when it parsed.
    pub fn ast(&self) -> Option<&RuleFile> {
        self.files.first().filter(|f| {
            f.path == self.path
                || self.file.is_some_and(|id| {
                    self.sources.get(id).and_then(|s| s.path.as_deref()) == Some(f.path.as_path())
                })
        })
    }

    /// The declarations written in the document.
    pub fn own_decls(&self) -> impl Iterator<Item = &Decl> {
        let file = self.file;
        self.decls.iter().filter(move |d| Some(d.span.file) == file)
    }

    /// The readings `reading` reads through, itself first, in the order its parents are named.
    pub fn lineage(&self, reading: &str) -> Vec<String> {
        let mut out: Vec<String> = vec![];
        let mut stack = vec![reading.to_string()];
        while let Some(r) = stack.pop() {
            if out.contains(&r) || out.len() > 256 {
                continue;
            }
            if let Some(d) = self
                .decls
                .iter()
                .find(|d| d.kind == Kind::Reading && d.name == r)
            {
                stack.extend(d.parents.iter().rev().cloned());
            }
            out.push(r);
        }
        out
    }

    /// The reading a place of the document is inside: a reading's body, or an example or
    /// theorem stated under a reading.
    pub fn reading_at(&self, offset: usize) -> Option<String> {
        let file = self.file?;
        let ast = self.ast()?;
        let inside =
            |s: Span| s.file == file && (s.start as usize) <= offset && offset <= s.end as usize;
        for it in &ast.ast.items {
            match it {
                Item::Reading(r) if inside(r.span) => return Some(r.name.text.clone()),
                Item::Example(e) if inside(e.span) => {
                    return e.reading.as_ref().map(|r| r.text.clone())
                }
                Item::Theorem(t) if inside(t.span) => {
                    return t.reading.as_ref().map(|r| r.text.clone())
                }
                _ => {}
            }
        }
        None
    }

    /// The definition of the document whose text holds a place (the innermost: a reading's).
    pub fn def_at(&self, offset: usize) -> Option<&Decl> {
        let file = self.file?;
        self.decls
            .iter()
            .filter(|d| d.is_def() && d.span.file == file)
            .filter(|d| (d.span.start as usize) <= offset && offset <= d.span.end as usize)
            .min_by_key(|d| d.span.len())
    }

    /// The name under or just before a byte offset of the document (its byte range) and what it
    /// stands for there.
    pub fn target_at(&self, offset: usize) -> Option<(usize, usize, Target<'_>)> {
        let text = self.text()?;
        let is_reading = |n: &str| {
            self.decls
                .iter()
                .any(|d| d.kind == Kind::Reading && d.name == n)
        };
        let (s, e, base) = name_at(text, offset, is_reading)?;
        Some((s, e, self.resolve(&text[s..e], offset, base)?))
    }

    /// The declaration a name stands for at a place of the document: a parameter of the
    /// definition around it, the definition the reading in force there uses (for `base.f`, the
    /// one its parents use), an enum, constant, type or reading.
    pub fn resolve(&self, name: &str, offset: usize, base: bool) -> Option<Target<'_>> {
        if !base {
            if let Some(d) = self.def_at(offset) {
                if let Some((_, s)) = d.params.iter().find(|(p, _)| p == name) {
                    return Some(Target::Param(*s, d));
                }
            }
        }
        let here = self.reading_at(offset);
        let mut lineage = here.as_deref().map(|r| self.lineage(r)).unwrap_or_default();
        if base {
            // `base.f` inside reading R: what R's parents use
            if !lineage.is_empty() {
                lineage.remove(0);
            }
        }
        for r in &lineage {
            if let Some(d) = self.decls.iter().find(|d| {
                matches!(d.kind, Kind::Override | Kind::ReadingDef)
                    && d.owner.as_deref() == Some(r.as_str())
                    && d.answers_to(name)
            }) {
                return Some(Target::Decl(d));
            }
        }
        let order = [
            Kind::Def,
            Kind::Primitive,
            Kind::Variant,
            Kind::Enum,
            Kind::Type,
            Kind::Reading,
            Kind::ReadingDef,
            Kind::Binding,
        ];
        for k in order {
            if base && !matches!(k, Kind::Def | Kind::Primitive) {
                continue;
            }
            if let Some(d) = self
                .decls
                .iter()
                .find(|d| d.kind == k && d.answers_to(name))
            {
                return Some(Target::Decl(d));
            }
        }
        None
    }

    /// The rule file whose `use "..."` string holds a place of the document.
    pub fn use_at(&self, offset: usize) -> Option<PathBuf> {
        let file = self.file?;
        let ast = self.ast()?;
        for it in &ast.ast.items {
            if let Item::Use(u) = it {
                if u.span.file == file
                    && (u.span.start as usize) <= offset
                    && offset <= u.span.end as usize
                {
                    let dir = ast.path.parent().map(Path::to_path_buf).unwrap_or_default();
                    let mut target = dir.join(&u.path);
                    if target.extension().is_none() {
                        target.set_extension("rule");
                    }
                    return Some(target);
                }
            }
        }
        None
    }

    /// The span of the `use` of the document through which `file` is read (the first `use`
    /// when that cannot be told: a file used by a used file), to show a diagnostic of another
    /// file on the document.
    pub fn use_span_for(&self, file: FileId) -> Option<Span> {
        let ast = self.ast()?;
        let dir = ast.path.parent().map(Path::to_path_buf).unwrap_or_default();
        let wanted = self
            .sources
            .get(file)
            .and_then(|f| f.path.as_deref())
            .map(|p| crate::check::load::Disk.identity(p));
        let mut first = None;
        for it in &ast.ast.items {
            if let Item::Use(u) = it {
                first.get_or_insert(u.span);
                let mut target = dir.join(&u.path);
                if target.extension().is_none() {
                    target.set_extension("rule");
                }
                if wanted.as_ref() == Some(&crate::check::load::Disk.identity(&target)) {
                    return Some(u.span);
                }
            }
        }
        first
    }
}

/// What a name at a place stands for.
pub enum Target<'a> {
    Decl(&'a Decl),
    /// A parameter (its span) of a definition.
    Param(Span, &'a Decl),
}

/// The name under or just before a byte offset of `text`: its byte range, and whether it is
/// written `base.name`. A reading name may hold hyphens; `readings` tells which do.
pub fn name_at(
    text: &str,
    offset: usize,
    is_reading: impl Fn(&str) -> bool,
) -> Option<(usize, usize, bool)> {
    let offset = crate::diagnostics::floor_char_boundary(text, offset);
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '\'';
    let mut start = offset;
    for (i, c) in text[..offset].char_indices().rev() {
        if ident(c) {
            start = i;
        } else {
            break;
        }
    }
    let mut end = offset;
    for (i, c) in text[offset..].char_indices() {
        if ident(c) {
            end = offset + i + c.len_utf8();
        } else {
            break;
        }
    }
    if start == end {
        return None;
    }
    // a reading name with hyphens: widen to the hyphenated word when it names a reading
    let wide = |c: char| ident(c) || c == '-';
    let mut ws = start;
    for (i, c) in text[..start].char_indices().rev() {
        if wide(c) {
            ws = i;
        } else {
            break;
        }
    }
    let mut we = end;
    for (i, c) in text[end..].char_indices() {
        if wide(c) {
            we = end + i + c.len_utf8();
        } else {
            break;
        }
    }
    if (ws, we) != (start, end) && is_reading(&text[ws..we]) {
        return Some((ws, we, false));
    }
    let base = text[..start].ends_with("base.");
    Some((start, end, base))
}

/// The header of a declaration as written: a definition up to its `=`, a reading up to its
/// `{`, a type or enum whole (long ones cut), whitespace runs made one space.
pub fn header(sources: &SourceMap, d: &Decl) -> String {
    let Some(f) = sources.get(d.span.file) else {
        return d.name.clone();
    };
    let text = f.text.as_str();
    let (s, e) = (d.span.start as usize, (d.span.end as usize).min(text.len()));
    let item = text.get(s..e).unwrap_or("");
    let after_name = (d.name_span.end as usize).saturating_sub(s).min(item.len());
    let cut = match d.kind {
        Kind::Def | Kind::Primitive | Kind::Override | Kind::ReadingDef | Kind::Binding => {
            item[after_name..].find('=').map(|i| after_name + i)
        }
        Kind::Reading => item[after_name..].find('{').map(|i| after_name + i),
        Kind::Example | Kind::Theorem => item.find(['{', ':']),
        Kind::Enum | Kind::Type | Kind::Variant => None,
    };
    let mut h = match cut {
        Some(c) => item.get(..c).unwrap_or(item).to_string(),
        None => item.to_string(),
    };
    if matches!(d.kind, Kind::Binding | Kind::Primitive)
        || (d.kind == Kind::ReadingDef && d.native.is_some())
    {
        h = item.to_string();
    }
    if d.kind == Kind::Variant {
        h = format!("{}  (enum {})", item, d.owner.as_deref().unwrap_or("?"));
    }
    let words: Vec<&str> = h.split_whitespace().collect();
    let mut out = words.join(" ");
    const LONG: usize = 400;
    if out.chars().count() > LONG {
        out = out.chars().take(LONG).collect::<String>() + " …";
    }
    out
}

/// The `//` comment lines directly above a declaration (none when a blank line separates them).
pub fn doc_comment(sources: &SourceMap, d: &Decl) -> Option<String> {
    let f = sources.get(d.span.file)?;
    let text = f.text.as_str();
    let start = crate::diagnostics::floor_char_boundary(text, d.span.start as usize);
    let line_start = text[..start].rfind('\n').map(|i| i + 1).unwrap_or(0);
    let mut lines: Vec<&str> = vec![];
    for l in text[..line_start].lines().rev() {
        let t = l.trim();
        match t.strip_prefix("//") {
            Some(c) => lines.push(c.strip_prefix(' ').unwrap_or(c)),
            None => break,
        }
        if lines.len() > 200 {
            break;
        }
    }
    if lines.is_empty() {
        return None;
    }
    lines.reverse();
    Some(lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a check says: its diagnostics (sorted: a document checked against the files it uses
    /// lists the notes of those first) and the type of every name.
    fn said(a: &Analysis) -> (Vec<String>, Vec<String>) {
        let mut diags: Vec<String> = a.diags.iter().map(|d| format!("{d:?}")).collect();
        diags.sort();
        let types = a.program.as_ref().map_or(vec![], |p| {
            let mut t: Vec<String> = p.key_names.values().map(|&k| p.signature(k)).collect();
            t.sort();
            t
        });
        (diags, types)
    }

    /// What a check of the document and the files it uses, built as a whole, says.
    fn whole(path: &Path, text: &str, natives: &Natives) -> (Vec<String>, Vec<String>) {
        let fs = Overlay::new(path, text.to_string());
        let mut sources = SourceMap::default();
        let (files, diags) = read_all(&fs, &[path.to_path_buf()], &mut sources, &[]);
        let asts = files.iter().map(|f| f.ast.clone()).collect();
        let (program, diags) = match diags.is_empty() {
            false => (None, diags),
            true => match Program::build(asts, sources, natives) {
                Ok(p) => {
                    let notes = p.notes.clone();
                    (Some(p), notes)
                }
                Err((_, ds)) => (None, ds),
            },
        };
        said(&Analysis {
            path: path.to_path_buf(),
            file: None,
            files,
            sources: SourceMap::default(),
            program,
            diags,
            decls: vec![],
            alone: false,
        })
    }

    #[test]
    fn a_document_checked_against_the_files_it_uses_is_checked_as_a_whole() {
        let dir = std::env::temp_dir().join(format!("okite-lsp-uses-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let used = dir.join("used.rule");
        let doc = dir.join("doc.rule");
        let base = "def scale = 3\ndef deep(n) = if n <= 0 then scale else deep(n - 1)\nreading heavy {\n    override def scale = 5\n}\n";
        std::fs::write(&used, base).unwrap();
        let natives = Natives::standard();
        let texts = [
            "use \"used.rule\"\ndef a = scale + 1\n",
            "use \"used.rule\"\ndef a = scale + 1\ndef b(n) = if n <= 0 then a else b(n - 1) + deep(n)\n",
            // an error, then a type error, then right again
            "use \"used.rule\"\ndef a = scale + nope\n",
            "use \"used.rule\"\ndef a = scale + (1 == 1)\n",
            "use \"used.rule\"\n\n\ndef a = scale + 2\nexample \"e\" { assert a == 5 }\n",
            // what is no addition to the files used: built as a whole
            "use \"used.rule\"\nenum E { X }\ndef a = scale\n",
            "use \"used.rule\"\ndef scale = 4\n",
            "use \"used.rule\"\nreading light {\n    override def scale = 1\n}\ndef a = deep(2)\n",
            "use \"used.rule\"\ndef a = deep(2) + 1\n",
            // a reading that extends one of the file used, closes a cycle through its names,
            // and is named by an example
            "use \"used.rule\"\ndef a = 2\nexample \"x\" reading r { assert deep(1) == 2 }\nreading r extends heavy {\n    override def scale = deep(a)\n    def own = 1\n}\n",
            // a reading that would be no addition: built as a whole
            "use \"used.rule\"\nreading heavy {\n    override def scale = 1\n}\n",
            "use \"used.rule\"\nreading r {\n    override def nope = 1\n}\n",
        ];
        let mut uses = None;
        for (i, text) in texts.iter().enumerate() {
            if i == 6 {
                // the file used changes: its check is made again
                std::fs::write(&used, format!("{base}def extra = 1\n")).unwrap();
            }
            let kept = analyze_with(&doc, text, &natives, &mut uses);
            let fresh = analyze_with(&doc, text, &natives, &mut None);
            assert_eq!(said(&kept), said(&fresh), "{text}");
            assert_eq!(said(&kept), whole(&doc, text, &natives), "{text}");
            assert_eq!(kept.program.is_some(), fresh.program.is_some(), "{text}");
            // what only adds is checked alone; the rest as a whole
            assert_eq!(kept.alone, [0, 1, 4, 5, 7, 8, 9].contains(&i), "{text}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
