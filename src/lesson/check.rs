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
    /// `program` (the submission, where it assembles); see
    /// [`feedback::localize`].
    pub fn localized(
        r: &SubmissionResult,
        assignment: &Assignment,
        program: Option<&Program>,
        lang: Lang,
    ) -> CheckReport {
        let mut report = CheckReport::from(&feedback::localize(r, assignment, program, lang));
        report.lang = lang;
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

/// Grades as [`check`] does and returns what the student may see, in
/// `lang` (hidden checks without their output, see
/// [`SubmissionResult::student_view`]; names, feedback and the assembler's
/// messages translated, addresses with their source lines): what the
/// Course tab's Check shows.
pub fn check_for_student(
    cat: &Catalog,
    id: &str,
    path: &Path,
    lang: Lang,
) -> Result<SubmissionResult, CheckError> {
    let ex = cat
        .exercise(id)
        .ok_or_else(|| CheckError::NotAnExercise(id.to_string()))?;
    let assignment = Assignment::load(&ex.dir)?;
    let submission = load_submission(path, &assignment)?;
    let result = try_grade_one(&assignment, &submission)?.student_view(false, false);
    let program = assemble_submission(&assignment, &submission);
    Ok(feedback::localize(
        &result,
        &assignment,
        program.as_ref(),
        lang,
    ))
}

/// The submission at `path`, or why not, naming the path as the user gave
/// it: a batch names a submission by its file name alone (its reports go
/// to others), a check on one's own machine is kinder with the whole path.
fn load_submission(path: &Path, assignment: &Assignment) -> Result<Submission, SubmissionError> {
    let is_source = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("asm"));
    if is_source && crate::platform::fs::is_file(path) {
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

/// Columns the text report fits in.
pub const WIDTH: usize = 100;

/// Readable text for a terminal, at most [`WIDTH`] columns wide: one line
/// per check, what went wrong under a failed one (long key lists
/// shortened: `--json` has them whole), a failed LCD comparison as the
/// expected picture and the student's (side by side where both fit, else
/// one above the other), then the total.
pub fn report_text(r: &CheckReport) -> String {
    let mut out = String::new();
    let (ok, fail) = match r.lang {
        Lang::De => ("ok", "falsch"),
        Lang::En => ("ok", "FAIL"),
    };
    let mark_width = ok.len().max(fail.len());
    let indent = " ".repeat(mark_width + 7);
    let mut shortened = false;
    for c in &r.checks {
        let mark = if c.score >= c.max_score { ok } else { fail };
        let head = format!(
            "{mark:<mark_width$} {:>5.2}/{:<5.2} {}",
            c.score, c.max_score, c.name
        );
        out.push_str(&wrap(&head, WIDTH, &indent));
        if c.score < c.max_score && !c.feedback.trim().is_empty() {
            for line in c.feedback.trim().lines() {
                let (line, cut) = shorten_key_lists(line, WIDTH - indent.len() - 2, r.lang);
                shortened |= cut;
                let extra = " ".repeat(line.len() - line.trim_start().len());
                let first = format!("{indent}{line}");
                out.push_str(&wrap(&first, WIDTH, &format!("{indent}{extra}  ")));
            }
        }
        if c.score < c.max_score {
            if let Some(ev) = &c.lcd {
                let pic = super::feedback::lcd_pictures(
                    &ev.expected,
                    &ev.actual,
                    ev.region,
                    r.lang,
                    WIDTH - indent.len(),
                );
                for line in pic.lines() {
                    out.push_str(&format!("{indent}{line}\n"));
                }
            }
        }
    }
    if shortened {
        out.push_str(match r.lang {
            Lang::De => "(lange Tastenfolgen sind gekürzt; `--json` zeigt sie ganz)\n",
            Lang::En => "(long key lists are shortened; `--json` shows them whole)\n",
        });
    }
    let total = match r.lang {
        Lang::De => format!("Punkte: {:.2} von {:.2}\n", r.score, r.max_score),
        Lang::En => format!("score {:.2} of {:.2}\n", r.score, r.max_score),
    };
    out.push_str(&total);
    out
}

/// `line` broken at spaces into lines of at most `width` characters (a
/// word longer than that stands alone), every line after the first
/// starting with `indent`; each line ends with a newline.
pub fn wrap(line: &str, width: usize, indent: &str) -> String {
    let mut out = String::new();
    let mut current = String::new();
    let lead = line.len() - line.trim_start().len();
    current.push_str(&line[..lead]);
    let mut empty = true;
    for word in line[lead..].split(' ') {
        let len = current.chars().count();
        if !empty && len + 1 + word.chars().count() > width {
            out.push_str(current.trim_end());
            out.push('\n');
            current = indent.to_string();
            empty = true;
        }
        if !empty {
            current.push(' ');
        }
        // A word longer than a whole line (a long quoted text) is cut.
        let mut rest = word;
        while current.chars().count() + rest.chars().count() > width {
            let room = width.saturating_sub(current.chars().count()).max(1);
            let cut = rest.char_indices().nth(room).map_or(rest.len(), |(i, _)| i);
            current.push_str(&rest[..cut]);
            out.push_str(&current);
            out.push('\n');
            current = indent.to_string();
            rest = &rest[cut..];
        }
        current.push_str(rest);
        empty = false;
    }
    out.push_str(current.trim_end());
    out.push('\n');
    out
}

/// Key lists (`left,drop,right,...`, in backticks or not) longer than
/// `room` characters cut to their start and end with the count between:
/// `left,drop,right,drop,…,drop,left (86 keys)`. True if one was cut.
pub fn shorten_key_lists(line: &str, room: usize, lang: Lang) -> (String, bool) {
    let keys_word = match lang {
        Lang::De => "Tasten",
        Lang::En => "keys",
    };
    let is_key = |k: &str| {
        !k.is_empty()
            && k.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '.'))
    };
    let mut cut = false;
    let words: Vec<String> = line
        .split(' ')
        .map(|word| {
            let bare = word.trim_start_matches('`');
            let lead = &word[..word.len() - bare.len()];
            let end = bare
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, ',' | ':' | '_' | '.')))
                .unwrap_or(bare.len());
            let list = bare[..end].trim_end_matches(['.', ':']);
            let rest = &bare[list.len()..];
            let keys: Vec<&str> = list.split(',').collect();
            // A list that leaves room for the sentence around it stays whole.
            if list.len() <= room * 2 / 3 || keys.len() < 8 || !keys.iter().all(|k| is_key(k)) {
                return word.to_string();
            }
            cut = true;
            let head = keys[..5].join(",");
            let tail = keys[keys.len() - 2..].join(",");
            let rest = rest.trim_start_matches('`');
            let close = if lead.is_empty() { "" } else { "`" };
            format!(
                "{lead}{head},…,{tail}{close} ({} {keys_word}){rest}",
                keys.len()
            )
        })
        .collect();
    (words.join(" "), cut)
}
