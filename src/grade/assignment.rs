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
//! dialect = "course"                # or "as11", "asm11" (docs/dialects.md)
//!
//! [limits]
//! max_cycles = 20000000             # per scenario and per move of a differential game
//! max_file_bytes = 1000000          # one source file
//! max_zip_bytes = 64000000          # one submission's .zip, checked before opening it
//! max_source_lines = 100000         # lines assembled, includes expanded
//! max_assemble_ms = 10000           # wall-clock time assembling may take
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
//!   { lcd_volume = 32 },                         # the LCD's contrast register (0..63, set by $81 N)
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
//! copy of one is not used, and a reference without one is refused
//! (grading would have to take the student's).

use super::error::GradeError;
use super::frame::{Frame, Rect};
use crate::cpu::Registers;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

mod checks;
mod limits;
mod parse;
mod spec;

pub use checks::*;
pub use limits::Limits;
use parse::*;
pub use spec::{MemSpec, Reg};

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
    /// The dialect the reference and the submissions are assembled in
    /// (`dialect = "as11"`; `grade --dialect` overrides it).
    #[serde(default)]
    pub dialect: crate::asm::Dialect,
    /// Limits per submission.
    pub limits: Limits,
    /// The checks, in report order.
    pub checks: Vec<Check>,
    /// The board the programs run on, as assignment.toml names it
    /// (`trainer11` when it names none).
    #[serde(default = "default_board")]
    pub board: String,
    /// That board, read and checked when the assignment was loaded.
    #[serde(skip)]
    pub board_setup: crate::board::config::BoardSetup,
}

fn default_board() -> String {
    "trainer11".into()
}

impl Assignment {
    /// Loads `assignment.toml` from a folder (or the file itself).
    pub fn load(path: &Path) -> Result<Assignment, GradeError> {
        let file = if path.is_dir() {
            path.join("assignment.toml")
        } else {
            path.to_path_buf()
        };
        let text = super::read_course_file(&file).map_err(|e| GradeError::Assignment {
            path: file.clone(),
            message: format!(
                "cannot read the assignment ({e}); --assignment names a folder with an assignment.toml (as lessons/viergewinnt) or the file itself"
            ),
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
            image if image.to_ascii_lowercase().ends_with(".s19") => {
                ReferenceSource::Image(dir.join(image))
            }
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
        // `grade --board` overrides the file's `board`.
        let (board, board_setup) = match crate::board::config::command_line_board() {
            Some(chosen) => chosen,
            None => {
                let board = h.board.unwrap_or_else(default_board);
                let setup = crate::board::config::BoardConfig::from_spec(&board, dir)
                    .map(crate::board::config::BoardSetup::new)
                    .map_err(|e| format!("board `{board}`: {e}"))?;
                (board, setup)
            }
        };
        Ok(Assignment {
            dir: dir.to_path_buf(),
            id: h.id,
            title: h.title,
            entry: h.entry,
            reference,
            provided: h.provided,
            required_symbols: h.required_symbols,
            dialect: h.dialect,
            limits: raw.limits,
            checks,
            board,
            board_setup,
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
    fn lcd_unchanged_takes_last_keys_within_the_scenario() {
        let scenario = |keys: &str, expect: &str| {
            parse(&format!(
                "[[check]]\nname = \"a\"\nkind = \"scenario\"\npoints = 1\nkeys = \"{keys}\"\nexpect = [{expect}]\n"
            ))
        };
        let a = scenario("drop,left,drop", r#"{ lcd = "unchanged", last_keys = 2 }"#).unwrap();
        let CheckKind::Scenario(s) = &a.checks[0].kind else {
            panic!("not a scenario")
        };
        assert_eq!(s.expect[0].unchanged_last_keys(), Some(2));
        assert!(!s.expect[0].uses_reference());
        let e = scenario("drop,left", r#"{ lcd = "unchanged", last_keys = 3 }"#).unwrap_err();
        assert!(e.contains("`keys` has 2 item(s)"), "{e}");
        let e = scenario("drop", r#"{ lcd = "unchanged" }"#).unwrap_err();
        assert!(e.contains("needs `last_keys"), "{e}");
        let e = scenario("drop", r#"{ lcd = "unchanged", last_keys = 0 }"#).unwrap_err();
        assert!(e.contains("needs `last_keys"), "{e}");
        let e = scenario("drop", r#"{ lcd = "reference", last_keys = 1 }"#).unwrap_err();
        assert!(e.contains("goes with lcd = \"unchanged\""), "{e}");
        let e = scenario("drop,jump", r#"{ lcd = "unchanged", last_keys = 1 }"#).unwrap_err();
        assert!(e.contains("keys:"), "{e}");
        let e = parse(
            "[[check]]\nname = \"b\"\nkind = \"breakpoint\"\npoints = 1\nat = \"drawCell\"\nexpect = [{ lcd = \"unchanged\", last_keys = 1 }]\n",
        )
        .unwrap_err();
        assert!(e.contains("belongs to scenarios"), "{e}");
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
