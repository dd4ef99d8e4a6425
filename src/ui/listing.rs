//! The source/listing panel: the program's files as tabs, highlighted with
//! the course-dialect syntax, each line with the address and bytes it
//! assembled to (from `Program::lines`), the current line marked, a
//! breakpoint gutter, clickable labels (go to definition, break here) and
//! symbol values on hover.

use std::collections::HashMap;

use egui::{Color32, RichText, Sense, Stroke, Vec2};

use super::i18n::{severity_word, tr, trf};
use super::links::{LineRole, Selection};
use super::session::Session;
use super::syntax::Span;
use crate::asm::{disassemble_lines, DisasmLine};
use crate::image::{FileId, Program, SymbolKind};
use crate::lesson::Lang;

const PC_BG: Color32 = Color32::from_rgba_premultiplied(0x50, 0x48, 0x00, 0x60);
const SEL: Color32 = Color32::from_rgb(0xFF, 0x80, 0x00);
const WROTE: Color32 = Color32::from_rgba_premultiplied(0x70, 0x10, 0x38, 0x70);
const READ: Color32 = Color32::from_rgba_premultiplied(0x10, 0x38, 0x70, 0x70);
const BREAK: Color32 = Color32::from_rgb(0xE0, 0x30, 0x30);
const ERROR_MARK: Color32 = Color32::from_rgb(0xF0, 0x40, 0x40);
const WARNING_MARK: Color32 = Color32::from_rgb(0xE0, 0xB0, 0x30);
/// Width of the breakpoint gutter (points).
const GUTTER: f32 = 16.0;
/// Characters a disassembly row needs for its bytes and label columns
/// (`> C000 86 41 20 FE  drawCellLoop     ldaa #$41`).
const DISASM_WIDE_CHARS: f32 = 56.0;

mod rows;
pub use rows::*;

/// The listing panel.
#[derive(Default)]
pub struct ListingPanel {
    prepared: Vec<PreparedFile>,
    prepared_for: Option<(usize, bool)>,
    symbols: HashMap<String, usize>,
    /// The file shown: an index into the editor's files (the program's
    /// files come first, in its order).
    pub tab: usize,
    scroll_to: Option<(FileId, u32)>,
    /// A line of the program to show once the session is at hand, and
    /// whether the editor's cursor goes there too.
    pending_reveal: Option<(FileId, u32, bool)>,
    disasm: Vec<DisasmLine>,
    disasm_for: Option<usize>,
    /// The listing is the editor (Ctrl+E, a click into the text).
    editing: bool,
    /// The editor.
    pub editor: super::editor::view::EditorView,
}

impl ListingPanel {
    fn refresh(&mut self, session: &Session, dark: bool) {
        let key = (session.program_generation(), dark);
        if self.prepared_for == Some(key) {
            return;
        }
        self.prepared_for = Some(key);
        match session.program() {
            Some(p) => {
                self.prepared = prepare(p, session.highlighter(), dark);
                self.symbols = p
                    .symbols
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (s.name.to_ascii_lowercase(), i))
                    .collect();
                if self.tab >= p.files.len() {
                    self.tab = 0;
                }
            }
            None => {
                self.prepared.clear();
                self.symbols.clear();
            }
        }
    }

    /// A program without sources (S19, ELF without line info): its
    /// disassembly, with the breakpoint gutter and the current instruction.
    fn disassembly(&mut self, ui: &mut egui::Ui, session: &mut Session, program: &Program) {
        if self.disasm_for != Some(session.program_generation()) {
            self.disasm = disassemble_lines(program);
            self.disasm_for = Some(session.program_generation());
        }
        ui.weak(tr(
            session.lang(),
            "No source files: the program's disassembly.",
        ));
        let pc = session.pc();
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let row_h = ui.fonts_mut(|f| f.row_height(&font)).max(14.0);
        // Narrow (the compact pane, a large text size): the address and the
        // instruction, its labels after it as a comment, the bytes on hover.
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0')).max(1.0);
        let room = ui.available_width() - GUTTER - ui.spacing().scroll.bar_width;
        let wide = room / char_w >= DISASM_WIDE_CHARS;
        let mut toggle = None;
        egui::ScrollArea::both()
            .id_salt("disassembly")
            .auto_shrink([false, false])
            .show_rows(ui, row_h, self.disasm.len(), |ui, range| {
                for row in self.disasm.get(range).unwrap_or(&[]) {
                    let r = ui.horizontal(|ui| {
                        ui.spacing_mut().item_spacing.x = 0.0;
                        let (r, resp) =
                            ui.allocate_exact_size(Vec2::new(GUTTER, row_h), Sense::click());
                        resp.widget_info(|| {
                            egui::WidgetInfo::labeled(
                                egui::Role::Button,
                                true,
                                format!("breakpoint ${:04X}", row.addr),
                            )
                        });
                        if session.has_breakpoint(row.addr) {
                            ui.painter().circle_filled(r.center(), row_h * 0.3, BREAK);
                        }
                        if resp.clicked() {
                            toggle = Some(row.addr);
                        }
                        let marker = if pc == Some(row.addr) { ">" } else { " " };
                        let hex: Vec<String> =
                            row.bytes.iter().map(|b| format!("{b:02X}")).collect();
                        let hex = hex.join(" ");
                        let label = row.labels.join(", ");
                        let left = if wide {
                            format!("{marker} {:04X} {hex:<12} {label:<16} ", row.addr)
                        } else {
                            format!("{marker}{:04X} ", row.addr)
                        };
                        let r = ui.label(RichText::new(left).monospace().weak());
                        if !wide {
                            r.on_hover_text(format!("${:04X}: {hex}", row.addr));
                        }
                        ui.label(RichText::new(&row.text).monospace());
                        if !wide && !label.is_empty() {
                            ui.label(RichText::new(format!("  ; {label}")).monospace().weak());
                        }
                    });
                    if pc == Some(row.addr) {
                        let rect = r.response.rect.with_max_x(ui.max_rect().max.x);
                        ui.painter().rect_filled(rect, 0.0, PC_BG);
                    }
                }
            });
        if let Some(a) = toggle {
            session.toggle_breakpoint(a);
        }
    }

    /// Scrolls to a line of the program (and shows its file) on the next
    /// frame, as after a stop: the editor's cursor stays where it is (a
    /// breakpoint hit while typing does not move it).
    pub fn reveal(&mut self, file: FileId, line: u32) {
        self.scroll_to = Some((file, line));
        self.pending_reveal = Some((file, line, false));
    }

    /// The editor's file shown (an index into `session.edits.buffers`).
    pub fn current(&self) -> usize {
        self.tab
    }

    /// True while the panel is the editor.
    pub fn is_editing(&self) -> bool {
        self.editing
    }

    /// A line of the program to show: its file's tab, and in the editor the
    /// line where it is now.
    fn take_reveal(&mut self, session: &mut Session, program: &Program) {
        let Some((f, l, cursor)) = self.pending_reveal.take() else {
            return;
        };
        let Some(b) = program
            .files
            .get(f)
            .and_then(|f| session.edits.find(&f.path))
        else {
            return;
        };
        self.tab = b;
        if self.editing {
            if let Some(now) = session
                .edits
                .buffers
                .get(b)
                .and_then(|x| x.loaded_to_now(l))
            {
                if cursor {
                    session.edits.request.reveal = Some((b, now, 0));
                } else {
                    self.editor.scroll_to_line(b, now);
                }
            }
        }
    }

    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let dark = ui.visuals().dark_mode;
        self.refresh(session, dark);
        if let Some((f, l)) = session.take_reveal_line() {
            // Asked for (a problem, a label, a link): the cursor goes there.
            self.scroll_to = Some((f, l));
            self.pending_reveal = Some((f, l, true));
        }
        if std::mem::take(&mut session.edits.request.editor) {
            self.editing = true;
        }
        if let Some((b, _, _)) = session.edits.request.reveal {
            self.tab = b;
        }
        let Some(program) = session.program().cloned() else {
            if !session.edits.buffers.is_empty() {
                // New files, no program: they can still be edited.
                self.tab = self.tab.min(session.edits.buffers.len() - 1);
                self.file_tabs(ui, session, &Program::default());
                ui.separator();
                self.editor.ui(ui, session, self.tab);
                return;
            }
            ui.weak(tr(
                session.lang(),
                "No program loaded: File > Open, or see the Problems panel.",
            ));
            return;
        };
        if program.files.is_empty() && session.edits.buffers.is_empty() {
            self.disassembly(ui, session, &program);
            return;
        }
        self.take_reveal(session, &program);
        self.tab = self.tab.min(session.edits.buffers.len().saturating_sub(1));
        self.file_tabs(ui, session, &program);
        ui.separator();
        let bi = self.tab;
        let shown = session.edits.buffers.get(bi);
        let file_of_tab = shown.and_then(|b| program.files.iter().position(|f| f.path == b.path));
        let must_edit = shown.is_some_and(|b| b.differs_from_run()) || file_of_tab.is_none();
        if shown.is_some() && (self.editing || must_edit) {
            self.editor.ui(ui, session, bi);
            return;
        }
        let Some(file) = file_of_tab.or(if program.files.is_empty() {
            None
        } else {
            Some(0)
        }) else {
            return;
        };
        let Some(pf) = self.prepared.get(file) else {
            return;
        };
        let Some(src) = program.files.get(file) else {
            return;
        };
        let pc_line = session
            .pc()
            .and_then(|pc| program.line_at(pc))
            .filter(|e| e.file == file)
            .map(|e| e.line);
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let row_h = ui.fonts_mut(|f| f.row_height(&font)).max(14.0);
        let spacing = ui.spacing().item_spacing.y;
        let mut area = egui::ScrollArea::both()
            .id_salt(("listing", file))
            .min_scrolled_height(40.0)
            .auto_shrink([false, false]);
        if let Some((f, line)) = self.scroll_to.take() {
            if f == file {
                // A third of the view above the line, and never past the
                // end (an overscroll would spring back for many frames).
                let view = ui.available_height();
                let target = (line.saturating_sub(1) as f32) * (row_h + spacing);
                let end = (pf.lines.len() as f32 * (row_h + spacing) - view).max(0.0);
                area = area.vertical_scroll_offset((target - view / 3.0).clamp(0.0, end));
            }
        }
        let default = ui.visuals().text_color();
        // What fits beside the source: a narrow listing (the compact pane,
        // a large text size) gives up the bytes, then the source's blanks,
        // then the address before it hides the instruction (the link bar
        // and the row's hover show them).
        let digits = pf.lines.len().to_string().len().max(3);
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0')).max(1.0);
        let room = ui.available_width() - GUTTER - ui.spacing().scroll.bar_width;
        let cols = columns(room / char_w, digits as f32 + 2.0);
        let lang = session.lang();
        // Assembly errors and warnings of this file, by line, for the gutter.
        let marks: HashMap<u32, (bool, String)> = session
            .problems
            .iter()
            .filter_map(|p| {
                let (path, line, col) = p.at.as_ref()?;
                (*path == src.path).then(|| {
                    let error = p.severity == "error";
                    (
                        *line,
                        (
                            error,
                            format!(
                                "{} {line}:{col}: {}",
                                severity_word(lang, &p.severity),
                                p.message
                            ),
                        ),
                    )
                })
            })
            .fold(HashMap::new(), |mut m, (l, v)| {
                // An error wins over a warning on the same line.
                let keep = m.get(&l).is_some_and(|(e, _): &(bool, String)| *e && !v.0);
                if !keep {
                    m.insert(l, v);
                }
                m
            });
        let mut actions: Vec<Action> = Vec::new();
        let links = session.links().clone();
        let selection = session.selection;
        area.show_rows(ui, row_h, pf.lines.len(), |ui, range| {
            for idx in range {
                let line_no = idx as u32 + 1;
                let text = pf
                    .lines
                    .get(idx)
                    .and_then(|r| src.text.get(r.clone()))
                    .unwrap_or("");
                let code = pf.code.get(idx).and_then(|c| c.as_ref());
                let spans: &[Span] = pf.spans.get(idx).map(|v| v.as_slice()).unwrap_or(&[]);
                let row = ui.horizontal(|ui| {
                    ui.set_min_height(row_h);
                    ui.spacing_mut().item_spacing.x = 0.0;
                    // Breakpoint gutter.
                    let bp = code.and_then(|c| session.breakpoint_at(c.addr));
                    let (r, resp) =
                        ui.allocate_exact_size(Vec2::new(GUTTER, row_h), Sense::click());
                    let mark = marks.get(&line_no);
                    resp.widget_info(|| match mark {
                        Some((_, message)) => {
                            egui::WidgetInfo::labeled(egui::Role::Button, true, message.clone())
                        }
                        None => egui::WidgetInfo::labeled(
                            egui::Role::Button,
                            code.is_some(),
                            format!("breakpoint {line_no}"),
                        ),
                    });
                    let resp = match mark {
                        Some((_, message)) => resp.on_hover_text(message.as_str()),
                        None => resp,
                    };
                    if let Some((error, _)) = mark {
                        // A square (breakpoints are round): red for an
                        // error, amber for a warning.
                        let c = if *error { ERROR_MARK } else { WARNING_MARK };
                        let sq = egui::Rect::from_center_size(r.center(), Vec2::splat(row_h * 0.6));
                        ui.painter().rect_filled(sq, 2.0, c);
                    } else if let Some(enabled) = bp {
                        // A disabled breakpoint keeps its place, in grey.
                        let c = if enabled { BREAK } else { Color32::GRAY };
                        ui.painter().circle_filled(r.center(), row_h * 0.3, c);
                    } else if resp.hovered() && code.is_some() {
                        ui.painter().circle_stroke(
                            r.center(),
                            row_h * 0.3,
                            Stroke::new(1.0, BREAK),
                        );
                    }
                    if resp.clicked() {
                        actions.push(Action::ToggleLine(file, line_no));
                    }
                    let marker = if pc_line == Some(line_no) { ">" } else { " " };
                    let mut left = format!("{marker}{line_no:>digits$} ");
                    let mut hidden = None;
                    match code {
                        Some(c) => {
                            let mut hex: String = c
                                .bytes
                                .iter()
                                .take(4)
                                .map(|b| format!("{b:02X}"))
                                .collect::<Vec<_>>()
                                .join(" ");
                            if c.bytes.len() > 4 {
                                hex.push('+');
                            }
                            if cols.address {
                                left.push_str(&format!("{:04X} ", c.addr));
                            }
                            if cols.bytes {
                                left.push_str(&format!("{hex:<12} "));
                            } else {
                                hidden = Some(format!("${:04X}: {hex}", c.addr));
                            }
                        }
                        None => {
                            let blank = if cols.address { ADDRESS_CHARS } else { 0.0 }
                                + if cols.bytes { BYTES_CHARS } else { 0.0 };
                            left.push_str(&" ".repeat(blank as usize));
                        }
                    }
                    let r = ui.add(
                        egui::Label::new(RichText::new(left).monospace().weak())
                            .sense(Sense::click())
                            .selectable(false),
                    );
                    let r = match &hidden {
                        Some(h) => r.on_hover_text(h.as_str()),
                        None => r,
                    };
                    if r.clicked() {
                        actions.push(Action::Select(file, line_no));
                    }
                    let keep = if cols.squeeze {
                        squeeze_mask(text)
                    } else {
                        Vec::new()
                    };
                    let mut at = 0;
                    for piece in pieces(text, spans, &self.symbols, default) {
                        let start = at;
                        at += piece.text.len();
                        let shown: std::borrow::Cow<str> = if cols.squeeze {
                            piece
                                .text
                                .char_indices()
                                .filter(|(i, _)| keep.get(start + i).copied().unwrap_or(true))
                                .map(|(_, c)| if c == '\t' { ' ' } else { c })
                                .collect::<String>()
                                .into()
                        } else {
                            piece.text.into()
                        };
                        if shown.is_empty() {
                            continue;
                        }
                        let rt = RichText::new(shown).monospace().color(piece.color);
                        match piece
                            .symbol
                            .and_then(|i| program.symbols.get(i).map(|s| (i, s)))
                        {
                            Some((i, sym)) => {
                                let r = ui
                                    .add(
                                        egui::Label::new(rt.underline())
                                            .sense(Sense::click())
                                            .selectable(false),
                                    )
                                    .on_hover_ui(|ui| {
                                        ui.label(symbol_tip(lang, &program, i));
                                        // A variable: what it holds now.
                                        if let Some(v) = value_now(lang, session, &program, sym) {
                                            ui.label(RichText::new(v).monospace().strong());
                                        }
                                    });
                                if r.clicked() {
                                    actions.push(Action::GoToSymbol(i));
                                }
                                r.context_menu(|ui| {
                                    if ui
                                        .button(format!("{} {}", tr(lang, "Go to"), sym.name))
                                        .clicked()
                                    {
                                        actions.push(Action::GoToSymbol(i));
                                        ui.close();
                                    }
                                    if sym.kind == SymbolKind::Label {
                                        if ui
                                            .button(format!(
                                                "{} {}",
                                                tr(lang, "Toggle breakpoint at"),
                                                sym.name
                                            ))
                                            .clicked()
                                        {
                                            actions.push(Action::ToggleAddr(sym.value));
                                            ui.close();
                                        }
                                        if ui
                                            .button(format!("{} {}", tr(lang, "Run to"), sym.name))
                                            .clicked()
                                        {
                                            actions.push(Action::RunTo(sym.value));
                                            ui.close();
                                        }
                                    }
                                    if ui.button(tr(lang, "Show in memory")).clicked() {
                                        actions.push(Action::ShowMemory(sym.value));
                                        ui.close();
                                    }
                                });
                            }
                            None => {
                                if ui
                                    .add(
                                        egui::Label::new(rt)
                                            .sense(Sense::click())
                                            .selectable(false),
                                    )
                                    .on_hover_cursor(egui::CursorIcon::Text)
                                    .clicked()
                                {
                                    // A click into the text: the editor, there.
                                    actions.push(Action::Edit(file, line_no, start));
                                }
                            }
                        }
                    }
                });
                let rect = row.response.rect.with_max_x(ui.max_rect().max.x);
                let painter = ui.painter();
                if pc_line == Some(line_no) {
                    painter.rect_filled(rect, 0.0, PC_BG);
                }
                match links.line(file, line_no) {
                    Some(LineRole::Wrote) => {
                        painter.rect_filled(rect, 0.0, WROTE);
                    }
                    Some(LineRole::Read) => {
                        painter.rect_filled(rect, 0.0, READ);
                    }
                    _ => {}
                }
                if selection
                    == Some(Selection::Line {
                        file,
                        line: line_no,
                    })
                {
                    painter.rect_stroke(rect, 0.0, Stroke::new(1.5, SEL), egui::StrokeKind::Inside);
                }
            }
        });
        for a in actions {
            match a {
                Action::ToggleLine(f, l) => session.toggle_breakpoint_line(f, l),
                Action::ToggleAddr(addr) => session.toggle_breakpoint(addr),
                Action::Select(f, l) => session.select(Selection::Line { file: f, line: l }),
                Action::Edit(f, l, col) => {
                    session.select(Selection::Line { file: f, line: l });
                    let b = program
                        .files
                        .get(f)
                        .and_then(|x| session.edits.find(&x.path));
                    if let Some(b) = b {
                        self.editing = true;
                        session.edits.request.reveal = Some((b, l, col));
                        session.edits.request.focus = true;
                    }
                }
                Action::GoToSymbol(i) => {
                    if let Some((f, l)) = program.symbols.get(i).and_then(|s| s.defined_at) {
                        self.reveal(f, l);
                        session.select(Selection::Line { file: f, line: l });
                    }
                }
                Action::RunTo(addr) => session.run_to(addr),
                Action::ShowMemory(addr) => session.reveal_memory(addr),
            }
        }
    }
}

impl ListingPanel {
    /// The files as tabs (a drop-down where a row of tabs would take
    /// several lines), a dot on those with unsaved changes; then the
    /// switch between listing and editor, and a new file.
    fn file_tabs(&mut self, ui: &mut egui::Ui, session: &mut Session, program: &Program) {
        let lang = session.lang();
        let entries: Vec<(String, String)> = if session.edits.buffers.is_empty() {
            program
                .files
                .iter()
                .map(|f| {
                    let name = f
                        .path
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_else(|| f.path.display().to_string());
                    (name, f.path.display().to_string())
                })
                .collect()
        } else {
            session
                .edits
                .buffers
                .iter()
                .map(|b| {
                    let dot = if b.is_dirty() { " *" } else { "" };
                    (format!("{}{dot}", b.name()), b.path.display().to_string())
                })
                .collect()
        };
        let editable = !session.edits.buffers.is_empty();
        let shown_differs = session.edits.buffers.get(self.tab).is_some_and(|b| {
            b.differs_from_run() || !program.files.iter().any(|f| f.path == b.path)
        });
        let switch = |ui: &mut egui::Ui, this: &mut Self, session: &mut Session| {
            if !editable {
                return;
            }
            if this.editing {
                let r = ui
                    .add_enabled(!shown_differs, egui::Button::new(tr(lang, "Listing")))
                    .on_hover_text(tr(
                        lang,
                        "The listing: links, narrow columns, the running program's text",
                    ))
                    .on_disabled_hover_text(tr(
                        lang,
                        "This text is not the running program's: F7 assembles and resets first.",
                    ));
                if r.clicked() {
                    this.editing = false;
                }
            } else if ui
                .button(tr(lang, "Edit"))
                .on_hover_text(tr(
                    lang,
                    "Edit the source here (Ctrl+E, or click into the text)",
                ))
                .clicked()
            {
                super::editor::edit_here(session);
            }
            if ui
                .small_button("+")
                .on_hover_text(tr(lang, "New file (Ctrl+N)"))
                .clicked()
            {
                session.new_file();
            }
        };
        if ui.available_width() < 420.0 && entries.len() > 2 {
            let current = entries
                .get(self.tab)
                .map(|e| e.0.clone())
                .unwrap_or_default();
            // Room for the switch and `+` beside the drop-down.
            let button = |ui: &egui::Ui, text: &str| {
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
                    + ui.spacing().item_spacing.x
            };
            let reserve = if editable {
                let switch_label = if self.editing { "Listing" } else { "Edit" };
                button(ui, tr(lang, switch_label)) + button(ui, "+")
            } else {
                0.0
            };
            ui.horizontal(|ui| {
                let label = ui.label(tr(lang, "File"));
                let width = (ui.available_width() - 8.0 - reserve).max(40.0);
                ui.scope(|ui| {
                    // The name is cut to the room left beside the buttons.
                    ui.set_max_width(width);
                    egui::ComboBox::from_id_salt("listing-file")
                        .selected_text(current)
                        .truncate()
                        .width(width)
                        .show_ui(ui, |ui| {
                            for (i, (name, _)) in entries.iter().enumerate() {
                                ui.selectable_value(&mut self.tab, i, name);
                            }
                        })
                        .response
                        .labelled_by(label.id);
                });
                switch(ui, self, session);
            });
        } else {
            ui.horizontal_wrapped(|ui| {
                for (i, (name, path)) in entries.iter().enumerate() {
                    if ui
                        .selectable_label(self.tab == i, name)
                        .on_hover_text(path)
                        .clicked()
                    {
                        self.tab = i;
                    }
                }
                switch(ui, self, session);
            });
        }
    }
}

enum Action {
    ToggleLine(FileId, u32),
    ToggleAddr(u16),
    Select(FileId, u32),
    /// Into the editor at this line and byte column.
    Edit(FileId, u32, usize),
    GoToSymbol(usize),
    RunTo(u16),
    ShowMemory(u16),
}

/// What a RAM variable (a label that is not code) holds now: its byte, or
/// its word for a 2-byte variable; `None` for code and constants.
pub fn value_now(
    lang: Lang,
    session: &Session,
    program: &Program,
    sym: &crate::image::Symbol,
) -> Option<String> {
    let is_code = program
        .line_at(sym.value)
        .is_some_and(|e| e.addr == sym.value);
    if sym.kind != SymbolKind::Label || is_code || !session.has_machine() {
        return None;
    }
    let a = sym.value;
    Some(if sym.size == Some(2) {
        let w = u16::from_be_bytes([session.peek(a), session.peek(a.wrapping_add(1))]);
        trf(
            lang,
            "now: [{}].w = ${} = {}",
            &[&sym.name, &format!("{w:04X}"), &w],
        )
    } else {
        let b = session.peek(a);
        trf(
            lang,
            "now: [{}] = ${} = {} = %{}",
            &[&sym.name, &format!("{b:02X}"), &b, &format!("{b:08b}")],
        )
    })
}

/// The hover text of a symbol: value, kind, size and where it is defined.
pub fn symbol_tip(lang: Lang, program: &Program, index: usize) -> String {
    let Some(s) = program.symbols.get(index) else {
        return String::new();
    };
    let kind = match s.kind {
        SymbolKind::Label => tr(lang, "label"),
        SymbolKind::Constant => tr(lang, "constant"),
    };
    let mut t = format!("{} = ${:04X} ({}), {kind}", s.name, s.value, s.value);
    if let Some(size) = s.size {
        t.push_str(&trf(lang, ", {} bytes", &[&size]));
    }
    if let Some((f, l)) = s.defined_at {
        let name = program
            .files
            .get(f)
            .and_then(|f| f.path.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        t.push('\n');
        t.push_str(&trf(lang, "defined at {}:{}", &[&name, &l]));
    }
    if s.kind == SymbolKind::Label {
        t.push('\n');
        t.push_str(tr(
            lang,
            "click: go to definition · right-click: break / run to",
        ));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_without_sources_shows_its_disassembly_with_a_breakpoint_gutter() {
        use super::super::session::{Origin, Settings};
        use crate::image::Segment;
        use egui_kittest::kittest::Queryable;
        let seg = |start, bytes: Vec<u8>| Segment {
            start,
            bytes,
            name: None,
        };
        let program = Program {
            segments: vec![
                seg(0xC000, vec![0x86, 0x41, 0x20, 0xFE]),
                seg(0xFFFE, vec![0xC0, 0x00]),
            ],
            ..Program::default()
        };
        let mut session = Session::new(Settings::default());
        session.set_program(program, Origin::Bundled);
        let mut harness = egui_kittest::Harness::builder()
            .with_size(Vec2::new(600.0, 300.0))
            .build_ui_state(
                |ui, (panel, session): &mut (ListingPanel, Session)| panel.ui(ui, session),
                (ListingPanel::default(), session),
            );
        harness.run();
        assert!(harness.query_by_label_contains("ldaa #$41").is_some());
        harness.get_by_label("breakpoint $C000").click();
        harness.run();
        assert!(harness.state().1.has_breakpoint(0xC000));
    }

    #[test]
    fn pieces_split_symbols_outside_comments() {
        let mut symbols = HashMap::new();
        symbols.insert("initlcd".to_string(), 3usize);
        let line = "        jsr     initLCD ; initLCD again";
        let p = pieces(line, &[], &symbols, Color32::WHITE);
        let syms: Vec<_> = p.iter().filter(|p| p.symbol.is_some()).collect();
        assert_eq!(syms.len(), 1);
        assert_eq!(syms[0].text, "initLCD");
        assert_eq!(syms[0].symbol, Some(3));
        let joined: String = p.iter().map(|p| p.text).collect();
        assert_eq!(joined, line);
    }

    #[test]
    fn a_squeezed_line_keeps_one_blank_per_run_before_the_comment() {
        let squeezed = |line: &str| -> String {
            let keep = squeeze_mask(line);
            line.char_indices()
                .filter(|(i, _)| keep[*i])
                .map(|(_, c)| c)
                .collect()
        };
        assert_eq!(squeezed("        lda     0,y"), "  lda 0,y");
        assert_eq!(
            squeezed("loop\tldaa\t#$0C   ; a   b"),
            "loop\tldaa\t#$0C ; a   b"
        );
        assert_eq!(squeezed("  fcc   \"a   b\""), "  fcc \"a   b\"");
        assert_eq!(squeezed("* all   comment"), "* all   comment");
    }

    #[test]
    fn a_narrow_row_gives_up_bytes_then_blanks_then_the_address() {
        let full = columns(80.0, 5.0);
        assert!(full.address && full.bytes && !full.squeeze);
        let medium = columns(50.0, 5.0);
        assert!(medium.address && !medium.bytes && !medium.squeeze);
        let narrow = columns(30.0, 5.0);
        assert!(narrow.address && !narrow.bytes && narrow.squeeze);
        let tiny = columns(24.0, 5.0);
        assert!(!tiny.address && !tiny.bytes && tiny.squeeze);
    }

    #[test]
    fn comment_start_skips_quotes_and_stars() {
        assert_eq!(comment_start("* all comment"), 0);
        assert_eq!(comment_start(" fcc \";\" ; c"), 9);
        assert_eq!(comment_start("  rts"), 5);
    }

    #[test]
    fn prepare_puts_address_and_bytes_on_lines() {
        use crate::image::{LineEntry, Segment, SourceFile};
        let mut p = Program::default();
        p.files.push(SourceFile {
            path: "a.asm".into(),
            text: "Start\r\n  ldaa #$0C\r\n  rts\r\n".into(),
        });
        p.segments.push(Segment {
            start: 0xC000,
            bytes: vec![0x86, 0x0C, 0x39],
            name: None,
        });
        p.lines = vec![
            LineEntry {
                addr: 0xC000,
                len: 2,
                file: 0,
                line: 2,
            },
            LineEntry {
                addr: 0xC002,
                len: 1,
                file: 0,
                line: 3,
            },
        ];
        let pf = prepare(&p, None, true);
        assert_eq!(pf[0].lines.len(), 3);
        assert_eq!(&p.files[0].text[pf[0].lines[1].clone()], "  ldaa #$0C");
        assert_eq!(pf[0].code[0], None);
        assert_eq!(
            pf[0].code[1],
            Some(LineCode {
                addr: 0xC000,
                bytes: vec![0x86, 0x0C]
            })
        );
        assert_eq!(pf[0].code[2].as_ref().map(|c| c.addr), Some(0xC002));
    }
}
