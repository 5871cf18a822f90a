#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! `okite lsp` speaks the language server protocol over stdin and stdout: diagnostics with
//! their codes and ranges as a document is opened (its text, with the files it uses read from
//! disk), hover, go to definition across `use`, completion, document symbols, and a clean
//! shutdown. Every read has a deadline, so a server that hangs fails the test.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

const DEADLINE: Duration = Duration::from_secs(60);

struct Client {
    child: Child,
    stdin: ChildStdin,
    from_server: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_okite"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start okite lsp");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, from_server) = mpsc::channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            loop {
                let mut len = None;
                loop {
                    let mut line = String::new();
                    if r.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(v) = line.strip_prefix("Content-Length:") {
                        len = v.trim().parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; len.expect("a Content-Length header")];
                if r.read_exact(&mut body).is_err() {
                    return;
                }
                let v: Value = serde_json::from_slice(&body).expect("a JSON message");
                if tx.send(v).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            from_server,
            next_id: 1,
        }
    }

    fn send_raw(&mut self, body: &[u8]) {
        write!(self.stdin, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        self.stdin.write_all(body).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        let m = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_raw(m.to_string().as_bytes());
    }

    /// Send a request and wait for its response (notifications met on the way are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let m = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(m.to_string().as_bytes());
        self.wait_for(|v| v["id"] == json!(id))
    }

    fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let v = self
                .from_server
                .recv_timeout(DEADLINE)
                .expect("the server answered within the deadline");
            if pred(&v) {
                return v;
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let v = self.wait_for(|v| {
            v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri
        });
        v["params"]["diagnostics"].as_array().unwrap().clone()
    }
}

/// The exit status of the server, which must end within the deadline.
fn exit_status(mut child: Child) -> Option<i32> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait());
    });
    rx.recv_timeout(DEADLINE)
        .expect("the server exits after `exit`")
        .unwrap()
        .code()
}

fn folder() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("okite-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn uri(p: &std::path::Path) -> String {
    format!("file://{}", p.display())
}

fn pos(uri: &str, line: u32, character: u32) -> Value {
    json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}})
}

/// The UTF-16 column of the first `needle` on line `line` of `text`.
fn column(text: &str, line: usize, needle: &str) -> u32 {
    let l = text.lines().nth(line).unwrap();
    let i = l.find(needle).unwrap();
    l[..i].encode_utf16().count() as u32
}

const LIB: &str = "enum Turn { 先手 as sente, 後手 as gote }

// The other player.
def opp(t: Turn) -> Turn = match t { 先手 => 後手, 後手 => 先手 }

type Game = Seq<Turn>

def first(g: Game) -> Turn = g[1]

reading flipped {
    override def opp(t) = t
}
";

// line 3 holds 𝓟 (two UTF-16 units) before the error, so its column tells UTF-16 from chars
const MAIN: &str = "use \"lib.rule\"

// Whether the first player's opponent is 先手.
def 𝓟(g: Game, n: Int) -> Bool = opp(first(g)) == sente and n

reading odd extends flipped {
    override def first(g) = base.opp(g[1])
}
";

#[test]
fn a_session_of_the_language_server() {
    let dir = folder();
    std::fs::write(dir.join("lib.rule"), LIB).unwrap();
    let main_path = dir.join("main.rule");
    // the file on disk differs from the text sent: the text sent is what is checked
    std::fs::write(&main_path, "use \"lib.rule\"\n").unwrap();
    let lib_uri = uri(&dir.join("lib.rule"));
    let main_uri = uri(&main_path);

    let mut c = Client::start();
    let init = c.request("initialize", json!({"capabilities": {}, "processId": null}));
    assert!(
        init["result"]["capabilities"]["hoverProvider"] == json!(true),
        "{init}"
    );
    c.notify("initialized", json!({}));

    // a malformed message and an unknown method do not stop the server
    c.send_raw(b"{ this is not json");
    let unknown = c.request("okite/nothing", json!({}));
    assert_eq!(unknown["error"]["code"], json!(-32601), "{unknown}");

    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": main_uri, "languageId": "okite", "version": 1, "text": MAIN}}),
    );
    let diags = c.diagnostics(&main_uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let d = &diags[0];
    assert_eq!(d["code"], json!("E0200"), "{d}");
    assert_eq!(d["severity"], json!(1));
    // the `n` after `and`: UTF-16 columns (𝓟 counts two)
    let n_col = column(MAIN, 3, "and n") + 4;
    assert_eq!(
        d["range"],
        json!({"start": {"line": 3, "character": n_col}, "end": {"line": 3, "character": n_col + 1}}),
        "{d}"
    );
    assert_eq!(
        n_col as usize,
        "def 𝓟(g: Game, n: Int) -> Bool = opp(first(g)) == sente and "
            .encode_utf16()
            .count()
    );

    // hover on `first` (defined in lib.rule): the signature as written, with the alias `Game`
    let first_col = column(MAIN, 3, "first(g)") + 1;
    let h = c.request("textDocument/hover", pos(&main_uri, 3, first_col));
    let text = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(text.contains("def first(g: Game) -> Turn"), "{h}");
    assert!(text.contains("overridden by the readings `odd`"), "{h}");
    assert!(text.contains("no native binding"), "{h}");
    // hover on `opp`: its doc comment
    let h = c.request(
        "textDocument/hover",
        pos(&main_uri, 3, column(MAIN, 3, "opp(")),
    );
    let text = h["result"]["contents"]["value"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        text.contains("def opp(t: Turn) -> Turn") && text.contains("The other player."),
        "{h}"
    );

    // go to definition of `first`, defined in the used file
    let g = c.request("textDocument/definition", pos(&main_uri, 3, first_col));
    assert_eq!(g["result"]["uri"], json!(lib_uri), "{g}");
    assert_eq!(g["result"]["range"]["start"]["line"], json!(7), "{g}");
    // `base.opp` inside `odd` (which extends `flipped`): flipped's override of opp
    let b = c.request(
        "textDocument/definition",
        pos(&main_uri, 6, column(MAIN, 6, "base.opp") + 6),
    );
    assert_eq!(b["result"]["uri"], json!(lib_uri), "{b}");
    assert_eq!(b["result"]["range"]["start"]["line"], json!(10), "{b}");

    // completion: a definition of the used file, an enum constant and a reading
    let comp = c.request("textDocument/completion", pos(&main_uri, 3, first_col));
    let labels: Vec<String> = comp["result"]
        .as_array()
        .expect("a list of completions")
        .iter()
        .map(|i| i["label"].as_str().unwrap_or("").to_string())
        .collect();
    for want in ["first", "opp", "sente", "先手", "flipped", "odd"] {
        assert!(labels.iter().any(|l| l == want), "{want} not in {labels:?}");
    }

    // document symbols: the definition and the reading with its override
    let syms = c.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": main_uri}}),
    );
    let s = syms["result"].to_string();
    assert!(
        s.contains("\"name\":\"𝓟\"") && s.contains("\"name\":\"odd\""),
        "{s}"
    );
    assert!(s.contains("override first"), "{s}");

    // a change that fixes the error clears the diagnostics
    let fixed = MAIN.replace("and n", "and n > 0");
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let diags = c.diagnostics(&main_uri);
    assert!(diags.iter().all(|d| d["severity"] != json!(1)), "{diags:?}");

    // a document of many errors: the first MAX_PUBLISHED of them, and one that counts the rest
    // (each with its related place: the first definition)
    let dups = "def a = 1\n".repeat(okite::lsp::MAX_PUBLISHED + 500);
    let dups_uri = uri(&dir.join("dups.rule"));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": dups_uri, "languageId": "okite", "version": 1, "text": dups}}),
    );
    let diags = c.diagnostics(&dups_uri);
    assert_eq!(diags.len(), okite::lsp::MAX_PUBLISHED + 1);
    assert_eq!(diags[1]["range"]["start"]["line"], json!(2), "{}", diags[1]);
    assert_eq!(
        diags[1]["relatedInformation"][0]["location"]["range"]["start"]["line"],
        json!(0),
        "{}",
        diags[1]
    );
    let last = &diags[okite::lsp::MAX_PUBLISHED];
    assert_eq!(last["severity"], json!(3), "{last}");
    assert!(
        last["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("499 more diagnostics are not shown")),
        "{last}"
    );

    // a document larger than the server checks gets one diagnostic, not a check
    let huge = "// x\n".repeat((okite::lsp::MAX_DOCUMENT_BYTES / 5) + 1);
    let big_uri = uri(&dir.join("big.rule"));
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": big_uri, "languageId": "okite", "version": 1, "text": huge}}),
    );
    let diags = c.diagnostics(&big_uri);
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(diags[0]["code"], json!("E0012"));

    let shut = c.request("shutdown", json!(null));
    assert_eq!(shut["result"], json!(null), "{shut}");
    c.notify("exit", json!(null));
    assert_eq!(exit_status(c.child), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn exit_without_shutdown_is_status_1_and_garbage_is_survived() {
    let mut c = Client::start();
    // a request before initialize is refused, not fatal
    let early = c.request("textDocument/hover", pos("file:///x.rule", 0, 0));
    assert_eq!(early["error"]["code"], json!(-32002), "{early}");
    c.request("initialize", json!({"capabilities": {}}));
    c.notify("initialized", json!({}));
    // bad params
    let bad = c.request("textDocument/hover", json!({"nonsense": 1}));
    assert_eq!(bad["error"]["code"], json!(-32602), "{bad}");
    // a document that does not parse, and positions past its end
    let u = "file:///nonexistent-folder/x.rule";
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": u, "languageId": "okite", "version": 1, "text": "def (((\u{1D4DF}"}}),
    );
    let diags = c.diagnostics(u);
    assert!(!diags.is_empty());
    let h = c.request("textDocument/hover", pos(u, 99, 99));
    assert!(h.get("error").is_none(), "{h}");
    c.notify("exit", json!(null));
    assert_eq!(exit_status(c.child), Some(1));
}

/// Names and types are cut by length in what the server sends: a document of 100 KB whose enum
/// is named by 100,000 characters, with a tuple of 500 of its constants, gets diagnostics of
/// kilobytes for its 20 mismatches and a hover of one kilobyte (the server died on it, and a
/// hover answered 49.9 MB).
#[test]
fn long_names_are_cut_in_diagnostics_and_hovers() {
    let mut c = Client::start();
    c.request("initialize", json!({"capabilities": {}}));
    c.notify("initialized", json!({}));
    let name = format!("T{}", "x".repeat(100_000));
    let head = format!(
        "enum {name} {{ A }}\ndef t = ({})\ndef u(x: Int) = t\n",
        vec!["A"; 500].join(", ")
    );
    let mut bad = head.clone();
    for i in 0..20 {
        bad += &format!("def bad{i} -> Int = t\n");
    }
    for (doc, text, errors) in [("bad", bad, 20), ("clean", head, 0)] {
        let u = format!("file:///nonexistent-folder/{doc}.rule");
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": u, "languageId": "okite", "version": 1, "text": text}}),
        );
        let diags = c.diagnostics(&u);
        assert_eq!(diags.len(), errors, "{doc}");
        let size = serde_json::to_string(&diags).unwrap().len();
        assert!(size < errors * 4_000 + 100, "{doc}: {size} bytes");
        // hover on `u`, whose type is the tuple's
        let h = c.request("textDocument/hover", pos(&u, 2, 4));
        let shown = h.to_string();
        assert!(
            shown.len() < 8_000,
            "{doc}: a hover of {} bytes",
            shown.len()
        );
        if errors == 0 {
            assert!(shown.contains(&format!("T{}…", "x".repeat(62))), "{shown}");
        }
    }
    c.request("shutdown", json!(null));
    c.notify("exit", json!(null));
    assert_eq!(exit_status(c.child), Some(0));
}

/// Documents that nest past the parser's limit without brackets (a run of `-`, a chain of
/// function types, of lambdas, of `let` bindings) get a diagnostic, and the server goes on.
#[test]
fn deep_chains_get_a_diagnostic_and_the_server_goes_on() {
    let mut c = Client::start();
    c.request("initialize", json!({"capabilities": {}}));
    c.notify("initialized", json!({}));
    let docs = [
        ("minus", format!("def f = {}1\n", "-".repeat(200_000))),
        (
            "types",
            format!("def f(g: {}Int) = 1\n", "Int->".repeat(50_000)),
        ),
        ("lambdas", format!("def f = {}1\n", "x -> ".repeat(50_000))),
        (
            "lets",
            format!(
                "def f = {}1{}\n",
                "let a = 1, b = ".repeat(30_000),
                ", c = 1 in 1".repeat(30_000)
            ),
        ),
    ];
    for (doc, text) in docs {
        let u = format!("file:///nonexistent-folder/{doc}.rule");
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": u, "languageId": "okite", "version": 1, "text": text}}),
        );
        let diags = c.diagnostics(&u);
        assert!(!diags.is_empty(), "{doc}: no diagnostic");
        let h = c.request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": u}}),
        );
        assert!(h.get("result").is_some(), "{doc}: {h}");
    }
    c.request("shutdown", json!(null));
    c.notify("exit", json!(null));
    assert_eq!(exit_status(c.child), Some(0));
}

/// A document nested `n` levels by one of the forms that nest (brackets, prefix `-`, lambdas,
/// function types, type applications after commas, `let` bindings after commas), for `n` from 1
/// to past the parser's limit: the server publishes its diagnostics (none within the limit but
/// for the deepest forms, E0007 past it), answers the outline, and goes on.
fn nested_document(kind: u8, n: usize) -> String {
    match kind % 6 {
        0 => format!("def f = {}1{}\n", "(".repeat(n), ")".repeat(n)),
        1 => format!("def f = {}1\n", "-".repeat(n)),
        2 => format!("def f = {}1\n", "x -> ".repeat(n)),
        3 => format!("def f(g: {}Int) = 1\n", "Int -> ".repeat(n)),
        4 => format!("type T = {}Int{}\n", "Map<Int, ".repeat(n), ">".repeat(n)),
        _ => format!(
            "def f = {}1{}\n",
            "let a = 1, b = ".repeat(n),
            ", c = 1 in 1".repeat(n)
        ),
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 12, .. proptest::prelude::ProptestConfig::default() })]

    #[test]
    fn any_nesting_is_answered(kind in 0u8..6, n in proptest::prop_oneof![1usize..100, 100usize..2000, 1990usize..2010, 2000usize..40_000]) {
        let mut c = Client::start();
        c.request("initialize", json!({"capabilities": {}}));
        c.notify("initialized", json!({}));
        let u = "file:///nonexistent-folder/nested.rule".to_string();
        c.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": u, "languageId": "okite", "version": 1, "text": nested_document(kind, n)}}),
        );
        let diags = c.diagnostics(&u);
        if n > 2100 {
            proptest::prop_assert!(!diags.is_empty(), "kind {} at {}: no diagnostic", kind, n);
        }
        let h = c.request("textDocument/documentSymbol", json!({"textDocument": {"uri": u}}));
        proptest::prop_assert!(h.get("result").is_some(), "kind {} at {}: {}", kind, n, h);
        c.request("shutdown", json!(null));
        c.notify("exit", json!(null));
        proptest::prop_assert_eq!(exit_status(c.child), Some(0));
    }
}
