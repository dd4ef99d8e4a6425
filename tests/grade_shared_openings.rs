//! Random games that open with the same moves share them: a later game
//! continues from the machine an earlier one reached after those moves.
//! That may only change the speed: every submission of the corpus, right
//! or wrong in whichever game and move, gets the same result both ways.

use hc11lab::grade::assignment::CheckKind;
use hc11lab::grade::{Assignment, Grader, Submission};
use std::path::Path;

#[test]
fn shared_openings_change_no_result() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut assignment =
        Assignment::load(&root.join("lessons/viergewinnt")).expect("assignment loads");
    assignment
        .checks
        .retain(|c| matches!(c.kind, CheckKind::Assembles | CheckKind::Differential(_)));
    let mut shared = Grader::new(assignment.clone()).expect("reference prepares");
    let mut alone = Grader::new(assignment).expect("reference prepares");
    alone.set_shared_moves(false);
    for g in [&mut shared, &mut alone] {
        g.set_cache(false);
    }
    let mut differing = 0;
    for name in [
        "correct",
        "diagonal_off_by_one",
        "no_wraparound",
        "never_wins",
        "rom_variable",
    ] {
        let sub = Submission::load(
            &root.join("tests/grade_corpus").join(name),
            &shared.assignment().limits,
        )
        .expect("loads");
        let a = shared.grade(&sub);
        let b = alone.grade(&sub);
        assert_eq!(a, b, "{name}");
        differing += usize::from(a.score < a.max_score);
    }
    // Games that differ (at different moves) are among them.
    assert!(differing >= 3, "{differing} submissions lost points");
}
