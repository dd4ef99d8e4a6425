//! Grading one submission where a course platform runs it, in the
//! platform's own layout: `hc11lab grade --platform prairielearn|gradescope`.
//!
//! Both platforms start a container per submission, put the student's
//! files in a fixed folder and read one `results.json` afterwards:
//!
//! | platform | submission | results |
//! | --- | --- | --- |
//! | PrairieLearn (external grader) | `/grade/student` | `/grade/results/results.json` |
//! | Gradescope (autograder) | `/autograder/submission` | `/autograder/results/results.json` |
//!
//! `--platform-root ROOT` stands in for `/` (tests build such trees under a
//! temporary folder). A results file is written whatever the submission
//! holds (a zip bomb, a symbolic link out of the folder, no entry file),
//! and it never exceeds [`MAX_RESULTS_BYTES`]: long texts are cut with a
//! note, pictures dropped first. Each platform's format is in its module.

pub mod gradescope;
pub mod prairielearn;

use super::assignment::Assignment;
use super::batch::guarded;
use super::engine::{Grader, Prepared};
use super::error::GradeError;
use super::result::{SubmissionResult, SubmissionStatus};
use super::submission::Submission;
use std::path::{Path, PathBuf};

/// Largest `results.json` written (PrairieLearn's limit is 1 MB).
pub const MAX_RESULTS_BYTES: usize = 1_000_000;

/// A course platform that runs `hc11lab grade` once per submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// PrairieLearn's external grader.
    PrairieLearn,
    /// Gradescope's autograder.
    Gradescope,
}

impl std::str::FromStr for Platform {
    type Err = String;

    /// `prairielearn` or `gradescope` (any case).
    fn from_str(s: &str) -> Result<Platform, String> {
        match s.to_ascii_lowercase().as_str() {
            "prairielearn" => Ok(Platform::PrairieLearn),
            "gradescope" => Ok(Platform::Gradescope),
            _ => Err(format!("--platform {s}: use prairielearn or gradescope")),
        }
    }
}

impl Platform {
    /// The name as `--platform` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Platform::PrairieLearn => "prairielearn",
            Platform::Gradescope => "gradescope",
        }
    }

    /// The folder the platform makes in every grading container, under
    /// `root`: without it this is not the platform's container (or
    /// `--platform-root` was left out), and nothing is graded or written.
    pub fn home(self, root: &Path) -> PathBuf {
        match self {
            Platform::PrairieLearn => root.join("grade"),
            Platform::Gradescope => root.join("autograder"),
        }
    }

    /// Where the platform puts the student's files, under `root` (`/` in
    /// the container).
    pub fn submission(self, root: &Path) -> PathBuf {
        match self {
            Platform::PrairieLearn => root.join("grade/student"),
            Platform::Gradescope => root.join("autograder/submission"),
        }
    }

    /// Where the platform reads the results, under `root`.
    pub fn results(self, root: &Path) -> PathBuf {
        match self {
            Platform::PrairieLearn => root.join("grade/results/results.json"),
            Platform::Gradescope => root.join("autograder/results/results.json"),
        }
    }
}

/// What [`grade_in_place`] did.
#[derive(Clone, Debug)]
pub struct Placed {
    /// The grade (as staff see it: hidden checks' output included).
    pub result: SubmissionResult,
    /// False when the submission could not be graded at all (unreadable,
    /// not assembling, the grader failed): PrairieLearn then charges no
    /// attempt.
    pub gradable: bool,
    /// The `results.json` written.
    pub results: PathBuf,
    /// Its size in bytes.
    pub size: usize,
    /// Remarks for the log (not for the student): a prepared reference
    /// that was not used.
    pub notes: Vec<String>,
}

/// The folder or zip to grade in a platform's submission folder: a folder
/// that holds nothing but one `.zip` (a regular file, not a link) is that
/// zip; anything else is the folder itself.
pub fn submission_in(dir: &Path) -> PathBuf {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return dir.to_path_buf();
    };
    let mut zips = Vec::new();
    for e in rd.filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().to_ascii_lowercase();
        if name == ".ds_store" || name == "__macosx" {
            continue;
        }
        let regular = std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.is_file());
        if regular && name.ends_with(".zip") {
            zips.push(e.path());
        } else {
            return dir.to_path_buf();
        }
    }
    match zips.as_slice() {
        [one] => one.clone(),
        _ => dir.to_path_buf(),
    }
}

/// Grades the submission at `submission` (a folder, or a zip alone in it)
/// for `platform` and writes its `results.json` at `results` (creating the
/// folder). A course that cannot be graded (the assignment or its
/// reference broken) still gets a results file that says so, not charging
/// the student where the platform allows, and comes back as `Err`.
pub fn grade_in_place(
    platform: Platform,
    assignment: &Path,
    submission: &Path,
    results: &Path,
    dialect: Option<crate::asm::Dialect>,
) -> Result<Placed, GradeError> {
    let started = crate::platform::Instant::now();
    let prepared = Assignment::load(assignment).and_then(|mut a| {
        if let Some(d) = dialect {
            a.dialect = d;
        }
        Grader::new(a)
    });
    let grader = match prepared {
        Ok(g) => g,
        Err(e) => {
            let why = format!("the course's grader could not start: {e}");
            let json = match platform {
                Platform::PrairieLearn => prairielearn::course_error(&why),
                Platform::Gradescope => gradescope::course_error(&why),
            };
            write_results(results, &json)?;
            return Err(e);
        }
    };
    let mut notes = Vec::new();
    if let Prepared::Ignored(why) = grader.prepared() {
        notes.push(why.clone());
    }
    let name = "submission";
    let path = submission_in(submission);
    // The platform always makes this folder; say which one is missing
    // rather than the system's bare "No such file or directory".
    let loaded = if std::fs::symlink_metadata(submission).is_err() {
        Err(format!(
            "no submission: {} does not exist (the {} puts the student's files there)",
            submission.display(),
            match platform {
                Platform::PrairieLearn => "PrairieLearn external grader",
                Platform::Gradescope => "Gradescope autograder",
            }
        ))
    } else {
        Submission::load(&path, &grader.assignment().limits).map_err(|e| e.to_string())
    };
    let (result, sub) = match loaded {
        Err(e) => (grader.rejected(name, &e), None),
        Ok(mut sub) => {
            sub.name = name.to_string();
            let r =
                guarded(|| grader.grade(&sub)).unwrap_or_else(|p| grader.internal_error(name, &p));
            (r, Some(sub))
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    // Only a graded submission that lost points can have failed to assemble.
    let errors = match (&sub, &result.status) {
        (Some(sub), SubmissionStatus::Graded) if result.score < result.max_score => {
            grader.format_errors(sub)
        }
        _ => Vec::new(),
    };
    let gradable = matches!(result.status, SubmissionStatus::Graded) && errors.is_empty();
    let json = match platform {
        Platform::PrairieLearn => prairielearn::results_json(&result, grader.assignment(), &errors),
        Platform::Gradescope => gradescope::results_json_with_errors(
            &result,
            Some(grader.assignment()),
            Some(seconds),
            &errors,
        ),
    };
    write_results(results, &json)?;
    Ok(Placed {
        result,
        gradable,
        results: results.to_path_buf(),
        size: json.len(),
        notes,
    })
}

/// Writes `json` to `results`, making its folder first (PrairieLearn does
/// not make `/grade/results`).
fn write_results(results: &Path, json: &str) -> Result<(), GradeError> {
    if let Some(dir) = results.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| GradeError::Io {
            path: dir.to_path_buf(),
            source,
        })?;
    }
    super::report::output::write_atomic(results, json.as_bytes())
}

/// How much of the student-controlled text a results file keeps: every
/// text field cut to `text` characters (`None`: whole), at most `items`
/// entries of each list of remarks, pictures only if `images`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Budget {
    pub(crate) text: Option<usize>,
    pub(crate) items: usize,
    pub(crate) images: bool,
}

impl Budget {
    /// The steps tried until a results file fits, largest first.
    const STEPS: [Budget; 7] = [
        Budget {
            text: None,
            items: usize::MAX,
            images: true,
        },
        Budget {
            text: Some(20_000),
            items: 200,
            images: true,
        },
        Budget {
            text: Some(20_000),
            items: 200,
            images: false,
        },
        Budget {
            text: Some(4_000),
            items: 50,
            images: false,
        },
        Budget {
            text: Some(1_000),
            items: 20,
            images: false,
        },
        Budget {
            text: Some(200),
            items: 10,
            images: false,
        },
        Budget {
            text: Some(40),
            items: 3,
            images: false,
        },
    ];

    /// `s`, cut to the budget with a note saying so.
    pub(crate) fn cut(&self, s: &str) -> String {
        let Some(max) = self.text else {
            return s.to_string();
        };
        match s.char_indices().nth(max) {
            None => s.to_string(),
            Some((at, _)) => format!("{}\n... (cut: results.json holds at most 1 MB)", &s[..at]),
        }
    }

    /// The first [`Budget::items`] of `items`, cut, and a line for the rest.
    pub(crate) fn list(&self, items: &[String]) -> Vec<String> {
        let mut out: Vec<String> = items.iter().take(self.items).map(|s| self.cut(s)).collect();
        if items.len() > self.items {
            out.push(format!(
                "... and {} more (cut: results.json holds at most 1 MB)",
                items.len() - self.items
            ));
        }
        out
    }
}

/// The JSON text `build` makes with the largest budget that keeps it
/// within [`MAX_RESULTS_BYTES`]; `last_resort` if none does.
pub(crate) fn fit(build: impl Fn(Budget) -> serde_json::Value, last_resort: &str) -> String {
    for budget in Budget::STEPS {
        let text = serde_json::to_string_pretty(&build(budget)).unwrap_or_default() + "\n";
        if text.len() <= MAX_RESULTS_BYTES {
            return text;
        }
    }
    last_resort.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_cut_and_fit() {
        let b = Budget {
            text: Some(3),
            items: 2,
            images: false,
        };
        assert!(b.cut("abcdef").starts_with("abc\n... (cut"));
        assert_eq!(b.cut("abc"), "abc");
        let l = b.list(&["a".into(), "b".into(), "c".into()]);
        assert_eq!(l.len(), 3);
        assert!(l[2].starts_with("... and 1 more"), "{l:?}");
        // A text far over the limit is cut until it fits.
        let huge = "x".repeat(3 * MAX_RESULTS_BYTES);
        let json = fit(|b| serde_json::json!({ "output": b.cut(&huge) }), "{}");
        assert!(json.len() <= MAX_RESULTS_BYTES);
        assert!(json.contains("cut: results.json"), "{}", &json[..100]);
    }

    #[test]
    fn platforms_by_name_and_paths() {
        assert_eq!("PrairieLearn".parse(), Ok(Platform::PrairieLearn));
        assert_eq!("gradescope".parse(), Ok(Platform::Gradescope));
        assert!("moodle".parse::<Platform>().is_err());
        let root = Path::new("/tmp/x");
        assert_eq!(
            Platform::PrairieLearn.results(root),
            Path::new("/tmp/x/grade/results/results.json")
        );
        assert_eq!(
            Platform::Gradescope.submission(root),
            Path::new("/tmp/x/autograder/submission")
        );
        assert_eq!(Platform::PrairieLearn.home(root), Path::new("/tmp/x/grade"));
        assert_eq!(
            Platform::Gradescope.home(root),
            Path::new("/tmp/x/autograder")
        );
    }
}
