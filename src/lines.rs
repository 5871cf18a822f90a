#![forbid(unsafe_code)]
//! Lines read with a bound: a stream without line ends (a pipe from `/dev/zero`, a runaway
//! producer) takes no more memory than the bound, for the REPL's piped input and the USI
//! engine's commands.

use std::io::BufRead;

/// The bytes of a line too long to read that are kept.
pub const HEAD: usize = 64;

/// The first word of a line's bytes, read as text whatever its encoding (a line refused as not
/// UTF-8, or the head of one too long to read).
pub fn first_word(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string()
}

/// Reads a line (with its end) of at most `limit` bytes into `buf`: `Ok(n)` with the bytes
/// read (0 at the end of the input), or, for a longer line, `Err(n)` with its length, the line
/// read to its end without being kept and `buf` left with at most its first `HEAD` bytes
/// (enough to tell which command a skipped line was).
pub fn read_line_bounded(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Result<usize, usize>> {
    use std::io::Read;
    let n = r.by_ref().take(limit as u64 + 1).read_until(b'\n', buf)?;
    if n <= limit || buf.ends_with(b"\n") {
        return Ok(Ok(n));
    }
    buf.truncate(HEAD);
    let mut skipped = n;
    loop {
        let chunk = r.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                r.consume(i + 1);
                skipped += i + 1;
                break;
            }
            None => {
                let l = chunk.len();
                r.consume(l);
                skipped += l;
            }
        }
    }
    Ok(Err(skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_lines_are_skipped_whole() {
        let text = format!("ab\n{}\ncd", "x".repeat(100));
        let mut r = std::io::BufReader::with_capacity(7, text.as_bytes());
        let mut got = vec![];
        loop {
            let mut buf = vec![];
            match read_line_bounded(&mut r, &mut buf, 10).unwrap() {
                Ok(0) => break,
                Ok(_) => got.push(String::from_utf8(buf).unwrap()),
                Err(n) => {
                    // the head of the line is kept, no more than was read of it
                    assert_eq!(buf, vec![b'x'; 11]);
                    got.push(format!("<{n}>"));
                }
            }
        }
        assert_eq!(got, ["ab\n", "<101>", "cd"]);
        // a line of exactly the limit, with or without its end
        let mut r = "0123456789\n0123456789".as_bytes();
        let mut buf = vec![];
        assert_eq!(read_line_bounded(&mut r, &mut buf, 10).unwrap(), Ok(11));
        buf.clear();
        assert_eq!(read_line_bounded(&mut r, &mut buf, 10).unwrap(), Ok(10));
    }
}
