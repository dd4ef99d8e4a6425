//! Reading submissions safely: a folder or a `.zip` per student, a folder of
//! those for a batch. Files are read into memory within the assignment's
//! limits; nothing is extracted to disk, symlinks are not followed, and zip
//! entries with absolute paths or `..` are refused.
//!
//! The reading is split by source: [`files`] reads from disk within the
//! limits (a folder's walk, one regular file at a time), [`archive`] reads
//! a `.zip` in memory, and [`discover`] turns the command line's paths into
//! the batch's submissions and their names.

mod archive;
mod discover;
mod files;
#[cfg(test)]
mod test_support;

pub use archive::zip_from_bytes;
pub use discover::{discover, discover_noting, unique_names};
pub(crate) use files::short_list;

use super::assignment::Limits;
use super::error::SubmissionError;
use super::text::{decode_source, Encoding};
use files::{open_regular, read_bounded, read_folder, special_kind, Budget};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// File extensions read as assembler sources; other files are listed in a note and skipped.
pub const SOURCE_EXTENSIONS: &[&str] = &["asm", "inc", "s", "a11", "asm11", "mac", "def", "h"];

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
        let meta = std::fs::metadata(path).map_err(|e| SubmissionError::Unreadable {
            path: shown.clone(),
            message: e.to_string(),
        })?;
        if let Some(kind) = special_kind(meta.file_type()) {
            return Err(SubmissionError::NotRegular {
                path: shown,
                kind: kind.to_string(),
            });
        }
        let mut notes = Vec::new();
        let raw = if meta.is_dir() {
            read_folder(path, limits, &mut notes)?
        } else if is_zip {
            archive::read_zip(path, limits, &mut notes)?
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
        let main = read_bounded(
            open_regular(path, &shown, limits.max_file_bytes)?,
            &shown,
            limits.max_file_bytes,
        )?;
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

#[cfg(test)]
mod tests {
    use super::test_support::tmpdir;
    use super::*;

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
    fn entry_missing_names_candidates() {
        let mut raw = BTreeMap::new();
        raw.insert("game.asm".to_string(), b"rts\n".to_vec());
        let s = Submission::from_files("s".into(), PathBuf::new(), raw, vec![]).unwrap();
        let e = s.find_entry("Viergewinnt.asm").unwrap_err().to_string();
        assert!(e.contains("found game.asm"), "{e}");
    }
}
