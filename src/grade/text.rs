//! Decoding submitted source bytes: UTF-8, or Windows-1252 (the code page of
//! the course's Windows editors, a superset of Latin-1), and telling text
//! from binary garbage so a student gets a specific message.

/// How a source file's bytes were turned into text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// Valid UTF-8 (a leading byte-order mark is dropped).
    Utf8,
    /// Not UTF-8: read as Windows-1252 (Latin-1 plus typographic characters in $80-$9F).
    Windows1252,
}

/// Bytes that are not source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotText {
    /// Offset of the first byte that gave it away.
    pub offset: usize,
    /// That byte.
    pub byte: u8,
}

/// Windows-1252 code points for bytes $80-$9F; the five undefined bytes map to
/// the C1 control of the same value, as Windows' own decoder does.
const CP1252_HIGH: [char; 32] = [
    '\u{20AC}', '\u{81}', '\u{201A}', '\u{0192}', '\u{201E}', '\u{2026}', '\u{2020}', '\u{2021}',
    '\u{02C6}', '\u{2030}', '\u{0160}', '\u{2039}', '\u{0152}', '\u{8D}', '\u{017D}', '\u{8F}',
    '\u{90}', '\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}', '\u{2022}', '\u{2013}', '\u{2014}',
    '\u{02DC}', '\u{2122}', '\u{0161}', '\u{203A}', '\u{0153}', '\u{9D}', '\u{017E}', '\u{0178}',
];

/// True for control bytes that never appear in an assembler source; tab, line
/// feed, carriage return, form feed and the DOS end-of-file mark ($1A) do.
fn is_binary_control(b: u8) -> bool {
    b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C | 0x1A)
}

/// Decodes a source file, refusing binary data (a NUL byte, or more than 1%
/// control characters that an editor does not write; the assembler's rule).
pub fn decode_source(bytes: &[u8]) -> Result<(String, Encoding), NotText> {
    // As the assembler decides: a NUL byte, or many control characters.
    let first_bad = |pred: &dyn Fn(u8) -> bool| {
        bytes.iter().position(|&b| pred(b)).map(|offset| NotText {
            offset,
            byte: bytes.get(offset).copied().unwrap_or(0),
        })
    };
    if let Some(e) = first_bad(&|b| b == 0) {
        return Err(e);
    }
    let controls = bytes.iter().filter(|&&b| is_binary_control(b)).count();
    if controls > 8 && controls * 100 > bytes.len() {
        if let Some(e) = first_bad(&is_binary_control) {
            return Err(e);
        }
    }
    let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    match std::str::from_utf8(body) {
        Ok(s) => Ok((s.to_string(), Encoding::Utf8)),
        Err(_) => {
            let text = body
                .iter()
                .map(|&b| match b {
                    0x80..=0x9F => CP1252_HIGH
                        .get(usize::from(b - 0x80))
                        .copied()
                        .unwrap_or('\u{FFFD}'),
                    _ => char::from(b),
                })
                .collect();
            Ok((text, Encoding::Windows1252))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_with_bom_is_read_as_utf8() {
        let (s, e) = decode_source("\u{FEFF}; Größe\r\n".as_bytes()).unwrap();
        assert_eq!(s, "; Größe\r\n");
        assert_eq!(e, Encoding::Utf8);
    }

    #[test]
    fn latin1_umlauts_are_decoded() {
        let (s, e) = decode_source(b"; Gr\xF6\xDFe \x80\n").unwrap();
        assert_eq!(s, "; Größe €\n");
        assert_eq!(e, Encoding::Windows1252);
    }

    #[test]
    fn nul_bytes_are_binary() {
        let err = decode_source(b"ldaa #1\n\x00\x01").unwrap_err();
        assert_eq!(err, NotText { offset: 8, byte: 0 });
    }

    #[test]
    fn many_controls_are_binary_a_few_are_not() {
        assert!(decode_source(b"ldaa #1 \x07\n").is_ok());
        let junk: Vec<u8> = (0..200u8).map(|i| (i % 7) + 1).collect();
        assert_eq!(decode_source(&junk).unwrap_err().offset, 0);
    }

    #[test]
    fn dos_eof_mark_is_text() {
        assert!(decode_source(b"rts\r\n\x1a").is_ok());
    }
}
