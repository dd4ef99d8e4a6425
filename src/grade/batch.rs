//! The batch runner: every submission of a course graded in parallel
//! (rayon), each behind `catch_unwind` so one bad submission can never stop
//! the batch, then the similarity report over all of them; and the
//! Gradescope autograder entry that grades one submission in place.

use super::assignment::Assignment;
use super::engine::Grader;
use super::error::GradeError;
use super::result::{BatchReport, SubmissionResult};
use super::shard::ShardSpec;
use super::similarity::{compare, SimSource, SimilarityOptions};
use super::submission::{discover_noting, unique_names, Submission};
use rayon::prelude::*;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// What `hc11lab grade` was asked to do.
#[derive(Clone, Debug)]
pub struct GradeOptions {
    /// The assignment folder (or its `assignment.toml`).
    pub assignment: PathBuf,
    /// Submissions: folders, zips, or folders of those.
    pub submissions: Vec<PathBuf>,
    /// Worker threads; `None` = one per core.
    pub jobs: Option<usize>,
    /// Similarity report settings.
    pub similarity: SimilarityOptions,
    /// Grade identical programs once (results are deterministic).
    pub cache: bool,
    /// Grade only this part of the batch (`--shard K/N`).
    pub shard: Option<ShardSpec>,
    /// `--dialect`: overrides the assignment's `dialect`.
    pub dialect: Option<crate::asm::Dialect>,
}

impl GradeOptions {
    /// Options with the defaults: all cores, default similarity, cache on.
    pub fn new(assignment: impl Into<PathBuf>, submissions: Vec<PathBuf>) -> GradeOptions {
        GradeOptions {
            assignment: assignment.into(),
            submissions,
            jobs: None,
            similarity: SimilarityOptions::default(),
            cache: true,
            shard: None,
            dialect: None,
        }
    }
}

/// The text of a panic payload.
fn panic_message(p: Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

/// Runs `f`, turning a panic into its message (the batch's last line of defence).
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(panic_message)
}

/// Reads and grades one submission path; its sources come back for the similarity report.
fn grade_path(
    grader: &Grader,
    path: &Path,
    name: &str,
    renamed: Option<&String>,
) -> (SubmissionResult, Option<SimSource>) {
    let noted = |mut r: SubmissionResult| {
        r.notes.extend(renamed.cloned());
        r
    };
    match Submission::load(path, &grader.assignment().limits) {
        Err(e) => (noted(grader.rejected(name, &e.to_string())), None),
        Ok(mut sub) => {
            sub.name = name.to_string();
            let result = noted(grader.grade(&sub));
            let sim = SimSource {
                name: name.to_string(),
                files: sub
                    .files
                    .iter()
                    .map(|(p, t)| (p.clone(), t.text.clone()))
                    .collect(),
            };
            (result, Some(sim))
        }
    }
}

/// For each submission [`unique_names`] had to rename (a second `alice`,
/// say `alice/` beside `alice.zip`), a note naming the input it came from
/// and the one that kept the name, so the lecturer can tell `alice-2`'s
/// report from `alice`'s.
fn renamed_notes(paths: &[PathBuf], names: &[String]) -> HashMap<String, String> {
    // The last two parts of a path: enough to tell `a/x` from `b/x`.
    let shown = |p: &Path| {
        let parts: Vec<_> = p.components().rev().take(2).collect();
        parts
            .iter()
            .rev()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/")
    };
    let mut notes = HashMap::new();
    for (i, (path, name)) in paths.iter().zip(names).enumerate() {
        let base = super::submission::submission_name(path);
        if *name == base {
            continue;
        }
        let kept = paths
            .iter()
            .zip(names)
            .take(i)
            .find(|(_, n)| **n == base)
            .map(|(p, _)| shown(p));
        let other = kept.map_or(String::new(), |k| format!(" (`{k}` kept the name)"));
        notes.insert(
            name.clone(),
            format!(
                "graded as `{name}`: `{}` has the name `{base}` of another submission in the batch{other}",
                shown(path)
            ),
        );
    }
    notes
}

/// A graded batch with what a shard keeps for the merge.
#[derive(Clone, Debug)]
pub struct GradedBatch {
    /// The report of the graded submissions.
    pub report: BatchReport,
    /// Their sources (for similarity across shards).
    pub sources: Vec<SimSource>,
    /// The assignment's provided files, which similarity leaves out.
    pub starter: SimSource,
    /// Submissions in the whole batch, before a shard took its part.
    pub batch_size: usize,
    /// What the batch folders held that is no submission (see
    /// [`super::submission::discover_noting`]).
    pub skipped: Vec<String>,
    /// Where the reference's runs came from (a prepared reference or not).
    pub prepared: super::engine::Prepared,
}

/// Grades a prepared assignment over submission paths (see
/// [`super::submission::discover`]).
/// `progress(done, total)` is called after each submission, from any thread.
pub fn grade_paths(
    grader: &Grader,
    paths: &[PathBuf],
    jobs: Option<usize>,
    similarity: &SimilarityOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<BatchReport, GradeError> {
    grade_paths_sharded(grader, paths, jobs, similarity, progress, None).map(|b| b.report)
}

/// [`grade_paths`] over only the submissions of `shard` (all if `None`;
/// see [`super::shard`]), keeping the sources for a later merge.
pub fn grade_paths_sharded(
    grader: &Grader,
    paths: &[PathBuf],
    jobs: Option<usize>,
    similarity: &SimilarityOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
    shard: Option<ShardSpec>,
) -> Result<GradedBatch, GradeError> {
    let (all, skipped) = discover_noting(paths, &grader.assignment().entry)?;
    let all_names = unique_names(&all);
    let renamed = renamed_notes(&all, &all_names);
    let batch_size = all.len();
    let (subs, names): (Vec<PathBuf>, Vec<String>) = all
        .into_iter()
        .zip(all_names)
        .filter(|(_, name)| shard.is_none_or(|s| s.contains(name)))
        .unzip();
    let total = subs.len();
    let done = AtomicUsize::new(0);
    let pool = worker_pool(jobs)?;
    let outputs: Vec<(SubmissionResult, Option<SimSource>)> = pool.install(|| {
        subs.par_iter()
            .zip(names.par_iter())
            .map(|(path, name)| {
                let out = guarded(|| grade_path(grader, path, name, renamed.get(name)))
                    .unwrap_or_else(|p| (grader.internal_error(name, &p), None));
                progress(done.fetch_add(1, Ordering::SeqCst) + 1, total);
                out
            })
            .collect()
    });
    let (mut results, sims): (Vec<SubmissionResult>, Vec<Option<SimSource>>) =
        outputs.into_iter().unzip();
    results.sort_by(|a, b| a.submission.cmp(&b.submission));
    let folders = super::report::folder_names(&results);
    for (r, folder) in results.iter_mut().zip(folders) {
        r.folder = folder;
    }
    let sims: Vec<SimSource> = sims.into_iter().flatten().collect();
    let starter = SimSource {
        name: "starter".into(),
        files: grader.reference_files().to_vec(),
    };
    let a = grader.assignment();
    let report = BatchReport {
        assignment: a.id.clone(),
        title: a.title.clone(),
        check_names: a.checks.iter().map(|c| c.name.clone()).collect(),
        max_score: super::result::round2(a.max_score()),
        submissions: results,
        // In the batch's threads (fingerprinting a thousand submissions
        // took a second on one core).
        similarity: pool.install(|| compare(&sims, &starter, similarity)),
    };
    Ok(GradedBatch {
        report,
        sources: sims,
        starter,
        batch_size,
        skipped,
        prepared: grader.prepared().clone(),
    })
}

/// The threads a batch grades with: `jobs` (all cores if `None`).
fn worker_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, GradeError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| GradeError::Report {
            what: "worker threads".into(),
            message: e.to_string(),
        })
}

/// `hc11lab grade`: loads the assignment, prepares the reference, grades
/// every submission and compares them. Write the reports with
/// [`super::report::write_reports`].
pub fn grade_batch(
    opts: &GradeOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<BatchReport, GradeError> {
    grade_batch_sharded(opts, progress).map(|b| b.report)
}

/// [`grade_batch`] keeping what a shard writes for the merge
/// (`opts.shard` picks the part; `None` grades everything).
pub fn grade_batch_sharded(
    opts: &GradeOptions,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<GradedBatch, GradeError> {
    let mut assignment = Assignment::load(&opts.assignment)?;
    if let Some(d) = opts.dialect {
        assignment.dialect = d;
    }
    // The reference's games are played in parallel too, with as many
    // threads as the batch.
    let mut grader = worker_pool(opts.jobs)?.install(|| Grader::new(assignment))?;
    grader.set_cache(opts.cache);
    grade_paths_sharded(
        &grader,
        &opts.submissions,
        opts.jobs,
        &opts.similarity,
        progress,
        opts.shard,
    )
}

/// Grades one submission already in memory (`hc11lab lesson check`). The
/// reference is prepared on each call; to grade many, use [`Grader`].
pub fn grade_one(assignment: &Assignment, submission: &Submission) -> SubmissionResult {
    try_grade_one(assignment, submission)
        .unwrap_or_else(|e| Grader::unprepared_result(assignment, &submission.name, &e.to_string()))
}

/// [`grade_one`], but a course that cannot be graded (its reference broken,
/// a provided file missing) is an error instead of a result with 0 points:
/// the student can do nothing about it.
pub fn try_grade_one(
    assignment: &Assignment,
    submission: &Submission,
) -> Result<SubmissionResult, GradeError> {
    let g = Grader::new(assignment.clone())?;
    Ok(guarded(|| g.grade(submission)).unwrap_or_else(|p| g.internal_error(&submission.name, &p)))
}

/// Gradescope's default paths.
pub const GRADESCOPE_SUBMISSION: &str = "/autograder/submission";
/// Where Gradescope reads the results.
pub const GRADESCOPE_RESULTS: &str = "/autograder/results/results.json";

/// `hc11lab grade --gradescope`: grades the submission folder as
/// Gradescope's autograder does and writes its `results.json`. A submission
/// that cannot be read still gets a results file (0 points, the reason).
pub fn run_gradescope(
    assignment_dir: &Path,
    submission: &Path,
    results: &Path,
) -> Result<SubmissionResult, GradeError> {
    run_gradescope_in(assignment_dir, submission, results, None)
}

/// [`run_gradescope`] with the assignment's dialect overridden (`--dialect`).
pub fn run_gradescope_in(
    assignment_dir: &Path,
    submission: &Path,
    results: &Path,
    dialect: Option<crate::asm::Dialect>,
) -> Result<SubmissionResult, GradeError> {
    super::autograder::grade_in_place(
        super::autograder::Platform::Gradescope,
        assignment_dir,
        submission,
        results,
        dialect,
    )
    .map(|placed| placed.result)
}

/// A progress reporter for the terminal: an indicatif bar on stderr when
/// stderr is a terminal, nothing otherwise (CI logs stay clean).
pub fn terminal_progress() -> Box<dyn Fn(usize, usize) + Sync> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return Box::new(|_, _| {});
    }
    let bar = indicatif::ProgressBar::new(0);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} grading [{bar:40}] {pos}/{len} submissions ({elapsed}, ~{eta} left)",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    Box::new(move |done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
        if done >= total {
            bar.finish_and_clear();
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_messages() {
        assert_eq!(guarded(|| 3), Ok(3));
        let e = guarded(|| -> u8 { panic!("bad {}", 7) });
        let f = guarded(|| -> u8 { std::panic::panic_any(5u32) });
        assert_eq!(e, Err("bad 7".to_string()));
        assert_eq!(f, Err("unknown panic".to_string()));
    }
}
