//! The listing's editor: the program's files edited in place, assembled in
//! the background after a pause in typing, their errors shown where they
//! are, and run with F7 (Assemble and reset) keeping breakpoints on their
//! lines and the watches. Nothing typed is lost: unsaved files are marked,
//! loading another program or closing asks, a recovery file keeps unsaved
//! texts, and a file changed on disk by another editor is taken in.
//!
//! The model (no egui): `lines` (where lines went), `buffer` (one file,
//! undo), `edits` (all files, the live assembly, the questions), `live`
//! (the assembly job and what it found), `text_ops` (Tab, comment),
//! `recovery`. The view: `view` (the text and its keys), `gutter`,
//! `hover`, `complete`, `find`, `dialogs`; `words` holds their German.

pub mod buffer;
pub mod complete;
pub mod dialogs;
pub mod edits;
pub mod find;
pub mod gutter;
pub mod hover;
pub mod lines;
pub mod live;
pub mod recovery;
pub mod text_ops;
pub mod view;
pub mod words;

use egui::{Key, KeyboardShortcut, Modifiers};

use super::i18n::tr;
use super::links::Selection;
use super::listing::ListingPanel;
use super::session::{Pane, Session};
use view::Command;

/// Assemble and reset: the editor's texts onto a fresh machine.
pub const ASSEMBLE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::F7);
/// Save the file shown.
pub const SAVE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::S);
/// Save the file shown under another name.
pub const SAVE_AS: KeyboardShortcut =
    KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::S);
/// A new file.
pub const NEW_FILE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::N);
/// The editor at the listing's current line.
pub const EDIT_HERE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::E);
/// Find.
pub const FIND: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::F);
/// Find and replace.
pub const REPLACE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::H);
/// Go to a line.
pub const GOTO_LINE: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::G);
/// The next file's tab.
pub const NEXT_TAB: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::PageDown);
/// The previous file's tab.
pub const PREVIOUS_TAB: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::PageUp);

/// Once per frame, before the panels: the live assembly, the close
/// request (asks when something is unsaved) and the editor's keys that
/// work wherever the keyboard is.
pub fn frame(ctx: &egui::Context, session: &mut Session, listing: &mut ListingPanel) {
    if session.edits.wake.is_none() {
        session.edits.wake = Some(ctx.clone());
    }
    session.editor_frame();
    if ctx.input(|i| i.viewport().close_requested()) {
        if session.edits.has_unsaved() && !session.edits.close_ok {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            session.edits.question = Some(edits::Question::BeforeClose);
        } else {
            session.edits.finish();
        }
    }
    let pressed = |k: &KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(k));
    if pressed(&ASSEMBLE) {
        session.assemble_and_reset();
    }
    if pressed(&SAVE_AS) {
        save_as(session, listing.current());
    } else if pressed(&SAVE) {
        session.save_file(listing.current());
    }
    if pressed(&NEW_FILE) {
        session.new_file();
        session.settings.pane = Pane::Listing;
    }
    if pressed(&EDIT_HERE) {
        edit_here(session);
    }
    for (k, step) in [(&NEXT_TAB, 1), (&PREVIOUS_TAB, -1)] {
        if pressed(k) {
            next_tab(session, listing, step);
        }
    }
    for (k, c) in [
        (&REPLACE, Command::Replace),
        (&FIND, Command::Find),
        (&GOTO_LINE, Command::GotoLine),
    ] {
        if pressed(k) {
            open_editor(session, listing, c);
        }
    }
}

/// Ctrl+PageDown / Ctrl+PageUp: the file `step` tabs on (round), in the
/// editor with the keyboard when the editor is shown.
fn next_tab(session: &mut Session, listing: &mut ListingPanel, step: isize) {
    let n = session.edits.buffers.len();
    if n == 0 {
        return;
    }
    let b = (listing.tab as isize + step).rem_euclid(n as isize) as usize;
    listing.tab = b;
    session.settings.pane = Pane::Listing;
    if listing.is_editing() {
        session.edits.request.focus = true;
    }
}

/// The board keys held on the keyboard: none while the editor asks a
/// question (its buttons take Space and Enter) or a text field has the
/// keyboard.
pub fn board_keys(ctx: &egui::Context, session: &Session) -> u8 {
    if session.edits.question.is_some() {
        return 0;
    }
    super::keys::keyboard_keys(ctx)
}

/// Asks for a name to save the file shown under.
pub fn save_as(session: &mut Session, buffer: usize) {
    if let Some(b) = session.edits.buffers.get(buffer) {
        let path = if b.untitled {
            session.suggested_path(&b.name())
        } else {
            b.path.display().to_string()
        };
        session.edits.question = Some(edits::Question::SaveAs(buffer, path, None));
    }
}

/// Switches the listing to the editor (the compact pane to the listing)
/// and does `c` there.
fn open_editor(session: &mut Session, listing: &mut ListingPanel, c: Command) {
    session.edits.request.editor = true;
    session.settings.pane = Pane::Listing;
    listing.editor.command(c);
}

/// Ctrl+E: the editor with the cursor on the listing's current line (the
/// selected line, else the program counter's).
pub fn edit_here(session: &mut Session) {
    session.settings.pane = Pane::Listing;
    let target = session.program().cloned().and_then(|p| {
        let (f, l) = match session.selection {
            Some(Selection::Line { file, line }) => (file, line),
            _ => {
                let e = p.line_at(session.pc()?)?;
                (e.file, e.line)
            }
        };
        let b = session.edits.find(&p.files.get(f)?.path)?;
        let now = session.edits.buffers.get(b)?.loaded_to_now(l)?;
        Some((b, now, 0))
    });
    match target {
        Some(t) => view::go_to(session, t),
        None => {
            session.edits.request.editor = true;
            session.edits.request.focus = true;
        }
    }
}

/// The File menu's editor entries.
pub fn file_menu(ui: &mut egui::Ui, session: &mut Session, listing: &mut ListingPanel) {
    let lang = session.lang();
    let t = |s: &'static str| tr(lang, s);
    let ctx = ui.ctx().clone();
    let sc = |k: &KeyboardShortcut| ctx.format_shortcut(k);
    let has = !session.edits.buffers.is_empty();
    if ui
        .add(egui::Button::new(t("New file")).shortcut_text(sc(&NEW_FILE)))
        .clicked()
    {
        session.new_file();
        ui.close();
    }
    if ui
        .add_enabled(has, egui::Button::new(t("Save")).shortcut_text(sc(&SAVE)))
        .clicked()
    {
        session.save_file(listing.current());
        ui.close();
    }
    if ui
        .add_enabled(
            has,
            egui::Button::new(t("Save as…")).shortcut_text(sc(&SAVE_AS)),
        )
        .clicked()
    {
        save_as(session, listing.current());
        ui.close();
    }
    if ui
        .add_enabled(
            session.edits.has_unsaved(),
            egui::Button::new(t("Save all")),
        )
        .clicked()
    {
        match session.save_all() {
            Ok(n) => session.status = super::i18n::trf(lang, "Saved {} file(s).", &[&n]),
            Err(e) => session.status = e,
        }
        if !session.can_save_all() {
            // A new or bundled file is left: ask for its place.
            session.save_file(
                session
                    .edits
                    .buffers
                    .iter()
                    .position(|b| b.is_dirty())
                    .unwrap_or(0),
            );
        }
        ui.close();
    }
    ui.separator();
}

/// The Edit menu.
pub fn edit_menu(ui: &mut egui::Ui, session: &mut Session, listing: &mut ListingPanel) {
    let lang = session.lang();
    let t = |s: &'static str| tr(lang, s);
    let ctx = ui.ctx().clone();
    let sc = |k: &KeyboardShortcut| ctx.format_shortcut(k);
    if ui
        .add(egui::Button::new(t("Edit at the current line")).shortcut_text(sc(&EDIT_HERE)))
        .clicked()
    {
        edit_here(session);
        ui.close();
    }
    let items: [(&str, &KeyboardShortcut, Command); 11] = [
        ("Undo", &view::UNDO, Command::Undo),
        ("Redo", &view::REDO, Command::Redo),
        ("Find…", &FIND, Command::Find),
        ("Replace…", &REPLACE, Command::Replace),
        ("Go to line…", &GOTO_LINE, Command::GotoLine),
        ("Comment / uncomment", &view::COMMENT, Command::Comment),
        ("Complete", &view::COMPLETE, Command::Complete),
        ("Go to definition", &view::DEFINITION, Command::Definition),
        ("Help at the cursor", &view::HELP, Command::Help),
        ("Fix the error on this line", &view::FIX, Command::Fix),
        ("Indent to the next column", &TAB, Command::Indent),
    ];
    for (label, k, c) in items {
        if ui
            .add(egui::Button::new(t(label)).shortcut_text(sc(k)))
            .clicked()
        {
            open_editor(session, listing, c);
            session.edits.request.focus = true;
            ui.close();
        }
    }
    ui.separator();
    if ui
        .add(egui::Button::new(t("Assemble and reset")).shortcut_text(sc(&ASSEMBLE)))
        .clicked()
    {
        session.assemble_and_reset();
        ui.close();
    }
}

/// The window's own start: unsaved texts go to a recovery file in the
/// data folder, and one a window left that did not close properly is
/// offered back.
pub fn keep_recovery(session: &mut Session) {
    session.edits.recovery = crate::platform::data_dir().map(|d| recovery::path_in(&d));
    session.edits.offer_recovery();
}

/// A mark for the title bar while something is unsaved.
pub fn title_mark(session: &Session) -> &'static str {
    if session.edits.has_unsaved() {
        " *"
    } else {
        ""
    }
}

/// Tab, for the menu's shortcut text.
const TAB: KeyboardShortcut = KeyboardShortcut::new(Modifiers::NONE, Key::Tab);

/// In the toolbar: a mark when the running program is not the text in the
/// editor (edited since it was loaded).
pub fn run_badge(ui: &mut egui::Ui, session: &Session) {
    if session.run_is_stale() {
        ui.label(
            egui::RichText::new(tr(session.lang(), "edited: F7 runs the new text"))
                .color(egui::Color32::from_rgb(0xFF, 0xB0, 0x00)),
        )
        .on_hover_text(tr(
            session.lang(),
            "The program running is the one loaded before your last edits. F7 (Assemble and reset) loads what the editor holds; breakpoints stay on their lines, watches stay.",
        ));
    }
}
