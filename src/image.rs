//! A loaded program: memory segments, symbols and the two-way map between
//! addresses and source lines, whatever it was made from (the course
//! assembler, an S19 file or a GNU ELF file).
//!
//! Owns: [`Program`] and the file formats that hold one (S19, ELF with its
//! DWARF lines). Must not know about: the assembler that makes programs,
//! the CPU, the board, the machine, or anything above them.

pub mod elf;
pub mod load;
pub mod program;
pub mod s19;
pub mod text;

pub use program::{
    FileId, LabelIndex, LineEntry, Program, Segment, SourceFile, Symbol, SymbolKind,
};
