//! The eframe application: window layout, menus, run controls and
//! shortcuts, loading and reloading, persistence. Panels live in their own
//! files; this one arranges them around the LCD and the cell buffer.
//!
//! Layout at 1280x800 (scales up): listing on the left, LCD + link bar +
//! cell buffer in the middle, registers / call stack / watch on the right
//! (with room below for the lessons panel), keys and memory / serial /
//! problems at the bottom.

use std::time::{Duration, Instant};

use egui::{Color32, Key, KeyboardShortcut, Modifiers, RichText};

use super::autorun::Autorun;
use super::cells::CellBufferPanel;
use super::keys::{keyboard_keys, keys_widget};
use super::lcd::LcdPanel;
use super::lessons_panel::LessonsPanel;
use super::listing::ListingPanel;
use super::memory::MemoryPanel;
use super::panels::{self, ProblemsPanel, SerialPanel, SidePanel};
use super::session::{BottomTab, Session, Settings, Speed};
use super::AppInput;

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
    lessons: LessonsPanel,
    mouse_keys: u8,
    /// Frame timing.
    pub stats: FrameStats,
    autorun: Option<Autorun>,
    last_frame: Option<Instant>,
    sent_title: String,
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
            // Lesson progress lives in the user's data folder (tests and
            // scripted runs keep none).
            app.lessons = LessonsPanel::new(crate::lesson::progress::default_dir());
        }
        app
    }

    /// The app on given settings (tests use this; no storage, no window).
    pub fn with_settings(settings: Settings, initial: AppInput, autorun: Option<Autorun>) -> Self {
        let mut session = Session::new(settings);
        session.open(initial);
        App {
            session,
            listing: ListingPanel::default(),
            lcd: LcdPanel::default(),
            cells: CellBufferPanel::default(),
            memory: MemoryPanel::default(),
            serial: SerialPanel,
            problems: ProblemsPanel,
            side: SidePanel::default(),
            lessons: LessonsPanel::new(None),
            mouse_keys: 0,
            stats: FrameStats::default(),
            autorun,
            last_frame: None,
            sent_title: String::new(),
        }
    }

    /// Draws one frame into `ui` (the whole window) and advances the machine.
    pub fn show(&mut self, ui: &mut egui::Ui) {
        let start = Instant::now();
        let ctx = ui.ctx().clone();
        let since = self.last_frame.map(|t| start.duration_since(t));
        if let Some(d) = since {
            push_bounded(&mut self.stats.intervals, d);
        }
        let dt = since
            .unwrap_or(Duration::from_millis(16))
            .min(Duration::from_millis(100));
        self.last_frame = Some(start);

        self.shortcuts(&ctx);
        // A file or folder dropped on the window opens like File > Open.
        let dropped = ctx
            .input(|i| i.raw.dropped_files.first().map(|f| f.path().to_path_buf()))
            .filter(|p| !p.as_os_str().is_empty());
        if let Some(p) = dropped {
            self.session.open(AppInput::Path(p));
        }
        let held = keyboard_keys(&ctx) | self.mouse_keys;
        self.session.set_held_keys(held);
        if let Some(a) = &mut self.autorun {
            a.drive(&mut self.session, &ctx, &self.stats.report());
            if std::mem::take(&mut a.reset_stats) {
                self.stats.clear();
            }
        }
        self.session.advance(dt);
        self.session.poll_source_change();

        // The panels leave their background to the window's clear colour
        // (see `clear_color`): filling every panel again would shade each
        // of the window's million pixels once more per frame, which a
        // software rasterizer (Mesa llvmpipe under Xvfb) pays for in full.
        let side = egui::Frame::side_top_panel(ui.style()).fill(Color32::TRANSPARENT);
        let central = egui::Frame::central_panel(ui.style()).fill(Color32::TRANSPARENT);
        egui::Panel::top("menu")
            .frame(side)
            .show(ui, |ui| self.menu_bar(ui));
        egui::Panel::top("toolbar")
            .frame(side)
            .show(ui, |ui| self.toolbar(ui));
        egui::Panel::bottom("status")
            .frame(side)
            .show(ui, |ui| self.status_bar(ui));
        egui::Panel::bottom("bottom")
            .frame(side)
            .resizable(true)
            .default_size(180.0)
            .min_size(120.0)
            .show(ui, |ui| self.bottom(ui));
        egui::Panel::left("listing")
            .frame(side)
            .resizable(true)
            .default_size(540.0)
            .min_size(260.0)
            .show(ui, |ui| self.listing.ui(ui, &mut self.session));
        egui::Panel::right("side")
            .frame(side)
            .resizable(true)
            .default_size(270.0)
            .min_size(200.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().id_salt("side").show(ui, |ui| {
                    self.side.ui(ui, &mut self.session);
                    ui.separator();
                    self.lessons.ui(ui, &mut self.session);
                });
            });
        egui::CentralPanel::default()
            .frame(central)
            .show(ui, |ui| self.center(ui));

        if self.session.settings.frame_overlay {
            self.overlay(&ctx);
        }
        if let Some((f, l)) = self.session.take_jump() {
            self.listing.reveal(f, l);
        }
        if self.session.is_running() {
            ctx.request_repaint();
        }
        self.stats.push(start.elapsed());
    }

    fn center(&mut self, ui: &mut egui::Ui) {
        self.lcd.ui(ui, &mut self.session);
        panels::link_bar(ui, &mut self.session);
        ui.add_space(2.0);
        self.cells.ui(ui, &mut self.session);
    }

    fn bottom(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_top(|ui| {
            ui.vertical(|ui| {
                ui.set_width(330.0);
                ui.label(RichText::new("Board keys").strong());
                let (held, _) = keys_widget(ui, self.session.keys_down());
                self.mouse_keys = held;
                ui.weak("Keys act while the program runs (F5).");
            });
            ui.separator();
            ui.vertical(|ui| {
                ui.horizontal(|ui| {
                    let tab = &mut self.session.settings.bottom_tab;
                    ui.selectable_value(tab, BottomTab::Memory, "Memory");
                    ui.selectable_value(tab, BottomTab::Serial, "Serial");
                    let n = self.session.problems.len();
                    let label = if n == 0 {
                        "Problems".to_string()
                    } else {
                        format!("Problems ({n})")
                    };
                    ui.selectable_value(tab, BottomTab::Problems, label);
                });
                match self.session.settings.bottom_tab {
                    BottomTab::Memory => self.memory.ui(ui, &mut self.session),
                    BottomTab::Serial => self.serial.ui(ui, &mut self.session),
                    BottomTab::Problems => self.problems.ui(ui, &mut self.session),
                }
            });
        });
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
    }

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let sc = |k: &KeyboardShortcut| ctx.format_shortcut(k);
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui
                    .add(egui::Button::new("Open file…").shortcut_text(sc(&OPEN)))
                    .clicked()
                {
                    self.session.open_dialog(false);
                    ui.close();
                }
                if ui.button("Open folder…").clicked() {
                    self.session.open_dialog(true);
                    ui.close();
                }
                if ui.button("Open bundled Viergewinnt").clicked() {
                    self.session.open(AppInput::Bundled);
                    ui.close();
                }
                if ui.button("Reload").clicked() {
                    self.session.reload();
                    ui.close();
                }
                ui.menu_button("Recent", |ui| {
                    let recent = self.session.settings.recent.clone();
                    if recent.is_empty() {
                        ui.weak("(none)");
                    }
                    for p in recent {
                        if ui.button(p.display().to_string()).clicked() {
                            self.session.open(AppInput::Path(p));
                            ui.close();
                        }
                    }
                });
                ui.separator();
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Debug", |ui| {
                let items: [MenuItem; 8] = [
                    ("Run / continue", &RUN, Session::run),
                    ("Pause", &PAUSE, Session::pause),
                    ("Step into", &STEP, Session::step_into),
                    ("Step over", &OVER, Session::step_over),
                    ("Step out", &OUT, Session::step_out),
                    ("Step back", &BACK, Session::step_back),
                    (
                        "Toggle breakpoint",
                        &BREAK,
                        Session::toggle_breakpoint_at_selection,
                    ),
                    ("Reset board", &RESET, Session::reset),
                ];
                for (label, k, f) in items {
                    if ui
                        .add(egui::Button::new(label).shortcut_text(sc(k)))
                        .clicked()
                    {
                        f(&mut self.session);
                        ui.close();
                    }
                }
                if ui
                    .button("Breakpoints...")
                    .on_hover_text(
                        "The breakpoint list in the side column: add one with a hit count \
                         or a condition (`drawCell if [cellAddress].w == 136`, `readInput:3`)",
                    )
                    .clicked()
                {
                    self.side.focus_breakpoint_field();
                    ui.close();
                }
                ui.separator();
                for sp in [Speed::RealTime, Speed::Times10, Speed::Max] {
                    ui.radio_value(&mut self.session.settings.speed, sp, sp.label());
                }
                ui.separator();
                let mut record = self.session.settings.record_links;
                if ui
                    .checkbox(&mut record, "Record data flow (links)")
                    .on_hover_text(
                        "Record which instruction stored and loaded every byte: what the \
                         links between listing, buffer and LCD are made of. Off, the \
                         machine runs several times faster; links then cover only what \
                         ran with recording on.",
                    )
                    .changed()
                {
                    self.session.set_record_links(record);
                }
            });
            ui.menu_button("View", |ui| {
                ui.checkbox(&mut self.session.settings.lcd.grid, "LCD page grid");
                ui.checkbox(
                    &mut self.session.settings.frame_overlay,
                    "Frame time overlay",
                );
                if ui.button("Clear selection").clicked() {
                    self.session.clear_selection();
                    ui.close();
                }
            });
        });
    }

    fn toolbar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let sc = |k: &KeyboardShortcut| ctx.format_shortcut(k);
        let s = &mut self.session;
        let has_machine = s.has_machine();
        ui.horizontal(|ui| {
            let running = s.is_running();
            let b = |ui: &mut egui::Ui, enabled: bool, label: &str, tip: String| {
                ui.add_enabled(enabled, egui::Button::new(label))
                    .on_hover_text(tip)
                    .on_disabled_hover_text("needs a loaded program")
                    .clicked()
            };
            if b(
                ui,
                has_machine && !running,
                "Run",
                format!("Run / continue ({})", sc(&RUN)),
            ) {
                s.run();
            }
            if b(ui, running, "Pause", format!("Pause ({})", sc(&PAUSE))) {
                s.pause();
            }
            if b(
                ui,
                has_machine && !running,
                "Step",
                format!("Step into ({})", sc(&STEP)),
            ) {
                s.step_into();
            }
            if b(
                ui,
                has_machine && !running,
                "Over",
                format!("Step over ({})", sc(&OVER)),
            ) {
                s.step_over();
            }
            if b(
                ui,
                has_machine && !running,
                "Out",
                format!("Step out ({})", sc(&OUT)),
            ) {
                s.step_out();
            }
            if b(
                ui,
                has_machine && !running && s.can_step_back(),
                "Back",
                format!("Step back: undo the last step or run ({})", sc(&BACK)),
            ) {
                s.step_back();
            }
            if b(
                ui,
                has_machine,
                "Reset",
                format!("Reset the board ({})", sc(&RESET)),
            ) {
                s.reset();
            }
            ui.separator();
            egui::ComboBox::from_id_salt("speed")
                .selected_text(s.settings.speed.label())
                .show_ui(ui, |ui| {
                    for sp in [Speed::RealTime, Speed::Times10, Speed::Max] {
                        ui.selectable_value(&mut s.settings.speed, sp, sp.label());
                    }
                })
                .response
                .on_hover_text("Run speed");
            ui.separator();
            ui.label(RichText::new(format!("cycles {}", s.cycles())).monospace())
                .on_hover_text("E-clock cycles since reset (2 MHz)");
            ui.label(RichText::new(s.run_state_text()).strong());
        });
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            ui.label(self.session.title());
            ui.separator();
            ui.label(&self.session.status);
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
        let title = format!("hc11lab — {}", self.session.title());
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
