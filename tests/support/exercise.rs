//! Shared helpers of the exercise tests (`tests/exercise_*.rs`): grade a
//! folder with an exercise's `assignment.toml`, and build throw-away
//! submission folders (the unmodified firmware plus extra files).

#![allow(dead_code)]

use hc11lab::grade::engine::Grader;
use hc11lab::grade::{Assignment, Submission, SubmissionResult};
use std::path::{Path, PathBuf};

/// The crate's root folder.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The folder of exercise `id` (`lessons/<id>`).
pub fn lesson(id: &str) -> PathBuf {
    root().join("lessons").join(id)
}

/// The solution sources of exercise `id` (`tests/solutions/<id>`): kept
/// out of `lessons/`, which ships to students.
pub fn solution(id: &str) -> PathBuf {
    root().join("tests").join("solutions").join(id)
}

/// The bundled firmware (the starter code of E1-E4).
pub fn firmware() -> PathBuf {
    root().join("firmware")
}

/// Loads an exercise's assignment and prepares its grader (runs the reference).
pub fn grader(id: &str) -> (Assignment, Grader) {
    let a = Assignment::load(&lesson(id))
        .unwrap_or_else(|e| panic!("{id}: assignment.toml does not load: {e}"));
    let g = Grader::new(a.clone())
        .unwrap_or_else(|e| panic!("{id}: the reference solution does not grade: {e}"));
    (a, g)
}

/// Grades one submission folder.
pub fn grade(a: &Assignment, g: &Grader, folder: &Path) -> SubmissionResult {
    let sub = Submission::load(folder, &a.limits)
        .unwrap_or_else(|e| panic!("{}: not a submission: {e}", folder.display()));
    g.grade(&sub)
}

/// A readable account of a result, for assertion messages.
pub fn describe(r: &SubmissionResult) -> String {
    let mut s = format!("{}: {} / {}\n", r.submission, r.score, r.max_score);
    for c in &r.checks {
        s.push_str(&format!(
            "  [{}] {} {}/{}: {}\n",
            if c.passed { "ok" } else { "FAIL" },
            c.name,
            c.score,
            c.max_score,
            c.output.replace('\n', "\n      ")
        ));
    }
    s
}

/// Asserts full marks.
pub fn assert_full(r: &SubmissionResult) {
    assert!(
        r.score == r.max_score && r.checks.iter().all(|c| c.passed),
        "expected full marks:\n{}",
        describe(r)
    );
}

/// Asserts that the named checks fail and the score is below the maximum.
pub fn assert_fails(r: &SubmissionResult, failing: &[&str]) {
    assert!(
        r.score < r.max_score,
        "expected less than full marks:\n{}",
        describe(r)
    );
    for name in failing {
        let c = r
            .checks
            .iter()
            .find(|c| c.name == *name)
            .unwrap_or_else(|| panic!("no check named {name:?}:\n{}", describe(r)));
        assert!(!c.passed, "check {name:?} should fail:\n{}", describe(r));
    }
}

/// Copies the folder `from` with everything under it to `to` (made if missing).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("make folder");
    for e in std::fs::read_dir(from).expect("readable folder").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_tree(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// A folder under the system's temp folder, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    /// A new empty folder, unique per process and name.
    pub fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("hc11lab-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp folder");
        Scratch(dir)
    }

    /// Copies every file of `from` (not recursive) into the folder.
    pub fn copy_dir(&self, from: &Path) -> &Scratch {
        for e in std::fs::read_dir(from).expect("readable folder").flatten() {
            let p = e.path();
            if p.is_file() {
                std::fs::copy(&p, self.0.join(e.file_name())).expect("copy");
            }
        }
        self
    }

    /// Writes one file.
    pub fn write(&self, name: &str, text: &str) -> &Scratch {
        std::fs::write(self.0.join(name), text).expect("write");
        self
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The rules of Vier Gewinnt as the firmware plays them, to check the key
/// scripts of the assignments independently of any assembly program: 7
/// columns, 6 rows, the cursor starts over column index 3 and wraps, a drop
/// into a full column is refused, after a win only reset works.
#[derive(Clone, Debug, Default)]
pub struct Connect4 {
    /// `cells[col][n]`: the n-th stone from the bottom of a column (1 or 2).
    pub cells: [[u8; 6]; 7],
    /// Stones per column.
    pub heights: [usize; 7],
    /// The cursor's column index.
    pub cursor: usize,
    /// 1 or 2.
    pub player: u8,
    /// The winner, once there is one.
    pub winner: Option<u8>,
    /// Stones dropped.
    pub stones: usize,
    /// Column and row (from the bottom) of the last stone.
    pub last: Option<(usize, usize)>,
}

impl Connect4 {
    /// A new game.
    pub fn new() -> Connect4 {
        Connect4 {
            cursor: 3,
            player: 1,
            ..Connect4::default()
        }
    }

    /// The stone at column `c`, row `r` counted from the bottom (0 = empty).
    pub fn at(&self, c: i32, r: i32) -> u8 {
        if !(0..7).contains(&c) || !(0..6).contains(&r) {
            return 0;
        }
        self.cells[c as usize][r as usize]
    }

    /// Length of the longest line through (c, r) of the stone there.
    pub fn line_through(&self, c: usize, r: usize) -> usize {
        let p = self.cells[c][r];
        let mut best = 0;
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut n = 1;
            for s in [1, -1] {
                let (mut x, mut y) = (c as i32 + dx * s, r as i32 + dy * s);
                while self.at(x, y) == p {
                    n += 1;
                    x += dx * s;
                    y += dy * s;
                }
            }
            best = best.max(n);
        }
        best
    }

    /// Drops a stone of the player on turn into column `c`; false if full or won.
    pub fn drop_in(&mut self, c: usize) -> bool {
        if self.winner.is_some() || self.heights[c] >= 6 {
            return false;
        }
        let r = self.heights[c];
        self.cells[c][r] = self.player;
        self.heights[c] += 1;
        self.stones += 1;
        self.last = Some((c, r));
        if self.line_through(c, r) >= 4 {
            self.winner = Some(self.player);
        } else {
            self.player = 3 - self.player;
        }
        true
    }

    /// Plays a `--keys` list (left, right, drop, reset and key digits 0/1/3/4).
    pub fn play(&mut self, keys: &str) {
        for k in keys.split(',').map(str::trim) {
            match k {
                "left" | "1" if self.winner.is_none() => self.cursor = (self.cursor + 6) % 7,
                "right" | "3" if self.winner.is_none() => self.cursor = (self.cursor + 1) % 7,
                "drop" | "0" => {
                    let c = self.cursor;
                    self.drop_in(c);
                }
                "reset" | "4" => *self = Connect4::new(),
                _ => {}
            }
        }
    }

    /// The keys that walk the cursor the short way to column `c` and drop.
    pub fn keys_to_drop(&mut self, c: usize) -> Vec<&'static str> {
        let right = (c + 7 - self.cursor) % 7;
        let left = (self.cursor + 7 - c) % 7;
        let mut keys = if right <= left {
            vec!["right"; right]
        } else {
            vec!["left"; left]
        };
        keys.push("drop");
        self.cursor = c;
        self.drop_in(c);
        keys
    }

    /// The cells (column, row from the bottom) of every line of four or more
    /// through the last stone, if that stone won (E3's marking).
    pub fn winning_cells(&self) -> Vec<(usize, usize)> {
        let mut cells = Vec::new();
        let (Some((c, r)), Some(p)) = (self.last, self.winner) else {
            return cells;
        };
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let mut line = vec![(c, r)];
            for s in [1, -1] {
                let (mut x, mut y) = (c as i32 + dx * s, r as i32 + dy * s);
                while self.at(x, y) == p {
                    line.push((x as usize, y as usize));
                    x += dx * s;
                    y += dy * s;
                }
            }
            if line.len() >= 4 {
                for cell in line {
                    if !cells.contains(&cell) {
                        cells.push(cell);
                    }
                }
            }
        }
        cells
    }

    /// The firmware's buffer for this position: 336 bytes, cell address
    /// `col*8 + row*56` with row 0 on top.
    pub fn buffer(&self) -> Vec<u8> {
        self.buffer_marked(&[])
    }

    /// The buffer with the cells in `marked` (column, row from the bottom)
    /// inverted, as E3 draws a winning line.
    pub fn buffer_marked(&self, marked: &[(usize, usize)]) -> Vec<u8> {
        let mut b = Vec::with_capacity(336);
        for row in 0..6 {
            for col in 0..7 {
                let mut cell = [0xFF, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0xFF];
                let stone = match self.cells[col][5 - row] {
                    1 => [0x18, 0x3C, 0x3C, 0x18],
                    2 => [0x18, 0x24, 0x24, 0x18],
                    _ => [0; 4],
                };
                for k in 0..4 {
                    cell[2 + k] |= stone[k];
                }
                if marked.contains(&(col, 5 - row)) {
                    for byte in &mut cell {
                        *byte = !*byte;
                    }
                }
                b.extend_from_slice(&cell);
            }
        }
        b
    }
}

/// The `keys` of the named check of an assignment.
pub fn keys_of(a: &Assignment, check: &str) -> String {
    let c = a
        .checks
        .iter()
        .find(|c| c.name == check)
        .unwrap_or_else(|| panic!("no check named {check:?}"));
    match &c.kind {
        hc11lab::grade::CheckKind::Scenario(s) => s.keys.clone(),
        other => panic!("check {check:?} is no scenario: {other:?}"),
    }
}

/// Assembles `entry` (with its includes), runs the key script and returns
/// the machine when the program has settled.
pub fn run_keys(entry: &Path, keys: &str) -> hc11lab::machine::Machine {
    let asm = hc11lab::asm::assemble_file(entry, &hc11lab::asm::AsmOptions::default());
    assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
    let program = asm.program.expect("a program");
    let mut m = hc11lab::machine::Machine::new(program).expect("loads");
    let script = hc11lab::script::Script::parse_keys(keys).expect("keys parse");
    let stop = m.run_script(&script, 100_000_000);
    assert_eq!(stop, hc11lab::machine::StopReason::Settled, "keys {keys}");
    m
}

/// The bytes at a symbol of the machine's program.
pub fn peek_symbol(m: &hc11lab::machine::Machine, name: &str, len: usize) -> Vec<u8> {
    let addr = m
        .program()
        .symbol(name)
        .unwrap_or_else(|| panic!("no symbol {name}"))
        .value;
    m.peek_range(addr, len)
}

/// A program running on a machine, driven key script by key script.
#[derive(Clone)]
pub struct Session {
    /// The machine.
    pub m: hc11lab::machine::Machine,
    timing: hc11lab::script::Timing,
}

impl Session {
    /// Assembles `entry` and boots it; `quiet` is the E-cycles of silence
    /// after which the program counts as idle.
    pub fn boot(entry: &Path, quiet: u64) -> Session {
        let asm = hc11lab::asm::assemble_file(entry, &hc11lab::asm::AsmOptions::default());
        assert!(!asm.has_errors(), "{}", asm.render_diagnostics());
        let m = hc11lab::machine::Machine::new(asm.program.expect("a program")).expect("loads");
        let timing = hc11lab::script::Timing {
            quiet,
            ..hc11lab::script::Timing::default()
        };
        let mut s = Session { m, timing };
        s.keys("");
        s
    }

    /// Runs a key script until the program is idle again.
    pub fn keys(&mut self, keys: &str) {
        let script = hc11lab::script::Script::parse_keys(keys).expect("keys parse");
        self.m.start_script_with(&script, self.timing);
        let stop = self
            .m
            .run_until(&hc11lab::machine::StopConditions::budget(200_000_000));
        assert_eq!(stop, hc11lab::machine::StopReason::Settled, "keys {keys}");
    }

    /// The bytes at a symbol.
    pub fn symbol(&self, name: &str, len: usize) -> Vec<u8> {
        peek_symbol(&self.m, name, len)
    }
}

/// A small deterministic generator for test games (64-bit LCG, high bits).
pub struct Lcg(pub u64);

impl Lcg {
    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// Asserts that the named files of a solution are the firmware's, unchanged
/// (the exercises reuse the course's include files as they are).
pub fn assert_same_as_firmware(dir: &Path, names: &[&str]) {
    for name in names {
        let ours = std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let theirs = std::fs::read(firmware().join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            ours == theirs,
            "{} differs from firmware/{name}",
            dir.join(name).display()
        );
    }
}
