//! How the window is divided for its size: which panels exist, how wide
//! they start and how far they may be dragged. Pure arithmetic on the
//! window's size in points (a HiDPI scale of 2 halves the points of a
//! screen), so the tests can check it for every screen without a window.
//!
//! - **Compact** (narrower than 900 points: 1024x600 and 1280x800 at scale
//!   2): one tabbed pane (listing, debugger, course, memory, serial,
//!   problems) beside a column with the LCD, the keys, the link bar and the
//!   cell buffer. The LCD column is as wide as the LCD at the largest whole
//!   zoom (at least 2) that leaves the tabbed pane its minimum width.
//! - **Normal**: the listing left, the LCD, link bar and cell buffer in the
//!   middle, the debugger and the course as tabs on the right, keys and
//!   memory / serial / problems at the bottom.
//! - **Wide** (1500 points and more): as normal, the course a column of its
//!   own beside the debugger.

use egui::{Rangef, Vec2};

use super::lcd::{HEIGHT, WIDTH};

/// The arrangement of panels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One tabbed pane beside the LCD column.
    Compact,
    /// Listing, centre, one tabbed side column, bottom panel.
    Normal,
    /// As normal, with the course in a column of its own.
    Wide,
}

/// Below this width (points) the window is compact.
pub const COMPACT_BELOW: f32 = 900.0;
/// From this width (points) on the course gets its own column.
pub const WIDE_FROM: f32 = 1500.0;
/// The narrowest the tabbed pane of the compact layout gets.
const COMPACT_PANE_MIN: f32 = 200.0;
/// Room around the LCD in its column: frame margins, a scroll bar.
const LCD_COLUMN_MARGIN: f32 = 24.0;

/// A panel's starting size and the range it may be dragged in (points,
/// margins included).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PanelSize {
    /// Size when first shown (and while never dragged).
    pub default: f32,
    /// What dragging may reach.
    pub range: Rangef,
}

impl PanelSize {
    fn new(default: f32, min: f32, max: f32) -> PanelSize {
        let max = max.max(min);
        PanelSize {
            default: default.clamp(min, max),
            range: Rangef::new(min, max),
        }
    }
}

/// Panel sizes for one window size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrangement {
    /// Which arrangement.
    pub mode: Mode,
    /// The listing (normal, wide).
    pub listing: PanelSize,
    /// The debugger column (and the course tab in normal mode).
    pub side: PanelSize,
    /// The course column (wide mode).
    pub course: PanelSize,
    /// The bottom panel (normal, wide).
    pub bottom: PanelSize,
    /// The LCD column of the compact layout: exact width.
    pub lcd_column: f32,
}

/// The largest whole LCD zoom for a space of `width` x `height` points, at
/// least 1 (the display is never drawn smaller than its pixels).
pub fn lcd_zoom(width: f32, height: f32) -> f32 {
    (width / WIDTH as f32)
        .min(height / HEIGHT as f32)
        .floor()
        .clamp(1.0, 12.0)
}

/// The arrangement for a window of `size` points.
pub fn arrange(size: Vec2) -> Arrangement {
    let (w, h) = (size.x, size.y);
    let mode = if w < COMPACT_BELOW {
        Mode::Compact
    } else if w >= WIDE_FROM {
        Mode::Wide
    } else {
        Mode::Normal
    };
    // The compact LCD column: the largest zoom whose column leaves the
    // tabbed pane its minimum, and whose height leaves room for the keys.
    let fit = lcd_zoom(
        w - COMPACT_PANE_MIN - LCD_COLUMN_MARGIN,
        (h - 130.0).max(HEIGHT as f32),
    );
    let lcd_column = (WIDTH as f32 * fit + LCD_COLUMN_MARGIN).min(w * 0.7);
    let listing = PanelSize::new(w * 0.38, 240.0, (w * 0.5).min(760.0));
    let side = PanelSize::new((w * 0.24).clamp(250.0, 340.0), 220.0, w * 0.35);
    let course = PanelSize::new((w * 0.2).clamp(300.0, 420.0), 240.0, w * 0.3);
    let bottom = PanelSize::new((h * 0.2).clamp(110.0, 260.0), 100.0, h * 0.45);
    Arrangement {
        mode,
        listing,
        side,
        course,
        bottom,
        lcd_column,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screens_get_the_arrangement_their_width_allows() {
        // (size in points, mode): 1024x600, 1280x800, 1920x1080 at scale 1 and 2.
        let cases = [
            (Vec2::new(1024.0, 600.0), Mode::Normal),
            (Vec2::new(1280.0, 800.0), Mode::Normal),
            (Vec2::new(1920.0, 1080.0), Mode::Wide),
            (Vec2::new(512.0, 300.0), Mode::Compact),
            (Vec2::new(640.0, 400.0), Mode::Compact),
            (Vec2::new(960.0, 540.0), Mode::Normal),
        ];
        for (size, mode) in cases {
            let a = arrange(size);
            assert_eq!(a.mode, mode, "{size:?}");
            if mode == Mode::Compact {
                // The LCD column holds the display at 2x at least.
                assert!(a.lcd_column >= 2.0 * WIDTH as f32, "{size:?}: {a:?}");
                assert!(size.x - a.lcd_column >= COMPACT_PANE_MIN, "{size:?}");
            }
        }
    }

    #[test]
    fn lcd_zoom_is_whole_and_never_below_one() {
        assert_eq!(lcd_zoom(300.0, 200.0), 2.0);
        assert_eq!(lcd_zoom(1000.0, 200.0), 3.0);
        assert_eq!(lcd_zoom(50.0, 20.0), 1.0);
    }
}
