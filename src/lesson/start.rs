//! `hc11lab lesson start ID DIR` and the Course tab's Start: a copy of an
//! exercise's starter code in a folder of the student's, so that an
//! installed hc11lab (no `firmware/` folder) gives what the task starts
//! from. The starter is the exercise's `starter/` folder; for an exercise
//! that changes the game (its entry is `Viergewinnt.asm`) it is the bundled
//! Viergewinnt; an exercise without starter code (the base assignment)
//! starts from an empty main file.

use super::catalog::Catalog;
use super::i18n::Lang;
use crate::grade::assignment::ReferenceSource;
use crate::grade::Assignment;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a starter could not be copied.
#[derive(Debug, Error)]
pub enum StartError {
    /// No exercise has this id (a guided lesson has no starter).
    #[error("`{0}` is not an exercise (see `hc11lab lesson list`); guided lessons run on their own program in the GUI")]
    NotAnExercise(String),
    /// The exercise's `assignment.toml` is broken.
    #[error("{0}")]
    Assignment(String),
    /// Files of the starter are in the folder already: nothing was written.
    #[error("{} already holds {}: nothing was copied, so your work there is kept; start in a new folder (or delete those files first)", .dir.display(), .files.join(", "))]
    WouldOverwrite {
        /// The folder.
        dir: PathBuf,
        /// The files that exist.
        files: Vec<String>,
    },
    /// A file could not be read or written.
    #[error("{0}")]
    Io(String),
}

/// The starter code of the exercise in `exercise_dir`, as (file name,
/// bytes): see the module documentation.
pub fn starter_files(exercise_dir: &Path) -> Result<Vec<(String, Vec<u8>)>, StartError> {
    let starter = exercise_dir.join("starter");
    // Through the platform's files: in a page the course lives in memory.
    if crate::platform::fs::is_dir(&starter) {
        let entries = crate::platform::fs::read_dir(&starter)
            .map_err(|e| StartError::Io(format!("{}: {e}", starter.display())))?;
        let mut out = Vec::new();
        for entry in entries {
            if entry.kind != crate::platform::fs::Kind::File {
                continue;
            }
            let bytes = crate::platform::fs::read(&entry.path)
                .map_err(|e| StartError::Io(format!("{}: {e}", entry.path.display())))?;
            out.push((entry.name, bytes));
        }
        out.sort();
        return Ok(out);
    }
    let assignment =
        Assignment::load(exercise_dir).map_err(|e| StartError::Assignment(e.to_string()))?;
    let changes_the_game = assignment
        .entry
        .eq_ignore_ascii_case(crate::firmware::MAIN_FILE)
        && !matches!(assignment.reference, Some(ReferenceSource::Bundled));
    if changes_the_game {
        return Ok(crate::firmware::FILES
            .iter()
            .map(|(n, t)| (n.to_string(), t.as_bytes().to_vec()))
            .collect());
    }
    Ok(vec![(
        assignment.entry.clone(),
        format!(
            "; {}: {}\n; The task has no starter code: the program is yours from the first line.\n",
            assignment.entry, assignment.title
        )
        .into_bytes(),
    )])
}

/// Copies the starter of the exercise in `exercise_dir` into `work`,
/// making the folder; files of the same name there are replaced (the
/// Course tab calls it only while the copy's main file does not exist).
/// Returns the names written.
pub fn copy_starter(exercise_dir: &Path, work: &Path) -> Result<Vec<String>, StartError> {
    let files = starter_files(exercise_dir)?;
    write_all(work, &files)
}

fn write_all(work: &Path, files: &[(String, Vec<u8>)]) -> Result<Vec<String>, StartError> {
    crate::platform::fs::create_dir_all(work)
        .map_err(|e| StartError::Io(format!("{}: {e}", work.display())))?;
    let mut names = Vec::new();
    for (name, bytes) in files {
        let to = work.join(name);
        crate::platform::fs::write(&to, bytes)
            .map_err(|e| StartError::Io(format!("{}: {e}", to.display())))?;
        names.push(name.clone());
    }
    Ok(names)
}

/// `hc11lab lesson start ID DIR`: copies exercise `id`'s starter into
/// `dir` (made if missing) and returns what to tell the student, in
/// `lang`. Refuses, writing nothing, when a file of the starter exists in
/// `dir` already: that may be the student's work.
pub fn start(cat: &Catalog, id: &str, dir: &Path, lang: Lang) -> Result<String, StartError> {
    let ex = cat
        .exercise(id)
        .ok_or_else(|| StartError::NotAnExercise(id.to_string()))?;
    let files = starter_files(&ex.dir)?;
    let existing: Vec<String> = files
        .iter()
        .filter(|(name, _)| dir.join(name).exists())
        .map(|(name, _)| name.clone())
        .collect();
    if !existing.is_empty() {
        return Err(StartError::WouldOverwrite {
            dir: dir.to_path_buf(),
            files: existing,
        });
    }
    let names = write_all(dir, &files)?;
    let entry = Assignment::load(&ex.dir)
        .map(|a| a.entry)
        .unwrap_or_else(|_| names.first().cloned().unwrap_or_default());
    let shown = dir.display();
    Ok(match lang {
        Lang::De => format!(
            "{} Dateien nach {shown} kopiert ({}).\nBearbeite {}, dann prüfe mit: hc11lab lesson check {id} {shown}\n",
            names.len(),
            names.join(", "),
            dir.join(&entry).display()
        ),
        Lang::En => format!(
            "copied {} files to {shown} ({}).\nEdit {}, then check it with: hc11lab lesson check {id} {shown}\n",
            names.len(),
            names.join(", "),
            dir.join(&entry).display()
        ),
    })
}
