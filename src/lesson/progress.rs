//! Saved progress: which steps of which lesson a student has done and how
//! many wrong tries each took, plus the chosen language, as JSON in a
//! per-user data folder the caller passes in (the GUI its storage folder,
//! tests a scratch folder).

use super::i18n::Lang;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The file name inside the data folder.
pub const FILE_NAME: &str = "lesson-progress.json";

/// Saving or loading progress failed.
#[derive(Debug, Error)]
pub enum ProgressError {
    /// Reading, writing or renaming the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// The file is not progress JSON (it is left alone; saving replaces it).
    #[error("{path}: not a progress file: {message}")]
    Format {
        /// The file.
        path: PathBuf,
        /// The parser's message.
        message: String,
    },
}

/// Progress in one lesson, keyed by step ids so that editing a lesson
/// (new or reordered steps) keeps what was done.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LessonProgress {
    /// Ids of the steps done.
    pub done: Vec<String>,
    /// Wrong tries per step id.
    pub tries: BTreeMap<String, u32>,
    /// Every step was done.
    pub completed: bool,
}

/// A student's progress in all lessons.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Progress {
    /// The language the student picked (none: follow the system).
    pub language: Option<Lang>,
    /// Progress per lesson id.
    pub lessons: BTreeMap<String, LessonProgress>,
}

impl Progress {
    /// Reads `FILE_NAME` from `dir`; a missing file is empty progress.
    pub fn load(dir: &Path) -> Result<Progress, ProgressError> {
        let path = dir.join(FILE_NAME);
        let text = match super::read_course_file(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Progress::default()),
            Err(source) => return Err(ProgressError::Io { path, source }),
        };
        serde_json::from_str(&text).map_err(|e| ProgressError::Format {
            path,
            message: e.to_string(),
        })
    }

    /// Writes `FILE_NAME` into `dir` (created if needed) through a temporary
    /// file and a rename, so a crash never leaves half a file.
    pub fn save(&self, dir: &Path) -> Result<(), ProgressError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| ProgressError::Io { path, source }
        };
        std::fs::create_dir_all(dir).map_err(io(dir))?;
        let path = dir.join(FILE_NAME);
        let tmp = dir.join(format!("{FILE_NAME}.tmp"));
        let json = serde_json::to_string_pretty(self).map_err(|e| ProgressError::Format {
            path: path.clone(),
            message: e.to_string(),
        })?;
        std::fs::write(&tmp, json).map_err(io(&tmp))?;
        std::fs::rename(&tmp, &path).map_err(io(&path))
    }

    /// The progress of lesson `id` (empty if never started).
    pub fn lesson(&self, id: &str) -> LessonProgress {
        self.lessons.get(id).cloned().unwrap_or_default()
    }

    /// Stores the progress of lesson `id`.
    pub fn set_lesson(&mut self, id: &str, p: LessonProgress) {
        self.lessons.insert(id.to_string(), p);
    }
}

/// The usual per-user data folder for hc11lab, from the environment:
/// `$XDG_DATA_HOME/hc11lab`, `~/.local/share/hc11lab`, or on Windows
/// `%APPDATA%\hc11lab`. `None` if none of these is set.
pub fn default_dir() -> Option<PathBuf> {
    let var = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(x) = var("XDG_DATA_HOME") {
        return Some(x.join("hc11lab"));
    }
    if let Some(a) = var("APPDATA") {
        return Some(a.join("hc11lab"));
    }
    var("HOME").map(|h| h.join(".local").join("share").join("hc11lab"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("hc11lab-progress-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn round_trip() {
        let dir = scratch("rt");
        assert_eq!(Progress::load(&dir).unwrap(), Progress::default());
        let mut p = Progress {
            language: Some(Lang::De),
            ..Progress::default()
        };
        p.set_lesson(
            "02-cell",
            LessonProgress {
                done: vec!["empty".into(), "stone1".into()],
                tries: [("stone2".to_string(), 3)].into_iter().collect(),
                completed: false,
            },
        );
        p.save(&dir).unwrap();
        assert_eq!(Progress::load(&dir).unwrap(), p);
        assert!(!dir.join(format!("{FILE_NAME}.tmp")).exists());
        std::fs::write(dir.join(FILE_NAME), "{ not json").unwrap();
        assert!(matches!(
            Progress::load(&dir),
            Err(ProgressError::Format { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
