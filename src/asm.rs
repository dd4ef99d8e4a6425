//! The assembler for the course dialect of 68HC11 assembly (the Viergewinnt
//! sources as written for miniIDE's ASM11; instruction set per the M68HC11
//! Reference Manual, section 6 and appendix A), its listing and symbol file,
//! and the disassembler beside it.
//!
//! Owns: source text to [`Program`] (lexer, expressions, passes, macros,
//! dialects, diagnostics with file:line), listings, and bytes back to text.
//! Must not know about: the board, the machine that runs a program, the
//! debugger, lessons, grading or the window.
//!
//! Source text -> [`assemble_file`] -> [`Assembly`] (a [`Program`] if there
//! were no errors, all diagnostics, the listing data).
//!
//! Dialect summary (details in the submodules):
//! - a label starts in column 1 (a trailing `:` is allowed); everything else
//!   is indented; symbols, mnemonics and directives are case-insensitive;
//! - `;` starts a comment, `*` in column 1 makes a comment line;
//! - directives: `include`, `NAME Section`, `switch NAME`, `org`, `equ`/`=`,
//!   `ds.b`/`ds.w`/`ds`/`rmb`/`rmw`, `dc.b`/`dc.w`/`db`/`dw`/`fcb`/`fdb`/`fcc`,
//!   `.if`/`.ifdef`/`.ifndef`/`.else`/`.endif` (dot optional), `end`;
//! - `<addr` forces direct, `>addr` extended addressing; elsewhere `<`/`>` are
//!   the low/high-byte operators (see [`encode`]);
//! - `.if` conditions and `.ifdef` look only at what is defined above them;
//! - every section has its own location counter, starting at 0 until its
//!   first `org`; a label takes the counter of its line (after `org` or
//!   `switch` on the same line); a label alone on a line labels the next byte;
//! - a label's `size` is the bytes of the `ds`/`dc` lines from it up to the
//!   next label or instruction in the same section;
//! - strings have no escapes; their characters are stored as Windows-1252.

pub mod as11;
pub mod asm11;
pub mod diagnostics;
pub mod dialect;
pub mod directives;
pub mod disasm;
pub mod encode;
pub mod expr;
pub mod german;
pub mod lexer;
pub mod listing;
pub mod passes;
pub mod source;
pub mod triage;

use crate::image::{FileId, Program, SourceFile, Symbol};
use std::path::Path;

pub use diagnostics::{render, render_all, Code, Diagnostic, Severity, Span};
pub use dialect::Dialect;
pub use disasm::{disassemble, disassemble_lines, disassemble_memory, DisasmLine};
pub use listing::{listing, symbol_file};
pub use source::{FsProvider, MemoryFiles, SourceError, SourceProvider};

/// Settings of one assembler run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmOptions {
    /// Largest source file accepted, in bytes (default 4 MiB).
    pub max_file_size: u64,
    /// Largest sum of all source files of one program (default 16 MiB).
    pub max_total_size: u64,
    /// Deepest include nesting (default 32).
    pub max_include_depth: usize,
    /// Most source lines read in all files together (default 1,000,000), so
    /// that a file of empty lines cannot exhaust memory.
    pub max_lines: usize,
    /// Longest an assembly may take; past it, reading and resolving stop
    /// with an error (the grader sets it, so no submission can hold up a
    /// batch). `None`: no limit.
    pub time_limit: Option<std::time::Duration>,
    /// Most lines macro expansions may add to the sources in all (default
    /// 250,000, room for 15 levels of a macro that uses the one below it
    /// twice); past it, expansion stops with an error naming the macro.
    pub max_expansion_lines: usize,
    /// Longest macro expansions may take in all (default 10 s); past it,
    /// expansion stops with an error naming the macro.
    pub max_expansion_time: std::time::Duration,
    /// Symbols defined before the first line, like `-D NAME=VALUE`
    /// (`MAP_PAGE` for `.ifndef MAP_PAGE`).
    pub defines: Vec<(String, i64)>,
    /// The source dialect (`--dialect`; default the course's).
    pub dialect: Dialect,
    /// Folders searched, in order, for an include that is not next to the
    /// file that includes it (`asm -I DIR`, then the folder hc11lab runs
    /// in, as public sources that include from their repository's root
    /// expect). Empty for the grader: a submission brings its includes.
    pub include_dirs: Vec<std::path::PathBuf>,
}

impl Default for AsmOptions {
    fn default() -> AsmOptions {
        AsmOptions {
            max_file_size: 4 * 1024 * 1024,
            max_total_size: 16 * 1024 * 1024,
            max_include_depth: 32,
            max_lines: 1_000_000,
            time_limit: None,
            max_expansion_lines: 250_000,
            max_expansion_time: std::time::Duration::from_secs(10),
            defines: Vec::new(),
            dialect: Dialect::Course,
            include_dirs: Vec::new(),
        }
    }
}

/// One source line as the listing shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListingLine {
    /// The file.
    pub file: FileId,
    /// 1-based line number.
    pub line: u32,
    /// The address of the line (instructions, data, labels, `org`), if it has one.
    pub addr: Option<u16>,
    /// The bytes it produced.
    pub bytes: Vec<u8>,
    /// The value of an `equ`, the number of bytes a `ds` reserves, or an
    /// `.if` line's condition (0 false, else true; see `condition`).
    pub value: Option<i64>,
    /// True for lines inside a false `.if` branch (not assembled).
    pub skipped: bool,
    /// True for an `.if`/`.ifdef`/`#ifdef` line: `value` is its condition,
    /// which the listing shows as `= true` or `= false`.
    pub condition: bool,
}

/// The result of one assembler run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assembly {
    /// The program, if there were no errors (warnings allowed).
    pub program: Option<Program>,
    /// All errors and warnings, in source order.
    pub diagnostics: Vec<Diagnostic>,
    /// Every source file read, main file first (also when there were errors).
    pub files: Vec<SourceFile>,
    /// One entry per source line read, in reading order (includes expanded).
    pub listing: Vec<ListingLine>,
    /// Every defined symbol, in definition order (also when there were errors).
    pub symbols: Vec<Symbol>,
    /// Why the program starts where `program.entry` says (with a program).
    pub entry_from: Option<EntryFrom>,
}

/// Why an assembled program starts where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryFrom {
    /// Its reset vector ($FFFE).
    ResetVector,
    /// The operand of its `END` line (AS11's `END START`).
    EndLine,
    /// Its first instruction.
    FirstInstruction,
    /// Its first instruction outside BUFFALO's pseudo-vector slots
    /// ($00C4-$00FF), where it puts `jmp handler` stubs first.
    AfterPseudoVectors,
}

impl EntryFrom {
    /// Why, in words, for `run`'s note (after "starts at $C000, ").
    pub fn describe(self) -> &'static str {
        match self {
            EntryFrom::ResetVector => "its reset vector",
            EntryFrom::EndLine => "the operand of its END line",
            EntryFrom::FirstInstruction => "its first instruction (no reset vector, no END operand)",
            EntryFrom::AfterPseudoVectors => {
                "its first instruction after the pseudo-vector stubs at $00C4-$00FF (no reset vector, no END operand)"
            }
        }
    }
}

impl Assembly {
    /// True if any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The diagnostics rendered rustc-style, with a summary line; at most 25
    /// errors per file, then one line with how many more.
    pub fn render_diagnostics(&self) -> String {
        render_all(&triage::capped(&self.diagnostics, &self.files), &self.files)
    }
}

/// Assembles the file at `path` and everything it includes, from disk.
pub fn assemble_file(path: &Path, opts: &AsmOptions) -> Assembly {
    triage::assemble(path, &FsProvider, opts)
}

/// Assembles `path` with files from any [`SourceProvider`] (a zip read into
/// memory, [`MemoryFiles`] in tests).
pub fn assemble_with(path: &Path, provider: &dyn SourceProvider, opts: &AsmOptions) -> Assembly {
    triage::assemble(path, provider, opts)
}

/// Assembles source text held in memory under the file name `name`; it may
/// include nothing (use [`assemble_with`] and [`MemoryFiles`] for that).
pub fn assemble_source(name: &str, text: &str, opts: &AsmOptions) -> Assembly {
    let files = MemoryFiles::new().with(name, text.as_bytes().to_vec());
    triage::assemble(Path::new(name), &files, opts)
}
