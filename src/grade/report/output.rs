//! The output folder of a batch (`--out`): which folder each submission's
//! `results.json` goes to, and how a batch replaces the reports of an
//! earlier one without ever leaving old and new files mixed.
//!
//! Every report is first written into a staging folder inside `--out`; only
//! when all of them are complete are the earlier batch's files removed and
//! the new ones renamed into place. A journal file marks that short window,
//! so a batch killed inside it is recognised (and said so) by the next run.
//! A manifest lists what the batch wrote: the next batch removes exactly
//! those files and never touches anything else in the folder.

use super::super::error::GradeError;
use super::super::result::SubmissionResult;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

/// The batch-wide reports `write_reports` puts at the top of `--out`.
pub const REPORT_FILES: &[&str] = &[
    "grades.csv",
    "report.json",
    "report.html",
    "junit.xml",
    "similarity.csv",
    "similarity.html",
];

/// Each submission's file inside its folder.
pub const RESULTS_FILE: &str = "results.json";

/// Lists the files the last complete batch wrote (one relative path a line);
/// its presence also marks a folder as hc11lab's reports, which discovery
/// never takes for a submission.
pub(crate) const MANIFEST: &str = ".hc11lab-grade-manifest";
/// Exists only while a batch moves its reports into place.
const JOURNAL: &str = ".hc11lab-grade-journal";
/// Folders a batch writes its reports into before they replace the old ones.
const STAGING_PREFIX: &str = ".hc11lab-staging-";

/// Names no submission folder may take: the reports, the shard file of
/// `--shard` (written beside them), and device names Windows refuses as
/// file names (the folder may be copied there).
fn reserved(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let stem = lower.split('.').next().unwrap_or("");
    let device = matches!(stem, "con" | "prn" | "aux" | "nul")
        || ((stem.starts_with("com") || stem.starts_with("lpt"))
            && stem.len() == 4
            && stem.as_bytes()[3].is_ascii_digit());
    device || REPORT_FILES.iter().any(|r| lower == *r) || lower == crate::grade::shard::SHARD_FILE
}

/// A file name for a submission's folder: its name with anything but
/// letters, digits, `-`, `_`, `.` replaced by `_`, no dot at either end.
pub fn safe_dir_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    match s.trim_matches('.') {
        "" => "_".to_string(),
        t => t.to_string(),
    }
}

/// The folder under `--out` of each submission, in the same order: unique
/// (ignoring case, since macOS and Windows do), never a report's name, and
/// stable: a name that is already safe keeps it, even when another
/// submission's name turns into the same one (`a b` -> `a_b-2` next to
/// `a_b`). A folder a result already carries is kept if it is valid.
pub fn folder_names(subs: &[SubmissionResult]) -> Vec<String> {
    let mut taken: HashSet<String> = HashSet::new();
    let mut out: Vec<Option<String>> = vec![None; subs.len()];
    let valid = |f: &str| !f.is_empty() && safe_dir_name(f) == f && !reserved(f);
    // First the names that need no change, so they never move.
    for (i, s) in subs.iter().enumerate() {
        let wanted = if valid(&s.folder) {
            s.folder.clone()
        } else {
            s.submission.clone()
        };
        if valid(&wanted) && taken.insert(wanted.to_lowercase()) {
            out[i] = Some(wanted);
        }
    }
    for (i, s) in subs.iter().enumerate() {
        if out[i].is_some() {
            continue;
        }
        let base = safe_dir_name(&s.submission);
        // A leading `_` makes any reserved name free again.
        let base = if reserved(&base) {
            format!("_{base}")
        } else {
            base
        };
        let mut n = 1usize;
        let name = loop {
            let candidate = if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            };
            if !reserved(&candidate) && taken.insert(candidate.to_lowercase()) {
                break candidate;
            }
            n += 1;
        };
        out[i] = Some(name);
    }
    out.into_iter().map(Option::unwrap_or_default).collect()
}

fn io_err(path: &Path) -> impl FnOnce(std::io::Error) -> GradeError + '_ {
    move |source| GradeError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Checks, before any grading, that `out` can take the reports: it is a
/// folder (created if missing) and writable. A mistake here should cost
/// the teaching assistant seconds, not a graded batch.
pub fn prepare_out(out: &Path) -> Result<(), GradeError> {
    if let Ok(meta) = std::fs::metadata(out) {
        if !meta.is_dir() {
            return Err(GradeError::OutNotFolder(out.to_path_buf()));
        }
    }
    let existed = out.exists();
    std::fs::create_dir_all(out).map_err(io_err(out))?;
    // A new folder is marked as reports at once (an empty manifest): made
    // inside the batch folder, it is not graded as a submission.
    if !existed {
        std::fs::write(out.join(MANIFEST), b"").map_err(io_err(out))?;
    }
    let probe = out.join(format!(".hc11lab-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(io_err(out))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// What an earlier batch left in `out`, found before it is replaced.
#[derive(Debug, Default)]
struct Earlier {
    /// Files it wrote (relative paths), from its manifest and the journal.
    files: BTreeSet<String>,
    /// Staging folders of batches killed before their reports were done.
    staging: Vec<PathBuf>,
    /// A batch was killed while it moved its reports into place.
    interrupted_swap: bool,
}

/// True for a relative path a manifest may name: plain components only.
fn owned_path(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && rel
            .split('/')
            .all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains('\\'))
}

fn read_list(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .filter(|l| owned_path(l))
        .collect()
}

fn survey(out: &Path) -> Earlier {
    let mut e = Earlier::default();
    let manifest = out.join(MANIFEST);
    let journal = out.join(JOURNAL);
    e.files.extend(read_list(&manifest));
    if journal.exists() {
        e.interrupted_swap = true;
        e.files.extend(read_list(&journal));
    }
    let has_manifest = manifest.exists();
    let mut legacy = false;
    if let Ok(rd) = std::fs::read_dir(out) {
        for entry in rd.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if name.starts_with(STAGING_PREFIX) && is_dir {
                e.staging.push(entry.path());
            } else if REPORT_FILES.contains(&name.as_str()) {
                e.files.insert(name.clone());
                legacy |= name == "report.json";
            }
        }
    }
    // Reports written before manifests existed: a folder with report.json
    // and no manifest is an earlier batch; its `*/results.json` are its own.
    if legacy && !has_manifest {
        if let Ok(rd) = std::fs::read_dir(out) {
            for entry in rd.filter_map(Result::ok) {
                let name = entry.file_name().to_string_lossy().into_owned();
                if entry.file_type().is_ok_and(|t| t.is_dir())
                    && !name.starts_with('.')
                    && entry.path().join(RESULTS_FILE).is_file()
                {
                    e.files.insert(format!("{name}/{RESULTS_FILE}"));
                }
            }
        }
    }
    e.staging.sort();
    e
}

/// Writes `text` to `path` through a temporary file and a rename, so a
/// reader sees the old file or the whole new one, never half of it.
pub fn write_atomic(path: &Path, text: &[u8]) -> Result<(), GradeError> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp-{}", std::process::id()));
    std::fs::write(&tmp, text).map_err(io_err(&tmp))?;
    std::fs::rename(&tmp, path).map_err(|source| {
        let _ = std::fs::remove_file(&tmp);
        GradeError::Io {
            path: path.to_path_buf(),
            source,
        }
    })
}

/// The files of one batch, relative to `--out`, with their contents.
pub type Files = Vec<(String, String)>;

/// What [`replace_batch`] did.
#[derive(Debug, Default)]
pub struct Replaced {
    /// The files written, as full paths.
    pub files: Vec<PathBuf>,
    /// What was found of earlier batches and what became of it.
    pub notes: Vec<String>,
}

/// Replaces whatever an earlier batch wrote into `out` with `files`: staged
/// first, the old files removed, the new renamed in (see the module doc).
pub fn replace_batch(out: &Path, files: &Files) -> Result<Replaced, GradeError> {
    prepare_out(out)?;
    let earlier = survey(out);
    let mut notes = Vec::new();
    for dir in &earlier.staging {
        notes.push(format!(
            "{} was left by a batch that was stopped before its reports were complete; it was removed (the reports of the batch before it stayed in place until now)",
            dir.display()
        ));
        let _ = std::fs::remove_dir_all(dir);
    }
    if earlier.interrupted_swap {
        notes.push(format!(
            "the last batch into {} was stopped while it moved its reports into place, so they were incomplete; they were replaced",
            out.display()
        ));
    }
    let nanos = crate::platform::SystemTime::now()
        .duration_since(crate::platform::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let staging = out.join(format!("{STAGING_PREFIX}{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&staging).map_err(io_err(&staging))?;
    for (rel, text) in files {
        let path = staging.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        }
        std::fs::write(&path, text).map_err(io_err(&path))?;
    }
    let new: BTreeSet<&str> = files.iter().map(|(r, _)| r.as_str()).collect();
    let listing =
        |set: &mut dyn Iterator<Item = &str>| -> String { set.map(|r| format!("{r}\n")).collect() };
    // The journal names old and new files, so a run killed from here on
    // leaves enough for the next one to clear up after it.
    let mut all = earlier
        .files
        .iter()
        .map(String::as_str)
        .chain(new.iter().copied());
    write_atomic(&out.join(JOURNAL), listing(&mut all).as_bytes())?;
    let mut stale = 0usize;
    for rel in &earlier.files {
        let path = out.join(rel);
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file()) {
            std::fs::remove_file(&path).map_err(io_err(&path))?;
            if !new.contains(rel.as_str()) {
                stale += 1;
            }
        }
        if let Some((dir, _)) = rel.rsplit_once('/') {
            // Only an empty folder goes; anything else in it stays.
            let _ = std::fs::remove_dir(out.join(dir));
        }
    }
    if stale > 0 {
        notes.push(format!(
            "removed {stale} file(s) of an earlier batch in {} that this batch does not have",
            out.display()
        ));
    }
    let mut written = Vec::new();
    for (rel, _) in files {
        let to = out.join(rel);
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).map_err(io_err(dir))?;
        }
        std::fs::rename(staging.join(rel), &to).map_err(io_err(&to))?;
        written.push(to);
    }
    write_atomic(
        &out.join(MANIFEST),
        listing(&mut new.iter().copied()).as_bytes(),
    )?;
    std::fs::remove_file(out.join(JOURNAL)).map_err(io_err(&out.join(JOURNAL)))?;
    let _ = std::fs::remove_dir_all(&staging);
    Ok(Replaced {
        files: written,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::result::SubmissionStatus;

    fn sub(name: &str) -> SubmissionResult {
        SubmissionResult {
            submission: name.into(),
            folder: String::new(),
            score: 0.0,
            max_score: 0.0,
            status: SubmissionStatus::Graded,
            notes: vec![],
            checks: vec![],
        }
    }

    #[test]
    fn safe_names() {
        assert_eq!(safe_dir_name("../x y"), "_x_y");
        assert_eq!(safe_dir_name(".."), "_");
        assert_eq!(safe_dir_name("anna-lena_2"), "anna-lena_2");
    }

    #[test]
    fn folders_never_collide() {
        let names = [
            "a b",
            "a_b",
            "x",
            "x-2",
            "X",
            "grades.csv",
            "report.json",
            "nul",
        ];
        let subs: Vec<_> = names.iter().map(|n| sub(n)).collect();
        let f = folder_names(&subs);
        assert_eq!(
            f,
            [
                "a_b-2",
                "a_b",
                "x",
                "x-2",
                "X-3",
                "_grades.csv",
                "_report.json",
                "_nul"
            ]
        );
    }
}
