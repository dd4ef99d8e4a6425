//! The cell buffer panel: the 336-byte `board` drawn in its Zelle/Buffer
//! layout (seed manual sections 2.1.1-2.1.2 and 2.5.1): 7 columns x 6 rows
//! of cells, each 8 bytes shown as an 8x8 bit grid — byte k is column k of
//! the cell, bit b is pixel row b, bit 0 on top — so it looks like the LCD
//! it becomes.

use egui::{Color32, ColorImage, Mesh, Pos2, Rect, Sense, Shape, Stroke, Vec2};

use super::i18n::{tr, trf};
use super::links::{CellLayout, Links, Selection, CELL_BYTES};
use super::session::Session;
use super::texture::CachedTexture;

const ON: Color32 = Color32::from_rgb(0x30, 0x38, 0x50);
const OFF: Color32 = Color32::from_rgb(0xD8, 0xE0, 0xD0);
const CHANGED: Color32 = Color32::from_rgb(0xFF, 0xB0, 0x00);
const LINK: Color32 = Color32::from_rgb(0xFF, 0x40, 0x80);
const SELECTED: Color32 = Color32::from_rgb(0xFF, 0x80, 0x00);

/// Draws the buffer and returns the byte the user clicked.
///
/// `bytes` is the buffer's content (`layout.len()` bytes), `changed` tells
/// which addresses changed in the last step or run slice. `tex` keeps the
/// bits' texture between frames (uploaded again only when a bit changed).
#[allow(clippy::too_many_arguments)]
pub fn cell_buffer_widget(
    ui: &mut egui::Ui,
    layout: &CellLayout,
    bytes: &[u8],
    changed: &dyn Fn(u16) -> bool,
    links: &Links,
    selected: Option<u16>,
    tex: &mut CachedTexture,
) -> (egui::Response, Option<u16>) {
    let cols = layout.columns as f32;
    let rows = layout.rows as f32;
    let gap = 3.0;
    // Bit squares sized to fit the width and the height left (minus the
    // detail line below), at least 2 (a short window) and at most 10 points.
    let by_width = (ui.available_width() - gap * (cols - 1.0)) / (cols * 8.0);
    let by_height = (ui.available_height() - 4.0 - gap * (rows - 1.0)) / (rows * 8.0);
    let bit = (by_width.min(by_height).clamp(2.0, 10.0) * 2.0).floor() / 2.0;
    let cell = bit * 8.0;
    let size = Vec2::new(
        cols * cell + (cols - 1.0) * gap,
        rows * cell + (rows - 1.0) * gap,
    );
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "Cell buffer"));
    let painter = ui.painter_at(rect);

    let cell_rect = |col: u8, row: u8| {
        Rect::from_min_size(
            rect.min + Vec2::new(col as f32 * (cell + gap), row as f32 * (cell + gap)),
            Vec2::splat(cell),
        )
    };
    let locate = |pos: egui::Pos2| -> Option<u16> {
        for row in 0..layout.rows {
            for col in 0..layout.columns {
                let r = cell_rect(col, row);
                if r.contains(pos) {
                    let k = (((pos.x - r.min.x) / bit) as u8).min(7);
                    return Some(layout.addr_of(col, row, k));
                }
            }
        }
        None
    };

    // The bits themselves: one tiny texture (a texel per bit, 8 texels per
    // cell across and down) drawn as one quad per cell, then the lines
    // between the bits. Thousands of little rectangles per frame cost a
    // software rasterizer (Mesa llvmpipe) more than the rest of the window.
    let cols_n = layout.columns as usize;
    let rows_n = layout.rows as usize;
    let (tw, th) = (cols_n * 8, rows_n * 8);
    let mut pixels = vec![OFF; tw * th];
    for row in 0..layout.rows {
        for col in 0..layout.columns {
            for k in 0..CELL_BYTES as u8 {
                let addr = layout.addr_of(col, row, k);
                let idx = addr.wrapping_sub(layout.base) as usize;
                let value = bytes.get(idx).copied().unwrap_or(0);
                for b in 0..8usize {
                    let x = col as usize * 8 + k as usize;
                    let y = row as usize * 8 + b;
                    if value >> b & 1 == 1 {
                        if let Some(p) = pixels.get_mut(y * tw + x) {
                            *p = ON;
                        }
                    }
                }
            }
        }
    }
    let image = ColorImage::new([tw, th], pixels);
    let tex_id = tex.show(ui.ctx(), "cell-buffer", image);
    let mut mesh = Mesh::with_texture(tex_id);
    for row in 0..layout.rows {
        for col in 0..layout.columns {
            let uv = Rect::from_min_max(
                Pos2::new(col as f32 * 8.0 / tw as f32, row as f32 * 8.0 / th as f32),
                Pos2::new(
                    (col as f32 + 1.0) * 8.0 / tw as f32,
                    (row as f32 + 1.0) * 8.0 / th as f32,
                ),
            );
            mesh.add_rect_with_uv(cell_rect(col, row), uv, Color32::WHITE);
        }
    }
    painter.add(Shape::mesh(mesh));
    // The lines between bits line up across cells: 7 per cell column and
    // per cell row, drawn over the whole widget.
    let gap_stroke = Stroke::new(1.0, ui.visuals().panel_fill);
    for col in 0..layout.columns {
        let r = cell_rect(col, 0);
        for k in 1..8 {
            painter.vline(r.min.x + k as f32 * bit, rect.y_range(), gap_stroke);
        }
    }
    for row in 0..layout.rows {
        let r = cell_rect(0, row);
        for b in 1..8 {
            painter.hline(rect.x_range(), r.min.y + b as f32 * bit, gap_stroke);
        }
    }
    // Overlays: changed bytes (one mesh, no anti-aliasing needed for
    // axis-aligned ticks), links, selection, cell outlines.
    let mut ticks = Mesh::default();
    for row in 0..layout.rows {
        for col in 0..layout.columns {
            let r = cell_rect(col, row);
            for k in 0..CELL_BYTES as u8 {
                let addr = layout.addr_of(col, row, k);
                let col_rect = Rect::from_min_size(
                    r.min + Vec2::new(k as f32 * bit, 0.0),
                    Vec2::new(bit, cell),
                );
                if changed(addr) {
                    // A tick above the byte's column: changed in the last
                    // step or run slice.
                    ticks.add_colored_rect(
                        Rect::from_min_size(
                            col_rect.min - Vec2::new(0.0, 2.0),
                            Vec2::new(bit, 2.0),
                        ),
                        CHANGED,
                    );
                }
                match links.byte(addr) {
                    Some(Some(b)) => {
                        let br = Rect::from_min_size(
                            col_rect.min + Vec2::new(0.0, b as f32 * bit),
                            Vec2::splat(bit),
                        );
                        painter.rect_stroke(
                            br,
                            0.0,
                            Stroke::new(2.0, LINK),
                            egui::StrokeKind::Inside,
                        );
                    }
                    Some(None) => {
                        painter.rect_stroke(
                            col_rect,
                            0.0,
                            Stroke::new(2.0, LINK),
                            egui::StrokeKind::Inside,
                        );
                    }
                    None => {}
                }
                if selected == Some(addr) {
                    painter.rect_stroke(
                        col_rect.expand(1.0),
                        0.0,
                        Stroke::new(2.0, SELECTED),
                        egui::StrokeKind::Outside,
                    );
                }
            }
            painter.rect_stroke(
                r,
                0.0,
                Stroke::new(1.0, Color32::from_gray(0x80)),
                egui::StrokeKind::Outside,
            );
        }
    }
    if !ticks.is_empty() {
        painter.add(Shape::mesh(ticks));
    }

    let mut clicked = None;
    if response.clicked() {
        clicked = response.interact_pointer_pos().and_then(locate);
    }
    if let Some(addr) = response.hover_pos().and_then(locate) {
        let idx = addr.wrapping_sub(layout.base) as usize;
        let value = bytes.get(idx).copied().unwrap_or(0);
        let formula = layout.formula(addr).unwrap_or_default();
        response.clone().on_hover_text_at_pointer(format!(
            "${addr:04X} = ${value:02X} = %{value:08b}\n{formula}"
        ));
    }
    (response, clicked)
}

/// The cell buffer panel: the grid plus a detail line for the selected cell.
#[derive(Default)]
pub struct CellBufferPanel {
    tex: CachedTexture,
}

impl CellBufferPanel {
    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let lang = session.lang();
        let Some(layout) = session.layout() else {
            ui.weak(tr(
                lang,
                "This program has no `board` symbol, so there is no cell buffer to show.",
            ));
            return;
        };
        let bytes: Vec<u8> = (0..layout.len())
            .map(|i| session.peek(layout.base.wrapping_add(i)))
            .collect();
        let selected = match session.selection {
            Some(Selection::BufferByte(a)) => Some(a),
            _ => None,
        };
        let links = session.links().clone();
        // Header: the title, then the cell of the selected (or linked) byte
        // with its 8 bytes, each clickable.
        let focus = selected.or_else(|| links.bytes.first().map(|(a, _)| *a));
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(tr(lang, "Cell buffer")).strong())
                .on_hover_text(tr(
                    lang,
                    "board: 7 columns x 6 rows x 8 bytes. Byte k of a cell is its column k, \
                     bit b is pixel row b (bit 0 on top). Cell address = column*8 + row*56.",
                ));
            let Some((col, row, _)) = focus.and_then(|a| layout.cell_of(a)) else {
                ui.weak(tr(lang, "(7 x 6 cells of 8 bytes; click a bit)"));
                return;
            };
            let first = layout.addr_of(col, row, 0);
            let at = format!("{first:04X}");
            ui.label(trf(lang, "Column {}, row {} @ ${}:", &[&col, &row, &at]))
                .on_hover_text(layout.formula(first).unwrap_or_default());
            for k in 0..CELL_BYTES as u8 {
                let a = layout.addr_of(col, row, k);
                let v = bytes
                    .get(a.wrapping_sub(layout.base) as usize)
                    .copied()
                    .unwrap_or(0);
                let text = egui::RichText::new(format!("{v:02X}")).monospace();
                let text = if Some(a) == focus {
                    text.strong().color(SELECTED)
                } else {
                    text
                };
                if ui
                    .add(egui::Label::new(text).sense(Sense::click()))
                    .on_hover_text(format!(
                        "${a:04X}: {}",
                        layout.formula(a).unwrap_or_default()
                    ))
                    .clicked()
                {
                    session.select(Selection::BufferByte(a));
                }
            }
        });
        ui.add_space(3.0);
        let changed = |a: u16| session.changed(a);
        let (_, clicked) = cell_buffer_widget(
            ui,
            &layout,
            &bytes,
            &changed,
            &links,
            selected,
            &mut self.tex,
        );
        if let Some(addr) = clicked {
            session.select(Selection::BufferByte(addr));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::kittest::Queryable;
    use egui_kittest::Harness;

    #[test]
    fn clicking_a_bit_selects_its_byte() {
        let layout = CellLayout::VIERGEWINNT;
        // An empty cell as the manual draws it: bytes 0 and 7 full, the
        // others only top and bottom bits.
        let mut bytes = vec![0u8; 336];
        for cell in 0..42 {
            bytes[cell * 8] = 0xFF;
            bytes[cell * 8 + 7] = 0xFF;
            for k in 1..7 {
                bytes[cell * 8 + k] = 0x81;
            }
        }
        let mut got = None;
        let mut tex = CachedTexture::default();
        let mut harness = Harness::builder()
            .with_size(Vec2::new(7.0 * 80.0 + 18.0 + 16.0, 600.0))
            .build_ui(|ui| {
                let (_, c) = cell_buffer_widget(
                    ui,
                    &layout,
                    &bytes,
                    &|_| false,
                    &Links::default(),
                    None,
                    &mut tex,
                );
                if c.is_some() {
                    got = c;
                }
            });
        harness.run();
        let r = harness.get_by_label("Cell buffer").rect();
        let bit = (r.width() - 18.0) / 56.0;
        assert!(bit > 2.9);
        // Spalte 3, Zeile 2, byte 5: the manual's board+136 cell.
        let pos = r.min
            + Vec2::new(
                3.0 * (8.0 * bit + 3.0) + 5.5 * bit,
                2.0 * (8.0 * bit + 3.0) + 4.0 * bit,
            );
        crate::ui::lcd::tests::click_at(&mut harness, pos);
        drop(harness);
        assert_eq!(got, Some(0x0040 + 136 + 5));
    }
}
