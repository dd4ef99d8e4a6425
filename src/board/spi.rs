//! The MC68HC11 serial peripheral interface (M68HC11 RM section 8): SPCR,
//! SPSR, SPDR in master mode.
//!
//! A write to SPDR with SPE and MSTR set starts a transfer that takes eight
//! bit times at the SPCR rate (SPR1:SPR0 = E/2, E/4, E/16, E/32, so 16, 32,
//! 128 or 256 E-cycles a byte). Then SPIF rises and the byte reaches the slave
//! the board selects. SPIF (and WCOL) clear by reading SPSR with the flag set
//! and then accessing SPDR; until SPSR has been read that way, writes to SPDR
//! are inhibited. A write during a transfer sets WCOL and is lost. No slave on
//! the trainer11 model drives MISO, so the received byte is $FF (pulled up).
//! Mode fault detection (/SS low in master mode) is not modelled: the
//! firmware makes PD5 an output, which the chip's mode fault logic ignores.

use super::{Device, RegisterInfo};

/// SPCR bits.
pub mod spcr {
    /// Interrupt enable.
    pub const SPIE: u8 = 0x80;
    /// SPI enable.
    pub const SPE: u8 = 0x40;
    /// Port D wired-or mode.
    pub const DWOM: u8 = 0x20;
    /// Master mode.
    pub const MSTR: u8 = 0x10;
    /// Clock polarity.
    pub const CPOL: u8 = 0x08;
    /// Clock phase.
    pub const CPHA: u8 = 0x04;
}

/// SPSR: transfer complete.
pub const SPIF: u8 = 0x80;
/// SPSR: write collision.
pub const WCOL: u8 = 0x40;
/// SPSR: mode fault.
pub const MODF: u8 = 0x10;

const SPCR: u16 = 0x28;
const SPSR: u16 = 0x29;
const SPDR: u16 = 0x2A;

/// What a read of SPDR returns after a transfer: nothing drives MISO.
pub const MISO_IDLE: u8 = 0xFF;

/// E-cycles for one byte at SPR1:SPR0 = `spr` (8 bits at E/2, E/4, E/16, E/32).
pub fn cycles_per_byte(spr: u8) -> u64 {
    8 * [2, 4, 16, 32][(spr & 3) as usize]
}

/// The SPI in master mode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spi {
    spcr: u8,
    spsr: u8,
    /// SPSR was read with SPIF or WCOL set: the next SPDR access clears them.
    armed: bool,
    rx: u8,
    /// The byte being shifted out and the cycle its eighth bit ends.
    shifting: Option<(u8, u64)>,
    /// A finished byte the board has not routed yet.
    completed: Option<u8>,
    last_done: u64,
    transfers: u64,
    collisions: u64,
}

impl Default for Spi {
    fn default() -> Self {
        Self::new()
    }
}

impl Spi {
    /// The SPI at reset: SPCR $04 (CPHA=1), disabled.
    pub fn new() -> Self {
        let mut s = Spi {
            spcr: 0,
            spsr: 0,
            armed: false,
            rx: 0,
            shifting: None,
            completed: None,
            last_done: 0,
            transfers: 0,
            collisions: 0,
        };
        s.reset(0);
        s
    }

    /// The byte whose transfer finished since the last call (the board routes it).
    pub fn take_completed(&mut self) -> Option<u8> {
        self.completed.take()
    }

    /// The cycle the current transfer ends, or when the last one ended.
    pub fn busy_until(&self) -> u64 {
        match self.shifting {
            Some((_, done)) => done,
            None => self.last_done,
        }
    }

    /// The fields a register read can change (SPSR, the clear arm, the
    /// received byte), for the machine's fast-forward check.
    pub fn read_state(&self) -> (u8, bool, u8) {
        (self.spsr, self.armed, self.rx)
    }

    /// SPSR as a read at `now` returns it, if that read arms no flag clear
    /// (SPIF and WCOL both clear): then reading it again changes nothing
    /// until the next transfer ends ([`crate::board::Board::quiet_read`]).
    pub(crate) fn quiet_status(&self, now: u64) -> Option<u8> {
        let v = self.spsr_at(now);
        (v & (SPIF | WCOL) == 0).then_some(v)
    }

    /// Bytes sent since reset.
    pub fn transfers(&self) -> u64 {
        self.transfers
    }

    /// Writes to SPDR lost to a transfer in progress (WCOL) since reset.
    pub fn collisions(&self) -> u64 {
        self.collisions
    }

    /// The SPI interrupt vector ($FFD8) if SPIE is set and SPIF or MODF is.
    /// True if SPIE is set: a transfer ending may raise the SPI interrupt.
    pub fn interrupts_enabled(&self) -> bool {
        self.spcr & spcr::SPIE != 0
    }

    /// The SPI vector ($FFD8) while SPIF or MODF is set with SPIE.
    pub fn irq_vector(&self) -> Option<u16> {
        (self.spcr & spcr::SPIE != 0 && self.spsr & (SPIF | MODF) != 0).then_some(0xFFD8)
    }

    fn spsr_at(&self, now: u64) -> u8 {
        match self.shifting {
            Some((_, done)) if now >= done => self.spsr | SPIF,
            _ => self.spsr,
        }
    }

    fn access_spdr(&mut self) {
        if self.armed {
            self.spsr &= !(SPIF | WCOL);
            self.armed = false;
        }
    }
}

impl Device for Spi {
    fn read(&mut self, addr: u16, now: u64) -> u8 {
        self.tick(now);
        match addr {
            SPCR => self.spcr,
            SPSR => {
                if self.spsr & (SPIF | WCOL) != 0 {
                    self.armed = true;
                }
                self.spsr
            }
            SPDR => {
                self.access_spdr();
                self.rx
            }
            _ => super::UNMAPPED_READ,
        }
    }

    fn peek(&self, addr: u16, now: u64) -> u8 {
        match addr {
            SPCR => self.spcr,
            SPSR => self.spsr_at(now),
            SPDR => match self.shifting {
                Some((_, done)) if now >= done => MISO_IDLE,
                _ => self.rx,
            },
            _ => super::UNMAPPED_READ,
        }
    }

    fn write(&mut self, addr: u16, value: u8, now: u64) {
        self.tick(now);
        match addr {
            SPCR => self.spcr = value,
            // SPSR is read-only.
            SPSR => {}
            SPDR => {
                self.access_spdr();
                if self.spsr & SPIF != 0 {
                    // Inhibited until SPSR has been read with SPIF set.
                    return;
                }
                if self.shifting.is_some() {
                    self.spsr |= WCOL;
                    self.collisions += 1;
                    return;
                }
                let master = spcr::SPE | spcr::MSTR;
                if self.spcr & master == master {
                    let done = now + cycles_per_byte(self.spcr);
                    self.shifting = Some((value, done));
                }
                // Disabled or slave: the byte waits for a master that the
                // trainer11 does not have.
            }
            _ => {}
        }
    }

    fn tick(&mut self, now: u64) -> u64 {
        if let Some((byte, done)) = self.shifting {
            if now >= done {
                self.shifting = None;
                self.spsr |= SPIF;
                self.rx = MISO_IDLE;
                self.completed = Some(byte);
                self.last_done = done;
                self.transfers += 1;
            } else {
                return done;
            }
        }
        u64::MAX
    }

    fn reset(&mut self, now: u64) {
        self.spcr = spcr::CPHA;
        self.spsr = 0;
        self.armed = false;
        self.rx = 0;
        self.shifting = None;
        self.completed = None;
        self.last_done = now;
        self.transfers = 0;
        self.collisions = 0;
    }

    fn registers(&self, now: u64) -> Vec<RegisterInfo> {
        let c = self.spcr;
        let s = self.spsr_at(now);
        let rate = [2, 4, 16, 32][(c & 3) as usize];
        vec![
            RegisterInfo::byte(
                "SPCR",
                SPCR,
                c,
                format!(
                    "SPE={} MSTR={} CPOL={} CPHA={} rate E/{rate}",
                    (c >> 6) & 1,
                    (c >> 4) & 1,
                    (c >> 3) & 1,
                    (c >> 2) & 1
                ),
            ),
            RegisterInfo::byte(
                "SPSR",
                SPSR,
                s,
                format!(
                    "SPIF={} WCOL={} MODF={}{}",
                    (s >> 7) & 1,
                    (s >> 6) & 1,
                    (s >> 4) & 1,
                    if self.shifting.is_some() && s & SPIF == 0 {
                        " (transfer in progress)"
                    } else {
                        ""
                    }
                ),
            ),
            RegisterInfo::byte(
                "SPDR",
                SPDR,
                self.peek(SPDR, now),
                match self.shifting {
                    Some((b, _)) => format!("sending ${b:02X}"),
                    None => "received byte".to_string(),
                },
            ),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn master(spr: u8) -> Spi {
        let mut s = Spi::new();
        s.write(SPCR, spcr::SPE | spcr::MSTR | spr, 0);
        s
    }

    #[test]
    fn spif_after_eight_bit_times_for_each_rate() {
        for (spr, cycles) in [(0, 16), (1, 32), (2, 128), (3, 256)] {
            let mut s = master(spr);
            s.write(SPDR, 0x5A, 100);
            assert_eq!(s.tick(100 + cycles - 1), 100 + cycles);
            assert_eq!(s.read(SPSR, 100 + cycles - 1) & SPIF, 0);
            assert_eq!(s.read(SPSR, 100 + cycles) & SPIF, SPIF);
            assert_eq!(s.take_completed(), Some(0x5A));
        }
    }

    #[test]
    fn spif_clears_by_spsr_then_spdr() {
        let mut s = master(0);
        s.write(SPDR, 1, 0);
        s.tick(16);
        // Reading SPDR without first reading SPSR does not clear SPIF.
        assert_eq!(s.read(SPDR, 16), MISO_IDLE);
        assert_eq!(s.peek(SPSR, 16) & SPIF, SPIF);
        // And a write now is inhibited.
        s.write(SPDR, 2, 17);
        assert_eq!(s.tick(17), u64::MAX, "no transfer started");
        assert_eq!(s.read(SPSR, 18) & SPIF, SPIF);
        s.read(SPDR, 19);
        assert_eq!(s.read(SPSR, 20) & SPIF, 0);
    }

    #[test]
    fn clearing_access_may_be_the_next_write() {
        let mut s = master(0);
        s.write(SPDR, 1, 0);
        s.read(SPSR, 16);
        s.write(SPDR, 2, 20);
        assert_eq!(s.peek(SPSR, 20) & SPIF, 0);
        assert_eq!(s.tick(36), u64::MAX);
        assert_eq!(s.take_completed(), Some(2));
    }

    #[test]
    fn write_during_transfer_sets_wcol() {
        let mut s = master(2);
        s.write(SPDR, 1, 0);
        s.write(SPDR, 2, 10);
        assert_eq!(s.read(SPSR, 11) & WCOL, WCOL);
        assert_eq!(s.collisions(), 1);
        s.tick(128);
        assert_eq!(s.take_completed(), Some(1));
        s.read(SPSR, 130);
        s.read(SPDR, 131);
        assert_eq!(s.read(SPSR, 132), 0);
    }

    #[test]
    fn disabled_spi_sends_nothing() {
        let mut s = Spi::new();
        s.write(SPDR, 1, 0);
        assert_eq!(s.tick(10_000), u64::MAX);
        assert_eq!(s.take_completed(), None);
    }

    #[test]
    fn interrupt_when_enabled() {
        let mut s = master(0);
        s.write(SPCR, spcr::SPIE | spcr::SPE | spcr::MSTR, 0);
        s.write(SPDR, 1, 0);
        assert_eq!(s.irq_vector(), None);
        s.tick(16);
        assert_eq!(s.irq_vector(), Some(0xFFD8));
    }
}
