//! One file open in the editor: its text, what is on disk, what the running
//! program was assembled from, undo and redo, and where the lines of the
//! last assembly and of the running program are in the text now.

use std::ops::Range;
use std::path::PathBuf;
use std::time::Duration;

use super::lines::{line_count, LineEdit, LineMap};
use crate::platform::Instant;

/// Undo steps kept per file.
const UNDO_DEPTH: usize = 300;
/// Typing in one line after a pause this long starts a new undo step.
const UNDO_PAUSE: Duration = Duration::from_millis(1000);

/// How a file is stored on disk, so saving writes it back the same way:
/// line breaks, byte-order mark, Windows-1252 (the course's old editors).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileFormat {
    /// Lines end in CR LF.
    pub crlf: bool,
    /// UTF-8 with a byte-order mark.
    pub bom: bool,
    /// Not UTF-8: read (and written) as Windows-1252.
    pub cp1252: bool,
}

impl FileFormat {
    /// The format of a file's bytes.
    pub fn of(bytes: &[u8]) -> FileFormat {
        let bom = bytes.starts_with(&[0xEF, 0xBB, 0xBF]);
        let lf = bytes.iter().filter(|&&b| b == b'\n').count();
        let crlf = bytes.windows(2).filter(|w| w == b"\r\n").count();
        FileFormat {
            crlf: lf > 0 && crlf * 2 > lf,
            bom,
            cp1252: std::str::from_utf8(bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes))
                .is_err(),
        }
    }

    /// The bytes of `text` (line breaks as `\n`) in this format; a
    /// character Windows-1252 has no byte for makes it UTF-8 (returned as
    /// the second value, so the caller can say so).
    pub fn encode(&self, text: &str) -> (Vec<u8>, Option<char>) {
        let text = if self.crlf {
            std::borrow::Cow::Owned(text.replace('\n', "\r\n"))
        } else {
            std::borrow::Cow::Borrowed(text)
        };
        if self.cp1252 {
            let bytes: Result<Vec<u8>, char> = text
                .chars()
                .map(|c| crate::asm::source::cp1252_byte(c).ok_or(c))
                .collect();
            match bytes {
                Ok(b) => return (b, None),
                Err(c) => return (text.as_bytes().to_vec(), Some(c)),
            }
        }
        let mut out = Vec::with_capacity(text.len() + 3);
        if self.bom {
            out.extend_from_slice(&[0xEF, 0xBB, 0xBF]);
        }
        out.extend_from_slice(text.as_bytes());
        (out, None)
    }
}

/// Line breaks as `\n` only (the editor's text; the format keeps CR LF).
pub fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// What made a change: typing (merged into one undo step per line and
/// pause) or a command (Tab, comment, replace, completion: one step each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// Keys typed into the text.
    Typing,
    /// One editor command.
    Command,
}

/// The line maps of a moment, with the epoch each belongs to.
#[derive(Clone, Debug)]
struct Maps {
    loaded: (u64, LineMap),
    live: (u64, LineMap),
    pending: (u64, LineMap),
}

/// A text to go back to.
#[derive(Clone, Debug)]
struct Snapshot {
    text: String,
    /// The cursor then (character position).
    cursor: usize,
    maps: Maps,
}

/// One file in the editor.
#[derive(Clone, Debug)]
pub struct Buffer {
    /// The path as the program names it (relative for the bundled files);
    /// `untitled-N.asm` for a new file.
    pub path: PathBuf,
    /// A new file with no place on disk yet.
    pub untitled: bool,
    /// The text, lines broken by `\n`.
    pub text: String,
    /// The text on disk as last read or written (for the bundled files,
    /// as bundled).
    saved: String,
    /// The text the running program was assembled from; `None` if the file
    /// is not part of it.
    pub loaded: Option<String>,
    /// How the file is stored.
    pub format: FileFormat,
    /// The file's time on disk when last read or written.
    pub mtime: Option<crate::platform::SystemTime>,
    /// Bumped by every change.
    pub generation: u64,
    /// Lines of the running program's text -> lines now.
    loaded_map: LineMap,
    loaded_epoch: u64,
    /// Lines of the assembly shown -> lines now.
    live_map: LineMap,
    live_epoch: u64,
    /// Lines of the assembly under way -> lines now.
    pending_map: LineMap,
    pending_epoch: u64,
    /// The text as of the last change seen.
    shadow: String,
    undo: Vec<Snapshot>,
    redo: Vec<Snapshot>,
    /// When, how and in which line the last change was.
    last: Option<(Instant, Change, u32)>,
    dirty: bool,
}

impl Buffer {
    /// A file as read (`text` as decoded; `saved` is the same text).
    pub fn new(path: PathBuf, text: &str, format: FileFormat) -> Buffer {
        let text = normalize(text);
        let n = line_count(&text);
        Buffer {
            path,
            untitled: false,
            saved: text.clone(),
            loaded: None,
            format,
            mtime: None,
            generation: 0,
            loaded_map: LineMap::identity(n),
            loaded_epoch: 0,
            live_map: LineMap::identity(n),
            live_epoch: 0,
            pending_map: LineMap::identity(n),
            pending_epoch: 0,
            shadow: text.clone(),
            undo: Vec::new(),
            redo: Vec::new(),
            last: None,
            dirty: false,
            text,
        }
    }

    /// A new, empty file named `name` (not on disk until saved).
    pub fn untitled(name: &str) -> Buffer {
        let mut b = Buffer::new(PathBuf::from(name), "", FileFormat::default());
        b.untitled = true;
        b
    }

    /// The file name for tabs and messages.
    pub fn name(&self) -> String {
        self.path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| self.path.display().to_string())
    }

    /// True when the text differs from the file on disk (or a new file has
    /// text).
    pub fn is_dirty(&self) -> bool {
        self.dirty
    }

    /// True when the running program was not assembled from this text.
    pub fn differs_from_run(&self) -> bool {
        self.loaded.as_deref().is_some_and(|l| l != self.text)
    }

    /// The text on disk as last read or written.
    pub fn saved_text(&self) -> &str {
        &self.saved
    }

    /// The text was written to disk (or read from it) as it is now.
    pub fn mark_saved(&mut self, mtime: Option<crate::platform::SystemTime>) {
        self.saved = self.text.clone();
        self.untitled = false;
        self.dirty = false;
        self.mtime = mtime;
    }

    /// The running program was just assembled from this text.
    pub fn mark_loaded(&mut self) {
        self.loaded = Some(self.text.clone());
        self.loaded_map = LineMap::identity(line_count(&self.text));
        self.loaded_epoch += 1;
    }

    /// An assembly of the text as it is now was started.
    pub fn start_assembly(&mut self) {
        self.pending_map = LineMap::identity(line_count(&self.text));
        self.pending_epoch += 1;
    }

    /// The assembly started last is the one shown from now on.
    pub fn assembly_arrived(&mut self) {
        self.live_map = self.pending_map.clone();
        self.live_epoch += 1;
    }

    /// Where 1-based line `line` of the running program's text is now.
    pub fn loaded_to_now(&self, line: u32) -> Option<u32> {
        self.loaded_map.get(line.checked_sub(1)?).map(|l| l + 1)
    }

    /// For each line now, its 1-based line in the running program's text.
    pub fn now_to_loaded(&self) -> Vec<Option<u32>> {
        let n = line_count(&self.text);
        self.loaded_map
            .inverse(n)
            .into_iter()
            .map(|l| l.map(|l| l + 1))
            .collect()
    }

    /// For each line now, its 1-based line in the assembly shown.
    pub fn now_to_live(&self) -> Vec<Option<u32>> {
        let n = line_count(&self.text);
        self.live_map
            .inverse(n)
            .into_iter()
            .map(|l| l.map(|l| l + 1))
            .collect()
    }

    /// Where 1-based line `line` of the assembly shown is now.
    pub fn live_to_now(&self, line: u32) -> Option<u32> {
        self.live_map.get(line.checked_sub(1)?).map(|l| l + 1)
    }

    fn maps(&self) -> Maps {
        Maps {
            loaded: (self.loaded_epoch, self.loaded_map.clone()),
            live: (self.live_epoch, self.live_map.clone()),
            pending: (self.pending_epoch, self.pending_map.clone()),
        }
    }

    /// Moves every map over the edit from `shadow` to `text`.
    fn follow(&mut self) -> Option<LineEdit> {
        let edit = LineEdit::between(&self.shadow, &self.text)?;
        self.loaded_map.apply(&edit);
        self.live_map.apply(&edit);
        self.pending_map.apply(&edit);
        self.shadow = self.text.clone();
        self.generation += 1;
        self.dirty = self.untitled && !self.text.is_empty() || self.text != self.saved;
        Some(edit)
    }

    /// Takes in a change already made to `text` (by typing, or by one of
    /// the editor's commands through [`Self::replace`]); `cursor` is where
    /// the cursor was before it.
    pub fn commit(&mut self, kind: Change, cursor: usize) {
        if self.shadow == self.text {
            return;
        }
        let before = Snapshot {
            text: self.shadow.clone(),
            cursor,
            maps: self.maps(),
        };
        let Some(edit) = self.follow() else {
            return;
        };
        let now = Instant::now();
        let same_step = kind == Change::Typing
            && self.last.is_some_and(|(t, k, line)| {
                k == Change::Typing
                    && line == edit.start
                    && now.duration_since(t) < UNDO_PAUSE
                    && edit.old_len == edit.new_len
            });
        if !same_step {
            self.undo.push(before);
            if self.undo.len() > UNDO_DEPTH {
                self.undo.remove(0);
            }
        }
        self.redo.clear();
        self.last = Some((now, kind, edit.start));
    }

    /// Replaces the whole text as one command (one undo step).
    pub fn replace(&mut self, text: String, cursor: usize) {
        self.text = text;
        self.commit(Change::Command, cursor);
    }

    /// Puts back a snapshot's text and the maps that are still of the same
    /// epoch (the others follow the change as an edit).
    fn restore(&mut self, s: Snapshot) {
        self.text = s.text;
        let _ = self.follow();
        if s.maps.loaded.0 == self.loaded_epoch {
            self.loaded_map = s.maps.loaded.1;
        }
        if s.maps.live.0 == self.live_epoch {
            self.live_map = s.maps.live.1;
        }
        if s.maps.pending.0 == self.pending_epoch {
            self.pending_map = s.maps.pending.1;
        }
        self.last = None;
    }

    /// Undoes the last step; returns where the cursor goes.
    pub fn undo(&mut self, cursor: usize) -> Option<usize> {
        let s = self.undo.pop()?;
        let back = s.cursor;
        self.redo.push(Snapshot {
            text: self.text.clone(),
            cursor,
            maps: self.maps(),
        });
        self.restore(s);
        Some(back)
    }

    /// Redoes the last undone step; returns where the cursor goes.
    pub fn redo(&mut self, cursor: usize) -> Option<usize> {
        let s = self.redo.pop()?;
        let back = s.cursor;
        self.undo.push(Snapshot {
            text: self.text.clone(),
            cursor,
            maps: self.maps(),
        });
        self.restore(s);
        Some(back)
    }

    /// True if there is something to undo.
    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    /// True if there is something to redo.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The file on disk changed while this buffer had no unsaved changes:
    /// take its text (one undo step, so the old text can come back).
    pub fn reload_from_disk(&mut self, text: &str, format: FileFormat) {
        let text = normalize(text);
        self.format = format;
        self.saved = text.clone();
        if self.text != text {
            self.replace(text, 0);
        }
        self.dirty = false;
    }

    /// The byte range of 1-based line `line` now.
    pub fn line_range(&self, line: u32) -> Range<usize> {
        super::text_ops::line_range(&self.text, line.saturating_sub(1) as usize)
    }

    /// The text of 1-based line `line` now.
    pub fn line(&self, line: u32) -> &str {
        let r = self.line_range(line);
        &self.text[r]
    }

    /// The number of lines now.
    pub fn lines(&self) -> usize {
        line_count(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undo_and_redo_put_back_text_and_breakpoint_lines() {
        let mut b = Buffer::new("a.asm".into(), "one\ntwo\nthree", FileFormat::default());
        b.mark_loaded();
        b.text = "one\nnew\ntwo\nthree".into();
        b.commit(Change::Typing, 4);
        assert_eq!(b.loaded_to_now(2), Some(3));
        assert!(b.is_dirty() && b.differs_from_run());
        assert_eq!(b.undo(8), Some(4));
        assert_eq!(b.text, "one\ntwo\nthree");
        assert_eq!(b.loaded_to_now(2), Some(2));
        assert!(!b.is_dirty() && !b.differs_from_run());
        assert_eq!(b.redo(4), Some(8));
        assert_eq!(b.loaded_to_now(2), Some(3));
    }

    #[test]
    fn a_deleted_line_comes_back_with_undo() {
        let mut b = Buffer::new("a.asm".into(), "a\nb\nc", FileFormat::default());
        b.mark_loaded();
        b.replace("a\nc".into(), 2);
        assert_eq!(b.loaded_to_now(2), None);
        b.undo(2);
        assert_eq!(b.loaded_to_now(2), Some(2));
    }

    #[test]
    fn typing_in_one_line_is_one_undo_step() {
        let mut b = Buffer::new("a.asm".into(), "x", FileFormat::default());
        for s in ["xa", "xab", "xabc"] {
            b.text = s.into();
            b.commit(Change::Typing, 1);
        }
        b.undo(4);
        assert_eq!(b.text, "x");
        assert!(!b.can_undo());
    }

    #[test]
    fn files_are_written_back_in_their_own_format() {
        let f = FileFormat::of(b"a\r\nb\xF6\r\n");
        assert!(f.crlf && f.cp1252 && !f.bom);
        assert_eq!(f.encode("a\nbö\n").0, b"a\r\nb\xF6\r\n");
        let (bytes, lost) = f.encode("€ ≠");
        assert_eq!(lost, Some('≠'));
        assert_eq!(bytes, "€ ≠".as_bytes());
        let u = FileFormat::of("\u{FEFF}x\n".as_bytes());
        assert!(u.bom && !u.crlf && !u.cp1252);
        assert_eq!(u.encode("x\n").0, "\u{FEFF}x\n".as_bytes());
        assert_eq!(normalize("a\r\nb"), "a\nb");
    }
}
