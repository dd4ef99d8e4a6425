//! The window's behaviour as a student meets it, with egui_kittest (no
//! window opens): a reload shows the new source, an assembly error is
//! marked in the gutter, a key press shorter than a frame reaches the
//! program, the key hint says what a press does now, the views under the
//! link bar do not move as the selection changes, each program keeps its
//! own watches, hovering a pixel names it, go to label, run to cursor,
//! theme / text size / language persist, German labels.
#![cfg(feature = "gui")]

use std::path::{Path, PathBuf};

use egui::{Key, Modifiers, Vec2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::ui::app::App;
use hc11lab::ui::links::Selection;
use hc11lab::ui::session::{Settings, Speed};
use hc11lab::ui::theme::Theme;
use hc11lab::ui::AppInput;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("hc11lab-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn harness_with(settings: Settings, input: AppInput) -> Harness<'static, App> {
    let app = App::with_settings(settings, input, None);
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

fn until_paused(h: &mut Harness<'_, App>) {
    h.step();
    let start = std::time::Instant::now();
    while h.state().session.is_running() && start.elapsed().as_secs() < 60 {
        h.step();
    }
    h.step();
    assert!(!h.state().session.is_running(), "still running");
}

/// The game booted to its main loop and paused.
fn booted() -> Harness<'static, App> {
    let mut h = harness_with(fast(), AppInput::Bundled);
    h.run();
    let main_loop = h
        .state()
        .session
        .program()
        .unwrap()
        .symbol("mainLoop")
        .unwrap()
        .value;
    h.state_mut().session.run_to(main_loop);
    until_paused(&mut h);
    h
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const SMALL: &str = "        org     $C000\nStart   ldaa    #1\n        bra     Start\n        org     $FFFE\n        dc.w    Start\n";

#[test]
fn a_source_edited_on_disk_reloads_and_shows() {
    let dir = scratch("reload");
    let file = write(&dir, "small.asm", SMALL);
    let mut h = harness_with(fast(), AppInput::Path(file.clone()));
    h.run();
    assert!(h.query_by_label_contains("ldaa").is_some());
    std::thread::sleep(std::time::Duration::from_millis(50));
    std::fs::write(&file, SMALL.replace("ldaa    #1", "ldab    #2")).unwrap();
    let start = std::time::Instant::now();
    while h.query_by_label_contains("ldab").is_none() && start.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        h.step();
    }
    assert!(h.query_by_label_contains("ldab").is_some(), "not reloaded");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_assembly_error_is_marked_in_the_gutter() {
    let dir = scratch("gutter-error");
    let file = write(
        &dir,
        "bad.asm",
        &SMALL.replace("ldaa    #1", "ldaa    #1,,q"),
    );
    let mut h = harness_with(fast(), AppInput::Path(file));
    h.run();
    assert!(!h.state().session.has_machine());
    // Exactly one mark, on line 2 (get_by fails on none or several).
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::Button
            && n.label().is_some_and(|l| l.starts_with("error 2:"))
    });
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_key_tapped_within_one_frame_reaches_the_program() {
    let mut h = booted();
    let cursor = h
        .state()
        .session
        .program()
        .unwrap()
        .symbol("cursorColumn")
        .unwrap()
        .value;
    let before = h.state().session.peek(cursor);
    // Paused: the hint says the press waits for the run.
    h.get_by_label_contains("Paused: a key pressed now is held");
    // Press and release in the same frame (a very short tap).
    for pressed in [true, false] {
        h.event(egui::Event::Key {
            key: Key::ArrowRight,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers: Modifiers::NONE,
        });
    }
    h.step();
    assert_eq!(
        h.state().session.keys_down() & 0b1000,
        0b1000,
        "key 3 not held"
    );
    h.state_mut().session.settings.speed = Speed::RealTime;
    h.state_mut().session.run();
    for _ in 0..40 {
        h.step();
    }
    h.get_by_label("Keys go to the running program.");
    h.state_mut().session.pause();
    h.step();
    // The cursor moved one column (8 LCD columns) to the right.
    assert_eq!(
        h.state().session.peek(cursor),
        before + 8,
        "the cursor did not move right"
    );
}

#[test]
fn the_views_below_the_link_bar_keep_their_place() {
    let mut h = booted();
    let top = |h: &Harness<'_, App>| {
        h.get_by(|n| {
            n.role() == egui::accesskit::Role::Image && n.label().as_deref() == Some("Cell buffer")
        })
        .rect()
        .min
        .y
    };
    let y0 = top(&h);
    h.state_mut()
        .session
        .select(Selection::Pixel { x: 40, y: 10 });
    h.run();
    let y1 = top(&h);
    let board = h
        .state()
        .session
        .program()
        .unwrap()
        .symbol("board")
        .unwrap()
        .value;
    h.state_mut()
        .session
        .select(Selection::BufferByte(board + 136));
    h.run();
    let y2 = top(&h);
    assert_eq!((y0, y1), (y1, y2), "the cell buffer moved");
    // Recording is on: the link bar never says it is off.
    let links = h.state_mut().session.links().clone();
    assert!(
        !links.notes.iter().any(|n| n.contains("recording is off")),
        "{links:?}"
    );
}

#[test]
fn each_program_keeps_its_own_watches() {
    let dir = scratch("watches");
    let other = write(&dir, "small.asm", SMALL);
    let mut h = harness_with(fast(), AppInput::Bundled);
    h.run();
    h.state_mut().session.settings.watches.push("coordx".into());
    h.state_mut().session.open(AppInput::Path(other));
    h.run();
    assert!(
        h.state().session.settings.watches.is_empty(),
        "{:?}",
        h.state().session.settings.watches
    );
    h.state_mut().session.open(AppInput::Bundled);
    h.run();
    assert!(h
        .state()
        .session
        .settings
        .watches
        .iter()
        .any(|w| w == "coordx"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn hovering_a_pixel_names_its_coordinates() {
    let mut h = booted();
    let lcd = h.get_by_label("LCD 128x64").rect();
    let zoom = lcd.width() / 128.0;
    let pos = lcd.min + Vec2::new(10.5 * zoom, 20.5 * zoom);
    h.hover_at(pos);
    h.run();
    assert!(
        h.query_all_by_label_contains("pixel (10,20) page 2 bit 4")
            .next()
            .is_some(),
        "no coordinate shown"
    );
}

#[test]
fn go_to_label_and_run_to_cursor() {
    let mut h = booted();
    let p = h.state().session.program().unwrap().clone();
    let draw = p.symbol("drawBoard").unwrap();
    h.key_press_modifiers(Modifiers::CTRL, Key::P);
    h.run();
    h.get_by_label("Go to label").click();
    h.run();
    h.get_by(|n| n.role() == egui::accesskit::Role::TextInput && n.is_focused())
        .type_text("drawBo");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let (file, line) = draw.defined_at.unwrap();
    assert_eq!(
        h.state().session.selection,
        Some(Selection::Line { file, line })
    );
    // Run to the first line with code after the label.
    let target = p.line_at(draw.value).copied().unwrap();
    h.state_mut().session.select(Selection::Line {
        file: target.file,
        line: target.line,
    });
    // drawBoard runs after a drop: press it while running to the line.
    h.key_press_modifiers(Modifiers::CTRL, Key::F10);
    h.step();
    assert!(h.state().session.is_running());
    h.state_mut().session.set_held_keys(1);
    until_paused(&mut h);
    assert_eq!(h.state().session.pc(), Some(target.addr));
}

#[test]
fn theme_text_size_and_language_persist() {
    let mut h = harness_with(Settings::default(), AppInput::Bundled);
    h.run();
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Light theme").click();
    h.run();
    assert_eq!(h.state().session.settings.theme, Theme::Light);
    assert!(!h.ctx.global_style().visuals.dark_mode);
    h.state_mut().session.settings.font_size = 18;
    h.state_mut().session.set_lang(hc11lab::lesson::Lang::De);
    h.run();
    let body = egui::TextStyle::Body.resolve(&h.ctx.global_style());
    assert_eq!(body.size, 18.0);
    let json = serde_json::to_string(&h.state().session.settings).unwrap();
    drop(h);
    let restored: Settings = serde_json::from_str(&json).unwrap();
    let mut h = harness_with(restored, AppInput::Bundled);
    h.run();
    assert!(!h.ctx.global_style().visuals.dark_mode);
    assert_eq!(
        egui::TextStyle::Body.resolve(&h.ctx.global_style()).size,
        18.0
    );
    // German labels throughout: toolbar, tabs, side column.
    for de in [
        "Start",
        "Schritt zurück",
        "Speicher",
        "Seriell",
        "Register",
        "Haltepunkte",
        "Datei",
    ] {
        assert!(h.query_all_by_label(de).next().is_some(), "{de}");
    }
    assert!(h.query_by_label("Step back").is_none());
}

/// Every label the sources pass through `tr` has a German entry.
#[test]
fn every_translated_label_has_a_german_entry() {
    // `tr(lang, "...")`, `trf(lang, "...", ...)` (a template with `{}`)
    // and the panels' `t("...")` shorthand.
    let re =
        regex::Regex::new(r#"(?:\btrf?\(\s*[\w.()]+\s*,\s*|\bt\(\s*)"((?:[^"\\]|\\.)*)""#).unwrap();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ui");
    let mut missing = Vec::new();
    let mut seen = 0;
    let continuation = regex::Regex::new(r"\\\n\s*").unwrap();
    // src/ui and its sub-folders (session/).
    let mut files = Vec::new();
    let mut dirs = vec![dir];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap_or_default();
        for c in re.captures_iter(&text) {
            // Rust's `\` line continuation, then escaped quotes.
            let raw = continuation.replace_all(&c[1], "");
            let s = raw.replace("\\\"", "\"");
            seen += 1;
            if hc11lab::ui::i18n::german(&s).is_none() {
                missing.push(format!("{}: {s}", f.display()));
            }
        }
    }
    assert!(seen > 100, "{seen}");
    assert!(missing.is_empty(), "no German for:\n{}", missing.join("\n"));
}

#[test]
fn selecting_a_load_from_the_buffer_lights_the_bytes_it_read() {
    let mut h = booted();
    let p = h.state().session.program().unwrap().clone();
    // `lda 0,y` in drawCellLoop: reads the cell buffer, stores nothing.
    let at = p.symbol("drawCellLoop").unwrap().value + 4;
    let e = *p.line_at(at).unwrap();
    let text = p.files[e.file]
        .text
        .lines()
        .nth(e.line as usize - 1)
        .unwrap();
    assert!(text.contains("0,y"), "{text}");
    h.state_mut().session.select(Selection::Line {
        file: e.file,
        line: e.line,
    });
    h.run();
    let links = h.state_mut().session.links().clone();
    let board = p.symbol("board").unwrap().value;
    let in_buffer = links
        .bytes
        .iter()
        .filter(|(a, _)| (board..board + 336).contains(a))
        .count();
    // The whole board was drawn at boot: every byte of it was read.
    assert_eq!(in_buffer, 336, "{links:?}");
}

/// File > Source dialect > AS11 assembles the open program again in AS11:
/// a file that fails in the course dialect loads.
#[test]
fn the_file_menu_switches_the_source_dialect() {
    let dir = scratch("dialect");
    let p = write(
        &dir,
        "evb.asm",
        "* AS11 source\n ORG $C000\nSTART LDAA #1 one\n BRA START again\n ORG $FFFE\n FDB START\n",
    );
    let mut h = harness_with(fast(), AppInput::Path(p));
    h.run();
    // In the course dialect: errors, and no machine to run.
    assert!(!h.state().session.problems.is_empty());
    assert!(!h.state().session.has_machine());
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Source dialect").click();
    h.run();
    h.get_by_label("AS11 (Motorola freeware)").click();
    h.run();
    assert_eq!(h.state().session.dialect(), hc11lab::asm::Dialect::As11);
    let program = h.state().session.program().expect("assembled in AS11");
    assert_eq!(program.symbol("START").map(|s| s.value), Some(0xC000));
    assert!(h.state().session.problems.is_empty());
    assert!(h.state().session.has_machine());
}

/// Escape closes an open menu, and Ctrl+P opens "go to label" with a menu
/// open. (Under Xvfb without a window manager the window never gets the
/// keyboard focus, so keys sent there are lost: focus it first, `xdotool
/// windowfocus`, as a desktop does.)
#[test]
fn escape_closes_an_open_menu_and_ctrl_p_works_with_one_open() {
    let mut h = booted();
    let open = |h: &Harness<'_, App>| {
        h.query_all_by_label_contains("Light theme")
            .next()
            .is_some()
    };
    h.get_by_label("View").click();
    h.run();
    assert!(open(&h), "the View menu did not open");
    h.key_press(egui::Key::Escape);
    h.run();
    assert!(!open(&h), "Escape left the menu open");
    h.get_by_label("View").click();
    h.run();
    assert!(open(&h), "the View menu did not open again");
    h.key_press_modifiers(egui::Modifiers::CTRL, egui::Key::P);
    h.run();
    assert!(
        h.query_all_by_label("Go to label").next().is_some(),
        "Ctrl+P with a menu open did not open go to label"
    );
}
