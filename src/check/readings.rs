#![forbid(unsafe_code)]
//! Readings: the resolution order of each reading (its parents linearised) and the table
//! reading x key -> definition, with conflicts between parents reported.

use super::*;

impl Program {
    pub(super) fn linearize(&mut self, errs: &mut Vec<Diag>) {
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
        assert_eq!(p.readings[s as usize].mro, vec![s, r, BASE]);
        let a = p.key_of("a").unwrap();
        assert_eq!(p.resolve(s, a), p.resolve(r, a));
        assert_ne!(p.resolve(s, a), p.resolve(BASE, a));
    }

    #[test]
    fn two_parents_overriding_one_name_conflict() {
        let codes = errors(
            "def a = 1\nreading r { override def a = 2 }\nreading s { override def a = 3 }\n\
             reading t extends r, s {}",
        );
        assert!(codes.contains(&"E0107".to_string()), "{codes:?}");
    }

    #[test]
    fn a_reading_cannot_extend_itself() {
        let codes = errors("def a = 1\nreading r extends r {}");
        assert!(codes.contains(&"E0109".to_string()), "{codes:?}");
    }
}
