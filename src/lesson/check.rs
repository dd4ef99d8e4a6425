//! `hc11lab lesson check ID PATH`: grades one submission of an exercise with
//! the grader ([`crate::grade::try_grade_one`]) and reports it in the course's
//! JSON shape `{"score", "max_score", "checks": [{"name", "score",
//! "max_score", "feedback"}]}`.

use super::catalog::{Catalog, LessonError};
use super::feedback;
use super::i18n::Lang;
use crate::grade::assignment::ReferenceSource;
use crate::grade::result::LcdEvidence;
use crate::grade::{
    try_grade_one, Assignment, GradeError, Submission, SubmissionError, SubmissionResult,
};
use crate::image::Program;
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
    #[error(transparent)]
    Course(#[from] LessonError),
    /// The exercise's `assignment.toml` is broken, or the course cannot be
    /// graded (its reference fails, a provided file is missing).
    #[error(transparent)]
    Assignment(#[from] GradeError),
    /// The submission cannot be read (missing, too big, not a folder or zip).
    #[error(transparent)]
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
    /// The LCD pictures of a failed LCD comparison (text report only).
    #[serde(skip)]
    pub lcd: Option<LcdEvidence>,
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
    /// The language of the texts (the text report's headings follow it).
    #[serde(skip)]
    pub lang: Lang,
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
                    lcd: c.lcd.clone(),
                })
                .collect(),
            lang: Lang::En,
        }
    }
}

impl CheckReport {
    /// The report for a student in `lang`: names and advice from the
    /// exercise's `feedback.de.toml` for German, the grader's sentences
    /// translated, and every address followed by its source line in
    /// `program` (the submission, where it assembles).
    pub fn localized(
        r: &SubmissionResult,
        assignment: &Assignment,
        program: Option<&Program>,
        lang: Lang,
    ) -> CheckReport {
        let german = match lang {
            Lang::De => feedback::load_german(&assignment.dir).unwrap_or_default(),
            Lang::En => Default::default(),
        };
        let mut report = CheckReport::from(r);
        report.lang = lang;
        for line in &mut report.checks {
            let advice = assignment
                .checks
                .iter()
                .find(|c| c.name == line.name)
                .map(|c| c.feedback.trim().to_string())
                .filter(|f| !f.is_empty());
            let mut text = line.feedback.clone();
            let mut own_advice = None;
            if let Some(a) = &advice {
                if let Some(head) = text.trim_end().strip_suffix(a.as_str()) {
                    own_advice = Some(a.clone());
                    text = head.trim_end().to_string();
                }
            }
            if let Some(p) = program {
                text = feedback::with_source_lines(&text, p);
            }
            text = feedback::translate(&text, lang);
            // A check named in another's feedback (`see `start screen``)
            // goes by its title in the report's language.
            for (name, l) in german.iter() {
                text = text.replace(&format!("`{name}`"), &format!("`{}`", l.title));
            }
            let local = german.get(&line.name);
            if let Some(a) = own_advice {
                let a = local.map_or(a, |l| l.feedback.trim().to_string());
                text = if text.is_empty() {
                    a
                } else {
                    format!("{text}\n{a}")
                };
            }
            line.feedback = text;
            if let Some(l) = local {
                line.name = l.title.clone();
            }
        }
        report
    }
}

/// Grades the submission at `path` (folder or zip) against exercise `id`.
pub fn check(cat: &Catalog, id: &str, path: &Path) -> Result<SubmissionResult, CheckError> {
    let ex = cat
        .exercise(id)
        .ok_or_else(|| CheckError::NotAnExercise(id.to_string()))?;
    let assignment = Assignment::load(&ex.dir)?;
    let submission = load_submission(path, &assignment)?;
    Ok(try_grade_one(&assignment, &submission)?)
}

/// Grades as [`check`] does and returns the report for a student in `lang`
/// (see [`CheckReport::localized`]).
pub fn check_localized(
    cat: &Catalog,
    id: &str,
    path: &Path,
    lang: Lang,
) -> Result<(SubmissionResult, CheckReport), CheckError> {
    let ex = cat
        .exercise(id)
        .ok_or_else(|| CheckError::NotAnExercise(id.to_string()))?;
    let assignment = Assignment::load(&ex.dir)?;
    let submission = load_submission(path, &assignment)?;
    let result = try_grade_one(&assignment, &submission)?;
    let program = assemble_submission(&assignment, &submission);
    let report = CheckReport::localized(&result, &assignment, program.as_ref(), lang);
    Ok((result, report))
}

/// The submission at `path`, or why not, naming the path as the user gave
/// it: a batch names a submission by its file name alone (its reports go
/// to others), a check on one's own machine is kinder with the whole path.
fn load_submission(path: &Path, assignment: &Assignment) -> Result<Submission, SubmissionError> {
    let is_source = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("asm"));
    if is_source && path.is_file() {
        return Submission::load_source_file(
            path,
            &assignment.entry,
            assignment.dialect,
            &assignment.limits,
        );
    }
    let shown = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let given = path.display().to_string();
    if let Some(e) = main_file_not_regular(path, &assignment.entry) {
        return Err(e);
    }
    // Only the submission itself is named by its file name; a file inside
    // it keeps its path relative to the submission.
    Submission::load(path, &assignment.limits).map_err(|e| match e {
        SubmissionError::Unreadable { path, message } if path == shown => {
            SubmissionError::Unreadable {
                path: given,
                message,
            }
        }
        SubmissionError::NotRegular { path, kind } if path == shown => {
            SubmissionError::NotRegular { path: given, kind }
        }
        e => e,
    })
}

/// When the folder `dir` has no regular file named `entry` (in any letter
/// case) but something else by that name, why it is not read: a symbolic
/// link is not followed, a folder or fifo is no source. Without this the
/// check would only say the file is missing.
fn main_file_not_regular(dir: &Path, entry: &str) -> Option<SubmissionError> {
    let named: Vec<std::fs::DirEntry> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(entry))
        .collect();
    let kinds: Vec<(std::path::PathBuf, std::fs::FileType)> = named
        .iter()
        .filter_map(|e| Some((e.path(), e.file_type().ok()?)))
        .collect();
    if kinds.iter().any(|(_, t)| t.is_file()) {
        return None;
    }
    let (path, kind) = kinds.first()?;
    let why = if kind.is_symlink() {
        "it is a symbolic link, which is not followed: put the file itself in the folder"
    } else if kind.is_dir() {
        "it is a folder, not a file: the main file is a source file"
    } else {
        "it is a fifo, device or socket, not a regular file, so it is not read"
    };
    Some(SubmissionError::Unreadable {
        path: path.display().to_string(),
        message: why.to_string(),
    })
}

/// The submission assembled as the grader assembles it (with the course's
/// provided files beside its entry file), to name source lines; `None` if
/// it does not assemble or a provided file of the course is missing.
pub fn assemble_submission(assignment: &Assignment, sub: &Submission) -> Option<Program> {
    let entry = sub.find_entry(&assignment.entry).ok()?;
    let provided_dir = match &assignment.reference {
        Some(ReferenceSource::Folder(d)) => Some(d.clone()),
        Some(ReferenceSource::Image(i)) => i.parent().map(Path::to_path_buf),
        _ => None,
    };
    let dir = entry.rsplit_once('/').map(|(d, _)| format!("{d}/"));
    let mut files = crate::asm::MemoryFiles::new();
    for (path, src) in &sub.files {
        files.insert(path, src.text.as_bytes().to_vec());
    }
    for name in &assignment.provided {
        let text = match &provided_dir {
            Some(d) => super::read_course_file(&d.join(name)).ok(),
            None => crate::firmware::FILES
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, t)| t.to_string()),
        };
        // Without the course's copy the program would not be the one graded.
        let t = text?;
        files.insert(
            format!("{}{name}", dir.as_deref().unwrap_or("")),
            t.into_bytes(),
        );
    }
    let asm = crate::asm::assemble_with(Path::new(&entry), &files, &Default::default());
    if asm.has_errors() {
        return None;
    }
    asm.program
}

/// Readable text: one line per check, then the total; a failed LCD
/// comparison shows the expected picture beside the student's.
pub fn report_text(r: &CheckReport) -> String {
    let mut out = String::new();
    let (ok, fail) = match r.lang {
        Lang::De => ("ok  ", "FEHL"),
        Lang::En => ("ok  ", "FAIL"),
    };
    for c in &r.checks {
        let mark = if c.score >= c.max_score { ok } else { fail };
        out.push_str(&format!(
            "{mark} {:>5.2}/{:<5.2} {}\n",
            c.score, c.max_score, c.name
        ));
        if c.score < c.max_score && !c.feedback.trim().is_empty() {
            for line in c.feedback.trim().lines() {
                out.push_str(&format!("           {line}\n"));
            }
        }
        if c.score < c.max_score {
            if let Some(ev) = &c.lcd {
                let pic =
                    super::feedback::lcd_side_by_side(&ev.expected, &ev.actual, ev.region, r.lang);
                for line in pic.lines() {
                    out.push_str(&format!("           {line}\n"));
                }
            }
        }
    }
    let total = match r.lang {
        Lang::De => format!("Punkte: {:.2} von {:.2}\n", r.score, r.max_score),
        Lang::En => format!("score {:.2} of {:.2}\n", r.score, r.max_score),
    };
    out.push_str(&total);
    out
}
