//! E6 "Othello": the expected output of the assignment is what a move
//! finder written in Rust computes from Positions.inc; the reference
//! solution scores full marks, the starter program and a solution that
//! forgets a direction do not.

#[path = "support/exercise.rs"]
mod support;

use hc11lab::grade::assignment::{Assertion, SerialExpected};
use hc11lab::grade::CheckKind;
use support::*;

/// One test position: `board[row][col]` 0 empty, 1 black, 2 white; the side to move.
struct Position {
    board: [[u8; 8]; 8],
    black_to_move: bool,
}

/// The numbers of every `dc.b` line of Positions.inc, in order.
fn dc_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split(';').next().unwrap_or_default();
        let mut words = code.split_whitespace();
        let Some(pos) = words.clone().position(|w| w.eq_ignore_ascii_case("dc.b")) else {
            continue;
        };
        let operands: String = words.by_ref().skip(pos + 1).collect();
        for v in operands.split(',') {
            let v = v.trim();
            let n = match v.strip_prefix('$') {
                Some(h) => i64::from_str_radix(h, 16),
                None => v.parse::<i64>(),
            }
            .unwrap_or_else(|_| panic!("not a number: {v:?} in {line:?}"));
            out.push(n as u8);
        }
    }
    out
}

/// Unpacks the positions: count, then 16 board bytes and the colour per position.
fn positions(text: &str) -> Vec<Position> {
    let bytes = dc_bytes(text);
    let count = usize::from(bytes[0]);
    assert_eq!(
        bytes.len(),
        1 + 17 * count,
        "Positions.inc: 1 + 17 bytes per position"
    );
    bytes[1..]
        .chunks(17)
        .map(|p| {
            let mut board = [[0u8; 8]; 8];
            for (row, cells) in board.iter_mut().enumerate() {
                for (col, cell) in cells.iter_mut().enumerate() {
                    let byte = p[2 * row + col / 4];
                    let bit = col % 4;
                    if byte & (1 << bit) != 0 {
                        *cell = if byte & (1 << (bit + 4)) != 0 { 1 } else { 2 };
                    }
                }
            }
            Position {
                board,
                black_to_move: p[16] == 1,
            }
        })
        .collect()
}

/// The legal moves as the task prints them (`C4 D3 ...` or `PASS`).
fn legal_moves(p: &Position) -> String {
    let (me, opp) = if p.black_to_move { (1, 2) } else { (2, 1) };
    let mut moves = Vec::new();
    for r in 0..8i32 {
        for c in 0..8i32 {
            if p.board[r as usize][c as usize] != 0 {
                continue;
            }
            let legal = (-1..=1)
                .flat_map(|dr| (-1..=1).map(move |dc| (dr, dc)))
                .filter(|&d| d != (0, 0))
                .any(|(dr, dc)| {
                    let (mut rr, mut cc, mut n) = (r + dr, c + dc, 0);
                    while (0..8).contains(&rr)
                        && (0..8).contains(&cc)
                        && p.board[rr as usize][cc as usize] == opp
                    {
                        rr += dr;
                        cc += dc;
                        n += 1;
                    }
                    n > 0
                        && (0..8).contains(&rr)
                        && (0..8).contains(&cc)
                        && p.board[rr as usize][cc as usize] == me
                });
            if legal {
                moves.push(format!("{}{}", (b'A' + r as u8) as char, c + 1));
            }
        }
    }
    if moves.is_empty() {
        "PASS".into()
    } else {
        moves.join(" ")
    }
}

#[test]
fn e6_expected_output_is_the_rust_move_finder_s() {
    let dir = lesson("e6-othello");
    let text = std::fs::read_to_string(solution("e6-othello").join("Positions.inc")).unwrap();
    let starter = std::fs::read_to_string(dir.join("starter").join("Positions.inc")).unwrap();
    assert_eq!(
        text, starter,
        "starter and solution must have the same Positions.inc"
    );
    let ps = positions(&text);
    assert!(ps.len() >= 8);
    let lines: Vec<String> = ps.iter().map(legal_moves).collect();
    assert_eq!(lines[0], "C4 D3 E6 F5", "the opening position (seed 002)");
    assert!(
        lines.iter().any(|l| l == "PASS"),
        "a position without a move"
    );
    let full: String = lines.iter().map(|l| format!("{l}\r\n")).collect();

    let a = hc11lab::grade::Assignment::load(&dir).unwrap();
    let mut positions_checked = 0;
    for c in &a.checks {
        let CheckKind::Scenario(s) = &c.kind else {
            continue;
        };
        for e in &s.expect {
            match e {
                Assertion::Serial(SerialExpected::Equals(t)) => assert_eq!(t, &full, "{}", c.name),
                Assertion::Serial(SerialExpected::Regex(r)) => {
                    let n: usize = c.name.trim_start_matches("position ").parse().unwrap();
                    let line = &lines[n - 1];
                    // A trailing space is tolerated per position (it costs
                    // only the exact-output check), nothing else is.
                    assert!(
                        r.as_str().contains(&format!("{line} *\\r\\n")),
                        "{}: {r}",
                        c.name
                    );
                    let mut spaced = lines.clone();
                    spaced[n - 1] = format!("{line} ");
                    let spaced: String = spaced.iter().map(|l| format!("{l}\r\n")).collect();
                    assert!(
                        r.is_match(&spaced),
                        "{}: a trailing space fails {r}",
                        c.name
                    );
                    assert!(r.is_match(&full), "{}: {r}", c.name);
                    // The regex pins the line: the output with that line changed fails.
                    let mut other = lines.clone();
                    other[n - 1] = format!("{line} A1");
                    let wrong: String = other.iter().map(|l| format!("{l}\r\n")).collect();
                    assert!(!r.is_match(&wrong), "{}: {r} does not pin line {n}", c.name);
                    positions_checked += 1;
                }
                _ => {}
            }
        }
    }
    assert_eq!(positions_checked, ps.len(), "one check per position");
}

#[test]
fn e6_solution_full_marks_starter_and_mutant_fail() {
    let (a, g) = grader("e6-othello");
    let solution = solution("e6-othello");
    for dir in [solution.clone(), lesson("e6-othello").join("starter")] {
        assert_same_as_firmware(&dir, &["Utils.inc", "Trainer11Register.inc"]);
    }
    assert_full(&grade(&a, &g, &solution));
    let r = grade(&a, &g, &lesson("e6-othello").join("starter"));
    assert_fails(&r, &["position 1", "nothing else on the terminal"]);

    // A finder that forgets the direction "down right" misses some moves only.
    let mutant = Scratch::new("e6-mutant");
    mutant.copy_dir(&solution);
    let src = std::fs::read_to_string(solution.join("Othello.asm")).unwrap();
    let broken = src.replace("dc.b    1,-1,1,0,1,1", "dc.b    1,-1,1,0,0,0");
    assert_ne!(src, broken);
    mutant.write("Othello.asm", &broken);
    let r = grade(&a, &g, mutant.path());
    assert_fails(
        &r,
        &["position 3", "position 8", "nothing else on the terminal"],
    );
    let passed = r
        .checks
        .iter()
        .filter(|c| c.name.starts_with("position") && c.passed)
        .count();
    assert!(
        passed >= 3,
        "most positions should still pass:\n{}",
        describe(&r)
    );
}

#[test]
fn e6_positions_always_come_from_the_course() {
    let (a, g) = grader("e6-othello");
    let solution = solution("e6-othello");
    let positions = std::fs::read_to_string(solution.join("Positions.inc")).unwrap();
    let count = "positionCount   dc.b    10";
    assert!(positions.contains(count), "Positions.inc changed shape");
    // A student who trims the test data to the one position the program gets right.
    let s = Scratch::new("e6-own-positions");
    s.copy_dir(&solution).write(
        "Positions.inc",
        &positions.replace(count, "positionCount   dc.b    1"),
    );
    let r = grade(&a, &g, s.path());
    assert_full(&r);
    assert!(
        r.notes
            .iter()
            .any(|n| n.contains("Positions.inc")
                && n.contains("the course's Positions.inc was used")),
        "the feedback says the student's copy was replaced: {:?}",
        r.notes
    );
    // An unchanged copy is no news.
    let r = grade(&a, &g, &solution);
    assert!(
        r.notes.iter().all(|n| !n.contains("Positions.inc")),
        "{:?}",
        r.notes
    );
}
