//! The window follows the board: a program opened on `evb`
//! (no LCD, no keys; the SCI is its terminal) shows no LCD and no key pad,
//! but a note that its output is on the Serial tab. Its own test binary
//! because the board is chosen once per process, as `--board` does.
#![cfg(feature = "gui")]

use egui::Vec2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::board::config::{set_default_setup, BoardConfig, BoardSetup};
use hc11lab::ui::app::App;
use hc11lab::ui::session::{Settings, Speed};
use hc11lab::ui::AppInput;
use std::path::{Path, PathBuf};

#[test]
fn an_evb_program_shows_no_lcd_and_no_keys() {
    let config = BoardConfig::from_spec("evb", Path::new("")).expect("evb");
    set_default_setup("evb", BoardSetup::new(config));
    let program = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/boards/evb_hello.asm");
    let settings = Settings {
        speed: Speed::RealTime,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Path(program), None);
    let mut h = Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(60)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    let m = h.state().session.machine().expect("the program loaded");
    assert!(!m.board().has_lcd() && !m.board().has_keys());
    assert!(h.query_by_label("LCD 128x64").is_none(), "no LCD drawn");
    assert!(h.query_by_label("Board keys").is_none(), "no key pad");
    h.get_by_label("This board has no LCD: the program's output is on the Serial tab.");
    h.get_by_label("This board has no keys: type into the Serial tab.");
}
