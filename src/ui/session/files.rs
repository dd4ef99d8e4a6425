//! What the session loads: opening and reloading programs (with each
//! program's own watch list), watching their files for edits, and saving a
//! copy of the sources.

use super::*;

impl Session {
    /// The files a reload watches, with their modification times at load.
    pub fn watched_files(&self) -> &[(PathBuf, Option<SystemTime>)] {
        &self.mtimes
    }

    /// Keeps the watch list of the program being left and takes out the
    /// one of the program being opened: its own from an earlier visit, else
    /// those of the default watches its symbols have (the game's variables
    /// for any Viergewinnt), else none.
    fn switch_watches(&mut self) {
        let key = self.program_key();
        let owner = self
            .watches_of
            .clone()
            .or_else(|| self.settings.watches_program.clone())
            .unwrap_or_default();
        self.watches_of = Some(key.clone());
        self.settings.watches_program = Some(key.clone());
        if owner == key {
            return;
        }
        let list = std::mem::take(&mut self.settings.watches);
        self.settings.program_watches.retain(|(k, _)| *k != owner);
        self.settings.program_watches.push((owner, list));
        let saved = self
            .settings
            .program_watches
            .iter()
            .position(|(k, _)| *k == key)
            .map(|i| self.settings.program_watches.remove(i).1);
        self.settings.watches = saved.unwrap_or_else(|| {
            Settings::default()
                .watches
                .into_iter()
                .filter(|w| {
                    let name = w.split(':').next().unwrap_or(w);
                    self.resolve(name).is_some()
                })
                .collect()
        });
    }

    /// Loads what `input` names on the command line's board; problems go
    /// to the Problems panel. With unsaved changes in the editor it asks
    /// first (the load waits for the answer).
    pub fn open(&mut self, input: AppInput) {
        self.board = None;
        self.load(input);
    }

    /// Loads what `input` names, read in `dialect`, on `board` (a name for
    /// [`Session::board_key`], and the board): what a lesson on a program
    /// of its own opens. A reload keeps the board; [`Session::open`] goes
    /// back to the command line's.
    pub fn open_on(
        &mut self,
        input: AppInput,
        dialect: crate::asm::Dialect,
        board: (String, crate::board::config::BoardSetup),
    ) {
        self.board = Some(board);
        self.dialect = dialect;
        self.load(input);
    }

    /// The name of the board chosen by [`Session::open_on`], if one was.
    pub fn board_key(&self) -> Option<&str> {
        self.board.as_ref().map(|(k, _)| k.as_str())
    }

    fn load(&mut self, input: AppInput) {
        self.repaint = true;
        if !self.edits.may_leave() {
            self.edits.question = Some(super::super::editor::edits::Question::BeforeOpen(input));
            return;
        }
        let loaded = crate::ui::load::load_in(&input, self.dialect);
        self.problems = loaded.problems;
        if let AppInput::Path(p) = &input {
            self.settings.recent.retain(|r| r != p);
            self.settings.recent.insert(0, p.clone());
            self.settings.recent.truncate(10);
        }
        let origin = match input {
            AppInput::Bundled => Origin::Bundled,
            AppInput::Path(p) => Origin::Path(p),
        };
        match loaded.program {
            Some(p) if loaded.runnable => self.set_program(p, origin),
            Some(p) => {
                self.set_sources(p, origin);
                self.ask_bottom_tab(BottomTab::Problems);
                self.status = tr(
                    self.lang,
                    "Assembly failed: see Problems (click one to go to its line).",
                )
                .into();
            }
            None => {
                self.origin = Some(origin);
                self.ask_bottom_tab(BottomTab::Problems);
                self.status = tr(self.lang, "Not loaded: see Problems.").into();
            }
        }
        self.mtimes = loaded
            .watch
            .into_iter()
            .map(|p| {
                let t = mtime(&p);
                (p, t)
            })
            .collect();
    }

    /// The dialect sources are assembled in.
    pub fn dialect(&self) -> crate::asm::Dialect {
        self.dialect
    }

    /// Reads the sources in `dialect` from now on and assembles the open
    /// program again in it.
    pub fn set_dialect(&mut self, dialect: crate::asm::Dialect) {
        if self.dialect != dialect {
            self.dialect = dialect;
            if self.edits.has_unsaved() || self.edits.run_differs() {
                // The editor's texts, not the files on disk.
                self.assemble_and_reset();
            } else {
                self.reload();
            }
        }
    }

    /// Loads the same input again (after an edit on disk).
    pub fn reload(&mut self) {
        let input = match &self.origin {
            Some(Origin::Path(p)) => AppInput::Path(p.clone()),
            Some(Origin::Bundled) | None => AppInput::Bundled,
        };
        self.load(input);
    }

    /// Checks (at most every 750 ms) whether a source file changed on disk,
    /// and reloads if so.
    pub fn poll_source_change(&mut self) {
        let now = Instant::now();
        if self
            .last_poll
            .is_some_and(|t| now.duration_since(t) < POLL_EVERY)
        {
            return;
        }
        self.last_poll = Some(now);
        let changed: Vec<PathBuf> = self
            .mtimes
            .iter()
            .filter(|(p, t)| mtime(p) != *t)
            .map(|(p, _)| p.clone())
            .collect();
        if !changed.is_empty() && !self.editor_takes_disk_change(&changed) {
            self.reload();
            self.status = tr(self.lang, "Reloaded: a source file changed on disk.").into();
        }
    }

    /// Opens a file (or folder) chosen in a dialog. In a page the browser's
    /// dialog answers later: the window opens what it read then
    /// ([`crate::ui::web_files::open_picked`]).
    pub fn open_dialog(&mut self, folder: bool) {
        use crate::platform::dialog::{pick, Want};
        let want = if folder { Want::Folder } else { Want::Files };
        match pick(want) {
            Some(picked) => crate::ui::web_files::open_picked(self, picked),
            None => self.status = tr(self.lang, "Choose the files in the browser's dialog…").into(),
        }
    }

    /// Installs a program (replacing the previous one) and loads it onto a
    /// fresh machine.
    pub fn set_program(&mut self, program: Program, origin: Origin) {
        let before = self.program_key();
        let program = Arc::new(program);
        self.program = Some(program.clone());
        self.origin = Some(origin);
        self.generation += 1;
        self.selection = None;
        self.links_dirty = true;
        self.mode = Mode::Paused;
        self.set_stop(None);
        self.script_active = false;
        self.key_down_since = [None; 8];
        let made = match &self.board {
            Some((_, setup)) => Machine::with_board(program, setup),
            None => Machine::new(program),
        };
        self.dbg = match made {
            Ok(m) => {
                for w in m.placement_warnings() {
                    self.problems.push(Problem {
                        severity: "warning".into(),
                        message: format!("{}\n  help: {}", w.message, w.help),
                        at: w.at.map(|(path, line)| (path, line, 1)),
                    });
                }
                let mut d = Debugger::new(m);
                // Provenance is what the links are made of: on unless the
                // user traded it for speed.
                d.set_provenance(self.settings.record_links);
                d.max_cycles = COMMAND_CYCLES;
                Some(d)
            }
            Err(e) => {
                self.problems.push(Problem {
                    severity: "error".into(),
                    message: e.to_string(),
                    at: None,
                });
                self.ask_bottom_tab(BottomTab::Problems);
                None
            }
        };
        self.recording_since = None;
        self.mark_before();
        self.switch_watches();
        self.editor_loaded(before);
        self.restore_breakpoints();
        self.reapply_bench();
        let warnings = self
            .problems
            .iter()
            .filter(|p| p.severity == "warning")
            .count();
        self.status = if warnings == 0 {
            trf(self.lang, "Loaded {}.", &[&self.title()])
        } else {
            trf(
                self.lang,
                "Loaded {}, with {} warning(s): see Problems.",
                &[&self.title(), &warnings],
            )
        };
    }

    /// Shows the sources of a program that did not assemble, with no machine.
    pub fn set_sources(&mut self, sources: Program, origin: Origin) {
        let before = self.program_key();
        self.program = Some(Arc::new(sources));
        self.origin = Some(origin);
        self.generation += 1;
        self.selection = None;
        self.links_dirty = true;
        self.mode = Mode::Paused;
        self.set_stop(None);
        self.script_active = false;
        self.dbg = None;
        self.mark_before();
        self.switch_watches();
        self.editor_loaded(before);
    }

    /// The program's source files as (path relative to the main file's
    /// folder, text); for the bundled program all of `firmware/` under the
    /// names the authors gave them.
    pub fn source_files(&self) -> Vec<(PathBuf, String)> {
        // What the editor holds, where it holds the file.
        let text_of = |path: &std::path::Path, text: &str| {
            self.edits
                .find(path)
                .and_then(|i| self.edits.buffers.get(i))
                .map_or_else(|| text.to_string(), |b| b.text.clone())
        };
        if self.origin == Some(Origin::Bundled) {
            return crate::firmware::FILES
                .iter()
                .map(|(n, t)| {
                    let shown = PathBuf::from(crate::firmware::FOLDER).join(n);
                    (PathBuf::from(n), text_of(&shown, t))
                })
                .collect();
        }
        let Some(p) = self.program.as_deref() else {
            return Vec::new();
        };
        let base = p
            .files
            .first()
            .and_then(|f| f.path.parent())
            .map(PathBuf::from)
            .unwrap_or_default();
        p.files
            .iter()
            .map(|f| {
                let rel = f
                    .path
                    .strip_prefix(&base)
                    .ok()
                    .filter(|r| !r.as_os_str().is_empty() && r.is_relative())
                    .map(PathBuf::from)
                    .or_else(|| f.path.file_name().map(PathBuf::from))
                    .unwrap_or_else(|| PathBuf::from("source.asm"));
                (rel, text_of(&f.path, &f.text))
            })
            .collect()
    }

    /// Writes the program's sources into `dir` (created if missing) and
    /// opens the copy there. Refuses to overwrite: a file that already
    /// exists is an error and nothing is written.
    pub fn save_sources_to(&mut self, dir: &std::path::Path) -> Result<PathBuf, String> {
        let files = self.source_files();
        let Some((main, _)) = files.first() else {
            return Err(tr(
                self.lang,
                "nothing to save: the program has no source files",
            )
            .into());
        };
        let main = dir.join(main);
        if let Some((rel, _)) = files
            .iter()
            .find(|(rel, _)| crate::platform::fs::exists(&dir.join(rel)))
        {
            return Err(trf(
                self.lang,
                "{} exists already: choose an empty folder (nothing was written)",
                &[&dir.join(rel).display()],
            ));
        }
        for (rel, text) in &files {
            let path = dir.join(rel);
            if let Some(parent) = path.parent() {
                crate::platform::fs::create_dir_all(parent)
                    .map_err(|e| format!("{}: {e}", parent.display()))?;
            }
            crate::platform::fs::write(&path, text.as_bytes())
                .map_err(|e| format!("{}: {e}", path.display()))?;
        }
        // The copy holds the editor's texts: nothing is lost by leaving them.
        self.edits.allow_leave();
        self.open(AppInput::Path(main.clone()));
        self.status = trf(
            self.lang,
            "Saved {} file(s) to {} and opened the copy: edit it in your editor, the window \
             reloads when you save.",
            &[&files.len(), &dir.display()],
        );
        Ok(main)
    }

    /// File > Save a copy of the sources: a folder dialog (in a page a new
    /// folder of the page's files), then [`Self::save_sources_to`].
    pub fn save_sources_dialog(&mut self) {
        match crate::platform::dialog::pick_save_folder(&self.program_stem()) {
            Some(dir) => {
                if let Err(e) = self.save_sources_to(&dir) {
                    self.status = e;
                }
            }
            None => {
                self.status =
                    tr(self.lang, "No folder chosen (or no file dialog available).").into();
            }
        }
    }

    /// The main source's name without its extension (`Viergewinnt`).
    pub fn program_stem(&self) -> String {
        self.source_files()
            .first()
            .and_then(|(p, _)| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "program".to_string())
    }
}

pub(super) fn mtime(p: &std::path::Path) -> Option<SystemTime> {
    crate::platform::fs::modified(p)
}
