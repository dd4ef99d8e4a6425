//! The editor used as a user would, mostly from the keyboard, driven with
//! egui_kittest (no window opens): files as tabs (Ctrl+PageDown), a new
//! file saved under a name typed into Save as, Ctrl+F, help and a fix at
//! the cursor (Ctrl+I, Ctrl+.), a label's help with its definition and
//! uses, Ctrl+click to a definition, a question answered with the keyboard
//! pressing no board key, and an exercise started into the editor and
//! checked as the editor holds it.
#![cfg(feature = "gui")]

#[path = "support/editor.rs"]
mod support;
use support::*;

use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use hc11lab::ui::app::App;
use hc11lab::ui::AppInput;

/// The name of the file whose text has the keyboard.
fn focused_file(h: &Harness<'_, App>) -> Option<String> {
    h.get_all_by_role(Role::MultilineTextInput)
        .find(|n| n.is_focused())
        .and_then(|n| n.accesskit_node().label())
}

/// The text of the buffer named `name`.
fn text_of(h: &Harness<'_, App>, name: &str) -> String {
    let b = h
        .state()
        .session
        .edits
        .buffers
        .iter()
        .find(|b| b.name() == name)
        .unwrap_or_else(|| panic!("no buffer {name}"));
    b.text.clone()
}

#[test]
fn files_are_tabs_and_a_new_file_is_saved_under_a_typed_name() {
    let dir = scratch("tabs");
    std::fs::write(dir.join("defs.inc"), "VALUE   equ 5\n").expect("include");
    let main = program(
        &dir,
        &PROGRAM.replace(
            "        org $C000\n",
            "        include defs.inc\n        org $C000\n",
        ),
    );
    let mut h = harness(AppInput::Path(main.clone()));
    edit_start_line(&mut h);
    assert_eq!(focused_file(&h).as_deref(), Some("Editor: prog.asm"));
    // Ctrl+PageDown: the next file's tab, with the keyboard.
    press(&mut h, Modifiers::COMMAND, Key::PageDown);
    steps(&mut h, 2);
    assert_eq!(focused_file(&h).as_deref(), Some("Editor: defs.inc"));
    press(&mut h, Modifiers::COMMAND, Key::End);
    type_text(&mut h, "OTHER   equ 6\n");
    assert_eq!(text_of(&h, "defs.inc"), "VALUE   equ 5\nOTHER   equ 6\n");
    assert!(h.query_by_label("defs.inc *").is_some(), "the tab's mark");
    assert!(
        h.query_by_label("prog.asm *").is_none(),
        "the other tab, clean"
    );
    // Round the end: back to the first file.
    press(&mut h, Modifiers::COMMAND, Key::PageDown);
    steps(&mut h, 2);
    assert_eq!(focused_file(&h).as_deref(), Some("Editor: prog.asm"));

    // Ctrl+N: a new file with the keyboard; Ctrl+Shift+S names it.
    press(&mut h, Modifiers::COMMAND, Key::N);
    steps(&mut h, 2);
    assert_eq!(focused_file(&h).as_deref(), Some("Editor: untitled-1.asm"));
    type_text(&mut h, "; a new file\n");
    press(&mut h, Modifiers::COMMAND | Modifiers::SHIFT, Key::S);
    steps(&mut h, 2);
    // The name field has the keyboard, the main file's folder in it.
    let field = h.get_by_role_and_label(Role::TextInput, "File:");
    assert!(field.is_focused(), "the name field has the keyboard");
    assert_eq!(
        field.value().as_deref(),
        Some(dir.join("untitled-1.asm").display().to_string().as_str())
    );
    press(&mut h, Modifiers::COMMAND, Key::A);
    type_text(&mut h, "new.asm");
    press(&mut h, Modifiers::NONE, Key::Enter);
    steps(&mut h, 2);
    assert!(
        h.state().session.edits.question.is_none(),
        "dialog closed: {:?}",
        h.state().session.edits.question
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("new.asm")).ok().as_deref(),
        Some("; a new file\n"),
        "a name without a folder goes beside the main file"
    );
    assert!(h.query_by_label("new.asm").is_some(), "the tab is renamed");
    // Ctrl+S saves the include too; the new file is clean.
    press(&mut h, Modifiers::COMMAND, Key::PageUp);
    press(&mut h, Modifiers::COMMAND, Key::S);
    assert_eq!(
        std::fs::read_to_string(dir.join("defs.inc"))
            .ok()
            .as_deref(),
        Some("VALUE   equ 5\nOTHER   equ 6\n")
    );
    assert!(!h.state().session.edits.has_unsaved());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_f_selects_the_match_and_escape_goes_back_to_it() {
    let dir = scratch("find");
    let mut h = harness(AppInput::Path(program(&dir, PROGRAM)));
    edit_start_line(&mut h);
    press(&mut h, Modifiers::COMMAND, Key::F);
    type_text(&mut h, "staa");
    press(&mut h, Modifiers::NONE, Key::Enter);
    press(&mut h, Modifiers::NONE, Key::Escape);
    // The match is selected in the text: typing replaces it.
    type_text(&mut h, "stab");
    assert!(text(&h).contains("\n        stab $40\n"), "{}", text(&h));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_and_a_fix_at_the_cursor_need_no_mouse() {
    let dir = scratch("keys-fix");
    let file = program(
        &dir,
        &PROGRAM.replace("        ldaa #1\n", "        ldaaa #1\n"),
    );
    let mut h = harness(AppInput::Path(file));
    edit_start_line(&mut h);
    assembled(&mut h);
    // Ctrl+G 3: the cursor on `ldaaa`; Ctrl+I: its error, with the fix.
    press(&mut h, Modifiers::COMMAND, Key::G);
    type_text(&mut h, "3");
    press(&mut h, Modifiers::NONE, Key::Enter);
    press(&mut h, Modifiers::COMMAND, Key::I);
    assert!(
        h.query_by_label("Fix: write `ldaa`").is_some(),
        "the error's help at the cursor"
    );
    // Escape closes the help; the text keeps the keyboard.
    press(&mut h, Modifiers::NONE, Key::Escape);
    assert!(h.query_by_label("Fix: write `ldaa`").is_none());
    assert_eq!(focused_file(&h).as_deref(), Some("Editor: prog.asm"));
    // Ctrl+.: the first fix.
    press(&mut h, Modifiers::COMMAND, Key::Period);
    assert!(text(&h).contains("\n        ldaa #1\n"), "{}", text(&h));
    assembled(&mut h);
    assert!(h
        .state()
        .session
        .problems
        .iter()
        .all(|p| p.severity != "error"));
    // On a label: its value, definition and uses.
    press(&mut h, Modifiers::COMMAND, Key::G);
    type_text(&mut h, "5");
    press(&mut h, Modifiers::NONE, Key::Enter);
    press(&mut h, Modifiers::COMMAND, Key::I);
    assert!(h.query_by_label_contains("Loop = $C007").is_some());
    assert!(h.query_by_label("defined at prog.asm:5").is_some());
    assert!(h.query_by_label("used 1x: prog.asm:5").is_some());
    // The cursor moved: the help goes.
    press(&mut h, Modifiers::NONE, Key::ArrowDown);
    assert!(h.query_by_label("defined at prog.asm:5").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_label_under_the_pointer_shows_its_definition_and_uses() {
    let mut h = harness(AppInput::Bundled);
    edit_start_line(&mut h);
    assembled(&mut h);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        jsr     drawBoard ; here");
    assembled(&mut h);
    hover_text(&mut h, "        jsr     drawBoard ; here", 19.5);
    assert!(
        h.query_by_label_contains("defined at Board.inc:").is_some(),
        "where drawBoard is defined"
    );
    assert!(
        h.query_by_label_contains("used ").is_some(),
        "its uses listed"
    );
    assert!(h
        .query_by_label("Ctrl+click or F12: go to the definition")
        .is_some());
}

#[test]
fn ctrl_click_goes_to_the_definition() {
    let dir = scratch("ctrl-click");
    let mut h = harness(AppInput::Path(program(&dir, PROGRAM)));
    edit_start_line(&mut h);
    assembled(&mut h);
    // `dc.w Start` (line 7): Ctrl+click on `Start`.
    let line = "        dc.w Start";
    let run = h
        .get_all_by_role(Role::TextRun)
        .find(|n| n.value().is_some_and(|v| v.contains(line)))
        .expect("the line's text run")
        .rect();
    let at = egui::pos2(
        run.left() + run.width() / line.len() as f32 * 15.5,
        run.center().y,
    );
    h.event(egui::Event::ModifiersChanged(Modifiers::COMMAND));
    h.event(egui::Event::PointerMoved(at));
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: at,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::COMMAND,
        });
    }
    steps(&mut h, 1);
    h.event(egui::Event::ModifiersChanged(Modifiers::NONE));
    steps(&mut h, 3);
    assert_eq!(
        h.state().session.selection,
        Some(hc11lab::ui::links::Selection::Line { file: 0, line: 2 }),
        "the cursor went to `Start` on line 2"
    );
    // The cursor is there: typing goes into line 2.
    type_text(&mut h, "X");
    assert!(text(&h).contains("\nXStart   lds"), "{}", text(&h));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_question_is_answered_with_the_keyboard_and_presses_no_board_key() {
    let dir = scratch("ask-keys");
    let file = program(&dir, PROGRAM);
    let mut h = harness(AppInput::Path(file.clone()));
    edit_start_line(&mut h);
    type_text(&mut h, " ; mine");
    h.state_mut().session.open(AppInput::Bundled);
    steps(&mut h, 2);
    assert!(h.query_by_label_contains("have unsaved changes").is_some());
    // The question: answered from the keyboard.
    // Nothing has the keyboard yet: Enter and Space are still not the
    // board's while the question is open.
    for k in [Key::Enter, Key::Space] {
        h.key_down(k);
        h.step();
        assert_eq!(
            h.state().session.keys_down(),
            0,
            "{k:?} pressed a board key"
        );
        h.key_up(k);
        h.step();
    }
    assert!(h.state().session.edits.question.is_some());
    // Tab to the first button, Space on it.
    press(&mut h, Modifiers::NONE, Key::Tab);
    h.key_down(Key::Space);
    h.step();
    assert_eq!(
        h.state().session.keys_down(),
        0,
        "Space pressed a board key"
    );
    h.key_up(Key::Space);
    steps(&mut h, 3);
    assert!(std::fs::read_to_string(&file).is_ok_and(|t| t.contains("; mine")));
    assert_eq!(
        h.state().session.origin,
        Some(hc11lab::ui::session::Origin::Bundled),
        "Save all and load, from the keyboard"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_exercise_starts_in_the_editor_and_check_grades_what_it_holds() {
    use hc11lab::ui::exercises::CheckState;
    use hc11lab::ui::session::{Settings, SideTab};
    let data = scratch("exercise");
    let settings = Settings {
        side_tab: SideTab::Course,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None).with_course_dir(data.clone());
    let mut h = egui_kittest::Harness::builder()
        .with_size(egui::Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    steps(&mut h, 2);
    h.get_by_label("Exercises").click();
    steps(&mut h, 2);
    // E2 (stack pulls) is graded at breakpoints: quick to check.
    h.state_mut().course.exercises.select("e2-pulls");
    steps(&mut h, 2);
    h.get_by_label("Start (copy the starter code)").click();
    steps(&mut h, 3);
    let main = data.join("exercises/e2-pulls/Viergewinnt.asm");
    assert!(
        h.query_by_label("Editor: Viergewinnt.asm").is_some(),
        "the copy is open in the editor"
    );
    // A line that does not assemble, typed and not saved: Check saves
    // what the editor holds and grades that.
    press(&mut h, Modifiers::COMMAND, Key::E);
    press(&mut h, Modifiers::NONE, Key::End);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        bogus   #1");
    assert!(h.state().session.edits.has_unsaved());
    h.get_by_label("Check").click();
    h.step();
    let start = Instant::now();
    while matches!(
        h.state().course.exercises.result("e2-pulls"),
        Some(CheckState::Running)
    ) && start.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    assert!(
        std::fs::read_to_string(&main).is_ok_and(|t| t.contains("        bogus   #1\n")),
        "saved before the check"
    );
    assert!(!h.state().session.edits.has_unsaved());
    let Some(CheckState::Done(r)) = h.state().course.exercises.result("e2-pulls").cloned() else {
        panic!("{:?}", h.state().course.exercises.result("e2-pulls"));
    };
    assert_eq!(r.score, 0.0, "the text with the error was graded: {r:?}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn completion_closes_when_the_text_changes_under_it() {
    let mut h = harness(AppInput::Bundled);
    edit_start_line(&mut h);
    assembled(&mut h);
    let uses = |h: &Harness<'_, App>| text(h).matches("drawBoard").count();
    let before = uses(&h);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        jsr     dr");
    assert!(h.query_by_label("drawBoard").is_some(), "the list is open");
    // Undo takes the word away: the list goes with it, and Enter is a new
    // line again (not the list's entry written where the word was).
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(h.query_by_label("drawBoard").is_none(), "the list closed");
    press(&mut h, Modifiers::NONE, Key::Enter);
    assert_eq!(uses(&h), before, "{}", text(&h));
    // A number is no name: `#5` offers nothing (`TOC5` holds a 5).
    type_text(&mut h, "        ldab    #5");
    assert!(h.query_by_label("TOC5").is_none());
}
