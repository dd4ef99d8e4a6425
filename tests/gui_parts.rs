//! The board file's parts on the GUI's Bench tab, clicked
//! through with egui_kittest while `tests/data/boards/parts_live.asm` runs
//! on `tests/data/boards/parts-lab.toml`: LEDs follow the program's port A
//! writes, a switch, a push button, the pot's slider and the generator's
//! controls change what the program reads, and the IRQ/XIRQ pin controls
//! interrupt it. Its own test binary because the board is chosen once per
//! process, as `--board` does.
#![cfg(feature = "gui")]

use egui::accesskit::Role;
use egui::Vec2;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::board::bench::{Drive, IrqLine, SignalSpec};
use hc11lab::board::config::{set_default_setup, BoardConfig, BoardSetup};
use hc11lab::ui::app::App;
use hc11lab::ui::session::{Settings, SideTab, Speed};
use hc11lab::ui::AppInput;
use std::path::PathBuf;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/boards")
        .join(name)
}

fn frames(h: &mut Harness<'_, App>, n: usize) {
    for _ in 0..n {
        h.step();
    }
}

fn peek(h: &Harness<'_, App>, addr: u16) -> u8 {
    h.state().session.machine().expect("machine").peek(addr)
}

/// The generator's rising edges the program counted ($82-$83).
fn edges(h: &Harness<'_, App>) -> u16 {
    h.state()
        .session
        .machine()
        .expect("machine")
        .peek_word(0x82)
}

/// Clicks the widget named `label` as a screen reader does.
fn click(h: &mut Harness<'_, App>, label: &str) {
    h.get_by_label(label).click_accesskit();
    frames(h, 1);
}

fn led(h: &Harness<'_, App>, text: &str) -> bool {
    h.query_by_label(text).is_some()
}

/// The window on parts-lab.toml with parts_live.asm loaded, Bench tab open.
fn harness() -> Harness<'static, App> {
    let config = BoardConfig::load(&data("parts-lab.toml")).expect("board file");
    set_default_setup("parts-lab.toml", BoardSetup::new(config));
    let settings = Settings {
        speed: Speed::RealTime,
        side_tab: SideTab::Bench,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Path(data("parts_live.asm")), None);
    Harness::builder()
        .with_size(Vec2::new(1280.0, 1000.0))
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(120)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

/// The same controls with the mouse: the pointer rests on each for a few
/// frames, then clicks (or, on the push button, presses and releases).
#[test]
fn the_parts_controls_work_with_the_mouse() {
    let mut h = harness();
    h.run();
    h.state_mut().session.run();
    frames(&mut h, 3);
    let centre = h.get_by_label("button step (PA1)").rect().center();
    h.event(egui::Event::PointerMoved(centre));
    frames(&mut h, 2);
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: centre,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
        frames(&mut h, 3);
        assert_eq!(h.state().session.port_a() & 0x02 != 0, !pressed, "PA1");
        let red = if pressed { "on" } else { "off" };
        assert!(led(&h, &format!("LED red (PA5): {red}")), "red {red}");
    }
    for label in [
        "IRQ low",
        "switch start (PA0)",
        "XIRQ low",
        "switch mode (PE0)",
    ] {
        h.get_by_label(label).hover();
        frames(&mut h, 3);
        h.get_by_label(label).click();
        frames(&mut h, 3);
    }
    let s = &h.state().session;
    assert!(s.irq_line_low(IrqLine::Irq) && s.irq_line_low(IrqLine::Xirq));
    assert_eq!(s.port_a() & 0x01, 0x01, "start switch on");
    assert_eq!(
        s.machine().and_then(|m| m.board().analog(0)),
        Some(0),
        "mode switch off: 0 V on PE0"
    );
    assert_eq!(peek(&h, 0x84), 1, "one IRQ edge");
}

/// Each control through the accessibility tree (as a screen reader clicks):
/// after several pointer interactions a neighbour's tooltip can lie over
/// the next control in the harness, so the long walk-through clicks this way.
#[test]
fn the_boards_parts_drive_the_running_program() {
    let mut h = harness();
    h.run();
    // The board's default trace (PA6, PA2) is what the analyser shows.
    assert_eq!(h.state().session.traced_mask(), 0x44);
    h.state_mut().session.run();
    frames(&mut h, 3);

    // Defaults: start off (green off), mode on (amber on), step released
    // (PA1 = 1: the program turns red off), pot at 2.0 V = 102.
    assert!(led(&h, "LED green (PA6): off"), "green");
    assert!(led(&h, "LED amber (PA4): on"), "amber");
    assert!(led(&h, "LED red (PA5): off"), "red");
    assert_eq!(peek(&h, 0x80), 102);

    // The start switch: the program lights green.
    click(&mut h, "switch start (PA0)");
    frames(&mut h, 3);
    assert!(led(&h, "LED green (PA6): on"), "green after the switch");
    // The mode switch on PE0: 0 V, amber goes out.
    click(&mut h, "switch mode (PE0)");
    frames(&mut h, 3);
    assert!(led(&h, "LED amber (PA4): off"), "amber after the switch");

    // The push button: red is lit while it is held, off when released.
    let centre = h.get_by_label("button step (PA1)").rect().center();
    // Move there first: the last checkbox's tooltip moves out of the way.
    h.event(egui::Event::PointerMoved(centre));
    frames(&mut h, 2);
    h.event(egui::Event::PointerButton {
        pos: centre,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::default(),
    });
    frames(&mut h, 3);
    assert!(led(&h, "LED red (PA5): on"), "red while the button is held");
    h.event(egui::Event::PointerButton {
        pos: centre,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::default(),
    });
    frames(&mut h, 3);
    assert!(led(&h, "LED red (PA5): off"), "red after the release");

    // The pot's slider: 4.0 V is converted as 204.
    h.get_by_role_and_label(Role::Slider, "contrast (AN1)")
        .set_value_accesskit(4.0);
    frames(&mut h, 3);
    assert_eq!(peek(&h, 0x80), 204);

    // The generator runs from power-on: the program counts its edges; off,
    // the count stands still; on again at 1 kHz, it counts again.
    let before = edges(&h);
    frames(&mut h, 2);
    assert!(edges(&h) > before, "the generator's edges are not counted");
    click(&mut h, "generator clock (PA2)");
    frames(&mut h, 2);
    let stopped = edges(&h);
    frames(&mut h, 3);
    assert_eq!(edges(&h), stopped, "edges counted with the generator off");
    h.get_by_role_and_label(Role::Slider, "clock Hz")
        .set_value_accesskit(1000.0);
    click(&mut h, "generator clock (PA2)");
    frames(&mut h, 3);
    assert!(edges(&h) > stopped, "no edges after switching it on again");
    assert!(matches!(
        h.state().session.input_drive(2),
        Drive::Square(s) if s.millihertz == 1_000_000 && s.duty_percent == 25
    ));
    h.get_by_role_and_label(Role::Slider, "clock duty")
        .set_value_accesskit(50.0);
    frames(&mut h, 2);
    assert_eq!(
        h.state().session.bench().signals[2],
        Some(SignalSpec::Square {
            millihertz: 1_000_000,
            duty_percent: 50
        })
    );

    // IRQ is edge-sensitive in this program: one entry per falling edge.
    assert_eq!(peek(&h, 0x84), 0);
    click(&mut h, "IRQ low");
    frames(&mut h, 3);
    assert_eq!(peek(&h, 0x84), 1);
    click(&mut h, "IRQ low");
    frames(&mut h, 2);
    click(&mut h, "IRQ low");
    frames(&mut h, 2);
    assert_eq!(peek(&h, 0x84), 2);
    // XIRQ held low enters again after each RTI; released, it stops.
    let x0 = peek(&h, 0x85);
    click(&mut h, "XIRQ low");
    frames(&mut h, 2);
    assert_ne!(peek(&h, 0x85), x0, "XIRQ not taken");
    click(&mut h, "XIRQ low");
    frames(&mut h, 2);
    let x1 = peek(&h, 0x85);
    frames(&mut h, 3);
    assert_eq!(peek(&h, 0x85), x1, "XIRQ taken while high");

    // The trace is capped: at 100 kHz the traced PA2 changes every 10
    // E-cycles, so after 655,360 cycles the oldest are dropped and the
    // analyser says so.
    h.get_by_role_and_label(Role::Slider, "clock Hz")
        .set_value_accesskit(100_000.0);
    let start = h.state().session.cycles();
    for _ in 0..100 {
        if h.state().session.cycles() >= start + 1_000_000 {
            break;
        }
        frames(&mut h, 10);
    }
    let dropped = h.state().session.pin_trace_dropped();
    assert!(dropped > 0, "nothing dropped");
    assert!(h.state().session.pin_trace().len() <= hc11lab::board::timer::MAX_TRACE_EDGES);
    let note =
        format!("The trace keeps the newest 65536 changes: {dropped} older ones were dropped.");
    assert!(h.query_by_label(&note).is_some(), "no note: {note}");

    // A reset keeps what the user set: the switch, the pot, the generator.
    h.state_mut().session.reset();
    h.state_mut().session.run();
    frames(&mut h, 3);
    assert!(led(&h, "LED green (PA6): on"), "green after the reset");
    assert_eq!(peek(&h, 0x80), 204);
}
