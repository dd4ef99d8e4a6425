//! Motorola S-record ("S19") reader and writer, as described in the M68HC11
//! Reference Manual's appendix on S-records: S0 header, S1/S2/S3 data,
//! S5/S6 record counts, S7/S8/S9 start address and end of file.
//!
//! Every record is `S` + type digit + byte count (2 hex digits) + address
//! (4, 6 or 8 hex digits) + data + checksum. The byte count covers address,
//! data and checksum; the checksum is the ones' complement of the low byte of
//! the sum of count, address and data bytes.

use std::fmt;

use thiserror::Error;

use super::program::{Program, Segment};

/// The most data bytes one record can hold with a 16-bit address:
/// the count field is one byte and also covers 2 address bytes and the checksum.
pub const MAX_S1_DATA: usize = 255 - 3;

/// An S19 file read into a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct S19File {
    /// Segments (contiguous records merged) and the start address of the S7/S8/S9 record.
    pub program: Program,
    /// The text of the S0 header record (trailing NULs removed), if there was one.
    pub header: Option<String>,
    /// Problems that did not stop loading.
    pub warnings: Vec<S19Warning>,
}

/// Something odd about an S19 file that still loads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum S19Warning {
    /// The file has no S7/S8/S9 record, so it may be cut short and has no start address.
    MissingTerminator,
    /// A record after the terminator was ignored, as a monitor's loader stops at S9.
    AfterTerminator {
        /// 1-based line of the ignored record.
        line: usize,
        /// 1-based line of the terminator.
        terminator_line: usize,
    },
    /// A data record writes addresses that an earlier record already wrote; the later one wins.
    Overlap {
        /// 1-based line of the later record.
        line: usize,
        /// 1-based line of the earlier record.
        earlier_line: usize,
        /// First address written twice.
        addr: u16,
    },
    /// More warnings of one kind than are listed: the first
    /// [`MAX_WARNINGS_OF_A_KIND`] are, this counts the rest.
    More {
        /// How many were left out.
        count: usize,
        /// What they are about, as the message says it.
        what: &'static str,
    },
}

/// Warnings of one kind listed before the rest are only counted: a file of
/// a million records at one address gets a few lines, not a million.
pub const MAX_WARNINGS_OF_A_KIND: usize = 10;

/// Keeps the [`MAX_WARNINGS_OF_A_KIND`] warnings of the lowest lines among
/// those pushed, and counts the others, in bounded memory.
#[derive(Default)]
struct FirstFew {
    kept: Vec<(usize, S19Warning)>,
    dropped: usize,
}

impl FirstFew {
    fn push(&mut self, line: usize, w: S19Warning) {
        self.kept.push((line, w));
        if self.kept.len() >= 64 * MAX_WARNINGS_OF_A_KIND {
            self.trim();
        }
    }

    fn trim(&mut self) {
        if self.kept.len() > MAX_WARNINGS_OF_A_KIND {
            self.kept.sort_by_key(|(line, _)| *line);
            self.dropped += self.kept.len() - MAX_WARNINGS_OF_A_KIND;
            self.kept.truncate(MAX_WARNINGS_OF_A_KIND);
        }
    }

    /// The kept warnings, then one that counts the rest (if any).
    fn finish(mut self, what: &'static str, out: &mut Vec<S19Warning>) {
        self.trim();
        out.extend(self.kept.into_iter().map(|(_, w)| w));
        if self.dropped > 0 {
            out.push(S19Warning::More {
                count: self.dropped,
                what,
            });
        }
    }
}

impl fmt::Display for S19Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            S19Warning::MissingTerminator => write!(
                f,
                "no S7/S8/S9 end record: the file may be cut short, and it gives no start address"
            ),
            S19Warning::AfterTerminator {
                line,
                terminator_line,
            } => write!(
                f,
                "line {line}: record after the end record on line {terminator_line} is ignored"
            ),
            S19Warning::Overlap {
                line,
                earlier_line,
                addr,
            } => write!(
                f,
                "line {line}: overwrites ${addr:04X} already loaded by line {earlier_line}; the later bytes are kept"
            ),
            S19Warning::More { count, what } => write!(
                f,
                "{count} more {what} (the first {MAX_WARNINGS_OF_A_KIND} are listed)"
            ),
        }
    }
}

/// Why an S19 file cannot be loaded. Lines and columns are 1-based.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum S19Error {
    /// A non-blank line does not start with `S`.
    #[error("line {line}: not an S-record: expected 'S' at column {column}, found {found:?}")]
    NotARecord {
        /// Line number.
        line: usize,
        /// Column of the offending character.
        column: usize,
        /// The character found there.
        found: char,
    },
    /// The record type is not one of S0-S3, S5-S9.
    #[error("line {line}: unknown record type 'S{kind}' (expected S0-S3, S5-S9)")]
    UnknownType {
        /// Line number.
        line: usize,
        /// The character after `S`.
        kind: char,
    },
    /// A character that is not a hex digit.
    #[error("line {line}: non-hex character {found:?} at column {column}")]
    NonHex {
        /// Line number.
        line: usize,
        /// Column of the character.
        column: usize,
        /// The character.
        found: char,
    },
    /// The hex part has an odd number of digits, so the last byte is half there.
    #[error("line {line}: odd number of hex digits ({digits}) after the record type")]
    OddDigits {
        /// Line number.
        line: usize,
        /// How many hex digits there are.
        digits: usize,
    },
    /// The record is too short to hold a count, its address and a checksum.
    #[error("line {line}: S{kind} record too short: it needs at least {needed} bytes after the type, has {found}")]
    TooShort {
        /// Line number.
        line: usize,
        /// Record type digit.
        kind: u8,
        /// Minimum bytes (count + address + checksum).
        needed: usize,
        /// Bytes present.
        found: usize,
    },
    /// The byte count field disagrees with the number of bytes on the line.
    #[error("line {line}: byte count mismatch: the count field says {declared} bytes follow it, the line has {found}")]
    CountMismatch {
        /// Line number.
        line: usize,
        /// The count field's value.
        declared: usize,
        /// Bytes actually after the count field.
        found: usize,
    },
    /// The checksum byte is wrong.
    #[error("line {line}: bad checksum: expected {expected:02X}, found {found:02X}")]
    BadChecksum {
        /// Line number.
        line: usize,
        /// The checksum the record's bytes give.
        expected: u8,
        /// The checksum written in the record.
        found: u8,
    },
    /// An S2/S3/S8/S7 address does not fit the 68HC11's 16-bit address space.
    #[error(
        "line {line}: address ${addr:X} is above $FFFF: the 68HC11 has a 16-bit address space"
    )]
    AddressTooHigh {
        /// Line number.
        line: usize,
        /// The address.
        addr: u32,
    },
    /// A data record starts in range but its bytes run past $FFFF.
    #[error("line {line}: {len} data bytes at ${addr:04X} run past $FFFF: the 68HC11 has a 16-bit address space")]
    PastEnd {
        /// Line number.
        line: usize,
        /// Start address.
        addr: u32,
        /// Number of data bytes.
        len: usize,
    },
    /// An S5/S6 record's count differs from the number of data records before it.
    #[error("line {line}: S{kind} count record says {declared} data records came before it, the file has {found}")]
    RecordCount {
        /// Line number.
        line: usize,
        /// 5 or 6.
        kind: u8,
        /// The count in the record.
        declared: u32,
        /// Data records (S1/S2/S3) actually read.
        found: u32,
    },
    /// The file has no S-records at all.
    #[error("no S-records found (the file is empty or blank)")]
    Empty,
}

/// One record, decoded and checked.
struct Record {
    kind: u8,
    addr: u32,
    data: Vec<u8>,
}

/// Reads S-record text. Accepts CRLF, blank lines and surrounding whitespace.
/// Contiguous data records become one [`Segment`]; the S7/S8/S9 address becomes
/// [`Program::entry`].
pub fn parse_s19(text: &str) -> Result<S19File, S19Error> {
    let mut header = None;
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut data_records: u32 = 0;
    let mut entry = None;
    let mut terminator_line = None;
    let mut warnings = Vec::new();
    let mut after_end = FirstFew::default();
    let mut any = false;

    // Lines end in LF, CRLF or a lone CR (old Mac files), as sources may.
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    for (idx, raw) in text.lines().enumerate() {
        let line = idx + 1;
        let trimmed_end = raw.trim_end();
        let content = trimmed_end.trim_start();
        if content.is_empty() {
            continue;
        }
        // Columns are counted in characters of the original line.
        let indent = trimmed_end.chars().count() - content.chars().count();
        let rec = parse_record(content, line, indent)?;
        any = true;
        if let Some(terminator_line) = terminator_line {
            after_end.push(
                line,
                S19Warning::AfterTerminator {
                    line,
                    terminator_line,
                },
            );
            continue;
        }
        match rec.kind {
            0 => {
                let text: String = rec
                    .data
                    .iter()
                    .map(|&b| char::from(b))
                    .collect::<String>()
                    .trim_end_matches('\0')
                    .to_string();
                header = Some(text);
            }
            1..=3 => {
                data_records = data_records.saturating_add(1);
                if rec.addr > 0xFFFF {
                    return Err(S19Error::AddressTooHigh {
                        line,
                        addr: rec.addr,
                    });
                }
                if rec.addr as usize + rec.data.len() > 0x1_0000 {
                    return Err(S19Error::PastEnd {
                        line,
                        addr: rec.addr,
                        len: rec.data.len(),
                    });
                }
                if !rec.data.is_empty() {
                    chunks.push(Chunk {
                        start: rec.addr,
                        bytes: rec.data,
                        line,
                    });
                }
            }
            5 | 6 => {
                if rec.addr != data_records {
                    return Err(S19Error::RecordCount {
                        line,
                        kind: rec.kind,
                        declared: rec.addr,
                        found: data_records,
                    });
                }
            }
            _ => {
                // 7, 8, 9: parse_record only returns known types.
                if rec.addr > 0xFFFF {
                    return Err(S19Error::AddressTooHigh {
                        line,
                        addr: rec.addr,
                    });
                }
                entry = Some(rec.addr as u16);
                terminator_line = Some(line);
            }
        }
    }
    if !any {
        return Err(S19Error::Empty);
    }
    if terminator_line.is_none() {
        warnings.push(S19Warning::MissingTerminator);
    }
    after_end.finish("records after the end record are ignored", &mut warnings);
    let segments = merge_chunks(chunks, &mut warnings);
    Ok(S19File {
        program: Program {
            segments,
            entry,
            ..Program::default()
        },
        header,
        warnings,
    })
}

/// Decodes one non-blank, trimmed line. `indent` is the number of characters
/// trimmed from its start, for column numbers.
fn parse_record(content: &str, line: usize, indent: usize) -> Result<Record, S19Error> {
    let mut chars = content.chars();
    let first = chars.next().unwrap_or(' ');
    if first != 'S' && first != 's' {
        return Err(S19Error::NotARecord {
            line,
            column: indent + 1,
            found: first,
        });
    }
    let kind_ch = chars.next().unwrap_or(' ');
    let kind = match kind_ch {
        '0'..='3' | '5'..='9' => kind_ch as u8 - b'0',
        _ => {
            return Err(S19Error::UnknownType {
                line,
                kind: kind_ch,
            })
        }
    };
    let mut digits = Vec::with_capacity(content.len());
    for (i, ch) in chars.enumerate() {
        match ch.to_digit(16) {
            Some(d) => digits.push(d as u8),
            None => {
                return Err(S19Error::NonHex {
                    line,
                    column: indent + 3 + i,
                    found: ch,
                })
            }
        }
    }
    if digits.len() % 2 != 0 {
        return Err(S19Error::OddDigits {
            line,
            digits: digits.len(),
        });
    }
    let bytes: Vec<u8> = digits.chunks_exact(2).map(|p| p[0] << 4 | p[1]).collect();
    let addr_len = match kind {
        0 | 1 | 5 | 9 => 2,
        2 | 6 | 8 => 3,
        _ => 4,
    };
    let needed = 1 + addr_len + 1;
    if bytes.len() < needed {
        return Err(S19Error::TooShort {
            line,
            kind,
            needed,
            found: bytes.len(),
        });
    }
    let declared = bytes[0] as usize;
    let found = bytes.len() - 1;
    if declared != found {
        return Err(S19Error::CountMismatch {
            line,
            declared,
            found,
        });
    }
    let (body, checksum) = bytes.split_at(bytes.len() - 1);
    let sum = body.iter().fold(0u8, |acc, &b| acc.wrapping_add(b));
    let expected = !sum;
    if checksum[0] != expected {
        return Err(S19Error::BadChecksum {
            line,
            expected,
            found: checksum[0],
        });
    }
    let addr = body[1..1 + addr_len]
        .iter()
        .fold(0u32, |acc, &b| acc << 8 | b as u32);
    Ok(Record {
        kind,
        addr,
        data: body[1 + addr_len..].to_vec(),
    })
}

/// The bytes of one data record, before merging.
struct Chunk {
    start: u32,
    bytes: Vec<u8>,
    line: usize,
}

/// Merges data records into segments: records that touch or overlap become
/// one segment; where records overlap, the later line's bytes win (as in a
/// loader writing memory record by record) and a warning says so.
fn merge_chunks(mut chunks: Vec<Chunk>, warnings: &mut Vec<S19Warning>) -> Vec<Segment> {
    chunks.sort_by_key(|c| (c.start, c.line));
    let mut segments = Vec::new();
    let mut overlaps = FirstFew::default();
    let mut i = 0;
    while i < chunks.len() {
        // Find the run of chunks that touch or overlap.
        let start = chunks[i].start;
        let mut end = start + chunks[i].bytes.len() as u32;
        let mut j = i + 1;
        while j < chunks.len() && chunks[j].start <= end {
            end = end.max(chunks[j].start + chunks[j].bytes.len() as u32);
            j += 1;
        }
        let run = &mut chunks[i..j];
        let mut bytes = vec![0u8; (end - start) as usize];
        // Which line wrote each byte (0 = none), to name overlaps.
        let mut owner = vec![0usize; bytes.len()];
        run.sort_by_key(|c| c.line);
        for c in run.iter() {
            let off = (c.start - start) as usize;
            let mut warned = false;
            for (k, &b) in c.bytes.iter().enumerate() {
                let earlier = owner[off + k];
                if earlier != 0 && !warned {
                    overlaps.push(
                        c.line,
                        S19Warning::Overlap {
                            line: c.line,
                            earlier_line: earlier,
                            addr: (c.start as usize + k) as u16,
                        },
                    );
                    warned = true;
                }
                owner[off + k] = c.line;
                bytes[off + k] = b;
            }
        }
        segments.push(Segment {
            start: start as u16,
            bytes,
            name: None,
        });
        i = j;
    }
    overlaps.finish("records overwrite bytes loaded before", warnings);
    // By line; the counts of those left out last (a stable sort keeps them
    // in their order).
    warnings.sort_by_key(|w| match w {
        S19Warning::AfterTerminator { line, .. } | S19Warning::Overlap { line, .. } => *line,
        S19Warning::MissingTerminator => usize::MAX - 1,
        S19Warning::More { .. } => usize::MAX,
    });
    segments
}

/// Options for [`write_s19_with`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct S19WriteOptions {
    /// Text of the S0 header record (truncated to what one record holds).
    pub header: String,
    /// Data bytes per S1 record, 1 to [`MAX_S1_DATA`] (clamped).
    pub bytes_per_record: usize,
}

impl Default for S19WriteOptions {
    fn default() -> Self {
        S19WriteOptions {
            header: "hc11lab".to_string(),
            bytes_per_record: 32,
        }
    }
}

/// Writes `program` as S19 text: an S0 header named after the program's main
/// source file (or `hc11lab`), S1 records of up to 32 data bytes and an S9
/// record with the entry address (0 if none).
pub fn write_s19(program: &Program) -> String {
    let header = program
        .files
        .first()
        .and_then(|f| f.path.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "hc11lab".to_string());
    write_s19_with(
        program,
        &S19WriteOptions {
            header,
            ..S19WriteOptions::default()
        },
    )
}

/// Writes `program` as S19 text with the given header and record size.
/// Segments are written in address order. Bytes of a segment that would lie
/// past $FFFF cannot be addressed by an S1 record and are left out; a
/// [`Program`] from this crate's loaders never has any.
pub fn write_s19_with(program: &Program, options: &S19WriteOptions) -> String {
    let mut out = String::new();
    let header: Vec<u8> = options
        .header
        .chars()
        .map(|c| if c.is_ascii() { c as u8 } else { b'?' })
        .take(MAX_S1_DATA)
        .collect();
    push_record(&mut out, 0, 0, &header);
    let per = options.bytes_per_record.clamp(1, MAX_S1_DATA);
    let mut segments: Vec<&Segment> = program.segments.iter().collect();
    segments.sort_by_key(|s| s.start);
    for seg in segments {
        let room = 0x1_0000 - seg.start as usize;
        let bytes = &seg.bytes[..seg.bytes.len().min(room)];
        for (i, chunk) in bytes.chunks(per).enumerate() {
            let addr = seg.start as u32 + (i * per) as u32;
            push_record(&mut out, 1, addr, chunk);
        }
    }
    push_record(&mut out, 9, program.entry.unwrap_or(0) as u32, &[]);
    out
}

/// Appends one record with a 16-bit address (S0, S1, S9) and its checksum.
fn push_record(out: &mut String, kind: u8, addr: u32, data: &[u8]) {
    use fmt::Write;
    let count = (data.len() + 3) as u8;
    let [hi, lo] = (addr as u16).to_be_bytes();
    let sum = data
        .iter()
        .fold(count.wrapping_add(hi).wrapping_add(lo), |acc, &b| {
            acc.wrapping_add(b)
        });
    let _ = write!(out, "S{kind}{count:02X}{hi:02X}{lo:02X}");
    for b in data {
        let _ = write!(out, "{b:02X}");
    }
    let _ = writeln!(out, "{:02X}", !sum);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_objcopy_output() {
        // From m68hc11-objcopy -O srec of tests/data/gnu/loop.s.
        let text = "S00B00006C6F6F702E7331392F\r\n\
                    S10800400001020304AD\r\n\
                    S113C0008E3FFFC600860A4A26FDBDC012F70040D7\r\n\
                    S108C01020F3CB03390D\r\n\
                    S105FFFEC0003D\r\n\
                    S903C0003C\r\n";
        let f = parse_s19(text).unwrap();
        assert_eq!(f.header.as_deref(), Some("loop.s19"));
        assert_eq!(f.program.entry, Some(0xC000));
        assert!(f.warnings.is_empty());
        let segs = &f.program.segments;
        assert_eq!(segs.len(), 3);
        assert_eq!((segs[0].start, segs[0].bytes.len()), (0x0040, 5));
        assert_eq!((segs[1].start, segs[1].bytes.len()), (0xC000, 0x15));
        assert_eq!(segs[2].bytes, vec![0xC0, 0x00]);
        assert_eq!(f.program.byte_at(0xC014), Some(0x39));
    }

    #[test]
    fn checksum_error_names_line() {
        let text = "S0030000FC\nS1050040AABBXX\n";
        assert_eq!(
            parse_s19(text).unwrap_err(),
            S19Error::NonHex {
                line: 2,
                column: 13,
                found: 'X'
            }
        );
        let text = "S0030000FC\n\nS1050040AABB00\n";
        let err = parse_s19(text).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: bad checksum: expected 55, found 00"
        );
    }

    #[test]
    fn writes_and_reads_back() {
        let program = Program {
            segments: vec![
                Segment {
                    start: 0xFFF0,
                    bytes: (0..16).collect(),
                    name: None,
                },
                Segment {
                    start: 0x0040,
                    bytes: (0..100u8).map(|i| i.wrapping_mul(7)).collect(),
                    name: None,
                },
            ],
            entry: Some(0xC123),
            ..Program::default()
        };
        let text = write_s19(&program);
        assert!(text.starts_with("S00A0000686331316C6162"));
        assert!(text.ends_with("S903C12318\n"));
        let back = parse_s19(&text).unwrap();
        assert_eq!(back.program.entry, Some(0xC123));
        assert_eq!(back.header.as_deref(), Some("hc11lab"));
        assert_eq!(back.program.segments[0], program.segments[1]);
        assert_eq!(back.program.segments[1], program.segments[0]);
    }

    #[test]
    fn record_size_is_configurable() {
        let program = Program {
            segments: vec![Segment {
                start: 0x1000,
                bytes: vec![0xAA; 10],
                name: None,
            }],
            ..Program::default()
        };
        let text = write_s19_with(
            &program,
            &S19WriteOptions {
                header: String::new(),
                bytes_per_record: 4,
            },
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 5);
        assert_eq!(lines[0], "S0030000FC");
        assert_eq!(lines[1], "S1071000AAAAAAAA40");
        assert_eq!(lines[3], "S1051008AAAA8E");
        assert_eq!(lines[4], "S9030000FC");
    }
}
