//! Batch grading of student submissions (issue 8): assignments with weighted
//! checks, a parallel runner over folders and zips, reports for teaching
//! assistants (CSV, JSON, HTML, JUnit, Gradescope) and a similarity report.
//!
//! The grader drives the same library calls as the debugger: the assembler,
//! `Machine` and key scripts. It only peeks at machine
//! state, so grading never changes what a program does.

pub mod assignment;
pub mod batch;
pub mod engine;
pub mod error;
pub mod frame;
pub mod png;
pub mod report;
pub mod result;
pub mod similarity;
pub mod submission;
pub mod text;

pub use assignment::{Assignment, Check, CheckKind, Limits, Visibility};
pub use batch::{grade_batch, grade_one, run_gradescope, terminal_progress, GradeOptions};
pub use engine::Grader;
pub use error::{GradeError, SubmissionError};
pub use report::{summary_line, write_reports};
pub use result::{BatchReport, CheckResult, SubmissionResult, SubmissionStatus};
pub use submission::{discover, Submission};
