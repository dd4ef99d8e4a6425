//! The board keys panel: the trainer11's eight push buttons on `PIO_B`
//! (seed manual section 2.2.1: one bit per key, 0 = pressed), clickable and
//! bound to keyboard keys — arrows for left/right (keys 1 and 3), space or
//! enter for drop (key 0), R for reset (key 4), digits 0-7 for any key.

use egui::{Key, RichText, Sense, Vec2};

use super::i18n::{tr, trf};
use crate::lesson::Lang;

/// What each key does in the Viergewinnt game, and its keyboard binding.
pub const KEYS: [(u8, &str, &str); 8] = [
    (0, "drop", "Space / Enter"),
    (1, "left", "Left arrow"),
    (2, "", ""),
    (3, "right", "Right arrow"),
    (4, "reset", "R"),
    (5, "", ""),
    (6, "", ""),
    (7, "", ""),
];

/// Keyboard keys held right now, as board keys (bit n = key n down); a key
/// pressed and released within one frame counts as held in that frame (the
/// session then holds it until the program had time to see it).
/// Ignored while a text field has the keyboard.
pub fn keyboard_keys(ctx: &egui::Context) -> u8 {
    if ctx.egui_wants_keyboard_input() {
        return 0;
    }
    ctx.input(|i| {
        // Ctrl+R and the like are app shortcuts, not board keys.
        if i.modifiers.ctrl || i.modifiers.alt || i.modifiers.command {
            return 0;
        }
        let mut held = 0u8;
        let mut on = |n: u8, k: Key| {
            if i.key_down(k) || i.key_pressed(k) {
                held |= 1 << n;
            }
        };
        on(0, Key::Space);
        on(0, Key::Enter);
        on(1, Key::ArrowLeft);
        on(3, Key::ArrowRight);
        on(4, Key::R);
        for (n, k) in [
            Key::Num0,
            Key::Num1,
            Key::Num2,
            Key::Num3,
            Key::Num4,
            Key::Num5,
            Key::Num6,
            Key::Num7,
        ]
        .into_iter()
        .enumerate()
        {
            on(n as u8, k);
        }
        held
    })
}

/// Draws the eight keys; returns (held by the mouse now, clicked this frame)
/// as bit masks. `down` is what the board sees (to draw pressed keys).
pub fn keys_widget(ui: &mut egui::Ui, down: u8, lang: Lang) -> (u8, u8) {
    let mut held = 0u8;
    let mut clicked = 0u8;
    // A point under the button text, so two lines stay compact: it follows
    // View > Text size like every other label.
    let size = (egui::TextStyle::Button.resolve(ui.style()).size - 1.0).max(9.0);
    ui.horizontal_wrapped(|ui| {
        // Board order as the game uses it: left, drop, right, reset, then the rest.
        for n in [1u8, 0, 3, 4, 2, 5, 6, 7] {
            let Some((_, what, bind)) = KEYS.get(n as usize) else {
                continue;
            };
            let (what, bind) = (tr(lang, what), tr(lang, bind));
            let title = if what.is_empty() {
                format!("{n}")
            } else {
                format!("{n} {what}")
            };
            let text = if bind.is_empty() {
                RichText::new(title)
            } else {
                RichText::new(format!("{title}\n{bind}"))
            };
            let pressed = down >> n & 1 == 1;
            let button = egui::Button::new(text.size(size))
                .min_size(Vec2::new(if what.is_empty() { 28.0 } else { 62.0 }, 40.0))
                .selected(pressed)
                .sense(Sense::click_and_drag());
            let mut tip = trf(lang, "Board key {} (PIO_B bit {})", &[&n, &n]);
            if !bind.is_empty() {
                tip.push_str(&trf(lang, ", keyboard: {}", &[&bind]));
            }
            let r = ui.add(button).on_hover_text(tip);
            if r.is_pointer_button_down_on() {
                held |= 1 << n;
            }
            if r.clicked() {
                clicked |= 1 << n;
            }
        }
    });
    (held, clicked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::kittest::Queryable;
    use egui_kittest::Harness;

    #[test]
    fn clicking_drop_reports_key_0() {
        let mut clicks = 0u8;
        let mut harness = Harness::builder()
            .with_size(Vec2::new(600.0, 120.0))
            .build_ui(|ui| {
                let (_, c) = keys_widget(ui, 0, Lang::En);
                clicks |= c;
            });
        harness.run();
        harness.get_by_label_contains("0 drop").click();
        harness.run();
        harness.get_by_label_contains("3 right").click();
        harness.run();
        drop(harness);
        assert_eq!(clicks, 0b1001);
    }

    #[test]
    fn arrow_keys_map_to_board_keys() {
        let mut seen = 0u8;
        let mut harness = Harness::builder()
            .with_size(Vec2::new(200.0, 100.0))
            .build_ui(|ui| {
                seen |= keyboard_keys(ui.ctx());
            });
        harness.key_down(Key::ArrowLeft);
        harness.step();
        harness.key_down(Key::R);
        harness.step();
        drop(harness);
        assert_eq!(seen, 0b1_0010);
    }
}
