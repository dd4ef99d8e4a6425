//! A lesson's manifest (`lesson.toml`): the steps in order, each with the
//! checks the engine evaluates on the live machine and, optionally, the
//! actions of a model student (used by the tests and by a "show me" button).
//! Texts are not here: they live in `de.md` / `en.md` (see [`super::text`]).
//!
//! ```toml
//! [lesson]
//! order = 3                      # position in the list (default: by folder name)
//! program = "bundled"            # the program it runs on (the bundled firmware,
//!                                # or a path relative to the lesson folder)
//! board = "trainer11"            # trainer11 (default), evb or a board file
//! dialect = "course"             # course (default), as11 or asm11
//! rom = "monitor.s19"            # optional ROM image under the program
//!
//! [[step]]
//! id = "address"                 # matches `## ... {#address}` in de.md and en.md
//! solution = ["break drawCell if [cellAddress].w == 136", "run"]
//! check = [
//!   { kind = "stopped", at = "drawCell" },
//!   { kind = "memory", at = "cellAddress", size = 2, equals = 136 },
//! ]
//! ```

use serde::Deserialize;
use thiserror::Error;

/// A malformed manifest.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ManifestError {
    /// The TOML does not parse or does not fit the schema.
    #[error("{0}")]
    Toml(String),
    /// The manifest has no steps.
    #[error("the lesson has no `[[step]]`")]
    NoSteps,
    /// A step id is empty or has characters other than letters, digits, `-`, `_`.
    #[error("step {index}: id `{id}` must be letters, digits, `-` or `_`")]
    BadId {
        /// 1-based step number.
        index: usize,
        /// The id.
        id: String,
    },
    /// Two steps share an id.
    #[error("step id `{0}` is used twice")]
    DuplicateId(String),
    /// A step has no check, so nothing could ever complete it.
    #[error("step `{0}` has no check")]
    NoCheck(String),
    /// A check's parameters are out of range.
    #[error("step `{step}`: {message}")]
    BadCheck {
        /// The step id.
        step: String,
        /// What is wrong.
        message: String,
    },
    /// A solution action does not parse.
    #[error("step `{step}`: solution action `{action}`: {message}")]
    BadAction {
        /// The step id.
        step: String,
        /// The action as written.
        action: String,
        /// What is wrong.
        message: String,
    },
}

/// The whole `lesson.toml`.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// The `[lesson]` table.
    #[serde(default)]
    pub lesson: Header,
    /// The steps, in order.
    #[serde(default)]
    pub step: Vec<Step>,
}

/// The `[lesson]` table.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// Sort key in the list; lessons without one sort after, by id.
    pub order: Option<u32>,
    /// The program: `bundled` (default) or a path relative to the lesson
    /// folder (an `.asm` main file, a folder of sources, an S19 or ELF image).
    pub program: Option<String>,
    /// The board: `trainer11` (default), `evb`, or a board file relative to
    /// the lesson folder (docs/boards.md).
    pub board: Option<String>,
    /// The source dialect of `program`: `course` (default), `as11`, `asm11`.
    pub dialect: Option<crate::asm::Dialect>,
    /// A ROM image (S19 or ELF, relative to the lesson folder) loaded into
    /// the board's ROM under the program, as `run --rom` does.
    pub rom: Option<String>,
}

/// One step of a lesson.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Links the step to its text sections (`## ... {#id}`) and to saved progress.
    pub id: String,
    /// All of these must hold (event checks count once they happened during the step).
    #[serde(default)]
    pub check: Vec<Check>,
    /// What a model student does to complete the step (see [`Action`]).
    #[serde(default)]
    pub solution: Vec<String>,
}

/// A number in a check: an integer or an expression over the program's
/// symbols (`board+136`, `$C8`, `boardOffset+3*8`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A plain integer.
    Int(i64),
    /// An expression, evaluated against the program's symbols.
    Expr(String),
}

/// A CPU register a check can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RegName {
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

/// What a step asks for; evaluated by the engine, language-independent.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Check {
    /// A breakpoint is set at `at` (label, `label+N`, `File.inc:LINE`, `$ADDR`).
    Breakpoint(AtCheck),
    /// The machine is paused and its next instruction is at `at`.
    Stopped(AtCheck),
    /// A byte or word of memory compares as given.
    Memory(MemoryCheck),
    /// A register compares as given.
    Register(RegisterCheck),
    /// A cell of the Viergewinnt buffer holds a player's stone (0 = empty).
    Cell(CellCheck),
    /// An LCD pixel is on or off.
    Pixel(PixelCheck),
    /// A key was tapped during the step.
    Key(KeyCheck),
    /// The machine was reset during the step.
    Reset(Empty),
    /// The student asked where a pixel or a byte came from.
    Explained(ExplainedCheck),
    /// The student answered with a number.
    Number(NumberCheck),
    /// The student picked a choice.
    Choice(ChoiceCheck),
    /// The serial terminal shows this text.
    Serial(SerialCheck),
}

/// A check without parameters.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Empty {}

/// Parameters of `breakpoint` and `stopped`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AtCheck {
    /// Label, `label+N`, `File.inc:LINE` or `$ADDR`.
    pub at: String,
}

/// Comparison of a value: all given bounds must hold.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compare {
    /// Equal to.
    pub equals: Option<Value>,
    /// Different from.
    pub not_equals: Option<Value>,
    /// At least.
    pub min: Option<Value>,
    /// At most.
    pub max: Option<Value>,
}

/// Parameters of `memory`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemoryCheck {
    /// Address expression (`player`, `board+136`, `$0190`).
    pub at: String,
    /// 1 (byte) or 2 (big-endian word).
    #[serde(default = "one")]
    pub size: u8,
    /// Bounds.
    pub equals: Option<Value>,
    /// Different from.
    pub not_equals: Option<Value>,
    /// At least.
    pub min: Option<Value>,
    /// At most.
    pub max: Option<Value>,
}

/// Parameters of `register`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RegisterCheck {
    /// The register.
    pub reg: RegName,
    /// Equal to.
    pub equals: Option<Value>,
    /// Different from.
    pub not_equals: Option<Value>,
    /// At least.
    pub min: Option<Value>,
    /// At most.
    pub max: Option<Value>,
}

/// Parameters of `cell`: column 0..6 (left to right), row 0..5 (top to
/// bottom), as `getCellAddress` counts them.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellCheck {
    /// Column 0..6.
    pub column: u8,
    /// Row 0..5; any row of the column if absent.
    pub row: Option<u8>,
    /// 0 = empty, 1 = player 1 (filled), 2 = player 2 (ring).
    pub player: u8,
}

/// Parameters of `pixel`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PixelCheck {
    /// Column 0..127.
    pub x: u8,
    /// Row 0..63 (0 on top).
    pub y: u8,
    /// Dark (true) or clear.
    pub on: bool,
}

/// Parameters of `key`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeyCheck {
    /// Key 0..7 (0 drop, 1 left, 3 right, 4 reset).
    pub key: u8,
    /// Taps needed during the step.
    #[serde(default = "one_u32")]
    pub count: u32,
}

/// Parameters of `explained`: the subject and, optionally, a label the
/// explanation's chain must pass through.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplainedCheck {
    /// Exactly this pixel (x, y).
    pub pixel: Option<[u8; 2]>,
    /// Any pixel in this rectangle (x0, y0, x1, y1 inclusive).
    pub region: Option<[u8; 4]>,
    /// A byte of memory (address expression).
    pub address: Option<String>,
    /// The chain must contain an instruction in this routine (`stone1ToBuffer`).
    pub via: Option<String>,
}

/// Parameters of `number`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NumberCheck {
    /// The right answer.
    pub equals: Value,
    /// Accepted distance from it.
    #[serde(default)]
    pub tolerance: u64,
}

/// Parameters of `choice`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChoiceCheck {
    /// The key of the right choice (`b`).
    pub answer: String,
}

/// Parameters of `serial`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SerialCheck {
    /// Text the terminal output must contain.
    pub contains: String,
}

fn one() -> u8 {
    1
}

fn one_u32() -> u32 {
    1
}

impl Check {
    /// True for checks that are about something the student did (they
    /// count once it happened during the step), false for checks on the
    /// machine's state (they must hold when evaluated).
    pub fn is_event(&self) -> bool {
        matches!(
            self,
            Check::Key(_)
                | Check::Reset(_)
                | Check::Explained(_)
                | Check::Number(_)
                | Check::Choice(_)
        )
    }

    /// True for checks answered in the lesson panel (a number or a choice).
    pub fn is_answer(&self) -> bool {
        matches!(self, Check::Number(_) | Check::Choice(_))
    }

    /// The kind's name as written in the manifest.
    pub fn kind(&self) -> &'static str {
        match self {
            Check::Breakpoint(_) => "breakpoint",
            Check::Stopped(_) => "stopped",
            Check::Memory(_) => "memory",
            Check::Register(_) => "register",
            Check::Cell(_) => "cell",
            Check::Pixel(_) => "pixel",
            Check::Key(_) => "key",
            Check::Reset(_) => "reset",
            Check::Explained(_) => "explained",
            Check::Number(_) => "number",
            Check::Choice(_) => "choice",
            Check::Serial(_) => "serial",
        }
    }

    fn validate(&self) -> Result<(), String> {
        match self {
            Check::Memory(m) if !(m.size == 1 || m.size == 2) => {
                Err(format!("memory check `{}`: size must be 1 or 2", m.at))
            }
            Check::Cell(c) if c.column > 6 || c.row.is_some_and(|r| r > 5) || c.player > 2 => {
                Err("cell check: column 0..6, row 0..5, player 0..2".into())
            }
            Check::Pixel(p) if p.x > 127 || p.y > 63 => {
                Err(format!("pixel ({}, {}) is outside 128x64", p.x, p.y))
            }
            Check::Key(k) if k.key > 7 || k.count == 0 => {
                Err("key check: key 0..7, count at least 1".into())
            }
            Check::Explained(e) => {
                let subjects = [e.pixel.is_some(), e.region.is_some(), e.address.is_some()]
                    .iter()
                    .filter(|b| **b)
                    .count();
                if subjects != 1 {
                    return Err(
                        "explained check: give exactly one of `pixel`, `region`, `address`".into(),
                    );
                }
                if let Some([x, y]) = e.pixel {
                    if x > 127 || y > 63 {
                        return Err(format!("pixel ({x}, {y}) is outside 128x64"));
                    }
                }
                if let Some([x0, y0, x1, y1]) = e.region {
                    if x0 > x1 || y0 > y1 || x1 > 127 || y1 > 63 {
                        return Err(
                            "region must be [x0, y0, x1, y1] inside 128x64 with x0<=x1, y0<=y1"
                                .into(),
                        );
                    }
                }
                Ok(())
            }
            Check::Choice(c) if c.answer.trim().is_empty() => {
                Err("choice check: empty answer".into())
            }
            Check::Serial(s) if s.contains.is_empty() => Err("serial check: empty text".into()),
            _ => Ok(()),
        }
    }
}

/// One action of a model student, in the order written in `solution`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// `reset`: reset the machine.
    Reset,
    /// `break SPEC`: set a breakpoint (debugger spec, e.g. `drawCell if [cellAddress].w == 136`).
    Break(String),
    /// `clear`: remove all breakpoints.
    Clear,
    /// `run`: run until something stops the machine.
    Run,
    /// `step`: one instruction.
    Step,
    /// `over`: step over a subroutine call.
    Over,
    /// `out`: run until the current subroutine returns.
    Out,
    /// `keys LIST`: tap keys as `--keys` does (`drop,left,3`) and let the program settle.
    Keys(String),
    /// `explain pixel X Y`: ask where a pixel came from.
    ExplainPixel(u8, u8),
    /// `explain ADDR`: ask where a byte came from.
    ExplainAddress(String),
    /// `answer TEXT`: answer the step's question.
    Answer(String),
    /// `check`: press the Check button.
    Check,
}

impl Action {
    /// Parses one solution line.
    pub fn parse(text: &str) -> Result<Action, String> {
        let t = text.trim();
        let (word, rest) = match t.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (t, ""),
        };
        let no_arg = |a: Action| {
            if rest.is_empty() {
                Ok(a)
            } else {
                Err(format!("`{word}` takes no argument"))
            }
        };
        let need_arg = |f: fn(String) -> Action| {
            if rest.is_empty() {
                Err(format!("`{word}` needs an argument"))
            } else {
                Ok(f(rest.to_string()))
            }
        };
        match word {
            "reset" => no_arg(Action::Reset),
            "clear" => no_arg(Action::Clear),
            "run" => no_arg(Action::Run),
            "step" => no_arg(Action::Step),
            "over" => no_arg(Action::Over),
            "out" => no_arg(Action::Out),
            "check" => no_arg(Action::Check),
            "break" => need_arg(Action::Break),
            "keys" => need_arg(Action::Keys),
            "answer" => need_arg(Action::Answer),
            "explain" => {
                let mut parts = rest.split_whitespace();
                match (parts.next(), parts.next(), parts.next(), parts.next()) {
                    (Some("pixel"), Some(x), Some(y), None) => {
                        let x: u8 = x.parse().map_err(|_| format!("bad x `{x}`"))?;
                        let y: u8 = y.parse().map_err(|_| format!("bad y `{y}`"))?;
                        if x > 127 || y > 63 {
                            return Err(format!("pixel ({x}, {y}) is outside 128x64"));
                        }
                        Ok(Action::ExplainPixel(x, y))
                    }
                    (Some(addr), None, None, None) if addr != "pixel" => {
                        Ok(Action::ExplainAddress(addr.to_string()))
                    }
                    _ => Err("use `explain pixel X Y` or `explain ADDRESS`".into()),
                }
            }
            _ => Err(format!(
                "unknown action `{word}` (known: reset, break, clear, run, step, over, out, keys, explain, answer, check)"
            )),
        }
    }
}

fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

impl Manifest {
    /// Parses and validates a `lesson.toml`; the first problem if any.
    pub fn parse(text: &str) -> Result<Manifest, ManifestError> {
        Manifest::parse_all(text).map_err(|mut all| all.swap_remove(0))
    }

    /// Parses and validates a `lesson.toml`, reporting every problem of
    /// its steps at once (a TOML error stops at that one).
    pub fn parse_all(text: &str) -> Result<Manifest, Vec<ManifestError>> {
        let m: Manifest =
            toml::from_str(text).map_err(|e| vec![ManifestError::Toml(e.to_string())])?;
        if m.step.is_empty() {
            return Err(vec![ManifestError::NoSteps]);
        }
        let mut errors = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for (i, s) in m.step.iter().enumerate() {
            if !valid_id(&s.id) {
                errors.push(ManifestError::BadId {
                    index: i + 1,
                    id: s.id.clone(),
                });
            }
            if !seen.insert(s.id.as_str()) {
                errors.push(ManifestError::DuplicateId(s.id.clone()));
            }
            if s.check.is_empty() {
                errors.push(ManifestError::NoCheck(s.id.clone()));
            }
            for c in &s.check {
                if let Err(message) = c.validate() {
                    errors.push(ManifestError::BadCheck {
                        step: s.id.clone(),
                        message,
                    });
                }
            }
            let answers = s.check.iter().filter(|c| c.is_answer()).count();
            if answers > 1 {
                errors.push(ManifestError::BadCheck {
                    step: s.id.clone(),
                    message: "a step asks at most one question (one `number` or `choice` check)"
                        .into(),
                });
            }
            for a in &s.solution {
                if let Err(message) = Action::parse(a) {
                    errors.push(ManifestError::BadAction {
                        step: s.id.clone(),
                        action: a.clone(),
                        message,
                    });
                }
            }
        }
        if errors.is_empty() {
            Ok(m)
        } else {
            Err(errors)
        }
    }

    /// The step with this id.
    pub fn step(&self, id: &str) -> Option<&Step> {
        self.step.iter().find(|s| s.id == id)
    }
}

impl Step {
    /// The model student's actions, parsed (validated by [`Manifest::parse`]).
    pub fn actions(&self) -> Vec<Action> {
        self.solution
            .iter()
            .filter_map(|a| Action::parse(a).ok())
            .collect()
    }

    /// The step's question check, if it asks one.
    pub fn question(&self) -> Option<&Check> {
        self.check.iter().find(|c| c.is_answer())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_check_kinds() {
        let m = Manifest::parse(
            r#"
[lesson]
order = 4
[[step]]
id = "a"
solution = ["break drawCell if [cellAddress].w == 136", "run", "explain pixel 60 40", "answer $C8"]
check = [
  { kind = "breakpoint", at = "readInput" },
  { kind = "stopped", at = "drawCell" },
  { kind = "memory", at = "cellAddress", size = 2, equals = 136 },
  { kind = "register", reg = "a", min = 1, max = "boardOffset" },
  { kind = "cell", column = 3, player = 1 },
  { kind = "pixel", x = 60, y = 40, on = true },
  { kind = "key", key = 0, count = 2 },
  { kind = "reset" },
  { kind = "explained", pixel = [60, 40], via = "drawCell" },
  { kind = "number", equals = "board+136" },
  { kind = "serial", contains = "\f" },
]
[[step]]
id = "b"
[[step.check]]
kind = "choice"
answer = "b"
"#,
        )
        .unwrap();
        assert_eq!(m.lesson.order, Some(4));
        let a = &m.step[0];
        assert_eq!(a.check.len(), 11);
        assert_eq!(
            a.check[2],
            Check::Memory(MemoryCheck {
                at: "cellAddress".into(),
                size: 2,
                equals: Some(Value::Int(136)),
                not_equals: None,
                min: None,
                max: None,
            })
        );
        assert!(
            matches!(&a.check[3], Check::Register(r) if r.max == Some(Value::Expr("boardOffset".into())))
        );
        assert!(matches!(
            &a.check[6],
            Check::Key(KeyCheck { key: 0, count: 2 })
        ));
        assert_eq!(a.actions()[2], Action::ExplainPixel(60, 40));
        assert!(matches!(m.step[1].question(), Some(Check::Choice(c)) if c.answer == "b"));
        assert!(a.check.iter().filter(|c| c.is_event()).count() == 4);
    }

    #[test]
    fn rejects_bad_manifests() {
        let bad = |t: &str| Manifest::parse(t).unwrap_err();
        assert_eq!(bad("[lesson]\n"), ManifestError::NoSteps);
        assert!(matches!(
            bad("[[step]]\nid = \"a b\"\ncheck=[{kind=\"reset\"}]"),
            ManifestError::BadId { .. }
        ));
        assert_eq!(
            bad("[[step]]\nid = \"a\"\ncheck=[{kind=\"reset\"}]\n[[step]]\nid = \"a\"\ncheck=[{kind=\"reset\"}]"),
            ManifestError::DuplicateId("a".into())
        );
        assert_eq!(
            bad("[[step]]\nid = \"a\"\n"),
            ManifestError::NoCheck("a".into())
        );
        // Unknown fields and kinds are errors, not silently ignored.
        assert!(matches!(
            bad("[[step]]\nid = \"a\"\ncheck=[{kind=\"reset\", x=1}]"),
            ManifestError::Toml(_)
        ));
        assert!(matches!(
            bad("[[step]]\nid = \"a\"\ncheck=[{kind=\"magic\"}]"),
            ManifestError::Toml(_)
        ));
        assert!(matches!(
            bad("[[step]]\nid = \"a\"\nchek=[{kind=\"reset\"}]"),
            ManifestError::Toml(_)
        ));
        assert!(matches!(
            bad("[[step]]\nid = \"a\"\ncheck=[{kind=\"memory\", at=\"x\", size=3}]"),
            ManifestError::BadCheck { .. }
        ));
        assert!(matches!(
            bad("[[step]]\nid = \"a\"\ncheck=[{kind=\"pixel\", x=128, y=0, on=true}]"),
            ManifestError::BadCheck { .. }
        ));
        assert!(matches!(
            bad("[[step]]\nid = \"a\"\ncheck=[{kind=\"explained\"}]"),
            ManifestError::BadCheck { .. }
        ));
        assert!(matches!(
            bad("[[step]]\nid = \"a\"\ncheck=[{kind=\"number\", equals=1},{kind=\"choice\", answer=\"a\"}]"),
            ManifestError::BadCheck { .. }
        ));
        assert!(matches!(
            bad("[[step]]\nid = \"a\"\nsolution=[\"fly\"]\ncheck=[{kind=\"reset\"}]"),
            ManifestError::BadAction { .. }
        ));
        assert!(matches!(bad("[[step]]\nid = 3\n"), ManifestError::Toml(_)));
    }

    #[test]
    fn every_problem_of_the_steps_is_reported_at_once() {
        let all = Manifest::parse_all(
            "[[step]]\nid = \"a b\"\ncheck=[{kind=\"reset\"}]\n\
             [[step]]\nid = \"c\"\nsolution=[\"fly\"]\ncheck=[{kind=\"pixel\", x=200, y=0, on=true}]\n\
             [[step]]\nid = \"d\"\n",
        )
        .unwrap_err();
        assert_eq!(all.len(), 4, "{all:?}");
        assert!(matches!(all[0], ManifestError::BadId { .. }));
        assert!(matches!(all[1], ManifestError::BadCheck { .. }));
        assert!(matches!(all[2], ManifestError::BadAction { .. }));
        assert_eq!(all[3], ManifestError::NoCheck("d".into()));
    }

    #[test]
    fn the_program_board_dialect_and_rom_keys_parse() {
        let m = Manifest::parse(
            "[lesson]\nprogram = \"sum.asm\"\nboard = \"evb\"\ndialect = \"as11\"\nrom = \"mon.s19\"\n\
             [[step]]\nid = \"a\"\ncheck=[{kind=\"reset\"}]\n",
        )
        .unwrap();
        assert_eq!(m.lesson.program.as_deref(), Some("sum.asm"));
        assert_eq!(m.lesson.board.as_deref(), Some("evb"));
        assert_eq!(m.lesson.dialect, Some(crate::asm::Dialect::As11));
        assert_eq!(m.lesson.rom.as_deref(), Some("mon.s19"));
        let e = Manifest::parse(
            "[lesson]\ndialect = \"gnu\"\n[[step]]\nid=\"a\"\ncheck=[{kind=\"reset\"}]\n",
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("gnu") && e.contains("as11"), "{e}");
    }

    #[test]
    fn parses_actions() {
        assert_eq!(Action::parse(" run "), Ok(Action::Run));
        assert_eq!(
            Action::parse("keys drop,left"),
            Ok(Action::Keys("drop,left".into()))
        );
        assert_eq!(
            Action::parse("explain board+136"),
            Ok(Action::ExplainAddress("board+136".into()))
        );
        assert!(Action::parse("run now").is_err());
        assert!(Action::parse("break").is_err());
        assert!(Action::parse("explain pixel 200 1").is_err());
        assert!(Action::parse("explain pixel 1").is_err());
    }
}
