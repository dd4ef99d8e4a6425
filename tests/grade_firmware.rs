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

/// The firmware with one pull missing at the end of `drawBoard`: its `rts`
/// takes a pushed byte for half of its return address, the CPU runs into
/// the variables and stops at a write into program memory during start-up.
/// The feedback names that `rts` and what it took, first, as the likely
/// cause, and `run` says the same.
#[test]
fn a_missing_pull_is_named_by_the_rts_it_breaks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::temp_dir().join(format!("hc11lab-nopull-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(root.join("firmware")).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
        }
    }
    let board = std::fs::read_to_string(dir.join("Board.inc")).unwrap();
    let end = "        pula\n        pulb\n\n        rts";
    assert_eq!(board.matches(end).count(), 1, "drawBoard's end");
    std::fs::write(
        dir.join("Board.inc"),
        board.replacen(end, "        pula\n\n        rts", 1),
    )
    .unwrap();
    let want = "`rts` at $C219 in drawBoardLoop+16 (Board.inc:172) returned there: it took $00C5 from the stack at $3FFA";
    // The grader says it first, as the likely cause, then what followed
    // (not the advice for a variable in ROM: the writer is no code of the
    // program).
    let cause = "`rts` at $C219 in drawBoardLoop+16 (Board.inc:172) returned to $00C5: it took $00C5 from the stack at $3FFA";

    let assignment = Assignment::load(&root.join("lessons/viergewinnt")).expect("assignment loads");
    let grader = Grader::new(assignment).expect("reference prepares");
    let sub = Submission::load(&dir, &grader.assignment().limits).expect("loads");
    let r = grader.grade(&sub);
    let outputs: Vec<&str> = r.checks.iter().map(|c| c.output.as_str()).collect();
    assert!(
        outputs.iter().any(|o| o.contains(&format!(": {cause}"))
            && o.contains(". Then an instruction at ")
            && o.contains("outside the program, wrote into program memory")
            && o.find(cause) < o.find("Then an instruction")
            && !o.contains("variables belong in RAM")),
        "{outputs:#?}"
    );

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_hc11lab"))
        .args(["run", "--keys", "drop"])
        .arg(dir.join("Viergewinnt.asm"))
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(want), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
