//! The GUI's main flow, clicked through with egui_kittest on the real
//! Viergewinnt (no window opens): step, set a breakpoint on a label by
//! clicking it, run to it, step out of it, click an LCD pixel and see the
//! buffer byte and bit it comes from, click that byte and see its pixels.
#![cfg(feature = "gui")]

use egui::{Key, Modifiers, Pos2, Vec2};
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use hc11lab::ui::app::App;
use hc11lab::ui::links::{LineRole, Selection};
use hc11lab::ui::session::{Settings, Speed};
use hc11lab::ui::AppInput;

fn firmware() -> AppInput {
    AppInput::Path(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm"),
    )
}

fn harness(input: AppInput) -> Harness<'static, App> {
    let settings = Settings {
        speed: Speed::Max,
        ..Settings::default()
    };
    let app = App::with_settings(settings, input, None);
    Harness::builder()
        .with_size(Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        // Jumping to a line scrolls smoothly for up to a second.
        .with_max_steps(120)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app)
}

/// A click that leaves the pointer where it clicked.
fn click_at(h: &mut Harness<'_, App>, pos: Pos2) {
    h.hover_at(pos);
    h.step();
    for pressed in [true, false] {
        h.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: Modifiers::NONE,
        });
        h.step();
    }
}

/// Frames until the machine pauses (bounded by a minute of wall clock, since
/// each frame emulates a bounded slice of time).
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

#[test]
fn step_break_on_label_run_and_follow_a_pixel_to_its_buffer_byte() {
    let mut h = harness(AppInput::Bundled);
    h.run();
    let s = &h.state().session;
    assert!(
        s.problems.iter().all(|p| p.severity != "error"),
        "{:?}",
        s.problems
    );
    let program = s.program().expect("assembled").clone();
    let start = program.symbol("Start").expect("Start").value;
    assert_eq!(s.pc(), Some(start));

    // Step: `lds #$3FFF` runs, SP is set.
    h.get_by_label("Step").click();
    h.run();
    let (regs, _) = h.state().session.registers().unwrap();
    assert_eq!(regs.sp, 0x3FFF);
    assert_ne!(regs.pc, start);

    // `jsr initGame` is the current line: click `initGame` to go to its
    // definition, then `drawBoard` there, then F9 on its definition line.
    h.get_all_by_label("initGame")
        .next()
        .expect("initGame token")
        .click();
    h.run();
    // `jsr drawBoard` is 11 lines further down, near the bottom edge at
    // 1280x800: scroll it into view first, as a user would.
    h.get_all_by_label("drawBoard")
        .next()
        .expect("drawBoard token")
        .scroll_to_me();
    h.run();
    h.get_all_by_label("drawBoard")
        .next()
        .expect("drawBoard token")
        .click();
    h.run();
    let draw_board = program.symbol("drawBoard").unwrap();
    let (file, line) = draw_board.defined_at.unwrap();
    assert_eq!(
        h.state().session.selection,
        Some(Selection::Line { file, line })
    );
    h.key_press(Key::F9);
    h.run();
    assert!(h.state().session.has_breakpoint(draw_board.value));

    // Run to it.
    h.get_by_label("Run").click();
    h.step();
    until_paused(&mut h);
    let s = &h.state().session;
    assert_eq!(s.pc(), Some(draw_board.value));
    assert!(
        s.stop_reason().unwrap().contains("breakpoint"),
        "{:?}",
        s.stop_reason()
    );

    // Step out of drawBoard: the buffer is on the LCD now.
    h.key_press_modifiers(Modifiers::SHIFT, Key::F11);
    until_paused(&mut h);
    let s = &h.state().session;
    assert!(
        s.stop_reason().unwrap().contains("returned from drawBoard"),
        "{:?}",
        s.stop_reason()
    );
    let frame = s.lcd_frame();
    assert!(frame.visible);
    // Cell (Spalte 0, Zeile 0), byte 0 is the left border: LCD column 36.
    assert!((0..8).all(|y| frame.get(36, y)));

    // Click pixel (36, 3) on the LCD.
    let lcd = h.get_by_label("LCD 128x64").rect();
    let zoom = lcd.width() / 128.0;
    click_at(&mut h, lcd.min + Vec2::new(36.5 * zoom, 3.5 * zoom));
    let board = program.symbol("board").unwrap().value;
    let links = h.state_mut().session.links().clone();
    assert_eq!(
        h.state().session.selection,
        Some(Selection::Pixel { x: 36, y: 3 })
    );
    assert_eq!(links.bytes, vec![(board, Some(3))]);
    // The recorded chain: sent by SPItransfer, loaded from board in
    // drawCellLoop, stored there by cellToBuffer.
    assert!(links.provenance);
    let line_of = |label: &str, off: u16| {
        let a = program.symbol(label).unwrap().value + off;
        let e = program.line_at(a).unwrap();
        (e.file, e.line)
    };
    let (lf, ll) = line_of("drawCellLoop", 4);
    assert_eq!(links.line(lf, ll), Some(LineRole::Read));
    let (sf, sl) = line_of("cellToBuffer", 13);
    assert_eq!(links.line(sf, sl), Some(LineRole::Wrote));
    assert!(links
        .notes
        .iter()
        .any(|n| n.contains("bit 3 = 1 in the buffer and on the LCD")));

    // Follow the link to the byte: its eight pixels light up.
    h.get_by_label(&format!("-> ${board:04X} bit 3")).click();
    h.run();
    let links = h.state_mut().session.links().clone();
    assert_eq!(
        h.state().session.selection,
        Some(Selection::BufferByte(board))
    );
    assert_eq!(links.pixels.len(), 8);
    assert!((0..8).all(|y| links.has_pixel(36, y)));
    assert_eq!(links.line(sf, sl), Some(LineRole::Wrote));

    // Follow the chain to the line that stored the byte: the buffer bytes
    // whose last store was that instruction light up, with their pixels.
    let file_name = program.files[sf]
        .path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    // Said as what it is: the instruction that wrote the byte, its code
    // and its place.
    assert!(h.query_by_label("written by the instruction").is_some());
    let place = format!("({file_name}:{sl})");
    h.get_by(|n| {
        n.role() == egui::accesskit::Role::Link && n.label().is_some_and(|l| l.contains(&place))
    })
    .click();
    h.run();
    let links = h.state_mut().session.links().clone();
    assert_eq!(
        h.state().session.selection,
        Some(Selection::Line { file: sf, line: sl })
    );
    assert!(links.byte(board).is_some());
    assert!(links.has_pixel(36, 3));
    assert!(
        links.bytes.len() >= 42 && links.bytes.len() <= 336,
        "{}",
        links.bytes.len()
    );
}

#[test]
fn a_quick_click_on_a_board_key_reaches_the_program() {
    // From the sources on disk this time.
    let mut h = harness(firmware());
    h.run();
    // Boot until the game waits for keys: run to mainLoop.
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
    assert_eq!(h.state().session.pc(), Some(main_loop));
    h.get_by_label("Run").click();
    let cursor = h
        .state()
        .session
        .program()
        .unwrap()
        .symbol("cursorColumn")
        .unwrap()
        .value;
    let before = h.state().session.peek(cursor);
    h.get_by_label_contains("3 right").click();
    // The cursor moves within about 25,000 E-cycles of the press.
    let start = std::time::Instant::now();
    let cursor_moved = |h: &Harness<'_, App>| h.state().session.peek(cursor) != before;
    while !cursor_moved(&h) && start.elapsed().as_secs() < 60 {
        h.step();
    }
    let after = h.state().session.peek(cursor);
    assert_ne!(before, after, "cursorColumn did not move");
}

#[test]
fn recording_data_flow_can_be_switched_off_and_the_links_say_so() {
    let mut h = harness(AppInput::Bundled);
    h.run();
    assert!(h.state().session.debugger().unwrap().provenance());
    assert!(h.state().session.links_coverage().is_none());
    h.get_by_label("Debug").click();
    h.run();
    h.get_by_label("Record data flow (links)").click();
    h.run();
    let s = &h.state().session;
    assert!(!s.settings.record_links);
    assert!(!s.debugger().unwrap().provenance());
    assert!(h
        .query_by_label_contains("Recording data flow is off")
        .is_some());

    // Boot with recording off, select a lit pixel: no line is linked, and
    // the link bar says why instead of showing nothing silently.
    h.state_mut().session.run();
    for _ in 0..60 {
        h.step();
    }
    h.state_mut().session.pause();
    h.state_mut()
        .session
        .select(Selection::Pixel { x: 36, y: 3 });
    h.run();
    let links = h.state_mut().session.links().clone();
    assert!(links.lines.iter().all(|(_, _, r)| *r == LineRole::Selected));
    assert!(h
        .query_by_label_contains("Recording data flow is off")
        .is_some());

    // On again: recorded from now on only, and said so until a reset.
    h.state_mut().session.set_record_links(true);
    h.run();
    assert!(h
        .query_by_label_contains("Data flow recorded only since cycle")
        .is_some());
    h.state_mut().session.reset();
    h.run();
    assert!(h.state().session.links_coverage().is_none());
}
