//! Help under the pointer in the editor: a mnemonic's addressing modes with
//! opcode bytes, length and cycles and what it does to the flags, from the
//! opcode table the core executes (`cpu::opcodes`), and the mode, bytes and
//! cycles of the line under the pointer as it assembled; a symbol's value,
//! definition and uses; an error or warning with its help and a fix.

use std::ops::Range;

use egui::{Color32, RichText};

use super::live::{LiveDiag, LiveResult, LiveSymbol};
use crate::asm::Severity;
use crate::cpu::opcodes::{entries_for, Mode, Op, OpcodeInfo, FLAG_NAMES, OPCODE_MAP};
use crate::image::SymbolKind;
use crate::lesson::Lang;
use crate::ui::i18n::{tr, trf};
use crate::ui::listing::LineCode;

/// How long the pointer rests on a word before its help shows (seconds).
const DELAY: f64 = 0.35;

/// The operand bytes after the opcode, as the reference manual writes them.
pub fn operand_pattern(mode: Mode) -> &'static str {
    match mode {
        Mode::Inherent => "",
        Mode::Imm8 => "ii",
        Mode::Imm16 => "jj kk",
        Mode::Direct => "dd",
        Mode::Extended => "hh ll",
        Mode::IndexedX | Mode::IndexedY => "ff",
        Mode::Relative => "rr",
        Mode::BitDirect => "dd mm",
        Mode::BitIndexedX | Mode::BitIndexedY => "ff mm",
        Mode::BitBranchDirect => "dd mm rr",
        Mode::BitBranchIndexedX | Mode::BitBranchIndexedY => "ff mm rr",
    }
}

/// One addressing mode of a mnemonic: `indexed X   A6 ff   2 bytes  4 cycles`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeRow {
    /// The mode.
    pub mode: Mode,
    /// Opcode bytes and operand pattern (`18 A6 ff`).
    pub bytes: String,
    /// Length in bytes.
    pub len: u8,
    /// E-clock cycles.
    pub cycles: u8,
}

/// Every addressing mode of `op`, in the table's order.
pub fn mode_rows(op: Op) -> Vec<ModeRow> {
    entries_for(op)
        .map(|e| {
            let mut bytes: Vec<String> = e
                .opcode_bytes()
                .iter()
                .map(|b| format!("{b:02X}"))
                .collect();
            let pattern = operand_pattern(e.mode);
            if !pattern.is_empty() {
                bytes.push(pattern.to_string());
            }
            ModeRow {
                mode: e.mode,
                bytes: bytes.join(" "),
                len: e.byte_len(),
                cycles: e.cycles,
            }
        })
        .collect()
}

/// The table entry of the instruction a line assembled to (its first bytes).
pub fn entry_of(code: &LineCode) -> Option<&'static OpcodeInfo> {
    let first = *code.bytes.first()?;
    if crate::cpu::opcodes::PREBYTES.contains(&first) {
        let second = *code.bytes.get(1)?;
        OPCODE_MAP.get(first, second)
    } else {
        OPCODE_MAP.get(0, first)
    }
}

/// The flag row in words: `N Z change, V = 0`, or that none change.
pub fn flags_words(lang: Lang, op: Op) -> String {
    let f = op.flags().as_bytes();
    let pick = |c: u8| -> Vec<String> {
        f.iter()
            .zip(FLAG_NAMES)
            .filter(|(x, _)| **x == c)
            .map(|(_, n)| n.to_string())
            .collect()
    };
    let mut parts = Vec::new();
    let changed = pick(b'*');
    if !changed.is_empty() {
        parts.push(trf(lang, "{} by the result", &[&changed.join(" ")]));
    }
    for (c, v) in [(b'0', "0"), (b'1', "1")] {
        for n in pick(c) {
            parts.push(format!("{n} = {v}"));
        }
    }
    for n in pick(b'v') {
        parts.push(trf(lang, "{} only cleared", &[&n]));
    }
    for n in pick(b'?') {
        parts.push(trf(lang, "{} undefined", &[&n]));
    }
    if parts.is_empty() {
        return tr(lang, "flags: none change").to_string();
    }
    format!("{} {}", tr(lang, "flags:"), parts.join(", "))
}

/// What a mode is called in the hover (the table's own name).
fn mode_name(lang: Lang, mode: Mode) -> String {
    let en = mode.to_string();
    crate::ui::i18n::german(&en)
        .filter(|_| lang == Lang::De)
        .map_or(en, str::to_string)
}

/// The mnemonic help: modes, flags, and the line under the pointer.
pub fn mnemonic_ui(ui: &mut egui::Ui, lang: Lang, op: Op, line: Option<&LineCode>) {
    ui.label(RichText::new(op.mnemonic()).monospace().strong());
    let rows = mode_rows(op);
    egui::Grid::new("mnemonic-modes")
        .num_columns(4)
        .spacing([12.0, 2.0])
        .show(ui, |ui| {
            for r in &rows {
                ui.label(mode_name(lang, r.mode));
                ui.label(RichText::new(&r.bytes).monospace());
                ui.label(trf(lang, "{} bytes", &[&r.len]));
                ui.label(trf(lang, "{} cycles", &[&r.cycles]));
                ui.end_row();
            }
        });
    ui.label(
        RichText::new(format!(
            "S X H I N Z V C\n{}",
            op.flags()
                .chars()
                .map(String::from)
                .collect::<Vec<_>>()
                .join(" ")
        ))
        .monospace(),
    );
    ui.label(flags_words(lang, op));
    if let Some(code) = line {
        if let Some(e) = entry_of(code).filter(|e| e.op == op) {
            let hex: Vec<String> = code.bytes.iter().map(|b| format!("{b:02X}")).collect();
            ui.label(
                RichText::new(trf(
                    lang,
                    "this line: {}, {} ({} bytes), {} cycles",
                    &[
                        &mode_name(lang, e.mode),
                        &hex.join(" "),
                        &e.byte_len(),
                        &e.cycles,
                    ],
                ))
                .strong(),
            );
        }
    }
}

/// A symbol's value, kind, size, definition and uses.
pub fn symbol_ui(
    ui: &mut egui::Ui,
    lang: Lang,
    s: &LiveSymbol,
    live: &LiveResult,
    now: Option<String>,
) {
    let kind = match s.kind {
        SymbolKind::Label => tr(lang, "label"),
        SymbolKind::Constant => tr(lang, "constant"),
    };
    let mut head = format!("{} = ${:04X} ({}), {kind}", s.name, s.value, s.value);
    if let Some(size) = s.size {
        head.push_str(&trf(lang, ", {} bytes", &[&size]));
    }
    ui.label(RichText::new(head).monospace().strong());
    let place = |(f, l): (usize, u32)| {
        let name = live
            .files
            .get(f)
            .and_then(|f| f.path.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!("{name}:{l}")
    };
    if let Some(d) = s.defined {
        ui.label(trf(lang, "defined at {}", &[&place(d)]));
    }
    if s.uses.is_empty() {
        ui.label(tr(lang, "not used anywhere"));
    } else {
        let shown: Vec<String> = s.uses.iter().take(8).map(|u| place(*u)).collect();
        let more = s.uses.len().saturating_sub(8);
        let mut text = trf(lang, "used {}x: {}", &[&s.uses.len(), &shown.join(", ")]);
        if more > 0 {
            text.push_str(&format!(", +{more}"));
        }
        ui.add(egui::Label::new(text).wrap());
    }
    if let Some(v) = now {
        ui.label(RichText::new(v).monospace().strong());
    }
    ui.weak(tr(lang, "Ctrl+click or F12: go to the definition"));
}

/// A change the hover offers: replace bytes `cols` of line `line` (1-based,
/// as the text is now) with `with`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    /// The line.
    pub line: u32,
    /// The bytes of the line to replace.
    pub cols: Range<usize>,
    /// The replacement.
    pub with: String,
}

/// The fixes a diagnostic offers: each suggestion of its hint in place of
/// the word it is about; an instruction in column 1 indented.
pub fn fixes(d: &LiveDiag, line: u32, first_stop: usize) -> Vec<Fix> {
    if d.code == "W0002" {
        return vec![Fix {
            line,
            cols: 0..0,
            with: " ".repeat(first_stop),
        }];
    }
    if d.cols.is_empty() {
        return Vec::new();
    }
    d.suggestions()
        .into_iter()
        .map(|s| Fix {
            line,
            cols: d.cols.clone(),
            with: s,
        })
        .collect()
}

/// Errors and warnings of a line, each with its help and fixes; returns
/// the fix clicked.
pub fn diags_ui(ui: &mut egui::Ui, lang: Lang, diags: &[(&LiveDiag, Vec<Fix>)]) -> Option<Fix> {
    let mut chosen = None;
    for (d, fixes) in diags {
        let (word, color) = match d.severity {
            Severity::Error => (tr(lang, "error"), Color32::from_rgb(0xF0, 0x50, 0x50)),
            Severity::Warning => (tr(lang, "warning"), Color32::from_rgb(0xE0, 0xB0, 0x30)),
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!("{word} {}", d.code))
                    .color(color)
                    .strong(),
            );
            ui.label(&d.message);
        });
        for h in &d.hints {
            ui.add(egui::Label::new(format!("{} {h}", tr(lang, "help:"))).wrap());
        }
        for f in fixes {
            let label = if f.with.trim().is_empty() {
                tr(lang, "Fix: indent the line").to_string()
            } else {
                trf(lang, "Fix: write `{}`", &[&f.with])
            };
            if ui.button(label).clicked() {
                chosen = Some(f.clone());
            }
        }
    }
    chosen
}

/// When the help under the pointer shows: the word it is about must have
/// been under the pointer for a moment; the popup stays while the pointer
/// is on the word or inside it (to click a fix).
#[derive(Default)]
pub struct HoverState {
    /// (buffer, byte range) of the word under the pointer, and since when.
    word: Option<((usize, Range<usize>), f64)>,
    /// Where the popup was last frame.
    popup: Option<egui::Rect>,
}

impl HoverState {
    /// Notes the word under the pointer (`None`: none, or the pointer is
    /// away); true if its help should show now.
    pub fn track(&mut self, ctx: &egui::Context, word: Option<(usize, Range<usize>)>) -> bool {
        let now = ctx.input(|i| i.time);
        let pointer = ctx.input(|i| i.pointer.hover_pos());
        let in_popup =
            matches!((self.popup, pointer), (Some(r), Some(p)) if r.expand(4.0).contains(p));
        if in_popup {
            return true;
        }
        match (&self.word, word) {
            (Some((w, since)), Some(n)) if *w == n => {
                if now - since >= DELAY {
                    return true;
                }
                ctx.request_repaint_after_secs((DELAY - (now - since)) as f32);
                false
            }
            (_, Some(n)) => {
                self.word = Some((n, now));
                self.popup = None;
                ctx.request_repaint_after_secs(DELAY as f32);
                false
            }
            (_, None) => {
                self.word = None;
                self.popup = None;
                false
            }
        }
    }

    /// Shows the popup below `anchor` (the word's rectangle).
    pub fn show<R>(
        &mut self,
        ui: &egui::Ui,
        anchor: egui::Rect,
        add: impl FnOnce(&mut egui::Ui) -> R,
    ) -> Option<R> {
        let id = egui::Id::unique("editor-hover");
        let shown = egui::Popup::new(id, ui.ctx().clone(), anchor, ui.layer_id())
            // A popup, not a tooltip: its fix buttons take clicks.
            .kind(egui::PopupKind::Popup)
            .open(true)
            .width(ui.style().spacing.tooltip_width * 1.4)
            .show(|ui| add(ui))?;
        self.popup = Some(shown.response.rect);
        Some(shown.inner)
    }

    /// Forgets the popup (the text changed, the pointer left).
    pub fn clear(&mut self) {
        self.word = None;
        self.popup = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ldaa_indexed_x_is_two_bytes_and_four_cycles() {
        let rows = mode_rows(Op::Ldaa);
        let ix = rows
            .iter()
            .find(|r| r.mode == Mode::IndexedX)
            .expect("indexed X");
        assert_eq!((ix.bytes.as_str(), ix.len, ix.cycles), ("A6 ff", 2, 4));
        let iy = rows.iter().find(|r| r.mode == Mode::IndexedY).expect("Y");
        assert_eq!((iy.bytes.as_str(), iy.len, iy.cycles), ("18 A6 ff", 3, 5));
        let line = LineCode {
            addr: 0xC000,
            bytes: vec![0x18, 0xA6, 0x00],
        };
        assert_eq!(
            entry_of(&line).map(|e| (e.op, e.mode)),
            Some((Op::Ldaa, Mode::IndexedY))
        );
    }

    #[test]
    fn flags_are_said_in_words() {
        assert_eq!(
            flags_words(Lang::En, Op::Ldaa),
            "flags: N Z by the result, V = 0"
        );
        assert_eq!(flags_words(Lang::En, Op::Jsr), "flags: none change");
        assert!(flags_words(Lang::En, Op::Rti).contains("X only cleared"));
    }

    #[test]
    fn a_did_you_mean_hint_becomes_a_fix_in_place() {
        let d = LiveDiag {
            file: Some(0),
            line: 3,
            cols: 8..13,
            severity: Severity::Error,
            code: "E0003",
            message: "unknown mnemonic `ldaaa`".into(),
            hints: vec!["did you mean `ldaa`, `ldab`?".into()],
        };
        let f = fixes(&d, 5, 16);
        assert_eq!(f.len(), 2);
        assert_eq!(
            (f[0].line, f[0].cols.clone(), f[0].with.as_str()),
            (5, 8..13, "ldaa")
        );
    }
}
