//! What the user sees of a failed run: when the course dialect fails in ways
//! another dialect explains, one message saying so instead of one error per
//! line; and, when shown, at most [`MAX_ERRORS_PER_FILE`] errors per file,
//! then one line with how many more.

use super::diagnostics::{display_path, Code, Diagnostic, Span};
use super::dialect::{foreign_directive, Dialect};
use super::{passes, AsmOptions, Assembly, SourceProvider};
use crate::image::SourceFile;
use std::path::Path;

/// Errors shown per file before the rest are summed up in one line.
pub const MAX_ERRORS_PER_FILE: usize = 25;

/// Warnings shown per file before the rest are summed up in one line.
pub const MAX_WARNINGS_PER_FILE: usize = 25;

/// Fewest "text after the operands" errors taken as AS11's free comments.
const MIN_ERRORS_FOR_DIALECT: usize = 3;

/// Runs the assembler, then applies the dialect rule and the error cap.
pub fn assemble(path: &Path, provider: &dyn SourceProvider, opts: &AsmOptions) -> Assembly {
    let mut asm = passes::assemble(path, provider, opts);
    if opts.dialect == Dialect::Course && asm.has_errors() {
        explain_dialect(&mut asm, path, provider, opts);
    }
    if asm.has_errors() && !asm.diagnostics.iter().any(|d| d.code == Code::WrongDialect) {
        explain_gnu(&mut asm);
    }
    asm
}

/// The errors about an unknown mnemonic, with the word each names.
fn unknown_words(asm: &Assembly) -> impl Iterator<Item = (&Diagnostic, &str)> {
    asm.diagnostics
        .iter()
        .filter(|d| d.code == Code::UnknownMnemonic)
        .map(|d| {
            let word = d
                .message
                .trim_start_matches("unknown mnemonic `")
                .trim_end_matches('`');
            (d, word)
        })
}

/// Directives of GNU as (binutils' m68hc11 port) that no dialect here has.
const GNU_DIRECTIVES: &[&str] = &[
    ".sect", ".section", ".text", ".data", ".bss", ".globl", ".global", ".word", ".byte", ".ascii",
    ".asciz", ".string", ".space", ".skip", ".org", ".equ", ".set", ".mode", ".file", ".align",
    ".balign", ".long", ".type", ".size", ".ident", ".end", ".include",
];

/// Fewest lines with GNU as directives taken as a GNU as source (one could
/// be a typo).
const MIN_GNU_LINES: usize = 2;

/// If the unknown mnemonics are GNU as directives (`.sect`, `.globl`), the
/// file is binutils' syntax, which hc11lab does not read: replaces the
/// errors by one that says so and how to run it anyway (as an ELF file).
fn explain_gnu(asm: &mut Assembly) {
    let mut words: Vec<String> = Vec::new();
    let mut lines = 0usize;
    let mut first = None;
    for (d, word) in unknown_words(asm) {
        let word = word.to_ascii_lowercase();
        if GNU_DIRECTIVES.contains(&word.as_str()) {
            lines += 1;
            first = first.or(d.span);
            if !words.contains(&word) {
                words.push(word);
            }
        }
    }
    if lines < MIN_GNU_LINES {
        return;
    }
    let errors = error_count(asm);
    words.truncate(4);
    let message = format!(
        "this file looks like GNU as source: GNU directives ({}); hc11lab reads the course, AS11 and ASM11 dialects, not binutils' syntax",
        words.join(", ")
    );
    let hints = [
        "assemble and link it with m68hc11-as and m68hc11-ld (binutils-m68hc1x), then open the ELF file: `hc11lab run prog.elf` (its symbols come along, and its source lines with `as -g`)".to_string(),
        format!("read as this dialect it has {errors} errors"),
    ];
    replace_errors(asm, first, message, &hints);
}

fn error_count(asm: &Assembly) -> usize {
    asm.diagnostics.iter().filter(|d| d.is_error()).count()
}

/// If the errors point at AS11 or ASM11 (see [`reasons`]) and the file
/// assembles in that dialect with no errors (or, of 8 or more, with at most a
/// quarter of the course dialect's), replaces the course errors by one
/// saying which dialect the file is written in and why it looks so.
fn explain_dialect(
    asm: &mut Assembly,
    path: &Path,
    provider: &dyn SourceProvider,
    opts: &AsmOptions,
) {
    let course_errors = error_count(asm);
    let best = [Dialect::As11, Dialect::Asm11]
        .into_iter()
        .filter_map(|d| {
            // Only a dialect the errors point at is tried at all.
            let why = reasons(asm, d)?;
            let other = AsmOptions {
                dialect: d,
                ..opts.clone()
            };
            let errors = error_count(&passes::assemble(path, provider, &other));
            // It must explain all the errors, or nearly all of many.
            let explains = errors == 0 || (course_errors >= 8 && errors * 4 <= course_errors);
            explains.then_some((d, errors, why))
        })
        .min_by_key(|(_, n, _)| *n);
    let Some((dialect, errors, reasons)) = best else {
        return;
    };
    let first = asm
        .diagnostics
        .iter()
        .find(|d| d.is_error())
        .and_then(|d| d.span);
    let message = format!(
        "this file looks like {} source: {}; assemble with --dialect {}",
        dialect.title(),
        reasons,
        dialect.name()
    );
    let hint = format!(
        "read as the course dialect it has {course_errors} errors; as {} {}",
        dialect.title(),
        if errors == 0 {
            "none".to_string()
        } else {
            format!("{errors}")
        }
    );
    replace_errors(asm, first, message, &[hint]);
}

/// Replaces every error of `asm` by one wrong-dialect error (E0026) at
/// `first` with `hints`; warnings stay.
fn replace_errors(asm: &mut Assembly, first: Option<Span>, message: String, hints: &[String]) {
    let mut d = match first {
        Some(span) => Diagnostic::new(Code::WrongDialect, span, message),
        None => Diagnostic::global(Code::WrongDialect, message),
    };
    for h in hints {
        d = d.hint(h.clone());
    }
    let warnings = asm.diagnostics.drain(..).filter(|d| !d.is_error());
    let mut kept: Vec<Diagnostic> = vec![d];
    kept.extend(warnings);
    asm.diagnostics = kept;
}

/// Why the course errors point at `dialect`, from what they complain about;
/// `None` if nothing does (then the other dialect merely tolerates the
/// mistakes, which is no reason to name it). Directive words only the other
/// dialect knows are a sign by themselves; text after the operands only from
/// [`MIN_ERRORS_FOR_DIALECT`] such errors on, as a typo or two looks the same.
fn reasons(asm: &Assembly, dialect: Dialect) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let text_after = asm
        .diagnostics
        .iter()
        .filter(|d| {
            d.is_error()
                && (d.message.starts_with("unexpected ") || d.message.starts_with("expected `,`"))
        })
        .count();
    if dialect == Dialect::As11 && text_after >= MIN_ERRORS_FOR_DIALECT {
        out.push("free-text comments after operands".to_string());
    }
    let mut words: Vec<String> = Vec::new();
    for (_, word) in unknown_words(asm) {
        if foreign_directive(word) == Some(dialect)
            && !words.iter().any(|w| w.eq_ignore_ascii_case(word))
        {
            words.push(word.to_string());
        }
    }
    let hash_lines = asm.diagnostics.iter().any(|d| {
        d.code == Code::Syntax
            && d.message.starts_with("a label must start")
            && d.span.is_some_and(|s| {
                asm.files
                    .get(s.file)
                    .and_then(|f| f.text.get(s.start as usize..))
                    .is_some_and(|t| t.starts_with('#'))
            })
    });
    if dialect == Dialect::Asm11 && hash_lines {
        words.push("#-directives".to_string());
    }
    if !words.is_empty() {
        words.truncate(4);
        out.push(format!(
            "{} directives ({})",
            dialect.title(),
            words.join(", ")
        ));
    }
    (!out.is_empty()).then(|| out.join(", "))
}

/// The diagnostics as shown: the first [`MAX_ERRORS_PER_FILE`] errors and
/// [`MAX_WARNINGS_PER_FILE`] warnings of each file, then one line per file
/// with how many more there are (the [`Assembly`] keeps them all for the
/// GUI and the grader).
pub fn capped(diagnostics: &[Diagnostic], files: &[SourceFile]) -> Vec<Diagnostic> {
    // Per file: (errors, warnings) seen, and left out.
    let mut seen: Vec<[usize; 2]> = Vec::new();
    let mut dropped: Vec<[usize; 2]> = Vec::new();
    let mut kept = Vec::with_capacity(diagnostics.len().min(1024));
    for d in diagnostics {
        let Some(file) = d.span.map(|s| s.file) else {
            kept.push(d.clone());
            continue;
        };
        if seen.len() <= file {
            seen.resize(file + 1, [0; 2]);
            dropped.resize(file + 1, [0; 2]);
        }
        let (kind, cap) = if d.is_error() {
            (0, MAX_ERRORS_PER_FILE)
        } else {
            (1, MAX_WARNINGS_PER_FILE)
        };
        seen[file][kind] += 1;
        if seen[file][kind] > cap {
            dropped[file][kind] += 1;
        } else {
            kept.push(d.clone());
        }
    }
    for (file, [errors, warnings]) in dropped.iter().enumerate() {
        let name = files
            .get(file)
            .map_or_else(|| "this file".to_string(), display_path);
        if *errors > 0 {
            kept.push(
                Diagnostic::global(
                    Code::TooManyErrors,
                    format!(
                        "{errors} more errors in {name} not shown (the first {MAX_ERRORS_PER_FILE} are)"
                    ),
                )
                .hint("fix these first: later errors often follow from earlier ones"),
            );
        }
        if *warnings > 0 {
            kept.push(Diagnostic::global(
                Code::TooManyWarnings,
                format!(
                    "{warnings} more warnings in {name} not shown (the first {MAX_WARNINGS_PER_FILE} are)"
                ),
            ));
        }
    }
    kept
}
