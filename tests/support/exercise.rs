//! Shared helpers of the exercise tests (`tests/exercise_*.rs`): grade a
//! folder with an exercise's `assignment.toml`, and build throw-away
//! submission folders (the unmodified firmware plus extra files).

#![allow(dead_code)]

use hc11lab::grade::engine::Grader;
use hc11lab::grade::{Assignment, Submission, SubmissionResult};
use std::path::{Path, PathBuf};

/// The crate's root folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder of exercise `id` (`lessons/<id>`).
pub fn lesson(id: &str) -> PathBuf {
    root().join("lessons").join(id)
}

/// The bundled firmware (the starter code of E1-E4).
pub fn firmware() -> PathBuf {
    root().join("firmware")
}

/// Loads an exercise's assignment and prepares its grader (runs the reference).
pub fn grader(id: &str) -> (Assignment, Grader) {
    let a = Assignment::load(&lesson(id))
        .unwrap_or_else(|e| panic!("{id}: assignment.toml does not load: {e}"));
    let g = Grader::new(a.clone())
        .unwrap_or_else(|e| panic!("{id}: the reference solution does not grade: {e}"));
    (a, g)
}

/// Grades one submission folder.
pub fn grade(a: &Assignment, g: &Grader, folder: &Path) -> SubmissionResult {
    let sub = Submission::load(folder, &a.limits)
        .unwrap_or_else(|e| panic!("{}: not a submission: {e}", folder.display()));
    g.grade(&sub)
}

/// A readable account of a result, for assertion messages.
pub fn describe(r: &SubmissionResult) -> String {
    let mut s = format!("{}: {} / {}\n", r.submission, r.score, r.max_score);
    for c in &r.checks {
        s.push_str(&format!(
            "  [{}] {} {}/{}: {}\n",
            if c.passed { "ok" } else { "FAIL" },
            c.name,
            c.score,
            c.max_score,
            c.output.replace('\n', "\n      ")
        ));
    }
    s
}

/// Asserts full marks.
pub fn assert_full(r: &SubmissionResult) {
    assert!(
        r.score == r.max_score && r.checks.iter().all(|c| c.passed),
        "expected full marks:\n{}",
        describe(r)
    );
}

/// Asserts that the named checks fail and the score is below the maximum.
pub fn assert_fails(r: &SubmissionResult, failing: &[&str]) {
    assert!(r.score < r.max_score, "expected less than full marks:\n{}", describe(r));
    for name in failing {
        let c = r
            .checks
            .iter()
            .find(|c| c.name == *name)
            .unwrap_or_else(|| panic!("no check named {name:?}:\n{}", describe(r)));
        assert!(!c.passed, "check {name:?} should fail:\n{}", describe(r));
    }
}

/// A folder under the system's temp folder, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A new empty folder, unique per process and name.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hc11lab-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp folder");
        Scratch(dir)
    }

    /// Copies every file of `from` (not recursive) into the folder.
    pub fn copy_dir(&self, from: &Path) -> &Scratch {
        for e in std::fs::read_dir(from).expect("readable folder").flatten() {
            let p = e.path();
            if p.is_file() {
                std::fs::copy(&p, self.0.join(e.file_name())).expect("copy");
            }
        }
        self
    }

    /// Writes one file.
    pub fn write(&self, name: &str, text: &str) -> &Scratch {
        std::fs::write(self.0.join(name), text).expect("write");
        self
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
