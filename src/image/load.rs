//! Loading a program image from a file, recognised by its content (ELF
//! magic or S-record text), not by its extension: S19 files come as `.s19`,
//! `.mot`, `.srec`, `.hex`; GNU executables often have no extension at all.
//! The extension only names what a file that is no image was meant to be
//! ([`is_image_path`]): a damaged `.s19`, Intel HEX, a raw `.bin`.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::platform::fs::{read_limited, ReadError};

use super::elf::{parse_elf, ElfError};
use super::program::Program;
use super::s19::{parse_s19, S19Error};

/// The kind of image a file holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// An ELF file (GNU `m68hc11-ld` or `m68hc11-as` output).
    Elf,
    /// Motorola S-records.
    S19,
}

/// A program read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loaded {
    /// The program.
    pub program: Program,
    /// What the file was.
    pub format: Format,
    /// The S0 header text of an S19 file.
    pub header: Option<String>,
    /// Problems that did not stop loading, as messages.
    pub warnings: Vec<String>,
}

/// Why a file cannot be loaded as a program image.
#[derive(Debug, Error)]
pub enum LoadError {
    /// The file cannot be read: missing, no regular file, larger than
    /// [`MAX_IMAGE_BYTES`], or the system refused.
    #[error("cannot read {}: {source}", .path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        source: ReadError,
    },
    /// The file is an ELF file with a problem.
    #[error("{}: {source}", .path.display())]
    Elf {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: ElfError,
    },
    /// The file is S-record text with a problem.
    #[error("{}: {source}", .path.display())]
    S19 {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: S19Error,
    },
    /// The file is assembly source text, which the loader does not assemble.
    #[error("{} is assembly source, not a program image: assemble it with hc11lab::asm (`hc11lab asm FILE.asm`)", .path.display())]
    AssemblySource {
        /// The file.
        path: PathBuf,
    },
    /// Intel HEX, which hc11lab does not read.
    #[error("{} is Intel HEX, which hc11lab does not read: convert it to S-records (`m68hc11-objcopy -I ihex -O srec FILE.hex FILE.s19`) or open the ELF file or source it was made from", .path.display())]
    IntelHex {
        /// The file.
        path: PathBuf,
    },
    /// A raw binary: bytes with no load address.
    #[error("{} is a raw binary, which says nothing about where its bytes belong: convert it to S-records at its address (`m68hc11-objcopy -I binary -O srec --change-addresses 0xC000 FILE.bin FILE.s19`) or open its source", .path.display())]
    RawBinary {
        /// The file.
        path: PathBuf,
    },
    /// Neither ELF nor S-records.
    #[error("{} is neither an ELF file (starts with \\x7FELF) nor S-records (lines starting S0..S9); it starts with {found}", .path.display())]
    Unknown {
        /// The file.
        path: PathBuf,
        /// Its first bytes, shown for the message.
        found: String,
    },
}

/// Extensions of assembly source files (the course's `.asm`, gas's `.s`).
const ASM_EXTENSIONS: [&str; 5] = ["asm", "s", "inc", "a11", "s11"];

/// Extensions of S-record files.
const SREC_EXTENSIONS: [&str; 5] = ["s19", "s28", "s37", "srec", "mot"];

/// Extensions of Intel HEX files (`.hex` may also hold S-records, which the
/// content shows first).
const IHEX_EXTENSIONS: [&str; 3] = ["hex", "ihx", "ihex"];

/// Extensions of raw binaries and executables.
const BINARY_EXTENSIONS: [&str; 3] = ["bin", "elf", "out"];

/// Whether `path`'s extension is one of `list`, in any letter case.
fn has_extension(path: &Path, list: &[&str]) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| list.iter().any(|a| a.eq_ignore_ascii_case(e)))
}

/// True if the file's name says it is a program image (S-records, Intel
/// HEX, a binary or an executable): it is loaded, never assembled, even
/// when its content is no image (so a damaged `.s19` gets an S-record
/// error, not assembler errors about its text).
pub fn is_image_path(path: &Path) -> bool {
    has_extension(path, &SREC_EXTENSIONS)
        || has_extension(path, &IHEX_EXTENSIONS)
        || has_extension(path, &BINARY_EXTENSIONS)
}

/// Tells the format from the first bytes: the ELF magic, or (after optional
/// byte-order mark and whitespace) `S`, a record type digit and a hex digit.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    let magic = b"\x7FELF";
    if !bytes.is_empty() && bytes[..bytes.len().min(4)] == magic[..bytes.len().min(4)] {
        return Some(Format::Elf);
    }
    let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = text.iter().position(|b| !b.is_ascii_whitespace())?;
    match text.get(start..start + 3) {
        Some([b'S' | b's', t, h]) if t.is_ascii_digit() && h.is_ascii_hexdigit() => {
            Some(Format::S19)
        }
        _ => None,
    }
}

/// Largest image file read, in bytes (16 MiB): far more than a 64 KiB
/// address space needs, as S-records or as an ELF file with its debug
/// information.
pub const MAX_IMAGE_BYTES: u64 = 16 << 20;

/// Reads `path` (a regular file of at most [`MAX_IMAGE_BYTES`]) and loads
/// it as ELF or S19, whichever its content is. Assembly source is refused
/// with a message saying to assemble it.
pub fn load_file(path: &Path) -> Result<Loaded, LoadError> {
    let bytes = read_limited(path, MAX_IMAGE_BYTES).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    load_bytes(&bytes, path)
}

/// The first warnings of an ELF file (as many as an S19 file lists of one
/// kind, [`super::s19::MAX_WARNINGS_OF_A_KIND`]), then one counting the
/// rest: a damaged file must not print thousands of lines.
fn first_few(mut warnings: Vec<String>) -> Vec<String> {
    let keep = super::s19::MAX_WARNINGS_OF_A_KIND;
    if warnings.len() > keep {
        let more = warnings.len() - keep;
        warnings.truncate(keep);
        warnings.push(format!(
            "{more} more warnings (the first {keep} are listed)"
        ));
    }
    warnings
}

/// Loads file content already in memory; `path` names it in messages and
/// locates source files named by an ELF line table.
pub fn load_bytes(bytes: &[u8], path: &Path) -> Result<Loaded, LoadError> {
    match detect(bytes) {
        Some(Format::Elf) => {
            let (program, warnings) =
                parse_elf(bytes, Some(path)).map_err(|source| LoadError::Elf {
                    path: path.to_path_buf(),
                    source,
                })?;
            Ok(Loaded {
                program,
                format: Format::Elf,
                header: None,
                warnings: first_few(warnings),
            })
        }
        Some(Format::S19) => {
            // S-records are ASCII; anything else is reported by the parser as
            // a non-hex character at its column.
            let text = String::from_utf8_lossy(bytes);
            let file = parse_s19(&text).map_err(|source| LoadError::S19 {
                path: path.to_path_buf(),
                source,
            })?;
            Ok(Loaded {
                program: file.program,
                format: Format::S19,
                header: file.header,
                warnings: file.warnings.iter().map(ToString::to_string).collect(),
            })
        }
        None => {
            let is_asm_ext = has_extension(path, &ASM_EXTENSIONS);
            let is_text = !bytes.iter().take(4096).any(|&b| b == 0);
            if is_asm_ext && is_text {
                return Err(LoadError::AssemblySource {
                    path: path.to_path_buf(),
                });
            }
            let blank = bytes.iter().all(u8::is_ascii_whitespace);
            // A damaged S-record file: the parser says which line and column.
            if has_extension(path, &SREC_EXTENSIONS) && is_text && !blank {
                let text = String::from_utf8_lossy(bytes);
                if let Err(source) = parse_s19(&text) {
                    return Err(LoadError::S19 {
                        path: path.to_path_buf(),
                        source,
                    });
                }
            }
            let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
            if has_extension(path, &IHEX_EXTENSIONS) && first == Some(&b':') {
                return Err(LoadError::IntelHex {
                    path: path.to_path_buf(),
                });
            }
            if has_extension(path, &["bin"]) && !blank {
                return Err(LoadError::RawBinary {
                    path: path.to_path_buf(),
                });
            }
            let head = &bytes[..bytes.len().min(8)];
            let found = if head.is_empty() {
                "nothing (the file is empty)".to_string()
            } else if is_text {
                format!("{:?}", String::from_utf8_lossy(head))
            } else {
                head.iter()
                    .map(|b| format!("{b:02X}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            Err(LoadError::Unknown {
                path: path.to_path_buf(),
                found,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_content() {
        assert_eq!(detect(b"\x7FELF\x01\x02"), Some(Format::Elf));
        assert_eq!(detect(b"\x7FEL"), Some(Format::Elf));
        assert_eq!(detect(b"S00600004844521B\n"), Some(Format::S19));
        assert_eq!(detect(b"\xEF\xBB\xBF\r\n  S1130000"), Some(Format::S19));
        assert_eq!(detect(b"S1 equ 5"), None);
        assert_eq!(detect(b"; comment\n\tldaa #1\n"), None);
        assert_eq!(detect(b""), None);
    }

    #[test]
    fn refuses_assembly_source() {
        let err = load_bytes(b"main\tldaa #1\n", Path::new("game.asm")).unwrap_err();
        assert!(matches!(err, LoadError::AssemblySource { .. }));
        assert!(err.to_string().contains("assemble it with hc11lab::asm"));
        let err = load_bytes(b"\x01\x02\x00", Path::new("x.dat")).unwrap_err();
        assert_eq!(
            err.to_string(),
            "x.dat is neither an ELF file (starts with \\x7FELF) nor S-records (lines starting S0..S9); it starts with 01 02 00"
        );
        let err = load_bytes(b"\x01\x02\x00", Path::new("x.bin")).unwrap_err();
        assert!(matches!(err, LoadError::RawBinary { .. }), "{err}");
    }
}
