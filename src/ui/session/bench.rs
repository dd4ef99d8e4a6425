//! The lab bench the session keeps around the chip (issue 21): voltages on
//! the A/D inputs, levels on the port A input pins and the pins the logic
//! analyser traces. Like a bench beside a real board it outlives a reset
//! and a reload: the machine gets a fresh board each time, and the session
//! applies its bench to it again.

use super::*;
use crate::board::bench::{BenchAction, InputPin};
use crate::board::timer::PinEdge;

/// What the bench does to the pins.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bench {
    /// Millivolts on AN0..AN7 set by a slider (`None`: nothing connected,
    /// the input sits at VRH as on power-up).
    pub analog: [Option<u32>; 8],
    /// Levels on PA0, PA1, PA2 and PA7 set by a switch (`None`: open).
    pub pins: [Option<bool>; 4],
    /// Port A bits the logic analyser traces.
    pub trace_mask: u8,
}

/// The port A bits a bench switch drives, in [`Bench::pins`] order.
pub const INPUT_BITS: [u8; 4] = [0, 1, 2, 7];

impl Session {
    /// The bench.
    pub fn bench(&self) -> &Bench {
        &self.bench
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
        self.apply_bench(&BenchAction::Pin {
            pin: InputPin(bit),
            high,
        });
    }

    /// Traces port A bits `mask` from now on (the logic analyser strip).
    pub fn set_trace_mask(&mut self, mask: u8) {
        self.bench.trace_mask = mask;
        if let Some(d) = self.dbg.as_mut() {
            d.target_mut().trace_pins(mask);
        }
    }

    /// The traced pin changes so far, oldest first.
    pub fn pin_trace(&self) -> &[PinEdge] {
        self.machine().map_or(&[], |m| m.board().pin_trace())
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
        if bench.trace_mask != 0 {
            self.set_trace_mask(bench.trace_mask);
        }
    }
}
