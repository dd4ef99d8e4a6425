//! The bundled Viergewinnt firmware (the workshop's sources in `firmware/`,
//! reconstructed from the manual's chapter 3): compiled into the binary so
//! `hc11lab`, `run`, lessons and the grader work with no files around.

pub mod evb_monitor;

use crate::asm::{self, AsmOptions, Assembly, MemoryFiles};
use crate::image::Program;
use std::path::Path;
use std::sync::OnceLock;

/// The entry file, as the authors named it.
pub const MAIN_FILE: &str = "Viergewinnt.asm";

/// The folder name the bundled files appear under in messages and the GUI's tabs.
pub const FOLDER: &str = "firmware";

/// Every bundled file: (file name, text).
pub const FILES: &[(&str, &str)] = &[
    (
        "Viergewinnt.asm",
        include_str!("../firmware/Viergewinnt.asm"),
    ),
    ("Board.inc", include_str!("../firmware/Board.inc")),
    ("Cursor.inc", include_str!("../firmware/Cursor.inc")),
    ("Debug.inc", include_str!("../firmware/Debug.inc")),
    ("Input.inc", include_str!("../firmware/Input.inc")),
    ("LCDutils.inc", include_str!("../firmware/LCDutils.inc")),
    ("Logic.inc", include_str!("../firmware/Logic.inc")),
    ("Utils.inc", include_str!("../firmware/Utils.inc")),
    (
        "Trainer11Register.inc",
        include_str!("../firmware/Trainer11Register.inc"),
    ),
];

/// The bundled files as an in-memory file system for the assembler.
pub fn memory_files() -> MemoryFiles {
    FILES
        .iter()
        .fold(MemoryFiles::new(), |files, (name, text)| {
            files.with(format!("{FOLDER}/{name}"), text.as_bytes().to_vec())
        })
}

/// Assembles the bundled sources (fresh each call; see [`program`] for the cached result).
pub fn assemble() -> Assembly {
    let main = format!("{FOLDER}/{MAIN_FILE}");
    asm::assemble_with(Path::new(&main), &memory_files(), &AsmOptions::default())
}

/// The assembled bundled program, built once per process.
///
/// The bundled sources are part of the binary and a test keeps them
/// error-free, so `None` would mean a broken build, reported by the caller.
pub fn program() -> Option<&'static Program> {
    static PROGRAM: OnceLock<Option<Program>> = OnceLock::new();
    PROGRAM.get_or_init(|| assemble().program).as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_firmware_assembles_without_diagnostics() {
        let asm = assemble();
        assert!(asm.diagnostics.is_empty(), "{}", asm.render_diagnostics());
        let program = asm.program.expect("program");
        assert_eq!(program.symbol("board").map(|s| s.value), Some(0x0040));
        assert_eq!(program.symbol("start").map(|s| s.value), program.entry);
    }
}
