//! The editor's margin, row by row: the breakpoint dot (click to set or
//! clear it), an error or warning square with its message on hover, the
//! line number with the current-line marker, and the address and bytes the
//! line assembled to in the last assembly (as many of them as the width
//! leaves room for; the rest on hover).

use egui::{Color32, Rect, Sense, Stroke, Vec2};

use crate::ui::listing::{Columns, LineCode};

const BREAK: Color32 = Color32::from_rgb(0xE0, 0x30, 0x30);
const ERROR_MARK: Color32 = Color32::from_rgb(0xF0, 0x40, 0x40);
const WARNING_MARK: Color32 = Color32::from_rgb(0xE0, 0xB0, 0x30);
/// Width of the breakpoint column (points).
pub const MARKER: f32 = 16.0;

/// What the margin shows beside one line.
#[derive(Clone, Debug, Default)]
pub struct Row {
    /// The 1-based line, as the text is now.
    pub line: u32,
    /// Address and bytes of the last assembly.
    pub code: Option<LineCode>,
    /// An error (true) or warning and its message.
    pub mark: Option<(bool, String)>,
    /// A breakpoint: enabled or not.
    pub breakpoint: Option<bool>,
    /// The line of the program counter.
    pub pc: bool,
}

/// What a click in the margin asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Click {
    /// Set or clear a breakpoint on this line.
    Breakpoint(u32),
    /// Select this line.
    Select(u32),
}

/// The margin's columns.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Digits of the largest line number.
    pub digits: usize,
    /// Address and bytes shown or not.
    pub cols: Columns,
    /// Width of a monospace character.
    pub char_w: f32,
}

impl Layout {
    /// Characters after the marker: `>123 C1A3 86 0C 39 12+ `.
    fn chars(&self) -> usize {
        1 + self.digits
            + 1
            + if self.cols.address { 5 } else { 0 }
            + if self.cols.bytes { 13 } else { 0 }
    }

    /// The whole margin's width.
    pub fn width(&self) -> f32 {
        MARKER + self.chars() as f32 * self.char_w
    }
}

/// The bytes as the margin shows them: the first four, `+` for more.
fn hex(code: &LineCode) -> String {
    let mut h = code
        .bytes
        .iter()
        .take(4)
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ");
    if code.bytes.len() > 4 {
        h.push('+');
    }
    h
}

/// Draws the rows (each with the rectangle of its line, margin-wide) and
/// returns the clicks.
pub fn rows(
    ui: &mut egui::Ui,
    id: egui::Id,
    rows: &[(Rect, Row)],
    layout: &Layout,
    font: &egui::FontId,
) -> Vec<Click> {
    let mut clicks = Vec::new();
    let weak = ui.visuals().weak_text_color();
    let strong = ui.visuals().strong_text_color();
    for (rect, row) in rows {
        let marker = Rect::from_min_size(rect.min, Vec2::new(MARKER, rect.height()));
        let r = ui.interact(marker, id.with(("mark", row.line)), Sense::click());
        let label = match (&row.mark, row.breakpoint) {
            (Some((_, m)), _) => m.clone(),
            (None, Some(true)) => format!("breakpoint {}: on", row.line),
            (None, Some(false)) => format!("breakpoint {}: off", row.line),
            (None, None) => format!("breakpoint {}", row.line),
        };
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, label.clone()));
        let painter = ui.painter();
        let h = rect.height();
        if let Some((error, _)) = &row.mark {
            let c = if *error { ERROR_MARK } else { WARNING_MARK };
            let sq = Rect::from_center_size(marker.center(), Vec2::splat(h * 0.6));
            painter.rect_filled(sq, 2.0, c);
        } else if let Some(enabled) = row.breakpoint {
            let c = if enabled { BREAK } else { Color32::GRAY };
            painter.circle_filled(marker.center(), h * 0.3, c);
        } else if r.hovered() {
            painter.circle_stroke(marker.center(), h * 0.3, Stroke::new(1.0, BREAK));
        }
        if row.breakpoint.is_some() && row.mark.is_some() {
            // Both: the dot as a ring around the square.
            let c = if row.breakpoint == Some(true) {
                BREAK
            } else {
                Color32::GRAY
            };
            painter.circle_stroke(marker.center(), h * 0.42, Stroke::new(1.5, c));
        }
        let r = match &row.mark {
            Some((_, m)) => r.on_hover_text(m.as_str()),
            None => r,
        };
        if r.clicked() {
            clicks.push(Click::Breakpoint(row.line));
        }
        let marker_char = if row.pc { ">" } else { " " };
        let mut text = format!("{marker_char}{:>w$} ", row.line, w = layout.digits);
        let mut hidden = None;
        if let Some(c) = &row.code {
            if layout.cols.address {
                text.push_str(&format!("{:04X} ", c.addr));
            }
            if layout.cols.bytes {
                text.push_str(&hex(c));
            } else {
                hidden = Some(format!("${:04X}: {}", c.addr, hex(c)));
            }
        }
        let numbers = Rect::from_min_max(egui::pos2(marker.max.x, rect.min.y), rect.max);
        let color = if row.pc { strong } else { weak };
        painter.text(
            egui::pos2(numbers.min.x, numbers.center().y),
            egui::Align2::LEFT_CENTER,
            &text,
            font.clone(),
            color,
        );
        let r = ui.interact(numbers, id.with(("line", row.line)), Sense::click());
        let name = match &row.code {
            Some(c) => format!("line {}: ${:04X} {}", row.line, c.addr, hex(c)),
            None => format!("line {}", row.line),
        };
        r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, name.clone()));
        let r = match hidden {
            Some(h) => r.on_hover_text(h),
            None => r,
        };
        if r.clicked() {
            clicks.push(Click::Select(row.line));
        }
    }
    clicks
}
