//! Every file open in the editor, and what the editor keeps about them as
//! a whole: the live assembly (when to start one, its result), the
//! questions it asks (unsaved changes, a file changed on disk, the recovery
//! file, a name for Save as), and the requests it makes of the view (show
//! a line, take the keyboard). The session owns one; the view draws it.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::sync::Arc;
use std::time::Duration;

use super::buffer::{Buffer, FileFormat};
use super::live::{self, Base, LiveResult};
use super::recovery;
use crate::asm::source::normalize as normalize_path;
use crate::asm::Dialect;
use crate::image::SourceFile;
use crate::platform::Instant;
use crate::ui::AppInput;

/// The pause in typing after which the text is assembled.
pub const PAUSE: Duration = Duration::from_millis(300);
/// How often unsaved texts go to the recovery file.
pub const RECOVERY_EVERY: Duration = Duration::from_secs(3);

/// What the editor asks the user.
#[derive(Clone, Debug, PartialEq)]
pub enum Question {
    /// Unsaved changes, and another program is to be loaded.
    BeforeOpen(AppInput),
    /// Unsaved changes, and the window is to close.
    BeforeClose,
    /// Files (buffer indices) changed on disk that have unsaved changes.
    DiskChanged(Vec<usize>),
    /// Unsaved texts of an earlier window were found.
    Recover(recovery::Saved),
    /// Save as: the file (buffer index), the path typed so far, and why the
    /// last try failed.
    SaveAs(usize, String, Option<String>),
    /// The bundled files are to be saved: the folder for a copy of the
    /// sources typed so far, and why the last try failed.
    SaveCopy(String, Option<String>),
}

/// What the editor asks of its view in the next frame.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ViewRequest {
    /// Show this buffer at this 1-based line (and column, in characters),
    /// with the cursor there.
    pub reveal: Option<(usize, u32, usize)>,
    /// Switch the listing to the editor.
    pub editor: bool,
    /// Give the editor the keyboard.
    pub focus: bool,
}

/// The editor's files and what it keeps about them.
pub struct Edits {
    /// The open files: the program's in its order, then new ones.
    pub buffers: Vec<Buffer>,
    /// Where files not open come from.
    base: Base,
    /// The last assembly's result.
    live: Option<Arc<LiveResult>>,
    /// For each file of the result, the buffer showing it.
    live_buffers: Vec<Option<usize>>,
    job: Option<Receiver<LiveResult>>,
    /// A job built to run here and now.
    pending_job: Option<live::Job>,
    /// The buffers' generations the last started job saw.
    started: Vec<(PathBuf, u64)>,
    next_id: u64,
    /// When the text last changed.
    last_change: Option<Instant>,
    /// Start the next assembly without waiting for the pause.
    due: bool,
    /// The pause in typing before an assembly.
    pub pause: Duration,
    untitled: u32,
    /// What the view should do next frame.
    pub request: ViewRequest,
    /// The question on screen.
    pub question: Option<Question>,
    /// The next load may drop unsaved changes (the user said so).
    leave_ok: bool,
    /// The window may close with unsaved changes (the user said so).
    pub close_ok: bool,
    /// The recovery file, if the window keeps one.
    pub recovery: Option<PathBuf>,
    recovery_at: Option<Instant>,
    /// What the recovery file holds now (`None`: not written yet).
    recovery_written: Option<recovery::Saved>,
    /// The program key the recovery file names (`None`: bundled).
    pub program: Option<PathBuf>,
    /// The window to wake when a result arrives.
    pub wake: Option<egui::Context>,
    /// The next program loaded was assembled from the editor's texts.
    pub from_editor: bool,
}

impl Default for Edits {
    fn default() -> Self {
        Edits {
            buffers: Vec::new(),
            base: Base::Disk,
            live: None,
            live_buffers: Vec::new(),
            job: None,
            pending_job: None,
            started: Vec::new(),
            next_id: 0,
            last_change: None,
            due: false,
            pause: PAUSE,
            untitled: 0,
            request: ViewRequest::default(),
            question: None,
            leave_ok: false,
            close_ok: false,
            recovery: None,
            recovery_at: None,
            recovery_written: None,
            program: None,
            wake: None,
            from_editor: false,
        }
    }
}

/// How a program came into the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loaded {
    /// Read from disk (or bundled): the texts are what is stored.
    FromDisk,
    /// Assembled from the editor's texts (F7): the stored texts are as before.
    FromEditor,
}

/// The buffer for a file the assembler read, with its format on disk.
fn buffer_for(f: &SourceFile, bundled: bool) -> Buffer {
    let bytes = if bundled {
        None
    } else {
        crate::platform::fs::read(&f.path).ok()
    };
    let format = bytes.as_deref().map(FileFormat::of).unwrap_or_default();
    let mut b = Buffer::new(f.path.clone(), &f.text, format);
    if !bundled {
        b.mtime = crate::platform::fs::modified(&f.path);
    }
    b
}

impl Edits {
    /// The buffer at `path`.
    pub fn find(&self, path: &Path) -> Option<usize> {
        let want = normalize_path(path);
        self.buffers
            .iter()
            .position(|b| normalize_path(&b.path) == want)
    }

    /// A program was loaded: its files become the first buffers, in its
    /// order. `same` is true for the program that was open (F7, a reload):
    /// then the buffers keep their undo; else they start afresh (new files
    /// not saved yet stay).
    pub fn loaded(&mut self, files: &[SourceFile], bundled: bool, same: bool, how: Loaded) {
        self.base = if bundled { Base::Bundled } else { Base::Disk };
        let mut old = std::mem::take(&mut self.buffers);
        let mut next = Vec::new();
        for f in files {
            let kept = old
                .iter()
                .position(|b| normalize_path(&b.path) == normalize_path(&f.path))
                .filter(|_| same)
                .map(|i| old.remove(i));
            let mut b = match kept {
                Some(mut b) => {
                    if how == Loaded::FromDisk {
                        let fresh = buffer_for(f, bundled);
                        b.reload_from_disk(&f.text, fresh.format);
                        b.mtime = fresh.mtime;
                    }
                    b
                }
                None => buffer_for(f, bundled),
            };
            b.mark_loaded();
            next.push(b);
        }
        // What is left and was never part of a program: new files, files
        // the editor opened beside it. Of another program only unsaved
        // ones stay (the user was asked before).
        for mut b in old {
            if same || b.untitled {
                b.loaded = None;
                next.push(b);
            }
        }
        self.buffers = next;
        self.live = None;
        self.live_buffers.clear();
        self.job = None;
        self.due = true;
        self.leave_ok = false;
    }

    /// No program: nothing to edit but new files.
    pub fn cleared(&mut self) {
        self.buffers.retain(|b| b.untitled);
        self.live = None;
        self.live_buffers.clear();
        self.job = None;
    }

    /// A new, empty file; returns its index.
    pub fn new_file(&mut self) -> usize {
        self.untitled += 1;
        let mut name = format!("untitled-{}.asm", self.untitled);
        while self.find(Path::new(&name)).is_some() {
            self.untitled += 1;
            name = format!("untitled-{}.asm", self.untitled);
        }
        self.buffers.push(Buffer::untitled(&name));
        self.buffers.len() - 1
    }

    /// Notes that a buffer changed now (the assembly waits for the pause).
    pub fn touched(&mut self) {
        self.last_change = Some(Instant::now());
    }

    /// True if any file has unsaved changes.
    pub fn has_unsaved(&self) -> bool {
        self.buffers.iter().any(Buffer::is_dirty)
    }

    /// The files with unsaved changes.
    pub fn unsaved_names(&self) -> Vec<String> {
        self.buffers
            .iter()
            .filter(|b| b.is_dirty())
            .map(Buffer::name)
            .collect()
    }

    /// True when the running program was assembled from other texts than
    /// the editor's now.
    pub fn run_differs(&self) -> bool {
        self.buffers.iter().any(Buffer::differs_from_run)
    }

    /// The next load may drop the unsaved changes (the user chose so).
    pub fn allow_leave(&mut self) {
        self.leave_ok = true;
    }

    /// True if a load may go ahead now: nothing unsaved, or the user said
    /// so; the permission is used up.
    pub fn may_leave(&mut self) -> bool {
        !self.has_unsaved() || std::mem::take(&mut self.leave_ok)
    }

    /// The last assembly's result.
    pub fn live(&self) -> Option<&Arc<LiveResult>> {
        self.live.as_ref()
    }

    /// The buffer showing file `file` of the last result.
    pub fn buffer_of_live(&self, file: usize) -> Option<usize> {
        self.live_buffers.get(file).copied().flatten()
    }

    /// The file of the last result a buffer shows.
    pub fn live_of_buffer(&self, buffer: usize) -> Option<usize> {
        self.live_buffers.iter().position(|b| *b == Some(buffer))
    }

    /// True while an assembly runs or waits for the pause.
    pub fn assembling(&self) -> bool {
        self.job.is_some() || self.changed_since_start()
    }

    fn changed_since_start(&self) -> bool {
        self.buffers.len() != self.started.len()
            || self
                .buffers
                .iter()
                .zip(&self.started)
                .any(|(b, (p, g))| b.generation != *g || b.path != *p)
    }

    /// Takes a finished assembly and starts the next one once the typing
    /// paused. Returns the result when one arrived this frame.
    pub fn poll(&mut self, main: Option<&Path>, dialect: Dialect) -> Option<Arc<LiveResult>> {
        let mut arrived = None;
        if let Some(rx) = &self.job {
            match rx.try_recv() {
                Ok(r) => {
                    self.job = None;
                    arrived = Some(self.adopt(r));
                }
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => self.job = None,
            }
        }
        let paused = self
            .last_change
            .is_none_or(|t| Instant::now().duration_since(t) >= self.pause);
        if self.job.is_none() && (self.due || (paused && self.changed_since_start())) {
            if let Some(main) = main {
                self.start(main, dialect);
            }
        } else if self.job.is_none() && self.changed_since_start() {
            if let (Some(ctx), Some(t)) = (&self.wake, self.last_change) {
                // No input may come: wake up when the pause is over.
                ctx.request_repaint_after(self.pause.saturating_sub(t.elapsed()));
            }
        }
        arrived
    }

    /// Starts assembling the texts as they are now, in the background.
    pub fn start(&mut self, main: &Path, dialect: Dialect) {
        self.start_with(main, dialect, true);
    }

    fn start_with(&mut self, main: &Path, dialect: Dialect, background: bool) {
        self.due = false;
        self.next_id += 1;
        for b in &mut self.buffers {
            b.start_assembly();
        }
        self.started = self
            .buffers
            .iter()
            .map(|b| (b.path.clone(), b.generation))
            .collect();
        let job = live::Job {
            id: self.next_id,
            main: main.to_path_buf(),
            files: self
                .buffers
                .iter()
                .filter(|b| !b.untitled)
                .map(|b| (b.path.clone(), b.text.clone()))
                .collect(),
            base: self.base,
            dialect,
        };
        if background {
            self.job = Some(live::spawn(job, self.wake.clone()));
        } else {
            // Whatever runs in the background is older than this.
            self.job = None;
            self.pending_job = Some(job);
        }
    }

    /// Assembles the texts as they are now, here (F7), and shows the result.
    pub fn assemble_now(&mut self, main: &Path, dialect: Dialect) -> Arc<LiveResult> {
        self.start_with(main, dialect, false);
        let job = self.pending_job.take();
        let r = match job {
            Some(job) => live::assemble(&job),
            None => LiveResult::default(),
        };
        self.adopt(r)
    }

    /// Makes a result the one shown: its files matched to buffers (files it
    /// read that no buffer shows get one), the maps moved to it.
    fn adopt(&mut self, r: LiveResult) -> Arc<LiveResult> {
        let mut map = Vec::with_capacity(r.files.len());
        for f in &r.files {
            if f.path.to_string_lossy().ends_with(" (macros)") {
                // A virtual file (macro expansions): no buffer.
                map.push(None);
                continue;
            }
            let i = match self.find(&f.path) {
                Some(i) => i,
                None => {
                    let mut b = buffer_for(
                        &SourceFile {
                            path: f.path.clone(),
                            text: f.text.clone(),
                        },
                        self.base == Base::Bundled,
                    );
                    b.start_assembly();
                    if self.started.len() == self.buffers.len() {
                        // The job read this text: it is no change to
                        // assemble again.
                        self.started.push((b.path.clone(), b.generation));
                    }
                    self.buffers.push(b);
                    self.buffers.len() - 1
                }
            };
            map.push(Some(i));
        }
        for (i, b) in self.buffers.iter_mut().enumerate() {
            if map.contains(&Some(i)) {
                b.assembly_arrived();
            }
        }
        let r = Arc::new(r);
        self.live = Some(r.clone());
        self.live_buffers = map;
        r
    }

    /// What the recovery file should hold now.
    fn unsaved(&self) -> recovery::Saved {
        recovery::Saved {
            program: self.program.clone(),
            files: self
                .buffers
                .iter()
                .filter(|b| b.is_dirty())
                .map(|b| recovery::SavedFile {
                    path: b.path.clone(),
                    untitled: b.untitled,
                    text: b.text.clone(),
                    format: b.format,
                })
                .collect(),
        }
    }

    /// Every few seconds: the unsaved texts to the recovery file, when they
    /// changed since the last time (`force`: now).
    pub fn keep_recovery(&mut self, force: bool) {
        let Some(path) = self.recovery.clone() else {
            return;
        };
        let now = Instant::now();
        if !force
            && self
                .recovery_at
                .is_some_and(|t| now.duration_since(t) < RECOVERY_EVERY)
        {
            return;
        }
        self.recovery_at = Some(now);
        let saved = self.unsaved();
        if self.recovery_written.as_ref() == Some(&saved) {
            return;
        }
        // A question about the old file is still open: keep it until then.
        if matches!(self.question, Some(Question::Recover(_))) {
            return;
        }
        self.recovery_written = Some(saved.clone());
        recovery::write(path, saved);
    }

    /// The window closes with nothing to recover (all saved, or the user
    /// chose to drop the changes): the recovery file is emptied now, before
    /// the process ends.
    pub fn finish(&mut self) {
        if let Some(path) = &self.recovery {
            let empty = recovery::Saved::default();
            if let Ok(json) = serde_json::to_vec(&empty) {
                if let Err(e) = crate::platform::fs::write(path, &json) {
                    eprintln!(
                        "hc11lab: cannot empty the recovery file {}: {e}",
                        path.display()
                    );
                }
            }
            self.recovery_written = Some(empty);
        }
    }

    /// Looks for unsaved texts an earlier window left; asks about them.
    pub fn offer_recovery(&mut self) {
        if let Some(saved) = self.recovery.as_deref().and_then(recovery::read) {
            self.question = Some(Question::Recover(saved));
        }
    }

    /// The texts of a recovery file, put into the buffers of the same paths
    /// (new buffers for the others); returns how many.
    pub fn restore(&mut self, saved: &recovery::Saved) -> usize {
        for f in &saved.files {
            let i = match self.find(&f.path) {
                Some(i) => i,
                None => {
                    let mut b = Buffer::new(f.path.clone(), "", f.format);
                    b.untitled = f.untitled;
                    self.buffers.push(b);
                    self.buffers.len() - 1
                }
            };
            if let Some(b) = self.buffers.get_mut(i) {
                b.replace(f.text.clone(), 0);
            }
            if f.untitled {
                self.untitled += 1;
            }
        }
        self.touched();
        saved.files.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(texts: &[(&str, &str)]) -> Vec<SourceFile> {
        texts
            .iter()
            .map(|(p, t)| SourceFile {
                path: PathBuf::from(p),
                text: t.to_string(),
            })
            .collect()
    }

    #[test]
    fn loading_again_keeps_the_buffers_and_another_program_replaces_them() {
        let mut e = Edits::default();
        e.loaded(
            &files(&[("/a/m.asm", "x\n")]),
            false,
            false,
            Loaded::FromDisk,
        );
        e.buffers[0].replace("y\n".into(), 0);
        let u = e.new_file();
        e.buffers[u].replace("new".into(), 0);
        assert!(e.has_unsaved() && e.run_differs());
        assert!(!e.may_leave());
        e.allow_leave();
        assert!(e.may_leave());
        assert!(!e.may_leave(), "the permission is used up");
        // F7: assembled from the editor, the text stays unsaved.
        e.loaded(
            &files(&[("/a/m.asm", "y\n")]),
            false,
            true,
            Loaded::FromEditor,
        );
        assert_eq!(e.buffers.len(), 2);
        assert!(e.buffers[0].can_undo());
        assert!(!e.run_differs() && e.has_unsaved());
        e.loaded(
            &files(&[("/b/other.asm", "z")]),
            false,
            false,
            Loaded::FromDisk,
        );
        let names: Vec<String> = e.buffers.iter().map(Buffer::name).collect();
        assert_eq!(names, vec!["other.asm", "untitled-1.asm"]);
    }

    #[test]
    fn a_result_arrives_after_the_pause_and_places_its_files() {
        let dir = std::env::temp_dir().join(format!("hc11lab-edits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("dir");
        let main = dir.join("m.asm");
        std::fs::write(&main, "        org $C000\n        include inc.asm\n").expect("write");
        std::fs::write(dir.join("inc.asm"), "        nop\n").expect("write");
        let mut e = Edits::default();
        e.loaded(
            &files(&[(
                main.to_str().unwrap_or(""),
                "        org $C000\n        include inc.asm\n",
            )]),
            false,
            false,
            Loaded::FromDisk,
        );
        let mut got = None;
        for _ in 0..200 {
            got = e.poll(Some(&main), Dialect::Course);
            if got.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let r = got.expect("a result");
        assert_eq!(r.files.len(), 2);
        assert_eq!(e.buffers.len(), 2, "the include got a buffer");
        assert_eq!(e.buffer_of_live(1), Some(1));
        assert!(!e.assembling());
        // An edit waits for the pause.
        e.buffers[1].replace("        inca\n".into(), 0);
        e.touched();
        assert!(e.poll(Some(&main), Dialect::Course).is_none());
        assert!(e.assembling());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
