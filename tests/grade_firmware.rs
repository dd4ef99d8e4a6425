//! The bundled firmware is the reference solution of the base assignment:
//! graded against itself it must score full marks, deterministically.

use hc11lab::grade::engine::Grader;
use hc11lab::grade::{Assignment, Submission};
use std::path::Path;

#[test]
fn firmware_scores_full_marks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let assignment = Assignment::load(&root.join("lessons/viergewinnt")).expect("assignment loads");
    let t = std::time::Instant::now();
    let grader = Grader::new(assignment).expect("reference prepares");
    eprintln!("prepare: {:?}", t.elapsed());
    let sub = Submission::load(&root.join("firmware"), &grader.assignment().limits)
        .expect("firmware loads");
    let t = std::time::Instant::now();
    let result = grader.grade(&sub);
    eprintln!("grade: {:?}", t.elapsed());
    for c in &result.checks {
        eprintln!("{} {}/{}: {}", c.name, c.score, c.max_score, c.output);
    }
    assert_eq!(result.score, result.max_score, "{result:#?}");
}
