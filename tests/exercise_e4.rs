//! E4 "computer opponent": random games against the reference solution,
//! checked move by move against a model of the three rules of the task (so
//! the computer wins when it can, blocks when it must and never drops into a
//! full column); the reference scores full marks, the unmodified firmware
//! does not.

#[path = "support/exercise.rs"]
mod support;

use support::*;

/// The computer's column by the rules of the task, for player 2 on turn.
fn rule_column(g: &Connect4) -> Option<usize> {
    for p in [2u8, 1] {
        for c in 0..7 {
            if g.heights[c] < 6 {
                let mut t = g.clone();
                t.player = p;
                t.drop_in(c);
                if t.winner == Some(p) {
                    return Some(c);
                }
            }
        }
    }
    [3, 2, 4, 1, 5, 0, 6]
        .into_iter()
        .find(|&c| g.heights[c] < 6)
}

#[test]
fn e4_reference_follows_the_rules_in_random_games() {
    let entry = lesson("e4-computer")
        .join("solution")
        .join("Viergewinnt.asm");
    let fresh = Session::boot(&entry, 200_000);
    let mut rng = Lcg(2026);
    let (mut won_by_computer, mut blocks, mut moves) = (0, 0, 0);
    for game in 0..6 {
        let mut s = fresh.clone();
        let mut g = Connect4::new();
        while g.winner.is_none() && g.stones < 42 {
            let open: Vec<usize> = (0..7).filter(|&c| g.heights[c] < 6).collect();
            let c = open[rng.below(open.len())];
            let keys = g.keys_to_drop(c).join(",");
            if g.winner.is_none() && g.stones < 42 {
                let threat_before = {
                    let mut t = g.clone();
                    t.player = 1;
                    (0..7).any(|c| {
                        let mut u = t.clone();
                        u.drop_in(c) && u.winner == Some(1)
                    })
                };
                let ai = rule_column(&g).expect("a free column while player 2 is on turn");
                assert!(g.heights[ai] < 6);
                g.drop_in(ai);
                if threat_before && g.winner.is_none() {
                    blocks += 1;
                }
            }
            s.keys(&keys);
            moves += 1;
            assert_eq!(
                s.symbol("board", 336),
                g.buffer(),
                "game {game}, after keys {keys}: the board differs from the rules' move"
            );
            let won = u8::from(g.winner.is_some());
            assert_eq!(s.symbol("playerWonFlag", 1), [won], "game {game}");
            if g.winner.is_none() {
                assert_eq!(s.symbol("player", 1), [1], "game {game}: player 1 on turn");
            }
        }
        if g.winner == Some(2) {
            won_by_computer += 1;
        }
    }
    // The games exercised the rules, not only the default move.
    assert!(moves > 30, "{moves} moves");
    assert!(won_by_computer > 0, "the computer never won");
    assert!(blocks > 0, "the computer never had to block");
}

#[test]
fn e4_solution_full_marks_original_fails() {
    let (a, g) = grader("e4-computer");
    let solution = lesson("e4-computer").join("solution");
    assert_same_as_firmware(
        &solution,
        &[
            "Board.inc",
            "Cursor.inc",
            "LCDutils.inc",
            "Utils.inc",
            "Trainer11Register.inc",
        ],
    );
    assert_full(&grade(&a, &g, &solution));
    let r = grade(&a, &g, &firmware());
    assert_fails(
        &r,
        &[
            "the computer answers",
            "the computer wins when it can",
            "the computer blocks",
            "never into a full column",
            "random games against the computer",
        ],
    );
}
