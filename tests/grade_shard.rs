//! `grade --shard K/N` and `grade merge`: a batch graded in four shards and
//! merged writes exactly the reports one run over the whole batch writes
//! (every file, byte for byte, similarity across shards included); a merge
//! with a shard missing, twice, or from another batch is refused by name.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/exercise.rs"]
mod support;
use support::{copy_tree, Scratch};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn hc11lab(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(args)
        .output()
        .expect("run hc11lab");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A short assignment (assembles + the start screen) so the test grades the
/// whole corpus in seconds; the split and merge do not depend on the checks.
fn assignment(dir: &Path) -> PathBuf {
    let a = dir.join("assignment");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(
        a.join("assignment.toml"),
        r#"[assignment]
id = "shard-test"
title = "Start screen only"
entry = "Viergewinnt.asm"
reference = "bundled"
provided = ["Trainer11Register.inc"]

[limits]
max_cycles = 20000000

[[check]]
name = "assembles"
kind = "assembles"
points = 1

[[check]]
name = "start screen"
kind = "scenario"
points = 2
keys = ""
expect = [ { lcd = "reference" }, { symbol = "player", equals = 1 } ]
"#,
    )
    .unwrap();
    a
}

/// The batch: the grading corpus (copies, restyled copies, broken and
/// hostile submissions), plus three with awkward names (one named like the
/// shard file every shard writes beside its reports).
fn batch(dir: &Path) -> PathBuf {
    let b = dir.join("batch");
    for e in std::fs::read_dir(root().join("tests/grade_corpus")).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &b.join(e.file_name()));
        }
    }
    let correct = root().join("tests/grade_corpus/correct");
    copy_tree(&correct, &b.join("Anna Müller"));
    copy_tree(&correct, &b.join("=SUM(A1)"));
    copy_tree(&correct, &b.join("shard.json"));
    b
}

/// Every file under `dir` (relative path -> bytes), shard.json left out.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
                if rel != "shard.json" {
                    out.insert(rel, std::fs::read(&p).unwrap());
                }
            }
        }
    }
    out
}

#[test]
fn four_shards_merge_to_the_reports_of_one_run() {
    let tmp = Scratch::new("shard");
    let a = assignment(tmp.path());
    let b = batch(tmp.path());
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let one = tmp.path().join("one");
    let (code, _, err) = hc11lab(&[
        "grade",
        "--assignment",
        a,
        b,
        "--out",
        one.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");

    let mut shard_dirs = Vec::new();
    let mut graded = 0;
    for k in 1..=4 {
        let out = tmp.path().join(format!("shard {k}"));
        let spec = format!("{k}/4");
        let (code, text, err) = hc11lab(&[
            "grade",
            "--assignment",
            a,
            b,
            "--shard",
            &spec,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, 0, "{err}");
        assert!(text.contains(&format!("shard {spec}: ")), "{text}");
        assert!(out.join("shard.json").is_file());
        let report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("report.json")).unwrap()).unwrap();
        graded += report["submissions"].as_array().unwrap().len();
        shard_dirs.push(out);
    }
    let whole: serde_json::Value =
        serde_json::from_slice(&std::fs::read(one.join("report.json")).unwrap()).unwrap();
    let total = whole["submissions"].as_array().unwrap().len();
    assert_eq!(graded, total, "every submission in exactly one shard");
    assert!(
        !whole["similarity"]["pairs"].as_array().unwrap().is_empty(),
        "the batch has similar pairs to merge"
    );

    let merged = tmp.path().join("merged");
    let mut args = vec!["grade", "merge"];
    let dirs: Vec<String> = shard_dirs
        .iter()
        .rev()
        .map(|d| d.to_string_lossy().into_owned())
        .collect();
    args.extend(dirs.iter().map(String::as_str));
    args.extend(["--out", merged.to_str().unwrap()]);
    let (code, text, err) = hc11lab(&args);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("merged 4 shard(s)"), "{text}");

    let (want, got) = (files(&one), files(&merged));
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        got.keys().collect::<Vec<_>>(),
        "the same report files"
    );
    for (name, bytes) in &want {
        assert!(
            got[name] == *bytes,
            "{name} differs between one run and the merged shards"
        );
    }

    // A shard missing, a shard given twice, a bad spec.
    let s = |i: usize| shard_dirs[i].to_str().unwrap().to_string();
    // --out one of the shards: refused, the shard left as it was (its
    // shard.json would go with the old reports).
    let before = std::fs::read(shard_dirs[0].join("shard.json")).unwrap();
    let (code, _, err) = hc11lab(&["grade", "merge", &s(0), &s(1), &s(2), &s(3), "--out", &s(0)]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("one of the shard folders"), "{err}");
    assert_eq!(
        std::fs::read(shard_dirs[0].join("shard.json")).unwrap(),
        before
    );
    let nowhere = tmp.path().join("not made");
    let (code, _, err) = hc11lab(&[
        "grade",
        "merge",
        &s(0),
        &s(1),
        "--out",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        !err.contains("writing"),
        "names the input, not a write: {err}"
    );
    assert!(!nowhere.exists(), "a refused merge makes no --out folder");
    let (code, _, err) = hc11lab(&["grade", "merge", &s(0), &s(1), &s(2)]);
    assert_eq!(code, 1);
    assert!(err.contains("missing"), "{err}");
    let (code, _, err) = hc11lab(&["grade", "merge", &s(0), &s(0), &s(1), &s(2)]);
    assert_eq!(code, 1);
    assert!(err.contains("twice"), "{err}");
    let (code, _, err) = hc11lab(&["grade", "merge", one.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(err.contains("shard.json"), "{err}");
    let (code, _, err) = hc11lab(&["grade", "--assignment", a, b, "--shard", "5/4"]);
    assert_eq!(code, 2);
    assert!(err.contains("K/N"), "{err}");
}

/// Runs hc11lab with exactly these job-array variables set (the others
/// removed, whatever the machine running the tests has).
fn hc11lab_in_array(args: &[&str], vars: &[(&str, &str)]) -> (i32, String, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hc11lab"));
    for v in [
        "JOB_COMPLETION_INDEX",
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_STEP",
    ] {
        cmd.env_remove(v);
    }
    cmd.envs(vars.iter().copied());
    let out = cmd.args(args).output().expect("run hc11lab");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A task of a job array: its variables, its extra arguments, and what
/// it should say.
type ArrayCase = (
    &'static [(&'static str, &'static str)],
    &'static [&'static str],
    &'static str,
);

/// `--shard auto/N` takes the task's index from Kubernetes'
/// `JOB_COMPLETION_INDEX`, from Slurm's `SLURM_ARRAY_TASK_ID` counted from
/// `SLURM_ARRAY_TASK_MIN`, or from `--shard-index` (a GitHub Actions
/// matrix's `strategy.job-index`); `{shard}` in `--out` names each task's
/// folder. No index, or one outside the array, is a usage error (exit 2)
/// and grades nothing.
#[test]
fn auto_shards_take_their_index_from_the_job_array() {
    let tmp = Scratch::new("shard-auto");
    let a = assignment(tmp.path());
    let b = tmp.path().join("batch");
    for name in ["anna", "ben", "cem", "dora"] {
        copy_tree(&root().join("tests/grade_corpus/correct"), &b.join(name));
    }
    let out = tmp.path().join("shards").join("{shard}");
    let (a, b, out) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    let args = |extra: &[&'static str]| {
        let mut v = vec![
            "grade",
            "--assignment",
            a,
            b,
            "--shard",
            "auto/3",
            "--out",
            out,
        ];
        v.extend_from_slice(extra);
        v
    };
    let cases: [ArrayCase; 4] = [
        (
            &[("JOB_COMPLETION_INDEX", "1")],
            &[],
            "shard 2/3 (index 1 from JOB_COMPLETION_INDEX)",
        ),
        (
            &[
                ("SLURM_ARRAY_TASK_ID", "12"),
                ("SLURM_ARRAY_TASK_MIN", "10"),
            ],
            &[],
            "shard 3/3 (index 2 from SLURM_ARRAY_TASK_ID 12 - SLURM_ARRAY_TASK_MIN 10)",
        ),
        (
            &[],
            &["--shard-index", "0"],
            "shard 1/3 (index 0 from --shard-index)",
        ),
        // The command line wins over the environment.
        (
            &[("JOB_COMPLETION_INDEX", "2")],
            &["--shard-index", "0"],
            "shard 1/3 (index 0 from --shard-index)",
        ),
    ];
    for (vars, extra, want) in cases {
        let (code, text, err) = hc11lab_in_array(&args(extra), vars);
        assert_eq!(code, 0, "{vars:?}: {err}");
        assert!(text.contains(want), "{vars:?}: {text}");
    }
    for k in 1..=3 {
        let dir = tmp.path().join("shards").join(k.to_string());
        assert!(dir.join("shard.json").is_file(), "{}", dir.display());
    }
    // The folder of the tasks' folders is enough for the merge.
    let merged = tmp.path().join("merged");
    let shards = tmp.path().join("shards");
    let (code, text, err) = hc11lab(&[
        "grade",
        "merge",
        shards.to_str().unwrap(),
        "--out",
        merged.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("merged 3 shard(s)"), "{text}");
    assert!(text.contains("graded 4 submission(s)"), "{text}");

    let refused: [ArrayCase; 5] = [
        (&[], &[], "no task index"),
        (&[("JOB_COMPLETION_INDEX", "3")], &[], "out of range"),
        (
            &[("JOB_COMPLETION_INDEX", "one")],
            &[],
            "not a whole number",
        ),
        (&[("SLURM_ARRAY_TASK_ID", "4")], &[], "SLURM_ARRAY_TASK_MIN"),
        (&[], &["--shard-index", "7"], "out of range"),
    ];
    for (vars, extra, want) in refused {
        let before = std::fs::read_dir(tmp.path().join("shards"))
            .unwrap()
            .count();
        let (code, text, err) = hc11lab_in_array(&args(extra), vars);
        assert_eq!(code, 2, "{vars:?} {extra:?}: {text}{err}");
        assert!(err.contains(want), "{vars:?}: {err}");
        let after = std::fs::read_dir(tmp.path().join("shards"))
            .unwrap()
            .count();
        assert_eq!(before, after, "nothing graded");
    }
    let (code, _, err) =
        hc11lab_in_array(&["grade", "--assignment", a, b, "--shard-index", "1"], &[]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("auto/N"), "{err}");
}

/// Merging the shards of a batch gives the reports one run gives, for
/// every N from 1 to 64 (most shards then hold one submission or none):
/// every report file byte for byte, similarity across shards included.
#[test]
fn merged_shards_equal_one_run_for_every_n_up_to_64() {
    use hc11lab::grade::batch::grade_paths_sharded;
    use hc11lab::grade::report::report_files;
    use hc11lab::grade::shard::{merge_shards, ShardOutput, ShardSpec};
    use hc11lab::grade::similarity::SimilarityOptions;
    use hc11lab::grade::{Assignment, Grader};

    let tmp = Scratch::new("shard-64");
    let a = Assignment::load(&assignment(tmp.path())).unwrap();
    let b = batch(tmp.path());
    // Identical programs are graded once: after the first run every
    // program's result is known and the shards only split and merge.
    let grader = Grader::new(a).unwrap();
    let sim = SimilarityOptions::default();
    let none = |_: usize, _: usize| {};
    let paths = [b];
    let one = grade_paths_sharded(&grader, &paths, Some(1), &sim, &none, None).unwrap();
    let want = report_files(&one.report).unwrap();
    assert!(one.report.submissions.len() >= 18);
    for n in 1..=64 {
        let mut shards = Vec::new();
        let mut graded = 0;
        for k in 1..=n {
            let spec = ShardSpec { index: k, count: n };
            let part =
                grade_paths_sharded(&grader, &paths, Some(1), &sim, &none, Some(spec)).unwrap();
            graded += part.report.submissions.len();
            let output = ShardOutput::new(
                spec,
                part.batch_size,
                part.report,
                part.sources,
                part.starter,
                sim,
            );
            // Through shard.json's text, as between machines.
            let output: ShardOutput = serde_json::from_str(&output.to_json().unwrap()).unwrap();
            shards.push((PathBuf::from(format!("shard {k}")), output));
        }
        assert_eq!(graded, one.report.submissions.len(), "N = {n}");
        shards.reverse();
        let merged = merge_shards(&shards).unwrap_or_else(|e| panic!("N = {n}: {e}"));
        let got = report_files(&merged).unwrap();
        assert_eq!(want.len(), got.len(), "N = {n}");
        for ((wn, wt), (gn, gt)) in want.iter().zip(&got) {
            assert_eq!(wn, gn, "N = {n}");
            assert!(
                wt == gt,
                "N = {n}: {wn} differs between one run and the merged shards"
            );
        }
    }
}
