//! The COP watchdog (M68HC11 RM section 5.3, "Computer operating properly"):
//! enabled by CONFIG's NOCOP = 0 (an EEPROM cell, read at reset), timed by
//! OPTION's CR1:CR0 (E / 2^15 divided by 1, 4, 16 or 64), cleared by writing
//! $55 and then $AA to COPRST. When it times out the chip resets through the
//! COP failure vector $FFFA; the machine does that and records the event.
//!
//! Assumptions: the free-running E / 2^15 clock ticks at multiples of 2^15
//! E-cycles after reset; a clear resets the COP's own stages, which then
//! count N ticks after the first one that arrives (RM 5.2.2: the timeout
//! has a tolerance of minus zero to plus one E / 2^15 cycle), so the timeout
//! comes N x 2^15 plus (0, 2^15] E-cycles after the last clear; any write other than $AA after $55 (and any
//! write but $55 first) does nothing but un-arm the sequence.
//! The clock monitor (OPTION.CME) watches the E clock, which here stops only
//! in STOP: the machine resets through $FFFC then (`Machine::check_clock_monitor`).

/// NOCOP in CONFIG: 1 = watchdog off.
pub const NOCOP: u8 = 0x04;
/// E-cycles per tick of the COP's clock (E / 2^15).
pub const COP_TICK_CYCLES: u64 = 1 << 15;

/// The watchdog's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cop {
    enabled: bool,
    reset_at: u64,
    cleared_at: u64,
    armed: bool,
    last_feed: Option<u64>,
}

impl Cop {
    /// The watchdog after a reset at `now` with this CONFIG value.
    pub fn new(config: u8, now: u64) -> Self {
        Cop {
            enabled: config & NOCOP == 0,
            reset_at: now,
            cleared_at: now,
            armed: false,
            last_feed: None,
        }
    }

    /// True if CONFIG enabled it at the last reset.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    /// A write to COPRST at `now`; true if it completed a $55/$AA clear.
    pub fn write(&mut self, value: u8, now: u64) -> bool {
        match value {
            0x55 => self.armed = true,
            0xAA if self.armed => {
                self.armed = false;
                self.cleared_at = now;
                self.last_feed = Some(now);
                return true;
            }
            _ => self.armed = false,
        }
        false
    }

    /// The cycle the watchdog times out with rate bits `cr` (OPTION bits 1:0),
    /// `u64::MAX` when it is off.
    pub fn deadline(&self, cr: u8) -> u64 {
        if !self.enabled {
            return u64::MAX;
        }
        let n = 1u64 << (2 * (cr & 3));
        let since = self.cleared_at - self.reset_at.min(self.cleared_at);
        let first_tick = self.reset_at + (since / COP_TICK_CYCLES + 1) * COP_TICK_CYCLES;
        first_tick + n * COP_TICK_CYCLES
    }

    /// The cycle of the last completed clear since reset.
    pub fn last_feed(&self) -> Option<u64> {
        self.last_feed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequence_and_deadline() {
        let mut c = Cop::new(0x08, 0);
        assert_eq!(c.deadline(0), 2 * 32768);
        assert_eq!(c.deadline(1), 5 * 32768);
        assert!(!c.write(0xAA, 10));
        assert!(!c.write(0x55, 20) && c.write(0xAA, 30_000));
        assert_eq!(
            c.deadline(0),
            2 * 32768,
            "cleared at 30,000: tick at 32,768, then one more"
        );
        c.write(0x55, 40_000);
        c.write(0x12, 40_001);
        assert!(!c.write(0xAA, 40_002), "the sequence was broken");
        assert_eq!(Cop::new(0x0C, 0).deadline(0), u64::MAX);
    }
}
