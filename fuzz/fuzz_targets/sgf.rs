//! SGF records on arbitrary text, replayed under every preset on the small grids they name.
#![no_main]
use libfuzzer_sys::fuzz_target;
use okite::go::rules::Rules;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(rec) = okite::go::sgf::parse_sgf(text) else { return };
    for preset in ["seed", "area", "situational", "simple-ko", "suicide"] {
        let rules = Rules::preset(preset).expect("preset");
        let _ = rec.replay(text, rules);
    }
});
