//! What `lesson check` adds to the grader's results for a student: the
//! feedback in the student's language (written with grading, which speaks
//! it too: [`crate::grade::feedback`], re-exported here) and a failed LCD
//! comparison as two text pictures, side by side or one above the other.

pub use crate::grade::feedback::*;

use super::i18n::Lang;
use crate::grade::frame::{Frame, Rect};

/// A picture of the `region` of `frame` in Braille characters (2 × 4
/// pixels per character), one string per text line.
pub fn braille(frame: &Frame, region: Rect) -> Vec<String> {
    let (x0, y0) = (region.x as usize, region.y as usize);
    let (w, h) = (region.w as usize, region.h as usize);
    // Dot bits of a Braille cell, by (dx, dy).
    const DOTS: [[u32; 4]; 2] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];
    let mut lines = Vec::new();
    for cy in (0..h).step_by(4) {
        let mut line = String::new();
        for cx in (0..w).step_by(2) {
            let mut bits = 0u32;
            for (dx, col) in DOTS.iter().enumerate() {
                for (dy, bit) in col.iter().enumerate() {
                    let (x, y) = (x0 + cx + dx, y0 + cy + dy);
                    if cx + dx < w && cy + dy < h && x < 128 && y < 64 && frame.get(x, y) {
                        bits |= bit;
                    }
                }
            }
            line.push(char::from_u32(0x2800 + bits).unwrap_or(' '));
        }
        lines.push(line);
    }
    lines
}

/// The expected picture and the student's, with headings in `lang`: side
/// by side when both fit in `width` columns, else one above the other.
pub fn lcd_pictures(
    expected: &Frame,
    actual: &Frame,
    region: Rect,
    lang: Lang,
    width: usize,
) -> String {
    let a = braille(expected, region);
    let pic = a.first().map_or(0, |l| l.chars().count());
    if 2 * pic + 3 <= width {
        return lcd_side_by_side(expected, actual, region, lang);
    }
    let b = braille(actual, region);
    let (top, bottom) = match lang {
        Lang::De => ("erwartet", "dein LCD"),
        Lang::En => ("expected", "your LCD"),
    };
    let mut out = format!(
        "{top}  (x={}..{}, y={}..{})\n",
        region.x,
        u32::from(region.x) + u32::from(region.w) - 1,
        region.y,
        u32::from(region.y) + u32::from(region.h) - 1
    );
    for l in &a {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(bottom);
    out.push('\n');
    for l in &b {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The expected picture beside the student's, with headings in `lang`.
pub fn lcd_side_by_side(expected: &Frame, actual: &Frame, region: Rect, lang: Lang) -> String {
    let a = braille(expected, region);
    let b = braille(actual, region);
    let width = a.first().map_or(0, |l| l.chars().count());
    let (left, right) = match lang {
        Lang::De => ("erwartet", "dein LCD"),
        Lang::En => ("expected", "your LCD"),
    };
    let mut out = format!(
        "{left:<width$}   {right}  (x={}..{}, y={}..{})\n",
        region.x,
        u32::from(region.x) + u32::from(region.w) - 1,
        region.y,
        u32::from(region.y) + u32::from(region.h) - 1
    );
    for (l, r) in a.iter().zip(&b) {
        out.push_str(&format!("{l} | {r}\n"));
    }
    out
}
