//! The exercises of the course in the window: read the task, start a copy
//! of the starter code in the student's data folder (opened at once; it is
//! edited in the student's own editor and reloads on every save), Check it
//! with the course's grader (feedback and points per check, as the grading
//! server gives them) and Hand in: the zip of the sources the course
//! expects, written beside the copy.
//!
//! The grader runs in the background ([`crate::platform::spawn`]): a check
//! of a whole game takes seconds, and the window keeps drawing meanwhile
//! (in a page, where there are no threads, it runs between two frames, so
//! the "Checking…" line is on screen while it does).

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};

use crate::platform::fs;

use egui::{Color32, RichText};

use super::i18n::tr;
use super::markdown::markdown;
use super::session::Session;
use super::AppInput;
use crate::grade::submission::SOURCE_EXTENSIONS;
use crate::grade::{Assignment, SubmissionResult, SubmissionStatus};
use crate::lesson::{Catalog, Lang};

/// Where a check ended up.
#[derive(Clone, Debug, PartialEq)]
pub enum CheckState {
    /// The grader runs.
    Running,
    /// Graded (as the student may see it).
    Done(SubmissionResult),
    /// It could not be checked at all (the message says why).
    Failed(String),
}

/// The exercises part of the course panel.
pub struct ExercisesPanel {
    catalog: Option<Catalog>,
    load_error: Option<String>,
    data_dir: Option<PathBuf>,
    selected: Option<String>,
    pending: Option<(String, Receiver<CheckState>)>,
    /// A check asked for, started at the next frame (after "Checking…"
    /// was drawn once).
    queued: Option<(String, Lang)>,
    results: Vec<(String, CheckState)>,
    message: Option<(bool, String)>,
}

/// The folder of the student's copy of exercise `id` under `data_dir`.
pub fn work_dir(data_dir: &Path, id: &str) -> PathBuf {
    data_dir.join("exercises").join(id)
}

/// The zip Hand in writes for the copy in `work`: beside it, `ID.zip`.
pub fn hand_in_path(work: &Path) -> PathBuf {
    work.with_extension("zip")
}

/// Writes the source files of `work` (the extensions the grader reads, no
/// sub-folders) into the zip `out`, at its top level: what `hc11lab lesson
/// check` and the grading server take. Returns the names written.
pub fn write_hand_in(work: &Path, out: &Path) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = fs::read_dir(work)
        .map_err(|e| format!("{}: {e}", work.display()))?
        .filter(|e| fs::is_file(&e.path))
        .map(|e| e.name)
        .filter(|n| {
            n.rsplit_once('.').is_some_and(|(_, ext)| {
                SOURCE_EXTENSIONS
                    .iter()
                    .any(|s| s.eq_ignore_ascii_case(ext))
            })
        })
        .collect();
    names.sort();
    if names.is_empty() {
        return Err(format!("{} holds no source files", work.display()));
    }
    let mut files = Vec::new();
    for n in &names {
        let bytes = fs::read(&work.join(n)).map_err(|e| format!("{n}: {e}"))?;
        files.push((n.clone(), bytes));
    }
    let zip = super::web_files::zip_files(&files).map_err(|e| format!("{}: {e}", out.display()))?;
    fs::write(out, &zip).map_err(|e| format!("{}: {e}", out.display()))?;
    Ok(names)
}

impl ExercisesPanel {
    /// The course's exercises; copies go under `data_dir/exercises/`.
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        Self::with_catalog(data_dir, Catalog::load_default().map_err(|e| e.to_string()))
    }

    /// The same on a course already loaded (or the error loading it).
    pub fn with_catalog(data_dir: Option<PathBuf>, catalog: Result<Catalog, String>) -> Self {
        let (catalog, load_error) = match catalog {
            Ok(c) => (Some(c), None),
            Err(e) => (None, Some(e)),
        };
        ExercisesPanel {
            catalog,
            load_error,
            data_dir,
            selected: None,
            pending: None,
            queued: None,
            results: Vec::new(),
            message: None,
        }
    }

    /// Replaces the course (reloaded from disk).
    pub fn set_catalog(&mut self, catalog: Result<Catalog, String>) {
        match catalog {
            Ok(c) => {
                self.catalog = Some(c);
                self.load_error = None;
            }
            Err(e) => self.load_error = Some(e),
        }
    }

    /// True while a check runs (the window keeps drawing to show it end).
    pub fn busy(&self) -> bool {
        self.pending.is_some() || self.queued.is_some()
    }

    /// The last check of exercise `id`.
    pub fn result(&self, id: &str) -> Option<&CheckState> {
        self.results.iter().find(|(k, _)| k == id).map(|(_, r)| r)
    }

    /// Selects exercise `id` (its task is shown).
    pub fn select(&mut self, id: &str) {
        self.selected = Some(id.to_string());
        self.message = None;
    }

    fn work(&self, id: &str) -> Option<PathBuf> {
        self.data_dir.as_deref().map(|d| work_dir(d, id))
    }

    fn entry_of(&self, id: &str) -> Result<String, String> {
        let ex = self
            .catalog
            .as_ref()
            .and_then(|c| c.exercise(id))
            .ok_or_else(|| format!("no exercise `{id}`"))?;
        Assignment::load(&ex.dir)
            .map(|a| a.entry)
            .map_err(|e| e.to_string())
    }

    /// Opens the student's copy of `id` in the session, making it from the
    /// starter code first if there is none.
    pub fn start(&mut self, id: &str, session: &mut Session) -> Result<PathBuf, String> {
        let work = self
            .work(id)
            .ok_or("no data folder to keep your copy in (started without one)")?;
        let entry = self.entry_of(id)?;
        let main = work.join(&entry);
        if !fs::is_file(&main) {
            let dir = self
                .catalog
                .as_ref()
                .and_then(|c| c.exercise(id))
                .map(|e| e.dir.clone())
                .ok_or_else(|| format!("no exercise `{id}`"))?;
            crate::lesson::start::copy_starter(&dir, &work).map_err(|e| e.to_string())?;
        }
        session.open(AppInput::Path(main.clone()));
        session.edits.request.editor = true; // the copy opens in the editor
        Ok(main)
    }

    /// Asks for a check of the copy of `id` with the feedback in `lang`: it
    /// shows as running at once and starts in the background at the next
    /// frame ([`Self::poll`]).
    pub fn check_in(&mut self, id: &str, lang: Lang) {
        if self.catalog.is_none() || self.work(id).is_none() {
            return;
        }
        self.set_result(id, CheckState::Running);
        self.queued = Some((id.to_string(), lang));
    }

    /// [`Self::check_in`] in English.
    pub fn check(&mut self, id: &str) {
        self.check_in(id, Lang::En);
    }

    fn start_check(&mut self, id: &str, lang: Lang) {
        let (Some(cat), Some(work)) = (self.catalog.clone(), self.work(id)) else {
            return;
        };
        let (tx, rx) = channel();
        let exercise = id.to_string();
        self.pending = Some((id.to_string(), rx));
        crate::platform::spawn("hc11lab-check", move || {
            let graded = crate::lesson::check::check_for_student(&cat, &exercise, &work, lang);
            let state = match graded {
                // What the student may see: hidden checks keep their
                // points but not their output.
                Ok(r) => CheckState::Done(r),
                Err(e) => CheckState::Failed(e.to_string()),
            };
            // The panel may be gone (window closed): nothing to tell.
            let _ = tx.send(state);
        });
    }

    /// Starts a check asked for in an earlier frame, and takes the result
    /// of a running one if it has finished.
    pub fn poll(&mut self) {
        if self.pending.is_none() {
            if let Some((id, lang)) = self.queued.take() {
                self.start_check(&id, lang);
            }
        }
        let Some((id, rx)) = &self.pending else {
            return;
        };
        let got = match rx.try_recv() {
            Ok(s) => s,
            Err(std::sync::mpsc::TryRecvError::Empty) => return,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                CheckState::Failed("the check stopped without a result".into())
            }
        };
        let id = id.clone();
        self.pending = None;
        self.set_result(&id, got);
    }

    fn set_result(&mut self, id: &str, state: CheckState) {
        self.results.retain(|(k, _)| k != id);
        self.results.push((id.to_string(), state));
    }

    /// Writes the hand-in zip of `id`'s copy; returns its path. In a page
    /// the zip is also downloaded ([`crate::platform::fs::offer`]).
    pub fn hand_in(&mut self, id: &str) -> Result<PathBuf, String> {
        let work = self.work(id).ok_or("no data folder")?;
        if !fs::is_dir(&work) {
            return Err("start the exercise first: there is no copy to hand in".into());
        }
        let out = hand_in_path(&work);
        write_hand_in(&work, &out)?;
        fs::offer(&out).map_err(|e| format!("{}: {e}", out.display()))?;
        Ok(out)
    }

    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session, lang: Lang) {
        self.poll();
        let t = |s: &'static str| tr(lang, s);
        if let Some(e) = &self.load_error {
            ui.colored_label(Color32::LIGHT_RED, e);
            return;
        }
        let Some(cat) = self.catalog.clone() else {
            return;
        };
        if cat.exercises.is_empty() {
            ui.add(
                egui::Label::new(t(
                    "The exercises need the course folder (`lessons/`): start hc11lab in the \
                     folder that holds it, or set HC11LAB_LESSONS to it.",
                ))
                .wrap(),
            );
            return;
        }
        let entries: Vec<(String, String)> = cat
            .exercises
            .iter()
            .map(|e| (e.id.clone(), e.title(lang)))
            .collect();
        let title = self
            .selected
            .as_ref()
            .and_then(|id| entries.iter().find(|(k, _)| k == id))
            .map_or_else(|| t("Pick an exercise").to_string(), |(_, t)| t.clone());
        let mut pick = None;
        let label = ui.label(t("Exercise"));
        egui::ComboBox::from_id_salt("exercise")
            .selected_text(title)
            .width(ui.available_width() - 8.0)
            .show_ui(ui, |ui| {
                for (id, title) in &entries {
                    if ui
                        .selectable_label(self.selected.as_deref() == Some(id), title)
                        .clicked()
                    {
                        pick = Some(id.clone());
                    }
                }
            })
            .response
            .labelled_by(label.id);
        if let Some(id) = pick {
            self.select(&id);
        }
        let Some(id) = self.selected.clone() else {
            return;
        };
        let work = self.work(&id);
        let started = work.as_ref().is_some_and(|w| fs::is_dir(w));
        ui.horizontal_wrapped(|ui| {
            let open_label = if started {
                t("Open my copy")
            } else {
                t("Start (copy the starter code)")
            };
            let where_hint = if crate::platform::IN_PAGE {
                t(
                    "Your copy lives in this page (the browser's storage); bring in what you \
                   edited on your computer with Take files from my computer.",
                )
            } else {
                t(
                    "Your copy lives in the folder shown below and opens in the editor here \
                     (or edit it in your own editor: the window reloads when you save).",
                )
            };
            if ui
                .add_enabled(work.is_some(), egui::Button::new(open_label))
                .on_hover_text(where_hint)
                .clicked()
            {
                self.message = Some(match self.start(&id, session) {
                    Ok(p) => (true, format!("{} {}", t("Opened"), p.display())),
                    Err(e) => (false, e),
                });
            }
            if crate::platform::IN_PAGE
                && ui
                    .add_enabled(
                        started,
                        egui::Button::new(t("Take files from my computer…")),
                    )
                    .on_hover_text(t(
                        "Copy files from your computer (or a zip) into your copy; a file of the \
                         same name is replaced",
                    ))
                    .clicked()
            {
                match (&work, self.entry_of(&id)) {
                    (Some(w), Ok(entry)) => {
                        crate::ui::web_files::pick_into(session, w, &w.join(entry))
                    }
                    (_, Err(e)) => self.message = Some((false, e)),
                    (None, _) => {}
                }
            }
            let running = self.busy();
            if ui
                .add_enabled(started && !running, egui::Button::new(t("Check")))
                .on_hover_text(t(
                    "Save the editor's changes and grade your copy with the course's checks \
                     (as the server does)",
                ))
                .clicked()
            {
                // What the editor holds is what is checked: saved first.
                match work.as_deref().map(|w| session.save_files_under(w)) {
                    Some(Err(e)) => self.message = Some((false, e)),
                    _ => self.check_in(&id, lang),
                }
            }
            if ui
                .add_enabled(started, egui::Button::new(t("Hand in")))
                .on_hover_text(t("Write the zip of your sources to hand in"))
                .clicked()
            {
                self.message = Some(match self.hand_in(&id) {
                    Ok(p) => (
                        true,
                        format!("{} {}", t("Hand-in zip written:"), p.display()),
                    ),
                    Err(e) => (false, e),
                });
            }
        });
        if let Some(w) = &work {
            ui.add(
                egui::Label::new(
                    RichText::new(format!("{} {}", t("Your copy:"), w.display())).weak(),
                )
                .wrap(),
            );
        }
        if let Some((ok, m)) = &self.message {
            let color = if *ok {
                ui.visuals().text_color()
            } else {
                Color32::from_rgb(0xFF, 0x60, 0x60)
            };
            ui.add(egui::Label::new(RichText::new(m).color(color)).wrap());
        }
        match self.result(&id).cloned() {
            Some(CheckState::Running) => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(t("Checking…"));
                });
            }
            Some(CheckState::Failed(e)) => {
                ui.colored_label(Color32::from_rgb(0xFF, 0x60, 0x60), e);
            }
            Some(CheckState::Done(r)) => result_view(ui, &r, lang),
            None => {}
        }
        if let Some(text) = cat.exercise(&id).and_then(|e| {
            e.texts
                .get(&lang)
                .or_else(|| e.texts.values().next())
                .cloned()
        }) {
            egui::CollapsingHeader::new(t("Task"))
                .default_open(true)
                .show(ui, |ui| markdown(ui, &text));
        }
    }
}

/// Points and feedback per check, then the total.
fn result_view(ui: &mut egui::Ui, r: &SubmissionResult, lang: Lang) {
    let t = |s: &'static str| tr(lang, s);
    if let SubmissionStatus::Rejected(why) | SubmissionStatus::InternalError(why) = &r.status {
        ui.colored_label(Color32::from_rgb(0xFF, 0x60, 0x60), why);
    }
    let full = r.score >= r.max_score;
    let color = if full {
        Color32::from_rgb(0x40, 0xC0, 0x60)
    } else {
        Color32::from_rgb(0xF0, 0xA0, 0x30)
    };
    ui.label(
        RichText::new(format!(
            "{} {:.2} / {:.2}",
            t("Points:"),
            r.score,
            r.max_score
        ))
        .strong()
        .color(color),
    );
    for c in &r.checks {
        let mark = if c.passed { t("ok") } else { t("failed") };
        ui.label(
            RichText::new(format!(
                "{mark}  {:.2}/{:.2}  {}",
                c.score, c.max_score, c.name
            ))
            .monospace(),
        );
        if !c.passed && !c.output.trim().is_empty() {
            ui.add(egui::Label::new(RichText::new(c.output.trim()).small()).wrap());
        }
    }
    for n in &r.notes {
        ui.add(egui::Label::new(RichText::new(n).weak()).wrap());
    }
}
