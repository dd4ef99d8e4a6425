//! The debugger column: registers and CCR (M68HC11 RM section 3.1), the
//! stop reason, the call stack, the breakpoint list with conditions and
//! hit counts, and the watches.

use std::collections::HashMap;

use egui::{Color32, RichText};

use super::i18n::{tr, trf};
use super::links::Selection;
use super::registers::registers_widget;
use super::session::Session;

/// The id of breakpoint `id`'s text field.
fn edit_id(id: u32) -> egui::Id {
    egui::Id::unique(("breakpoint-spec", id))
}

/// The side column: registers and CCR, stop reason, stack, breakpoints,
/// watches. The lessons panel goes below these when it exists.
#[derive(Default)]
pub struct SidePanel {
    new_watch: String,
    /// The "add breakpoint" field and the parser's error for it.
    new_break: String,
    new_break_error: Option<String>,
    /// Breakpoints being edited: id -> (text, error of the last attempt).
    editing: HashMap<u32, (String, Option<String>)>,
    /// Set by Debug > Breakpoints...: open the section and focus its add field.
    focus_add_break: bool,
}

/// Colour of parser errors shown inline.
const ERROR: Color32 = Color32::from_rgb(0xFF, 0x60, 0x60);

impl SidePanel {
    /// Opens the Breakpoints section and puts the cursor into its "add
    /// breakpoint" field on the next frame (Debug > Breakpoints...).
    pub fn focus_breakpoint_field(&mut self) {
        self.focus_add_break = true;
    }

    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let lang = session.lang();
        ui.label(RichText::new(tr(lang, "Registers")).strong());
        match session.registers() {
            Some((now, before)) => {
                // PC: the code label it is in. X, Y, SP: a label only if the
                // value points into a data label's bytes (`board+136`).
                let code = |a: u16| -> Option<String> {
                    let p = session.program()?;
                    let (s, off) = p.label_for(a)?;
                    Some(if off == 0 {
                        s.name.clone()
                    } else {
                        format!("{}+{off}", s.name)
                    })
                };
                let data = |a: u16| -> Option<String> {
                    let p = session.program()?;
                    let (s, off) = p.label_for(a)?;
                    let inside = off == 0 || s.size.is_some_and(|n| (off as u32) < n);
                    inside.then(|| {
                        if off == 0 {
                            s.name.clone()
                        } else {
                            format!("{}+{off}", s.name)
                        }
                    })
                };
                let name = |reg: &str, a: u16| if reg == "PC" { code(a) } else { data(a) };
                registers_widget(ui, &now, &before, &name, lang);
                ui.label(
                    RichText::new(trf(
                        lang,
                        "cycles {}  ·  instructions {}",
                        &[&session.cycles(), &session.instructions()],
                    ))
                    .monospace(),
                );
                if let Some(r) = session.stop_text() {
                    ui.add(egui::Label::new(format!("{} {r}", tr(lang, "Stop:"))).wrap());
                }
            }
            None => {
                ui.weak(tr(lang, "No machine (nothing loaded)."));
            }
        }
        ui.separator();
        egui::CollapsingHeader::new(tr(lang, "Call stack"))
            .default_open(true)
            .show(ui, |ui| {
                if let Some(pc) = session.pc() {
                    ui.label(
                        RichText::new(format!("${pc:04X}{}", session.describe(pc))).monospace(),
                    );
                }
                let frames = session.call_stack();
                if frames.is_empty() {
                    ui.weak(tr(lang, "(top level)"));
                }
                for f in frames {
                    let site = match (&f.call_site.file, f.call_site.line) {
                        (Some(file), Some(line)) => {
                            let name = std::path::Path::new(file)
                                .file_name()
                                .map(|n| n.to_string_lossy().into_owned())
                                .unwrap_or_else(|| file.clone());
                            trf(lang, " from {}:{}", &[&name, &line])
                        }
                        _ => String::new(),
                    };
                    let text = format!("{} (${:04X}){site}", f.label, f.target);
                    let r = ui.link(RichText::new(text).monospace());
                    let r = match &f.doubt {
                        Some(d) => {
                            r.on_hover_text(trf(lang, "not trusted: {}", &[&format!("{d:?}")]))
                        }
                        None => r.on_hover_text(trf(
                            lang,
                            "{} frame; returns to {} (${})",
                            &[&f.kind, &f.return_label, &format!("{:04X}", f.return_addr)],
                        )),
                    };
                    if r.clicked() {
                        if let Some(e) = session
                            .program()
                            .and_then(|p| p.line_at(f.call_site.address))
                            .copied()
                        {
                            session.reveal_line(e.file, e.line);
                            session.select(Selection::Line {
                                file: e.file,
                                line: e.line,
                            });
                        }
                    }
                }
            });
        let open = self.focus_add_break.then_some(true);
        egui::CollapsingHeader::new(tr(lang, "Breakpoints"))
            .default_open(true)
            .open(open)
            .show(ui, |ui| self.breakpoints(ui, session));
        egui::CollapsingHeader::new(tr(lang, "Watch"))
            .default_open(true)
            .show(ui, |ui| self.watch(ui, session));
    }

    /// The breakpoint list: each with its spec (location, `:N` hit count,
    /// `if` condition, the library's syntax) editable in place, enabled,
    /// hits so far, where it is placed; an "add" field below.
    fn breakpoints(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        enum Do {
            Enable(u32, bool),
            Remove(u32),
            Edit(u32, String),
            Reveal(u16),
        }
        let lang = session.lang();
        let mut todo = Vec::new();
        let list = session.breakpoint_list().to_vec();
        if list.is_empty() {
            ui.weak(tr(
                lang,
                "Click the gutter left of a line, or F9, or add one below.",
            ));
        }
        self.editing
            .retain(|id, _| list.iter().any(|b| b.id == *id));
        for b in &list {
            let id = b.id;
            let row = ui.horizontal_wrapped(|ui| {
                let mut enabled = b.enabled;
                if ui
                    .checkbox(&mut enabled, "")
                    .on_hover_text("enabled")
                    .changed()
                {
                    todo.push(Do::Enable(id, enabled));
                }
                let place = match (b.addrs.first(), &b.error) {
                    (_, Some(_)) => "not placed".to_string(),
                    (Some(a), None) => format!("${a:04X}{}", session.describe(*a)),
                    (None, None) => "not placed".to_string(),
                };
                let r = ui.link(RichText::new(format!("#{id} {place}")).monospace().small());
                let link = r.id;
                if r.on_hover_text(tr(lang, "go to its line")).clicked() {
                    if let Some(a) = b.addrs.first() {
                        todo.push(Do::Reveal(*a));
                    }
                }
                ui.label(RichText::new(trf(lang, "hits {}", &[&b.hits])).small())
                    .on_hover_text(match b.spec.hit_count {
                        Some(n) => trf(
                            lang,
                            "times it was reached with its condition true; stops from hit {} on",
                            &[&n],
                        ),
                        None => tr(lang, "times it was reached with its condition true").into(),
                    });
                if ui
                    .small_button("x")
                    .on_hover_text(tr(lang, "delete this breakpoint"))
                    .clicked()
                {
                    todo.push(Do::Remove(id));
                }
                link
            });
            let (text, error) = self
                .editing
                .entry(id)
                .or_insert_with(|| (b.spec.text.clone(), None));
            if *text != b.spec.text && error.is_none() && !ui.memory(|m| m.has_focus(edit_id(id))) {
                // Changed elsewhere (the gutter, a reload): show the new spec.
                *text = b.spec.text.clone();
            }
            // Named by its "#id place" link for screen readers and tests.
            let r = ui
                .add(
                    egui::TextEdit::singleline(text)
                        .id(edit_id(id))
                        .font(egui::TextStyle::Monospace)
                        .desired_width(f32::INFINITY),
                )
                .labelled_by(row.inner);
            let r = r.on_hover_text(tr(
                lang,
                "LOC[:N][ if COND], Enter to apply. LOC: label[+n], $addr or file:line; \
                 :N stops from the Nth hit on; COND e.g. A == 3, [cellAddress].w == 136",
            ));
            if r.lost_focus()
                && ui.input(|i| i.key_pressed(egui::Key::Enter))
                && *text != b.spec.text
            {
                todo.push(Do::Edit(id, text.clone()));
            }
            if let Some(e) = error.as_ref().or(b.error.as_ref()) {
                ui.label(RichText::new(e).small().color(ERROR));
            }
        }
        for t in todo {
            match t {
                Do::Enable(id, on) => session.set_breakpoint_enabled(id, on),
                Do::Remove(id) => session.remove_breakpoint(id),
                Do::Edit(id, text) => {
                    let result = session.edit_breakpoint(id, &text);
                    if let Some((_, error)) = self.editing.get_mut(&id) {
                        *error = result.err();
                    }
                }
                Do::Reveal(a) => {
                    if let Some(e) = session.program().and_then(|p| p.line_at(a)).copied() {
                        session.reveal_line(e.file, e.line);
                    }
                }
            }
        }
        let label = ui.label(RichText::new(tr(lang, "Add breakpoint")).small());
        // Field and button on lines of their own: a field sized to "the
        // width left" beside a button makes a resizable panel grow a little
        // every frame.
        let r = ui
            .add(
                egui::TextEdit::singleline(&mut self.new_break)
                    .font(egui::TextStyle::Monospace)
                    .desired_width(f32::INFINITY)
                    .hint_text("readInput:3 / drawCell if A == 3"),
            )
            .labelled_by(label.id);
        if std::mem::take(&mut self.focus_add_break) {
            r.request_focus();
            r.scroll_to_me(Some(egui::Align::Center));
        }
        let add = ui
            .button(tr(lang, "Add"))
            .on_hover_text(tr(lang, "Add the breakpoint (Enter)"))
            .clicked();
        let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (add || enter) && !self.new_break.trim().is_empty() {
            match session.add_breakpoint_spec(&self.new_break) {
                Ok(_) => {
                    self.new_break.clear();
                    self.new_break_error = None;
                }
                Err(e) => self.new_break_error = Some(e),
            }
        }
        if let Some(e) = &self.new_break_error {
            ui.label(RichText::new(e).small().color(ERROR));
        }
    }

    fn watch(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let lang = session.lang();
        let mut remove = None;
        egui::Grid::new("watch").num_columns(3).show(ui, |ui| {
            for (i, w) in session.settings.watches.iter().enumerate() {
                let (name, len) = match w.rsplit_once(':') {
                    Some((n, l)) => (n, l.parse::<u16>().unwrap_or(1).clamp(1, 16)),
                    None => (w.as_str(), 1),
                };
                ui.label(RichText::new(w).monospace());
                match session.resolve(name) {
                    Some(a) => {
                        let bytes: Vec<u8> =
                            (0..len).map(|k| session.peek(a.wrapping_add(k))).collect();
                        let changed = (0..len).any(|k| session.changed(a.wrapping_add(k)));
                        let hex: String = bytes.iter().map(|b| format!("{b:02X}")).collect();
                        let value = if len == 2 {
                            format!("${hex} = {}", u16::from_be_bytes([bytes[0], bytes[1]]))
                        } else if len == 1 {
                            format!("${hex} = {}", bytes[0])
                        } else {
                            format!("${hex}")
                        };
                        let t = RichText::new(value).monospace();
                        let t = if changed {
                            t.background_color(Color32::from_rgb(0xFF, 0xB0, 0x00))
                                .color(Color32::BLACK)
                        } else {
                            t
                        };
                        ui.label(t).on_hover_text(format!("at ${a:04X}"));
                    }
                    None => {
                        ui.weak(tr(lang, "unknown"));
                    }
                }
                if ui
                    .small_button("x")
                    .on_hover_text(tr(lang, "remove watch"))
                    .clicked()
                {
                    remove = Some(i);
                }
                ui.end_row();
            }
        });
        if let Some(i) = remove {
            session.settings.watches.remove(i);
        }
        ui.horizontal(|ui| {
            let r = ui.add(
                egui::TextEdit::singleline(&mut self.new_watch)
                    .desired_width(130.0)
                    .hint_text(tr(lang, "symbol or $addr[:len]")),
            );
            let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button(tr(lang, "Add")).clicked() || enter) && !self.new_watch.trim().is_empty()
            {
                session
                    .settings
                    .watches
                    .push(self.new_watch.trim().to_string());
                self.new_watch.clear();
            }
        });
    }
}
