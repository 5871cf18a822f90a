//! The USI engine's command reader on arbitrary input. `go` commands are given a 1 ms limit so
//! that an input is a few searches at most.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut input = String::new();
    for line in text.lines().take(64) {
        if line.trim_start().starts_with("go") {
            input.push_str("go mate 1\n");
        } else {
            input.push_str(line);
            input.push('\n');
        }
    }
    let mut out = Vec::new();
    okite::shogi::usi_engine::usi_loop(input.as_bytes(), &mut out).expect("writes to a Vec");
});
