//! Turning what the user opens into a program: assembly sources through the
//! course assembler, S19 and ELF images through the image loaders, the
//! bundled firmware from the binary. Problems are collected for the
//! Problems panel instead of failing.

use std::path::{Path, PathBuf};

use super::session::Problem;
use super::AppInput;
use crate::asm::diagnostics::line_col;
use crate::asm::{AsmOptions, Assembly};
use crate::image::Program;

/// The outcome of a load.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The program, if it loaded.
    pub program: Option<Program>,
    /// Errors and warnings, with locations where known.
    pub problems: Vec<Problem>,
    /// Files to watch for changes (sources read, or the image file).
    pub watch: Vec<PathBuf>,
    /// False when `program` holds only the sources of a failed assembly.
    pub runnable: bool,
}

fn problem(severity: &str, message: impl Into<String>) -> Problem {
    Problem {
        severity: severity.into(),
        message: message.into(),
        at: None,
    }
}

/// Source file extensions the assembler takes.
pub const ASM_EXTENSIONS: [&str; 5] = ["asm", "s", "a11", "s11", "inc"];

fn is_asm(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ASM_EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// The main source of a folder: the only `.asm` file, or the one no other
/// file includes (the others are include files), preferring one named like
/// the folder.
pub fn main_source(dir: &Path) -> Result<PathBuf, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut asm: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| e.eq_ignore_ascii_case("asm"))
        })
        .collect();
    asm.sort();
    match asm.len() {
        0 => Err(format!(
            "{} has no .asm file; open the main source file itself",
            dir.display()
        )),
        1 => Ok(asm.remove(0)),
        _ => {
            let texts: Vec<String> = asm
                .iter()
                .map(|p| {
                    std::fs::read_to_string(p)
                        .unwrap_or_default()
                        .to_ascii_lowercase()
                })
                .collect();
            let included = |p: &Path| {
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().to_ascii_lowercase())
                    .unwrap_or_default();
                texts.iter().any(|t| {
                    t.lines()
                        .any(|l| l.contains("include") && l.contains(&name))
                })
            };
            let roots: Vec<&PathBuf> = asm.iter().filter(|p| !included(p)).collect();
            match roots.as_slice() {
                [one] => Ok((*one).clone()),
                _ => Err(format!(
                    "{} has several main .asm files ({}); open the one to run",
                    dir.display(),
                    asm.iter()
                        .filter_map(|p| p.file_name())
                        .map(|n| n.to_string_lossy().into_owned())
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            }
        }
    }
}

/// Loads `input`.
pub fn load(input: &AppInput) -> Loaded {
    match input {
        AppInput::Bundled => load_bundled(),
        AppInput::Path(p) if p.is_dir() => match main_source(p) {
            Ok(main) => load_asm(&main),
            Err(e) => Loaded {
                problems: vec![problem("error", e)],
                ..Loaded::default()
            },
        },
        AppInput::Path(p) if is_asm(p) => load_asm(p),
        AppInput::Path(p) => load_image(p),
    }
}

fn load_image(path: &Path) -> Loaded {
    match crate::image::load::load_file(path) {
        Ok(l) => Loaded {
            program: Some(l.program),
            runnable: true,
            problems: l
                .warnings
                .into_iter()
                .map(|w| problem("warning", w))
                .collect(),
            watch: vec![path.to_path_buf()],
        },
        Err(e) => Loaded {
            problems: vec![problem("error", e.to_string())],
            watch: vec![path.to_path_buf()],
            ..Loaded::default()
        },
    }
}

fn load_asm(path: &Path) -> Loaded {
    from_assembly(crate::asm::assemble_file(path, &AsmOptions::default()))
}

/// Problems from an assembler run; the program when there were no errors,
/// else the sources alone (so the listing can show the lines the errors
/// point at).
pub fn from_assembly(asm: Assembly) -> Loaded {
    let problems = asm
        .diagnostics
        .iter()
        .map(|d| {
            let at = d.span.and_then(|sp| {
                let f = asm.files.get(sp.file)?;
                let (line, col) = line_col(&f.text, sp.start as usize);
                Some((f.path.clone(), line, col))
            });
            let mut message = format!("[{}] {}", d.code.as_str(), d.message);
            for h in &d.hints {
                message.push_str(&format!("\n  help: {h}"));
            }
            Problem {
                severity: d.severity.to_string(),
                message,
                at,
            }
        })
        .collect();
    let watch = asm.files.iter().map(|f| f.path.clone()).collect();
    let (program, runnable) = match asm.program {
        Some(p) => (Some(p), true),
        None => (
            Some(Program {
                files: asm.files,
                symbols: asm.symbols,
                ..Program::default()
            }),
            false,
        ),
    };
    Loaded {
        program,
        runnable,
        problems,
        watch,
    }
}

fn load_bundled() -> Loaded {
    Loaded {
        problems: vec![problem(
            "error",
            "the bundled firmware is not merged into this build yet",
        )],
        ..Loaded::default()
    }
}
