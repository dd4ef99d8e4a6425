//! A 128x64 one-bit picture of the LCD (NHD-C12864A1Z) as the grader compares
//! it: row 0 on top, column 0 on the left, in the text form `run --json`
//! prints (64 strings of 128 `#`/`.`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// LCD width in pixels.
pub const WIDTH: usize = 128;
/// LCD height in pixels.
pub const HEIGHT: usize = 64;

/// One frame: bit `x` of `rows[y]` is the pixel at column `x`, row `y` (1 = dark).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Frame {
    /// The 64 rows, top first.
    pub rows: [u128; HEIGHT],
}

/// A rectangle of pixels: left, top, width, height.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rect {
    /// Leftmost column.
    pub x: u8,
    /// Top row.
    pub y: u8,
    /// Width in pixels.
    pub w: u8,
    /// Height in pixels.
    pub h: u8,
}

impl Rect {
    /// The whole LCD.
    pub const FULL: Rect = Rect {
        x: 0,
        y: 0,
        w: WIDTH as u8,
        h: HEIGHT as u8,
    };

    /// A rectangle from `[x, y, w, h]`, if it lies within the LCD and is not empty.
    pub fn new(x: u32, y: u32, w: u32, h: u32) -> Option<Rect> {
        let fits = w > 0
            && h > 0
            && x.saturating_add(w) <= WIDTH as u32
            && y.saturating_add(h) <= HEIGHT as u32;
        fits.then_some(Rect {
            x: x as u8,
            y: y as u8,
            w: w as u8,
            h: h as u8,
        })
    }

    /// The mask of the rectangle's columns within one row (empty for a
    /// rectangle that does not fit, e.g. one read from a hand-edited report).
    fn column_mask(&self) -> u128 {
        let ones = match 1u128.checked_shl(u32::from(self.w)) {
            Some(bit) => bit - 1,
            None => u128::MAX,
        };
        ones.checked_shl(u32::from(self.x)).unwrap_or(0)
    }

    fn row_range(&self) -> std::ops::Range<usize> {
        self.y as usize..(self.y as usize + self.h as usize).min(HEIGHT)
    }
}

impl fmt::Display for Rect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Rect::FULL {
            f.write_str("the whole LCD")
        } else {
            write!(
                f,
                "the region x={}..{}, y={}..{}",
                self.x,
                self.x as u16 + self.w as u16 - 1,
                self.y,
                self.y as u16 + self.h as u16 - 1
            )
        }
    }
}

/// How two frames differ within a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameDiff {
    /// Number of pixels that differ.
    pub pixels: u32,
    /// The first differing pixel in reading order (x, y).
    pub first: (u8, u8),
}

impl Default for Frame {
    fn default() -> Self {
        Frame { rows: [0; HEIGHT] }
    }
}

impl Frame {
    /// The pixel at (x, y); false outside the LCD.
    pub fn get(&self, x: usize, y: usize) -> bool {
        x < WIDTH && self.rows.get(y).is_some_and(|r| r >> x & 1 == 1)
    }

    /// Sets the pixel at (x, y); ignored outside the LCD.
    pub fn set(&mut self, x: usize, y: usize, on: bool) {
        if x >= WIDTH {
            return;
        }
        if let Some(r) = self.rows.get_mut(y) {
            if on {
                *r |= 1 << x;
            } else {
                *r &= !(1 << x);
            }
        }
    }

    /// Builds a frame from a pixel function.
    pub fn from_fn(mut pixel: impl FnMut(usize, usize) -> bool) -> Frame {
        let mut f = Frame::default();
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                f.set(x, y, pixel(x, y));
            }
        }
        f
    }

    /// Parses the text form: 64 lines of 128 characters, `#` (or `X`, `1`)
    /// for a dark pixel and `.` (or space, `0`) for a light one. Blank lines
    /// before and after are ignored.
    pub fn parse(text: &str) -> Result<Frame, String> {
        let lines: Vec<&str> = text
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .skip_while(|l| l.trim().is_empty())
            .collect();
        let end = lines
            .iter()
            .rposition(|l| !l.trim().is_empty())
            .map_or(0, |i| i + 1);
        let lines = lines.get(..end).unwrap_or(&[]);
        if lines.len() != HEIGHT {
            return Err(format!(
                "an LCD frame has {HEIGHT} lines, this one has {}",
                lines.len()
            ));
        }
        let mut f = Frame::default();
        for (y, line) in lines.iter().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            if chars.len() != WIDTH {
                return Err(format!(
                    "line {} of the LCD frame has {} characters, not {WIDTH}",
                    y + 1,
                    chars.len()
                ));
            }
            for (x, c) in chars.iter().enumerate() {
                match c {
                    '#' | 'X' | 'x' | '1' => f.set(x, y, true),
                    '.' | ' ' | '0' => {}
                    other => {
                        return Err(format!(
                            "line {} column {} of the LCD frame: `{other}` is neither `#` nor `.`",
                            y + 1,
                            x + 1
                        ))
                    }
                }
            }
        }
        Ok(f)
    }

    /// The 64 text lines (`#` dark, `.` light), as `run --json` prints them.
    pub fn to_lines(&self) -> Vec<String> {
        (0..HEIGHT)
            .map(|y| {
                (0..WIDTH)
                    .map(|x| if self.get(x, y) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }

    /// Compares two frames within `region`; `None` if they agree there.
    pub fn diff(&self, other: &Frame, region: Rect) -> Option<FrameDiff> {
        let mask = region.column_mask();
        let mut pixels = 0u32;
        let mut first = None;
        for y in region.row_range() {
            let a = self.rows.get(y).copied().unwrap_or(0);
            let b = other.rows.get(y).copied().unwrap_or(0);
            let d = (a ^ b) & mask;
            if d != 0 {
                pixels += d.count_ones();
                if first.is_none() {
                    first = Some((d.trailing_zeros() as u8, y as u8));
                }
            }
        }
        first.map(|first| FrameDiff { pixels, first })
    }

    /// Number of dark pixels.
    pub fn count_on(&self) -> u32 {
        self.rows.iter().map(|r| r.count_ones()).sum()
    }
}

impl fmt::Debug for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Frame(")?;
        for line in self.to_lines() {
            writeln!(f, "  {line}")?;
        }
        write!(f, ")")
    }
}

impl Serialize for Frame {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_lines().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Frame {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Frame, D::Error> {
        let lines = Vec::<String>::deserialize(d)?;
        Frame::parse(&lines.join("\n")).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        let f = Frame::from_fn(|x, y| (x * 7 + y * 3) % 5 == 0);
        let text = f.to_lines().join("\n");
        assert_eq!(Frame::parse(&text).unwrap(), f);
        assert!(f.get(0, 0));
        assert!(!f.get(1, 0));
        assert!(f.get(127, 1) == ((127 * 7 + 3) % 5 == 0));
    }

    #[test]
    fn parse_rejects_wrong_shapes() {
        assert!(Frame::parse("##").unwrap_err().contains("64 lines"));
        let mut lines = vec![".".repeat(128); 64];
        lines[3] = ".".repeat(127);
        assert!(Frame::parse(&lines.join("\n"))
            .unwrap_err()
            .contains("line 4"));
        lines[3] = format!("{}?", ".".repeat(127));
        assert!(Frame::parse(&lines.join("\n")).unwrap_err().contains('?'));
    }

    #[test]
    fn diff_respects_region() {
        let a = Frame::default();
        let mut b = Frame::default();
        b.set(127, 63, true);
        b.set(10, 5, true);
        let d = a.diff(&b, Rect::FULL).unwrap();
        assert_eq!(d.pixels, 2);
        assert_eq!(d.first, (10, 5));
        let left = Rect::new(0, 0, 64, 64).unwrap();
        assert_eq!(a.diff(&b, left).unwrap().pixels, 1);
        let corner = Rect::new(100, 0, 28, 4).unwrap();
        assert!(a.diff(&b, corner).is_none());
        assert!(Rect::new(120, 0, 9, 1).is_none());
    }
}
