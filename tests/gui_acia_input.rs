//! Typing to the EVB's host port in the window: on a board with an ACIA
//! the Serial tab's input line has a port choice, and a line sent to the
//! ACIA reaches the program there (tests/data/evb/acia_echo.asm answers it
//! on the ACIA); on a board without one there is no choice. Clicked
//! through with egui_kittest (no window opens).
#![cfg(feature = "gui")]

use egui::Vec2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::asm::Dialect;
use hc11lab::board::config::{BoardConfig, BoardSetup};
use hc11lab::ui::app::App;
use hc11lab::ui::session::{BottomTab, Settings, Speed};
use hc11lab::ui::AppInput;
use std::path::PathBuf;

fn harness(app: App) -> Harness<'static, App> {
    Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(120)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

fn echo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/evb/acia_echo.asm")
}

#[test]
fn a_line_typed_to_the_acia_reaches_the_program() {
    let settings = Settings {
        speed: Speed::Max,
        bottom_tab: BottomTab::Serial,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None);
    let mut h = harness(app);
    h.run();
    // The bundled game's board has no ACIA: no port choice.
    assert!(h.query_by_label("to").is_none());
    h.state_mut().session.open_on(
        AppInput::Path(echo()),
        Dialect::Course,
        ("evb".to_string(), BoardSetup::new(BoardConfig::evb())),
    );
    h.run();
    assert!(
        h.state().session.has_acia(),
        "{:?}",
        h.state().session.problems
    );
    h.get_by_label("to").click();
    h.run();
    // The open popup's entry comes first.
    let entries: Vec<_> = h.get_all_by_label("ACIA").collect();
    entries.first().expect("the ACIA entry").click();
    h.run();
    h.get_by_label("Send:").click();
    h.run();
    h.get_by_label("Send:").type_text("hi");
    h.run();
    h.key_press(egui::Key::Enter);
    h.run();
    h.get_by_label_contains("byte(s) sent");
    h.state_mut().session.run();
    for _ in 0..30 {
        h.step();
    }
    assert_eq!(
        h.state().session.acia_text().as_deref(),
        Some("hi\rOK\r\n"),
        "the echo answers on the host port"
    );
    assert_eq!(
        h.state().session.serial_text(),
        "",
        "nothing went to the SCI"
    );
}
