//! The window's look: dark or light theme and the text size, both saved
//! with the settings. Colours that carry meaning (breakpoint red, changed
//! orange, link pink, the LCD's glass) stay the same in both themes.

use egui::{FontId, TextStyle};

/// Dark or light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Theme {
    /// Light text on dark panels.
    #[default]
    Dark,
    /// Dark text on light panels.
    Light,
}

/// Body text size (points) of a fresh install.
pub const DEFAULT_FONT_SIZE: u8 = 14;
/// The text sizes the View menu offers (points).
pub const FONT_SIZES: (u8, u8) = (10, 24);

/// Applies `theme` and body text size `size` to every style of `ctx`.
pub fn apply(ctx: &egui::Context, theme: Theme, size: u8) {
    ctx.set_theme(match theme {
        Theme::Dark => egui::Theme::Dark,
        Theme::Light => egui::Theme::Light,
    });
    let body = f32::from(size.clamp(FONT_SIZES.0, FONT_SIZES.1));
    ctx.all_styles_mut(|style| {
        // No fades: at a HiDPI scale (2 on a 1024x600 screen) a tooltip's
        // fade-in started anew every frame while the pointer rested on a
        // button, and the paused window drew 40-55 frames a second (5
        // without the fade; measured with tests/gui_xvfb.sh, SCALE=2).
        style.animation_time = 0.0;
        style.text_styles = [
            (TextStyle::Heading, FontId::proportional(body * 1.4)),
            (TextStyle::Body, FontId::proportional(body)),
            (TextStyle::Button, FontId::proportional(body)),
            // Detail text stays readable: never below 11 points.
            (
                TextStyle::Small,
                FontId::proportional((body * 0.85).max(11.0)),
            ),
            (TextStyle::Monospace, FontId::monospace(body - 1.0)),
        ]
        .into();
    });
}
