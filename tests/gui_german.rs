//! The window in German (every label, menu and message in both
//! languages), with egui_kittest: switched to German in the View menu, the
//! status bar's messages, the run state, a listing symbol's tooltip and the
//! link bar's notes (with the recorded chain) are German, and none of a list
//! of English words the window uses is left on screen.
#![cfg(feature = "gui")]

use egui::Vec2;
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use hc11lab::lesson::Lang;
use hc11lab::ui::app::App;
use hc11lab::ui::links::Selection;
use hc11lab::ui::session::{Settings, Speed};
use hc11lab::ui::AppInput;

/// The window as a student starts it in English, switched to German in
/// the View menu and the program reloaded from the File menu.
fn german() -> Harness<'static, App> {
    let settings = Settings {
        speed: Speed::Max,
        language: Some(Lang::En),
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None);
    let mut h = Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .with_max_steps(120)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.run();
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Deutsch").click();
    h.run();
    assert_eq!(h.state().session.lang(), Lang::De);
    h.key_press(egui::Key::Escape);
    h.run();
    h.get_by_label("Datei").click();
    h.run();
    h.get_by_label("Neu laden").click();
    h.run();
    h
}

/// Boots the game to its main loop and pauses there.
fn booted() -> Harness<'static, App> {
    let mut h = german();
    let main_loop = h
        .state()
        .session
        .program()
        .and_then(|p| p.symbol("mainLoop"))
        .map(|s| s.value)
        .expect("mainLoop");
    h.state_mut().session.run_to(main_loop);
    let start = std::time::Instant::now();
    while h.state().session.is_running() && start.elapsed().as_secs() < 60 {
        h.step();
    }
    h.step();
    assert!(h.state().session.is_paused(), "still running");
    h
}

/// Every text on screen (labels, buttons, values), one per node.
fn texts(h: &Harness<'_, App>) -> Vec<String> {
    h.query_all_by_label_contains("")
        .filter_map(|n| n.accesskit_node().label().or(n.accesskit_node().value()))
        .collect()
}

fn shows(h: &Harness<'_, App>, part: &str) -> bool {
    texts(h).iter().any(|t| t.contains(part))
}

/// English the window used to show; none of it may remain in German.
/// (Accessibility names the tests address widgets by, such as "Cell
/// buffer" or "breakpoint 155", are not shown and not in the list.)
const ENGLISH: &[&str] = &[
    "Loaded ",
    "(bundled)",
    "paused",
    "reached ",
    "Breakpoint at",
    "LCD RAM page",
    "in the buffer",
    "stored to",
    "loaded from",
    "is a constant of",
    "pixel (",
    "click: go to definition",
    "defined at",
    "Board key",
    "Space / Enter",
    "Left arrow",
    "Registers",
    "Call stack",
    "Step back",
    "cycles ",
    "instructions",
    "Memory",
    "Serial",
];

fn english_left(h: &Harness<'_, App>) -> Vec<String> {
    texts(h)
        .into_iter()
        .filter(|t| ENGLISH.iter().any(|e| t.contains(e)))
        .collect()
}

#[test]
fn status_bar_run_state_tooltips_and_link_bar_speak_german() {
    let mut h = booted();
    assert!(
        shows(&h, "Viergewinnt (mitgeliefert) geladen."),
        "status after loading: {:?}",
        h.state().session.status
    );
    assert!(
        shows(&h, "angehalten: mainLoop erreicht ($C553)"),
        "run state: {}",
        h.state().session.run_state_text()
    );
    // A breakpoint set in the gutter: the status bar says so in German.
    let main_loop = h
        .state()
        .session
        .program()
        .and_then(|p| p.symbol("mainLoop"))
        .and_then(|s| s.defined_at)
        .expect("mainLoop's line");
    h.get_by_label(&format!("breakpoint {}", main_loop.1))
        .click();
    h.run();
    assert!(
        shows(&h, "Haltepunkt bei $C553 (mainLoop"),
        "status: {}",
        h.state().session.status
    );

    // A symbol's tooltip in the listing.
    let listing = h
        .state()
        .panel_rects()
        .iter()
        .find(|(n, _)| *n == "listing")
        .map(|(_, r)| *r)
        .expect("listing panel");
    let at = h
        .query_all_by_label("readInput")
        .map(|n| n.rect())
        .find(|r| listing.contains_rect(*r))
        .expect("readInput in the listing");
    h.hover_at(at.center());
    for _ in 0..60 {
        h.step();
    }
    assert!(shows(&h, "Klick: zur Definition"), "no German tooltip");
    assert!(shows(&h, "definiert in Input.inc:"), "no German tooltip");

    // The link bar's notes and the recorded chain of a pixel.
    h.state_mut()
        .session
        .select(Selection::Pixel { x: 71, y: 43 });
    h.hover_at(egui::Pos2::new(1.0, 1.0));
    h.run();
    for de in [
        "LCD-RAM Seite 5 Spalte 71 Bit 3",
        "im Puffer und auf dem LCD",
        "Pixel (71,43) ist Bit 3 von Display-RAM Seite 5, Spalte 71",
        "gespeichert nach board+315 durch `staa $03,x` bei cellToBuffer+25",
        "geladen aus board+315 durch",
        "ist eine Konstante von",
    ] {
        assert!(shows(&h, de), "link bar lacks {de:?}");
    }
    let left = english_left(&h);
    assert!(left.is_empty(), "English in German mode: {left:#?}");
}

#[test]
fn the_same_window_in_english_shows_the_english_list() {
    // The check above can fail: in English the listed words are there.
    let mut h = booted();
    h.state_mut().session.set_lang(Lang::En);
    h.state_mut()
        .session
        .select(Selection::Pixel { x: 71, y: 43 });
    h.run();
    let left = english_left(&h);
    for en in [
        "reached ",
        "LCD RAM page",
        "stored to",
        "Registers",
        "Step back",
    ] {
        assert!(left.iter().any(|t| t.contains(en)), "{en} not shown");
    }
}
