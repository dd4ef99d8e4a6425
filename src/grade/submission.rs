//! Reading submissions safely: a folder or a `.zip` per student, a folder of
//! those for a batch. Files are read into memory within the assignment's
//! limits; nothing is extracted to disk, symlinks are not followed, and zip
//! entries with absolute paths or `..` are refused.

use super::assignment::Limits;
use super::error::{GradeError, SubmissionError};
use super::text::{decode_source, Encoding};
use crate::platform::fs::Kind;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

/// File extensions read as assembler sources; other files are listed in a note and skipped.
pub const SOURCE_EXTENSIONS: &[&str] = &["asm", "inc", "s", "a11", "asm11", "mac", "def", "h"];

/// Deepest folder nesting read inside a submission.
const MAX_DEPTH: usize = 8;

/// A decoded source file of a submission.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceText {
    /// The text.
    pub text: String,
    /// How the bytes were decoded.
    pub encoding: Encoding,
}

/// One student's submission, read into memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Submission {
    /// Name used in reports: the folder name, or the zip name without `.zip`.
    pub name: String,
    /// Where it was read from.
    pub origin: PathBuf,
    /// Source files by relative path (`/`-separated, as found).
    pub files: BTreeMap<String, SourceText>,
    /// Remarks for the student (decoding, skipped files).
    pub notes: Vec<String>,
}

/// Why an include could not be resolved inside a submission.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IncludeError {
    /// The path is absolute or climbs above the submission with `..`.
    #[error("`{0}` leaves the submission: only files inside it can be included")]
    Outside(String),
    /// No such file in the submission (nor among the course's provided files).
    #[error("`{0}` is not in the submission")]
    NotFound(String),
}

/// True for names the operating systems add to archives and folders.
fn is_junk(path: &str) -> bool {
    path.split('/').any(|c| {
        c == "__MACOSX" || c == ".DS_Store" || c == "Thumbs.db" || c == ".git" || c == "desktop.ini"
    })
}

fn is_source(path: &str) -> bool {
    path.rsplit_once('.').is_some_and(|(_, ext)| {
        SOURCE_EXTENSIONS
            .iter()
            .any(|e| ext.eq_ignore_ascii_case(e))
    })
}

/// Splits a path (either slash) into components, resolving `.` and `..`;
/// `None` if it is absolute or climbs above its start.
pub fn normalize(path: &str) -> Option<Vec<String>> {
    let p = path.replace('\\', "/");
    let drive = p.as_bytes().get(1) == Some(&b':');
    if p.starts_with('/') || drive {
        return None;
    }
    let mut out: Vec<String> = Vec::new();
    for c in p.split('/') {
        match c {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            c => out.push(c.to_string()),
        }
    }
    Some(out)
}

/// A regular file's bytes through the platform's bounded reader (a fifo or
/// device is not opened, a file over `limit` is not read past it), with
/// errors naming the file as `shown`.
fn read_regular(path: &Path, shown: &str, limit: u64) -> Result<Vec<u8>, SubmissionError> {
    use crate::platform::fs::{read_bounded, BoundedError};
    read_bounded(path, limit).map_err(|e| match e {
        BoundedError::NotRegular(kind) => SubmissionError::NotRegular {
            path: shown.to_string(),
            kind: kind.to_string(),
        },
        BoundedError::TooLarge(size) => SubmissionError::FileTooLarge {
            file: shown.to_string(),
            size,
            limit,
        },
        BoundedError::TooLargeRead => SubmissionError::FileTooLargeRead {
            file: shown.to_string(),
            limit,
        },
        BoundedError::Io(e) => SubmissionError::Unreadable {
            path: shown.to_string(),
            message: e.to_string(),
        },
    })
}

impl Submission {
    /// Reads a submission from a folder or a `.zip`. Anything else (a fifo,
    /// a device, a file that is not a zip) is refused without being read.
    pub fn load(path: &Path, limits: &Limits) -> Result<Submission, SubmissionError> {
        let name = submission_name(path);
        let is_zip = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
        let shown = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let meta =
            crate::platform::fs::metadata(path).map_err(|e| SubmissionError::Unreadable {
                path: shown.clone(),
                message: e.to_string(),
            })?;
        if let crate::platform::fs::Kind::Special(kind) = meta.kind {
            return Err(SubmissionError::NotRegular {
                path: shown,
                kind: kind.to_string(),
            });
        }
        let mut notes = Vec::new();
        let raw = if meta.is_dir() {
            read_folder(path, limits, &mut notes)?
        } else if is_zip {
            read_zip(path, limits, &mut notes)?
        } else {
            return Err(SubmissionError::Unreadable {
                path: shown,
                message: "a submission is a folder or a .zip archive".into(),
            });
        };
        Submission::from_files(name, path.to_path_buf(), raw, notes)
    }

    /// One source file as a submission (`lesson check` of a single
    /// `.asm`): the file under the name `entry`, with the files the
    /// assembler opens for it in its folder tree (its includes, spelled and
    /// resolved as `dialect` does, case-insensitively, in sub-folders too),
    /// each within `limits` as a folder's files are. Nothing else of the
    /// folder is read. A file the assembler cannot find is left out, for
    /// the grader's assembly to report (or for the course's provided files
    /// to fill).
    pub fn load_source_file(
        path: &Path,
        entry: &str,
        dialect: crate::asm::Dialect,
        limits: &Limits,
    ) -> Result<Submission, SubmissionError> {
        use crate::asm::source::{FsProvider, SourceProvider};
        let shown = path.display().to_string();
        let main = read_regular(path, &shown, limits.max_file_bytes)?;
        let mut budget = Budget {
            limits,
            files: 0,
            bytes: 0,
        };
        budget.admit(&shown, main.len() as u64)?;
        let name = path
            .file_name()
            .map_or_else(|| "submission".into(), |n| n.to_string_lossy().into_owned());
        let mut notes = Vec::new();
        if !name.eq_ignore_ascii_case(entry) {
            notes.push(format!(
                "{name} was checked as {entry}, the exercise's main file"
            ));
        }
        let opened = OpenedFiles::default();
        let opts = crate::asm::AsmOptions {
            dialect,
            max_file_size: limits.max_file_bytes,
            max_lines: limits.max_source_lines,
            time_limit: Some(std::time::Duration::from_millis(limits.max_assemble_ms)),
            ..crate::asm::AsmOptions::default()
        };
        let _ = crate::asm::assemble_with(path, &opened, &opts);
        let dir = path.parent().unwrap_or(Path::new(""));
        let main_id = FsProvider.identity(path);
        let mut files = BTreeMap::from([(entry.to_string(), main)]);
        for (file, bytes) in opened.files.into_inner() {
            // The assembler keeps includes inside the main file's tree.
            let Ok(rel) = file.strip_prefix(dir) else {
                continue;
            };
            let rel: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            let rel = rel.join("/");
            if FsProvider.identity(&file) == main_id || files.contains_key(&rel) {
                continue;
            }
            budget.admit(&rel, bytes.len() as u64)?;
            files.insert(rel, bytes);
        }
        Submission::from_files(name, path.to_path_buf(), files, notes)
    }

    /// Builds a submission from in-memory files (path -> bytes), decoding sources.
    pub fn from_files(
        name: String,
        origin: PathBuf,
        raw: BTreeMap<String, Vec<u8>>,
        mut notes: Vec<String>,
    ) -> Result<Submission, SubmissionError> {
        let mut files = BTreeMap::new();
        let mut windows = Vec::new();
        for (path, bytes) in raw {
            let (text, encoding) = decode_source(&bytes).map_err(|e| SubmissionError::NotText {
                file: path.clone(),
                offset: e.offset,
                byte: e.byte,
            })?;
            if encoding == Encoding::Windows1252 {
                windows.push(path.clone());
            }
            let text = match crate::asm::source::lone_cr_to_lf(&text) {
                Some(fixed) => {
                    notes.push(format!(
                        "{path} ends its lines with a carriage return only (classic Mac); they were read as line breaks"
                    ));
                    fixed
                }
                None => text,
            };
            files.insert(path, SourceText { text, encoding });
        }
        match windows.as_slice() {
            [] => {}
            [one] => notes.push(format!(
                "{one} is not UTF-8; it was read as Windows-1252 (Latin-1), so umlauts in comments are fine"
            )),
            many => notes.push(format!(
                "{} files are not UTF-8 ({}); they were read as Windows-1252 (Latin-1), so umlauts in comments are fine",
                many.len(),
                many.join(", ")
            )),
        }
        Ok(Submission {
            name,
            origin,
            files,
            notes,
        })
    }

    /// The path of the entry file (matched case-insensitively, in any folder;
    /// the shallowest wins, two at the same depth are ambiguous).
    pub fn find_entry(&self, entry: &str) -> Result<String, SubmissionError> {
        let mut hits: Vec<&String> = self
            .files
            .keys()
            .filter(|p| {
                p.rsplit('/')
                    .next()
                    .is_some_and(|f| f.eq_ignore_ascii_case(entry))
            })
            .collect();
        hits.sort_by_key(|p| (p.matches('/').count(), p.to_string()));
        match hits.as_slice() {
            [] => {
                let asm: Vec<&str> = self
                    .files
                    .keys()
                    .filter(|p| p.to_ascii_lowercase().ends_with(".asm"))
                    .map(String::as_str)
                    .collect();
                let found = if asm.is_empty() {
                    " (no .asm file was found)".to_string()
                } else {
                    format!(
                        " (found {}; rename your main file to {entry})",
                        asm.join(", ")
                    )
                };
                Err(SubmissionError::EntryMissing {
                    entry: entry.to_string(),
                    found,
                })
            }
            [one] => Ok(one.to_string()),
            [a, b, ..] if a.matches('/').count() < b.matches('/').count() => Ok(a.to_string()),
            many => Err(SubmissionError::EntryAmbiguous {
                entry: entry.to_string(),
                paths: many
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// Resolves an `include` written in file `from`: relative to that file's
    /// folder, case-insensitively, never outside the submission.
    pub fn resolve_include(&self, from: &str, name: &str) -> Result<String, IncludeError> {
        let name = name.trim().trim_matches('"').trim_matches('\'');
        if normalize(name).is_none() && !name.contains("..") {
            return Err(IncludeError::Outside(name.to_string()));
        }
        let base = from.replace('\\', "/");
        let dir = base.rsplit_once('/').map_or("", |(d, _)| d);
        let joined = if dir.is_empty() {
            name.to_string()
        } else {
            format!("{dir}/{name}")
        };
        let Some(parts) = normalize(&joined) else {
            return Err(IncludeError::Outside(name.to_string()));
        };
        let wanted = parts.join("/");
        if self.files.contains_key(&wanted) {
            return Ok(wanted);
        }
        self.files
            .keys()
            .find(|k| k.eq_ignore_ascii_case(&wanted))
            .cloned()
            .ok_or_else(|| IncludeError::NotFound(name.to_string()))
    }
}

/// The report name of a submission path: folder name or zip name without `.zip`.
pub fn submission_name(path: &Path) -> String {
    let is_zip = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"));
    let name = if is_zip {
        path.file_stem()
    } else {
        path.file_name()
    };
    name.map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != "." && n != "..")
        .unwrap_or_else(|| "submission".to_string())
}

/// Keeps the running totals against the limits.
/// Files on disk, noting each the assembler read
/// ([`Submission::load_source_file`]).
#[derive(Default)]
struct OpenedFiles {
    files: std::cell::RefCell<Vec<(PathBuf, Vec<u8>)>>,
}

impl crate::asm::source::SourceProvider for OpenedFiles {
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, crate::asm::source::SourceError> {
        let bytes = crate::asm::source::FsProvider.read(path, limit)?;
        self.files
            .borrow_mut()
            .push((path.to_path_buf(), bytes.clone()));
        Ok(bytes)
    }
    fn is_file(&self, path: &Path) -> bool {
        crate::asm::source::FsProvider.is_file(path)
    }
    fn list_dir(&self, dir: &Path) -> Vec<String> {
        crate::asm::source::FsProvider.list_dir(dir)
    }
    fn identity(&self, path: &Path) -> PathBuf {
        crate::asm::source::FsProvider.identity(path)
    }
}

struct Budget<'a> {
    limits: &'a Limits,
    files: usize,
    bytes: u64,
}

impl Budget<'_> {
    fn admit(&mut self, file: &str, size: u64) -> Result<(), SubmissionError> {
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
    fn grow(&mut self, extra: u64) -> Result<(), SubmissionError> {
        self.bytes += extra;
        if self.bytes > self.limits.max_total_bytes {
            return Err(SubmissionError::TooLarge {
                limit: self.limits.max_total_bytes,
            });
        }
        Ok(())
    }
}

/// Reads at most `limit` bytes; an error if there is more (a zip header may lie).
fn read_bounded(r: impl Read, file: &str, limit: u64) -> Result<Vec<u8>, SubmissionError> {
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

fn skipped_note(skipped: &[String]) -> Option<String> {
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

fn read_zip(
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
        let bytes = read_bounded(&mut entry, &rel, limits.max_file_bytes)?;
        // A header may understate the size: count what was really read.
        budget.grow((bytes.len() as u64).saturating_sub(declared))?;
        if out.insert(rel.clone(), bytes).is_some() {
            notes.push(format!("the zip holds {rel} twice; the last copy was used"));
        }
    }
    notes.extend(skipped_note(&skipped));
    Ok(out)
}

fn read_folder(
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

/// True if a folder holds a submission itself (an entry file or any `.asm`
/// at its top), rather than one submission per sub-folder or zip.
fn is_submission_folder(dir: &Path, entry: &str) -> Result<bool, GradeError> {
    let rd = crate::platform::fs::read_dir(dir).map_err(|source| GradeError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    Ok(rd.into_iter().any(|e| {
        let n = e.name;
        e.kind == Kind::File
            && (n.eq_ignore_ascii_case(entry) || n.to_ascii_lowercase().ends_with(".asm"))
    }))
}

/// Expands the command line's paths into submission paths, sorted by name:
/// a `.zip` is one submission; a folder with sources at its top is one; any
/// other folder is a batch whose sub-folders and zips are submissions.
pub fn discover(paths: &[PathBuf], entry: &str) -> Result<Vec<PathBuf>, GradeError> {
    discover_noting(paths, entry).map(|(found, _)| found)
}

/// [`discover`], also naming what a batch folder holds that is no
/// submission (a stray file, a hidden folder): a lecturer should hear that
/// `notes.txt` or `.backup/` was not graded. Editor and OS litter
/// (`.DS_Store`, `__MACOSX`) is left out of that list.
pub fn discover_noting(
    paths: &[PathBuf],
    entry: &str,
) -> Result<(Vec<PathBuf>, Vec<String>), GradeError> {
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for p in paths {
        let meta = crate::platform::fs::metadata(p).map_err(|source| GradeError::Io {
            path: p.clone(),
            source,
        })?;
        // Anything but a folder is one submission; loading it says what is
        // wrong with a fifo or device instead of stopping the batch here.
        if !meta.is_dir() || is_submission_folder(p, entry)? {
            out.push(p.clone());
        } else {
            let rd = crate::platform::fs::read_dir(p).map_err(|source| GradeError::Io {
                path: p.clone(),
                source,
            })?;
            let mut children: Vec<PathBuf> = Vec::new();
            for e in rd {
                let n = e.name.clone();
                let dir = e.kind == Kind::Dir;
                let zip = n.to_ascii_lowercase().ends_with(".zip");
                if is_junk(&n) {
                    continue;
                }
                if dir && crate::platform::fs::exists(&e.path.join(super::report::output::MANIFEST))
                {
                    skipped.push(format!("{n}/ (hc11lab grade's reports)"));
                    continue;
                }
                if n.starts_with('.') || !(dir || zip) {
                    skipped.push(format!("{n}{}", if dir { "/" } else { "" }));
                    continue;
                }
                children.push(e.path);
            }
            if children.is_empty() {
                // An empty-looking folder is still graded, so the student hears why.
                children.push(p.clone());
            }
            out.extend(children);
        }
    }
    out.sort_by_key(|p| (submission_name(p), p.clone()));
    out.dedup();
    if out.is_empty() {
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        return Err(GradeError::NoSubmissions(shown.join(", ")));
    }
    skipped.sort();
    Ok((out, skipped))
}

/// Unique report names for submission paths, in the same order: a second
/// `alice` (say `alice/` and `alice.zip`) becomes `alice-2`, or `alice-3`
/// when some submission is really called `alice-2`.
pub fn unique_names(paths: &[PathBuf]) -> Vec<String> {
    let bases: Vec<String> = paths.iter().map(|p| submission_name(p)).collect();
    let mut taken: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut dup = vec![false; bases.len()];
    for (i, b) in bases.iter().enumerate() {
        if seen.insert(b) {
            taken.insert(b.clone());
        } else {
            dup[i] = true;
        }
    }
    bases
        .iter()
        .zip(dup)
        .map(|(base, dup)| {
            if !dup {
                return base.clone();
            }
            let mut n = 2usize;
            loop {
                let candidate = format!("{base}-{n}");
                if taken.insert(candidate.clone()) {
                    return candidate;
                }
                n += 1;
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// A single source brings exactly the files the assembler opens for
    /// it: an include in a sub-folder whose name differs in case, one
    /// spelled with quotes, and not a commented-out include or any other
    /// file of the folder; the main file goes under the entry's name.
    #[test]
    fn a_single_source_brings_what_the_assembler_opens() {
        let dir = std::env::temp_dir().join(format!("hc11lab one source {}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("lib")).unwrap();
        std::fs::write(
            dir.join("mine.asm"),
            "; include Not.inc\n\tinclude LIB/Consts.inc\n\tinclude \"more.inc\"\n\torg $C000\n\tldaa #ONE\n",
        )
        .unwrap();
        std::fs::write(dir.join("lib/consts.inc"), "ONE\tequ 1\n").unwrap();
        std::fs::write(dir.join("more.inc"), "TWO\tequ 2\n").unwrap();
        std::fs::write(dir.join("Not.inc"), "not read\n").unwrap();
        std::fs::write(dir.join("other.asm"), "not read either\n").unwrap();
        let sub = Submission::load_source_file(
            &dir.join("mine.asm"),
            "Main.asm",
            crate::asm::Dialect::default(),
            &Limits::default(),
        )
        .unwrap();
        let names: Vec<&str> = sub.files.keys().map(String::as_str).collect();
        assert_eq!(names, ["Main.asm", "lib/consts.inc", "more.inc"]);
        assert!(sub
            .notes
            .iter()
            .any(|n| n == "mine.asm was checked as Main.asm, the exercise's main file"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn tmpdir(tag: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("hc11lab-grade-sub-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn write_zip(path: &Path, entries: &[(&str, &[u8])]) {
        let f = std::fs::File::create(path).unwrap();
        let mut z = zip::ZipWriter::new(f);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, data) in entries {
            z.start_file(*name, opts).unwrap();
            z.write_all(data).unwrap();
        }
        z.finish().unwrap();
    }

    #[test]
    fn normalize_refuses_escapes() {
        assert_eq!(normalize("a/./b/../c.inc").unwrap(), ["a", "c.inc"]);
        assert_eq!(normalize("a\\b.inc").unwrap(), ["a", "b.inc"]);
        assert!(normalize("../x").is_none());
        assert!(normalize("a/../../x").is_none());
        assert!(normalize("/etc/passwd").is_none());
        assert!(normalize("C:\\x.inc").is_none());
    }

    #[test]
    fn folder_with_nested_entry_and_includes() {
        let d = tmpdir("folder");
        std::fs::create_dir_all(d.join("alice/src")).unwrap();
        std::fs::write(d.join("alice/src/Viergewinnt.asm"), "include utils.inc\n").unwrap();
        std::fs::write(d.join("alice/src/Utils.inc"), "rts\n").unwrap();
        std::fs::write(d.join("alice/notes.pdf"), b"%PDF\x00").unwrap();
        let s = Submission::load(&d.join("alice"), &Limits::default()).unwrap();
        assert_eq!(s.name, "alice");
        let entry = s.find_entry("viergewinnt.asm").unwrap();
        assert_eq!(entry, "src/Viergewinnt.asm");
        assert_eq!(
            s.resolve_include(&entry, "utils.inc").unwrap(),
            "src/Utils.inc"
        );
        assert_eq!(
            s.resolve_include(&entry, "../../secret.inc"),
            Err(IncludeError::Outside("../../secret.inc".into()))
        );
        assert_eq!(
            s.resolve_include(&entry, "/etc/passwd"),
            Err(IncludeError::Outside("/etc/passwd".into()))
        );
        assert!(matches!(
            s.resolve_include(&entry, "missing.inc"),
            Err(IncludeError::NotFound(_))
        ));
        assert!(
            s.notes.iter().any(|n| n.contains("notes.pdf")),
            "{:?}",
            s.notes
        );
        let _ = std::fs::remove_dir_all(&d);
    }

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
        let err = read_bounded(&[0u8; 100][..], "Bomb.inc", 10).unwrap_err();
        assert_eq!(
            err,
            SubmissionError::FileTooLargeRead {
                file: "Bomb.inc".into(),
                limit: 10
            }
        );
        assert!(err.to_string().contains("more than the 10 bytes"), "{err}");
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

    #[test]
    fn entry_missing_names_candidates() {
        let mut raw = BTreeMap::new();
        raw.insert("game.asm".to_string(), b"rts\n".to_vec());
        let s = Submission::from_files("s".into(), PathBuf::new(), raw, vec![]).unwrap();
        let e = s.find_entry("Viergewinnt.asm").unwrap_err().to_string();
        assert!(e.contains("found game.asm"), "{e}");
    }

    #[test]
    fn discovery_of_batches() {
        let d = tmpdir("discover");
        std::fs::create_dir_all(d.join("batch/bob")).unwrap();
        std::fs::create_dir_all(d.join("batch/alice")).unwrap();
        std::fs::write(d.join("batch/bob/Viergewinnt.asm"), "rts\n").unwrap();
        std::fs::write(d.join("batch/alice/Viergewinnt.asm"), "rts\n").unwrap();
        write_zip(&d.join("batch/carol.zip"), &[("Viergewinnt.asm", b"rts\n")]);
        std::fs::write(d.join("batch/readme.txt"), "x").unwrap();
        std::fs::create_dir_all(d.join("batch/.backup")).unwrap();
        std::fs::write(d.join("batch/.DS_Store"), "x").unwrap();
        let (_, skipped) = discover_noting(&[d.join("batch")], "Viergewinnt.asm").unwrap();
        assert_eq!(skipped, [".backup/", "readme.txt"]);
        let found = discover(&[d.join("batch")], "Viergewinnt.asm").unwrap();
        let names: Vec<String> = found.iter().map(|p| submission_name(p)).collect();
        assert_eq!(names, ["alice", "bob", "carol"]);
        let single = discover(&[d.join("batch/bob")], "Viergewinnt.asm").unwrap();
        assert_eq!(single, [d.join("batch/bob")]);
        let names = unique_names(&[d.join("a/x"), d.join("b/x.zip")]);
        assert_eq!(names, ["x", "x-2"]);
        let names = unique_names(&[d.join("a/x"), d.join("b/x"), d.join("x-2")]);
        assert_eq!(names, ["x", "x-3", "x-2"]);
        let _ = std::fs::remove_dir_all(&d);
    }
}
