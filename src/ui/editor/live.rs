//! Live assembly: the editor's texts (over the files on disk, or over the
//! bundled firmware) assembled in the background after a pause in typing.
//! What the window needs from a run is worked out there too, per file and
//! line: the address and bytes of each line, the diagnostics with their
//! place in the line, the symbols with where they are defined and used.
//! The result comes back over a channel: from a thread on the desktop, at
//! once in the browser (`platform::spawn` runs the job before returning).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};

use crate::asm::source::normalize as normalize_path;
use crate::asm::{self, AsmOptions, Assembly, Dialect, FsProvider, MemoryFiles, Severity};
use crate::asm::{SourceError, SourceProvider};
use crate::image::{Program, SymbolKind};
use crate::ui::listing::LineCode;

/// Where the files the editor does not hold come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// The disk (a program the user opened).
    Disk,
    /// The firmware bundled into the binary.
    Bundled,
}

/// What to assemble.
#[derive(Clone, Debug)]
pub struct Job {
    /// Counts the jobs, so a result names the job it answers.
    pub id: u64,
    /// The main file, as the program names it.
    pub main: PathBuf,
    /// The editor's files (path as the program names it, text).
    pub files: Vec<(PathBuf, String)>,
    /// Where other files come from.
    pub base: Base,
    /// The source dialect.
    pub dialect: Dialect,
}

/// One diagnostic, placed in its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveDiag {
    /// Index into [`LiveResult::files`], if it has a place there.
    pub file: Option<usize>,
    /// 1-based line.
    pub line: u32,
    /// Byte range in that line (empty: the line's end).
    pub cols: std::ops::Range<usize>,
    /// Error or warning.
    pub severity: Severity,
    /// `E0003`.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub hints: Vec<String>,
}

impl LiveDiag {
    /// The message with its code and help lines, as Problems shows it.
    pub fn full_message(&self) -> String {
        let mut m = format!("[{}] {}", self.code, self.message);
        for h in &self.hints {
            m.push_str(&format!("\n  help: {h}"));
        }
        m
    }

    /// The replacements the hints suggest (`did you mean `ldaa`, `ldab`?`).
    pub fn suggestions(&self) -> Vec<String> {
        self.hints
            .iter()
            .filter_map(|h| h.strip_prefix("did you mean "))
            .flat_map(|h| h.split('`').skip(1).step_by(2).map(str::to_string))
            .collect()
    }
}

/// A symbol of the run, placed by file index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveSymbol {
    /// As written at its definition.
    pub name: String,
    /// Its value.
    pub value: u16,
    /// Label or constant.
    pub kind: SymbolKind,
    /// Bytes reserved or emitted there, for data labels.
    pub size: Option<u32>,
    /// (file index, 1-based line) of the definition.
    pub defined: Option<(usize, u32)>,
    /// Every (file index, 1-based line) that uses it.
    pub uses: Vec<(usize, u32)>,
}

/// A file the run read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveFile {
    /// As the program names it.
    pub path: PathBuf,
    /// Its text as assembled (line breaks as `\n`).
    pub text: String,
    /// Address and bytes per line (index = line - 1).
    pub code: Vec<Option<LineCode>>,
}

/// What one run of the assembler found.
#[derive(Clone, Debug, Default)]
pub struct LiveResult {
    /// The job it answers.
    pub id: u64,
    /// Every file read, main file first.
    pub files: Vec<LiveFile>,
    /// Every diagnostic, in source order.
    pub diags: Vec<LiveDiag>,
    /// Every symbol defined.
    pub symbols: Vec<LiveSymbol>,
    /// The program, when there were no errors.
    pub program: Option<Program>,
}

impl LiveResult {
    /// The number of errors.
    pub fn errors(&self) -> usize {
        self.diags
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    /// The index of the file at `path`.
    pub fn file_of(&self, path: &Path) -> Option<usize> {
        let want = normalize_path(path);
        self.files
            .iter()
            .position(|f| normalize_path(&f.path) == want)
    }

    /// The symbol named `name` (any case).
    pub fn symbol(&self, name: &str) -> Option<&LiveSymbol> {
        self.symbols
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }
}

/// The editor's texts over a base: the assembler reads an open file from
/// the editor, everything else from the disk or the bundled firmware.
struct Overlay {
    open: MemoryFiles,
    bundled: Option<MemoryFiles>,
}

impl SourceProvider for Overlay {
    fn read(&self, path: &Path, limit: u64) -> Result<Vec<u8>, SourceError> {
        if self.open.is_file(path) {
            return self.open.read(path, limit);
        }
        match &self.bundled {
            Some(b) => b.read(path, limit),
            None => FsProvider.read(path, limit),
        }
    }

    fn is_file(&self, path: &Path) -> bool {
        self.open.is_file(path)
            || match &self.bundled {
                Some(b) => b.is_file(path),
                None => FsProvider.is_file(path),
            }
    }

    fn list_dir(&self, dir: &Path) -> Vec<String> {
        let mut names = self.open.list_dir(dir);
        names.extend(match &self.bundled {
            Some(b) => b.list_dir(dir),
            None => FsProvider.list_dir(dir),
        });
        names.sort();
        names.dedup();
        names
    }

    fn identity(&self, path: &Path) -> PathBuf {
        match &self.bundled {
            Some(b) => b.identity(path),
            None => FsProvider.identity(path),
        }
    }
}

/// Runs the job here and now.
pub fn assemble(job: &Job) -> LiveResult {
    let open = job.files.iter().fold(MemoryFiles::new(), |m, (p, t)| {
        m.with(p, t.as_bytes().to_vec())
    });
    let provider = Overlay {
        open,
        bundled: (job.base == Base::Bundled).then(crate::firmware::memory_files),
    };
    let opts = AsmOptions {
        dialect: job.dialect,
        ..AsmOptions::default()
    };
    let asm = asm::assemble_with(&job.main, &provider, &opts);
    digest(job.id, asm)
}

/// Starts the job in the background; the result arrives on the returned
/// channel, and `wake` (the window's context) is asked for a frame then.
pub fn spawn(job: Job, wake: Option<egui::Context>) -> Receiver<LiveResult> {
    let (tx, rx) = channel();
    crate::platform::spawn("hc11lab-assemble", move || {
        let result = assemble(&job);
        // The editor may have gone (window closed): nobody to tell.
        let _ = tx.send(result);
        if let Some(ctx) = wake {
            ctx.request_repaint();
        }
    });
    rx
}

/// Places everything the window shows by file and line.
fn digest(id: u64, asm: Assembly) -> LiveResult {
    let mut files: Vec<LiveFile> = asm
        .files
        .iter()
        .map(|f| {
            let text = super::buffer::normalize(&f.text);
            LiveFile {
                path: f.path.clone(),
                code: vec![None; super::lines::line_count(&text)],
                text,
            }
        })
        .collect();
    for l in &asm.listing {
        if l.bytes.is_empty() || l.skipped {
            continue;
        }
        let (Some(addr), Some(f)) = (l.addr, files.get_mut(l.file)) else {
            continue;
        };
        if let Some(slot) = f.code.get_mut((l.line as usize).wrapping_sub(1)) {
            match slot {
                Some(c) => c.bytes.extend_from_slice(&l.bytes),
                None => {
                    *slot = Some(LineCode {
                        addr,
                        bytes: l.bytes.clone(),
                    })
                }
            }
        }
    }
    let diags = asm
        .diagnostics
        .iter()
        .map(|d| {
            let placed = d.span.and_then(|sp| {
                let f = asm.files.get(sp.file)?;
                let (line, col) = line_in(&f.text, sp.start as usize);
                let (end_line, end) = line_in(&f.text, sp.end as usize);
                let end = if end_line == line { end.max(col) } else { col };
                Some((sp.file, line, col..end))
            });
            LiveDiag {
                file: placed.as_ref().map(|p| p.0),
                line: placed.as_ref().map_or(0, |p| p.1),
                cols: placed.map_or(0..0, |p| p.2),
                severity: d.severity,
                code: d.code.as_str(),
                message: d.message.clone(),
                hints: d.hints.clone(),
            }
        })
        .collect();
    let symbols = asm
        .symbols
        .iter()
        .map(|s| LiveSymbol {
            name: s.name.clone(),
            value: s.value,
            kind: s.kind,
            size: s.size,
            defined: s.defined_at,
            uses: s.used_at.clone(),
        })
        .collect();
    let program = asm.program.filter(|_| !files.is_empty());
    // The texts as assembled, line breaks as the editor has them.
    for f in &mut files {
        f.code.truncate(super::lines::line_count(&f.text));
    }
    LiveResult {
        id,
        files,
        diags,
        symbols,
        program,
    }
}

/// 1-based line and byte column of a byte offset, counting `\r\n` as one
/// break (the column is the same either way).
fn line_in(text: &str, offset: usize) -> (u32, usize) {
    let mut o = offset.min(text.len());
    while !text.is_char_boundary(o) {
        o -= 1;
    }
    let before = &text[..o];
    let line = before.bytes().filter(|&b| b == b'\n').count() as u32 + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, o - start)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(files: Vec<(&str, &str)>, base: Base) -> Job {
        Job {
            id: 7,
            main: PathBuf::from(files[0].0),
            files: files
                .into_iter()
                .map(|(p, t)| (PathBuf::from(p), t.to_string()))
                .collect(),
            base,
            dialect: Dialect::Course,
        }
    }

    #[test]
    fn lines_that_assemble_keep_their_bytes_beside_an_error() {
        let r = assemble(&job(
            vec![(
                "/nowhere/p.asm",
                "        org $C000\nStart   ldaa #$41\n        ldab #\n        rts\n",
            )],
            Base::Disk,
        ));
        assert_eq!(r.id, 7);
        let code = &r.files[0].code;
        assert_eq!(
            code[1],
            Some(LineCode {
                addr: 0xC000,
                bytes: vec![0x86, 0x41]
            })
        );
        assert_eq!(code[2], None);
        assert!(code[3].is_some(), "rts after the error");
        let e = &r.diags[0];
        assert_eq!((e.file, e.line, e.severity), (Some(0), 3, Severity::Error));
        assert_eq!(e.cols.start, 14, "{e:?}");
        assert!(r.program.is_none());
        assert_eq!(r.errors(), 1);
    }

    #[test]
    fn the_editor_s_text_wins_over_the_bundled_file() {
        let main = format!("{}/{}", crate::firmware::FOLDER, crate::firmware::MAIN_FILE);
        let board = format!("{}/Board.inc", crate::firmware::FOLDER);
        let original = crate::firmware::FILES
            .iter()
            .find(|(n, _)| *n == "Board.inc")
            .map(|(_, t)| *t)
            .unwrap_or("");
        let edited = format!("{original}\nextraLabel  rts\n");
        let r = assemble(&job(vec![(&main, ""), (&board, &edited)], Base::Bundled));
        // The main file came from the editor (empty here): nothing included.
        assert!(r.program.is_none() || r.symbol("extraLabel").is_none());
        let main_text = crate::firmware::FILES[0].1;
        let r = assemble(&job(
            vec![(&main, main_text), (&board, &edited)],
            Base::Bundled,
        ));
        assert_eq!(r.errors(), 0, "{:?}", r.diags);
        let s = r.symbol("extralabel").expect("the edited include was read");
        let (f, line) = s.defined.expect("defined");
        assert_eq!(r.files[f].path, PathBuf::from(&board));
        assert_eq!(
            r.files[f].text.lines().nth(line as usize - 1),
            Some("extraLabel  rts")
        );
        let draw = r.symbol("drawCell").expect("drawCell");
        assert!(!draw.uses.is_empty());
    }

    #[test]
    fn suggestions_come_from_the_did_you_mean_hint() {
        let d = LiveDiag {
            file: None,
            line: 1,
            cols: 0..0,
            severity: Severity::Error,
            code: "E0003",
            message: "unknown mnemonic `ldaaa`".into(),
            hints: vec!["did you mean `ldaa`, `ldab`?".into()],
        };
        assert_eq!(d.suggestions(), vec!["ldaa", "ldab"]);
        assert!(d.full_message().starts_with("[E0003] unknown"));
    }
}
