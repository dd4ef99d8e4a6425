//! Decoding source files named by a loaded image: UTF-8, else Windows-1252
//! (the course's sources come from Windows editors with German umlauts).

/// Windows-1252 code points for bytes $80-$9F; the five undefined bytes map to
/// the C1 control with the same value, as the WHATWG encoding standard does.
const CP1252_80_9F: [char; 32] = [
    '\u{20AC}', '\u{0081}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{008D}', '\u{017D}', '\u{008F}',
    '\u{0090}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{009D}', '\u{017E}', '\u{0178}',
];

/// Decodes file bytes as UTF-8 (a leading byte-order mark is dropped), or as
/// Windows-1252 when they are not valid UTF-8.
pub fn decode_source(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => bytes
            .iter()
            .map(|&b| match b {
                0x80..=0x9F => CP1252_80_9F[(b - 0x80) as usize],
                _ => char::from(b),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_and_windows_1252() {
        assert_eq!(decode_source("Zähler".as_bytes()), "Zähler");
        assert_eq!(decode_source(b"\xEF\xBB\xBFab"), "ab");
        assert_eq!(
            decode_source(b"Z\xE4hler \x80 \x93x\x94"),
            "Zähler € \u{201C}x\u{201D}"
        );
    }
}
