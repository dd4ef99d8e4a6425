//! E7 "checkers": the expected output of the assignment is what a move
//! generator written in Rust computes from Positions.inc (men only, forward
//! moves and captures, forced capture, multi-jumps); the reference solution
//! scores full marks, the starter and solutions that forget the forced
//! capture or stop after one jump do not.

#[path = "support/exercise.rs"]
mod support;

use hc11lab::grade::assignment::{Assertion, SerialExpected};
use hc11lab::grade::CheckKind;
use support::*;

/// One test position: `board[row][col]` (row 0 = row 8 at the top), 0 empty,
/// 1 white, 2 black; the side to move (1 white, 2 black).
struct Position {
    board: [[u8; 8]; 8],
    side: u8,
}

/// The numbers of every `dc.b` line of Positions.inc, in order.
fn dc_bytes(text: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split(';').next().unwrap_or_default();
        let words: Vec<&str> = code.split_whitespace().collect();
        let Some(pos) = words.iter().position(|w| w.eq_ignore_ascii_case("dc.b")) else {
            continue;
        };
        for v in words[pos + 1..].concat().split(',') {
            let v = v.trim();
            let n = match v.strip_prefix('$') {
                Some(h) => u8::from_str_radix(h, 16),
                None => v.parse(),
            };
            out.push(n.unwrap_or_else(|_| panic!("Positions.inc: `{v}` is not a byte")));
        }
    }
    out
}

fn positions(text: &str) -> Vec<Position> {
    let bytes = dc_bytes(text);
    let count = usize::from(bytes[0]);
    assert_eq!(
        bytes.len(),
        1 + 9 * count,
        "Positions.inc: 1 + 9 bytes per position"
    );
    bytes[1..]
        .chunks(9)
        .map(|p| {
            let mut board = [[0u8; 8]; 8];
            for (row, cells) in board.iter_mut().enumerate() {
                for k in 0..4 {
                    // Dark squares: row + column odd (a1 is dark).
                    let col = 2 * k + (row + 1) % 2;
                    cells[col] = (p[row] >> (2 * k)) & 3;
                }
            }
            Position { board, side: p[8] }
        })
        .collect()
}

fn at(p: &Position, r: i32, c: i32) -> Option<u8> {
    ((0..8).contains(&r) && (0..8).contains(&c) && (r + c) % 2 == 1)
        .then(|| p.board[r as usize][c as usize])
}

fn name(r: i32, c: i32) -> String {
    format!("{}{}", (b'a' + c as u8) as char, 8 - r)
}

/// The legal moves as the task prints them, and whether they are captures.
fn legal_moves(p: &Position) -> (String, bool) {
    let (own, enemy) = (p.side, 3 - p.side);
    let fwd = if p.side == 1 { -1 } else { 1 };
    fn jumps(p: &Position, fwd: i32, enemy: u8, path: &mut Vec<(i32, i32)>, out: &mut Vec<String>) {
        let (r, c) = *path.last().unwrap();
        let mut went_on = false;
        for dc in [-1, 1] {
            if at(p, r + fwd, c + dc) == Some(enemy) && at(p, r + 2 * fwd, c + 2 * dc) == Some(0) {
                went_on = true;
                path.push((r + 2 * fwd, c + 2 * dc));
                jumps(p, fwd, enemy, path, out);
                path.pop();
            }
        }
        if !went_on && path.len() > 1 {
            out.push(
                path.iter()
                    .map(|&(r, c)| name(r, c))
                    .collect::<Vec<_>>()
                    .join("x"),
            );
        }
    }
    let mut captures = Vec::new();
    let mut simple = Vec::new();
    for r in 0..8 {
        for c in 0..8 {
            if at(p, r, c) != Some(own) {
                continue;
            }
            jumps(p, fwd, enemy, &mut vec![(r, c)], &mut captures);
            for dc in [-1, 1] {
                if at(p, r + fwd, c + dc) == Some(0) {
                    simple.push(format!("{}-{}", name(r, c), name(r + fwd, c + dc)));
                }
            }
        }
    }
    match (captures.is_empty(), simple.is_empty()) {
        (false, _) => (captures.join(" "), true),
        (true, false) => (simple.join(" "), false),
        (true, true) => ("NONE".into(), false),
    }
}

#[test]
fn e7_expected_output_is_the_rust_move_generator_s() {
    let text =
        std::fs::read_to_string(lesson("e7-checkers").join("starter/Positions.inc")).unwrap();
    for copy in [
        solution("e7-checkers").join("Positions.inc"),
        lesson("e7-checkers").join("reference/Positions.inc"),
    ] {
        assert_eq!(
            std::fs::read_to_string(&copy).unwrap(),
            text,
            "{}",
            copy.display()
        );
    }
    let ps = positions(&text);
    assert_eq!(ps.len(), 10);
    let results: Vec<(String, bool)> = ps.iter().map(legal_moves).collect();
    let lines: Vec<String> = results.iter().map(|(l, _)| l.clone()).collect();
    assert!(
        lines.contains(&"NONE".to_string()),
        "a position without a move"
    );
    assert!(
        lines.iter().any(|l| l.matches('x').count() >= 3),
        "a triple jump"
    );
    let full: String = lines.iter().map(|l| format!("{l}\r\n")).collect();

    let a = hc11lab::grade::Assignment::load(&lesson("e7-checkers")).unwrap();
    let (mut per_position, mut at_done) = (0, 0);
    for c in &a.checks {
        match &c.kind {
            CheckKind::Scenario(s) => {
                for e in &s.expect {
                    match e {
                        Assertion::Serial(SerialExpected::Equals(t)) => {
                            assert_eq!(t, &full, "{}", c.name)
                        }
                        Assertion::Serial(SerialExpected::Regex(r)) => {
                            let n: usize = c.name.trim_start_matches("position ").parse().unwrap();
                            assert!(r.is_match(&full), "{}: {r}", c.name);
                            let mut other = lines.clone();
                            other[n - 1] = format!("{} a1-b2", lines[n - 1]);
                            let other: String = other.iter().map(|l| format!("{l}\r\n")).collect();
                            assert!(!r.is_match(&other), "{}: {r} does not pin the line", c.name);
                            per_position += 1;
                        }
                        _ => {}
                    }
                }
            }
            CheckKind::Breakpoint(b) => {
                let n: usize = b.at.trim_start_matches("positionDone:").parse().unwrap();
                let (line, capture) = &results[n - 1];
                let count = if line == "NONE" {
                    0
                } else {
                    line.split(' ').count()
                };
                let want = |sym: &str| {
                    b.expect.iter().find_map(|e| match e {
                        Assertion::Memory {
                            spec,
                            expected: hc11lab::grade::assignment::Expected::Value(v),
                        } if spec.symbol.as_deref() == Some(sym) => Some(*v),
                        _ => None,
                    })
                };
                assert_eq!(want("moveCount"), Some(count as u64), "{}", c.name);
                assert_eq!(want("mustCapture"), Some(u64::from(*capture)), "{}", c.name);
                at_done += 1;
            }
            _ => {}
        }
    }
    assert_eq!((per_position, at_done), (10, 4));
}

#[test]
fn e7_solution_full_marks_starter_and_mutants_fail() {
    let (a, g) = grader("e7-checkers");
    assert_full(&grade(&a, &g, &solution("e7-checkers")));
    let r = grade(&a, &g, &lesson("e7-checkers").join("starter"));
    assert!(r.score <= 5.0, "{}", describe(&r));

    let src = std::fs::read_to_string(solution("e7-checkers").join("Dame.asm")).unwrap();
    // No forced capture: simple moves are printed after the captures.
    let forced =
        "        tst     moveCount               ; Schlagzwang\n        beq     findSimple";
    assert!(src.contains(forced), "solution/Dame.asm changed shape");
    let s = Scratch::new("e7-noforce");
    s.copy_dir(&solution("e7-checkers")).write(
        "Dame.asm",
        &src.replace(forced, "        bra     findSimple"),
    );
    let r = grade(&a, &g, s.path());
    assert_fails(
        &r,
        &[
            // Position 4 has no simple move besides the capture: it passes.
            "position 3",
            "position 5",
            "position 6",
            "position 8",
            "position 9",
            "position 10",
            "nothing else on the terminal",
            "moveCount and mustCapture at position 3",
            "moveCount and mustCapture at position 5",
            "the board stays as given",
        ],
    );
    // Stops after one jump: multi-jumps are cut short.
    let on = "        jsr     jumpFrom                ; weiterspringen";
    assert!(src.contains(on), "solution/Dame.asm changed shape");
    let s = Scratch::new("e7-onejump");
    s.copy_dir(&solution("e7-checkers"))
        .write("Dame.asm", &src.replace(on, "        jsr     printPath"));
    let r = grade(&a, &g, s.path());
    assert_fails(
        &r,
        &[
            "position 4",
            "position 5",
            "position 9",
            "position 10",
            "nothing else on the terminal",
        ],
    );
}
