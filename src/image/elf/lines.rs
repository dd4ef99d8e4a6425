//! The DWARF line table of a 68HC11 ELF file (`.debug_line`, DWARF 2-5,
//! section 6.2 of the DWARF standard): which source line each address
//! came from, with the source files it names read from disk. Problems in
//! the DWARF data become warnings; the program still loads, without lines.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use gimli::{AttributeValue, BigEndian, EndianSlice};
use goblin::elf::section_header::{SHF_COMPRESSED, SHT_NOBITS};
use goblin::elf::SectionHeader;

use super::super::program::{FileId, LineEntry, Program, SourceFile};
use super::super::text::decode_source;
use super::{section_data, MAX_SOURCE_BYTES};

type Slice<'a> = EndianSlice<'a, BigEndian>;

/// Collects files and line entries from the line programs.
struct LineBuilder<'p> {
    /// Folder of the ELF file, for relative paths.
    elf_dir: Option<PathBuf>,
    /// Line-table path (normalised) -> file id.
    by_path: HashMap<PathBuf, FileId>,
    files: Vec<SourceFile>,
    lines: Vec<LineEntry>,
    warnings: &'p mut Vec<String>,
    /// Whether rows above $FFFF were already reported.
    warned_high: bool,
}

impl LineBuilder<'_> {
    /// The file id for a line-table path, reading the file on first sight.
    fn file_id(&mut self, path: PathBuf) -> FileId {
        if let Some(&id) = self.by_path.get(&path) {
            return id;
        }
        let mut candidates = Vec::new();
        match &self.elf_dir {
            Some(dir) if path.is_relative() => candidates.push(dir.join(&path)),
            _ => candidates.push(path.clone()),
        }
        if let (Some(dir), Some(name)) = (&self.elf_dir, path.file_name()) {
            let beside = dir.join(name);
            if !candidates.contains(&beside) {
                candidates.push(beside);
            }
        }
        let found = candidates.iter().find_map(|c| {
            crate::platform::fs::read_limited(c, MAX_SOURCE_BYTES)
                .ok()
                .map(|b| (c.clone(), decode_source(&b)))
        });
        let file = match found {
            Some((found_path, text)) => SourceFile {
                path: found_path,
                text,
            },
            None => {
                self.warnings.push(format!(
                    "source file {} named by the line table was not found (looked at {}); its lines are shown without text",
                    path.display(),
                    candidates
                        .iter()
                        .map(|c| c.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                SourceFile {
                    path: path.clone(),
                    text: String::new(),
                }
            }
        };
        let id = self.files.len();
        self.files.push(file);
        self.by_path.insert(path, id);
        id
    }

    /// Turns one sequence of rows (address, file, line) ending at `end` into
    /// line entries. A row is superseded by a later row at the same address.
    fn flush(&mut self, seq: &mut Vec<(u64, FileId, u32)>, end: u64) {
        for (i, &(addr, file, line)) in seq.iter().enumerate() {
            let next = seq.get(i + 1).map_or(end, |r| r.0);
            if next <= addr {
                continue;
            }
            if addr > 0xFFFF {
                if !self.warned_high {
                    self.warnings.push(format!(
                        "line table has addresses above $FFFF (first ${addr:X}); those rows are skipped"
                    ));
                    self.warned_high = true;
                }
                continue;
            }
            let len = (next - addr).min(0x1_0000 - addr).min(0xFFFF) as u16;
            self.lines.push(LineEntry {
                addr: addr as u16,
                len,
                file,
                line,
            });
        }
        seq.clear();
    }
}

/// Removes `.` components and folds `dir/..`, so the same file named two
/// ways in the line table gets one id.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if matches!(out.components().next_back(), Some(Component::Normal(_))) {
                    out.pop();
                } else {
                    out.push("..");
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// A string attribute of a line-table header (inline or in a string section).
fn attr_str(dwarf: &gimli::Dwarf<Slice<'_>>, attr: AttributeValue<Slice<'_>>) -> Option<String> {
    let s = match attr {
        AttributeValue::String(s) => s,
        AttributeValue::DebugStrRef(off) => dwarf.debug_str.get_str(off).ok()?,
        AttributeValue::DebugLineStrRef(off) => dwarf.debug_line_str.get_str(off).ok()?,
        _ => return None,
    };
    Some(String::from_utf8_lossy(s.slice()).into_owned())
}

/// Reads `.debug_line` into `program.lines` and `program.files`. Problems in
/// the DWARF data become warnings: the program still loads, without lines.
pub(super) fn read_lines(
    bytes: &[u8],
    shdrs: &[SectionHeader],
    names: &[String],
    path: Option<&Path>,
    program: &mut Program,
    warnings: &mut Vec<String>,
) {
    let find = |want: &str| -> Option<&SectionHeader> {
        shdrs
            .iter()
            .zip(names)
            .find(|(s, n)| n.as_str() == want && s.sh_type != SHT_NOBITS)
            .map(|(s, _)| s)
    };
    let Some(line_sh) = find(".debug_line") else {
        return;
    };
    if shdrs
        .iter()
        .zip(names)
        .any(|(s, n)| n.starts_with(".debug_") && s.sh_flags & SHF_COMPRESSED as u64 != 0)
    {
        warnings.push(
            "compressed DWARF sections are not supported; loaded without a line table".to_string(),
        );
        return;
    }
    let dwarf = match gimli::Dwarf::load(|id| -> Result<Slice<'_>, ()> {
        let data = find(id.name()).map_or(&[][..], |s| section_data(bytes, s));
        Ok(EndianSlice::new(data, BigEndian))
    }) {
        Ok(d) => d,
        Err(()) => return,
    };
    let elf_dir = path.map(|p| match p.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    });
    let mut b = LineBuilder {
        elf_dir,
        by_path: HashMap::new(),
        files: Vec::new(),
        lines: Vec::new(),
        warnings,
        warned_high: false,
    };
    let mut any_unit = false;
    let mut units = dwarf.units();
    loop {
        let header = match units.next() {
            Ok(Some(h)) => {
                any_unit = true;
                h
            }
            Ok(None) => break,
            Err(e) => {
                b.warnings.push(format!(
                    ".debug_info: {e}; the line table may be incomplete"
                ));
                break;
            }
        };
        let unit = match dwarf.unit(header) {
            Ok(u) => u,
            Err(e) => {
                b.warnings
                    .push(format!("DWARF: a compilation unit or its line table is unreadable ({e}); its lines are not loaded"));
                continue;
            }
        };
        let Some(prog) = unit.line_program.clone() else {
            continue;
        };
        let comp_dir = unit
            .comp_dir
            .map(|d| PathBuf::from(String::from_utf8_lossy(d.slice()).into_owned()));
        // The unit's own file first, so the main file gets the lowest id.
        if let Some(name) = unit.name {
            let name = PathBuf::from(String::from_utf8_lossy(name.slice()).into_owned());
            let full = comp_dir.as_ref().map_or(name.clone(), |d| d.join(&name));
            b.file_id(normalize(&full));
        }
        run_line_program(&dwarf, prog, comp_dir.as_deref(), &mut b);
    }
    if !any_unit {
        // No compilation unit to point at the line table (gas always writes one, other
        // producers may not): read the line programs one after the other.
        let debug_line = gimli::DebugLine::new(section_data(bytes, line_sh), BigEndian);
        let total = line_sh.sh_size;
        let mut off = 0u64;
        while off < total {
            let prog = match debug_line.program(gimli::DebugLineOffset(off as usize), 4, None, None)
            {
                Ok(p) => p,
                Err(e) => {
                    b.warnings.push(format!(".debug_line at offset {off}: {e}"));
                    break;
                }
            };
            let header = prog.header();
            let size = header.unit_length() as u64 + header.format().initial_length_size() as u64;
            run_line_program(&dwarf, prog, None, &mut b);
            off = off.saturating_add(size.max(1));
        }
    }
    program.files = b.files;
    program.lines = b.lines;
}

/// Runs one line program and adds its rows.
fn run_line_program(
    dwarf: &gimli::Dwarf<Slice<'_>>,
    prog: gimli::IncompleteLineProgram<Slice<'_>>,
    comp_dir: Option<&Path>,
    b: &mut LineBuilder<'_>,
) {
    let mut rows = prog.rows();
    let mut seq: Vec<(u64, FileId, u32)> = Vec::new();
    let mut cache: HashMap<u64, Option<FileId>> = HashMap::new();
    let mut bad_file = None;
    loop {
        let (header, row) = match rows.next_row() {
            Ok(Some(r)) => r,
            Ok(None) => break,
            Err(e) => {
                b.warnings.push(format!(
                    ".debug_line: {e}; the rest of the line program is skipped"
                ));
                break;
            }
        };
        if row.end_sequence() {
            let end = row.address();
            b.flush(&mut seq, end);
            continue;
        }
        let Some(line) = row.line() else {
            continue;
        };
        let index = row.file_index();
        let file = match cache.get(&index) {
            Some(f) => *f,
            None => {
                let path = row.file(header).and_then(|entry| {
                    let name = attr_str(dwarf, entry.path_name())?;
                    let mut p = PathBuf::new();
                    if let Some(dir) = entry.directory(header).and_then(|d| attr_str(dwarf, d)) {
                        p.push(dir);
                    }
                    p.push(name);
                    if p.is_relative() {
                        if let Some(cd) = comp_dir {
                            p = cd.join(p);
                        }
                    }
                    Some(normalize(&p))
                });
                let f = path.map(|p| b.file_id(p));
                cache.insert(index, f);
                f
            }
        };
        let Some(file) = file else {
            bad_file.get_or_insert(index);
            continue;
        };
        seq.push((row.address(), file, line.get().min(u32::MAX as u64) as u32));
    }
    if let Some(index) = bad_file {
        b.warnings.push(format!(
            ".debug_line: rows name file index {index}, which the line table does not list; they are skipped"
        ));
    }
    if !seq.is_empty() {
        b.warnings
            .push(".debug_line: a sequence has no end; its last row is skipped".to_string());
        let last = seq.last().map_or(0, |r| r.0);
        b.flush(&mut seq, last);
    }
}
