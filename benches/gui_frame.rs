//! Frame time of the whole hc11lab window at 1280x800 with all panels,
//! headless (egui_kittest, no GPU): the app's own work per frame (layout of
//! every panel plus the emulation slice), paused and running in real time.
//! Painting is not included; `tests/gui_xvfb.sh` measures whole frames of
//! the real window. Then typing into the editor, a character a frame, in
//! Viergewinnt.asm and in the whole program as one file (its includes in
//! line), the frames while the background assembly after a pause runs
//! and arrives, and typing while assemblies run back to back on their
//! thread. Run: `cargo bench --bench gui_frame`.

use std::time::Instant;

use egui_kittest::Harness;
use hc11lab::ui::app::App;
use hc11lab::ui::links::Selection;
use hc11lab::ui::session::{Settings, Speed};
use hc11lab::ui::AppInput;

fn report(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(|a, b| a.total_cmp(b));
    let mean = ms.iter().sum::<f64>() / ms.len() as f64;
    let p95 = ms[(ms.len() - 1) * 95 / 100];
    let max = ms[ms.len() - 1];
    println!(
        "{name:<34} frames {:>4}  mean {mean:6.2} ms  p95 {p95:6.2} ms  max {max:6.2} ms",
        ms.len()
    );
}

fn frames(h: &mut Harness<'_, App>, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| {
            let t = Instant::now();
            h.step();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect()
}

/// The bundled sources as one file: every `include` replaced by the file.
fn one_file(dir: &std::path::Path) -> std::path::PathBuf {
    let fw = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware");
    let names: Vec<String> = std::fs::read_dir(&fw)
        .expect("firmware folder")
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .collect();
    let main = std::fs::read_to_string(fw.join("Viergewinnt.asm")).expect("main file");
    let mut out = String::new();
    for line in main.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        let inc = match t.as_slice() {
            [kw, name, ..] if kw.eq_ignore_ascii_case("include") => names
                .iter()
                .find(|n| n.eq_ignore_ascii_case(name))
                .and_then(|n| std::fs::read_to_string(fw.join(n)).ok()),
            _ => None,
        };
        match inc {
            Some(text) => out.push_str(&text),
            None => out.push_str(line),
        }
        out.push('\n');
    }
    std::fs::create_dir_all(dir).expect("bench folder");
    let p = dir.join("Viergewinnt.asm");
    std::fs::write(&p, out).expect("one file");
    p
}

/// Frames until the editor's background assembly has arrived.
fn assembled(h: &mut Harness<'_, App>) {
    let t = Instant::now();
    h.step();
    while h.state().session.edits.assembling() && t.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        h.step();
    }
}

/// Typing into the editor at the program counter's line: a character a
/// frame, then the frames of the pause and the background assembly.
fn typing(name: &str, input: AppInput) {
    let app = App::with_settings(Settings::default(), input, None);
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    h.step();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::E);
    h.step();
    h.key_press(egui::Key::End);
    h.step();
    assembled(&mut h);
    let lines = h.state().session.edits.buffers[0].lines();
    let typed: Vec<f64> = " ; typed while the frame is timed"
        .chars()
        .cycle()
        .take(300)
        .map(|c| {
            h.event(egui::Event::Text(c.to_string()));
            let t = Instant::now();
            h.step();
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    report(&format!("typing, {name} ({lines} lines)"), typed);
    // The pause, then the assembly on its thread: frames at 60 a second.
    let mut after = Vec::new();
    let t = Instant::now();
    while t.elapsed().as_millis() < 800 {
        let f = Instant::now();
        h.step();
        after.push(f.elapsed().as_secs_f64() * 1e3);
        std::thread::sleep(std::time::Duration::from_millis(16));
    }
    assert!(
        !h.state().session.edits.assembling(),
        "the assembly arrived"
    );
    report(&format!("  pause and assembly, {name}"), after);
}

/// A key pressed and released in one frame.
fn key(key: egui::Key, modifiers: egui::Modifiers) -> Vec<egui::Event> {
    [true, false]
        .into_iter()
        .map(|pressed| egui::Event::Key {
            key,
            physical_key: None,
            pressed,
            repeat: false,
            modifiers,
        })
        .collect()
}

/// The same typing with a plain egui context, as the real window runs
/// without a screen reader (no AccessKit tree, which egui_kittest always
/// builds), the tessellation of the frame's shapes included.
fn typing_plain(name: &str, input: AppInput) {
    let mut app = App::with_settings(Settings::default(), input, None);
    let ctx = egui::Context::default();
    let mut time = 0.0;
    let mut frame = |app: &mut App, events: Vec<egui::Event>| {
        time += 1.0 / 60.0;
        let input = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(
                egui::Pos2::ZERO,
                egui::vec2(1280.0, 800.0),
            )),
            time: Some(time),
            predicted_dt: 1.0 / 60.0,
            events,
            focused: true,
            ..Default::default()
        };
        let t = Instant::now();
        let out = ctx.run_ui(input, |ui| app.show(ui));
        let _ = ctx.tessellate(out.shapes, out.pixels_per_point);
        t.elapsed().as_secs_f64() * 1e3
    };
    frame(&mut app, Vec::new());
    frame(&mut app, key(egui::Key::E, egui::Modifiers::COMMAND));
    frame(&mut app, key(egui::Key::End, egui::Modifiers::NONE));
    let t = Instant::now();
    while app.session.edits.assembling() && t.elapsed().as_secs() < 30 {
        std::thread::sleep(std::time::Duration::from_millis(5));
        frame(&mut app, Vec::new());
    }
    let lines = app.session.edits.buffers[0].lines();
    let typed: Vec<f64> = " ; typed while the frame is timed"
        .chars()
        .cycle()
        .take(300)
        .map(|c| frame(&mut app, vec![egui::Event::Text(c.to_string())]))
        .collect();
    report(
        &format!("typing, no AccessKit, {name} ({lines} lines)"),
        typed,
    );
    let idle: Vec<f64> = (0..100).map(|_| frame(&mut app, Vec::new())).collect();
    report(&format!("  editor shown, no input, {name}"), idle);

    // Typing while the assembler works: no pause before an assembly, so
    // one runs on its thread all the time (each starts when the last one
    // arrived); a character every 16 ms, as at 60 frames a second.
    app.session.edits.pause = std::time::Duration::ZERO;
    let mut arrived = 0;
    let mut last = app.session.edits.live().cloned();
    let typed: Vec<f64> = " ; typed while assembling"
        .chars()
        .cycle()
        .take(300)
        .map(|c| {
            let ms = frame(&mut app, vec![egui::Event::Text(c.to_string())]);
            let now = app.session.edits.live().cloned();
            if !matches!((&now, &last), (Some(a), Some(b)) if std::sync::Arc::ptr_eq(a, b)) {
                arrived += 1;
                last = now;
            }
            std::thread::sleep(std::time::Duration::from_millis(16));
            ms
        })
        .collect();
    report(
        &format!("  typing while assembling ({arrived} arrived), {name}"),
        typed,
    );
}

fn main() {
    let settings = Settings {
        speed: Speed::RealTime,
        ..Settings::default()
    };
    let app = App::with_settings(settings, AppInput::Bundled, None);
    let mut h = Harness::builder()
        .with_size(egui::Vec2::new(1280.0, 800.0))
        .with_step_dt(1.0 / 60.0)
        .build_ui_state(|ui, app: &mut App| app.show(ui), app);
    // Boot the game (about 0.35 s of machine time) so the LCD shows the board.
    h.state_mut().session.run();
    for _ in 0..40 {
        h.step();
    }
    h.state_mut().session.pause();
    h.state_mut()
        .session
        .select(Selection::Pixel { x: 71, y: 43 });
    frames(&mut h, 10);
    report("paused, pixel selected", frames(&mut h, 300));
    h.state_mut().session.run();
    report("running at 2 MHz (idle game loop)", frames(&mut h, 300));
    h.state_mut().session.settings.speed = Speed::Max;
    let t = Instant::now();
    let c0 = h.state().session.cycles();
    let ms = frames(&mut h, 100);
    let mhz = (h.state().session.cycles() - c0) as f64 / t.elapsed().as_secs_f64() / 1e6;
    report("running as fast as possible", ms);
    println!("  emulated {mhz:.1} MHz E clock at full speed, recording data flow (8 ms per frame)");
    // The same without recording data flow (Debug > Record data flow).
    h.state_mut().session.set_record_links(false);
    let t = Instant::now();
    let c0 = h.state().session.cycles();
    let ms = frames(&mut h, 100);
    let mhz = (h.state().session.cycles() - c0) as f64 / t.elapsed().as_secs_f64() / 1e6;
    report("as fast as possible, no recording", ms);
    println!("  emulated {mhz:.1} MHz E clock at full speed, not recording (8 ms per frame)");
    h.state_mut().session.set_record_links(true);
    // A listing line selected while running: its links (every buffer byte
    // and display byte whose history passes through it) are recomputed
    // every 500 ms.
    h.state_mut().session.settings.speed = Speed::RealTime;
    let p = h.state().session.program().unwrap().clone();
    let draw = p.symbol("drawCellLoop").unwrap().value + 4;
    let e = *p.line_at(draw).unwrap();
    h.state_mut().session.select(Selection::Line {
        file: e.file,
        line: e.line,
    });
    report("running, drawCellLoop line selected", frames(&mut h, 300));
    let dir = std::env::temp_dir().join(format!("hc11lab-bench-editor-{}", std::process::id()));
    let one = one_file(&dir);
    typing(
        "Viergewinnt.asm",
        AppInput::Path(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm"),
        ),
    );
    typing("the program in one file", AppInput::Path(one.clone()));
    typing_plain(
        "Viergewinnt.asm",
        AppInput::Path(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("firmware/Viergewinnt.asm"),
        ),
    );
    typing_plain("the program in one file", AppInput::Path(one));
    let _ = std::fs::remove_dir_all(&dir);
}
