//! Completion while typing: in the mnemonic field the instructions (from
//! the opcode table) and the dialect's directives, in the operand field the
//! program's symbols: its labels and the constants of the files it
//! includes, such as the register names of the register file (`ldaa PO`
//! offers `PORTB`, `jsr dr` offers `drawCell`). Ctrl+Space opens it
//! without a prefix.

use std::ops::Range;

use egui::{Key, Modifiers, RichText};

use super::live::LiveResult;
use crate::asm::directives::DIRECTIVE_NAMES;
use crate::asm::Dialect;
use crate::cpu::opcodes::Op;
use crate::image::SymbolKind;
use crate::lesson::Lang;
use crate::ui::i18n::tr;

/// Most entries listed at once.
const SHOWN: usize = 10;

/// What an entry is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// An instruction.
    Mnemonic,
    /// A directive.
    Directive,
    /// A label.
    Label,
    /// A constant (`equ`), such as a register name.
    Constant,
}

/// One entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// What is inserted.
    pub text: String,
    /// What is shown beside it (value, kind).
    pub detail: String,
    /// What it is.
    pub kind: Kind,
}

/// The field of a line the cursor is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The label (column 1): nothing to offer.
    Label,
    /// The mnemonic field.
    Mnemonic,
    /// The operand field.
    Operand,
    /// A comment.
    Comment,
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '.'
}

/// The field of `before` (a line up to the cursor) and the byte range of
/// the word being typed at its end.
pub fn context(before: &str) -> (Field, Range<usize>) {
    let start = before
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(before.len(), |(i, _)| i);
    let word = start..before.len();
    if before.starts_with('*') || in_comment(before) {
        return (Field::Comment, word);
    }
    if start == 0 {
        // Column 1: a label.
        return (Field::Label, word);
    }
    // Fields: the label (from column 1), the mnemonic, the operand; the
    // ones before the word are those followed by a blank.
    let head = &before[..start];
    let tokens = head.split_whitespace().count();
    let complete = if head.ends_with([' ', '\t']) {
        tokens
    } else {
        tokens.saturating_sub(1)
    };
    let label = !before.starts_with([' ', '\t']);
    let index = complete + usize::from(!label);
    let field = match index {
        0 => Field::Label,
        1 => Field::Mnemonic,
        _ => Field::Operand,
    };
    (field, word)
}

fn in_comment(before: &str) -> bool {
    let mut quote = None;
    for c in before.chars() {
        match (quote, c) {
            (None, ';') => return true,
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
    }
    false
}

/// What to offer for `prefix` in `field`: entries starting with it first
/// (any case), then entries containing it (symbols only).
pub fn candidates(
    field: Field,
    prefix: &str,
    symbols: &[(String, u16, SymbolKind)],
    dialect: Dialect,
) -> Vec<Item> {
    let p = prefix.to_ascii_lowercase();
    let upper = !prefix.is_empty() && prefix.chars().all(|c| !c.is_ascii_lowercase());
    let mut items: Vec<(bool, Item)> = Vec::new();
    match field {
        Field::Mnemonic => {
            let mut names: Vec<&str> = Op::all_mnemonics().collect();
            names.sort_unstable();
            for n in names.into_iter().filter(|n| n.starts_with(&p)) {
                let modes =
                    crate::cpu::opcodes::entries_for(Op::from_mnemonic(n).unwrap_or(Op::Nop))
                        .count();
                items.push((
                    false,
                    Item {
                        text: if upper {
                            n.to_ascii_uppercase()
                        } else {
                            n.to_string()
                        },
                        detail: format!("{modes} mode(s)"),
                        kind: Kind::Mnemonic,
                    },
                ));
            }
            let mut dirs: Vec<&str> = DIRECTIVE_NAMES
                .iter()
                .map(|(n, _)| *n)
                .filter(|n| n.chars().all(|c| c.is_ascii_alphanumeric() || c == '.'))
                .chain(extra_directives(dialect).iter().map(|(n, _)| *n))
                .collect();
            dirs.sort_unstable();
            dirs.dedup();
            for n in dirs.into_iter().filter(|n| n.starts_with(&p)) {
                items.push((
                    false,
                    Item {
                        text: if upper {
                            n.to_ascii_uppercase()
                        } else {
                            n.to_string()
                        },
                        detail: "directive".into(),
                        kind: Kind::Directive,
                    },
                ));
            }
        }
        Field::Operand => {
            for (name, value, kind) in symbols {
                let lower = name.to_ascii_lowercase();
                let starts = lower.starts_with(&p);
                if !starts && (p.is_empty() || !lower.contains(&p)) {
                    continue;
                }
                let (k, what) = match kind {
                    SymbolKind::Label => (Kind::Label, "label"),
                    SymbolKind::Constant => (Kind::Constant, "constant"),
                };
                items.push((
                    !starts,
                    Item {
                        text: name.clone(),
                        detail: format!("${value:04X} {what}"),
                        kind: k,
                    },
                ));
            }
        }
        Field::Label | Field::Comment => {}
    }
    items.sort_by(|a, b| {
        a.0.cmp(&b.0).then_with(|| {
            a.1.text
                .len()
                .cmp(&b.1.text.len())
                .then(a.1.text.cmp(&b.1.text))
        })
    });
    items.into_iter().map(|(_, i)| i).collect()
}

/// The directives a dialect has beyond the course's.
fn extra_directives(
    dialect: Dialect,
) -> &'static [(&'static str, crate::asm::directives::Directive)] {
    match dialect {
        Dialect::Course => &[],
        Dialect::As11 => crate::asm::as11::DIRECTIVES,
        Dialect::Asm11 => crate::asm::asm11::DIRECTIVES,
    }
}

/// The symbols of a live result, for [`candidates`].
pub fn symbols_of(live: &LiveResult) -> Vec<(String, u16, SymbolKind)> {
    live.symbols
        .iter()
        .map(|s| (s.name.clone(), s.value, s.kind))
        .collect()
}

/// The open list.
#[derive(Default)]
pub struct Completion {
    /// The entries offered.
    pub items: Vec<Item>,
    /// The entry Enter takes.
    pub chosen: usize,
    /// The word being completed: (buffer, byte range in the text).
    pub word: Option<(usize, Range<usize>)>,
    /// The buffer's generation the word's range is for: any other change
    /// (undo, a fix, a reload) closes the list, whose range would point
    /// elsewhere.
    pub generation: u64,
}

/// What a key did to an open list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyResult {
    /// Nothing for the list.
    None,
    /// Take this entry in place of the word (buffer, byte range).
    Accept(Item, usize, Range<usize>),
    /// The list closed.
    Closed,
}

impl Completion {
    /// True while the list is shown.
    pub fn is_open(&self) -> bool {
        self.word.is_some() && !self.items.is_empty()
    }

    /// Closes the list.
    pub fn close(&mut self) {
        self.items.clear();
        self.word = None;
        self.chosen = 0;
    }

    /// Opens (or refreshes) the list for the word `range` of buffer `buffer`.
    pub fn open(&mut self, buffer: usize, range: Range<usize>, items: Vec<Item>) {
        if self
            .word
            .as_ref()
            .is_none_or(|(b, r)| *b != buffer || r.start != range.start)
        {
            self.chosen = 0;
        }
        self.chosen = self.chosen.min(items.len().saturating_sub(1));
        self.items = items;
        self.word = Some((buffer, range));
    }

    /// Takes the keys that work the list (before the text sees them).
    pub fn keys(&mut self, ctx: &egui::Context) -> KeyResult {
        if !self.is_open() {
            return KeyResult::None;
        }
        let k = |key| ctx.input_mut(|i| i.consume_key(Modifiers::NONE, key));
        if k(Key::Escape) {
            self.close();
            return KeyResult::Closed;
        }
        if k(Key::ArrowDown) {
            self.chosen = (self.chosen + 1).min(self.items.len().min(SHOWN) - 1);
        }
        if k(Key::ArrowUp) {
            self.chosen = self.chosen.saturating_sub(1);
        }
        if k(Key::Enter) || k(Key::Tab) {
            let item = self.items.get(self.chosen).cloned();
            let word = self.word.clone();
            self.close();
            return match (item, word) {
                (Some(i), Some((b, r))) => KeyResult::Accept(i, b, r),
                _ => KeyResult::Closed,
            };
        }
        KeyResult::None
    }

    /// Draws the list at `pos` (under the cursor); returns an entry clicked
    /// with the word it replaces.
    pub fn ui(
        &mut self,
        ctx: &egui::Context,
        pos: egui::Pos2,
        lang: Lang,
    ) -> Option<(Item, Range<usize>)> {
        if !self.is_open() {
            return None;
        }
        let mut picked = None;
        egui::Area::new(egui::Id::unique("editor-completion"))
            .order(egui::Order::Foreground)
            .fixed_pos(pos)
            .show(ctx, |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.set_min_width(220.0);
                    for (i, item) in self.items.iter().take(SHOWN).enumerate() {
                        let text =
                            RichText::new(format!("{:<16} {}", item.text, item.detail)).monospace();
                        let r = ui.selectable_label(i == self.chosen, text);
                        // The entry's own name, for screen readers and tests.
                        r.widget_info(|| {
                            egui::WidgetInfo::selected(
                                egui::Role::Button,
                                true,
                                i == self.chosen,
                                item.text.clone(),
                            )
                        });
                        if r.clicked() {
                            picked = self.word.clone().map(|(_, w)| (item.clone(), w));
                        }
                    }
                    if self.items.len() > SHOWN {
                        ui.weak(format!("+{}", self.items.len() - SHOWN));
                    }
                    ui.weak(tr(lang, "Enter or Tab: take · Esc: close"));
                });
            });
        if picked.is_some() {
            self.close();
        }
        picked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_field_follows_the_columns() {
        assert_eq!(context("drawCell").0, Field::Label);
        assert_eq!(context("        ld").0, Field::Mnemonic);
        assert_eq!(context("        ld"), (Field::Mnemonic, 8..10));
        assert_eq!(context("loop    ld").0, Field::Mnemonic);
        assert_eq!(context("        jsr     dr"), (Field::Operand, 16..18));
        assert_eq!(context("        ldaa    #PO").0, Field::Operand);
        assert_eq!(context("        ldaa    0,x ; dr").0, Field::Comment);
        assert_eq!(context("* dr").0, Field::Comment);
        assert_eq!(context("        jsr     ").0, Field::Operand);
        assert_eq!(context("        ").0, Field::Mnemonic);
    }

    #[test]
    fn symbols_by_prefix_then_by_part_and_mnemonics_from_the_table() {
        let syms = vec![
            ("drawCell".to_string(), 0xC100, SymbolKind::Label),
            ("drawBoard".to_string(), 0xC200, SymbolKind::Label),
            ("PORTB".to_string(), 0x0004, SymbolKind::Constant),
            ("redraw".to_string(), 0xC300, SymbolKind::Label),
        ];
        let got: Vec<String> = candidates(Field::Operand, "dr", &syms, Dialect::Course)
            .into_iter()
            .map(|i| i.text)
            .collect();
        assert_eq!(got, vec!["drawCell", "drawBoard", "redraw"]);
        let po = candidates(Field::Operand, "PO", &syms, Dialect::Course);
        assert_eq!(po[0].text, "PORTB");
        assert_eq!(po[0].kind, Kind::Constant);
        let m: Vec<String> = candidates(Field::Mnemonic, "ldaa", &syms, Dialect::Course)
            .into_iter()
            .map(|i| i.text)
            .collect();
        assert_eq!(m, vec!["ldaa"]);
        let up = candidates(Field::Mnemonic, "LDA", &syms, Dialect::Course);
        assert!(up.iter().any(|i| i.text == "LDAA"));
        let d = candidates(Field::Mnemonic, "fc", &syms, Dialect::Course);
        assert!(d
            .iter()
            .any(|i| i.text == "fcc" && i.kind == Kind::Directive));
    }
}
