//! Types and their inference: unification with type variables, generalised per group of mutually
//! recursive definitions. Where a construct is overloaded (`in`, indexing, application) and the
//! type is not yet known, the checker leaves it open rather than guess; values are checked again
//! at run time.
//!
//! A type's parts are shared (`Rc`), so a copy costs one count, however large the type. The
//! walks over a type's parts are what may grow with it (a definition `(p, p)` doubles `p`'s
//! type), and they are bounded: each part a walk visits is a step of the unifier's budget
//! ([`MAX_TYPE_STEPS`] for a program, counted again for each query), and no walk goes deeper than
//! [`MAX_TYPE_DEPTH`]. A unifier out of budget does nothing more and says so
//! ([`Unifier::exhausted`]); the checker reports it (E0205). Types are shown cut at
//! [`MAX_SHOWN_NODES`] parts.

use crate::ir::EnumId;
use std::cell::Cell;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

/// The parts the unifier may visit while checking one program or one query.
pub const MAX_TYPE_STEPS: u64 = 50_000_000;
/// How deep a walk over a type's parts may go (deeper types are refused, E0205).
pub const MAX_TYPE_DEPTH: usize = 1_000;
/// The parts of a type a message shows; the rest is written `…`.
pub const MAX_SHOWN_NODES: usize = 500;
/// The characters of the names a message shows of one type (each name counted at most at
/// [`MAX_NAME_CHARS`]); the parts past them are written `…`.
pub const MAX_SHOWN_CHARS: usize = 4_000;
/// The characters of one name shown in a type: a longer name (an enum's, an alias's) is cut and
/// ends with `…`.
pub const MAX_NAME_CHARS: usize = 64;

/// `t` with its name cut to [`MAX_NAME_CHARS`], where it is a named type with a longer one.
fn short_name(t: &Ty) -> Option<Ty> {
    let cut = |n: &Rc<str>| -> Option<Rc<str>> {
        let mut cs = n.char_indices();
        let (end, _) = cs.nth(MAX_NAME_CHARS - 1)?;
        cs.next()?;
        Some(Rc::from(format!("{}{CUT}", &n[..end])))
    };
    match t {
        Ty::Enum(id, n) => cut(n).map(|n| Ty::Enum(*id, n)),
        Ty::Opaque(n) => cut(n).map(Ty::Opaque),
        _ => None,
    }
}

/// The characters a part adds to a type's text, for the budget of [`MAX_SHOWN_CHARS`].
fn shown_chars(t: &Ty) -> usize {
    match t {
        Ty::Enum(_, n) | Ty::Opaque(n) => n.len().min(MAX_NAME_CHARS * 4) + 2,
        _ => 4,
    }
}

#[derive(Clone, Debug)]
pub enum Ty {
    Bool,
    Int,
    Str,
    Enum(EnumId, Rc<str>),
    Opaque(Rc<str>),
    Set(Rc<Ty>),
    Seq(Rc<Ty>),
    Map(Rc<Ty>, Rc<Ty>),
    Tuple(Rc<[Ty]>),
    Fun(Rc<[Ty]>, Rc<Ty>),
    Var(u32),
}

/// Equal parts: the same shared part at once, else part by part (`Rc`'s own `==` does not look
/// at the addresses of lists).
impl PartialEq for Ty {
    fn eq(&self, other: &Ty) -> bool {
        let one = |a: &Rc<Ty>, b: &Rc<Ty>| Rc::ptr_eq(a, b) || **a == **b;
        let all = |a: &Rc<[Ty]>, b: &Rc<[Ty]>| Rc::ptr_eq(a, b) || a[..] == b[..];
        match (self, other) {
            (Ty::Bool, Ty::Bool) | (Ty::Int, Ty::Int) | (Ty::Str, Ty::Str) => true,
            (Ty::Enum(x, n), Ty::Enum(y, m)) => x == y && n == m,
            (Ty::Opaque(x), Ty::Opaque(y)) => x == y,
            (Ty::Set(a), Ty::Set(b)) | (Ty::Seq(a), Ty::Seq(b)) => one(a, b),
            (Ty::Map(a, b), Ty::Map(c, d)) => one(a, c) && one(b, d),
            (Ty::Tuple(a), Ty::Tuple(b)) => all(a, b),
            (Ty::Fun(a, r), Ty::Fun(b, s)) => all(a, b) && one(r, s),
            (Ty::Var(x), Ty::Var(y)) => x == y,
            _ => false,
        }
    }
}

impl Eq for Ty {}

impl Ty {
    pub fn set(t: Ty) -> Ty {
        Ty::Set(Rc::new(t))
    }
    pub fn seq(t: Ty) -> Ty {
        Ty::Seq(Rc::new(t))
    }
    pub fn map(k: Ty, v: Ty) -> Ty {
        Ty::Map(Rc::new(k), Rc::new(v))
    }
    pub fn tuple(ts: Vec<Ty>) -> Ty {
        Ty::Tuple(ts.into())
    }
    pub fn fun(ps: Vec<Ty>, r: Ty) -> Ty {
        Ty::Fun(ps.into(), Rc::new(r))
    }

    /// Whether a type variable is among its parts (solved or not).
    pub fn has_vars(&self) -> bool {
        match self {
            Ty::Var(_) => true,
            Ty::Set(a) | Ty::Seq(a) => a.has_vars(),
            Ty::Map(a, b) => a.has_vars() || b.has_vars(),
            Ty::Tuple(ts) => ts.iter().any(Ty::has_vars),
            Ty::Fun(ps, r) => ps.iter().any(Ty::has_vars) || r.has_vars(),
            _ => false,
        }
    }
}

/// The mark of a part of a type left out of a message.
const CUT: &str = "…";

impl fmt::Display for Ty {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ty::Bool => write!(f, "Bool"),
            Ty::Int => write!(f, "Int"),
            Ty::Str => write!(f, "Str"),
            Ty::Enum(_, n) | Ty::Opaque(n) => write!(f, "{n}"),
            Ty::Set(t) => write!(f, "Set<{t}>"),
            Ty::Seq(t) => write!(f, "Seq<{t}>"),
            Ty::Map(k, v) => write!(f, "Map<{k}, {v}>"),
            Ty::Tuple(ts) => {
                write!(f, "(")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ")")
            }
            Ty::Fun(ps, r) => {
                write!(f, "(")?;
                for (i, t) in ps.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{t}")?;
                }
                write!(f, ") -> {r}")
            }
            Ty::Var(v) => {
                let c = (b'a' + (*v % 26) as u8) as char;
                if *v < 26 {
                    write!(f, "{c}")
                } else {
                    write!(f, "{c}{}", v / 26)
                }
            }
        }
    }
}

/// A type with its generalised variables (those that may differ at each use).
#[derive(Clone, Debug)]
pub struct Scheme {
    pub vars: Vec<u32>,
    pub ty: Ty,
}

impl Scheme {
    pub fn mono(ty: Ty) -> Scheme {
        Scheme { vars: vec![], ty }
    }
}

#[derive(Default, Clone)]
pub struct Unifier {
    subst: Vec<Option<Ty>>,
    /// The parts visited since the last [`Unifier::refuel`].
    steps: Cell<u64>,
    /// Set when a walk passed [`MAX_TYPE_STEPS`] or [`MAX_TYPE_DEPTH`]; until the next
    /// [`Unifier::refuel`] every walk stops at once.
    over: Cell<Option<Spent>>,
}

/// Which bound of the unifier's walks was passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    /// [`MAX_TYPE_STEPS`] parts visited.
    Steps,
    /// A part deeper than [`MAX_TYPE_DEPTH`].
    Depth,
}

impl Unifier {
    pub fn fresh(&mut self) -> Ty {
        self.subst.push(None);
        Ty::Var((self.subst.len() - 1) as u32)
    }

    /// A new budget of [`MAX_TYPE_STEPS`] (before a program's or a query's checking).
    pub fn refuel(&self) {
        self.steps.set(0);
        self.over.set(None);
    }

    /// Whether a walk ran out of the budget since the last [`Unifier::refuel`]: the types found
    /// since are not to be trusted, and the checker refuses the program or query (E0205).
    pub fn exhausted(&self) -> bool {
        self.over.get().is_some()
    }

    /// Which bound was passed, if one was since the last [`Unifier::refuel`].
    pub fn spent(&self) -> Option<Spent> {
        self.over.get()
    }

    /// The parts visited since the last [`Unifier::refuel`].
    pub fn steps(&self) -> u64 {
        self.steps.get()
    }

    /// One more part visited, at `depth`: false when the budget is spent (and from then on).
    fn step(&self, depth: usize) -> bool {
        if self.over.get().is_some() {
            return false;
        }
        let s = self.steps.get() + 1;
        self.steps.set(s);
        if s > MAX_TYPE_STEPS {
            self.over.set(Some(Spent::Steps));
        } else if depth > MAX_TYPE_DEPTH {
            self.over.set(Some(Spent::Depth));
        }
        self.over.get().is_none()
    }

    /// The type with every solved variable replaced.
    pub fn resolve(&self, t: &Ty) -> Ty {
        map_parts(t, &mut |t, depth| self.visit_solved(t, depth, &mut |_| {}))
            .unwrap_or_else(|| t.clone())
    }

    /// What a walk over a type as solved does with a part: past the budget it stops, a solved
    /// variable is walked as its type, and an unsolved one is given to `free`.
    fn visit_solved(&self, t: &Ty, depth: usize, free: &mut dyn FnMut(u32)) -> Visit {
        if !self.step(depth) {
            return Visit::Keep;
        }
        match t {
            Ty::Var(v) => match &self.subst[*v as usize] {
                Some(t2) => Visit::Again(t2.clone()),
                None => {
                    free(*v);
                    Visit::Keep
                }
            },
            _ => Visit::Enter,
        }
    }

    /// Follow solved variables one level (enough to see the outermost constructor).
    pub fn shallow(&self, t: &Ty) -> Ty {
        let mut t = t.clone();
        while let Ty::Var(v) = t {
            match &self.subst[v as usize] {
                Some(t2) => t = t2.clone(),
                None => break,
            }
        }
        t
    }

    /// Whether `v` occurs in `t` (true as well when the walk runs out of budget: the caller
    /// then binds nothing). `clear` holds the shared parts already found free of `v`.
    fn occurs(&self, v: u32, t: &Ty, depth: usize, clear: &mut HashSet<usize>) -> bool {
        if !self.step(depth) {
            return true;
        }
        let d = depth + 1;
        let part = |a: &Rc<Ty>, clear: &mut HashSet<usize>| {
            !clear.contains(&addr(a)) && {
                let found = self.occurs(v, a, d, clear);
                if !found {
                    clear.insert(addr(a));
                }
                found
            }
        };
        let parts = |ts: &Rc<[Ty]>, clear: &mut HashSet<usize>| {
            !clear.contains(&addr_of_parts(ts)) && {
                let found = ts.iter().any(|t| self.occurs(v, t, d, clear));
                if !found {
                    clear.insert(addr_of_parts(ts));
                }
                found
            }
        };
        match self.shallow(t) {
            Ty::Var(w) => w == v,
            Ty::Set(a) | Ty::Seq(a) => part(&a, clear),
            Ty::Map(a, b) => part(&a, clear) || part(&b, clear),
            Ty::Tuple(ts) => parts(&ts, clear),
            Ty::Fun(ps, r) => parts(&ps, clear) || part(&r, clear),
            _ => false,
        }
    }

    /// Make two types equal; `Err` when they cannot be (the caller reports where). Out of
    /// budget it does nothing and returns `Ok` (the checker reports the budget instead).
    #[allow(clippy::result_unit_err)]
    pub fn unify(&mut self, a: &Ty, b: &Ty) -> Result<(), ()> {
        self.unify_at(a, b, 0, &mut HashSet::new())
    }

    /// `done` holds the pairs of shared parts already made equal.
    fn unify_at(
        &mut self,
        a: &Ty,
        b: &Ty,
        depth: usize,
        done: &mut HashSet<(usize, usize)>,
    ) -> Result<(), ()> {
        if !self.step(depth) {
            return Ok(());
        }
        let a = self.shallow(a);
        let b = self.shallow(b);
        let d = depth + 1;
        // shared parts met again (or the very same part on both sides) are equal already
        let fresh =
            |x: usize, y: usize, done: &mut HashSet<(usize, usize)>| x != y && done.insert((x, y));
        match (&a, &b) {
            (Ty::Var(x), Ty::Var(y)) if x == y => Ok(()),
            (Ty::Var(x), t) | (t, Ty::Var(x)) => {
                if self.occurs(*x, t, d, &mut HashSet::new()) {
                    return if self.exhausted() { Ok(()) } else { Err(()) };
                }
                self.subst[*x as usize] = Some(t.clone());
                Ok(())
            }
            (Ty::Bool, Ty::Bool) | (Ty::Int, Ty::Int) | (Ty::Str, Ty::Str) => Ok(()),
            (Ty::Enum(x, _), Ty::Enum(y, _)) if x == y => Ok(()),
            (Ty::Opaque(x), Ty::Opaque(y)) if x == y => Ok(()),
            (Ty::Set(x), Ty::Set(y)) | (Ty::Seq(x), Ty::Seq(y)) => {
                if !fresh(addr(x), addr(y), done) {
                    return Ok(());
                }
                self.unify_at(x, y, d, done)
            }
            (Ty::Map(k1, v1), Ty::Map(k2, v2)) => {
                if fresh(addr(k1), addr(k2), done) {
                    self.unify_at(k1, k2, d, done)?;
                }
                if fresh(addr(v1), addr(v2), done) {
                    self.unify_at(v1, v2, d, done)?;
                }
                Ok(())
            }
            (Ty::Tuple(xs), Ty::Tuple(ys)) if xs.len() == ys.len() => {
                if !fresh(addr_of_parts(xs), addr_of_parts(ys), done) {
                    return Ok(());
                }
                for (x, y) in xs.iter().zip(ys.iter()) {
                    self.unify_at(x, y, d, done)?;
                }
                Ok(())
            }
            (Ty::Fun(p1, r1), Ty::Fun(p2, r2)) if p1.len() == p2.len() => {
                if fresh(addr_of_parts(p1), addr_of_parts(p2), done) {
                    for (x, y) in p1.iter().zip(p2.iter()) {
                        self.unify_at(x, y, d, done)?;
                    }
                }
                if fresh(addr(r1), addr(r2), done) {
                    self.unify_at(r1, r2, d, done)?;
                }
                Ok(())
            }
            _ => Err(()),
        }
    }

    pub fn free_vars(&self, t: &Ty, out: &mut Vec<u32>) {
        let mut seen: HashSet<u32> = out.iter().copied().collect();
        let mut free = |v: u32| {
            if seen.insert(v) {
                out.push(v);
            }
        };
        map_parts(t, &mut |t, depth| self.visit_solved(t, depth, &mut free));
    }

    /// Generalise every free variable of `t`.
    pub fn generalize(&self, t: &Ty) -> Scheme {
        let mut vars = vec![];
        self.free_vars(t, &mut vars);
        Scheme {
            vars,
            ty: self.resolve(t),
        }
    }

    /// A fresh copy of a scheme's type.
    pub fn instantiate(&mut self, s: &Scheme) -> Ty {
        if s.vars.is_empty() || self.exhausted() {
            return s.ty.clone();
        }
        let fresh: Vec<(u32, Ty)> = s.vars.iter().map(|v| (*v, self.fresh())).collect();
        let m: HashMap<u32, Ty> = fresh.into_iter().collect();
        let mut subst = |t: &Ty, depth: usize| {
            if !self.step(depth) {
                return Visit::Keep;
            }
            match var_of(t).and_then(|v| m.get(&v)) {
                Some(new) => Visit::Replace(new.clone()),
                None => Visit::Enter,
            }
        };
        map_parts(&s.ty, &mut subst).unwrap_or_else(|| s.ty.clone())
    }

    /// Rename a type's free variables to a, b, c... for display.
    pub fn pretty(&self, t: &Ty) -> String {
        self.pretty_with(t, &AliasNames::default())
    }

    /// [`Unifier::pretty`], with the parts of the type that are the expansion of an alias shown
    /// by the alias's name (the largest first: `(Game, Int) -> Bool`, not the map type Game
    /// stands for). At most [`MAX_SHOWN_NODES`] parts are shown; this walk is bounded by them
    /// and does not spend the unifier's budget.
    pub fn pretty_with(&self, t: &Ty, aliases: &AliasNames) -> String {
        let t = aliases.fold(&self.cut(t));
        // names cut to a bound, the aliases' too (folded in after the cut)
        let mut shorten = |t: &Ty, _: usize| match short_name(t) {
            Some(s) => Visit::Replace(s),
            None => Visit::Enter,
        };
        let t = map_parts(&t, &mut shorten).unwrap_or(t);
        let mut vars: Vec<u32> = vec![];
        let mut collect = |t: &Ty, _: usize| {
            if let Ty::Var(v) = t {
                if !vars.contains(v) {
                    vars.push(*v);
                }
            }
            Visit::Enter
        };
        map_parts(&t, &mut collect);
        let m: HashMap<u32, Ty> = vars
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, Ty::Var(i as u32)))
            .collect();
        let mut rename = |t: &Ty, _: usize| match var_of(t).and_then(|v| m.get(&v)) {
            Some(new) => Visit::Replace(new.clone()),
            None => Visit::Enter,
        };
        map_parts(&t, &mut rename).unwrap_or(t).to_string()
    }

    /// `t` resolved, with at most [`MAX_SHOWN_NODES`] parts, taken breadth first (level by level,
    /// so that a wide type shows each of its first parts before the parts of any one of them):
    /// the parts past them are written `…`.
    #[expect(
        clippy::expect_used,
        reason = "the type is built from its parts, each before its users"
    )]
    fn cut(&self, t: &Ty) -> Ty {
        // the parts kept, in breadth-first order, and for each the places of its own parts in
        // that order (`None`: cut)
        let mut kept: Vec<Ty> = vec![self.shallow(t)];
        let mut chars = shown_chars(&kept[0]);
        let mut places: Vec<Vec<Option<usize>>> = vec![];
        while places.len() < kept.len() {
            let own: Vec<Ty> = match &kept[places.len()] {
                Ty::Set(a) | Ty::Seq(a) => vec![(**a).clone()],
                Ty::Map(a, b) => vec![(**a).clone(), (**b).clone()],
                Ty::Tuple(ts) => ts.to_vec(),
                Ty::Fun(ps, r) => ps.iter().chain([&**r]).cloned().collect(),
                _ => vec![],
            };
            let at = own
                .iter()
                .map(|p| {
                    (kept.len() < MAX_SHOWN_NODES && chars < MAX_SHOWN_CHARS).then(|| {
                        let part = self.shallow(p);
                        chars += shown_chars(&part);
                        kept.push(part);
                        kept.len() - 1
                    })
                })
                .collect();
            places.push(at);
        }
        // built from the last back: a part's own parts come after it in the order
        let mut built: Vec<Option<Ty>> = vec![None; kept.len()];
        for (i, (t, at)) in kept.iter().zip(&places).enumerate().rev() {
            let mut take = |p: &Option<usize>| match p {
                Some(j) => built[*j].take().expect("built before"),
                None => Ty::Opaque(Rc::from(CUT)),
            };
            let shown = match t {
                Ty::Set(_) => Ty::Set(Rc::new(take(&at[0]))),
                Ty::Seq(_) => Ty::Seq(Rc::new(take(&at[0]))),
                Ty::Map(..) => {
                    let k = take(&at[0]);
                    Ty::Map(Rc::new(k), Rc::new(take(&at[1])))
                }
                Ty::Tuple(_) => {
                    // a long run of cut parts at the end is written once, with its length
                    let whole = at.iter().rposition(Option::is_some).map_or(0, |i| i + 1);
                    let mut parts: Vec<Ty> = at[..whole].iter().map(&mut take).collect();
                    match at.len() - whole {
                        n if n > 3 => parts.push(Ty::Opaque(Rc::from(format!("{CUT}{n} more")))),
                        _ => parts.extend(at[whole..].iter().map(&mut take)),
                    }
                    Ty::Tuple(parts.into())
                }
                Ty::Fun(..) => {
                    let (r, ps) = at.split_last().expect("a result");
                    let ps: Rc<[Ty]> = ps.iter().map(&mut take).collect();
                    Ty::Fun(ps, Rc::new(take(r)))
                }
                other => other.clone(),
            };
            built[i] = Some(shown);
        }
        built[0].take().expect("the whole")
    }
}

fn var_of(t: &Ty) -> Option<u32> {
    match t {
        Ty::Var(v) => Some(*v),
        _ => None,
    }
}

/// What [`map_parts`] does with a part.
enum Visit {
    /// Put this type in its place.
    Replace(Ty),
    /// Put this type in its place, and walk it as well (a solved variable's type).
    Again(Ty),
    /// Keep it as it is, without looking into it.
    Keep,
    /// Look into its parts.
    Enter,
}

/// The address of a shared part, by which a walk knows it has met it before.
fn addr(a: &Rc<Ty>) -> usize {
    Rc::as_ptr(a) as *const () as usize
}

/// The address of a shared list of parts (a tuple's, a function's parameters).
fn addr_of_parts(a: &Rc<[Ty]>) -> usize {
    Rc::as_ptr(a) as *const () as usize
}

/// `t` with its parts replaced as `f` says (`f` is asked of every part it enters, the outer
/// first, with its depth); `None` when nothing was replaced. The parts not replaced are kept,
/// shared, and a shared part is walked once: the walk costs the parts of `t` as it is stored,
/// not as it is written out.
fn map_parts(t: &Ty, f: &mut dyn FnMut(&Ty, usize) -> Visit) -> Option<Ty> {
    Walk {
        f,
        parts: HashMap::new(),
        lists: HashMap::new(),
    }
    .ty(t, 0)
}

struct Walk<'f> {
    f: &'f mut dyn FnMut(&Ty, usize) -> Visit,
    /// What became of each shared part met so far (`None`: it stays).
    parts: HashMap<usize, Option<Rc<Ty>>>,
    lists: HashMap<usize, Option<Rc<[Ty]>>>,
}

impl Walk<'_> {
    fn ty(&mut self, t: &Ty, depth: usize) -> Option<Ty> {
        match (self.f)(t, depth) {
            Visit::Replace(new) => return Some(new),
            Visit::Again(new) => {
                let walked = self.ty(&new, depth + 1);
                return Some(walked.unwrap_or(new));
            }
            Visit::Keep => return None,
            Visit::Enter => {}
        }
        let d = depth + 1;
        match t {
            Ty::Set(a) => self.part(a, d).map(Ty::Set),
            Ty::Seq(a) => self.part(a, d).map(Ty::Seq),
            Ty::Map(a, b) => match (self.part(a, d), self.part(b, d)) {
                (None, None) => None,
                (x, y) => Some(Ty::Map(
                    x.unwrap_or_else(|| a.clone()),
                    y.unwrap_or_else(|| b.clone()),
                )),
            },
            Ty::Tuple(ts) => self.list(ts, d).map(Ty::Tuple),
            Ty::Fun(ps, r) => match (self.list(ps, d), self.part(r, d)) {
                (None, None) => None,
                (x, y) => Some(Ty::Fun(
                    x.unwrap_or_else(|| ps.clone()),
                    y.unwrap_or_else(|| r.clone()),
                )),
            },
            _ => None,
        }
    }

    fn part(&mut self, a: &Rc<Ty>, depth: usize) -> Option<Rc<Ty>> {
        if let Some(done) = self.parts.get(&addr(a)) {
            return done.clone();
        }
        let new = self.ty(a, depth).map(Rc::new);
        self.parts.insert(addr(a), new.clone());
        new
    }

    fn list(&mut self, ts: &Rc<[Ty]>, depth: usize) -> Option<Rc<[Ty]>> {
        if let Some(done) = self.lists.get(&addr_of_parts(ts)) {
            return done.clone();
        }
        let new: Vec<Option<Ty>> = ts.iter().map(|t| self.ty(t, depth)).collect();
        let new = new.iter().any(Option::is_some).then(|| {
            new.into_iter()
                .zip(ts.iter())
                .map(|(n, t)| n.unwrap_or_else(|| t.clone()))
                .collect()
        });
        self.lists.insert(addr_of_parts(ts), new.clone());
        new
    }
}

/// The compound types that have a name (the type aliases), found in a type at a cost that does
/// not grow with their number: each part's shape is hashed from its parts' hashes, and compared
/// in full only with the aliases of the same hash.
#[derive(Default, Clone)]
pub struct AliasNames {
    by_hash: HashMap<u64, Vec<(Rc<str>, Ty)>>,
}

impl AliasNames {
    /// The aliases, each a name and the type it stands for. Where two stand for one type the
    /// first in the order given is shown.
    pub fn new(aliases: Vec<(Rc<str>, Ty)>) -> AliasNames {
        // (the hash of a shape is the one folding makes, here with no name to fold in)
        let none = AliasNames::default();
        let mut by_hash: HashMap<u64, Vec<(Rc<str>, Ty)>> = HashMap::new();
        for (name, t) in aliases {
            by_hash
                .entry(none.fold_part(&t).1)
                .or_default()
                .push((name, t));
        }
        AliasNames { by_hash }
    }

    /// `t` with every part equal to an alias's expansion replaced by the alias's name, from the
    /// outside in.
    pub fn fold(&self, t: &Ty) -> Ty {
        if self.by_hash.is_empty() {
            return t.clone();
        }
        self.fold_part(t).0
    }

    /// The part folded, and the hash of its shape before folding.
    fn fold_part(&self, t: &Ty) -> (Ty, u64) {
        let (folded, h) = match t {
            Ty::Set(a) | Ty::Seq(a) => {
                let (x, h) = self.fold_part(a);
                let f = if matches!(t, Ty::Set(_)) {
                    Ty::set(x)
                } else {
                    Ty::seq(x)
                };
                (f, combine(tag(t), &[h]))
            }
            Ty::Map(a, b) => {
                let (x, ha) = self.fold_part(a);
                let (y, hb) = self.fold_part(b);
                (Ty::map(x, y), combine(tag(t), &[ha, hb]))
            }
            Ty::Tuple(ts) => {
                let (xs, hs): (Vec<Ty>, Vec<u64>) = ts.iter().map(|t| self.fold_part(t)).unzip();
                (Ty::tuple(xs), combine(tag(t), &hs))
            }
            Ty::Fun(ps, r) => {
                let (xs, mut hs): (Vec<Ty>, Vec<u64>) =
                    ps.iter().map(|t| self.fold_part(t)).unzip();
                let (y, hr) = self.fold_part(r);
                hs.push(hr);
                (Ty::fun(xs, y), combine(tag(t), &hs))
            }
            leaf => (leaf.clone(), leaf_hash(leaf)),
        };
        if let Some(list) = self.by_hash.get(&h) {
            if let Some((name, _)) = list.iter().find(|(_, a)| a == t) {
                return (Ty::Opaque(name.clone()), h);
            }
        }
        (folded, h)
    }
}

fn tag(t: &Ty) -> u64 {
    match t {
        Ty::Set(_) => 1,
        Ty::Seq(_) => 2,
        Ty::Map(..) => 3,
        Ty::Tuple(ts) => 4 + ((ts.len() as u64) << 8),
        Ty::Fun(ps, _) => 5 + ((ps.len() as u64) << 8),
        _ => 0,
    }
}

fn leaf_hash(t: &Ty) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    match t {
        Ty::Bool => 1u8.hash(&mut h),
        Ty::Int => 2u8.hash(&mut h),
        Ty::Str => 3u8.hash(&mut h),
        Ty::Enum(x, _) => (4u8, *x).hash(&mut h),
        Ty::Opaque(n) => (5u8, n).hash(&mut h),
        Ty::Var(v) => (6u8, *v).hash(&mut h),
        _ => 0u8.hash(&mut h),
    }
    h.finish()
}

fn combine(tag: u64, parts: &[u64]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    tag.hash(&mut h);
    parts.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod alias_tests {
    use super::*;

    #[test]
    fn aliases_fold_from_the_outside_in() {
        let pos = Ty::map(Ty::Int, Ty::Int);
        let game = Ty::seq(pos.clone());
        let aliases = AliasNames::new(vec![
            (Rc::from("Game"), game.clone()),
            (Rc::from("Pos"), pos.clone()),
        ]);
        let f = Ty::fun(vec![game, Ty::Int], Ty::Bool);
        assert_eq!(aliases.fold(&f).to_string(), "(Game, Int) -> Bool");
        let s = Ty::set(pos);
        assert_eq!(aliases.fold(&s).to_string(), "Set<Pos>");
        assert_eq!(aliases.fold(&Ty::Int).to_string(), "Int");
    }

    /// `p_k = (p_{k-1}, p_{k-1})`: 2^k parts, made of k + 1 shared ones.
    fn doubling(k: usize) -> Ty {
        (0..k).fold(Ty::Int, |t, _| Ty::tuple(vec![t.clone(), t]))
    }

    /// A type is cut breadth first: the parts of its first levels are shown whole, however
    /// large the first of them is, and the cut falls on the deepest levels shown.
    #[test]
    fn a_type_is_cut_breadth_first() {
        let u = Unifier::default();
        let wide = Ty::tuple(vec![doubling(40), Ty::Int, Ty::set(Ty::Bool)]);
        let shown = u.pretty(&wide);
        assert!(shown.ends_with(", Int, Set<Bool>)"), "{}", shown);
        assert!(shown.contains(CUT));
        // 2^8 + 3 parts fill the first eight levels below the whole; of the ninth's 256, the
        // first 241 are shown (with their own parts cut), the rest cut
        let levels = |t: &str| t.chars().take_while(|&c| c == '(').count();
        assert_eq!(levels(&shown), 10, "{}", &shown[..40]);
        assert!(shown.starts_with(&format!("{}…, …)", "(".repeat(10))));
        // cut: the two parts of each of the 241, and the 15 last of the ninth level
        assert_eq!(shown.matches(CUT).count(), 2 * 241 + 15);
        let small = Ty::tuple(vec![doubling(3), Ty::Int]);
        assert_eq!(
            u.pretty(&small),
            "((((Int, Int), (Int, Int)), ((Int, Int), (Int, Int))), Int)"
        );
    }

    /// Long names are cut, and a type of many of them shows as many as fit a bound of
    /// characters: a tuple of 500 parts named by 100,000 characters is not 50 MB of text.
    #[test]
    fn a_type_of_long_names_is_cut_by_length() {
        let u = Unifier::default();
        let name: Rc<str> = Rc::from(format!("T{}", "x".repeat(100_000)));
        for n in [1, 2, 500, 5_000] {
            let wide = Ty::tuple(vec![Ty::Enum(crate::ir::EnumId(0), name.clone()); n]);
            let shown = u.pretty(&wide);
            assert!(
                shown.chars().count() < MAX_SHOWN_CHARS + 200,
                "{n}: {}",
                shown.len()
            );
            assert!(shown.starts_with(&format!("(T{}…", "x".repeat(MAX_NAME_CHARS - 2))));
            let whole = shown.matches(&format!("x{CUT}")).count();
            assert!((1..=n).contains(&whole), "{n}: {whole}");
            assert_eq!(shown.contains(", …"), whole < n, "{n}");
        }
        // a name at the bound is shown whole
        let name: Rc<str> = Rc::from("y".repeat(MAX_NAME_CHARS));
        assert_eq!(
            u.pretty(&Ty::set(Ty::Enum(crate::ir::EnumId(0), name.clone()))),
            format!("Set<{name}>")
        );
    }

    #[test]
    fn a_type_of_two_to_the_forty_parts_costs_its_shared_parts_and_shows_cut() {
        let big = doubling(40);
        let mut u = Unifier::default();
        let shown = u.pretty(&big);
        assert!(shown.contains(CUT), "{}", &shown[..80]);
        assert!(shown.chars().count() < 20 * MAX_SHOWN_NODES);
        assert_eq!(u.steps(), 0, "showing a type spends nothing of the budget");
        // a variable bound to it, resolved, generalised and instantiated: each walk visits its
        // 41 shared parts, not its 2^41 written ones
        let v = u.fresh();
        assert_eq!(u.unify(&v, &big), Ok(()));
        assert_eq!(u.resolve(&v), big);
        let s = u.generalize(&v);
        assert!(s.vars.is_empty());
        let copy = u.instantiate(&s);
        // the same type built again, apart: unifying the two compares each pair of parts once
        assert_eq!(u.unify(&copy, &doubling(40)), Ok(()));
        assert_eq!(u.unify(&copy, &doubling(41)), Err(()));
        assert!(!u.exhausted());
        assert!(u.steps() < 1_000, "{} steps", u.steps());
        // with a variable at each leaf: the fresh copies are shared as the scheme's parts are
        let w = u.fresh();
        let poly = (0..40).fold(w.clone(), |t, _| Ty::tuple(vec![t.clone(), t]));
        let s = u.generalize(&poly);
        assert_eq!(s.vars.len(), 1);
        let a = u.instantiate(&s);
        assert_eq!(u.unify(&a, &doubling(40)), Ok(()));
        assert!(u.steps() < 2_000, "{} steps", u.steps());
        // (compared part by part, as `==` does, the two would cost 2^40: a smaller one)
        let poly = (0..16).fold(w, |t, _| Ty::tuple(vec![t.clone(), t]));
        let a = u.instantiate(&u.generalize(&poly));
        assert_eq!(u.unify(&a, &Ty::Int), Err(()));
        assert_eq!(u.unify(&a, &doubling(16)), Ok(()));
        assert_eq!(u.resolve(&a), doubling(16));
        u.refuel();
        assert_eq!(u.steps(), 0);
    }

    #[test]
    fn a_deep_type_stops_the_walk_at_the_depth_bound() {
        let deep = (0..MAX_TYPE_DEPTH + 10).fold(Ty::Int, |t, _| Ty::set(t));
        let mut u = Unifier::default();
        let v = u.fresh();
        let _ = u.unify(&v, &deep);
        assert_eq!(u.spent(), Some(Spent::Depth));
        u.refuel();
        let shallow = (0..100).fold(Ty::Int, |t, _| Ty::seq(t));
        let w = u.fresh();
        assert_eq!(u.unify(&w, &shallow), Ok(()));
        assert!(!u.exhausted());
        assert_eq!(u.resolve(&w), shallow);
    }

    #[test]
    fn resolving_keeps_the_parts_without_variables_shared() {
        let mut u = Unifier::default();
        let v = u.fresh();
        let part = Rc::new(doubling(10));
        let t = Ty::Map(part.clone(), Rc::new(v.clone()));
        u.unify(&v, &Ty::Int).unwrap();
        match u.resolve(&t) {
            Ty::Map(a, b) => {
                assert!(Rc::ptr_eq(&a, &part));
                assert_eq!(*b, Ty::Int);
            }
            other => panic!("{other:?}"),
        }
    }
}
