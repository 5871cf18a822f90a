#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The layers of `src/` import one way: no module of the crate uses, directly or through others,
//! a module that uses it. Read from the source text: every `crate::`, `super::` and child-module
//! path outside test code is an arrow from its file to the file of the module it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Module path (`check::infer`) of each source file, and its text up to its tests.
fn modules() -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (file, text) in sources() {
        // `src/check/infer.rs` is `check::infer`; `mod.rs` and `lib.rs` name their folder
        let path = file
            .strip_prefix("src/")
            .unwrap()
            .strip_suffix(".rs")
            .unwrap();
        let mut m: Vec<&str> = path.split('/').collect();
        match m.last() {
            Some(&"main") => continue,
            Some(&"mod") | Some(&"lib") => {
                m.pop();
            }
            _ => {}
        }
        let text = match text.find("#[cfg(test)]") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        out.insert(m.join("::"), text);
    }
    out
}

/// The longest module of `mods` that `path` (segments) names.
fn target(mods: &BTreeMap<String, String>, path: &[String]) -> Option<String> {
    (1..=path.len())
        .rev()
        .map(|n| path[..n].join("::"))
        .find(|m| mods.contains_key(m))
}

/// Arrows between files: module -> modules it names.
fn arrows(mods: &BTreeMap<String, String>) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, text) in mods {
        let here: Vec<String> = if m.is_empty() {
            vec![]
        } else {
            m.split("::").map(String::from).collect()
        };
        let mut found = BTreeSet::new();
        // strip line comments
        let code: String = text
            .lines()
            .map(|l| match l.find("//") {
                Some(i) => &l[..i],
                None => l,
            })
            .collect::<Vec<_>>()
            .join("\n");
        let bytes = code.as_bytes();
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let mut i = 0;
        while i < bytes.len() {
            if !ident(bytes[i]) || (i > 0 && (ident(bytes[i - 1]) || bytes[i - 1] == b':')) {
                i += 1;
                continue;
            }
            // a path starting here: segments separated by `::`
            let mut segs = vec![];
            let mut j = i;
            loop {
                let s = j;
                while j < bytes.len() && ident(bytes[j]) {
                    j += 1;
                }
                segs.push(code[s..j].to_string());
                if code[j..].starts_with("::") && j + 2 < bytes.len() && ident(bytes[j + 2]) {
                    j += 2;
                } else {
                    break;
                }
            }
            i = j.max(i + 1);
            // `a::b::{c, d::e}`: each item of the braces continues the path
            let mut paths = vec![];
            if code[j..].starts_with("::{") {
                let mut depth = 0;
                let mut end = j + 2;
                for (k, ch) in code[j + 2..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = j + 2 + k;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                for item in code[j + 3..end].split(',') {
                    let first: Vec<String> = item
                        .trim()
                        .split("::")
                        .map(|x| x.trim().to_string())
                        .take_while(|x| !x.is_empty() && x.bytes().all(ident))
                        .collect();
                    let mut p = segs.clone();
                    p.extend(first);
                    paths.push(p);
                }
                i = end;
            } else {
                paths.push(segs.clone());
            }
            for segs in paths {
                if segs.len() < 2 {
                    continue;
                }
                let abs: Option<Vec<String>> = match segs[0].as_str() {
                    "crate" => Some(segs[1..].to_vec()),
                    "super" => {
                        // `super` of a file's module: its parent (mod.rs files are their folder)
                        let mut base = here.clone();
                        let mut k = 0;
                        while k < segs.len() && segs[k] == "super" {
                            base.pop();
                            k += 1;
                        }
                        base.extend(segs[k..].iter().cloned());
                        Some(base)
                    }
                    "self" => {
                        let mut base = here.clone();
                        base.extend(segs[1..].iter().cloned());
                        Some(base)
                    }
                    first => {
                        // a child module named without `self::`
                        let mut child = here.clone();
                        child.push(first.to_string());
                        if mods.contains_key(&child.join("::")) {
                            child.extend(segs[1..].iter().cloned());
                            Some(child)
                        } else {
                            None
                        }
                    }
                };
                if let Some(t) = abs.and_then(|p| target(mods, &p)) {
                    if &t != m {
                        found.insert(t);
                    }
                }
            }
        }
        out.insert(m.clone(), found);
    }
    out
}

/// Strongly connected components with more than one member.
fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let names: Vec<&String> = g.keys().collect();
    let idx: BTreeMap<&String, usize> = names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adj: Vec<Vec<usize>> = names
        .iter()
        .map(|n| g[*n].iter().filter_map(|t| idx.get(t).copied()).collect())
        .collect();
    // Kosaraju: order by finish time, then walk the reversed graph
    let n = adj.len();
    let mut seen = vec![false; n];
    let mut order = vec![];
    for s in 0..n {
        if seen[s] {
            continue;
        }
        let mut stack = vec![(s, 0)];
        seen[s] = true;
        while let Some((v, k)) = stack.pop() {
            if k < adj[v].len() {
                stack.push((v, k + 1));
                let w = adj[v][k];
                if !seen[w] {
                    seen[w] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
            }
        }
    }
    let mut radj = vec![vec![]; n];
    for (v, ws) in adj.iter().enumerate() {
        for &w in ws {
            radj[w].push(v);
        }
    }
    let mut comp = vec![usize::MAX; n];
    let mut out = vec![];
    for &s in order.iter().rev() {
        if comp[s] != usize::MAX {
            continue;
        }
        let mut members = vec![];
        let mut stack = vec![s];
        comp[s] = s;
        while let Some(v) = stack.pop() {
            members.push(names[v].clone());
            for &w in &radj[v] {
                if comp[w] == usize::MAX {
                    comp[w] = s;
                    stack.push(w);
                }
            }
        }
        if members.len() > 1 {
            members.sort();
            out.push(members);
        }
    }
    out
}

/// Whether one module is the other or lies inside it (`go::life` and `go::life::pn`).
fn nested(a: &str, b: &str) -> bool {
    let inside = |x: &str, y: &str| y.is_empty() || x == y || x.starts_with(&format!("{y}::"));
    inside(a, b) || inside(b, a)
}

/// Files of `src/` do not import each other in a circle. A folder module and the files inside it
/// are one unit here (a child file may use its parent's items while the parent calls into it);
/// between units, and between files of different folders, no circle is allowed.
#[test]
fn no_file_of_src_imports_one_that_imports_it() {
    let mods = modules();
    assert!(mods.len() > 50, "the source tree was not found");
    let g: BTreeMap<String, BTreeSet<String>> = arrows(&mods)
        .into_iter()
        .map(|(m, ts)| {
            let ts = ts.into_iter().filter(|t| !nested(&m, t)).collect();
            (m, ts)
        })
        .collect();
    let c = cycles(&g);
    assert!(c.is_empty(), "import cycles between files of src/: {c:?}");
}

#[test]
fn the_top_level_modules_import_one_way() {
    let mods = modules();
    let top = |m: &str| m.split("::").next().unwrap_or("").to_string();
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, ts) in arrows(&mods) {
        let e = g.entry(top(&m)).or_default();
        for t in ts {
            if top(&t) != top(&m) {
                e.insert(top(&t));
            }
        }
    }
    let c = cycles(&g);
    assert!(c.is_empty(), "import cycles between modules of src/: {c:?}");
    // the engines know nothing of the language
    for engine in ["shogi", "go"] {
        let lang: Vec<&String> = g[engine]
            .iter()
            .filter(|t| {
                ["syntax", "check", "eval", "natives", "ir", "cli", "repl"].contains(&t.as_str())
            })
            .collect();
        assert!(lang.is_empty(), "{engine} imports {lang:?}");
    }
    // the commands layer stands below every face and above the library: the faces call it, it
    // calls none of them, and nothing beneath it calls it
    let faces = ["cli", "repl", "lsp", "front"];
    let up: Vec<&String> = g["commands"]
        .iter()
        .filter(|t| faces.contains(&t.as_str()))
        .collect();
    assert!(up.is_empty(), "commands imports {up:?}");
    for (m, ts) in &g {
        if !faces.contains(&m.as_str()) && m != "commands" && m != "lib" {
            assert!(!ts.contains("commands"), "{m} imports the commands layer");
        }
    }
    assert!(
        g["cli"].contains("commands"),
        "the command line does not use the commands layer"
    );
}

#[test]
fn the_checker_finds_a_planted_cycle() {
    let mut mods = BTreeMap::new();
    mods.insert("a".to_string(), "use crate::b::X;".to_string());
    mods.insert("b".to_string(), "fn f() { crate::a::g() }".to_string());
    mods.insert("c".to_string(), "use super::a::Y;".to_string());
    let g = arrows(&mods);
    assert_eq!(cycles(&g), vec![vec!["a".to_string(), "b".to_string()]]);
    // through a braced list
    let mut mods = BTreeMap::new();
    mods.insert("d".to_string(), "use crate::{e::X, f};".to_string());
    mods.insert("e".to_string(), "use crate::d::Y;".to_string());
    mods.insert("f".to_string(), String::new());
    let g = arrows(&mods);
    assert_eq!(g["d"], BTreeSet::from(["e".to_string(), "f".to_string()]));
    assert_eq!(cycles(&g), vec![vec!["d".to_string(), "e".to_string()]]);
}

/// Every source file of `src/`, by its path from the crate's folder, with its text.
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, out: &mut Vec<(String, String)>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                let root = Path::new(env!("CARGO_MANIFEST_DIR"));
                let name = p.strip_prefix(root).unwrap().to_string_lossy().to_string();
                out.push((name, text));
            }
        }
    }
    let mut out = vec![];
    walk(
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/src")),
        &mut out,
    );
    out.sort();
    out
}

/// The functions of a (formatted) source text: name, first line and length in lines, from the
/// line of `fn` to the brace at its indentation that closes it.
fn functions(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = vec![];
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let mut rest = body;
        for word in [
            "pub(crate) ",
            "pub(super) ",
            "pub ",
            "const ",
            "async ",
            "unsafe ",
        ] {
            rest = rest.strip_prefix(word).unwrap_or(rest);
        }
        let Some(named) = rest.strip_prefix("fn ") else {
            i += 1;
            continue;
        };
        let name: String = named
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let close = format!("{indent}}}");
        // a declaration without a body (a trait's), or a body on one line
        let end = if line.ends_with(';') || (line.contains('{') && line.ends_with('}')) {
            i
        } else {
            (i..lines.len())
                .find(|&j| {
                    lines[j] == close
                        || (j > i && lines[j].starts_with(&close) && lines[j].trim_end() == close)
                })
                .unwrap_or(i)
        };
        out.push((name, i + 1, end - i + 1));
        i += 1;
    }
    out
}

/// Files over 1,200 lines and functions over 150 that are left, at their lengths now: none may
/// grow, and none may join them. Each one split is taken off the list.
const LONG_FILES: &[(&str, usize)] = &[];
const LONG_FUNCTIONS: &[(&str, &str, usize)] = &[];

#[test]
fn no_file_over_1200_lines_and_no_function_over_150() {
    let mut over = vec![];
    for (file, text) in sources() {
        let n = text.lines().count();
        let allowed = LONG_FILES
            .iter()
            .find(|(f, _)| *f == file)
            .map_or(1200, |&(_, n)| n);
        if n > allowed {
            over.push(format!("{file}: {n} lines (at most {allowed})"));
        }
        for (name, at, len) in functions(&text) {
            let allowed = LONG_FUNCTIONS
                .iter()
                .find(|(f, g, _)| *f == file && *g == name)
                .map_or(150, |&(_, _, n)| n);
            if len > allowed {
                over.push(format!(
                    "{file}:{at}: fn {name} is {len} lines (at most {allowed})"
                ));
            }
        }
    }
    assert!(over.is_empty(), "{}", over.join("\n"));
}

/// The measure of a function's length reads a planted function as it is written.
#[test]
fn the_length_of_a_function_is_read_from_its_lines() {
    let text = "fn a() {\n    let x = 1;\n}\n\nimpl T {\n    pub(crate) fn b(&self) -> u8 {\n        match 1 {\n            _ => 2,\n        }\n    }\n    fn c(&self);\n    fn d() { 1 }\n}\n";
    assert_eq!(
        functions(text),
        vec![
            ("a".to_string(), 1, 3),
            ("b".to_string(), 6, 5),
            ("c".to_string(), 11, 1),
            ("d".to_string(), 12, 1),
        ]
    );
}
