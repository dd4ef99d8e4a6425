//! The lab bench the session keeps around the chip: voltages on
//! the A/D inputs, levels on the port A input pins, signal generators, the
//! IRQ/XIRQ pins and the pins the logic analyser traces. Like a bench
//! beside a real board it outlives a reset and a reload: the machine gets a
//! fresh board each time (with the board file's parts at their defaults),
//! and the session applies what the user changed to it again.

use super::*;
use crate::board::bench::{BenchAction, Drive, InputPin, IrqLine, SignalSpec};
use crate::board::parts::Parts;
use crate::board::timer::PinEdge;

/// What the bench does to the pins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bench {
    /// Millivolts on AN0..AN7 set by a slider (`None`: nothing connected,
    /// the input sits at VRH as on power-up).
    pub analog: [Option<u32>; 8],
    /// Levels on PA0, PA1, PA2 and PA7 set by a switch (`None`: open).
    pub pins: [Option<bool>; 4],
    /// Signal generators set on PA0, PA1, PA2 and PA7 (`None`: as the
    /// board left them).
    pub signals: [Option<SignalSpec>; 4],
    /// The IRQ pin driven low (`Some(true)`) or high (`None`: undriven).
    pub irq_low: Option<bool>,
    /// The XIRQ pin driven low (`Some(true)`) or high (`None`: undriven).
    pub xirq_low: Option<bool>,
    /// Port A bits the logic analyser traces.
    pub trace_mask: u8,
    /// True once the user chose the traced pins (else the board's `trace`).
    pub trace_chosen: bool,
}

/// The port A bits a bench switch drives, in [`Bench::pins`] order.
pub const INPUT_BITS: [u8; 4] = [0, 1, 2, 7];

impl Session {
    /// The bench.
    pub fn bench(&self) -> &Bench {
        &self.bench
    }

    /// The parts the machine's board declares (LEDs, switches, pots,
    /// generators); none without a machine or on the built-in boards.
    pub fn board_parts(&self) -> Parts {
        self.machine()
            .map(|m| m.board().config().parts.clone())
            .unwrap_or_default()
    }

    /// Sets analog input ANn to `millivolts` now and keeps it there.
    pub fn set_analog(&mut self, channel: u8, millivolts: u32) {
        let Some(slot) = self.bench.analog.get_mut(channel as usize) else {
            return;
        };
        *slot = Some(millivolts);
        self.apply_bench(&BenchAction::Analog {
            channel,
            millivolts,
        });
    }

    /// Drives port A input bit `bit` (0, 1, 2 or 7) to `high` now and keeps it.
    pub fn set_input_pin(&mut self, bit: u8, high: bool) {
        let Some(i) = INPUT_BITS.iter().position(|b| *b == bit) else {
            return;
        };
        self.bench.pins[i] = Some(high);
        self.bench.signals[i] = None;
        self.apply_bench(&BenchAction::Pin {
            pin: InputPin(bit),
            high,
        });
    }

    /// Connects a signal generator (or disconnects it: [`SignalSpec::Off`])
    /// on port A input bit `bit` (0, 1, 2 or 7) now and keeps it.
    pub fn set_signal(&mut self, bit: u8, spec: SignalSpec) {
        let Some(i) = INPUT_BITS.iter().position(|b| *b == bit) else {
            return;
        };
        self.bench.signals[i] = Some(spec);
        self.bench.pins[i] = None;
        self.apply_bench(&BenchAction::Signal {
            pin: InputPin(bit),
            spec,
        });
    }

    /// What drives port A input bit `bit` from outside now.
    pub fn input_drive(&self, bit: u8) -> Drive {
        let Some(i) = INPUT_BITS.iter().position(|b| *b == bit) else {
            return Drive::Open;
        };
        self.machine()
            .map_or(Drive::Open, |m| m.board().timer().input(i))
    }

    /// Drives the IRQ or XIRQ pin low (asserted) or high now and keeps it.
    pub fn set_irq_line(&mut self, line: IrqLine, low: bool) {
        match line {
            IrqLine::Irq => self.bench.irq_low = Some(low),
            IrqLine::Xirq => self.bench.xirq_low = Some(low),
        }
        self.apply_bench(&BenchAction::Irq { line, low });
    }

    /// True if the IRQ (or XIRQ) pin is driven low now.
    pub fn irq_line_low(&self, line: IrqLine) -> bool {
        self.machine().is_some_and(|m| match line {
            IrqLine::Irq => m.board().irq_pin_low(),
            IrqLine::Xirq => m.board().xirq_pin_low(),
        })
    }

    /// Traces port A bits `mask` from now on (the logic analyser strip).
    pub fn set_trace_mask(&mut self, mask: u8) {
        self.bench.trace_mask = mask;
        self.bench.trace_chosen = true;
        if let Some(d) = self.dbg.as_mut() {
            d.target_mut().trace_pins(mask);
        }
    }

    /// The port A bits traced now: the user's choice, else the board's `trace`.
    pub fn traced_mask(&self) -> u8 {
        self.machine()
            .map_or(self.bench.trace_mask, |m| m.board().trace_mask())
    }

    /// The traced pin changes kept, oldest first.
    pub fn pin_trace(&self) -> &[PinEdge] {
        self.machine().map_or(&[], |m| m.board().pin_trace())
    }

    /// How many of the oldest traced changes were dropped (the trace keeps
    /// at most [`crate::board::timer::MAX_TRACE_EDGES`]).
    pub fn pin_trace_dropped(&self) -> u64 {
        self.machine().map_or(0, |m| m.board().pin_trace_dropped())
    }

    /// Port A's pins now (inputs from the bench, outputs from the timer).
    pub fn port_a(&self) -> u8 {
        self.machine()
            .map_or(0xFF, |m| m.board().timer().porta_at(m.cycles()))
    }

    fn apply_bench(&mut self, action: &BenchAction) {
        if let Some(d) = self.dbg.as_mut() {
            d.target_mut().apply_bench(action);
        }
        self.repaint = true;
    }

    /// Puts the bench on a fresh machine (after a reset or a load).
    pub(super) fn reapply_bench(&mut self) {
        let bench = self.bench;
        for (ch, mv) in bench.analog.iter().enumerate() {
            if let Some(mv) = mv {
                self.apply_bench(&BenchAction::Analog {
                    channel: ch as u8,
                    millivolts: *mv,
                });
            }
        }
        for (i, level) in bench.pins.iter().enumerate() {
            if let Some(high) = level {
                self.apply_bench(&BenchAction::Pin {
                    pin: InputPin(INPUT_BITS[i]),
                    high: *high,
                });
            }
        }
        for (i, spec) in bench.signals.iter().enumerate() {
            if let Some(spec) = spec {
                self.apply_bench(&BenchAction::Signal {
                    pin: InputPin(INPUT_BITS[i]),
                    spec: *spec,
                });
            }
        }
        if let Some(low) = bench.irq_low {
            self.apply_bench(&BenchAction::Irq {
                line: IrqLine::Irq,
                low,
            });
        }
        if let Some(low) = bench.xirq_low {
            self.apply_bench(&BenchAction::Irq {
                line: IrqLine::Xirq,
                low,
            });
        }
        if bench.trace_chosen {
            self.set_trace_mask(bench.trace_mask);
        }
    }
}
