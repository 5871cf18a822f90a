#![forbid(unsafe_code)]
//! Readings: the resolution order of each reading (its parents linearised), conflicts between
//! parents reported, and the definition a reading uses for each name (made when first asked).

use super::*;
use crate::diagnostics::code;

/// The most readings a reading may extend, directly or through others.
pub const MAX_ANCESTORS: usize = 10_000;

impl Program {
    pub(super) fn linearize(&mut self, errs: &mut Vec<Diag>) {
        let n = self.readings.len();
        let parents_of = |r: usize| -> &[ReadingId] {
            if r == BASE.index() {
                &[]
            } else {
                &self.readings[r].parents
            }
        };
        // The order of r is its depth-first list of ancestors ([r], then each parent's list in
        // turn), each kept at its last occurrence. Keeping the last occurrences of the parents'
        // own orders, concatenated, gives the same list, so each reading's order is built once
        // from its parents' (a reading reached along many paths is not walked again along each).
        // A reading on a cycle of `extends`, or extending one, has none.
        let mut order: Vec<Option<Vec<ReadingId>>> = vec![None; n];
        let mut refused: Vec<Option<Diag>> = vec![None; n];
        const CYCLE: &str = code::READING_CYCLE;
        const TOO_MANY: &str = code::TOO_MANY_ANCESTORS;
        let mut refused_for: Vec<Option<&str>> = vec![None; n];
        // the readings met while one order is built, marked with the build's number
        let mut seen = vec![0u32; n];
        let mut generation = 0u32;
        let parent = |r: usize, i: usize| parents_of(r).get(i).map(|&p| p.index());
        // a reading on a cycle of `extends`, or extending one, is refused
        super::analysis::postorder(n, parent, |cur, cyclic| {
            let parents = parents_of(cur);
            let span = self.readings[cur].span.unwrap_or_default();
            let name = &self.readings[cur].name;
            if cyclic {
                refused_for[cur] = Some(CYCLE);
                refused[cur] = Some(
                    Diag::error(CYCLE, format!("reading `{name}` extends itself"))
                        .label(span, "part of a cycle of `extends`")
                        .help("a reading extends readings declared without it"),
                );
                return;
            }
            generation += 1;
            let (kept, ancestors) = merged_order(
                ReadingId::at(cur),
                parents
                    .iter()
                    .map(|&p| order[p.index()].as_deref().unwrap_or_default()),
                &mut seen,
                generation,
            );
            let too_many = parents
                .iter()
                .any(|&p| refused_for[p.index()] == Some(TOO_MANY));
            if too_many || ancestors > MAX_ANCESTORS {
                refused_for[cur] = Some(TOO_MANY);
                refused[cur] = Some(too_many_ancestors(name, span));
                return;
            }
            order[cur] = Some(kept);
        });
        for (r, refusal) in refused.into_iter().enumerate() {
            let mro = match (refusal, order[r].take()) {
                (Some(d), _) => {
                    errs.push(d);
                    vec![ReadingId::at(r), BASE]
                }
                (None, Some(o)) => o,
                (None, None) => vec![ReadingId::at(r), BASE],
            };
            self.readings[r].mro = base_last(mro);
        }
        // the names base resolves, and the ambiguities of each reading
        let nkeys = self.keys.len();
        self.base_table = vec![None; nkeys];
        for (&key, &d) in &self.readings[BASE.index()].own {
            self.base_table[key.index()] = Some(d);
        }
        let mut first: HashMap<DefKey, ReadingId> = HashMap::new();
        for r in 0..n {
            self.ambiguities(r, &mut first, errs);
        }
        self.tables = (0..n).map(|_| std::sync::OnceLock::new()).collect();
    }

    /// The order of a reading declared after all others (none extends it), from those of its
    /// parents, as [`Program::linearize`] makes it; E0115 when it has too many ancestors.
    pub(super) fn order_of_new(&self, r: ReadingId) -> Result<Vec<ReadingId>, Diag> {
        let info = &self.readings[r.index()];
        let mut seen = vec![0u32; self.readings.len()];
        let parents = info.parents.iter();
        let (kept, ancestors) = merged_order(
            r,
            parents.map(|&p| self.readings[p.index()].mro.as_slice()),
            &mut seen,
            1,
        );
        if ancestors > MAX_ANCESTORS {
            return Err(too_many_ancestors(
                &info.name,
                info.span.unwrap_or_default(),
            ));
        }
        Ok(base_last(kept))
    }

    /// The names reading `r` inherits two overrides of, neither from an ancestor of the other
    /// (E0107): a later reading of its order that overrides a name too must be an ancestor of
    /// the first (only the overrides are walked, never every name under every reading).
    pub(super) fn ambiguities(
        &self,
        r: usize,
        first: &mut HashMap<DefKey, ReadingId>,
        errs: &mut Vec<Diag>,
    ) {
        first.clear();
        let mut ambiguous: Vec<(DefKey, usize, ReadingId, ReadingId)> = vec![];
        let mro = &self.readings[r].mro;
        for (at, &a) in mro.iter().enumerate() {
            if a == BASE {
                continue;
            }
            for &key in self.readings[a.index()].own.keys() {
                match first.get(&key) {
                    None => {
                        first.insert(key, a);
                    }
                    Some(&fa) => {
                        if !self.readings[fa.index()].mro.contains(&a) {
                            ambiguous.push((key, at, fa, a));
                        }
                    }
                }
            }
        }
        ambiguous.sort_unstable_by_key(|&(key, at, _, _)| (key, at));
        for (key, _, fa, a) in ambiguous {
            let span = self.readings[r].span.unwrap_or_default();
            errs.push(
                Diag::error(
                    code::AMBIGUOUS_OVERRIDE,
                    format!(
                        "reading `{}` inherits two overrides of `{}`: from `{}` and from `{}`",
                        self.readings[r].name,
                        self.keys[key.index()].name,
                        self.readings[fa.index()].name,
                        self.readings[a.index()].name
                    ),
                )
                .label(span, "ambiguous")
                .help(format!(
                    "override `{}` in `{}` to say which one holds (it may call `base.{}`)",
                    self.keys[key.index()].name,
                    self.readings[r].name,
                    self.keys[key.index()].name
                )),
            );
        }
    }

    /// The definition `reading` uses for each name (none for a reading not declared), made the
    /// first time it is asked: base's, where no reading of its order before base overrides it.
    pub(super) fn table_of(&self, reading: ReadingId) -> Option<&Vec<Option<DefId>>> {
        let cell = self.tables.get(reading.index())?;
        Some(cell.get_or_init(|| {
            let mut table = self.base_table.clone();
            let mut set = vec![false; table.len()];
            for &a in &self.readings[reading.index()].mro {
                if a == BASE {
                    continue;
                }
                for (&key, &d) in &self.readings[a.index()].own {
                    if !std::mem::replace(&mut set[key.index()], true) {
                        table[key.index()] = Some(d);
                    }
                }
            }
            table
        }))
    }
}

/// The order of reading `cur` from the orders of its parents: `cur`, then each parent's order
/// in turn, each reading kept at its last occurrence (`seen` marks the readings met while this
/// order is built with `generation`); and the number of its ancestors, base aside. Where base
/// stands in it depends on the parents' orders ([`base_last`] puts it at the end).
fn merged_order<'o>(
    cur: ReadingId,
    parents: impl Iterator<Item = &'o [ReadingId]>,
    seen: &mut [u32],
    generation: u32,
) -> (Vec<ReadingId>, usize) {
    let mut all = vec![cur];
    for o in parents {
        all.extend(o);
    }
    let mut kept: Vec<ReadingId> = all
        .iter()
        .rev()
        .filter(|&&x| std::mem::replace(&mut seen[x.index()], generation) != generation)
        .copied()
        .collect();
    kept.reverse();
    let ancestors = kept.iter().filter(|&&x| x != cur && x != BASE).count();
    (kept, ancestors)
}

/// A reading's order with base last, where every order ends.
fn base_last(mut mro: Vec<ReadingId>) -> Vec<ReadingId> {
    if mro.last() != Some(&BASE) {
        mro.retain(|x| *x != BASE);
        mro.push(BASE);
    }
    mro
}

/// E0115: reading `name` extends more than [`MAX_ANCESTORS`] readings.
fn too_many_ancestors(name: &str, span: Span) -> Diag {
    Diag::error(
        code::TOO_MANY_ANCESTORS,
        format!("reading `{name}` extends more than {MAX_ANCESTORS} readings, directly or through others"),
    )
    .label(span, "declared here")
    .help("readings are checked against every reading they extend: group the overrides into fewer readings")
}

#[cfg(test)]
mod tests {
    use super::super::test_util::{build, errors};
    use super::*;

    #[test]
    fn a_reading_resolves_through_its_parents_to_base() {
        let p = build(
            "def a = 1\ndef b = a + 1\n\
             reading r { override def a = 2 }\n\
             reading s extends r {}",
        )
        .unwrap();
        let (r, s) = (p.reading_id("r").unwrap(), p.reading_id("s").unwrap());
        assert_eq!(p.readings[s.index()].mro, vec![s, r, BASE]);
        let a = p.key_of("a").unwrap();
        assert_eq!(p.resolve(s, a), p.resolve(r, a));
        assert_ne!(p.resolve(s, a), p.resolve(BASE, a));
    }

    #[test]
    fn a_long_chain_resolves_each_name_to_its_nearest_override() {
        // r0 overrides d0, r1 (extending r0) d1, ...: under r_k the names d_0..d_k are the
        // readings', the others base's
        let n = 30;
        let mut src = String::new();
        for i in 0..n {
            src += &format!("def d{i} = {i}\n");
        }
        src += "reading r0 { override def d0 = 100 }\n";
        for i in 1..n {
            src += &format!(
                "reading r{i} extends r{} {{ override def d{i} = {} }}\n",
                i - 1,
                100 + i
            );
        }
        let p = build(&src).unwrap();
        for k in 0..n {
            let r = p.reading_id(&format!("r{k}")).unwrap();
            for i in 0..n {
                let key = p.key_of(&format!("d{i}")).unwrap();
                let d = p.resolve(r, key).unwrap();
                let owner = p.defs[d.index()].reading;
                if i <= k {
                    assert_eq!(owner, p.reading_id(&format!("r{i}")).unwrap(), "r{k} d{i}");
                } else {
                    assert_eq!(owner, BASE, "r{k} d{i}");
                }
            }
        }
    }

    #[test]
    fn ambiguities_are_told_in_the_order_of_the_names() {
        let src = "def a = 1\ndef b = 2\n\
                   reading r { override def b = 3\n override def a = 4 }\n\
                   reading s { override def a = 5\n override def b = 6 }\n\
                   reading t extends r, s {}";
        let Err((_, ds)) = super::super::load::load_str("t.rule", src, &Natives::standard()) else {
            panic!("checked without error");
        };
        let told: Vec<&str> = ds
            .iter()
            .filter(|d| d.code == crate::diagnostics::code::AMBIGUOUS_OVERRIDE)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            told,
            [
                "reading `t` inherits two overrides of `a`: from `r` and from `s`",
                "reading `t` inherits two overrides of `b`: from `r` and from `s`",
            ]
        );
    }

    #[test]
    fn two_parents_overriding_one_name_conflict() {
        let codes = errors(
            "def a = 1\nreading r { override def a = 2 }\nreading s { override def a = 3 }\n\
             reading t extends r, s {}",
        );
        assert!(
            codes.contains(&crate::diagnostics::code::AMBIGUOUS_OVERRIDE.to_string()),
            "{codes:?}"
        );
    }

    #[test]
    fn a_reading_cannot_extend_itself() {
        let codes = errors("def a = 1\nreading r extends r {}");
        assert!(
            codes.contains(&crate::diagnostics::code::READING_CYCLE.to_string()),
            "{codes:?}"
        );
        // nor through others; a reading that extends a cycle has no order either
        let codes = errors(
            "def a = 1\nreading r extends s {}\nreading s extends r {}\nreading t extends s {}",
        );
        assert_eq!(
            codes
                .iter()
                .filter(|c| *c == crate::diagnostics::code::READING_CYCLE)
                .count(),
            3,
            "{codes:?}"
        );
    }

    /// Readings that each extend all the ones before (2^n paths to base, no cycle) are
    /// ordered as the depth-first list keeps them: each reading after every reading that
    /// extends it.
    #[test]
    fn many_paths_to_one_ancestor_are_no_cycle() {
        let mut text = String::from("def a = 1\nreading r0 {}\n");
        for i in 1..40 {
            let parents: Vec<String> = (0..i).rev().map(|j| format!("r{j}")).collect();
            text.push_str(&format!(
                "reading r{i} extends {} {{}}\n",
                parents.join(", ")
            ));
        }
        let p = build(&text).unwrap();
        let r = |i: usize| p.reading_id(&format!("r{i}")).unwrap();
        let want: Vec<ReadingId> = (0..40).rev().map(r).chain([BASE]).collect();
        assert_eq!(p.readings[(r(39)).index()].mro, want);
        // a chain: each reading extends the one before
        let mut text = String::from("def a = 1\nreading r0 {}\n");
        for i in 1..2000 {
            text.push_str(&format!("reading r{i} extends r{} {{}}\n", i - 1));
        }
        let p = build(&text).unwrap();
        assert_eq!(
            p.readings[(p.reading_id("r1999").unwrap()).index()]
                .mro
                .len(),
            2001
        );
    }

    /// Past the bound of ancestors, a reading is refused with its own code, not as a cycle.
    #[test]
    fn a_chain_past_the_bound_is_refused_as_too_long() {
        let mut text = String::from("def a = 1\nreading r0 {}\n");
        for i in 1..=MAX_ANCESTORS + 2 {
            text.push_str(&format!("reading r{i} extends r{} {{}}\n", i - 1));
        }
        let codes = errors(&text);
        assert!(
            !codes.contains(&crate::diagnostics::code::READING_CYCLE.to_string()),
            "{codes:?}"
        );
        // the last two readings extend more than the bound
        assert_eq!(
            codes
                .iter()
                .filter(|c| *c == crate::diagnostics::code::TOO_MANY_ANCESTORS)
                .count(),
            2,
            "{codes:?}"
        );
    }
}
