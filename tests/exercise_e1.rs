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
