//! The lessons panel clicked through with egui_kittest on the bundled
//! Viergewinnt (no window opens): open the tour, answer the first question
//! wrong (a hint appears) and right (the next step appears), switch the
//! language, and find the progress saved.
#![cfg(feature = "gui")]

use egui::Vec2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::lesson::{Lang, Progress};
use hc11lab::ui::lessons_panel::LessonsPanel;
use hc11lab::ui::session::{Session, Settings};
use hc11lab::ui::AppInput;

struct State {
    panel: LessonsPanel,
    session: Session,
}

/// Focuses the answer field and types into it.
fn type_answer(h: &mut Harness<'_, State>, text: &str) {
    h.get_by_role(egui::accesskit::Role::TextInput).focus();
    h.run();
    h.get_by_role(egui::accesskit::Role::TextInput)
        .type_text(text);
    h.run();
}

#[test]
fn answer_wrong_then_right_switch_language_and_save() {
    let dir = std::env::temp_dir().join(format!("hc11lab-lesson-panel-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut session = Session::new(Settings::default());
    session.open(AppInput::Bundled);
    let mut panel = LessonsPanel::new(Some(dir.clone()));
    panel.set_lang(Lang::En);
    panel.open("01-tour");
    let mut h = Harness::builder()
        .with_size(Vec2::new(420.0, 800.0))
        .build_ui_state(
            |ui, s: &mut State| s.panel.ui(ui, &mut s.session),
            State { panel, session },
        );
    h.run();
    h.get_by_label("Step 1 of 5: Reset");

    type_answer(&mut h, "$C000");
    h.get_by_label("Answer").click();
    h.run();
    let run = h.state().panel.run().unwrap();
    assert_eq!(run.tries(0), 1);
    assert!(run
        .feedback()
        .unwrap()
        .message
        .starts_with("Not right: 49152"));
    h.get_by_label("Hint:");

    let start = hc11lab::firmware::program()
        .unwrap()
        .symbol("Start")
        .unwrap()
        .value;
    type_answer(&mut h, &format!("{start}"));
    h.get_by_label("Answer").click();
    h.run();
    assert_eq!(h.state().panel.run().unwrap().current(), 1);
    h.get_by_label("Step 2 of 5: Up to the main loop");

    h.get_by_label("DE").click();
    h.run();
    h.get_by_label("Schritt 2 von 5: Bis zur Hauptschleife");

    let saved = Progress::load(&dir).unwrap();
    assert_eq!(saved.language, Some(Lang::De));
    assert_eq!(saved.lesson("01-tour").done, vec!["reset".to_string()]);
    assert_eq!(saved.lesson("01-tour").tries.get("reset"), Some(&1));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A step that wants an explanation: the student drops a stone, selects
/// byte 3 of its cell in the buffer, and the panel passes the debugger's
/// chain (through `stone1ToBuffer`) to the engine.
#[test]
fn selecting_a_buffer_byte_explains_it_through_the_debugger() {
    let dir = std::env::temp_dir().join(format!("hc11lab-lesson-panel2-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut saved = Progress::default();
    saved.set_lesson(
        "02-cell",
        hc11lab::lesson::LessonProgress {
            done: ["break", "out", "pixels", "stone1", "stone1-out"]
                .map(String::from)
                .to_vec(),
            ..Default::default()
        },
    );
    saved.save(&dir).unwrap();

    let mut session = Session::new(Settings {
        speed: hc11lab::ui::session::Speed::Max,
        ..Settings::default()
    });
    session.open(AppInput::Bundled);
    let mut panel = LessonsPanel::new(Some(dir.clone()));
    panel.set_lang(Lang::En);
    panel.open("02-cell");
    let mut h = Harness::builder()
        .with_size(Vec2::new(420.0, 900.0))
        .build_ui_state(
            |ui, s: &mut State| s.panel.ui(ui, &mut s.session),
            State { panel, session },
        );
    h.run();
    h.get_by_label("Step 6 of 8: Who wrote this?");

    h.state_mut()
        .session
        .start_script(&hc11lab::script::Script::parse_keys("drop").unwrap());
    for _ in 0..2000 {
        if !h.state().session.script_active() {
            break;
        }
        h.state_mut()
            .session
            .advance(std::time::Duration::from_millis(20));
    }
    assert!(!h.state().session.script_active(), "the drop finished");
    h.run();
    assert_eq!(
        h.state().panel.run().unwrap().current(),
        5,
        "nothing explained yet"
    );

    let board = hc11lab::firmware::program()
        .unwrap()
        .symbol("board")
        .unwrap()
        .value;
    h.state_mut()
        .session
        .select(hc11lab::ui::links::Selection::BufferByte(board + 307));
    h.run();
    let run = h.state().panel.run().unwrap();
    assert_eq!(run.current(), 6, "{:?}", run.feedback());
    assert_eq!(run.tries(5), 0);
    h.get_by_label("Step 7 of 8: Player 2's ring");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The session's event feed: a reset from the toolbar and a key the student
/// holds reach the lesson as events (the `key` and `reset` checks), not
/// guessed from the machine. Lesson 6, step "left": reset, run, press key 1.
#[test]
fn reset_and_key_presses_reach_the_lesson_as_events() {
    let dir = std::env::temp_dir().join(format!("hc11lab-lesson-panel3-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut saved = Progress::default();
    saved.set_lesson(
        "06-cursor",
        hc11lab::lesson::LessonProgress {
            done: vec!["start".to_string()],
            ..Default::default()
        },
    );
    saved.save(&dir).unwrap();
    let mut session = Session::new(Settings {
        speed: hc11lab::ui::session::Speed::Max,
        ..Settings::default()
    });
    session.open(AppInput::Bundled);
    let mut panel = LessonsPanel::new(Some(dir.clone()));
    panel.set_lang(Lang::En);
    panel.open("06-cursor");
    let mut h = Harness::builder()
        .with_size(Vec2::new(420.0, 900.0))
        .build_ui_state(
            |ui, s: &mut State| s.panel.ui(ui, &mut s.session),
            State { panel, session },
        );
    h.run();
    assert_eq!(h.state().panel.run().unwrap().current(), 1);

    let advance = |h: &mut Harness<'_, State>, frames: usize| {
        for _ in 0..frames {
            h.state_mut()
                .session
                .advance(std::time::Duration::from_millis(20));
        }
    };
    // Reset and run until the firmware waits for keys: no key yet.
    h.state_mut().session.reset();
    h.state_mut().session.run();
    advance(&mut h, 50);
    h.run();
    assert_eq!(
        h.state().panel.run().unwrap().current(),
        1,
        "no key pressed yet"
    );

    // Key 1 down for a few frames, then up: one press.
    h.state_mut().session.set_held_keys(0b10);
    advance(&mut h, 10);
    h.state_mut().session.set_held_keys(0);
    advance(&mut h, 50);
    h.run();
    assert_eq!(
        h.state().panel.run().unwrap().current(),
        2,
        "the key press was seen and cursorColumn is 52"
    );
    assert!(
        h.state_mut().session.take_user_events().is_empty(),
        "drained"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
