//! The USI `position` command (startpos or sfen, then a move list) on arbitrary text.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(game) = okite::shogi::usi::parse_position_command(text) {
        let back = okite::shogi::usi::parse_position_command(&game.to_usi_position())
            .expect("a written position command reads back");
        assert_eq!(back.last().to_sfen(), game.last().to_sfen());
    }
});
