//! The base assignment as shipped (20 differential games): the bundled
//! firmware, its reference solution, scores full marks, and so does the
//! restyled-and-renamed rewrite from the corpus; grading is deterministic.

use hc11lab::grade::{Assignment, Grader, Submission};
use std::path::Path;

#[test]
fn firmware_and_restyled_score_full_marks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let assignment = Assignment::load(&root.join("lessons/viergewinnt")).expect("assignment loads");
    let mut grader = Grader::new(assignment).expect("reference prepares");
    grader.set_cache(false);
    let limits = &grader.assignment().limits;
    let firmware = Submission::load(&root.join("firmware"), limits).expect("firmware loads");
    let restyled =
        Submission::load(&root.join("tests/grade_corpus/restyled"), limits).expect("loads");
    let a = grader.grade(&firmware);
    let b = grader.grade(&restyled);
    for r in [&a, &b] {
        let failed: Vec<String> = r
            .checks
            .iter()
            .filter(|c| !c.passed)
            .map(|c| format!("{}: {}", c.name, c.output))
            .collect();
        assert_eq!(r.score, r.max_score, "{}: {failed:#?}", r.submission);
        assert_eq!(r.checks.len(), grader.assignment().checks.len());
    }
    assert_eq!(a.max_score, 50.0);
    // Same input, same report.
    assert_eq!(grader.grade(&restyled), b);
}
