//! `hc11lab grade --lang de` and `lang = "de"` in assignment.toml: the
//! German names and advice of `feedback.de.toml` and the grader's
//! sentences in German reach every report a student reads (report.json,
//! results.json, report.html, junit.xml, grades.csv) and Gradescope's
//! results; `--lang en` overrides the assignment's `lang`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("hc11lab-grade-lang-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            copy_dir(&p, &to.join(p.file_name().unwrap()));
        } else {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

fn grade(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .arg("grade")
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn feedback_reaches_every_report_in_the_language_asked_for() {
    let dir = scratch("batch");
    // E2: the unchanged firmware (pulls still swapped) loses points.
    copy_dir(&root().join("firmware"), &dir.join("batch/anna"));
    let out = dir.join("out");
    let assignment = root().join("lessons/e2-pulls");
    grade(&[
        "--assignment",
        assignment.to_str().unwrap(),
        dir.join("batch").to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--lang",
        "de",
        "--jobs",
        "1",
    ]);
    let report = std::fs::read_to_string(out.join("report.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&report).unwrap();
    let names: Vec<&str> = v["check_names"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    assert!(names.contains(&"createGrid erhält A und B"), "{names:?}");
    let checks = v["submissions"][0]["checks"].as_array().unwrap();
    let failed = checks
        .iter()
        .find(|c| c["name"] == "createGrid erhält A und B")
        .expect("the German name");
    let output = failed["output"].as_str().unwrap();
    assert!(
        output.contains("Register") && !output.contains("after keys") && !output.contains(" was "),
        "{output}"
    );
    // Passed checks say so in German too.
    for c in checks {
        let output = c["output"].as_str().unwrap();
        for english in ["passed", "assembles without errors", "after keys", " the "] {
            assert!(!output.contains(english), "{english:?} in {output}");
        }
    }
    let results = std::fs::read_to_string(out.join("anna/results.json")).unwrap();
    assert!(results.contains("createGrid erhält A und B"), "{results}");
    for file in ["report.html", "junit.xml", "grades.csv"] {
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        assert!(
            text.contains("createGrid erhält A und B"),
            "{file}:\n{text}"
        );
    }

    // `lang = "de"` in assignment.toml: Gradescope's results in German;
    // `--lang en` goes back to English.
    let course = dir.join("course/e2-pulls");
    copy_dir(&assignment, &course);
    let toml = std::fs::read_to_string(course.join("assignment.toml")).unwrap();
    std::fs::write(
        course.join("assignment.toml"),
        toml.replacen("[assignment]\n", "[assignment]\nlang = \"de\"\n", 1),
    )
    .unwrap();
    let results = dir.join("gs/results.json");
    let sub = dir.join("batch/anna");
    grade(&[
        "--gradescope",
        "--assignment",
        course.to_str().unwrap(),
        sub.to_str().unwrap(),
        results.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&results).unwrap();
    assert!(text.contains("createGrid erhält A und B"), "{text}");
    grade(&[
        "--gradescope",
        "--assignment",
        course.to_str().unwrap(),
        sub.to_str().unwrap(),
        results.to_str().unwrap(),
        "--lang",
        "en",
    ]);
    let text = std::fs::read_to_string(&results).unwrap();
    assert!(text.contains("createGrid keeps A and B"), "{text}");
    // Without `lang` the reports stay English.
    let out2 = dir.join("out2");
    grade(&[
        "--assignment",
        assignment.to_str().unwrap(),
        dir.join("batch").to_str().unwrap(),
        "--out",
        out2.to_str().unwrap(),
        "--jobs",
        "1",
    ]);
    let report = std::fs::read_to_string(out2.join("report.json")).unwrap();
    assert!(report.contains("createGrid keeps A and B"), "{report}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_unknown_language_is_bad_usage() {
    let out = Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args([
            "grade",
            "--assignment",
            "lessons/e2-pulls",
            "x",
            "--lang",
            "fr",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown language `fr`"));
    // And in assignment.toml: an error naming the key.
    let dir = scratch("bad");
    copy_dir(&root().join("lessons/e2-pulls"), &dir);
    let toml = std::fs::read_to_string(dir.join("assignment.toml")).unwrap();
    std::fs::write(
        dir.join("assignment.toml"),
        toml.replacen("[assignment]\n", "[assignment]\nlang = \"fr\"\n", 1),
    )
    .unwrap();
    let e = hc11lab::grade::Assignment::load(&dir)
        .unwrap_err()
        .to_string();
    assert!(e.contains("fr") && e.contains("lang"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Gradescope's `results.json` in German frames its points and a
/// rejection in German too ("5 von 20 Punkten", not "5 of 20 points"), in
/// a batch's `<submission>/results.json` and with `--gradescope`; English
/// keeps "points".
#[test]
fn gradescope_notes_and_rejections_are_framed_in_the_language() {
    let dir = scratch("framing");
    // E1 on the unchanged firmware: it has no `drawFlag` (a note).
    copy_dir(&root().join("firmware"), &dir.join("batch/anna"));
    // A folder with no source at all is rejected.
    std::fs::create_dir_all(dir.join("batch/ben")).unwrap();
    std::fs::write(dir.join("batch/ben/notes.txt"), "nothing here\n").unwrap();
    let assignment = root().join("lessons/e1-draw");
    let batch = |out: &Path, lang: &str| {
        grade(&[
            "--assignment",
            assignment.to_str().unwrap(),
            dir.join("batch").to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--lang",
            lang,
            "--jobs",
            "1",
        ]);
    };
    let output = |file: &Path| -> String {
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
        v["output"].as_str().unwrap().to_string()
    };
    batch(&dir.join("de"), "de");
    let anna = output(&dir.join("de/anna/results.json"));
    let german_points =
        |s: &str| s.starts_with("**") && s.contains(" von ") && s.contains(" Punkten**");
    assert!(german_points(&anna) && anna.contains("drawFlag"), "{anna}");
    assert!(!anna.contains("points"), "{anna}");
    let ben = output(&dir.join("de/ben/results.json"));
    assert!(
        ben.starts_with("**Deine Abgabe konnte nicht bewertet werden:** "),
        "{ben}"
    );
    batch(&dir.join("en"), "en");
    let anna = output(&dir.join("en/anna/results.json"));
    assert!(
        anna.starts_with("**") && anna.contains(" points**"),
        "{anna}"
    );
    let ben = output(&dir.join("en/ben/results.json"));
    assert!(
        ben.starts_with("**Your submission could not be graded:** "),
        "{ben}"
    );

    let results = dir.join("gs/results.json");
    grade(&[
        "--gradescope",
        "--assignment",
        assignment.to_str().unwrap(),
        dir.join("batch/anna").to_str().unwrap(),
        results.to_str().unwrap(),
        "--lang",
        "de",
    ]);
    let anna = output(&results);
    assert!(german_points(&anna), "{anna}");
    let _ = std::fs::remove_dir_all(&dir);
}
