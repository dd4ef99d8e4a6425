//! An exercise's reference solution as it ships to students: an assembled
//! image (`reference.s19`) and its symbols (`reference.sym`), never the
//! source. The grader needs nothing more: it boots the image, reads the
//! variables the checks name through the symbols, and stops at labels.
//!
//! `reference.sym` is one symbol per line, `NAME $VALUE KIND [SIZE]`, KIND
//! `label` or `equ`, SIZE the bytes reserved at a data label (the `336` of
//! `board ds.b 336`); `#` starts a comment. The solution sources live with
//! the tests (`tests/solutions/`), and `hc11lab lesson validate` checks that
//! the shipped image is what they assemble to.

use crate::image::{Program, Symbol, SymbolKind};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// File name of the image inside an exercise's `reference/` folder.
pub const IMAGE: &str = "reference.s19";
/// File name of the symbols beside it.
pub const SYMBOLS: &str = "reference.sym";

/// The image and symbol texts for `program` (written by
/// `hc11lab lesson reference`).
pub fn write(program: &Program) -> (String, String) {
    let s19 = crate::image::s19::write_s19_with(
        program,
        &crate::image::s19::S19WriteOptions {
            header: "reference".into(),
            ..Default::default()
        },
    );
    let mut sym = String::from("# NAME $VALUE label|equ [SIZE] (hc11lab lesson reference)\n");
    for s in &program.symbols {
        let kind = match s.kind {
            SymbolKind::Label => "label",
            SymbolKind::Constant => "equ",
        };
        let _ = write!(sym, "{} ${:04X} {kind}", s.name, s.value);
        if let Some(n) = s.size {
            let _ = write!(sym, " {n}");
        }
        sym.push('\n');
    }
    (s19, sym)
}

/// Parses a symbol file; errors name the line.
pub fn parse_symbols(text: &str) -> Result<Vec<Symbol>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |what: &str| {
            format!(
                "line {}: {what} (want `NAME $VALUE label|equ [SIZE]`)",
                i + 1
            )
        };
        let parts: Vec<&str> = line.split_whitespace().collect();
        let (name, value, kind, size) = match parts.as_slice() {
            [n, v, k] => (*n, *v, *k, None),
            [n, v, k, s] => (*n, *v, *k, Some(*s)),
            _ => return Err(bad("wrong number of fields")),
        };
        let value = value
            .strip_prefix('$')
            .and_then(|h| u16::from_str_radix(h, 16).ok())
            .ok_or_else(|| bad("the value is not `$` and 1-4 hex digits"))?;
        let kind = match kind {
            "label" => SymbolKind::Label,
            "equ" => SymbolKind::Constant,
            _ => return Err(bad("the kind is neither `label` nor `equ`")),
        };
        let size = match size {
            None => None,
            Some(s) => Some(
                s.parse::<u32>()
                    .map_err(|_| bad("the size is not a number"))?,
            ),
        };
        out.push(Symbol {
            name: name.to_string(),
            value,
            kind,
            defined_at: None,
            used_at: Vec::new(),
            size,
        });
    }
    Ok(out)
}

/// Loads `image` (S19) and the `reference.sym` beside it into a program.
pub fn load(image: &Path) -> Result<Program, String> {
    let loaded = crate::image::load::load_file(image).map_err(|e| e.to_string())?;
    let sym_path = symbols_path(image);
    let text = super::read_course_file(&sym_path)
        .map_err(|e| format!("{}: {e} (the reference's symbols)", sym_path.display()))?;
    let mut program = loaded.program;
    program.symbols = parse_symbols(&text).map_err(|e| format!("{}: {e}", sym_path.display()))?;
    Ok(program)
}

/// `reference.sym` beside `image`.
pub fn symbols_path(image: &Path) -> PathBuf {
    image.with_file_name(SYMBOLS)
}
