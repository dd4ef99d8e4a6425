//! Go to label (Ctrl+P): type part of a name, pick one of the labels that
//! contain it; code labels open their line in the listing, RAM variables
//! also scroll the memory view to their bytes.

use egui::{Key, RichText};

use super::i18n::tr;
use super::links::Selection;
use super::session::Session;
use crate::image::SymbolKind;

/// Most matches listed at once.
const SHOWN: usize = 12;

/// The go-to-label popup.
#[derive(Default)]
pub struct GotoLabel {
    open: bool,
    query: String,
    chosen: usize,
    focus: bool,
}

/// The labels whose names contain `query` (any case): names starting with
/// it first, then by name.
pub fn matches(names: &[(String, u16)], query: &str) -> Vec<(String, u16)> {
    let q = query.trim().to_ascii_lowercase();
    let mut hits: Vec<(bool, &(String, u16))> = names
        .iter()
        .filter_map(|n| {
            let lower = n.0.to_ascii_lowercase();
            lower.contains(&q).then(|| (!lower.starts_with(&q), n))
        })
        .collect();
    hits.sort_by(|a, b| a.0.cmp(&b.0).then(a.1 .0.cmp(&b.1 .0)));
    hits.into_iter().map(|(_, n)| n.clone()).collect()
}

impl GotoLabel {
    /// Opens the popup with an empty query and the cursor in it.
    pub fn open(&mut self) {
        self.open = true;
        self.query.clear();
        self.chosen = 0;
        self.focus = true;
    }

    /// True while the popup is shown.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Shows the popup when open.
    pub fn ui(&mut self, ctx: &egui::Context, session: &mut Session) {
        if !self.open {
            return;
        }
        let lang = session.lang();
        let names: Vec<(String, u16)> = session
            .program()
            .map(|p| {
                p.symbols
                    .iter()
                    .filter(|s| s.kind == SymbolKind::Label)
                    .map(|s| (s.name.clone(), s.value))
                    .collect()
            })
            .unwrap_or_default();
        let hits = matches(&names, &self.query);
        let mut pick = None;
        let modal = egui::Modal::new(egui::Id::unique("goto-label")).show(ctx, |ui| {
            ui.set_width(360.0);
            let label = ui.label(RichText::new(tr(lang, "Go to label")).strong());
            let r = ui
                .add(
                    egui::TextEdit::singleline(&mut self.query)
                        .desired_width(f32::INFINITY)
                        .hint_text(tr(lang, "part of a name, then Enter")),
                )
                .labelled_by(label.id);
            if std::mem::take(&mut self.focus) {
                r.request_focus();
            }
            if r.changed() {
                self.chosen = 0;
            }
            let (down, up, enter) = ui.input(|i| {
                (
                    i.key_pressed(Key::ArrowDown),
                    i.key_pressed(Key::ArrowUp),
                    i.key_pressed(Key::Enter),
                )
            });
            if down {
                self.chosen = (self.chosen + 1).min(hits.len().saturating_sub(1));
            }
            if up {
                self.chosen = self.chosen.saturating_sub(1);
            }
            if enter {
                pick = hits.get(self.chosen).cloned();
            }
            if hits.is_empty() {
                ui.weak(tr(lang, "No label contains that."));
            }
            for (i, (name, value)) in hits.iter().take(SHOWN).enumerate() {
                let text = RichText::new(format!("{name}  ${value:04X}")).monospace();
                if ui.selectable_label(i == self.chosen, text).clicked() {
                    pick = Some((name.clone(), *value));
                }
            }
            if hits.len() > SHOWN {
                ui.weak(format!("+{}", hits.len() - SHOWN));
            }
        });
        if modal.should_close() {
            self.open = false;
        }
        if let Some((name, addr)) = pick {
            self.open = false;
            go_to(session, &name, addr);
        }
    }
}

/// Shows label `name`: its definition line in the listing, and its bytes in
/// the memory view when it is not code.
fn go_to(session: &mut Session, name: &str, addr: u16) {
    let Some(p) = session.program().cloned() else {
        return;
    };
    let line = p.symbol(name).and_then(|s| s.defined_at);
    if let Some((f, l)) = line {
        session.reveal_line(f, l);
        session.select(Selection::Line { file: f, line: l });
    }
    let is_code = p.line_at(addr).is_some_and(|e| e.addr == addr);
    if !is_code {
        session.reveal_memory(addr);
    }
    session.status = format!("{name} = ${addr:04X}{}", session.describe(addr));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prefix_matches_come_first() {
        let names = vec![
            ("drawBoard".to_string(), 1),
            ("board".to_string(), 2),
            ("boardOffset".to_string(), 3),
            ("player".to_string(), 4),
        ];
        let got: Vec<String> = matches(&names, "BOARD").into_iter().map(|n| n.0).collect();
        assert_eq!(got, vec!["board", "boardOffset", "drawBoard"]);
    }
}
