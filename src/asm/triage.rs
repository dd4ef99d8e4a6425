//! What the user sees of a failed run: when the course dialect fails in ways
//! another dialect explains, one message saying so instead of one error per
//! line; and, when shown, at most [`MAX_ERRORS_PER_FILE`] errors per file,
//! then one line with how many more.

use super::diagnostics::{display_path, Code, Diagnostic};
use super::dialect::{foreign_directive, Dialect};
use super::{passes, AsmOptions, Assembly, SourceProvider};
use crate::image::SourceFile;
use std::path::Path;

/// Errors shown per file before the rest are summed up in one line.
pub const MAX_ERRORS_PER_FILE: usize = 25;

/// Fewest course-dialect errors for which another dialect is suggested.
const MIN_ERRORS_FOR_DIALECT: usize = 3;

/// Runs the assembler, then applies the dialect rule and the error cap.
pub fn assemble(path: &Path, provider: &dyn SourceProvider, opts: &AsmOptions) -> Assembly {
    let mut asm = passes::assemble(path, provider, opts);
    if opts.dialect == Dialect::Course && asm.has_errors() {
        explain_dialect(&mut asm, path, provider, opts);
    }
    asm
}

fn error_count(asm: &Assembly) -> usize {
    asm.diagnostics.iter().filter(|d| d.is_error()).count()
}

/// If the file assembles as AS11 or ASM11 with no errors (or with at most a
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
        .map(|d| {
            let other = AsmOptions {
                dialect: d,
                ..opts.clone()
            };
            (d, error_count(&passes::assemble(path, provider, &other)))
        })
        .min_by_key(|&(_, n)| n);
    let Some((dialect, errors)) = best else {
        return;
    };
    // A typo or two is not a dialect: the claim needs several course errors
    // that the other dialect all (or nearly all) explains.
    let explained = course_errors >= MIN_ERRORS_FOR_DIALECT
        && (errors == 0 || (course_errors >= 8 && errors * 4 <= course_errors));
    if !explained {
        return;
    }
    let reasons = reasons(asm, dialect);
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
    let mut d = match first {
        Some(span) => Diagnostic::new(Code::WrongDialect, span, message),
        None => Diagnostic::global(Code::WrongDialect, message),
    };
    d = d.hint(format!(
        "read as the course dialect it has {course_errors} errors; as {} {}",
        dialect.title(),
        if errors == 0 {
            "none".to_string()
        } else {
            format!("{errors}")
        }
    ));
    let warnings = asm.diagnostics.drain(..).filter(|d| !d.is_error());
    let mut kept: Vec<Diagnostic> = vec![d];
    kept.extend(warnings);
    asm.diagnostics = kept;
}

/// Why the course errors point at `dialect`, from what they complain about.
fn reasons(asm: &Assembly, dialect: Dialect) -> String {
    let mut out: Vec<String> = Vec::new();
    let text_after = asm.diagnostics.iter().any(|d| {
        d.is_error()
            && (d.message.starts_with("unexpected ") || d.message.starts_with("expected `,`"))
    });
    if dialect == Dialect::As11 && text_after {
        out.push("free-text comments after operands".to_string());
    }
    let mut words: Vec<String> = Vec::new();
    for d in asm
        .diagnostics
        .iter()
        .filter(|d| d.code == Code::UnknownMnemonic)
    {
        let word = d
            .message
            .trim_start_matches("unknown mnemonic `")
            .trim_end_matches('`');
        if foreign_directive(word) == Some(dialect)
            && !words.iter().any(|w| w.eq_ignore_ascii_case(word))
        {
            words.push(word.to_string());
        }
    }
    let hashes = asm
        .diagnostics
        .iter()
        .any(|d| d.code == Code::Syntax && d.message.starts_with("a label must start"));
    if dialect == Dialect::Asm11 && hashes {
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
    if out.is_empty() {
        out.push(format!("it assembles as {}", dialect.title()));
    }
    out.join(", ")
}

/// The diagnostics as shown: the first [`MAX_ERRORS_PER_FILE`] errors of
/// each file, then one line per file with how many more there are (the
/// [`Assembly`] keeps them all for the GUI and the grader). Warnings are kept.
pub fn capped(diagnostics: &[Diagnostic], files: &[SourceFile]) -> Vec<Diagnostic> {
    let mut per_file: Vec<usize> = Vec::new();
    let mut dropped: Vec<usize> = Vec::new();
    let mut kept = Vec::with_capacity(diagnostics.len());
    for d in diagnostics {
        let Some(file) = d.span.map(|s| s.file).filter(|_| d.is_error()) else {
            kept.push(d.clone());
            continue;
        };
        if per_file.len() <= file {
            per_file.resize(file + 1, 0);
            dropped.resize(file + 1, 0);
        }
        per_file[file] += 1;
        if per_file[file] > MAX_ERRORS_PER_FILE {
            dropped[file] += 1;
        } else {
            kept.push(d.clone());
        }
    }
    for (file, n) in dropped.iter().enumerate().filter(|(_, n)| **n > 0) {
        let name = files
            .get(file)
            .map_or_else(|| "this file".to_string(), display_path);
        kept.push(
            Diagnostic::global(
                Code::TooManyErrors,
                format!(
                    "{n} more errors in {name} not shown (the first {MAX_ERRORS_PER_FILE} are)"
                ),
            )
            .hint("fix these first: later errors often follow from earlier ones"),
        );
    }
    kept
}
