#![forbid(unsafe_code)]
//! Redefining names of a checked program in place: what the REPL does with a definition typed
//! again. The new body is resolved; the names that depend on the changed ones (their cone: the
//! names whose definitions, in any reading, call them, and so on) are typed again, group by
//! group, with the examples and theorems that use them; the analyses are brought up to date for
//! the cone alone. What is no plain redefinition (a name of a reading, a native one, another
//! number of parameters, other aliases) is built afresh from the text.

use super::*;
use crate::diagnostics::code;

impl Program {
    /// Whether `items` only give top-level names of the program new bodies, with the same
    /// parameters' count and aliases.
    pub fn redefines_with(&self, items: &[Item]) -> bool {
        if self.types_unknown || items.is_empty() {
            return false;
        }
        let mut seen: Vec<DefKey> = vec![];
        items.iter().all(|it| {
            let Item::Def(d) = it else {
                return false;
            };
            let Some(&k) = self.key_names.get(&d.name.text) else {
                return false;
            };
            let key = &self.keys[k.index()];
            let Some(b) = self.base_table.get(k.index()).copied().flatten() else {
                return false;
            };
            let old = &self.defs[b.index()];
            let ok = key.name == d.name.text
                && key.aliases.len() == d.aliases.len()
                && key
                    .aliases
                    .iter()
                    .zip(&d.aliases)
                    .all(|(a, n)| *a == n.text)
                && key.arity == d.params.as_ref().map(|p| p.len())
                && old.reading == BASE
                && old.kind == DefKind::Rule
                && old.native.is_none()
                && !old.is_override
                && !seen.contains(&k);
            seen.push(k);
            ok
        })
    }

    /// Gives the names of `file`'s definitions (which [`Program::redefines_with`] accepts) their
    /// new bodies, and checks what depends on them again, as a fresh build of the whole text
    /// would; the definitions whose meaning may have changed (the cone). On `Err` the program is
    /// left part-changed: build it afresh.
    pub fn redefine(&mut self, file: &ast::File) -> Result<Vec<DefId>, Vec<Diag>> {
        let mut errs = vec![];
        let mut changed: Vec<(DefKey, usize)> = vec![];
        let mut touched: Vec<DefKey> = vec![];
        for it in &file.items {
            let Item::Def(d) = it else { continue };
            let k = self.key_names[&d.name.text];
            let Some(b) = self.base_table[k.index()] else {
                continue;
            };
            let b = b.index();
            // the uses of the old body are no longer made, nor its calls
            for &(x, _) in &self.defs[b].uses {
                if let Some(u) = self.key_uses.get_mut(x.index()) {
                    u.0 = u.0.saturating_sub(1);
                }
                touched.push(x);
            }
            for j in 0..self.defs[b].deps.len() {
                let x = (self.defs[b].deps[j]).index();
                self.base_users[x].retain(|&u| u != k);
            }
            self.defs[b] = self.def_info(d, k, BASE, false, &mut errs);
            changed.push((k, b));
        }
        self.uses_touched = Some(vec![]);
        for &(_, b) in &changed {
            self.resolve_def(b, &mut errs);
        }
        touched.extend(self.uses_touched.take().unwrap_or_default());
        if errs.iter().any(|d| d.is_error()) {
            return Err(errs);
        }
        for &(k, b) in &changed {
            for j in 0..self.defs[b].deps.len() {
                let x = (self.defs[b].deps[j]).index();
                if let Err(at) = self.base_users[x].binary_search(&k) {
                    self.base_users[x].insert(at, k);
                }
            }
        }
        self.check_cone(changed.iter().map(|c| c.0), touched, errs)
    }

    /// Checks again what depends on the names `changed` (given new bodies, or new definitions
    /// in a reading) as a fresh build would: the uses of the names `touched` counted again, the
    /// names of the cone typed again, group by group, with the examples and theorems that use
    /// them, and the analyses brought up to date for the cone alone; the definitions of the
    /// cone (whose meaning may have changed).
    pub(super) fn check_cone(
        &mut self,
        changed: impl Iterator<Item = DefKey>,
        mut touched: Vec<DefKey>,
        mut errs: Vec<Diag>,
    ) -> Result<Vec<DefId>, Vec<Diag>> {
        touched.sort_unstable();
        touched.dedup();
        self.recount(&touched);
        let (cone, in_cone) = self.cone(changed);
        // the cone's groups of recursion, typed again callees first (what is outside the cone
        // does not call into it, and keeps its types)
        let index: HashMap<DefKey, usize> = cone.iter().enumerate().map(|(j, &k)| (k, j)).collect();
        let groups = self.groups_of(&cone, |k| index.get(&k).copied());
        for &k in &cone {
            self.keys[k.index()].scheme = None;
        }
        self.unifier.refuel();
        for g in &groups {
            if !self.infer_group(g, &mut errs) {
                return Err(errs);
            }
        }
        let uses_cone = |uses: &[(DefKey, bool)]| uses.iter().any(|u| in_cone[u.0.index()]);
        for i in 0..self.examples.len() {
            if uses_cone(&self.examples[i].uses) && !self.infer_example(i, &mut errs) {
                return Err(errs);
            }
        }
        for i in 0..self.theorems.len() {
            if uses_cone(&self.theorems[i].uses) && !self.infer_theorem(i, &mut errs) {
                return Err(errs);
            }
        }
        if errs.iter().any(|d| d.is_error()) {
            return Err(errs);
        }
        self.sccs.retain(|g| !in_cone[(g[0]).index()]);
        let first_group = self.sccs.len();
        self.sccs.extend(groups);
        let mut defs: Vec<usize> = cone
            .iter()
            .flat_map(|&k| self.defs_of_key[k.index()].iter().map(|&d| d.index()))
            .collect();
        defs.sort_unstable();
        // a definition of the cone may have become light or heavy: what it calls is weighed again
        for &d in &defs {
            touched.extend(self.defs[d].uses.iter().map(|u| u.0));
        }
        touched.sort_unstable();
        touched.dedup();
        self.weigh(&defs, first_group, &touched);
        // which definitions a reading shares with base: made again when next asked
        for cell in &mut self.sharing {
            *cell = std::sync::OnceLock::new();
        }
        self.notes.retain(|d| d.code != code::RECURSION);
        self.recursion_notes(0);
        self.notes.extend(errs);
        Ok(defs.into_iter().map(DefId::at).collect())
    }

    /// Counts again the uses of the names `keys` (sorted), over every definition, example and
    /// theorem, as the resolution of the whole text counts them.
    fn recount(&mut self, keys: &[DefKey]) {
        if keys.is_empty() {
            return;
        }
        self.key_uses.resize(self.keys.len(), (0, None));
        for &k in keys {
            self.key_uses[k.index()] = (0, None);
        }
        let count = |uses: &[(DefKey, bool)], caller: Option<DefId>, ku: &mut Vec<_>| {
            for &(k, own) in uses {
                if keys.binary_search(&k).is_ok() {
                    let u: &mut (u32, Option<DefId>) = &mut ku[k.index()];
                    u.0 = u.0.saturating_add(1);
                    u.1 = if own { caller } else { None };
                }
            }
        };
        let mut ku = std::mem::take(&mut self.key_uses);
        for (i, d) in self.defs.iter().enumerate() {
            count(&d.uses, Some(DefId::at(i)), &mut ku);
        }
        for x in &self.examples {
            count(&x.uses, None, &mut ku);
        }
        for t in &self.theorems {
            count(&t.uses, None, &mut ku);
        }
        self.key_uses = ku;
    }

    /// The names that depend on `changed` (themselves included), sorted, and a mark per key.
    fn cone(&self, changed: impl Iterator<Item = DefKey>) -> (Vec<DefKey>, Vec<bool>) {
        let mut users: Vec<Vec<DefKey>> = vec![vec![]; self.keys.len()];
        for d in &self.defs {
            for &k in &d.deps {
                users[k.index()].push(d.key);
            }
        }
        let mut in_cone = vec![false; self.keys.len()];
        let mut queue: Vec<DefKey> = vec![];
        for k in changed {
            if !std::mem::replace(&mut in_cone[k.index()], true) {
                queue.push(k);
            }
        }
        let mut cone = vec![];
        while let Some(k) = queue.pop() {
            cone.push(k);
            for &u in &users[k.index()] {
                if !std::mem::replace(&mut in_cone[u.index()], true) {
                    queue.push(u);
                }
            }
        }
        cone.sort_unstable();
        (cone, in_cone)
    }
}
