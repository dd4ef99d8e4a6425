//! The lab bench panel: the board file's parts (LEDs lit by
//! their pins, switches and push buttons, pots, signal generators), the
//! IRQ and XIRQ pins, a potentiometer for each A/D input AN0-AN7 (port E)
//! in volts, the eight port A pins as LEDs with switches on the input pins
//! PA0-PA2 and PA7, and a logic analyser strip of the traced pins over the
//! last milliseconds of machine time.
//!
//! Assumptions, as the board model makes them (src/board/adc.rs, timer.rs):
//! VRL = 0 V and VRH = 5 V on the trainer; an open input pin reads 1.

use egui::{Color32, Pos2, Rect, RichText, Sense, Stroke, Vec2};

use super::i18n::{tr, trf};
use super::session::{Session, INPUT_BITS};
use crate::board::adc::VRH_MV;
use crate::board::bench::{Drive, IrqLine, SignalSpec};
use crate::board::parts::{Parts, SwitchPin};
use crate::board::timer::{PinEdge, MAX_TRACE_EDGES};
use crate::lesson::Lang;

/// E-cycles per millisecond (2 MHz E clock).
const CYCLES_PER_MS: u64 = 2_000;
/// The time spans the analyser shows, in milliseconds.
const SPANS_MS: [u64; 5] = [1, 5, 20, 100, 1000];
const LED_ON: Color32 = Color32::from_rgb(0xFF, 0x40, 0x30);
const LED_OFF: Color32 = Color32::from_rgb(0x50, 0x18, 0x14);
const TRACE: Color32 = Color32::from_rgb(0x40, 0xE0, 0x60);
/// Height of one analyser row (points).
const ROW_H: f32 = 22.0;

/// What each port A pin is for (M68HC11 RM section 8 and 10).
const PIN_ROLE: [&str; 8] = [
    "PA0: input capture IC3 (input)",
    "PA1: input capture IC2 (input)",
    "PA2: input capture IC1 (input)",
    "PA3: output compare OC5 / IC4 (output)",
    "PA4: output compare OC4 (output)",
    "PA5: output compare OC3 (output)",
    "PA6: output compare OC2 (output)",
    "PA7: pulse accumulator input / OC1 (input or output by DDRA7)",
];

/// One analyser row: the level where the row begins and the level
/// changes after it, as (x offset in points, new level).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Waveform {
    /// Level where the row begins (`None`: the pin is not traced by then).
    pub start: Option<bool>,
    /// Where the row begins: 0, or where a trace started inside the window.
    pub begin: f32,
    /// Changes after that, left to right.
    pub edges: Vec<(f32, bool)>,
}

/// The waveform of port A bit `bit` between cycles `from` and `to` drawn
/// `width` points wide. Entries that repeat the level (a trace started
/// again) are no edges. More changes than there are points are kept as
/// they come: the painter draws them as vertical lines.
pub fn waveform(trace: &[PinEdge], bit: u8, from: u64, to: u64, width: f32) -> Waveform {
    let span = to.saturating_sub(from).max(1) as f32;
    let x = |cycle: u64| cycle.saturating_sub(from) as f32 / span * width;
    // The trace is logged in time order: the window starts here.
    let first = trace.partition_point(|e| e.cycle < from);
    let mut w = Waveform {
        start: trace[..first]
            .iter()
            .rev()
            .find(|e| e.bit == bit)
            .map(|e| e.level),
        ..Waveform::default()
    };
    let mut level = w.start;
    for e in trace[first..].iter().filter(|e| e.bit == bit) {
        if e.cycle > to {
            break;
        }
        match level {
            Some(l) if l == e.level => continue,
            Some(_) => w.edges.push((x(e.cycle), e.level)),
            // The trace started inside the window: the row begins there.
            None => {
                w.start = Some(e.level);
                w.begin = x(e.cycle);
            }
        }
        level = Some(e.level);
    }
    w
}

/// The bench panel's own state.
pub struct BenchPanel {
    /// The analyser's window, in milliseconds.
    pub span_ms: u64,
    /// Each generator's frequency (Hz) and duty (percent) while it is off,
    /// by its port A bit: what switching it on sends.
    generator_settings: [Option<(f64, u32)>; 8],
    /// Whether each of the board's push buttons was held last frame.
    buttons_held: Vec<bool>,
}

impl Default for BenchPanel {
    fn default() -> Self {
        BenchPanel {
            span_ms: 20,
            generator_settings: [None; 8],
            buttons_held: Vec::new(),
        }
    }
}

impl BenchPanel {
    /// Shows the panel.
    pub fn ui(&mut self, ui: &mut egui::Ui, session: &mut Session) {
        let lang = session.lang();
        if !session.has_machine() {
            ui.weak(tr(lang, "No machine (nothing loaded)."));
            return;
        }
        // Both ways: what does not fit the column's width (a narrow window,
        // a large text size) scrolls inside it instead of widening it over
        // the centre.
        egui::ScrollArea::both()
            .id_salt("bench")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                // Sliders as wide as the column leaves beside their value
                // and name (egui's default 100 points overflow a 250-point
                // column at a large text size).
                let beside = 8.0 * ui.text_style_height(&egui::TextStyle::Body);
                ui.spacing_mut().slider_width = (ui.available_width() - beside).clamp(40.0, 200.0);
                let parts = session.board_parts();
                if !parts.is_empty() {
                    self.parts_ui(ui, session, &parts, lang);
                    ui.separator();
                }
                irq_ui(ui, session, lang);
                ui.separator();
                self.analog_ui(ui, session, lang);
                ui.separator();
                pins_ui(ui, session, lang);
                ui.separator();
                self.analyser_ui(ui, session, lang);
            });
    }

    fn analog_ui(&mut self, ui: &mut egui::Ui, session: &mut Session, lang: Lang) {
        ui.label(RichText::new(tr(lang, "A/D inputs (port E)")).strong())
            .on_hover_text(tr(
                lang,
                "A potentiometer on each input, VRL 0 V to VRH 5 V: the converter reads \
                 the voltage when it samples (ADCTL, OPTION ADPU).",
            ));
        for ch in 0..8u8 {
            let now = session
                .machine()
                .and_then(|m| m.board().analog(ch))
                .unwrap_or(VRH_MV);
            let mut volts = now as f32 / 1000.0;
            let r = ui.add(
                egui::Slider::new(&mut volts, 0.0..=VRH_MV as f32 / 1000.0)
                    .step_by(0.01)
                    .fixed_decimals(2)
                    .suffix(" V")
                    .text(format!("AN{ch}")),
            );
            if r.changed() {
                let mv = (volts * 1000.0).round().clamp(0.0, VRH_MV as f32) as u32;
                session.set_analog(ch, mv);
            }
        }
    }

    fn analyser_ui(&mut self, ui: &mut egui::Ui, session: &mut Session, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(RichText::new(tr(lang, "Logic analyser")).strong());
            egui::ComboBox::from_id_salt("analyser-span")
                .selected_text(format!("{} ms", self.span_ms))
                .show_ui(ui, |ui| {
                    for ms in SPANS_MS {
                        ui.selectable_value(&mut self.span_ms, ms, format!("{ms} ms"));
                    }
                })
                .response
                .labelled_by(label.id);
        });
        let mask = session.traced_mask();
        if mask == 0 {
            ui.weak(tr(
                lang,
                "Tick \"trace\" under a pin to see its level over time.",
            ));
            return;
        }
        let to = session.cycles();
        let from = to.saturating_sub(self.span_ms * CYCLES_PER_MS);
        let trace = session.pin_trace();
        let label_w = 36.0;
        let width = (ui.available_width() - label_w).max(40.0);
        for bit in (0..8u8).rev().filter(|b| mask & (1 << b) != 0) {
            let wave = waveform(trace, bit, from, to, width);
            let (rect, response) =
                ui.allocate_exact_size(Vec2::new(label_w + width, ROW_H), Sense::hover());
            let name = format!("PA{bit}");
            let summary = trf(
                lang,
                "{}: {} edge(s) in the last {} ms",
                &[&name, &wave.edges.len(), &self.span_ms],
            );
            response.widget_info(|| {
                egui::WidgetInfo::labeled(egui::Role::Image, true, summary.clone())
            });
            response.on_hover_text(&summary);
            let painter = ui.painter_at(rect);
            painter.text(
                rect.left_center(),
                egui::Align2::LEFT_CENTER,
                &name,
                egui::FontId::monospace(12.0),
                ui.visuals().text_color(),
            );
            let plot = Rect::from_min_max(
                Pos2::new(rect.min.x + label_w, rect.min.y + 3.0),
                Pos2::new(rect.max.x, rect.max.y - 3.0),
            );
            painter.rect_stroke(
                plot,
                0.0,
                Stroke::new(1.0, ui.visuals().weak_text_color()),
                egui::StrokeKind::Inside,
            );
            draw_wave(&painter, plot, &wave);
        }
        ui.weak(trf(
            lang,
            "{} ms of machine time up to now (cycle {}); high is up.",
            &[&self.span_ms, &to],
        ));
        let dropped = session.pin_trace_dropped();
        if dropped > 0 {
            ui.weak(trf(
                lang,
                "The trace keeps the newest {} changes: {} older ones were dropped.",
                &[&MAX_TRACE_EDGES, &dropped],
            ));
        }
    }

    /// The board file's parts: LEDs, switches and buttons, pots, generators.
    fn parts_ui(&mut self, ui: &mut egui::Ui, session: &mut Session, parts: &Parts, lang: Lang) {
        ui.label(RichText::new(tr(lang, "Board parts")).strong())
            .on_hover_text(tr(
                lang,
                "What the board file wires to the pins; they start as the file says.",
            ));
        let levels = session.port_a();
        if !parts.leds.is_empty() {
            ui.horizontal_wrapped(|ui| {
                for led in &parts.leds {
                    let lit = led.lit(levels);
                    let (rect, r) = ui.allocate_exact_size(Vec2::splat(18.0), Sense::hover());
                    ui.painter().circle_filled(
                        rect.center(),
                        7.0,
                        if lit { LED_ON } else { LED_OFF },
                    );
                    let state = if lit { tr(lang, "on") } else { tr(lang, "off") };
                    let name = format!("LED {} (PA{}): {state}", led.name, led.bit);
                    r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &name));
                    r.on_hover_text(&name);
                    ui.label(&led.name);
                }
            });
        }
        self.buttons_held.resize(parts.switches.len(), false);
        for (i, sw) in parts.switches.iter().enumerate() {
            let high = match sw.pin {
                SwitchPin::PortA(p) => levels & (1 << p.0) != 0,
                SwitchPin::PortE(ch) => session
                    .machine()
                    .and_then(|m| m.board().analog(ch))
                    .is_some_and(|mv| mv >= VRH_MV / 2),
            };
            let pin = sw.pin.name();
            if sw.button {
                let name = format!("button {} ({pin})", sw.name);
                let text = format!("{} ({pin}) = {}", sw.name, high as u8);
                let r = ui.add(egui::Button::new(text).selected(self.buttons_held[i]));
                r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
                // Act on the press and the release only, so the pin is free
                // for the other controls between them.
                // Held: the primary button is down with the pointer on it
                // (egui's press-on-widget flag misses presses in this panel
                // while a neighbour's tooltip is up).
                let held = r.contains_pointer() && ui.input(|i| i.pointer.primary_down());
                let was = std::mem::replace(&mut self.buttons_held[i], held);
                r.on_hover_text(trf(
                    lang,
                    "push button: {} while held, {} when released",
                    &[&(!sw.default_high as u8), &(sw.default_high as u8)],
                ));
                if held != was {
                    drive(session, sw.pin, held != sw.default_high);
                }
            } else {
                let mut on = high;
                let name = format!("switch {} ({pin})", sw.name);
                let r = ui.checkbox(&mut on, format!("{} ({pin}) = {}", sw.name, high as u8));
                r.widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, on, &name));
                if r.on_hover_text(tr(lang, "toggle switch: ticked = 1"))
                    .changed()
                {
                    drive(session, sw.pin, on);
                }
            }
        }
        for pot in &parts.pots {
            let now = session
                .machine()
                .and_then(|m| m.board().analog(pot.channel))
                .unwrap_or(pot.default_mv);
            let mut volts = now as f32 / 1000.0;
            let (lo, hi) = (pot.min_mv as f32 / 1000.0, pot.max_mv as f32 / 1000.0);
            let r = ui.add(
                egui::Slider::new(&mut volts, lo..=hi)
                    .step_by(0.01)
                    .fixed_decimals(2)
                    .suffix(" V")
                    .text(format!("{} (AN{})", pot.name, pot.channel)),
            );
            if r.changed() {
                let mv = (volts * 1000.0)
                    .round()
                    .clamp(pot.min_mv as f32, pot.max_mv as f32) as u32;
                session.set_analog(pot.channel, mv);
            }
        }
        for g in &parts.generators {
            let bit = g.pin.0;
            let saved = self.generator_settings[bit as usize]
                .unwrap_or((g.millihertz as f64 / 1000.0, g.duty_percent));
            let (mut on, mut hz, mut duty) = match session.input_drive(bit) {
                Drive::Square(s) => (true, s.millihertz as f64 / 1000.0, s.duty_percent),
                _ => (false, saved.0, saved.1),
            };
            let before = (on, hz, duty);
            ui.horizontal_wrapped(|ui| {
                let name = format!("generator {} (PA{bit})", g.name);
                let r = ui.checkbox(&mut on, format!("{} (PA{bit})", g.name));
                r.widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, on, &name));
                r.on_hover_text(tr(lang, "square-wave generator: ticked = running"));
                ui.add(
                    egui::Slider::new(&mut hz, 1.0..=100_000.0)
                        .logarithmic(true)
                        .max_decimals(3)
                        .suffix(" Hz")
                        .text(format!("{} Hz", g.name)),
                );
                ui.add(
                    egui::Slider::new(&mut duty, 1..=99)
                        .suffix(" %")
                        .text(format!("{} duty", g.name)),
                );
            });
            if (on, hz, duty) != before {
                let millihertz = (hz * 1000.0).round().clamp(1.0, 500_000_000.0) as u64;
                self.generator_settings[bit as usize] = Some((millihertz as f64 / 1000.0, duty));
                let spec = if on {
                    SignalSpec::Square {
                        millihertz,
                        duty_percent: duty.clamp(1, 99),
                    }
                } else {
                    SignalSpec::Off
                };
                session.set_signal(bit, spec);
            }
        }
    }
}

/// Puts a switch's pin at `high`.
fn drive(session: &mut Session, pin: SwitchPin, high: bool) {
    match pin {
        SwitchPin::PortA(p) => session.set_input_pin(p.0, high),
        SwitchPin::PortE(ch) => session.set_analog(ch, if high { VRH_MV } else { 0 }),
    }
}

/// The IRQ and XIRQ pins: a checkbox each pulls the pin low (asserted).
fn irq_ui(ui: &mut egui::Ui, session: &mut Session, lang: Lang) {
    ui.horizontal_wrapped(|ui| {
        ui.label(RichText::new(tr(lang, "Interrupt pins")).strong());
        for (line, pin) in [(IrqLine::Irq, "IRQ"), (IrqLine::Xirq, "XIRQ")] {
            let mut low = session.irq_line_low(line);
            let name = format!("{pin} low");
            let r = ui.checkbox(&mut low, &name);
            r.widget_info(|| egui::WidgetInfo::selected(egui::Role::CheckBox, true, low, &name));
            if r.on_hover_text(trf(
                lang,
                "ticked: the {} pin is pulled low (asserted); OPTION's IRQE makes IRQ edge-sensitive",
                &[&pin],
            ))
            .changed()
            {
                session.set_irq_line(line, low);
            }
        }
    });
}

/// Draws a waveform into `plot` as a line: high at the top, low below.
fn draw_wave(painter: &egui::Painter, plot: Rect, wave: &Waveform) {
    let Some(start) = wave.start else {
        return;
    };
    let y = |high: bool| {
        if high {
            plot.min.y + 2.0
        } else {
            plot.max.y - 2.0
        }
    };
    let mut points = vec![Pos2::new(plot.min.x + wave.begin, y(start))];
    let mut level = start;
    for (dx, to) in &wave.edges {
        let x = plot.min.x + dx;
        points.push(Pos2::new(x, y(level)));
        points.push(Pos2::new(x, y(*to)));
        level = *to;
    }
    points.push(Pos2::new(plot.max.x, y(level)));
    painter.add(egui::Shape::line(points, Stroke::new(1.5, TRACE)));
}

/// The eight port A pins as LEDs (PA7 left, as the register's bits), with
/// a switch under each input pin and a trace checkbox under every pin.
fn pins_ui(ui: &mut egui::Ui, session: &mut Session, lang: Lang) {
    ui.label(RichText::new(tr(lang, "Port A pins")).strong());
    let levels = session.port_a();
    let old_mask = session.traced_mask();
    let mut mask = old_mask;
    // Columns as wide as their widest cell (egui's default minimum of 40
    // points makes eight of them wider than a 250-point column); the pins in
    // two rows of four where eight do not fit.
    let small = egui::TextStyle::Small.resolve(ui.style());
    let label_w = ui.fonts_mut(|f| "PA7".chars().map(|c| f.glyph_width(&small, c)).sum::<f32>());
    let col_w = label_w.max(ui.spacing().interact_size.y);
    let eight = 8.0 * col_w + 7.0 * 6.0;
    let rows: &[&[u8]] = if ui.available_width() >= eight {
        &[&[7, 6, 5, 4, 3, 2, 1, 0]]
    } else {
        &[&[7, 6, 5, 4], &[3, 2, 1, 0]]
    };
    for &bits in rows {
        egui::Grid::new(("port-a-pins", bits[0]))
            .spacing([6.0, 2.0])
            .min_col_width(col_w)
            .show(ui, |ui| {
                for &bit in bits {
                    let on = levels & (1 << bit) != 0;
                    let (rect, r) = ui.allocate_exact_size(Vec2::splat(18.0), Sense::hover());
                    ui.painter().circle_filled(
                        rect.center(),
                        7.0,
                        if on { LED_ON } else { LED_OFF },
                    );
                    let name = format!("PA{bit} = {}", on as u8);
                    r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &name));
                    r.on_hover_text(format!("{name}\n{}", tr(lang, PIN_ROLE[bit as usize])));
                }
                ui.end_row();
                for &bit in bits {
                    ui.label(RichText::new(format!("PA{bit}")).monospace().small());
                }
                ui.end_row();
                // Switches on the pins the bench can drive.
                for &bit in bits {
                    if !INPUT_BITS.contains(&bit) {
                        ui.label("");
                        continue;
                    }
                    let high = levels & (1 << bit) != 0;
                    let text = if high { "1" } else { "0" };
                    let r = ui.small_button(text);
                    // Named for screen readers (and kittest): the text is a digit.
                    let name = format!("switch PA{bit}");
                    r.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
                    if r.on_hover_text(trf(
                        lang,
                        "switch on PA{}: click to drive it {}",
                        &[&bit, &(!high as u8)],
                    ))
                    .clicked()
                    {
                        session.set_input_pin(bit, !high);
                    }
                }
                ui.end_row();
                for &bit in bits {
                    let mut traced = mask & (1 << bit) != 0;
                    let r = ui.checkbox(&mut traced, "");
                    let name = format!("trace PA{bit}");
                    r.widget_info(|| {
                        egui::WidgetInfo::selected(egui::Role::CheckBox, true, traced, &name)
                    });
                    if r.on_hover_text(trf(lang, "trace PA{}", &[&bit])).changed() {
                        mask ^= 1 << bit;
                    }
                }
                ui.end_row();
            });
    }
    if mask != old_mask {
        session.set_trace_mask(mask);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(cycle: u64, bit: u8, level: bool) -> PinEdge {
        PinEdge { cycle, bit, level }
    }

    #[test]
    fn a_waveform_keeps_the_level_before_the_window_and_its_edges() {
        let trace = [
            edge(0, 6, false),
            edge(0, 0, true),
            edge(500, 6, true),
            edge(1500, 6, false),
            edge(1600, 0, true), // the same level again: no edge
            edge(2500, 6, true),
            edge(4000, 6, false), // after the window
        ];
        let w = waveform(&trace, 6, 1000, 3000, 200.0);
        assert_eq!(w.start, Some(true));
        assert_eq!(w.edges, vec![(50.0, false), (150.0, true)]);
        let w = waveform(&trace, 0, 1000, 3000, 200.0);
        assert_eq!(w.start, Some(true));
        assert!(w.edges.is_empty());
        // A pin never traced has no waveform.
        assert_eq!(waveform(&trace, 3, 0, 3000, 200.0), Waveform::default());
    }
}
