//! The editor's questions as modal dialogs: unsaved changes before another
//! program is loaded or the window closes, a file changed on disk while it
//! has unsaved changes here, unsaved texts an earlier window left in the
//! recovery file, and the names for Save as and for a copy of the bundled
//! sources.

use egui::RichText;

use super::edits::Question;
use crate::ui::i18n::{tr, trf};
use crate::ui::session::Session;

/// A list of file names for a question.
fn names(list: &[String]) -> String {
    let mut shown: Vec<String> = list.iter().take(6).cloned().collect();
    if list.len() > 6 {
        shown.push(format!("+{}", list.len() - 6));
    }
    shown.join(", ")
}

/// Draws the question on screen, if any, and does what the answer says.
pub fn show(ctx: &egui::Context, session: &mut Session) {
    let Some(q) = session.edits.question.clone() else {
        return;
    };
    let lang = session.lang();
    let t = |s: &'static str| tr(lang, s);
    let modal = egui::Modal::new(egui::Id::unique("editor-question")).show(ctx, |ui| {
        ui.set_max_width(460.0);
        match q {
            Question::BeforeOpen(input) => {
                ui.label(RichText::new(t("Unsaved changes")).strong());
                ui.add(
                    egui::Label::new(trf(
                        lang,
                        "{} have unsaved changes. Load another program anyway?",
                        &[&names(&session.edits.unsaved_names())],
                    ))
                    .wrap(),
                );
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .add_enabled(session.can_save_all(), egui::Button::new(t("Save all and load")))
                        .clicked()
                    {
                        session.edits.question = None;
                        match session.save_all() {
                            Ok(_) => session.open(input.clone()),
                            Err(e) => session.status = e,
                        }
                    }
                    if ui.button(t("Load without saving")).clicked() {
                        session.edits.question = None;
                        session.edits.allow_leave();
                        session.open(input.clone());
                    }
                    if ui.button(t("Cancel")).clicked() {
                        session.edits.question = None;
                    }
                });
            }
            Question::BeforeClose => {
                ui.label(RichText::new(t("Unsaved changes")).strong());
                ui.add(
                    egui::Label::new(trf(
                        lang,
                        "{} have unsaved changes. Close the window anyway?",
                        &[&names(&session.edits.unsaved_names())],
                    ))
                    .wrap(),
                );
                ui.horizontal_wrapped(|ui| {
                    if ui
                        .add_enabled(session.can_save_all(), egui::Button::new(t("Save all and close")))
                        .clicked()
                    {
                        session.edits.question = None;
                        match session.save_all() {
                            Ok(_) => {
                                session.edits.close_ok = true;
                                ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                            }
                            Err(e) => session.status = e,
                        }
                    }
                    if ui.button(t("Close without saving")).clicked() {
                        session.edits.question = None;
                        session.edits.close_ok = true;
                        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
                    }
                    if ui.button(t("Cancel")).clicked() {
                        session.edits.question = None;
                    }
                });
            }
            Question::DiskChanged(list) => {
                let files: Vec<String> = list
                    .iter()
                    .filter_map(|&i| session.edits.buffers.get(i).map(|b| b.name()))
                    .collect();
                ui.label(RichText::new(t("Changed on disk")).strong());
                ui.add(
                    egui::Label::new(trf(
                        lang,
                        "{} changed on disk (another editor?) while you have unsaved changes here. Load the version on disk? Your text stays in undo (Ctrl+Z).",
                        &[&names(&files)],
                    ))
                    .wrap(),
                );
                ui.horizontal_wrapped(|ui| {
                    if ui.button(t("Load from disk")).clicked() {
                        session.edits.question = None;
                        for i in list.clone() {
                            session.reload_buffer(i);
                        }
                    }
                    if ui.button(t("Keep mine")).clicked() {
                        session.edits.question = None;
                    }
                });
            }
            Question::Recover(saved) => {
                let files: Vec<String> = saved
                    .files
                    .iter()
                    .map(|f| {
                        f.path
                            .file_name()
                            .map_or_else(|| f.path.display().to_string(), |n| n.to_string_lossy().into_owned())
                    })
                    .collect();
                ui.label(RichText::new(t("Unsaved changes from last time")).strong());
                ui.add(
                    egui::Label::new(trf(
                        lang,
                        "hc11lab did not close properly last time. Unsaved changes to {} were kept. Restore them?",
                        &[&names(&files)],
                    ))
                    .wrap(),
                );
                ui.horizontal_wrapped(|ui| {
                    if ui.button(t("Restore")).clicked() {
                        session.edits.question = None;
                        session.restore_recovery(&saved);
                    }
                    if ui.button(t("Discard them")).clicked() {
                        session.edits.question = None;
                        session.edits.keep_recovery(true);
                    }
                });
            }
            Question::SaveAs(i, path, error) => {
                let name = session
                    .edits
                    .buffers
                    .get(i)
                    .map(|b| b.name())
                    .unwrap_or_default();
                ui.label(RichText::new(trf(lang, "Save {} as", &[&name])).strong());
                let mut typed = path.clone();
                let label = ui.label(t("File:"));
                let r = ui
                    .add(egui::TextEdit::singleline(&mut typed).desired_width(420.0))
                    .labelled_by(label.id);
                // Asked before the field takes the keyboard back: Enter in
                // it is what lost it.
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if !enter && ui.ctx().memory(|m| m.focused().is_none()) {
                    r.request_focus();
                }
                if let Some(e) = &error {
                    ui.add(egui::Label::new(RichText::new(e).color(egui::Color32::from_rgb(0xFF, 0x60, 0x60))).wrap());
                }
                let mut go = None;
                ui.horizontal_wrapped(|ui| {
                    if ui.button(t("Save")).clicked() || enter {
                        go = Some(false);
                    }
                    if error.is_some() && ui.button(t("Replace")).clicked() {
                        go = Some(true);
                    }
                    if ui.button(t("Cancel")).clicked() {
                        session.edits.question = None;
                    }
                });
                if session.edits.question.is_some() {
                    session.edits.question = Some(Question::SaveAs(i, typed.clone(), if typed == path { error } else { None }));
                }
                if let Some(replace) = go {
                    match session.save_as(i, &typed, replace) {
                        Ok(_) => session.edits.question = None,
                        Err(e) => session.edits.question = Some(Question::SaveAs(i, typed, Some(e))),
                    }
                }
            }
            Question::SaveCopy(dir, error) => {
                ui.label(RichText::new(t("Save a copy of the sources")).strong());
                ui.add(
                    egui::Label::new(t(
                        "The bundled Viergewinnt has no files of its own: type a folder (new or empty) for a copy of all its sources with your changes; the copy is opened, and Ctrl+S saves there.",
                    ))
                    .wrap(),
                );
                let mut typed = dir.clone();
                let label = ui.label(t("Folder:"));
                let r = ui
                    .add(egui::TextEdit::singleline(&mut typed).desired_width(420.0))
                    .labelled_by(label.id);
                let enter = r.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                if !enter && ui.ctx().memory(|m| m.focused().is_none()) {
                    // The folder field has the keyboard: typed, Enter.
                    r.request_focus();
                }
                if let Some(e) = &error {
                    ui.add(egui::Label::new(RichText::new(e).color(egui::Color32::from_rgb(0xFF, 0x60, 0x60))).wrap());
                }
                let mut go = false;
                ui.horizontal_wrapped(|ui| {
                    go = ui.button(t("Save copy")).clicked() || enter;
                    if ui.button(t("Cancel")).clicked() {
                        session.edits.question = None;
                    }
                });
                if session.edits.question.is_some() {
                    session.edits.question = Some(Question::SaveCopy(typed.clone(), if typed == dir { error } else { None }));
                }
                if go && !typed.trim().is_empty() {
                    match session.save_sources_to(std::path::Path::new(typed.trim())) {
                        Ok(_) => session.edits.question = None,
                        Err(e) => session.edits.question = Some(Question::SaveCopy(typed, Some(e))),
                    }
                }
            }
        }
    });
    if modal.should_close() {
        // Escape or a click outside: cancel, except for the recovery
        // question, which must be answered (else the texts would be lost).
        if !matches!(session.edits.question, Some(Question::Recover(_))) {
            session.edits.question = None;
        }
    }
}
