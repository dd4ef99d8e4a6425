//! `dialect = "as11"` in assignment.toml and `grade --dialect`:
//! a tiny AS11 assignment (tests/data/dialect) whose reference and
//! submissions only assemble in that dialect.

use hc11lab::grade::result::SubmissionStatus;
use hc11lab::grade::{grade_batch, Assignment, GradeOptions};
use std::path::{Path, PathBuf};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/dialect")
}

#[test]
fn an_as11_assignment_grades_as11_submissions() {
    let a = Assignment::load(&data().join("assignment")).expect("assignment");
    assert_eq!(a.dialect, hc11lab::asm::Dialect::As11);
    let opts = GradeOptions::new(data().join("assignment"), vec![data().join("submissions")]);
    let report = grade_batch(&opts, &|_, _| {}).expect("graded");
    let score = |name: &str| {
        let s = report
            .submissions
            .iter()
            .find(|s| s.submission == name)
            .unwrap_or_else(|| panic!("no {name}"));
        assert_eq!(s.status, SubmissionStatus::Graded, "{name}: {:?}", s.checks);
        s.score
    };
    // Alice's `#6*7` is 42; Bob's `#2+4*5` is 30 read left to right (AS11).
    assert_eq!(score("alice"), 3.0);
    assert_eq!(score("bob"), 1.0);
}

#[test]
fn the_command_line_dialect_wins_over_the_file() {
    // Read as the course dialect, the AS11 reference does not assemble, and
    // the message says which dialect it looks like.
    let opts = GradeOptions {
        dialect: Some(hc11lab::asm::Dialect::Course),
        ..GradeOptions::new(data().join("assignment"), vec![data().join("submissions")])
    };
    let e = grade_batch(&opts, &|_, _| {}).expect_err("reference fails");
    let msg = e.to_string();
    assert!(msg.contains("does not assemble"), "{msg}");
    assert!(msg.contains("--dialect as11"), "{msg}");
    // The same through the command line.
    let report = std::env::temp_dir().join(format!("hc11lab-grade-dialect-{}", std::process::id()));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["grade", "--dialect", "course", "--assignment"])
        .arg(data().join("assignment"))
        .arg(data().join("submissions"))
        .arg("--out")
        .arg(&report)
        .output()
        .expect("run hc11lab");
    let _ = std::fs::remove_dir_all(&report);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--dialect as11"));
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["grade", "--dialect", "gnu", "--assignment", "x", "y"])
        .output()
        .expect("run hc11lab");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("use course, as11 or asm11"));
}

#[test]
fn an_unknown_dialect_in_assignment_toml_is_refused() {
    let toml = std::fs::read_to_string(data().join("assignment/assignment.toml"))
        .expect("read")
        .replace("dialect = \"as11\"", "dialect = \"gnu\"");
    let e = Assignment::from_toml(&toml, &data().join("assignment")).expect_err("refused");
    assert!(e.contains("gnu") && e.contains("as11"), "{e}");
    // Without the key, the course dialect.
    let toml = toml.replace("dialect = \"gnu\"\n", "");
    let a = Assignment::from_toml(&toml, &data().join("assignment")).expect("parsed");
    assert_eq!(a.dialect, hc11lab::asm::Dialect::Course);
}
