//! The editor's two bars: find and replace (Ctrl+F, Ctrl+H; Enter for the
//! next match, Shift+Enter for the previous, Escape back to the text) and
//! go to line (Ctrl+G).

use std::ops::Range;

use egui::{Key, RichText};

use crate::lesson::Lang;
use crate::ui::i18n::{tr, trf};

/// Every match of `query` in `text` (byte ranges, not overlapping); without
/// `case`, ASCII letters match in any case.
pub fn matches(text: &str, query: &str, case: bool) -> Vec<Range<usize>> {
    if query.is_empty() {
        return Vec::new();
    }
    let (hay, needle) = if case {
        (text.to_string(), query.to_string())
    } else {
        // ASCII folding keeps every byte where it was.
        (text.to_ascii_lowercase(), query.to_ascii_lowercase())
    };
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = hay[from..].find(&needle) {
        let start = from + i;
        out.push(start..start + needle.len());
        from = start + needle.len();
    }
    out
}

/// What the find bar asks of the editor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FindAction {
    /// Select this match and show it.
    Select(Range<usize>),
    /// Replace this match with the text, then select the next.
    Replace(Range<usize>, String),
    /// Replace every match (one undo step).
    ReplaceAll(String),
    /// The bar closed: the text takes the keyboard again.
    Close,
}

/// The find (and replace) bar.
#[derive(Default)]
pub struct FindBar {
    /// Shown.
    pub open: bool,
    /// With the replace row.
    pub replace: bool,
    /// What to find.
    pub query: String,
    /// What to put in its place.
    pub with: String,
    /// Letters must match in case.
    pub case: bool,
    focus: bool,
    /// The match selected last.
    pub current: Option<Range<usize>>,
}

impl FindBar {
    /// Opens the bar (`replace`: with the replace row), with the selected
    /// text as the query if there is one, and the keyboard in it.
    pub fn open(&mut self, replace: bool, selected: Option<&str>) {
        self.open = true;
        self.replace = replace;
        self.focus = true;
        if let Some(s) = selected.filter(|s| !s.is_empty() && !s.contains('\n')) {
            self.query = s.to_string();
        }
    }

    /// The next match after byte `from` (or before it, `back`), around the
    /// end of the text.
    pub fn next(&self, text: &str, from: usize, back: bool) -> Option<Range<usize>> {
        let all = matches(text, &self.query, self.case);
        if back {
            all.iter()
                .rev()
                .find(|m| m.end <= from)
                .or_else(|| all.last())
                .cloned()
        } else {
            all.iter()
                .find(|m| m.start >= from)
                .or_else(|| all.first())
                .cloned()
        }
    }

    /// Draws the bar; `text` is the file shown, `cursor` the cursor's byte
    /// offset in it.
    pub fn ui(
        &mut self,
        ui: &mut egui::Ui,
        lang: Lang,
        text: &str,
        cursor: usize,
    ) -> Option<FindAction> {
        if !self.open {
            return None;
        }
        let t = |s: &'static str| tr(lang, s);
        let mut action = None;
        let all = matches(text, &self.query, self.case);
        // The match the cursor follows counts as the current one.
        let after = self
            .current
            .clone()
            .filter(|c| all.contains(c))
            .map_or(cursor, |c| c.end);
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(t("Find"));
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut self.query)
                        .id(egui::Id::unique("editor-find"))
                        .desired_width(150.0),
                )
                .labelled_by(label.id);
            if std::mem::take(&mut self.focus) {
                r.request_focus();
                // What is there is selected: typing replaces it.
                let mut st = egui::TextEdit::load_state(ui.ctx(), r.id).unwrap_or_default();
                st.cursor.set_char_range(Some(egui::text::CCursorRange::two(
                    egui::text::CCursor::new(0),
                    egui::text::CCursor::new(self.query.chars().count()),
                )));
                st.store(ui.ctx(), r.id);
            }
            let (enter, shift, escape) = ui.input(|i| {
                (
                    i.key_pressed(Key::Enter),
                    i.modifiers.shift,
                    i.key_pressed(Key::Escape),
                )
            });
            if r.lost_focus() && (escape || enter) {
                // The key was for this field, not for the text below.
                ui.input_mut(|i| {
                    i.consume_key(egui::Modifiers::NONE, Key::Escape);
                    i.consume_key(egui::Modifiers::NONE, Key::Enter);
                });
            }
            if r.lost_focus() && escape {
                action = Some(FindAction::Close);
            } else if r.lost_focus() && enter {
                action = self
                    .next(text, if shift { cursor } else { after }, shift)
                    .map(FindAction::Select);
                // Enter again finds the next one: the keyboard stays here.
                r.request_focus();
            } else if r.changed() {
                self.current = None;
                action = self.next(text, cursor, false).map(FindAction::Select);
            }
            ui.toggle_value(&mut self.case, "Aa")
                .on_hover_text(t("Match case"));
            if ui
                .button("<")
                .on_hover_text(t("Previous match (Shift+Enter)"))
                .clicked()
            {
                action = self.next(text, cursor, true).map(FindAction::Select);
            }
            if ui
                .button(">")
                .on_hover_text(t("Next match (Enter)"))
                .clicked()
            {
                action = self.next(text, after, false).map(FindAction::Select);
            }
            let count = if self.query.is_empty() {
                String::new()
            } else if all.is_empty() {
                t("no match").to_string()
            } else {
                let at = self
                    .current
                    .as_ref()
                    .and_then(|c| all.iter().position(|m| m == c))
                    .map_or("-".to_string(), |i| (i + 1).to_string());
                trf(lang, "{} of {}", &[&at, &all.len()])
            };
            ui.label(RichText::new(count).weak());
            if ui.button("x").on_hover_text(t("Close (Esc)")).clicked() {
                action = Some(FindAction::Close);
            }
        });
        if self.replace {
            ui.horizontal_wrapped(|ui| {
                let label = ui.label(t("Replace with"));
                ui.add(
                    egui::TextEdit::singleline(&mut self.with)
                        .id(egui::Id::unique("editor-replace"))
                        .desired_width(150.0),
                )
                .labelled_by(label.id);
                if ui.button(t("Replace")).clicked() {
                    let target = self
                        .current
                        .clone()
                        .filter(|c| all.contains(c))
                        .or_else(|| self.next(text, cursor, false));
                    action = target.map(|m| FindAction::Replace(m, self.with.clone()));
                }
                if ui.button(t("Replace all")).clicked() && !all.is_empty() {
                    let mut out = String::with_capacity(text.len());
                    let mut at = 0;
                    for m in &all {
                        out.push_str(&text[at..m.start]);
                        out.push_str(&self.with);
                        at = m.end;
                    }
                    out.push_str(&text[at..]);
                    action = Some(FindAction::ReplaceAll(out));
                }
            });
        }
        if let Some(FindAction::Select(m)) = &action {
            self.current = Some(m.clone());
        }
        if action == Some(FindAction::Close) {
            self.open = false;
            self.current = None;
        }
        action
    }
}

/// The go-to-line bar.
#[derive(Default)]
pub struct GotoLine {
    /// Shown.
    pub open: bool,
    text: String,
    focus: bool,
}

/// What the go-to-line bar asks of the editor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GotoAction {
    /// Put the cursor on this 1-based line.
    Line(u32),
    /// The bar closed.
    Close,
}

impl GotoLine {
    /// Opens the bar with the keyboard in it.
    pub fn open(&mut self) {
        self.open = true;
        self.text.clear();
        self.focus = true;
    }

    /// Draws the bar for a file of `lines` lines.
    pub fn ui(&mut self, ui: &mut egui::Ui, lang: Lang, lines: usize) -> Option<GotoAction> {
        if !self.open {
            return None;
        }
        let mut action = None;
        ui.horizontal(|ui| {
            let label = ui.label(tr(lang, "Go to line"));
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut self.text)
                        .id(egui::Id::unique("editor-goto-line"))
                        .desired_width(70.0),
                )
                .labelled_by(label.id);
            if std::mem::take(&mut self.focus) {
                r.request_focus();
            }
            ui.label(RichText::new(trf(lang, "of {}", &[&lines])).weak());
            let (enter, escape) =
                ui.input(|i| (i.key_pressed(Key::Enter), i.key_pressed(Key::Escape)));
            let n = self
                .text
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|n| (1..=lines as u32).contains(n));
            if r.lost_focus() && (escape || enter) {
                // The key was for this field, not for the text below.
                ui.input_mut(|i| {
                    i.consume_key(egui::Modifiers::NONE, Key::Escape);
                    i.consume_key(egui::Modifiers::NONE, Key::Enter);
                });
            }
            if r.lost_focus() && escape {
                action = Some(GotoAction::Close);
            } else if r.lost_focus() && enter {
                match n {
                    Some(n) => action = Some(GotoAction::Line(n)),
                    None => r.request_focus(),
                }
            }
            if !self.text.trim().is_empty() && n.is_none() {
                ui.label(
                    RichText::new(trf(lang, "a line from 1 to {}", &[&lines]))
                        .color(egui::Color32::from_rgb(0xFF, 0x60, 0x60)),
                );
            }
            if ui
                .button("x")
                .on_hover_text(tr(lang, "Close (Esc)"))
                .clicked()
            {
                action = Some(GotoAction::Close);
            }
        });
        if action.is_some() {
            self.open = false;
        }
        action
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_in_any_case_and_wrap_around() {
        let text = "ldaa #1\nLDAA #2\nstaa x";
        assert_eq!(matches(text, "ldaa", false), vec![0..4, 8..12]);
        assert_eq!(matches(text, "ldaa", true), vec![0..4]);
        let bar = FindBar {
            query: "ldaa".into(),
            ..FindBar::default()
        };
        assert_eq!(bar.next(text, 5, false), Some(8..12));
        assert_eq!(bar.next(text, 13, false), Some(0..4), "around the end");
        assert_eq!(bar.next(text, 5, true), Some(0..4));
        assert_eq!(bar.next(text, 0, true), Some(8..12), "around the start");
        assert!(matches(text, "", false).is_empty());
    }
}
