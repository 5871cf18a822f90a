#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a failed unwrap is a failed test
//! The REPL driven in a real pseudo-terminal: line editing on, prompts shown, Ctrl-C and Ctrl-D
//! as a person types them.
#![cfg(unix)]

use expectrl::session::OsSession as Session;
use expectrl::{ControlCode, Expect};
use std::process::Command;
use std::time::Duration;

fn spawn(history: &std::path::Path) -> Session {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_okite"));
    cmd.arg("repl")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("OKITE_HISTORY", history)
        .env("TERM", "xterm")
        .env("NO_COLOR", "1");
    let mut p = Session::spawn(cmd).expect("spawn okite repl in a pseudo-terminal");
    p.set_expect_timeout(Some(Duration::from_secs(60)));
    p
}

/// Ctrl-C at the prompt: wait for the new prompt, and for the terminal to be read again (input
/// typed while the line editor switches modes may be dropped, as in any terminal).
fn settle(p: &mut Session) {
    std::thread::sleep(Duration::from_millis(300));
    prompt(p);
    std::thread::sleep(Duration::from_millis(200));
}

fn prompt(p: &mut Session) {
    p.expect("okite> ").expect("the prompt");
}

#[test]
fn a_session_in_a_terminal() {
    let dir = std::env::temp_dir().join(format!("okite-repl-pty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let history = dir.join("history");
    let _ = std::fs::remove_file(&history);
    let mut p = spawn(&history);
    p.expect(":help lists the commands").unwrap();
    prompt(&mut p);

    // :help lists every command with a line of description
    p.send_line(":help").unwrap();
    p.expect(":legal").unwrap();
    p.expect("legal moves of the current position").unwrap();
    p.expect(":quit").unwrap();
    prompt(&mut p);

    // a pawn-drop-mate position: P*1b would mate, and is not legal
    p.send_line(":sfen 7nk/9/6B1L/9/9/9/9/9/4K4 b P 1").unwrap();
    p.expect("g and i bound (i = 1)").unwrap();
    prompt(&mut p);

    p.send_line(":board").unwrap();
    p.expect("後手の持駒：なし").unwrap();
    p.expect("v桂v玉|一").unwrap();
    p.expect("角 ・ 香|三").unwrap();
    p.expect("先手の持駒：歩").unwrap();
    p.expect("sfen 7nk/9/6B1L/9/9/9/9/9/4K4 b P 1").unwrap();
    prompt(&mut p);

    p.send_line(":legal").unwrap();
    let legal = p.expect("legal moves under the reading base").unwrap();
    let text = String::from_utf8_lossy(legal.before()).to_string();
    for m in ["5i4h", "5i4i", "5i5h", "5i6h", "5i6i", "P*2b", "1c1b+"] {
        assert!(text.contains(m), "{m} is legal: {text}");
    }
    assert!(
        !text.contains("P*1b"),
        "the pawn-drop mate is not legal: {text}"
    );
    prompt(&mut p);

    // completion of commands and of definition names, and hints
    p.send(":leg\t").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    p.send("\r").unwrap();
    p.expect("30 legal moves under the reading base").unwrap();
    prompt(&mut p);
    p.send(":rel").unwrap();
    p.expect(":reload").unwrap(); // the rest of the command, hinted
    p.send(ControlCode::EndOfText).unwrap();
    settle(&mut p);
    p.send("uchifuzume(").unwrap();
    p.expect("uchifuzume(g, i) : ").unwrap(); // the signature, hinted
    p.send(ControlCode::EndOfText).unwrap();
    settle(&mut p);
    p.send("uchifu\t").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    p.send("(g, i) or i == 1\r").unwrap();
    p.expect("true").unwrap();
    prompt(&mut p);

    // readings side by side: the perpetual check is forbidden only under broad
    p.send_line(":compare narrow,broad forbidden(Perpetual, 13)")
        .unwrap();
    p.expect("narrow   false").unwrap();
    p.expect("broad    true").unwrap();
    p.expect("perpetual_forbidden(").unwrap();
    prompt(&mut p);

    p.send_line(":explain mate(A, 2)").unwrap();
    p.expect("mate(A, 2) = true").unwrap();
    p.expect("[rules/shogi_mate.rule:70:5]").unwrap();
    prompt(&mut p);

    // an error points into the line typed
    p.send_line("size(path(3)) + tru").unwrap();
    p.expect("unknown name `tru`").unwrap();
    p.expect(":1:17]").unwrap();
    p.expect("size(path(3)) + tru").unwrap();
    p.expect("─┬─").unwrap();
    p.expect("not defined").unwrap();
    prompt(&mut p);

    // a definition over two lines, then used
    p.send_line("def double(x: Int) -> Int =").unwrap();
    p.send_line("    x * 2").unwrap();
    p.expect("definition `double` defined").unwrap();
    prompt(&mut p);
    p.send_line("double(21)").unwrap();
    p.expect("42").unwrap();
    prompt(&mut p);

    // Ctrl-C interrupts a long query and the session goes on
    p.send_line("perft(start, 4)").unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    p.send(ControlCode::EndOfText).unwrap();
    p.expect("interrupted (memo tables kept:").unwrap();
    prompt(&mut p);
    p.send_line(":time perft(start, 1)").unwrap();
    p.expect("30").unwrap();
    p.expect("memo hits").unwrap();
    prompt(&mut p);

    // Ctrl-C at the prompt clears the line
    p.send("1 + ").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    p.send(ControlCode::EndOfText).unwrap();
    settle(&mut p);
    p.send_line("7 * 6").unwrap();
    p.expect("42").unwrap();
    prompt(&mut p);

    p.send_line(":quit").unwrap();
    p.expect(expectrl::Eof).unwrap();

    // the history was kept
    let h = std::fs::read_to_string(&history).unwrap();
    assert!(h.contains(":legal"), "history: {h}");
    assert!(h.contains("double(21)"), "history: {h}");

    // Ctrl-D quits too, and the history is read back
    let mut p = spawn(&history);
    prompt(&mut p);
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect(expectrl::Eof).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A search that takes about a second shows a spinner with what runs on a terminal, and none
/// with `--quiet`; its answer is printed either way.
#[test]
fn long_searches_show_progress_on_a_terminal() {
    for quiet in [false, true] {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_okite"));
        cmd.args(["go", "classes", "--graph", "grid:3x3"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("TERM", "xterm")
            .env("NO_COLOR", "1");
        if quiet {
            cmd.arg("--quiet");
        }
        let mut p = Session::spawn(cmd).expect("spawn okite in a pseudo-terminal");
        p.set_expect_timeout(Some(Duration::from_secs(60)));
        let seen = p.expect(expectrl::Eof).expect("the command ends");
        let text = String::from_utf8_lossy(seen.as_bytes()).to_string();
        assert!(text.contains("N N N"), "{text}");
        assert_eq!(
            text.contains("classifying the vertices of grid:3x3"),
            !quiet,
            "quiet {quiet}: {text}"
        );
    }
}

/// An unfinished input is continued on lines that show a continuation prompt of their own: the
/// lines after `size([1,` are read with `   ... ` until the brackets close, an empty line ends
/// it (reported as it is), Ctrl-C drops it, and a command typed on a continuation line is run.
#[test]
fn an_unfinished_input_is_continued_with_its_own_prompt() {
    let dir = std::env::temp_dir().join(format!("okite-repl-cont-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut p = spawn(&dir.join("history"));
    prompt(&mut p);
    p.send_line("size([1,").unwrap();
    p.expect("   ... ").unwrap();
    p.send_line("2,").unwrap();
    p.expect("   ... ").unwrap();
    p.send_line("3])").unwrap();
    p.expect("\n3").unwrap();
    prompt(&mut p);
    // an empty line ends it: the error says what is missing
    p.send_line("size([1, 2").unwrap();
    p.expect("   ... ").unwrap();
    p.send_line("").unwrap();
    p.expect("error").unwrap();
    prompt(&mut p);
    // Ctrl-C on a continuation line drops the whole input
    p.send_line("size([7,").unwrap();
    p.expect("   ... ").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    p.send(ControlCode::EndOfText).unwrap();
    settle(&mut p);
    p.send_line("6 * 7").unwrap();
    p.expect("42").unwrap();
    prompt(&mut p);
    // a command on a continuation line ends the input before it, and is run
    p.send_line("size([1,").unwrap();
    p.expect("   ... ").unwrap();
    p.send_line(":quit").unwrap();
    p.expect(expectrl::Eof).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// `okite lsp` started by hand in a terminal says what it is and how to end it, and Ctrl-D then
/// ends it with the message and exit status the protocol gives an input that ends early.
#[test]
fn the_language_server_in_a_terminal_says_what_it_is() {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_okite"));
    cmd.arg("lsp").env("TERM", "xterm").env("NO_COLOR", "1");
    let mut p = Session::spawn(cmd).expect("spawn okite lsp in a pseudo-terminal");
    p.set_expect_timeout(Some(Duration::from_secs(30)));
    p.expect("a language server, for an editor to start")
        .unwrap();
    p.expect("Ctrl-D ends it").unwrap();
    std::thread::sleep(Duration::from_millis(200));
    p.send(ControlCode::EndOfTransmission).unwrap();
    p.expect("the input ended before a shutdown request")
        .unwrap();
    p.expect(expectrl::Eof).unwrap();
    let status = p.get_process().wait().unwrap();
    assert!(
        matches!(status, expectrl::process::unix::WaitStatus::Exited(_, 1)),
        "{status:?}"
    );
}

/// The slow tests (more than about 5 s each), run by .ci/run after the test command of
/// README.md: `cargo test --release -- --ignored ::slow::`.
mod slow {
    use super::*;

    /// Ctrl-C while `:load` parses or checks a large rule file stops the load: the rules are kept as
    /// they were and the session goes on; the same file loads when left alone.
    #[test]
    #[ignore = "slow: .ci/run runs it, `cargo test --release -- --ignored ::slow::`"]
    fn ctrl_c_interrupts_a_load() {
        let dir = std::env::temp_dir().join(format!("okite-repl-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let history = dir.join("history");
        // 300,000 chained definitions: a few seconds to check
        let big = dir.join("big.rule");
        let mut text = String::from("def d0 = 0\n");
        for i in 1..300_000 {
            text.push_str(&format!("def d{i} = d{}\n", i - 1));
        }
        std::fs::write(&big, text).unwrap();
        let mut p = spawn(&history);
        prompt(&mut p);
        // early, while the file is parsed (apart: the parse cannot be stopped), and later, while
        // it is checked
        for wait in [200, 1500] {
            p.send_line(format!(":load {}", big.display())).unwrap();
            std::thread::sleep(Duration::from_millis(wait));
            p.send(ControlCode::EndOfText).unwrap();
            p.expect("interrupted; the rules were kept as they were")
                .unwrap();
            prompt(&mut p);
            // the line editor reads the terminal again (input typed before may be dropped)
            std::thread::sleep(Duration::from_millis(200));
        }
        p.send_line("d5 + 1").unwrap();
        p.expect("unknown name `d5`").unwrap();
        prompt(&mut p);
        p.send_line("2 * 3").unwrap();
        p.expect("6").unwrap();
        prompt(&mut p);
        // left alone, the load ends and its definitions answer (its summary waited for: the
        // redrawn line echoes a prompt before the load ends)
        p.send_line(format!(":load {}", big.display())).unwrap();
        p.expect(expectrl::Regex("3[0-9]{5} definitions")).unwrap();
        prompt(&mut p);
        std::thread::sleep(Duration::from_millis(200));
        p.send_line("d5 + 6 * 7").unwrap();
        p.expect("42").unwrap();
        prompt(&mut p);
        p.send_line(":quit").unwrap();
        p.expect(expectrl::Eof).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
