//! The board beside the code: the LCD as a picture for the editor's panel
//! (custom request `hc11lab/lcd`) and the push buttons (`hc11lab/key`).
//! Neither is part of the protocol; a client that does not know them
//! never asks.

use crate::machine::Machine;
use crate::script::{Action, Script};
use base64::Engine as _;
use serde::Deserialize;
use serde_json::{json, Value};

/// LCD width in pixels.
pub const WIDTH: usize = 128;
/// LCD height in pixels.
pub const HEIGHT: usize = 64;

/// The `hc11lab/lcd` answer: the picture as 64 rows of 16 bytes, the
/// leftmost pixel in each byte's top bit, base64; whether it shows
/// anything; the keys held; the E-cycle count.
pub fn lcd_body(m: &Machine, running: bool) -> Value {
    let board = m.board();
    let has_lcd = board.has_lcd();
    let mut bits = vec![0u8; WIDTH / 8 * HEIGHT];
    if has_lcd {
        let lcd = m.lcd();
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                if lcd.pixel(x, y) {
                    bits[y * WIDTH / 8 + x / 8] |= 0x80 >> (x % 8);
                }
            }
        }
    }
    let (visible, backlight) = if has_lcd {
        (m.lcd().is_visible(), m.lcd().backlight())
    } else {
        (false, false)
    };
    json!({
        "hasLcd": has_lcd,
        "hasKeys": board.has_keys(),
        "width": WIDTH,
        "height": HEIGHT,
        "pixels": base64::engine::general_purpose::STANDARD.encode(&bits),
        "visible": visible,
        "backlight": backlight,
        "keys": m.keys(),
        "cycles": m.cycles(),
        "running": running,
    })
}

/// What to do with a key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum KeyAction {
    /// Press, hold long enough for the program's debounce, release (as
    /// `--keys` does).
    #[default]
    Tap,
    /// Press and keep it down.
    Press,
    /// Let it go.
    Release,
}

/// `hc11lab/key` arguments: `key` 0..7 or a name (`drop`, `left`,
/// `right`, `reset`), and the action.
#[derive(Clone, Debug, Deserialize)]
pub struct KeyArgs {
    /// The key.
    pub key: Value,
    /// Tap (default), press or release.
    #[serde(default)]
    pub action: KeyAction,
}

impl KeyArgs {
    /// The key number.
    pub fn number(&self) -> Result<u8, String> {
        let n = match &self.key {
            Value::Number(n) => n.as_u64().and_then(|n| u8::try_from(n).ok()),
            Value::String(s) => match s.to_ascii_lowercase().as_str() {
                "drop" => Some(0),
                "left" => Some(1),
                "right" => Some(3),
                "reset" => Some(4),
                other => other.parse().ok(),
            },
            _ => None,
        };
        n.filter(|&n| n < 8).ok_or_else(|| {
            format!(
                "key `{}`: expected 0..7, drop, left, right or reset",
                self.key
            )
        })
    }
}

/// A key tap as a script of its own, which the machine plays as it runs.
pub fn tap_script(key: u8) -> Script {
    Script {
        actions: vec![Action::Tap(key)],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_has_a_bit_per_pixel() {
        let p = crate::open::open(None).expect("bundled").program;
        let mut m = Machine::new(p).expect("machine");
        m.run_until(&crate::machine::StopConditions::budget(2_000_000));
        let body = lcd_body(&m, false);
        let bits = base64::engine::general_purpose::STANDARD
            .decode(body["pixels"].as_str().expect("pixels"))
            .expect("base64");
        assert_eq!(bits.len(), 1024);
        let text = m.lcd_text();
        for (y, row) in text.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let on = bits[y * 16 + x / 8] & (0x80 >> (x % 8)) != 0;
                assert_eq!(on, c == '#', "pixel {x},{y}");
            }
        }
        assert!(
            text.iter().any(|r| r.contains('#')),
            "the game drew its board"
        );
        assert_eq!(body["hasLcd"], true);
    }

    #[test]
    fn keys_by_number_or_name() {
        let k = |v: Value| {
            KeyArgs {
                key: v,
                action: KeyAction::Tap,
            }
            .number()
        };
        assert_eq!(k(json!(3)), Ok(3));
        assert_eq!(k(json!("drop")), Ok(0));
        assert_eq!(k(json!("7")), Ok(7));
        assert!(k(json!(8)).is_err());
        assert!(k(json!(null)).is_err());
    }
}
