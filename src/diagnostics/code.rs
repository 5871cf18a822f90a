#![forbid(unsafe_code)]
//! The diagnostic codes by name: a constant for each code of the catalogue
//! (`catalogue/codes.rs`, whose names they spell in upper case), so that a call site names the
//! code it reports and tests/suite/codes.rs can hold the two together.

/// E0001: the text does not follow the grammar of the rule language.
pub const SYNTAX_ERROR: &str = "E0001";
/// E0002: the parser met a grammar rule it has no reading for.
pub const UNEXPECTED_SYNTAX_NODE: &str = "E0002";
/// E0003: an integer literal does not fit in 64 bits.
pub const NUMBER_TOO_LARGE: &str = "E0003";
/// E0004: a rule file holds no items.
pub const EMPTY_RULE_FILE: &str = "E0004";
/// E0005: a source text is larger than 16 MiB.
pub const SOURCE_TOO_LARGE: &str = "E0005";
/// E0006: a rule file is not UTF-8 text (a NUL byte, or invalid UTF-8).
pub const NOT_TEXT: &str = "E0006";
/// E0007: an expression is nested more than 2000 levels deep.
pub const NESTING_TOO_DEEP: &str = "E0007";
/// E0008: `.0` names a tuple component, but components are numbered from 1.
pub const TUPLE_COMPONENT_ZERO: &str = "E0008";
/// E0009: a sequence in brackets holds `key: value` entries.
pub const MAP_ENTRIES_IN_SEQUENCE: &str = "E0009";
/// E0010: a file given or `use`d does not exist or cannot be read.
pub const CANNOT_READ_FILE: &str = "E0010";
/// E0011: a folder given as rules holds no `.rule` files.
pub const NO_RULE_FILES_IN_FOLDER: &str = "E0011";
/// E0012: a path names something other than a regular file okite may read.
pub const NOT_A_RULE_FILE: &str = "E0012";
/// E0013: a line given to the REPL is longer than okite reads at once.
pub const INPUT_TOO_LONG: &str = "E0013";
/// E0100: a name is neither defined nor bound.
pub const UNKNOWN_NAME: &str = "E0100";
/// E0101: a name, a reading or an override is defined twice.
pub const DEFINED_TWICE: &str = "E0101";
/// E0102: a call, an override, a type or a binding has the wrong number of arguments.
pub const WRONG_ARITY: &str = "E0102";
/// E0103: there is no reading of that name.
pub const UNKNOWN_READING: &str = "E0103";
/// E0104: a reading overrides a name that is not defined.
pub const OVERRIDE_OF_NOTHING: &str = "E0104";
/// E0106: a variable would shadow another, or has the name of an enum constant.
pub const BAD_BINDING: &str = "E0106";
/// E0107: a reading inherits two different overrides of one definition.
pub const AMBIGUOUS_OVERRIDE: &str = "E0107";
/// E0108: `base.f` is used outside an override, or without arguments.
pub const MISPLACED_BASE: &str = "E0108";
/// E0109: a reading extends itself, directly or through others.
pub const READING_CYCLE: &str = "E0109";
/// E0110: there is no native function of that path.
pub const UNKNOWN_NATIVE: &str = "E0110";
/// E0111: a type name is not declared, or takes no type arguments.
pub const UNKNOWN_TYPE: &str = "E0111";
/// E0112: a definition and the native function bound to it take different numbers of arguments.
pub const NATIVE_ARITY: &str = "E0112";
/// E0113: a parameter of a `native def` has no type.
pub const NATIVE_PARAMETER_UNTYPED: &str = "E0113";
/// E0114: an alternative in a pattern (`p | q`) binds a variable.
pub const BINDING_IN_ALTERNATIVE: &str = "E0114";
/// E0115: a reading extends more than 10,000 readings, directly or through others.
pub const TOO_MANY_ANCESTORS: &str = "E0115";
/// E0200: an expression has another type than its place requires.
pub const TYPE_MISMATCH: &str = "E0200";
/// E0201: an override has another type than the definition it overrides.
pub const OVERRIDE_TYPE: &str = "E0201";
/// E0202: a value that is not a function, map or sequence is applied to arguments.
pub const NOT_APPLICABLE: &str = "E0202";
/// E0203: `.N` asks a component a tuple does not have, or of a value that is not a tuple.
pub const NO_TUPLE_COMPONENT: &str = "E0203";
/// E0204: a type variable of a signature is made a particular type, or one with another variable.
pub const RIGID_TYPE_VARIABLE: &str = "E0204";
/// E0205: a type alias would have more than 100,000 nodes (the aliases more than 4,000,000 together), or an inferred type is nested more than 1,000 levels deep or takes more than 50,000,000 steps to check.
pub const TYPE_TOO_LARGE: &str = "E0205";
/// E0301: a query ran out of its step budget.
pub const STEP_BUDGET: &str = "E0301";
/// E0302: a query ran out of time.
pub const TIME_BUDGET: &str = "E0302";
/// E0303: a range, powerset or function set is too large to build.
pub const TOO_LARGE_TO_BUILD: &str = "E0303";
/// E0304: calls nest deeper than the depth budget.
pub const DEPTH_BUDGET: &str = "E0304";
/// E0305: a query was interrupted.
pub const INTERRUPTED: &str = "E0305";
/// E0306: the process occupied more memory than allowed.
pub const MEMORY_BUDGET: &str = "E0306";
/// E0307: a value is too large to write as JSON.
pub const TOO_LARGE_TO_WRITE: &str = "E0307";
/// E0310: an operation met a value of a kind it does not take.
pub const RUNTIME_TYPE: &str = "E0310";
/// E0311: a name has no definition under the reading in force.
pub const NO_DEFINITION_UNDER_READING: &str = "E0311";
/// E0312: a native function is not registered, or a definition has no body.
pub const NATIVE_MISSING: &str = "E0312";
/// E0313: a native function refused its arguments.
pub const NATIVE_REFUSED: &str = "E0313";
/// E0314: an index, slice, tuple component or map key is not there.
pub const OUT_OF_RANGE: &str = "E0314";
/// E0315: a value matches no pattern: a `let`, a `match` or a lambda parameter.
pub const NO_MATCH: &str = "E0315";
/// E0316: `min`/`max` over an empty domain, or `the` of a collection without exactly one element.
pub const EMPTY_OR_NOT_ONE: &str = "E0316";
/// E0317: division or `mod` by zero.
pub const DIVISION_BY_ZERO: &str = "E0317";
/// E0318: the rules called `error`.
pub const ERROR_CALLED: &str = "E0318";
/// E0319: an integer operation overflowed 64 bits.
pub const INTEGER_OVERFLOW: &str = "E0319";
/// E0320: a call re-enters itself with the same arguments.
pub const CYCLE: &str = "E0320";
/// E0330: under `--verify`, a native function and its rule definition gave different values.
pub const NATIVE_DISAGREES: &str = "E0330";
/// E0401: a position given as SFEN cannot be read.
pub const BAD_SFEN: &str = "E0401";
/// E0402: a shogi move given in USI is not a move, or not a move of its position.
pub const BAD_MOVE: &str = "E0402";
/// E0403: a game record (KIF, KI2 or CSA) cannot be read.
pub const BAD_GAME_RECORD: &str = "E0403";
/// E0404: a position is given, but the rules loaded cannot hold shogi states.
pub const RULES_WITHOUT_SHOGI: &str = "E0404";
/// E0405: a side has two pawns on a file or a piece with nowhere to go.
pub const FORBIDDEN_START: &str = "E0405";
/// E0406: a board variant's tables cannot be compiled, or no such variant is shipped.
pub const BAD_VARIANT: &str = "E0406";
/// E0501: a Go graph, move list or record given cannot be read, or does not fit the graph.
pub const BAD_GRAPH: &str = "E0501";
/// E0502: a Go move given in the REPL or to `okite go show --moves` is not a vertex of the graph, or not legal.
pub const BAD_GO_MOVE: &str = "E0502";
/// E0601: `okite codes` was asked for a code it does not know.
pub const UNKNOWN_CODE: &str = "E0601";
/// E0602: an option of the command is malformed, out of range, or missing.
pub const BAD_OPTION: &str = "E0602";
/// E0603: a folder or file cannot be written, or a stream cannot be read or written.
pub const CANNOT_WRITE: &str = "E0603";
/// E0604: the graph is larger than the engine that would answer can enumerate.
pub const ENGINE_LIMIT: &str = "E0604";
/// E0605: a search passed its budget before proving a value.
pub const SEARCH_BUDGET: &str = "E0605";
/// E0606: the rules gave a value of another shape than the command reads.
pub const UNEXPECTED_VALUE: &str = "E0606";
/// E0607: the mate search cannot follow `mate_in` under the reading with the rules loaded.
pub const ENGINE_CANNOT_FOLLOW: &str = "E0607";
/// E0608: under a variant, the rules failed on a position a native engine asked them about.
pub const RULES_FAILED_IN_SEARCH: &str = "E0608";
/// E0609: under `okite legal --verify`, the native move generator and the rules give different moves.
pub const ENGINES_DISAGREE: &str = "E0609";
/// E0610: the mate search could not start the thread it runs on.
pub const NO_SEARCH_THREAD: &str = "E0610";
/// E0611: a native count or search would occupy more memory than allowed.
pub const ENGINE_MEMORY: &str = "E0611";
/// E0612: the tsume checker cannot follow a convention with the rules loaded.
pub const CONVENTION_CANNOT_FOLLOW: &str = "E0612";
/// E0613: the solution given to `okite tsume` is not a line of checks ending in the attacker's move.
pub const BAD_SOLUTION: &str = "E0613";
/// E0614: `okite tsume` was given no solution and the mate search found none to examine.
pub const NO_TSUME_LINE: &str = "E0614";
/// E0615: the results file of `okite go classes --results` cannot be read or written.
pub const RESULTS_FILE: &str = "E0615";
/// I0001: definitions are recursive (a note shown by `okite check --notes`).
pub const RECURSION: &str = "I0001";
/// T0001: an `assert` of an example is false.
pub const ASSERTION_FAILED: &str = "T0001";
/// T0002: a theorem is false for some values of its variables.
pub const THEOREM_FAILS: &str = "T0002";
/// T0003: a `let` of an example does not match its value.
pub const EXAMPLE_LET_MISMATCH: &str = "T0003";
