//! The lines of a `okite mate --batch` file: each a position (SFEN or `startpos`, with moves)
//! read as the batch reads it, answered with a game or with diagnostics, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for line in text.lines().take(64) {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match okite::front::shogi_game(line, "") {
            Ok(g) => assert!(!g.positions.is_empty()),
            Err((_, ds)) => assert!(!ds.is_empty()),
        }
        let _ = okite::front::pseudo_game(line, "", None);
    }
});
