//! Shared helpers for the Viergewinnt machine tests: assemble the bundled
//! firmware once, boot it, play moves through key scripts and read the game
//! state back from RAM by the program's own symbols.
#![allow(dead_code)]

use hc11lab::image::Program;
use hc11lab::machine::{Machine, StopReason};
use hc11lab::script::{Script, Timing};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Columns and rows of the game board.
pub const COLS: usize = 7;
/// Rows (0 = top, as the firmware numbers them).
pub const ROWS: usize = 6;

/// The bundled firmware, assembled once per test binary.
pub fn program() -> Arc<Program> {
    static PROGRAM: OnceLock<Arc<Program>> = OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let asm = hc11lab::firmware::assemble();
            assert!(
                !asm.has_errors(),
                "firmware does not assemble:\n{}",
                asm.render_diagnostics()
            );
            Arc::new(asm.program.expect("program"))
        })
        .clone()
}

/// What a cell of the buffer holds, decoded from all eight bytes (manual
/// 2.1.1 and 2.5.2): the border, plus a filled (player 1) or ring (player 2)
/// stone in bytes 2..5.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Border only.
    Empty,
    /// Player 1's filled stone.
    P1,
    /// Player 2's ring.
    P2,
}

const EMPTY: [u8; 8] = [0xFF, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xFF];
const STONE1: [u8; 8] = [0xFF, 0x81, 0x99, 0xBD, 0xBD, 0x99, 0x81, 0xFF];
const STONE2: [u8; 8] = [0xFF, 0x81, 0x99, 0xA5, 0xA5, 0x99, 0x81, 0xFF];

/// Decodes one cell's bytes; panics (failing the test) on anything else.
pub fn decode_cell(bytes: &[u8]) -> Cell {
    match bytes {
        b if b == EMPTY => Cell::Empty,
        b if b == STONE1 => Cell::P1,
        b if b == STONE2 => Cell::P2,
        b => panic!("cell bytes {b:02X?} are no empty cell and no stone"),
    }
}

/// A booted Viergewinnt machine and the addresses of its variables.
pub struct Game {
    /// The machine.
    pub m: Machine,
    /// Key timing used by `keys`.
    pub timing: Timing,
    board: u16,
    player: u16,
    won: u16,
    cursor: u16,
    button_flag: u16,
}

impl Game {
    /// Boots the firmware with the default key timing and lets it settle.
    pub fn boot() -> Game {
        Self::boot_with(Timing::default())
    }

    /// Boots with the given key timing.
    pub fn boot_with(timing: Timing) -> Game {
        let p = program();
        let sym = |n: &str| p.symbol(n).unwrap_or_else(|| panic!("no symbol {n}")).value;
        let mut g = Game {
            board: sym("board"),
            player: sym("player"),
            won: sym("playerWonFlag"),
            cursor: sym("cursorColumn"),
            button_flag: sym("buttonFlag"),
            m: Machine::new(p.clone()).expect("firmware loads"),
            timing,
        };
        g.keys("");
        g
    }

    /// Plays a `--keys` list and expects the program to settle.
    pub fn keys(&mut self, keys: &str) {
        let script = Script::parse_keys(keys).expect("key list parses");
        self.m.start_script_with(&script, self.timing);
        let r = self
            .m
            .run_until(&hc11lab::machine::StopConditions::budget(200_000_000));
        assert_eq!(r, StopReason::Settled, "after keys `{keys}`");
        assert_eq!(
            self.m.peek(self.button_flag),
            0,
            "buttonFlag still set after settling (keys `{keys}`)"
        );
    }

    /// Whose turn it is (1 or 2), or the winner after a win.
    pub fn player(&self) -> u8 {
        self.m.peek(self.player)
    }

    /// playerWonFlag.
    pub fn won(&self) -> u8 {
        self.m.peek(self.won)
    }

    /// The board column (0..=6) the cursor is under.
    pub fn cursor(&self) -> usize {
        let c = self.m.peek(self.cursor);
        assert!(
            (36..=84).contains(&c) && (c - 36) % 8 == 0,
            "cursorColumn {c} is no cell's left edge"
        );
        ((c - 36) / 8) as usize
    }

    /// The decoded buffer, `[row][col]`, row 0 on top.
    pub fn cells(&self) -> [[Cell; COLS]; ROWS] {
        let bytes = self.m.peek_range(self.board, 336);
        let mut out = [[Cell::Empty; COLS]; ROWS];
        for (r, row) in out.iter_mut().enumerate() {
            for (c, cell) in row.iter_mut().enumerate() {
                let a = c * 8 + r * 56;
                *cell = decode_cell(&bytes[a..a + 8]);
            }
        }
        out
    }

    /// The key list that moves the cursor to `col` the short way (the cursor
    /// wraps at both edges), then drops.
    pub fn move_keys(&self, col: usize) -> String {
        let cur = self.cursor();
        let right = (col + COLS - cur) % COLS;
        let left = (cur + COLS - col) % COLS;
        let mut keys: Vec<&str> = if right <= left {
            vec!["right"; right]
        } else {
            vec!["left"; left]
        };
        keys.push("drop");
        keys.join(",")
    }

    /// Moves the cursor to `col` and drops a stone there.
    pub fn play(&mut self, col: usize) {
        let keys = self.move_keys(col);
        self.keys(&keys);
        assert_eq!(self.cursor(), col);
    }

    /// The LCD picture.
    pub fn lcd(&self) -> Vec<String> {
        self.m.lcd_text()
    }
}

/// Compares `text` with the golden file `tests/golden/lcd/NAME.txt`, or
/// writes it there when `UPDATE_GOLDEN=1`.
pub fn check_golden(name: &str, text: &[String]) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden/lcd")
        .join(format!("{name}.txt"));
    let mut actual = text.join("\n");
    actual.push('\n');
    if std::env::var("UPDATE_GOLDEN").as_deref() == Ok("1") {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(&path, &actual).expect("write golden");
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (record with UPDATE_GOLDEN=1)", path.display()));
    if expected != actual {
        let first = expected
            .lines()
            .zip(actual.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "LCD differs from {} from row {first}:\nexpected {}\nactual   {}\n(re-record with UPDATE_GOLDEN=1 and review the diff)",
            path.display(),
            expected.lines().nth(first).unwrap_or(""),
            actual.lines().nth(first).unwrap_or("")
        );
    }
}
