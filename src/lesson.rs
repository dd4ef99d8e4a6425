//! Guided lessons: lesson folders under `lessons/` (a TOML manifest
//! plus German and English Markdown) turned into steps whose checks are
//! evaluated on the live machine, with hints, answers and saved progress.
//!
//! Owns: the course (lessons, exercises, their texts in two languages),
//! the live lesson engine, `lesson check` and course validation. Must not
//! know about: the window (it reports to whoever drives it); it builds on
//! grading for exercise checks, never the other way round.

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
/// The reference image format lives with grading, which reads it.
pub use crate::grade::reference;
pub mod text;
pub mod validate;

pub use catalog::{
    find_root, BrokenFolder, Catalog, Exercise, Kind, Lesson, LessonError, ListEntry,
};
pub use engine::{
    Event, Explained, LessonRun, Outcome, Probe, Question, StepView, Subject, Verdict,
};
pub use i18n::Lang;

pub use crate::grade::MAX_COURSE_FILE_BYTES;
// Lessons read their files as grading does (lessons build on grading).
pub(crate) use crate::grade::read_course_file;
pub use progress::{LessonProgress, Progress, ProgressError};
