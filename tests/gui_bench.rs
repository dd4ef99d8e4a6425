//! The lab bench panel clicked through with egui_kittest: a
//! potentiometer slider sets the machine's A/D input, a switch drives a
//! port A input pin (its LED follows), and the logic analyser draws the
//! traced pin's edges.
#![cfg(feature = "gui")]

use egui::accesskit::Role;
use egui::Vec2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::ui::app::App;
use hc11lab::ui::session::{Settings, SideTab, Speed};
use hc11lab::ui::AppInput;

fn harness() -> Harness<'static, App> {
    let settings = Settings {
        speed: Speed::RealTime,
        side_tab: SideTab::Debugger,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None);
    Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(120)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

/// AN3 as the machine sees it.
fn board(h: &Harness<'_, App>) -> Option<u32> {
    h.state()
        .session
        .machine()
        .map(|m| m.board().analog(3))
        .expect("machine")
}

#[test]
fn a_slider_sets_the_analog_input_and_a_traced_pin_draws_its_edges() {
    let mut h = harness();
    h.run();
    h.get_by_label("Bench").click();
    h.run();
    assert_eq!(h.state().session.settings.side_tab, SideTab::Bench);

    // The AN3 potentiometer, 5 V (nothing connected) until it is moved.
    assert_eq!(board(&h), Some(5000));
    h.get_by_role_and_label(Role::Slider, "AN3")
        .set_value_accesskit(1.25);
    h.run();
    assert_eq!(board(&h), Some(1250));
    // A reset keeps the bench: the pot is still at 1.25 V.
    h.state_mut().session.reset();
    h.run();
    assert_eq!(board(&h), Some(1250));

    // Trace PA0, then flip its switch twice while the game runs.
    h.state_mut().bench.span_ms = 1000;
    h.get_by_label("trace PA0").click();
    h.run();
    assert_eq!(h.state().session.bench().trace_mask, 0b1);
    h.state_mut().session.run();
    for _ in 0..3 {
        h.step();
    }
    assert!(h.query_by_label("PA0 = 1").is_some(), "open pin reads 1");
    h.get_by_label("switch PA0").click();
    for _ in 0..3 {
        h.step();
    }
    assert!(h.query_by_label("PA0 = 0").is_some(), "LED does not follow");
    h.get_by_label("switch PA0").click();
    for _ in 0..3 {
        h.step();
    }
    let edges = h
        .state()
        .session
        .pin_trace()
        .iter()
        .filter(|e| e.bit == 0)
        .count();
    assert!(edges >= 3, "trace start and two edges: {edges}");
    assert!(
        h.query_by_label("PA0: 2 edge(s) in the last 1000 ms")
            .is_some(),
        "the analyser does not draw the two edges"
    );
}
