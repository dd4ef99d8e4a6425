//! The lessons panel: pick a lesson, read the current step, do it in the
//! debugger, see it checked. The engine is `crate::lesson`; this file only
//! shows its state and feeds it what the student did (keys, resets, pixels
//! and bytes selected for explanation, answers). Progress is saved to the
//! data folder the app passes in.

use std::path::PathBuf;
use std::sync::Arc;

use egui::{Color32, RichText};

use super::i18n::tr as window_tr;
use super::links::Selection;
use super::markdown::{drawable, markdown};

/// `text` with the characters the fonts lack replaced (see [`drawable`]).
fn plain(ui: &egui::Ui, text: &str) -> String {
    drawable(ui.ctx(), &egui::TextStyle::Body.resolve(ui.style()), text)
}
use super::session::{Origin, Session, UserEvent};
use super::AppInput;
use crate::cpu::Registers;
use crate::image::Program;
use crate::lesson::i18n::{ui as tr, Ui};
use crate::lesson::live::explained;
use crate::lesson::program::LessonProgram;
use crate::lesson::{
    Catalog, Event, Explained, Kind, Lang, LessonRun, Probe, Progress, Question, Subject,
};

/// What the engine may ask the GUI's session.
struct SessionProbe<'a> {
    session: &'a Session,
    frame: super::lcd::LcdFrame,
}

impl Probe for SessionProbe<'_> {
    fn program(&self) -> Option<&Program> {
        self.session.program().map(|p| p.as_ref())
    }
    fn peek(&self, addr: u16) -> u8 {
        self.session.peek(addr)
    }
    fn registers(&self) -> Option<Registers> {
        self.session.registers().map(|(now, _)| now)
    }
    fn paused(&self) -> bool {
        self.session.is_paused()
    }
    fn breakpoints(&self) -> Vec<u16> {
        // The debugger's list, so a breakpoint typed with a condition
        // (Debug -> Breakpoints...) counts as well as one from the gutter.
        self.session.breakpoints()
    }
    fn pixel(&self, x: usize, y: usize) -> Option<bool> {
        (x < super::lcd::WIDTH && y < super::lcd::HEIGHT).then(|| self.frame.get(x, y))
    }
    fn serial(&self) -> String {
        self.session.serial_text()
    }
}

/// The lessons panel (its state is runtime only; progress goes to disk).
pub struct LessonsPanel {
    catalog: Option<Catalog>,
    load_error: Option<String>,
    lang: Lang,
    run: Option<LessonRun>,
    progress: Progress,
    data_dir: Option<PathBuf>,
    save_error: Option<String>,
    answer: String,
    /// The step shown, if the student browses back; `None` = the current one.
    viewing: Option<usize>,
    last_cycles: u64,
    last_selection: Option<Selection>,
    /// The lesson just opened still has to load its program into the session.
    load_program: bool,
    /// Why the open lesson's program could not be loaded.
    program_error: Option<String>,
}

impl LessonsPanel {
    /// Loads the course and the saved progress from `data_dir` (no saving
    /// without one). The language is the saved one, else the system's.
    pub fn new(data_dir: Option<PathBuf>) -> Self {
        Self::with_catalog(data_dir, Catalog::load_default().map_err(|e| e.to_string()))
    }

    /// The same on a course already loaded (or the error loading it).
    pub fn with_catalog(data_dir: Option<PathBuf>, catalog: Result<Catalog, String>) -> Self {
        let (catalog, load_error) = match catalog {
            Ok(c) => (Some(c), None),
            Err(e) => (None, Some(e)),
        };
        let (progress, save_error) = match data_dir.as_deref().map(Progress::load) {
            Some(Ok(p)) => (p, None),
            Some(Err(e)) => (Progress::default(), Some(e.to_string())),
            None => (Progress::default(), None),
        };
        let lang = progress.language.unwrap_or_else(Lang::from_env);
        LessonsPanel {
            catalog,
            load_error,
            lang,
            run: None,
            progress,
            data_dir,
            save_error,
            answer: String::new(),
            viewing: None,
            last_cycles: 0,
            last_selection: None,
            load_program: false,
            program_error: None,
        }
    }

    /// Replaces the course (reloaded from disk); the open lesson stays open.
    pub fn set_catalog(&mut self, catalog: Result<Catalog, String>) {
        match catalog {
            Ok(c) => {
                self.catalog = Some(c);
                self.load_error = None;
            }
            Err(e) => self.load_error = Some(e),
        }
    }

    /// Switches the language of the panel and the open lesson.
    pub fn set_lang(&mut self, lang: Lang) {
        self.lang = lang;
        if let Some(run) = self.run.as_mut() {
            run.set_lang(lang);
        }
    }

    /// The language shown.
    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// The open lesson's run, if any (for tests and the status bar).
    pub fn run(&self) -> Option<&LessonRun> {
        self.run.as_ref()
    }

    /// Opens lesson `id` where the student left it.
    pub fn open(&mut self, id: &str) {
        let Some(lesson) = self
            .catalog
            .as_ref()
            .and_then(|c| c.lesson(id))
            .map(Arc::clone)
        else {
            return;
        };
        let saved = self.progress.lesson(id);
        self.run = Some(LessonRun::resume(lesson, self.lang, &saved));
        self.viewing = None;
        self.answer.clear();
        // The session gets the lesson's program at the next frame.
        self.load_program = true;
        self.program_error = None;
    }

    /// Loads the open lesson's program (`program`, `board`, `dialect`,
    /// `rom` of its lesson.toml; the bundled Viergewinnt on trainer11
    /// without them) into the session, unless that is what it runs.
    fn ensure_program(&mut self, session: &mut Session) {
        if !std::mem::take(&mut self.load_program) {
            return;
        }
        let Some(run) = &self.run else { return };
        let spec = match LessonProgram::of(run.lesson()) {
            Ok(p) => p,
            Err(e) => {
                self.program_error = Some(e);
                return;
            }
        };
        let origin = match &spec.path {
            None => Origin::Bundled,
            Some(p) => Origin::Path(p.clone()),
        };
        let key = spec.board_key();
        let same_board = match session.board_key() {
            Some(k) => k == key,
            None => {
                let chosen = crate::board::config::command_line_board()
                    .map_or_else(|| "trainer11".to_string(), |(name, _)| name);
                key == chosen
            }
        };
        let same_dialect = spec.path.is_none() || session.dialect() == spec.dialect;
        if session.origin.as_ref() == Some(&origin) && same_board && same_dialect {
            return;
        }
        match spec.board_setup() {
            Ok(setup) => {
                let input = match &spec.path {
                    None => AppInput::Bundled,
                    Some(p) => AppInput::Path(p.clone()),
                };
                session.open_on(input, spec.dialect, (key, setup));
            }
            Err(e) => self.program_error = Some(e),
        }
    }

    /// Gives `text` as the answer to the open lesson's current step, as
    /// the answer field and its button do; returns whether it was right.
    pub fn submit_answer(&mut self, text: &str, session: &Session) -> bool {
        let Some(run) = self.run.as_mut() else {
            return false;
        };
        let probe = SessionProbe {
            session,
            frame: session.lcd_frame(),
        };
        let outcome = run.answer(text, &probe);
        self.viewing = None;
        self.save();
        outcome.passed
    }

    /// The lesson after the open one in course order: (id, title).
    pub fn next_lesson(&self) -> Option<(String, String)> {
        let cat = self.catalog.as_ref()?;
        let current = &self.run.as_ref()?.lesson().id;
        let at = cat.lessons.iter().position(|l| &l.id == current)?;
        let next = cat.lessons.get(at + 1)?;
        Some((next.id.clone(), next.title(self.lang).to_string()))
    }

    fn save(&mut self) {
        if let Some(run) = &self.run {
            self.progress.set_lesson(&run.lesson().id, run.progress());
        }
        self.progress.language = Some(self.lang);
        if let Some(dir) = &self.data_dir {
            self.save_error = self.progress.save(dir).err().map(|e| e.to_string());
        }
    }

    /// Turns what happened since the last frame into engine events;
    /// `labels` are the link labels of a new selection.
    fn observe_events(
        &mut self,
        probe: &SessionProbe<'_>,
        labels: (Vec<String>, bool),
        events: &[UserEvent],
    ) -> bool {
        let session = probe.session;
        // Track the session also while no lesson is open, so that opening
        // one does not report old presses as new. Resets and key presses come
        // from the session's event feed; a falling cycle counter still counts
        // as a reset (a reload of the program resets the board too).
        let cycles = session.cycles();
        let reset = events.contains(&UserEvent::Reset) || cycles < self.last_cycles;
        self.last_cycles = cycles;
        let selected = (session.selection != self.last_selection).then_some(session.selection);
        self.last_selection = session.selection;
        let Some(run) = self.run.as_mut() else {
            return false;
        };
        let mut changed = false;
        if reset {
            changed |= run.note(&Event::Reset, probe);
        }
        for e in events {
            if let UserEvent::Key(k) = e {
                changed |= run.note(&Event::Key(*k), probe);
            }
        }
        let subject = match selected.flatten() {
            Some(Selection::Pixel { x, y }) => Some(Subject::Pixel { x, y }),
            Some(Selection::BufferByte(a)) => Some(Subject::Address(a)),
            _ => None,
        };
        if let Some(subject) = subject {
            let (labels, traced) = labels;
            let ev = Event::Explained(Explained {
                subject,
                labels,
                traced,
            });
            changed |= run.note(&ev, probe);
        }
        changed | run.update(probe)
    }

    /// Feeds the open lesson what the student did since the last frame
    /// (every frame, also while the panel is not shown).
    pub fn observe(&mut self, session: &mut Session) {
        self.ensure_program(session);
        // Links need `&mut Session` (they are computed lazily): take them
        // before the read-only probe borrows the session.
        let labels = if session.selection != self.last_selection {
            explanation_labels(session)
        } else {
            (Vec::new(), false)
        };
        let events = session.take_user_events();
        let session: &Session = session;
        let probe = SessionProbe {
            session,
            frame: session.lcd_frame(),
        };
        if self.observe_events(&probe, labels, &events) {
            self.viewing = None;
            self.save();
        }
    }

    /// Shows the panel (and observes, see [`Self::observe`]).
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        self.observe(session);
        let session: &Session = session;
        let probe = SessionProbe {
            session,
            frame: session.lcd_frame(),
        };
        ui.horizontal(|ui| {
            ui.label(RichText::new(tr(self.lang, Ui::Course)).strong());
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let other = self.lang.other();
                if ui
                    .small_button(other.code().to_uppercase())
                    .on_hover_text(other.name())
                    .clicked()
                {
                    self.set_lang(other);
                    self.save();
                }
            });
        });
        if let Some(e) = &self.load_error {
            ui.colored_label(Color32::LIGHT_RED, e);
            return;
        }
        self.picker(ui);
        if let Some(e) = &self.save_error {
            ui.colored_label(Color32::LIGHT_RED, e);
        }
        if let Some(e) = &self.program_error {
            ui.add(egui::Label::new(RichText::new(e).color(Color32::LIGHT_RED)).wrap());
        }
        if let Some(spec) = self
            .run
            .as_ref()
            .and_then(|r| LessonProgram::of(r.lesson()).ok())
            .filter(|p| !p.is_bundled())
        {
            let line = format!(
                "{}: {}",
                tr(self.lang, Ui::Program),
                spec.describe(self.lang)
            );
            ui.add(egui::Label::new(RichText::new(plain(ui, &line)).weak()).wrap());
        }
        // Without a lesson the picker above says to pick one.
        if self.run.is_some() {
            self.step_view(ui, &probe);
        }
    }

    fn picker(&mut self, ui: &mut egui::Ui) {
        let Some(cat) = &self.catalog else { return };
        let current = self.run.as_ref().map(|r| r.lesson().id.clone());
        let title = current
            .as_deref()
            .and_then(|id| cat.lesson(id))
            .map_or_else(
                || tr(self.lang, Ui::PickLesson).to_string(),
                |l| l.title(self.lang).to_string(),
            );
        let mut pick = None;
        // The label names the box for screen readers (and kittest); on its
        // own line, so a narrow column does not squeeze it letter by letter.
        let label = ui.label(tr(self.lang, Ui::Lessons));
        egui::ComboBox::from_id_salt("lesson-picker")
            .selected_text(title)
            .width((ui.available_width() - 8.0).max(120.0))
            .show_ui(ui, |ui| {
                for e in cat.list(self.lang) {
                    if e.kind == Kind::Exercise {
                        continue;
                    }
                    let done = self
                        .progress
                        .lessons
                        .get(&e.id)
                        .is_some_and(|p| p.completed);
                    let mark = if done { "✔ " } else { "" };
                    let text = plain(ui, &format!("{mark}{}", e.title));
                    if ui
                        .selectable_label(current.as_deref() == Some(&e.id), text)
                        .clicked()
                    {
                        pick = Some(e.id.clone());
                    }
                }
            })
            .response
            .labelled_by(label.id);
        if let Some(id) = pick {
            self.open(&id);
        }
    }

    fn step_view(&mut self, ui: &mut egui::Ui, probe: &SessionProbe<'_>) {
        let lang = self.lang;
        let next = self.next_lesson();
        let Some(run) = self.run.as_mut() else { return };
        let count = run.step_count();
        let current = run.current();
        if run.finished() && self.viewing.is_none() {
            ui.label(RichText::new(tr(lang, Ui::Finished)).color(Color32::LIGHT_GREEN));
            let mut open_next = None;
            ui.horizontal_wrapped(|ui| {
                if ui.button(tr(lang, Ui::Previous)).clicked() {
                    self.viewing = Some(count.saturating_sub(1));
                }
                if ui.button(tr(lang, Ui::Restart)).clicked() {
                    run.restart();
                }
                if let Some((id, title)) = &next {
                    if ui
                        .button(window_tr(lang, "Next lesson"))
                        .on_hover_text(title.as_str())
                        .clicked()
                    {
                        open_next = Some(id.clone());
                    }
                }
            });
            if let Some(id) = open_next {
                self.open(&id);
                self.save();
            }
            return;
        }
        let shown = self.viewing.unwrap_or(current).min(count.saturating_sub(1));
        if shown == current {
            if let Some(text) = run.lesson().text(lang) {
                if current == 0 && !text.intro.is_empty() {
                    egui::CollapsingHeader::new(tr(lang, Ui::Intro))
                        .default_open(run.tries(0) == 0)
                        .show(ui, |ui| markdown(ui, &text.intro));
                }
            }
        }
        let Some(view) = run.view(shown) else { return };
        let heading = format!(
            "{} {} {} {}: {}",
            tr(lang, Ui::Step),
            shown + 1,
            tr(lang, Ui::Of),
            count,
            view.heading
        );
        ui.label(RichText::new(plain(ui, &heading)).strong());
        markdown(ui, view.body);
        let mut submit: Option<String> = None;
        if shown == current {
            match view.question {
                Question::Number => {
                    ui.horizontal(|ui| {
                        let edit = ui.add(
                            egui::TextEdit::singleline(&mut self.answer)
                                .hint_text(tr(lang, Ui::YourAnswer))
                                .desired_width(120.0),
                        );
                        let enter =
                            edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                        if ui.button(tr(lang, Ui::Answer)).clicked() || enter {
                            submit = Some(self.answer.clone());
                        }
                    });
                }
                Question::Choice => {
                    for c in view.choices {
                        let text = plain(ui, &format!("{}) {}", c.key, c.text));
                        if ui.add(egui::Button::new(text).wrap()).clicked() {
                            submit = Some(c.key.clone());
                        }
                    }
                }
                Question::None => {}
            }
            for (i, h) in view.hints.iter().enumerate() {
                let n = if view.hints_total > 1 {
                    format!(" {}", i + 1)
                } else {
                    String::new()
                };
                ui.label(RichText::new(format!("{}{n}:", tr(lang, Ui::Hint))).italics());
                markdown(ui, h);
            }
        } else if view.done {
            ui.label(
                RichText::new(plain(ui, &format!("✔ {}", tr(lang, Ui::Done))))
                    .color(Color32::LIGHT_GREEN),
            );
        }
        let mut check = false;
        ui.horizontal(|ui| {
            if ui
                .add_enabled(shown > 0, egui::Button::new(tr(lang, Ui::Previous)))
                .clicked()
            {
                self.viewing = Some(shown - 1);
            }
            if shown < current && ui.button(tr(lang, Ui::Next)).clicked() {
                self.viewing = (shown + 1 < current).then_some(shown + 1);
            }
            if shown == current
                && view.question == Question::None
                && ui.button(tr(lang, Ui::Check)).clicked()
            {
                check = true;
            }
        });
        let tries = view.tries;
        let mut changed = false;
        if let Some(text) = submit {
            // The feedback repeats a wrong number, so the field can start empty.
            run.answer(&text, probe);
            self.answer.clear();
            changed = true;
        }
        if check {
            run.check_now(probe);
            changed = true;
        }
        if shown == current {
            if let Some(f) = run.feedback() {
                let color = if f.ok {
                    Color32::LIGHT_GREEN
                } else {
                    Color32::from_rgb(255, 190, 90)
                };
                let message = plain(ui, &f.message);
                ui.add(egui::Label::new(RichText::new(message).color(color)).wrap());
            }
            if tries > 0 {
                ui.label(RichText::new(format!("{}: {}", tr(lang, Ui::Tries), tries)).weak());
            }
        }
        if changed {
            self.save();
        }
    }
}

/// Labels along the explanation of the new selection and whether they come
/// from recorded provenance: the debugger's chain (pixel -> SPDR store ->
/// buffer load -> buffer store) when it can answer, else the links the GUI
/// shows (routines of the linked lines, labels of the linked bytes).
fn explanation_labels(session: &mut Session) -> (Vec<String>, bool) {
    if let Some(d) = session.debugger() {
        let traced = match session.selection {
            Some(Selection::Pixel { x, y }) => d
                .explain_pixel(x as usize, y as usize)
                .ok()
                .map(|e| explained(Subject::Pixel { x, y }, &e)),
            Some(Selection::BufferByte(a)) => d
                .explain_address(a)
                .ok()
                .map(|e| explained(Subject::Address(a), &e)),
            _ => None,
        };
        if let Some(e) = traced {
            return (e.labels, e.traced);
        }
    }
    let Some(program) = session.program().cloned() else {
        return (Vec::new(), false);
    };
    let links = session.links().clone();
    let mut labels: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if !labels.iter().any(|l| l == name) {
            labels.push(name.to_string());
        }
    };
    for (file, line, _) in &links.lines {
        for entry in program.addrs_of_line(*file, *line) {
            if let Some((s, _)) = program.label_for(entry.addr) {
                add(&s.name);
            }
        }
    }
    for (addr, _) in &links.bytes {
        if let Some((s, _)) = program.label_for(*addr) {
            add(&s.name);
        }
    }
    (labels, links.provenance)
}
