//! E4 "computer opponent": the reference plays by its rules in random games
//! (checked against a model of them); the grading checks properties only
//! (wins when it can, blocks when it must, never an illegal move), so the
//! reference and a differently playing computer score full marks, while the
//! unmodified firmware and a computer that never blocks do not.

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
    let entry = solution("e4-computer").join("Viergewinnt.asm");
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
    let solution = solution("e4-computer");
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
            "the computer blocks a vertical three",
            "never into a full column",
            "random games: every answer is legal",
        ],
    );
    let games = r
        .checks
        .iter()
        .find(|c| c.name == "random games: every answer is legal")
        .unwrap();
    assert!(
        games.output.contains("player 2 should have as many"),
        "{}",
        describe(&r)
    );
}

/// The solution folder with another Computer.inc.
fn with_computer(name: &str, computer: &str) -> Scratch {
    let s = Scratch::new(name);
    s.copy_dir(&solution("e4-computer"))
        .write("Computer.inc", computer);
    s
}

#[test]
fn e4_a_different_correct_computer_scores_full_marks() {
    let (a, g) = grader("e4-computer");
    let right = std::fs::read_to_string(root().join("tests/data/e4/ComputerRight.inc")).unwrap();
    let s = with_computer("e4-right", &right);
    let r = grade(&a, &g, s.path());
    assert_full(&r);
    // It really plays differently: its first answer is not the reference's
    // (column 3 instead of on top of player 1's stone in column 4).
    let mut m = Session::boot(&s.path().join("Viergewinnt.asm"), 200_000);
    m.keys("drop");
    assert_eq!(
        m.symbol("board", 336)[296..304],
        [0xFF, 0x81, 0x99, 0xA5, 0xA5, 0x99, 0x81, 0xFF],
        "the variant answers in column 3"
    );
    assert_eq!(
        m.symbol("board", 336)[248..256],
        [0xFF, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xFF],
        "and not on top of column 4"
    );
}

#[test]
fn e4_a_computer_that_never_blocks_loses_points() {
    let (a, g) = grader("e4-computer");
    let solution = std::fs::read_to_string(solution("e4-computer").join("Computer.inc")).unwrap();
    let rule2 = "        ldaa    #1                          ; 2. Gewinn von Spieler 1 verhindern\n        jsr     findWinColumn\n        cmpa    #$FF\n        bne     chooseColumnEnd\n";
    assert!(
        solution.contains(rule2),
        "solution/Computer.inc changed shape"
    );
    let s = with_computer("e4-noblock", &solution.replace(rule2, ""));
    let r = grade(&a, &g, s.path());
    assert_fails(
        &r,
        &[
            "the computer blocks",
            "the computer blocks a vertical three",
            "the computer blocks a diagonal",
        ],
    );
    // It still plays legal moves and wins when it can.
    for name in [
        "the computer answers",
        "the computer wins when it can",
        "never into a full column",
        "random games: every answer is legal",
    ] {
        let c = r.checks.iter().find(|c| c.name == name).unwrap();
        assert!(c.passed, "{name} should pass:\n{}", describe(&r));
    }
}

/// The solution's Computer.inc with a silent pause of `loops` × 6 E-cycles
/// (`dex` 3 + `bne` 3) before the computer chooses its column.
fn with_pause(name: &str, loops: u16) -> Scratch {
    let src = std::fs::read_to_string(solution("e4-computer").join("Computer.inc")).unwrap();
    let marker = "        jsr     chooseColumn";
    assert!(src.contains(marker), "solution/Computer.inc changed shape");
    let slow = src.replacen(
        marker,
        &format!("        pshx\n        ldx     #{loops}\nthinkLonger\n        dex\n        bne     thinkLonger\n        pulx\n{marker}"),
        1,
    );
    with_computer(name, &slow)
}

#[test]
fn e4_the_50_ms_thinking_limit_is_checked() {
    let (a, g) = grader("e4-computer");
    // 30 ms of extra thinking (60,000 E-cycles) is within the limit ...
    let s = with_pause("e4-30ms", 10_000);
    assert_full(&grade(&a, &g, s.path()));
    // ... 60 ms (120,000 E-cycles) is not: the computer has not answered.
    let s = with_pause("e4-60ms", 20_000);
    let r = grade(&a, &g, s.path());
    let c = r
        .checks
        .iter()
        .find(|c| c.name == "the computer answers")
        .unwrap();
    assert!(!c.passed, "{}", describe(&r));
    assert!(c.output.contains("50 ms"), "{}", c.output);
}
