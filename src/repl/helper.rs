//! Line editing for the REPL: completion, hints, colours and multi-line input.

use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::Hinter;
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

/// The names the editor completes and hints, refreshed whenever the program changes.
#[derive(Default)]
pub struct Names {
    /// Definition names with their one-line signatures.
    pub defs: Vec<(String, String)>,
    pub readings: Vec<String>,
    /// Other names of the language: constructors, enums, builtins.
    pub others: Vec<String>,
}

pub struct ReplHelper {
    pub names: Rc<RefCell<Names>>,
    pub color: bool,
    files: FilenameCompleter,
}

impl ReplHelper {
    pub fn new(names: Rc<RefCell<Names>>, color: bool) -> ReplHelper {
        ReplHelper {
            names,
            color,
            files: FilenameCompleter::new(),
        }
    }
}

impl Helper for ReplHelper {}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\''
}

/// The start of the word (name) that ends at `pos`.
fn word_start(line: &str, pos: usize) -> usize {
    line[..pos]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_name_char(*c))
        .last()
        .map(|(i, _)| i)
        .unwrap_or(pos)
}

/// The commands that take a file path.
const PATH_COMMANDS: &[&str] = &[":load", ":kif", ":csa"];
/// The commands whose first argument is a reading (or readings).
const READING_COMMANDS: &[&str] = &[":reading", ":compare"];

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = &line[..pos];
        if before.starts_with(':') && !before.contains(' ') {
            let v = super::COMMANDS
                .iter()
                .filter(|c| c.name.starts_with(before))
                .map(|c| Pair {
                    display: c.name.to_string(),
                    replacement: format!("{} ", c.name),
                })
                .collect();
            return Ok((0, v));
        }
        let cmd = before.split_whitespace().next().unwrap_or("");
        if PATH_COMMANDS.contains(&cmd) {
            return self.files.complete(line, pos, ctx);
        }
        let names = self.names.borrow();
        if READING_COMMANDS.contains(&cmd)
            && before[cmd.len()..].trim_start().split(' ').count() <= 1
        {
            // readings, after the command or after a comma
            let start = before
                .rfind([' ', ','])
                .map(|i| i + 1)
                .unwrap_or(before.len());
            let prefix = &before[start..];
            let v = names
                .readings
                .iter()
                .filter(|r| r.starts_with(prefix))
                .map(|r| Pair {
                    display: r.clone(),
                    replacement: r.clone(),
                })
                .collect();
            return Ok((start, v));
        }
        let start = word_start(line, pos);
        let prefix = &line[start..pos];
        if prefix.is_empty() {
            return Ok((pos, vec![]));
        }
        let mut v: Vec<Pair> = names
            .defs
            .iter()
            .map(|(n, _)| n)
            .chain(names.others.iter())
            .filter(|n| n.starts_with(prefix))
            .map(|n| Pair {
                display: n.clone(),
                replacement: n.clone(),
            })
            .collect();
        v.sort_by(|a, b| a.display.cmp(&b.display));
        v.dedup_by(|a, b| a.display == b.display);
        Ok((start, v))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        if pos < line.len() {
            return None;
        }
        if line.starts_with(':') {
            // the usage of the command being typed
            let word = line.split(' ').next().unwrap_or("");
            if line.len() == word.len() {
                let c = super::COMMANDS.iter().find(|c| c.name.starts_with(word))?;
                if word.len() < 2 && word != ":" {
                    return None;
                }
                let rest = &c.name[word.len()..];
                let usage = if c.args.is_empty() {
                    String::new()
                } else {
                    format!(" {}", c.args)
                };
                return Some(format!("{rest}{usage}"));
            }
            return None;
        }
        // the signature of the definition whose arguments are being typed, or of the name at
        // the cursor when one definition has it as prefix
        let names = self.names.borrow();
        let start = word_start(line, pos);
        let prefix = &line[start..pos];
        if !prefix.is_empty() {
            let matching: Vec<&(String, String)> = names
                .defs
                .iter()
                .filter(|(n, _)| n.starts_with(prefix))
                .collect();
            if let Some((_, sig)) = matching.iter().find(|(n, _)| n == prefix) {
                return Some(format!("    {sig}"));
            }
            if matching.len() == 1 {
                let (n, sig) = matching[0];
                return Some(format!("{}    {sig}", &n[prefix.len()..]));
            }
            return None;
        }
        // inside an open call: find the name before the innermost unclosed parenthesis
        let mut depth = 0i32;
        for (i, c) in line.char_indices().rev() {
            match c {
                ')' => depth += 1,
                '(' if depth > 0 => depth -= 1,
                '(' => {
                    let s = word_start(line, i);
                    let name = &line[s..i];
                    return names
                        .defs
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, sig)| format!("    {sig}"));
                }
                _ => {}
            }
        }
        None
    }
}

const KEYWORDS: &[&str] = &[
    "def", "let", "in", "if", "then", "else", "match", "all", "any", "count", "sum", "min", "max",
    "and", "or", "not", "implies", "iff", "closure", "by", "with", "true", "false", "type", "enum",
    "reading", "override", "extends", "native", "example", "theorem", "assert", "for", "use",
    "union", "as", "base", "mod",
];

/// ANSI colours for an input line: commands, keywords, numbers, strings and definition names.
pub fn colour_line(line: &str, defs: &[(String, String)]) -> String {
    if line.starts_with(':') {
        let end = line.find(' ').unwrap_or(line.len());
        return format!("\x1b[1;36m{}\x1b[0m{}", &line[..end], &line[end..]);
    }
    let mut out = String::with_capacity(line.len() + 16);
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '"' {
            let mut end = line.len();
            for (j, d) in chars.by_ref() {
                if d == '"' {
                    end = j + 1;
                    break;
                }
            }
            out.push_str(&format!("\x1b[32m{}\x1b[0m", &line[i..end]));
        } else if c == '/' && line[i..].starts_with("//") {
            out.push_str(&format!("\x1b[2m{}\x1b[0m", &line[i..]));
            break;
        } else if c.is_ascii_digit() {
            let mut end = i + 1;
            while let Some((j, d)) = chars.peek() {
                if d.is_ascii_digit() {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            out.push_str(&format!("\x1b[33m{}\x1b[0m", &line[i..end]));
        } else if is_name_char(c) {
            let mut end = i + c.len_utf8();
            while let Some((j, d)) = chars.peek() {
                if is_name_char(*d) {
                    end = j + d.len_utf8();
                    chars.next();
                } else {
                    break;
                }
            }
            let w = &line[i..end];
            if KEYWORDS.contains(&w) {
                out.push_str(&format!("\x1b[35m{w}\x1b[0m"));
            } else if defs.iter().any(|(n, _)| n == w) {
                out.push_str(&format!("\x1b[34m{w}\x1b[0m"));
            } else {
                out.push_str(w);
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.color {
            return Cow::Borrowed(line);
        }
        Cow::Owned(colour_line(line, &self.names.borrow().defs))
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if !self.color {
            return Cow::Borrowed(hint);
        }
        Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
    }

    fn highlight_prompt<'b, 's: 'b, 'p: 'b>(
        &'s self,
        prompt: &'p str,
        _default: bool,
    ) -> Cow<'b, str> {
        if !self.color {
            return Cow::Borrowed(prompt);
        }
        Cow::Owned(format!("\x1b[1;32m{prompt}\x1b[0m"))
    }

    fn highlight_char(&self, _line: &str, _pos: usize, _kind: CmdKind) -> bool {
        self.color
    }
}

/// Every line is whole to the editor: an unfinished input is continued on a line of its own,
/// read with the continuation prompt (see `Input::read`).
impl Validator for ReplHelper {}
