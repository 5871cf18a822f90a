//! The table of the codes: each one's name, meaning and explanation, and an input that
//! produces it.

use super::*;
use Phase::*;

/// Every code, in order.
pub static CODES: &[Code] = &[
    error(
        "E0001",
        "syntax-error",
        Syntax,
        "the text does not follow the grammar of the rule language",
        "The parser stopped where the text can no longer be read as the language: the label \
         points at what it found and the message lists what it expected there. docs/LANGUAGE.md \
         gives the syntax.",
        check("def f(x) = x +\n"),
    ),
    error(
        "E0002",
        "unexpected-syntax-node",
        Syntax,
        "the parser met a grammar rule it has no reading for",
        "An internal error: the grammar accepted a form that the syntax-tree builder does not \
         handle. Please report the input.",
        Trigger::Guard(
            "the builder handles every rule the grammar produces; it guards a grammar and \
             builder that disagree",
        ),
    ),
    error(
        "E0003",
        "number-too-large",
        Syntax,
        "an integer literal does not fit in 64 bits",
        "Integers are signed 64-bit: from -9223372036854775808 to 9223372036854775807. The same \
         code reports a tuple component number (`.N`) that large.",
        check("def f = 99999999999999999999\n"),
    ),
    error(
        "E0004",
        "empty-rule-file",
        Syntax,
        "a rule file holds no items",
        "A rule file holds definitions (`def`), enums, types, readings, examples or theorems; one \
         with only comments or blank space is probably a mistake.",
        check(""),
    ),
    error(
        "E0005",
        "source-too-large",
        Syntax,
        "a source text is larger than 16 MiB",
        "The parser refuses texts over 16 MiB before reading them. Split the rules into several \
         files joined by `use`.",
        Trigger::Library(
            "a text over 16 MiB handed to the parser (`load_str`, `parse_file`); the command \
             line refuses files that large before parsing them (E0012), and its arguments are \
             far shorter",
        ),
    ),
    error(
        "E0006",
        "not-text",
        Syntax,
        "a rule file is not UTF-8 text (a NUL byte, or invalid UTF-8)",
        "Rule files are UTF-8 text. A NUL byte or a byte sequence that is not UTF-8 means the \
         file given is not a rule file (or was saved in another encoding).",
        check("def f = 1\n\0"),
    ),
    error(
        "E0007",
        "nesting-too-deep",
        Syntax,
        "an expression is nested more than 2000 levels deep",
        "Brackets, nested forms (`let`, `if`, quantifiers...) and chains of operators, prefixes \
         and postfixes (`1 + 1 + ...`, `not not ...`, `x[1][1]...`, `m with {...} with {...}`), \
         which nest as deeply as brackets do, are refused past 2000 levels before parsing, so \
         that no part of okite can run out of stack on them. Name intermediate results with \
         `def` or `let`.",
        check(concat!(
            "def f =\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n",
            "1\n"
        )),
    ),
    error(
        "E0008",
        "tuple-component-zero",
        Syntax,
        "`.0` names a tuple component, but components are numbered from 1",
        "Tuple components are `.1`, `.2`...: write `.1` for the first.",
        check("def f = (1, 2).0\n"),
    ),
    error(
        "E0009",
        "map-entries-in-sequence",
        Syntax,
        "a sequence in brackets holds `key: value` entries",
        "Sequences are written `[a, b]`; maps take braces: `{ k: v }`.",
        check("def f = [1: 2]\n"),
    ),
    error(
        "E0010",
        "cannot-read-file",
        Load,
        "a file given or `use`d does not exist or cannot be read",
        "Rule files, folders, game records (`--kif`, `--csa`, `--sgf`), the positions of \
         `okite mate --batch` and `use \"...\"` paths must name readable files (`use` paths are \
         relative to the file that says them). Without `--rules`, the shipped rules are used; a \
         shipped file that does not exist is reported the same way.",
        cli(None, &["check", "missing.rule"]),
    ),
    error(
        "E0011",
        "no-rule-files-in-folder",
        Load,
        "a folder given as rules holds no `.rule` files",
        "A folder stands for the `*.rule` files directly inside it; this one has none.",
        cli(None, &["check", "."]),
    ),
    error(
        "E0012",
        "not-a-rule-file",
        Load,
        "a path names something other than a regular file okite may read",
        "Rule files, records (KIF, CSA, SGF) and batches of positions are regular files of at \
         most 16 MiB (batches 256 MiB); devices, FIFOs and larger files are refused before they \
         are read, so that reading always ends.",
        cli(None, &["check", "/dev/null"]),
    ),
    error(
        "E0013",
        "input-too-long",
        Load,
        "a line given to the REPL is longer than okite reads at once",
        "The REPL reads its input line by line; a line, or an unfinished input across lines, of \
         more than 16 MiB is read to its end without being kept and skipped (a stream without \
         line ends takes no memory). A piped script then exits with status 1.",
        Trigger::Library(
            "more than 16 MiB piped to `okite repl` on one line; the test pipes it rather than \
             writing it into an example",
        ),
    ),
    error(
        "E0100",
        "unknown-name",
        Check,
        "a name is neither defined nor bound",
        "The name is not a definition, an enum constant, a parameter or a variable bound by \
         `let`, a quantifier or a pattern in scope. The help suggests the nearest name. At run \
         time the same code marks an expression that did not check (never evaluated: a program \
         with errors does not run).",
        check("def opposite(t: Int) -> Int = 0 - t\ndef g = opposit(1)\n"),
    ),
    error(
        "E0101",
        "defined-twice",
        Check,
        "a name, a reading or an override is defined twice",
        "Names are shared by all loaded files. To state a variant of a definition, override it in \
         a reading instead of defining it again.",
        check("def f = 1\ndef f = 2\n"),
    ),
    error(
        "E0102",
        "wrong-arity",
        Check,
        "a call, an override, a type or a binding has the wrong number of arguments",
        "A call gives a different number of arguments than the function takes; an override takes \
         a different number of parameters than the definition it overrides; `Set`, `Seq` and \
         `Map` get the wrong number of type arguments; or `native f = path` names no definition. \
         At run time, a function value applied to the wrong number of arguments.",
        check("def add(a: Int, b: Int) -> Int = a + b\ndef g = add(1)\n"),
    ),
    error(
        "E0103",
        "unknown-reading",
        Check,
        "there is no reading of that name",
        "`--reading`, `extends` and `:reading` name readings declared in the loaded rules (`base` \
         is always there). The help lists them.",
        cli(
            Some("def f = 1\n"),
            &["eval", "f", "--rules", "ex.rule", "--reading", "narow"],
        ),
    ),
    error(
        "E0104",
        "override-of-nothing",
        Check,
        "a reading overrides a name that is not defined",
        "`override def f` replaces an existing definition under the reading; `f` must be defined \
         outside it. Use `def` inside the reading for a new name.",
        check("def mate = true\nreading broad { override def mat = false }\n"),
    ),
    error(
        "E0106",
        "bad-binding",
        Check,
        "a variable would shadow another, or has the name of an enum constant",
        "Variables may not shadow variables in scope, and may not take the name of an enum \
         constant (which patterns read as the constant). Choose another name.",
        check("def f(x: Int) -> Int = let x = 1 in x\n"),
    ),
    error(
        "E0107",
        "ambiguous-override",
        Check,
        "a reading inherits two different overrides of one definition",
        "A reading that extends several readings inherits their overrides; when two of them \
         override the same definition and neither extends the other, the reading must override \
         it itself to say which one holds.",
        check(
            "def f = 1\nreading a { override def f = 2 }\nreading b { override def f = 3 }\n\
             reading c extends a, b { }\n",
        ),
    ),
    error(
        "E0108",
        "misplaced-base",
        Check,
        "`base.f` is used outside an override, or without arguments",
        "`base.f(x)` calls the definition an override replaces, so it is meaningful only inside \
         an override in a reading, and only called.",
        check("def g(x: Int) -> Int = x\ndef f = base.g(1)\n"),
    ),
    error(
        "E0109",
        "reading-cycle",
        Check,
        "a reading extends itself, directly or through others",
        "`extends` must form no cycle: a reading extends readings declared without it.",
        check("def f = 1\nreading a extends b { }\nreading b extends a { }\n"),
    ),
    error(
        "E0110",
        "unknown-native",
        Check,
        "there is no native function of that path",
        "`native def f(...) = path` and `native f = path` name a native function okite has; \
         `okite natives --all` lists them.",
        check("def f(x: Int) -> Int = x\nnative f = core.nope\n"),
    ),
    error(
        "E0111",
        "unknown-type",
        Check,
        "a type name is not declared, or takes no type arguments",
        "Types are Bool, Int, Nat, Str, Set<T>, Seq<T>, Map<K, V>, tuples, function types, enums, \
         `type` aliases and native types (`type Name`). Only Set, Seq and Map take arguments.",
        check("def f(x: Foo) -> Int = 1\n"),
    ),
    error(
        "E0112",
        "native-arity",
        Check,
        "a definition and the native function bound to it take different numbers of arguments",
        "A native function stands for a definition, so both take the same parameters; \
         `okite natives --all` shows each native function's arity.",
        check("def f(x: Int) -> Int = x\nnative f = core.count_paths\n"),
    ),
    error(
        "E0113",
        "native-parameter-untyped",
        Check,
        "a parameter of a `native def` has no type",
        "A native function has no rule body to infer its types from: write `name: Type` for \
         each parameter.",
        check("native def f(s: Set<Int>, m) -> Set<Int> = core.reachable\n"),
    ),
    error(
        "E0114",
        "binding-in-alternative",
        Check,
        "an alternative in a pattern (`p | q`) binds a variable",
        "The alternatives of a pattern could bind different variables, so none may bind any. \
         Match the alternatives with separate arms.",
        check("def f(x: Int) -> Int = match x { 1 | y => 0 }\n"),
    ),
    error(
        "E0115",
        "too-many-ancestors",
        Check,
        "a reading extends more than 10,000 readings, directly or through others",
        "Each reading is checked against every reading it extends, and its definitions are \
         resolved through them in order; past 10,000 of them (a chain of `extends` that long) \
         the reading is refused, and so are the readings that extend it. Group the overrides \
         into fewer readings.",
        Trigger::Library(
            "a rule file of 10,002 readings, each extending the one before (tests/suite/codes.rs \
             builds it)",
        ),
    ),
    error(
        "E0200",
        "type-mismatch",
        Types,
        "an expression has another type than its place requires",
        "The message says the type expected and the type found; the help says why that type is \
         expected (a declared return type, an operator, a condition...).",
        check("def f(n: Int) -> Bool = n + 1\n"),
    ),
    error(
        "E0201",
        "override-type",
        Types,
        "an override has another type than the definition it overrides",
        "All the definitions of a name, in the base and in every reading, share one type: an \
         override may change the body, not the type.",
        check("def f(x: Int) -> Int = x\nreading r { override def f(x: Int) -> Bool = true }\n"),
    ),
    error(
        "E0202",
        "not-applicable",
        Types,
        "a value that is not a function, map or sequence is applied to arguments",
        "Only functions, maps (to a key) and sequences (to an index from 1) can be applied.",
        check("def f = 1(2)\n"),
    ),
    error(
        "E0203",
        "no-tuple-component",
        Types,
        "`.N` asks a component a tuple does not have, or of a value that is not a tuple",
        "Tuple components are numbered from 1 to the tuple's length, and only tuples have them.",
        check("def f = (1, 2).3\n"),
    ),
    error(
        "E0204",
        "rigid-type-variable",
        Types,
        "a type variable of a signature is made a particular type, or one with another variable",
        "A lowercase letter in a signature (`def first(s: Seq<a>) -> a`) stands for any type: \
         the definition must work whatever it is. A body that needs it to be one type (or two \
         letters to be the same) contradicts its signature.",
        check("def bad(x: a) -> b = x\n"),
    ),
    error(
        "E0205",
        "type-too-large",
        Types,
        "a type alias would have more than 100,000 nodes (the aliases more than 4,000,000 together), or an inferred type is nested more than 1,000 levels deep or takes more than 50,000,000 steps to check",
        "An alias is replaced by what it names wherever it is used, so an alias that names another \
         twice doubles it: seventeen lines would make a type of 131,071 nodes, forty a type of a \
         trillion. Name smaller types, or declare an enum. Inferred types share their parts (a \
         definition `(p, p)` costs no more than `p`), but each definition that puts another's \
         value in a set, a sequence or a tuple nests its type one level deeper, and the checker \
         goes no deeper than 1,000 levels.",
        check("type T0 = Int\ntype T1 = (T0, T0)\ntype T2 = (T1, T1)\ntype T3 = (T2, T2)\ntype T4 = (T3, T3)\ntype T5 = (T4, T4)\ntype T6 = (T5, T5)\ntype T7 = (T6, T6)\ntype T8 = (T7, T7)\ntype T9 = (T8, T8)\ntype T10 = (T9, T9)\ntype T11 = (T10, T10)\ntype T12 = (T11, T11)\ntype T13 = (T12, T12)\ntype T14 = (T13, T13)\ntype T15 = (T14, T14)\ntype T16 = (T15, T15)\n"),
    ),
    error(
        "E0301",
        "step-budget",
        Budget,
        "a query ran out of its step budget",
        "Every evaluation step counts against `--max-steps`. Raise it, or ask a smaller question \
         (a smaller domain, a shorter game).",
        cli(
            Some("def count_to(n: Int) -> Int = sum i in 1..n: i\n"),
            &[
                "eval",
                "count_to(100000)",
                "--rules",
                "ex.rule",
                "--max-steps",
                "1000",
            ],
        ),
    ),
    error(
        "E0302",
        "time-budget",
        Budget,
        "a query ran out of time",
        "A query runs for at most `--timeout-ms` milliseconds. Raise it, or ask a smaller \
         question.",
        cli(
            Some("def count_to(n: Int) -> Int = sum i in 1..n: sum j in 1..n: i * j\n"),
            &[
                "eval",
                "count_to(20000)",
                "--rules",
                "ex.rule",
                "--timeout-ms",
                "1",
            ],
        ),
    ),
    error(
        "E0303",
        "too-large-to-build",
        Budget,
        "a range, powerset or function set is too large to build",
        "Ranges hold at most 50 million elements, `powerset` takes sets of at most 20 elements \
         and `functions(A, B)` lists at most 50 million maps: they are built in memory.",
        cli(None, &["eval", "powerset(1..21)"]),
    ),
    error(
        "E0304",
        "depth-budget",
        Budget,
        "calls nest deeper than the depth budget",
        "Calls nest at most `--max-depth` deep. The recursion may not end; if it does, raise the \
         limit.",
        cli(
            Some("def down(n: Int) -> Int = if n == 0 then 0 else down(n - 1) + 1\n"),
            &[
                "eval",
                "down(100)",
                "--rules",
                "ex.rule",
                "--max-depth",
                "10",
            ],
        ),
    ),
    error(
        "E0305",
        "interrupted",
        Budget,
        "a query was interrupted",
        "Ctrl-C stops the query running in the REPL (its memo tables are kept). A query typed at \
         the prompt then prints `interrupted`; an example or theorem defined in the REPL reports \
         this diagnostic. Ctrl-C during `:load`, `:reload` or a definition typed at the prompt \
         stops the check of the rules between two definitions; the REPL says `interrupted; the \
         rules were kept as they were` and goes on with the rules it had.",
        Trigger::Library(
            "Ctrl-C while `okite repl` runs an example or theorem just defined; the tests raise \
             the evaluator's interrupt flag instead",
        ),
    ),
    error(
        "E0306",
        "memory-budget",
        Budget,
        "the process occupied more memory than allowed",
        "The resident memory of the process is read every 2^20 steps, and as comprehensions, \
         closures and the built-ins that build sets (`powerset`, `functions`, `product`, \
         ranges) grow, every 8 MiB they build; a built-in whose result cannot fit (estimated \
         before it is built) is refused at once. Past `--max-resident-mb` (4096 by default) the \
         query ends. Raise the bound, or ask a smaller question.",
        cli(
            Some("def count_to(n: Int) -> Int = size(1..n)\n"),
            &[
                "eval",
                "count_to(3000000)",
                "--rules",
                "ex.rule",
                "--max-resident-mb",
                "1",
            ],
        ),
    ),
    error(
        "E0307",
        "too-large-to-write",
        Budget,
        "a value is too large to write as JSON",
        "`--json` writes a value in full, and a value made of shared parts (`(p, p)` over and \
         over) is far longer written out than it is stored: one of more than 50,000,000 parts \
         written out is refused. Ask for a part of it, or its size; without `--json` its text \
         is shown cut.",
        cli(
            Some("def p0 = 1\ndef p1 = (p0, p0)\ndef p2 = (p1, p1)\ndef p3 = (p2, p2)\ndef p4 = (p3, p3)\ndef p5 = (p4, p4)\ndef p6 = (p5, p5)\ndef p7 = (p6, p6)\ndef p8 = (p7, p7)\ndef p9 = (p8, p8)\ndef p10 = (p9, p9)\ndef p11 = (p10, p10)\ndef p12 = (p11, p11)\ndef p13 = (p12, p12)\ndef p14 = (p13, p13)\ndef p15 = (p14, p14)\ndef p16 = (p15, p15)\ndef p17 = (p16, p16)\ndef p18 = (p17, p17)\ndef p19 = (p18, p18)\ndef p20 = (p19, p19)\ndef p21 = (p20, p20)\ndef p22 = (p21, p21)\ndef p23 = (p22, p22)\ndef p24 = (p23, p23)\ndef p25 = (p24, p24)\ndef p26 = (p25, p25)\ndef p27 = (p26, p26)\ndef p28 = (p27, p27)\ndef p29 = (p28, p28)\ndef p30 = (p29, p29)\ndef p31 = (p30, p30)\ndef p32 = (p31, p31)\ndef p33 = (p32, p32)\ndef p34 = (p33, p33)\ndef p35 = (p34, p34)\ndef p36 = (p35, p35)\ndef p37 = (p36, p36)\ndef p38 = (p37, p37)\ndef p39 = (p38, p38)\ndef p40 = (p39, p39)\n"),
            &["eval", "p40", "--rules", "ex.rule", "--json"],
        ),
    ),
    error(
        "E0310",
        "runtime-type",
        Eval,
        "an operation met a value of a kind it does not take",
        "The checker rules out almost all of these; what remains are builtins whose argument is \
         the wrong shape at run time, such as `min` or `max` of an empty collection. The help \
         says what the operation takes.",
        cli(None, &["eval", "min({})"]),
    ),
    error(
        "E0311",
        "no-definition-under-reading",
        Eval,
        "a name has no definition under the reading in force",
        "A name defined only inside a reading (with `def`, not `override def`) has no meaning \
         under the others; choose that reading with `--reading`. `base.f` with no definition in \
         a parent reading is reported the same way.",
        cli(
            Some("def f = 1\nreading r { def h = 2 }\n"),
            &["eval", "h", "--rules", "ex.rule"],
        ),
    ),
    error(
        "E0312",
        "native-missing",
        Eval,
        "a native function is not registered, or a definition has no body",
        "An internal error: the definition called has neither a native function this build \
         registers nor a rule body.",
        Trigger::Guard(
            "the checker refuses unknown native paths (E0110) and every other definition has a \
             body",
        ),
    ),
    error(
        "E0313",
        "native-refused",
        Eval,
        "a native function refused its arguments",
        "The message is the native function's: for example `state` given a text that is not an \
         SFEN.",
        cli(None, &["eval", "state(\"xx\")"]),
    ),
    error(
        "E0314",
        "out-of-range",
        Eval,
        "an index, slice, tuple component or map key is not there",
        "Sequences are indexed from 1 to their length, slices `s[i..j]` are inclusive, and a map \
         applied to a key it lacks is an error: use `get(m, k, default)` when a key may be \
         missing.",
        cli(None, &["eval", "[10, 20, 30][4]"]),
    ),
    error(
        "E0315",
        "no-match",
        Eval,
        "a value matches no pattern: a `let`, a `match` or a lambda parameter",
        "A `let` pattern must match its value, and a `match` must have an arm for it (add one, or \
         `_ => ...`).",
        cli(None, &["eval", "match 3 { 1 => 0 }"]),
    ),
    error(
        "E0316",
        "empty-or-not-one",
        Eval,
        "`min`/`max` over an empty domain, or `the` of a collection without exactly one element",
        "`min x in S: e` and `max x in S: e` need a non-empty domain; `the(S)` needs exactly one \
         element.",
        cli(None, &["eval", "the({1, 2})"]),
    ),
    error(
        "E0317",
        "division-by-zero",
        Eval,
        "division or `mod` by zero",
        "`a / 0` and `a mod 0` have no value.",
        cli(None, &["eval", "1 / 0"]),
    ),
    error(
        "E0318",
        "error-called",
        Eval,
        "the rules called `error`",
        "`error(msg)` ends the query with the message given: the rules reached a case they \
         declare impossible or unsupported.",
        cli(None, &["eval", "error(\"no such case\")"]),
    ),
    error(
        "E0319",
        "integer-overflow",
        Eval,
        "an integer operation overflowed 64 bits",
        "Integers are signed 64-bit; arithmetic, sums and counts that leave that range stop \
         instead of wrapping around.",
        cli(None, &["eval", "9223372036854775807 + 1"]),
    ),
    error(
        "E0320",
        "cycle",
        Eval,
        "a call re-enters itself with the same arguments",
        "Evaluation is tabled: a call that is already running with the same arguments would \
         never end. A definition may recurse only on arguments that change; the related notes \
         show each call of the chain.",
        cli(
            Some("def f(n: Int) -> Int = f(n)\n"),
            &["eval", "f(1)", "--rules", "ex.rule"],
        ),
    ),
    error(
        "E0330",
        "native-disagrees",
        Eval,
        "under `--verify`, a native function and its rule definition gave different values",
        "`--verify` (`--engine verify`) computes each bound definition both ways and compares. A \
         difference is a bug in the native function or a rule that changed without its binding \
         turning off: please report it with the arguments shown.",
        Trigger::Library(
            "a native function that disagrees with the shipped rule it stands for (a bug); the \
             tests register a wrong `core.reachable` and evaluate with `--engine verify`",
        ),
    ),
    error(
        "E0401",
        "bad-sfen",
        Input,
        "a position given as SFEN cannot be read",
        "An SFEN has four fields: the board (ranks from 9 to 1, separated by `/`), the side to \
         move (`b` or `w`), the pieces in hand (`-` for none) and the move number; or write \
         `startpos`.",
        cli(None, &["eval", "i", "--sfen", "lnsgkgsnl/9 b - 1"]),
    ),
    error(
        "E0402",
        "bad-move",
        Input,
        "a shogi move given in USI is not a move, or not a move of its position",
        "Moves are written in USI: `7g7f`, `8h2b+`, `P*5e`, each from the position the previous \
         ones reach.",
        cli(
            None,
            &["eval", "i", "--sfen", "startpos", "--moves", "7g7f 7g7f"],
        ),
    ),
    error(
        "E0403",
        "bad-game-record",
        Input,
        "a game record (KIF, KI2 or CSA) cannot be read",
        "The label points at the line of the record that could not be read as a move or a \
         header. Each position of a record follows from the one before by one move of the \
         pieces: a move the rules forbid (two pawns on a file, a pawn drop that mates, the own \
         king left in check) is read and left to the rules to judge, but a move the pieces \
         cannot make (a piece that cannot reach the square, a drop of a piece not in hand) is \
         refused, except as the last move of the record, which `okite game` reads and reports \
         as illegal. A move written without its origin (KI2, `▲５八金右`) must name one piece. \
         Records are UTF-8 or Shift-JIS text; an empty record or a CSA board cut short is \
         refused.",
        Trigger::Cli(Example {
            name: "game.csa",
            file: Some("V2.2\nPI\n+\n+7776XX\n"),
            args: &["eval", "i", "--csa", "game.csa"],
            stdin: None,
        }),
    ),
    error(
        "E0404",
        "rules-without-shogi",
        Input,
        "a position is given, but the rules loaded cannot hold shogi states",
        "`--sfen`, `--moves`, `--kif` and `--csa` bind the game `g`, which needs the shogi \
         rules (rules/shogi.rule) loaded; so do `perft`, `legal` and `game` where the rules \
         answer.",
        cli(
            Some("def f = 1\n"),
            &["eval", "f", "--rules", "ex.rule", "--sfen", "startpos"],
        ),
    ),
    error(
        "E0405",
        "forbidden-start",
        Input,
        "a side has two pawns on a file or a piece with nowhere to go",
        "Under the rules every move of that side is forbidden while the pieces stay (for the \
         side not to move, from its first turn on), while the engines' move generator and \
         searches assume a start that can arise; `perft`, `legal`, `mate` and the USI engine \
         refuse it with the reason, so that no command counts moves the rules forbid. A start \
         where the side not to move is in check is searched as the rules define it (capturing \
         the king is no move), by every command alike. The rules themselves take any position (`okite eval \
         --sfen ... 'legal(g, 1)'`); the USI engine answers `go mate` with `checkmate \
         timeout` (no answer found) until a valid position comes.",
        cli(
            None,
            &["perft", "--sfen", "PPPPPPPPP/9/9/9/4k4/9/9/9/4K4 b - 1", "--depth", "1"],
        ),
    ),
    error(
        "E0406",
        "bad-variant",
        Input,
        "a board variant's tables cannot be compiled, or no such variant is shipped",
        "`--variant NAME` loads rules/variants/NAME.rule under its reading NAME; `--rules FILE` \
         loads a variant of your own: a reading of rules/variants/board.rule that overrides its \
         tables (the board, the kinds and faces, each face's rays, promotion, drops, the royal \
         rule and the start). The message names the table that is missing or out of bounds.",
        cli(None, &["perft", "--variant", "nosuch", "--depth", "1"]),
    ),
    error(
        "E0501",
        "bad-graph",
        Input,
        "a Go graph, move list or record given cannot be read, or does not fit the graph",
        "Graphs are written grid:MxN, path:N, cycle:N, complete:N, star:N or edges:FILE; moves as \
         `B 1, W 2`. An SGF record (`okite go show --sgf`) must be for the board of the graph \
         given.",
        cli(None, &["go", "count", "--graph", "grid:2xq"]),
    ),
    error(
        "E0502",
        "bad-go-move",
        Input,
        "a Go move given in the REPL or to `okite go show --moves` is not a vertex of the graph, or not legal",
        "Moves after `:go GRAPH` alternate from Black: vertex names (as `:board` shows them), \
         their numbers 1..n, or `pass`. `okite go show --moves` takes moves such as `B A1, W \
         pass`, vertices named as the diagram draws them.",
        repl(":go grid:2x2 Z9\n"),
    ),
    error(
        "E0601",
        "unknown-code",
        Cli,
        "`okite codes` was asked for a code it does not know",
        "Codes are a letter and four digits, such as E0320; `okite codes` lists them all. A \
         code's name (such as `cycle`) finds it too.",
        cli(None, &["codes", "E0999"]),
    ),
    error(
        "E0602",
        "bad-option",
        Cli,
        "an option of the command is malformed, out of range, or missing",
        "The message names the option and the help line the values it takes: a perft depth \
         that would not finish (at most 12, or 8 where every line's history is followed), a \
         komi that is not a whole or half number, a `--length` other than `shortest` or `any`, \
         a `--hash-mb` of 0 or larger than `--max-resident-mb` or than three quarters of the \
         machine's memory, a `--threads` of 0 or more than 32, `okite mate` without `--sfen` \
         or `--batch`.",
        cli(None, &["perft", "--depth", "13"]),
    ),
    error(
        "E0603",
        "cannot-write",
        Cli,
        "a folder or file cannot be written, or a stream cannot be read or written",
        "`okite rules export DIR` creates DIR and writes the shipped rule files into it; the \
         message gives the system's reason (DIR is a file, a folder without write permission, a \
         full disk), or names the files of DIR that differ from the shipped ones: edited files \
         are not overwritten, and nothing is written, unless `--force` is given. `okite usi` reports the same way when its standard input or output fails. \
         A file that cannot be read is E0010.",
        Trigger::Cli(Example {
            name: "taken",
            file: Some("a file, not a folder\n"),
            args: &["rules", "export", "taken"],
            stdin: None,
        }),
    ),
    error(
        "E0604",
        "engine-limit",
        Cli,
        "the graph is larger than the engine that would answer can enumerate",
        "By the rules, Go counts enumerate the configurations of graphs of at most 16 vertices \
         and `okite go solve` solves graphs of at most 6; the native count of ultimate boards \
         enumerates 3^n configurations of at most 16 vertices. The help line names the engine \
         that goes further, where one does.",
        cli(None, &["go", "count", "--graph", "path:17", "--engine", "rules"]),
    ),
    error(
        "E0605",
        "search-budget",
        Cli,
        "a search passed its budget before proving a value",
        "`okite go solve --nodes N` and `okite go classes --nodes N` bound the positions a \
         search visits, and `okite go solve --time-ms T` its time; the search stopped without a \
         proven value (`go solve` says what it proved: the value lies between two bounds). \
         `okite go classes --vertex-nodes N` bounds each vertex's search: the vertices past it \
         are printed `?` (null, and named in \"unfinished\", in the JSON), the others with \
         their classes, and then the command stops on this error. \
         `okite go sequences --limit N` stops counting past N sequences the same way. `okite go \
         solve --hash-mb M` is the memory of its table: when the system cannot give it, the solve \
         does not start. Raise the budget, or ask of a smaller graph or a later position.",
        cli(None, &["go", "solve", "--graph", "grid:2x2", "--nodes", "1"]),
    ),
    error(
        "E0606",
        "unexpected-value",
        Cli,
        "the rules gave a value of another shape than the command reads",
        "Commands such as `okite go classes --engine rules`, `okite go solve`, `okite legal` and \
         `okite game` evaluate definitions of the shipped rules (`classes`, \
         `margin_half_points`, `legal`, ...) and read their values. Rules loaded with \
         `--rules` that define those names with other types give values the command cannot \
         read; the message shows the value.",
        cli(
            Some(
                "type Graph = Map<Int, Set<Int>>\ntype Config = Map<Int, Int>\n\
                 def classes(G: Graph, r: Seq<Config>) -> Int = 1\n",
            ),
            &[
                "go", "classes", "--graph", "path:2", "--rules", "ex.rule", "--engine", "rules",
            ],
        ),
    ),
    error(
        "E0607",
        "engine-cannot-follow",
        Cli,
        "the mate search cannot follow `mate_in` under the reading with the rules loaded",
        "`okite mate` and `okite usi` run the df-pn search, natively where `mate_in` is the \
         shipped definition of a native reading, or under a variant that keeps the native move \
         generation. Where `mate_in` itself or the moves changed, no search stands for the \
         rules: they answer themselves, without a line, by `okite eval ... 'mate_in(g, i, N)'`. \
         `okite usi` under rules whose moves changed starts with this as a warning: `position` \
         plays the rules' own moves, and `go mate` answers `checkmate notimplemented` with the \
         reason. \
         The Go commands refuse under the same code an SGF record where the rules loaded change \
         how a stone is placed (`place` or `is_board`): a record is replayed natively, and its \
         moves given with --moves are played by the rules.",
        cli(
            Some("def f = 1\n"),
            &[
                "mate", "--rules", "ex.rule", "--reading", "base", "--sfen", "startpos",
            ],
        ),
    ),
    error(
        "E0608",
        "rules-failed-in-search",
        Cli,
        "under a variant, the rules failed on a position a native engine asked them about",
        "Under a variant that keeps the native move generation (`okite perft`, `legal`, `mate`), \
         the engine asks the rules for the parts the variant changed, position by position. \
         When evaluating them fails (an `error` called, a budget passed), the command stops \
         with the message of that failure; `okite eval` on the position shows its place.",
        Trigger::Library(
            "a variant of the shipped rules whose changed definition fails: the tests override \
             `uchifuzume` with `error(...)` and run `okite legal` where a pawn drop mates",
        ),
    ),
    error(
        "E0609",
        "engines-disagree",
        Cli,
        "under `okite legal --verify`, the native move generator and the rules give different moves",
        "`okite legal --verify` computes the legal moves natively and by the rules and \
         compares them; the message lists the moves only one of them gives. The command exits \
         with status 1 (a finding, as a failing `okite test` is) rather than 2. A difference is \
         a bug of the native engine or of its bindings: please report it with the position.",
        Trigger::Guard(
            "the native move generator answers only where the loaded definitions are the shipped \
             ones it is verified against, so that the two agree unless one has a bug",
        ),
    ),
    error(
        "E0610",
        "no-search-thread",
        Cli,
        "the mate search could not start the thread it runs on",
        "The df-pn search runs on a thread of its own with a large stack; the system refused \
         to start it (too little memory, or a limit on threads).",
        Trigger::Guard("the operating system refusing a thread; no input of okite does it"),
    ),
    error(
        "E0611",
        "engine-memory",
        Cli,
        "a native count or search would occupy more memory than allowed",
        "The native board count of a grid keeps the states of its border in memory; they grow \
         about threefold with each cell of the grid's width. `okite go count` estimates them as \
         they grow and reads the process's resident memory as it goes: past `--max-resident-mb` \
         (or when the system refuses the memory) it ends with this diagnostic instead of being \
         killed. A count of regular sequences whose path of boards would pass four million \
         boards ends the same way, and so does the native search of `okite go classes`, whose \
         tables grow with the sequences it has searched: it reads the resident memory as it \
         goes and counts a table's next growth in advance (with `--results`, what it found is \
         kept first). Raise the bound, or count or classify on a smaller graph or a later \
         position.",
        cli(
            None,
            &["go", "count", "--graph", "grid:5x5", "--max-resident-mb", "1"],
        ),
    ),
    error(
        "E0612",
        "convention-cannot-follow",
        Cli,
        "the tsume checker cannot follow a convention with the rules loaded",
        "`okite tsume` judges a problem under the conventions of rules/shogi_tsume.rule (its \
         readings `common`, `common-unique-last`, `common-unique-variations`, `strict`, \
         `strict-unique-last`), natively, \
         where the loaded definitions of the convention are the shipped ones of one of them. \
         Where they changed, the rules answer themselves, without a report: `okite eval ... \
         'tsume_within(g, i, N, futile_uncounted)'`.",
        cli(
            Some("def f = 1\n"),
            &[
                "tsume", "--rules", "ex.rule", "--conventions", "base", "--sfen", "startpos",
            ],
        ),
    ),
    error(
        "E0613",
        "bad-solution",
        Cli,
        "the solution given to `okite tsume` is not a line of checks ending in the attacker's move",
        "Every move of the solution must be written in USI and be legal, each of the attacker's \
         moves must check, and the line must have an odd number of plies (a mate ends on the \
         attacker's move). The message names the first ply that fails.",
        cli(
            None,
            &[
                "tsume", "--sfen", "8k/6S2/7G1/9/+RP7/9/9/9/4K4 b p 1", "--solution", "9e9d",
            ],
        ),
    ),
    error(
        "E0614",
        "no-tsume-line",
        Cli,
        "`okite tsume` was given no solution and the mate search found none to examine",
        "Without `--solution` (or a record's moves) the main line is the shortest mate the df-pn \
         search finds, every interposition counted, within `--max-plies`, `--time-ms` and \
         `--nodes`. The message says whether there is no mate or the limits came first.",
        cli(
            None,
            &[
                "tsume", "--sfen", "4k4/9/9/9/9/9/9/9/4K4 b - 1", "--max-plies", "3",
            ],
        ),
    ),
    error(
        "E0615",
        "results-file",
        Cli,
        "the results file of `okite go classes --results` cannot be read or written",
        "`okite go classes --results FILE` reads the results a run of the proof-number search \
         kept in FILE (when it exists), and keeps this run's there: at the end, every ten \
         minutes while it searches, and as soon as a question that took a search (65,536 \
         sequences or more since the last write) is answered, and when Ctrl-C stops the search \
         (exit status 130). A file is bound to its graph and \
         to the table of classes (the reading), and carries a checksum: a file of another graph \
         or reading, a file damaged or cut short, or a file that is no results file is refused \
         whole, and left as it is. \
         `--read-results FILE` reads more files without writing them. The results are only \
         those of the proof-number search (graphs of up to 16 vertices, the default table or \
         `p-to-chooser`), on one thread.",
        cli(
            Some("def f = 1\n"),
            &["go", "classes", "--graph", "path:3", "--results", "ex.rule"],
        ),
    ),
    Code {
        code: "I0001",
        name: "recursion",
        phase: Check,
        severity: "note",
        meaning: "definitions are recursive (a note shown by `okite check --notes`)",
        explanation: "Recursion is allowed; the note says how it ends: evaluation is tabled, and \
                      recursion through negation ends only if some measure decreases along every \
                      cycle. A call that re-enters itself with the same arguments is E0320.",
        trigger: cli(
            Some("def down(n: Int) -> Int = if n == 0 then 0 else down(n - 1)\n"),
            &["check", "--notes", "ex.rule"],
        ),
    },
    error(
        "T0001",
        "assertion-failed",
        Test,
        "an `assert` of an example is false",
        "`okite test` runs the examples of the rule files; the label shows the values that made \
         the assertion false.",
        cli(
            Some("def f = 1\nexample \"one is two\" { assert f == 2 }\n"),
            &["test", "ex.rule"],
        ),
    ),
    error(
        "T0002",
        "theorem-fails",
        Test,
        "a theorem is false for some values of its variables",
        "`okite test` checks each theorem over its whole (finite) domain; the message gives the \
         counterexample.",
        cli(
            Some("theorem \"all small\" for x in {1, 2, 3}: x < 3\n"),
            &["test", "ex.rule"],
        ),
    ),
    error(
        "T0003",
        "example-let-mismatch",
        Test,
        "a `let` of an example does not match its value",
        "In an example, `let PATTERN = VALUE;` must match; the label shows the value.",
        cli(
            Some("def f = (1, 2)\nexample \"pair\" { let (2, y) = f; assert y == 2 }\n"),
            &["test", "ex.rule"],
        ),
    ),
];
