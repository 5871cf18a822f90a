#![forbid(unsafe_code)]
//! Adding readings to a checked program in place: what the REPL does with a reading typed at
//! the prompt. No reading the program holds extends a new one, so the orders and tables of the
//! readings there stand; the new reading's order is made from its parents'. Its definitions are
//! resolved, and what depends on the names it overrides or adds (their cone: an override may
//! change a name's type, or close a cycle of calls through it) is typed and weighed again, as
//! when a name is given a new body ([`Program::redefine`]). A reading with a native binding or
//! primitive, a name given again, or one that extends what is not there is built afresh.

use super::*;

impl Program {
    /// Whether `items` are readings the program can take in place ([`Program::add_readings`]):
    /// of new names, extending readings it has (or that come before them in `items`), whose
    /// items override names it has, each once, or define names nothing defines.
    pub fn adds_readings(&self, items: &[Item]) -> bool {
        if self.types_unknown || items.is_empty() {
            return false;
        }
        let mut readings: HashSet<&str> = HashSet::new();
        let mut new: HashSet<&str> = HashSet::new();
        items.iter().all(|it| {
            let Item::Reading(r) = it else {
                return false;
            };
            let known = |n: &Name| {
                self.reading_names.contains_key(&n.text) || readings.contains(n.text.as_str())
            };
            if known(&r.name) || !r.parents.iter().all(known) {
                return false;
            }
            let mut overridden: HashSet<DefKey> = HashSet::new();
            let fits = r.items.iter().all(|ri| match ri {
                ReadingItem::Override(d) => self
                    .key_names
                    .get(&d.name.text)
                    .is_some_and(|&k| overridden.insert(k)),
                ReadingItem::Def(d) => std::iter::once(&d.name)
                    .chain(&d.aliases)
                    .all(|n| self.is_new_name(&n.text) && new.insert(&n.text)),
                ReadingItem::Native(_) => false,
            });
            readings.insert(&r.name.text);
            fits
        })
    }

    /// Adds the readings of `file` (which [`Program::adds_readings`] accepts) and checks what
    /// depends on the names they override or define, as a fresh build of the whole text would:
    /// the definitions whose meaning may have changed. On `Err` the program is left part-changed:
    /// build it afresh.
    pub fn add_readings(&mut self, file: &ast::File) -> Result<Vec<DefId>, Vec<Diag>> {
        let mut errs = vec![];
        let first_def = self.defs.len();
        let mut added = vec![];
        for it in &file.items {
            let Item::Reading(r) = it else { continue };
            let id = self.new_reading(r);
            let mut binds = vec![];
            let mut claims = super::declare::Claims::new();
            self.declare_reading_items(id, r, &mut claims, &mut binds, &mut errs);
            match self.order_of_new(id) {
                Ok(mro) => self.readings[id.index()].mro = mro,
                Err(d) => errs.push(d),
            }
            added.push(id);
        }
        if errs.iter().any(|d| d.is_error()) {
            return Err(errs);
        }
        let mut first = HashMap::new();
        for &r in &added {
            self.ambiguities(r.index(), &mut first, &mut errs);
        }
        if errs.iter().any(|d| d.is_error()) {
            return Err(errs);
        }
        // the names the readings add are base's in no table; the new readings' tables and what
        // they share with base are made when first asked
        let nkeys = self.keys.len();
        self.base_table.resize(nkeys, None);
        for cell in &mut self.tables {
            if let Some(t) = cell.get_mut() {
                t.resize(nkeys, None);
            }
        }
        for _ in &added {
            self.tables.push(std::sync::OnceLock::new());
            self.sharing.push(std::sync::OnceLock::new());
        }
        self.defs_of_key.resize(nkeys, vec![]);
        self.base_users.resize(nkeys, vec![]);
        for i in first_def..self.defs.len() {
            let k = (self.defs[i].key).index();
            self.defs_of_key[k].push(DefId::at(i));
        }
        self.uses_touched = Some(vec![]);
        self.resolve_defs(first_def, &mut errs);
        let touched = self.uses_touched.take().unwrap_or_default();
        if errs.iter().any(|d| d.is_error()) {
            return Err(errs);
        }
        let mut changed: Vec<DefKey> = self.defs[first_def..].iter().map(|d| d.key).collect();
        changed.sort_unstable();
        changed.dedup();
        self.check_cone(changed.into_iter(), touched, errs)
    }
}
