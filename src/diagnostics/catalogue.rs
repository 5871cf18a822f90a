//! Every diagnostic code okite reports, as data: its name, what it means, the phase that reports
//! it, and an input that produces it. `okite codes` prints this table; a test checks that every
//! code written in the sources is here, and runs every example to see its code come out.
//!
//! This module knows nothing of the language: it is a table, lookups, and the text of the command.

/// When a diagnostic is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading the text of a rule file or a query.
    Syntax,
    /// Finding and reading rule files.
    Load,
    /// Resolving names, readings and native bindings.
    Check,
    /// Type inference.
    Types,
    /// Evaluating a query.
    Eval,
    /// A query passing one of its budgets (steps, time, depth, memory, size).
    Budget,
    /// The examples and theorems of `okite test`.
    Test,
    /// Positions, moves, records and graphs given on the command line or in the REPL.
    Input,
    /// The command line itself.
    Cli,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Syntax => "syntax",
            Phase::Load => "load",
            Phase::Check => "check",
            Phase::Types => "types",
            Phase::Eval => "eval",
            Phase::Budget => "budget",
            Phase::Test => "test",
            Phase::Input => "input",
            Phase::Cli => "cli",
        }
    }
}

/// A command line that produces a code: run `okite ARGS` in an empty folder holding the file
/// `name` with the text `file` (when given), with `stdin` as its input (for `okite repl`).
#[derive(Clone, Copy, Debug)]
pub struct Example {
    /// The name of the file written (`ex.rule` unless the command reads something else).
    pub name: &'static str,
    pub file: Option<&'static str>,
    pub args: &'static [&'static str],
    pub stdin: Option<&'static str>,
}

/// How a code comes about.
#[derive(Clone, Copy, Debug)]
pub enum Trigger {
    /// A short command line produces it.
    Cli(Example),
    /// No short command line produces it; what does (the tests produce it through the library).
    Library(&'static str),
    /// No input produces it: a guard against a state the checker already rules out; why.
    Guard(&'static str),
}

/// One diagnostic code.
#[derive(Clone, Copy, Debug)]
pub struct Code {
    pub code: &'static str,
    /// A short name, in kebab case (`okite codes NAME` finds the code by it).
    pub name: &'static str,
    pub phase: Phase,
    /// `error`, or `note` for information that does not stop anything.
    pub severity: &'static str,
    /// One line: what the diagnostic says.
    pub meaning: &'static str,
    /// More: why it happens and what to do.
    pub explanation: &'static str,
    pub trigger: Trigger,
}

const fn cli(file: Option<&'static str>, args: &'static [&'static str]) -> Trigger {
    Trigger::Cli(Example {
        name: "ex.rule",
        file,
        args,
        stdin: None,
    })
}

const fn check(file: &'static str) -> Trigger {
    cli(Some(file), &["check", "ex.rule"])
}

const fn repl(stdin: &'static str) -> Trigger {
    Trigger::Cli(Example {
        name: "ex.rule",
        file: None,
        args: &["repl"],
        stdin: Some(stdin),
    })
}

const fn error(
    code: &'static str,
    name: &'static str,
    phase: Phase,
    meaning: &'static str,
    explanation: &'static str,
    trigger: Trigger,
) -> Code {
    Code {
        code,
        name,
        phase,
        severity: "error",
        meaning,
        explanation,
        trigger,
    }
}

mod codes;

pub use codes::CODES;

/// The entry of a code (`E0320`, case aside) or of a name (`cycle`).
pub fn lookup(key: &str) -> Option<&'static Code> {
    CODES
        .iter()
        .find(|c| c.code.eq_ignore_ascii_case(key) || c.name.eq_ignore_ascii_case(key))
}

/// The codes nearest to `key` (by code or by name), best first, at most `n`.
pub fn nearest(key: &str, n: usize) -> Vec<&'static Code> {
    let k = key.to_ascii_uppercase();
    let mut scored: Vec<(usize, &Code)> = CODES
        .iter()
        .map(|c| {
            let by_code = super::edit_distance(&k, c.code);
            let by_name = super::edit_distance(&key.to_ascii_lowercase(), c.name);
            (by_code.min(by_name), c)
        })
        .collect();
    scored.sort_by_key(|(d, c)| (*d, c.code));
    scored.into_iter().take(n).map(|(_, c)| c).collect()
}

/// A command-line argument as a shell would need it.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./:=,+@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

impl Example {
    /// The command line, as typed: `okite eval 'f(1)' --rules ex.rule`.
    pub fn command_line(&self) -> String {
        let mut s = String::from("okite");
        for a in self.args {
            s.push(' ');
            s.push_str(&shell_word(a));
        }
        s
    }
}

fn file_shown(text: &str) -> String {
    if text.len() > 400 {
        let head: String = text.chars().take(60).collect();
        format!("{head}… ({} bytes)", text.len())
    } else {
        text.replace('\0', "\\0")
    }
}

impl Code {
    /// One line of the list: code, name, meaning.
    pub fn line(&self) -> String {
        format!("{}  {:<28} {}", self.code, self.name, self.meaning)
    }

    /// The whole entry, as text.
    pub fn text(&self) -> String {
        let mut s = format!(
            "{} {} ({}, {})\n\n{}.\n\n",
            self.code,
            self.name,
            self.phase.name(),
            self.severity,
            capitalised(self.meaning)
        );
        s.push_str(&wrap(self.explanation, 78, ""));
        match &self.trigger {
            Trigger::Cli(ex) => {
                s.push_str("\nExample:\n");
                if let Some(f) = ex.file {
                    s.push_str(&format!("  {}:\n", ex.name));
                    for l in file_shown(f).lines() {
                        s.push_str(&format!("    {l}\n"));
                    }
                }
                s.push_str(&format!("  $ {}\n", ex.command_line()));
                if let Some(input) = ex.stdin {
                    s.push_str("  typed:\n");
                    for l in input.lines() {
                        s.push_str(&format!("    {l}\n"));
                    }
                }
            }
            Trigger::Library(how) => {
                s.push_str(&format!("\nProduced by: {how}.\n"));
            }
            Trigger::Guard(why) => {
                s.push_str(&format!("\nNot produced by any input: {why}.\n"));
            }
        }
        s
    }

    /// The whole entry, as one JSON object.
    pub fn json(&self) -> String {
        let example = match &self.trigger {
            Trigger::Cli(ex) => ExampleJson::Command {
                command: ex.command_line(),
                args: ex.args,
                file_name: ex.name,
                file: ex.file,
                stdin: ex.stdin,
            },
            Trigger::Library(how) => ExampleJson::Library { library: how },
            Trigger::Guard(why) => ExampleJson::Unreachable { unreachable: why },
        };
        crate::json::text(&Entry {
            code: self.code,
            name: self.name,
            phase: self.phase.name(),
            severity: self.severity,
            meaning: self.meaning,
            explanation: self.explanation,
            example,
        })
    }
}

/// An entry of the catalogue as `okite codes --json` writes it.
#[derive(serde::Serialize)]
struct Entry<'a> {
    code: &'a str,
    name: &'a str,
    phase: &'a str,
    severity: &'a str,
    meaning: &'a str,
    explanation: &'a str,
    example: ExampleJson<'a>,
}

/// The input that produces a code: a command line, a library call, or none.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum ExampleJson<'a> {
    Command {
        command: String,
        args: &'a [&'a str],
        file_name: &'a str,
        file: Option<&'a str>,
        stdin: Option<&'a str>,
    },
    Library {
        library: &'a str,
    },
    Unreachable {
        unreachable: &'a str,
    },
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for w in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.chars().count() + 1 + w.chars().count() > width {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(w);
    }
    if !line.is_empty() {
        out.push_str(indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The catalogue as Markdown (docs/DIAGNOSTICS.md).
pub fn markdown() -> String {
    let mut s = String::from(
        "# Diagnostics\n\n\
         Every diagnostic okite reports has a code. `okite codes` lists them, `okite codes CODE` \
         (or a code's name) prints one with an input that produces it, and `--json` prints the \
         same as JSON.\n\n\
         Diagnostics go to standard error, all rendered the same way (the code, the message, \
         the source with labels, a help line); a command that reports an error exits with \
         status 2 (`okite test` exits with 1 when an example or theorem fails, `okite legal \
         --verify` when the engines disagree (E0609); `okite repl` reading a script exits with 1 \
         when a line reported an error).\n\n\
         This file is generated from the table in `src/diagnostics/catalogue/codes.rs` (a test checks \
         that it is up to date: run it with `OKITE_BLESS=1` to rewrite it).\n\n\
         | code | name | phase | meaning |\n|---|---|---|---|\n",
    );
    for c in CODES {
        s.push_str(&format!(
            "| [{}](#{}) | {} | {} | {} |\n",
            c.code,
            c.code.to_ascii_lowercase(),
            c.name,
            c.phase.name(),
            c.meaning.replace('|', "\\|")
        ));
    }
    for c in CODES {
        s.push_str(&format!(
            "\n## {}\n\n`{}` ({}, {}): {}.\n\n{}\n",
            c.code,
            c.name,
            c.phase.name(),
            c.severity,
            c.meaning,
            c.explanation
        ));
        match &c.trigger {
            Trigger::Cli(ex) => {
                s.push_str("\nExample:\n\n");
                if let Some(f) = ex.file {
                    let lang = if ex.name.ends_with(".rule") {
                        "okite"
                    } else {
                        "text"
                    };
                    s.push_str(&format!("```{lang}\n// {}\n{}", ex.name, file_shown(f)));
                    if !f.ends_with('\n') {
                        s.push('\n');
                    }
                    s.push_str("```\n\n");
                }
                s.push_str(&format!("```sh\n{}\n", ex.command_line()));
                if let Some(input) = ex.stdin {
                    s.push_str(input);
                }
                s.push_str("```\n");
            }
            Trigger::Library(how) => s.push_str(&format!("\nProduced by: {how}.\n")),
            Trigger::Guard(why) => s.push_str(&format!("\nNot produced by any input: {why}.\n")),
        }
    }
    s
}
