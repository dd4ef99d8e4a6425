//! Reading a `.zip` submission in memory: nothing is extracted to disk,
//! entries with absolute paths or `..` are refused, and every size a
//! header declares is checked again while reading (a zip bomb stops at the
//! limit).

use super::files::{read_regular, read_stream_limited, skipped_note, Budget};
use super::{is_junk, is_source, normalize, Limits, Submission, SubmissionError};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Names that the zip's central directory lists more than once (the zip
/// reader keeps only the last entry of a name, so it cannot tell). Read from
/// the end of the file: the end record gives the directory's size, which
/// ends where the record starts. Empty when the zip is not understood (the
/// zip reader then says what is wrong).
fn repeated_zip_names(f: &mut (impl Read + std::io::Seek)) -> Vec<String> {
    use std::io::SeekFrom;
    const EOCD: &[u8] = b"PK\x05\x06";
    const ENTRY: &[u8] = b"PK\x01\x02";
    // Beyond this a directory is not read for this check (200 files' worth is far less).
    const MAX_DIRECTORY: u64 = 4 << 20;
    let Ok(len) = f.seek(SeekFrom::End(0)) else {
        return Vec::new();
    };
    let tail_len = len.min(65_557 + MAX_DIRECTORY);
    let mut tail = Vec::new();
    if f.seek(SeekFrom::Start(len - tail_len)).is_err()
        || f.take(tail_len).read_to_end(&mut tail).is_err()
    {
        return Vec::new();
    }
    let Some(eocd) = tail.windows(4).rposition(|w| w == EOCD) else {
        return Vec::new();
    };
    let u16_at = |b: &[u8], i: usize| {
        b.get(i..i + 2)
            .map(|x| usize::from(u16::from_le_bytes([x[0], x[1]])))
    };
    let u32_at = |b: &[u8], i: usize| {
        b.get(i..i + 4)
            .map(|x| u32::from_le_bytes([x[0], x[1], x[2], x[3]]) as usize)
    };
    let Some(size) = u32_at(&tail, eocd + 12) else {
        return Vec::new();
    };
    let Some(dir) = eocd
        .checked_sub(size)
        .and_then(|start| tail.get(start..eocd))
    else {
        return Vec::new();
    };
    let mut seen: BTreeMap<&[u8], usize> = BTreeMap::new();
    let mut at = 0usize;
    while dir.get(at..at + 4) == Some(ENTRY) {
        let (Some(n), Some(x), Some(c)) = (
            u16_at(dir, at + 28),
            u16_at(dir, at + 30),
            u16_at(dir, at + 32),
        ) else {
            break;
        };
        let Some(name) = dir.get(at + 46..at + 46 + n) else {
            break;
        };
        *seen.entry(name).or_default() += 1;
        at += 46 + n + x + c;
    }
    seen.into_iter()
        .filter(|(_, count)| *count > 1)
        .map(|(name, _)| String::from_utf8_lossy(name).into_owned())
        .collect()
}

pub(super) fn read_zip(
    path: &Path,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<BTreeMap<String, Vec<u8>>, SubmissionError> {
    let zip_name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = read_regular(path, &zip_name, limits.max_zip_bytes).map_err(|e| match e {
        SubmissionError::FileTooLarge { size, limit, .. } => SubmissionError::ZipTooLarge {
            name: zip_name.clone(),
            size,
            limit,
        },
        e => e,
    })?;
    read_zip_from(std::io::Cursor::new(bytes), &zip_name, limits, notes)
}

/// Reads the sources of a `.zip` submission held in memory (what
/// [`Submission::load`] does with a file; the fuzz target feeds it bytes).
pub fn zip_from_bytes(
    name: &str,
    bytes: &[u8],
    limits: &Limits,
) -> Result<Submission, SubmissionError> {
    let mut notes = Vec::new();
    let raw = read_zip_from(std::io::Cursor::new(bytes), name, limits, &mut notes)?;
    Submission::from_files(
        name.trim_end_matches(".zip").to_string(),
        PathBuf::from(name),
        raw,
        notes,
    )
}

fn read_zip_from(
    mut reader: impl Read + std::io::Seek,
    zip_name: &str,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<BTreeMap<String, Vec<u8>>, SubmissionError> {
    let repeated = repeated_zip_names(&mut reader);
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| SubmissionError::BadZip {
        name: zip_name.to_string(),
        message: e.to_string(),
    })?;
    if !repeated.is_empty() {
        notes.push(format!(
            "the zip holds {} more than once; only the last copy of each was read",
            repeated.join(", ")
        ));
    }
    // A zip can claim millions of entries; refuse before walking them.
    if archive.len() > limits.max_entries() {
        return Err(SubmissionError::TooManyEntries {
            limit: limits.max_entries(),
        });
    }
    let mut budget = Budget {
        limits,
        files: 0,
        bytes: 0,
    };
    let mut out = BTreeMap::new();
    let mut skipped = Vec::new();
    for i in 0..archive.len() {
        let listed_name = archive
            .name_for_index(i)
            .map(str::to_string)
            .unwrap_or_else(|| format!("#{i}"));
        let mut entry = match archive.by_index(i) {
            Ok(e) => e,
            Err(e) => {
                let entry = listed_name;
                return Err(SubmissionError::ZipEntryUnsupported {
                    entry,
                    message: e.to_string(),
                });
            }
        };
        let raw_name = entry.name().to_string();
        let Some(parts) = normalize(&raw_name) else {
            return Err(SubmissionError::ZipPathOutside { entry: raw_name });
        };
        let rel = parts.join("/");
        if entry.is_dir() || rel.is_empty() || is_junk(&rel) {
            continue;
        }
        if entry.is_symlink() {
            notes.push(format!("skipped symbolic link {rel} in the zip"));
            continue;
        }
        if !is_source(&rel) {
            skipped.push(rel);
            continue;
        }
        if entry.encrypted() {
            return Err(SubmissionError::ZipEntryUnsupported {
                entry: raw_name,
                message: "it is encrypted".into(),
            });
        }
        let declared = entry.size();
        budget.admit(&rel, declared)?;
        let bytes = read_stream_limited(&mut entry, &rel, limits.max_file_bytes)?;
        // A header may understate the size: count what was really read.
        budget.grow((bytes.len() as u64).saturating_sub(declared))?;
        if out.insert(rel.clone(), bytes).is_some() {
            notes.push(format!("the zip holds {rel} twice; the last copy was used"));
        }
    }
    notes.extend(skipped_note(&skipped));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{tmpdir, write_zip};
    use super::*;

    #[test]
    fn zip_with_parent_paths_is_refused() {
        let d = tmpdir("zipslip");
        let z = d.join("mallory.zip");
        write_zip(
            &z,
            &[("Viergewinnt.asm", b"rts\n"), ("../../evil.inc", b"rts\n")],
        );
        let err = Submission::load(&z, &Limits::default()).unwrap_err();
        assert_eq!(
            err,
            SubmissionError::ZipPathOutside {
                entry: "../../evil.inc".into()
            }
        );
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn zip_sizes_are_bounded() {
        let d = tmpdir("zipsize");
        let z = d.join("big.zip");
        let big = vec![b';'; 5000];
        write_zip(&z, &[("Viergewinnt.asm", &big)]);
        let limits = Limits {
            max_file_bytes: 4096,
            ..Limits::default()
        };
        let err = Submission::load(&z, &limits).unwrap_err();
        assert!(
            matches!(err, SubmissionError::FileTooLarge { size: 5000, .. }),
            "{err:?}"
        );
        let ok = d.join("ok.zip");
        write_zip(
            &ok,
            &[("top/Viergewinnt.asm", b"rts\n"), ("__MACOSX/._x", b"junk")],
        );
        let s = Submission::load(&ok, &limits).unwrap();
        assert_eq!(s.name, "ok");
        assert_eq!(s.files.keys().collect::<Vec<_>>(), ["top/Viergewinnt.asm"]);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn garbage_zip_and_binary_source() {
        let d = tmpdir("garbage");
        std::fs::write(d.join("x.zip"), b"PK\x03\x04 not really").unwrap();
        let err = Submission::load(&d.join("x.zip"), &Limits::default()).unwrap_err();
        assert!(matches!(err, SubmissionError::BadZip { .. }), "{err:?}");
        std::fs::create_dir_all(d.join("bin")).unwrap();
        std::fs::write(d.join("bin/Viergewinnt.asm"), b"\x7fELF\x02\x01\x01\x00").unwrap();
        let err = Submission::load(&d.join("bin"), &Limits::default()).unwrap_err();
        assert!(
            matches!(err, SubmissionError::NotText { offset: 7, .. }),
            "{err:?}"
        );
        let _ = std::fs::remove_dir_all(&d);
    }
}
