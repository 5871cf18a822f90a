//! The rule-language parser and checker on arbitrary text: diagnostics, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;
use okite::check::load::load_str;
use okite::natives::Natives;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match load_str("fuzz.rule", text, &Natives::standard()) {
        Ok(_) => {}
        Err((sources, diags)) => {
            assert!(!diags.is_empty(), "a rejected file must carry a diagnostic");
            // rendering must not panic either, whatever the spans
            let _ = okite::diagnostics::render(&diags, &sources, 100, false);
        }
    }
});
