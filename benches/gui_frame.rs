//! Frame time of the whole hc11lab window at 1280x800 with all panels,
//! headless (egui_kittest, no GPU): the app's own work per frame (layout of
//! every panel plus the emulation slice), paused and running in real time.
//! Painting is not included; `tests/gui_xvfb.sh` measures whole frames of
//! the real window. Run: `cargo bench --bench gui_frame`.

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
}
