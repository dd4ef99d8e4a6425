//! The memory panel: a hex view of the 64 KiB address space as the CPU sees
//! it (M68HC11 RM section 3 memory map, trainer11 board map), with the names
//! of the program's RAM variables over their bytes, changed bytes marked and
//! bytes editable while the machine is paused. It only peeks, so looking
//! never changes a device.

use egui::{Color32, Sense};

use super::i18n::{tr, trf};
use super::links::{Links, Selection};
use super::session::Session;
use crate::lesson::Lang;

/// Bytes per row.
pub const ROW: u16 = 16;

const CHANGED: Color32 = Color32::from_rgb(0xFF, 0xB0, 0x00);
const LINK: Color32 = Color32::from_rgb(0xFF, 0x40, 0x80);
const NAME: Color32 = Color32::from_rgb(0x70, 0xB0, 0xFF);

/// Everything the hex view needs to know, independent of a machine.
pub struct MemoryView<'a> {
    /// Memory without side effects.
    pub peek: &'a dyn Fn(u16) -> u8,
    /// True if the byte changed in the last step or run slice.
    pub changed: &'a dyn Fn(u16) -> bool,
    /// Names to show over their first byte, sorted by address.
    pub names: &'a [NameTag],
    /// The selection's links.
    pub links: &'a Links,
    /// True when bytes may be edited (machine paused).
    pub editable: bool,
    /// The language of the labels.
    pub lang: crate::lesson::Lang,
}

/// A name over the hex view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NameTag {
    /// Its first byte.
    pub addr: u16,
    /// The symbol's name.
    pub name: String,
    /// Its size in bytes, when the program says (`ds.b N`).
    pub size: Option<u16>,
}

impl NameTag {
    /// The hover text: full name, address, size.
    pub fn tip(&self, lang: Lang) -> String {
        let addr = format!("{:04X}", self.addr);
        match self.size {
            Some(1) => trf(lang, "{} at ${}, 1 byte", &[&self.name, &addr]),
            Some(n) => trf(lang, "{} at ${}, {} bytes", &[&self.name, &addr, &n]),
            None => trf(lang, "{} at ${}", &[&self.name, &addr]),
        }
    }
}

/// The longest form of `name` that fits `width` points when measured by
/// `width_of`: the name itself, else a prefix of at least 3 characters and
/// `…`, else the plain prefix that fits (at least the first character, so
/// every variable shows something; an ellipsis would take a letter's room).
pub fn abbreviate(name: &str, width: f32, width_of: &dyn Fn(&str) -> f32) -> String {
    if width_of(name) <= width {
        return name.to_string();
    }
    let chars: Vec<char> = name.chars().collect();
    for keep in (3..chars.len()).rev() {
        let s: String = chars.iter().take(keep).chain(['…'].iter()).collect();
        if width_of(&s) <= width {
            return s;
        }
    }
    for keep in (2..chars.len()).rev() {
        let s: String = chars.iter().take(keep).collect();
        if width_of(&s) <= width {
            return s;
        }
    }
    chars.iter().take(1).collect()
}

/// Neighbours abbreviated to the same text (`coordx`, `coordy` -> `coo`)
/// end in their own last character instead (`cox`, `coy`).
pub fn distinguish(shown: &mut [String], tags: &[&NameTag]) {
    for j in 1..shown.len() {
        let same = shown.get(j - 1) == shown.get(j)
            && tags.get(j - 1).map(|t| &t.name) != tags.get(j).map(|t| &t.name);
        if !same {
            continue;
        }
        for k in [j - 1, j] {
            let (Some(s), Some(t)) = (shown.get_mut(k), tags.get(k)) else {
                continue;
            };
            let n = s.chars().count();
            if n >= 2 && n < t.name.chars().count() {
                let last = t.name.chars().last().unwrap_or(' ');
                *s = s.chars().take(n - 1).chain([last]).collect();
            }
        }
    }
}

/// State of the hex view: where it is scrolled, which byte is being edited.
#[derive(Default)]
pub struct MemoryState {
    /// Row to scroll to on the next frame.
    pub scroll_to: Option<u16>,
    /// The byte being edited and its text.
    pub editing: Option<(u16, String)>,
    /// The "go to" field.
    pub goto: String,
}

/// What the user did in the hex view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryAction {
    /// A byte was clicked.
    Select(u16),
    /// A byte was edited: store this value there.
    Write(u16, u8),
}

/// Draws the hex view (all 4096 rows, only the visible ones laid out).
pub fn memory_widget(
    ui: &mut egui::Ui,
    view: &MemoryView<'_>,
    state: &mut MemoryState,
    resolve: &dyn Fn(&str) -> Option<u16>,
) -> Option<MemoryAction> {
    let mut action = None;
    ui.horizontal(|ui| {
        let r = ui.add(
            egui::TextEdit::singleline(&mut state.goto)
                .desired_width(110.0)
                .hint_text(tr(view.lang, "go to $addr / symbol")),
        );
        if r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            if let Some(a) = resolve(state.goto.trim()) {
                state.scroll_to = Some(a);
            }
        }
        if !view.editable {
            ui.weak(tr(view.lang, "pause to edit"));
        } else {
            ui.weak(tr(view.lang, "double-click a byte to edit"));
        }
    });
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let (char_w, line_h) = ui.fonts_mut(|f| (f.glyph_width(&font, '0'), f.row_height(&font)));
    let small = egui::FontId::proportional((font.size * 0.8).max(8.0));
    let row_h = line_h * 2.0 + 2.0;
    let cell_w = char_w * 2.0 + 6.0;
    let addr_w = char_w * 4.0 + 10.0;
    let mut scroll = egui::ScrollArea::vertical()
        .id_salt("memory")
        .auto_shrink([false, false]);
    if let Some(a) = state.scroll_to.take() {
        let pitch = row_h + ui.spacing().item_spacing.y;
        let end = (0x10000 / ROW as usize) as f32 * pitch - ui.available_height();
        scroll = scroll.vertical_scroll_offset(((a / ROW) as f32 * pitch).clamp(0.0, end.max(0.0)));
    }
    scroll.show_rows(ui, row_h, 0x10000 / ROW as usize, |ui, range| {
        for row in range {
            let base = row as u16 * ROW;
            let width = addr_w + cell_w * ROW as f32 + 8.0 + char_w * (ROW as f32 + 1.0);
            let (rect, _) = ui.allocate_exact_size(egui::vec2(width, row_h), Sense::hover());
            let painter = ui.painter_at(rect);
            let text_color = ui.visuals().text_color();
            let weak = ui.visuals().weak_text_color();
            let hex_top = rect.min.y + line_h;
            painter.text(
                egui::pos2(rect.min.x, hex_top),
                egui::Align2::LEFT_TOP,
                format!("{base:04X}"),
                font.clone(),
                weak,
            );
            let cell_x =
                |i: u16| rect.min.x + addr_w + cell_w * i as f32 + if i >= 8 { 8.0 } else { 0.0 };
            let row_end = cell_x(ROW) + 4.0;
            // Names over their first byte, up to the next name: abbreviated
            // with `…` when they do not fit (adjacent 1-byte variables),
            // the full name, address and size on hover.
            let first = view.names.partition_point(|t| t.addr < base);
            let in_row: Vec<&NameTag> = view
                .names
                .get(first..)
                .unwrap_or(&[])
                .iter()
                .take_while(|t| (t.addr as u32) < base as u32 + ROW as u32)
                .collect();
            let width_of = |t: &str| {
                ui.fonts_mut(|f| {
                    f.layout_no_wrap(t.to_string(), small.clone(), NAME)
                        .size()
                        .x
                })
            };
            let rooms: Vec<egui::Rect> = (0..in_row.len())
                .map(|j| {
                    let x0 = in_row.get(j).map_or(row_end, |t| cell_x(t.addr - base));
                    let x1 = in_row.get(j + 1).map_or(row_end, |n| cell_x(n.addr - base));
                    egui::Rect::from_x_y_ranges(x0..=x1 - 2.0, rect.min.y..=hex_top)
                })
                .collect();
            let mut shown: Vec<String> = in_row
                .iter()
                .zip(&rooms)
                .map(|(t, r)| abbreviate(&t.name, r.width(), &width_of))
                .collect();
            distinguish(&mut shown, &in_row);
            for ((tag, room), shown) in in_row.iter().zip(rooms).zip(shown) {
                let x0 = room.min.x;
                painter.with_clip_rect(room).text(
                    egui::pos2(x0, rect.min.y + 1.0),
                    egui::Align2::LEFT_TOP,
                    &shown,
                    small.clone(),
                    NAME,
                );
                let hover =
                    ui.interact(room, ui.scope_id().with(("name", tag.addr)), Sense::hover());
                let tip = tag.tip(view.lang);
                hover.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, &tip));
                hover.on_hover_text(tip);
                painter.vline(
                    x0 - 1.0,
                    rect.min.y + 2.0..=rect.max.y - 2.0,
                    egui::Stroke::new(1.0, NAME),
                );
            }
            for i in 0..ROW {
                let addr = base + i;
                let cell = egui::Rect::from_min_size(
                    egui::pos2(cell_x(i), hex_top),
                    egui::vec2(cell_w, line_h),
                );
                if let Some(a) = byte_cell(ui, view, state, addr, cell, &font, text_color) {
                    action = Some(a);
                }
            }
            let ascii: String = (0..ROW)
                .map(|i| {
                    let b = (view.peek)(base + i);
                    if (0x20..0x7F).contains(&b) {
                        b as char
                    } else {
                        '.'
                    }
                })
                .collect();
            painter.text(
                egui::pos2(row_end + 4.0, hex_top),
                egui::Align2::LEFT_TOP,
                ascii,
                font.clone(),
                weak,
            );
        }
    });
    action
}

fn byte_cell(
    ui: &mut egui::Ui,
    view: &MemoryView<'_>,
    state: &mut MemoryState,
    addr: u16,
    cell: egui::Rect,
    font: &egui::FontId,
    text_color: Color32,
) -> Option<MemoryAction> {
    if let Some((a, text)) = &mut state.editing {
        if *a == addr {
            // The field starts empty with the old value as its hint: what
            // is typed replaces the byte (a field holding the two old
            // digits at its limit would take no typing until Backspace).
            let old = (view.peek)(addr);
            let r = ui.put(
                cell.expand2(egui::vec2(2.0, 1.0)),
                egui::TextEdit::singleline(text)
                    .char_limit(2)
                    .hint_text(format!("{old:02X}"))
                    .font(egui::TextStyle::Monospace)
                    .margin(egui::Margin::ZERO),
            );
            let r = r.on_hover_text(trf(
                view.lang,
                "new value for ${} (hex)",
                &[&format!("{addr:04X}")],
            ));
            r.request_focus();
            if ui.input(|i| i.key_pressed(egui::Key::Escape)) {
                state.editing = None;
                return None;
            }
            let full = text.trim().len() == 2;
            if ui.input(|i| i.key_pressed(egui::Key::Enter)) || r.lost_focus() || full {
                // Two hex digits complete the byte, as in a hex editor.
                let parsed = u8::from_str_radix(text.trim(), 16).ok();
                state.editing = None;
                return parsed.map(|v| MemoryAction::Write(addr, v));
            }
            return None;
        }
    }
    let value = (view.peek)(addr);
    let r = ui.interact(cell, ui.scope_id().with(("mem", addr)), Sense::click());
    r.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Button,
            true,
            format!("${addr:04X}: {value:02X}"),
        )
    });
    let painter = ui.painter();
    let mut color = text_color;
    if view.links.byte(addr).is_some() {
        painter.rect_filled(cell.shrink(1.0), 2.0, LINK);
        color = Color32::WHITE;
    } else if (view.changed)(addr) {
        painter.rect_filled(cell.shrink(1.0), 2.0, CHANGED);
        color = Color32::BLACK;
    } else if r.hovered() {
        painter.rect_filled(cell.shrink(1.0), 2.0, ui.visuals().widgets.hovered.bg_fill);
    }
    painter.text(
        cell.center(),
        egui::Align2::CENTER_CENTER,
        format!("{value:02X}"),
        font.clone(),
        color,
    );
    let r = r.on_hover_text(format!("${addr:04X} = {value} = %{value:08b}"));
    if r.double_clicked() && view.editable {
        state.editing = Some((addr, String::new()));
        None
    } else if r.clicked() {
        Some(MemoryAction::Select(addr))
    } else {
        None
    }
}

/// The memory panel on a session.
#[derive(Default)]
pub struct MemoryPanel {
    state: MemoryState,
    names: Vec<NameTag>,
    names_of: usize,
}

impl MemoryPanel {
    /// Asks the view to scroll to `addr` on the next frame.
    pub fn show_addr(&mut self, addr: u16) {
        self.state.scroll_to = Some(addr);
    }

    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        if self.names_of != session.program_generation() {
            let program = session.program().cloned();
            let size_of = |addr: u16, name: &str| {
                let s = program.as_ref()?.symbol(name)?;
                (s.value == addr).then_some(s.size).flatten()
            };
            self.names = session
                .ram_names()
                .into_iter()
                .map(|(addr, name)| NameTag {
                    addr,
                    size: size_of(addr, &name).and_then(|n| u16::try_from(n).ok()),
                    name,
                })
                .collect();
            self.names_of = session.program_generation();
            if let Some(l) = session.layout() {
                self.state.scroll_to = Some(l.base);
            }
        }
        if let Some(Selection::BufferByte(a)) = session.take_reveal() {
            self.state.scroll_to = Some(a);
        }
        let links = session.links().clone();
        let peek = |a| session.peek(a);
        let changed = |a| session.changed(a);
        let view = MemoryView {
            peek: &peek,
            changed: &changed,
            names: &self.names,
            links: &links,
            editable: session.is_paused(),
            lang: session.lang(),
        };
        let resolve = |s: &str| session.resolve(s);
        let action = memory_widget(ui, &view, &mut self.state, &resolve);
        match action {
            Some(MemoryAction::Select(a)) => session.select(Selection::BufferByte(a)),
            Some(MemoryAction::Write(a, v)) => session.poke(a, v),
            None => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours_with_the_same_abbreviation_end_in_their_last_letter() {
        let tag = |addr, name: &str| NameTag {
            addr,
            name: name.into(),
            size: Some(1),
        };
        let (x, y, t) = (tag(1, "coordx"), tag(2, "coordy"), tag(3, "timer"));
        let mut shown = vec!["coo".to_string(), "coo".into(), "tim".into()];
        distinguish(&mut shown, &[&x, &y, &t]);
        assert_eq!(shown, vec!["cox", "coy", "tim"]);
    }

    #[test]
    fn abbreviate_keeps_what_fits_and_at_least_one_character() {
        // One point per character.
        let w = |s: &str| s.chars().count() as f32;
        assert_eq!(abbreviate("player", 10.0, &w), "player");
        assert_eq!(abbreviate("cursorColumn", 5.0, &w), "curs…");
        assert_eq!(abbreviate("cursorColumn", 3.0, &w), "cur");
        assert_eq!(abbreviate("cursorColumn", 1.0, &w), "c");
        assert_eq!(abbreviate("x", 0.0, &w), "x");
    }
    use egui_kittest::kittest::Queryable;
    use egui_kittest::Harness;

    #[test]
    fn names_show_over_bytes_and_a_double_click_edits() {
        let mem = std::cell::RefCell::new(vec![0u8; 0x10000]);
        mem.borrow_mut()[0x40] = 0xAB;
        let tag = |addr: u16, name: &str, size| NameTag {
            addr,
            name: name.into(),
            size: Some(size),
        };
        let names = vec![
            tag(0x0040, "board", 336),
            tag(0x0050, "player", 1),
            tag(0x0051, "cursorColumn", 1),
        ];
        let mut state = MemoryState {
            scroll_to: Some(0x0040),
            ..MemoryState::default()
        };
        let mut actions = Vec::new();
        let mut harness = Harness::builder()
            .with_size(egui::Vec2::new(700.0, 400.0))
            .with_step_dt(1.0 / 60.0)
            .build_ui(|ui| {
                let peek = |a: u16| mem.borrow()[a as usize];
                let view = MemoryView {
                    peek: &peek,
                    changed: &|a| a == 0x41,
                    names: &names,
                    links: &Links::default(),
                    editable: true,
                    lang: crate::lesson::Lang::En,
                };
                if let Some(a) = memory_widget(ui, &view, &mut state, &|_| None) {
                    if let MemoryAction::Write(addr, v) = a {
                        mem.borrow_mut()[addr as usize] = v;
                    }
                    actions.push(a);
                }
            });
        harness.run();
        // Adjacent 1-byte variables: each named (abbreviated), the full
        // name, address and size on hover.
        for tip in [
            "player at $0050, 1 byte",
            "cursorColumn at $0051, 1 byte",
            "board at $0040, 336 bytes",
        ] {
            assert!(harness.query_by_label(tip).is_some(), "{tip}");
        }
        let byte = harness.get_by_label("$0040: AB");
        let pos = byte.rect().center();
        for _ in 0..2 {
            crate::ui::lcd::tests::click_at(&mut harness, pos);
        }
        harness.run();
        let editor = |n: &egui_kittest::kittest::AccessKitNode<'_>| {
            n.role() == egui::accesskit::Role::TextInput
                && n.label().is_some_and(|l| l.contains("new value"))
        };
        // Typing replaces the byte at once: no Backspace first.
        assert_eq!(harness.get_by(editor).value().as_deref(), Some(""));
        harness.get_by(editor).type_text("5c");
        harness.run();
        drop(harness);
        assert_eq!(actions.first(), Some(&MemoryAction::Select(0x40)));
        assert!(actions.contains(&MemoryAction::Write(0x40, 0x5C)));
        assert_eq!(mem.borrow()[0x40], 0x5C);
    }
}
