//! E2 "swapped pulls": the reference solution scores full marks, the
//! unmodified firmware (with the test bench) does not.

#[path = "support/exercise.rs"]
mod support;

use support::*;

#[test]
fn e2_solution_full_marks_original_fails() {
    let (a, g) = grader("e2-pulls");
    let solution = lesson("e2-pulls").join("solution");
    assert_same_as_firmware(
        &solution,
        &[
            "Viergewinnt.asm",
            "Cursor.inc",
            "Input.inc",
            "Logic.inc",
            "LCDutils.inc",
            "Utils.inc",
            "Debug.inc",
            "Trainer11Register.inc",
        ],
    );
    assert_full(&grade(&a, &g, &solution));

    // The bench handed out with the task is the one in the solution.
    let bench = std::fs::read_to_string(lesson("e2-pulls").join("BoardTest.asm")).unwrap();
    let bench_ref = std::fs::read_to_string(solution.join("BoardTest.asm")).unwrap();
    assert_eq!(
        bench, bench_ref,
        "lessons/e2-pulls/BoardTest.asm and solution/BoardTest.asm differ"
    );

    let original = Scratch::new("e2-original");
    original
        .copy_dir(&firmware())
        .write("BoardTest.asm", &bench);
    let r = grade(&a, &g, original.path());
    assert_fails(
        &r,
        &[
            "createGrid keeps A and B",
            "drawBoard keeps A and B",
            "test bench report",
        ],
    );
    // What the flaw does not touch still passes on the original.
    for name in [
        "assembles",
        "buffer unchanged",
        "LCD unchanged",
        "the other routines still keep A and B",
    ] {
        let c = r.checks.iter().find(|c| c.name == name).unwrap();
        assert!(
            c.passed,
            "{name} should pass on the original:\n{}",
            describe(&r)
        );
    }
}
