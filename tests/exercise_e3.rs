//! E3 "mark the winning line": the reference solution marks exactly the
//! cells a model of the rules finds, scores full marks, and the unmodified
//! firmware does not.

#[path = "support/exercise.rs"]
mod support;

use support::*;

/// The scenario checks that end with a win, and how many cells are marked.
const WINS: [(&str, usize); 6] = [
    ("horizontal four marked", 4),
    ("five in a row marked", 5),
    ("vertical four of player 2 marked", 4),
    ("diagonal / marked", 4),
    ("diagonal \\ marked", 4),
    ("two lines at once", 7),
];

#[test]
fn e3_reference_marks_what_the_model_marks() {
    let a = hc11lab::grade::Assignment::load(&lesson("e3-winline")).unwrap();
    let entry = solution("e3-winline").join("Viergewinnt.asm");
    for (check, marked) in WINS {
        let keys = keys_of(&a, check);
        let mut model = Connect4::new();
        model.play(&keys);
        assert!(
            model.winner.is_some(),
            "{check}: the keys must end in a win"
        );
        let cells = model.winning_cells();
        assert_eq!(cells.len(), marked, "{check}: cells {cells:?}");
        let m = run_keys(&entry, &keys);
        assert_eq!(
            peek_symbol(&m, "board", 336),
            model.buffer_marked(&cells),
            "{check}: the reference's buffer is not the model's marked board"
        );
    }
}

#[test]
fn e3_solution_full_marks_original_fails() {
    let (a, g) = grader("e3-winline");
    let solution = solution("e3-winline");
    assert_same_as_firmware(
        &solution,
        &[
            "Input.inc",
            "Cursor.inc",
            "LCDutils.inc",
            "Utils.inc",
            "Trainer11Register.inc",
        ],
    );
    assert_full(&grade(&a, &g, &solution));
    let r = grade(&a, &g, &firmware());
    let names: Vec<&str> = WINS.iter().map(|w| w.0).collect();
    assert_fails(&r, &names);
}
