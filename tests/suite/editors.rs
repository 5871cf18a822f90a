#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The editor support of editors/vscode against the language: the keywords the TextMate grammar
//! highlights are exactly the words of grammar/okite.pest (a keyword added to one and not the
//! other fails here), every pattern of the grammar is a regular expression, and the extension's
//! manifest names the language `okite` for `.rule`, an existing grammar and the server `okite lsp`.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn vscode() -> PathBuf {
    root().join("editors/vscode")
}

fn json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not valid JSON: {e}", path.display()))
}

fn grammar() -> Value {
    json(&vscode().join("syntaxes/okite.tmLanguage.json"))
}

/// The words of the keyword patterns: `repository.keywords`, each a `\b(?:w1|w2|...)\b`.
fn editor_keywords(g: &Value) -> BTreeSet<String> {
    let patterns = g["repository"]["keywords"]["patterns"]
        .as_array()
        .expect("the grammar has repository.keywords.patterns");
    let mut words = BTreeSet::new();
    for p in patterns {
        let m = p["match"].as_str().expect("a keyword pattern has a match");
        let inner = m
            .strip_prefix(r"\b(?:")
            .and_then(|s| s.strip_suffix(r")\b"))
            .unwrap_or_else(|| panic!(r"keyword pattern `{m}` is not \b(?:w1|w2|...)\b"));
        for w in inner.split('|') {
            assert!(
                !w.is_empty() && w.chars().all(|c| c.is_ascii_alphabetic() || c == '_'),
                "`{w}` in keyword pattern `{m}` is not a word"
            );
            assert!(words.insert(w.to_string()), "keyword `{w}` listed twice");
        }
    }
    words
}

/// The text of a pest file without its comments, with its string literals kept whole.
fn strip_pest_comments(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push(c);
                while let Some(d) = chars.next() {
                    out.push(d);
                    match d {
                        '\\' => out.extend(chars.next()),
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The keywords of the pest grammar: every quoted literal made of ASCII letters and underscores
/// with at least one letter (`"_"` is the wildcard), except in `str_inner`, whose letters `n` and
/// `t` are escapes inside string literals.
fn pest_keywords() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("grammar/okite.pest")).unwrap();
    let text = strip_pest_comments(&text);
    let rule = regex::Regex::new(r"(?m)^[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*=").unwrap();
    let literal = regex::Regex::new(r#""((?:[^"\\]|\\.)*)""#).unwrap();
    let starts: Vec<(usize, &str)> = rule
        .captures_iter(&text)
        .map(|c| (c.get(0).unwrap().start(), c.get(1).unwrap().as_str()))
        .collect();
    assert!(
        starts.len() > 50,
        "grammar/okite.pest: only {} rules found",
        starts.len()
    );
    let mut words = BTreeSet::new();
    for (k, (start, name)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(text.len(), |s| s.0);
        if *name == "str_inner" {
            continue;
        }
        for c in literal.captures_iter(&text[*start..end]) {
            let w = &c[1];
            if w.chars().any(|c| c.is_ascii_alphabetic())
                && w.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
            {
                words.insert(w.to_string());
            }
        }
    }
    words
}

#[test]
fn the_editor_keywords_are_the_grammar_keywords() {
    let editor = editor_keywords(&grammar());
    let pest = pest_keywords();
    // a few that must be there, so that an extraction gone wrong cannot pass by finding nothing
    for w in [
        "def", "reading", "override", "theorem", "closure", "implies", "count",
    ] {
        assert!(pest.contains(w), "`{w}` not found in grammar/okite.pest");
    }
    let missing: Vec<_> = pest.difference(&editor).collect();
    let extra: Vec<_> = editor.difference(&pest).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "editors/vscode/syntaxes/okite.tmLanguage.json and grammar/okite.pest disagree:\n  \
         keywords of the pest grammar the editor grammar does not highlight: {missing:?}\n  \
         keywords the editor grammar highlights that the pest grammar does not have: {extra:?}"
    );
}

/// Every regular expression of a grammar value (match, begin, end, while), with where it is.
fn regexes<'a>(v: &'a Value, at: String, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("match" | "begin" | "end" | "while", Value::String(s)) => {
                        out.push((format!("{at}.{k}"), s))
                    }
                    _ => regexes(x, format!("{at}.{k}"), out),
                }
            }
        }
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                regexes(x, format!("{at}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn the_editor_grammar_is_well_formed() {
    let g = grammar();
    assert_eq!(g["scopeName"], "source.okite");
    // every include names a repository entry
    let repo = g["repository"].as_object().expect("a repository");
    let text = serde_json::to_string(&g).unwrap();
    let include = regex::Regex::new(r##""include":"#([^"]+)""##).unwrap();
    for c in include.captures_iter(&text) {
        assert!(
            repo.contains_key(&c[1]),
            "include of a missing rule #{}",
            &c[1]
        );
    }
    // every pattern compiles (the grammar keeps to what both Oniguruma and the regex crate take:
    // no look-around)
    let mut all = vec![];
    regexes(&g, String::new(), &mut all);
    assert!(all.len() > 30, "only {} patterns", all.len());
    for (at, re) in all {
        if let Err(e) = regex::Regex::new(re) {
            panic!("{at}: `{re}` does not compile: {e}");
        }
    }
    // the names the language allows are names to the grammar: Unicode, with primes
    let ident = g["repository"]["identifiers"]["patterns"][0]["match"]
        .as_str()
        .unwrap();
    let ident = regex::Regex::new(&format!("^(?:{ident})$")).unwrap();
    for name in ["先手", "𝓟", "s_c", "G", "x'", "成り"] {
        assert!(ident.is_match(name), "`{name}` is not an identifier");
    }
}

#[test]
fn the_extension_manifest_names_the_language_the_grammar_and_the_server() {
    let dir = vscode();
    let pkg = json(&dir.join("package.json"));
    let languages = pkg["contributes"]["languages"].as_array().unwrap();
    let okite = languages
        .iter()
        .find(|l| l["id"] == "okite")
        .expect("package.json contributes the language `okite`");
    assert!(
        okite["extensions"]
            .as_array()
            .unwrap()
            .contains(&Value::from(".rule")),
        "the language `okite` is not for .rule files"
    );
    let config = okite["configuration"].as_str().unwrap();
    let lc = json(&dir.join(config));
    assert_eq!(lc["comments"]["lineComment"], "//");
    assert_eq!(
        lc["comments"]["blockComment"],
        serde_json::json!(["/*", "*/"])
    );

    let grammars = pkg["contributes"]["grammars"].as_array().unwrap();
    let g = grammars
        .iter()
        .find(|g| g["language"] == "okite")
        .expect("package.json contributes a grammar for `okite`");
    assert_eq!(g["scopeName"], "source.okite");
    let path = dir.join(g["path"].as_str().unwrap());
    assert!(path.is_file(), "{} does not exist", path.display());
    assert_eq!(json(&path)["scopeName"], "source.okite");

    // the client starts `okite lsp`: the settings' defaults, and the extension's own fallback
    let props = &pkg["contributes"]["configuration"]["properties"];
    assert_eq!(props["okite.server.command"]["default"], "okite");
    assert_eq!(
        props["okite.server.args"]["default"],
        serde_json::json!(["lsp"])
    );
    assert!(pkg["dependencies"]["vscode-languageclient"].is_string());
    let main = pkg["main"].as_str().unwrap();
    let js = std::fs::read_to_string(dir.join(main)).unwrap();
    assert!(js.contains("require('vscode-languageclient/node')"));
    assert!(js.contains("const DEFAULT_COMMAND = 'okite';"));
    assert!(js.contains("const DEFAULT_ARGS = ['lsp'];"));
    // naming TransportKind.stdio would make the client append `--stdio` to the arguments
    assert!(!js.contains("transport:"));
}
