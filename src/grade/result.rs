//! What grading produced: per check, per submission and per batch. Plain
//! data that every report writer reads; serialised as `report.json`.

use super::assignment::Visibility;
use super::frame::{Frame, Rect};
use super::similarity::SimilarityReport;
use serde::{Deserialize, Serialize};

/// The LCD as it was and as it should have been, for a failed LCD comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LcdEvidence {
    /// The submission's LCD.
    pub actual: Frame,
    /// What was expected (reference or fixed frame).
    pub expected: Frame,
    /// The pixels that were compared.
    pub region: Rect,
}

/// The outcome of one check for one submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CheckResult {
    /// The check's name.
    pub name: String,
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// True when every part passed.
    pub passed: bool,
    /// Who may see it.
    pub visibility: Visibility,
    /// What happened, and for a failure the check's advice.
    pub output: String,
    /// The LCD pictures, when an LCD comparison failed.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub lcd: Option<LcdEvidence>,
}

/// How far grading of a submission got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", content = "message")]
pub enum SubmissionStatus {
    /// The checks ran (some may have failed).
    Graded,
    /// The submission could not be read (bad zip, missing entry, binary file...).
    Rejected(String),
    /// The grader itself failed on this submission (a bug: please report it).
    InternalError(String),
}

/// The grade of one submission.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SubmissionResult {
    /// The submission's name (folder or zip name without `.zip`), as the
    /// student wrote it; unique in a batch (a second `alice` is `alice-2`).
    pub submission: String,
    /// Its folder under `--out` (holding `results.json`): the name made safe
    /// for every file system and unique in the batch, never a report's name.
    /// Empty until a batch assigns it (see [`super::report::output::folder_names`]).
    #[serde(default)]
    pub folder: String,
    /// Points earned.
    pub score: f64,
    /// Points possible.
    pub max_score: f64,
    /// Whether the checks ran.
    pub status: SubmissionStatus,
    /// Remarks that are not failures (a file read as Windows-1252, ignored files).
    pub notes: Vec<String>,
    /// One result per check of the assignment, in its order.
    pub checks: Vec<CheckResult>,
}

impl SubmissionResult {
    /// Sum of the check scores, rounded to hundredths so reports agree.
    pub fn total(checks: &[CheckResult]) -> f64 {
        round2(checks.iter().map(|c| c.score).sum())
    }

    /// A copy as a student may see it: checks that are hidden (and, before
    /// the due date, those shown after it) lose their output and pictures;
    /// their points still count.
    pub fn student_view(&self, after_due_date: bool, published: bool) -> SubmissionResult {
        let mut r = self.clone();
        for c in &mut r.checks {
            let shown = match c.visibility {
                Visibility::Visible => true,
                Visibility::Hidden => false,
                Visibility::AfterDueDate => after_due_date,
                Visibility::AfterPublished => published,
            };
            if !shown {
                c.output = "(hidden)".into();
                c.lcd = None;
            }
        }
        r
    }
}

/// Rounds to two decimals (points are shown that way everywhere).
pub fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Formats points without trailing zeros: `2`, `2.5`, `0.33`.
pub fn fmt_points(x: f64) -> String {
    let s = format!("{:.2}", round2(x));
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// The grade of a whole batch, in submission-name order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BatchReport {
    /// The assignment's id.
    pub assignment: String,
    /// Its title.
    pub title: String,
    /// Check names, in order (the CSV's columns).
    pub check_names: Vec<String>,
    /// Points possible.
    pub max_score: f64,
    /// One result per submission, sorted by name.
    pub submissions: Vec<SubmissionResult>,
    /// Pairs of suspiciously similar submissions.
    pub similarity: SimilarityReport,
    /// The language the feedback was put into (`grade --lang`, the
    /// assignment's `lang`); `None`: as graded, English. Gradescope's
    /// `results.json` frames its notes in it.
    #[serde(default)]
    pub lang: Option<crate::grade::lang::Lang>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_format() {
        assert_eq!(fmt_points(2.0), "2");
        assert_eq!(fmt_points(2.5), "2.5");
        assert_eq!(fmt_points(1.0 / 3.0), "0.33");
        assert_eq!(fmt_points(0.0), "0");
        assert_eq!(fmt_points(-0.0001), "0");
    }

    #[test]
    fn student_view_hides_output() {
        let c = |v| CheckResult {
            name: "n".into(),
            score: 1.0,
            max_score: 1.0,
            passed: true,
            visibility: v,
            output: "secret".into(),
            lcd: None,
        };
        let r = SubmissionResult {
            submission: "s".into(),
            folder: String::new(),
            score: 3.0,
            max_score: 3.0,
            status: SubmissionStatus::Graded,
            notes: vec![],
            checks: vec![
                c(Visibility::Visible),
                c(Visibility::Hidden),
                c(Visibility::AfterDueDate),
            ],
        };
        let before = r.student_view(false, false);
        let outs: Vec<&str> = before.checks.iter().map(|c| c.output.as_str()).collect();
        assert_eq!(outs, ["secret", "(hidden)", "(hidden)"]);
        let after = r.student_view(true, false);
        assert_eq!(after.checks[2].output, "secret");
        assert_eq!(after.score, 3.0);
    }
}
