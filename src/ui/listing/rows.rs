//! The rows of the listing before they are drawn: each file split into
//! lines with their colours and the address and bytes they assembled to,
//! the columns a row has room for, and a line cut into pieces whose
//! symbol names can be clicked.

use std::collections::HashMap;
use std::ops::Range;

use egui::Color32;

use crate::image::Program;
use crate::ui::syntax::{Highlighter, Span};

/// What a line assembled to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineCode {
    /// First address.
    pub addr: u16,
    /// The bytes (all of them; the view shows the first few).
    pub bytes: Vec<u8>,
}

/// One file prepared for display: line ranges, colours, code per line.
#[derive(Debug, Default)]
pub struct PreparedFile {
    /// Byte range of each line in the file's text (without line breaks).
    pub lines: Vec<Range<usize>>,
    /// Colour spans per line.
    pub spans: Vec<Vec<Span>>,
    /// Address and bytes per line (index = line - 1).
    pub code: Vec<Option<LineCode>>,
}

/// Splits, colours and annotates every file of `program`.
pub fn prepare(program: &Program, hl: Option<&Highlighter>, dark: bool) -> Vec<PreparedFile> {
    let mut out: Vec<PreparedFile> = program
        .files
        .iter()
        .map(|f| {
            let mut lines = Vec::new();
            let mut start = 0;
            for l in f.text.split_inclusive('\n') {
                let body = l.trim_end_matches('\n').trim_end_matches('\r');
                lines.push(start..start + body.len());
                start += l.len();
            }
            PreparedFile {
                code: vec![None; lines.len()],
                spans: hl.map(|h| h.highlight(&f.text, dark)).unwrap_or_default(),
                lines,
            }
        })
        .collect();
    for e in &program.lines {
        let Some(pf) = out.get_mut(e.file) else {
            continue;
        };
        let Some(slot) = pf.code.get_mut((e.line as usize).wrapping_sub(1)) else {
            continue;
        };
        let bytes: Vec<u8> = (0..e.len)
            .filter_map(|i| program.byte_at(e.addr.wrapping_add(i)))
            .collect();
        match slot {
            // A line that produced bytes in two places (rare): keep the first
            // address, append the bytes.
            Some(code) => code.bytes.extend(bytes),
            None => {
                *slot = Some(LineCode {
                    addr: e.addr,
                    bytes,
                })
            }
        }
    }
    out
}

/// Where a `;` comment starts in a line (or the whole line for a `*` in
/// column 0); quotes are skipped.
pub(super) fn comment_start(line: &str) -> usize {
    if line.starts_with('*') {
        return 0;
    }
    let mut quote: Option<char> = None;
    for (i, ch) in line.char_indices() {
        match (quote, ch) {
            (None, ';') => return i,
            (None, '"') | (None, '\'') => quote = Some(ch),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    line.len()
}

/// What a listing row shows beside its source, for the room it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Columns {
    /// The address the line assembled to.
    pub address: bool,
    /// Its first bytes.
    pub bytes: bool,
    /// The source with its runs of blanks cut to one (and its indentation
    /// to two), so mnemonic and operand come early in the row.
    pub squeeze: bool,
}

/// Characters of source a row keeps room for before it gives up the bytes,
/// then the blanks of the source, then the address: the instruction is
/// what a student reads, the rest the link bar and a hover also show.
const SOURCE_WITH_BYTES: f32 = 30.0;
const SOURCE_AS_WRITTEN: f32 = 30.0;
const SOURCE_SQUEEZED: f32 = 18.0;
/// `C1A3 ` and `86 0C 39 12+ `, in characters.
pub(super) const ADDRESS_CHARS: f32 = 5.0;
pub(super) const BYTES_CHARS: f32 = 13.0;

/// The columns of a row `chars` monospace characters wide whose line
/// number (with the current-line marker and a blank) takes `number_chars`.
pub fn columns(chars: f32, number_chars: f32) -> Columns {
    let left = chars - number_chars;
    if left >= ADDRESS_CHARS + BYTES_CHARS + SOURCE_WITH_BYTES {
        Columns {
            address: true,
            bytes: true,
            squeeze: false,
        }
    } else if left >= ADDRESS_CHARS + SOURCE_AS_WRITTEN {
        Columns {
            address: true,
            bytes: false,
            squeeze: false,
        }
    } else {
        Columns {
            address: left >= ADDRESS_CHARS + SOURCE_SQUEEZED,
            bytes: false,
            squeeze: true,
        }
    }
}

/// Which bytes of `line` a squeezed row keeps: of each run of blanks
/// before the comment only the first (the first two at the start of the
/// line, so code stays indented under its labels); blanks inside quotes
/// and in the comment stay.
pub(super) fn squeeze_mask(line: &str) -> Vec<bool> {
    let comment = comment_start(line);
    let mut keep = vec![true; line.len()];
    let mut quote: Option<char> = None;
    let mut run = 0usize;
    for (i, ch) in line.char_indices() {
        if i >= comment {
            break;
        }
        match (quote, ch) {
            (None, ' ' | '\t') => {
                run += 1;
                let allowed = if run == i + 1 { 2 } else { 1 };
                if run > allowed {
                    keep[i] = false;
                }
                continue;
            }
            (None, '"' | '\'') => quote = Some(ch),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
        run = 0;
    }
    keep
}

/// A piece of a line: text, colour, and the symbol it names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece<'a> {
    /// The text.
    pub text: &'a str,
    /// Its colour.
    pub color: Color32,
    /// Index into `Program::symbols` if the text is a symbol's name.
    pub symbol: Option<usize>,
}

/// Cuts a line into coloured pieces, separating symbol names (outside
/// comments) so they can be clicked.
pub fn pieces<'a>(
    line: &'a str,
    spans: &[Span],
    symbols: &HashMap<String, usize>,
    default: Color32,
) -> Vec<Piece<'a>> {
    let comment = comment_start(line);
    let mut out = Vec::new();
    let mut pos = 0;
    for (r, color) in spans {
        if r.start > pos {
            push_split(&mut out, line, pos..r.start, default, symbols, comment);
        }
        push_split(&mut out, line, r.clone(), *color, symbols, comment);
        pos = r.end;
    }
    if pos < line.len() {
        push_split(&mut out, line, pos..line.len(), default, symbols, comment);
    }
    out
}

/// Pushes one coloured run, cut into identifier and other pieces before the
/// comment (numbers such as `$0C` become `$` + `0C`, and a word starting
/// with a digit names no symbol), as one piece from the comment on.
fn push_split<'a>(
    out: &mut Vec<Piece<'a>>,
    line: &'a str,
    r: Range<usize>,
    color: Color32,
    symbols: &HashMap<String, usize>,
    comment: usize,
) {
    if r.start < comment && comment < r.end {
        push_split(out, line, r.start..comment, color, symbols, comment);
        push_split(out, line, comment..r.end, color, symbols, comment);
        return;
    }
    let Some(text) = line.get(r.clone()) else {
        return;
    };
    if r.start >= comment {
        out.push(Piece {
            text,
            color,
            symbol: None,
        });
        return;
    }
    let mut flush = |a: usize, b: usize, word: bool| {
        let Some(t) = line.get(a..b).filter(|t| !t.is_empty()) else {
            return;
        };
        let symbol = if word {
            symbols.get(&t.to_ascii_lowercase()).copied()
        } else {
            None
        };
        out.push(Piece {
            text: t,
            color,
            symbol,
        });
    };
    let mut run_start = r.start;
    let mut in_word = false;
    for (i, ch) in text.char_indices() {
        let at = r.start + i;
        let is_word = ch.is_ascii_alphanumeric() || ch == '_' || ch == '.';
        if is_word != in_word {
            flush(run_start, at, in_word);
            run_start = at;
            in_word = is_word;
        }
    }
    flush(run_start, r.end, in_word);
}
