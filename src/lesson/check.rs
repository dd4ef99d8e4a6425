//! `hc11lab lesson check ID PATH`: grades one submission of an exercise with
//! the grader ([`crate::grade::grade_one`]) and reports it in the course's
//! JSON shape `{"score", "max_score", "checks": [{"name", "score",
//! "max_score", "feedback"}]}`.

use super::catalog::{Catalog, LessonError};
use crate::grade::{
    grade_one, Assignment, GradeError, Submission, SubmissionError, SubmissionResult,
};
use serde::Serialize;
use std::path::Path;
use thiserror::Error;

/// Why a submission could not be checked at all.
#[derive(Debug, Error)]
pub enum CheckError {
    /// No exercise has this id (a guided lesson is not graded).
    #[error(
        "`{0}` is not an exercise (see `hc11lab lesson list`); guided lessons are done in the GUI"
    )]
    NotAnExercise(String),
    /// The course could not be loaded.
    #[error("{0}")]
    Course(#[from] LessonError),
    /// The exercise's `assignment.toml` is broken.
    #[error("{0}")]
    Assignment(#[from] GradeError),
    /// The submission cannot be read (missing, too big, not a folder or zip).
    #[error("{0}")]
    Submission(#[from] SubmissionError),
}

/// One check of the report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckLine {
    /// The check's name from `assignment.toml`.
    pub name: String,
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// What happened and, on failure, the check's advice.
    pub feedback: String,
}

/// The JSON `lesson check --json` prints.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CheckReport {
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// One line per check, in the assignment's order.
    pub checks: Vec<CheckLine>,
}

impl From<&SubmissionResult> for CheckReport {
    fn from(r: &SubmissionResult) -> CheckReport {
        CheckReport {
            score: r.score,
            max_score: r.max_score,
            checks: r
                .checks
                .iter()
                .map(|c| CheckLine {
                    name: c.name.clone(),
                    score: c.score,
                    max_score: c.max_score,
                    feedback: c.output.clone(),
                })
                .collect(),
        }
    }
}

/// Grades the submission at `path` (folder or zip) against exercise `id`.
pub fn check(cat: &Catalog, id: &str, path: &Path) -> Result<SubmissionResult, CheckError> {
    let ex = cat
        .exercise(id)
        .ok_or_else(|| CheckError::NotAnExercise(id.to_string()))?;
    let assignment = Assignment::load(&ex.dir)?;
    let submission = Submission::load(path, &assignment.limits)?;
    Ok(grade_one(&assignment, &submission))
}

/// Readable text: one line per check, then the total.
pub fn report_text(r: &CheckReport) -> String {
    let mut out = String::new();
    for c in &r.checks {
        let mark = if c.score >= c.max_score {
            "ok  "
        } else {
            "FAIL"
        };
        out.push_str(&format!(
            "{mark} {:>5.2}/{:<5.2} {}\n",
            c.score, c.max_score, c.name
        ));
        if c.score < c.max_score && !c.feedback.trim().is_empty() {
            for line in c.feedback.trim().lines() {
                out.push_str(&format!("           {line}\n"));
            }
        }
    }
    out.push_str(&format!("score {:.2} of {:.2}\n", r.score, r.max_score));
    out
}
