//! The MC68HC11 main timer (M68HC11 RM section 10): the free-running 16-bit
//! counter TCNT clocked by E / prescaler (TMSK2 PR1:PR0 = 1, 4, 8, 16; reset
//! value 1), its overflow flag TOF, the five output compares (flags only: the
//! pin actions of TCTL1/OC1M are not modelled), the real-time interrupt
//! (E / 2^13 x 1, 2, 4, 8 by PACTL RTR1:RTR0) and their interrupts. Input
//! captures and the pulse accumulator have nothing connected on the trainer11;
//! their registers are latches.
//!
//! The counter is computed from the cycle count, not incremented per step:
//! ticks(now) = base + (now - base cycle) / prescale, TCNT = ticks mod 2^16.

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

/// The main timer: registers $0B (CFORC) .. $27 (PACNT).
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
}

const CFORC: u16 = 0x0B;
const TCNT: u16 = 0x0E;
const TIC1: u16 = 0x10;
const TOC1: u16 = 0x16;
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

impl Timer {
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
        self.reg(PACTL) & 0x80 != 0
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

    /// Sets the flags of every event due by `now` (peek-safe copy of `tick`'s work).
    fn flags_at(&self, now: u64) -> (u8, u8) {
        let mut f1 = self.reg(TFLG1);
        let mut f2 = self.reg(TFLG2);
        if now >= self.next_tof {
            f2 |= TOF;
        }
        if now >= self.next_rti {
            f2 |= RTIF;
        }
        for i in 0..5 {
            if now >= self.next_oc[i] {
                f1 |= oc_bit(i + 1);
            }
        }
        (f1, f2)
    }

    /// The vector of the highest-priority timer interrupt pending, if any.
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
            TFLG1 => self.flags_at(now).0,
            TFLG2 => self.flags_at(now).1,
            _ => self.reg(a),
        }
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
        self.value(a, now)
    }

    fn write(&mut self, a: u16, value: u8, now: u64) {
        if !Self::in_block(a) {
            return;
        }
        self.tick(now);
        match a {
            // CFORC forces pin actions only (not modelled); TCNT and the input
            // captures are read-only in normal modes.
            CFORC | TCNT | 0x0F | 0x10..=0x15 => {}
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
                self.set_reg(a, |_| value);
                let p = self.rti_period();
                let k = now.saturating_sub(self.reset_at) / p + 1;
                self.next_rti = self.reset_at + k * p;
            }
            _ => self.set_reg(a, |_| value),
        }
    }

    fn tick(&mut self, now: u64) -> u64 {
        if now >= self.next_tof {
            self.set_reg(TFLG2, |r| r | TOF);
            self.next_tof = self.next_match(now, 0);
        }
        if now >= self.next_rti {
            self.set_reg(TFLG2, |r| r | RTIF);
            let p = self.rti_period();
            let k = now.saturating_sub(self.reset_at) / p + 1;
            self.next_rti = self.reset_at + k * p;
        }
        for i in 0..5 {
            if now >= self.next_oc[i] {
                self.set_reg(TFLG1, |r| r | oc_bit(i + 1));
                self.next_oc[i] = self.next_match(now, self.toc[i]);
            }
        }
        let mut next = self.next_tof.min(self.next_rti);
        for n in self.next_oc {
            next = next.min(n);
        }
        next
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
        self.reschedule(now);
    }

    fn registers(&self, now: u64) -> Vec<RegisterInfo> {
        NAMES
            .iter()
            .map(|&(a, name, width)| {
                let value = if width == 16 {
                    ((self.value(a, now) as u16) << 8) | self.value(a + 1, now) as u16
                } else {
                    self.value(a, now) as u16
                };
                let meaning = match a {
                    TCNT => format!("counts E/{} ({})", self.prescale, value),
                    TFLG2 => format!("TOF={} RTIF={}", (value >> 7) & 1, (value >> 6) & 1),
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
