//! The eframe application: window layout, menus, run controls and
//! shortcuts, loading and reloading, persistence. Panels live in their own
//! files; this one arranges them around the LCD and the cell buffer.
//!
//! The arrangement follows the window's size (see [`super::layout`]):
//! listing, LCD column, debugger, course and bottom tabs side by side on a
//! large screen, one tabbed pane beside the LCD on a small one.

use std::time::Duration;

use egui::{Color32, Key, KeyboardShortcut, Modifiers, RichText};

use super::autorun::Autorun;
use super::bench_panel::BenchPanel;
use super::cells::CellBufferPanel;
use super::course::CoursePanel;
use super::goto::GotoLabel;
use super::i18n::tr;
use super::keys::keys_widget;
use super::layout::{self, Mode};
use super::lcd::LcdPanel;
use super::listing::ListingPanel;
use super::memory::MemoryPanel;
use super::panels::{self, ProblemsPanel};
use super::serial::SerialPanel;
use super::session::{BottomTab, Pane, Session, Settings, SideTab, Speed};
use super::side::SidePanel;
use super::theme::{self, Theme};
use super::watcher::SourceWatcher;
use super::web_files::WebFiles;
use super::AppInput;
use crate::platform::Instant;

mod bars;

/// Storage key of [`Settings`].
pub const SETTINGS_KEY: &str = "hc11lab.settings";

/// Run / continue.
pub const RUN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F5);
/// Pause.
pub const PAUSE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::SHIFT, Key::F5);
/// Step into.
pub const STEP: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F11);
/// Step over.
pub const OVER: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F10);
/// Step out.
pub const OUT: KeyboardShortcut = KeyboardShortcut::new(Modifiers::SHIFT, Key::F11);
/// Step back (undo the last step or run).
pub const BACK: KeyboardShortcut = KeyboardShortcut::new(Modifiers::CTRL, Key::F11);
/// Toggle a breakpoint on the selected line.
pub const BREAK: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F9);
/// Reset the board.
pub const RESET: KeyboardShortcut = KeyboardShortcut::new(Modifiers::CTRL, Key::R);
/// Run to the selected line (or the line of the selected address).
pub const RUN_TO_CURSOR: KeyboardShortcut = KeyboardShortcut::new(Modifiers::CTRL, Key::F10);
/// Go to a label (type to filter).
pub const GOTO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::CTRL, Key::P);
/// Open a file.
pub const OPEN: KeyboardShortcut = KeyboardShortcut::new(Modifiers::CTRL, Key::O);

/// Frame times of the last frames, for the overlay and the autorun log.
#[derive(Default)]
pub struct FrameStats {
    /// Time of the app's own work per frame (UI and emulation), most
    /// recent last (bounded).
    pub times: Vec<Duration>,
    /// eframe's CPU time per frame (UI, tessellation, GL calls, but not the
    /// buffer swap where a software rasterizer does most of its work), as
    /// it reports it one frame later.
    pub totals: Vec<Duration>,
    /// Wall-clock time from one frame's start to the next: the whole frame
    /// (with the swap) while frames are drawn back to back, the frame rate
    /// the user sees.
    pub intervals: Vec<Duration>,
    /// Frames counted in total.
    pub frames: u64,
}

fn push_bounded(v: &mut Vec<Duration>, d: Duration) {
    if v.len() == FrameStats::KEEP {
        v.remove(0);
    }
    v.push(d);
}

/// (mean, 95th percentile, max) in milliseconds.
fn summarize(v: &[Duration]) -> (f64, f64, f64) {
    let mut ms: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(|a, b| a.total_cmp(b));
    let (Some(max), false) = (ms.last().copied(), ms.is_empty()) else {
        return (0.0, 0.0, 0.0);
    };
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    let p95 = ms
        .get(((ms.len() - 1) as f64 * 0.95) as usize)
        .copied()
        .unwrap_or(max);
    (mean, p95, max)
}

impl FrameStats {
    const KEEP: usize = 2000;

    fn push(&mut self, d: Duration) {
        push_bounded(&mut self.times, d);
        self.frames += 1;
    }

    /// (mean, 95th percentile, max) in milliseconds of the app's own time.
    pub fn summary(&self) -> (f64, f64, f64) {
        summarize(&self.times)
    }

    /// The same for eframe's whole frame.
    pub fn total_summary(&self) -> (f64, f64, f64) {
        summarize(&self.totals)
    }

    /// Starts over.
    pub fn clear(&mut self) {
        self.times.clear();
        self.totals.clear();
        self.intervals.clear();
        self.frames = 0;
    }

    /// The statistics as `key value` lines.
    pub fn report(&self) -> String {
        let (m, p, x) = self.summary();
        let (tm, tp, tx) = self.total_summary();
        let (im, ip, ix) = summarize(&self.intervals);
        format!(
            "frames {}\nframe_ms_mean {m:.3}\nframe_ms_p95 {p:.3}\nframe_ms_max {x:.3}\n\
             total_ms_mean {tm:.3}\ntotal_ms_p95 {tp:.3}\ntotal_ms_max {tx:.3}\n\
             whole_ms_mean {im:.3}\nwhole_ms_p95 {ip:.3}\nwhole_ms_max {ix:.3}",
            self.frames
        )
    }
}

/// Room left under a menu's last item (points): the popup's frame.
const MENU_MARGIN: f32 = 12.0;

/// A Debug menu entry: label, shortcut, what it does.
type MenuItem = (&'static str, &'static KeyboardShortcut, fn(&mut Session));

/// The app: the session plus the panels' own view state.
pub struct App {
    /// The session all panels work on.
    pub session: Session,
    listing: ListingPanel,
    lcd: LcdPanel,
    cells: CellBufferPanel,
    memory: MemoryPanel,
    serial: SerialPanel,
    problems: ProblemsPanel,
    side: SidePanel,
    /// The lab bench.
    pub bench: BenchPanel,
    /// The course: lessons and exercises.
    pub course: CoursePanel,
    /// Files from the browser's dialogs and drops, downloads, the page's files.
    pub files: WebFiles,
    goto: GotoLabel,
    mouse_keys: u8,
    /// Frame timing.
    pub stats: FrameStats,
    autorun: Option<Autorun>,
    last_frame: Option<Instant>,
    sent_title: String,
    /// The rectangle each panel got in the last frame, by name (for the
    /// layout tests: inside the window, none over another).
    rects: Vec<(&'static str, egui::Rect)>,
    /// The arrangement of the last frame.
    mode: Option<Mode>,
    /// Theme and text size applied to the context (applied again on change).
    applied_look: Option<(Theme, u8)>,
    watcher: Option<SourceWatcher>,
    /// The course was drawn this frame (else the lessons observe anyway).
    course_drawn: bool,
}

impl App {
    /// The app as eframe creates it: settings from storage, then the
    /// initial program.
    pub fn new(
        cc: &eframe::CreationContext<'_>,
        initial: AppInput,
        autorun: Option<Autorun>,
    ) -> Self {
        let settings: Settings = if autorun.is_some() {
            // A scripted run (CI screenshots) must not depend on what an
            // earlier interactive session left behind: neither our settings
            // nor egui's memory (panel sizes, scroll offsets), which eframe
            // loads from the same storage.
            cc.egui_ctx.memory_mut(|m| *m = egui::Memory::default());
            Settings::default()
        } else {
            cc.storage
                .and_then(|s| eframe::get_value(s, SETTINGS_KEY))
                .unwrap_or_default()
        };
        let mut app = Self::with_settings(settings, initial, autorun);
        if app.autorun.is_none() {
            // Lesson progress and exercise copies live in the user's data
            // folder (tests and scripted runs keep none).
            app.course = CoursePanel::new(crate::lesson::progress::default_dir());
            // The language saved with lesson progress (older versions kept
            // it only there) counts until the window has its own.
            match app.session.settings.language {
                Some(l) => app.course.set_lang(l),
                None => {
                    let l = app.course.lessons.lang();
                    app.session.set_lang(l);
                }
            }
            // Edits made in another editor reload the program even while
            // the window is idle (no frames are drawn then).
            app.watcher = Some(SourceWatcher::start(&cc.egui_ctx));
            super::editor::keep_recovery(&mut app.session);
        }
        // Files a browser dialog reads arrive between frames: show them.
        let ctx = cc.egui_ctx.clone();
        crate::platform::dialog::set_waker(move || ctx.request_repaint());
        app
    }

    /// The app on given settings (tests use this; no storage, no window).
    pub fn with_settings(settings: Settings, initial: AppInput, autorun: Option<Autorun>) -> Self {
        let mut session = Session::new(settings);
        session.edits.close_ok = autorun.is_some(); // a scripted run closes itself
        session.open(initial);
        // A scripted run that works with the course names its own folder.
        let mut course = CoursePanel::new(autorun.as_ref().and_then(|a| a.data.clone()));
        course.set_lang(session.lang());
        App {
            session,
            listing: ListingPanel::default(),
            lcd: LcdPanel::default(),
            cells: CellBufferPanel::default(),
            memory: MemoryPanel::default(),
            serial: SerialPanel::default(),
            problems: ProblemsPanel,
            side: SidePanel::default(),
            bench: BenchPanel::default(),
            course,
            files: WebFiles::default(),
            goto: GotoLabel::default(),
            mouse_keys: 0,
            stats: FrameStats::default(),
            autorun,
            last_frame: None,
            sent_title: String::new(),
            rects: Vec::new(),
            mode: None,
            applied_look: None,
            watcher: None,
            course_drawn: false,
        }
    }

    /// The course panel with its own data folder (tests: progress and
    /// exercise copies in a scratch folder).
    pub fn with_course_dir(mut self, dir: std::path::PathBuf) -> Self {
        self.course = CoursePanel::new(Some(dir));
        self.course.set_lang(self.session.lang());
        self
    }

    /// The course of the folder `root` with its own data folder (tests: a
    /// course with broken folders).
    pub fn with_course(mut self, dir: std::path::PathBuf, root: std::path::PathBuf) -> Self {
        self.course = CoursePanel::with_root(Some(dir), Some(root));
        self.course.set_lang(self.session.lang());
        self
    }

    /// The rectangle each panel got in the last frame, by name.
    pub fn panel_rects(&self) -> &[(&'static str, egui::Rect)] {
        &self.rects
    }

    /// The arrangement used in the last frame.
    pub fn mode(&self) -> Option<Mode> {
        self.mode
    }

    /// Draws one frame into `ui` (the whole window) and advances the machine.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let start = Instant::now();
        let ctx = ui.ctx().clone();
        let since = self.last_frame.map(|t| start.duration_since(t));
        if let Some(d) = since {
            push_bounded(&mut self.stats.intervals, d);
        }
        // Real time holds down to four frames a second (a browser drawing in
        // software); a longer stall is not caught up.
        let dt = since
            .unwrap_or(Duration::from_millis(16))
            .min(Duration::from_millis(250));
        self.last_frame = Some(start);
        self.apply_look(&ctx);

        super::editor::frame(&ctx, &mut self.session, &mut self.listing);
        self.shortcuts(&ctx);
        // A file or folder dropped on the window opens like File > Open. (A
        // page knows only the name of a dropped file, not its path: the
        // platform reads those and `files` opens them.)
        let dropped = ctx
            .input(|i| i.raw.dropped_files.first().map(|f| f.path().to_path_buf()))
            .filter(|p| p.is_absolute());
        if let Some(p) = dropped {
            self.session.open(AppInput::Path(p));
        }
        self.files.show(&ctx, &mut self.session);
        let held = super::editor::board_keys(&ctx, &self.session) | self.mouse_keys;
        self.session.set_held_keys(held);
        if let Some(a) = &mut self.autorun {
            a.drive(&mut self.session, &ctx, &self.stats.report());
            a.drive_course(&mut self.course, &mut self.session);
            if std::mem::take(&mut a.reset_stats) {
                self.stats.clear();
            }
        }
        self.session.advance(dt);
        self.session.poll_source_change();
        if let Some(w) = &self.watcher {
            w.watch(self.session.watched_files());
        }

        // The panels leave their background to the window's clear colour
        // (see `clear_color`): filling every panel again would shade each
        // of the window's million pixels once more per frame, which a
        // software rasterizer (Mesa llvmpipe under Xvfb) pays for in full.
        let side = egui::Frame::side_top_panel(ui.style()).fill(Color32::TRANSPARENT);
        let central = egui::Frame::central_panel(ui.style()).fill(Color32::TRANSPARENT);
        let arrangement = layout::arrange(ui.max_rect().size());
        self.mode = Some(arrangement.mode);
        self.rects.clear();
        if let Some(tab) = self.session.take_asked_tab() {
            // The session asked for a bottom tab (Problems after a failed
            // load, Memory for "show in memory"): the compact pane follows.
            self.session.settings.pane = match tab {
                BottomTab::Memory => Pane::Memory,
                BottomTab::Serial => Pane::Serial,
                BottomTab::Problems => Pane::Problems,
            };
        }
        let r = egui::Panel::top("menu")
            .frame(side)
            .show(ui, |ui| self.menu_bar(ui));
        self.rects.push(("menu", r.response.rect));
        let r = egui::Panel::top("toolbar")
            .frame(side)
            .show(ui, |ui| self.toolbar(ui));
        self.rects.push(("toolbar", r.response.rect));
        let r = egui::Panel::bottom("status")
            .frame(side)
            .show(ui, |ui| self.status_bar(ui));
        self.rects.push(("status", r.response.rect));
        self.course_drawn = false;
        match arrangement.mode {
            Mode::Compact => self.compact(ui, &arrangement, side, central),
            Mode::Normal | Mode::Wide => self.regular(ui, &arrangement, side, central),
        }
        if !self.course_drawn {
            // A lesson step done while another tab is shown still counts.
            self.course.lessons.observe(&mut self.session);
        }

        self.goto.ui(&ctx, &mut self.session);
        super::editor::dialogs::show(&ctx, &mut self.session);
        if self.session.settings.frame_overlay {
            self.overlay(&ctx);
        }
        if let Some((f, l)) = self.session.take_jump() {
            self.listing.reveal(f, l);
        }
        if self.session.is_running() || self.session.take_repaint() || self.course.busy() {
            ctx.request_repaint();
        }
        self.stats.push(start.elapsed());
    }

    /// Listing left, LCD / link bar / cell buffer in the middle, debugger
    /// (and course) right, keys and memory at the bottom.
    fn regular(
        &mut self,
        ui: &mut egui::Ui,
        a: &layout::Arrangement,
        side: egui::Frame,
        central: egui::Frame,
    ) {
        let r = egui::Panel::bottom("bottom")
            .frame(side)
            .resizable(true)
            .default_size(a.bottom.default)
            .size_range(a.bottom.range)
            .show(ui, |ui| self.bottom(ui));
        self.rects.push(("bottom", r.response.rect));
        let r = egui::Panel::left("listing")
            .frame(side)
            .resizable(true)
            .default_size(a.listing.default)
            .size_range(a.listing.range)
            .show(ui, |ui| self.listing.ui(ui, &mut self.session));
        self.rects.push(("listing", r.response.rect));
        if a.mode == Mode::Wide {
            let r = egui::Panel::right("course")
                .frame(side)
                .resizable(true)
                .default_size(a.course.default)
                .size_range(a.course.range)
                // The course panel heads itself ("Course" and its language).
                .show(ui, |ui| self.course_ui(ui));
            self.rects.push(("course", r.response.rect));
        }
        let r = egui::Panel::right("side")
            .frame(side)
            .resizable(true)
            .default_size(a.side.default)
            .size_range(a.side.range)
            .show(ui, |ui| {
                let lang = self.session.lang();
                let wide = a.mode == Mode::Wide;
                if wide && self.session.settings.side_tab == SideTab::Course {
                    // The course has its own column there.
                    self.session.settings.side_tab = SideTab::Debugger;
                }
                // Wrapped: at a large text size the three tabs are wider
                // than the column.
                ui.horizontal_wrapped(|ui| {
                    let tab = &mut self.session.settings.side_tab;
                    ui.selectable_value(tab, SideTab::Debugger, tr(lang, "Debugger"));
                    if !wide {
                        ui.selectable_value(tab, SideTab::Course, tr(lang, "Course"));
                    }
                    ui.selectable_value(tab, SideTab::Bench, tr(lang, "Bench"));
                });
                ui.separator();
                match self.session.settings.side_tab {
                    SideTab::Debugger => self.side_ui(ui),
                    SideTab::Course => self.course_ui(ui),
                    SideTab::Bench => self.bench.ui(ui, &mut self.session),
                }
            });
        self.rects.push(("side", r.response.rect));
        let r = egui::CentralPanel::default()
            .frame(central)
            .show(ui, |ui| self.center(ui));
        self.rects.push(("center", r.response.rect));
    }

    /// Narrow windows: one tabbed pane, and a column with the LCD, the
    /// keys, the link bar and the cell buffer.
    fn compact(
        &mut self,
        ui: &mut egui::Ui,
        a: &layout::Arrangement,
        side: egui::Frame,
        central: egui::Frame,
    ) {
        let r = egui::Panel::right("lcd-column")
            .frame(side)
            .resizable(false)
            .exact_size(a.lcd_column)
            .show(ui, |ui| {
                egui::ScrollArea::vertical()
                    .id_salt("lcd-column")
                    .auto_shrink([false, false])
                    .show(ui, |ui| {
                        if self.session.shows_lcd() {
                            self.lcd.ui(ui, &mut self.session);
                        } else {
                            self.no_lcd_note(ui);
                        }
                        if self.session.shows_keys() {
                            self.keys(ui);
                        }
                        ui.separator();
                        panels::link_bar(ui, &mut self.session);
                        ui.add_space(2.0);
                        self.cells.ui(ui, &mut self.session);
                    });
            });
        self.rects.push(("lcd-column", r.response.rect));
        let r = egui::CentralPanel::default().frame(central).show(ui, |ui| {
            let lang = self.session.lang();
            let tabs = [
                (Pane::Listing, tr(lang, "Listing").to_string()),
                (Pane::Debugger, tr(lang, "Debugger").to_string()),
                (Pane::Course, tr(lang, "Course").to_string()),
                (Pane::Memory, tr(lang, "Memory").to_string()),
                (Pane::Serial, tr(lang, "Serial").to_string()),
                (Pane::Problems, self.problems_label()),
                (Pane::Bench, tr(lang, "Bench").to_string()),
            ];
            pane_tabs(ui, &mut self.session.settings.pane, &tabs, tr(lang, "Pane"));
            ui.separator();
            match self.session.settings.pane {
                Pane::Listing => self.listing.ui(ui, &mut self.session),
                Pane::Debugger => self.side_ui(ui),
                Pane::Course => self.course_ui(ui),
                Pane::Memory => self.memory.ui(ui, &mut self.session),
                Pane::Serial => self.serial.ui(ui, &mut self.session),
                Pane::Problems => self.problems.ui(ui, &mut self.session),
                Pane::Bench => self.bench.ui(ui, &mut self.session),
            }
        });
        self.rects.push(("pane", r.response.rect));
    }

    fn side_ui(&mut self, ui: &mut egui::Ui) {
        // Both ways: what does not wrap (a long breakpoint spec at a large
        // text size) scrolls inside the column instead of widening it over
        // the centre.
        egui::ScrollArea::both()
            .id_salt("side")
            .auto_shrink([false, false])
            .show(ui, |ui| self.side.ui(ui, &mut self.session));
    }

    fn course_ui(&mut self, ui: &mut egui::Ui) {
        self.course_drawn = true;
        self.course.ui(ui, &mut self.session);
    }

    fn center(&mut self, ui: &mut egui::Ui) {
        // Whatever does not fit the height scrolls; nothing is drawn over
        // a neighbour.
        egui::ScrollArea::vertical()
            .id_salt("center")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                if self.session.shows_lcd() {
                    self.lcd.ui(ui, &mut self.session);
                } else {
                    self.no_lcd_note(ui);
                }
                panels::link_bar(ui, &mut self.session);
                ui.add_space(2.0);
                self.cells.ui(ui, &mut self.session);
            });
    }

    fn problems_label(&self) -> String {
        let lang = self.session.lang();
        let n = self.session.problems.len();
        if n == 0 {
            tr(lang, "Problems").to_string()
        } else {
            format!("{} ({n})", tr(lang, "Problems"))
        }
    }

    /// In place of the LCD on a board without one: where the output goes.
    fn no_lcd_note(&self, ui: &mut egui::Ui) {
        let lang = self.session.lang();
        ui.label(tr(
            lang,
            "This board has no LCD: the program's output is on the Serial tab.",
        ));
    }

    /// The board keys with a hint that says what a press does now.
    fn keys(&mut self, ui: &mut egui::Ui) {
        let lang = self.session.lang();
        ui.label(RichText::new(tr(lang, "Board keys")).strong());
        let (held, clicked) = keys_widget(ui, self.session.keys_down(), lang);
        // A click shorter than a frame is still a press: it is held until
        // the program has had the debounce time to see it.
        self.mouse_keys = held | clicked;
        let hint = if self.session.is_running() {
            tr(lang, "Keys go to the running program.")
        } else if self.session.has_machine() {
            tr(
                lang,
                "Paused: a key pressed now is held until the program runs (F5) and reads it.",
            )
        } else {
            tr(lang, "No program loaded.")
        };
        ui.add(egui::Label::new(RichText::new(hint).weak()).wrap());
    }

    fn bottom(&mut self, ui: &mut egui::Ui) {
        let lang = self.session.lang();
        ui.horizontal_top(|ui| {
            let keys_w = (ui.available_width() * 0.3).clamp(200.0, 330.0);
            ui.vertical(|ui| {
                ui.set_width(keys_w);
                if self.session.shows_keys() {
                    self.keys(ui);
                } else {
                    ui.label(tr(
                        lang,
                        "This board has no keys: type into the Serial tab.",
                    ));
                }
            });
            ui.separator();
            ui.vertical(|ui| {
                let problems = self.problems_label();
                ui.horizontal(|ui| {
                    let tab = &mut self.session.settings.bottom_tab;
                    ui.selectable_value(tab, BottomTab::Memory, tr(lang, "Memory"));
                    ui.selectable_value(tab, BottomTab::Serial, tr(lang, "Serial"));
                    ui.selectable_value(tab, BottomTab::Problems, problems);
                });
                match self.session.settings.bottom_tab {
                    BottomTab::Memory => self.memory.ui(ui, &mut self.session),
                    BottomTab::Serial => self.serial.ui(ui, &mut self.session),
                    BottomTab::Problems => self.problems.ui(ui, &mut self.session),
                }
            });
        });
    }

    /// Theme and text size from the settings, applied when they change.
    fn apply_look(&mut self, ctx: &egui::Context) {
        let look = (self.session.settings.theme, self.session.settings.font_size);
        if self.applied_look == Some(look) {
            return;
        }
        self.applied_look = Some(look);
        theme::apply(ctx, look.0, look.1);
    }

    fn shortcuts(&mut self, ctx: &egui::Context) {
        let s = &mut self.session;
        let pressed = |sc: &KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(sc));
        // Longer modifier combinations first, so Shift+F11 is not taken as F11.
        if pressed(&BACK) {
            s.step_back();
        }
        if pressed(&OUT) {
            s.step_out();
        }
        if pressed(&PAUSE) {
            s.pause();
        }
        if pressed(&RUN_TO_CURSOR) {
            s.run_to_selection();
        }
        if pressed(&RUN) {
            s.run();
        }
        if pressed(&STEP) {
            s.step_into();
        }
        if pressed(&OVER) {
            s.step_over();
        }
        if pressed(&BREAK) {
            s.toggle_breakpoint_at_selection();
        }
        if pressed(&RESET) {
            s.reset();
        }
        if pressed(&OPEN) {
            s.open_dialog(false);
        }
        if pressed(&GOTO) {
            self.goto.open();
        }
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label(self.session.title());
            ui.separator();
            ui.add(egui::Label::new(&self.session.status).truncate());
        });
    }

    fn overlay(&self, ctx: &egui::Context) {
        let (mean, p95, max) = self.stats.summary();
        let (tmean, tp95, tmax) = self.stats.total_summary();
        let (wmean, wp95, wmax) = summarize(&self.stats.intervals);
        egui::Area::new(egui::Id::unique("frame-overlay"))
            .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-8.0, 40.0))
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.label(
                        RichText::new(format!(
                            "app (ui + emulation): mean {mean:.2} ms, p95 {p95:.2}, max {max:.2}\n\
                             cpu per frame (+ tessellate, GL): mean {tmean:.2} ms, p95 {tp95:.2}, max {tmax:.2}\n\
                             frame to frame (+ swap): mean {wmean:.2} ms, p95 {wp95:.2}, max {wmax:.2}"
                        ))
                        .monospace(),
                    );
                });
            });
    }
}

impl eframe::App for App {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        if let Some(s) = frame.info().cpu_usage {
            push_bounded(&mut self.stats.totals, Duration::from_secs_f32(s));
        }
        self.show(ui);
        // Sent only when it changes: every viewport command asks for
        // another frame, and not every window system reports the title back
        // (Xvfb without a window manager does not), so comparing with the
        // viewport's title would repaint forever.
        let unsaved = super::editor::title_mark(&self.session);
        let title = format!("hc11lab — {}{unsaved}", self.session.title());
        if self.sent_title != title {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.sent_title = title;
        }
    }

    fn clear_color(&self, visuals: &egui::Visuals) -> [f32; 4] {
        // The panels are transparent (see `show`): the clear is their fill.
        visuals.panel_fill.to_normalized_gamma_f32()
    }

    fn persist_egui_memory(&self) -> bool {
        self.autorun.is_none()
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.autorun.is_none() {
            eframe::set_value(storage, SETTINGS_KEY, &self.session.settings);
        }
    }
}

/// The compact pane's tabs in one row where they fit, else a menu of them
/// (at HiDPI scale 2 on a small screen the row wrapped into three and left
/// the listing two lines).
fn pane_tabs(ui: &mut egui::Ui, pane: &mut Pane, tabs: &[(Pane, String)], name: &str) {
    let button = |text: &str| {
        egui::WidgetText::from(text)
            .into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Button,
            )
            .size()
            .x
            + 2.0 * ui.spacing().button_padding.x
    };
    let row: f32 = tabs.iter().map(|(_, t)| button(t)).sum::<f32>()
        + ui.spacing().item_spacing.x * tabs.len().saturating_sub(1) as f32;
    if row <= ui.available_width() {
        ui.horizontal(|ui| {
            for (p, t) in tabs {
                ui.selectable_value(pane, *p, t.as_str());
            }
        });
        return;
    }
    let current = tabs
        .iter()
        .find(|(p, _)| p == pane)
        .map_or(String::new(), |(_, t)| t.clone());
    ui.horizontal(|ui| {
        let label = ui.label(name);
        egui::ComboBox::from_id_salt("pane-tabs")
            .selected_text(current)
            .show_ui(ui, |ui| {
                for (p, t) in tabs {
                    ui.selectable_value(pane, *p, t.as_str());
                }
            })
            .response
            .labelled_by(label.id);
    });
}
