//! Batch grading of student submissions: assignments with weighted
//! checks, a parallel runner over folders and zips, reports for teaching
//! assistants (CSV, JSON, HTML, JUnit, Gradescope) and a similarity report.
//!
//! The grader drives the same library calls as the debugger: the assembler,
//! [`crate::machine::Machine`] and [`crate::script`] key scripts. It only
//! peeks at machine state, so looking never changes what a program does.
//!
//! Entry points: [`cli::run`] (`hc11lab grade`), [`grade_batch`] and
//! [`write_reports`] for a course, [`Grader`] / [`grade_one`] for one
//! submission (`hc11lab lesson check`), [`autograder::grade_in_place`] for
//! a course platform (PrairieLearn, Gradescope; [`run_gradescope`] is the
//! older entry), [`Grader::write_prepared`] for the prepared reference.
//!
//! Owns: assignments, submissions, running the checks, the reference image
//! format ([`reference`]) and the reports. Must not know about: lessons
//! (they build on grading) or the window.

pub mod assignment;
pub mod autograder;
pub mod batch;
pub mod cli;
pub mod engine;
pub mod error;
pub mod frame;
pub mod png;
pub mod reference;
pub mod report;
pub mod result;
pub mod shard;
pub mod similarity;
pub mod submission;
pub mod text;

/// Largest course file read (a manifest, a text, `assignment.toml`, the
/// reference's symbols), in bytes; only regular files are read.
pub const MAX_COURSE_FILE_BYTES: u64 = 4 << 20;

/// A course file as text, within [`MAX_COURSE_FILE_BYTES`].
pub(crate) fn read_course_file(path: &std::path::Path) -> std::io::Result<String> {
    crate::platform::fs::read_to_string_limited(path, MAX_COURSE_FILE_BYTES)
}

pub use assignment::{Assignment, Check, CheckKind, Limits, Visibility};
pub use batch::{
    grade_batch, grade_one, run_gradescope, terminal_progress, try_grade_one, GradeOptions,
};
pub use engine::{Grader, Prepared, PREPARED_FILE};
pub use error::{GradeError, SubmissionError};
pub use report::{summary_line, write_reports};
pub use result::{BatchReport, CheckResult, SubmissionResult, SubmissionStatus};
pub use submission::{discover, Submission};
