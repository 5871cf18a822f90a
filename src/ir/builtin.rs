#![forbid(unsafe_code)]
//! The built-in functions every rule file can call: their names, arities and one-line docs.

macro_rules! builtins {
    ($($v:ident = $name:literal, $arity:expr, $doc:literal;)*) => {
        /// Functions every rule file can call.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin { $(#[doc = $doc] $v),* }
        impl Builtin {
            /// Every built-in, in the order of the table below.
            pub const ALL: &'static [Builtin] = &[$(Builtin::$v),*];
            /// The name rule files call it by.
            pub fn name(self) -> &'static str {
                match self { $(Builtin::$v => $name),* }
            }
            /// How many arguments it takes.
            pub fn arity(self) -> usize {
                match self { $(Builtin::$v => $arity),* }
            }
            /// What it computes, in a line (hover and completion text).
            pub fn doc(self) -> &'static str {
                match self { $(Builtin::$v => $doc),* }
            }
            /// The built-in called `n`, if any.
            pub fn from_name(n: &str) -> Option<Builtin> {
                match n { $($name => Some(Builtin::$v),)* _ => None }
            }
        }
    };
}

builtins! {
    Len = "len", 1, "number of elements of a sequence, set, map or string";
    Size = "size", 1, "number of elements of a collection (same as len)";
    Keys = "keys", 1, "the set of keys of a map";
    Values = "values", 1, "the set of values of a map";
    ToSet = "set", 1, "the set of elements of a sequence or set";
    ToSeq = "seq", 1, "the elements of a set or sequence as a sequence, in order";
    Sort = "sort", 1, "a sequence sorted in ascending order";
    Rev = "rev", 1, "a sequence reversed";
    First = "first", 1, "the first element of a sequence";
    Last = "last", 1, "the last element of a sequence";
    Take = "take", 2, "take(s, n): the first n elements of s";
    Drop = "drop", 2, "drop(s, n): s without its first n elements";
    Zip = "zip", 2, "pairs of corresponding elements of two sequences";
    Abs = "abs", 1, "absolute value";
    Sign = "sign", 1, "-1, 0 or 1";
    Powerset = "powerset", 1, "all subsets of a set";
    Functions = "functions", 2, "functions(A, B): every map from A to B";
    Product = "product", 2, "product(A, B): all pairs (a, b)";
    Get = "get", 3, "get(m, k, d): m(k) if k is a key of m, else d";
    UnionAll = "union_all", 1, "the union of a set (or sequence) of sets";
    Sum = "sum", 1, "the sum of a collection of integers";
    Min = "min", 1, "the least element of a non-empty collection";
    Max = "max", 1, "the greatest element of a non-empty collection";
    Count = "count", 1, "number of elements of a collection";
    The = "the", 1, "the only element of a one-element set";
    Str = "str", 1, "a value as text";
    Error = "error", 1, "stop with an error message";
    IndexOf = "index_of", 2, "index_of(s, x): the 1-based position of x in s, 0 if absent";
}
