#![forbid(unsafe_code)]
//! JSON-RPC messages framed by `Content-Length` headers, read with bounds: a header line, a
//! header block and a body each have a largest size, so no input makes the server allocate
//! without end. A body that is not a message is reported, not fatal.

use lsp_server::Message;
use std::io::{self, BufRead, Read, Write};

/// The largest message body read (a document of the largest size checked, escaped, fits).
pub const MAX_BODY_BYTES: usize = 64 << 20;
const MAX_HEADER_LINE: usize = 8 << 10;
const MAX_HEADER_LINES: usize = 32;

/// What one read from the client gave.
pub enum Incoming {
    Message(Message),
    /// A framed body that is not a JSON-RPC message (the text says why).
    Malformed(String),
    /// The input ended, or cannot be read on (a broken header).
    End,
}

/// Read one header line (without its `\r\n`), at most [`MAX_HEADER_LINE`] bytes.
fn header_line(r: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut buf = Vec::new();
    let n = r
        .by_ref()
        .take(MAX_HEADER_LINE as u64 + 1)
        .read_until(b'\n', &mut buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.len() > MAX_HEADER_LINE || !buf.ends_with(b"\n") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "header line too long or cut",
        ));
    }
    buf.pop();
    if buf.ends_with(b"\r") {
        buf.pop();
    }
    String::from_utf8(buf)
        .map(Some)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "header is not text"))
}

/// Read the next message.
pub fn read(r: &mut impl BufRead) -> Incoming {
    let mut size: Option<usize> = None;
    let mut lines = 0;
    loop {
        let line = match header_line(r) {
            Ok(Some(l)) => l,
            Ok(None) => return Incoming::End,
            Err(e) => {
                eprintln!("okite lsp: {e}; stopping");
                return Incoming::End;
            }
        };
        if line.is_empty() {
            if size.is_none() && lines == 0 {
                // a blank line between messages
                continue;
            }
            break;
        }
        lines += 1;
        if lines > MAX_HEADER_LINES {
            eprintln!("okite lsp: too many header lines; stopping");
            return Incoming::End;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.trim().eq_ignore_ascii_case("Content-Length") {
                size = value.trim().parse::<usize>().ok();
                if size.is_none() {
                    eprintln!("okite lsp: bad Content-Length `{}`; stopping", value.trim());
                    return Incoming::End;
                }
            }
        }
    }
    let Some(size) = size else {
        eprintln!("okite lsp: a message without Content-Length; stopping");
        return Incoming::End;
    };
    if size > MAX_BODY_BYTES {
        // skip the body, so the next message is read from its start
        match io::copy(&mut r.by_ref().take(size as u64), &mut io::sink()) {
            Ok(n) if n == size as u64 => {
                return Incoming::Malformed(format!(
                    "a message of {size} bytes, larger than the {} MiB read",
                    MAX_BODY_BYTES >> 20
                ))
            }
            _ => return Incoming::End,
        }
    }
    let mut body = vec![0u8; size];
    if r.read_exact(&mut body).is_err() {
        return Incoming::End;
    }
    match serde_json::from_slice::<Message>(&body) {
        Ok(m) => Incoming::Message(m),
        Err(e) => Incoming::Malformed(format!("not a JSON-RPC message: {e}")),
    }
}

/// Write one message. An error means the client is gone.
pub fn write(w: &mut impl Write, m: &Message) -> io::Result<()> {
    m.write(w)
}

/// The JSON-RPC answer to a body that is not a message: a parse error with a null id.
pub fn write_parse_error(w: &mut impl Write, why: &str) -> io::Result<()> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": -32700, "message": why },
    })
    .to_string();
    write!(w, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    #[test]
    fn reads_messages_and_survives_bad_ones() {
        let input = format!(
            "{}{}{}",
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#),
            "Content-Length: 99999999999\r\n\r\n"
        );
        let mut r = io::Cursor::new(input.into_bytes());
        assert!(matches!(read(&mut r), Incoming::Malformed(_)));
        assert!(matches!(
            read(&mut r),
            Incoming::Message(Message::Notification(_))
        ));
        assert!(matches!(read(&mut r), Incoming::End));
        let mut r = io::Cursor::new(b"Content-Length: x\r\n\r\n".to_vec());
        assert!(matches!(read(&mut r), Incoming::End));
    }
}
