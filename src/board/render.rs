//! Pictures of the LCD (NHD-C12864A1Z, see [`super::lcd`]): as 64 text rows
//! of `#` (dark) and `.` (light) for tests and `--lcd-text`, and as a PNG in
//! the module's colours for `--lcd-png` and the GUI.
//!
//! The module is an FSTN positive panel: dark (near black, slightly blue)
//! pixels on a white-grey background lit by a white LED. With the backlight
//! off (PORTA bit 6 high) the background is the grey of unlit FSTN and the
//! contrast drops.

use super::lcd::{Lcd, HEIGHT, WIDTH};

/// An sRGB colour.
pub type Rgb = [u8; 3];

/// Background with the backlight on.
pub const LIT_BACKGROUND: Rgb = [0xE8, 0xEC, 0xEE];
/// Pixel colour with the backlight on.
pub const LIT_PIXEL: Rgb = [0x1C, 0x20, 0x2C];
/// Background with the backlight off.
pub const DARK_BACKGROUND: Rgb = [0x9A, 0x9E, 0x9A];
/// Pixel colour with the backlight off.
pub const DARK_PIXEL: Rgb = [0x38, 0x3A, 0x3C];

/// Largest scale [`lcd_png`] accepts (128 x 16 = 2048 pixels wide).
pub const MAX_SCALE: u32 = 16;

/// Why a PNG could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The scale is 0 or above [`MAX_SCALE`].
    #[error("LCD scale {0} is out of range 1..={max}", max = MAX_SCALE)]
    BadScale(u32),
    /// The PNG encoder failed.
    #[error("PNG encoding failed: {0}")]
    Png(#[from] png::EncodingError),
}

/// The picture as 64 strings of 128 characters, row 0 on top: `#` dark, `.` light.
pub fn lcd_text(lcd: &Lcd) -> Vec<String> {
    (0..HEIGHT)
        .map(|y| {
            (0..WIDTH)
                .map(|x| if lcd.pixel(x, y) { '#' } else { '.' })
                .collect()
        })
        .collect()
}

/// The colours (background, pixel) the panel shows now.
pub fn colours(lcd: &Lcd) -> (Rgb, Rgb) {
    if lcd.backlight() {
        (LIT_BACKGROUND, LIT_PIXEL)
    } else {
        (DARK_BACKGROUND, DARK_PIXEL)
    }
}

/// The picture as RGB8 bytes, `scale` x `scale` screen pixels per LCD pixel.
pub fn lcd_rgb(lcd: &Lcd, scale: u32) -> Vec<u8> {
    let (bg, fg) = colours(lcd);
    let s = scale as usize;
    let mut out = Vec::with_capacity(WIDTH * HEIGHT * s * s * 3);
    for y in 0..HEIGHT * s {
        for x in 0..WIDTH * s {
            let c = if lcd.pixel(x / s, y / s) { fg } else { bg };
            out.extend_from_slice(&c);
        }
    }
    out
}

/// The picture as a PNG file (RGB, 128·scale x 64·scale).
pub fn lcd_png(lcd: &Lcd, scale: u32) -> Result<Vec<u8>, RenderError> {
    if scale == 0 || scale > MAX_SCALE {
        return Err(RenderError::BadScale(scale));
    }
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, WIDTH as u32 * scale, HEIGHT as u32 * scale);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut writer = enc.write_header()?;
        writer.write_image_data(&lcd_rgb(lcd, scale))?;
        writer.finish()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit_lcd() -> Lcd {
        let mut lcd = Lcd::new();
        for c in [0xA2, 0xA0, 0xC8, 0x24, 0x81, 0x2F, 0x2F, 0xAF] {
            lcd.receive(c, false, 0);
        }
        lcd
    }

    #[test]
    fn text_has_64_rows_of_128() {
        let mut lcd = lit_lcd();
        lcd.receive(0x03, true, 0); // page 0 column 0: rows 0 and 1
        let t = lcd_text(&lcd);
        assert_eq!(t.len(), 64);
        assert!(t.iter().all(|r| r.len() == 128));
        assert!(t[0].starts_with("#."));
        assert!(t[1].starts_with("#."));
        assert!(t[2].starts_with(".."));
    }

    #[test]
    fn png_round_trips_through_the_decoder() {
        let mut lcd = lit_lcd();
        lcd.receive(0x01, true, 0);
        let bytes = lcd_png(&lcd, 2).unwrap();
        let dec = png::Decoder::new(std::io::Cursor::new(bytes));
        let mut reader = dec.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (256, 128));
        assert_eq!(&buf[0..3], &LIT_PIXEL);
        assert_eq!(&buf[3..6], &LIT_PIXEL);
        assert_eq!(&buf[6..9], &LIT_BACKGROUND);
        lcd.set_backlight(false);
        let rgb = lcd_rgb(&lcd, 1);
        assert_eq!(&rgb[0..3], &DARK_PIXEL);
        assert_eq!(&rgb[3..6], &DARK_BACKGROUND);
    }

    #[test]
    fn bad_scale_is_an_error() {
        assert!(matches!(
            lcd_png(&Lcd::new(), 0),
            Err(RenderError::BadScale(0))
        ));
        assert!(lcd_png(&Lcd::new(), 17).is_err());
    }
}
