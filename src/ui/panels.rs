//! The smaller panels: the link bar under the LCD and the Problems list
//! with click-to-line.

use egui::{Color32, RichText};

use super::i18n::{problem_text, severity_word, tr, trf};
use super::links::{LineRole, Selection};
use super::session::Session;
use crate::lesson::Lang;

/// The link bar: what is selected and what it lights up, in words, with the
/// linked lines as links. It keeps one height whatever it says (the views
/// below do not jump as the selection changes); longer text scrolls.
pub fn link_bar(ui: &mut egui::Ui, session: &mut Session) {
    let lang = session.lang();
    // A row is as tall as its tallest part: the monospace links, and the
    // minimum height of a wrapped row of widgets. Counted from body text
    // alone the last row was cut through its letters.
    let row = ui
        .text_style_height(&egui::TextStyle::Body)
        .max(ui.text_style_height(&egui::TextStyle::Monospace))
        .max(ui.spacing().interact_size.y)
        + ui.spacing().item_spacing.y;
    // A short window keeps a row for the cell buffer.
    let rows = if ui.available_height() < 260.0 {
        LINK_BAR_ROWS - 1.0
    } else {
        LINK_BAR_ROWS
    };
    let height = row * rows;
    egui::ScrollArea::vertical()
        .id_salt("link-bar")
        .max_height(height)
        .min_scrolled_height(height)
        .auto_shrink([false, false])
        .show(ui, |ui| link_bar_text(ui, session, lang));
}

/// Text rows the link bar keeps room for.
const LINK_BAR_ROWS: f32 = 4.0;

/// The source text of a line, trimmed of its comment and blanks.
fn line_text(session: &Session, file: usize, line: u32) -> String {
    session
        .program()
        .and_then(|p| p.files.get(file))
        .and_then(|f| f.text.lines().nth(line.saturating_sub(1) as usize))
        .map(|t| {
            t.split(';')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

fn link_bar_text(ui: &mut egui::Ui, session: &mut Session, lang: Lang) {
    let t = |s: &'static str| tr(lang, s);
    if let Some(warning) = session.links_coverage() {
        // Never a silent wrong answer: say what the links are missing.
        ui.add(
            egui::Label::new(RichText::new(warning).color(Color32::from_rgb(0xFF, 0xB0, 0x00)))
                .wrap(),
        );
    }
    let Some(sel) = session.selection else {
        ui.add(
            egui::Label::new(RichText::new(t(
                "Select a pixel on the LCD, a byte in the cell buffer or memory, or a listing \
                 line: its partners light up in the other views.",
            )))
            .wrap(),
        );
        return;
    };
    let links = session.links().clone();
    let file_name = |session: &Session, f: usize| {
        session
            .program()
            .and_then(|p| p.files.get(f))
            .and_then(|f| f.path.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    ui.horizontal_wrapped(|ui| {
        let what = match sel {
            Selection::Pixel { x, y } => format!("{} ({x},{y})", t("Pixel")),
            Selection::BufferByte(a) => format!("{} ${a:04X}{}", t("Byte"), session.describe(a)),
            Selection::Line { file, line } => {
                format!("{} {}:{line}", t("Line"), file_name(session, file))
            }
        };
        ui.label(
            RichText::new(what)
                .strong()
                .color(Color32::from_rgb(0xFF, 0x80, 0x00)),
        );
        for (a, bit) in &links.bytes {
            if Some(Selection::BufferByte(*a)) == session.selection {
                continue;
            }
            let text = match bit {
                Some(b) => format!("-> ${a:04X} {} {b}", t("bit")),
                None => format!("-> ${a:04X}"),
            };
            if ui.link(text).on_hover_text(t("select this byte")).clicked() {
                session.select(Selection::BufferByte(*a));
            }
        }
        if !links.pixels.is_empty() && !matches!(sel, Selection::Pixel { .. }) {
            ui.label(format!("-> {} {}", links.pixels.len(), t("pixel(s)")));
        }
    });
    for (f, l, role) in &links.lines {
        let verb = match role {
            LineRole::Wrote => t("written by the instruction"),
            LineRole::Read => t("read by the instruction"),
            LineRole::Computed => t("value computed by"),
            LineRole::Selected => continue,
        };
        let code = line_text(session, *f, *l);
        let name = file_name(session, *f);
        ui.horizontal_wrapped(|ui| {
            ui.label(verb);
            if ui
                .link(RichText::new(format!("{code}  ({name}:{l})")).monospace())
                .on_hover_text(t("go to this line"))
                .clicked()
            {
                session.reveal_line(*f, *l);
                session.select(Selection::Line { file: *f, line: *l });
            }
        });
    }
    for note in &links.notes {
        ui.add(egui::Label::new(note.as_str()).wrap());
    }
    if !links.chain.is_empty() {
        ui.label(RichText::new(t("Recorded chain (each step from the next):")).strong());
        for step in &links.chain {
            ui.add(egui::Label::new(RichText::new(format!("<- {step}")).monospace()).wrap());
        }
    }
}

/// The Problems list: assembly errors and load problems, click to go to
/// the line.
#[derive(Default)]
pub struct ProblemsPanel;

impl ProblemsPanel {
    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        if session.problems.is_empty() {
            ui.weak(tr(session.lang(), "No problems."));
            return;
        }
        let mut goto = None;
        egui::ScrollArea::vertical()
            .id_salt("problems")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for p in &session.problems {
                    let color = if p.severity == "error" {
                        Color32::from_rgb(0xF0, 0x50, 0x50)
                    } else {
                        Color32::from_rgb(0xE0, 0xB0, 0x30)
                    };
                    ui.horizontal_wrapped(|ui| {
                        ui.label(
                            RichText::new(severity_word(session.lang(), &p.severity))
                                .color(color)
                                .strong(),
                        );
                        if let Some((file, line, col)) = &p.at {
                            let name = file
                                .file_name()
                                .map(|n| n.to_string_lossy().into_owned())
                                .unwrap_or_default();
                            if ui.link(format!("{name}:{line}:{col}")).clicked() {
                                goto = Some((file.clone(), *line));
                            }
                        }
                        let message = problem_text(session.lang(), &p.message);
                        ui.label(RichText::new(message).monospace());
                    });
                }
            });
        if let Some((file, line)) = goto {
            let idx = session
                .program()
                .and_then(|p| p.files.iter().position(|f| f.path == file));
            match idx {
                Some(i) => {
                    session.reveal_line(i, line);
                    session.select(Selection::Line { file: i, line });
                }
                None => {
                    session.status = trf(
                        session.lang(),
                        "{} is not part of a loaded program (it did not assemble); open it \
                         in your editor at line {}.",
                        &[&file.display(), &line],
                    )
                }
            }
        }
    }
}
