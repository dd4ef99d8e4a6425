//! An assignment: `assignment.toml` in a lesson folder, parsed and checked
//! into typed checks (what to run, what to expect, how many points).
//!
//! The schema, in short (see `lessons/viergewinnt/assignment.toml`):
//!
//! ```toml
//! [assignment]
//! id = "viergewinnt"                # short name used in reports
//! title = "Vier Gewinnt"
//! entry = "Viergewinnt.asm"         # the file students submit (plus its includes)
//! reference = "bundled"             # or a folder with the reference solution
//! provided = ["trainer11Register.inc"]  # course files, always the course's copy
//! required_symbols = ["player"]     # names the checks rely on
//!
//! [limits]
//! max_cycles = 20000000             # per scenario and per move of a differential game
//! max_file_bytes = 1000000          # one source file
//!
//! [[check]]
//! name = "player 1 wins vertically"
//! kind = "scenario"                 # or "assembles", "differential"
//! points = 2
//! visibility = "visible"            # or "hidden", "after_due_date", "after_published"
//! feedback = "What to look at when this fails."
//! keys = "drop,right,drop,left,drop,right,drop,left,drop"
//! expect = [
//!   { symbol = "playerWonFlag", equals = 1 },
//!   { symbol = "board+280:8", bytes = [255, 129, 189, 189, 189, 189, 129, 255] },
//!   { lcd = "reference" },                       # or region = [x, y, w, h]
//!   { serial_contains = "won" },
//! ]
//!
//! [[check]]
//! name = "drawBoard keeps A and B"
//! kind = "breakpoint"               # stop at a debugger breakpoint LOC[:N][ if COND]
//! points = 3
//! keys = "drop"
//! at = "drawBoard"
//! set = { a = 0x12, b = 0x34 }      # registers loaded there
//! finish = true                     # run on until the subroutine returns
//! preserved = ["a", "b", "sp"]      # as at the breakpoint (sp: as before the jsr)
//! expect = [{ flag = "z", equals = 1 }]
//!
//! [[check]]
//! name = "legal answers"
//! kind = "games"                    # random Connect-4 games, no reference
//! points = 6
//! until = "playerWonFlag"
//! each_move = [{ connect4 = "board", stones = "equal" }]
//! ```
//!
//! Files in `provided` always come from the reference folder; a student's
//! copy of one is not used.

use super::error::GradeError;
use super::frame::{Frame, Rect};
use crate::cpu::Registers;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// Who sees a check's result and feedback (Gradescope's four settings).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Students see it at once.
    #[default]
    Visible,
    /// Only staff see it.
    Hidden,
    /// Students see it after the due date.
    AfterDueDate,
    /// Students see it once grades are published.
    AfterPublished,
}

impl Visibility {
    /// The name as written in `assignment.toml` and Gradescope's `results.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
        }
    }
}

/// Resource limits for each submission.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// E-cycles one scenario, or one move of a differential game, may take
    /// before the run is stopped (an endless loop ends here).
    pub max_cycles: u64,
    /// Largest single file, in bytes.
    pub max_file_bytes: u64,
    /// Largest submission, all files together, in bytes.
    pub max_total_bytes: u64,
    /// Most files in one submission (zip entries included).
    pub max_files: usize,
    /// Largest `.zip` of one submission, in bytes, checked before it is
    /// opened (it may also hold files that are not sources, which are skipped).
    pub max_zip_bytes: u64,
    /// Most source lines a submission may assemble (all files, includes
    /// expanded); more is refused with a line saying so.
    pub max_source_lines: usize,
    /// Milliseconds assembling a submission may take before it is stopped
    /// (wall-clock: a limit that keeps one submission from holding up the
    /// batch, set far above what any real program needs).
    pub max_assemble_ms: u64,
    /// Symbol whose address is the lowest the stack may reach (the end of
    /// the variables); default: the end of the highest RAM label.
    pub stack_guard: Option<String>,
    /// E-cycles a key tap holds its key down.
    pub hold_cycles: u64,
    /// E-cycles without device writes after which a scenario's program counts as idle.
    pub quiet_cycles: u64,
    /// The same for the moves of differential games (shorter: the games are
    /// many; it must stay above the program's debounce time).
    pub game_quiet_cycles: u64,
    /// E-cycles to wait at most for a program to become idle after a key.
    pub settle_cap_cycles: u64,
    /// A scenario fails if the program never becomes idle after its keys.
    pub require_idle: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_cycles: 20_000_000,
            max_file_bytes: 1_000_000,
            max_total_bytes: 4_000_000,
            max_files: 200,
            max_zip_bytes: 64_000_000,
            max_source_lines: 100_000,
            max_assemble_ms: 10_000,
            stack_guard: None,
            hold_cycles: 20_000,
            quiet_cycles: 60_000,
            game_quiet_cycles: 25_000,
            settle_cap_cycles: 4_000_000,
            require_idle: true,
        }
    }
}

impl Limits {
    /// Refuses values that make no sense or would overflow the board's clock.
    fn validate(&self) -> Result<(), String> {
        // About 139 hours of board time: far beyond any sensible budget.
        const MAX: u64 = 1_000_000_000_000;
        let cycles = [
            ("max_cycles", self.max_cycles),
            ("hold_cycles", self.hold_cycles),
            ("quiet_cycles", self.quiet_cycles),
            ("game_quiet_cycles", self.game_quiet_cycles),
            ("settle_cap_cycles", self.settle_cap_cycles),
        ];
        for (name, v) in cycles {
            if v == 0 || v > MAX {
                return Err(format!("[limits] {name} must be 1..{MAX}"));
            }
        }
        if self.max_files == 0
            || self.max_file_bytes == 0
            || self.max_total_bytes == 0
            || self.max_zip_bytes == 0
            || self.max_source_lines == 0
        {
            return Err(
                "[limits] max_files, max_file_bytes, max_total_bytes, max_zip_bytes and max_source_lines must be above 0"
                    .into(),
            );
        }
        if self.max_assemble_ms == 0 || self.max_assemble_ms > 600_000 {
            return Err("[limits] max_assemble_ms must be 1..600000 (10 minutes)".into());
        }
        Ok(())
    }
}

/// Where a memory assertion looks: a symbol or an address, an offset and a length.
///
/// Written like `run --dump`: `player`, `board:336`, `board+136:8`, `$0190:2`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct MemSpec {
    /// A symbol name, or `None` for a plain address.
    pub symbol: Option<String>,
    /// The address (for a symbol: the offset added to its value).
    pub offset: u16,
    /// Number of bytes (at least 1).
    pub len: u16,
}

impl MemSpec {
    /// Parses `NAME[+OFF][:LEN]` or `ADDR[:LEN]` (ADDR as `$hex`, `0xhex` or decimal).
    pub fn parse(spec: &str) -> Result<MemSpec, String> {
        let spec = spec.trim();
        let (head, len) = match spec.split_once(':') {
            Some((h, l)) => (h.trim(), parse_number(l.trim())?),
            None => (spec, 1),
        };
        if len == 0 || len > 0x1_0000 {
            return Err(format!("`{spec}`: the length must be 1..65536"));
        }
        let len = u16::try_from(len).unwrap_or(u16::MAX);
        let starts_like_number = head
            .chars()
            .next()
            .is_some_and(|c| c == '$' || c == '%' || c.is_ascii_digit());
        if starts_like_number {
            let addr = parse_number(head)?;
            let addr = u16::try_from(addr).map_err(|_| format!("`{spec}`: address above $FFFF"))?;
            return Ok(MemSpec {
                symbol: None,
                offset: addr,
                len,
            });
        }
        let (name, offset) = match head.split_once('+') {
            Some((n, o)) => (n.trim(), parse_number(o.trim())?),
            None => (head, 0),
        };
        let valid_name = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        if !valid_name {
            return Err(format!(
                "`{spec}` is neither a symbol name nor an address like $0190"
            ));
        }
        let offset = u16::try_from(offset).map_err(|_| format!("`{spec}`: offset too large"))?;
        Ok(MemSpec {
            symbol: Some(name.to_string()),
            offset,
            len,
        })
    }
}

impl fmt::Display for MemSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.symbol {
            Some(name) if self.offset == 0 => write!(f, "{name}")?,
            Some(name) => write!(f, "{name}+{}", self.offset)?,
            None => write!(f, "${:04X}", self.offset)?,
        }
        if self.len != 1 {
            write!(f, ":{}", self.len)?;
        }
        Ok(())
    }
}

impl TryFrom<String> for MemSpec {
    type Error = String;
    fn try_from(s: String) -> Result<Self, String> {
        MemSpec::parse(&s)
    }
}

impl From<MemSpec> for String {
    fn from(m: MemSpec) -> String {
        m.to_string()
    }
}

/// Parses `$hex`, `0xhex`, `%binary` or decimal.
fn parse_number(s: &str) -> Result<u32, String> {
    let (digits, radix) = if let Some(h) = s.strip_prefix('$') {
        (h, 16)
    } else if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if let Some(b) = s.strip_prefix('%') {
        (b, 2)
    } else {
        (s, 10)
    };
    u32::from_str_radix(&digits.replace('_', ""), radix)
        .map_err(|_| format!("`{s}` is not a number"))
}

/// A CPU register an assertion can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reg {
    /// Accumulator A.
    A,
    /// Accumulator B.
    B,
    /// D = A:B.
    D,
    /// Index register X.
    X,
    /// Index register Y.
    Y,
    /// Stack pointer.
    Sp,
    /// Program counter.
    Pc,
    /// Condition code register.
    Ccr,
}

impl Reg {
    fn parse(s: &str) -> Option<Reg> {
        Some(match s.to_ascii_lowercase().as_str() {
            "a" => Reg::A,
            "b" => Reg::B,
            "d" => Reg::D,
            "x" => Reg::X,
            "y" => Reg::Y,
            "sp" | "s" => Reg::Sp,
            "pc" => Reg::Pc,
            "ccr" | "cc" => Reg::Ccr,
            _ => return None,
        })
    }

    /// The register's value in `r` (8-bit registers widened).
    pub fn read(self, r: &Registers) -> u16 {
        match self {
            Reg::A => u16::from(r.a),
            Reg::B => u16::from(r.b),
            Reg::D => r.d(),
            Reg::X => r.x,
            Reg::Y => r.y,
            Reg::Sp => r.sp,
            Reg::Pc => r.pc,
            Reg::Ccr => u16::from(r.ccr),
        }
    }

    /// Sets the register in `r` (8-bit registers take the low byte).
    pub fn write(self, r: &mut Registers, v: u16) {
        let [hi, lo] = v.to_be_bytes();
        match self {
            Reg::A => r.a = lo,
            Reg::B => r.b = lo,
            Reg::D => (r.a, r.b) = (hi, lo),
            Reg::X => r.x = v,
            Reg::Y => r.y = v,
            Reg::Sp => r.sp = v,
            Reg::Pc => r.pc = v,
            Reg::Ccr => r.ccr = lo,
        }
    }

    /// The register's name in lower case.
    pub fn name(self) -> &'static str {
        match self {
            Reg::A => "a",
            Reg::B => "b",
            Reg::D => "d",
            Reg::X => "x",
            Reg::Y => "y",
            Reg::Sp => "sp",
            Reg::Pc => "pc",
            Reg::Ccr => "ccr",
        }
    }
}

/// What a memory or register assertion expects.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expected {
    /// A number: a byte, or a big-endian word/long for longer specs.
    Value(u64),
    /// Exact bytes.
    Bytes(Vec<u8>),
    /// Whatever the reference solution has after the same keys.
    Reference,
}

/// What the LCD is compared with.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LcdExpected {
    /// The reference solution's LCD after the same keys.
    Reference,
    /// A fixed frame from the assignment.
    Frame(Box<Frame>),
}

/// What the serial output is compared with.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SerialExpected {
    /// Exactly this text.
    Equals(String),
    /// Contains this text.
    Contains(String),
    /// Matches this regular expression somewhere.
    Regex(#[serde(with = "regex_serde")] regex::Regex),
    /// The same text as the reference solution after the same keys.
    Reference,
}

impl PartialEq for SerialExpected {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Self::Equals(a), Self::Equals(b)) | (Self::Contains(a), Self::Contains(b)) => a == b,
            (Self::Regex(a), Self::Regex(b)) => a.as_str() == b.as_str(),
            (Self::Reference, Self::Reference) => true,
            _ => false,
        }
    }
}

mod regex_serde {
    pub fn serialize<S: serde::Serializer>(r: &regex::Regex, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(r.as_str())
    }
    pub fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<regex::Regex, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        regex::Regex::new(&s).map_err(serde::de::Error::custom)
    }
}

/// One thing a scenario checks after its keys have run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Assertion {
    /// Bytes at a symbol or address.
    Memory {
        /// Where.
        spec: MemSpec,
        /// What.
        expected: Expected,
    },
    /// A CPU register.
    Register {
        /// Which.
        reg: Reg,
        /// What (`Bytes` is not used for registers).
        expected: Expected,
    },
    /// The LCD picture, whole or a region.
    Lcd {
        /// Compared with what.
        expected: LcdExpected,
        /// Which pixels count.
        region: Rect,
    },
    /// Everything the program sent on the SCI.
    Serial(SerialExpected),
    /// The scenario ran in at most this many E-cycles.
    CyclesAtMost(u64),
    /// One condition-code flag (S X H I N Z V C, M68HC11 RM 3.1.5) is set or clear.
    Flag {
        /// The flag's letter, upper case.
        flag: char,
        /// True: the flag must be set; false: clear.
        set: bool,
    },
    /// The Viergewinnt buffer at `board` holds a position that can arise in a
    /// game: every cell is empty or a stone of player 1 or 2, no empty cell
    /// lies under a stone, and the stones alternate.
    Connect4 {
        /// The buffer (6 rows x 7 columns x 8 bytes, cell at col*8 + row*56).
        board: MemSpec,
        /// True: both players have as many stones (player 2 has answered);
        /// false: player 1 has as many as player 2 or one more.
        equal: bool,
    },
}

/// A key script and what must hold when it is done.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// The key script (`drop,left,wait:20ms`, as `run --keys` takes it).
    pub keys: String,
    /// Cycle budget for this scenario, overriding [`Limits::max_cycles`].
    pub max_cycles: Option<u64>,
    /// The assertions, all of which must hold.
    pub expect: Vec<Assertion>,
}

/// How a differential check makes up its random games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Generator {
    /// Connect-4 style: each move walks the cursor (left/right, wrapping) to a
    /// random column that is not full and drops a stone.
    Connect4 {
        /// Number of columns.
        columns: u8,
        /// Stones per column.
        rows: u8,
        /// Column under the cursor at the start and after reset.
        start_column: u8,
    },
    /// Each move is one key drawn at random from an alphabet.
    Keys {
        /// The actions to draw from (`left`, `drop`, `5`, ...).
        alphabet: Vec<String>,
    },
}

/// N random games played on the submission and on the reference, compared
/// after every move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Differential {
    /// Number of games.
    pub games: u32,
    /// Seed of the games (same seed, same games).
    pub seed: u64,
    /// How moves are made.
    pub generator: Generator,
    /// Most moves in one game.
    pub max_moves: u32,
    /// The game ends when this (in the reference) is not zero, e.g. `playerWonFlag`.
    pub until: Option<MemSpec>,
    /// Moves still made after the end (to see that input is locked).
    pub after_end: u32,
    /// Compare the whole LCD after each move.
    pub compare_lcd: bool,
    /// Memory compared after each move.
    pub compare: Vec<MemSpec>,
}

/// Run a key script until a debugger breakpoint hits, optionally set
/// registers there and run on until the subroutine returns, then assert.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BreakCheck {
    /// Keys played while waiting for the breakpoint (`run --keys` syntax).
    pub keys: String,
    /// Where to stop: a debugger breakpoint spec `LOC[:N][ if COND]`, as
    /// `hc11lab run --break` takes it (`drawBoard`, `drawCell:3`,
    /// `drawCell if [cellAddress].w == 136`).
    pub at: String,
    /// Registers written when the breakpoint hits (what a test bench would load).
    pub set: Vec<(Reg, u16)>,
    /// Run on from the breakpoint until the subroutine that starts there
    /// returns (PC at the return address, SP back above it), then assert.
    pub finish: bool,
    /// Registers that must hold, after `finish`, what they held at the
    /// breakpoint (after `set`); `sp` what the caller had before its JSR
    /// (the breakpoint's SP + 2).
    pub preserved: Vec<Reg>,
    /// Cycle budget for reaching the breakpoint and finishing, overriding
    /// [`Limits::max_cycles`].
    pub max_cycles: Option<u64>,
    /// The assertions, all of which must hold.
    pub expect: Vec<Assertion>,
}

/// Random Connect-4 games in which player 1 drops into random columns that
/// are not full; after every move assertions (no comparison with a
/// reference) must hold, and player 1 must have one stone per drop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Games {
    /// Number of games.
    pub games: u32,
    /// Seed of the games (same seed, same games for the same program).
    pub seed: u64,
    /// The buffer the free columns are read from (cell at col*8 + row*56,
    /// byte 3 = the stone as `getCellOccupancy` reads it).
    pub board: MemSpec,
    /// Column under the cursor at the start.
    pub start_column: u8,
    /// Most moves of player 1 in one game.
    pub max_moves: u32,
    /// The game ends when this is not zero (e.g. `playerWonFlag`).
    pub until: Option<MemSpec>,
    /// Checked after every move after which the game goes on.
    pub each_move: Vec<Assertion>,
    /// Checked after the move that ended the game (`until` not zero).
    pub game_over: Vec<Assertion>,
}

/// What a check does.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    /// The submission assembles without errors.
    Assembles,
    /// Run a key script and test assertions.
    Scenario(Scenario),
    /// Random games against the reference solution.
    Differential(Differential),
    /// Stop at a breakpoint and check registers and memory there.
    Breakpoint(BreakCheck),
    /// Random games with per-move assertions, no reference.
    Games(Games),
}

/// One weighted check.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Check {
    /// Name shown in every report (unique within the assignment).
    pub name: String,
    /// Points for passing it (a differential check gives a share per game).
    pub points: f64,
    /// Who sees the result.
    pub visibility: Visibility,
    /// Advice shown when the check fails.
    pub feedback: String,
    /// What it does.
    pub kind: CheckKind,
}

/// Where the reference solution comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReferenceSource {
    /// The firmware bundled into hc11lab.
    Bundled,
    /// A folder (absolute, or resolved against the assignment folder).
    Folder(PathBuf),
}

/// Most points one check may give (a typo like `1e308` is refused).
pub const MAX_POINTS: f64 = 10_000.0;

/// A parsed, validated assignment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Assignment {
    /// The folder holding `assignment.toml` (relative paths resolve here).
    pub dir: PathBuf,
    /// Short identifier.
    pub id: String,
    /// Title for reports.
    pub title: String,
    /// The file students submit, e.g. `Viergewinnt.asm`.
    pub entry: String,
    /// The reference solution.
    pub reference: Option<ReferenceSource>,
    /// Course files, always taken from the reference (a submission's copy is not used).
    pub provided: Vec<String>,
    /// Symbols the checks rely on; a submission without one is told so.
    pub required_symbols: Vec<String>,
    /// Limits per submission.
    pub limits: Limits,
    /// The checks, in report order.
    pub checks: Vec<Check>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    assignment: RawHeader,
    #[serde(default)]
    limits: Limits,
    #[serde(default)]
    check: Vec<RawCheck>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeader {
    id: String,
    title: String,
    entry: String,
    reference: Option<String>,
    #[serde(default)]
    provided: Vec<String>,
    #[serde(default)]
    required_symbols: Vec<String>,
    /// Informational; Gradescope applies `after_due_date` itself.
    #[serde(default)]
    #[allow(dead_code)]
    due: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "snake_case")]
enum RawKind {
    Assembles,
    Scenario,
    Differential,
    Breakpoint,
    Games,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCheck {
    name: String,
    kind: RawKind,
    points: f64,
    #[serde(default)]
    visibility: Visibility,
    #[serde(default)]
    feedback: String,
    // scenario
    keys: Option<String>,
    max_cycles: Option<u64>,
    #[serde(default)]
    expect: Vec<RawExpect>,
    // differential
    games: Option<u32>,
    seed: Option<u64>,
    generator: Option<String>,
    columns: Option<u8>,
    rows: Option<u8>,
    start_column: Option<u8>,
    alphabet: Option<Vec<String>>,
    max_moves: Option<u32>,
    until: Option<String>,
    after_end: Option<u32>,
    compare_lcd: Option<bool>,
    compare: Option<Vec<String>>,
    // breakpoint
    at: Option<String>,
    set: Option<std::collections::BTreeMap<String, u16>>,
    finish: Option<bool>,
    preserved: Option<Vec<String>>,
    // games
    board: Option<String>,
    each_move: Option<Vec<RawExpect>>,
    game_over: Option<Vec<RawExpect>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    #[serde(alias = "memory")]
    symbol: Option<String>,
    register: Option<String>,
    lcd: Option<String>,
    serial: Option<String>,
    serial_contains: Option<String>,
    serial_regex: Option<String>,
    serial_reference: Option<bool>,
    cycles_at_most: Option<u64>,
    flag: Option<String>,
    connect4: Option<String>,
    stones: Option<String>,
    equals: Option<u64>,
    bytes: Option<Vec<u8>>,
    same_as_reference: Option<bool>,
    frame: Option<String>,
    frame_file: Option<String>,
    region: Option<[u32; 4]>,
}

impl Assignment {
    /// Loads `assignment.toml` from a folder (or the file itself).
    pub fn load(path: &Path) -> Result<Assignment, GradeError> {
        let file = if path.is_dir() {
            path.join("assignment.toml")
        } else {
            path.to_path_buf()
        };
        let text = std::fs::read_to_string(&file).map_err(|source| GradeError::Io {
            path: file.clone(),
            source,
        })?;
        let dir = file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        Assignment::from_toml(&text, &dir).map_err(|message| GradeError::Assignment {
            path: file,
            message,
        })
    }

    /// Parses the text of an `assignment.toml`; `dir` resolves relative paths.
    pub fn from_toml(text: &str, dir: &Path) -> Result<Assignment, String> {
        let raw: RawFile = toml::from_str(text).map_err(|e| e.to_string())?;
        let h = raw.assignment;
        if h.entry.trim().is_empty() || h.entry.contains(['/', '\\']) {
            return Err("`entry` must be a plain file name like `Viergewinnt.asm`".into());
        }
        for p in &h.provided {
            if p.trim().is_empty() || p.contains(['/', '\\']) || p == "." || p == ".." {
                return Err(format!(
                    "provided `{p}`: name a file of the reference folder by its plain name, like `Trainer11Register.inc` (no folders, no `..`)"
                ));
            }
        }
        let reference = h.reference.map(|r| match r.as_str() {
            "bundled" => ReferenceSource::Bundled,
            folder => ReferenceSource::Folder(dir.join(folder)),
        });
        let mut names = BTreeSet::new();
        let mut checks = Vec::new();
        for (i, rc) in raw.check.into_iter().enumerate() {
            let label = format!("check {} (`{}`)", i + 1, rc.name);
            if rc.name.trim().is_empty() {
                return Err(format!("check {}: `name` must not be empty", i + 1));
            }
            if !names.insert(rc.name.clone()) {
                return Err(format!("{label}: another check has the same name"));
            }
            if !(rc.points.is_finite() && (0.0..=MAX_POINTS).contains(&rc.points)) {
                return Err(format!(
                    "{label}: `points` must be a number from 0 to {MAX_POINTS}"
                ));
            }
            let kind =
                convert_kind(&rc, dir, reference.is_some()).map_err(|e| format!("{label}: {e}"))?;
            checks.push(Check {
                name: rc.name,
                points: rc.points,
                visibility: rc.visibility,
                feedback: rc.feedback,
                kind,
            });
        }
        if checks.is_empty() {
            return Err("the assignment has no `[[check]]`".into());
        }
        raw.limits.validate()?;
        Ok(Assignment {
            dir: dir.to_path_buf(),
            id: h.id,
            title: h.title,
            entry: h.entry,
            reference,
            provided: h.provided,
            required_symbols: h.required_symbols,
            limits: raw.limits,
            checks,
        })
    }

    /// Every symbol the assignment reads, with where it is named (for the
    /// check against the reference solution before any grading starts).
    pub fn symbols_named(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for name in &self.required_symbols {
            out.push(("[assignment] required_symbols".into(), name.clone()));
        }
        if let Some(g) = &self.limits.stack_guard {
            out.push(("[limits] stack_guard".into(), g.clone()));
        }
        for c in &self.checks {
            let mut specs: Vec<&MemSpec> = Vec::new();
            let asserts: Vec<&Assertion> = match &c.kind {
                CheckKind::Assembles => Vec::new(),
                CheckKind::Scenario(s) => s.expect.iter().collect(),
                CheckKind::Breakpoint(b) => b.expect.iter().collect(),
                CheckKind::Differential(d) => {
                    specs.extend(d.until.iter().chain(&d.compare));
                    Vec::new()
                }
                CheckKind::Games(g) => {
                    specs.push(&g.board);
                    specs.extend(g.until.iter());
                    g.each_move.iter().chain(&g.game_over).collect()
                }
            };
            for a in asserts {
                match a {
                    Assertion::Memory { spec, .. } => specs.push(spec),
                    Assertion::Connect4 { board, .. } => specs.push(board),
                    _ => {}
                }
            }
            for spec in specs {
                if let Some(sym) = &spec.symbol {
                    out.push((format!("check `{}`", c.name), sym.clone()));
                }
            }
        }
        out
    }

    /// The most points a submission can get.
    pub fn max_score(&self) -> f64 {
        self.checks.iter().map(|c| c.points).sum()
    }

    /// True if some check compares with the reference solution.
    pub fn needs_reference(&self) -> bool {
        self.checks.iter().any(|c| match &c.kind {
            CheckKind::Assembles => false,
            CheckKind::Differential(_) => true,
            CheckKind::Scenario(s) => s.expect.iter().any(Assertion::uses_reference),
            CheckKind::Breakpoint(b) => b.expect.iter().any(Assertion::uses_reference),
            CheckKind::Games(_) => false,
        })
    }
}

impl Assertion {
    /// True if checking it needs the reference solution's run.
    pub fn uses_reference(&self) -> bool {
        match self {
            Assertion::Memory { expected, .. } | Assertion::Register { expected, .. } => {
                *expected == Expected::Reference
            }
            Assertion::Lcd { expected, .. } => *expected == LcdExpected::Reference,
            Assertion::Serial(s) => *s == SerialExpected::Reference,
            Assertion::CyclesAtMost(_) | Assertion::Flag { .. } | Assertion::Connect4 { .. } => {
                false
            }
        }
    }
}

/// Names the fields that a kind does not take, so a typo is not silently ignored.
fn reject_fields(rc: &RawCheck, kind: &str, fields: &[(&str, bool)]) -> Result<(), String> {
    let _ = rc;
    match fields.iter().find(|(_, present)| *present) {
        Some((name, _)) => Err(format!("`{name}` does not apply to kind = \"{kind}\"")),
        None => Ok(()),
    }
}

fn convert_kind(rc: &RawCheck, dir: &Path, has_reference: bool) -> Result<CheckKind, String> {
    let scenario_fields = [
        ("keys", rc.keys.is_some()),
        ("max_cycles", rc.max_cycles.is_some()),
        ("expect", !rc.expect.is_empty()),
    ];
    let differential_fields = [
        ("games", rc.games.is_some()),
        ("seed", rc.seed.is_some()),
        ("generator", rc.generator.is_some()),
        ("columns", rc.columns.is_some()),
        ("rows", rc.rows.is_some()),
        ("start_column", rc.start_column.is_some()),
        ("alphabet", rc.alphabet.is_some()),
        ("max_moves", rc.max_moves.is_some()),
        ("until", rc.until.is_some()),
        ("after_end", rc.after_end.is_some()),
        ("compare_lcd", rc.compare_lcd.is_some()),
        ("compare", rc.compare.is_some()),
    ];
    let break_fields = [
        ("at", rc.at.is_some()),
        ("set", rc.set.is_some()),
        ("finish", rc.finish.is_some()),
        ("preserved", rc.preserved.is_some()),
    ];
    let games_fields = [
        ("board", rc.board.is_some()),
        ("each_move", rc.each_move.is_some()),
        ("game_over", rc.game_over.is_some()),
    ];
    match rc.kind {
        RawKind::Assembles => {
            reject_fields(rc, "assembles", &scenario_fields)?;
            reject_fields(rc, "assembles", &differential_fields)?;
            reject_fields(rc, "assembles", &break_fields)?;
            reject_fields(rc, "assembles", &games_fields)?;
            Ok(CheckKind::Assembles)
        }
        RawKind::Breakpoint => {
            reject_fields(rc, "breakpoint", &differential_fields)?;
            reject_fields(rc, "breakpoint", &games_fields)?;
            convert_break(rc, dir, has_reference).map(CheckKind::Breakpoint)
        }
        RawKind::Games => {
            reject_fields(rc, "games", &scenario_fields)?;
            reject_fields(rc, "games", &break_fields)?;
            convert_games(rc, dir).map(CheckKind::Games)
        }
        RawKind::Scenario => {
            reject_fields(rc, "scenario", &differential_fields)?;
            reject_fields(rc, "scenario", &break_fields)?;
            reject_fields(rc, "scenario", &games_fields)?;
            let keys = rc.keys.clone().unwrap_or_default();
            let expect = convert_list(&rc.expect, dir, "expect")?;
            if expect.is_empty() {
                return Err("a scenario needs at least one `expect`".into());
            }
            if !has_reference && expect.iter().any(Assertion::uses_reference) {
                return Err(
                    "compares with the reference, but `[assignment]` names no `reference`".into(),
                );
            }
            Ok(CheckKind::Scenario(Scenario {
                keys,
                max_cycles: rc.max_cycles,
                expect,
            }))
        }
        RawKind::Differential => {
            reject_fields(rc, "differential", &scenario_fields)?;
            reject_fields(rc, "differential", &break_fields)?;
            reject_fields(rc, "differential", &games_fields)?;
            if !has_reference {
                return Err("a differential check needs `reference` in `[assignment]`".into());
            }
            let games = rc.games.unwrap_or(20);
            if games == 0 || games > 10_000 {
                return Err("`games` must be 1..10000".into());
            }
            let generator = match rc.generator.as_deref().unwrap_or("connect4") {
                "connect4" => {
                    if rc.alphabet.is_some() {
                        return Err("`alphabet` belongs to generator = \"keys\"".into());
                    }
                    let columns = rc.columns.unwrap_or(7);
                    let rows = rc.rows.unwrap_or(6);
                    let start_column = rc.start_column.unwrap_or(columns / 2);
                    if columns == 0 || rows == 0 || start_column >= columns {
                        return Err(
                            "`columns`, `rows` must be > 0 and `start_column` < `columns`".into(),
                        );
                    }
                    Generator::Connect4 {
                        columns,
                        rows,
                        start_column,
                    }
                }
                "keys" => {
                    if rc.columns.is_some() || rc.rows.is_some() || rc.start_column.is_some() {
                        return Err(
                            "`columns`, `rows`, `start_column` belong to generator = \"connect4\""
                                .into(),
                        );
                    }
                    let alphabet = rc.alphabet.clone().unwrap_or_default();
                    if alphabet.is_empty() {
                        return Err("generator = \"keys\" needs a non-empty `alphabet`".into());
                    }
                    Generator::Keys { alphabet }
                }
                other => {
                    return Err(format!(
                        "unknown generator `{other}`: use \"connect4\" or \"keys\""
                    ))
                }
            };
            let until = rc.until.as_deref().map(MemSpec::parse).transpose()?;
            let compare = rc
                .compare
                .clone()
                .unwrap_or_default()
                .iter()
                .map(|s| MemSpec::parse(s))
                .collect::<Result<Vec<_>, _>>()?;
            let compare_lcd = rc.compare_lcd.unwrap_or(true);
            if !compare_lcd && compare.is_empty() {
                return Err(
                    "compares nothing: set `compare_lcd = true` or list `compare` symbols".into(),
                );
            }
            Ok(CheckKind::Differential(Differential {
                games,
                seed: rc.seed.unwrap_or(1),
                generator,
                max_moves: rc.max_moves.unwrap_or(60).max(1),
                until,
                after_end: rc.after_end.unwrap_or(0),
                compare_lcd,
                compare,
            }))
        }
    }
}

/// The assertions of an `expect`-like list, numbered in errors.
fn convert_list(list: &[RawExpect], dir: &Path, what: &str) -> Result<Vec<Assertion>, String> {
    list.iter()
        .enumerate()
        .map(|(i, e)| convert_expect(e, dir).map_err(|m| format!("{what} {}: {m}", i + 1)))
        .collect()
}

fn parse_reg(name: &str) -> Result<Reg, String> {
    Reg::parse(name)
        .ok_or_else(|| format!("unknown register `{name}`: use a, b, d, x, y, sp, pc or ccr"))
}

fn convert_break(rc: &RawCheck, dir: &Path, has_reference: bool) -> Result<BreakCheck, String> {
    let at = rc
        .at
        .clone()
        .ok_or("kind = \"breakpoint\" needs `at`, a breakpoint spec like \"drawBoard\" or \"drawCell:3 if A == 4\"")?;
    // Parsed now so a typo fails the assignment, not every student; it is
    // placed in each submission's program when the check runs.
    crate::debug::breakpoint::BreakSpec::parse(&at).map_err(|e| e.to_string())?;
    let keys = rc.keys.clone().unwrap_or_default();
    crate::script::Script::parse_keys(&keys).map_err(|e| format!("keys: {e}"))?;
    let set = rc
        .set
        .iter()
        .flatten()
        .map(|(name, v)| {
            let reg = parse_reg(name)?;
            if matches!(reg, Reg::A | Reg::B | Reg::Ccr) && *v > 0xFF {
                return Err(format!("`set`: {v} does not fit in register {name}"));
            }
            if reg == Reg::Pc {
                return Err("`set` may not change the PC".into());
            }
            Ok((reg, *v))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let finish = rc.finish.unwrap_or(false);
    let preserved = rc
        .preserved
        .iter()
        .flatten()
        .map(|n| parse_reg(n))
        .collect::<Result<Vec<_>, _>>()?;
    if !preserved.is_empty() && !finish {
        return Err(
            "`preserved` compares the return with the breakpoint: set `finish = true`".into(),
        );
    }
    let expect = convert_list(&rc.expect, dir, "expect")?;
    if expect.is_empty() && preserved.is_empty() {
        return Err("a breakpoint check needs `expect` or `preserved`".into());
    }
    if !has_reference && expect.iter().any(Assertion::uses_reference) {
        return Err("compares with the reference, but `[assignment]` names no `reference`".into());
    }
    if expect
        .iter()
        .any(|a| matches!(a, Assertion::CyclesAtMost(_)))
    {
        return Err("`cycles_at_most` belongs to scenarios".into());
    }
    Ok(BreakCheck {
        keys,
        at,
        set,
        finish,
        preserved,
        max_cycles: rc.max_cycles,
        expect,
    })
}

fn convert_games(rc: &RawCheck, dir: &Path) -> Result<Games, String> {
    let games = rc.games.unwrap_or(20);
    if games == 0 || games > 10_000 {
        return Err("`games` must be 1..10000".into());
    }
    if rc.generator.as_deref().is_some_and(|g| g != "connect4") {
        return Err(
            "kind = \"games\" plays Connect 4: `generator` can only be \"connect4\"".into(),
        );
    }
    if rc.columns.is_some_and(|c| c != 7) || rc.rows.is_some_and(|r| r != 6) {
        return Err("kind = \"games\" plays on the firmware's 7x6 board".into());
    }
    let unused = [
        ("alphabet", rc.alphabet.is_some()),
        ("after_end", rc.after_end.is_some()),
        ("compare_lcd", rc.compare_lcd.is_some()),
        ("compare", rc.compare.is_some()),
    ];
    reject_fields(rc, "games", &unused)?;
    let board = MemSpec::parse(rc.board.as_deref().unwrap_or("board"))?;
    let board = MemSpec { len: 336, ..board };
    let start_column = rc.start_column.unwrap_or(3);
    if start_column >= 7 {
        return Err("`start_column` must be 0..6".into());
    }
    let each_move = convert_list(rc.each_move.as_deref().unwrap_or(&[]), dir, "each_move")?;
    let game_over = convert_list(rc.game_over.as_deref().unwrap_or(&[]), dir, "game_over")?;
    if each_move
        .iter()
        .chain(&game_over)
        .any(|a| a.uses_reference() || matches!(a, Assertion::CyclesAtMost(_)))
    {
        return Err("games compare with no reference and count no cycles: use fixed values".into());
    }
    Ok(Games {
        games,
        seed: rc.seed.unwrap_or(1),
        board,
        start_column,
        max_moves: rc.max_moves.unwrap_or(30).max(1),
        until: rc.until.as_deref().map(MemSpec::parse).transpose()?,
        each_move,
        game_over,
    })
}

fn convert_expect(e: &RawExpect, dir: &Path) -> Result<Assertion, String> {
    let subjects = [
        ("symbol", e.symbol.is_some()),
        ("register", e.register.is_some()),
        ("lcd", e.lcd.is_some()),
        ("serial", e.serial.is_some()),
        ("serial_contains", e.serial_contains.is_some()),
        ("serial_regex", e.serial_regex.is_some()),
        ("serial_reference", e.serial_reference.is_some()),
        ("cycles_at_most", e.cycles_at_most.is_some()),
        ("flag", e.flag.is_some()),
        ("connect4", e.connect4.is_some()),
    ];
    let given: Vec<&str> = subjects.iter().filter(|s| s.1).map(|s| s.0).collect();
    let [subject] = given.as_slice() else {
        return Err(format!(
            "name exactly one of symbol, register, flag, lcd, serial, serial_contains, serial_regex, serial_reference, cycles_at_most, connect4 (found {})",
            if given.is_empty() { "none".to_string() } else { given.join(", ") }
        ));
    };
    let value_fields = [
        ("equals", e.equals.is_some()),
        ("bytes", e.bytes.is_some()),
        ("same_as_reference", e.same_as_reference.is_some()),
    ];
    let lcd_fields = [
        ("frame", e.frame.is_some()),
        ("frame_file", e.frame_file.is_some()),
        ("region", e.region.is_some()),
    ];
    if e.stones.is_some() && *subject != "connect4" {
        return Err(format!("`stones` does not go with `{subject}`"));
    }
    let only = |allowed: &[&str]| -> Result<(), String> {
        let extra = value_fields
            .iter()
            .chain(lcd_fields.iter())
            .find(|(n, present)| *present && !allowed.contains(n));
        match extra {
            Some((n, _)) => Err(format!("`{n}` does not go with `{subject}`")),
            None => Ok(()),
        }
    };
    let expected = || -> Result<Expected, String> {
        let chosen = value_fields.iter().filter(|f| f.1).count();
        if chosen != 1 {
            return Err(format!(
                "`{subject}` needs exactly one of `equals`, `bytes`, `same_as_reference = true`"
            ));
        }
        if let Some(v) = e.equals {
            return Ok(Expected::Value(v));
        }
        if let Some(b) = &e.bytes {
            return Ok(Expected::Bytes(b.clone()));
        }
        match e.same_as_reference {
            Some(true) => Ok(Expected::Reference),
            _ => Err("`same_as_reference = false` checks nothing; remove it".into()),
        }
    };
    match *subject {
        "symbol" => {
            only(&["equals", "bytes", "same_as_reference"])?;
            let spec = MemSpec::parse(e.symbol.as_deref().unwrap_or_default())?;
            let expected = expected()?;
            match &expected {
                Expected::Bytes(b) if b.len() != spec.len as usize => {
                    return Err(format!(
                        "`{spec}` is {} byte(s) but `bytes` lists {}",
                        spec.len,
                        b.len()
                    ))
                }
                Expected::Value(v) if spec.len < 8 && *v >> (8 * spec.len) != 0 => {
                    return Err(format!(
                        "{v} does not fit in the {} byte(s) of `{spec}`",
                        spec.len
                    ))
                }
                Expected::Value(_) if spec.len > 8 => {
                    return Err(format!(
                        "`equals` needs at most 8 bytes; use `bytes` for `{spec}`"
                    ))
                }
                _ => {}
            }
            Ok(Assertion::Memory { spec, expected })
        }
        "register" => {
            only(&["equals", "same_as_reference"])?;
            let name = e.register.as_deref().unwrap_or_default();
            let reg = Reg::parse(name).ok_or_else(|| {
                format!("unknown register `{name}`: use a, b, d, x, y, sp, pc or ccr")
            })?;
            Ok(Assertion::Register {
                reg,
                expected: expected()?,
            })
        }
        "lcd" => {
            only(&["frame", "frame_file", "region"])?;
            let region = match e.region {
                Some([x, y, w, h]) => Rect::new(x, y, w, h).ok_or_else(|| {
                    format!("region [{x}, {y}, {w}, {h}] is empty or leaves the 128x64 LCD")
                })?,
                None => Rect::FULL,
            };
            let expected = match e.lcd.as_deref().unwrap_or_default() {
                "reference" => {
                    if e.frame.is_some() || e.frame_file.is_some() {
                        return Err("lcd = \"reference\" takes no `frame`".into());
                    }
                    LcdExpected::Reference
                }
                "frame" => {
                    let text = match (&e.frame, &e.frame_file) {
                        (Some(t), None) => t.clone(),
                        (None, Some(f)) => std::fs::read_to_string(dir.join(f))
                            .map_err(|err| format!("frame_file `{f}`: {err}"))?,
                        _ => {
                            return Err(
                                "lcd = \"frame\" needs one of `frame` or `frame_file`".into()
                            )
                        }
                    };
                    LcdExpected::Frame(Box::new(Frame::parse(&text)?))
                }
                other => return Err(format!("lcd = \"{other}\": use \"reference\" or \"frame\"")),
            };
            Ok(Assertion::Lcd { expected, region })
        }
        "serial" => {
            only(&[])?;
            Ok(Assertion::Serial(SerialExpected::Equals(
                e.serial.clone().unwrap_or_default(),
            )))
        }
        "serial_contains" => {
            only(&[])?;
            Ok(Assertion::Serial(SerialExpected::Contains(
                e.serial_contains.clone().unwrap_or_default(),
            )))
        }
        "serial_regex" => {
            only(&[])?;
            let re = e.serial_regex.as_deref().unwrap_or_default();
            let re = regex::Regex::new(re).map_err(|err| format!("serial_regex: {err}"))?;
            Ok(Assertion::Serial(SerialExpected::Regex(re)))
        }
        "serial_reference" => {
            only(&[])?;
            if e.serial_reference != Some(true) {
                return Err("`serial_reference = false` checks nothing; remove it".into());
            }
            Ok(Assertion::Serial(SerialExpected::Reference))
        }
        "flag" => {
            only(&["equals"])?;
            let name = e.flag.as_deref().unwrap_or_default();
            let flag = match name.to_ascii_uppercase().as_str() {
                f @ ("S" | "X" | "H" | "I" | "N" | "Z" | "V" | "C") => f.chars().next(),
                _ => None,
            }
            .ok_or_else(|| format!("unknown flag `{name}`: use one of S X H I N Z V C"))?;
            let set = match e.equals {
                Some(0) => false,
                Some(1) => true,
                _ => return Err(format!("flag `{name}` needs `equals = 0` or `equals = 1`")),
            };
            Ok(Assertion::Flag { flag, set })
        }
        "connect4" => {
            only(&[])?;
            let board = MemSpec::parse(e.connect4.as_deref().unwrap_or_default())?;
            let equal = match e.stones.as_deref().unwrap_or("alternate") {
                "alternate" => false,
                "equal" => true,
                other => {
                    return Err(format!(
                        "stones = \"{other}\": use \"alternate\" or \"equal\""
                    ))
                }
            };
            Ok(Assertion::Connect4 {
                board: MemSpec { len: 336, ..board },
                equal,
            })
        }
        _ => {
            only(&[])?;
            Ok(Assertion::CyclesAtMost(
                e.cycles_at_most.unwrap_or_default(),
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str =
        "[assignment]\nid = \"t\"\ntitle = \"T\"\nentry = \"Main.asm\"\nreference = \"ref\"\n";

    fn parse(checks: &str) -> Result<Assignment, String> {
        Assignment::from_toml(&format!("{HEAD}{checks}"), Path::new("/tmp/a"))
    }

    #[test]
    fn memspec_forms() {
        let m = MemSpec::parse("board+136:8").unwrap();
        assert_eq!(
            m,
            MemSpec {
                symbol: Some("board".into()),
                offset: 136,
                len: 8
            }
        );
        assert_eq!(m.to_string(), "board+136:8");
        let a = MemSpec::parse("$0190:2").unwrap();
        assert_eq!((a.symbol, a.offset, a.len), (None, 0x190, 2));
        assert_eq!(MemSpec::parse("player").unwrap().len, 1);
        assert!(MemSpec::parse("x y").is_err());
        assert!(MemSpec::parse("$10000").is_err());
        assert!(MemSpec::parse("board:0").is_err());
    }

    #[test]
    fn full_scenario_parses() {
        let a = parse(
            r#"
[[check]]
name = "assembles"
kind = "assembles"
points = 1
[[check]]
name = "win"
kind = "scenario"
points = 2.5
visibility = "after_due_date"
feedback = "look at checkWin"
keys = "drop,drop"
expect = [
  { symbol = "playerWonFlag", equals = 1 },
  { symbol = "board+280:2", bytes = [255, 129] },
  { register = "sp", same_as_reference = true },
  { lcd = "reference", region = [36, 0, 56, 48] },
  { serial_regex = "Player [12]" },
  { cycles_at_most = 1000 },
]
"#,
        )
        .unwrap();
        assert_eq!(a.checks.len(), 2);
        assert_eq!(a.max_score(), 3.5);
        assert!(a.needs_reference());
        let CheckKind::Scenario(s) = &a.checks[1].kind else {
            panic!("not a scenario")
        };
        assert_eq!(s.expect.len(), 6);
        assert_eq!(a.checks[1].visibility, Visibility::AfterDueDate);
        assert_eq!(
            a.reference,
            Some(ReferenceSource::Folder("/tmp/a/ref".into()))
        );
    }

    #[test]
    fn differential_defaults() {
        let a = parse(
            "[[check]]\nname = \"games\"\nkind = \"differential\"\npoints = 10\nuntil = \"playerWonFlag\"\ncompare = [\"player\"]\n",
        )
        .unwrap();
        let CheckKind::Differential(d) = &a.checks[0].kind else {
            panic!("not differential")
        };
        assert_eq!(d.games, 20);
        assert_eq!(
            d.generator,
            Generator::Connect4 {
                columns: 7,
                rows: 6,
                start_column: 3
            }
        );
        assert!(d.compare_lcd);
    }

    #[test]
    fn mistakes_are_named() {
        let e =
            parse("[[check]]\nname = \"a\"\nkind = \"assembles\"\npoints = 1\nkeys = \"drop\"\n")
                .unwrap_err();
        assert!(e.contains("`keys` does not apply"), "{e}");
        let e = parse("[[check]]\nname = \"a\"\nkind = \"scenario\"\npoints = 1\nexpect = [{ symbol = \"p\" }]\n")
            .unwrap_err();
        assert!(e.contains("exactly one of `equals`"), "{e}");
        let e = parse("[[check]]\nname = \"a\"\nkind = \"scenario\"\npoints = 1\nexpect = [{ symbol = \"p\", equals = 300 }]\n")
            .unwrap_err();
        assert!(e.contains("does not fit"), "{e}");
        let e = parse("[[check]]\nname = \"a\"\nkind = \"scenario\"\npoints = 1\nexpect = [{ lcd = \"reference\", region = [120, 0, 20, 8] }]\n")
            .unwrap_err();
        assert!(e.contains("leaves the 128x64"), "{e}");
        let e = parse("[[check]]\nname = \"a\"\nkind = \"scenario\"\npoints = 1\nexpect = [{ symbol = \"p\", register = \"a\", equals = 1 }]\n")
            .unwrap_err();
        assert!(e.contains("exactly one of symbol"), "{e}");
        let e = parse("[[check]]\nname = \"a\"\nkind = \"assembles\"\npoints = 1\n[[check]]\nname = \"a\"\nkind = \"assembles\"\npoints = 1\n")
            .unwrap_err();
        assert!(e.contains("same name"), "{e}");
        let e = parse("[[check]]\nname = \"a\"\nkind = \"assembles\"\npoints = 1\ncolour = 3\n")
            .unwrap_err();
        assert!(e.contains("colour"), "{e}");
    }

    #[test]
    fn breakpoint_check_parses() {
        let a = parse(
            r#"
[[check]]
name = "keeps A and B"
kind = "breakpoint"
points = 3
keys = "drop"
at = "drawCell:2 if [cellAddress].w == 136"
set = { a = 0x12, b = 0x34, x = 0x5678 }
finish = true
preserved = ["a", "b", "sp"]
expect = [
  { flag = "z", equals = 1 },
  { register = "x", equals = 0x5678 },
  { symbol = "board:336", same_as_reference = true },
]
"#,
        )
        .unwrap();
        let CheckKind::Breakpoint(b) = &a.checks[0].kind else {
            panic!("not a breakpoint check")
        };
        assert_eq!(b.at, "drawCell:2 if [cellAddress].w == 136");
        assert!(b.finish);
        assert_eq!(
            b.set,
            vec![(Reg::A, 0x12), (Reg::B, 0x34), (Reg::X, 0x5678)]
        );
        assert_eq!(b.preserved, vec![Reg::A, Reg::B, Reg::Sp]);
        assert_eq!(
            b.expect[0],
            Assertion::Flag {
                flag: 'Z',
                set: true
            }
        );
        assert!(a.needs_reference());
    }

    #[test]
    fn breakpoint_mistakes_are_named() {
        let check = |body: &str| {
            parse(&format!(
                "[[check]]\nname = \"b\"\nkind = \"breakpoint\"\npoints = 1\n{body}\n"
            ))
            .unwrap_err()
        };
        let e = check("expect = [{ register = \"a\", equals = 1 }]");
        assert!(e.contains("needs `at`"), "{e}");
        let e = check("at = \"drawCell if (\"\nexpect = [{ register = \"a\", equals = 1 }]");
        assert!(e.contains("condition"), "{e}");
        let e = check("at = \"drawCell\"\npreserved = [\"a\"]");
        assert!(e.contains("finish = true"), "{e}");
        let e = check("at = \"drawCell\"\nset = { a = 300 }\nfinish = true\npreserved = [\"a\"]");
        assert!(e.contains("does not fit"), "{e}");
        let e = check("at = \"drawCell\"\nexpect = [{ flag = \"q\", equals = 1 }]");
        assert!(e.contains("unknown flag"), "{e}");
        let e = check("at = \"drawCell\"\nexpect = [{ flag = \"c\", equals = 2 }]");
        assert!(e.contains("equals = 0"), "{e}");
        let e = check("at = \"drawCell\"\nkeys = \"jump\"\nfinish = true\npreserved = [\"a\"]");
        assert!(e.contains("keys"), "{e}");
        let e = check("at = \"drawCell\"\ngames = 3\nexpect = [{ register = \"a\", equals = 1 }]");
        assert!(e.contains("`games` does not apply"), "{e}");
    }

    #[test]
    fn games_check_parses() {
        let a = parse(
            r#"
[[check]]
name = "legal"
kind = "games"
points = 6
games = 4
until = "playerWonFlag"
each_move = [{ connect4 = "board", stones = "equal" }, { symbol = "player", equals = 1 }]
game_over = [{ connect4 = "board" }]
"#,
        )
        .unwrap();
        let CheckKind::Games(g) = &a.checks[0].kind else {
            panic!("not a games check")
        };
        assert_eq!(g.games, 4);
        assert_eq!(g.board.len, 336);
        assert_eq!(g.each_move.len(), 2);
        assert_eq!(
            g.game_over[0],
            Assertion::Connect4 {
                board: MemSpec::parse("board:336").unwrap(),
                equal: false
            }
        );
        let e = parse("[[check]]\nname = \"g\"\nkind = \"games\"\npoints = 1\neach_move = [{ lcd = \"reference\" }]\n")
            .unwrap_err();
        assert!(e.contains("no reference"), "{e}");
        let e = parse("[[check]]\nname = \"g\"\nkind = \"games\"\npoints = 1\nkeys = \"drop\"\n")
            .unwrap_err();
        assert!(e.contains("`keys` does not apply"), "{e}");
        let e = parse("[[check]]\nname = \"s\"\nkind = \"scenario\"\npoints = 1\nexpect = [{ connect4 = \"board\", stones = \"many\" }]\n")
            .unwrap_err();
        assert!(e.contains("\"alternate\""), "{e}");
    }

    #[test]
    fn limits_are_checked() {
        let e = parse(
            "[limits]\nmax_cycles = 0\n[[check]]\nname = \"a\"\nkind = \"assembles\"\npoints = 1\n",
        )
        .unwrap_err();
        assert!(e.contains("max_cycles must be"), "{e}");
    }

    #[test]
    fn reference_required_for_comparisons() {
        let text = "[assignment]\nid = \"t\"\ntitle = \"T\"\nentry = \"M.asm\"\n[[check]]\nname = \"a\"\nkind = \"scenario\"\npoints = 1\nexpect = [{ lcd = \"reference\" }]\n";
        let e = Assignment::from_toml(text, Path::new(".")).unwrap_err();
        assert!(e.contains("names no `reference`"), "{e}");
    }
}
