#![forbid(unsafe_code)]
//! What values do: construction, order, equality, hashing and display. Sets and maps are ordered
//! (B-trees), so iteration is deterministic and two equal sets are equal as values, hash alike
//! and print alike.

use super::coll::{cached_hash, Coll};
use super::{EnumId, EnumVal, Func, Value};
use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

impl Func {
    pub(super) fn id(&self) -> (u8, usize) {
        match self {
            Func::Lambda { lambda, .. } => (0, Rc::as_ptr(lambda) as *const u8 as usize),
            Func::Def(k) => (1, (*k).index()),
            Func::Builtin(b) => (2, *b as usize),
            Func::Ctor(e, t, _) => (3, (e.index() << 16) | *t as usize),
        }
    }
}

impl Value {
    /// The order of the kinds of value among themselves (booleans first), by which values of
    /// different kinds compare.
    pub fn rank(&self) -> u8 {
        match self {
            Value::Bool(_) => 0,
            Value::Int(_) => 1,
            Value::Str(_) => 2,
            Value::Enum(_) => 3,
            Value::Tuple(_) => 4,
            Value::Set(_) => 5,
            Value::Seq(_) => 6,
            Value::Map(_) => 7,
            Value::Func(_) => 8,
            Value::Native(_) => 9,
        }
    }
    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(Rc::from(s))
    }
    /// A tuple of the values `v`.
    pub fn tuple(v: Vec<Value>) -> Value {
        match <[Value; 2]>::try_from(v) {
            Ok([a, b]) => Value::pair(a, b),
            Err(v) => Value::Tuple(Rc::from(v)),
        }
    }
    /// The pair `(a, b)`: `Value::tuple(vec![a, b])` without building the vector when the pair is
    /// one of those shared.
    pub fn pair(a: Value, b: Value) -> Value {
        if let (Some(x), Some(y)) = (atom_id(&a), atom_id(&b)) {
            return Value::Tuple(interned_pair(x, y, || vec![a, b]));
        }
        Value::Tuple(Rc::from([a, b]))
    }
    /// The enum value `tag(fields)` of enum `ty`. One with one to three fields, each a small
    /// integer or a constant (the square `on_board(7, 6, 不成)`), is made once and shared, like
    /// the pairs of such values: positions hold them by the dozen, equal ones compare by address,
    /// and a pair of one with a constant (`(on_board(7, 6, 不成), 先手)`) is shared in turn.
    pub fn enum_value(ty: EnumId, tag: u32, name: &Rc<str>, fields: Vec<Value>) -> Value {
        let make = |fields, shared| {
            Value::Enum(Rc::new(EnumVal {
                ty,
                tag,
                name: name.clone(),
                fields,
                fields_hash: Default::default(),
                shared,
            }))
        };
        if fields.is_empty() || fields.len() > 3 {
            return make(fields, false);
        }
        let mut ids = [u64::MAX; 3];
        for (i, f) in fields.iter().enumerate() {
            match atom_id(f) {
                Some(x) => ids[i] = x,
                None => return make(fields, false),
            }
        }
        let key = (ty, tag, ids);
        SHARED_ENUMS.with(|t| {
            let mut t = t.borrow_mut();
            if let Some(v) = t.get(&key) {
                return v.clone();
            }
            if t.len() >= INTERNED_ENUMS {
                return make(fields, false);
            }
            let v = make(fields, true);
            t.insert(key, v.clone());
            v
        })
    }
    /// A set value.
    pub fn set(s: BTreeSet<Value>) -> Value {
        Value::Set(Rc::new(Coll::new(s)))
    }
    /// A sequence value.
    pub fn seq(s: Vec<Value>) -> Value {
        Value::Seq(Rc::new(Coll::new(s)))
    }
    /// A map value.
    pub fn map(m: BTreeMap<Value, Value>) -> Value {
        Value::Map(Rc::new(Coll::new(m)))
    }
    /// The boolean, if the value is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// The integer, if the value is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }
    /// The native object, if the value is one of type `T`.
    pub fn native<T: 'static>(&self) -> Option<&T> {
        match self {
            Value::Native(n) => n.as_any().downcast_ref::<T>(),
            _ => None,
        }
    }
    /// A rough count of the bytes this value holds, for the memory budget.
    pub fn approx_size(&self) -> usize {
        self.approx_size_at(0)
    }

    /// The same, looking at most 16 tuples deep (a rough count needs no more).
    fn approx_size_at(&self, d: u32) -> usize {
        match self {
            Value::Str(s) => 16 + s.len(),
            Value::Tuple(t) if d < 16 => {
                16 + t.iter().map(|v| v.approx_size_at(d + 1)).sum::<usize>()
            }
            Value::Tuple(t) => 16 + 16 * t.len(),
            Value::Set(s) => 32 + s.len() * 24,
            Value::Seq(s) => 32 + s.len() * 16,
            Value::Map(m) => 32 + m.len() * 48,
            Value::Enum(e) => 32 + e.fields.len() * 16,
            Value::Native(_) => 256,
            _ => 16,
        }
    }
    /// The kind of value, in words, for error messages (`a set`, `an integer`).
    pub fn type_desc(&self) -> &'static str {
        match self {
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Str(_) => "a string",
            Value::Enum(_) => "an enum constant",
            Value::Tuple(_) => "a tuple",
            Value::Set(_) => "a set",
            Value::Seq(_) => "a sequence",
            Value::Map(_) => "a map",
            Value::Func(_) => "a function",
            Value::Native(_) => "a native value",
        }
    }
}

impl PartialEq for Value {
    fn eq(&self, other: &Value) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Value {}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Value) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Value) -> Ordering {
        // most comparisons end within SHARE_AFTER compound parts and keep nothing; one that
        // passes them is begun again keeping the pairs of shared parts
        let quick = Quick::default();
        let o = self.cmp_at(other, 0, &quick);
        if !quick.over.get() {
            return o;
        }
        self.cmp_at(other, 0, &Compare::default())
    }
}

/// How a comparison goes through the pairs of compound parts it meets.
trait PairOrder {
    /// The order of two compound values of one kind, `f` their comparison part by part.
    fn pair(&self, a: &Value, b: &Value, f: impl FnOnce() -> Ordering) -> Ordering;
}

/// The first try of a comparison: it counts the compound parts, and past [`SHARE_AFTER`] of
/// them gives up (its answer is then not used).
#[derive(Default)]
struct Quick {
    parts: std::cell::Cell<u32>,
    over: std::cell::Cell<bool>,
}

impl PairOrder for Quick {
    #[inline]
    fn pair(&self, _: &Value, _: &Value, f: impl FnOnce() -> Ordering) -> Ordering {
        let n = self.parts.get() + 1;
        if n > SHARE_AFTER {
            self.over.set(true);
            return Ordering::Equal;
        }
        self.parts.set(n);
        f()
    }
}

/// A comparison that keeps the order found for each pair of shared parts (parts held in more
/// than one place): a value made of shared parts (`(p, p)` over and over) is compared at the
/// cost of its parts as stored, not as written out, as a pair met again is not compared again.
#[derive(Default)]
struct Compare {
    seen: std::cell::RefCell<rustc_hash::FxHashMap<(usize, usize), Ordering>>,
    /// The pairs' values, held while the comparison lasts, so that no address is reused while
    /// it names a pair.
    kept: std::cell::RefCell<Vec<(Value, Value)>>,
}

/// The compound parts a comparison compares before it keeps the pairs of shared ones.
const SHARE_AFTER: u32 = 4096;

impl Value {
    /// Whether the value has parts (those [`Value::shared_part`] names).
    #[inline]
    fn is_compound(&self) -> bool {
        match self {
            Value::Enum(e) => !e.fields.is_empty(),
            Value::Tuple(t) => !t.is_empty(),
            Value::Set(_) | Value::Seq(_) | Value::Map(_) => true,
            _ => false,
        }
    }

    /// The address of a compound value's shared part and whether it is held elsewhere too.
    fn shared_part(&self) -> Option<(usize, bool)> {
        fn of<T: ?Sized>(r: &Rc<T>) -> (usize, bool) {
            (Rc::as_ptr(r) as *const () as usize, Rc::strong_count(r) > 1)
        }
        match self {
            Value::Enum(e) if !e.fields.is_empty() => Some(of(e)),
            Value::Tuple(t) if !t.is_empty() => Some(of(t)),
            Value::Set(c) => Some(of(c)),
            Value::Seq(c) => Some(of(c)),
            Value::Map(c) => Some(of(c)),
            _ => None,
        }
    }
}

impl PairOrder for Compare {
    fn pair(&self, a: &Value, b: &Value, f: impl FnOnce() -> Ordering) -> Ordering {
        let (Some((x, xs)), Some((y, ys))) = (a.shared_part(), b.shared_part()) else {
            return f();
        };
        // a part held once is met again only within a pair met again, kept above it
        if !(xs && ys) || x == y {
            return f();
        }
        if let Some(o) = self.seen.borrow().get(&(x, y)) {
            return *o;
        }
        let o = f();
        self.seen.borrow_mut().insert((x, y), o);
        self.kept.borrow_mut().push((a.clone(), b.clone()));
        o
    }
}

/// Elementwise comparison of two sequences of values, then by length (as slices compare).
fn cmp_all<P: PairOrder>(a: &[Value], b: &[Value], d: u32, c: &P) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        match x.cmp_at(y, d, c) {
            Ordering::Equal => continue,
            o => return o,
        }
    }
    a.len().cmp(&b.len())
}

impl Value {
    /// The order of values, `d` levels into a value being compared.
    fn cmp_at<P: PairOrder>(&self, other: &Value, d: u32, c: &P) -> Ordering {
        if d % DEEP_EVERY == DEEP_EVERY - 1 {
            return deep(|| self.cmp_here(other, d + 1, c));
        }
        self.cmp_here(other, d + 1, c)
    }

    fn cmp_here<P: PairOrder>(&self, other: &Value, d: u32, c: &P) -> Ordering {
        if self.rank() == other.rank() && self.is_compound() {
            return c.pair(self, other, || self.cmp_parts(other, d, c));
        }
        self.cmp_parts(other, d, c)
    }

    fn cmp_parts<P: PairOrder>(&self, other: &Value, d: u32, c: &P) -> Ordering {
        use Value::*;
        match (self, other) {
            (Bool(a), Bool(b)) => a.cmp(b),
            (Int(a), Int(b)) => a.cmp(b),
            (Str(a), Str(b)) => a.cmp(b),
            (Enum(a), Enum(b)) => {
                if Rc::ptr_eq(a, b) {
                    return Ordering::Equal;
                }
                (a.ty, a.tag)
                    .cmp(&(b.ty, b.tag))
                    .then_with(|| cmp_all(&a.fields, &b.fields, d, c))
            }
            (Tuple(a), Tuple(b)) => {
                if Rc::ptr_eq(a, b) {
                    return Ordering::Equal;
                }
                cmp_all(a, b, d, c)
            }
            (Set(a), Set(b)) => {
                if Rc::ptr_eq(a, b) {
                    return Ordering::Equal;
                }
                a.len().cmp(&b.len()).then_with(|| {
                    for (x, y) in a.iter().zip(b.iter()) {
                        match x.cmp_at(y, d, c) {
                            Ordering::Equal => continue,
                            o => return o,
                        }
                    }
                    Ordering::Equal
                })
            }
            (Seq(a), Seq(b)) => {
                if Rc::ptr_eq(a, b) {
                    return Ordering::Equal;
                }
                cmp_all(&a.inner, &b.inner, d, c)
            }
            (Map(a), Map(b)) => {
                if Rc::ptr_eq(a, b) {
                    return Ordering::Equal;
                }
                a.len().cmp(&b.len()).then_with(|| {
                    for ((k, v), (k2, v2)) in a.iter().zip(b.iter()) {
                        match k.cmp_at(k2, d, c).then_with(|| v.cmp_at(v2, d, c)) {
                            Ordering::Equal => continue,
                            o => return o,
                        }
                    }
                    Ordering::Equal
                })
            }
            (Func(a), Func(b)) => a.id().cmp(&b.id()),
            (Native(a), Native(b)) => a
                .type_name()
                .cmp(b.type_name())
                .then_with(|| a.cmp_obj(b.as_ref())),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl Hash for Value {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.hash_at(h, 0)
    }
}

impl Value {
    /// Hash `self`, `d` levels into a value being hashed (the same hash as slices of values give
    /// for fields and tuples: the length, then each element).
    fn hash_at<H: Hasher>(&self, h: &mut H, d: u32) {
        if d % DEEP_EVERY == DEEP_EVERY - 1 {
            return deep(|| self.hash_here(h, d + 1));
        }
        self.hash_here(h, d + 1)
    }

    fn hash_here<H: Hasher>(&self, h: &mut H, d: u32) {
        use Value::*;
        self.rank().hash(h);
        match self {
            Bool(b) => b.hash(h),
            Int(i) => i.hash(h),
            Str(s) => s.hash(h),
            Enum(e) => {
                e.ty.hash(h);
                e.tag.hash(h);
                h.write_usize(e.fields.len());
                if !e.fields.is_empty() {
                    h.write_u64(*e.fields_hash.get_or_init(|| {
                        let mut fh = rustc_hash::FxHasher::default();
                        for v in &e.fields {
                            v.hash_at(&mut fh, d);
                        }
                        fh.finish()
                    }));
                }
            }
            Tuple(t) => {
                h.write_usize(t.len());
                let mut left = TUPLE_HASH_PARTS;
                hash_tuple(t, h, d, &mut left);
            }
            Set(s) => h.write_u64(cached_hash(s, |h| {
                s.len().hash(h);
                for v in s.iter() {
                    v.hash_at(h, d);
                }
            })),
            Seq(s) => h.write_u64(cached_hash(s, |h| {
                h.write_usize(s.inner.len());
                for v in s.inner.iter() {
                    v.hash_at(h, d);
                }
            })),
            Map(m) => h.write_u64(cached_hash(m, |h| {
                m.len().hash(h);
                for (k, v) in m.iter() {
                    k.hash_at(h, d);
                    v.hash_at(h, d);
                }
            })),
            Func(f) => f.id().hash(h),
            Native(n) => n.hash_obj().hash(h),
        }
    }
}

/// The parts of nested tuples a tuple's hash takes in at most (in order, depth first): tuples
/// keep no hash of their own, and one made of shared parts (`(p, p)` over and over) would
/// otherwise cost as much to hash as it is long written out. The hash stays a function of the
/// value, so equal values hash alike.
const TUPLE_HASH_PARTS: u32 = 256;

fn hash_tuple<H: Hasher>(t: &[Value], h: &mut H, d: u32, left: &mut u32) {
    for v in t {
        if *left == 0 {
            return;
        }
        *left -= 1;
        match v {
            Value::Tuple(inner) => {
                v.rank().hash(h);
                h.write_usize(inner.len());
                hash_tuple(inner, h, d + 1, left)
            }
            v => v.hash_at(h, d),
        }
    }
}

thread_local! {
    /// The names of definitions, where whoever writes a value knows them (the front end does):
    /// a definition given as a value is written `<definition succ>` wherever it stands, inside a
    /// collection too, not `<definition #97>`.
    static DEF_NAMES: std::cell::RefCell<Option<Rc<BTreeMap<super::DefKey, String>>>> =
        const { std::cell::RefCell::new(None) };
}

/// Run `f` with definitions written by their names in `names`, as values are written within it.
pub fn with_definition_names<T>(
    names: Rc<BTreeMap<super::DefKey, String>>,
    f: impl FnOnce() -> T,
) -> T {
    let before = DEF_NAMES.with(|n| n.replace(Some(names)));
    let r = f();
    DEF_NAMES.with(|n| *n.borrow_mut() = before);
    r
}

fn definition_name(k: super::DefKey) -> Option<String> {
    DEF_NAMES.with(|n| n.borrow().as_ref().and_then(|m| m.get(&k).cloned()))
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        deep(|| self.fmt_inner(f))
    }
}

/// A text sink that takes at most `cap` bytes and fails the write that would pass them, so that
/// writing a value of many shared parts (a tuple doubled 60 times has 2^60 written parts) ends
/// at the bound instead of growing without end.
struct Capped {
    text: String,
    cap: usize,
    over: bool,
}

impl fmt::Write for Capped {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.text.len().saturating_add(s.len()) > self.cap {
            // what fits is kept, cut at a character's boundary
            let mut end = self.cap - self.text.len();
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.text.push_str(&s[..end]);
            self.over = true;
            return Err(fmt::Error);
        }
        self.text.push_str(s);
        Ok(())
    }
}

impl Value {
    /// The text of the value (as `Display` writes it) when it takes at most `cap` bytes, or
    /// `None`: at most `cap` bytes are ever held while it is written.
    pub fn text_within(&self, cap: usize) -> Option<String> {
        let (text, over) = self.text_capped(cap);
        (!over).then_some(text)
    }

    /// The text of the value cut to at most `cap` bytes, with `…` at its end when it was cut.
    pub fn text_cut(&self, cap: usize) -> String {
        let (mut text, over) = self.text_capped(cap);
        if over {
            text.push('…');
        }
        text
    }

    /// The length in bytes of the value's text (as `Display` writes it), counted without writing
    /// it: each part held in several places is counted once and its length reused, so a pair
    /// doubled 60 times is counted in 60 steps; at least the length, never less (a function or
    /// a native value is counted as 256 bytes); saturating.
    pub fn text_len(&self) -> usize {
        use std::collections::HashMap;
        /// A step of the walk: a value to count, or a composite whose `n` parts are counted.
        enum Step<'a> {
            Count(&'a Value),
            Sum(&'a Value, usize, usize),
        }
        fn shared(v: &Value) -> Option<usize> {
            match v {
                Value::Tuple(t) => Some(Rc::as_ptr(t) as *const u8 as usize),
                Value::Set(s) => Some(Rc::as_ptr(s) as *const u8 as usize),
                Value::Seq(s) => Some(Rc::as_ptr(s) as *const u8 as usize),
                Value::Map(m) => Some(Rc::as_ptr(m) as *const u8 as usize),
                Value::Enum(e) if !e.fields.is_empty() => Some(Rc::as_ptr(e) as *const u8 as usize),
                _ => None,
            }
        }
        let mut memo: HashMap<usize, usize> = HashMap::new();
        let mut lens: Vec<usize> = vec![];
        let mut todo = vec![Step::Count(self)];
        while let Some(step) = todo.pop() {
            match step {
                Step::Count(v) => {
                    if let Some(n) = shared(v).and_then(|k| memo.get(&k)) {
                        lens.push(*n);
                        continue;
                    }
                    // the punctuation around the parts, and the parts
                    let (extra, parts): (usize, Vec<&Value>) = match v {
                        Value::Bool(_) => (5, vec![]),
                        Value::Int(i) => (i.to_string().len(), vec![]),
                        Value::Str(s) => (
                            2 + s.len()
                                + 10 * s
                                    .chars()
                                    .filter(|c| c.is_control() || *c == '"' || *c == '\\')
                                    .count(),
                            vec![],
                        ),
                        Value::Enum(e) => (
                            e.name.len() + 2 * e.fields.len() + 2,
                            e.fields.iter().collect(),
                        ),
                        Value::Tuple(t) => (2 * t.len() + 3, t.iter().collect()),
                        Value::Set(x) => (2 * x.len() + 3, x.iter().collect()),
                        Value::Seq(x) => (2 * x.len() + 2, x.iter().collect()),
                        Value::Map(m) => (
                            4 * m.len() + 3,
                            m.iter().flat_map(|(k, x)| [k, x]).collect(),
                        ),
                        Value::Func(_) | Value::Native(_) => (256, vec![]),
                    };
                    todo.push(Step::Sum(v, parts.len(), extra));
                    todo.extend(parts.into_iter().rev().map(Step::Count));
                }
                Step::Sum(v, n, extra) => {
                    let total = lens
                        .drain(lens.len() - n..)
                        .fold(extra, |a, b| a.saturating_add(b));
                    if let Some(k) = shared(v) {
                        memo.insert(k, total);
                    }
                    lens.push(total);
                }
            }
        }
        lens.pop().unwrap_or(0)
    }

    fn text_capped(&self, cap: usize) -> (String, bool) {
        use fmt::Write;
        let mut w = Capped {
            text: String::with_capacity(cap.min(1 << 12)),
            cap,
            over: false,
        };
        let _ = write!(w, "{self}");
        (w.text, w.over)
    }
}

impl Value {
    fn fmt_inner(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Value::*;
        match self {
            Bool(b) => write!(f, "{b}"),
            Int(i) => write!(f, "{i}"),
            Str(s) => write!(f, "{s:?}"),
            Enum(e) => {
                write!(f, "{}", e.name)?;
                if !e.fields.is_empty() {
                    write!(f, "(")?;
                    for (i, v) in e.fields.iter().enumerate() {
                        if i > 0 {
                            write!(f, ", ")?;
                        }
                        write!(f, "{v}")?;
                    }
                    write!(f, ")")?;
                }
                Ok(())
            }
            Tuple(t) => {
                write!(f, "(")?;
                for (i, v) in t.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                if t.len() == 1 {
                    write!(f, ",")?;
                }
                write!(f, ")")
            }
            Set(s) => {
                write!(f, "{{")?;
                for (i, v) in s.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, "}}")
            }
            Seq(s) => {
                write!(f, "[")?;
                for (i, v) in s.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{v}")?;
                }
                write!(f, "]")
            }
            Map(m) => {
                if m.is_empty() {
                    return write!(f, "{{:}}");
                }
                write!(f, "{{")?;
                for (i, (k, v)) in m.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{k}: {v}")?;
                }
                write!(f, "}}")
            }
            Func(func) => match &**func {
                super::Func::Lambda { .. } => write!(f, "<function>"),
                super::Func::Def(k) => match definition_name(*k) {
                    Some(name) => write!(f, "<definition {name}>"),
                    None => write!(f, "<definition #{k}>"),
                },
                super::Func::Builtin(b) => write!(f, "<built-in {}>", b.name()),
                super::Func::Ctor(..) => write!(f, "<constructor>"),
            },
            Native(n) => write!(f, "{}", n.display()),
        }
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// How many levels of a value comparing and hashing descend between two looks at the stack.
const DEEP_EVERY: u32 = 32;

/// Run `f`, a step of a walk into a value, where the stack has room: values nest as deeply as
/// the rules build them (a list of 100,000 cells), and comparing, hashing, printing or measuring
/// one descends as deep, so the stack grows on the heap as needed.
fn deep<T>(f: impl FnOnce() -> T) -> T {
    // (comparing and hashing check the stack every DEEP_EVERY levels: they are hot)
    stacker::maybe_grow(64 * 1024, 1024 * 1024, f)
}

/// Values are dropped without recursion: a deep value (a long list of enum cells, nested tuples)
/// is taken apart with a stack of its own, so dropping it cannot overflow the thread's stack.
impl Drop for EnumVal {
    fn drop(&mut self) {
        if self.fields.is_empty() {
            return;
        }
        drop_flat(std::mem::take(&mut self.fields));
    }
}

impl Drop for super::Func {
    /// A closure that captured a closure that captured a closure ... (built by `closure` over
    /// 300,000 steps) is dropped without recursion.
    fn drop(&mut self) {
        if let super::Func::Lambda { frame, .. } = self {
            if let Some(vals) = Rc::get_mut(frame) {
                if !vals.is_empty() {
                    drop_flat(std::mem::take(vals));
                }
            }
        }
    }
}

/// Drop `todo` without recursion: the parts only it holds are taken apart into the list, so a
/// chain of any depth (enum cells, closures over closures, tuples holding them) is dropped in a
/// loop.
fn drop_flat(mut todo: Vec<Value>) {
    while let Some(v) = todo.pop() {
        match v {
            Value::Enum(e) => {
                if let Ok(mut e) = Rc::try_unwrap(e) {
                    todo.append(&mut e.fields);
                }
            }
            Value::Tuple(mut t) => {
                if let Some(items) = Rc::get_mut(&mut t) {
                    for x in items.iter_mut() {
                        todo.push(std::mem::replace(x, Value::Bool(false)));
                    }
                }
            }
            Value::Seq(c) => {
                if let Ok(c) = Rc::try_unwrap(c) {
                    todo.extend(c.inner);
                }
            }
            Value::Set(c) => {
                if let Ok(c) = Rc::try_unwrap(c) {
                    todo.extend(c.inner);
                }
            }
            Value::Map(c) => {
                if let Ok(c) = Rc::try_unwrap(c) {
                    for (k, v) in c.inner {
                        todo.push(k);
                        todo.push(v);
                    }
                }
            }
            Value::Func(mut f) => {
                if let Some(super::Func::Lambda { frame, .. }) = Rc::get_mut(&mut f) {
                    if let Some(vals) = Rc::get_mut(frame) {
                        todo.append(vals);
                    }
                }
            }
            other => drop(other),
        }
    }
}

/// Pairs of small integers and of field-less enum constants (squares `(7, 6)`, pieces `(歩, 3)`,
/// places `(stand, 先手)`) are made once and shared: a position of the rules holds forty of them as
/// keys, and a perft by the rules makes millions. Sharing saves their memory and lets equal pairs
/// compare by address.
const INTERNED_PAIRS: usize = 1 << 14;

/// A value that a pair may be interned with, as a number: small integers, and constants of enums
/// without fields (one shared value each, so their address names them while the pair holds them).
fn atom_id(v: &Value) -> Option<u64> {
    match v {
        Value::Int(i) if (-64..=1024).contains(i) => Some((*i + 64) as u64),
        Value::Bool(b) => Some(2048 + *b as u64),
        Value::Enum(e) if e.fields.is_empty() || e.shared => Some(Rc::as_ptr(e) as usize as u64),
        _ => None,
    }
}

/// The shared pairs, by the numbers of their two atoms.
type Pairs = rustc_hash::FxHashMap<(u64, u64), Rc<[Value]>>;

/// The shared enum values, by enum, tag and the numbers of their fields.
type SharedEnums = rustc_hash::FxHashMap<(EnumId, u32, [u64; 3]), Value>;

/// Enum values shared at most (see `Value::enum_value`).
const INTERNED_ENUMS: usize = 1 << 14;

thread_local! {
    static SHARED_ENUMS: std::cell::RefCell<SharedEnums> = std::cell::RefCell::new(Default::default());
    static PAIRS: std::cell::RefCell<Pairs> = std::cell::RefCell::new(Default::default());
}

/// The shared pair of two atoms (see `atom_id`); past `INTERNED_PAIRS` pairs, a new one is made.
fn interned_pair(x: u64, y: u64, v: impl FnOnce() -> Vec<Value>) -> Rc<[Value]> {
    PAIRS.with(|p| {
        let mut p = p.borrow_mut();
        if let Some(t) = p.get(&(x, y)) {
            return t.clone();
        }
        let t: Rc<[Value]> = Rc::from(v());
        if p.len() < INTERNED_PAIRS {
            p.insert((x, y), t.clone());
        }
        t
    })
}
