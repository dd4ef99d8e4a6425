//! The MC68HC11A/E A/D converter (M68HC11 RM section 12): ADCTL ($30),
//! ADR1-ADR4 ($31-$34), powered by OPTION's ADPU, with the eight analog
//! inputs on port E (AN0-AN7) as voltages the board (or a script) sets.
//!
//! Timing, exact in E-cycles: a write to ADCTL starts a sequence; conversion
//! k (0-based) of the sequence ends 32 x (k + 1) E-cycles after the write
//! (the write's cycle is the start of the instruction that makes it, as for
//! every register access on this board) and its result goes to
//! ADR(k mod 4 + 1) at that cycle. CCF sets when the fourth conversion ends,
//! 128 E-cycles after the write. Without SCAN the converter then stops; with
//! SCAN it goes on, overwriting ADR1-ADR4 in turn every 32 E-cycles, and
//! CCF stays set. A write to ADCTL clears CCF and starts again.
//!
//! Assumptions where the manual leaves freedom or the model simplifies:
//! - The input is sampled at the end of its conversion (the real sample
//!   window is the first 12 E-cycles of the 32); inputs only change between
//!   instructions (script actions), so this differs only if a script changes
//!   a voltage inside a conversion.
//! - The code is round(255 x (Vin - VRL) / (VRH - VRL)), clamped to
//!   $00..$FF (ideal converter, no offset or nonlinearity errors).
//! - Channels 12, 13, 14 convert VRH, VRL and (VRH + VRL)/2 as the manual's
//!   internal test inputs; the reserved channels 8-11 and 15 read $00.
//! - CSEL (the RC clock) is accepted but the conversion is timed in E-cycles
//!   as with the E clock: the RC oscillator's frequency varies from part to
//!   part, so no exact figure exists for it.
//! - The ADPU power-up delay (about 100 µs for the charge pump) is reported
//!   in the register view but conversions started earlier still give exact
//!   results; with ADPU clear no conversion starts and CCF stays clear.
//! - A port E pin read as a digital input reads 1 at or above half of VRH
//!   (the chip guarantees only VIH = 0.7 VDD and VIL = 0.2 VDD).
//! - An input nothing drives is at VRH (5 V): PORTE reads $FF as before.

use super::RegisterInfo;

/// A/D control/status register.
pub const ADCTL: u16 = 0x30;
/// First result register (ADR1); ADR2-ADR4 follow.
pub const ADR1: u16 = 0x31;
/// Conversion complete flag in ADCTL.
pub const CCF: u8 = 0x80;
/// Continuous conversion in ADCTL.
pub const SCAN: u8 = 0x20;
/// Multiple-channel conversion in ADCTL.
pub const MULT: u8 = 0x10;
/// E-cycles per conversion.
pub const CONVERSION_CYCLES: u64 = 32;
/// E-cycles after ADPU is set before conversions are accurate (100 µs at 2 MHz).
pub const POWER_UP_CYCLES: u64 = 200;
/// Default reference high, millivolts.
pub const VRH_MV: u32 = 5000;
/// Default reference low, millivolts.
pub const VRL_MV: u32 = 0;

/// The A/D converter and the voltages on AN0-AN7.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Adc {
    /// ADCTL bits 5..0 as last written.
    ctl: u8,
    /// Cycle of the ADCTL write that started the running sequence.
    start: Option<u64>,
    /// CCF while no sequence runs (a sequence stopped by clearing ADPU).
    ccf_held: bool,
    /// Results as of `commit_at` (see [`Adc::results_at`]).
    committed: [u8; 4],
    commit_at: u64,
    /// Input voltages AN0-AN7, millivolts.
    mv: [u32; 8],
    vrh: u32,
    vrl: u32,
    /// ADPU, and the cycle it was last set.
    powered: bool,
    powered_at: u64,
}

impl Default for Adc {
    fn default() -> Self {
        Self::new()
    }
}

impl Adc {
    /// The converter at power-on: off, inputs at VRH.
    pub fn new() -> Self {
        Adc {
            ctl: 0,
            start: None,
            ccf_held: false,
            committed: [0; 4],
            commit_at: 0,
            mv: [VRH_MV; 8],
            vrh: VRH_MV,
            vrl: VRL_MV,
            powered: false,
            powered_at: 0,
        }
    }

    /// Conversions of the running sequence finished by cycle `now`.
    fn done_by(&self, now: u64) -> u64 {
        let Some(s) = self.start else { return 0 };
        let n = now.saturating_sub(s) / CONVERSION_CYCLES;
        if self.ctl & SCAN != 0 {
            n
        } else {
            n.min(4)
        }
    }

    /// The channel conversion k of the sequence reads.
    fn channel(&self, k: u64) -> u8 {
        if self.ctl & MULT != 0 {
            (self.ctl & 0x0C) | (k % 4) as u8
        } else {
            self.ctl & 0x0F
        }
    }

    /// The code for an input voltage in millivolts.
    fn code(&self, mv: u32) -> u8 {
        if self.vrh <= self.vrl {
            return 0;
        }
        let v = mv.clamp(self.vrl, self.vrh) - self.vrl;
        let span = self.vrh - self.vrl;
        ((v as u64 * 255 + span as u64 / 2) / span as u64) as u8
    }

    /// What a conversion of `channel` gives now.
    fn convert(&self, channel: u8) -> u8 {
        match channel {
            0..=7 => self.code(self.mv[channel as usize]),
            12 => self.code(self.vrh),
            13 => self.code(self.vrl),
            14 => self.code((self.vrh + self.vrl) / 2),
            _ => 0,
        }
    }

    /// ADR1-ADR4 at cycle `now`: the committed values with every conversion
    /// that ended after the commit and by `now` written over them. Inputs do
    /// not change between commits, so this is exact.
    fn results_at(&self, now: u64) -> [u8; 4] {
        let mut r = self.committed;
        let n = self.done_by(now);
        let m = self.done_by(self.commit_at);
        for k in m.max(n.saturating_sub(4))..n {
            r[(k % 4) as usize] = self.convert(self.channel(k));
        }
        r
    }

    fn commit(&mut self, now: u64) {
        self.committed = self.results_at(now);
        self.commit_at = now;
    }

    /// True if CCF reads 1 at `now`.
    fn ccf(&self, now: u64) -> bool {
        match self.start {
            Some(_) => self.done_by(now) >= 4,
            None => self.ccf_held,
        }
    }

    /// A read of ADCTL or ADR1-ADR4 (no side effects on this chip).
    pub fn read(&self, addr: u16, now: u64) -> u8 {
        match addr {
            ADCTL => self.ctl | if self.ccf(now) { CCF } else { 0 },
            0x31..=0x34 => self.results_at(now)[(addr - ADR1) as usize],
            _ => super::UNMAPPED_READ,
        }
    }

    /// A write of ADCTL starts a sequence (the result registers are read-only).
    pub fn write(&mut self, addr: u16, value: u8, now: u64) {
        if addr != ADCTL {
            return;
        }
        self.commit(now);
        self.ctl = value & 0x3F;
        self.ccf_held = false;
        self.start = self.powered.then_some(now);
    }

    /// OPTION's ADPU as the program sets it: clearing it stops a sequence.
    pub fn set_powered(&mut self, on: bool, now: u64) {
        if on == self.powered {
            return;
        }
        self.commit(now);
        self.powered = on;
        if on {
            self.powered_at = now;
        } else {
            // The converter stops; results and CCF keep what they showed.
            self.ccf_held = self.ccf(now);
            self.start = None;
        }
    }

    /// Sets input `channel` (0..=7) to `mv` millivolts from cycle `now` on;
    /// conversions that ended before keep the old value.
    pub fn set_input(&mut self, channel: u8, mv: u32, now: u64) {
        if let Some(slot) = self.mv.get(channel as usize).copied() {
            if slot != mv {
                self.commit(now);
                self.mv[channel as usize] = mv;
            }
        }
    }

    /// The voltage on input `channel`, millivolts.
    pub fn input(&self, channel: u8) -> Option<u32> {
        self.mv.get(channel as usize).copied()
    }

    /// Sets the references (millivolts); the board's, not the program's.
    pub fn set_references(&mut self, vrh: u32, vrl: u32, now: u64) {
        self.commit(now);
        self.vrh = vrh;
        self.vrl = vrl;
    }

    /// PORTE read as digital inputs: bit n is 1 when ANn is at or above VRH/2.
    pub fn port_e(&self) -> u8 {
        (0..8).fold(0, |acc, i| {
            acc | if self.mv[i] * 2 >= self.vrh {
                1 << i
            } else {
                0
            }
        })
    }

    /// The cycle the next conversion ends, `u64::MAX` if none runs.
    pub fn next_event(&self, now: u64) -> u64 {
        match self.start {
            Some(s) if self.ctl & SCAN != 0 || self.done_by(now) < 4 => {
                s + CONVERSION_CYCLES * (self.done_by(now) + 1)
            }
            _ => u64::MAX,
        }
    }

    /// Reset: ADCTL's control bits are undefined after reset on the chip;
    /// the model clears them and stops any sequence. Inputs stay (they are
    /// the board's), ADPU is cleared with OPTION.
    pub fn reset(&mut self, now: u64) {
        self.ctl = 0;
        self.start = None;
        self.ccf_held = false;
        self.committed = [0; 4];
        self.commit_at = now;
        self.powered = false;
        self.powered_at = now;
    }

    /// The view of ADCTL and ADR1-ADR4.
    pub fn registers(&self, now: u64) -> Vec<RegisterInfo> {
        let ctl = self.read(ADCTL, now);
        let state = if !self.powered {
            "powered down (ADPU=0)".to_string()
        } else if now.saturating_sub(self.powered_at) < POWER_UP_CYCLES {
            "warming up (less than 100 µs since ADPU)".to_string()
        } else if self.start.is_none() {
            "idle".to_string()
        } else if ctl & CCF != 0 {
            "CCF=1 (results ready)".to_string()
        } else {
            "converting".to_string()
        };
        let mut v = vec![RegisterInfo::byte(
            "ADCTL",
            ADCTL,
            ctl,
            format!(
                "{state}; {} {}, channel{} {}",
                if ctl & SCAN != 0 { "SCAN" } else { "single" },
                if ctl & MULT != 0 { "MULT" } else { "one" },
                if ctl & MULT != 0 { "s" } else { "" },
                if ctl & MULT != 0 {
                    format!("{}-{}", ctl & 0x0C, (ctl & 0x0C) + 3)
                } else {
                    format!("{}", ctl & 0x0F)
                }
            ),
        )];
        let r = self.results_at(now);
        for (i, name) in ["ADR1", "ADR2", "ADR3", "ADR4"].into_iter().enumerate() {
            let mv = r[i] as u64 * (self.vrh - self.vrl) as u64 / 255 + self.vrl as u64;
            v.push(RegisterInfo::byte(
                name,
                ADR1 + i as u16,
                r[i],
                format!("${:02X} = {:.3} V", r[i], mv as f64 / 1000.0),
            ));
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_channel_sequence_times_and_codes() {
        let mut a = Adc::new();
        a.set_powered(true, 0);
        a.set_input(1, 1000, 0);
        a.write(ADCTL, 0x01, 1000);
        assert_eq!(a.read(ADCTL, 1000 + 127), 0x01);
        assert_eq!(a.read(0x31, 1000 + 31), 0);
        assert_eq!(a.read(0x31, 1000 + 32), 51);
        assert_eq!(a.read(0x34, 1000 + 127), 0);
        assert_eq!(a.read(ADCTL, 1000 + 128), 0x81);
        assert_eq!(a.read(0x34, 1000 + 128), 51);
        assert_eq!(a.next_event(1000 + 128), u64::MAX);
    }

    #[test]
    fn scan_multi_follows_inputs() {
        let mut a = Adc::new();
        a.set_powered(true, 0);
        for (c, mv) in [(0, 0), (1, 1000), (2, 2000), (3, 5000)] {
            a.set_input(c, mv, 0);
        }
        a.write(ADCTL, SCAN | MULT, 0);
        assert_eq!(a.results_at(128), [0, 51, 102, 255]);
        a.set_input(0, 2500, 200);
        assert_eq!(a.results_at(200), [0, 51, 102, 255]);
        // AN0 is converted again by conversion 8, ending at 9 x 32 = 288.
        assert_eq!(a.results_at(287), [0, 51, 102, 255]);
        assert_eq!(a.results_at(288), [128, 51, 102, 255]);
        assert_eq!(a.next_event(224), 256);
    }

    #[test]
    fn unpowered_converter_never_finishes() {
        let mut a = Adc::new();
        a.write(ADCTL, 0x00, 0);
        assert_eq!(a.read(ADCTL, 10_000) & CCF, 0);
        assert_eq!(a.next_event(0), u64::MAX);
    }
}
