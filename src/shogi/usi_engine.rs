//! A USI engine loop for mate search (`go mate`).
//!
//! Understood: `usi`, `isready`, `setoption name USI_Hash value N` (MiB),
//! `setoption name MateLength value shortest|any`, `usinewgame`, `position ...`,
//! `go mate <ms|infinite>` (answered with `info` lines and `checkmate <moves>`,
//! `checkmate nomate` or `checkmate timeout`), `go ...` otherwise (answered with
//! `bestmove` of a mate in one or `resign`), `stop` and `gameover` (ignored: the search runs
//! to its limit), `quit`. Unknown or malformed commands produce an `info string` line; the
//! loop never panics on input.

use super::dfpn::{solve, MateLength, MateOptions, MateStatus};
use super::mate1::mate_in_1;
use super::position::Position;
use super::usi::parse_position_command;
use std::io::{BufRead, Write};

/// Runs the engine until `quit` or the end of the input. Output errors end the loop.
pub fn usi_loop(input: impl BufRead, mut output: impl Write) -> std::io::Result<()> {
    let mut pos = Position::startpos();
    let mut hash_mb = 64usize;
    let mut length = MateLength::Shortest;
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => {
                writeln!(output, "info string unreadable input line")?;
                continue;
            }
        };
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        match cmd {
            "usi" => {
                writeln!(output, "id name okite-mate")?;
                writeln!(output, "id author okite")?;
                writeln!(
                    output,
                    "option name USI_Hash type spin default 64 min 1 max 65536"
                )?;
                writeln!(
                    output,
                    "option name MateLength type combo default shortest var shortest var any"
                )?;
                writeln!(output, "usiok")?;
            }
            "isready" => writeln!(output, "readyok")?,
            "setoption" => {
                let rest: Vec<&str> = words.collect();
                let name = rest
                    .iter()
                    .position(|w| *w == "name")
                    .and_then(|i| rest.get(i + 1));
                let value = rest
                    .iter()
                    .position(|w| *w == "value")
                    .and_then(|i| rest.get(i + 1));
                match (name, value) {
                    (Some(&"USI_Hash"), Some(v)) => match v.parse::<usize>() {
                        Ok(n) if (1..=65536).contains(&n) => hash_mb = n,
                        _ => writeln!(output, "info string bad USI_Hash value {v}")?,
                    },
                    (Some(&"MateLength"), Some(&"shortest")) => length = MateLength::Shortest,
                    (Some(&"MateLength"), Some(&"any")) => length = MateLength::Any,
                    _ => writeln!(output, "info string ignored option: {line}")?,
                }
            }
            "usinewgame" | "stop" | "gameover" | "ponderhit" => {}
            "position" => match parse_position_command(line) {
                Ok(game) => pos = game.last().clone(),
                Err(e) => {
                    let msg = e.to_string().replace('\n', " ");
                    writeln!(output, "info string bad position: {msg}")?;
                }
            },
            "go" => {
                let args: Vec<&str> = words.collect();
                if args.first() == Some(&"mate") {
                    let ms = match args.get(1) {
                        None | Some(&"infinite") => Some(0),
                        Some(v) => v.parse::<u64>().ok(),
                    };
                    let Some(ms) = ms else {
                        writeln!(output, "info string bad go mate time")?;
                        writeln!(output, "checkmate timeout")?;
                        continue;
                    };
                    go_mate(&pos, ms, hash_mb, length, &mut output)?;
                } else {
                    match mate_in_1(&pos) {
                        Some(m) => writeln!(output, "bestmove {}", m.to_usi())?,
                        None => writeln!(output, "bestmove resign")?,
                    }
                }
            }
            "quit" => break,
            _ => writeln!(output, "info string unknown command: {cmd}")?,
        }
        output.flush()?;
    }
    output.flush()
}

fn go_mate(
    pos: &Position,
    ms: u64,
    hash_mb: usize,
    length: MateLength,
    output: &mut impl Write,
) -> std::io::Result<()> {
    let opts = MateOptions {
        max_ms: ms,
        hash_mb,
        length,
        ..Default::default()
    };
    let r = solve(pos, &opts);
    let nps = (r.nodes * 1000).checked_div(r.ms).unwrap_or(0);
    match r.result {
        MateStatus::Mate => {
            let pv: Vec<String> = r.pv.iter().map(|m| m.to_usi()).collect();
            writeln!(
                output,
                "info time {} nodes {} nps {} score mate {} pv {}",
                r.ms,
                r.nodes,
                nps,
                r.plies,
                pv.join(" ")
            )?;
            if !r.shortest {
                writeln!(output, "info string the length is not proven shortest")?;
            }
            writeln!(output, "checkmate {}", pv.join(" "))
        }
        MateStatus::NoMate => {
            writeln!(output, "info time {} nodes {} nps {}", r.ms, r.nodes, nps)?;
            writeln!(output, "checkmate nomate")
        }
        MateStatus::Unknown => {
            writeln!(output, "info time {} nodes {} nps {}", r.ms, r.nodes, nps)?;
            writeln!(output, "checkmate timeout")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(input: &str) -> String {
        let mut out = Vec::new();
        usi_loop(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake_and_mate() {
        let out = run("usi\nisready\nsetoption name USI_Hash value 8\n\
             position sfen 4k4/9/4P4/9/9/9/9/9/4K4 b G 1\ngo mate 1000\nquit\n");
        assert!(out.contains("usiok"));
        assert!(out.contains("readyok"));
        assert!(out.contains("checkmate G*5b"), "{out}");
    }

    #[test]
    fn nomate_and_errors() {
        let out = run(
            "position startpos\ngo mate infinite\nposition sfen garbage\n\
             go mate abc\nsetoption name USI_Hash value -3\nfoo\n\n",
        );
        assert!(out.contains("checkmate nomate"), "{out}");
        assert!(out.contains("bad position"), "{out}");
        assert!(out.contains("checkmate timeout"), "{out}");
        assert!(out.contains("bad USI_Hash"), "{out}");
        assert!(out.contains("unknown command: foo"), "{out}");
    }

    #[test]
    fn timeout_reported() {
        // A position with many checks and no short mate: 1 ms is not enough to decide.
        let out = run("position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1\ngo mate 1\n");
        assert!(
            out.contains("checkmate timeout") || out.contains("checkmate "),
            "{out}"
        );
    }

    #[test]
    fn fuzz_lines_never_panic() {
        let words = [
            "usi",
            "isready",
            "position",
            "sfen",
            "startpos",
            "moves",
            "go",
            "mate",
            "7g7f",
            "1",
            "infinite",
            "setoption",
            "name",
            "value",
            "USI_Hash",
            "k",
            "b",
            "-",
            "P*5e",
            "quit_",
            "9/9/9/9/9/9/9/9/9",
            "4k4/9/9/9/9/9/9/9/4K4",
        ];
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let mut text = String::new();
        for _ in 0..300 {
            let n = (s % 7) as usize;
            for _ in 0..n {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                text.push_str(words[(s % words.len() as u64) as usize]);
                text.push(' ');
            }
            text.push('\n');
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        // Limit every search: a `go mate` without a time would be infinite.
        let text = text.replace("go mate", "go mate 5 ");
        let _ = run(&text);
    }
}
