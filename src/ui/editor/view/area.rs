//! The text area of the editor view: the margin and the text side by side
//! in one scroll area, the backgrounds behind the lines, and what follows
//! the text widget each frame (a change taken in, completion offered, the
//! selection following the cursor, margin clicks, help under the pointer,
//! Ctrl+click to a definition).

use std::sync::Arc;

use super::*;
use crate::ui::editor::live::{LiveDiag, LiveResult};

/// What the frame found out inside the scroll area.
pub(super) struct Shown {
    pub(super) galley: Arc<egui::Galley>,
    pub(super) galley_pos: egui::Pos2,
    pub(super) response: egui::Response,
    changed: bool,
    cursor: Option<Range<usize>>,
    clicks: Vec<Click>,
}

/// The underline of a diagnostic in its line: its byte range (the line's
/// text when it has none) and colour.
pub(super) fn underline(d: &LiveDiag, line: &str) -> (Range<usize>, Color32) {
    let color = match d.severity {
        Severity::Error => ERROR_LINE,
        Severity::Warning => WARNING_LINE,
    };
    let len = line.len();
    let mut r = d.cols.start.min(len)..d.cols.end.min(len);
    if r.is_empty() {
        // At the end of the line ("found the end of the line"): the last
        // word before it; nothing in the line: no underline.
        let trimmed = line.trim_end();
        let start = trimmed
            .rfind([' ', '\t'])
            .map_or(0, |i| i + 1)
            .min(trimmed.len());
        r = start..trimmed.len();
    }
    while !line.is_char_boundary(r.start) {
        r.start -= 1;
    }
    while !line.is_char_boundary(r.end) {
        r.end += 1;
    }
    (r, color)
}

impl EditorView {
    /// The margin and the text.
    pub(super) fn text_area(
        &mut self,
        ui: &mut egui::Ui,
        session: &mut Session,
        bi: usize,
        id: Id,
        sel: Range<usize>,
    ) {
        let lang = session.lang();
        let dark = ui.visuals().dark_mode;
        let font = egui::TextStyle::Monospace.resolve(ui.style());
        let row_h = ui.fonts_mut(|f| f.row_height(&font));
        let line_height = row_h + ui.spacing().extra_text_line_spacing;
        let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0')).max(1.0);
        let n_lines = session.edits.buffers[bi].lines();
        let digits = n_lines.to_string().len().max(3);
        let room = ui.available_width() - ui.spacing().scroll.bar_width;
        let cols = columns((room - gutter::MARKER) / char_w, digits as f32 + 2.0);
        let layout = gutter::Layout {
            digits,
            cols,
            char_w,
        };
        self.derived(session, bi);
        let Some(d) = self.derived.take() else {
            return;
        };

        // Everything read from the session before the text is lent out.
        let path = session.edits.buffers[bi].path.clone();
        let program = session.program().cloned();
        let pf = program
            .as_deref()
            .and_then(|p| p.files.iter().position(|f| f.path == path));
        let live: Option<Arc<LiveResult>> = session.edits.live().cloned();
        let lf = session.edits.live_of_buffer(bi);
        let buf = &session.edits.buffers[bi];
        let mut diags: HashMap<u32, Vec<usize>> = HashMap::new();
        let mut unders: Underlines = HashMap::new();
        let with_diags = live
            .as_ref()
            .zip(lf)
            .filter(|(l, lf)| l.diags.iter().any(|d| d.file == Some(*lf)));
        if let Some((live, lf)) = with_diags {
            let snapshot: Vec<&str> = live.files[lf].text.split('\n').collect();
            for (i, dg) in live.diags.iter().enumerate() {
                if dg.file != Some(lf) {
                    continue;
                }
                let Some(now) = buf.live_to_now(dg.line) else {
                    continue;
                };
                diags.entry(now).or_default().push(i);
                let line_now = buf.line(now);
                if snapshot.get(dg.line as usize - 1) == Some(&line_now) {
                    unders
                        .entry(now as usize - 1)
                        .or_default()
                        .push(underline(dg, line_now));
                }
            }
        }
        let mut bps: HashMap<u32, bool> = HashMap::new();
        let mut pc_now = None;
        if let (Some(p), Some(pf)) = (program.as_deref(), pf) {
            for b in session.breakpoint_list() {
                for &a in &b.addrs {
                    let Some(e) = p.line_at(a).filter(|e| e.file == pf && e.addr == a) else {
                        continue;
                    };
                    if let Some(n) = buf.loaded_to_now(e.line) {
                        let on = bps.entry(n).or_insert(false);
                        *on |= b.enabled;
                    }
                }
            }
            pc_now = session
                .pc()
                .and_then(|pc| p.line_at(pc))
                .filter(|e| e.file == pf)
                .and_then(|e| buf.loaded_to_now(e.line));
        }
        let selected_now = match (session.selection, pf) {
            (Some(Selection::Line { file, line }), Some(pf)) if file == pf => {
                buf.loaded_to_now(line)
            }
            _ => None,
        };
        let find_matches = if self.find.open {
            super::super::find::matches(&buf.text, &self.find.query, self.find.case)
        } else {
            Vec::new()
        };
        let current_match = self.find.current.clone();
        let links = session.links().clone();
        let scroll_to = self
            .scroll_to
            .take()
            .filter(|(b, _)| *b == bi)
            .map(|(_, l)| l);
        let base = TextFormat {
            font_id: font.clone(),
            color: ui.visuals().text_color(),
            line_height: Some(line_height),
            ..TextFormat::default()
        };

        let mut text = std::mem::take(&mut session.edits.buffers[bi].text);
        // While the completion list or the help at the cursor is open,
        // Escape closes it and the text keeps the keyboard (else Escape
        // gives the keyboard back to the window).
        let filter = egui::EventFilter {
            tab: true,
            horizontal_arrows: true,
            vertical_arrows: true,
            escape: self.complete.is_open() || self.help_at.is_some(),
        };
        let colours = &mut self.colours;
        let galleys = &mut self.galley;
        let look = look_key(dark, &base, &unders, ui.ctx().pixels_per_point());
        let hl = session.highlighter();
        let shown = egui::ScrollArea::both()
            .id_salt(("editor", &path))
            .auto_shrink([false, false])
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    ui.spacing_mut().item_spacing.x = 0.0;
                    let total = (n_lines as f32 * line_height).max(ui.available_height());
                    let (gutter_rect, _) = ui.allocate_exact_size(
                        Vec2::new(layout.width(), total),
                        egui::Sense::hover(),
                    );
                    let bg = ui.painter().add(Shape::Noop);
                    let mut layouter = |ui: &egui::Ui, buf: &dyn egui::TextBuffer, _w: f32| {
                        let text = buf.as_str();
                        galleys.get(ui, text, (id, look), || {
                            layout_job(text, colours, hl, dark, &base, &unders)
                        })
                    };
                    let output = egui::TextEdit::multiline(&mut text)
                        .id(id)
                        .code_editor()
                        .frame(egui::Frame::NONE)
                        .margin(egui::Margin::ZERO)
                        .desired_width(f32::INFINITY)
                        .desired_rows(1)
                        .layouter(&mut layouter)
                        .event_filter(filter)
                        .show(ui);
                    // The text's name for screen readers (and tests).
                    let name = path.file_name().map_or_else(
                        || path.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    ui.ctx()
                        .accesskit_node_builder(id, |b| b.set_label(format!("Editor: {name}")));
                    let galley = output.galley.clone();
                    let gp = output.galley_pos;
                    let row_rect =
                        |i: usize| galley.rows.get(i).map(|r| r.rect().translate(gp.to_vec2()));
                    if let Some(r) = scroll_to.and_then(|l| row_rect(l as usize - 1)) {
                        ui.scroll_to_rect(r, Some(egui::Align::Center));
                    }
                    let clip = ui.clip_rect();
                    let first = (((clip.top() - gp.y) / line_height).floor().max(0.0)) as usize;
                    let last = ((((clip.bottom() - gp.y) / line_height).ceil().max(0.0)) as usize
                        + 1)
                    .min(galley.rows.len());
                    let right = clip.right().max(output.response.rect.right());
                    let mut shapes = Vec::new();
                    let mut rows = Vec::new();
                    let line_starts: Vec<usize> = if find_matches.is_empty() {
                        Vec::new()
                    } else {
                        std::iter::once(0)
                            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                            .collect()
                    };
                    for i in first..last {
                        let Some(r) = row_rect(i) else {
                            continue;
                        };
                        let line = i as u32 + 1;
                        let full = Rect::from_min_max(
                            egui::pos2(r.left(), r.top()),
                            egui::pos2(right, r.bottom()),
                        );
                        let loaded = d.to_loaded.get(i).copied().flatten();
                        if pc_now == Some(line) {
                            shapes.push(Shape::rect_filled(full, 0.0, PC_BG));
                        }
                        if let (Some(pf), Some(l)) = (pf, loaded) {
                            match links.line(pf, l) {
                                Some(LineRole::Wrote) => {
                                    shapes.push(Shape::rect_filled(full, 0.0, WROTE))
                                }
                                Some(LineRole::Read) => {
                                    shapes.push(Shape::rect_filled(full, 0.0, READ))
                                }
                                _ => {}
                            }
                        }
                        if selected_now == Some(line) {
                            shapes.push(Shape::rect_stroke(
                                full,
                                0.0,
                                Stroke::new(1.5, SEL),
                                egui::StrokeKind::Inside,
                            ));
                        }
                        if !find_matches.is_empty() {
                            let start = line_starts.get(i).copied().unwrap_or(usize::MAX);
                            let end = line_starts.get(i + 1).copied().unwrap_or(text.len() + 1);
                            let lt = text
                                .get(start..end.saturating_sub(1).max(start))
                                .unwrap_or("");
                            for m in find_matches
                                .iter()
                                .filter(|m| m.start >= start && m.start < end)
                            {
                                let row = &galley.rows[i];
                                let x0 = row.x_offset(egui::text::CharIndex(char_of_byte(
                                    lt,
                                    m.start - start,
                                )));
                                let x1 = row.x_offset(egui::text::CharIndex(char_of_byte(
                                    lt,
                                    m.end.min(end) - start,
                                )));
                                let c = if current_match.as_ref() == Some(m) {
                                    MATCH_NOW
                                } else {
                                    MATCH
                                };
                                shapes.push(Shape::rect_filled(
                                    Rect::from_min_max(
                                        egui::pos2(r.left() + x0, r.top()),
                                        egui::pos2(r.left() + x1.max(x0 + 2.0), r.bottom()),
                                    ),
                                    2.0,
                                    c,
                                ));
                            }
                        }
                        let code = match (&live, lf, d.to_live.get(i).copied().flatten()) {
                            (Some(l), Some(lf), Some(ll)) => {
                                l.files[lf].code.get(ll as usize - 1).cloned().flatten()
                            }
                            _ => None,
                        };
                        let mark = diags.get(&line).map(|v| {
                            let error = v.iter().any(|&k| {
                                live.as_ref()
                                    .is_some_and(|l| l.diags[k].severity == Severity::Error)
                            });
                            let msg = v
                                .iter()
                                .filter_map(|&k| {
                                    live.as_ref().map(|l| {
                                        let dg = &l.diags[k];
                                        format!(
                                            "{} {line}: {}",
                                            crate::ui::i18n::severity_word(
                                                lang,
                                                &dg.severity.to_string()
                                            ),
                                            dg.full_message()
                                        )
                                    })
                                })
                                .collect::<Vec<_>>()
                                .join("\n");
                            (error, msg)
                        });
                        let gr = Rect::from_min_max(
                            egui::pos2(gutter_rect.left(), r.top()),
                            egui::pos2(gutter_rect.right(), r.bottom()),
                        );
                        rows.push((
                            gr,
                            Row {
                                line,
                                code,
                                mark,
                                breakpoint: bps.get(&line).copied(),
                                pc: pc_now == Some(line),
                            },
                        ));
                    }
                    ui.painter().set(bg, Shape::Vec(shapes));
                    let clicks = gutter::rows(ui, id, &rows, &layout, &font);
                    Shown {
                        galley,
                        galley_pos: gp,
                        changed: output.response.changed(),
                        cursor: output.cursor_range.map(|c| {
                            let r = c.as_sorted_char_range();
                            r.start.0..r.end.0
                        }),
                        response: output.response.response.clone(),
                        clicks,
                    }
                })
                .inner
            })
            .inner;
        session.edits.buffers[bi].text = text;
        self.derived = Some(d);
        self.after(ui, session, bi, id, sel, shown, pf, live, lf);
    }

    /// What follows the text widget: the change taken in, completion, the
    /// selection following the cursor, margin clicks, help, definitions.
    #[allow(clippy::too_many_arguments)]
    fn after(
        &mut self,
        ui: &mut egui::Ui,
        session: &mut Session,
        bi: usize,
        id: Id,
        sel: Range<usize>,
        shown: Shown,
        pf: Option<usize>,
        live: Option<Arc<LiveResult>>,
        lf: Option<usize>,
    ) {
        let lang = session.lang();
        let ctx = ui.ctx().clone();
        let focused = ctx.memory(|m| m.has_focus(id));
        let cursor = shown.cursor.clone().unwrap_or(sel.clone());
        if shown.changed {
            session.edits.buffers[bi].commit(Change::Typing, sel.start);
            session.edits.touched();
            self.hover.clear();
            let text = &session.edits.buffers[bi].text;
            let byte = byte_of_char(text, cursor.end);
            let typed_word = text[..byte]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            if typed_word && cursor.is_empty() {
                self.offer(session, bi, cursor.end, false);
            } else {
                self.complete.close();
            }
        } else if cursor != sel && self.complete.is_open() {
            self.complete.close();
        }

        // The selection follows the cursor's line (links, F9, run to cursor).
        let text = &session.edits.buffers[bi].text;
        let line = line_of_byte(text, byte_of_char(text, cursor.start)).0 as u32 + 1;
        if focused && self.cursor_line != Some((bi, line)) {
            self.cursor_line = Some((bi, line));
            let loaded = self
                .derived
                .as_ref()
                .and_then(|d| d.to_loaded.get(line as usize - 1).copied().flatten());
            if let (Some(pf), Some(l), false) = (pf, loaded, shown.changed) {
                session.select(Selection::Line { file: pf, line: l });
            }
        }

        for c in &shown.clicks {
            let loaded = |line: u32| {
                self.derived
                    .as_ref()
                    .and_then(|d| d.to_loaded.get(line as usize - 1).copied().flatten())
            };
            match *c {
                Click::Breakpoint(line) => match (pf, loaded(line)) {
                    (Some(pf), Some(l)) => session.toggle_breakpoint_line(pf, l),
                    _ => {
                        session.status = tr(
                            lang,
                            "This line is not in the running program yet: F7 assembles and resets, then set the breakpoint.",
                        )
                        .into()
                    }
                },
                Click::Select(line) => {
                    if let (Some(pf), Some(l)) = (pf, loaded(line)) {
                        session.select(Selection::Line { file: pf, line: l });
                    }
                }
            }
        }

        // Ctrl+click: to the definition.
        if shown.response.clicked() && ctx.input(|i| i.modifiers.command) {
            let text = &session.edits.buffers[bi].text;
            let byte = byte_of_char(text, cursor.start);
            let (l, col) = line_of_byte(text, byte);
            let lt = &text[line_range(text, l)];
            if let Some(w) = word_at(lt, col).map(|r| lt[r].to_string()) {
                if let Some(t) = definition(session, &w) {
                    go_to(session, t);
                }
            }
        }

        self.hover_help(ui, session, bi, &shown, live.as_deref(), lf, cursor.start);

        // The completion list under the cursor (drawn also in the frame a
        // click on it took the keyboard from the text).
        if self.complete.is_open() {
            let c = CCursor::new(cursor.end);
            let at = shown
                .galley
                .pos_from_cursor(c)
                .translate(shown.galley_pos.to_vec2());
            let pos = egui::pos2(at.left(), at.bottom() + 2.0);
            if let Some((item, r)) = self.complete.ui(&ctx, pos, lang) {
                let after = self.accept(session, bi, r, &item.text);
                let mut state = egui::TextEdit::load_state(&ctx, id).unwrap_or_default();
                set_cursor(&mut state, after);
                state.store(&ctx, id);
                ctx.memory_mut(|m| m.request_focus(id));
            } else if !focused {
                self.complete.close();
            }
        }
    }
}
