//! ELF reader for GNU binutils output for the 68HC11 (`m68hc11-as`,
//! `m68hc11-ld`): loadable segments, the symbol table and the DWARF line
//! table. Formats: the System V ABI's ELF32 (the 68HC11 is `EM_68HC11` = 70,
//! big-endian) and DWARF 2-5 `.debug_line` (section 6.2 of the DWARF standard).
//!
//! The header fields are checked by hand before goblin reads the tables, so a
//! damaged file gets a message naming the field, and goblin never sees a table
//! that runs outside the file.
//!
//! Owns: reading a 68HC11 ELF file into a [`Program`]; the DWARF line table
//! is read in `lines.rs`. Must not know about: the assembler or the machine.

mod lines;

use std::path::Path;

use goblin::container::{Container, Ctx, Endian};
use goblin::elf::header::{ET_CORE, ET_DYN, ET_EXEC, ET_REL};
use goblin::elf::program_header::PT_LOAD;
use goblin::elf::section_header::{
    SHF_ALLOC, SHN_ABS, SHN_COMMON, SHN_UNDEF, SHT_NOBITS, SHT_PROGBITS, SHT_REL, SHT_RELA,
    SHT_STRTAB, SHT_SYMTAB,
};
use goblin::elf::sym::{STT_FUNC, STT_NOTYPE, STT_OBJECT};
use goblin::elf::{Elf, ProgramHeader, SectionHeader, Symtab};
use thiserror::Error;

use super::program::{Program, Segment, Symbol, SymbolKind};
use lines::read_lines;

/// `e_machine` of the Motorola 68HC11.
pub const EM_68HC11: u16 = 70;

/// Size of an ELF32 file header.
const EHDR_SIZE: usize = 52;
/// Size of an ELF32 program header.
const PHDR_SIZE: usize = 32;
/// Size of an ELF32 section header.
const SHDR_SIZE: usize = 40;
/// Size of an ELF32 symbol.
const SYM_SIZE: u64 = 16;
/// Source files larger than this are not read (a line table could name a device file).
const MAX_SOURCE_BYTES: u64 = 16 << 20;

/// Why an ELF file cannot be loaded.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ElfError {
    /// The first four bytes are not `\x7FELF`.
    #[error("not an ELF file: it starts with {}, an ELF file starts with 7F 45 4C 46 (\\x7FELF)", hex_bytes(.found))]
    NotElf {
        /// The first bytes of the file (up to 4).
        found: Vec<u8>,
    },
    /// The file ends inside a header.
    #[error("truncated ELF file: the {what} needs {needed} bytes, the file has {len}")]
    Truncated {
        /// Which header.
        what: &'static str,
        /// Bytes needed from the start of the file.
        needed: u64,
        /// File length.
        len: usize,
    },
    /// An `e_ident` byte has a value the ELF standard does not define.
    #[error("bad ELF header: {field} = {value} is not a valid value")]
    BadIdent {
        /// `EI_CLASS` or `EI_DATA`.
        field: &'static str,
        /// Its value.
        value: u8,
    },
    /// The file is for another processor.
    #[error("ELF for machine {machine} ({name}), expected 70 (68HC11) in e_machine")]
    WrongMachine {
        /// The `e_machine` value.
        machine: u16,
        /// Its name.
        name: &'static str,
    },
    /// A 64-bit ELF file; 68HC11 tools write ELF32.
    #[error(
        "ELF64 file (EI_CLASS = 2), expected ELF32 (EI_CLASS = 1): 68HC11 files are 32-bit ELF"
    )]
    Elf64,
    /// A little-endian ELF file; the 68HC11 is big-endian.
    #[error("little-endian ELF (EI_DATA = 1), expected big-endian (EI_DATA = 2): the 68HC11 is big-endian")]
    LittleEndian,
    /// An `e_type` that is not a loadable program (core dump or unknown).
    #[error("ELF type e_type = {e_type} ({}) cannot be loaded: expected an executable (2) or object file (1)", type_name(*.e_type))]
    UnsupportedType {
        /// The `e_type` value.
        e_type: u16,
    },
    /// A header table entry size is not the ELF32 one.
    #[error("bad ELF header: {field} = {found}, expected {expected} for ELF32")]
    EntrySize {
        /// `e_phentsize` or `e_shentsize`.
        field: &'static str,
        /// Its value.
        found: u16,
        /// The ELF32 size.
        expected: u16,
    },
    /// The program or section header table lies (partly) outside the file.
    #[error("{table} (offset {offset} in {offset_field}, {count} entries) runs past the end of the file ({len} bytes)")]
    TableOutsideFile {
        /// Which table.
        table: &'static str,
        /// `e_phoff` or `e_shoff`.
        offset_field: &'static str,
        /// The table's offset.
        offset: u64,
        /// Its number of entries.
        count: u16,
        /// File length.
        len: usize,
    },
    /// A segment's bytes lie outside the file.
    #[error("program header {index} (PT_LOAD): p_offset {offset} + p_filesz {size} runs past the end of the file ({len} bytes)")]
    SegmentOutsideFile {
        /// Program header index.
        index: usize,
        /// `p_offset`.
        offset: u64,
        /// `p_filesz`.
        size: u64,
        /// File length.
        len: usize,
    },
    /// A segment does not fit below $10000.
    #[error("program header {index} (PT_LOAD): {size} bytes at p_paddr ${addr:X} reach past $FFFF: the 68HC11 has a 16-bit address space")]
    SegmentPastAddressSpace {
        /// Program header index.
        index: usize,
        /// Load address (`p_paddr`).
        addr: u64,
        /// `p_filesz`.
        size: u64,
    },
    /// A section does not fit below $10000 (files without program headers).
    #[error("section {index} ({name}): {size} bytes at sh_addr ${addr:X} reach past $FFFF: the 68HC11 has a 16-bit address space")]
    SectionPastAddressSpace {
        /// Section index.
        index: usize,
        /// Section name.
        name: String,
        /// `sh_addr`.
        addr: u64,
        /// `sh_size`.
        size: u64,
    },
    /// A section's bytes lie outside the file.
    #[error("section {index} ({name}): sh_offset {offset} + sh_size {size} runs past the end of the file ({len} bytes)")]
    SectionOutsideFile {
        /// Section index.
        index: usize,
        /// Section name.
        name: String,
        /// `sh_offset`.
        offset: u64,
        /// `sh_size`.
        size: u64,
        /// File length.
        len: usize,
    },
    /// The section headers contradict each other or the file header.
    #[error("inconsistent section headers: {0}")]
    SectionHeaders(String),
    /// Two pieces to load cover the same address.
    #[error("{first} and {second} overlap: both load bytes at ${addr:04X}{hint}")]
    Overlap {
        /// The one starting lower.
        first: String,
        /// The other one.
        second: String,
        /// First address loaded twice.
        addr: u16,
        /// What to do about it, if known (empty or starting with "; ").
        hint: &'static str,
    },
    /// goblin rejected a table that passed the checks above.
    #[error("malformed ELF file: {0}")]
    Malformed(String),
}

/// Formats bytes as `7F 45 4C 46`.
fn hex_bytes(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "nothing (empty file)".to_string();
    }
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Name of an `e_type` value.
fn type_name(t: u16) -> &'static str {
    match t {
        0 => "none",
        ET_REL => "relocatable object",
        ET_EXEC => "executable",
        ET_DYN => "shared object",
        ET_CORE => "core dump",
        _ => "unknown",
    }
}

/// Name of an `e_machine` value, for the wrong-machine message.
fn machine_name(m: u16) -> &'static str {
    match m {
        0 => "none",
        2 => "SPARC",
        3 => "Intel 80386",
        4 => "Motorola 68000",
        8 => "MIPS",
        20 => "PowerPC",
        21 => "PowerPC64",
        40 => "ARM",
        50 => "IA-64",
        53 => "68HC12",
        62 => "x86-64",
        69 => "68HC16",
        70 => "68HC11",
        71 => "68HC08",
        72 => "68HC05",
        83 => "AVR",
        105 => "MSP430",
        183 => "AArch64",
        243 => "RISC-V",
        _ => "unknown",
    }
}

fn read_u16(bytes: &[u8], off: usize, big: bool) -> Option<u16> {
    let b: [u8; 2] = bytes.get(off..off + 2)?.try_into().ok()?;
    Some(if big {
        u16::from_be_bytes(b)
    } else {
        u16::from_le_bytes(b)
    })
}

/// Checks `e_ident` and `e_machine`: what makes a file a 68HC11 ELF at all.
/// The machine is checked before class and byte order, as it is the most
/// telling fact about a foreign file (an ARM or x86 binary).
fn check_ident(bytes: &[u8]) -> Result<(), ElfError> {
    let len = bytes.len();
    let magic = b"\x7FELF";
    let head = &bytes[..len.min(4)];
    if head != &magic[..head.len()] || head.is_empty() {
        return Err(ElfError::NotElf {
            found: head.to_vec(),
        });
    }
    if len < 20 {
        return Err(ElfError::Truncated {
            what: "file header up to e_machine",
            needed: 20,
            len,
        });
    }
    let class = bytes[4];
    let data = bytes[5];
    if !(1..=2).contains(&class) {
        return Err(ElfError::BadIdent {
            field: "EI_CLASS",
            value: class,
        });
    }
    if !(1..=2).contains(&data) {
        return Err(ElfError::BadIdent {
            field: "EI_DATA",
            value: data,
        });
    }
    let machine = read_u16(bytes, 18, data == 2).unwrap_or(0);
    if machine.swap_bytes() == EM_68HC11 && data == 1 {
        // A 68HC11 file written little-endian: say that, not "machine 17920".
        return Err(ElfError::LittleEndian);
    }
    if machine != EM_68HC11 {
        return Err(ElfError::WrongMachine {
            machine,
            name: machine_name(machine),
        });
    }
    if class == 2 {
        return Err(ElfError::Elf64);
    }
    if data == 1 {
        return Err(ElfError::LittleEndian);
    }
    if len < EHDR_SIZE {
        return Err(ElfError::Truncated {
            what: "ELF32 file header",
            needed: EHDR_SIZE as u64,
            len,
        });
    }
    Ok(())
}

/// Checks the file header's table fields against the file size.
fn check_header(h: &goblin::elf::Header, len: usize) -> Result<(), ElfError> {
    if !matches!(h.e_type, ET_REL | ET_EXEC | ET_DYN) {
        return Err(ElfError::UnsupportedType { e_type: h.e_type });
    }
    if h.e_phnum > 0 {
        if h.e_phentsize as usize != PHDR_SIZE {
            return Err(ElfError::EntrySize {
                field: "e_phentsize",
                found: h.e_phentsize,
                expected: PHDR_SIZE as u16,
            });
        }
        let end = h.e_phoff.checked_add(h.e_phnum as u64 * PHDR_SIZE as u64);
        if h.e_phoff == 0 || end.is_none_or(|e| e > len as u64) {
            return Err(ElfError::TableOutsideFile {
                table: "program header table",
                offset_field: "e_phoff",
                offset: h.e_phoff,
                count: h.e_phnum,
                len,
            });
        }
    }
    if h.e_shoff != 0 {
        if h.e_shnum == 0 {
            return Err(ElfError::SectionHeaders(format!(
                "e_shoff = {} but e_shnum = 0 (extended section numbering is not supported)",
                h.e_shoff
            )));
        }
        if h.e_shentsize as usize != SHDR_SIZE {
            return Err(ElfError::EntrySize {
                field: "e_shentsize",
                found: h.e_shentsize,
                expected: SHDR_SIZE as u16,
            });
        }
        let end = h.e_shoff.checked_add(h.e_shnum as u64 * SHDR_SIZE as u64);
        if end.is_none_or(|e| e > len as u64) {
            return Err(ElfError::TableOutsideFile {
                table: "section header table",
                offset_field: "e_shoff",
                offset: h.e_shoff,
                count: h.e_shnum,
                len,
            });
        }
        if h.e_shstrndx >= h.e_shnum {
            return Err(ElfError::SectionHeaders(format!(
                "e_shstrndx = {} but there are only {} sections",
                h.e_shstrndx, h.e_shnum
            )));
        }
    } else if h.e_shnum != 0 {
        return Err(ElfError::SectionHeaders(format!(
            "e_shnum = {} but e_shoff = 0 (no section header table)",
            h.e_shnum
        )));
    }
    Ok(())
}

/// The bytes of a section, empty for `SHT_NOBITS` (checked to be in the file before).
fn section_data<'a>(bytes: &'a [u8], sh: &SectionHeader) -> &'a [u8] {
    if sh.sh_type == SHT_NOBITS {
        return &[];
    }
    let start = sh.sh_offset as usize;
    let end = start.saturating_add(sh.sh_size as usize);
    bytes.get(start..end).unwrap_or(&[])
}

/// The NUL-terminated string at `off` in a string table, if `off` is inside it.
fn cstr_at(table: &[u8], off: usize) -> Option<String> {
    let rest = table.get(off..)?;
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    Some(String::from_utf8_lossy(&rest[..end]).into_owned())
}

/// Checks every section against the file and returns the section names.
fn check_sections(
    bytes: &[u8],
    h: &goblin::elf::Header,
    shdrs: &[SectionHeader],
) -> Result<Vec<String>, ElfError> {
    let len = bytes.len();
    let in_file = |sh: &SectionHeader| {
        sh.sh_type == SHT_NOBITS
            || sh.sh_size == 0
            || sh
                .sh_offset
                .checked_add(sh.sh_size)
                .is_some_and(|e| e <= len as u64)
    };
    let outside = |index: usize, name: String, sh: &SectionHeader| ElfError::SectionOutsideFile {
        index,
        name,
        offset: sh.sh_offset,
        size: sh.sh_size,
        len,
    };
    let strtab: &[u8] = match shdrs.get(h.e_shstrndx as usize) {
        Some(sh) if h.e_shstrndx != 0 => {
            if sh.sh_type != SHT_STRTAB {
                return Err(ElfError::SectionHeaders(format!(
                    "e_shstrndx = {} names a section of type {}, not a string table",
                    h.e_shstrndx, sh.sh_type
                )));
            }
            if !in_file(sh) {
                return Err(outside(
                    h.e_shstrndx as usize,
                    "the section name table".to_string(),
                    sh,
                ));
            }
            section_data(bytes, sh)
        }
        _ => &[],
    };
    let mut names = Vec::with_capacity(shdrs.len());
    for (index, sh) in shdrs.iter().enumerate() {
        let name = if strtab.is_empty() && sh.sh_name == 0 {
            String::new()
        } else {
            cstr_at(strtab, sh.sh_name).ok_or_else(|| {
                ElfError::SectionHeaders(format!(
                    "section {index}: sh_name = {} is outside the section name table ({} bytes)",
                    sh.sh_name,
                    strtab.len()
                ))
            })?
        };
        if !in_file(sh) {
            return Err(outside(index, name, sh));
        }
        if sh.sh_type == SHT_SYMTAB {
            if sh.sh_entsize != SYM_SIZE {
                return Err(ElfError::SectionHeaders(format!(
                    "section {index} ({name}): symbol table with sh_entsize = {}, expected {SYM_SIZE}",
                    sh.sh_entsize
                )));
            }
            match shdrs.get(sh.sh_link as usize) {
                Some(s) if s.sh_type == SHT_STRTAB => {}
                _ => {
                    return Err(ElfError::SectionHeaders(format!(
                        "section {index} ({name}): sh_link = {} does not name a string table",
                        sh.sh_link
                    )))
                }
            }
        }
        names.push(name);
    }
    Ok(names)
}

/// Reads a 68HC11 ELF file: `PT_LOAD` segments (at their load address
/// `p_paddr`, as `objcopy -O srec` does), or the allocated `PROGBITS` sections
/// of a file without program headers; `e_entry` as entry; the symbol table;
/// the DWARF line table with the source files it names, read from disk
/// relative to the compilation directory or to `path`'s folder.
/// Returns the program and warnings (things that did not stop loading).
pub fn parse_elf(bytes: &[u8], path: Option<&Path>) -> Result<(Program, Vec<String>), ElfError> {
    check_ident(bytes)?;
    let ctx = Ctx::new(Container::Little, Endian::Big);
    let h = Elf::parse_header(bytes).map_err(|e| ElfError::Malformed(e.to_string()))?;
    check_header(&h, bytes.len())?;
    let phdrs = if h.e_phnum == 0 {
        Vec::new()
    } else {
        ProgramHeader::parse(bytes, h.e_phoff as usize, h.e_phnum as usize, ctx)
            .map_err(|e| ElfError::Malformed(format!("program headers: {e}")))?
    };
    let shdrs = if h.e_shoff == 0 {
        Vec::new()
    } else {
        SectionHeader::parse(bytes, h.e_shoff as usize, h.e_shnum as usize, ctx)
            .map_err(|e| ElfError::Malformed(format!("section headers: {e}")))?
    };
    let names = check_sections(bytes, &h, &shdrs)?;
    let mut warnings = Vec::new();

    let mut program = Program {
        segments: load_segments(bytes, &h, &phdrs, &shdrs, &names, &mut warnings)?,
        ..Program::default()
    };
    program.entry = match h.e_type {
        ET_REL => None,
        _ if h.e_entry <= 0xFFFF => Some(h.e_entry as u16),
        _ => {
            warnings.push(format!(
                "e_entry = ${:X} is outside the 16-bit address space; the program has no start address",
                h.e_entry
            ));
            None
        }
    };
    program.symbols = read_symbols(bytes, &shdrs, ctx, &mut warnings)?;
    read_lines(bytes, &shdrs, &names, path, &mut program, &mut warnings);
    program.finish();
    Ok((program, warnings))
}

/// Builds the segments to load, sorted by address, and checks they don't overlap.
fn load_segments(
    bytes: &[u8],
    h: &goblin::elf::Header,
    phdrs: &[ProgramHeader],
    shdrs: &[SectionHeader],
    names: &[String],
    warnings: &mut Vec<String>,
) -> Result<Vec<Segment>, ElfError> {
    let len = bytes.len();
    let mut segments = Vec::new();
    let loads: Vec<(usize, &ProgramHeader)> = phdrs
        .iter()
        .enumerate()
        .filter(|(_, p)| p.p_type == PT_LOAD && p.p_filesz > 0)
        .collect();
    if !loads.is_empty() {
        for (index, ph) in loads {
            let end = ph
                .p_offset
                .checked_add(ph.p_filesz)
                .filter(|&e| e <= len as u64)
                .ok_or(ElfError::SegmentOutsideFile {
                    index,
                    offset: ph.p_offset,
                    size: ph.p_filesz,
                    len,
                })?;
            if ph
                .p_paddr
                .checked_add(ph.p_filesz)
                .is_none_or(|e| e > 0x1_0000)
            {
                return Err(ElfError::SegmentPastAddressSpace {
                    index,
                    addr: ph.p_paddr,
                    size: ph.p_filesz,
                });
            }
            // Name it after the allocated sections whose bytes it holds.
            let inside: Vec<&str> = shdrs
                .iter()
                .zip(names)
                .filter(|(s, n)| {
                    s.sh_flags & SHF_ALLOC as u64 != 0
                        && s.sh_type != SHT_NOBITS
                        && s.sh_size > 0
                        && !n.is_empty()
                        && s.sh_offset >= ph.p_offset
                        && s.sh_offset.saturating_add(s.sh_size) <= end
                })
                .map(|(_, n)| n.as_str())
                .collect();
            let name = (!inside.is_empty()).then(|| inside.join(", "));
            if ph.p_vaddr != ph.p_paddr {
                warnings.push(format!(
                    "program header {index} ({}) runs at ${:04X} but is stored at ${:04X}: loaded at ${:04X}, as objcopy does; the program must copy it",
                    name.as_deref().unwrap_or("no sections"),
                    ph.p_vaddr,
                    ph.p_paddr,
                    ph.p_paddr
                ));
            }
            segments.push(Segment {
                start: ph.p_paddr as u16,
                bytes: bytes
                    .get(ph.p_offset as usize..end as usize)
                    .unwrap_or(&[])
                    .to_vec(),
                name,
            });
        }
    } else {
        for (index, (sh, name)) in shdrs.iter().zip(names).enumerate() {
            if sh.sh_flags & SHF_ALLOC as u64 == 0 || sh.sh_type != SHT_PROGBITS || sh.sh_size == 0
            {
                continue;
            }
            if sh
                .sh_addr
                .checked_add(sh.sh_size)
                .is_none_or(|e| e > 0x1_0000)
            {
                return Err(ElfError::SectionPastAddressSpace {
                    index,
                    name: name.clone(),
                    addr: sh.sh_addr,
                    size: sh.sh_size,
                });
            }
            segments.push(Segment {
                start: sh.sh_addr as u16,
                bytes: section_data(bytes, sh).to_vec(),
                name: Some(name.clone()),
            });
        }
        if h.e_type == ET_REL
            && shdrs
                .iter()
                .any(|s| (s.sh_type == SHT_REL || s.sh_type == SHT_RELA) && s.sh_size > 0)
        {
            warnings.push(
                "relocatable object file (ET_REL): its relocations are not applied, so addresses of calls and data may be wrong; link it with m68hc11-ld".to_string(),
            );
        }
    }
    if segments.is_empty() {
        warnings.push(
            "the file has nothing to load (no PT_LOAD segment or allocated section with bytes)"
                .to_string(),
        );
    }
    segments.sort_by_key(|s| s.start);
    for pair in segments.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.end() > b.start as u32 {
            let describe = |s: &Segment| {
                format!(
                    "{} at ${:04X}-${:04X}",
                    s.name.as_deref().unwrap_or("segment"),
                    s.start,
                    s.end().saturating_sub(1)
                )
            };
            return Err(ElfError::Overlap {
                first: describe(a),
                second: describe(b),
                addr: b.start,
                hint: if h.e_type == ET_REL {
                    "; this is an unlinked object file, whose sections all start at 0: link it with m68hc11-ld"
                } else {
                    ""
                },
            });
        }
    }
    Ok(segments)
}

/// Reads the symbol table: named code and data symbols. Section and file
/// symbols, undefined and common symbols, and assembler-local labels (`.L...`,
/// or names with control characters such as gas's `L0\x01`) are left out.
/// Absolute symbols (`.equ`, linker-script values) become constants.
fn read_symbols(
    bytes: &[u8],
    shdrs: &[SectionHeader],
    ctx: Ctx,
    warnings: &mut Vec<String>,
) -> Result<Vec<Symbol>, ElfError> {
    let Some(sh) = shdrs.iter().find(|s| s.sh_type == SHT_SYMTAB) else {
        return Ok(Vec::new());
    };
    // check_sections made sure sh_link names a string table.
    let strtab = shdrs
        .get(sh.sh_link as usize)
        .map(|s| section_data(bytes, s))
        .unwrap_or(&[]);
    let count = (sh.sh_size / SYM_SIZE) as usize;
    let syms = Symtab::parse(bytes, sh.sh_offset as usize, count, ctx)
        .map_err(|e| ElfError::Malformed(format!("symbol table: {e}")))?;
    let mut symbols = Vec::new();
    let mut bad_names = 0usize;
    let mut too_high = Vec::new();
    for sym in syms.iter().skip(1) {
        if !matches!(sym.st_type(), STT_NOTYPE | STT_OBJECT | STT_FUNC) {
            continue;
        }
        if sym.st_shndx == SHN_UNDEF as usize || sym.st_shndx == SHN_COMMON as usize {
            continue;
        }
        let Some(name) = cstr_at(strtab, sym.st_name) else {
            bad_names += 1;
            continue;
        };
        if name.is_empty() || name.starts_with(".L") || name.chars().any(char::is_control) {
            continue;
        }
        if sym.st_value > 0xFFFF {
            too_high.push(format!("{name} = ${:X}", sym.st_value));
            continue;
        }
        symbols.push(Symbol {
            name,
            value: sym.st_value as u16,
            kind: if sym.st_shndx == SHN_ABS as usize {
                SymbolKind::Constant
            } else {
                SymbolKind::Label
            },
            defined_at: None,
            used_at: Vec::new(),
            size: (sym.st_size > 0).then_some(sym.st_size.min(u32::MAX as u64) as u32),
        });
    }
    if bad_names > 0 {
        warnings.push(format!(
            "{bad_names} symbols have names outside the string table and were skipped"
        ));
    }
    if !too_high.is_empty() {
        warnings.push(format!(
            "symbols above $FFFF skipped (the 68HC11 has a 16-bit address space): {}",
            too_high.join(", ")
        ));
    }
    Ok(symbols)
}
