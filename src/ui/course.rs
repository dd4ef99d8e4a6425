//! The course in the window: the guided lessons and the graded exercises
//! as two tabs of one panel, in the language chosen for the window.

use std::path::PathBuf;

use super::exercises::ExercisesPanel;
use super::i18n::tr;
use super::lessons_panel::LessonsPanel;
use super::session::Session;
use crate::lesson::Lang;

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
}

impl CoursePanel {
    /// Lessons and exercises with progress and copies in `data_dir`.
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        CoursePanel {
            lessons: LessonsPanel::new(data_dir.clone()),
            exercises: ExercisesPanel::new(data_dir),
            tab: CourseTab::Lessons,
        }
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
}
