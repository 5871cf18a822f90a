//! The REPL on arbitrary input piped to it (the shipped rules loaded): lines of definitions,
//! queries and commands, answered or refused, never a panic. Queries run under the REPL's
//! budgets; `:load`, `:kif` and the like read files, so paths are kept out.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // at most 32 lines, none naming a path to read or a budget to raise
    let mut input = Vec::new();
    for line in data.split(|&b| b == b'\n').take(32) {
        let t = String::from_utf8_lossy(line);
        let cmd = t.trim_start();
        if [":load", ":reload", ":kif", ":csa", ":sgf", ":set"]
            .iter()
            .any(|c| cmd.starts_with(c))
        {
            continue;
        }
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    okite::repl::run_piped(vec![], Box::new(std::io::Cursor::new(input)));
});
