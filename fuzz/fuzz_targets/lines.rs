//! Lines read with a bound, on arbitrary input and bounds: every byte is either in a line kept
//! (of at most the bound) or counted in a line skipped, and nothing is read twice.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&limit, rest)) = data.split_first() else {
        return;
    };
    let limit = limit as usize % 64;
    let mut r = std::io::BufReader::with_capacity(7, rest);
    let mut total = 0;
    loop {
        let mut buf = Vec::new();
        match okite::lines::read_line_bounded(&mut r, &mut buf, limit).expect("reads a slice") {
            Ok(0) => break,
            Ok(n) => {
                assert_eq!(n, buf.len());
                assert!(n <= limit + 1);
                total += n;
            }
            Err(n) => {
                assert!(buf.is_empty() && n > limit);
                total += n;
            }
        }
    }
    assert_eq!(total, rest.len());
});
