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
    let Some(first_dir) = dirs.first() else {
        return Err(merge_error(
            Path::new("grade merge"),
            "no shard folders given: hc11lab grade merge DIR... --out DIR",
        ));
    };
    let mut shards: Vec<(PathBuf, ShardOutput)> = Vec::new();
    for d in dirs {
        shards.push((d.clone(), read_shard(d)?));
    }
    let (_, first) = &shards[0];
    let count = first.shard.count;
    let mut seen: Vec<Option<&Path>> = vec![None; count];
    for (dir, s) in &shards {
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
    for (_, s) in &shards {
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
        lang: first.report.lang,
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
