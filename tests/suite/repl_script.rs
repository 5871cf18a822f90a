#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The REPL reading a script from a pipe: no prompts, no colours, exact output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn okite_repl(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_okite"));
    cmd.arg("repl")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "100")
        .env(
            "OKITE_HISTORY",
            std::env::temp_dir().join("okite-repl-script-history"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// A REPL on a rule file, asked one line at a time.
struct Talk {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    out: BufReader<std::process::ChildStdout>,
}

impl Talk {
    fn on(file: &std::path::Path) -> Talk {
        let mut child = okite_repl(&[file.to_str().unwrap()]).spawn().unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = BufReader::new(child.stdout.take().unwrap());
        Talk { child, stdin, out }
    }

    /// The first line of the answer to `line`.
    fn ask(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
        let mut s = String::new();
        self.out.read_line(&mut s).unwrap();
        s.trim_end().to_string()
    }

    /// Ends the session, which must exit with success.
    fn end(mut self) {
        drop(self.stdin);
        assert!(self.child.wait().unwrap().success());
    }
}

/// What `:reload` says when `file` changed and `kept` memo entries were carried over.
fn reloaded(file: &std::path::Path, kept: usize) -> String {
    format!(
        "reloaded ({} changed); kept {kept} memo entries of unchanged definitions",
        file.display()
    )
}

/// Run a whole script; (stdout, stderr, exit status).
fn run_script(script: &str) -> (String, String, i32) {
    run_script_on(&[], script)
}

/// Run a whole script on the rule files `args`.
fn run_script_on(args: &[&str], script: &str) -> (String, String, i32) {
    let mut child = okite_repl(args).spawn().expect("okite repl");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

const SCRIPT: &str = r#"// a script for okite repl
1 + 2 * 3
{ x * x | x in 1..4 }
:type size(boards(path(3)))
size(boards(path(3)))
:sfen 7nk/9/6B1L/9/9/9/9/9/4K4 b P 1
:board
:legal
:moves P*1b
uchifuzume(g, i)
:reading broad
forbidden(Perpetual, 13)
def corners(G: Graph) -> Set<Vertex> =
    { v | v in V(G), size(G(v)) == 2 }
:go grid:3x3 B2 A1
corners(G)
c(5)
:board
:defs corner
undefined_thing + 1
:sfen startpos 7g7f 7g7f
:quit
1 + 1
"#;

const EXPECTED_OUT: &str = "\
7
{1, 4, 9, 16}
size(boards(path(3))) : Int
15
game of 1 position, now sfen 7nk/9/6B1L/9/9/9/9/9/4K4 b P 1; g and i bound (i = 1)
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・ ・ ・ ・ ・ ・ ・v桂v玉|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ 角 ・ 香|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九
+---------------------------+
先手の持駒：歩
先手番
sfen 7nk/9/6B1L/9/9/9/9/9/4K4 b P 1
i = 1 (0 moves played)
1c1b 1c1b+ 3c1e 3c1e+ 3c2b 3c2b+ 3c2d 3c2d+ 3c4b 3c4b+ 3c4d 3c4d+ 3c5a 3c5a+ 3c5e 3c5e+ 3c6f 3c6f+ 3c7g 3c7g+ 3c8h 3c8h+ 3c9i 3c9i+ 5i4h 5i4i 5i5h 5i6h 5i6i P*2b
30 legal moves under the reading base
game of 2 positions, now sfen 7nk/8P/6B1L/9/9/9/9/9/4K4 w - 2; g and i bound (i = 2)
true
reading broad
true
definition `corners` defined
Go board on 9 vertices, 2 moves played; G and c bound (G's vertices 1..9 are A3 B3 C3 A2 B2 C2 A1 B1 C1)
{1, 3, 7, 9}
-1
  A B C
3 . . .
2 . X .
1 O . .
Black (X) to play (2 moves played)
corners(G) : (Graph) -> Set<Int>
";

const EXPECTED_ERR: &str = "\
okite::E0100

  × unknown name `undefined_thing`
   ╭─[<input 19>:1:1]
 1 │ undefined_thing + 1
   · ───────┬───────
   ·        ╰── not defined
   ╰────
  help: define it with `def`, or bind it with `let`, a quantifier or a parameter
okite::E0402

  × bad move `7g7f`: it is not a move of this position
   ╭─[<input 20>:1:21]
 1 │ :sfen startpos 7g7f 7g7f
   ·                     ──┬─
   ·                       ╰── move 2
   ╰────
  help: moves are written in USI: 7g7f, 8h2b+, P*5e
";

#[test]
fn a_piped_script_prints_exactly_its_results() {
    let (out, err, code) = run_script(SCRIPT);
    assert_eq!(out, EXPECTED_OUT, "stdout:\n{out}\nstderr:\n{err}");
    assert_eq!(err, EXPECTED_ERR, "stderr:\n{err}");
    // a script with errors ends with status 1; nothing after :quit runs
    assert_eq!(code, 1);
}

#[test]
fn a_clean_script_ends_with_status_zero_and_ctrl_d_is_the_end_of_input() {
    let (out, err, code) = run_script("let x = 20 in x + 1\n[n | n in seq(1..3)]\n:type path(2)\n");
    assert_eq!(out, "21\n[1, 2, 3]\npath(2) : Graph\n");
    assert_eq!(err, "");
    assert_eq!(code, 0);
}

/// A REPL on a rule file that the test changes while the REPL runs.
#[test]
fn reload_keeps_memo_tables_when_nothing_changed_and_prompt_definitions_override() {
    let dir = std::env::temp_dir().join(format!("okite-repl-reload-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.rule");
    std::fs::write(
        &file,
        "def k -> Int = 1\ndef twice(x: Int) -> Int = 2 * x\n",
    )
    .unwrap();
    let mut talk = Talk::on(&file);
    let mut ask = |line: &str| talk.ask(line);
    assert_eq!(ask("twice(k)"), "2");
    assert!(
        ask(":reload").starts_with("no rule file changed; memo tables kept ("),
        "nothing changed"
    );
    std::fs::write(
        &file,
        "def k -> Int = 10\ndef twice(x: Int) -> Int = 2 * x\n",
    )
    .unwrap();
    assert_eq!(ask(":reload"), reloaded(&file, 0));
    assert_eq!(ask("twice(k)"), "20");
    assert_eq!(
        ask("def twice(x: Int) -> Int = 3 * x"),
        "definition `twice` defined (in place of the rule files' one for this session)"
    );
    assert_eq!(ask("twice(k)"), "30");
    // the override outlives a reload of the files
    std::fs::write(
        &file,
        "def k -> Int = 100\ndef twice(x: Int) -> Int = 2 * x\n",
    )
    .unwrap();
    assert!(ask(":reload").starts_with("reloaded ("));
    assert_eq!(ask("twice(k)"), "300");
    assert_eq!(ask(":defs tw"), "twice(x) : (Int) -> Int");
    talk.end();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_kif_record_sets_the_game() {
    let dir = std::env::temp_dir().join(format!("okite-repl-kif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let kif = dir.join("game.kif");
    std::fs::write(
        &kif,
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n",
    )
    .unwrap();
    let script = format!(
        ":kif {}\n:moves\ni\nturn(g[i])\n:go grid:1x3 A1\n:legal\n",
        kif.display()
    );
    let (out, err, code) = run_script(&script);
    assert_eq!(err, "");
    assert_eq!(
        out,
        "game of 6 positions, now sfen lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 6; \
         g and i bound (i = 6)\n7g7f 3c3d 8h2b+ 3a2b B*4e\n6\n後手\n\
         Go board on 3 vertices, 1 move played; G and c bound (G's vertices 1..3 are A1 B1 C1)\nB1 C1 pass\n\
         3 legal moves for White (O) (no suicide)\n"
    );
    assert_eq!(code, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn explanations_take_a_depth_and_errors_in_command_arguments_point_into_the_line() {
    let (out, err, code) = run_script(
        ":sfen 7nk/9/6B1L/9/9/9/9/9/4K4 b P 1 P*1b\n\
         :explain --depth 1 uchifuzume(g, i)\n\
         :compare -d 1 narrow,broad forbidden(Perpetual, 13)\n\
         :type uchifuzume(g, i) or tru\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "uchifuzume(g, i) = true");
    assert!(lines[2]
        .starts_with("uchifuzume([2 states … sfen(7nk/8P/6B1L/9/9/9/9/9/4K4 w - 1)], 2) = true"));
    assert_eq!(lines[3], "  … (deeper steps not shown; raise --depth)");
    assert_eq!(
        lines[4..7],
        ["reading  value", "narrow   false", "broad    true"]
    );
    assert!(out.contains("\nwhy forbidden(Perpetual, 13) = true under broad:\n"));
    assert!(
        err.contains(
            "   ╭─[<input 4>:1:27]\n 1 │ :type uchifuzume(g, i) or tru\n   ·                           ─┬─\n"
        ),
        "{err}"
    );
    assert_eq!(code, 1);
}

/// `:compare` without a reading before the expression says so, and prints no table.
#[test]
fn compare_without_readings_is_refused() {
    let (out, err, code) = run_script(":compare , 1\n");
    assert_eq!(out, "");
    assert!(err.contains(":compare needs at least one reading"), "{err}");
    assert_eq!(code, 1);
}

/// A depth that is not a number of levels is refused as such, not read as a reading's name
/// or an expression.
#[test]
fn a_depth_that_is_not_a_number_is_refused() {
    for line in [
        ":compare --depth -1 narrow 1\n",
        ":explain --depth 99999999999999999999999 1 + 1\n",
        ":explain --depth\n",
    ] {
        let (out, err, code) = run_script(line);
        assert_eq!(out, "", "{line}");
        assert!(
            err.contains("--depth takes a number of levels"),
            "{line}: {err}"
        );
        assert!(!err.contains(&usize::MAX.to_string()), "{line}: {err}");
        assert_eq!(code, 1, "{line}");
    }
    // `-d` before a number is the option; before anything else it begins the expression
    let (out, err, code) = run_script("def d -> Int = 3\n:explain -d * 2\n:explain -d 0 d\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("-6"), "{out}");
    assert!(out.lines().any(|l| l.trim() == "d = 3"), "{out}");
}

#[test]
fn examples_and_theorems_typed_at_the_prompt_run_at_once() {
    let (out, err, code) = run_script(
        "example \"paths\" { assert size(path(3)) == 3 }\n\
         theorem \"neighbours are mutual\" for v, w in V(path(4)):\n    \
         v in path(4)(w) iff w in path(4)(v)\n\
         example \"wrong\" { assert 1 + 1 == 3 }\n",
    );
    assert_eq!(
        out,
        "example `paths` defined\nok    example \"paths\"\n\
         theorem `neighbours are mutual` defined\nok    theorem \"neighbours are mutual\" (16 cases)\n\
         example `wrong` defined\nFAIL  example \"wrong\": example \"wrong\": assertion failed\n"
    );
    assert!(err.contains("left is 2, right is 3"), "{err}");
    assert_eq!(code, 1);
}

/// SIGINT (Ctrl-C) during a query of a piped script interrupts that query only.
#[cfg(unix)]
#[test]
fn an_interrupt_stops_the_running_query_and_the_script_goes_on() {
    let mut child = okite_repl(&[]).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "1 + 1").unwrap();
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert_eq!(line, "2\n");
    writeln!(stdin, "perft(start, 4)").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    line.clear();
    out.read_line(&mut line).unwrap();
    assert!(
        line.starts_with("interrupted (memo tables kept: "),
        "{line}"
    );
    writeln!(stdin, "2 + 3").unwrap();
    drop(stdin);
    line.clear();
    out.read_line(&mut line).unwrap();
    assert_eq!(line, "5\n");
    assert!(child.wait().unwrap().success());
}

#[test]
fn an_empty_line_or_a_command_ends_an_unfinished_definition() {
    let (out, err, code) =
        run_script("def x =\n:type 1\ndef y =\n\n1 + 1\ndef z(a: Int) -> Int =\n  a + 1\nz(1)\n");
    assert_eq!(out, "1 : Int\n2\ndefinition `z` defined\n2\n");
    assert_eq!(err.matches("expected an expression").count(), 2, "{err}");
    assert_eq!(code, 1);
}

/// After a change, the memo entries of definitions that did not change (nor anything they use)
/// are kept; those of changed definitions are not.
#[test]
fn reload_keeps_the_memo_of_untouched_definitions() {
    let dir = std::env::temp_dir().join(format!("okite-repl-reload2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.rule");
    let body = "def total(n: Int) -> Int = sum i in 1..n: i\ndef shifted(n: Int) -> Int = sum i in 1..n: i + k\n";
    std::fs::write(&file, format!("def k -> Int = 1\n{body}")).unwrap();
    let mut talk = Talk::on(&file);
    let mut ask = |line: &str| talk.ask(line);
    assert_eq!(ask("total(100) + shifted(10)"), "5115");
    std::fs::write(&file, format!("def k -> Int = 2\n{body}")).unwrap();
    // total(100) is kept; k and shifted(10) (which uses k) are not
    assert_eq!(ask(":reload"), reloaded(&file, 1));
    assert_eq!(ask("total(100) + shifted(10)"), "5125");
    talk.end();
    let _ = std::fs::remove_dir_all(&dir);
}

/// Memo entries are carried to a program that declares the same enums first (an enum added
/// after them keeps their values as they were), and to none that declares them otherwise.
#[test]
fn reload_keeps_the_memo_while_the_enums_before_are_the_same() {
    let dir = std::env::temp_dir().join(format!("okite-repl-reload3-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("t.rule");
    let body = "def total(n: Int) -> Int = sum i in 1..n: i\ndef shifted(n: Int) -> Int = sum i in 1..n: i + k\ndef k -> Int = 1\n";
    std::fs::write(&file, format!("enum Colour {{ Red, Blue }}\n{body}")).unwrap();
    let mut talk = Talk::on(&file);
    let mut ask = |line: &str| talk.ask(line);
    assert_eq!(ask("total(100) + shifted(10)"), "5115");
    std::fs::write(
        &file,
        format!("enum Colour {{ Red, Blue }}\n{body}enum Shade {{ Dark, Light }}\n"),
    )
    .unwrap();
    // total, shifted and k are kept
    assert_eq!(ask(":reload"), reloaded(&file, 3));
    assert_eq!(ask("total(100) + shifted(10)"), "5115");
    std::fs::write(
        &file,
        format!("enum Colour {{ Red, Green, Blue }}\n{body}enum Shade {{ Dark, Light }}\n"),
    )
    .unwrap();
    assert_eq!(ask(":reload"), reloaded(&file, 0));
    assert_eq!(ask("total(100) + shifted(10)"), "5115");
    talk.end();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A piped line that is not UTF-8 text is said (E0006) and skipped; the script goes on, and ends
/// with status 1 since it had an error.
#[test]
fn a_line_that_is_not_text_is_skipped_not_the_end() {
    let mut child = okite_repl(&[]).spawn().expect("okite repl");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1 + 1\n\xff\xfe bad\n2 + 2\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stdout.lines().collect::<Vec<_>>(),
        vec!["2", "4"],
        "{stderr}"
    );
    assert!(
        stderr.contains("E0006") && stderr.contains("not UTF-8"),
        "{stderr}"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// Definitions typed one by one (the REPL extends its program with each, and builds it afresh
/// when one replaces another or fails) answer as the same definitions loaded from a file, with
/// queries asked between them (whose memo entries are carried from program to program).
#[test]
fn definitions_typed_one_by_one_answer_as_the_same_text_loaded() {
    const BASE: &str = "def scale = 3\n\
        def twice(n) = 2 * n\n\
        def deep(n) = if n <= 0 then scale else deep(n - 1) + 1\n\
        def spread(n) = count x in {1, 2, 3}: x <= n\n\
        reading heavy {\n    override def scale = 5\n    def extra = 7\n}\n";
    let dir = std::env::temp_dir().join(format!("okite-repl-typed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for seed in [1u64, 7, 42] {
        let state = std::cell::Cell::new(seed);
        let next = |n: u64| {
            state.set(
                state
                    .get()
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407),
            );
            (state.get() >> 33) % n
        };
        let olds = ["scale", "twice(ARG)", "deep(ARG)", "spread(ARG)", "1"];
        let mut names: Vec<String> = vec![];
        // the accepted definitions, by name (one given again replaces the earlier one)
        let mut accepted: Vec<(String, String)> = vec![];
        let mut script = String::new();
        for i in 0..60 {
            let term = |arg: &str, names: &[String]| -> String {
                match (next(3), names.is_empty()) {
                    (0, false) => {
                        let n = &names[next(names.len() as u64) as usize];
                        if n.starts_with('c') {
                            n.clone()
                        } else {
                            format!("{n}({arg})")
                        }
                    }
                    _ => olds[next(olds.len() as u64) as usize].replace("ARG", arg),
                }
            };
            let (name, text) = match next(8) {
                0..=2 => {
                    let n = format!("c{i}");
                    let t = format!("def {n} = {} + {}", term("2", &names), term("1", &names));
                    (n, t)
                }
                3 | 4 => {
                    let n = format!("f{i}");
                    let t = format!(
                        "def {n}(n) = if n <= 0 then 1 else {} + {n}(n - 1)",
                        term("n", &names)
                    );
                    (n, t)
                }
                5 => match names.iter().find(|n| n.starts_with('c')) {
                    Some(n) => (n.clone(), format!("def {n} = {}", next(9))),
                    None => continue,
                },
                6 => {
                    script.push_str(&format!("def w{i} = no_such_name + 1\n"));
                    continue;
                }
                _ => {
                    if let Some(n) = names.last() {
                        let q = if n.starts_with('c') {
                            n.clone()
                        } else {
                            format!("{n}(3)")
                        };
                        script.push_str(&format!("{q}\n"));
                    }
                    continue;
                }
            };
            script.push_str(&text);
            script.push('\n');
            accepted.retain(|(k, _)| *k != name);
            accepted.push((name.clone(), text));
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let queries: String = names
            .iter()
            .map(|n| {
                if n.starts_with('c') {
                    format!("{n}\n")
                } else {
                    format!("{n}(4)\n")
                }
            })
            .collect();
        let all = format!("{queries}:reading heavy\n{queries}");
        let (base, whole) = (
            dir.join(format!("base{seed}.rule")),
            dir.join(format!("all{seed}.rule")),
        );
        std::fs::write(&base, BASE).unwrap();
        let mut text = BASE.to_string();
        for (_, t) in &accepted {
            text.push_str(t);
            text.push('\n');
        }
        std::fs::write(&whole, text).unwrap();
        let run = |file: &std::path::Path, script: &str| -> String {
            run_script_on(&[file.to_str().unwrap()], script).0
        };
        let typed = run(&base, &format!("{script}\"answers\"\n{all}"));
        let loaded = run(&whole, &format!("\"answers\"\n{all}"));
        let answers = |out: &str| out.split("\"answers\"\n").nth(1).map(str::to_string);
        assert!(
            answers(&loaded).is_some_and(|a| a.lines().count() >= names.len()),
            "{loaded}"
        );
        assert_eq!(
            answers(&typed),
            answers(&loaded),
            "seed {seed}, script:\n{script}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
