//! The editor in the window, driven with egui_kittest (no window opens):
//! a typed line assembled with its bytes, an error shown and gone when
//! fixed, undo, save writing exactly the text, a breakpoint moving with
//! inserted lines through F7, the recovery file offered after a crash,
//! help under the pointer, completion, and keys typed into the editor
//! never reaching the board.
#![cfg(feature = "gui")]

#[path = "support/editor.rs"]
mod support;
use support::*;

use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;
use hc11lab::ui::session::UserEvent;
use hc11lab::ui::AppInput;

#[test]
fn a_typed_line_is_assembled_with_its_bytes_undone_and_saved_exactly() {
    let dir = scratch("typed");
    let file = program(&dir, PROGRAM);
    let mut h = harness(AppInput::Path(file.clone()));
    edit_start_line(&mut h);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        ldaa #$41");
    assert!(
        text(&h).contains("lds #$00FF\n        ldaa #$41\n        ldaa #1"),
        "{}",
        text(&h)
    );
    assert!(h.state().session.edits.has_unsaved());
    assembled(&mut h);
    assert!(
        h.query_by_label("line 3: $C003 86 41").is_some(),
        "the new line's address and bytes in the margin"
    );
    assert!(
        h.query_by_label("line 4: $C005 86 01").is_some(),
        "the next line moved on"
    );
    assert!(
        h.state().session.run_is_stale(),
        "the run is marked as not this text"
    );

    // Undo takes the typed line away whole; redo brings it back.
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert_eq!(text(&h), PROGRAM);
    assert!(!h.state().session.edits.has_unsaved());
    press(&mut h, Modifiers::COMMAND, Key::Y);
    assert!(text(&h).contains("        ldaa #$41\n"));

    // Ctrl+S writes exactly the text.
    press(&mut h, Modifiers::COMMAND, Key::S);
    let on_disk = std::fs::read_to_string(&file).expect("saved file");
    assert_eq!(on_disk, text(&h));
    assert!(!h.state().session.edits.has_unsaved());
    // Our own save is no change by another editor: nothing reloads.
    std::thread::sleep(Duration::from_millis(800));
    steps(&mut h, 3);
    assert_eq!(text(&h), on_disk);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_error_appears_with_its_message_and_goes_away_when_fixed() {
    let dir = scratch("error");
    let file = program(&dir, PROGRAM);
    let mut h = harness(AppInput::Path(file));
    edit_start_line(&mut h);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        ldab #");
    assembled(&mut h);
    let s = &h.state().session;
    let e = s
        .problems
        .iter()
        .find(|p| p.severity == "error")
        .unwrap_or_else(|| panic!("no error in Problems: {:?}", s.problems));
    assert!(e.message.contains("expected a value"), "{}", e.message);
    assert_eq!(e.at.as_ref().map(|a| a.1), Some(3), "on the typed line");
    assert!(
        h.query_by_label_contains("error 3: [E0008] expected a value")
            .is_some(),
        "the margin's error mark with its message"
    );
    // F7 with an error: the old program keeps running.
    press(&mut h, Modifiers::NONE, Key::F7);
    assert!(h.state().session.has_machine());
    assert!(
        h.state().session.status.contains("error(s)"),
        "{}",
        h.state().session.status
    );
    // Fixed: gone from the margin and from Problems.
    type_text(&mut h, "5");
    assembled(&mut h);
    let s = &h.state().session;
    assert!(
        s.problems.iter().all(|p| p.severity != "error"),
        "{:?}",
        s.problems
    );
    assert!(h.query_by_label_contains("expected a value").is_none());
    assert!(h.query_by_label("line 3: $C003 C6 05").is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_breakpoint_moves_with_inserted_lines_and_f7_keeps_it_there() {
    let dir = scratch("breakpoint");
    let file = program(&dir, PROGRAM);
    let mut h = harness(AppInput::Path(file));
    steps(&mut h, 2);
    // `staa $40` (line 4) has no label: its breakpoint is a line.
    h.state_mut().session.toggle_breakpoint_line(0, 4);
    h.state_mut().session.settings.watches = vec!["$40".into()];
    assert!(h.state().session.has_breakpoint(0xC005));
    edit_start_line(&mut h);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        nop");
    steps(&mut h, 2);
    assert!(
        h.query_by_label("breakpoint 5: on").is_some(),
        "the dot moved down with the inserted line"
    );
    assert!(h.query_by_label("breakpoint 4: on").is_none());
    press(&mut h, Modifiers::NONE, Key::F7);
    let s = &h.state().session;
    assert!(!s.run_is_stale(), "the run is the text now");
    let specs: Vec<String> = s
        .breakpoint_list()
        .iter()
        .map(|b| b.spec.text.clone())
        .collect();
    assert_eq!(specs, vec!["prog.asm:5"]);
    // `nop` moved `staa $40` one byte on.
    assert!(s.has_breakpoint(0xC006), "{specs:?}");
    assert_eq!(
        s.settings.watches,
        vec!["$40".to_string()],
        "the watches stay"
    );
    // The program runs to it.
    h.state_mut().session.run();
    let start = Instant::now();
    while h.state().session.is_running() && start.elapsed() < Duration::from_secs(20) {
        h.step();
    }
    assert_eq!(h.state().session.pc(), Some(0xC006));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn keys_typed_into_the_editor_do_not_press_board_keys() {
    let mut h = harness(AppInput::Bundled);
    steps(&mut h, 2);
    h.state_mut().session.run();
    steps(&mut h, 10);
    let _ = h.state_mut().session.take_user_events();
    press(&mut h, Modifiers::COMMAND, Key::E);
    for k in [
        Key::R,
        Key::Space,
        Key::Enter,
        Key::ArrowLeft,
        Key::ArrowRight,
        Key::Num0,
        Key::Num3,
    ] {
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
    type_text(&mut h, "r 0137 ");
    let events = h.state_mut().session.take_user_events();
    assert!(
        !events.iter().any(|e| matches!(e, UserEvent::Key(_))),
        "{events:?}"
    );
    assert!(
        h.state().session.edits.has_unsaved(),
        "the keys went into the text"
    );
    // Escape gives the keyboard back: then a key is the board's again.
    press(&mut h, Modifiers::NONE, Key::Escape);
    h.key_down(Key::ArrowRight);
    h.step();
    assert_ne!(h.state().session.keys_down(), 0);
    h.key_up(Key::ArrowRight);
    h.step();
}

#[test]
fn completion_offers_drawcell_after_jsr_dr() {
    let mut h = harness(AppInput::Bundled);
    edit_start_line(&mut h);
    assembled(&mut h);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        jsr     dr");
    assert!(h.query_by_label("drawBoard").is_some(), "drawBoard offered");
    h.get_by_label("drawCell").click();
    steps(&mut h, 2);
    assert!(
        text(&h).contains("        jsr     drawCell\n"),
        "taken by a click"
    );
    // A register name of the included register file.
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        ldaa    PO");
    assert!(h.query_by_label("PORTB").is_some(), "PORTB offered");
}

#[test]
fn hover_shows_the_modes_and_cycles_of_ldaa_0_x() {
    let dir = scratch("hover");
    let file = program(
        &dir,
        &PROGRAM.replace("        ldaa #1\n", "        ldaa 0,x\n"),
    );
    let mut h = harness(AppInput::Path(file));
    edit_start_line(&mut h);
    assembled(&mut h);
    let run = h
        .get_all_by_role(Role::TextRun)
        .find(|n| n.value().is_some_and(|v| v.contains("ldaa 0,x")))
        .expect("the line's text run")
        .rect();
    let chars = "        ldaa 0,x".len() as f32;
    let char_w = run.width() / chars;
    let at = egui::pos2(run.left() + char_w * 9.5, run.center().y);
    h.hover_at(at);
    for _ in 0..40 {
        std::thread::sleep(Duration::from_millis(10));
        h.step();
    }
    assert!(
        h.query_by_label_contains("this line: indexed X, A6 00 (2 bytes), 4 cycles")
            .is_some(),
        "the line's mode and cycles"
    );
    assert!(h
        .query_by_label_contains("flags: N Z by the result, V = 0")
        .is_some());
    assert!(
        h.query_by_label("18 A6 ff").is_some(),
        "every mode from the table"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_recovery_file_is_offered_after_a_crash() {
    let dir = scratch("recovery");
    let file = program(&dir, PROGRAM);
    let recovery = dir.join("recovery.json");
    {
        let mut h = harness(AppInput::Path(file.clone()));
        h.state_mut().session.edits.recovery = Some(recovery.clone());
        edit_start_line(&mut h);
        type_text(&mut h, " ; kept");
        h.state_mut().session.edits.keep_recovery(true);
        let start = Instant::now();
        while !std::fs::read_to_string(&recovery).is_ok_and(|t| t.contains("; kept"))
            && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(20));
        }
        // The window is gone without closing: a crash.
    }
    let mut h = harness(AppInput::Bundled);
    h.state_mut().session.edits.recovery = Some(recovery.clone());
    h.state_mut().session.edits.offer_recovery();
    steps(&mut h, 2);
    assert!(h
        .query_by_label_contains("did not close properly")
        .is_some());
    h.get_by_label("Restore").click();
    steps(&mut h, 3);
    let s = &h.state().session;
    assert_eq!(
        s.origin,
        Some(hc11lab::ui::session::Origin::Path(file.clone()))
    );
    assert!(s.edits.buffers[0].text.contains("lds #$00FF ; kept"));
    assert!(s.edits.has_unsaved(), "restored, not saved");
    assert_eq!(
        std::fs::read_to_string(&file).ok().as_deref(),
        Some(PROGRAM)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn loading_another_program_with_unsaved_changes_asks_first() {
    let dir = scratch("ask");
    let file = program(&dir, PROGRAM);
    let mut h = harness(AppInput::Path(file.clone()));
    edit_start_line(&mut h);
    type_text(&mut h, " ; mine");
    h.state_mut().session.open(AppInput::Bundled);
    steps(&mut h, 2);
    assert_eq!(
        h.state().session.origin,
        Some(hc11lab::ui::session::Origin::Path(file.clone())),
        "not loaded yet"
    );
    assert!(h.query_by_label_contains("have unsaved changes").is_some());
    h.get_by_label("Save all and load").click();
    steps(&mut h, 3);
    assert!(std::fs::read_to_string(&file).is_ok_and(|t| t.contains("; mine")));
    assert_eq!(
        h.state().session.origin,
        Some(hc11lab::ui::session::Origin::Bundled)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_changed_on_disk_reloads_when_clean_and_asks_when_not() {
    let dir = scratch("disk");
    let file = program(&dir, PROGRAM);
    let mut h = harness(AppInput::Path(file.clone()));
    edit_start_line(&mut h);
    // Clean: the other editor's text comes in.
    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(&file, PROGRAM.replace("ldaa #1", "ldaa #2")).expect("write");
    std::thread::sleep(Duration::from_millis(800));
    steps(&mut h, 3);
    assert!(text(&h).contains("ldaa #2"), "{}", text(&h));
    // Unsaved changes here: asked.
    type_text(&mut h, " ; mine");
    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(&file, PROGRAM.replace("ldaa #1", "ldaa #3")).expect("write");
    std::thread::sleep(Duration::from_millis(800));
    steps(&mut h, 3);
    assert!(text(&h).contains("; mine"));
    assert!(h.query_by_label_contains("(another editor?)").is_some());
    h.get_by_label("Load from disk").click();
    steps(&mut h, 2);
    assert!(text(&h).contains("ldaa #3") && !text(&h).contains("; mine"));
    // The text typed here is one undo away.
    press(&mut h, Modifiers::COMMAND, Key::E);
    press(&mut h, Modifiers::COMMAND, Key::Z);
    assert!(text(&h).contains("; mine"), "{}", text(&h));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tab_goes_to_the_columns_and_find_replaces() {
    let dir = scratch("tab");
    let file = program(&dir, PROGRAM);
    let mut h = harness(AppInput::Path(file));
    edit_start_line(&mut h);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "Here");
    press(&mut h, Modifiers::NONE, Key::Tab);
    type_text(&mut h, "inca");
    assert!(
        text(&h).contains("\nHere            inca\n"),
        "{}",
        text(&h)
    );
    press(&mut h, Modifiers::COMMAND, Key::Slash);
    assert!(
        text(&h).contains("\n;Here            inca\n"),
        "{}",
        text(&h)
    );
    press(&mut h, Modifiers::COMMAND, Key::H);
    type_text(&mut h, "ldaa");
    assert_eq!(
        h.get_by_role_and_label(Role::TextInput, "Find")
            .value()
            .as_deref(),
        Some("ldaa"),
        "the selected line was the query, selected: typing replaced it"
    );
    h.get_by_role_and_label(Role::TextInput, "Replace with")
        .focus();
    steps(&mut h, 1);
    type_text(&mut h, "ldab");
    h.get_by_label("Replace all").click();
    steps(&mut h, 2);
    assert!(
        text(&h).contains("ldab #1") && !text(&h).contains("ldaa"),
        "{}",
        text(&h)
    );
    press(&mut h, Modifiers::COMMAND, Key::G);
    type_text(&mut h, "5");
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "X");
    assert!(
        text(&h)
            .lines()
            .nth(4)
            .is_some_and(|l| l.starts_with("        X")),
        "{}",
        text(&h)
    );
}

#[test]
fn an_error_under_the_pointer_offers_its_fix() {
    let dir = scratch("fix");
    let file = program(
        &dir,
        &PROGRAM.replace("        ldaa #1\n", "        ldaaa #1\n"),
    );
    let mut h = harness(AppInput::Path(file));
    edit_start_line(&mut h);
    assembled(&mut h);
    hover_text(&mut h, "        ldaaa #1", 10.5);
    // The message is in the margin's mark and in the popup.
    assert!(
        h.query_all_by_label_contains("unknown mnemonic `ldaaa`")
            .count()
            >= 2,
        "the message in the popup"
    );
    h.get_by_label("Fix: write `ldaa`").click();
    steps(&mut h, 2);
    assert!(text(&h).contains("\n        ldaa #1\n"), "{}", text(&h));
    assembled(&mut h);
    assert!(h
        .state()
        .session
        .problems
        .iter()
        .all(|p| p.severity != "error"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn f12_goes_to_the_definition_in_its_file() {
    let mut h = harness(AppInput::Bundled);
    edit_start_line(&mut h);
    assembled(&mut h);
    press(&mut h, Modifiers::NONE, Key::Enter);
    type_text(&mut h, "        jsr     drawCell");
    // Escape closes the completion list; the cursor stays on the word.
    press(&mut h, Modifiers::NONE, Key::Escape);
    press(&mut h, Modifiers::NONE, Key::F12);
    steps(&mut h, 3);
    let focused = h
        .get_by(|n| n.role() == Role::MultilineTextInput && n.is_focused())
        .value()
        .unwrap_or_default();
    assert!(
        focused.contains("\ndrawCell"),
        "the file defining drawCell has the keyboard"
    );
    let (file, line) = h
        .state()
        .session
        .program()
        .and_then(|p| p.symbol("drawCell"))
        .and_then(|s| s.defined_at)
        .expect("drawCell's place");
    assert!(
        matches!(h.state().session.selection, Some(hc11lab::ui::links::Selection::Line { file: f, line: l }) if f == file && l == line),
        "the cursor's line is drawCell's: {:?}",
        h.state().session.selection
    );
}
