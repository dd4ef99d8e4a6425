//! A small PNG encoder for LCD frames (PNG specification, ISO/IEC 15948):
//! a 4-bit indexed-colour image, deflated (about 300 bytes for a Viergewinnt
//! screen), so the HTML report can embed many pictures as data URIs.

use super::frame::{Frame, Rect, HEIGHT, WIDTH};

/// Light LCD background (the NHD-C12864A1Z's white film).
const BG: [u8; 3] = [0xE4, 0xEA, 0xE0];
/// A dark pixel.
const FG: [u8; 3] = [0x1C, 0x24, 0x30];
/// Expected dark, but light in the submission.
const MISSING: [u8; 3] = [0xE0, 0x30, 0x30];
/// Dark in the submission, but expected light.
const EXTRA: [u8; 3] = [0x20, 0x70, 0xE0];
/// Outside the compared region.
const DIM: [u8; 3] = [0xB8, 0xBC, 0xB4];

fn crc32(chunks: &[&[u8]]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for bytes in chunks {
        for &b in *bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                let mask = (crc & 1).wrapping_neg();
                crc = (crc >> 1) ^ (0xEDB8_8320 & mask);
            }
        }
    }
    !crc
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    out.extend_from_slice(&crc32(&[kind, data]).to_be_bytes());
}

/// A zlib stream (RFC 1950) of `data`.
fn zlib(data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    // Writing into a Vec cannot fail.
    if z.write_all(data).is_err() {
        return Vec::new();
    }
    z.finish().unwrap_or_default()
}

/// Encodes a 4-bit indexed image of the LCD size; `index(x, y)` picks the palette entry.
fn encode(palette: &[[u8; 3]], index: impl Fn(usize, usize) -> u8) -> Vec<u8> {
    let mut raw = Vec::with_capacity(HEIGHT * (1 + WIDTH / 2));
    for y in 0..HEIGHT {
        raw.push(0); // filter: none
        for x0 in (0..WIDTH).step_by(2) {
            raw.push((index(x0, y) & 15) << 4 | (index(x0 + 1, y) & 15));
        }
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&(WIDTH as u32).to_be_bytes());
    ihdr.extend_from_slice(&(HEIGHT as u32).to_be_bytes());
    ihdr.extend_from_slice(&[4, 3, 0, 0, 0]); // depth 4, indexed, deflate, adaptive, no interlace
    chunk(&mut out, b"IHDR", &ihdr);
    let plte: Vec<u8> = palette.iter().flatten().copied().collect();
    chunk(&mut out, b"PLTE", &plte);
    chunk(&mut out, b"IDAT", &zlib(&raw));
    chunk(&mut out, b"IEND", &[]);
    out
}

/// The frame as a 128x64 PNG.
pub fn frame_png(frame: &Frame) -> Vec<u8> {
    encode(&[BG, FG], |x, y| u8::from(frame.get(x, y)))
}

/// A picture of the difference: agreeing pixels as on the LCD, pixels the
/// submission lacks in red, extra ones in blue, outside `region` greyed.
pub fn diff_png(actual: &Frame, expected: &Frame, region: Rect) -> Vec<u8> {
    let inside = |x: usize, y: usize| {
        (region.x as usize..region.x as usize + region.w as usize).contains(&x)
            && (region.y as usize..region.y as usize + region.h as usize).contains(&y)
    };
    encode(&[BG, FG, MISSING, EXTRA, DIM], |x, y| {
        let (a, e) = (actual.get(x, y), expected.get(x, y));
        match (inside(x, y), a, e) {
            (false, true, _) => 1,
            (false, false, _) => 4,
            (true, true, true) => 1,
            (true, false, false) => 0,
            (true, false, true) => 2,
            (true, true, false) => 3,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_known_value() {
        assert_eq!(crc32(&[b"123456789"]), 0xCBF4_3926);
    }

    /// The IDAT payload inflated back to the filtered rows.
    fn rows(png: &[u8]) -> Vec<u8> {
        use std::io::Read;
        let idat = png.windows(4).position(|w| w == b"IDAT").unwrap();
        let len = u32::from_be_bytes(png[idat - 4..idat].try_into().unwrap()) as usize;
        let mut raw = Vec::new();
        flate2::read::ZlibDecoder::new(&png[idat + 4..idat + 4 + len])
            .read_to_end(&mut raw)
            .unwrap();
        raw
    }

    #[test]
    fn png_structure_and_size() {
        let f = Frame::from_fn(|x, y| x == y);
        let png = frame_png(&f);
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!(&png[png.len() - 8..png.len() - 4], b"IEND");
        assert_eq!(rows(&png).len(), 64 * 65);
        assert!(png.len() < 600, "{} bytes", png.len());
    }

    #[test]
    fn pixels_decode_back() {
        let f = Frame::from_fn(|x, y| (x + y) % 3 == 0);
        let raw = rows(&frame_png(&f));
        for y in 0..HEIGHT {
            assert_eq!(raw[y * 65], 0, "filter byte");
            for x in 0..WIDTH {
                let byte = raw[y * 65 + 1 + x / 2];
                let idx = if x % 2 == 0 { byte >> 4 } else { byte & 15 };
                assert_eq!(idx == 1, f.get(x, y), "pixel {x},{y}");
            }
        }
    }

    #[test]
    fn diff_marks_missing_and_extra() {
        let mut want = Frame::default();
        want.set(3, 0, true);
        let mut got = Frame::default();
        got.set(5, 0, true);
        let raw = rows(&diff_png(&got, &want, Rect::FULL));
        let idx = |x: usize| {
            let b = raw[1 + x / 2];
            if x % 2 == 0 {
                b >> 4
            } else {
                b & 15
            }
        };
        assert_eq!((idx(3), idx(5), idx(4)), (2, 3, 0));
        let left = Rect::new(0, 0, 4, 64).unwrap();
        let raw = rows(&diff_png(&got, &want, left));
        let idx = |x: usize| {
            let b = raw[1 + x / 2];
            if x % 2 == 0 {
                b >> 4
            } else {
                b & 15
            }
        };
        assert_eq!((idx(3), idx(5), idx(6)), (2, 1, 4));
    }
}
