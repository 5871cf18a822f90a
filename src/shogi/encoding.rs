//! The text of a game record from its bytes: UTF-8, Shift-JIS or EUC-JP.
//!
//! KIF files (`.kif`) are Shift-JIS by Kakinoki's definition of the format and `.kifu` files are
//! UTF-8; CSA files without a `'CSA encoding=` line are Shift-JIS, and V3.0 names UTF-8 or
//! SHIFT_JIS on that line. Real files do not always follow the names, so the bytes decide: text
//! that is valid UTF-8 is read as UTF-8 (ASCII is both), anything else as Shift-JIS in Microsoft's
//! code page 932, the form Windows programs write, or as EUC-JP, which older Unix tools and web
//! pages write. Most EUC-JP text is also valid Shift-JIS, read as half-width katakana (which no
//! record writes) and kanji: when both decode, the one with fewer half-width katakana is taken.
//! A byte order mark is removed and, for UTF-16, obeyed.

use super::sfen::{ParseError, ParseErrors};

/// The encoding a record was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextEncoding {
    Utf8,
    ShiftJis,
    EucJp,
    Utf16,
}

impl TextEncoding {
    /// The name of the encoding (`UTF-8`, `Shift-JIS`, `EUC-JP`, `UTF-16`).
    pub fn name(self) -> &'static str {
        match self {
            TextEncoding::Utf8 => "UTF-8",
            TextEncoding::ShiftJis => "Shift-JIS",
            TextEncoding::EucJp => "EUC-JP",
            TextEncoding::Utf16 => "UTF-16",
        }
    }
}

/// The text of a record's bytes, and the encoding it was read in; refused when the bytes are
/// neither UTF-8, Shift-JIS nor EUC-JP (the error names the first byte that is not UTF-8).
pub fn decode_record(bytes: &[u8]) -> Result<(String, TextEncoding), ParseErrors> {
    if let Some((enc, bom)) = encoding_rs::Encoding::for_bom(bytes) {
        let (text, had_errors) = enc.decode_without_bom_handling(&bytes[bom..]);
        if had_errors {
            return Err(undecodable(&format!(
                "{} after its byte order mark",
                enc.name()
            )));
        }
        let which = if enc == encoding_rs::UTF_8 {
            TextEncoding::Utf8
        } else {
            TextEncoding::Utf16
        };
        return Ok((text.into_owned(), which));
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok((s.to_string(), TextEncoding::Utf8)),
        Err(utf8) => {
            let (sjis, sjis_bad) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(bytes);
            let (euc, euc_bad) = encoding_rs::EUC_JP.decode_without_bom_handling(bytes);
            let kana = |t: &str| {
                t.chars()
                    .filter(|c| ('\u{ff61}'..='\u{ff9f}').contains(c))
                    .count()
            };
            match (sjis_bad, euc_bad) {
                (false, false) if kana(&euc) < kana(&sjis) => {
                    Ok((euc.into_owned(), TextEncoding::EucJp))
                }
                (false, _) => Ok((sjis.into_owned(), TextEncoding::ShiftJis)),
                (true, false) => Ok((euc.into_owned(), TextEncoding::EucJp)),
                (true, true) => Err(undecodable(&format!(
                    "UTF-8 (invalid at byte {}), Shift-JIS nor EUC-JP",
                    utf8.valid_up_to()
                ))),
            }
        }
    }
}

fn undecodable(what: &str) -> ParseErrors {
    ParseErrors(vec![ParseError::new(
        0,
        0,
        format!("the record is not text: not valid {what}"),
        "save the record as UTF-8, Shift-JIS or EUC-JP text",
    )])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_shift_jis_and_boms() {
        let text = "手合割：平手\n   1 ７六歩(77)\n";
        let (t, e) = decode_record(text.as_bytes()).unwrap();
        assert_eq!((t.as_str(), e), (text, TextEncoding::Utf8));
        let (sjis, _, unmappable) = encoding_rs::SHIFT_JIS.encode(text);
        assert!(!unmappable);
        assert!(std::str::from_utf8(&sjis).is_err());
        let (t, e) = decode_record(&sjis).unwrap();
        assert_eq!((t.as_str(), e), (text, TextEncoding::ShiftJis));
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(text.as_bytes());
        assert_eq!(decode_record(&bom).unwrap().0, text);
        let mut utf16: Vec<u8> = vec![0xFF, 0xFE];
        for u in text.encode_utf16() {
            utf16.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(
            decode_record(&utf16).unwrap(),
            (text.to_string(), TextEncoding::Utf16)
        );
        // 0x81 0x20 is no Shift-JIS character, nor EUC-JP
        let e = decode_record(b"\x81\x20abc").unwrap_err();
        assert!(e.0[0].message.contains("Shift-JIS nor EUC-JP"), "{e}");
    }

    #[test]
    fn euc_jp_records() {
        // a KIF record, a CSA one with a comment, and words whose EUC-JP bytes are valid
        // Shift-JIS too (read there as half-width katakana)
        for text in [
            "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で中断\n",
            "'棋戦：名人戦\nPI\n+\n+7776FU\n%TORYO\n",
            "先手：羽生善治\n後手：谷川浩司\n▲７六歩△３四歩\n",
        ] {
            let (euc, _, unmappable) = encoding_rs::EUC_JP.encode(text);
            assert!(!unmappable);
            assert!(std::str::from_utf8(&euc).is_err());
            let (t, e) = decode_record(&euc).unwrap();
            assert_eq!((t.as_str(), e), (text, TextEncoding::EucJp));
            // the same text in Shift-JIS is still read as Shift-JIS
            let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(text);
            let (t, e) = decode_record(&sjis).unwrap();
            assert_eq!((t.as_str(), e), (text, TextEncoding::ShiftJis));
        }
    }
}
