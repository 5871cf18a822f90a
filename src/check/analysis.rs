#![forbid(unsafe_code)]
//! What the checked program knows of itself: which definitions a reading shares with `base`,
//! which are light enough not to table, the fingerprint of each definition, and the recursion
//! report (strongly connected components, recursion through negation).

use super::*;
use crate::diagnostics::code;

impl Program {
    /// Prepares [`Program::shares_base`]: the names whose `base` definition calls each name.
    pub(super) fn compute_sharing(&mut self) {
        let mut users = vec![vec![]; self.keys.len()];
        for (k, d) in self.base_table.iter().enumerate() {
            if let Some(d) = d {
                for &x in &self.defs[(*d).index()].deps {
                    users[x.index()].push(DefKey::at(k));
                }
            }
        }
        for u in &mut users {
            u.sort_unstable();
            u.dedup();
        }
        self.base_users = users;
        self.sharing = (0..self.readings.len())
            .map(|_| std::sync::OnceLock::new())
            .collect();
    }

    /// Whether definition `def` means the same under `reading` as under `base` (nothing it
    /// depends on is overridden), so that its memo entries can be shared. Made for a reading
    /// the first time it is asked, in time linear in the program: a name is affected under the
    /// reading if the reading uses another definition for it than base does, or if the
    /// definition it uses calls an affected name.
    pub fn shares_base(&self, reading: ReadingId, def: DefId) -> bool {
        if reading == BASE {
            return true;
        }
        let Some(cell) = self.sharing.get(reading.index()) else {
            return false;
        };
        let shares = cell.get_or_init(|| {
            let table = self
                .table_of(reading)
                .map(|t| t.as_slice())
                .unwrap_or_default();
            let mut affected = vec![false; self.keys.len()];
            let mut queue: Vec<DefKey> = vec![];
            for (k, d) in table.iter().enumerate() {
                if *d != self.base_table[k] {
                    affected[k] = true;
                    queue.push(DefKey::at(k));
                }
            }
            // a name not affected yet uses base's definition: its callers are base's users
            while let Some(x) = queue.pop() {
                for &k in &self.base_users[x.index()] {
                    if !std::mem::replace(&mut affected[k.index()], true) {
                        queue.push(k);
                    }
                }
            }
            self.defs
                .iter()
                .map(|d| d.reading == BASE && !d.deps.iter().any(|k| affected[(*k).index()]))
                .collect()
        });
        shares.get(def.index()).copied().unwrap_or(false)
    }

    /// A group of keys (a strongly connected component) is recursive: several keys, or one
    /// whose definitions call it.
    pub(super) fn recursive_group(&self, scc: &[DefKey]) -> bool {
        scc.len() > 1
            || self.defs_of_key[(scc[0]).index()].iter().any(|&d| {
                let d = &self.defs[d.index()];
                d.deps.contains(&scc[0]) && !d.base_self_only
            })
    }

    /// The definitions of a group of keys, in order.
    fn group_defs(&self, scc: &[DefKey]) -> Vec<DefId> {
        let mut ds: Vec<DefId> = scc
            .iter()
            .flat_map(|&k| self.defs_of_key[k.index()].iter().copied())
            .collect();
        ds.sort_unstable();
        ds
    }

    /// The groups of mutually recursive names among `keys` (callees first), by what their
    /// definitions call; `local` gives a name's place in `keys`, none for a name outside them
    /// (typed already, it takes no part in their groups).
    pub(super) fn groups_of(
        &self,
        keys: &[DefKey],
        local: impl Fn(DefKey) -> Option<usize>,
    ) -> Vec<Vec<DefKey>> {
        let mut edges: Vec<Vec<DefKey>> = vec![vec![]; keys.len()];
        for (j, &k) in keys.iter().enumerate() {
            for &d in &self.defs_of_key[k.index()] {
                let d = &self.defs[d.index()];
                for &x in &d.deps {
                    // `base.f` inside an override of f is another definition, not a cycle
                    if x == d.key && d.base_self_only {
                        continue;
                    }
                    if let Some(i) = local(x) {
                        if !edges[j].contains(&(DefKey::at(i))) {
                            edges[j].push(DefKey::at(i));
                        }
                    }
                }
            }
        }
        tarjan(&edges)
            .into_iter()
            .map(|g| g.into_iter().map(|j| keys[j.index()]).collect())
            .collect()
    }

    pub(super) fn compute_light(&mut self) {
        self.light_key.clear();
        self.recursive = vec![false; self.defs.len()];
        self.light = vec![false; self.defs.len()];
        self.weigh_groups(0);
    }

    /// Recursion and lightness of the definitions of the groups from `first_group` on, callees
    /// first, so that a definition calling only light ones can be light too.
    pub(super) fn weigh_groups(&mut self, first_group: usize) {
        self.light_key.resize(self.keys.len(), NOT_LIGHT);
        self.recursive.resize(self.defs.len(), false);
        self.light.resize(self.defs.len(), false);
        for g in first_group..self.sccs.len() {
            let rec = self.recursive_group(&self.sccs[g]);
            for j in 0..self.sccs[g].len() {
                let k = (self.sccs[g][j]).index();
                let mut cost = if self.defs_of_key[k].is_empty() {
                    NOT_LIGHT
                } else {
                    0
                };
                for &d in &self.defs_of_key[k] {
                    let c = light_def(&self.defs[d.index()], rec, &self.light_key);
                    self.recursive[d.index()] = rec;
                    self.light[d.index()] = c.is_some();
                    cost = cost.max(c.unwrap_or(NOT_LIGHT));
                }
                self.light_key[k] = cost;
            }
        }
    }

    /// Which definitions are `shadowed`: outside any recursion, named once in all the rules, by
    /// a call with the own parameters of a tabled definition of another name. While the caller's
    /// table holds an answer the call is not made again, so the callee's table would never be
    /// asked (and would keep, say, every position before `canon`, for nothing).
    pub(super) fn compute_shadowed(&mut self) {
        self.shadowed = (0..self.defs.len()).map(|i| self.is_shadowed(i)).collect();
    }

    /// Whether definition `i` is shadowed, by the counts of uses made so far.
    pub(super) fn is_shadowed(&self, i: usize) -> bool {
        let d = &self.defs[i];
        let Some(&(n, Some(c))) = self.key_uses.get(d.key.index()) else {
            return false;
        };
        let caller = &self.defs[c.index()];
        n == 1
            && d.kind == DefKind::Rule
            && d.native.is_none()
            && !d.is_const
            && !self.recursive[i]
            && !self.light[i]
            && caller.kind == DefKind::Rule
            && caller.key != d.key
            && !self.light[c.index()]
    }

    /// The text of the enum declarations, which give values their meaning: memo entries are
    /// carried from one program to another only when the first's enums are the first of the
    /// second's, declared alike (an enum added keeps the ids of those before it).
    pub fn enums_text(&self) -> String {
        let mut enums = String::new();
        for e in &self.enums {
            enums.push_str(&e.name);
            for v in &e.variants {
                enums.push_str(&format!(" {}{:?}", v.name, v.fields));
            }
            enums.push(';');
        }
        enums
    }

    /// The hash of a definition's own text (with its reading).
    pub(super) fn own_hash(&self, d: &DefInfo) -> u64 {
        use std::hash::{Hash, Hasher};
        let text = match &d.ast {
            Some(a) => crate::syntax::print::print_def(a),
            None => format!("native {}({})", d.name, d.params.join(",")),
        };
        let mut h = rustc_hash::FxHasher::default();
        format!(
            "{}|{}|{}|{:?}",
            self.readings[d.reading.index()].name,
            d.is_override,
            text,
            d.native
        )
        .hash(&mut h);
        h.finish()
    }

    pub(super) fn compute_fingerprints(&mut self) {
        self.fingerprint.clear();
        self.comp_hash.clear();
        let all: Vec<usize> = (0..self.defs.len()).collect();
        // what a definition can reach, hashed once per strongly connected component of the
        // definitions (callees first) instead of walked again from every definition
        self.fingerprint_of(&all);
    }

    /// The notes on the recursive groups, from group `from` on.
    pub(super) fn recursion_notes(&mut self, from: usize) {
        for scc in &self.sccs[from.min(self.sccs.len())..] {
            if !self.recursive_group(scc) {
                continue;
            }
            let members = self.group_defs(scc);
            // by name, so that the note does not depend on the order the names were declared in
            let mut names: Vec<&str> = scc
                .iter()
                .map(|k| self.keys[(*k).index()].name.as_str())
                .collect();
            names.sort_unstable();
            let neg: Vec<String> = members
                .iter()
                .map(|&d| &self.defs[d.index()])
                .flat_map(|d| {
                    d.neg_deps
                        .iter()
                        .filter(|k| scc.contains(k))
                        .map(move |k| (d.name.clone(), *k))
                })
                .map(|(from, k)| {
                    format!("`{}` uses `{}` negatively", from, self.keys[k.index()].name)
                })
                .collect();
            let Some(first) = members.first().map(|&d| &self.defs[d.index()]) else {
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
            let mut d =
                Diag::info(code::RECURSION, what).label(first.name_span, "recursion starts here");
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
}

/// `light_key[k]` for a name with a definition that is not light.
pub(super) const NOT_LIGHT: u32 = u32::MAX;

/// The most a light definition may cost: the parts of its body, and for each call of a light
/// name that name's cost (what computing it again at every call spends; a chain of light
/// definitions each calling the one before twice would otherwise double at every link).
pub(super) const LIGHT_COST: u32 = 256;

/// A definition is light: a rule of no recursion (`recursive`) and no native binding, a small
/// body, and only light names called (`light_key[k]`: what the name costs, [`NOT_LIGHT`] when
/// some definition of it is not light), at most [`LIGHT_COST`] in all; its cost when it is.
pub(super) fn light_def(d: &DefInfo, recursive: bool, light_key: &[u32]) -> Option<u32> {
    let ok = d.kind == DefKind::Rule
        && d.native.is_none()
        && !d.is_const
        && !recursive
        && d.deps
            .iter()
            .all(|k| light_key.get((*k).index()).is_some_and(|&c| c != NOT_LIGHT));
    if !ok {
        return None;
    }
    d.body
        .as_ref()
        .and_then(|b| light_ir(b, 0, light_key))
        .filter(|&c| c <= LIGHT_COST)
}

/// A small expression: no iteration, a bounded size, and no calls but of light definitions
/// (`light_key[k]`: every definition of the name is light).
pub(super) fn light_ir(e: &Ir, depth: usize, light_key: &[u32]) -> Option<u32> {
    if depth > 12 {
        return None;
    }
    let l = |x: &Ir| light_ir(x, depth + 1, light_key);
    let all = |xs: &[Ir]| {
        xs.iter()
            .try_fold(1u32, |c, x| l(x).map(|y| c.saturating_add(y)))
    };
    let sum = |cs: &[Option<u32>]| {
        cs.iter()
            .try_fold(1u32, |c, x| x.map(|y| c.saturating_add(y)))
    };
    match e {
        Ir::Const(..) | Ir::Local(..) | Ir::Poison(_) => Some(1),
        Ir::Call(k, xs, _) => {
            let callee = light_key
                .get((*k).index())
                .copied()
                .filter(|&c| c != NOT_LIGHT)?;
            if xs.len() > 8 {
                return None;
            }
            all(xs).map(|c| c.saturating_add(callee))
        }
        Ir::Tuple(xs, _) | Ir::SeqLit(xs, _) | Ir::SetLit(xs, _) | Ir::Ctor(_, _, xs, _) => {
            if xs.len() > 8 {
                return None;
            }
            all(xs)
        }
        Ir::Apply(f, xs, _) => sum(&[l(f), all(xs)]),
        Ir::Index(a, b, _) | Ir::Bin(_, a, b, _) => sum(&[l(a), l(b)]),
        Ir::Proj(a, _, _) | Ir::Not(a, _) | Ir::Neg(a, _) => sum(&[l(a)]),
        Ir::If(c, a, b, _) => sum(&[l(c), l(a), l(b)]),
        Ir::Let(bs, body, _) => {
            if bs.len() > 4 {
                return None;
            }
            let mut c = l(body)?;
            for (_, x) in bs.iter() {
                c = c.saturating_add(l(x)?);
            }
            Some(c.saturating_add(1))
        }
        Ir::Match(sc, arms, _) => {
            if arms.len() > 12 {
                return None;
            }
            let mut c = l(sc)?.saturating_add(1);
            for a in arms.iter() {
                if let Some(g) = &a.guard {
                    c = c.saturating_add(l(g)?);
                }
                c = c.saturating_add(l(&a.body)?);
            }
            Some(c)
        }
        _ => None,
    }
}

/// Visits the nodes `0..n`, each once, after the nodes it depends on (`dep(node, i)`: its i-th
/// dependency), depth first without recursion: `visit(node, cyclic)`, with `cyclic` when the node
/// is on a cycle of dependencies or depends on one (those are then not all visited before it).
#[expect(
    clippy::expect_used,
    reason = "the walk pushes before it looks at the top"
)]
pub(super) fn postorder(
    n: usize,
    dep: impl Fn(usize, usize) -> Option<usize>,
    mut visit: impl FnMut(usize, bool),
) {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        New,
        OnPath,
        Done,
        Cyclic,
    }
    let mut state = vec![State::New; n];
    for root in 0..n {
        if state[root] != State::New {
            continue;
        }
        state[root] = State::OnPath;
        let mut stack = vec![(root, 0usize)];
        while let Some((cur, i)) = stack.last().copied() {
            if let Some(d) = dep(cur, i) {
                stack.last_mut().expect("on the stack").1 += 1;
                if state[d] == State::New {
                    state[d] = State::OnPath;
                    stack.push((d, 0));
                }
                continue;
            }
            stack.pop();
            let cyclic = (0..)
                .map_while(|i| dep(cur, i))
                .any(|d| matches!(state[d], State::OnPath | State::Cyclic));
            state[cur] = if cyclic { State::Cyclic } else { State::Done };
            visit(cur, cyclic);
        }
    }
}

pub(super) fn tarjan(edges: &[Vec<DefKey>]) -> Vec<Vec<DefKey>> {
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
                let w = (edges[v][*i]).index();
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
                        comp.push(DefKey::at(w));
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

#[cfg(test)]
mod tests {
    use super::super::test_util::build;
    use super::*;

    /// An override that calls the definition it replaces (`base.f`) is no recursion; a base
    /// definition that calls its own name still is, and so is the override that reaches it.
    #[test]
    fn base_f_in_an_override_is_no_recursion() {
        let recursive = |src: &str| {
            let p = build(src).unwrap();
            let f = p.key_of("f").unwrap();
            let notes: Vec<String> = p.notes.iter().map(|d| d.message.clone()).collect();
            (p.recursive[f.index()], notes)
        };
        let (rec, notes) = recursive(
            "def f(x: Int) -> Int = x + 1\nreading r { override def f(x) = base.f(x) * 2 }",
        );
        assert!(!rec);
        assert!(notes.is_empty(), "{notes:?}");
        let (rec, notes) = recursive(
            "def f(x: Int) -> Int = if x <= 0 then 0 else f(x - 1)\nreading r { override def f(x) = base.f(x) * 2 }",
        );
        assert!(rec);
        assert_eq!(notes, ["`f` is recursive"]);
        // an override that calls itself by name is recursive
        let (rec, _) = recursive(
            "def f(x: Int) -> Int = x\nreading r { override def f(x) = if x <= 0 then base.f(x) else f(x - 1) }",
        );
        assert!(rec);
    }

    #[test]
    fn a_reading_shares_what_it_leaves_alone() {
        let p = build(
            "def a = 1\ndef b = a + 1\ndef c = 5\ndef d = c + 1\nreading r { override def c = 6 }",
        )
        .unwrap();
        let r = p.reading_id("r").unwrap();
        let def = |n: &str| p.resolve(BASE, p.key_of(n).unwrap()).unwrap();
        assert!(p.shares_base(r, def("a")));
        assert!(p.shares_base(r, def("b")));
        // `d` calls `c`, which the reading overrides: its meaning differs
        assert!(!p.shares_base(r, def("d")));
    }

    #[test]
    fn an_override_reaches_every_caller_whatever_their_order() {
        // d0 calls d1, which calls d2, ...: each caller is declared before its callee
        let n = 40;
        let mut src = String::new();
        for i in 0..n {
            src += &format!("def d{i} = d{} + 1\n", i + 1);
        }
        src += &format!("def d{n} = 0\ndef other = 7\nreading r {{ override def d{n} = 1 }}\n");
        let p = build(&src).unwrap();
        let r = p.reading_id("r").unwrap();
        let def = |n: &str| p.resolve(BASE, p.key_of(n).unwrap()).unwrap();
        for i in 0..n {
            assert!(!p.shares_base(r, def(&format!("d{i}"))), "d{i}");
            assert!(p.shares_base(BASE, def(&format!("d{i}"))), "d{i}");
        }
        assert!(p.shares_base(r, def("other")));
        // the override itself is the reading's own
        let over = p.resolve(r, p.key_of(&format!("d{n}")).unwrap()).unwrap();
        assert!(!p.shares_base(r, over));
    }

    #[test]
    fn strongly_connected_components_are_found() {
        // 0 <-> 1, 2 -> 0, 3 alone
        let sccs = tarjan(&[
            vec![crate::ir::DefKey(1)],
            vec![crate::ir::DefKey(0)],
            vec![crate::ir::DefKey(0)],
            vec![],
        ]);
        let mut sorted: Vec<Vec<DefKey>> = sccs
            .into_iter()
            .map(|mut c| {
                c.sort();
                c
            })
            .collect();
        sorted.sort();
        let want: Vec<Vec<DefKey>> = [vec![0, 1], vec![2], vec![3]]
            .into_iter()
            .map(|c| c.into_iter().map(DefKey).collect())
            .collect();
        assert_eq!(sorted, want);
    }

    #[test]
    fn small_definitions_outside_recursion_are_light() {
        let p = build(
            "def f(x: Int) -> Int = x + 1\ndef g(x: Int) -> Bool = x > 0 and g(x - 1)\n\
             def h(x: Int) -> Int = f(x) * 2\ndef k(x: Int) -> Bool = g(f(x))\n\
             def all_small(n: Int) -> Bool = all i in 1..n: f(i) > i",
        )
        .unwrap();
        let def = |n: &str| (p.resolve(BASE, p.key_of(n).unwrap()).unwrap()).index();
        assert!(p.light[def("f")]);
        assert!(!p.light[def("g")]);
        // a call of a light definition keeps its caller light; a call of a recursive one or an
        // iteration does not
        assert!(p.light[def("h")]);
        assert!(!p.light[def("k")]);
        assert!(!p.light[def("all_small")]);
        assert!(p.recursive[def("g")] && !p.recursive[def("k")]);
    }

    /// Light definitions calling light ones twice each: computed again at every call, the
    /// chain's cost doubles at every link, so past a bound of cost the links are tabled.
    #[test]
    fn a_chain_of_light_definitions_is_light_only_while_it_costs_little() {
        let mut src = String::from("def p0(x: Int) -> Int = x + 1\n");
        for i in 1..40 {
            src.push_str(&format!(
                "def p{i}(x: Int) -> Int = p{}(x) + p{}(x)\n",
                i - 1,
                i - 1
            ));
        }
        let p = build(&src).unwrap();
        let def = |n: &str| (p.resolve(BASE, p.key_of(n).unwrap()).unwrap()).index();
        assert!(p.light[def("p0")] && p.light[def("p1")]);
        let heavy = (1..40).find(|i| !p.light[def(&format!("p{i}"))]).unwrap();
        assert!(heavy <= 8, "p{heavy} is the first link not light");
        assert!((heavy..40).all(|i| !p.light[def(&format!("p{i}"))]));
    }

    /// A definition named once in the rules, by a call with the own parameters of a tabled
    /// definition, is not tabled; named twice, with other arguments or in an example, it is.
    #[test]
    fn a_definition_only_its_caller_asks_is_shadowed() {
        let p = build(
            "def moves(s: Int) -> Set<Int> = { s + i | i in 1..3 }\n\
             def succ(s: Int) -> Set<Int> = { x * 2 | x in moves(s) }\n\
             def used(s: Int) -> Set<Int> = { s - i | i in 1..3 }\n\
             def twice(s: Int) -> Set<Int> = used(s) union { x | x in used(s) }\n\
             def shuffled(a: Int, b: Int) -> Set<Int> = { a + i | i in 1..b }\n\
             def other(a: Int, b: Int) -> Set<Int> = { x | x in shuffled(b, a) }\n\
             def asked(s: Int) -> Set<Int> = { s * i | i in 1..3 }\n\
             def caller(s: Int) -> Set<Int> = { x | x in asked(s) }\n\
             example \"asked\" { assert size(asked(1)) == 3 }",
        )
        .unwrap();
        let def = |n: &str| (p.resolve(BASE, p.key_of(n).unwrap()).unwrap()).index();
        assert!(p.shadowed[def("moves")]);
        for n in [
            "succ", "used", "shuffled", "asked", "twice", "other", "caller",
        ] {
            assert!(!p.shadowed[def(n)], "{n}");
        }
    }

    #[test]
    fn edits_change_fingerprints_and_layout_does_not() {
        let a = build("def f(x: Int) -> Int = x + 1").unwrap();
        let b = build("def f(x: Int) -> Int =\n    x + 1 // same").unwrap();
        let c = build("def f(x: Int) -> Int = x + 2").unwrap();
        assert_eq!(a.fingerprint, b.fingerprint);
        assert_ne!(a.fingerprint, c.fingerprint);
    }
}
