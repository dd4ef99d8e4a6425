//! E2 "swapped pulls": the student hands in only the firmware; breakpoint
//! checks stop at createGrid and drawBoard, load A and B, run until the
//! routine returns and compare. The reference solution scores full marks,
//! the unmodified firmware does not, and a fix that pulls in the right order
//! but loses X does not either.

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
    assert!(
        !solution.join("BoardTest.asm").exists(),
        "the student no longer hands in a test bench"
    );
    assert_full(&grade(&a, &g, &solution));

    let r = grade(&a, &g, &firmware());
    assert_fails(&r, &["createGrid keeps A and B", "drawBoard keeps A and B"]);
    let c = r
        .checks
        .iter()
        .find(|c| c.name == "createGrid keeps A and B")
        .unwrap();
    assert!(
        c.output
            .contains("register a was $0012 at the breakpoint and is $0034"),
        "{}",
        describe(&r)
    );
    // What the flaw does not touch still passes on the original.
    for name in [
        "assembles",
        "createGrid keeps X, Y and SP",
        "drawBoard keeps X, Y and SP",
        "the other routines still keep their registers",
        "createGrid fills the buffer as before",
        "buffer unchanged",
        "LCD unchanged",
    ] {
        let c = r.checks.iter().find(|c| c.name == name).unwrap();
        assert!(
            c.passed,
            "{name} should pass on the original:\n{}",
            describe(&r)
        );
    }
}

#[test]
fn e2_unbalanced_fix_and_missing_label_are_named() {
    let (a, g) = grader("e2-pulls");
    let solution = lesson("e2-pulls").join("solution");
    let board = std::fs::read_to_string(solution.join("Board.inc")).unwrap();

    // Pulls in the right order, but drawBoard also pushes X and never pulls it.
    let marker = "drawBoard\n        psha\n        pshb\n";
    assert!(board.contains(marker), "solution/Board.inc changed shape");
    let leaky = board.replacen(
        marker,
        "drawBoard\n        pshx\n        psha\n        pshb\n",
        1,
    );
    let s = Scratch::new("e2-leaky");
    s.copy_dir(&solution).write("Board.inc", &leaky);
    let r = grade(&a, &g, s.path());
    assert_fails(
        &r,
        &["drawBoard keeps A and B", "drawBoard keeps X, Y and SP"],
    );

    // A renamed routine: the breakpoint cannot be placed, and the feedback says so.
    let renamed = board
        .replace("createGrid\n", "makeGrid\n")
        .replace("createGridLoop", "makeGridLoop");
    let caller = std::fs::read_to_string(solution.join("Viergewinnt.asm"))
        .unwrap()
        .replace("jsr     createGrid", "jsr     makeGrid");
    let s = Scratch::new("e2-renamed");
    s.copy_dir(&solution)
        .write("Board.inc", &renamed)
        .write("Viergewinnt.asm", &caller);
    let r = grade(&a, &g, s.path());
    let c = r
        .checks
        .iter()
        .find(|c| c.name == "createGrid keeps A and B")
        .unwrap();
    assert!(!c.passed);
    assert!(
        c.output.contains("no label `createGrid`"),
        "{}",
        describe(&r)
    );
}
