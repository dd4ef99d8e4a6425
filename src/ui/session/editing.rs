//! The session's side of the editor: what happens when a program is loaded
//! (the editor takes its files), the live assembly's results as Problems,
//! Assemble and reset (F7) with the breakpoints moved to where their lines
//! went, saving, a file changed on disk by another editor, and the
//! recovery file.

use super::*;
use crate::debug::breakpoint::{find_file, Location};
use crate::ui::editor::buffer::FileFormat;
use crate::ui::editor::edits::{Loaded, Question};
use crate::ui::editor::live::LiveResult;

/// True for a problem the assembler reported (`[E0003] ...` from the
/// editor or a failed load, `warning[W0001]: ...` from a load): the live
/// assembly's own list replaces those.
fn from_assembler(p: &Problem) -> bool {
    let m = p.message.as_str();
    let code = |rest: &str| {
        rest.len() > 6
            && rest.as_bytes()[0].is_ascii_uppercase()
            && rest[1..5].bytes().all(|b| b.is_ascii_digit())
            && rest.as_bytes()[5] == b']'
    };
    m.strip_prefix('[').is_some_and(code)
        || m.strip_prefix("warning[").is_some_and(code)
        || m.strip_prefix("error[").is_some_and(code)
}

impl Session {
    /// The program just set: the editor takes its files (`before`: the
    /// program key of the one open until now).
    pub(super) fn editor_loaded(&mut self, before: PathBuf) {
        let how = if std::mem::take(&mut self.edits.from_editor) {
            Loaded::FromEditor
        } else {
            Loaded::FromDisk
        };
        self.edits.program = match &self.origin {
            Some(Origin::Path(p)) => Some(p.clone()),
            _ => None,
        };
        let bundled = self.origin == Some(Origin::Bundled);
        let same = before == self.program_key();
        match self.program.clone() {
            Some(p) => self.edits.loaded(&p.files, bundled, same, how),
            None => self.edits.cleared(),
        }
    }

    /// The main source file, as the program names it.
    pub fn main_source(&self) -> Option<PathBuf> {
        self.program
            .as_deref()
            .and_then(|p| p.files.first())
            .map(|f| f.path.clone())
    }

    /// Once per frame: takes the live assembly's result (its diagnostics
    /// become the assembler's part of Problems), starts the next one after
    /// a pause in typing, keeps the recovery file.
    pub fn editor_frame(&mut self) {
        let main = self.main_source();
        if let Some(r) = self.edits.poll(main.as_deref(), self.dialect) {
            self.take_live_problems(&r);
        }
        self.edits.keep_recovery(false);
    }

    /// The problems of a live result, placed at the lines they are on now,
    /// in place of the assembler's earlier ones.
    fn take_live_problems(&mut self, r: &LiveResult) {
        let mut list: Vec<Problem> = r
            .diags
            .iter()
            .map(|d| {
                let at = d.file.and_then(|f| {
                    let file = r.files.get(f)?;
                    let (line, text) = match self.edits.buffer_of_live(f) {
                        Some(b) => {
                            let buf = self.edits.buffers.get(b)?;
                            let line = buf.live_to_now(d.line)?;
                            (line, buf.line(line).to_string())
                        }
                        None => (
                            d.line,
                            file.text
                                .split('\n')
                                .nth(d.line.saturating_sub(1) as usize)
                                .unwrap_or("")
                                .to_string(),
                        ),
                    };
                    let col = crate::ui::editor::text_ops::char_of_byte(&text, d.cols.start);
                    Some((file.path.clone(), line, col as u32 + 1))
                });
                Problem {
                    severity: d.severity.to_string(),
                    message: d.full_message(),
                    at,
                }
            })
            .collect();
        list.extend(self.problems.drain(..).filter(|p| !from_assembler(p)));
        self.problems = list;
    }

    /// Assemble and reset (F7): the editor's texts are assembled and loaded
    /// onto a fresh machine; breakpoints stay on their lines (moved with
    /// the lines inserted and deleted above them), watches stay. With
    /// errors the running program stays and Problems shows them.
    pub fn assemble_and_reset(&mut self) {
        let Some(main) = self.main_source() else {
            // A program without sources (S19, ELF): nothing to assemble.
            self.reset();
            return;
        };
        let r = self.edits.assemble_now(&main, self.dialect);
        self.take_live_problems(&r);
        let errors = r.errors();
        let Some(program) = r.program.clone().filter(|_| errors == 0) else {
            self.ask_bottom_tab(BottomTab::Problems);
            self.status = trf(
                self.lang,
                "Not loaded: {} error(s) in the text (see Problems); the program loaded before still runs.",
                &[&errors],
            );
            return;
        };
        let dropped = self.follow_breakpoint_lines();
        let origin = self.origin.clone().unwrap_or(Origin::Bundled);
        self.edits.from_editor = true;
        let bytes: usize = program.segments.iter().map(|s| s.bytes.len()).sum();
        self.set_program(program, origin);
        // Files the program reads now that it did not before are watched too.
        for f in self
            .program
            .as_deref()
            .map(|p| p.files.as_slice())
            .unwrap_or(&[])
        {
            if self.origin != Some(Origin::Bundled)
                && !self.mtimes.iter().any(|(p, _)| *p == f.path)
            {
                let t = files::mtime(&f.path);
                self.mtimes.push((f.path.clone(), t));
            }
        }
        for spec in &dropped {
            self.problems.push(Problem {
                severity: "warning".into(),
                message: trf(
                    self.lang,
                    "breakpoint `{}` removed: its line was deleted",
                    &[spec],
                ),
                at: None,
            });
        }
        self.status = if dropped.is_empty() {
            trf(
                self.lang,
                "Assembled and reset: {} bytes loaded; breakpoints and watches kept.",
                &[&bytes],
            )
        } else {
            trf(
                self.lang,
                "Assembled and reset: {} bytes loaded; {} breakpoint(s) removed with their lines (see Problems).",
                &[&bytes, &dropped.len()],
            )
        };
    }

    /// Moves each breakpoint on a source line (`Board.inc:60`) to where
    /// that line is in the editor now; returns those whose line was
    /// deleted (they are removed). Labels and addresses stay as they are.
    fn follow_breakpoint_lines(&mut self) -> Vec<String> {
        self.save_breakpoints();
        let Some(p) = self.program.clone() else {
            return Vec::new();
        };
        let key = self.program_key();
        let Some((_, list)) = self
            .settings
            .breakpoints
            .iter_mut()
            .find(|(k, _)| *k == key)
        else {
            return Vec::new();
        };
        let edits = &self.edits;
        let mut dropped = Vec::new();
        list.retain_mut(|b| {
            let SavedBreakpoint::Spec { text, .. } = b else {
                return true;
            };
            let Ok(spec) = BreakSpec::parse(text) else {
                return true;
            };
            let Location::Line { file, line } = &spec.location else {
                return true;
            };
            let buffer = find_file(&p, file)
                .and_then(|f| p.files.get(f))
                .and_then(|f| edits.find(&f.path))
                .and_then(|i| edits.buffers.get(i));
            let Some(buffer) = buffer else {
                return true;
            };
            match buffer.loaded_to_now(*line) {
                Some(now) if now == *line => true,
                Some(now) => {
                    let head = format!("{file}:{line}");
                    if let Some(rest) = text.strip_prefix(&head) {
                        *text = format!("{file}:{now}{rest}");
                    }
                    true
                }
                None => {
                    dropped.push(text.clone());
                    false
                }
            }
        });
        dropped
    }

    /// Saves buffer `i` to its file. A new file asks for a name first; the
    /// bundled files ask for a folder to save a copy of the sources in.
    pub fn save_file(&mut self, i: usize) {
        let Some(b) = self.edits.buffers.get(i) else {
            return;
        };
        if b.untitled {
            let path = self.suggested_path(&b.name());
            self.edits.question = Some(Question::SaveAs(i, path, None));
            return;
        }
        if self.origin == Some(Origin::Bundled) && b.loaded.is_some() {
            self.edits.question = Some(Question::SaveCopy(String::new(), None));
            return;
        }
        match self.write_buffer(i) {
            Ok(name) => self.status = trf(self.lang, "Saved {}.", &[&name]),
            Err(e) => self.status = e,
        }
    }

    /// Saves every file with unsaved changes that has a place on disk;
    /// returns how many, or the first error.
    pub fn save_all(&mut self) -> Result<usize, String> {
        let mut n = 0;
        for i in 0..self.edits.buffers.len() {
            let b = &self.edits.buffers[i];
            if !b.is_dirty()
                || b.untitled
                || (self.origin == Some(Origin::Bundled) && b.loaded.is_some())
            {
                continue;
            }
            self.write_buffer(i)?;
            n += 1;
        }
        Ok(n)
    }

    /// True if every unsaved change can be saved in place (no new files,
    /// no bundled files).
    pub fn can_save_all(&self) -> bool {
        let bundled = self.origin == Some(Origin::Bundled);
        !self
            .edits
            .buffers
            .iter()
            .filter(|b| b.is_dirty())
            .any(|b| b.untitled || (bundled && b.loaded.is_some()))
    }

    /// Saves the files under `dir` that have unsaved changes (an
    /// exercise's copy, before it is checked).
    pub fn save_files_under(&mut self, dir: &std::path::Path) -> Result<usize, String> {
        let mut n = 0;
        for i in 0..self.edits.buffers.len() {
            let b = &self.edits.buffers[i];
            if b.is_dirty() && !b.untitled && b.path.starts_with(dir) {
                self.write_buffer(i)?;
                n += 1;
            }
        }
        Ok(n)
    }

    /// Writes buffer `i` to its path in its own format; returns its name.
    fn write_buffer(&mut self, i: usize) -> Result<String, String> {
        let Some(b) = self.edits.buffers.get_mut(i) else {
            return Err(String::new());
        };
        let (bytes, lost) = b.format.encode(&b.text);
        crate::platform::fs::write(&b.path, &bytes)
            .map_err(|e| trf(self.lang, "Not saved: {}: {}", &[&b.path.display(), &e]))?;
        if lost.is_some() {
            // Written as UTF-8: say so, and keep it that way.
            b.format.cp1252 = false;
        }
        let t = crate::platform::fs::modified(&b.path);
        b.mark_saved(t);
        let (path, name) = (b.path.clone(), b.name());
        // Our own write is no change by another editor.
        for (p, m) in &mut self.mtimes {
            if *p == path {
                *m = t;
            }
        }
        self.edits.keep_recovery(true);
        Ok(match lost {
            Some(c) => trf(
                self.lang,
                "{} (as UTF-8: `{}` has no Windows-1252 byte)",
                &[&name, &c],
            ),
            None => name,
        })
    }

    /// Where a new file would go: beside the main file.
    pub fn suggested_path(&self, name: &str) -> String {
        let dir = match &self.origin {
            Some(Origin::Path(_)) => self
                .main_source()
                .and_then(|m| m.parent().map(PathBuf::from)),
            _ => None,
        };
        dir.map_or_else(|| name.to_string(), |d| d.join(name).display().to_string())
    }

    /// Save as: writes buffer `i` to `path` (relative to the main file's
    /// folder) and edits that file from then on. An existing file is
    /// replaced only with `replace`. A file of the program becomes a file
    /// of its own: the program keeps reading its old file (File > Open the
    /// new one to run it).
    pub fn save_as(&mut self, i: usize, path: &str, replace: bool) -> Result<PathBuf, String> {
        let typed = PathBuf::from(path.trim());
        if typed.as_os_str().is_empty() {
            return Err(tr(self.lang, "Type a file name.").into());
        }
        let path = if typed.is_relative() {
            match self
                .main_source()
                .filter(|_| self.origin != Some(Origin::Bundled))
                .and_then(|m| m.parent().map(PathBuf::from))
            {
                Some(d) => d.join(typed),
                None => typed,
            }
        } else {
            typed
        };
        let same = self.edits.buffers.get(i).is_some_and(|b| b.path == path);
        if !replace && !same && crate::platform::fs::modified(&path).is_some() {
            return Err(trf(
                self.lang,
                "{} exists: press Replace to write over it.",
                &[&path.display()],
            ));
        }
        if !same && self.edits.find(&path).is_some() {
            return Err(trf(
                self.lang,
                "{} is open in another tab: save that tab instead.",
                &[&path.display()],
            ));
        }
        let Some(b) = self.edits.buffers.get(i) else {
            return Err(String::new());
        };
        let old = b.clone();
        let (bytes, _) = b.format.encode(&b.text);
        crate::platform::fs::write(&path, &bytes)
            .map_err(|e| trf(self.lang, "Not saved: {}: {}", &[&path.display(), &e]))?;
        let t = crate::platform::fs::modified(&path);
        if let Some(b) = self.edits.buffers.get_mut(i) {
            b.path = path.clone();
            b.loaded = None;
            b.mark_saved(t);
        }
        if old.loaded.is_some() && !old.untitled {
            // The program's own file, as it is on disk, for the program.
            let text = crate::platform::fs::read(&old.path)
                .ok()
                .and_then(|bytes| crate::asm::source::decode(&bytes).ok().map(|t| (bytes, t)));
            if let Some((bytes, text)) = text {
                let mut again = crate::ui::editor::buffer::Buffer::new(
                    old.path.clone(),
                    &text,
                    FileFormat::of(&bytes),
                );
                again.loaded = old.loaded.clone();
                again.mtime = old.mtime;
                self.edits.buffers.insert(i, again);
            }
        }
        self.edits.touched();
        self.edits.keep_recovery(true);
        self.status = trf(self.lang, "Saved as {}.", &[&path.display()]);
        Ok(path)
    }

    /// A new, empty file in the editor.
    pub fn new_file(&mut self) {
        let i = self.edits.new_file();
        self.edits.request.reveal = Some((i, 1, 0));
        self.edits.request.editor = true;
        self.edits.request.focus = true;
    }

    /// Files changed on disk: the editor takes what it can. Returns false
    /// when nothing is unsaved (the program is loaded again, as before
    /// there was an editor).
    pub(super) fn editor_takes_disk_change(&mut self, changed: &[PathBuf]) -> bool {
        if !self.edits.has_unsaved() {
            return false;
        }
        let mut conflicts = Vec::new();
        for p in changed {
            let t = files::mtime(p);
            for (q, m) in &mut self.mtimes {
                if q == p {
                    *m = t;
                }
            }
            let Some(i) = self.edits.find(p) else {
                continue;
            };
            if self.edits.buffers[i].is_dirty() {
                conflicts.push(i);
            } else {
                self.reload_buffer(i);
            }
        }
        if !conflicts.is_empty() {
            self.edits.question = Some(Question::DiskChanged(conflicts));
        }
        self.status = tr(
            self.lang,
            "A source file changed on disk: the editor took it in (F7 runs it).",
        )
        .into();
        true
    }

    /// Reads buffer `i`'s file from disk again (one undo step).
    pub fn reload_buffer(&mut self, i: usize) {
        let Some(b) = self.edits.buffers.get_mut(i) else {
            return;
        };
        let read = crate::platform::fs::read(&b.path);
        match read.map(|bytes| (crate::asm::source::decode(&bytes), bytes)) {
            Ok((Ok(text), bytes)) => {
                b.reload_from_disk(&text, FileFormat::of(&bytes));
                b.mtime = crate::platform::fs::modified(&b.path);
                self.edits.touched();
            }
            Ok((Err(e), _)) => {
                self.status = trf(self.lang, "{} not read: {}", &[&b.path.display(), &e])
            }
            Err(e) => self.status = trf(self.lang, "{} not read: {}", &[&b.path.display(), &e]),
        }
    }

    /// Puts back the texts of a recovery file: the program they belong to
    /// is opened first if another one is open.
    pub fn restore_recovery(&mut self, saved: &crate::ui::editor::recovery::Saved) {
        if saved.program != self.edits.program {
            let input = match &saved.program {
                Some(p) => AppInput::Path(p.clone()),
                None => AppInput::Bundled,
            };
            self.edits.allow_leave();
            self.open(input);
        }
        let n = self.edits.restore(saved);
        self.edits.request.editor = true;
        if let Some(i) = saved.files.first().and_then(|f| self.edits.find(&f.path)) {
            self.edits.request.reveal = Some((i, 1, 0));
        }
        self.edits.keep_recovery(true);
        self.status = trf(
            self.lang,
            "{} file(s) with unsaved changes restored: save them (Ctrl+S) to keep them.",
            &[&n],
        );
    }

    /// True when the run is not of the text in the editor (edited since
    /// the last load): the toolbar says so.
    pub fn run_is_stale(&self) -> bool {
        self.has_machine() && self.edits.run_differs()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn assembler_problems_are_told_from_the_others() {
        let p = |m: &str| Problem {
            severity: "warning".into(),
            message: m.into(),
            at: None,
        };
        assert!(from_assembler(&p("[E0003] unknown mnemonic")));
        assert!(from_assembler(&p("warning[W0001]: cut")));
        assert!(!from_assembler(&p(
            "variable `SUM` lies in the register block"
        )));
        assert!(!from_assembler(&p("[x")));
    }
}
