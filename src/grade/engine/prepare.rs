//! From submitted files to a program: the reference solution, the course's
//! provided files, assembling within the limits, and the cache key.

use super::*;

/// Longest assembler output quoted in feedback.
pub(super) const MAX_DIAGNOSTICS_CHARS: usize = 6000;

/// Everything about a program that can change its results: the bytes, the
/// start, and the symbols (the checks read memory by symbol, messages name labels).
pub(super) fn program_key(p: &Program) -> Vec<u8> {
    let mut k = Vec::new();
    for s in &p.segments {
        k.extend_from_slice(&s.start.to_le_bytes());
        k.extend_from_slice(&(s.bytes.len() as u32).to_le_bytes());
        k.extend_from_slice(&s.bytes);
    }
    k.extend_from_slice(&p.entry.map_or(0x1_0000u32, u32::from).to_le_bytes());
    for s in &p.symbols {
        k.extend_from_slice(s.name.as_bytes());
        k.push(0);
        k.extend_from_slice(&s.value.to_le_bytes());
        k.push(u8::from(s.kind == SymbolKind::Label));
        k.extend_from_slice(&s.size.unwrap_or(u32::MAX).to_le_bytes());
    }
    k
}

/// Reads a reference folder: every source file in it, by relative path.
pub(super) fn read_reference(assignment: &Assignment) -> Result<Option<Submission>, GradeError> {
    match &assignment.reference {
        None => Ok(None),
        Some(ReferenceSource::Folder(dir)) => {
            let sub = Submission::load(dir, &assignment.limits)
                .map_err(|e| GradeError::Reference(format!("{}: {e}", dir.display())))?;
            Ok(Some(sub))
        }
        Some(ReferenceSource::Image(image)) => {
            // The image's folder holds the provided files (only sources are read).
            let dir = image.parent().unwrap_or(Path::new("."));
            let sub = Submission::load(dir, &assignment.limits)
                .map_err(|e| GradeError::Reference(format!("{}: {e}", dir.display())))?;
            Ok(Some(sub))
        }
        Some(ReferenceSource::Bundled) => {
            let raw = crate::firmware::FILES
                .iter()
                .map(|(name, text)| (name.to_string(), text.as_bytes().to_vec()))
                .collect();
            let sub = Submission::from_files(
                "bundled firmware".into(),
                Path::new(crate::firmware::FOLDER).to_path_buf(),
                raw,
                Vec::new(),
            )
            .map_err(|e| GradeError::Reference(format!("bundled firmware: {e}")))?;
            Ok(Some(sub))
        }
    }
}

/// Refuses an assignment whose reference lacks a file listed in `provided`:
/// the grader would otherwise assemble the student's copy of it (or fail
/// only for students who left it out), and a provided file exists so that
/// students cannot change it. `reference_files` are the reference's sources
/// by path.
pub(super) fn missing_provided(
    assignment: &Assignment,
    reference_files: &[(String, String)],
) -> Result<(), GradeError> {
    for name in &assignment.provided {
        let found = reference_files.iter().any(|(p, _)| {
            p.rsplit('/')
                .next()
                .is_some_and(|f| f.eq_ignore_ascii_case(name))
        });
        if found {
            continue;
        }
        let message = match &assignment.reference {
            Some(ReferenceSource::Image(image)) => {
                let dir = image.parent().unwrap_or(Path::new("."));
                format!(
                    "{}: missing: `provided` lists it, so every submission is assembled with the course's copy from there; put it back (`hc11lab lesson reference` writes it)",
                    dir.join(name).display()
                )
            }
            Some(ReferenceSource::Folder(dir)) => format!(
                "{}: missing: `provided` lists it, so every submission is assembled with the course's copy from there; put it back",
                dir.join(name).display()
            ),
            Some(ReferenceSource::Bundled) => format!(
                "provided `{name}` is not a file of the bundled firmware; name one of its files or drop it from `provided`"
            ),
            None => format!(
                "provided `{name}`: without a `reference` the course has no copy of it; set `reference` or drop it from `provided`"
            ),
        };
        return Err(GradeError::Course(message));
    }
    Ok(())
}

/// The assembler's input for a submission: its files, with the course's
/// provided files (from the reference) next to its entry file. A provided
/// file always comes from the course: the student's copy, if any, is left
/// out, so test data and register definitions cannot be changed.
pub(super) fn source_files(
    sub: &Submission,
    entry: &str,
    provided: &[(String, String)],
) -> MemoryFiles {
    let wanted: Vec<(String, &String)> = provided
        .iter()
        .map(|(name, text)| (provided_path(entry, name), text))
        .collect();
    let mut files = MemoryFiles::new();
    for (path, src) in &sub.files {
        if !wanted.iter().any(|(w, _)| path.eq_ignore_ascii_case(w)) {
            files.insert(path, src.text.as_bytes().to_vec());
        }
    }
    for (path, text) in wanted {
        files.insert(&path, text.as_bytes().to_vec());
    }
    files
}

/// Where a provided file sits in a submission: beside its entry file.
pub(super) fn provided_path(entry: &str, name: &str) -> String {
    match entry.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{name}"),
        None => name.to_string(),
    }
}

/// Notes for provided files the submission brought in a changed copy of
/// (that copy was not used).
pub(super) fn replaced_notes(
    sub: &Submission,
    entry: &str,
    provided: &[(String, String)],
) -> Vec<String> {
    provided
        .iter()
        .filter_map(|(name, text)| {
            let wanted = provided_path(entry, name);
            let (path, src) = sub
                .files
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(&wanted))?;
            let same = |a: &str, b: &str| a.replace("\r\n", "\n").trim_end() == b.replace("\r\n", "\n").trim_end();
            (!same(&src.text, text)).then(|| {
                format!("{path} differs from the course's copy; it is provided by the course, so the course's {name} was used instead")
            })
        })
        .collect()
}

/// Refuses an assignment that names a symbol the reference solution does
/// not define (a typo would otherwise fail every student's check).
pub(super) fn check_symbols(
    assignment: &Assignment,
    reference: &Program,
) -> Result<(), GradeError> {
    for (place, name) in assignment.symbols_named() {
        if reference.symbol(&name).is_some() {
            continue;
        }
        let known = reference.symbols.iter().map(|s| s.name.as_str());
        let hint = crate::asm::diagnostics::did_you_mean(&crate::asm::diagnostics::suggestions(
            &name, known,
        ))
        .map(|h| format!("; {h}"))
        .unwrap_or_default();
        return Err(GradeError::Assignment {
            path: assignment.dir.join("assignment.toml"),
            message: format!("{place}: `{name}` is not a symbol of the reference solution{hint}"),
        });
    }
    Ok(())
}

/// The assembler's settings for a submission within `limits`.
fn asm_options(
    limits: &crate::grade::assignment::Limits,
    dialect: crate::asm::Dialect,
) -> AsmOptions {
    AsmOptions {
        dialect,
        max_file_size: limits.max_file_bytes,
        max_total_size: limits.max_total_bytes.saturating_mul(2),
        max_lines: limits.max_source_lines,
        time_limit: Some(std::time::Duration::from_millis(limits.max_assemble_ms)),
        ..AsmOptions::default()
    }
}

/// Most errors [`Grader::format_errors`] lists (then how many more).
const MAX_FORMAT_ERRORS: usize = 50;

impl Grader {
    /// The assembler's errors for a submission, one `file:line: message`
    /// each (at most 50, then how many more), assembled as [`Grader::grade`]
    /// does (with the course's provided files); empty when it assembles or
    /// has no entry file to assemble. Platforms that tell a submission
    /// which cannot be graded from one that failed checks (PrairieLearn's
    /// `format_errors`) show these.
    pub fn format_errors(&self, sub: &Submission) -> Vec<String> {
        let Ok(entry) = sub.find_entry(&self.assignment.entry) else {
            return Vec::new();
        };
        let (limits, dialect) = (&self.assignment.limits, self.assignment.dialect);
        let files = source_files(sub, &entry, &self.provided());
        let asm = assemble_with(Path::new(&entry), &files, &asm_options(limits, dialect));
        if !asm.has_errors() {
            return Vec::new();
        }
        let errors: Vec<String> = asm
            .diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(
                |d| match d.span.and_then(|sp| Some((sp, asm.files.get(sp.file)?))) {
                    Some((sp, file)) => {
                        let (line, _) =
                            crate::asm::diagnostics::line_col(&file.text, sp.start as usize);
                        let path = crate::asm::diagnostics::display_path(file);
                        format!("{path}:{line}: {}", d.message)
                    }
                    None => d.message.clone(),
                },
            )
            .collect();
        let more = errors.len().saturating_sub(MAX_FORMAT_ERRORS);
        let mut shown: Vec<String> = errors.into_iter().take(MAX_FORMAT_ERRORS).collect();
        if more > 0 {
            shown.push(format!("... and {more} more error(s)"));
        }
        shown
    }
}

/// Assembles a submission; Err carries the rendered diagnostics.
pub(super) fn assemble(
    sub: &Submission,
    entry: &str,
    provided: &[(String, String)],
    limits: &crate::grade::assignment::Limits,
    dialect: crate::asm::Dialect,
) -> Result<Program, String> {
    let files = source_files(sub, entry, provided);
    let asm = assemble_with(Path::new(entry), &files, &asm_options(limits, dialect));
    match asm.program {
        Some(p) if !asm.has_errors() => Ok(p),
        _ => {
            let mut text = asm.render_diagnostics();
            if text.len() > MAX_DIAGNOSTICS_CHARS {
                let cut = (0..=MAX_DIAGNOSTICS_CHARS)
                    .rev()
                    .find(|&i| text.is_char_boundary(i))
                    .unwrap_or(0);
                text.truncate(cut);
                text.push_str("\n... (more diagnostics cut)");
            }
            Err(text)
        }
    }
}
