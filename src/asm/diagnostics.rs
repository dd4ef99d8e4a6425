//! Assembler diagnostics: stable codes, spans into the sources, hints, and the
//! rustc-like rendering (`error[E0003]: ...`, `--> file:line:col`, caret line).
//!
//! Every phase reports into a sink and goes on, so one run shows all errors;
//! line and column are computed only when a diagnostic is printed.

use crate::image::{FileId, SourceFile};
use std::fmt;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The program cannot be built.
    Error,
    /// The program is built, but probably not as meant.
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// A byte range in one source file's decoded text ([`SourceFile::text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// Index into the assembly's file list.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span from byte offsets.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: start as u32,
            end: end.max(start) as u32,
        }
    }

    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// The stable diagnostic codes. They are part of the interface: tests,
/// lessons and the grader's feedback refer to them, so numbers never change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Code {
    /// E0001: a source file could not be read.
    Io,
    /// E0002: a file has NUL bytes or many control characters.
    NotText,
    /// E0003: the mnemonic field names no instruction or directive.
    UnknownMnemonic,
    /// E0004: a symbol is used but never defined.
    UndefinedSymbol,
    /// E0005: a symbol is defined twice.
    DuplicateSymbol,
    /// E0006: a value does not fit where it goes (byte, direct page, offset, address).
    OutOfRange,
    /// E0007: a branch target is farther than -128..+127 bytes.
    BranchOutOfRange,
    /// E0008: malformed expression or line.
    Syntax,
    /// E0009: malformed number literal.
    BadNumber,
    /// E0010: a string or character constant has no closing quote.
    UnterminatedString,
    /// E0011: an included file does not exist.
    IncludeNotFound,
    /// E0012: an include leaves the folder tree of the main source file.
    IncludeEscapes,
    /// E0013: files include each other in a cycle (or nest too deep).
    IncludeCycle,
    /// E0014: a source file is larger than the configured limit.
    FileTooLarge,
    /// E0015: the instruction has no such addressing mode.
    ModeNotAvailable,
    /// E0016: `.if`/`.else`/`.endif` do not pair up.
    Conditional,
    /// E0017: a value must be known where it is used, but is defined only later.
    NotKnownYet,
    /// E0018: two lines put bytes at the same address.
    Overlap,
    /// E0019: `switch` to a section that was never declared.
    UnknownSection,
    /// E0020: the location counter runs past $FFFF.
    AddressOverflow,
    /// E0021: division or remainder by zero in an expression.
    DivisionByZero,
    /// E0022: wrong number or kind of operands for an instruction or directive.
    Operands,
    /// E0023: a directive that needs a label (`equ`, `Section`) has none.
    MissingLabel,
    /// E0024: a character in a string has no Windows-1252 byte.
    BadCharacter,
    /// E0025: a symbol's value depends on itself and never settles.
    Circular,
    /// W0001: a data value was cut to fit its byte or word.
    Truncated,
    /// W0002: a mnemonic stands in column 1 and so is a label (`rts` not indented).
    LabelLikeInstruction,
    /// E0026: the file is written in another dialect (`--dialect as11`/`asm11`);
    /// replaces the per-line errors that dialect explains.
    WrongDialect,
    /// E0027: more errors in one file than are shown.
    TooManyErrors,
    /// W0003: a bit mask written as a bare number that other assemblers read
    /// in another radix.
    MaskRadix,
    /// E0028: a macro definition or expansion is malformed (no `endm`,
    /// nested too deep, a name taken by an instruction).
    Macro,
    /// W0004: the sources assemble to no bytes at all (an empty file, only
    /// comments or `equ`s).
    NoBytes,
    /// W0005: more warnings in one file than are shown.
    TooManyWarnings,
}

impl Code {
    /// The code as printed (`E0003`, `W0001`).
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Io => "E0001",
            Code::NotText => "E0002",
            Code::UnknownMnemonic => "E0003",
            Code::UndefinedSymbol => "E0004",
            Code::DuplicateSymbol => "E0005",
            Code::OutOfRange => "E0006",
            Code::BranchOutOfRange => "E0007",
            Code::Syntax => "E0008",
            Code::BadNumber => "E0009",
            Code::UnterminatedString => "E0010",
            Code::IncludeNotFound => "E0011",
            Code::IncludeEscapes => "E0012",
            Code::IncludeCycle => "E0013",
            Code::FileTooLarge => "E0014",
            Code::ModeNotAvailable => "E0015",
            Code::Conditional => "E0016",
            Code::NotKnownYet => "E0017",
            Code::Overlap => "E0018",
            Code::UnknownSection => "E0019",
            Code::AddressOverflow => "E0020",
            Code::DivisionByZero => "E0021",
            Code::Operands => "E0022",
            Code::MissingLabel => "E0023",
            Code::BadCharacter => "E0024",
            Code::Circular => "E0025",
            Code::Truncated => "W0001",
            Code::LabelLikeInstruction => "W0002",
            Code::WrongDialect => "E0026",
            Code::TooManyErrors => "E0027",
            Code::MaskRadix => "W0003",
            Code::Macro => "E0028",
            Code::NoBytes => "W0004",
            Code::TooManyWarnings => "W0005",
        }
    }

    /// Errors stop the program from being built; warnings do not.
    pub fn severity(self) -> Severity {
        match self {
            Code::Truncated
            | Code::LabelLikeInstruction
            | Code::MaskRadix
            | Code::NoBytes
            | Code::TooManyWarnings => Severity::Warning,
            _ => Severity::Error,
        }
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One message of the assembler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error or warning (follows from the code).
    pub severity: Severity,
    /// Where in the sources; `None` for problems with no place (main file unreadable).
    pub span: Option<Span>,
    /// What is wrong, one line.
    pub message: String,
    /// What to do about it (`did you mean ...`, the valid range, where first defined).
    pub hints: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic at a place.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.severity(),
            span: Some(span),
            message: message.into(),
            hints: Vec::new(),
        }
    }

    /// A diagnostic with no place in the sources.
    pub fn global(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity: code.severity(),
            span: None,
            message: message.into(),
            hints: Vec::new(),
        }
    }

    /// Adds a hint (builder style).
    pub fn hint(mut self, hint: impl Into<String>) -> Diagnostic {
        self.hints.push(hint.into());
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// 1-based line and column (in characters) of a byte offset in `text`.
pub fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let offset = clamp_to_char_boundary(text, offset);
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() as u32 + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let col = text[line_start..offset].chars().count() as u32 + 1;
    (line, col)
}

fn clamp_to_char_boundary(text: &str, offset: usize) -> usize {
    let mut o = offset.min(text.len());
    while o > 0 && !text.is_char_boundary(o) {
        o -= 1;
    }
    o
}

/// `file:line:col` of a span, for messages and hints.
pub fn location(span: Span, files: &[SourceFile]) -> String {
    match files.get(span.file) {
        Some(f) => {
            let (line, col) = line_col(&f.text, span.start as usize);
            format!("{}:{line}:{col}", display_path(f))
        }
        None => String::from("<unknown file>"),
    }
}

/// The path of a file as shown in messages (forward slashes on every platform).
pub fn display_path(f: &SourceFile) -> String {
    f.path.to_string_lossy().replace('\\', "/")
}

/// Tab stops used when a source line is echoed, so carets line up.
const TAB_WIDTH: usize = 4;

/// Renders a diagnostic the way rustc does:
///
/// ```text
/// error[E0003]: unknown mnemonic `ldaaa`
///   --> firmware/Board.inc:12:9
///    |
/// 12 |         ldaaa #1
///    |         ^^^^^
///    = help: did you mean `ldaa`, `ldab`?
/// ```
pub fn render(diag: &Diagnostic, files: &[SourceFile]) -> String {
    let mut out = format!("{}[{}]: {}\n", diag.severity, diag.code, diag.message);
    let mut gutter = 1;
    if let Some(span) = diag.span {
        if let Some(file) = files.get(span.file) {
            let text = file.text.as_str();
            let start = clamp_to_char_boundary(text, span.start as usize);
            let (line, col) = line_col(text, start);
            let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = text[start..]
                .find('\n')
                .map_or(text.len(), |i| start + i)
                .max(start);
            let raw_line = text[line_start..line_end].trim_end_matches('\r');
            let end =
                clamp_to_char_boundary(text, (span.end as usize).min(line_start + raw_line.len()));
            gutter = line.to_string().len();
            let pad = " ".repeat(gutter);
            out.push_str(&format!("{pad}--> {}:{line}:{col}\n", display_path(file)));
            out.push_str(&format!("{pad} |\n"));
            let (shown, caret_from, caret_len) =
                expand_tabs(raw_line, start - line_start, end.max(start) - line_start);
            let (shown, caret_from, caret_len) = window(&shown, caret_from, caret_len);
            out.push_str(&format!("{line} | {}\n", shown.trim_end()));
            out.push_str(&format!(
                "{pad} | {}{}\n",
                " ".repeat(caret_from),
                "^".repeat(caret_len.max(1))
            ));
        }
    }
    let pad = " ".repeat(gutter);
    for hint in &diag.hints {
        out.push_str(&format!("{pad} = help: {hint}\n"));
    }
    out
}

/// Renders several diagnostics, separated by blank lines, followed by a summary
/// line (`error: 2 errors, 1 warning`) when there is anything to report.
pub fn render_all(diags: &[Diagnostic], files: &[SourceFile]) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&render(d, files));
        out.push('\n');
    }
    let errors = diags.iter().filter(|d| d.is_error()).count();
    let warnings = diags.len() - errors;
    if errors > 0 || warnings > 0 {
        let plural = |n: usize, word: &str| {
            if n == 1 {
                format!("{n} {word}")
            } else {
                format!("{n} {word}s")
            }
        };
        let head = if errors > 0 { "error" } else { "warning" };
        out.push_str(&format!(
            "{head}: {}, {}\n",
            plural(errors, "error"),
            plural(warnings, "warning")
        ));
    }
    out
}

/// Display columns of a source line shown with a diagnostic at most; a
/// longer line is cut around the caret (a 200,000-character line would
/// otherwise be printed whole, twice with its caret line).
const SHOWN_COLUMNS: usize = 160;

/// `shown` (with its caret at `from`, `len` columns) cut to
/// [`SHOWN_COLUMNS`] around the caret, `...` marking what was left out.
fn window(shown: &str, from: usize, len: usize) -> (String, usize, usize) {
    let total = shown.chars().count();
    if total <= SHOWN_COLUMNS {
        return (shown.to_string(), from, len);
    }
    let start = from
        .saturating_sub(SHOWN_COLUMNS / 3)
        .min(total - SHOWN_COLUMNS);
    let end = start + SHOWN_COLUMNS;
    let mut cut: String = shown.chars().skip(start).take(SHOWN_COLUMNS).collect();
    let mut caret = from - start;
    if start > 0 {
        cut.insert_str(0, "...");
        caret += 3;
    }
    if end < total {
        cut.push_str("...");
    }
    let len = len.min(end.saturating_sub(from).max(1));
    (cut, caret, len)
}

/// Expands tabs in `line`; returns the expanded text and the caret start and
/// length (in display columns) for the byte range `from..to`.
fn expand_tabs(line: &str, from: usize, to: usize) -> (String, usize, usize) {
    let mut shown = String::with_capacity(line.len() + 8);
    let mut col = 0usize;
    let mut caret_from = None;
    let mut caret_to = None;
    for (i, ch) in line.char_indices() {
        if i >= from && caret_from.is_none() {
            caret_from = Some(col);
        }
        if i >= to && caret_to.is_none() {
            caret_to = Some(col);
        }
        if ch == '\t' {
            let next = (col / TAB_WIDTH + 1) * TAB_WIDTH;
            shown.push_str(&" ".repeat(next - col));
            col = next;
        } else {
            shown.push(ch);
            col += 1;
        }
    }
    let caret_from = caret_from.unwrap_or(col);
    let caret_to = caret_to.unwrap_or(col);
    (shown, caret_from, caret_to.saturating_sub(caret_from))
}

/// Levenshtein distance between two strings, by characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The up to three candidates closest to `name` (case-insensitively), within
/// an edit distance of 1 for short names and 2 for longer ones.
pub fn suggestions<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Vec<String> {
    let lower = name.to_lowercase();
    let limit = if lower.chars().count() <= 3 { 1 } else { 2 };
    let mut found: Vec<(usize, String)> = candidates
        .filter_map(|c| {
            let d = edit_distance(&lower, &c.to_lowercase());
            (d <= limit).then(|| (d, c.to_string()))
        })
        .collect();
    // Closest first; among equals, the longer common prefix (`ldaa`, `ldab` before `daa`).
    let prefix = |c: &str| {
        lower
            .chars()
            .zip(c.to_lowercase().chars())
            .take_while(|(x, y)| x == y)
            .count()
    };
    found.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| prefix(&b.1).cmp(&prefix(&a.1)))
            .then_with(|| a.1.to_lowercase().cmp(&b.1.to_lowercase()))
    });
    found.dedup_by(|a, b| a.1.eq_ignore_ascii_case(&b.1));
    found.into_iter().take(3).map(|(_, s)| s).collect()
}

/// `did you mean `a`, `b`?` for a list of suggestions, if any.
pub fn did_you_mean(found: &[String]) -> Option<String> {
    if found.is_empty() {
        return None;
    }
    let list: Vec<String> = found.iter().map(|s| format!("`{s}`")).collect();
    Some(format!("did you mean {}?", list.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A very long line is shown cut around the error, its caret still
    /// under the offending text.
    #[test]
    fn a_long_line_is_cut_around_the_caret() {
        let mut text = "x".repeat(100_000);
        text.push_str(" BAD ");
        text.push_str(&"y".repeat(100_000));
        let files = [SourceFile {
            path: "long.asm".into(),
            text: text.clone(),
        }];
        let start = 100_001usize;
        let d = Diagnostic::new(Code::Syntax, Span::new(0, start, start + 3), "bad");
        let out = render(&d, &files);
        assert!(out.len() < 1000, "{} bytes", out.len());
        let lines: Vec<&str> = out.lines().collect();
        let (src, caret) = (lines[3], lines[4]);
        let at = caret.find('^').expect("caret");
        assert_eq!(&src[at..at + 3], "BAD", "{src}\n{caret}");
        assert!(src.contains("...x") && src.ends_with("y..."), "{src}");
    }
    use std::path::PathBuf;

    fn file(text: &str) -> Vec<SourceFile> {
        vec![SourceFile {
            path: PathBuf::from("firmware/Board.inc"),
            text: text.to_string(),
        }]
    }

    #[test]
    fn renders_like_rustc() {
        let mut text = String::new();
        for _ in 0..11 {
            text.push('\n');
        }
        text.push_str("        ldaaa #1\r\n");
        let files = file(&text);
        let d = Diagnostic::new(
            Code::UnknownMnemonic,
            Span::new(0, 19, 24),
            "unknown mnemonic `ldaaa`",
        )
        .hint("did you mean `ldaa`, `ldab`?");
        assert_eq!(
            render(&d, &files),
            "error[E0003]: unknown mnemonic `ldaaa`\n  --> firmware/Board.inc:12:9\n   |\n12 |         ldaaa #1\n   |         ^^^^^\n   = help: did you mean `ldaa`, `ldab`?\n"
        );
    }

    #[test]
    fn tabs_keep_carets_aligned() {
        let files = file("x\tldaaa #1");
        let d = Diagnostic::new(Code::UnknownMnemonic, Span::new(0, 2, 7), "m");
        let r = render(&d, &files);
        assert!(r.contains("1 | x   ldaaa #1\n  |     ^^^^^\n"), "{r}");
    }

    #[test]
    fn line_and_column_count_characters() {
        assert_eq!(line_col("ä\nbü x", 6), (2, 3));
        assert_eq!(line_col("abc", 99), (1, 4));
    }

    #[test]
    fn suggestions_are_close_and_sorted() {
        let names = ["ldaa", "ldab", "staa", "lda", "ldd"];
        assert_eq!(
            suggestions("ldaaa", names.iter().copied()),
            vec!["ldaa", "lda", "ldab"]
        );
        assert!(suggestions("zzzz", names.iter().copied()).is_empty());
        let names = ["daa", "ldab", "ldaa"];
        assert_eq!(
            suggestions("ldaaa", names.iter().copied()),
            vec!["ldaa", "ldab", "daa"]
        );
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}
