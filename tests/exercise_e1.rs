//! E1 "draw": the key scripts of the assignment are what they claim (checked
//! with a model of the rules), the reference solution scores full marks and
//! the unmodified firmware does not.

#[path = "support/exercise.rs"]
mod support;

use support::*;

#[test]
fn e1_scripts_are_a_draw_and_a_last_stone_win() {
    let a = hc11lab::grade::Assignment::load(&lesson("e1-draw")).unwrap();
    let mut g = Connect4::new();
    g.play(&keys_of(&a, "draw detected"));
    assert_eq!(g.stones, 42, "the draw script must fill the board");
    assert_eq!(g.winner, None, "the draw script must not contain a four");
    assert_eq!(
        g.player, 1,
        "after 42 stones without a winner player 1 would be next"
    );

    let mut g = Connect4::new();
    g.play(&keys_of(&a, "no draw before the board is full"));
    assert_eq!((g.stones, g.winner), (41, None));

    let mut g = Connect4::new();
    let keys = keys_of(&a, "a four with the last stone is a win");
    let mut stones_before_win = None;
    for k in keys.split(',') {
        g.play(k);
        if g.winner.is_some() && stones_before_win.is_none() {
            stones_before_win = Some(g.stones);
        }
    }
    assert_eq!(
        stones_before_win,
        Some(42),
        "the four must come with the 42nd stone"
    );
    assert_eq!(g.winner, Some(2));
}

#[test]
fn e1_solution_full_marks_original_fails() {
    let (a, g) = grader("e1-draw");
    let solution = solution("e1-draw");
    assert_same_as_firmware(
        &solution,
        &[
            "Board.inc",
            "Cursor.inc",
            "Utils.inc",
            "Trainer11Register.inc",
        ],
    );
    let r = grade(&a, &g, &solution);
    assert_full(&r);
    let r = grade(&a, &g, &firmware());
    assert_fails(
        &r,
        &["draw detected", "draw shown", "keys locked after a draw"],
    );
    let same = r
        .checks
        .iter()
        .find(|c| c.name == "the game is unchanged otherwise")
        .unwrap();
    assert!(
        same.passed,
        "random games must play the same on the original:\n{}",
        describe(&r)
    );
}

/// Grades `subs` (plus the unchanged firmware) as a batch and returns the
/// similar pairs by folder name; identical submissions form a group, listed
/// here as pairs of the group's first with each other one (shared 0).
fn similar_pairs(subs: &[&Scratch]) -> Vec<(String, String, usize)> {
    let mut paths: Vec<std::path::PathBuf> = subs.iter().map(|s| s.path().to_path_buf()).collect();
    paths.push(firmware());
    let mut opts = hc11lab::grade::GradeOptions::new(lesson("e1-draw"), paths);
    opts.jobs = Some(1);
    let report = hc11lab::grade::grade_batch(&opts, &|_, _| {}).unwrap();
    let mut pairs: Vec<(String, String, usize)> = report
        .similarity
        .pairs
        .iter()
        .map(|p| (p.a.clone(), p.b.clone(), p.shared))
        .collect();
    for group in &report.similarity.identical {
        for other in group.iter().skip(1) {
            pairs.push((group[0].clone(), other.clone(), 0));
        }
    }
    pairs
}

fn name(s: &Scratch) -> String {
    s.path().file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn two_identical_e1_solutions_are_flagged_as_similar() {
    // The starter code left out of the comparison is the firmware (shipped
    // beside the reference image), not the reference solution: identical
    // solutions share their own code and are flagged.
    let a = Scratch::new("e1-sim-a");
    a.copy_dir(&solution("e1-draw"));
    let b = Scratch::new("e1-sim-b");
    b.copy_dir(&solution("e1-draw"));
    let pairs = similar_pairs(&[&a, &b]);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(
        (pairs[0].0.clone(), pairs[0].1.clone()),
        (name(&a), name(&b))
    );

    // A small change (one short routine, fewer fingerprints than the
    // default minimum of shared ones) copied verbatim is flagged too: the
    // minimum scales with the program's own fingerprints.
    let routine = "\nextraRoutine\n        psha\n        pshb\n        ldaa    coordx\n        ldab    coordy\n        aba\n        staa    xoffset\n        ldaa    player\n        eora    #3\n        staa    yoffset\n        clra\n        tab\n        pulb\n        pula\n        rts\n";
    let logic = std::fs::read_to_string(firmware().join("Logic.inc")).unwrap();
    let c = Scratch::new("e1-sim-c");
    c.copy_dir(&firmware())
        .write("Logic.inc", &format!("{logic}{routine}"));
    // A comment of its own keeps d from being an identical copy of c, so
    // the pair is found by its shared fingerprints.
    let d = Scratch::new("e1-sim-d");
    d.copy_dir(&firmware())
        .write("Logic.inc", &format!("; mine\n{logic}{routine}"));
    let pairs = similar_pairs(&[&c, &d]);
    assert_eq!(pairs.len(), 1, "{pairs:?}");
    assert_eq!(
        (pairs[0].0.clone(), pairs[0].1.clone()),
        (name(&c), name(&d))
    );
    let min = hc11lab::grade::similarity::SimilarityOptions::default().min_shared;
    assert!(pairs[0].2 < min, "{pairs:?}: not a small program");
}

/// The solution with one file's text replaced (`from` must occur once).
fn mutant(tag: &str, file: &str, from: &str, to: &str) -> Scratch {
    let s = Scratch::new(tag);
    s.copy_dir(&solution("e1-draw"));
    let text = std::fs::read_to_string(solution("e1-draw").join(file)).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{from:?} once in {file}");
    s.write(file, &text.replacen(from, to, 1));
    s
}

fn check<'a>(
    r: &'a hc11lab::grade::SubmissionResult,
    name: &str,
) -> &'a hc11lab::grade::CheckResult {
    r.checks
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no check {name:?}:\n{}", describe(r)))
}

#[test]
fn a_wrong_draw_message_fails_only_draw_shown_and_unlocked_keys_fail_the_lock() {
    let (a, g) = grader("e1-draw");
    // The message one page lower: the screen is wrong, the lock is right.
    let low = mutant(
        "e1-draw-low",
        "LCDutils.inc",
        "ldaa    #6              ; Zeile 6",
        "ldaa    #7              ; Zeile 6",
    );
    let r = grade(&a, &g, low.path());
    assert!(!check(&r, "draw shown").passed, "{}", describe(&r));
    assert!(
        check(&r, "keys locked after a draw").passed,
        "{}",
        describe(&r)
    );
    // No lock after a draw: the cursor keys move the cursor.
    let open = mutant("e1-draw-open", "Input.inc", "        tst     drawFlag                        ; E1: ebenso bei Unentschieden\n        bne     readInputEnd\n", "");
    let r = grade(&a, &g, open.path());
    let locked = check(&r, "keys locked after a draw");
    assert!(!locked.passed, "{}", describe(&r));
    assert!(
        locked.output.contains("the last 5 key(s) changed"),
        "{}",
        locked.output
    );
    assert!(check(&r, "draw shown").passed, "{}", describe(&r));
}
