//! The assembler listing (every source line with its address and bytes, then
//! a cross-referenced symbol table) and the plain symbol file.

use super::{Assembly, ListingLine};
use crate::image::{FileId, Program, SourceFile, Symbol, SymbolKind};
use std::fmt::Write;

/// Bytes per listing row; longer data wraps onto continuation rows.
const BYTES_PER_ROW: usize = 5;
/// Tab stops of the source text in the listing.
const TAB: usize = 8;

fn base_name(f: &SourceFile) -> String {
    f.path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| f.path.to_string_lossy().into_owned())
}

fn expand_tabs(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    let mut col = 0;
    for ch in s.chars() {
        if ch == '\t' {
            let next = (col / TAB + 1) * TAB;
            out.extend(std::iter::repeat_n(' ', next - col));
            col = next;
        } else {
            out.push(ch);
            col += 1;
        }
    }
    out
}

fn hex_bytes(b: &[u8]) -> String {
    let v: Vec<String> = b.iter().map(|x| format!("{x:02X}")).collect();
    v.join(" ")
}

/// `file:line` for a (file, line) pair.
fn at(files: &[SourceFile], (file, line): (FileId, u32)) -> String {
    files.get(file).map_or_else(
        || format!("?:{line}"),
        |f| format!("{}:{line}", base_name(f)),
    )
}

/// Renders the listing of an assembly: one row per source line read
/// (file, line, address, bytes, source; `-` marks lines of a false `.if`
/// branch), long data wrapped onto continuation rows, then the symbol table
/// with value, kind, size, and the lines defining and using each symbol.
pub fn listing(asm: &Assembly) -> String {
    let files = &asm.files;
    let width = files
        .iter()
        .map(|f| base_name(f).chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 24);
    let mut out = String::new();
    if let Some(main) = files.first() {
        let _ = writeln!(
            out,
            "Listing of {}",
            main.path.to_string_lossy().replace('\\', "/")
        );
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{:<width$} {:>5}  Addr  {:<14}  Source",
        "File", "Line", "Bytes"
    );
    // Split each file into lines once.
    let lines: Vec<Vec<&str>> = files
        .iter()
        .map(|f| f.text.lines().map(|l| l.trim_end_matches('\r')).collect())
        .collect();
    for l in &asm.listing {
        row(&mut out, l, files, &lines, width);
    }
    out.push('\n');
    out.push_str(&symbol_table(&asm.symbols, files));
    out
}

fn row(out: &mut String, l: &ListingLine, files: &[SourceFile], lines: &[Vec<&str>], width: usize) {
    let name: String = files
        .get(l.file)
        .map(base_name)
        .unwrap_or_default()
        .chars()
        .take(width)
        .collect();
    let src = lines
        .get(l.file)
        .and_then(|f| f.get((l.line as usize).wrapping_sub(1)))
        .copied()
        .unwrap_or("");
    let addr = l
        .addr
        .map_or_else(|| "    ".to_string(), |a| format!("{a:04X}"));
    let mark = if l.skipped { '-' } else { ' ' };
    let first = l
        .bytes
        .get(..BYTES_PER_ROW.min(l.bytes.len()))
        .unwrap_or(&[]);
    let bytes = if !l.bytes.is_empty() {
        hex_bytes(first)
    } else if let Some(v) = l.value {
        if l.condition {
            // `= $0000` beside `#ifdef DEBUG` read as "DEBUG is 0".
            format!("= {}", v != 0)
        } else if l.addr.is_some() {
            format!("[{v}]")
        } else {
            format!("= ${:04X}", v as u16)
        }
    } else {
        String::new()
    };
    let text = expand_tabs(src);
    let _ = writeln!(
        out,
        "{name:<width$} {:>5}{mark} {addr}  {bytes:<14}  {}",
        l.line,
        text.trim_end()
    );
    let mut offset = BYTES_PER_ROW;
    while offset < l.bytes.len() {
        let end = (offset + BYTES_PER_ROW).min(l.bytes.len());
        let a = l.addr.map_or(0, |a| a.wrapping_add(offset as u16));
        let chunk = l.bytes.get(offset..end).unwrap_or(&[]);
        let _ = writeln!(
            out,
            "{:<width$} {:>5}  {a:04X}  {}",
            "",
            "",
            hex_bytes(chunk).trim_end()
        );
        offset = end;
    }
}

/// The symbol table part of the listing, sorted by name (case-insensitive).
pub fn symbol_table(symbols: &[Symbol], files: &[SourceFile]) -> String {
    let mut out = String::new();
    let mut sorted: Vec<&Symbol> = symbols.iter().collect();
    sorted.sort_by(|a, b| {
        a.name
            .to_lowercase()
            .cmp(&b.name.to_lowercase())
            .then_with(|| a.name.cmp(&b.name))
    });
    let name_w = sorted
        .iter()
        .map(|s| s.name.chars().count())
        .max()
        .unwrap_or(4)
        .clamp(4, 32);
    let def_w = sorted
        .iter()
        .filter_map(|s| s.defined_at.map(|d| at(files, d).chars().count()))
        .max()
        .unwrap_or(7)
        .max(7);
    let _ = writeln!(out, "Symbols: {}", sorted.len());
    let _ = writeln!(
        out,
        "{:<name_w$}  Value  Kind      Size  {:<def_w$}  Used at",
        "Name", "Defined"
    );
    for s in sorted {
        let kind = match s.kind {
            SymbolKind::Label => "label",
            SymbolKind::Constant => "equ",
        };
        let size = s.size.map_or_else(String::new, |n| n.to_string());
        let def = s.defined_at.map_or_else(String::new, |d| at(files, d));
        let used: Vec<String> = s.used_at.iter().map(|&u| at(files, u)).collect();
        let used = if used.is_empty() {
            "-".to_string()
        } else {
            used.join(", ")
        };
        let _ = writeln!(
            out,
            "{:<name_w$}  ${:04X}  {kind:<8} {size:>5}  {def:<def_w$}  {used}",
            s.name, s.value
        );
    }
    out
}

/// The symbol file: one `NAME $VALUE` per line, sorted by value, then name.
pub fn symbol_file(program: &Program) -> String {
    let mut sorted: Vec<&Symbol> = program.symbols.iter().collect();
    sorted.sort_by(|a, b| {
        a.value
            .cmp(&b.value)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
            .then_with(|| a.name.cmp(&b.name))
    });
    let mut out = String::new();
    for s in sorted {
        let _ = writeln!(out, "{} ${:04X}", s.name, s.value);
    }
    out
}
