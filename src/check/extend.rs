#![forbid(unsafe_code)]
//! Extending a checked program with new definitions, enums, types, examples and theorems,
//! checked against what it holds: what the REPL does with a definition typed at the prompt.
//! Nothing the program holds can name what it did not define (an enum whose constant is a name
//! bound as a variable there is no addition), so only the new items are declared, resolved,
//! typed and weighed (their groups of recursion, lightness, fingerprints, the readings'
//! tables), and a session's ten-thousandth definition costs what its first did. Readings are
//! added in place by `add_readings.rs`, names given new bodies by `redefine.rs`; what is none
//! of these (a name given again otherwise, a built-in's name, a native binding) changes what
//! is there: the program is then built afresh from the text.

use super::analysis::tarjan;
use super::*;
use std::collections::HashSet;

/// A set of names.
fn names_of<'a>(names: impl Iterator<Item = &'a String>) -> HashSet<&'a str> {
    names.map(|n| n.as_str()).collect()
}

/// The names the language gives its types.
const TYPE_NAMES: [&str; 7] = ["Bool", "Int", "Nat", "Str", "Set", "Seq", "Map"];

impl Program {
    /// Whether the program can take `items` in place ([`Program::change_in_place`]): they add
    /// to it (definitions, enums, types, examples, theorems, or readings), or give names of it
    /// new bodies.
    pub fn changes_in_place(&self, items: &[Item]) -> bool {
        self.extends_with(items) || self.adds_readings(items) || self.redefines_with(items)
    }

    /// Whether neither the program nor the language defines the name `n`.
    pub(super) fn is_new_name(&self, n: &str) -> bool {
        !(self.key_names.contains_key(n)
            || self.ctors.contains_key(n)
            || self.type_names.contains_key(n)
            || TYPE_NAMES.contains(&n)
            || Builtin::from_name(n).is_some())
    }

    /// Takes `file`'s items in place, as [`Program::extend`], [`Program::add_readings`] or
    /// [`Program::redefine`] does:
    /// the definitions whose meaning may have changed (none when the items only add).
    pub fn change_in_place(&mut self, file: &ast::File) -> Result<Vec<DefId>, Vec<Diag>> {
        if self.extends_with(&file.items) {
            self.extend(file).map(|()| vec![])
        } else if self.adds_readings(&file.items) {
            self.add_readings(file)
        } else {
            self.redefine(file)
        }
    }

    /// Whether `items` only add to the program: definitions, enums (their constructors too) and
    /// types of names it does not know (nor the language: no built-in's name), examples and
    /// theorems of names it has not.
    pub fn extends_with<'a>(&self, items: &'a [Item]) -> bool {
        if self.types_unknown || items.is_empty() {
            return false;
        }
        let mut new: HashSet<&str> = Default::default();
        let mut proofs: HashSet<&str> = Default::default();
        let (mut examples, mut theorems) = (None, None);
        // a name neither the program, the language nor the items before it define
        let mut fresh = |n: &'a Name| self.is_new_name(&n.text) && new.insert(&n.text);
        for it in items {
            match it {
                Item::Def(d) => {
                    if !std::iter::once(&d.name)
                        .chain(d.aliases.iter())
                        .all(&mut fresh)
                    {
                        return false;
                    }
                }
                Item::Enum(e) => {
                    let mut ctors = e
                        .variants
                        .iter()
                        .flat_map(|v| std::iter::once(&v.name).chain(&v.aliases));
                    // a constant's name bound as a variable somewhere would change what is there
                    if !fresh(&e.name)
                        || !ctors.all(|n| !self.bound_names.contains(&n.text) && fresh(n))
                    {
                        return false;
                    }
                }
                Item::Type(t) => {
                    if !fresh(&t.name) {
                        return false;
                    }
                }
                Item::Example(x) => {
                    let have = examples
                        .get_or_insert_with(|| names_of(self.examples.iter().map(|e| &e.name)));
                    if have.contains(x.name.as_str()) || !proofs.insert(&x.name) {
                        return false;
                    }
                }
                Item::Theorem(t) => {
                    let have = theorems
                        .get_or_insert_with(|| names_of(self.theorems.iter().map(|e| &e.name)));
                    if have.contains(t.name.as_str()) || !proofs.insert(&t.name) {
                        return false;
                    }
                }
                _ => return false,
            }
        }
        true
    }

    /// Checks the items of `file` (which [`Program::extends_with`] accepts) against the program
    /// and adds them, as a fresh build of the whole text would have them. On `Err` (the errors
    /// of the new items) the program is left part-extended: build it afresh.
    pub fn extend(&mut self, file: &ast::File) -> Result<(), Vec<Diag>> {
        let mut errs = vec![];
        self.declare_types(file, &mut errs);
        if self.types_unknown || errs.iter().any(|d| d.is_error()) {
            return Err(errs);
        }
        let (first_def, first_key) = (self.defs.len(), self.keys.len());
        let (first_ex, first_th) = (self.examples.len(), self.theorems.len());
        for it in &file.items {
            if let Item::Def(d) = it {
                self.new_def(d, BASE, false, &mut errs);
            }
        }
        for i in first_def..self.defs.len() {
            let (d, k) = (DefId::at(i), self.defs[i].key);
            self.readings[BASE.index()].own.insert(k, d);
            self.defs_of_key.push(vec![d]);
            self.base_table.push(Some(d));
            // no reading overrides a new name: each table made so far gives it base's definition
            for cell in &mut self.tables {
                if let Some(t) = cell.get_mut() {
                    t.push(Some(d));
                }
            }
        }
        self.uses_touched = Some(vec![]);
        self.resolve_defs(first_def, &mut errs);
        self.resolve_proofs(std::slice::from_ref(file), &mut errs);
        let touched = self.uses_touched.take().unwrap_or_default();
        if errs.iter().any(|d| d.is_error()) {
            return Err(errs);
        }
        // the groups of recursion among the new names (they call the old ones, typed already)
        let new_keys: Vec<DefKey> = (first_key..self.keys.len()).map(DefKey::at).collect();
        let groups = self.groups_of(&new_keys, |k| (k.index()).checked_sub(first_key));
        self.unifier.refuel();
        for g in &groups {
            if !self.infer_group(g, &mut errs) {
                return Err(errs);
            }
        }
        let first_group = self.sccs.len();
        self.sccs.extend(groups);
        self.infer_proofs(first_ex, first_th, &mut errs);
        if errs.iter().any(|d| d.is_error()) {
            return Err(errs);
        }
        let new: Vec<usize> = (first_def..self.defs.len()).collect();
        self.weigh(&new, first_group, &touched);
        self.share_new(first_def);
        self.recursion_notes(first_group);
        self.notes.extend(errs);
        Ok(())
    }

    /// The enums and types of `file`, new names all, declared as a fresh build declares them:
    /// their names, the aliases lowered in order of need, then the enums' fields. Nothing the
    /// program holds names them, so nothing else changes (but the names by which types are
    /// shown).
    fn declare_types(&mut self, file: &ast::File, errs: &mut Vec<Diag>) {
        if !file
            .items
            .iter()
            .any(|i| matches!(i, Item::Enum(_) | Item::Type(_)))
        {
            return;
        }
        let first_enum = self.enums.len();
        let files = std::slice::from_ref(file);
        self.declare_enums_and_types(files, &mut super::declare::Claims::new(), errs);
        let aliases: Vec<&TypeDecl> = file
            .items
            .iter()
            .filter_map(|it| match it {
                Item::Type(t) if t.ty.is_some() => Some(t),
                _ => None,
            })
            .collect();
        self.lower_aliases(&aliases, errs);
        self.enum_fields(files, first_enum, errs);
        self.alias_names = std::cell::OnceCell::new();
    }

    /// What the analyses know of the definitions `defs` (a set no other definition calls, in
    /// order), whose groups of recursion are those from `first_group` on, and of the names
    /// `touched` by uses that came or went.
    pub(super) fn weigh(&mut self, defs: &[usize], first_group: usize, touched: &[DefKey]) {
        self.weigh_groups(first_group);
        // shadowing: of these definitions, and of those of names whose count of uses changed
        self.shadowed.resize(self.defs.len(), false);
        for &i in defs {
            self.shadowed[i] = self.is_shadowed(i);
        }
        for &k in touched {
            for j in 0..self.defs_of_key[k.index()].len() {
                let d = (self.defs_of_key[k.index()][j]).index();
                self.shadowed[d] = self.is_shadowed(d);
            }
        }
        self.fingerprint_of(defs);
    }

    /// `base_users` and the sharing tables made so far, for the new definitions (all of base).
    fn share_new(&mut self, first_def: usize) {
        self.base_users.resize(self.keys.len(), vec![]);
        for i in first_def..self.defs.len() {
            let k = self.defs[i].key;
            for j in 0..self.defs[i].deps.len() {
                let x = (self.defs[i].deps[j]).index();
                if self.base_users[x].last() != Some(&k) {
                    self.base_users[x].push(k);
                }
            }
        }
        for r in 1..self.sharing.len() {
            let more = match (
                self.sharing[r].get(),
                self.tables.get(r).and_then(|t| t.get()),
            ) {
                (None, _) => continue,
                (Some(shares), Some(table)) if shares.len() == first_def => {
                    Some(self.shares_of_new(first_def, shares, table))
                }
                _ => None,
            };
            match more {
                Some(more) => {
                    if let Some(s) = self.sharing[r].get_mut() {
                        s.extend(more);
                    }
                }
                None => self.sharing[r] = std::sync::OnceLock::new(),
            }
        }
    }

    /// Which new definitions (from `first_def` on) a reading shares with base, given what it
    /// shares of the old ones and its table: a name is affected under the reading when the
    /// reading uses another definition for it, or base's definition calls an affected name.
    fn shares_of_new(
        &self,
        first_def: usize,
        shares: &[bool],
        table: &[Option<DefId>],
    ) -> Vec<bool> {
        let n = self.defs.len() - first_def;
        // the def of a new key (each has one, of base)
        let new_def = |k: DefKey| -> Option<usize> {
            match self.base_table.get(k.index()).copied().flatten() {
                Some(d) if d.index() >= first_def => Some(d.index() - first_def),
                _ => None,
            }
        };
        let old_affected = |k: DefKey| -> bool {
            let k = k.index();
            table[k] != self.base_table[k] || self.base_table[k].is_some_and(|d| !shares[d.index()])
        };
        let mut affected = vec![false; n];
        let mut users: Vec<Vec<usize>> = vec![vec![]; n];
        let mut queue = vec![];
        for (i, d) in self.defs[first_def..].iter().enumerate() {
            for &k in &d.deps {
                match new_def(k) {
                    Some(j) => users[j].push(i),
                    None if old_affected(k) && !affected[i] => {
                        affected[i] = true;
                        queue.push(i);
                    }
                    None => {}
                }
            }
        }
        while let Some(j) = queue.pop() {
            for &i in &users[j] {
                if !std::mem::replace(&mut affected[i], true) {
                    queue.push(i);
                }
            }
        }
        affected.into_iter().map(|a| !a).collect()
    }

    /// The fingerprints of the definitions `set` (in order; no other definition calls them):
    /// what they reach is in the set or fingerprinted already. A component's hash is that of
    /// its members' own texts and of the hashes of the components it calls, so that it changes
    /// when anything reachable changes.
    pub(super) fn fingerprint_of(&mut self, set: &[usize]) {
        use std::hash::{Hash, Hasher};
        let n = set.len();
        let local: HashMap<usize, usize> = set.iter().enumerate().map(|(j, &d)| (d, j)).collect();
        let own: Vec<u64> = set.iter().map(|&i| self.own_hash(&self.defs[i])).collect();
        let calls: Vec<Vec<DefId>> = set
            .iter()
            .map(|&i| {
                let mut e: Vec<DefId> = self.defs[i]
                    .deps
                    .iter()
                    .flat_map(|k| self.defs_of_key[(*k).index()].iter().copied())
                    .collect();
                e.sort_unstable();
                e.dedup();
                e
            })
            .collect();
        let inner: Vec<Vec<DefKey>> = calls
            .iter()
            .map(|e| {
                e.iter()
                    .filter_map(|&d| local.get(&d.index()).map(|&j| DefKey::at(j)))
                    .collect()
            })
            .collect();
        let comps = tarjan(&inner);
        let mut comp_of = vec![0usize; n];
        for (c, members) in comps.iter().enumerate() {
            for &d in members {
                comp_of[d.index()] = c;
            }
        }
        let mut comp_hash = vec![0u64; comps.len()];
        for (c, members) in comps.iter().enumerate() {
            let mut mine: Vec<u64> = members.iter().map(|&d| own[d.index()]).collect();
            mine.sort_unstable();
            let mut called: Vec<u64> = members
                .iter()
                .flat_map(|&d| calls[d.index()].iter())
                .filter_map(|&e| match local.get(&e.index()) {
                    None => Some(self.comp_hash[e.index()]),
                    Some(&j) if comp_of[j] != c => Some(comp_hash[comp_of[j]]),
                    Some(_) => None,
                })
                .collect();
            called.sort_unstable();
            called.dedup();
            let mut h = rustc_hash::FxHasher::default();
            (mine, called).hash(&mut h);
            comp_hash[c] = h.finish();
        }
        self.fingerprint.resize(self.defs.len(), 0);
        self.comp_hash.resize(self.defs.len(), 0);
        for (j, &d) in set.iter().enumerate() {
            let mut h = rustc_hash::FxHasher::default();
            (own[j], comp_hash[comp_of[j]]).hash(&mut h);
            self.fingerprint[d] = h.finish();
            self.comp_hash[d] = comp_hash[comp_of[j]];
        }
    }
}
