//! `hc11lab grade` as a library call: the command line only maps its
//! arguments onto a [`GradeRequest`] and prints what [`run`] returns.

use super::batch::{grade_batch_sharded, run_gradescope_in, terminal_progress, GradeOptions};
use super::batch::{GRADESCOPE_RESULTS, GRADESCOPE_SUBMISSION};
use super::error::GradeError;
use super::report::output::{prepare_out, replace_batch};
use super::report::{report_files, summary_line, write_reports_noting};
use super::result::{fmt_points, SubmissionStatus};
use super::shard::{check_merge_out, merge, ShardOutput, ShardSpec, SHARD_FILE};
use std::path::{Path, PathBuf};

/// Default output folder of a batch.
pub const DEFAULT_OUT: &str = "grade-report";

/// What `hc11lab grade` was asked to do.
#[derive(Clone, Debug, Default)]
pub struct GradeRequest {
    /// `--assignment DIR` (or the `assignment.toml` itself).
    pub assignment: PathBuf,
    /// Submissions (folders, zips, folders of those); with `gradescope`,
    /// `[SUBMISSION_DIR [RESULTS_JSON]]`.
    pub paths: Vec<PathBuf>,
    /// `--out DIR` (default [`DEFAULT_OUT`]).
    pub out: Option<PathBuf>,
    /// `--jobs N` (default: all cores).
    pub jobs: Option<usize>,
    /// `--gradescope`: grade one submission as Gradescope's autograder does.
    pub gradescope: bool,
    /// `--no-cache`: grade identical programs again (for timing the grader).
    pub no_cache: bool,
    /// `--shard K/N`: grade only the K-th of N parts and write `shard.json`
    /// for `grade merge`.
    pub shard: Option<ShardSpec>,
    /// `--dialect`: the source dialect, overriding the assignment's `dialect`.
    pub dialect: Option<crate::asm::Dialect>,
}

/// Most worker threads `--jobs` may ask for: far more than any machine
/// grading a course has cores, far fewer than would exhaust its threads.
pub const MAX_JOBS: usize = 256;

/// What [`run`] did: the text for stdout and the exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GradeOutcome {
    /// Lines for stdout (for exit status 2, the usage: print it to stderr).
    pub text: String,
    /// 0 graded (whatever the scores), 1 the assignment or input was unusable, 2 bad usage.
    pub exit_code: u8,
}

/// Runs `hc11lab grade`. A progress bar goes to stderr when it is a terminal;
/// errors come back as `Err` (exit status 1 for the caller).
pub fn run(req: &GradeRequest) -> Result<GradeOutcome, GradeError> {
    if req.gradescope {
        if req.paths.len() > 2 {
            return Ok(GradeOutcome {
                text: "usage: hc11lab grade --gradescope --assignment DIR [SUBMISSION_DIR [RESULTS_JSON]]\n"
                    .into(),
                exit_code: 2,
            });
        }
        let submission = req
            .paths
            .first()
            .cloned()
            .unwrap_or_else(|| PathBuf::from(GRADESCOPE_SUBMISSION));
        let results = req
            .paths
            .get(1)
            .cloned()
            .unwrap_or_else(|| PathBuf::from(GRADESCOPE_RESULTS));
        let r = run_gradescope_in(&req.assignment, &submission, &results, req.dialect)?;
        let status = match &r.status {
            SubmissionStatus::Graded => String::new(),
            SubmissionStatus::Rejected(m) => format!(" (not graded: {m})"),
            SubmissionStatus::InternalError(m) => format!(" (internal error: {m})"),
        };
        return Ok(GradeOutcome {
            text: format!(
                "{} of {} points{status}; results in {}\n",
                fmt_points(r.score),
                fmt_points(r.max_score),
                results.display()
            ),
            exit_code: 0,
        });
    }
    if req.paths.is_empty() {
        return Ok(GradeOutcome {
            text: "usage: hc11lab grade --assignment DIR SUBMISSION... [--out DIR] [--jobs N]\n"
                .into(),
            exit_code: 2,
        });
    }
    if let Some(jobs) = req.jobs {
        if jobs == 0 || jobs > MAX_JOBS {
            let cores = crate::platform::parallelism();
            return Ok(GradeOutcome {
                text: format!(
                    "--jobs {jobs}: use 1..{MAX_JOBS} (this machine has {cores} cores; leave --jobs out to use all of them)\n"
                ),
                exit_code: 2,
            });
        }
    }
    let out = req
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from(DEFAULT_OUT));
    // A wrong --assignment is told before the report folder is made, and a
    // wrong --out before grading, so neither costs a graded batch.
    super::assignment::Assignment::load(&req.assignment)?;
    prepare_out(&out)?;
    let opts = GradeOptions {
        jobs: req.jobs,
        cache: !req.no_cache,
        shard: req.shard,
        dialect: req.dialect,
        ..GradeOptions::new(req.assignment.clone(), req.paths.clone())
    };
    let progress = terminal_progress();
    let graded = grade_batch_sharded(&opts, &*progress)?;
    let mut files = report_files(&graded.report)?;
    if let Some(shard) = req.shard {
        let output = ShardOutput::new(
            shard,
            graded.batch_size,
            graded.report.clone(),
            graded.sources,
            graded.starter,
            opts.similarity,
        );
        files.push((SHARD_FILE.to_string(), output.to_json()?));
    }
    let written = replace_batch(&out, &files)?;
    let mut text = String::new();
    for n in &written.notes {
        text.push_str(&format!("note: {n}\n"));
    }
    if !graded.skipped.is_empty() {
        text.push_str(&format!(
            "note: not graded, as no submission (a batch folder's submissions are its folders and .zip files): {}\n",
            super::submission::short_list(&graded.skipped)
        ));
    }
    if let Some(p) = batch_folder_itself(&out, &req.paths) {
        text.push_str(&format!(
            "note: --out {} is the batch folder itself: the reports lie among the submissions and each results.json in a student's folder; give --out a folder of its own\n",
            p.display()
        ));
    }
    if let Some(shard) = req.shard {
        text.push_str(&format!(
            "shard {shard}: {} of the batch's {} submissions\n",
            graded.report.submissions.len(),
            graded.batch_size
        ));
    }
    text.push_str(&format!(
        "{}\nreports in {}: grades.csv, report.html, report.json, junit.xml, similarity.html, similarity.csv, <submission>/results.json{}\n",
        summary_line(&graded.report),
        out.display(),
        if req.shard.is_some() {
            ", shard.json (merge the shards with `hc11lab grade merge DIR... --out DIR`)"
        } else {
            ""
        }
    ));
    Ok(GradeOutcome { text, exit_code: 0 })
}

/// The batch folder among `paths` that `out` is, if any. (A folder inside
/// one is marked as reports when it is made and never graded.)
fn batch_folder_itself<'a>(out: &Path, paths: &'a [PathBuf]) -> Option<&'a PathBuf> {
    let out = std::fs::canonicalize(out).ok()?;
    paths
        .iter()
        .find(|p| p.is_dir() && std::fs::canonicalize(p).is_ok_and(|p| p == out))
}

/// Runs `hc11lab grade merge DIR... [--out DIR]`: one report set from the
/// output folders of `grade --shard K/N` runs (see [`super::shard`]).
pub fn run_merge(dirs: &[PathBuf], out: Option<&Path>) -> Result<GradeOutcome, GradeError> {
    if dirs.is_empty() {
        return Ok(GradeOutcome {
            text: "usage: hc11lab grade merge SHARD_DIR... [--out DIR]\n".into(),
            exit_code: 2,
        });
    }
    let out = out.map_or_else(|| PathBuf::from(DEFAULT_OUT), Path::to_path_buf);
    check_merge_out(dirs, &out)?;
    if out.exists() && !out.is_dir() {
        return Err(GradeError::OutNotFolder(out));
    }
    // The shards are read before `--out` is made, so a refused merge leaves
    // no empty folder behind.
    let report = merge(dirs)?;
    prepare_out(&out)?;
    let written = write_reports_noting(&report, &out)?;
    let mut text = String::new();
    for n in &written.notes {
        text.push_str(&format!("note: {n}\n"));
    }
    text.push_str(&format!(
        "merged {} shard(s): {}\nreports in {}\n",
        dirs.len(),
        summary_line(&report),
        out.display()
    ));
    Ok(GradeOutcome { text, exit_code: 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_errors_exit_2() {
        let r = run(&GradeRequest {
            assignment: "x".into(),
            ..GradeRequest::default()
        })
        .unwrap();
        assert_eq!(r.exit_code, 2);
        let r = run(&GradeRequest {
            gradescope: true,
            paths: vec!["a".into(), "b".into(), "c".into()],
            ..GradeRequest::default()
        })
        .unwrap();
        assert_eq!(r.exit_code, 2);
    }

    #[test]
    fn missing_assignment_is_an_error() {
        let existed = std::path::Path::new(DEFAULT_OUT).exists();
        let e = run(&GradeRequest {
            assignment: "/nonexistent/assignment".into(),
            paths: vec!["s".into()],
            ..GradeRequest::default()
        })
        .unwrap_err();
        assert!(e.to_string().contains("/nonexistent/assignment"), "{e}");
        assert!(e.to_string().contains("--assignment names a folder"), "{e}");
        assert!(
            existed || !std::path::Path::new(DEFAULT_OUT).exists(),
            "a wrong --assignment leaves no report folder behind"
        );
    }
}
