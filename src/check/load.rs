//! Loading rule files: files and folders named by the user, and the files they `use`.
//!
//! [`load_shipped`] checks the rule files built into the binary (the ones under `rules/`), and
//! [`load`] the files and folders of a path list; either gives a [`Loaded`], whose `program` is
//! the checked [`Program`] or every diagnostic found. The natives are the functions that
//! `native` declarations may bind ([`Natives::standard`]: the shogi and Go engines).
//!
//! ```
//! use okite::check::load::{load, load_shipped};
//! use okite::natives::Natives;
//! use std::path::PathBuf;
//!
//! let natives = Natives::standard();
//! let loaded = load_shipped(&natives);
//! let prog = loaded.program.ok().expect("the shipped rules check");
//! assert!(prog.key_of("legal").is_some() && prog.key_of("next_boards").is_some());
//! assert!(prog.reading_id("broad").is_some());
//!
//! // the same files from the folder, with every file `use` reaches
//! let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/rules"));
//! let from_disk = load(&[dir], &natives);
//! assert_eq!(from_disk.files.len(), loaded.files.len());
//! assert!(from_disk.program.is_ok());
//! ```

use super::Program;
use crate::diagnostics::code;
use crate::diagnostics::{Diag, SourceMap};
use crate::natives::Natives;
use crate::syntax::ast::{self, FileId, Item, Span};
use crate::syntax::parse_file;
use crate::syntax::parser::MAX_SOURCE_BYTES;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The result of loading: a checked program, or every diagnostic found.
pub struct Loaded {
    pub program: Result<Program, Vec<Diag>>,
    pub sources: SourceMap,
    pub files: Vec<PathBuf>,
}

/// Where rule files are read from: the file system, or the files shipped inside the binary.
pub trait Files {
    /// Rule files in a folder (`*.rule`, sorted), or the file itself.
    fn expand(&self, path: &Path) -> Result<Vec<PathBuf>, Diag>;
    /// The bytes of one file, at most [`MAX_SOURCE_BYTES`] of them.
    fn read(&self, path: &Path) -> Result<Vec<u8>, Diag>;
    /// A name that is the same for every path of one file.
    fn identity(&self, path: &Path) -> PathBuf;
}

/// The file system.
pub struct Disk;

/// The rule files shipped inside the binary, under the folder name `rules`.
pub struct Shipped;

impl Files for Disk {
    fn expand(&self, path: &Path) -> Result<Vec<PathBuf>, Diag> {
        expand(path)
    }
    fn read(&self, path: &Path) -> Result<Vec<u8>, Diag> {
        read_bounded(path)
    }
    fn identity(&self, path: &Path) -> PathBuf {
        std::fs::canonicalize(path).unwrap_or(path.to_path_buf())
    }
}

impl Files for Shipped {
    fn expand(&self, path: &Path) -> Result<Vec<PathBuf>, Diag> {
        if path == Path::new(crate::shipped::FOLDER) {
            return Ok(crate::shipped::FILES
                .iter()
                .map(|(n, _)| Path::new(crate::shipped::FOLDER).join(n))
                .collect());
        }
        self.read(path).map(|_| vec![path.to_path_buf()])
    }
    fn read(&self, path: &Path) -> Result<Vec<u8>, Diag> {
        let name = path
            .strip_prefix(crate::shipped::FOLDER)
            .ok()
            .and_then(|n| n.to_str())
            .unwrap_or("");
        crate::shipped::text(name)
            .map(|t| t.as_bytes().to_vec())
            .ok_or_else(|| {
                Diag::error(
                    code::CANNOT_READ_FILE,
                    format!("no shipped rule file `{}`", path.display()),
                )
                .help(format!(
                    "the shipped files are {}",
                    crate::shipped::FILES
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }
    fn identity(&self, path: &Path) -> PathBuf {
        path.to_path_buf()
    }
}

/// The shipped rule files under their folder name, and the file system elsewhere: what a REPL
/// started without rule files reads, so that `:load` adds files from disk.
pub struct ShippedAndDisk;

impl ShippedAndDisk {
    fn shipped(path: &Path) -> bool {
        path.starts_with(crate::shipped::FOLDER)
    }
}

impl Files for ShippedAndDisk {
    fn expand(&self, path: &Path) -> Result<Vec<PathBuf>, Diag> {
        if Self::shipped(path) {
            Shipped.expand(path)
        } else {
            Disk.expand(path)
        }
    }
    fn read(&self, path: &Path) -> Result<Vec<u8>, Diag> {
        if Self::shipped(path) {
            Shipped.read(path)
        } else {
            Disk.read(path)
        }
    }
    /// A file on disk whose text is a shipped file's, under its name, is that shipped file: a
    /// variant that `use`s `../../rules/shogi.rule` beside the shipped rules loads it once.
    fn identity(&self, path: &Path) -> PathBuf {
        if Self::shipped(path) {
            return Shipped.identity(path);
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if let Some(text) = crate::shipped::text(name) {
            if Disk.read(path).is_ok_and(|b| b == text.as_bytes()) {
                return Path::new(crate::shipped::FOLDER).join(name);
            }
        }
        Disk.identity(path)
    }
}

/// The file system, except that one file's text is held in memory: an editor's unsaved text of
/// a rule file, checked with the files it `use`s read from disk.
pub struct Overlay {
    /// The file whose text is held (its identity, as [`Disk::identity`] gives it).
    pub path: PathBuf,
    pub text: String,
}

impl Overlay {
    pub fn new(path: &Path, text: String) -> Overlay {
        Overlay {
            path: Disk.identity(path),
            text,
        }
    }
    fn holds(&self, path: &Path) -> bool {
        path == self.path || Disk.identity(path) == self.path
    }
}

impl Files for Overlay {
    fn expand(&self, path: &Path) -> Result<Vec<PathBuf>, Diag> {
        if self.holds(path) {
            return Ok(vec![path.to_path_buf()]);
        }
        Disk.expand(path)
    }
    fn read(&self, path: &Path) -> Result<Vec<u8>, Diag> {
        if self.holds(path) {
            if self.text.len() > MAX_SOURCE_BYTES {
                return Err(Diag::error(
                    code::NOT_A_RULE_FILE,
                    format!(
                        "`{}` is larger than a rule file may be ({} MiB)",
                        path.display(),
                        MAX_SOURCE_BYTES >> 20
                    ),
                )
                .help(format!(
                    "rule files are text of at most {} MiB",
                    MAX_SOURCE_BYTES >> 20
                )));
            }
            return Ok(self.text.as_bytes().to_vec());
        }
        Disk.read(path)
    }
    fn identity(&self, path: &Path) -> PathBuf {
        Disk.identity(path)
    }
}

/// Rule files in a folder (`*.rule`, sorted), or the file itself.
pub fn expand(path: &Path) -> Result<Vec<PathBuf>, Diag> {
    if path.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| io_diag(path, &e))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("rule"))
            .collect();
        v.sort();
        if v.is_empty() {
            return Err(Diag::error(
                code::NO_RULE_FILES_IN_FOLDER,
                format!("the folder `{}` holds no `.rule` files", path.display()),
            )
            .help("rule files end in `.rule`"));
        }
        Ok(v)
    } else if path.exists() {
        Ok(vec![path.to_path_buf()])
    } else {
        Err(Diag::error(
            code::CANNOT_READ_FILE,
            format!("no such file or folder: `{}`", path.display()),
        )
        .help("give a rule file, or a folder of rule files (without --rules, the shipped rules are used)"))
    }
}

/// Read a rule file: a regular file of at most [`MAX_SOURCE_BYTES`], checked before and while
/// reading (a file that grows, a device or a FIFO is refused, never read without end).
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, Diag> {
    read_limited(path, MAX_SOURCE_BYTES, ("a rule file", "rule files"))
}

/// Read a regular file of at most `limit` bytes, checked before and while reading; `kind` names
/// the kind of file in the diagnostics, one and many (`("a rule file", "rule files")`).
pub fn read_limited(path: &Path, limit: usize, kind: (&str, &str)) -> Result<Vec<u8>, Diag> {
    let (what, many) = kind;
    use crate::files::ReadError;
    crate::files::read_regular(path, limit as u64).map_err(|e| match e {
        ReadError::Io(e) => io_diag(path, &e),
        ReadError::NotRegular => Diag::error(
            code::NOT_A_RULE_FILE,
            format!("`{}` is not a regular file", path.display()),
        )
        .help(format!(
            "{many} are regular text files (not devices, FIFOs or folders)"
        )),
        ReadError::TooBig => Diag::error(
            code::NOT_A_RULE_FILE,
            format!(
                "`{}` is larger than {what} may be ({} MiB)",
                path.display(),
                limit >> 20
            ),
        )
        .help(format!("{many} are text of at most {} MiB", limit >> 20)),
    })
}

/// A text file read as [`read_bounded`] reads rule files (a regular file of at most
/// [`MAX_SOURCE_BYTES`]), for the other files okite reads: records, SGF.
pub fn read_text_bounded(path: &Path) -> Result<String, Diag> {
    read_text_limited(path, MAX_SOURCE_BYTES, ("a record", "records"))
}

/// The text of a regular file of at most `limit` bytes (see [`read_limited`]), or why not.
pub fn read_text_limited(path: &Path, limit: usize, kind: (&str, &str)) -> Result<String, Diag> {
    let bytes = read_limited(path, limit, kind)?;
    String::from_utf8(bytes).map_err(|e| {
        Diag::error(
            code::NOT_TEXT,
            format!(
                "`{}` is not a text file (invalid UTF-8 at byte {})",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
        .help("okite reads UTF-8 text")
    })
}

fn io_diag(path: &Path, e: &std::io::Error) -> Diag {
    Diag::error(
        code::CANNOT_READ_FILE,
        format!("cannot read `{}`: {e}", path.display()),
    )
    .help("check the path and its permissions")
}

/// Load rule files and folders as one program, following `use`.
pub fn load(paths: &[PathBuf], natives: &Natives) -> Loaded {
    load_with(paths, natives, SourceMap::default())
}

/// Load the shipped rule files (the default rule set).
pub fn load_shipped(natives: &Natives) -> Loaded {
    load_from(
        &Shipped,
        &[PathBuf::from(crate::shipped::FOLDER)],
        natives,
        SourceMap::default(),
    )
}

pub fn load_with(paths: &[PathBuf], natives: &Natives, sources: SourceMap) -> Loaded {
    load_from(&Disk, paths, natives, sources)
}

/// One rule file, read and parsed.
#[derive(Clone)]
pub struct RuleFile {
    pub path: PathBuf,
    pub text: String,
    pub ast: ast::File,
}

/// Read the rule files of `paths` through `fs`, and every file they `use` (each file once, in
/// the order met). A file whose text `known` already holds parsed keeps that parse (the REPL
/// reloads only what changed); every other text is added to `sources` and parsed. Every error of
/// every file is returned.
pub fn read_all(
    fs: &dyn Files,
    paths: &[PathBuf],
    sources: &mut SourceMap,
    known: &[RuleFile],
) -> (Vec<RuleFile>, Vec<Diag>) {
    read_all_interruptible(fs, paths, sources, known, None)
}

thread_local! {
    /// The parses of the shipped rule files, by the file's place among them and the id it was
    /// given: a command that loads the shipped rules and then compares a program with them (the
    /// bindings' fingerprints) parses each file once.
    static SHIPPED_PARSES: std::cell::RefCell<HashMap<(usize, FileId), ast::File>> =
        std::cell::RefCell::new(HashMap::new());
}

/// The parse of a rule file's text, kept when the text is a shipped file's (a parse depends on
/// the text and the file's id alone).
fn parse_remembered(text: &str, fid: FileId) -> Result<ast::File, Vec<Diag>> {
    let mut shipped = crate::shipped::FILES
        .iter()
        .chain(crate::shipped::VARIANT_FILES);
    let Some(k) = shipped.position(|(_, t)| *t == text) else {
        return parse_file(text, fid);
    };
    if let Some(f) = SHIPPED_PARSES.with(|m| m.borrow().get(&(k, fid)).cloned()) {
        return Ok(f);
    }
    let parsed = parse_file(text, fid)?;
    SHIPPED_PARSES.with(|m| m.borrow_mut().insert((k, fid), parsed.clone()));
    Ok(parsed)
}

/// Files of at least this many bytes are parsed on a thread of their own where an interrupt can
/// stop the reading (a file of 6 MiB takes seconds).
const PARSE_APART_BYTES: usize = 256 << 10;

/// [`read_all`], stopped with E0305 once `interrupt` is raised: between files, and while a large
/// file is parsed (the parse, which cannot be stopped, goes on to its end apart and is dropped).
pub fn read_all_interruptible(
    fs: &dyn Files,
    paths: &[PathBuf],
    sources: &mut SourceMap,
    known: &[RuleFile],
    interrupt: Option<&Arc<AtomicBool>>,
) -> (Vec<RuleFile>, Vec<Diag>) {
    let mut errs: Vec<Diag> = vec![];
    let mut queue: Vec<(PathBuf, Option<Span>)> = vec![];
    for p in paths {
        match fs.expand(p) {
            Ok(v) => queue.extend(v.into_iter().map(|x| (x, None))),
            Err(d) => errs.push(d),
        }
    }
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut out: Vec<RuleFile> = vec![];
    let mut i = 0;
    while i < queue.len() {
        if interrupt.is_some_and(|f| f.load(Ordering::SeqCst)) {
            errs.push(super::interrupted());
            return (out, errs);
        }
        let (path, from) = queue[i].clone();
        i += 1;
        if !seen.insert(fs.identity(&path)) {
            continue;
        }
        let bytes = match fs.read(&path) {
            Ok(b) => b,
            Err(mut d) => {
                if let Some(s) = from {
                    d = d.label(s, "used here");
                }
                errs.push(d);
                continue;
            }
        };
        let name = path.display().to_string();
        let text = match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let lossy = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let fid = sources.add(name, Some(path.clone()), lossy);
                errs.push(
                    Diag::error(
                        code::NOT_TEXT,
                        "this is not a text file (it is not valid UTF-8)",
                    )
                    .label(Span::new(fid, at, at + 1), "invalid byte")
                    .help("rule files are UTF-8 text"),
                );
                continue;
            }
        };
        let file = match known.iter().find(|f| f.path == path && f.text == text) {
            Some(f) => f.clone(),
            None => {
                let fid = sources.add(name, Some(path.clone()), text.clone());
                let parsed = match interrupt {
                    Some(flag) if text.len() >= PARSE_APART_BYTES => parse_apart(&text, fid, flag),
                    _ => Some(parse_remembered(&text, fid)),
                };
                match parsed {
                    Some(Ok(ast)) => RuleFile { path, text, ast },
                    Some(Err(ds)) => {
                        errs.extend(ds);
                        continue;
                    }
                    None => {
                        errs.push(super::interrupted());
                        return (out, errs);
                    }
                }
            }
        };
        let dir = file
            .path
            .parent()
            .map(|p| p.to_path_buf())
            .unwrap_or_default();
        for it in &file.ast.items {
            if let Item::Use(u) = it {
                let mut target = dir.join(&u.path);
                if target.extension().is_none() {
                    target.set_extension("rule");
                }
                queue.push((target, Some(u.span)));
            }
        }
        out.push(file);
    }
    (out, errs)
}

/// The parse of `text` on a thread of its own, waited for while `interrupt` is not raised: none
/// once it is (the parse ends apart, unseen). Where no thread can be started, the parse is made
/// here.
fn parse_apart(
    text: &str,
    fid: crate::diagnostics::FileId,
    interrupt: &AtomicBool,
) -> Option<Result<ast::File, Vec<Diag>>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = text.to_string();
    let spawned = std::thread::Builder::new()
        .name("okite-parse".into())
        // room for the builder's walks at the nesting the parser allows
        .stack_size(64 << 20)
        .spawn(move || {
            let _ = tx.send(parse_file(&owned, fid));
        });
    if spawned.is_err() {
        return Some(parse_file(text, fid));
    }
    loop {
        match rx.recv_timeout(std::time::Duration::from_millis(20)) {
            Ok(parsed) => return Some(parsed),
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                if interrupt.load(Ordering::SeqCst) {
                    return None;
                }
            }
            // the thread ended without an answer (it cannot: the parse reports its errors)
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return Some(parse_file(text, fid));
            }
        }
    }
}

/// Load rule files read through `fs`, following `use` within it.
pub fn load_from(
    fs: &dyn Files,
    paths: &[PathBuf],
    natives: &Natives,
    mut sources: SourceMap,
) -> Loaded {
    let (read, errs) = read_all(fs, paths, &mut sources, &[]);
    let loaded_paths: Vec<PathBuf> = read.iter().map(|f| f.path.clone()).collect();
    let files: Vec<ast::File> = read.into_iter().map(|f| f.ast).collect();
    if !errs.is_empty() {
        return Loaded {
            program: Err(errs),
            sources,
            files: loaded_paths,
        };
    }
    match Program::build(files, sources, natives) {
        Ok(p) => {
            let sources = p.sources.clone();
            Loaded {
                program: Ok(p),
                sources,
                files: loaded_paths,
            }
        }
        Err((sources, errs)) => Loaded {
            program: Err(errs),
            sources,
            files: loaded_paths,
        },
    }
}

/// Check source text held in memory (tests, the REPL, examples in documentation).
pub fn load_str(
    name: &str,
    text: &str,
    natives: &Natives,
) -> Result<Program, (SourceMap, Vec<Diag>)> {
    let mut sources = SourceMap::default();
    let fid = sources.add(name, None, text.to_string());
    match parse_file(text, fid) {
        Ok(f) => Program::build(vec![f], sources, natives),
        Err(ds) => Err((sources, ds)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 100,000 definitions (about 1.6 MB): far more than a parse of 20 ms.
    fn large() -> String {
        (0..100_000).map(|i| format!("def d{i} = {i}\n")).collect()
    }

    #[test]
    fn a_large_parse_is_left_once_interrupted() {
        let text = large();
        assert!(parse_apart(&text, 0, &AtomicBool::new(true)).is_none());
        let parsed = parse_apart(&text, 0, &AtomicBool::new(false)).expect("not interrupted");
        assert_eq!(parsed.expect("it parses").items.len(), 100_000);
    }

    #[test]
    fn an_interrupted_reading_reads_nothing_and_says_so() {
        let dir = std::env::temp_dir().join(format!("okite-read-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("large.rule");
        std::fs::write(&path, large()).unwrap();
        let mut sources = SourceMap::default();
        let mut read = |raised: bool| {
            let flag = Arc::new(AtomicBool::new(raised));
            read_all_interruptible(
                &Disk,
                std::slice::from_ref(&path),
                &mut sources,
                &[],
                Some(&flag),
            )
        };
        let (files, errs) = read(true);
        assert!(files.is_empty());
        assert_eq!(
            errs.iter().map(|d| d.code).collect::<Vec<_>>(),
            [crate::diagnostics::code::INTERRUPTED]
        );
        let (files, errs) = read(false);
        assert!(errs.is_empty(), "{errs:?}");
        assert_eq!(files.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_shipped_files_are_parsed_once_a_process() {
        let natives = Natives::standard();
        let first = load_shipped(&natives);
        let kept = SHIPPED_PARSES.with(|m| m.borrow().len());
        assert_eq!(kept, crate::shipped::FILES.len());
        let second = load_shipped(&natives);
        // nothing more was parsed, and the two programs are the same
        assert_eq!(SHIPPED_PARSES.with(|m| m.borrow().len()), kept);
        let (a, b) = (first.program.ok().unwrap(), second.program.ok().unwrap());
        assert_eq!(a.fingerprint, b.fingerprint);
        // a text that is no shipped file's is parsed as it is
        let mut sources = SourceMap::default();
        let fid = sources.add("x.rule".to_string(), None, "def x -> Int = 1\n".to_string());
        assert!(parse_remembered("def x -> Int = 1\n", fid).is_ok());
        assert_eq!(SHIPPED_PARSES.with(|m| m.borrow().len()), kept);
    }
}
