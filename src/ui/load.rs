//! Turning what the user opens into a program for the session, through the
//! library's [`crate::open`] (bundled firmware, sources, folders, S19, ELF):
//! problems are collected for the Problems panel instead of failing, and
//! the sources of a program that did not assemble are kept so its errors
//! can be clicked to their lines.

use std::path::PathBuf;

use super::session::Problem;
use super::AppInput;
use crate::asm::diagnostics::line_col;
use crate::asm::Assembly;
use crate::image::Program;
use crate::open::{self, OpenError, Origin};

/// The outcome of a load.
#[derive(Debug, Default)]
pub struct Loaded {
    /// The program, or only the sources when it did not assemble.
    pub program: Option<Program>,
    /// False when `program` holds only the sources of a failed assembly.
    pub runnable: bool,
    /// Errors and warnings, with locations where known.
    pub problems: Vec<Problem>,
    /// Files to watch for changes (sources read, or the image file).
    pub watch: Vec<PathBuf>,
}

fn problem(severity: &str, message: impl Into<String>) -> Problem {
    Problem {
        severity: severity.into(),
        message: message.into(),
        at: None,
    }
}

/// Loads `input` (sources in the command line's dialect).
pub fn load(input: &AppInput) -> Loaded {
    load_in(input, open::default_dialect())
}

/// Loads `input`, reading sources in `dialect`.
pub fn load_in(input: &AppInput, dialect: crate::asm::Dialect) -> Loaded {
    let path = match input {
        AppInput::Bundled => None,
        AppInput::Path(p) => Some(p.as_path()),
    };
    match open::open_in(path, dialect) {
        Ok(opened) => {
            let watch = match &opened.origin {
                Origin::Bundled => Vec::new(),
                Origin::Source(_) => opened
                    .program
                    .files
                    .iter()
                    .map(|f| f.path.clone())
                    .collect(),
                Origin::Image(p, _) => vec![p.clone()],
            };
            Loaded {
                problems: opened
                    .warnings
                    .iter()
                    .map(|w| problem("warning", w.clone()))
                    .collect(),
                program: Some(opened.program),
                runnable: true,
                watch,
            }
        }
        Err(OpenError::Assembly { assembly, .. }) => from_assembly(*assembly),
        Err(e) => Loaded {
            problems: vec![problem("error", e.to_string())],
            // Watch what the user named, so fixing it on disk reloads.
            watch: path.map(|p| vec![p.to_path_buf()]).unwrap_or_default(),
            ..Loaded::default()
        },
    }
}

/// Problems of a failed assembler run, each with file, line and column,
/// and the sources alone (so the listing can show the lines they point at).
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
    Loaded {
        program: Some(Program {
            files: asm.files,
            symbols: asm.symbols,
            ..Program::default()
        }),
        runnable: false,
        problems,
        watch,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_firmware_loads_runnable() {
        let l = load(&AppInput::Bundled);
        assert!(l.runnable);
        assert!(l.problems.iter().all(|p| p.severity != "error"));
        let p = l.program.unwrap();
        assert_eq!(p.symbol("board").map(|s| s.value), Some(0x0040));
        assert!(p.files.len() > 5);
    }

    #[test]
    fn assembly_errors_keep_sources_and_locations() {
        let dir = std::env::temp_dir().join(format!("hc11lab-ui-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bad.asm");
        std::fs::write(
            &file,
            "        org $C000\nStart   ldaa #1\n        jmp nowhere\n",
        )
        .unwrap();
        let l = load(&AppInput::Path(file.clone()));
        std::fs::remove_dir_all(&dir).ok();
        assert!(!l.runnable);
        let err = l.problems.iter().find(|p| p.severity == "error").unwrap();
        let (path, line, _) = err.at.clone().unwrap();
        assert_eq!(line, 3);
        assert!(path.ends_with("bad.asm"));
        assert_eq!(l.program.unwrap().files.len(), 1);
        assert_eq!(l.watch.len(), 1);
    }

    #[test]
    fn a_missing_file_is_a_problem_not_a_panic() {
        let l = load(&AppInput::Path("/nonexistent/x.s19".into()));
        assert!(l.program.is_none());
        assert_eq!(l.problems.len(), 1);
    }
}
