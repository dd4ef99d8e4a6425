//! The in-memory program every later layer reads: the debugger, the GUI,
//! lessons and the grader use this, never a text listing.

use std::path::PathBuf;

/// Index into [`Program::files`].
pub type FileId = usize;

/// A run of bytes to load at an address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Load address of the first byte.
    pub start: u16,
    /// The bytes, in address order.
    pub bytes: Vec<u8>,
    /// Name of the section it came from (`RomSection`, `.text`), if known.
    pub name: Option<String>,
}

impl Segment {
    /// One past the last address (as u32, since a segment may end at $FFFF).
    pub fn end(&self) -> u32 {
        self.start as u32 + self.bytes.len() as u32
    }
}

/// What a symbol stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SymbolKind {
    /// A label on a line (code or data address).
    Label,
    /// A value from `equ` (a constant, not necessarily an address).
    Constant,
}

/// A named value with where it was defined and where it is used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// The name as written at its definition (symbols compare case-insensitively).
    pub name: String,
    /// Its value (an address for labels).
    pub value: u16,
    /// Label or constant.
    pub kind: SymbolKind,
    /// Where it is defined, if the program came from source.
    pub defined_at: Option<(FileId, u32)>,
    /// Every (file, line) that uses it.
    pub used_at: Vec<(FileId, u32)>,
    /// For labels on data: the number of bytes reserved or emitted there
    /// (`board ds.b boardSize` = 336), if known.
    pub size: Option<u32>,
}

/// A source file that went into the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The path as opened (for messages and the GUI's tabs).
    pub path: PathBuf,
    /// The decoded text (UTF-8, or Windows-1252 decoded), with original line breaks.
    pub text: String,
}

impl SourceFile {
    /// The text of 1-based line `line`, without its line break.
    pub fn line_text(&self, line: u32) -> Option<&str> {
        self.text
            .lines()
            .nth((line as usize).checked_sub(1)?)
            .map(|l| l.trim_end_matches('\r'))
    }
}

/// One source line that produced bytes at an address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineEntry {
    /// First address the line produced.
    pub addr: u16,
    /// Number of bytes the line produced.
    pub len: u16,
    /// The file.
    pub file: FileId,
    /// 1-based line number.
    pub line: u32,
}

/// A complete loadable program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// Bytes to load, by address.
    pub segments: Vec<Segment>,
    /// Start address: the reset vector's target, an ELF entry or an S9 address.
    pub entry: Option<u16>,
    /// All symbols, in definition order.
    pub symbols: Vec<Symbol>,
    /// Source files, main file first.
    pub files: Vec<SourceFile>,
    /// Address -> line entries, sorted by address.
    pub lines: Vec<LineEntry>,
}

impl Program {
    /// The symbol with this name, compared case-insensitively.
    pub fn symbol(&self, name: &str) -> Option<&Symbol> {
        self.symbols
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    /// `File.inc:34`: the file name and line of the source line whose bytes
    /// cover `addr`, for messages.
    pub fn source_place(&self, addr: u16) -> Option<String> {
        let l = self.line_at(addr)?;
        let f = self.files.get(l.file)?;
        let name = f
            .path
            .file_name()
            .map_or_else(|| f.path.to_string_lossy(), |n| n.to_string_lossy());
        Some(format!("{name}:{}", l.line))
    }

    /// The line entry whose bytes cover `addr`.
    pub fn line_at(&self, addr: u16) -> Option<&LineEntry> {
        let idx = self.lines.partition_point(|l| l.addr <= addr);
        let entry = self.lines.get(idx.checked_sub(1)?)?;
        (addr < entry.addr.saturating_add(entry.len.max(1))).then_some(entry)
    }

    /// Every line entry of (file, line): usually one, none for a line with no bytes.
    pub fn addrs_of_line(&self, file: FileId, line: u32) -> impl Iterator<Item = &LineEntry> {
        self.lines
            .iter()
            .filter(move |l| l.file == file && l.line == line)
    }

    /// The label at or before `addr`, and the offset from it (`drawCell+12`).
    /// Only labels are considered, not `equ` constants.
    pub fn label_for(&self, addr: u16) -> Option<(&Symbol, u16)> {
        self.symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Label && s.value <= addr)
            .max_by_key(|s| s.value)
            .map(|s| (s, addr - s.value))
    }

    /// [`Program::label_for`] for many addresses: the labels sorted once
    /// (the debugger names an address at every stop).
    pub fn label_index(&self) -> LabelIndex {
        let mut by_addr: Vec<(u16, u32)> = self
            .symbols
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == SymbolKind::Label)
            .map(|(i, s)| (s.value, i as u32))
            .collect();
        by_addr.sort_unstable();
        LabelIndex { by_addr }
    }

    /// The byte the program loads at `addr`, if any segment covers it.
    pub fn byte_at(&self, addr: u16) -> Option<u8> {
        self.segments.iter().find_map(|s| {
            let off = (addr as u32).checked_sub(s.start as u32)?;
            s.bytes.get(off as usize).copied()
        })
    }

    /// Sorts `lines` by address; producers call this once when done.
    pub fn finish(&mut self) {
        self.lines.sort_by_key(|l| (l.addr, l.file, l.line));
    }
}

/// The labels of one program sorted by address ([`Program::label_index`]):
/// the same answers as [`Program::label_for`] in a binary search instead
/// of a scan of every symbol.
#[derive(Clone, Debug, Default)]
pub struct LabelIndex {
    /// (address, index into `symbols`), by address and then index: among
    /// labels at one address the last defined answers, as in `label_for`.
    by_addr: Vec<(u16, u32)>,
}

impl LabelIndex {
    /// The label at or before `addr` in `program` (the program the index
    /// was made from), and the offset from it.
    pub fn label_for<'p>(&self, program: &'p Program, addr: u16) -> Option<(&'p Symbol, u16)> {
        let at = self.by_addr.partition_point(|&(v, _)| v <= addr);
        let &(value, i) = self.by_addr.get(at.checked_sub(1)?)?;
        Some((program.symbols.get(i as usize)?, addr - value))
    }
}
