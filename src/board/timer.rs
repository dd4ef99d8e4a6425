//! The MC68HC11 main timer (M68HC11 RM section 10, MC68HC11A8 technical
//! data section 9): the free-running 16-bit counter TCNT clocked by
//! E / prescaler (TMSK2 PR1:PR0 = 1, 4, 8, 16; reset value 1), its overflow
//! flag TOF, the five output compares with their pin actions on PA3-PA7
//! (TCTL1 for OC2-OC5, OC1M/OC1D for OC1, CFORC), the three input captures
//! on PA2-PA0 with the edges TCTL2 selects, the pulse accumulator on PA7
//! (PACTL: event counting and gated time accumulation, PAOVF, PAIF), the
//! real-time interrupt (E / 2^13 x 1, 2, 4, 8 by PACTL RTR1:RTR0) and their
//! interrupts. Port A's pins live here because the timer drives and samples
//! them; the board reads PORTA through [`Timer::porta`].
//!
//! The counter is computed from the cycle count, not incremented per step:
//! ticks(now) = base + (now - base cycle) / prescale, TCNT = ticks mod 2^16.
//! Every other change (a compare match, an input edge, a gated-accumulator
//! E/64 tick) is an event handled at its exact cycle, in time order.
//!
//! Assumptions (the A8's port A; where the manual leaves room):
//! - PA0-PA2 are inputs, PA3-PA6 outputs, PA7 bidirectional by DDRA7 (the
//!   E9's DDRA3 is not modelled). An input nothing drives reads 1.
//! - A write to PORTA reaches PA3-PA6 unless that pin's OC2-OC5 action
//!   (TCTL1) is not 00; OC1 (OC1M) acts on its pins whatever PORTA does, and
//!   when OC1 and another compare act on one pin at the same cycle OC1 wins.
//!   A pin keeps its level when TCTL1 disconnects it, until the next write.
//! - A capture latches TCNT at the cycle of the edge (the chip's one-cycle
//!   synchroniser delay is not modelled); a forced compare (CFORC) acts at
//!   the cycle of the write.
//! - The gated accumulator counts E/64 ticks at cycles that are multiples of
//!   64 after reset, while the gate is open; an edge and a tick at the same
//!   cycle: the edge is taken first.

use super::bench::Drive;
use super::{Device, RegisterInfo};

/// TFLG1/TMSK1 bit of output compare n (1..=5): OC1 is bit 7 ... OC5 bit 3.
const fn oc_bit(n: usize) -> u8 {
    0x80 >> (n - 1)
}

/// TFLG2/TMSK2 bits.
const TOF: u8 = 0x80;
const RTIF: u8 = 0x40;
const PAOVF: u8 = 0x20;
const PAIF: u8 = 0x10;

/// PACTL bits.
const DDRA7: u8 = 0x80;
const PAEN: u8 = 0x40;
const PAMOD: u8 = 0x20;
const PEDGE: u8 = 0x10;

/// E-cycles per tick of the gated accumulator's clock.
const PA_GATED_CYCLES: u64 = 64;

/// Interrupt vectors in the chip's fixed priority order (HPRIO promotion is
/// not modelled).
const VEC_RTI: u16 = 0xFFF0;
const VEC_IC: [u16; 3] = [0xFFEE, 0xFFEC, 0xFFEA];
const VEC_OC: [u16; 5] = [0xFFE8, 0xFFE6, 0xFFE4, 0xFFE2, 0xFFE0];
const VEC_TOF: u16 = 0xFFDE;
const VEC_PAOV: u16 = 0xFFDC;
const VEC_PAI: u16 = 0xFFDA;

/// Writes to TMSK2's PR bits are taken only in the first 64 cycles after reset.
const TIME_PROTECT_CYCLES: u64 = 64;

/// The most pin-trace entries kept: on a long run the oldest are dropped
/// (a quarter of the log at a time, so a push stays cheap) and counted in
/// [`Timer::pin_trace_dropped`]. 65,536 entries are 1 MiB and hold, for
/// example, 33 ms of one pin driven by a 1 MHz square wave, or 65 s of a 500 Hz one.
pub const MAX_TRACE_EDGES: usize = 65_536;

/// One change of a port A pin: the cycle, the bit (0..=7) and the new level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PinEdge {
    /// E-cycle of the change.
    pub cycle: u64,
    /// Port A bit.
    pub bit: u8,
    /// The level after it.
    pub level: bool,
}

/// The main timer: registers $0B (CFORC) .. $27 (PACNT), and port A's pins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timer {
    /// The tick count was `base_ticks` at cycle `base_cycle`.
    base_cycle: u64,
    base_ticks: u64,
    /// E-cycles per TCNT tick.
    prescale: u64,
    reset_at: u64,
    toc: [u16; 5],
    tic: [u16; 3],
    /// Latches of the byte registers, indexed by address - $0B (CFORC..PACNT);
    /// TFLG1/TFLG2 live here too.
    regs: [u8; 0x1D],
    /// Cycle of the next overflow, RTI, and each compare match.
    next_tof: u64,
    next_rti: u64,
    next_oc: [u64; 5],
    /// High byte latched by a read of TCNT's high byte (the chip's 16-bit
    /// read buffer), so a two-byte read sees one consistent value.
    tcnt_buffer: Option<u8>,
    /// Levels of the output pins PA3-PA7 (bits 3..7; PA7 counts only as an output).
    out_pins: u8,
    /// The cycle each output pin (index = bit) last changed.
    out_changed_at: [u64; 8],
    /// What drives PA0, PA1, PA2, PA7 from outside, their levels as of the
    /// last event, and the cycle of their next edge.
    inputs: [Drive; 4],
    in_level: [bool; 4],
    next_edge: [u64; 4],
    /// The next E/64 tick the gated accumulator counts (`u64::MAX`: gate shut).
    next_pa_tick: u64,
    /// Port A bits whose changes are logged, and the log.
    trace_mask: u8,
    trace: Vec<PinEdge>,
    /// Entries dropped from the front of the log to keep it within
    /// [`MAX_TRACE_EDGES`].
    trace_dropped: u64,
    /// The cycle of the next event (the minimum of the above).
    next_event: u64,
}

const CFORC: u16 = 0x0B;
const OC1M: u16 = 0x0C;
const OC1D: u16 = 0x0D;
const TCNT: u16 = 0x0E;
const TIC1: u16 = 0x10;
const TOC1: u16 = 0x16;
const TCTL1: u16 = 0x20;
const TCTL2: u16 = 0x21;
const TMSK1: u16 = 0x22;
const TFLG1: u16 = 0x23;
const TMSK2: u16 = 0x24;
const TFLG2: u16 = 0x25;
const PACTL: u16 = 0x26;
const PACNT: u16 = 0x27;

impl Default for Timer {
    fn default() -> Self {
        Self::new()
    }
}

/// Port A bit of input slot i (PA0, PA1, PA2, PA7).
const INPUT_BITS: [u8; 4] = [0, 1, 2, 7];

impl Timer {
    /// The cycle of its next event: `tick` at an earlier cycle changes
    /// nothing and returns this.
    #[inline]
    pub fn next_due(&self) -> u64 {
        self.next_event
    }

    /// The timer at reset.
    pub fn new() -> Self {
        let mut t = Timer {
            base_cycle: 0,
            base_ticks: 0,
            prescale: 1,
            reset_at: 0,
            toc: [0xFFFF; 5],
            tic: [0; 3],
            regs: [0; 0x1D],
            next_tof: 0,
            next_rti: 0,
            next_oc: [0; 5],
            tcnt_buffer: None,
            out_pins: 0,
            out_changed_at: [0; 8],
            inputs: [Drive::Open; 4],
            in_level: [true; 4],
            next_edge: [u64::MAX; 4],
            next_pa_tick: u64::MAX,
            trace_mask: 0,
            trace: Vec::new(),
            trace_dropped: 0,
            next_event: 0,
        };
        t.reset(0);
        t
    }

    /// A byte register's latch; callers pass addresses of this block only
    /// (`read`, `peek` and `write` check), others read as unmapped.
    fn reg(&self, a: u16) -> u8 {
        a.checked_sub(CFORC)
            .and_then(|i| self.regs.get(i as usize))
            .copied()
            .unwrap_or(super::UNMAPPED_READ)
    }

    fn set_reg(&mut self, a: u16, f: impl FnOnce(u8) -> u8) {
        if let Some(r) = a
            .checked_sub(CFORC)
            .and_then(|i| self.regs.get_mut(i as usize))
        {
            *r = f(*r);
        }
    }

    fn in_block(a: u16) -> bool {
        (CFORC..=PACNT).contains(&a)
    }

    /// TCNT at cycle `now`.
    pub fn tcnt(&self, now: u64) -> u16 {
        (self.ticks(now) & 0xFFFF) as u16
    }

    fn ticks(&self, now: u64) -> u64 {
        self.base_ticks + now.saturating_sub(self.base_cycle) / self.prescale
    }

    /// E-cycles per RTI period.
    fn rti_period(&self) -> u64 {
        8192 << (self.reg(PACTL) & 0x03)
    }

    /// The field a register read can change (TCNT's 16-bit read buffer),
    /// for the machine's fast-forward check.
    pub fn read_state(&self) -> Option<u8> {
        self.tcnt_buffer
    }

    /// True when PACTL's DDRA7 makes PA7 an output.
    pub fn pa7_output(&self) -> bool {
        self.reg(PACTL) & DDRA7 != 0
    }

    /// PORTA as the pins are at the last handled event: inputs PA0-PA2 from
    /// outside, PA3-PA6 driven, PA7 by DDRA7.
    pub fn porta(&self) -> u8 {
        let mut v = self.out_pins & 0x78;
        for (i, bit) in INPUT_BITS.iter().enumerate().take(3) {
            v |= (self.in_level[i] as u8) << bit;
        }
        v | (self.pa7_level() as u8) << 7
    }

    fn pa7_level(&self) -> bool {
        if self.pa7_output() {
            self.out_pins & 0x80 != 0
        } else {
            self.in_level[3]
        }
    }

    /// A CPU write of PORTA at `now` (after `tick(now)`): the pins it reaches
    /// follow it (see the module doc).
    pub fn write_porta(&mut self, value: u8, now: u64) {
        let tctl1 = self.reg(TCTL1);
        let mut mask = 0u8;
        // OC2 -> PA6 (TCTL1 bits 7:6), OC3 -> PA5, OC4 -> PA4, OC5 -> PA3.
        for k in 0..4 {
            if (tctl1 >> (6 - 2 * k)) & 3 == 0 {
                mask |= 0x40 >> k;
            }
        }
        if self.pa7_output() {
            mask |= 0x80;
        }
        let new = (self.out_pins & !mask) | (value & mask);
        self.set_out_pins(new, now);
        self.refresh(now);
    }

    /// Logs the changes of traced pins of port A bits `mask` from now on
    /// (with their levels now as the first entries). A trace with nothing
    /// logged after `now` starts over: `--trace-pin` at power-on replaces
    /// the board's default trace instead of adding to it.
    pub fn trace_pins(&mut self, mask: u8, now: u64) {
        if self.trace.iter().all(|e| e.cycle == now) {
            self.trace.clear();
            self.trace_dropped = 0;
        }
        self.trace_mask = mask;
        let levels = self.porta();
        for bit in 0..8 {
            if mask & (1 << bit) != 0 {
                self.push_trace(PinEdge {
                    cycle: now,
                    bit,
                    level: levels & (1 << bit) != 0,
                });
            }
        }
    }

    /// The logged pin changes kept (at most [`MAX_TRACE_EDGES`]), oldest first.
    pub fn pin_trace(&self) -> &[PinEdge] {
        &self.trace
    }

    /// The port A bits logged now.
    pub fn trace_mask(&self) -> u8 {
        self.trace_mask
    }

    /// How many of the oldest logged changes were dropped to keep the log
    /// within [`MAX_TRACE_EDGES`].
    pub fn pin_trace_dropped(&self) -> u64 {
        self.trace_dropped
    }

    fn push_trace(&mut self, e: PinEdge) {
        if self.trace.len() >= MAX_TRACE_EDGES {
            let n = MAX_TRACE_EDGES / 4;
            self.trace.drain(..n);
            self.trace_dropped += n as u64;
        }
        self.trace.push(e);
    }

    fn log(&mut self, cycle: u64, bit: u8, level: bool) {
        if self.trace_mask & (1 << bit) != 0 {
            self.push_trace(PinEdge { cycle, bit, level });
        }
    }

    /// Sets the output pins, logging changes and feeding PA7's to the
    /// pulse accumulator when PA7 is an output.
    fn set_out_pins(&mut self, new: u8, t: u64) {
        let old = self.out_pins;
        self.out_pins = new;
        let changed = (old ^ new) & 0xF8;
        for bit in 3..8 {
            if changed & (1 << bit) != 0 {
                self.out_changed_at[bit as usize] = t;
                let level = new & (1 << bit) != 0;
                if bit == 7 {
                    if self.pa7_output() {
                        self.log(t, 7, level);
                        self.pa_edge(level, t);
                    }
                } else {
                    self.log(t, bit, level);
                }
            }
        }
    }

    /// Connects `drive` to input slot `i` (PA0, PA1, PA2, PA7) at `now`
    /// (after `tick(now)`); a level change is an edge at `now`.
    pub fn set_input(&mut self, i: usize, drive: Drive, now: u64) {
        if i >= 4 {
            return;
        }
        self.inputs[i] = drive;
        let level = drive.level(now);
        if level != self.in_level[i] {
            self.input_edge(i, level, now);
        }
        self.next_edge[i] = drive.next_edge(now);
        self.refresh(now);
    }

    /// What drives input slot `i` (PA0, PA1, PA2, PA7).
    pub fn input(&self, i: usize) -> Drive {
        self.inputs.get(i).copied().unwrap_or_default()
    }

    /// An edge on input slot `i` at cycle `t`: captures, the accumulator, the log.
    fn input_edge(&mut self, i: usize, level: bool, t: u64) {
        self.in_level[i] = level;
        let bit = INPUT_BITS[i];
        if i < 3 {
            self.log(t, bit, level);
            // PA0 = IC3, PA1 = IC2, PA2 = IC1; TCTL2 EDGxB:EDGxA.
            let edg = (self.reg(TCTL2) >> (2 * i)) & 3;
            let taken = match edg {
                1 => level,
                2 => !level,
                3 => true,
                _ => false,
            };
            if taken {
                self.tic[2 - i] = self.tcnt(t);
                self.set_reg(TFLG1, |r| r | (1 << i));
            }
        } else if !self.pa7_output() {
            self.log(t, 7, level);
            self.pa_edge(level, t);
        }
    }

    /// The pulse accumulator sees PAI change to `level` at cycle `t`.
    fn pa_edge(&mut self, level: bool, t: u64) {
        let pactl = self.reg(PACTL);
        if pactl & PAEN == 0 {
            return;
        }
        let rising = level;
        let pedge = pactl & PEDGE != 0;
        if pactl & PAMOD == 0 {
            // Event counting: PEDGE=0 falling edges, 1 rising edges.
            if rising == pedge {
                self.pa_count(t);
                self.set_reg(TFLG2, |r| r | PAIF);
            }
        } else {
            // Gated: the gate is open while PAI is high (PEDGE=0) or low
            // (PEDGE=1); PAIF marks the edge that closes it.
            if rising == pedge {
                self.set_reg(TFLG2, |r| r | PAIF);
            }
            self.schedule_pa_tick(t);
        }
    }

    fn pa_count(&mut self, _t: u64) {
        let n = self.reg(PACNT).wrapping_add(1);
        self.set_reg(PACNT, |_| n);
        if n == 0 {
            self.set_reg(TFLG2, |r| r | PAOVF);
        }
    }

    /// True while the gated accumulator's gate is open.
    fn gate_open(&self) -> bool {
        let pactl = self.reg(PACTL);
        pactl & (PAEN | PAMOD) == PAEN | PAMOD && self.pa7_level() != (pactl & PEDGE != 0)
    }

    /// The next E/64 tick after `t` if the gate is open.
    fn schedule_pa_tick(&mut self, t: u64) {
        self.next_pa_tick = if self.gate_open() {
            let since = t - self.reset_at.min(t);
            self.reset_at + (since / PA_GATED_CYCLES + 1) * PA_GATED_CYCLES
        } else {
            u64::MAX
        };
    }

    /// The first cycle after `now` at which the tick count is ≡ `target` (mod 2^16).
    fn next_match(&self, now: u64, target: u16) -> u64 {
        let t = self.ticks(now);
        let cur = t & 0xFFFF;
        let mut delta = (target as u64 + 0x1_0000 - cur) & 0xFFFF;
        if delta == 0 {
            delta = 0x1_0000;
        }
        self.base_cycle + (t + delta - self.base_ticks) * self.prescale
    }

    fn reschedule(&mut self, now: u64) {
        self.next_tof = self.next_match(now, 0);
        for i in 0..5 {
            self.next_oc[i] = self.next_match(now, self.toc[i]);
        }
    }

    /// Recomputes the cycle of the next event.
    fn refresh(&mut self, _now: u64) {
        let mut next = self.next_tof.min(self.next_rti).min(self.next_pa_tick);
        for n in self.next_oc.iter().chain(self.next_edge.iter()) {
            next = next.min(*n);
        }
        self.next_event = next;
    }

    /// The pin actions of the compares in `which` (bit n-1 = OCn), at `t`:
    /// OC2-OC5 first, then OC1, which wins on a shared pin.
    fn compare_actions(&mut self, which: u8, t: u64) {
        let mut pins = self.out_pins;
        let tctl1 = self.reg(TCTL1);
        for k in 0..4 {
            // OC(k+2): TCTL1 bits (7-2k):(6-2k) act on PA(6-k).
            if which & (1 << (k + 1)) == 0 {
                continue;
            }
            let bit = 0x40u8 >> k;
            match (tctl1 >> (6 - 2 * k)) & 3 {
                1 => pins ^= bit,
                2 => pins &= !bit,
                3 => pins |= bit,
                _ => {}
            }
        }
        if which & 1 != 0 {
            let m = self.reg(OC1M) & 0xF8;
            pins = (pins & !m) | (self.reg(OC1D) & m);
        }
        self.set_out_pins(pins, t);
    }

    /// Handles every event at cycle `t` (the earliest pending one).
    fn handle_events_at(&mut self, t: u64) {
        if self.next_tof == t {
            self.set_reg(TFLG2, |r| r | TOF);
            self.next_tof = self.next_match(t, 0);
        }
        if self.next_rti == t {
            self.set_reg(TFLG2, |r| r | RTIF);
            let p = self.rti_period();
            let k = t.saturating_sub(self.reset_at) / p + 1;
            self.next_rti = self.reset_at + k * p;
        }
        let mut which = 0u8;
        for i in 0..5 {
            if self.next_oc[i] == t {
                which |= 1 << i;
                self.set_reg(TFLG1, |r| r | oc_bit(i + 1));
                self.next_oc[i] = self.next_match(t, self.toc[i]);
            }
        }
        if which != 0 {
            self.compare_actions(which, t);
        }
        for i in 0..4 {
            if self.next_edge[i] == t {
                let level = self.inputs[i].level(t);
                if level != self.in_level[i] {
                    self.input_edge(i, level, t);
                }
                self.next_edge[i] = self.inputs[i].next_edge(t);
            }
        }
        if self.next_pa_tick == t {
            self.pa_count(t);
            self.schedule_pa_tick(t);
        }
        self.refresh(t);
    }

    /// The cycle output pin PA`bit` (3..=7) last changed level.
    pub fn out_changed_at(&self, bit: u8) -> u64 {
        self.out_changed_at.get(bit as usize).copied().unwrap_or(0)
    }

    /// True if an output compare acts on port A bit `bit` (3..=6 through
    /// TCTL1, 3..=7 through OC1M): the timer may move that pin.
    pub fn compare_drives(&self, bit: u8) -> bool {
        let by_oc1 = self.reg(OC1M) & (1 << bit) != 0;
        let by_ocn = (3..=6).contains(&bit) && (self.reg(TCTL1) >> (2 * (bit - 3))) & 3 != 0;
        by_oc1 || by_ocn
    }

    /// True if any timer interrupt is enabled (TMSK1, or TOI/RTII/PAOVI/PAII
    /// in TMSK2): one may become pending as time passes.
    pub fn interrupts_enabled(&self) -> bool {
        self.reg(TMSK1) != 0 || self.reg(TMSK2) & 0xF0 != 0
    }

    /// The interrupt vector of the highest-priority pending timer source.
    pub fn irq_vector(&self) -> Option<u16> {
        let f1 = self.reg(TFLG1) & self.reg(TMSK1);
        let f2 = self.reg(TFLG2) & self.reg(TMSK2) & 0xF0;
        if f1 == 0 && f2 == 0 {
            return None;
        }
        if f2 & RTIF != 0 {
            return Some(VEC_RTI);
        }
        for (i, v) in VEC_IC.iter().enumerate() {
            if f1 & (0x04 >> i) != 0 {
                return Some(*v);
            }
        }
        for (i, v) in VEC_OC.iter().enumerate() {
            if f1 & oc_bit(i + 1) != 0 {
                return Some(*v);
            }
        }
        if f2 & TOF != 0 {
            return Some(VEC_TOF);
        }
        if f2 & PAOVF != 0 {
            return Some(VEC_PAOV);
        }
        if f2 & PAIF != 0 {
            return Some(VEC_PAI);
        }
        None
    }

    fn value(&self, a: u16, now: u64) -> u8 {
        let word = |w: u16, a: u16, base: u16| -> u8 {
            if (a - base) % 2 == 0 {
                (w >> 8) as u8
            } else {
                w as u8
            }
        };
        match a {
            CFORC => 0,
            TCNT => (self.tcnt(now) >> 8) as u8,
            0x0F => self.tcnt(now) as u8,
            0x10..=0x15 => {
                let i = ((a - TIC1) / 2) as usize;
                word(self.tic[i], a, TIC1)
            }
            0x16..=0x1F => {
                let i = ((a - TOC1) / 2) as usize;
                word(self.toc[i], a, TOC1)
            }
            _ => self.reg(a),
        }
    }

    /// This timer brought up to `now` without changing `self` (for peeks).
    fn at(&self, now: u64) -> std::borrow::Cow<'_, Timer> {
        if now < self.next_event {
            std::borrow::Cow::Borrowed(self)
        } else {
            let mut t = self.clone();
            t.trace_mask = 0;
            t.tick(now);
            std::borrow::Cow::Owned(t)
        }
    }

    /// PORTA at `now`, with events due by then folded in (no side effects).
    pub fn porta_at(&self, now: u64) -> u8 {
        self.at(now).porta()
    }
}

const NAMES: &[(u16, &str, u8)] = &[
    (0x0E, "TCNT", 16),
    (0x10, "TIC1", 16),
    (0x12, "TIC2", 16),
    (0x14, "TIC3", 16),
    (0x16, "TOC1", 16),
    (0x18, "TOC2", 16),
    (0x1A, "TOC3", 16),
    (0x1C, "TOC4", 16),
    (0x1E, "TOC5", 16),
    (0x0B, "CFORC", 8),
    (0x0C, "OC1M", 8),
    (0x0D, "OC1D", 8),
    (0x20, "TCTL1", 8),
    (0x21, "TCTL2", 8),
    (0x22, "TMSK1", 8),
    (0x23, "TFLG1", 8),
    (0x24, "TMSK2", 8),
    (0x25, "TFLG2", 8),
    (0x26, "PACTL", 8),
    (0x27, "PACNT", 8),
];

impl Device for Timer {
    fn read(&mut self, a: u16, now: u64) -> u8 {
        if !Self::in_block(a) {
            return super::UNMAPPED_READ;
        }
        self.tick(now);
        match a {
            TCNT => {
                let v = self.value(a, now);
                self.tcnt_buffer = Some(self.tcnt(now) as u8);
                v
            }
            0x0F => self.tcnt_buffer.take().unwrap_or(self.value(a, now)),
            _ => self.value(a, now),
        }
    }

    fn peek(&self, a: u16, now: u64) -> u8 {
        if !Self::in_block(a) {
            return super::UNMAPPED_READ;
        }
        self.at(now).value(a, now)
    }

    fn write(&mut self, a: u16, value: u8, now: u64) {
        if !Self::in_block(a) {
            return;
        }
        self.tick(now);
        match a {
            // A write of 1s to CFORC forces those compares' pin actions now,
            // without setting their flags; CFORC reads 0.
            CFORC => {
                let which = (0..5).fold(0u8, |w, i| {
                    w | if value & oc_bit(i + 1) != 0 {
                        1 << i
                    } else {
                        0
                    }
                });
                self.compare_actions(which, now);
            }
            // TCNT and the input captures are read-only in normal modes.
            TCNT | 0x0F | 0x10..=0x15 => {}
            0x16..=0x1F => {
                let i = ((a - TOC1) / 2) as usize;
                let t = &mut self.toc[i];
                *t = if (a - TOC1) % 2 == 0 {
                    (*t & 0x00FF) | ((value as u16) << 8)
                } else {
                    (*t & 0xFF00) | value as u16
                };
                self.next_oc[i] = self.next_match(now, self.toc[i]);
            }
            // Flags clear by writing 1s.
            TFLG1 | TFLG2 => self.set_reg(a, |r| r & !value),
            TMSK2 => {
                let keep_pr = now.saturating_sub(self.reset_at) >= TIME_PROTECT_CYCLES;
                let old = self.reg(TMSK2);
                let new = if keep_pr {
                    (value & 0xFC) | (old & 0x03)
                } else {
                    value
                };
                self.set_reg(TMSK2, |_| new);
                let prescale = [1, 4, 8, 16][(new & 0x03) as usize];
                if prescale != self.prescale {
                    self.base_ticks = self.ticks(now);
                    self.base_cycle = now;
                    self.prescale = prescale;
                    self.reschedule(now);
                }
            }
            PACTL => {
                let was_pa7 = self.pa7_level();
                self.set_reg(a, |_| value);
                let p = self.rti_period();
                let k = now.saturating_sub(self.reset_at) / p + 1;
                self.next_rti = self.reset_at + k * p;
                let pa7 = self.pa7_level();
                if pa7 != was_pa7 {
                    self.log(now, 7, pa7);
                }
                self.schedule_pa_tick(now);
            }
            _ => self.set_reg(a, |_| value),
        }
        self.refresh(now);
    }

    fn tick(&mut self, now: u64) -> u64 {
        while self.next_event <= now {
            let t = self.next_event;
            self.handle_events_at(t);
        }
        self.next_event
    }

    fn reset(&mut self, now: u64) {
        self.base_cycle = now;
        self.base_ticks = 0;
        self.prescale = 1;
        self.reset_at = now;
        self.toc = [0xFFFF; 5];
        self.tic = [0; 3];
        self.regs = [0; 0x1D];
        self.tcnt_buffer = None;
        self.next_rti = now + self.rti_period();
        self.next_pa_tick = u64::MAX;
        let old = self.out_pins;
        self.out_pins = 0;
        for bit in 3..7 {
            if old & (1 << bit) != 0 {
                self.out_changed_at[bit as usize] = now;
                self.log(now, bit, false);
            }
        }
        // The bench's drives stay connected through a reset.
        for i in 0..4 {
            self.in_level[i] = self.inputs[i].level(now);
            self.next_edge[i] = self.inputs[i].next_edge(now);
        }
        self.reschedule(now);
        self.refresh(now);
    }

    fn registers(&self, now: u64) -> Vec<RegisterInfo> {
        let t = self.at(now);
        NAMES
            .iter()
            .map(|&(a, name, width)| {
                let value = if width == 16 {
                    ((t.value(a, now) as u16) << 8) | t.value(a + 1, now) as u16
                } else {
                    t.value(a, now) as u16
                };
                let meaning = match a {
                    TCNT => format!("counts E/{} ({})", t.prescale, value),
                    TFLG2 => format!(
                        "TOF={} RTIF={} PAOVF={} PAIF={}",
                        (value >> 7) & 1,
                        (value >> 6) & 1,
                        (value >> 5) & 1,
                        (value >> 4) & 1
                    ),
                    PACTL => format!(
                        "PA7 {}, pulse accumulator {}",
                        if value & 0x80 != 0 { "output" } else { "input" },
                        match (value & 0x40 != 0, value & 0x20 != 0, value & 0x10 != 0) {
                            (false, ..) => "off",
                            (true, false, false) => "counts falling edges",
                            (true, false, true) => "counts rising edges",
                            (true, true, false) => "gated, counts E/64 while PAI high",
                            (true, true, true) => "gated, counts E/64 while PAI low",
                        }
                    ),
                    _ => format!("${value:0w$X}", w = width as usize / 4),
                };
                RegisterInfo {
                    name,
                    address: Some(a),
                    value,
                    width,
                    meaning,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcnt_counts_e_cycles_and_overflows() {
        let mut t = Timer::new();
        assert_eq!(t.tcnt(0), 0);
        assert_eq!(t.tcnt(1234), 1234);
        assert_eq!(t.read(TFLG2, 65535) & TOF, 0);
        assert_ne!(t.read(TFLG2, 65536) & TOF, 0);
        t.write(TFLG2, TOF, 65540);
        assert_eq!(t.read(TFLG2, 65541) & TOF, 0);
        assert_eq!(t.tcnt(65536 + 7), 7);
    }

    #[test]
    fn tcnt_two_byte_read_is_consistent() {
        let mut t = Timer::new();
        let hi = t.read(TCNT, 0x00FF);
        let lo = t.read(0x0F, 0x0105);
        assert_eq!((hi, lo), (0x00, 0xFF));
    }

    #[test]
    fn prescaler_only_early() {
        let mut t = Timer::new();
        t.write(TMSK2, 0x01, 10);
        assert_eq!(t.tcnt(10 + 40), 10 + 10);
        t.write(TMSK2, 0x03, 100);
        assert_eq!(t.reg(TMSK2) & 3, 1);
    }

    #[test]
    fn output_compare_sets_flag_and_interrupts() {
        let mut t = Timer::new();
        t.write(0x18, 0x01, 0); // TOC2 = $01xx
        t.write(0x19, 0x00, 0); // TOC2 = $0100
        t.write(TMSK1, oc_bit(2), 0);
        t.tick(0xFF);
        assert_eq!(t.irq_vector(), None);
        t.tick(0x100);
        assert_eq!(t.read(TFLG1, 0x100) & oc_bit(2), oc_bit(2));
        assert_eq!(t.irq_vector(), Some(0xFFE6));
    }

    #[test]
    fn addresses_outside_the_block_are_harmless() {
        let mut t = Timer::new();
        assert_eq!(t.read(0x00, 0), 0xFF);
        assert_eq!(t.peek(0x50, 0), 0xFF);
        t.write(0xFFFF, 1, 0);
        assert_eq!(t, Timer::new());
    }

    #[test]
    fn rti_period_from_pactl() {
        let mut t = Timer::new();
        t.tick(8191);
        assert_eq!(t.reg(TFLG2) & RTIF, 0);
        t.tick(8192);
        assert_ne!(t.reg(TFLG2) & RTIF, 0);
        t.write(TMSK2, RTIF, 8200);
        assert_eq!(t.irq_vector(), Some(VEC_RTI));
    }
}
