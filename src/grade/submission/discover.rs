//! From the command line's paths to a batch: which paths are submissions
//! (a folder with sources at its top, a `.zip`, or each of those in a batch
//! folder), what a batch folder holds that is none, and a unique report
//! name for each.

use super::{is_junk, submission_name};
use crate::grade::error::GradeError;
use std::path::{Path, PathBuf};

/// True if a folder holds a submission itself (an entry file or any `.asm`
/// at its top), rather than one submission per sub-folder or zip.
fn is_submission_folder(dir: &Path, entry: &str) -> Result<bool, GradeError> {
    let rd = std::fs::read_dir(dir).map_err(|source| GradeError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    Ok(rd.filter_map(Result::ok).any(|e| {
        let n = e.file_name().to_string_lossy().into_owned();
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        is_file && (n.eq_ignore_ascii_case(entry) || n.to_ascii_lowercase().ends_with(".asm"))
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
        let meta = std::fs::metadata(p).map_err(|source| GradeError::Io {
            path: p.clone(),
            source,
        })?;
        // Anything but a folder is one submission; loading it says what is
        // wrong with a fifo or device instead of stopping the batch here.
        if !meta.is_dir() || is_submission_folder(p, entry)? {
            out.push(p.clone());
        } else {
            let rd = std::fs::read_dir(p).map_err(|source| GradeError::Io {
                path: p.clone(),
                source,
            })?;
            let mut children: Vec<PathBuf> = Vec::new();
            for e in rd.filter_map(Result::ok) {
                let n = e.file_name().to_string_lossy().into_owned();
                let dir = e.file_type().is_ok_and(|t| t.is_dir());
                let zip = n.to_ascii_lowercase().ends_with(".zip");
                if is_junk(&n) {
                    continue;
                }
                if dir
                    && e.path()
                        .join(crate::grade::report::output::MANIFEST)
                        .exists()
                {
                    skipped.push(format!("{n}/ (hc11lab grade's reports)"));
                    continue;
                }
                if n.starts_with('.') || !(dir || zip) {
                    skipped.push(format!("{n}{}", if dir { "/" } else { "" }));
                    continue;
                }
                children.push(e.path());
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
    use super::super::test_support::{tmpdir, write_zip};
    use super::*;

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
