//! The program a lesson runs on: `program`, `board`, `dialect` and `rom` of
//! its `[lesson]` table, resolved against the lesson folder and loaded the
//! way `hc11lab run --board B --rom R --dialect D PATH` loads them
//! ([`crate::open::open_in`], [`crate::open::board_setup`]), so a lesson on
//! `board = "evb"` gets whatever that board brings without a ROM of its own.
//! Without these keys a lesson runs on the bundled Viergewinnt on trainer11.

use super::catalog::Lesson;
use super::i18n::Lang;
use crate::asm::Dialect;
use crate::board::config::BoardSetup;
use crate::image::Program;
use crate::machine::Machine;
use std::path::{Path, PathBuf};

/// The board names `board` may give without a file.
const BUILT_IN_BOARDS: [&str; 2] = ["trainer11", "evb"];

/// Where a lesson's program comes from, resolved against its folder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LessonProgram {
    /// The main source file, source folder or image; `None` for the
    /// bundled Viergewinnt.
    pub path: Option<PathBuf>,
    /// The board as `lesson.toml` names it (`trainer11` when it does not).
    pub board: String,
    /// The board as [`crate::open::board_setup`] takes it: a built-in
    /// name, or the board file's path resolved against the lesson folder.
    pub board_spec: String,
    /// The dialect the program's sources are read in.
    pub dialect: Dialect,
    /// The ROM image, resolved against the lesson folder.
    pub rom: Option<PathBuf>,
}

impl LessonProgram {
    /// The bundled Viergewinnt on trainer11 (what a lesson without the keys runs on).
    pub fn bundled() -> LessonProgram {
        LessonProgram {
            path: None,
            board: "trainer11".into(),
            board_spec: "trainer11".into(),
            dialect: Dialect::Course,
            rom: None,
        }
    }

    /// The program `lesson` names. Err (naming `lesson.toml`) for a path in
    /// a lesson that has no folder (one compiled into the binary).
    pub fn of(lesson: &Lesson) -> Result<LessonProgram, String> {
        let head = &lesson.manifest.lesson;
        let dir = lesson.dir.as_deref();
        let in_dir = |key: &str, value: &str| -> Result<PathBuf, String> {
            match dir {
                Some(d) => Ok(d.join(value)),
                None => Err(format!(
                    "{}/lesson.toml: `{key} = \"{value}\"` needs the lesson's folder (a lesson compiled into hc11lab runs on the bundled program)",
                    lesson.id
                )),
            }
        };
        let path = match head.program.as_deref().map(str::trim) {
            None | Some("bundled") | Some("") => None,
            Some(p) => Some(in_dir("program", p)?),
        };
        let board = head
            .board
            .as_deref()
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .unwrap_or("trainer11")
            .to_string();
        let board_spec = if BUILT_IN_BOARDS.contains(&board.as_str()) {
            board.clone()
        } else {
            in_dir("board", &board)?.display().to_string()
        };
        let rom = match head.rom.as_deref().map(str::trim) {
            None | Some("") => None,
            Some(r) => Some(in_dir("rom", r)?),
        };
        Ok(LessonProgram {
            path,
            board,
            board_spec,
            dialect: head.dialect.unwrap_or_default(),
            rom,
        })
    }

    /// True for the bundled Viergewinnt on the default board.
    pub fn is_bundled(&self) -> bool {
        self == &LessonProgram::bundled()
    }

    /// The program's name for messages: the file name relative to the
    /// lesson folder (`sum.asm`), or the bundled Viergewinnt.
    pub fn name(&self, lang: Lang) -> String {
        match &self.path {
            None => match lang {
                Lang::De => "das mitgelieferte Viergewinnt".into(),
                Lang::En => "the bundled Viergewinnt".into(),
            },
            Some(p) => p
                .file_name()
                .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into()),
        }
    }

    /// One line naming the program, the board and (when not the default)
    /// the dialect and the ROM: `sum.asm on evb (dialect as11)`.
    pub fn describe(&self, lang: Lang) -> String {
        let mut out = match lang {
            Lang::De => format!("{} auf {}", self.name(lang), self.board),
            Lang::En => format!("{} on {}", self.name(lang), self.board),
        };
        if self.dialect != Dialect::Course {
            out.push_str(&match lang {
                Lang::De => format!(", Dialekt {}", self.dialect.name()),
                Lang::En => format!(", dialect {}", self.dialect.name()),
            });
        }
        if let Some(rom) = &self.rom {
            let name = rom
                .file_name()
                .map_or_else(|| rom.display().to_string(), |n| n.to_string_lossy().into());
            out.push_str(&format!(", ROM {name}"));
        }
        out
    }

    /// The program, assembled or loaded. Err holds the rendered assembler
    /// diagnostics or the loader's message, naming the file.
    pub fn program(&self) -> Result<Program, String> {
        match &self.path {
            None => crate::firmware::program()
                .cloned()
                .ok_or_else(|| "the bundled firmware does not assemble".to_string()),
            Some(p) => crate::open::open_in(Some(p), self.dialect)
                .map(|o| o.program)
                .map_err(|e| match e {
                    crate::open::OpenError::Assembly { rendered, .. } => format!(
                        "{} does not assemble:\n{}",
                        p.display(),
                        rendered.trim_end()
                    ),
                    other => other.to_string(),
                }),
        }
    }

    /// The board with its ROM, as `run --board/--rom` makes it.
    pub fn board_setup(&self) -> Result<BoardSetup, String> {
        crate::open::board_setup(&self.board_spec, self.rom.as_deref()).map_err(|e| {
            e.replacen("--board: ", "board: ", 1)
                .replace("--rom", "rom")
        })
    }

    /// A machine with the program loaded on its board, and the program.
    pub fn machine(&self) -> Result<(Machine, Program), String> {
        let program = self.program()?;
        let setup = self.board_setup()?;
        let machine = Machine::with_board(program.clone(), &setup).map_err(|e| e.to_string())?;
        Ok((machine, program))
    }

    /// One name for the board and the ROM together, to tell whether a
    /// session runs on them already: the board spec, `+ ROM` if any.
    pub fn board_key(&self) -> String {
        match &self.rom {
            Some(r) => format!("{} + {}", self.board_spec, r.display()),
            None => self.board_spec.clone(),
        }
    }

    /// The folder the program's path is relative to, for messages.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lesson(head: &str, dir: Option<&str>) -> Lesson {
        let mut l = Lesson::from_sources(
            "x",
            &format!("[lesson]\n{head}\n[[step]]\nid = \"a\"\ncheck = [{{kind = \"reset\"}}]\n"),
            &[(Lang::En, "# T\n\n## A {#a}\nDo it.\n")],
        )
        .expect("lesson");
        l.dir = dir.map(PathBuf::from);
        l
    }

    #[test]
    fn without_keys_it_is_the_bundled_viergewinnt() {
        let p = LessonProgram::of(&lesson("", Some("/c/x"))).unwrap();
        assert!(p.is_bundled());
        assert_eq!(p.describe(Lang::En), "the bundled Viergewinnt on trainer11");
        let p = LessonProgram::of(&lesson("program = \"bundled\"", None)).unwrap();
        assert!(p.is_bundled());
    }

    #[test]
    fn paths_are_relative_to_the_lesson_folder() {
        let p = LessonProgram::of(&lesson(
            "program = \"sum.asm\"\nboard = \"my.toml\"\ndialect = \"as11\"\nrom = \"mon.s19\"",
            Some("/c/x"),
        ))
        .unwrap();
        assert_eq!(p.path, Some(PathBuf::from("/c/x/sum.asm")));
        assert_eq!(p.board_spec, "/c/x/my.toml");
        assert_eq!(p.rom, Some(PathBuf::from("/c/x/mon.s19")));
        assert_eq!(
            p.describe(Lang::En),
            "sum.asm on my.toml, dialect as11, ROM mon.s19"
        );
        let evb = LessonProgram::of(&lesson("board = \"evb\"", Some("/c/x"))).unwrap();
        assert_eq!(evb.board_spec, "evb");
        assert!(!evb.is_bundled());
    }

    #[test]
    fn a_path_needs_a_folder() {
        let e = LessonProgram::of(&lesson("program = \"sum.asm\"", None)).unwrap_err();
        assert!(e.contains("lesson.toml") && e.contains("sum.asm"), "{e}");
    }
}
