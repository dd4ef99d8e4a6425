//! E5 "tic-tac-toe": every memory and terminal expectation of the
//! assignment agrees with a model of the rules of the task; the reference
//! solution scores full marks, the starter program does not.

#[path = "support/exercise.rs"]
mod support;

use hc11lab::grade::assignment::{Assertion, Expected, SerialExpected};
use hc11lab::grade::CheckKind;
use support::*;

/// The win lines in the order of the task (winLine 1..8).
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Tic-tac-toe as the task describes it.
struct Ttt {
    grid: [u8; 9],
    cursor: usize,
    player: u8,
    result: u8,
    win_line: u8,
    moves: usize,
    serial: String,
}

impl Ttt {
    fn new() -> Ttt {
        Ttt {
            grid: [0; 9],
            cursor: 4,
            player: 1,
            result: 0,
            win_line: 0,
            moves: 0,
            serial: "\u{c}Tic-Tac-Toe\r\n".into(),
        }
    }

    fn key(&mut self, k: &str) {
        if k == "reset" {
            let serial = std::mem::take(&mut self.serial);
            *self = Ttt::new();
            self.serial = serial + "\u{c}Tic-Tac-Toe\r\n";
            return;
        }
        if self.result != 0 {
            return;
        }
        match k {
            "left" => self.cursor = (self.cursor + 8) % 9,
            "right" => self.cursor = (self.cursor + 1) % 9,
            "drop" => self.mark(),
            _ => {}
        }
    }

    fn mark(&mut self) {
        let c = self.cursor;
        if self.grid[c] != 0 {
            self.serial.push_str("Occupied\r\n");
            return;
        }
        self.grid[c] = if self.player == 1 { 0x01 } else { 0x10 };
        self.moves += 1;
        let sign = if self.player == 1 { 'X' } else { 'O' };
        self.serial.push_str(&format!("{sign}{}\r\n", c + 1));
        for (n, l) in LINES.iter().enumerate() {
            let sum: u8 = l.iter().map(|&i| self.grid[i]).sum();
            if sum == 0x03 || sum == 0x30 {
                self.result = self.player;
                self.win_line = n as u8 + 1;
                self.serial
                    .push_str(&format!("Player {} won\r\n", self.player));
                return;
            }
        }
        if self.moves == 9 {
            self.result = 3;
            self.serial.push_str("Draw\r\n");
        } else {
            self.player = 3 - self.player;
        }
    }

    fn bytes(&self, symbol: &str) -> Option<Vec<u8>> {
        Some(match symbol {
            "grid" => self.grid.to_vec(),
            "cursor" => vec![self.cursor as u8],
            "player" => vec![self.player],
            "result" => vec![self.result],
            "winLine" => vec![self.win_line],
            _ => return None,
        })
    }
}

#[test]
fn e5_expectations_follow_the_rules() {
    let a = hc11lab::grade::Assignment::load(&lesson("e5-tictactoe")).unwrap();
    let mut compared = 0;
    for c in &a.checks {
        let CheckKind::Scenario(s) = &c.kind else {
            continue;
        };
        let mut t = Ttt::new();
        for k in s.keys.split(',').filter(|k| !k.is_empty()) {
            t.key(k);
        }
        for e in &s.expect {
            match e {
                Assertion::Memory { spec, expected } => {
                    let name = spec.symbol.as_deref().unwrap_or_default();
                    let Some(model) = t.bytes(name) else { continue };
                    let want = match expected {
                        Expected::Bytes(b) => b.clone(),
                        Expected::Value(v) => vec![*v as u8],
                        Expected::Reference => continue,
                    };
                    assert_eq!(model, want, "check {:?}: {spec}", c.name);
                    compared += 1;
                }
                Assertion::Serial(SerialExpected::Equals(text)) => {
                    assert_eq!(&t.serial, text, "check {:?}: serial", c.name);
                    compared += 1;
                }
                _ => {}
            }
        }
    }
    assert!(compared >= 30, "only {compared} expectations compared");
}

#[test]
fn e5_solution_full_marks_starter_fails() {
    let (a, g) = grader("e5-tictactoe");
    for dir in [
        solution("e5-tictactoe"),
        lesson("e5-tictactoe").join("starter"),
    ] {
        assert_same_as_firmware(
            &dir,
            &["LCDutils.inc", "Utils.inc", "Trainer11Register.inc"],
        );
    }
    assert_full(&grade(&a, &g, &solution("e5-tictactoe")));
    let r = grade(&a, &g, &lesson("e5-tictactoe").join("starter"));
    assert_fails(&r, &["start", "X and O take turns", "X wins a row", "draw"]);
    assert!(
        r.score <= 1.0,
        "the starter earns only `assembles`:\n{}",
        describe(&r)
    );
}
