//! Guided lessons (issue 9): lesson folders under `lessons/` (a TOML manifest
//! plus German and English Markdown) turned into steps whose checks are
//! evaluated on the live machine, with hints, answers and saved progress.

pub mod bundled;
pub mod catalog;
pub mod check;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod feedback;
pub mod i18n;
pub mod live;
pub mod manifest;
pub mod progress;
pub mod reference;
pub mod text;
pub mod validate;

pub use catalog::{
    find_root, BrokenFolder, Catalog, Exercise, Kind, Lesson, LessonError, ListEntry,
};
pub use engine::{
    Event, Explained, LessonRun, Outcome, Probe, Question, StepView, Subject, Verdict,
};
pub use i18n::Lang;

/// Largest course file read (a manifest, a text, `assignment.toml`, the
/// reference's symbols), in bytes; only regular files are read.
pub const MAX_COURSE_FILE_BYTES: u64 = 4 << 20;

/// A course file as text, within [`MAX_COURSE_FILE_BYTES`].
pub(crate) fn read_course_file(path: &std::path::Path) -> std::io::Result<String> {
    crate::platform::fs::read_to_string_limited(path, MAX_COURSE_FILE_BYTES)
}
pub use progress::{LessonProgress, Progress, ProgressError};
