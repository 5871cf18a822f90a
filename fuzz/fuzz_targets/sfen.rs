//! SFEN on arbitrary text; accepted positions round-trip and survive move generation and
//! mate in 1, whose answer must be a legal move; the move count agrees with the generator.
#![no_main]
use libfuzzer_sys::fuzz_target;
use okite::shogi::position::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(pos) = Position::from_sfen(text) else { return };
    let again = Position::from_sfen(&pos.to_sfen()).expect("a written SFEN reads back");
    assert_eq!(again.to_sfen(), pos.to_sfen());
    let _ = pos.validate_strict();
    if !pos.validate_strict().is_empty() {
        return;
    }
    let moves = pos.legal_moves();
    let _ = pos.in_check();
    assert_eq!(pos.count_legal(), moves.len(), "count_legal");
    if let Some(m) = okite::shogi::mate1::mate_in_1(&pos) {
        assert!(moves.iter().any(|&l| l == m), "mate in 1 answered an illegal move");
    }
});
