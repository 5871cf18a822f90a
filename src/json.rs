#![forbid(unsafe_code)]
//! JSON text for the outputs of the commands: a report is a value that serde serialises, written
//! in okite's one style, `{"a": 1, "b": [1, 2]}` (a space after each `,` and `:`, on one line),
//! which scripts and the tests read.

use serde::Serialize;
use serde_json::ser::Formatter;
use std::io;

/// serde_json's compact output with a space after each separator.
struct Spaced;

/// The separator before an item of a list or an entry of an object.
fn separator<W: ?Sized + io::Write>(w: &mut W, first: bool) -> io::Result<()> {
    if first {
        Ok(())
    } else {
        w.write_all(b", ")
    }
}

impl Formatter for Spaced {
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        separator(w, first)
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        separator(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
}

/// A value as one line of JSON in okite's style.
pub fn text<T: Serialize + ?Sized>(v: &T) -> String {
    let mut out = Vec::with_capacity(128);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Spaced);
    match v.serialize(&mut ser) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        // the reports are plain data (strings, numbers, lists, maps with string keys): a failure
        // is a report that holds something JSON cannot state, said as a JSON string
        Err(e) => string(&format!("okite: no JSON for this report: {e}")),
    }
}

/// A string as a JSON string literal, with the characters JSON requires escaped.
pub fn string(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A number written with a fixed count of decimals (`1.500`), as the reports of times write
/// seconds; not finite, `null`.
pub fn fixed(x: f64, decimals: usize) -> Box<serde_json::value::RawValue> {
    let t = if x.is_finite() {
        format!("{x:.decimals$}")
    } else {
        "null".to_string()
    };
    serde_json::value::RawValue::from_string(t)
        .unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned())
}

/// A number as Rust writes it (`7`, `3.5`; never an exponent), as the reports of komi and
/// scores in points write them; not finite, `null`.
pub fn shown(x: f64) -> Box<serde_json::value::RawValue> {
    if x.is_finite() {
        raw(format!("{x}"))
    } else {
        raw("null".to_string())
    }
}

/// JSON text already written (a report kept as text, a number too large for the integer types),
/// placed in a report as it is; not JSON, `null`.
pub fn raw(t: String) -> Box<serde_json::value::RawValue> {
    serde_json::value::RawValue::from_string(t)
        .unwrap_or_else(|_| serde_json::value::RawValue::NULL.to_owned())
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

    #[test]
    fn spaced() {
        #[derive(serde::Serialize)]
        struct R {
            a: u32,
            b: Vec<&'static str>,
            c: Option<bool>,
            d: Box<serde_json::value::RawValue>,
            e: Vec<u8>,
        }
        let r = R {
            a: 1,
            b: vec!["x", "y"],
            c: None,
            d: super::fixed(1.5, 3),
            e: vec![],
        };
        assert_eq!(
            super::text(&r),
            "{\"a\": 1, \"b\": [\"x\", \"y\"], \"c\": null, \"d\": 1.500, \"e\": []}"
        );
        assert_eq!(super::text(&super::raw("not json".into())), "null");
        assert_eq!(super::text(&super::fixed(f64::NAN, 2)), "null");
    }
}
