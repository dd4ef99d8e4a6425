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
    let solution = solution("e2-pulls");
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
    let solution = solution("e2-pulls");
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

/// A breakpoint check on the firmware without a reference: hit counts and
/// conditions as the debugger takes them, and plain feedback when the
/// breakpoint is never reached.
#[test]
fn breakpoint_checks_count_hits_and_say_when_they_never_stop() {
    use hc11lab::grade::engine::Grader;
    use hc11lab::grade::Assignment;
    let toml = r#"
[assignment]
id = "bp"
title = "breakpoint checks"
entry = "Viergewinnt.asm"

[limits]
max_cycles = 3000000

[[check]]
name = "42nd cell"
kind = "breakpoint"
points = 1
keys = "drop"
at = "drawCell:42"
expect = [{ symbol = "cellAddress:2", equals = 328 }, { register = "pc", equals = 0xC17A }]

[[check]]
name = "condition never holds"
kind = "breakpoint"
points = 1
keys = "drop"
at = "drawCell if [cellAddress].w == 999"
expect = [{ register = "a", equals = 0 }]

[[check]]
name = "never called"
kind = "breakpoint"
points = 1
at = "createGrid"
expect = [{ register = "a", equals = 0 }]

[[check]]
name = "main loop"
kind = "breakpoint"
points = 1
at = "mainLoop"
expect = [{ register = "sp", equals = 0x3FFF }]

[[check]]
name = "flag at the stop"
kind = "breakpoint"
points = 1
keys = "drop"
at = "drawBoard"
finish = true
expect = [{ flag = "z", equals = 1 }, { flag = "c", equals = 0 }]
"#;
    let a = Assignment::from_toml(toml, &firmware()).unwrap();
    let pc = hc11lab::firmware::program()
        .unwrap()
        .symbol("drawCell")
        .unwrap()
        .value;
    assert_eq!(pc, 0xC17A, "the check above names drawCell's address");
    let g = Grader::new(a.clone()).unwrap();
    let r = grade(&a, &g, &firmware());
    let by = |n: &str| r.checks.iter().find(|c| c.name == n).unwrap();
    assert!(by("42nd cell").passed, "{}", describe(&r));
    assert!(by("flag at the stop").passed, "{}", describe(&r));
    assert!(by("main loop").passed, "{}", describe(&r));
    let c = by("condition never holds");
    assert!(!c.passed);
    assert!(
        c.output
            .contains("never stopped at the breakpoint `drawCell if [cellAddress].w == 999`")
            && c.output
                .contains("got there 42 time(s), the condition held 0 time(s)"),
        "{}",
        c.output
    );
    let c = by("never called");
    assert!(!c.passed);
    assert!(
        c.output
            .contains("after the start within 3000000 E-cycles: it never got there"),
        "{}",
        c.output
    );
}
