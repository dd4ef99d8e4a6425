//! The LCD panel: the board's 128x64 NHD-C12864A1Z as the student sees it,
//! at an adjustable zoom, with the 8-row page and 8-column grid on demand
//! (the ST7565R's display RAM is organised in 8-pixel pages, one data byte
//! per column per page). Clicking a pixel selects it.

use egui::{Color32, ColorImage, Pos2, Rect, Sense, Stroke, Vec2};

use super::i18n::{tr, trf};
use super::links::{Links, Selection};
use super::session::Session;
use super::texture::CachedTexture;
use crate::lesson::Lang;

/// Pixels across.
pub const WIDTH: usize = 128;
/// Pixels down.
pub const HEIGHT: usize = 64;

/// One picture of the LCD: what is lit, row-major, row 0 on top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LcdFrame {
    /// `WIDTH * HEIGHT` pixels, true = dark (on).
    pub pixels: Vec<bool>,
    /// True when the display shows anything (display on).
    pub visible: bool,
    /// True with the backlight on.
    pub backlight: bool,
}

impl Default for LcdFrame {
    fn default() -> Self {
        LcdFrame {
            pixels: vec![false; WIDTH * HEIGHT],
            visible: false,
            backlight: false,
        }
    }
}

impl LcdFrame {
    /// Builds a frame from a pixel function.
    pub fn from_fn(visible: bool, backlight: bool, f: impl Fn(usize, usize) -> bool) -> Self {
        let mut pixels = Vec::with_capacity(WIDTH * HEIGHT);
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                pixels.push(f(x, y));
            }
        }
        LcdFrame {
            pixels,
            visible,
            backlight,
        }
    }

    /// The pixel at (x, y); false outside.
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < WIDTH && y < HEIGHT && self.pixels.get(y * WIDTH + x).copied().unwrap_or(false)
    }
}

/// View settings of the LCD panel (persisted).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct LcdSettings {
    /// Screen pixels per LCD pixel.
    pub zoom: f32,
    /// Draw the page (8-row) and 8-column grid.
    pub grid: bool,
    /// Zoom to fit the panel instead of a fixed zoom.
    pub fit: bool,
}

impl Default for LcdSettings {
    fn default() -> Self {
        LcdSettings {
            zoom: 4.0,
            grid: false,
            fit: true,
        }
    }
}

/// Key of the LCD picture's rectangle of the last frame in the context's
/// temporary data (the scripted run reports it for tests that read the
/// screen).
pub const LCD_RECT: &str = "hc11lab-lcd-rect";

const GLASS: Color32 = Color32::from_rgb(0xC8, 0xD8, 0xB8);
const GLASS_LIT: Color32 = Color32::from_rgb(0xE4, 0xF4, 0xFF);
const INK: Color32 = Color32::from_rgb(0x18, 0x20, 0x30);
const LINK: Color32 = Color32::from_rgb(0xFF, 0x40, 0x80);

/// The zoom the LCD is drawn at in a space `width` points wide with
/// `height` points left below: a whole number, so every LCD pixel is the
/// same square; never wider than the space (the display is always whole);
/// 2 or more whenever the width allows it. "Fit" takes at most 45% of the
/// height (the link bar and the cell buffer share the column).
pub fn zoom_for(settings: &LcdSettings, width: f32, height: f32) -> f32 {
    let widest = super::layout::lcd_zoom(width, f32::INFINITY);
    let wanted = if settings.fit {
        super::layout::lcd_zoom(width, height * 0.45).max(2.0)
    } else {
        settings.zoom.round().clamp(1.0, 16.0)
    };
    wanted.min(widest)
}

/// Draws `frame` and returns the pixel the user clicked and the one under
/// the pointer, if any.
///
/// `tex` caches the GPU texture (and the picture it holds) between frames.
pub fn lcd_widget(
    ui: &mut egui::Ui,
    frame: &LcdFrame,
    settings: &LcdSettings,
    links: &Links,
    selected: Option<(u8, u8)>,
    tex: &mut CachedTexture,
) -> (egui::Response, Option<(u8, u8)>) {
    let zoom = zoom_for(settings, ui.available_width(), ui.available_height());
    let size = Vec2::new(WIDTH as f32 * zoom, HEIGHT as f32 * zoom);
    let (rect, response) = ui.allocate_exact_size(size, Sense::click());
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "LCD 128x64"));
    ui.ctx()
        .data_mut(|d| d.insert_temp(egui::Id::unique(LCD_RECT), rect));

    let background = if frame.backlight { GLASS_LIT } else { GLASS };
    let mut img = ColorImage::filled([WIDTH, HEIGHT], background);
    if frame.visible {
        for (i, on) in frame.pixels.iter().enumerate() {
            if *on {
                if let Some(p) = img.pixels.get_mut(i) {
                    *p = INK;
                }
            }
        }
    }
    let tex_id = tex.show(ui.ctx(), "lcd", img);
    let painter = ui.painter_at(rect);
    painter.image(
        tex_id,
        rect,
        Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0)),
        Color32::WHITE,
    );
    let px = |x: f32, y: f32| rect.min + Vec2::new(x * zoom, y * zoom);
    if settings.grid {
        let stroke = Stroke::new(1.0, Color32::from_rgba_unmultiplied(0x40, 0x60, 0xA0, 0x80));
        for page in 1..8 {
            let y = px(0.0, page as f32 * 8.0).y;
            painter.hline(rect.x_range(), y, stroke);
        }
        for col in (8..WIDTH).step_by(8) {
            let x = px(col as f32, 0.0).x;
            painter.vline(x, rect.y_range(), stroke);
        }
    }
    for &(x, y) in &links.pixels {
        let r = Rect::from_min_size(px(x as f32, y as f32), Vec2::splat(zoom));
        painter.rect_stroke(
            r.shrink(0.5),
            0.0,
            Stroke::new(1.5, LINK),
            egui::StrokeKind::Inside,
        );
    }
    if let Some((x, y)) = selected {
        let r = Rect::from_min_size(px(x as f32, y as f32), Vec2::splat(zoom)).expand(1.5);
        painter.rect_stroke(
            r,
            0.0,
            Stroke::new(2.0, Color32::from_rgb(0xFF, 0x80, 0x00)),
            egui::StrokeKind::Outside,
        );
    }

    let mut clicked = None;
    if response.clicked() {
        if let Some(pos) = response.interact_pointer_pos() {
            let rel = (pos - rect.min) / zoom;
            if rel.x >= 0.0 && rel.y >= 0.0 && (rel.x as usize) < WIDTH && (rel.y as usize) < HEIGHT
            {
                clicked = Some((rel.x as u8, rel.y as u8));
            }
        }
    }
    (response, clicked)
}

/// The LCD pixel under the pointer, if the pointer is over the display.
pub fn hovered_pixel(response: &egui::Response) -> Option<(u8, u8)> {
    let pos = response.hover_pos()?;
    let zoom = response.rect.width() / WIDTH as f32;
    let rel = (pos - response.rect.min) / zoom;
    let (x, y) = (rel.x.floor(), rel.y.floor());
    (x >= 0.0 && y >= 0.0 && (x as usize) < WIDTH && (y as usize) < HEIGHT)
        .then_some((x as u8, y as u8))
}

/// The words for pixel (x, y): coordinates, its display RAM page and bit.
pub fn pixel_words(lang: Lang, x: u8, y: u8) -> String {
    trf(
        lang,
        "({},{}) page {} bit {}",
        &[&x, &y, &(y / 8), &(y % 8)],
    )
}

/// The LCD panel: zoom and grid controls over the display.
#[derive(Default)]
pub struct LcdPanel {
    tex: CachedTexture,
    /// The pixel under the pointer in the last frame.
    hovered: Option<(u8, u8)>,
}

impl LcdPanel {
    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let lang = session.lang();
        let t = |s: &'static str| tr(lang, s);
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new("LCD").strong());
            let s = &mut session.settings.lcd;
            ui.checkbox(&mut s.grid, t("Grid"))
                .on_hover_text(t("Show the 8-pixel pages and 8-column cells"));
            ui.checkbox(&mut s.fit, t("Fit"));
            if !s.fit {
                ui.add(
                    egui::Slider::new(&mut s.zoom, 1.0..=12.0)
                        .step_by(1.0)
                        .text(t("zoom")),
                );
            }
            // Where the pointer is, in a label of fixed width, so the
            // controls do not move as it changes.
            let text = match (self.hovered, session.selection) {
                (Some((x, y)), _) => format!("{} {}", t("pixel"), pixel_words(lang, x, y)),
                (None, Some(Selection::Pixel { x, y })) => {
                    format!("{} ({x},{y})", t("selected"))
                }
                _ => t("hover or click a pixel").to_string(),
            };
            ui.add_sized(
                [
                    220.0_f32.min(ui.available_width()),
                    ui.spacing().interact_size.y,
                ],
                egui::Label::new(egui::RichText::new(text).monospace()).truncate(),
            );
        });
        let frame = session.lcd_frame();
        let selected = match session.selection {
            Some(Selection::Pixel { x, y }) => Some((x, y)),
            _ => None,
        };
        let links = session.links().clone();
        let (response, clicked) = lcd_widget(
            ui,
            &frame,
            &session.settings.lcd,
            &links,
            selected,
            &mut self.tex,
        );
        // The label above names the pixel under the pointer. (A tooltip at
        // the pointer said it too, but where the LCD lies at the window's
        // edge, as in the compact layout, egui laid it out anew every
        // frame: a paused window with the pointer resting there drew 50
        // frames a second.)
        self.hovered = hovered_pixel(&response);
        if let Some((x, y)) = clicked {
            session.select(Selection::Pixel { x, y });
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A primary click at `pos` that leaves the pointer there (kittest's
    /// `drop_at` also removes the pointer, which hides the click position).
    pub(crate) fn click_at<S>(harness: &mut Harness<'_, S>, pos: egui::Pos2) {
        harness.hover_at(pos);
        harness.step();
        for pressed in [true, false] {
            harness.event(egui::Event::PointerButton {
                pos,
                button: egui::PointerButton::Primary,
                pressed,
                modifiers: egui::Modifiers::NONE,
            });
            harness.step();
        }
    }
    use egui_kittest::kittest::Queryable;
    use egui_kittest::Harness;

    #[test]
    fn clicking_a_pixel_reports_its_coordinates() {
        let mut frame = LcdFrame::from_fn(true, true, |x, y| x == y);
        frame.visible = true;
        let settings = LcdSettings {
            zoom: 4.0,
            grid: true,
            fit: false,
        };
        let mut tex = CachedTexture::default();
        let mut got = None;
        let mut harness = Harness::builder()
            .with_size(Vec2::new(600.0, 300.0))
            .build_ui(|ui| {
                let (_, c) = lcd_widget(ui, &frame, &settings, &Links::default(), None, &mut tex);
                if c.is_some() {
                    got = c;
                }
            });
        harness.run();
        // The widget sits at the top-left of the central panel; click the
        // middle of pixel (10, 20).
        let min = harness.get_by_label("LCD 128x64").rect().min;
        let pos = min + Vec2::new(10.5 * 4.0, 20.5 * 4.0);
        click_at(&mut harness, pos);
        drop(harness);
        assert_eq!(got, Some((10, 20)));
    }

    #[test]
    fn frame_from_fn_is_row_major() {
        let f = LcdFrame::from_fn(true, false, |x, y| x == 3 && y == 2);
        assert!(f.get(3, 2));
        assert!(!f.get(2, 3));
        assert!(!f.get(200, 2));
        assert_eq!(f.pixels.iter().filter(|p| **p).count(), 1);
    }
}
