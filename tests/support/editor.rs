//! Shared helpers of the editor's window tests (`tests/gui_editor*.rs`):
//! a harness around the app, keys and text typed, frames until the
//! background assembly arrived, the pointer rested on a line.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use egui::accesskit::Role;
use egui::{Key, Modifiers, Vec2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::ui::app::App;
use hc11lab::ui::session::Settings;
use hc11lab::ui::AppInput;

pub const PROGRAM: &str = "        org $C000
Start   lds #$00FF
        ldaa #1
        staa $40
Loop    bra Loop
        org $FFFE
        dc.w Start
";

pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hc11lab-gui-editor-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("scratch dir");
    d
}

pub fn program(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("prog.asm");
    std::fs::write(&p, text).expect("write program");
    p
}

pub fn harness(input: AppInput) -> Harness<'static, App> {
    let app = App::with_settings(Settings::default(), input, None);
    Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

pub fn steps(h: &mut Harness<'_, App>, n: usize) {
    for _ in 0..n {
        h.step();
    }
}

pub fn press(h: &mut Harness<'_, App>, modifiers: Modifiers, key: Key) {
    h.key_press_modifiers(modifiers, key);
    steps(h, 2);
}

pub fn type_text(h: &mut Harness<'_, App>, text: &str) {
    h.event(egui::Event::Text(text.to_string()));
    steps(h, 2);
}

/// Frames until the live assembly of the text as it is now has arrived
/// (it starts after a pause of 300 ms in typing).
pub fn assembled(h: &mut Harness<'_, App>) {
    let start = Instant::now();
    h.step();
    while h.state().session.edits.assembling() && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    assert!(
        !h.state().session.edits.assembling(),
        "no assembly after 20 s"
    );
    steps(h, 3);
}

/// The editor's text of the file shown.
pub fn text(h: &Harness<'_, App>) -> String {
    h.state().session.edits.buffers[0].text.clone()
}

/// Opens the editor at the program counter's line (`Start`), the cursor at
/// its end.
pub fn edit_start_line(h: &mut Harness<'_, App>) {
    steps(h, 2);
    press(h, Modifiers::COMMAND, Key::E);
    press(h, Modifiers::NONE, Key::End);
}

/// Rests the pointer on column `col` of the text run holding `line`.
pub fn hover_text(h: &mut Harness<'_, App>, line: &str, col: f32) {
    let run = h
        .get_all_by_role(Role::TextRun)
        .find(|n| n.value().is_some_and(|v| v.contains(line)))
        .expect("the line's text run")
        .rect();
    let char_w = run.width() / line.len() as f32;
    h.hover_at(egui::pos2(run.left() + char_w * col, run.center().y));
    for _ in 0..40 {
        std::thread::sleep(Duration::from_millis(10));
        h.step();
    }
}
