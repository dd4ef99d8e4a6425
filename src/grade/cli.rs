//! `hc11lab grade` as a library call: the command line only maps its
//! arguments onto a [`GradeRequest`] and prints what [`run`] returns.

use super::autograder::{grade_in_place, Platform};
use super::batch::{grade_batch_sharded, terminal_progress, GradeOptions};
use super::batch::{GRADESCOPE_RESULTS, GRADESCOPE_SUBMISSION};
use super::engine::Grader;
use super::error::GradeError;
use super::report::output::{prepare_out, replace_batch};
use super::report::{report_files, summary_line, write_reports_noting};
use super::result::{fmt_points, SubmissionStatus};
use super::shard::{check_merge_out, merge, resolve_auto, ShardOutput, ShardSpec, SHARD_FILE};
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
    /// `--shard auto/N`: N shards, this task's index from the job array
    /// (see [`super::shard::resolve_auto`]); `shard` is then left `None`.
    pub shard_auto: Option<usize>,
    /// `--shard-index I`: the index (from 0) for `--shard auto/N`.
    pub shard_index: Option<usize>,
    /// `--platform`: grade one submission in a course platform's layout.
    pub platform: Option<Platform>,
    /// `--platform-root ROOT`: stands in for `/` in the platform's paths.
    pub platform_root: Option<PathBuf>,
    /// `--prepare`: run the reference once and write the prepared
    /// reference into the assignment folder (see [`super::engine::PREPARED_FILE`]).
    pub prepare: bool,
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
    let usage = |text: String| {
        Ok(GradeOutcome {
            text: text + "\n",
            exit_code: 2,
        })
    };
    let batch_only = [
        (req.shard.is_some() || req.shard_auto.is_some(), "--shard"),
        (req.shard_index.is_some(), "--shard-index"),
        (req.out.is_some(), "--out"),
    ];
    let single = if req.prepare {
        Some("--prepare")
    } else if req.platform.is_some() {
        Some("--platform")
    } else {
        None
    };
    if let (Some(mode), Some((_, flag))) = (single, batch_only.iter().find(|(on, _)| *on)) {
        return usage(format!(
            "{flag} is for a batch of submissions; {mode} grades no batch (leave {flag} out)"
        ));
    }
    if req.prepare {
        if !req.paths.is_empty() || req.platform.is_some() || req.gradescope {
            return usage(
                "usage: hc11lab grade --prepare --assignment DIR (no submissions: it runs the reference only)".into(),
            );
        }
        return prepare(req);
    }
    if let Some(platform) = req.platform {
        if req.gradescope {
            return usage(format!(
                "--gradescope and --platform {} are two ways to say where to grade: give one",
                platform.name()
            ));
        }
        if !req.paths.is_empty() {
            return usage(format!(
                "--platform {} grades the submission at {}: give no submission paths (--platform-root ROOT stands in for /)",
                platform.name(),
                platform.submission(Path::new("/")).display()
            ));
        }
        let root = req
            .platform_root
            .clone()
            .unwrap_or_else(|| PathBuf::from("/"));
        // Outside the platform's container (a teacher trying the command
        // without --platform-root) a results file would land in /grade or
        // /autograder of the machine itself.
        let home = platform.home(&root);
        if !home.is_dir() {
            return usage(format!(
                "--platform {}: {} is not there, so this is not {}'s grading container; to try the layout in a folder, give --platform-root ROOT with the student's files in {}",
                platform.name(),
                home.display(),
                match platform {
                    Platform::PrairieLearn => "PrairieLearn",
                    Platform::Gradescope => "Gradescope",
                },
                platform.submission(Path::new("ROOT")).display()
            ));
        }
        return in_place(
            platform,
            &req.assignment,
            &platform.submission(&root),
            &platform.results(&root),
            req.dialect,
        );
    }
    if req.platform_root.is_some() {
        return usage("--platform-root needs --platform prairielearn|gradescope".into());
    }
    if req.shard_index.is_some() && req.shard_auto.is_none() {
        return usage("--shard-index I goes with --shard auto/N".into());
    }
    let mut shard = req.shard;
    let mut shard_source = None;
    if let Some(count) = req.shard_auto {
        match resolve_auto(count, req.shard_index, |k| std::env::var(k).ok()) {
            Ok((spec, source)) => {
                shard = Some(spec);
                shard_source = Some(source);
            }
            Err(e) => return usage(e),
        }
    }
    let req = &GradeRequest {
        shard,
        out: match (&req.out, shard) {
            (Some(out), _) if !out.to_string_lossy().contains(SHARD_PLACEHOLDER) => {
                Some(out.clone())
            }
            (Some(out), Some(s)) => Some(PathBuf::from(
                out.to_string_lossy()
                    .replace(SHARD_PLACEHOLDER, &s.index.to_string()),
            )),
            (Some(_), None) => {
                return usage(format!(
                    "--out: {SHARD_PLACEHOLDER} stands for the shard's number and needs --shard"
                ))
            }
            (None, _) => None,
        },
        ..req.clone()
    };
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
        return in_place(
            Platform::Gradescope,
            &req.assignment,
            &submission,
            &results,
            req.dialect,
        );
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
    if let super::engine::Prepared::Ignored(why) = &graded.prepared {
        text.push_str(&format!("note: {why}\n"));
    }
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
        let from = shard_source.map_or(String::new(), |s| {
            format!(" (index {} from {s})", shard.index - 1)
        });
        text.push_str(&format!(
            "shard {shard}{from}: {} of the batch's {} submissions\n",
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

/// What `--out` may hold to name each shard's folder: `{shard}` becomes the
/// shard's number K (`--out shards/{shard}` with `--shard auto/8`), so the
/// tasks of an array need no shell around them to tell their folders apart.
pub const SHARD_PLACEHOLDER: &str = "{shard}";

/// `grade --platform`: one submission graded in the platform's layout.
fn in_place(
    platform: Platform,
    assignment: &Path,
    submission: &Path,
    results: &Path,
    dialect: Option<crate::asm::Dialect>,
) -> Result<GradeOutcome, GradeError> {
    let placed = grade_in_place(platform, assignment, submission, results, dialect)?;
    let r = &placed.result;
    let mut text = String::new();
    for n in &placed.notes {
        text.push_str(&format!("note: {n}\n"));
    }
    let status = match &r.status {
        SubmissionStatus::Graded if placed.gradable => String::new(),
        SubmissionStatus::Graded => " (not gradable: it does not assemble)".into(),
        SubmissionStatus::Rejected(m) => format!(" (not graded: {m})"),
        SubmissionStatus::InternalError(m) => format!(" (internal error: {m})"),
    };
    text.push_str(&format!(
        "{} of {} points{status}; results in {} ({} bytes)\n",
        fmt_points(r.score),
        fmt_points(r.max_score),
        placed.results.display(),
        placed.size
    ));
    Ok(GradeOutcome { text, exit_code: 0 })
}

/// `grade --prepare`: runs the reference through every check and writes
/// the prepared reference beside `assignment.toml`.
fn prepare(req: &GradeRequest) -> Result<GradeOutcome, GradeError> {
    let mut assignment = super::assignment::Assignment::load(&req.assignment)?;
    if let Some(d) = req.dialect {
        assignment.dialect = d;
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(req.jobs.unwrap_or(0))
        .build()
        .map_err(|e| GradeError::Report {
            what: "worker threads".into(),
            message: e.to_string(),
        })?;
    let grader = pool.install(|| Grader::new(assignment))?;
    let mut text = String::new();
    if let super::engine::Prepared::Ignored(why) = grader.prepared() {
        text.push_str(&format!("note: {why}\n"));
    }
    // A record that was up to date is written again as it was.
    let path = grader.write_prepared()?;
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    text.push_str(&format!(
        "prepared the reference of `{}`: {} ({size} bytes); gradings by this same hc11lab build read it instead of running the reference\n",
        grader.assignment().id,
        path.display()
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
    let dirs = &super::shard::shard_dirs(dirs);
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
        // A single grading takes no batch flags; --shard-index needs auto/N.
        for req in [
            GradeRequest {
                platform: Some(Platform::PrairieLearn),
                shard_auto: Some(4),
                ..GradeRequest::default()
            },
            GradeRequest {
                prepare: true,
                out: Some("x".into()),
                ..GradeRequest::default()
            },
            GradeRequest {
                platform: Some(Platform::PrairieLearn),
                gradescope: true,
                ..GradeRequest::default()
            },
            GradeRequest {
                paths: vec!["s".into()],
                shard_index: Some(1),
                ..GradeRequest::default()
            },
            GradeRequest {
                paths: vec!["s".into()],
                out: Some("out/{shard}".into()),
                ..GradeRequest::default()
            },
        ] {
            let r = run(&req).unwrap();
            assert_eq!(r.exit_code, 2, "{req:?}: {}", r.text);
        }
    }

    #[test]
    fn missing_assignment_is_an_error() {
        // Not in the crate's folder, should the report folder be made.
        let out = std::env::temp_dir().join(format!("hc11lab-cli-out-{}", std::process::id()));
        let e = run(&GradeRequest {
            assignment: "/nonexistent/assignment".into(),
            paths: vec!["s".into()],
            out: Some(out.clone()),
            ..GradeRequest::default()
        })
        .unwrap_err();
        assert!(e.to_string().contains("/nonexistent/assignment"), "{e}");
        assert!(e.to_string().contains("--assignment names a folder"), "{e}");
        let made = out.exists();
        let _ = std::fs::remove_dir_all(&out);
        assert!(!made, "a wrong --assignment leaves no report folder behind");
    }
}
