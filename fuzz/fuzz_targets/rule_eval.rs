//! The evaluator on programs that check: examples and theorems run under small budgets.
#![no_main]
use libfuzzer_sys::fuzz_target;
use okite::check::load::load_str;
use okite::eval::{run, Budget, Evaluator};
use okite::natives::Natives;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(prog) = load_str("fuzz.rule", text, &Natives::standard()) else { return };
    let binder = okite::bindings::Sound::standard();
    let mut ev = Evaluator::new(&prog, &binder);
    ev.budget = Budget {
        max_steps: 200_000,
        max_depth: 2_000,
        max_memo_bytes: 16 << 20,
        max_resident_bytes: 2 << 30,
        timeout: Some(Duration::from_millis(500)),
    };
    let _ = run::run_all(&mut ev, None);
});
