//! Grading one batch on several machines: `grade --shard K/N` grades the
//! K-th of N parts of the batch and leaves, besides its own reports, a
//! `shard.json` with everything a merge needs; `grade merge DIR...` reads
//! the shards' folders and writes one report set, exactly the one a single
//! run over the whole batch writes (similarity across all shards included).
//!
//! The split is by submission name: a submission belongs to shard
//! `1 + FNV-1a(name) mod N`. It depends on nothing but the name (not on the
//! order a file system lists folders in, nor on the other submissions), so
//! runners that each see the whole batch agree on it without talking.
//! Names are the batch's unique names ([`super::submission::unique_names`]),
//! computed over the whole batch before the split, so two folders called the
//! same in different places get the same distinct names on every runner.

use super::error::GradeError;
use super::report::folder_names;
use super::result::BatchReport;
use super::similarity::{compare, SimSource, SimilarityOptions};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file a shard writes next to its reports.
pub const SHARD_FILE: &str = "shard.json";

/// Version of the `shard.json` layout; a merge refuses other versions.
const SHARD_FORMAT: u32 = 1;

/// Which part of a batch to grade: shard `index` (1-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    /// 1..=count.
    pub index: usize,
    /// How many shards the batch is split into.
    pub count: usize,
}

impl std::fmt::Display for ShardSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Most shards a batch may be split into (a matrix of CI runners is far smaller).
pub const MAX_SHARDS: usize = 10_000;

impl std::str::FromStr for ShardSpec {
    type Err = String;

    /// Parses `K/N` (e.g. `2/4`), with 1 <= K <= N.
    fn from_str(s: &str) -> Result<ShardSpec, String> {
        let usage = || {
            format!("--shard {s}: write K/N with 1 <= K <= N <= {MAX_SHARDS}, e.g. --shard 2/4 for the second of four parts")
        };
        let (k, n) = s.split_once('/').ok_or_else(usage)?;
        let index: usize = k.trim().parse().map_err(|_| usage())?;
        let count: usize = n.trim().parse().map_err(|_| usage())?;
        if index == 0 || count == 0 || index > count || count > MAX_SHARDS {
            return Err(usage());
        }
        Ok(ShardSpec { index, count })
    }
}

/// What `--shard` asks for: a fixed part `K/N`, or `auto/N`, whose part
/// comes from the job array the run is one task of ([`resolve_auto`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    /// `--shard K/N`.
    Fixed(ShardSpec),
    /// `--shard auto/N`: N shards, this task's index from the environment
    /// or `--shard-index`.
    Auto {
        /// How many shards (N).
        count: usize,
    },
}

impl std::str::FromStr for ShardArg {
    type Err = String;

    /// Parses `K/N` or `auto/N`.
    fn from_str(s: &str) -> Result<ShardArg, String> {
        match s.split_once('/') {
            Some((k, n)) if k.trim().eq_ignore_ascii_case("auto") => {
                let usage = || {
                    format!("--shard {s}: write auto/N with 1 <= N <= {MAX_SHARDS}, e.g. --shard auto/8 in each task of an array of 8")
                };
                let count: usize = n.trim().parse().map_err(|_| usage())?;
                if count == 0 || count > MAX_SHARDS {
                    return Err(usage());
                }
                Ok(ShardArg::Auto { count })
            }
            _ => s.parse().map(ShardArg::Fixed),
        }
    }
}

/// The environment variables a job array gives each task its index in,
/// in the order they are looked at after `--shard-index`.
pub const INDEX_VARIABLES: &str =
    "JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (a Slurm job array)";

/// The shard of `auto/count` this task grades, and where its index came
/// from (for the summary line): `--shard-index I` if given, else
/// `JOB_COMPLETION_INDEX`, else `SLURM_ARRAY_TASK_ID` counted from
/// `SLURM_ARRAY_TASK_MIN` in steps of `SLURM_ARRAY_TASK_STEP`. Every index
/// counts from 0, as the job arrays (and GitHub Actions'
/// `strategy.job-index`) do; shard K is index K-1. A missing, unreadable or
/// out-of-range index is an error (a usage error for the caller): a task
/// that guessed would grade the whole batch, or another task's part.
pub fn resolve_auto(
    count: usize,
    cli_index: Option<usize>,
    env: impl Fn(&str) -> Option<String>,
) -> Result<(ShardSpec, String), String> {
    let number = |name: &str, text: &str| -> Result<usize, String> {
        text.trim().parse::<usize>().map_err(|_| {
            format!("--shard auto/{count}: {name}={text:?} is not a whole number from 0")
        })
    };
    let (index, source) = if let Some(i) = cli_index {
        (i, "--shard-index".to_string())
    } else if let Some(v) = env("JOB_COMPLETION_INDEX") {
        (
            number("JOB_COMPLETION_INDEX", &v)?,
            "JOB_COMPLETION_INDEX".into(),
        )
    } else if let Some(v) = env("SLURM_ARRAY_TASK_ID") {
        let id = number("SLURM_ARRAY_TASK_ID", &v)?;
        let Some(min) = env("SLURM_ARRAY_TASK_MIN") else {
            return Err(format!(
                "--shard auto/{count}: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_MIN is not, so the task's place in the array is unknown; run it as a Slurm array (sbatch --array=0-{}) or give --shard-index",
                count - 1
            ));
        };
        let min = number("SLURM_ARRAY_TASK_MIN", &min)?;
        let step = match env("SLURM_ARRAY_TASK_STEP") {
            Some(v) => number("SLURM_ARRAY_TASK_STEP", &v)?.max(1),
            None => 1,
        };
        let from_min = id.checked_sub(min).filter(|d| d % step == 0).ok_or_else(|| {
            format!("--shard auto/{count}: SLURM_ARRAY_TASK_ID {id} is not in the array from SLURM_ARRAY_TASK_MIN {min} in steps of {step}")
        })?;
        (
            from_min / step,
            format!("SLURM_ARRAY_TASK_ID {id} - SLURM_ARRAY_TASK_MIN {min}"),
        )
    } else {
        return Err(format!(
            "--shard auto/{count}: no task index: run it as a task of a job array ({INDEX_VARIABLES}), or give --shard-index I (from 0, e.g. ${{{{ strategy.job-index }}}} in GitHub Actions)"
        ));
    };
    if index >= count {
        return Err(format!(
            "--shard auto/{count}: index {index} from {source} is out of range: an array of {count} tasks counts 0..{}; make the array as large as N",
            count - 1
        ));
    }
    Ok((
        ShardSpec {
            index: index + 1,
            count,
        },
        source,
    ))
}

impl ShardSpec {
    /// True if the submission called `name` belongs to this shard.
    pub fn contains(&self, name: &str) -> bool {
        shard_of(name, self.count) == self.index
    }
}

/// The shard (1-based) of `count` that the submission called `name` goes to.
pub fn shard_of(name: &str, count: usize) -> usize {
    // FNV-1a, 64 bits: fixed forever (std's hasher may change between releases).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    (h % count.max(1) as u64) as usize + 1
}

/// What one shard leaves for the merge (`shard.json`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardOutput {
    /// The layout version of this file (`SHARD_FORMAT`).
    pub format: u32,
    /// Which shard this is.
    pub shard: ShardSpec,
    /// Submissions in the whole batch (all shards together).
    pub batch_size: usize,
    /// This shard's report (its submissions, similarity among them only).
    pub report: BatchReport,
    /// The sources of this shard's submissions, for similarity across shards.
    pub sources: Vec<SimSource>,
    /// The starter files (the assignment's provided sources), left out of similarity.
    pub starter: SimSource,
    /// The similarity settings the batch used.
    pub similarity: SimilarityOptions,
}

impl ShardOutput {
    /// What shard `shard` of a batch of `batch_size` leaves for the merge
    /// (in the current layout).
    pub fn new(
        shard: ShardSpec,
        batch_size: usize,
        report: BatchReport,
        sources: Vec<SimSource>,
        starter: SimSource,
        similarity: SimilarityOptions,
    ) -> ShardOutput {
        ShardOutput {
            format: SHARD_FORMAT,
            shard,
            batch_size,
            report,
            sources,
            starter,
            similarity,
        }
    }

    /// The `shard.json` text.
    pub fn to_json(&self) -> Result<String, GradeError> {
        serde_json::to_string(self)
            .map(|s| s + "\n")
            .map_err(|e| GradeError::Report {
                what: SHARD_FILE.into(),
                message: e.to_string(),
            })
    }
}

/// An error about the merge's input, naming the folder or file.
fn merge_error(path: &Path, message: impl Into<String>) -> GradeError {
    GradeError::Merge {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Refuses an `--out` that is one of the shard folders being merged: the
/// merged reports would replace that shard's, and its `shard.json` (not
/// one of the merged batch's files) would be removed with them, so the
/// shard could never be merged again.
pub fn check_merge_out(dirs: &[PathBuf], out: &Path) -> Result<(), GradeError> {
    let Ok(out_real) = std::fs::canonicalize(out) else {
        // Not there yet: no shard folder can be it.
        return Ok(());
    };
    for d in dirs {
        let folder = if d.is_file() {
            d.parent().unwrap_or(d)
        } else {
            d.as_path()
        };
        if std::fs::canonicalize(folder).is_ok_and(|f| f == out_real) {
            return Err(merge_error(
                out,
                format!(
                    "--out is one of the shard folders being merged ({}); the merged reports would replace that shard's and remove its shard.json: give --out a folder of its own",
                    d.display()
                ),
            ));
        }
    }
    Ok(())
}

/// The shard folders `dirs` name: each as given, except a folder without a
/// `shard.json` whose sub-folders hold one (the `shards` of `--out
/// shards/{shard}`): those, in name order. So a merge needs no shell to
/// list the tasks' folders.
pub fn shard_dirs(dirs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for d in dirs {
        if d.join(SHARD_FILE).is_file() || !d.is_dir() {
            out.push(d.clone());
            continue;
        }
        let mut inner: Vec<PathBuf> = std::fs::read_dir(d)
            .map(|rd| {
                rd.filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| p.join(SHARD_FILE).is_file())
                    .collect()
            })
            .unwrap_or_default();
        if inner.is_empty() {
            out.push(d.clone());
        } else {
            inner.sort();
            out.extend(inner);
        }
    }
    out
}

/// Reads `DIR/shard.json`.
fn read_shard(dir: &Path) -> Result<ShardOutput, GradeError> {
    let file = if dir.is_file() {
        dir.to_path_buf()
    } else {
        dir.join(SHARD_FILE)
    };
    let text = std::fs::read_to_string(&file).map_err(|e| {
        merge_error(
            &file,
            format!("cannot read it ({e}); give the --out folder of a `grade --shard K/N` run"),
        )
    })?;
    let out: ShardOutput = serde_json::from_str(&text).map_err(|e| {
        merge_error(
            &file,
            format!("not a shard file of this hc11lab ({e}); grade the shard again"),
        )
    })?;
    if out.format != SHARD_FORMAT {
        return Err(merge_error(
            &file,
            format!(
                "shard format {} (this hc11lab reads {SHARD_FORMAT}); grade every shard with the same hc11lab",
                out.format
            ),
        ));
    }
    Ok(out)
}

/// `grade merge DIR...`: one batch report from the shards' output folders.
/// Every shard 1..N of the same assignment must be there exactly once;
/// similarity is computed again over all submissions together.
pub fn merge(dirs: &[PathBuf]) -> Result<BatchReport, GradeError> {
    let mut shards: Vec<(PathBuf, ShardOutput)> = Vec::new();
    for d in dirs {
        shards.push((d.clone(), read_shard(d)?));
    }
    merge_shards(&shards)
}

/// [`merge`] over shards already read, each with the folder (or name) it
/// came from for messages.
pub fn merge_shards(shards: &[(PathBuf, ShardOutput)]) -> Result<BatchReport, GradeError> {
    let Some((first_dir, first)) = shards.first() else {
        return Err(merge_error(
            Path::new("grade merge"),
            "no shard folders given: hc11lab grade merge DIR... --out DIR",
        ));
    };
    let count = first.shard.count;
    let mut seen: Vec<Option<&Path>> = vec![None; count];
    for (dir, s) in shards {
        let same = s.report.assignment == first.report.assignment
            && s.report.check_names == first.report.check_names
            && s.shard.count == count
            && s.batch_size == first.batch_size;
        if !same {
            return Err(merge_error(
                dir,
                format!(
                    "shard {} of assignment `{}` ({} submissions in all) does not belong with {} (shard {} of `{}`, {} submissions): merge the shards of one batch",
                    s.shard,
                    s.report.assignment,
                    s.batch_size,
                    first_dir.display(),
                    first.shard,
                    first.report.assignment,
                    first.batch_size
                ),
            ));
        }
        let slot = &mut seen[s.shard.index - 1];
        if let Some(other) = slot {
            return Err(merge_error(
                dir,
                format!(
                    "shard {} is given twice (also {})",
                    s.shard,
                    other.display()
                ),
            ));
        }
        *slot = Some(dir);
    }
    let missing: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| s.is_none())
        .map(|(i, _)| format!("{}/{count}", i + 1))
        .collect();
    if !missing.is_empty() {
        return Err(merge_error(
            first_dir,
            format!(
                "shard(s) {} missing: give the --out folder of every shard",
                missing.join(", ")
            ),
        ));
    }
    let mut results = Vec::new();
    let mut sources = Vec::new();
    for (_, s) in shards {
        results.extend(s.report.submissions.iter().cloned());
        sources.extend(s.sources.iter().cloned());
    }
    if results.len() != first.batch_size {
        return Err(merge_error(
            first_dir,
            format!(
                "the shards hold {} submissions, the batch had {}: grade every shard over the same submissions",
                results.len(),
                first.batch_size
            ),
        ));
    }
    results.sort_by(|a, b| a.submission.cmp(&b.submission));
    let folders = folder_names(&results);
    for (r, folder) in results.iter_mut().zip(folders) {
        r.folder = folder;
    }
    // The one run orders the sources as it discovered the submissions; the
    // comparison sorts its pairs, so the order here does not matter.
    sources.sort_by(|a, b| a.name.cmp(&b.name));
    let similarity = compare(&sources, &first.starter, &first.similarity);
    Ok(BatchReport {
        assignment: first.report.assignment.clone(),
        title: first.report.title.clone(),
        check_names: first.report.check_names.clone(),
        max_score: first.report.max_score,
        submissions: results,
        similarity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_parses_and_rejects() {
        assert_eq!(
            "2/4".parse::<ShardSpec>(),
            Ok(ShardSpec { index: 2, count: 4 })
        );
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "", "1/20000"] {
            let e = bad.parse::<ShardSpec>().unwrap_err();
            assert!(e.contains("K/N"), "{bad}: {e}");
        }
    }

    /// `auto/N` takes its index from the command line, then Kubernetes,
    /// then Slurm (counted from the array's first task, in its steps); a
    /// missing, unreadable or out-of-range index is refused, naming where
    /// it looked.
    #[test]
    fn auto_shards_find_their_index() {
        assert_eq!("auto/8".parse(), Ok(ShardArg::Auto { count: 8 }));
        assert_eq!(
            "3/8".parse(),
            Ok(ShardArg::Fixed(ShardSpec { index: 3, count: 8 }))
        );
        for bad in ["auto/0", "auto/x", "auto", "auto/20000"] {
            assert!(bad.parse::<ShardArg>().is_err(), "{bad}");
        }
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                vars.iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| v.to_string())
            }
        };
        let spec = |index| ShardSpec { index, count: 4 };
        let k8s = env(&[("JOB_COMPLETION_INDEX", "2")]);
        assert_eq!(resolve_auto(4, None, k8s).unwrap().0, spec(3));
        assert_eq!(
            resolve_auto(4, None, k8s).unwrap().1,
            "JOB_COMPLETION_INDEX"
        );
        // The command line wins over the environment.
        assert_eq!(resolve_auto(4, Some(0), k8s).unwrap().0, spec(1));
        let slurm = env(&[
            ("SLURM_ARRAY_TASK_ID", "12"),
            ("SLURM_ARRAY_TASK_MIN", "10"),
        ]);
        assert_eq!(resolve_auto(4, None, slurm).unwrap().0, spec(3));
        let stepped = env(&[
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_STEP", "2"),
        ]);
        assert_eq!(resolve_auto(4, None, stepped).unwrap().0, spec(4));
        let refused = |e: Result<(ShardSpec, String), String>, want: &str| {
            let e = e.unwrap_err();
            assert!(e.contains(want), "{e}");
        };
        refused(resolve_auto(4, None, env(&[])), "JOB_COMPLETION_INDEX");
        refused(resolve_auto(4, Some(4), env(&[])), "out of range");
        refused(
            resolve_auto(4, None, env(&[("JOB_COMPLETION_INDEX", "4")])),
            "out of range",
        );
        refused(
            resolve_auto(4, None, env(&[("JOB_COMPLETION_INDEX", "-1")])),
            "not a whole number",
        );
        refused(
            resolve_auto(4, None, env(&[("SLURM_ARRAY_TASK_ID", "3")])),
            "SLURM_ARRAY_TASK_MIN",
        );
        refused(
            resolve_auto(
                4,
                None,
                env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "5")]),
            ),
            "not in the array",
        );
        refused(
            resolve_auto(
                4,
                None,
                env(&[
                    ("SLURM_ARRAY_TASK_ID", "15"),
                    ("SLURM_ARRAY_TASK_MIN", "10"),
                ]),
            ),
            "out of range",
        );
    }

    #[test]
    fn every_name_has_exactly_one_shard() {
        for name in ["anna", "Bob Müller", "=SUM(A1)", "", "x/y"] {
            let n = 4;
            let owners: Vec<usize> = (1..=n)
                .filter(|&k| ShardSpec { index: k, count: n }.contains(name))
                .collect();
            assert_eq!(owners.len(), 1, "{name}");
            assert_eq!(owners[0], shard_of(name, n));
        }
        // Fixed hash: the split never changes between versions.
        assert_eq!(shard_of("anna", 4), shard_of("anna", 4));
        assert_eq!(shard_of("", 1), 1);
    }
}
