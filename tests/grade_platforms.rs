//! `hc11lab grade --platform prairielearn|gradescope`: fake `/grade` and
//! `/autograder` trees under a temporary root (`--platform-root`), with a
//! full-marks, a partial, a non-assembling and hostile submissions (a zip
//! bomb, a symbolic link out of the folder): each `results.json` with the
//! platform's fields, the right scores, never over 1 MB; and the prepared
//! reference (`grade --prepare`) giving the same results as none.

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/exercise.rs"]
mod support;
use support::{copy_tree, Scratch};

/// PrairieLearn's and ours: a results file never exceeds this.
const ONE_MB: u64 = 1_000_000;

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

/// The base assignment trimmed to four checks (one of each kind that
/// matters here) so every run takes a moment: assembles (2), the start
/// screen (3, an LCD check), player 1 wins vertically (3) and three random
/// games against the reference (12).
fn assignment(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(root().join("lessons/viergewinnt/assignment.toml")).unwrap();
    let mut out = String::new();
    for block in text.split("\n[[check]]") {
        if out.is_empty() {
            out.push_str(block);
            continue;
        }
        let keep = [
            "\"assembles\"",
            "\"start screen\"",
            "\"player 1 wins vertically\"",
        ]
        .iter()
        .any(|n| block.contains(&format!("name = {n}")))
            || block.contains("kind = \"differential\"");
        if keep {
            out.push_str("\n[[check]]");
            out.push_str(&block.replace("games = 20", "games = 3"));
        }
    }
    let a = dir.join("assignment");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::write(a.join("assignment.toml"), out).unwrap();
    a
}

/// A platform's tree under `root` with `fill` putting the student's files
/// into its submission folder.
fn tree(root: &Path, student: &str, fill: impl FnOnce(&Path)) {
    let dir = root.join(student);
    std::fs::create_dir_all(&dir).unwrap();
    fill(&dir);
}

/// Grades the tree under `root` for `platform`; the exit status, stdout
/// and the results file (parsed) with its size.
fn grade(platform: &str, root: &Path, assignment: &Path) -> (i32, String, Value, u64) {
    let (code, out, err) = hc11lab(&[
        "grade",
        "--platform",
        platform,
        "--platform-root",
        root.to_str().unwrap(),
        "--assignment",
        assignment.to_str().unwrap(),
    ]);
    let results = match platform {
        "prairielearn" => root.join("grade/results/results.json"),
        _ => root.join("autograder/results/results.json"),
    };
    let text = std::fs::read_to_string(&results)
        .unwrap_or_else(|e| panic!("{}: {e}\nstdout: {out}\nstderr: {err}", results.display()));
    let size = text.len() as u64;
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    (code, format!("{out}{err}"), v, size)
}

/// The submissions, each as a function filling a submission folder.
fn corpus(name: &str) -> Box<dyn Fn(&Path)> {
    let from = |sub: &'static str| -> Box<dyn Fn(&Path)> {
        Box::new(move |d: &Path| copy_tree(&root().join("tests/grade_corpus").join(sub), d))
    };
    match name {
        "full" => from("correct"),
        "partial" => from("never_wins"),
        "broken" => from("does_not_assemble"),
        "zip bomb" => Box::new(|d: &Path| {
            // 64 MB of one byte in a zip of about 64 KB, alone in the folder:
            // the platform's upload, read in memory and refused at the limit.
            let f = std::fs::File::create(d.join("submission.zip")).unwrap();
            let mut z = zip::ZipWriter::new(f);
            let opts = zip::write::SimpleFileOptions::default()
                .compression_method(zip::CompressionMethod::Deflated);
            z.start_file("Viergewinnt.asm", opts).unwrap();
            let chunk = vec![b';'; 1 << 20];
            for _ in 0..64 {
                z.write_all(&chunk).unwrap();
            }
            z.finish().unwrap();
        }),
        "link out" => Box::new(|d: &Path| {
            copy_tree(&root().join("tests/grade_corpus/correct"), d);
            // The entry file and an include are links to files outside.
            let outside = d.parent().unwrap().parent().unwrap().join("outside");
            std::fs::create_dir_all(&outside).unwrap();
            std::fs::write(outside.join("secret.asm"), "SECRET-OUTSIDE-TEXT\n").unwrap();
            std::fs::remove_file(d.join("Viergewinnt.asm")).unwrap();
            std::os::unix::fs::symlink(outside.join("secret.asm"), d.join("Viergewinnt.asm"))
                .unwrap();
            std::os::unix::fs::symlink(outside.join("secret.asm"), d.join("Extra.inc")).unwrap();
        }),
        other => panic!("no submission {other}"),
    }
}

const STUDENTS: [&str; 5] = ["full", "partial", "broken", "zip bomb", "link out"];

#[test]
fn prairielearn_results_for_every_kind_of_submission() {
    let tmp = Scratch::new("platform-pl");
    let a = assignment(tmp.path());
    for who in STUDENTS {
        let r = tmp.path().join(who).join("root");
        tree(&r, "grade/student", |d| corpus(who)(d));
        // The course's files and the question's data are there as on the platform.
        std::fs::create_dir_all(r.join("grade/serverFilesCourse")).unwrap();
        std::fs::create_dir_all(r.join("grade/data")).unwrap();
        std::fs::write(r.join("grade/data/data.json"), "{\"params\": {}}").unwrap();
        let (code, out, v, size) = grade("prairielearn", &r, &a);
        assert_eq!(code, 0, "{who}: {out}");
        assert!(size <= ONE_MB, "{who}: {size} bytes");
        let text = v.to_string();
        assert!(!text.contains("SECRET-OUTSIDE-TEXT"), "{who}: {text}");
        let tests = v["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 4, "{who}: {v}");
        for t in tests {
            for field in ["name", "description", "message", "output"] {
                assert!(t[field].is_string(), "{who}: test {field}: {t}");
            }
            for field in ["points", "max_points"] {
                assert!(t[field].is_number(), "{who}: test {field}: {t}");
            }
        }
        assert!(
            v["message"].is_string() && v["output"].is_string(),
            "{who}: {v}"
        );
        assert!(v["images"].is_array(), "{who}: {v}");
        match who {
            "full" => {
                assert_eq!(v["gradable"], true, "{v}");
                assert_eq!(v["score"], 1.0, "{v}");
                assert!(v.get("format_errors").is_none());
                assert_eq!(v["images"].as_array().unwrap().len(), 0);
                assert!(out.contains("20 of 20 points"), "{out}");
            }
            "partial" => {
                assert_eq!(v["gradable"], true, "{v}");
                let score = v["score"].as_f64().unwrap();
                assert!(score > 0.0 && score < 1.0, "{v}");
                let points: f64 = tests.iter().map(|t| t["points"].as_f64().unwrap()).sum();
                assert!((score - points / 20.0).abs() < 1e-9, "{v}");
                // The failed LCD checks show the student's LCD and the expected one.
                let images = v["images"].as_array().unwrap();
                assert!(!images.is_empty() && images.len() % 2 == 0, "{v}");
                for i in images {
                    assert!(i["label"].is_string());
                    assert!(
                        i["url"]
                            .as_str()
                            .unwrap()
                            .starts_with("data:image/png;base64,"),
                        "{i}"
                    );
                }
                assert!(images[0]["label"].as_str().unwrap().ends_with("your LCD"));
                assert!(images[1]["label"].as_str().unwrap().ends_with("expected"));
            }
            "broken" => {
                assert_eq!(v["gradable"], false, "{v}");
                assert!(v.get("score").is_none(), "no score when not gradable: {v}");
                let errors = v["format_errors"].as_array().unwrap();
                assert!(!errors.is_empty());
                for e in errors {
                    let e = e.as_str().unwrap();
                    let mut parts = e.splitn(3, ':');
                    let (file, line) = (parts.next().unwrap(), parts.next().unwrap());
                    assert!(file.ends_with(".asm") || file.ends_with(".inc"), "{e}");
                    assert!(line.parse::<u32>().is_ok(), "file:line: message: {e}");
                    assert!(parts.next().is_some_and(|m| !m.trim().is_empty()), "{e}");
                }
                assert!(out.contains("not gradable"), "{out}");
            }
            "zip bomb" => {
                assert_eq!(v["gradable"], false, "{v}");
                let e = v["format_errors"][0].as_str().unwrap();
                assert!(e.contains("Viergewinnt.asm") && e.contains("bytes"), "{e}");
                assert!(size < 20_000, "a refusal is short: {size}");
            }
            "link out" => {
                // The links are not followed: no entry file, said so.
                assert_eq!(v["gradable"], false, "{v}");
                let e = v["format_errors"][0].as_str().unwrap();
                assert!(e.contains("Viergewinnt.asm"), "{e}");
            }
            _ => unreachable!(),
        }
    }
}

#[test]
fn gradescope_results_for_every_kind_of_submission() {
    let tmp = Scratch::new("platform-gs");
    let a = assignment(tmp.path());
    for who in STUDENTS {
        let r = tmp.path().join(who).join("root");
        tree(&r, "autograder/submission", |d| corpus(who)(d));
        let (code, out, v, size) = grade("gradescope", &r, &a);
        assert_eq!(code, 0, "{who}: {out}");
        assert!(size <= ONE_MB, "{who}: {size} bytes");
        assert!(!v.to_string().contains("SECRET-OUTSIDE-TEXT"), "{who}");
        assert_eq!(v["output_format"], "md");
        assert_eq!(v["visibility"], "visible");
        assert_eq!(v["stdout_visibility"], "hidden");
        assert!(v["execution_time"].is_u64(), "{v}");
        assert!(v["output"].is_string());
        let tests = v["tests"].as_array().unwrap();
        assert_eq!(tests.len(), 4, "{who}: {v}");
        for (i, t) in tests.iter().enumerate() {
            assert_eq!(t["number"], (i + 1).to_string());
            for field in ["name", "output", "visibility", "status"] {
                assert!(t[field].is_string(), "{who}: {field}: {t}");
            }
            assert!(t["score"].is_number() && t["max_score"].is_number());
            let passed = t["status"] == "passed";
            assert_eq!(passed, t["score"] == t["max_score"], "{who}: {t}");
            assert_eq!(t["tags"].as_array().unwrap().len(), 1, "{t}");
        }
        assert_eq!(tests[0]["tags"][0], "assembles");
        assert_eq!(tests[3]["tags"][0], "differential");
        // The random games show after the due date, as assignment.toml says.
        assert_eq!(tests[3]["visibility"], "after_due_date");
        let sum: f64 = tests.iter().map(|t| t["score"].as_f64().unwrap()).sum();
        assert!((v["score"].as_f64().unwrap() - sum).abs() < 1e-9, "{v}");
        let output = v["output"].as_str().unwrap();
        match who {
            "full" => assert_eq!(v["score"], 20.0, "{v}"),
            "partial" => {
                let s = v["score"].as_f64().unwrap();
                assert!(s > 0.0 && s < 20.0, "{v}");
            }
            "broken" => {
                assert_eq!(v["score"], 0.0);
                assert!(tests[0]["output"]
                    .as_str()
                    .unwrap()
                    .contains("does not assemble"));
            }
            "zip bomb" | "link out" => {
                assert_eq!(v["score"], 0.0);
                assert!(output.contains("could not be graded"), "{output}");
            }
            _ => unreachable!(),
        }
        if who == "link out" {
            assert!(output.contains("symbolic link"), "{output}");
        }
    }
}

/// A course whose assignment cannot be read still writes a results file
/// (not gradable on PrairieLearn: the student is not charged), exit 1.
#[test]
fn a_broken_course_still_writes_results() {
    let tmp = Scratch::new("platform-course");
    let r = tmp.path().join("root");
    tree(&r, "grade/student", |d| corpus("full")(d));
    let missing = tmp.path().join("no assignment");
    let (code, _, v, _) = grade("prairielearn", &r, &missing);
    assert_eq!(code, 1);
    assert_eq!(v["gradable"], false);
    assert!(v["message"].as_str().unwrap().contains("not set up"), "{v}");
    tree(&r, "autograder/submission", |d| corpus("full")(d));
    let (code, _, v, _) = grade("gradescope", &r, &missing);
    assert_eq!(code, 1);
    assert_eq!(v["score"], 0.0);
    // --platform takes no submission paths: a usage error.
    let (code, _, err) = hc11lab(&[
        "grade",
        "--platform",
        "prairielearn",
        "--assignment",
        "x",
        "somewhere",
    ]);
    assert_eq!(code, 2, "{err}");
}

/// `grade --prepare` writes the reference's runs beside assignment.toml;
/// a later grading reads them instead of running the reference and writes
/// the same results. A record made for another assignment.toml, or a
/// damaged one, is not used (a note says why) and changes nothing.
#[test]
fn a_prepared_reference_gives_the_same_results() {
    let tmp = Scratch::new("platform-prepared");
    let a = assignment(tmp.path());
    let r = tmp.path().join("root");
    tree(&r, "grade/student", |d| corpus("partial")(d));
    let (_, out, plain, _) = grade("prairielearn", &r, &a);
    assert!(!out.contains("note:"), "{out}");

    let (code, text, err) = hc11lab(&["grade", "--prepare", "--assignment", a.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("reference.prepared"), "{text}");
    let record = a.join("reference.prepared");
    assert!(record.is_file());
    let (code, out, prepared, _) = grade("prairielearn", &r, &a);
    assert_eq!(code, 0);
    assert!(!out.contains("note:"), "the record was used: {out}");
    assert_eq!(plain, prepared);

    // Damaged: ignored with a note, the same results.
    let mut bytes = std::fs::read(&record).unwrap();
    let n = bytes.len();
    bytes.truncate(n / 2);
    std::fs::write(&record, &bytes).unwrap();
    let (_, out, damaged, _) = grade("prairielearn", &r, &a);
    assert!(out.contains("reference.prepared was not used"), "{out}");
    assert_eq!(plain, damaged);

    // Another assignment.toml (a check worth more): ignored, and graded by
    // the new one.
    let (code, _, _) = hc11lab(&["grade", "--prepare", "--assignment", a.to_str().unwrap()]);
    assert_eq!(code, 0);
    let toml = std::fs::read_to_string(a.join("assignment.toml")).unwrap();
    std::fs::write(
        a.join("assignment.toml"),
        toml.replacen("points = 3", "points = 4", 1),
    )
    .unwrap();
    let (_, out, changed, _) = grade("prairielearn", &r, &a);
    assert!(out.contains("another assignment.toml"), "{out}");
    assert_eq!(changed["tests"][1]["max_points"], 4.0, "{changed}");
}

/// Without the platform's folder (`/grade`, `/autograder`) under the root
/// this is no grading container: a usage error, and nothing is written.
/// With it but no submission folder, the results say which folder is
/// missing.
#[test]
fn outside_the_container_nothing_is_written() {
    let tmp = Scratch::new("platform-outside");
    let a = assignment(tmp.path());
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    for (platform, home) in [("prairielearn", "grade"), ("gradescope", "autograder")] {
        let (code, _, err) = hc11lab(&[
            "grade",
            "--platform",
            platform,
            "--platform-root",
            empty.to_str().unwrap(),
            "--assignment",
            a.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("--platform-root ROOT"), "{err}");
        assert!(err.contains(home), "{err}");
        assert_eq!(std::fs::read_dir(&empty).unwrap().count(), 0);

        let r = tmp.path().join(platform);
        std::fs::create_dir_all(r.join(home)).unwrap();
        let (code, out, v, _) = grade(platform, &r, &a);
        assert_eq!(code, 0, "{out}");
        let text = v.to_string();
        let missing = match platform {
            "prairielearn" => {
                assert_eq!(v["gradable"], false, "{v}");
                "grade/student does not exist"
            }
            _ => {
                assert_eq!(v["score"], 0.0, "{v}");
                "autograder/submission does not exist"
            }
        };
        assert!(text.contains(missing), "{text}");
    }
}
