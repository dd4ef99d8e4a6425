//! The window's layout at the screens students have: 1024x600, 1280x800 and
//! 1920x1080, each at scale 1 and 2 (a HiDPI scale of 2 leaves half the
//! points). In every case the panels lie inside the window and none over
//! another, the LCD is drawn whole at 2:1 and at least 2x, inside its own
//! panel, and the toolbar's buttons are on screen. What spilled before
//! (docs/gui.md): the listing's code, the Debug menu, the Bench and Debugger
//! columns at small sizes and large text, Problems in the compact pane.
//! No window opens.
#![cfg(feature = "gui")]

use egui::{Rect, Vec2};
use egui_kittest::kittest::{NodeT, Queryable};
use egui_kittest::Harness;
use hc11lab::ui::app::App;
use hc11lab::ui::layout::Mode;
use hc11lab::ui::session::Settings;
use hc11lab::ui::AppInput;

const SCREENS: [(f32, f32); 3] = [(1024.0, 600.0), (1280.0, 800.0), (1920.0, 1080.0)];

fn harness(points: Vec2, scale: f32) -> Harness<'static, App> {
    let app = App::with_settings(Settings::default(), AppInput::Bundled, None);
    Harness::builder()
        .with_size(points)
        .with_pixels_per_point(scale)
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

/// True if `a` and `b` share more than a hairline (panel edges touch).
fn overlap(a: Rect, b: Rect) -> bool {
    let i = a.intersect(b);
    i.width() > 1.0 && i.height() > 1.0
}

fn inside(outer: Rect, inner: Rect) -> bool {
    outer.expand(0.5).contains_rect(inner)
}

fn check(points: Vec2, scale: f32) {
    let what = format!("{}x{} at scale {scale}", points.x * scale, points.y * scale);
    let mut h = harness(points, scale);
    for _ in 0..4 {
        h.step();
    }
    let window = Rect::from_min_size(egui::Pos2::ZERO, points);
    let app = h.state();
    let rects = app.panel_rects().to_vec();
    assert!(rects.len() >= 5, "{what}: {rects:?}");
    for (name, r) in &rects {
        assert!(
            inside(window, *r),
            "{what}: {name} {r:?} outside the window"
        );
        assert!(
            r.width() > 20.0 && r.height() > 10.0,
            "{what}: {name} {r:?} squeezed"
        );
    }
    for (i, (a, ra)) in rects.iter().enumerate() {
        for (b, rb) in rects.iter().skip(i + 1) {
            assert!(!overlap(*ra, *rb), "{what}: {a} {ra:?} overlaps {b} {rb:?}");
        }
    }
    let lcd_panel = if app.mode() == Some(Mode::Compact) {
        "lcd-column"
    } else {
        "center"
    };
    let panel = rects
        .iter()
        .find(|(n, _)| *n == lcd_panel)
        .map(|(_, r)| *r)
        .expect("LCD panel");
    let lcd = h.get_by_label("LCD 128x64").rect();
    assert!(
        inside(panel, lcd),
        "{what}: LCD {lcd:?} not inside {lcd_panel} {panel:?}"
    );
    assert!(inside(window, lcd), "{what}: LCD {lcd:?} cut off");
    assert!(
        (lcd.width() - 2.0 * lcd.height()).abs() < 0.5,
        "{what}: LCD {lcd:?} not 2:1"
    );
    let zoom = lcd.width() / 128.0;
    assert!(
        zoom >= 2.0 && (zoom - zoom.round()).abs() < 0.01,
        "{what}: LCD zoom {zoom}"
    );
    for (name, r) in &rects {
        if *name != lcd_panel {
            assert!(!overlap(*r, lcd), "{what}: LCD over {name}");
        }
    }
    for button in ["Run", "Step", "Step back", "Reset"] {
        let b = h.get_by_label(button).rect();
        assert!(inside(window, b), "{what}: {button} {b:?} off screen");
    }
}

#[test]
fn every_screen_at_scale_1_and_2_has_the_lcd_whole_and_no_overlaps() {
    for (w, h) in SCREENS {
        for scale in [1.0, 2.0] {
            check(Vec2::new(w / scale, h / scale), scale);
        }
    }
}

#[test]
fn the_listing_grows_with_the_window() {
    let width = |w: f32| {
        let mut h = harness(Vec2::new(w, 800.0), 1.0);
        for _ in 0..3 {
            h.step();
        }
        let r = h
            .state()
            .panel_rects()
            .iter()
            .find(|(n, _)| *n == "listing")
            .map(|(_, r)| r.width())
            .expect("listing panel");
        r
    };
    let (narrow, wide) = (width(1024.0), width(1920.0));
    assert!(
        wide > narrow + 150.0,
        "listing {narrow} at 1024, {wide} at 1920"
    );
}

/// The cell buffer's bit grid (the image, not its heading).
fn cell_grid(h: &Harness<'_, App>) -> Rect {
    h.query_all_by_label("Cell buffer")
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Image)
        .map(|n| n.rect())
        .expect("cell buffer grid")
}

/// Scrolls the cell buffer into view as a user would reach it, then
/// clicks the last byte (Spalte 6, Zeile 5, byte 7): it is inside the
/// window and its panel, and the click selects board+335.
fn check_cells(points: Vec2, scale: f32) {
    use hc11lab::ui::links::Selection;
    let what = format!("{}x{} at scale {scale}", points.x * scale, points.y * scale);
    let mut h = harness(points, scale);
    for _ in 0..4 {
        h.step();
    }
    h.query_all_by_label("Cell buffer")
        .find(|n| n.accesskit_node().role() == egui::accesskit::Role::Image)
        .expect("cell buffer grid")
        .scroll_to_me();
    for _ in 0..4 {
        h.step();
    }
    let grid = cell_grid(&h);
    let panel_name = if h.state().mode() == Some(Mode::Compact) {
        "lcd-column"
    } else {
        "center"
    };
    let panel = h
        .state()
        .panel_rects()
        .iter()
        .find(|(n, _)| *n == panel_name)
        .map(|(_, r)| *r)
        .expect("cell buffer's panel");
    assert!(
        inside(panel, grid),
        "{what}: cell buffer {grid:?} not whole inside {panel_name} {panel:?}"
    );
    // 7 cells of 8 bits across with 6 gaps of 3 points.
    let bit = (grid.width() - 18.0) / 56.0;
    assert!(bit >= 2.0, "{what}: bits of {bit} points");
    let last = grid.max - Vec2::new(bit * 0.5, bit * 4.0);
    h.hover_at(last);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos: last,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        });
        h.step();
    }
    let board = h
        .state()
        .session
        .program()
        .and_then(|p| p.symbol("board"))
        .map(|s| s.value)
        .expect("board");
    assert_eq!(
        h.state().session.selection,
        Some(Selection::BufferByte(board + 335)),
        "{what}: the last byte is not reachable"
    );
}

#[test]
fn every_byte_of_the_cell_buffer_is_reachable_on_every_screen() {
    for (w, h) in SCREENS {
        for scale in [1.0, 2.0] {
            check_cells(Vec2::new(w / scale, h / scale), scale);
        }
    }
}

/// The app on `settings` and `input` in a window of `points` at `scale`,
/// a few frames in (side panels settle on their width in the first ones).
fn settled(settings: Settings, input: AppInput, points: Vec2, scale: f32) -> Harness<'static, App> {
    let app = App::with_settings(settings, input, None);
    let mut h = Harness::builder()
        .with_size(points)
        .with_pixels_per_point(scale)
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    for _ in 0..6 {
        h.step();
    }
    h
}

/// The rectangle panel `name` got in the last frame.
fn panel(h: &Harness<'_, App>, name: &str) -> Rect {
    h.state()
        .panel_rects()
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, r)| *r)
        .unwrap_or_else(|| panic!("no panel {name}"))
}

/// The panel the listing is drawn in: its own, or the compact pane.
fn listing_panel(h: &Harness<'_, App>) -> Rect {
    if h.state().mode() == Some(Mode::Compact) {
        panel(h, "pane")
    } else {
        panel(h, "listing")
    }
}

/// True if `inner` lies across `outer` from left to right and its middle
/// is in `outer`'s height (rows scrolled out of view are not drawn).
fn across(outer: Rect, inner: Rect) -> bool {
    inner.min.x >= outer.min.x - 0.5
        && inner.max.x <= outer.max.x + 0.5
        && outer.y_range().contains(inner.center().y)
}

/// The line `lda 0,y` of Board.inc (the loop that sends a cell's bytes).
fn lda_0_y(app: &App) -> (usize, u32) {
    let p = app.session.program().expect("program");
    p.files
        .iter()
        .enumerate()
        .filter(|(_, f)| f.path.ends_with("Board.inc"))
        .find_map(|(i, f)| {
            f.text
                .lines()
                .position(|l| l.split_whitespace().take(2).eq(["lda", "0,y"]))
                .map(|n| (i, n as u32 + 1))
        })
        .expect("lda 0,y in Board.inc")
}

/// The listing shows `lda 0,y` whole (mnemonic and both operand parts)
/// inside its panel, without scrolling sideways.
fn check_operands(points: Vec2, scale: f32, font_size: u8) {
    let what = format!(
        "{}x{} at scale {scale}, text size {font_size}",
        points.x * scale,
        points.y * scale
    );
    let settings = Settings {
        font_size,
        ..Settings::default()
    };
    let mut h = settled(settings, AppInput::Bundled, points, scale);
    let (file, line) = lda_0_y(h.state());
    h.state_mut().session.reveal_line(file, line);
    for _ in 0..4 {
        h.step();
    }
    let listing = listing_panel(&h);
    for text in ["lda", "0", ",", "y"] {
        let shown = h
            .query_all_by_label(text)
            .any(|n| across(listing, n.rect()));
        assert!(
            shown,
            "{what}: `{text}` of `lda 0,y` not inside the listing {listing:?}"
        );
    }
}

#[test]
fn a_narrow_listing_shows_the_instructions_operands() {
    // The compact pane at scale 2, and the normal listing at text size 24.
    check_operands(Vec2::new(512.0, 300.0), 2.0, 14);
    check_operands(Vec2::new(640.0, 400.0), 2.0, 14);
    check_operands(Vec2::new(1024.0, 600.0), 1.0, 24);
    check_operands(Vec2::new(1280.0, 800.0), 1.0, 24);
}

/// The compact pane at 1024x600 and scale 2 (512x300 points): its seven
/// tabs do not fit in one row, so they are a menu of one row (they wrapped
/// into three and left the listing two lines); the listing shows the lines
/// around `lda 0,y`, and the menu opens another pane.
#[test]
fn the_compact_pane_keeps_its_tabs_to_one_row() {
    use hc11lab::ui::session::Pane;
    let mut h = settled(
        Settings::default(),
        AppInput::Bundled,
        Vec2::new(512.0, 300.0),
        2.0,
    );
    assert_eq!(h.state().mode(), Some(Mode::Compact));
    let (file, line) = lda_0_y(h.state());
    h.state_mut().session.reveal_line(file, line);
    for _ in 0..4 {
        h.step();
    }
    let listing = listing_panel(&h);
    let shown = ["psha", "lda", "jsr", "pula"]
        .iter()
        .filter(|text| {
            h.query_all_by_label(text)
                .any(|n| across(listing, n.rect()))
        })
        .count();
    assert!(
        shown >= 3,
        "{shown} of the four lines around `lda 0,y` shown"
    );
    assert!(
        h.query_by_label("Memory").is_none(),
        "the tabs are a menu, not a row"
    );
    h.get_by_label("Pane").click();
    h.run();
    h.get_by_label("Memory").click();
    h.run();
    assert_eq!(h.state().session.settings.pane, Pane::Memory);
}

#[test]
fn a_narrow_disassembly_shows_the_instructions() {
    use hc11lab::asm::disassemble_lines;
    use hc11lab::image::s19::write_s19;
    let bundled = App::with_settings(Settings::default(), AppInput::Bundled, None);
    let program = bundled.session.program().expect("bundled program").clone();
    let path = std::env::temp_dir().join(format!("hc11lab-gui-layout-{}.s19", std::process::id()));
    std::fs::write(&path, write_s19(&program)).expect("write the S19");
    let mut h = settled(
        Settings::default(),
        AppInput::Path(path.clone()),
        Vec2::new(640.0, 400.0),
        2.0,
    );
    let _ = std::fs::remove_file(&path);
    let loaded = h.state().session.program().expect("S19 loaded").clone();
    assert!(loaded.files.is_empty(), "an S19 has no sources");
    h.step();
    let pane = listing_panel(&h);
    let rows = disassemble_lines(&loaded);
    let shown = rows
        .iter()
        .filter(|row| {
            h.query_all_by_label_contains(&row.text)
                .any(|n| across(pane, n.rect()))
        })
        .count();
    assert!(
        shown >= 3,
        "{shown} instructions of the disassembly inside the pane {pane:?}"
    );
}

/// Opens the Debug menu: every entry can be scrolled into the window;
/// Escape closes the menu.
fn check_debug_menu(points: Vec2, scale: f32) {
    let what = format!("{}x{} at scale {scale}", points.x * scale, points.y * scale);
    let mut h = settled(Settings::default(), AppInput::Bundled, points, scale);
    h.get_by_label("Debug").click();
    for _ in 0..3 {
        h.step();
    }
    let window = Rect::from_min_size(egui::Pos2::ZERO, points);
    for item in [
        "Run / continue",
        "Step into",
        "Step over",
        "Step out",
        "Run to cursor",
        "Toggle breakpoint",
        "Reset board",
        "Breakpoints...",
        "Go to label…",
        "x10",
        "As fast as possible",
        "Record data flow (links)",
    ] {
        // An entry with a shortcut is labelled with it too ("Step over F10").
        let Some(node) = h.query_all_by_label_contains(item).next() else {
            panic!("{what}: no {item:?} in the Debug menu");
        };
        node.scroll_to_me();
        for _ in 0..3 {
            h.step();
        }
        let r = h
            .query_all_by_label_contains(item)
            .next()
            .map(|n| n.rect())
            .unwrap_or_else(|| panic!("{what}: {item:?} gone after scrolling"));
        assert!(
            inside(window, r),
            "{what}: {item:?} {r:?} cannot be reached in the window"
        );
    }
    h.key_press(egui::Key::Escape);
    for _ in 0..2 {
        h.step();
    }
    assert!(
        h.query_all_by_label("Record data flow (links)")
            .next()
            .is_none(),
        "{what}: Escape leaves the menu open"
    );
}

#[test]
fn every_debug_menu_item_is_reachable() {
    check_debug_menu(Vec2::new(512.0, 300.0), 2.0);
    check_debug_menu(Vec2::new(1024.0, 600.0), 1.0);
}

/// Drawn widgets: text, links, buttons, check boxes, sliders, LEDs.
fn widgets(h: &Harness<'_, App>) -> Vec<(String, Rect)> {
    use egui::accesskit::Role;
    h.query_all(egui_kittest::kittest::By::new().predicate(|n| {
        matches!(
            n.role(),
            Role::Label
                | Role::Link
                | Role::Button
                | Role::CheckBox
                | Role::RadioButton
                | Role::Slider
                | Role::SpinButton
                | Role::ComboBox
                | Role::TextInput
                | Role::Image
        )
    }))
    .map(|n| {
        let a = n.accesskit_node();
        let text = a.label().or_else(|| a.value()).unwrap_or_default();
        (text, n.rect())
    })
    .collect()
}

/// Every widget that starts inside panel `name` (and whose middle is in
/// its height) ends inside it: nothing is drawn over the neighbours.
fn check_contained(h: &Harness<'_, App>, name: &str, what: &str) {
    let p = panel(h, name);
    let window = Rect::from_min_size(egui::Pos2::ZERO, h.ctx.content_rect().size());
    assert!(inside(window, p), "{what}: {name} {p:?} outside the window");
    for (other, r) in h.state().panel_rects() {
        if *other != name {
            assert!(
                !overlap(p, *r),
                "{what}: {name} {p:?} overlaps {other} {r:?}"
            );
        }
    }
    for (text, r) in widgets(h) {
        let starts = p.x_range().contains(r.min.x) && p.y_range().contains(r.center().y);
        assert!(
            !starts || r.max.x <= p.max.x + 0.5,
            "{what}: {text:?} {r:?} runs out of {name} {p:?}"
        );
    }
}

#[test]
fn the_bench_fits_its_column_at_1024x600_in_english_and_german() {
    use hc11lab::lesson::Lang;
    use hc11lab::ui::session::SideTab;
    for lang in [Lang::En, Lang::De] {
        let settings = Settings {
            side_tab: SideTab::Bench,
            language: Some(lang),
            ..Settings::default()
        };
        let h = settled(settings, AppInput::Bundled, Vec2::new(1024.0, 600.0), 1.0);
        let what = format!("the bench in {lang:?} at 1024x600");
        check_contained(&h, "side", &what);
        check_contained(&h, "center", &what);
        // The bench is on screen, not an empty column.
        assert!(
            h.query_all_by_label("AN7").next().is_some(),
            "{what}: no AN7 slider"
        );
    }
}

#[test]
fn the_debugger_fits_its_column_at_text_size_24() {
    for size in [(1024.0, 600.0), (1280.0, 800.0)] {
        let settings = Settings {
            font_size: 24,
            ..Settings::default()
        };
        let h = settled(settings, AppInput::Bundled, Vec2::from(size), 1.0);
        let what = format!("the debugger at {size:?}, text size 24");
        check_contained(&h, "side", &what);
        check_contained(&h, "center", &what);
        assert!(h.query_by_label("SP").is_some(), "{what}: no registers");
    }
}

#[test]
fn a_failed_assembly_opens_problems_in_the_compact_pane() {
    use hc11lab::ui::session::{BottomTab, Pane};
    let path = std::env::temp_dir().join(format!("hc11lab-gui-layout-{}.asm", std::process::id()));
    std::fs::write(
        &path,
        "        org $C000\nstart   ldab #300\n        bne lopp\n",
    )
    .expect("write the source");
    // Problems is also the tab the last session left open: the pane follows
    // the request all the same.
    for saved in [BottomTab::Memory, BottomTab::Problems] {
        let settings = Settings {
            bottom_tab: saved,
            ..Settings::default()
        };
        let h = settled(
            settings,
            AppInput::Path(path.clone()),
            Vec2::new(640.0, 400.0),
            2.0,
        );
        assert_eq!(h.state().mode(), Some(Mode::Compact));
        assert!(
            !h.state().session.problems.is_empty(),
            "no problems reported"
        );
        assert_eq!(
            h.state().session.settings.pane,
            Pane::Problems,
            "saved bottom tab {saved:?}"
        );
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn the_board_keys_follow_the_text_size() {
    let key_height = |font_size: u8| {
        let settings = Settings {
            font_size,
            ..Settings::default()
        };
        let h = settled(settings, AppInput::Bundled, Vec2::new(1280.0, 800.0), 1.0);
        let r = h
            .query_all_by_label_contains("0 drop")
            .next()
            .map(|n| n.rect())
            .expect("the drop key");
        r.height()
    };
    let (normal, large) = (key_height(14), key_height(24));
    assert!(
        large > normal + 10.0,
        "key {normal} points high at text size 14, {large} at 24"
    );
}

/// In the wide layout the course column is headed once ("Course" with its
/// language button), not twice.
#[test]
fn the_wide_layout_heads_the_course_once() {
    let mut h = harness(Vec2::new(1920.0, 1080.0), 1.0);
    h.run_steps(4);
    assert_eq!(h.query_all_by_label("Course").count(), 1);
}
