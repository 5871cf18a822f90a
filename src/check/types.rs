//! Types and their inference: unification with type variables, generalised per group of mutually
//! recursive definitions. Where a construct is overloaded (`in`, indexing, application) and the
//! type is not yet known, the checker leaves it open rather than guess; values are checked again
//! at run time.

use std::fmt;
use std::rc::Rc;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Bool,
    Int,
    Str,
    Enum(u32, Rc<str>),
    Opaque(Rc<str>),
    Set(Box<Ty>),
    Seq(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    Tuple(Vec<Ty>),
    Fun(Vec<Ty>, Box<Ty>),
    Var(u32),
}

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

#[derive(Default)]
pub struct Unifier {
    subst: Vec<Option<Ty>>,
}

impl Unifier {
    pub fn fresh(&mut self) -> Ty {
        self.subst.push(None);
        Ty::Var((self.subst.len() - 1) as u32)
    }

    /// The type with every solved variable replaced.
    pub fn resolve(&self, t: &Ty) -> Ty {
        match t {
            Ty::Var(v) => match &self.subst[*v as usize] {
                Some(t2) => self.resolve(t2),
                None => t.clone(),
            },
            Ty::Set(a) => Ty::Set(Box::new(self.resolve(a))),
            Ty::Seq(a) => Ty::Seq(Box::new(self.resolve(a))),
            Ty::Map(a, b) => Ty::Map(Box::new(self.resolve(a)), Box::new(self.resolve(b))),
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| self.resolve(t)).collect()),
            Ty::Fun(ps, r) => Ty::Fun(
                ps.iter().map(|t| self.resolve(t)).collect(),
                Box::new(self.resolve(r)),
            ),
            _ => t.clone(),
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

    fn occurs(&self, v: u32, t: &Ty) -> bool {
        match self.shallow(t) {
            Ty::Var(w) => w == v,
            Ty::Set(a) | Ty::Seq(a) => self.occurs(v, &a),
            Ty::Map(a, b) => self.occurs(v, &a) || self.occurs(v, &b),
            Ty::Tuple(ts) => ts.iter().any(|t| self.occurs(v, t)),
            Ty::Fun(ps, r) => ps.iter().any(|t| self.occurs(v, t)) || self.occurs(v, &r),
            _ => false,
        }
    }

    /// Make two types equal; `Err` when they cannot be (the caller reports where).
    #[allow(clippy::result_unit_err)]
    pub fn unify(&mut self, a: &Ty, b: &Ty) -> Result<(), ()> {
        let a = self.shallow(a);
        let b = self.shallow(b);
        match (&a, &b) {
            (Ty::Var(x), Ty::Var(y)) if x == y => Ok(()),
            (Ty::Var(x), t) | (t, Ty::Var(x)) => {
                if self.occurs(*x, t) {
                    return Err(());
                }
                self.subst[*x as usize] = Some(t.clone());
                Ok(())
            }
            (Ty::Bool, Ty::Bool) | (Ty::Int, Ty::Int) | (Ty::Str, Ty::Str) => Ok(()),
            (Ty::Enum(x, _), Ty::Enum(y, _)) if x == y => Ok(()),
            (Ty::Opaque(x), Ty::Opaque(y)) if x == y => Ok(()),
            (Ty::Set(x), Ty::Set(y)) | (Ty::Seq(x), Ty::Seq(y)) => self.unify(x, y),
            (Ty::Map(k1, v1), Ty::Map(k2, v2)) => {
                self.unify(k1, k2)?;
                self.unify(v1, v2)
            }
            (Ty::Tuple(xs), Ty::Tuple(ys)) if xs.len() == ys.len() => {
                for (x, y) in xs.iter().zip(ys) {
                    self.unify(x, y)?;
                }
                Ok(())
            }
            (Ty::Fun(p1, r1), Ty::Fun(p2, r2)) if p1.len() == p2.len() => {
                for (x, y) in p1.iter().zip(p2) {
                    self.unify(x, y)?;
                }
                self.unify(r1, r2)
            }
            _ => Err(()),
        }
    }

    pub fn free_vars(&self, t: &Ty, out: &mut Vec<u32>) {
        match self.shallow(t) {
            Ty::Var(v) if !out.contains(&v) => out.push(v),
            Ty::Set(a) | Ty::Seq(a) => self.free_vars(&a, out),
            Ty::Map(a, b) => {
                self.free_vars(&a, out);
                self.free_vars(&b, out)
            }
            Ty::Tuple(ts) => ts.iter().for_each(|t| self.free_vars(t, out)),
            Ty::Fun(ps, r) => {
                ps.iter().for_each(|t| self.free_vars(t, out));
                self.free_vars(&r, out)
            }
            _ => {}
        }
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
        if s.vars.is_empty() {
            return s.ty.clone();
        }
        let fresh: Vec<(u32, Ty)> = s.vars.iter().map(|v| (*v, self.fresh())).collect();
        subst_vars(&s.ty, &fresh)
    }

    /// Rename a type's free variables to a, b, c... for display.
    pub fn pretty(&self, t: &Ty) -> String {
        self.pretty_with(t, &[])
    }

    /// [`Unifier::pretty`], with the parts of the type that are the expansion of an alias shown
    /// by the alias's name (the largest first: `(Game, Int) -> Bool`, not the map type Game
    /// stands for).
    pub fn pretty_with(&self, t: &Ty, aliases: &[(Rc<str>, Ty)]) -> String {
        let t = fold_aliases(&self.resolve(t), aliases);
        let mut vars = vec![];
        self.free_vars(&t, &mut vars);
        let m: Vec<(u32, Ty)> = vars
            .iter()
            .enumerate()
            .map(|(i, v)| (*v, Ty::Var(i as u32)))
            .collect();
        subst_vars(&t, &m).to_string()
    }
}

/// `t` with every part equal to an alias's expansion replaced by the alias's name, from the
/// outside in.
pub fn fold_aliases(t: &Ty, aliases: &[(Rc<str>, Ty)]) -> Ty {
    if aliases.is_empty() {
        return t.clone();
    }
    if let Some((name, _)) = aliases.iter().find(|(_, a)| a == t) {
        return Ty::Opaque(name.clone());
    }
    let f = |x: &Ty| Box::new(fold_aliases(x, aliases));
    match t {
        Ty::Set(a) => Ty::Set(f(a)),
        Ty::Seq(a) => Ty::Seq(f(a)),
        Ty::Map(k, v) => Ty::Map(f(k), f(v)),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|x| fold_aliases(x, aliases)).collect()),
        Ty::Fun(ps, r) => Ty::Fun(ps.iter().map(|x| fold_aliases(x, aliases)).collect(), f(r)),
        other => other.clone(),
    }
}

pub fn subst_vars(t: &Ty, m: &[(u32, Ty)]) -> Ty {
    match t {
        Ty::Var(v) => m
            .iter()
            .find(|(w, _)| w == v)
            .map(|(_, t)| t.clone())
            .unwrap_or(Ty::Var(*v)),
        Ty::Set(a) => Ty::Set(Box::new(subst_vars(a, m))),
        Ty::Seq(a) => Ty::Seq(Box::new(subst_vars(a, m))),
        Ty::Map(a, b) => Ty::Map(Box::new(subst_vars(a, m)), Box::new(subst_vars(b, m))),
        Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|t| subst_vars(t, m)).collect()),
        Ty::Fun(ps, r) => Ty::Fun(
            ps.iter().map(|t| subst_vars(t, m)).collect(),
            Box::new(subst_vars(r, m)),
        ),
        _ => t.clone(),
    }
}

#[cfg(test)]
mod alias_tests {
    use super::*;

    #[test]
    fn aliases_fold_from_the_outside_in() {
        let pos = Ty::Map(Box::new(Ty::Int), Box::new(Ty::Int));
        let game = Ty::Seq(Box::new(pos.clone()));
        let aliases: Vec<(Rc<str>, Ty)> = vec![
            (Rc::from("Game"), game.clone()),
            (Rc::from("Pos"), pos.clone()),
        ];
        let f = Ty::Fun(vec![game, Ty::Int], Box::new(Ty::Bool));
        assert_eq!(
            fold_aliases(&f, &aliases).to_string(),
            "(Game, Int) -> Bool"
        );
        let s = Ty::Set(Box::new(pos));
        assert_eq!(fold_aliases(&s, &aliases).to_string(), "Set<Pos>");
        assert_eq!(fold_aliases(&Ty::Int, &aliases).to_string(), "Int");
    }
}
