//! The typed checks of an assignment: scenarios, breakpoints, differential
//! and random games, and the assertions they make.

use super::*;

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
    /// The submission's own LCD as it was before the scenario's last
    /// `last_keys` actions: those keys change nothing on the screen,
    /// whatever it shows (a locked game with a wrong message still passes).
    Unchanged {
        /// How many of the scenario's last actions (items of `keys`).
        last_keys: u32,
    },
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

pub(super) mod regex_serde {
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
    /// The LCD controller's electronic volume register (0..=63, set by the
    /// $81 command and the byte after it): proves a contrast command arrived.
    LcdVolume(u8),
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
    /// An assembled image (`*.s19` with `reference.sym` beside it, see
    /// [`crate::grade::reference`]), so no solution source ships; the other
    /// files of its folder are the provided ones.
    Image(PathBuf),
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
            Assertion::CyclesAtMost(_)
            | Assertion::Flag { .. }
            | Assertion::Connect4 { .. }
            | Assertion::LcdVolume(_) => false,
        }
    }

    /// For `lcd = "unchanged"`: how many of the scenario's last actions
    /// must leave the screen as it was.
    pub fn unchanged_last_keys(&self) -> Option<u32> {
        match self {
            Assertion::Lcd {
                expected: LcdExpected::Unchanged { last_keys },
                ..
            } => Some(*last_keys),
            _ => None,
        }
    }
}
