#![forbid(unsafe_code)]
//! JSON text for the outputs of the commands: okite writes its JSON by hand (objects of a few
//! fields each), and every string in it goes through [`string`].

/// A string as a JSON string literal, with the characters JSON requires escaped.
pub fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes() {
        assert_eq!(
            super::string("a\"b\\c\nd\te\u{1}𝓟"),
            "\"a\\\"b\\\\c\\nd\\te\\u0001𝓟\""
        );
    }
}
