//! The window's menu bar and toolbar: what each menu holds and the run
//! controls, all calling the session as the shortcuts do.

use super::*;

/// A menu's items in a scroll area no taller than the window leaves under
/// the menu bar, so a menu taller than the window (the Debug menu at
/// 1024x600 on a HiDPI screen) still reaches its last item.
fn menu_items(ui: &mut egui::Ui, id: &str, add: impl FnOnce(&mut egui::Ui)) {
    let room = ui.ctx().content_rect().bottom() - ui.cursor().top() - MENU_MARGIN;
    egui::ScrollArea::vertical()
        .id_salt(("menu", id))
        .max_height(room.max(48.0))
        .show(ui, add);
}

impl App {
    pub(super) fn menu_bar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let lang = self.session.lang();
        let t = |s: &'static str| tr(lang, s);
        let sc = |k: &KeyboardShortcut| ctx.format_shortcut(k);
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button(t("File"), |ui| {
                menu_items(ui, "file", |ui| {
                    crate::ui::editor::file_menu(ui, &mut self.session, &mut self.listing);
                    if ui
                        .add(egui::Button::new(t("Open file…")).shortcut_text(sc(&OPEN)))
                        .clicked()
                    {
                        self.session.open_dialog(false);
                        ui.close();
                    }
                    if ui.button(t("Open folder…")).clicked() {
                        self.session.open_dialog(true);
                        ui.close();
                    }
                    if ui.button(t("Open bundled Viergewinnt")).clicked() {
                        self.session.open(AppInput::Bundled);
                        ui.close();
                    }
                    if ui.button(t("Reload")).clicked() {
                        self.session.reload();
                        ui.close();
                    }
                    ui.menu_button(t("Source dialect"), |ui| {
                        for d in crate::asm::Dialect::ALL {
                            let label = match d {
                                crate::asm::Dialect::Course => t("Course (default)"),
                                crate::asm::Dialect::As11 => t("AS11 (Motorola freeware)"),
                                crate::asm::Dialect::Asm11 => t("ASM11 (full)"),
                            };
                            if ui.radio(self.session.dialect() == d, label).clicked() {
                                self.session.set_dialect(d);
                                ui.close();
                            }
                        }
                    });
                    if ui
                        .button(t("Save a copy of the sources…"))
                        .on_hover_text(t(
                            "Write the program's source files into a folder you choose and open \
                         that copy: edit it in your editor, the window reloads on every save.",
                        ))
                        .clicked()
                    {
                        self.session.save_sources_dialog();
                        ui.close();
                    }
                    self.files.menu(ui, &mut self.session);
                    ui.menu_button(t("Recent"), |ui| {
                        let recent = self.session.settings.recent.clone();
                        if recent.is_empty() {
                            ui.weak(t("(none)"));
                        }
                        for p in recent {
                            if ui.button(p.display().to_string()).clicked() {
                                self.session.open(AppInput::Path(p));
                                ui.close();
                            }
                        }
                    });
                    ui.separator();
                    if ui.button(t("Quit")).clicked() {
                        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                });
            });
            let (s, l) = (&mut self.session, &mut self.listing);
            ui.menu_button(t("Edit"), |ui| {
                menu_items(ui, "edit", |ui| crate::ui::editor::edit_menu(ui, s, l))
            });
            ui.menu_button(t("Debug"), |ui| {
                menu_items(ui, "debug", |ui| {
                    let items: [MenuItem; 9] = [
                        ("Run / continue", &RUN, Session::run),
                        ("Pause", &PAUSE, Session::pause),
                        ("Step into", &STEP, Session::step_into),
                        ("Step over", &OVER, Session::step_over),
                        ("Step out", &OUT, Session::step_out),
                        ("Step back", &BACK, Session::step_back),
                        ("Run to cursor", &RUN_TO_CURSOR, Session::run_to_selection),
                        (
                            "Toggle breakpoint",
                            &BREAK,
                            Session::toggle_breakpoint_at_selection,
                        ),
                        ("Reset board", &RESET, Session::reset),
                    ];
                    for (label, k, f) in items {
                        if ui
                            .add(egui::Button::new(t(label)).shortcut_text(sc(k)))
                            .clicked()
                        {
                            f(&mut self.session);
                            ui.close();
                        }
                    }
                    if ui
                        .button(t("Breakpoints..."))
                        .on_hover_text(t(
                            "The breakpoint list in the side column: add one with a hit count \
                         or a condition (`drawCell if [cellAddress].w == 136`, `readInput:3`)",
                        ))
                        .clicked()
                    {
                        self.session.settings.side_tab = SideTab::Debugger;
                        self.session.settings.pane = Pane::Debugger;
                        self.side.focus_breakpoint_field();
                        ui.close();
                    }
                    if ui
                        .add(egui::Button::new(t("Go to label…")).shortcut_text(sc(&GOTO)))
                        .clicked()
                    {
                        self.goto.open();
                        ui.close();
                    }
                    ui.separator();
                    for sp in [Speed::RealTime, Speed::Times10, Speed::Max] {
                        ui.radio_value(&mut self.session.settings.speed, sp, t(sp.label()));
                    }
                    ui.separator();
                    let mut record = self.session.settings.record_links;
                    if ui
                        .checkbox(&mut record, t("Record data flow (links)"))
                        .on_hover_text(t(
                            "Record which instruction stored and loaded every byte: what the \
                         links between listing, buffer and LCD are made of. Off, the \
                         machine runs several times faster; links then cover only what \
                         ran with recording on.",
                        ))
                        .changed()
                    {
                        self.session.set_record_links(record);
                    }
                });
            });
            ui.menu_button(t("View"), |ui| {
                menu_items(ui, "view", |ui| {
                    ui.checkbox(&mut self.session.settings.lcd.grid, t("LCD page grid"));
                    ui.checkbox(
                        &mut self.session.settings.frame_overlay,
                        t("Frame time overlay"),
                    );
                    if ui.button(t("Clear selection")).clicked() {
                        self.session.clear_selection();
                        ui.close();
                    }
                    ui.separator();
                    let s = &mut self.session.settings;
                    ui.radio_value(&mut s.theme, Theme::Dark, t("Dark theme"));
                    ui.radio_value(&mut s.theme, Theme::Light, t("Light theme"));
                    ui.add(
                        egui::Slider::new(
                            &mut s.font_size,
                            theme::FONT_SIZES.0..=theme::FONT_SIZES.1,
                        )
                        .text(t("Text size")),
                    );
                    ui.separator();
                    let mut lang = self.session.lang();
                    ui.horizontal(|ui| {
                        ui.label(t("Language"));
                        for l in crate::lesson::Lang::ALL {
                            ui.radio_value(&mut lang, l, l.name());
                        }
                    });
                    if lang != self.session.lang() {
                        self.session.set_lang(lang);
                        self.course.set_lang(lang);
                    }
                });
            });
        });
    }

    pub(super) fn toolbar(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        let sc = |k: &KeyboardShortcut| ctx.format_shortcut(k);
        let lang = self.session.lang();
        let t = |s: &'static str| tr(lang, s);
        let s = &mut self.session;
        let has_machine = s.has_machine();
        ui.horizontal_wrapped(|ui| {
            let running = s.is_running();
            let b = |ui: &mut egui::Ui, enabled: bool, label: &str, tip: String| {
                ui.add_enabled(enabled, egui::Button::new(label))
                    .on_hover_text(tip)
                    .on_disabled_hover_text(t("needs a loaded program"))
                    .clicked()
            };
            let idle = has_machine && !running;
            if b(
                ui,
                idle,
                t("Run"),
                format!("{} ({})", t("Run / continue"), sc(&RUN)),
            ) {
                s.run();
            }
            if b(
                ui,
                running,
                t("Pause"),
                format!("{} ({})", t("Pause"), sc(&PAUSE)),
            ) {
                s.pause();
            }
            if b(
                ui,
                idle,
                t("Step"),
                format!("{} ({})", t("Step into"), sc(&STEP)),
            ) {
                s.step_into();
            }
            if b(
                ui,
                idle,
                t("Over"),
                format!("{} ({})", t("Step over"), sc(&OVER)),
            ) {
                s.step_over();
            }
            if b(
                ui,
                idle,
                t("Out"),
                format!("{} ({})", t("Step out"), sc(&OUT)),
            ) {
                s.step_out();
            }
            if b(
                ui,
                idle && s.can_step_back(),
                t("Step back"),
                format!(
                    "{} ({})",
                    t("Step back: undo the last step or run"),
                    sc(&BACK)
                ),
            ) {
                s.step_back();
            }
            if b(
                ui,
                has_machine,
                t("Reset"),
                format!("{} ({})", t("Reset the board"), sc(&RESET)),
            ) {
                s.reset();
            }
            ui.separator();
            egui::ComboBox::from_id_salt("speed")
                .selected_text(t(s.settings.speed.label()))
                .show_ui(ui, |ui| {
                    for sp in [Speed::RealTime, Speed::Times10, Speed::Max] {
                        ui.selectable_value(&mut s.settings.speed, sp, t(sp.label()));
                    }
                })
                .response
                .on_hover_text(t("Run speed"));
            ui.separator();
            // Fixed width: the buttons do not move as the count grows.
            ui.label(RichText::new(format!("{} {:>11}", t("cycles"), s.cycles())).monospace())
                .on_hover_text(t("E-clock cycles since reset (2 MHz)"));
            ui.add(egui::Label::new(RichText::new(s.run_state_text()).strong()).truncate());
            crate::ui::editor::run_badge(ui, s);
        });
    }
}
