//! The course in the window: the guided lessons and the graded exercises
//! as two tabs of one panel, in the language chosen for the window. Course
//! folders that did not load are listed above the tabs with the file, the
//! line and the reason, and the course can be reloaded once they are fixed.

use std::path::{Path, PathBuf};

use egui::{Color32, RichText};

use super::exercises::ExercisesPanel;
use super::i18n::{tr, trf};
use super::lessons_panel::LessonsPanel;
use super::session::Session;
use crate::lesson::catalog::BrokenFolder;
use crate::lesson::{Catalog, Lang};

/// Which part of the course is shown.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CourseTab {
    /// The guided lessons.
    #[default]
    Lessons,
    /// The graded exercises.
    Exercises,
}

/// The course panel.
pub struct CoursePanel {
    /// The lessons.
    pub lessons: LessonsPanel,
    /// The exercises.
    pub exercises: ExercisesPanel,
    /// The tab shown.
    pub tab: CourseTab,
    /// Course folders left out because they did not load.
    pub broken: Vec<BrokenFolder>,
    /// Where the course was loaded from (`None`: found as `hc11lab lesson`
    /// finds it, or bundled); Reload reads it again.
    root: Option<PathBuf>,
}

/// Where a broken folder's message points: `file:line` when it names a
/// line (a TOML or text error), else the file or the folder.
pub fn broken_place(b: &BrokenFolder) -> String {
    let file = b
        .message
        .split_once(": ")
        .map(|(f, _)| f)
        .filter(|f| Path::new(f).extension().is_some())
        .map(str::to_string)
        .unwrap_or_else(|| b.dir.display().to_string());
    // `... at line 3, column 1` (TOML) or `line 3: ...` (lesson text).
    let line = b.message.split("line ").nth(1).and_then(|rest| {
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u32>().ok()
    });
    match line {
        Some(l) => format!("{file}:{l}"),
        None => file,
    }
}

impl CoursePanel {
    /// Lessons and exercises with progress and copies in `data_dir`.
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        Self::with_root(data_dir, None)
    }

    /// The course of the folder `root` (`None`: the default course), with
    /// progress and copies in `data_dir`. Loaded once for both tabs.
    pub fn with_root(data_dir: Option<PathBuf>, root: Option<PathBuf>) -> Self {
        let catalog = load(root.as_deref());
        let broken = catalog
            .as_ref()
            .map(|c| c.broken.clone())
            .unwrap_or_default();
        CoursePanel {
            lessons: LessonsPanel::with_catalog(data_dir.clone(), catalog.clone()),
            exercises: ExercisesPanel::with_catalog(data_dir, catalog),
            tab: CourseTab::Lessons,
            broken,
            root,
        }
    }

    /// Reads the course again (after a broken folder was fixed).
    pub fn reload(&mut self) {
        let catalog = load(self.root.as_deref());
        self.broken = catalog
            .as_ref()
            .map(|c| c.broken.clone())
            .unwrap_or_default();
        self.lessons.set_catalog(catalog.clone());
        self.exercises.set_catalog(catalog);
    }

    /// Switches the language of the lessons.
    pub fn set_lang(&mut self, lang: Lang) {
        if self.lessons.lang() != lang {
            self.lessons.set_lang(lang);
        }
    }

    /// True while something runs in the background (a check).
    pub fn busy(&self) -> bool {
        self.exercises.busy()
    }

    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let lang = session.lang();
        self.set_lang(lang);
        self.broken_ui(ui, lang);
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tab, CourseTab::Lessons, tr(lang, "Lessons"));
            ui.selectable_value(&mut self.tab, CourseTab::Exercises, tr(lang, "Exercises"));
        });
        ui.separator();
        egui::ScrollArea::vertical()
            .id_salt("course")
            .auto_shrink([false, false])
            .show(ui, |ui| match self.tab {
                CourseTab::Lessons => {
                    self.lessons.ui(ui, session);
                    // The panel's own language button switches the window too.
                    if self.lessons.lang() != lang {
                        session.set_lang(self.lessons.lang());
                    }
                }
                CourseTab::Exercises => self.exercises.ui(ui, session, lang),
            });
        if self.tab != CourseTab::Lessons {
            // Lessons see key presses and resets even while hidden.
            self.lessons.observe(session);
        }
    }

    /// The folders that did not load: where (file:line), why, and what to
    /// do; the rest of the course works meanwhile.
    fn broken_ui(&mut self, ui: &mut egui::Ui, lang: Lang) {
        if self.broken.is_empty() {
            return;
        }
        let red = Color32::from_rgb(0xF0, 0x60, 0x60);
        ui.label(
            RichText::new(trf(
                lang,
                "{} course folder(s) left out: they did not load",
                &[&self.broken.len()],
            ))
            .color(red)
            .strong(),
        );
        for b in &self.broken {
            ui.label(RichText::new(broken_place(b)).monospace().color(red));
            ui.add(egui::Label::new(RichText::new(&b.message).monospace().small()).wrap());
        }
        ui.add(
            egui::Label::new(tr(
                lang,
                "Fix the file at the place shown (the message says what the parser expected), \
                 then reload the course. The other lessons and exercises work meanwhile.",
            ))
            .wrap(),
        );
        if ui.button(tr(lang, "Reload course")).clicked() {
            self.reload();
        }
        ui.separator();
    }
}

/// The course of `root`, else the default one, as the panels take it.
fn load(root: Option<&Path>) -> Result<Catalog, String> {
    let loaded = match root {
        Some(r) => Catalog::load(r),
        None => Catalog::load_default(),
    };
    loaded.map_err(|e| e.to_string())
}
