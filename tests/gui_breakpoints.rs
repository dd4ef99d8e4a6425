//! The breakpoint list of the GUI, clicked through with egui_kittest on the
//! bundled Viergewinnt (no window opens): a conditional breakpoint typed
//! into the "Add breakpoint" field stops the run exactly where its
//! condition holds (proved by reading memory), a bad condition shows the
//! parser's error and adds nothing, editing in place keeps the breakpoint,
//! and conditions, counts and the enabled state persist in the settings.
#![cfg(feature = "gui")]

use egui::{Key, Vec2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::ui::app::App;
use hc11lab::ui::session::{SavedBreakpoint, Settings, Speed};
use hc11lab::ui::AppInput;

fn harness(settings: Settings) -> Harness<'static, App> {
    let app = App::with_settings(settings, AppInput::Bundled, None);
    Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(120)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

fn fast() -> Settings {
    Settings {
        speed: Speed::Max,
        ..Settings::default()
    }
}

/// Frames until the machine pauses (bounded by a minute of wall clock).
fn until_paused(h: &mut Harness<'_, App>) {
    // A key press is only queued: let one frame take it first, or a
    // command that has not started yet looks finished.
    h.step();
    let start = std::time::Instant::now();
    while h.state().session.is_running() && start.elapsed().as_secs() < 60 {
        h.step();
    }
    h.step();
    assert!(!h.state().session.is_running(), "still running");
}

/// The text field of breakpoint `id` (named by its `#id place` link).
fn spec_field<'a>(h: &'a Harness<'_, App>, id: u32) -> egui_kittest::Node<'a> {
    let prefix = format!("#{id} ");
    h.get_by(move |n| {
        n.role() == egui::accesskit::Role::TextInput
            && n.label().is_some_and(|l| l.starts_with(&prefix))
    })
}

/// Replaces the text of the focused field with `text` and presses Enter.
fn type_over(h: &mut Harness<'_, App>, text: &str) {
    h.key_press_modifiers(egui::Modifiers::COMMAND, Key::A);
    h.key_press(Key::Backspace);
    h.run();
    h.get_by(|n| n.role() == egui::accesskit::Role::TextInput && n.is_focused())
        .type_text(text);
    h.run();
    h.key_press(Key::Enter);
    h.run();
}

/// Types `text` into the "Add breakpoint" field and presses Enter.
fn add_breakpoint(h: &mut Harness<'_, App>, text: &str) {
    // The field is at the end of the side column: scroll it into view first.
    h.get_by_label("Add breakpoint").scroll_to_me();
    h.run();
    h.get_by_label("Add breakpoint").click();
    h.run();
    type_over(h, text);
}

fn word(h: &Harness<'_, App>, addr: u16) -> u16 {
    let s = &h.state().session;
    u16::from_be_bytes([s.peek(addr), s.peek(addr.wrapping_add(1))])
}

#[test]
fn a_conditional_breakpoint_added_in_the_list_stops_where_its_condition_holds() {
    let mut h = harness(fast());
    h.run();
    let program = h.state().session.program().expect("assembled").clone();
    let draw_cell = program.symbol("drawCell").expect("drawCell").value;
    let cell_address = program.symbol("cellAddress").expect("cellAddress").value;

    // A bad condition: the parser's message shows, nothing is added.
    add_breakpoint(&mut h, "drawCell if [cellAddress].w ==");
    assert!(h.state().session.breakpoint_list().is_empty());
    assert!(
        h.query_by_label_contains("condition").is_some(),
        "no inline error shown"
    );
    // An unknown label: also refused with its message.
    add_breakpoint(&mut h, "drawCel if A == 1");
    assert!(h.state().session.breakpoint_list().is_empty());
    assert!(h.query_by_label_contains("no label").is_some());

    // The good one: cell Spalte 3, Zeile 2.
    add_breakpoint(&mut h, "drawCell if [cellAddress].w == 136");
    let list = h.state().session.breakpoint_list().to_vec();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0].spec.text, "drawCell if [cellAddress].w == 136");
    assert_eq!(list[0].addrs, vec![draw_cell]);
    // The error is gone, the field is empty again.
    assert!(h.query_by_label_contains("condition:").is_none());

    h.get_by_label("Run").click();
    h.step();
    until_paused(&mut h);
    let s = &h.state().session;
    assert_eq!(s.pc(), Some(draw_cell));
    assert!(
        s.stop_reason().unwrap_or("").contains("breakpoint"),
        "{:?}",
        s.stop_reason()
    );
    assert_eq!(word(&h, cell_address), 136);
    // drawCell ran for earlier cells without stopping: only the true
    // arrival counts as a hit.
    assert_eq!(h.state().session.breakpoint_list()[0].hits, 1);

    // Edit it in place to a hit count: the 2nd arrival with cellAddress 0
    // (the board is drawn again after the first drop), same breakpoint id.
    let id = list[0].id;
    spec_field(&h, id).scroll_to_me();
    h.run();
    spec_field(&h, id).click();
    h.run();
    // A bad edit is refused and the breakpoint stays as it was.
    type_over(&mut h, "drawCell:0");
    assert_eq!(
        h.state().session.breakpoint_list()[0].spec.text,
        "drawCell if [cellAddress].w == 136"
    );
    assert!(h.query_by_label_contains("column").is_some());
    spec_field(&h, id).scroll_to_me();
    h.run();
    spec_field(&h, id).click();
    h.run();
    type_over(&mut h, "drawCell:2 if [cellAddress].w == 0");
    let list = h.state().session.breakpoint_list().to_vec();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].id, id);
    assert_eq!(list[0].spec.hit_count, Some(2));

    // The list fits the side column: it does not push the panel wider
    // frame after frame.
    for _ in 0..30 {
        h.step();
    }
    let w = h.get_by_label("Add breakpoint").rect().width();
    assert!(w < 330.0, "side panel grew to {w}");

    // Persisted as written, with its enabled state.
    let saved = &h.state().session.settings.breakpoints;
    assert_eq!(
        saved.first().map(|(_, v)| v.clone()),
        Some(vec![SavedBreakpoint::Spec {
            text: "drawCell:2 if [cellAddress].w == 0".into(),
            enabled: true,
        }])
    );
}

#[test]
fn conditions_counts_and_disabled_state_come_back_from_the_settings() {
    let mut settings = fast();
    settings.breakpoints = vec![(
        std::path::PathBuf::new(),
        vec![
            SavedBreakpoint::Spec {
                text: "drawCell if [cellAddress].w == 8".into(),
                enabled: true,
            },
            SavedBreakpoint::Spec {
                text: "readInput:3".into(),
                enabled: false,
            },
        ],
    )];
    let mut h = harness(settings);
    h.run();
    let list = h.state().session.breakpoint_list().to_vec();
    assert_eq!(list.len(), 2);
    assert!(list[0].enabled && !list[1].enabled);
    let first = list[0].id;
    assert_eq!(
        spec_field(&h, first).value().as_deref(),
        Some("drawCell if [cellAddress].w == 8")
    );
    let program = h.state().session.program().unwrap().clone();
    let cell_address = program.symbol("cellAddress").unwrap().value;
    h.get_by_label("Run").click();
    h.step();
    until_paused(&mut h);
    assert_eq!(
        h.state().session.pc(),
        Some(program.symbol("drawCell").unwrap().value)
    );
    assert_eq!(word(&h, cell_address), 8);
}

/// Debug > Breakpoints... (what the lessons tell students to open) puts the
/// cursor into the "Add breakpoint" field: typing there adds a breakpoint.
#[test]
fn the_debug_menu_leads_to_the_add_breakpoint_field() {
    let mut h = harness(fast());
    h.run();
    h.get_by_label("Debug").click();
    h.run();
    h.get_by_label("Breakpoints...").click();
    h.run();
    // Panics if the focused field is not the one labelled "Add breakpoint".
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::TextInput
            && n.is_focused()
            && n.label().as_deref() == Some("Add breakpoint")
    });
    type_over(&mut h, "readInput:3");
    let list = h.state().session.breakpoint_list().to_vec();
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0].spec.text, "readInput:3");
    assert_eq!(list[0].spec.hit_count, Some(3));
}
