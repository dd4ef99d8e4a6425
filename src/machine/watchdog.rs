//! The watchdogs that reset the chip: the COP (a program that stops
//! feeding it) and the clock monitor (STOP with OPTION.CME set). The reset
//! happens between instructions, as on the chip, and is recorded.

use super::Machine;
use crate::cpu::RunState;

/// What reset the chip in a [`CopReset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResetCause {
    /// The COP watchdog timed out (vector $FFFA).
    Cop,
    /// The clock monitor (OPTION.CME) saw the clock stop: STOP with CME set
    /// (vector $FFFC).
    ClockMonitor,
}

/// E-cycles from the end of a STOP instruction until the clock monitor
/// resets the chip. The RM gives the monitor's RC delay only as a range
/// (no clock for about 5 to 100 microseconds is detected); this model takes
/// 10 microseconds, 20 E-cycles at 2 MHz, counted as if the clock ran.
pub const CLOCK_MONITOR_DELAY: u64 = 20;

/// A watchdog reset: the COP timed out (the program stopped feeding it
/// $55/$AA at COPRST; vector $FFFA), or the clock monitor saw the clock stop
/// (STOP with OPTION.CME set; vector $FFFC). The chip restarted through the
/// vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CopReset {
    /// Which watchdog.
    pub cause: ResetCause,
    /// The cycle the watchdog timed out.
    pub cycle: u64,
    /// Where the program was when it did (the instruction boundary at or
    /// after the timeout: the machine resets between instructions).
    pub pc: u16,
    /// The cycle of the program's last feed since the reset before, if any.
    pub last_feed: Option<u64>,
}

impl Machine {
    /// The COP watchdog resets the chip if it timed out: devices reset, the
    /// CPU restarts from the COP failure vector $FFFA; the event is kept.
    #[inline]
    pub(super) fn check_cop(&mut self) {
        let deadline = self.board.cop_deadline();
        if self.board.now() >= deadline {
            self.cop_reset(deadline);
        }
    }

    #[cold]
    fn cop_reset(&mut self, deadline: u64) {
        self.watchdog_reset(ResetCause::Cop, deadline, 0xFFFA);
    }

    /// A reset by a watchdog: recorded, devices reset, the CPU restarts
    /// through `vector`.
    fn watchdog_reset(&mut self, cause: ResetCause, cycle: u64, vector: u16) {
        self.cop_resets.push(CopReset {
            cause,
            cycle,
            pc: self.cpu.regs.pc,
            last_feed: self.board.cop_last_feed(),
        });
        self.board.reset();
        self.resume_write_at = None;
        self.cpu.reset(&mut self.board);
        self.cpu.regs.pc = self.peek_word(vector);
    }

    /// The clock monitor: with OPTION.CME set, a STOP stops the clock the
    /// monitor watches, and [`CLOCK_MONITOR_DELAY`] later it resets the chip
    /// through $FFFC (RM 5.4, "Clock monitor reset"). Called after a step
    /// that left the CPU stopped; true if it reset.
    pub(super) fn check_clock_monitor(&mut self, stopped_at: u64) -> bool {
        if self.cpu.state != RunState::Stopped || !self.board.clock_monitor_enabled() {
            return false;
        }
        let due = stopped_at.saturating_add(CLOCK_MONITOR_DELAY);
        if let Some(wait) = due.checked_sub(self.board.now()) {
            self.board.tick(wait as u32);
            self.cpu.cycles += wait;
        }
        self.cpu.state = RunState::Running;
        self.watchdog_reset(ResetCause::ClockMonitor, due, 0xFFFC);
        true
    }

    /// Every COP watchdog reset since the machine was made or reset.
    pub fn cop_resets(&self) -> &[CopReset] {
        &self.cop_resets
    }

    /// Sets the CONFIG EEPROM cell; it takes effect at the next reset
    /// ([`Machine::reset_button`]). `$08` turns the COP watchdog on.
    pub fn set_config_cell(&mut self, value: u8) {
        self.board.set_config_cell(value);
    }

    /// The CONFIG EEPROM cell (what the chip loads at the next reset).
    pub fn config_cell(&self) -> u8 {
        self.board.config_cell()
    }
}
