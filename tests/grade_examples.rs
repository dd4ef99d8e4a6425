//! The platform files shipped in `lessons/viergewinnt/` run as written:
//! the Kubernetes Indexed Job and its merge, the Slurm array script, the
//! GitHub Actions workflow, the PrairieLearn question (`prairielearn/`)
//! and Gradescope's `run_autograder`. Each is run here the way its
//! platform would run it, as far as that is possible without the
//! platform: the same arguments and environment variables, with the
//! container's paths moved into a temporary folder.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/exercise.rs"]
mod support;
use support::{copy_tree, Scratch};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn example(name: &str) -> String {
    std::fs::read_to_string(root().join("lessons/viergewinnt").join(name))
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Runs hc11lab with `args`, only `vars` of the job-array variables set.
fn run(args: &[String], vars: &[(&str, String)], cwd: &Path) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_hc11lab"));
    for v in [
        "JOB_COMPLETION_INDEX",
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_STEP",
    ] {
        cmd.env_remove(v);
    }
    let out = cmd
        .args(args)
        .envs(vars.iter().map(|(k, v)| (*k, v.as_str())))
        .current_dir(cwd)
        .output()
        .expect("run hc11lab");
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

/// A course folder as the examples expect it: `viergewinnt/` (the base
/// assignment trimmed to its start screen, so the test is quick) and
/// `submissions/` with five students.
fn course(dir: &Path) -> PathBuf {
    let c = dir.join("course");
    let text = example("assignment.toml");
    let head = text.split("\n[[check]]").next().unwrap();
    std::fs::create_dir_all(c.join("viergewinnt")).unwrap();
    std::fs::write(
        c.join("viergewinnt/assignment.toml"),
        format!(
            "{head}\n[[check]]\nname = \"start screen\"\nkind = \"scenario\"\npoints = 3\nkeys = \"\"\nexpect = [{{ lcd = \"reference\" }}]\n"
        ),
    )
    .unwrap();
    for (name, from) in [
        ("anna", "correct"),
        ("ben", "restyled"),
        ("cem", "never_wins"),
        ("dora", "does_not_assemble"),
        ("emil", "correct"),
    ] {
        copy_tree(
            &root().join("tests/grade_corpus").join(from),
            &c.join("submissions").join(name),
        );
    }
    c
}

/// The items of the YAML list under `key:` (`- item` lines, quotes removed).
fn yaml_list(text: &str, key: &str) -> Vec<String> {
    let mut lines = text.lines().skip_while(|l| l.trim() != format!("{key}:"));
    lines.next().expect(key);
    lines
        .map(str::trim)
        .take_while(|l| l.starts_with("- "))
        .map(|l| l[2..].trim_matches('"').to_string())
        .collect()
}

/// The number after `key:` in a YAML text.
fn yaml_number(text: &str, key: &str) -> usize {
    text.lines()
        .find_map(|l| l.trim().strip_prefix(&format!("{key}:")))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{key}"))
}

/// Every task of the Indexed Job (its args, its JOB_COMPLETION_INDEX),
/// then the merge Job: one report set of the whole batch.
#[test]
fn the_kubernetes_jobs_grade_and_merge() {
    let tmp = Scratch::new("example-k8s");
    let c = course(tmp.path());
    let job = example("grade-indexed-job.yaml");
    assert!(job.contains("completionMode: Indexed"));
    let n = yaml_number(&job, "completions");
    assert_eq!(n, yaml_number(&job, "parallelism"));
    let at = |args: Vec<String>| -> Vec<String> {
        assert_eq!(args[0], "hc11lab");
        args[1..]
            .iter()
            .map(|a| a.replace("/course", c.to_str().unwrap()))
            .collect()
    };
    let args = at(yaml_list(&job, "args"));
    assert!(args.contains(&format!("auto/{n}")), "{args:?}");
    for index in 0..n {
        let (code, out) = run(&args, &[("JOB_COMPLETION_INDEX", index.to_string())], &c);
        assert_eq!(code, 0, "task {index}: {out}");
        assert!(out.contains("from JOB_COMPLETION_INDEX"), "{out}");
    }
    // A pod that is no task of an Indexed Job grades nothing.
    let (code, out) = run(&args, &[], &c);
    assert_eq!(code, 2, "{out}");
    let merge = at(yaml_list(&example("grade-merge-job.yaml"), "args"));
    let (code, out) = run(&merge, &[], &c);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(&format!("merged {n} shard(s)")), "{out}");
    assert!(out.contains("graded 5 submission(s)"), "{out}");
    assert!(c.join("grade-report/grades.csv").is_file());
}

/// Every task of the Slurm array (its `--array` range as
/// SLURM_ARRAY_TASK_ID/MIN), then the merge its comment gives.
#[test]
fn the_slurm_array_grades_and_merges() {
    let tmp = Scratch::new("example-slurm");
    let c = course(tmp.path());
    let script = example("grade-array.sbatch");
    let range = script
        .lines()
        .find_map(|l| l.strip_prefix("#SBATCH --array="))
        .expect("--array");
    let (lo, hi) = range.split_once('-').unwrap();
    let (lo, hi): (usize, usize) = (lo.parse().unwrap(), hi.parse().unwrap());
    let line = script
        .lines()
        .find_map(|l| l.strip_prefix("exec hc11lab "))
        .expect("exec hc11lab");
    let args: Vec<String> = line
        .split_whitespace()
        .map(|a| a.trim_matches('"').to_string())
        .collect();
    assert!(args.contains(&format!("auto/{}", hi - lo + 1)), "{args:?}");
    for id in lo..=hi {
        let vars = [
            ("SLURM_ARRAY_TASK_ID", id.to_string()),
            ("SLURM_ARRAY_TASK_MIN", lo.to_string()),
        ];
        let (code, out) = run(&args, &vars, &c);
        assert_eq!(code, 0, "task {id}: {out}");
    }
    let merge = script
        .lines()
        .find_map(|l| l.split_once("--wrap \"hc11lab ").map(|(_, m)| m))
        .expect("the merge in the comment")
        .trim_end_matches('"');
    let merge: Vec<String> = merge.split_whitespace().map(String::from).collect();
    let (code, out) = run(&merge, &[], &c);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("graded 5 submission(s)"), "{out}");
}

/// The workflow's shard step for every runner of its matrix (the
/// expressions replaced by what Actions puts there), then its merge step
/// over the downloaded artifacts.
#[test]
fn the_actions_workflow_grades_and_merges() {
    let tmp = Scratch::new("example-actions");
    let c = course(tmp.path());
    let yml = example("grade-sharded.yml");
    let matrix = yml
        .lines()
        .find_map(|l| l.trim().strip_prefix("shard: ["))
        .expect("matrix");
    let total = matrix.trim_end_matches(']').split(',').count();
    let step = yml
        .lines()
        .find_map(|l| l.trim().strip_prefix("- run: hc11lab grade --assignment"))
        .expect("the shard step");
    for index in 0..total {
        let line = step
            .replace("${{ strategy.job-total }}", &total.to_string())
            .replace("${{ strategy.job-index }}", &index.to_string());
        let mut args = vec!["grade".to_string(), "--assignment".to_string()];
        args.extend(
            line.split_whitespace()
                .map(|a| a.trim_matches('"').to_string()),
        );
        let (code, out) = run(&args, &[], &c);
        assert_eq!(code, 0, "runner {index}: {out}");
        assert!(
            out.contains(&format!("shard {}/{total}", index + 1)),
            "{out}"
        );
    }
    let merge = yml
        .lines()
        .find_map(|l| l.trim().strip_prefix("- run: hc11lab grade merge"))
        .expect("the merge step");
    let mut args = vec!["grade".to_string(), "merge".to_string()];
    args.extend(merge.split_whitespace().map(String::from));
    let (code, out) = run(&args, &[], &c);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("graded 5 submission(s)"), "{out}");
}

/// The PrairieLearn question's `info.json` uses only the documented
/// `externalGradingOptions`, and its entrypoint, run on a `/grade` tree
/// as the external grader builds it, grades the submission.
#[test]
fn the_prairielearn_question_grades() {
    let info: Value =
        serde_json::from_str(&example("prairielearn/info.json")).expect("info.json parses");
    assert_eq!(info["gradingMethod"], "External");
    assert_eq!(info["type"], "v3");
    let opts = info["externalGradingOptions"].as_object().unwrap();
    let known = [
        "enabled",
        "image",
        "entrypoint",
        "serverFilesCourse",
        "timeout",
        "enableNetworking",
        "environment",
    ];
    for k in opts.keys() {
        assert!(known.contains(&k.as_str()), "unknown option {k}");
    }
    assert_eq!(opts["enabled"], true);
    assert!(opts["image"].is_string());
    let timeout = opts["timeout"].as_u64().unwrap();
    assert!(timeout > 0 && timeout <= 600);
    let shared: Vec<&str> = opts["serverFilesCourse"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let entry: Vec<&str> = opts["entrypoint"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    // The binary and the assignment come with the course's shared files.
    for path in [entry[0], entry[entry.len() - 1]] {
        let rest = path.strip_prefix("/grade/serverFilesCourse/").expect(path);
        assert!(shared.iter().any(|s| rest.starts_with(s)), "{path}");
    }
    let html = example("prairielearn/question.html");
    assert!(html.contains("<pl-external-grader-results>"));
    assert!(html.contains("file-names=\"Viergewinnt.asm\""));

    let tmp = Scratch::new("example-pl");
    let grade = tmp.path().join("grade");
    copy_tree(
        &root().join("tests/grade_corpus/restyled"),
        &grade.join("student"),
    );
    std::fs::create_dir_all(grade.join("data")).unwrap();
    std::fs::write(grade.join("data/data.json"), "{}").unwrap();
    let mut args: Vec<String> = entry[1..]
        .iter()
        .map(|a| {
            a.replace(
                "/grade/serverFilesCourse/hc11lab/viergewinnt",
                root().join("lessons/viergewinnt").to_str().unwrap(),
            )
        })
        .collect();
    args.extend([
        "--platform-root".into(),
        tmp.path().to_string_lossy().into_owned(),
    ]);
    let (code, out) = run(&args, &[], tmp.path());
    assert_eq!(code, 0, "{out}");
    let v: Value =
        serde_json::from_slice(&std::fs::read(grade.join("results/results.json")).unwrap())
            .unwrap();
    assert_eq!(v["gradable"], true);
    assert_eq!(v["score"], 1.0, "{v}");
}

/// `run_autograder` as Gradescope runs it (hc11lab on the PATH), with the
/// layout moved into a folder: the results file is where Gradescope reads it.
#[test]
fn run_autograder_writes_gradescope_results() {
    let tmp = Scratch::new("example-gs");
    copy_tree(
        &root().join("tests/grade_corpus/never_wins"),
        &tmp.path().join("autograder/submission"),
    );
    let bin = Path::new(env!("CARGO_BIN_EXE_hc11lab")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let out = Command::new("bash")
        .arg(root().join("lessons/viergewinnt/run_autograder"))
        .env("PATH", path)
        .env("HC11LAB_PLATFORM_ROOT", tmp.path())
        .env("HC11LAB_ASSIGNMENT", root().join("lessons/viergewinnt"))
        .output()
        .expect("bash");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(
        &std::fs::read(tmp.path().join("autograder/results/results.json")).unwrap(),
    )
    .unwrap();
    let score = v["score"].as_f64().unwrap();
    assert!(score > 0.0 && score < 50.0, "{v}");
    assert_eq!(v["tests"].as_array().unwrap().len(), 14);
    // setup.sh prepares the reference the script's grading reads.
    let setup = example("setup.sh");
    assert!(setup.contains("hc11lab grade --prepare --assignment \"$ASSIGNMENT\""));
}
