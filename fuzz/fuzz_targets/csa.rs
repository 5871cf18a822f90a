//! CSA records on arbitrary bytes (UTF-8 or Shift-JIS).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok((text, _)) = okite::shogi::encoding::decode_record(data) else { return };
    let _ = okite::shogi::record::read_csa(&text);
});
