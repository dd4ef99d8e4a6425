//! Reading a submission's files from disk within the assignment's limits:
//! only regular files are opened (a fifo or device never blocks the
//! batch), sizes are checked before a byte is read and again while
//! reading, symbolic links are not followed, and folders nest at most
//! [`MAX_DEPTH`] deep.

use super::{is_junk, is_source, Limits, SubmissionError};
use crate::platform::fs::Kind;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Deepest folder nesting read inside a submission.
const MAX_DEPTH: usize = 8;

/// A regular file's bytes through the platform's bounded reader (a fifo or
/// device is not opened, a file over `limit` is not read past it), with
/// errors naming the file as `shown`.
pub(super) fn read_regular(
    path: &Path,
    shown: &str,
    limit: u64,
) -> Result<Vec<u8>, SubmissionError> {
    use crate::platform::fs::{read_limited, ReadError};
    read_limited(path, limit).map_err(|e| match e {
        ReadError::NotRegular(kind) => SubmissionError::NotRegular {
            path: shown.to_string(),
            kind: kind.to_string(),
        },
        ReadError::TooLarge { size, limit } => SubmissionError::FileTooLarge {
            file: shown.to_string(),
            size,
            limit,
        },
        ReadError::Grew { limit } => SubmissionError::FileTooLargeRead {
            file: shown.to_string(),
            limit,
        },
        ReadError::NotFound => SubmissionError::Unreadable {
            path: shown.to_string(),
            message: e.to_string(),
        },
        ReadError::Io(e) => SubmissionError::Unreadable {
            path: shown.to_string(),
            message: e.to_string(),
        },
    })
}

/// Keeps the running totals against the limits.
pub(super) struct Budget<'a> {
    pub(super) limits: &'a Limits,
    pub(super) files: usize,
    pub(super) bytes: u64,
}

impl Budget<'_> {
    pub(super) fn admit(&mut self, file: &str, size: u64) -> Result<(), SubmissionError> {
        if size > self.limits.max_file_bytes {
            return Err(SubmissionError::FileTooLarge {
                file: file.to_string(),
                size,
                limit: self.limits.max_file_bytes,
            });
        }
        self.files += 1;
        if self.files > self.limits.max_files {
            return Err(SubmissionError::TooManyFiles {
                limit: self.limits.max_files,
            });
        }
        self.bytes += size;
        if self.bytes > self.limits.max_total_bytes {
            return Err(SubmissionError::TooLarge {
                limit: self.limits.max_total_bytes,
            });
        }
        Ok(())
    }
}

impl Budget<'_> {
    pub(super) fn grow(&mut self, extra: u64) -> Result<(), SubmissionError> {
        self.bytes += extra;
        if self.bytes > self.limits.max_total_bytes {
            return Err(SubmissionError::TooLarge {
                limit: self.limits.max_total_bytes,
            });
        }
        Ok(())
    }
}

/// Reads at most `limit` bytes of a stream (a zip entry); an error if there
/// is more (a zip header may lie about the size).
pub(super) fn read_stream_limited(
    r: impl Read,
    file: &str,
    limit: u64,
) -> Result<Vec<u8>, SubmissionError> {
    let mut buf = Vec::new();
    r.take(limit.saturating_add(1))
        .read_to_end(&mut buf)
        .map_err(|e| SubmissionError::Unreadable {
            path: file.to_string(),
            message: e.to_string(),
        })?;
    if buf.len() as u64 > limit {
        // Only `limit + 1` bytes were read: the real size is unknown.
        return Err(SubmissionError::FileTooLargeRead {
            file: file.to_string(),
            limit,
        });
    }
    Ok(buf)
}

pub(super) fn skipped_note(skipped: &[String]) -> Option<String> {
    if skipped.is_empty() {
        return None;
    }
    Some(format!(
        "skipped {} file(s) that are not assembler sources: {}",
        skipped.len(),
        short_list(skipped)
    ))
}

/// The first five of `items`, comma-separated, and how many more there
/// are: a note names what was left out without growing with the batch.
pub(crate) fn short_list(items: &[String]) -> String {
    const SHOW: usize = 5;
    let mut list = items[..items.len().min(SHOW)].join(", ");
    if items.len() > SHOW {
        list.push_str(&format!(" and {} more", items.len() - SHOW));
    }
    list
}

pub(super) fn read_folder(
    root: &Path,
    limits: &Limits,
    notes: &mut Vec<String>,
) -> Result<BTreeMap<String, Vec<u8>>, SubmissionError> {
    let mut budget = Budget {
        limits,
        files: 0,
        bytes: 0,
    };
    let mut out = BTreeMap::new();
    let mut skipped = Vec::new();
    let mut stack: Vec<(PathBuf, String, usize)> = vec![(root.to_path_buf(), String::new(), 0)];
    // Every file and folder seen, as a zip's entries are counted.
    let mut entries_seen = 0usize;
    while let Some((dir, prefix, depth)) = stack.pop() {
        let unreadable = |e: std::io::Error| SubmissionError::Unreadable {
            path: dir.display().to_string(),
            message: e.to_string(),
        };
        // No more than the limit is listed, however many there are.
        let room = limits.max_entries().saturating_sub(entries_seen);
        let mut entries: Vec<_> = crate::platform::fs::read_dir(&dir)
            .map_err(unreadable)?
            .take(room.saturating_add(1))
            .collect();
        entries_seen += entries.len();
        if entries_seen > limits.max_entries() {
            return Err(SubmissionError::TooManyEntries {
                limit: limits.max_entries(),
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        for e in entries {
            let rel = if prefix.is_empty() {
                e.name.clone()
            } else {
                format!("{prefix}/{}", e.name)
            };
            if is_junk(&rel) {
                continue;
            }
            let Ok(meta) = crate::platform::fs::symlink_metadata(&e.path) else {
                continue;
            };
            match meta.kind {
                Kind::Symlink => notes.push(format!(
                    "skipped symbolic link {rel} (links are not followed)"
                )),
                Kind::Dir if depth + 1 < MAX_DEPTH => stack.push((e.path, rel, depth + 1)),
                Kind::Dir => notes.push(format!("skipped {rel}: folders nest too deep")),
                Kind::File => {
                    if !is_source(&rel) {
                        skipped.push(rel);
                        continue;
                    }
                    budget.admit(&rel, meta.len)?;
                    let bytes = read_regular(&e.path, &rel, limits.max_file_bytes)?;
                    out.insert(rel, bytes);
                }
                Kind::Special(kind) => notes.push(format!(
                    "skipped {rel}: a {kind}, not a regular file (it was not opened)"
                )),
            }
        }
    }
    skipped.sort();
    notes.extend(skipped_note(&skipped));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{tmpdir, write_zip};
    use super::super::Submission;
    use super::*;

    /// A zip and a folder obey the same rules: up to `max_entries` files and
    /// folders in all (the non-sources skipped with a note), refused above
    /// it with a message saying so; `max_files` counts the sources only.
    #[test]
    fn zips_and_folders_share_one_limit_on_entries() {
        let d = tmpdir("entries");
        let limits = Limits::default();
        let n = limits.max_entries();
        let main: &[u8] = b"\tnop\n";
        // The folder counts `build` itself too.
        for (tag, junk) in [("fits", n - 2), ("over", n + 1)] {
            let names: Vec<String> = (0..junk).map(|i| format!("build/o{i}.txt")).collect();
            let mut entries: Vec<(&str, &[u8])> = vec![("Viergewinnt.asm", main)];
            entries.extend(names.iter().map(|n| (n.as_str(), &b"x"[..])));
            let z = d.join(format!("{tag}.zip"));
            write_zip(&z, &entries);
            let folder = d.join(tag);
            std::fs::create_dir_all(folder.join("build")).unwrap();
            for (name, data) in &entries {
                std::fs::write(folder.join(name), data).unwrap();
            }
            for path in [&z, &folder] {
                let got = Submission::load(path, &limits);
                if tag == "fits" {
                    let sub = got.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                    assert!(
                        sub.notes.iter().any(|n| n.contains("skipped")),
                        "{:?}",
                        sub.notes
                    );
                } else {
                    assert_eq!(
                        got.unwrap_err(),
                        SubmissionError::TooManyEntries { limit: n },
                        "{}",
                        path.display()
                    );
                }
            }
        }
        let _ = std::fs::remove_dir_all(&d);
    }

    /// A file found too large while reading (a zip header that understated
    /// it) is not given the size where reading stopped.
    #[test]
    fn a_file_too_large_to_read_names_the_limit_only() {
        let err = read_stream_limited(&[0u8; 100][..], "Bomb.inc", 10).unwrap_err();
        assert_eq!(
            err,
            SubmissionError::FileTooLargeRead {
                file: "Bomb.inc".into(),
                limit: 10
            }
        );
        assert!(err.to_string().contains("more than the 10 bytes"), "{err}");
    }
}
