//! EEPROM programming through PPROG (M68HC11 RM section 4.4, "EEPROM"):
//! the on-chip array and the CONFIG cell are written only by a sequence,
//! never by a plain store.
//!
//! - Program a byte: PPROG = EELAT ($02); store the data at the address;
//!   PPROG = EELAT|EEPGM ($03); wait 10 ms; PPROG = $00. Programming only
//!   clears bits (the new byte is old AND data), so a byte is erased first.
//! - Byte erase: PPROG = BYTE|ERASE|EELAT ($16); store anything at the
//!   address; $17; wait; $00. Row erase: ROW|ERASE|EELAT ($0E) erases the
//!   16-byte row of the address. Bulk erase: ERASE|EELAT ($06) erases the
//!   whole array; with the address of CONFIG it erases CONFIG as well.
//! - The address CONFIG takes the same sequences (programming or erasing
//!   the CONFIG cell); the new value takes effect at the next reset.
//!
//! Assumptions, where the manual leaves the model a choice:
//! - The operation happens when EEPGM is cleared after it was set for at
//!   least 10 ms (20,000 E-cycles at 2 MHz, [`PROGRAM_CYCLES`]); cleared
//!   earlier, the cell is left unchanged (the chip would leave it partly
//!   programmed, which no program can rely on).
//! - EEPGM is taken only if EELAT was already set by an earlier write and
//!   stays set (the manual forbids setting both in one write); while
//!   EEPGM is set, the other PPROG bits and stores to the array are ignored.
//! - While EELAT is set the array is off the read bus: reads return $FF.
//! - The last store while EELAT is set (and EEPGM is not) chooses the
//!   address and data; stores with EELAT clear are ignored (not a fault).

use super::E_CLOCK_HZ;

/// PPROG: EEPROM programming voltage on.
pub const EEPGM: u8 = 0x01;
/// PPROG: EEPROM address/data latch (array off the read bus).
pub const EELAT: u8 = 0x02;
/// PPROG: erase instead of program.
pub const ERASE: u8 = 0x04;
/// PPROG: erase one 16-byte row.
pub const ROW: u8 = 0x08;
/// PPROG: erase one byte (wins over ROW).
pub const BYTE: u8 = 0x10;
/// Bytes per EEPROM row.
pub const ROW_BYTES: u16 = 16;
/// E-cycles the programming voltage must be on: 10 ms.
pub const PROGRAM_CYCLES: u64 = E_CLOCK_HZ / 100;

/// What a finished operation does to memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation {
    /// AND `data` into the byte at `addr`.
    Program {
        /// The address (an array byte or CONFIG).
        addr: u16,
        /// The data latched.
        data: u8,
    },
    /// Set every byte of `start..=end` to $FF (and CONFIG if `config`).
    Erase {
        /// First byte.
        start: u16,
        /// Last byte.
        end: u16,
        /// True if the CONFIG cell is erased too.
        config: bool,
    },
}

/// PPROG and the latched store.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Eeprom {
    pprog: u8,
    latched: Option<(u16, u8)>,
    pump_on_at: Option<u64>,
    /// Operations done since power-on (for views and tests).
    done: u64,
    /// The cycle the last operation was applied, and whether it was too short.
    last: Option<(u64, bool)>,
}

impl Eeprom {
    /// PPROG as a read returns it.
    pub fn pprog(&self) -> u8 {
        self.pprog
    }

    /// True while the array is off the read bus.
    pub fn latched(&self) -> bool {
        self.pprog & EELAT != 0
    }

    /// Operations applied since power-on.
    pub fn operations(&self) -> u64 {
        self.done
    }

    /// The cycle of the last EEPGM clear and whether it came too early
    /// (the cell was left unchanged).
    pub fn last_clear(&self) -> Option<(u64, bool)> {
        self.last
    }

    /// Reset: PPROG = $00, nothing latched.
    pub fn reset(&mut self) {
        self.pprog = 0;
        self.latched = None;
        self.pump_on_at = None;
    }

    /// A store to the array or CONFIG at `addr`: latched while EELAT is
    /// set and EEPGM is not; otherwise ignored.
    pub fn store(&mut self, addr: u16, value: u8) {
        if self.pprog & (EELAT | EEPGM) == EELAT {
            self.latched = Some((addr, value));
        }
    }

    /// A write of PPROG at `now`. Returns the operation to apply when it
    /// ends a long enough programming pulse. `array` is the EEPROM range
    /// and `config` the CONFIG address, to size an erase.
    pub fn write_pprog(
        &mut self,
        value: u8,
        now: u64,
        array: Option<(u16, u16)>,
        config: u16,
    ) -> Option<Operation> {
        let old = self.pprog;
        if old & EEPGM != 0 {
            // Programming: only clearing EEPGM (and EELAT with it) counts.
            if value & EEPGM != 0 {
                return None;
            }
            let start = self.pump_on_at.take().unwrap_or(now);
            let long_enough = now.saturating_sub(start) >= PROGRAM_CYCLES;
            self.last = Some((now, !long_enough));
            self.pprog = value & 0x1E;
            let latched = self.latched;
            if self.pprog & EELAT == 0 {
                self.latched = None;
            }
            if !long_enough {
                return None;
            }
            let (addr, data) = latched?;
            self.done += 1;
            return Some(if old & ERASE == 0 {
                Operation::Program { addr, data }
            } else if old & BYTE != 0 {
                Operation::Erase {
                    start: addr,
                    end: addr,
                    config: addr == config,
                }
            } else if old & ROW != 0 {
                if addr == config {
                    Operation::Erase {
                        start: addr,
                        end: addr,
                        config: true,
                    }
                } else {
                    let start = addr & !(ROW_BYTES - 1);
                    Operation::Erase {
                        start,
                        end: start + (ROW_BYTES - 1),
                        config: false,
                    }
                }
            } else {
                let (start, end) = array.unwrap_or((addr, addr));
                Operation::Erase {
                    start,
                    end,
                    config: addr == config,
                }
            });
        }
        let mut new = value & 0x1F;
        if new & EEPGM != 0 && (old & EELAT == 0 || new & EELAT == 0) {
            // EEPGM needs EELAT set by an earlier write.
            new &= !EEPGM;
        }
        if new & EELAT == 0 {
            self.latched = None;
        }
        if new & EEPGM != 0 {
            self.pump_on_at = Some(now);
        }
        self.pprog = new;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn program_needs_ten_ms() {
        let mut e = Eeprom::default();
        e.write_pprog(EELAT, 0, None, 0x103F);
        e.store(0xB600, 0x5A);
        e.write_pprog(EELAT | EEPGM, 10, None, 0x103F);
        assert_eq!(
            e.write_pprog(0, 10 + PROGRAM_CYCLES - 1, None, 0x103F),
            None
        );
        e.write_pprog(EELAT, 30_000, None, 0x103F);
        e.store(0xB600, 0x5A);
        e.write_pprog(EELAT | EEPGM, 30_010, None, 0x103F);
        assert_eq!(
            e.write_pprog(0, 30_010 + PROGRAM_CYCLES, None, 0x103F),
            Some(Operation::Program {
                addr: 0xB600,
                data: 0x5A
            })
        );
    }

    #[test]
    fn eepgm_with_eelat_in_one_write_is_refused() {
        let mut e = Eeprom::default();
        e.write_pprog(EELAT | EEPGM, 0, None, 0x103F);
        assert_eq!(e.pprog(), EELAT);
    }
}
