//! The registers panel: the MC68HC11 programmer's model (M68HC11 RM section
//! 3.1: A, B, D, X, Y, SP, PC and the condition code register with each of
//! S X H I N Z V C named), values that changed in the last step marked, the
//! cycle counter and why the machine stopped.

use egui::{Color32, RichText};

use super::i18n::{tr, trf};
use crate::cpu::Registers;
use crate::lesson::Lang;

const CHANGED: Color32 = Color32::from_rgb(0xFF, 0xB0, 0x00);

/// The CCR bits from bit 7 down, with their names as the manual gives them.
pub const FLAGS: [(char, u8, &str); 8] = [
    ('S', 0x80, "Stop disable"),
    ('X', 0x40, "XIRQ mask"),
    ('H', 0x20, "Half carry (from bit 3)"),
    ('I', 0x10, "IRQ mask"),
    ('N', 0x08, "Negative"),
    ('Z', 0x04, "Zero"),
    ('V', 0x02, "Overflow (two's complement)"),
    ('C', 0x01, "Carry / borrow"),
];

/// The hover text of a register: its value in hex, unsigned and signed
/// decimal and binary, and what it was before the last step if it changed.
pub fn value_tip(
    lang: Lang,
    reg: &str,
    now: &Registers,
    before: &Registers,
    changed: bool,
) -> String {
    let get = |r: &Registers| -> Option<(u16, bool)> {
        Some(match reg {
            "A" => (u16::from(r.a), false),
            "B" => (u16::from(r.b), false),
            "D" => (r.d(), true),
            "X" => (r.x, true),
            "Y" => (r.y, true),
            "SP" => (r.sp, true),
            "PC" => (r.pc, true),
            _ => return None,
        })
    };
    let Some((v, wide)) = get(now) else {
        return String::new();
    };
    let (hex, signed, bin) = if wide {
        (
            format!("{v:04X}"),
            (v as i16).to_string(),
            format!("{v:016b}"),
        )
    } else {
        (
            format!("{v:02X}"),
            (v as u8 as i8).to_string(),
            format!("{v:08b}"),
        )
    };
    let mut t = trf(
        lang,
        "{} = ${} = {} = signed {} = %{}",
        &[&reg, &hex, &v, &signed, &bin],
    );
    if changed {
        if let Some((b, _)) = get(before) {
            let hex = if wide {
                format!("{b:04X}")
            } else {
                format!("{b:02X}")
            };
            t.push('\n');
            t.push_str(&trf(lang, "was ${} before the last step", &[&hex]));
        }
    }
    t
}

/// Shows the registers; values that differ from `before` are highlighted.
/// `name(register, value)` gives a `label+offset` to show beside X, Y, SP, PC.
pub fn registers_widget(
    ui: &mut egui::Ui,
    regs: &Registers,
    before: &Registers,
    name: &dyn Fn(&str, u16) -> Option<String>,
    lang: Lang,
) {
    // Columns of fixed width (the font is monospace: "SP" and "$0000"), and
    // the decimal, binary or label text after them cut to what the column
    // leaves (whole on hover): at a large text size the rows stay inside
    // the panel.
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let char_w = ui.fonts_mut(|f| f.glyph_width(&font, '0'));
    let row_h = ui.fonts_mut(|f| f.row_height(&font));
    let gap = 10.0;
    let cell = |ui: &mut egui::Ui, chars: f32, add: &mut dyn FnMut(&mut egui::Ui)| {
        ui.allocate_ui_with_layout(
            egui::Vec2::new(chars * char_w + gap, row_h),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| {
                ui.set_min_width(chars * char_w + gap);
                add(ui);
            },
        );
    };
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing.y = 2.0;
        let row = |ui: &mut egui::Ui, reg: &str, text: String, changed: bool, extra: String| {
            let tip = value_tip(lang, reg, regs, before, changed);
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                cell(ui, 2.0, &mut |ui| {
                    ui.label(RichText::new(reg).monospace().strong())
                        .on_hover_text(&tip);
                });
                cell(ui, 5.0, &mut |ui| {
                    let t = RichText::new(text.as_str()).monospace();
                    let t = if changed {
                        t.background_color(CHANGED).color(Color32::BLACK)
                    } else {
                        t
                    };
                    ui.label(t).on_hover_text(&tip);
                });
                ui.add(egui::Label::new(RichText::new(extra).weak()).truncate());
            });
        };
        row(
            ui,
            "A",
            format!("${:02X}", regs.a),
            regs.a != before.a,
            format!("{} %{:08b}", regs.a, regs.a),
        );
        row(
            ui,
            "B",
            format!("${:02X}", regs.b),
            regs.b != before.b,
            format!("{} %{:08b}", regs.b, regs.b),
        );
        row(
            ui,
            "D",
            format!("${:04X}", regs.d()),
            regs.d() != before.d(),
            format!("{}", regs.d()),
        );
        for (reg, v, b) in [
            ("X", regs.x, before.x),
            ("Y", regs.y, before.y),
            ("SP", regs.sp, before.sp),
            ("PC", regs.pc, before.pc),
        ] {
            row(
                ui,
                reg,
                format!("${v:04X}"),
                v != b,
                name(reg, v).unwrap_or_default(),
            );
        }
    });
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 2.0;
        ui.label(RichText::new("CCR").monospace().strong());
        for (ch, mask, what) in FLAGS {
            let on = regs.ccr & mask != 0;
            let changed = (regs.ccr ^ before.ccr) & mask != 0;
            let mut t = RichText::new(format!("{ch}={}", on as u8)).monospace();
            t = if on { t.strong() } else { t.weak() };
            if changed {
                t = t.background_color(CHANGED).color(Color32::BLACK);
            }
            let changed = if changed { tr(lang, " (changed)") } else { "" };
            ui.label(t)
                .on_hover_text(format!("{ch}: {} = {}{changed}", tr(lang, what), on as u8,));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use egui_kittest::kittest::Queryable;
    use egui_kittest::Harness;

    #[test]
    fn flags_are_named_and_values_shown() {
        let before = Registers {
            a: 1,
            ccr: 0xD0,
            ..Registers::default()
        };
        let regs = Registers {
            a: 0x41,
            b: 0x02,
            pc: 0xC000,
            ccr: 0xD4,
            ..Registers::default()
        };
        let mut harness = Harness::builder()
            .with_size(egui::Vec2::new(400.0, 300.0))
            .build_ui(|ui| {
                registers_widget(
                    ui,
                    &regs,
                    &before,
                    &|_, a| (a == 0xC000).then(|| "Start".to_string()),
                    Lang::En,
                )
            });
        harness.run();
        assert!(harness.query_by_label("$41").is_some());
        assert!(harness.query_by_label("$4102").is_some());
        assert!(harness.query_by_label("Start").is_some());
        for f in ["S=1", "X=1", "H=0", "I=1", "N=0", "Z=1", "V=0", "C=0"] {
            assert!(harness.query_by_label(f).is_some(), "{f}");
        }
    }

    #[test]
    fn hovering_a_register_gives_its_value_every_way() {
        let before = Registers {
            b: 0x10,
            ..Registers::default()
        };
        let now = Registers {
            b: 0xFE,
            x: 0x8001,
            ..Registers::default()
        };
        assert_eq!(
            value_tip(Lang::En, "B", &now, &before, true),
            "B = $FE = 254 = signed -2 = %11111110\nwas $10 before the last step"
        );
        assert_eq!(
            value_tip(Lang::En, "X", &now, &before, false),
            "X = $8001 = 32769 = signed -32767 = %1000000000000001"
        );
    }
}
